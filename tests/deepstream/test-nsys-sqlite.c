/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof tests: the GPU metrics of an nsys SQLite export
 * (src/deepstream/gp-nsys-sqlite, gp-nsys-metrics) against a database
 * built to a known truth (tests/deepstream/data/gpu-metrics.sql: no
 * recorded export exists), the spellings of older releases, the refusals;
 * then `gstprof ds profile`'s GPU metrics section and the bound's signals
 * from them, from --from-stats and live with the stand-in nsys, and the
 * capture taken again without GPU metrics when the driver refuses its
 * counters. */
#include <math.h>
#include <glib/gstdio.h>
#include <sqlite3.h>
#include <string.h>

#include "deepstream/gp-nsys-sqlite.h"
#include "gp-test-fixtures.h"
#include "gp-test-util.h"

static gchar *gp_tmp;

/* @sql run into a new database @name in the temporary folder */
static gchar *
make_db (const gchar * name, const gchar * sql)
{
  gchar *path = g_build_filename (gp_tmp, name, NULL);
  gchar *err = NULL;
  sqlite3 *db;

  g_remove (path);
  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  if (sqlite3_exec (db, sql, NULL, NULL, &err) != SQLITE_OK)
    g_error ("%s: %s", name, err);
  sqlite3_close (db);
  return path;
}

static gchar *
truth_db (const gchar * name)
{
  gchar *file = g_build_filename (g_getenv ("GP_SOURCE_ROOT"), "tests",
      "deepstream", "data", "gpu-metrics.sql", NULL);
  gchar *sql, *path;

  g_assert_true (g_file_get_contents (file, &sql, NULL, NULL));
  path = make_db (name, sql);
  g_free (sql);
  g_free (file);
  return path;
}

static const GpNsysMetric *
metric (const GpNsysMetrics * m, guint gpu, const gchar * name)
{
  guint i;

  for (i = 0; i < m->metrics->len; i++) {
    const GpNsysMetric *x = g_ptr_array_index (m->metrics, i);

    if (x->gpu == gpu && strcmp (x->name, name) == 0)
      return x;
  }
  g_error ("no %s on GPU %u", name, gpu);
  return NULL;
}

static void
test_truth (void)
{
  gchar *path = truth_db ("truth.sqlite");
  GError *err = NULL;
  GpNsysMetrics *m = gp_nsys_sqlite_load (path, &err);
  const GpNsysMetric *sm;

  g_assert_no_error (err);
  /* 4 metrics x 1000 on GPU 0, 4 x 500 on GPU 1; not the 10 negative
   * times, the 10 unnamed, nor the name listed twice counted twice */
  g_assert_cmpuint (m->n_samples, ==, 6000);
  g_assert_cmpuint (m->metrics->len, ==, 8);
  g_assert_cmpfloat (m->rate_hz, ==, 10000);
  g_assert_cmpfloat_with_epsilon (m->span_s, 0.0999, 1e-9);
  sm = metric (m, 0, "SM Active [Throughput %]");
  g_assert_cmpint (sm->role, ==, GP_NSYS_METRIC_SM_ACTIVE);
  g_assert_cmpuint (sm->values.n, ==, 1000);
  g_assert_cmpfloat (sm->values.mean, ==, 49.5);
  g_assert_cmpfloat (sm->values.p50, ==, 49);
  g_assert_cmpfloat (sm->values.p95, ==, 94);
  g_assert_cmpfloat (sm->values.max, ==, 99);
  g_assert_cmpfloat (gp_nsys_metrics_mean (m, 0, GP_NSYS_METRIC_DRAM_READ),
      ==, 80);
  g_assert_cmpfloat (gp_nsys_metrics_mean (m, 0, GP_NSYS_METRIC_DRAM_WRITE),
      ==, 10);
  g_assert_cmpfloat (gp_nsys_metrics_mean (m, 1, GP_NSYS_METRIC_SM_ACTIVE),
      ==, 90);
  g_assert_cmpuint (metric (m, 1, "GPC Clock Frequency [MHz]")->values.n, ==,
      500);
  g_assert_cmpint (metric (m, 1, "GPC Clock Frequency [MHz]")->role, ==,
      GP_NSYS_METRIC_OTHER);
  g_assert_true (isnan (gp_nsys_metrics_mean (m, 2,
              GP_NSYS_METRIC_SM_ACTIVE)));
  /* by GPU, then name */
  g_assert_cmpuint (((GpNsysMetric *) g_ptr_array_index (m->metrics,
              4))->gpu, ==, 1);
  g_assert_cmpstr (((GpNsysMetric *) g_ptr_array_index (m->metrics,
              0))->name, ==, "DRAM Read Bandwidth [Throughput %]");
  gp_nsys_metrics_free (m);
  g_free (path);
}

/* an older layout: the names table's columns `id` and `name`, no typeId
 * in it (the join on the metric alone), "SMs Active", times stored as
 * reals; a text or missing value is no sample, and a metric with no
 * sample in the capture is not listed */
static void
test_old_schema (void)
{
  gchar *path = make_db ("old.sqlite",
      "CREATE TABLE TARGET_INFO_GPU_METRICS (id INTEGER, name TEXT);"
      "CREATE TABLE GPU_METRICS (timestamp REAL, typeId INTEGER, "
      "metricId INTEGER, value);"
      "INSERT INTO TARGET_INFO_GPU_METRICS VALUES (5, 'SMs Active'), "
      "(8, 'Early');"
      "INSERT INTO GPU_METRICS VALUES (1000.0, 2, 5, 20), (2000.0, 2, 5, 40),"
      " (3000.0, 2, 5, 'busy'), (4000.0, 2, 5, NULL), (5000.0, 2, 6, 70),"
      " (-5.0, 2, 8, 1);");
  GError *err = NULL;
  GpNsysMetrics *m = gp_nsys_sqlite_load (path, &err);

  g_assert_no_error (err);
  g_assert_cmpuint (m->n_samples, ==, 2);
  g_assert_cmpuint (m->metrics->len, ==, 1);
  g_assert_cmpfloat (gp_nsys_metrics_mean (m, 2, GP_NSYS_METRIC_SM_ACTIVE),
      ==, 30);
  g_assert_true (isnan (m->rate_hz));
  gp_nsys_metrics_free (m);
  g_free (path);
}

static void
test_roles (void)
{
  g_assert_cmpint (gp_nsys_metric_role ("SM Active"), ==,
      GP_NSYS_METRIC_SM_ACTIVE);
  g_assert_cmpint (gp_nsys_metric_role ("SM Issue [Throughput %]"), ==,
      GP_NSYS_METRIC_SM_ISSUE);
  g_assert_cmpint (gp_nsys_metric_role ("Tensor Active [Throughput %]"), ==,
      GP_NSYS_METRIC_TENSOR_ACTIVE);
  /* not a share of the peak, or another metric named alike */
  g_assert_cmpint (gp_nsys_metric_role ("SM Active [Warps]"), ==,
      GP_NSYS_METRIC_OTHER);
  g_assert_cmpint (gp_nsys_metric_role ("SM Active Cycles"), ==,
      GP_NSYS_METRIC_OTHER);
}

static void
assert_refused (const gchar * path, gint code, const gchar * why)
{
  GError *err = NULL;

  g_assert_null (gp_nsys_sqlite_load (path, &err));
  g_assert_error (err, GP_NSYS_ERROR, code);
  g_assert_true (g_str_has_prefix (err->message, path));
  g_assert_nonnull (strstr (err->message, why));
  g_assert_null (strchr (err->message, '\n'));
  g_error_free (err);
}

static void
test_refusals (void)
{
  gchar *text = g_build_filename (gp_tmp, "text.sqlite", NULL);
  gchar *none = make_db ("none.sqlite", "CREATE TABLE StringIds (id "
      "INTEGER PRIMARY KEY, value TEXT NOT NULL);");
  gchar *empty = make_db ("empty.sqlite", "CREATE TABLE "
      "TARGET_INFO_GPU_METRICS (typeId, metricId, metricName);"
      "CREATE TABLE GPU_METRICS (timestamp, typeId, metricId, value);");
  gchar *nameless = make_db ("nameless.sqlite", "CREATE TABLE GPU_METRICS "
      "(timestamp, typeId, metricId, value);");
  gchar *columns = make_db ("columns.sqlite", "CREATE TABLE "
      "TARGET_INFO_GPU_METRICS (typeId, metricId, label);"
      "CREATE TABLE GPU_METRICS (timestamp, typeId, metricId, value);");

  g_assert_true (g_file_set_contents (text, "Time (%),Total Time (ns)\n", -1,
          NULL));
  assert_refused (text, GP_NSYS_ERROR_PARSE, "not an SQLite database");
  assert_refused ("/nonexistent.sqlite", GP_NSYS_ERROR_PARSE, "no such file");
  assert_refused (none, GP_NSYS_ERROR_NO_METRICS, "no GPU_METRICS table "
      "(captured without --gpu-metrics-devices)");
  assert_refused (empty, GP_NSYS_ERROR_NO_METRICS, "no GPU metric sample");
  assert_refused (nameless, GP_NSYS_ERROR_PARSE,
      "without TARGET_INFO_GPU_METRICS");
  assert_refused (columns, GP_NSYS_ERROR_PARSE, "metricName");
  g_free (text);
  g_free (none);
  g_free (empty);
  g_free (nameless);
  g_free (columns);
}

/* ---- gstprof ds profile ---------------------------------------------- */

/* a folder @name holding the 2024.1.1 nvtx_sum csv */
static gchar *
stats_dir (const gchar * name)
{
  gchar *dir = g_build_filename (gp_tmp, name, NULL);
  gchar *fix = gp_test_fixture_path ("telemetry",
      "nsys_stats_csv_2024.1.1_nvtx_sum.txt");
  gchar *text, *path;

  if (fix == NULL) {
    g_free (dir);
    return NULL;
  }
  g_mkdir_with_parents (dir, 0755);
  g_assert_true (g_file_get_contents (fix, &text, NULL, NULL));
  path = g_build_filename (dir, "nvtx_sum.csv", NULL);
  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  g_free (path);
  g_free (text);
  g_free (fix);
  return dir;
}

static void
assert_metrics_section (const gchar * out)
{
  gp_test_assert_has (out, "6000 samples over 0.1 s, sampled at 10000 Hz.");
  gp_test_assert_has (out,
      "| 0 | SM Active [Throughput %] | 1000 | 49.5 | 49.0 | 94.0 | 99.0 |");
  gp_test_assert_has (out,
      "| 1 | SM Active [Throughput %] | 500 | 90.0 | 90.0 | 90.0 | 90.0 |");
  gp_test_assert_has (out, "| 0 | GPC Clock Frequency [MHz] | 1000 | 1980.0");
  /* GPU 0: 80 + 10 % of the DRAM peak with its SMs at 49.5 %; GPU 1: its
   * SMs at 90 %. One signal each: not enough to decide */
  gp_test_assert_has (out, "- MEMORY BANDWIDTH signal: GPU 0's DRAM "
      "throughput is 90 % of its peak, above 85 % (GP_DS_DRAM_PCT), while "
      "its SMs are active 50 %");
  gp_test_assert_has (out, "- COMPUTE signal: GPU 1's SMs are active 90 % "
      "of the time, above 70 % (GP_DS_SM_ACTIVE_PCT");
  gp_test_assert_has (out, "**INCONCLUSIVE**: the signals disagree: "
      "COMPUTE (1), MEMORY BANDWIDTH (1)\n");
}

static void
test_profile_from_stats (void)
{
  gchar *dir = stats_dir ("stats"), *db, *bad;
  GpTestRun r;

  if (dir == NULL)
    return;
  db = truth_db ("stats/report.sqlite");
  gp_test_run_gstprof (&r, gp_tmp, "ds", "profile", "--from-stats", dir,
      NULL);
  g_assert_cmpint (r.code, ==, 0);
  gp_test_assert_has (r.out, "## GPU metrics\n\nFrom ");
  gp_test_assert_has (r.out, "report.sqlite: ");
  assert_metrics_section (r.out);
  gp_test_run_clear (&r);

  /* a damaged export is bad input, named */
  bad = g_build_filename (dir, "report.sqlite", NULL);
  g_assert_true (g_file_set_contents (bad, "SQLite format 3", -1, NULL));
  gp_test_run_gstprof (&r, gp_tmp, "ds", "profile", "--from-stats", dir,
      NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, "report.sqlite: not an SQLite database");
  gp_test_run_clear (&r);

  /* an export without GPU metrics is said in the report */
  g_free (make_db ("stats/report.sqlite", "CREATE TABLE StringIds (id "
          "INTEGER PRIMARY KEY, value TEXT NOT NULL);"));
  gp_test_run_gstprof (&r, gp_tmp, "ds", "profile", "--from-stats", dir,
      NULL);
  g_assert_cmpint (r.code, ==, 0);
  gp_test_assert_has (r.out, "## GPU metrics\n\nNot measured: ");
  gp_test_assert_has (r.out, "no GPU_METRICS table (captured without "
      "--gpu-metrics-devices).");
  gp_test_run_clear (&r);
  g_free (bad);
  g_free (db);
  g_free (dir);
}

static void
run_live (GpTestRun * r, const gchar * out)
{
  gp_test_run_gstprof (r, gp_tmp, "ds", "profile", "--duration", "1s",
      "--out", out, "--", "gst-launch-1.0", "-q", "videotestsrc",
      "num-buffers=5", "!", "fakesink", NULL);
}

/* the stand-in nsys leaves the export beside the report, as nsys stats
 * does; where the driver refuses the counters, the capture is taken again
 * without GPU metrics and the report says why */
static void
test_profile_live (void)
{
  gchar *replay = stats_dir ("replay"), *db, *out, *path, *old_path;
  GpTestRun r;

  if (replay == NULL)
    return;
  db = truth_db ("replay/report.sqlite");
  g_setenv ("GP_STANDIN_NSYS_DIR", replay, TRUE);
  path = g_build_filename (g_getenv ("GP_SOURCE_ROOT"), "tests",
      "deepstream", "stand-in", NULL);
  old_path = gp_test_path_prepend (path);
  g_free (path);

  out = g_build_filename (gp_tmp, "live", NULL);
  run_live (&r, out);
  g_assert_cmpint (r.code, ==, 0);
  path = g_build_filename (out, "report.sqlite", NULL);
  gp_test_assert_has (r.out, path);
  g_free (path);
  assert_metrics_section (r.out);
  gp_test_run_clear (&r);
  g_free (out);

  g_setenv ("GP_STANDIN_NSYS_NO_COUNTERS", "1", TRUE);
  out = g_build_filename (gp_tmp, "live-refused", NULL);
  run_live (&r, out);
  g_unsetenv ("GP_STANDIN_NSYS_NO_COUNTERS");
  g_assert_cmpint (r.code, ==, 0);
  gp_test_assert_has (r.out, "## GPU metrics\n\nNot measured: nsys may not "
      "read this GPU's counters (GPU Metrics: ERR_NVGPUCTRPERM");
  gp_test_assert_has (r.out, "the capture was taken again without "
      "--gpu-metrics-devices");
  /* the second capture ran: its reports are there */
  gp_test_assert_has (r.out, "| step_0 | - | 1 | 1631.356 |");
  gp_test_run_clear (&r);
  gp_test_path_restore (old_path);
  g_unsetenv ("GP_STANDIN_NSYS_DIR");
  g_free (out);
  g_free (db);
  g_free (replay);
}

int
main (int argc, char **argv)
{
  gint code;

  g_test_init (&argc, &argv, NULL);
  gp_tmp = g_dir_make_tmp ("gp-nsys-sqlite-XXXXXX", NULL);
  g_test_add_func ("/nsys-sqlite/truth", test_truth);
  g_test_add_func ("/nsys-sqlite/old-schema", test_old_schema);
  g_test_add_func ("/nsys-sqlite/roles", test_roles);
  g_test_add_func ("/nsys-sqlite/refusals", test_refusals);
  g_test_add_func ("/ds/profile/gpu-metrics/from-stats",
      test_profile_from_stats);
  g_test_add_func ("/ds/profile/gpu-metrics/live", test_profile_live);
  code = g_test_run ();
  gp_test_remove_tree (gp_tmp);
  g_free (gp_tmp);
  return code;
}
