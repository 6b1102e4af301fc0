/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof tests
 *
 * test-ds-perf.c: `gstprof ds perf` (src/deepstream/gp-ds-perf): the two
 * real deepstream-app logs of tests/fixtures/telemetry against their
 * values read by hand; the Python apps' dict form, the several-instances
 * prefix and the latency lines built from the format strings DeepStream
 * prints them with (nvds_measure_buffer_latency: "Comp name = %s
 * in_system_timestamp = %lf out_system_timestamp = %lf \<indent>component
 * latency= %lf", the muxer's "component_latency = %lf", deepstream-app's
 * "Source id = %d Frame_num = %d Frame latency = %lf (ms) "), with known
 * statistics; damaged lines refused with file:line; the binary's exit
 * codes.
 */
#include <math.h>
#include <string.h>
#include <glib/gstdio.h>

#include "deepstream/gp-ds-perf.h"
#include "gp-test-fixtures.h"
#include "gp-test-util.h"

static const GpDsPerfSource *
perf_source (const GpDsPerf * p, const gchar * name)
{
  guint i;

  for (i = 0; i < p->sources->len; i++) {
    const GpDsPerfSource *s = g_ptr_array_index (p->sources, i);

    if (strcmp (s->name, name) == 0)
      return s;
  }
  g_assert_not_reached ();
  return NULL;
}

static gdouble
perf_at (const GArray * a, guint i)
{
  g_assert_cmpuint (i, <, a->len);
  return g_array_index (a, gdouble, i);
}

/* 1 stream on Orin: header, 0.00, then 51.56 59.97 59.90 60.10, ^C, 59.98
 * (averages 51.50 56.31 57.57 58.27 58.63), tabs trailing every line */
static void
test_orin_1stream (void)
{
  gchar *path = gp_test_fixture_path ("telemetry",
      "deepstream_app_perf_1stream_orin_full_log.txt");
  GError *err = NULL;
  GpDsPerf *p;
  const GpDsPerfSource *s;
  static const gdouble cur[] = { 0, 51.56, 59.97, 59.90, 60.10, 59.98 };
  static const gdouble avg[] = { 0, 51.50, 56.31, 57.57, 58.27, 58.63 };
  guint i;

  if (path == NULL)
    return;
  p = gp_ds_perf_load (path, &err);
  g_assert_no_error (err);
  g_assert_cmpuint (p->sources->len, ==, 1);
  g_assert_cmpuint (p->reports, ==, 6);
  g_assert_cmpuint (p->lines, ==, 19);
  s = perf_source (p, "0");
  g_assert_cmpuint (s->current->len, ==, 6);
  for (i = 0; i < G_N_ELEMENTS (cur); i++) {
    g_assert_cmpfloat_with_epsilon (perf_at (s->current, i), cur[i], 1e-9);
    g_assert_cmpfloat_with_epsilon (perf_at (s->average, i), avg[i], 1e-9);
  }
  /* steady: the five values after the 0.00 */
  g_assert_cmpfloat_with_epsilon (gp_ds_perf_source_steady (s),
      (51.56 + 59.97 + 59.90 + 60.10 + 59.98) / 5, 1e-9);
  g_assert_cmpuint (p->latency->len, ==, 0);
  gp_ds_perf_free (p);
  g_free (path);
}

/* 2 streams in k8s, space-aligned: 0.00 twice, then 14.89/14.95,
 * 15.22/15.18, 14.84/14.80 */
static void
test_k8s_2streams (void)
{
  gchar *path = gp_test_fixture_path ("telemetry",
      "deepstream_app_perf_2streams_k8s_log.txt");
  GError *err = NULL;
  GpDsPerf *p;
  const GpDsPerfSource *s0, *s1;

  if (path == NULL)
    return;
  p = gp_ds_perf_load (path, &err);
  g_assert_no_error (err);
  g_assert_cmpuint (p->sources->len, ==, 2);
  g_assert_cmpuint (p->reports, ==, 5);
  s0 = perf_source (p, "0");
  s1 = perf_source (p, "1");
  g_assert_cmpuint (s1->current->len, ==, 5);
  g_assert_cmpfloat_with_epsilon (perf_at (s0->current, 3), 15.22, 1e-9);
  g_assert_cmpfloat_with_epsilon (perf_at (s0->average, 4), 14.97, 1e-9);
  g_assert_cmpfloat_with_epsilon (perf_at (s1->current, 2), 14.95, 1e-9);
  g_assert_cmpfloat_with_epsilon (perf_at (s1->average, 3), 14.95, 1e-9);
  g_assert_cmpfloat_with_epsilon (gp_ds_perf_source_steady (s1),
      (14.95 + 15.18 + 14.80) / 3, 1e-9);
  gp_ds_perf_free (p);
  g_free (path);
}

/* Constructed: the dict form among other lines, an instance prefix, the
 * three latency forms, values with known statistics (latency 1..20 ms in
 * a shuffled order: mean 10.5, nearest-rank p50 10, p95 19, max 20). */
static void
test_constructed (void)
{
  GString *log = g_string_new ("** INFO: <bus_callback:291>: Pipeline "
      "ready\n"
      "**PERF:  {'stream0': 30.0, 'stream1': 29.9}\n"
      "Frame Number=0 Number of Objects=5 Vehicle_count=3\n"
      "**PERF:  {'stream0': 31.5, 'stream1': 28.25}\r\n"
      "**PERF(1):  12.50 (12.00)\t7.25 (7.00)\t\n");
  static const gint order[] = { 7, 20, 1, 14, 3, 18, 10, 5, 12, 16, 2, 9,
    19, 4, 11, 15, 6, 13, 8, 17
  };
  GError *err = NULL;
  GpDsPerf *p;
  const GpDsPerfLatency *dec = NULL, *mux = NULL, *frame = NULL;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (order); i++) {
    g_string_append_printf (log, "\n************BATCH-NUM = %u"
        "**************\n", i);
    g_string_append_printf (log, "Comp name = nvv4l2decoder0 "
        "in_system_timestamp = %lf out_system_timestamp = %lf "
        "              component latency= %lf\n", 1700000000000.0 + i,
        1700000000000.0 + i + order[i], (gdouble) order[i]);
    g_string_append_printf (log, "Comp name = nvstreammux-stream0 "
        "source_id = 0 pad_index = 0 frame_num = %u               "
        "in_system_timestamp = %lf out_system_timestamp = %lf "
        "              component_latency = %lf\n", i, 1.0, 3.5, 2.5);
    g_string_append_printf (log, "Source id = 0 Frame_num = %u Frame "
        "latency = %lf (ms) \n", i, 40.0 + order[i]);
  }
  p = gp_ds_perf_parse (log->str, log->len, "app.log", &err);
  g_assert_no_error (err);
  g_assert_cmpuint (p->reports, ==, 3);
  g_assert_cmpuint (p->sources->len, ==, 4);
  g_assert_cmpfloat_with_epsilon (perf_at (perf_source (p,
              "stream1")->current, 1), 28.25, 1e-9);
  g_assert_true (isnan (perf_at (perf_source (p, "stream0")->average, 0)));
  g_assert_cmpfloat_with_epsilon (perf_at (perf_source (p, "1:1")->average,
          0), 7.00, 1e-9);
  g_assert_cmpfloat_with_epsilon (perf_at (perf_source (p, "1:0")->current,
          0), 12.50, 1e-9);
  for (i = 0; i < p->latency->len; i++) {
    const GpDsPerfLatency *l = g_ptr_array_index (p->latency, i);

    if (strcmp (l->name, "nvv4l2decoder0") == 0)
      dec = l;
    else if (strcmp (l->name, "nvstreammux-stream0") == 0)
      mux = l;
    else if (strcmp (l->name, "frame (source 0)") == 0)
      frame = l;
  }
  g_assert_cmpuint (p->latency->len, ==, 3);
  g_assert_nonnull (dec);
  g_assert_nonnull (mux);
  g_assert_nonnull (frame);
  g_assert_cmpuint (dec->ms->len, ==, 20);
  g_assert_cmpfloat_with_epsilon (dec->mean, 10.5, 1e-9);
  g_assert_cmpfloat_with_epsilon (dec->p50, 10, 1e-9);
  g_assert_cmpfloat_with_epsilon (dec->p95, 19, 1e-9);
  g_assert_cmpfloat_with_epsilon (dec->max, 20, 1e-9);
  g_assert_cmpfloat_with_epsilon (mux->mean, 2.5, 1e-9);
  g_assert_cmpfloat_with_epsilon (frame->p95, 59, 1e-9);
  g_assert_cmpfloat_with_epsilon (frame->mean, 50.5, 1e-9);
  gp_ds_perf_free (p);
  g_string_free (log, TRUE);
}

static void
perf_refused (const gchar * text, const gchar * needle)
{
  GError *err = NULL;
  GpDsPerf *p = gp_ds_perf_parse (text, strlen (text), "x.log", &err);

  g_assert_null (p);
  g_assert_error (err, GP_DS_PERF_ERROR, GP_DS_PERF_ERROR_PARSE);
  g_assert_null (strchr (err->message, '\n'));
  if (strstr (err->message, needle) == NULL)
    g_error ("'%s' not in '%s'", needle, err->message);
  g_error_free (err);
}

static void
test_damaged (void)
{
  perf_refused ("ok\n**PERF:  30.0 (29.0)\t3x.0 (1.0)\n", "x.log:2:");
  perf_refused ("**PERF:  30.0 29.0\n", "'(average)' expected");
  perf_refused ("**PERF:  {'stream0': -3}\n", "x.log:1: **PERF dict");
  perf_refused ("**PERF:  {'stream0' 3}\n", "':' expected");
  perf_refused ("**PERF:  nan (nan)\n", "not a number");
  perf_refused ("**PERF:  1e400 (1)\n", "not a number");
  perf_refused ("a\n\nComp name = dec0 latency= x\n", "x.log:3: Comp name");
  perf_refused ("nothing\nto see\n", "no **PERF or latency line among its "
      "2 lines");
  perf_refused ("**PERF:  \t\n", "no source's fps");
  /* a dict of no source yet is no report (found by the fuzz target) */
  perf_refused ("**PERF:  {}\n", "no **PERF or latency line");
  {
    /* a last line cut short is left out, the rest kept */
    const gchar *cut = "**PERF:  30.00 (30.00)\t\n**PERF:  29.";
    GError *err = NULL;
    GpDsPerf *p = gp_ds_perf_parse (cut, strlen (cut), "cut.log", &err);

    g_assert_no_error (err);
    g_assert_cmpuint (p->reports, ==, 1);
    gp_ds_perf_free (p);
  }
}

/* Damaged lines among good ones: skipped and counted, the good lines'
 * figures as if the damaged were not there, the table's first line
 * saying how many and the first one's place. */
static void
test_partly_damaged (void)
{
  const gchar *text = "**PERF:  30.00 (30.00)\n"
      "**PERF:  3x.0 (1.0)\n"
      "**PERF:  20.00 (25.00)\n"
      "Comp name = dec0 latency= x\n"
      "**PERF:  nan (nan)\n"
      "**PERF:  10.00 (20.00)\n";
  GError *err = NULL;
  GpDsPerf *p = gp_ds_perf_parse (text, strlen (text), "x.log", &err);
  const GpDsPerfSource *s;
  gchar *table;

  g_assert_no_error (err);
  g_assert_cmpuint (p->reports, ==, 3);
  s = g_ptr_array_index (p->sources, 0);
  g_assert_cmpuint (s->current->len, ==, 3);
  g_assert_cmpfloat_with_epsilon (gp_ds_perf_source_steady (s), 20, 1e-9);
  g_assert_cmpuint (p->latency->len, ==, 0);
  table = gp_ds_perf_table (p);
  if (!g_str_has_prefix (table, "3 of 6 lines skipped, first at x.log:2: "))
    g_error ("not the skipped lines' sentence: %s", table);
  g_free (table);
  gp_ds_perf_free (p);
}

static void
test_cli (void)
{
  gchar *path = gp_test_fixture_path ("telemetry",
      "deepstream_app_perf_2streams_k8s_log.txt");
  gchar *dir, *bad;
  GpTestRun r;

  if (path == NULL)
    return;
  gp_test_run_gstprof (&r, NULL, "ds", "perf", path, NULL);
  g_assert_cmpint (r.code, ==, 0);
  /* source 1's steady rate: (14.95 + 15.18 + 14.80) / 3 = 14.98 */
  g_assert_nonnull (strstr (r.out, "14.98"));
  g_assert_nonnull (strstr (r.out, "fps per source (5 reports)"));
  gp_test_run_clear (&r);

  dir = g_dir_make_tmp ("gp-ds-perf-XXXXXX", NULL);
  bad = g_build_filename (dir, "bad.log", NULL);
  g_assert_true (g_file_set_contents (bad, "x\n**PERF:  1.0 (\n", -1, NULL));
  gp_test_run_gstprof (&r, NULL, "ds", "perf", bad, NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, "bad.log:2:");
  gp_test_run_clear (&r);
  gp_test_run_gstprof (&r, NULL, "ds", "perf", NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, "give one LOG");
  gp_test_run_clear (&r);
  gp_test_remove_tree (dir);
  g_free (bad);
  g_free (dir);
  g_free (path);
}

/* A log read from its file a block at a time: the reports planted across
 * many blocks are all counted (lines cut by a block's end among them),
 * and a line too long for any monitor and a last line cut short are
 * skipped and said above the table. */
static void
test_streamed (void)
{
  gchar *dir = g_dir_make_tmp ("gp-dsperf-XXXXXX", NULL);
  gchar *path = g_build_filename (dir, "app.log", NULL);
  GString *log = g_string_new (NULL);
  GError *err = NULL;
  GpDsPerf *p;
  gchar *table;
  guint i, lines = 0;

  for (i = 0; i < 5000; i++) {
    /* 29.00 .. 31.00 and back: a mean of 30 */
    g_string_append_printf (log, "**PERF:  %.2f (30.00)\t\n", 29.0 + 2.0 *
        (i % 2));
    g_string_append (log, "0:00:01.000000000  1234 0x5555 INFO  default "
        "gstsomething.c:42:fn: a line of other log\n");
    lines += 2;
    if (i == 2500) {
      gchar *pad = g_strnfill (70000, 'x');

      g_string_append_printf (log, "%s\n", pad);
      g_free (pad);
      lines++;
    }
  }
  g_string_append (log, "**PERF:  29.");
  lines++;
  g_assert_cmpuint (log->len, >, 4 * 65536);
  g_assert_true (g_file_set_contents (path, log->str, log->len, NULL));
  p = gp_ds_perf_load (path, &err);
  g_assert_no_error (err);
  g_assert_cmpuint (p->reports, ==, 5000);
  g_assert_cmpuint (p->lines, ==, lines);
  g_assert_cmpuint (p->skipped, ==, 2);
  g_assert_cmpfloat_with_epsilon (gp_ds_perf_source_steady
      (g_ptr_array_index (p->sources, 0)), 30.0, 1e-9);
  table = gp_ds_perf_table (p);
  g_assert_true (g_str_has_prefix (table, "2 of 10002 lines skipped"));
  g_free (table);
  gp_ds_perf_free (p);
  g_string_free (log, TRUE);
  g_unlink (path);
  g_rmdir (dir);
  g_free (path);
  g_free (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ds-perf/orin-1stream", test_orin_1stream);
  g_test_add_func ("/ds-perf/k8s-2streams", test_k8s_2streams);
  g_test_add_func ("/ds-perf/constructed", test_constructed);
  g_test_add_func ("/ds-perf/damaged", test_damaged);
  g_test_add_func ("/ds-perf/partly-damaged", test_partly_damaged);
  g_test_add_func ("/ds-perf/cli", test_cli);
  g_test_add_func ("/ds-perf/streamed", test_streamed);
  return g_test_run ();
}
