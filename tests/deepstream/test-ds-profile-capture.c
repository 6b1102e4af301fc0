/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * test-ds-profile-capture.c: what `ds profile` gathers
 * (gp-ds-profile-capture.h), in-process: the capture recipe with the
 * stand-in nsys of tests/deepstream/stand-in replaying the 2024.1.1
 * nvtx_sum fixture (the flags it was given, every report saved, the
 * fixture's ranges read back; a driver that keeps the counters: taken
 * again without GPU metrics, said); the saved stats of that folder read
 * again; the GPU of a real nvidia-smi query; a session's elements beside
 * NVTX with their self time.
 */
#include <string.h>

#include <glib/gstdio.h>

#include "deepstream/gp-ds-coverage.h"
#include "deepstream/gp-ds-profile-capture.h"
#include "gp-test-fixtures.h"
#include "gp-test-util.h"

static gchar *gp_tmp;

static void
gp_dpc_clear (GpDsProfile * p)
{
  gp_nsys_stats_free (p->stats);
  if (p->session)
    gp_session_free (p->session);
  if (p->elements)
    g_ptr_array_unref (p->elements);
  g_free (p->hardware);
  g_free (p->hardware_why);
  gp_nsys_metrics_free (p->metrics);
  g_free (p->metrics_why);
  g_free (p->source);
  memset (p, 0, sizeof *p);
}

/* The stand-in nsys first in PATH, replaying @replay; the old PATH. */
static gchar *
gp_dpc_standin (const gchar * replay)
{
  gchar *dir = g_build_filename (g_getenv ("GP_SOURCE_ROOT"), "tests",
      "deepstream", "stand-in", NULL);
  gchar *old = gp_test_path_prepend (dir);

  g_setenv ("GP_STANDIN_NSYS_DIR", replay, TRUE);
  g_free (dir);
  return old;
}

/* A folder holding the fixture as nvtx_sum.csv, for the stand-in. */
static gchar *
gp_dpc_replay (void)
{
  gchar *fix = gp_test_fixture_path ("telemetry",
      "nsys_stats_csv_2024.1.1_nvtx_sum.txt");
  gchar *replay = g_build_filename (gp_tmp, "replay", NULL);
  gchar *path, *text;

  g_assert_nonnull (fix);
  g_mkdir_with_parents (replay, 0755);
  g_assert_true (g_file_get_contents (fix, &text, NULL, NULL));
  path = g_build_filename (replay, "nvtx_sum.csv", NULL);
  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  g_free (path);
  g_free (text);
  g_free (fix);
  return replay;
}

/* the recipe, then the folder it left read again as saved stats */
static void
test_capture_and_read (void)
{
  gchar *replay = gp_dpc_replay (), *old = gp_dpc_standin (replay);
  gchar *out = g_build_filename (gp_tmp, "live", NULL);
  gchar *cmd[] = { (gchar *) "true", (gchar *) "--flag", NULL };
  gchar *empty;
  GpDsProfile p = { 0 };
  GError *err = NULL;
  const GpNsysTable *nvtx;
  gchar *text;

  g_mkdir_with_parents (out, 0755);
  g_assert_true (gp_ds_profile_capture (&p, cmd, 2.4, out, &err));
  g_assert_no_error (err);
  g_assert_cmpfloat (p.duration_s, ==, 2.4);
  g_assert_true (g_str_has_prefix (p.source, "nsys profile of `true` (2 s)"));
  nvtx = gp_nsys_stats_find (p.stats, "nvtx_sum");
  g_assert_nonnull (nvtx);
  g_assert_null (nvtx->skipped);
  /* the stand-in leaves no SQLite export */
  g_assert_null (p.metrics);
  g_assert_nonnull (strstr (p.metrics_why, "no SQLite export"));
  text = gp_test_read_file (out, "report.args");
  g_assert_cmpstr (text, ==, "true --flag\n");
  g_free (text);
  text = gp_test_read_file (out, "cuda_api_sum.csv");
  g_assert_nonnull (strstr (text, "SKIPPED"));
  g_free (text);
  gp_dpc_clear (&p);

  g_assert_true (gp_ds_profile_read_stats (&p, out, &err));
  g_assert_no_error (err);
  g_assert_nonnull (strstr (p.source, out));
  nvtx = gp_nsys_stats_find (p.stats, "nvtx_sum");
  g_assert_nonnull (nvtx);
  g_assert_null (nvtx->skipped);
  gp_dpc_clear (&p);

  /* counters kept to administrators: taken again without GPU metrics */
  g_setenv ("GP_STANDIN_NSYS_NO_COUNTERS", "1", TRUE);
  g_assert_true (gp_ds_profile_capture (&p, cmd, 1, out, &err));
  g_assert_no_error (err);
  g_assert_nonnull (strstr (p.metrics_why, "ERR_NVGPUCTRPERM"));
  g_assert_nonnull (strstr (p.metrics_why, "without "
          "--gpu-metrics-devices"));
  gp_dpc_clear (&p);
  g_unsetenv ("GP_STANDIN_NSYS_NO_COUNTERS");

  /* a folder with no stats at all */
  empty = g_build_filename (gp_tmp, "empty", NULL);
  g_mkdir_with_parents (empty, 0755);
  g_assert_false (gp_ds_profile_read_stats (&p, empty, &err));
  g_assert_error (err, G_FILE_ERROR, G_FILE_ERROR_NOENT);
  g_clear_error (&err);
  gp_dpc_clear (&p);
  g_free (empty);

  gp_test_path_restore (old);
  g_unsetenv ("GP_STANDIN_NSYS_DIR");
  g_free (out);
  g_free (replay);
}

/* the first GPU of a real two-GPU query; none asked: nothing */
static void
test_hardware (void)
{
  gchar *file = gp_test_fixture_path ("telemetry",
      "nvidia_smi_query_l40s_2gpu_csv_with_header_units.txt");
  GpDsProfile p = { 0 };
  GError *err = NULL;

  g_assert_nonnull (file);
  g_assert_true (gp_ds_profile_hardware (&p, NULL, FALSE, &err));
  g_assert_null (p.hardware);
  g_assert_true (gp_ds_profile_hardware (&p, file, FALSE, &err));
  g_assert_no_error (err);
  g_assert_nonnull (strstr (p.hardware, "L40S"));
  gp_dpc_clear (&p);
  g_assert_false (gp_ds_profile_hardware (&p, "/nonexistent/query.csv",
          FALSE, &err));
  g_assert_nonnull (err);
  g_clear_error (&err);
  g_free (file);
}

/* a session's elements, no nvtx_sum: covered from DeepStream's sources
 * (nvinfer is, identity is not), each with its self time */
static void
test_add_session (void)
{
  GpSession *s = gp_session_new ();
  GpElementSummary *es;
  GpDsProfile p = { 0 };
  guint i, seen = 0;

  gp_session_add_element (s, "pgie", "nvinfer", "pipeline0", "filter");
  gp_session_add_element (s, "slow", "identity", "pipeline0", "filter");
  es = gp_session_add_elem_summary (s, "slow");
  es->self_total_ms = 300;
  p.stats = NULL;
  gp_ds_profile_add_session (&p, s);
  g_assert_true (p.session == s);
  for (i = 0; i < p.elements->len; i++) {
    GpDsElement *e = g_ptr_array_index (p.elements, i);

    if (g_strcmp0 (e->name, "pgie") == 0) {
      g_assert_true (e->covered);
      seen++;
    } else if (g_strcmp0 (e->name, "slow") == 0) {
      g_assert_false (e->covered);
      g_assert_cmpfloat (e->self_ms, ==, 300);
      seen++;
    }
  }
  g_assert_cmpuint (seen, ==, 2);
  gp_dpc_clear (&p);
}

int
main (int argc, char **argv)
{
  gint ret;

  g_test_init (&argc, &argv, NULL);
  gp_tmp = g_dir_make_tmp ("gp-ds-profile-capture-XXXXXX", NULL);
  g_test_add_func ("/ds-profile-capture/capture-and-read",
      test_capture_and_read);
  g_test_add_func ("/ds-profile-capture/hardware", test_hardware);
  g_test_add_func ("/ds-profile-capture/add-session", test_add_session);
  ret = g_test_run ();
  gp_test_remove_tree (gp_tmp);
  g_free (gp_tmp);
  return ret;
}
