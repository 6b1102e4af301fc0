/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof tests
 *
 * test-records-commands.c: every command that takes a session takes the
 * folder the tracer wrote by itself (GST_TRACERS="gstprof(out=DIR)"
 * around gst-launch-1.0, no gstprof command around it), as analyze does:
 * gp_ingest_load_any () on it in-process, then fix (the two converters
 * that convert nothing removed), compare (the folder against itself),
 * export --csv (the planted element's buffer count), plot, roofline (the
 * planted element's row) and ds coverage --session (its self time beside
 * its NVTX row).
 */
#include <math.h>
#include <string.h>
#include <sys/wait.h>

#include <glib/gstdio.h>
#include <gst/gst.h>

#include "core/gp-session.h"
#include "ingest/gp-ingest.h"
#include "gp-config.h"
#include "gp-test-util.h"

/* 100 buffers through a 2 ms identity, behind a videoconvert and a
 * videoscale that have nothing to convert (the caps rule removes them),
 * in ABGR64_LE, which fakesink takes and nothing asked for (the format
 * rule pins I420 in the user's caps) */
#define GP_RC_LAUNCH "videotestsrc num-buffers=100 ! " \
  "video/x-raw,width=320,height=240 ! videoconvert ! videoscale ! " \
  "identity name=slow sleep-time=2000 ! fakesink"
#define GP_RC_FIXED "videotestsrc num-buffers=100 ! " \
  "video/x-raw,width=320,height=240,format=I420 ! identity name=slow sleep-time=2000 ! " \
  "fakesink"

static gchar *gp_tmp;
static gchar *gp_rc_dir;        /* the tracer's folder, once written */

/* gst-launch-1.0 GP_RC_LAUNCH with the tracer writing into a folder of
 * its own; the folder, or NULL without the tracer. */
static const gchar *
gp_rc_records (void)
{
  gchar **env, *tracers, *cmd;
  gint status = 0;
  GError *err = NULL;

  if (gp_rc_dir != NULL || !gp_test_have_tracer ())
    return gp_rc_dir;
  gp_rc_dir = g_build_filename (gp_tmp, "records", NULL);
  tracers = g_strdup_printf ("gstprof(out=%s,window=100)", gp_rc_dir);
  env = g_get_environ ();
  env = g_environ_setenv (env, "GST_TRACERS", tracers, TRUE);
  env = g_environ_setenv (env, "GST_PLUGIN_PATH", GP_BUILD_PLUGIN_DIR, TRUE);
  cmd = g_strdup_printf ("gst-launch-1.0 -q %s", GP_RC_LAUNCH);
  {
    gchar **argv = g_strsplit (cmd, " ", -1);

    g_assert_true (g_spawn_sync (NULL, argv, env, G_SPAWN_SEARCH_PATH |
            G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, NULL, &status,
            &err));
    g_strfreev (argv);
  }
  g_assert_no_error (err);
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
  g_free (cmd);
  g_free (tracers);
  g_strfreev (env);
  return gp_rc_dir;
}

/* The one loader: the records folded, the launch string back from the
 * command line, every buffer of the planted element. */
static void
test_load_any (void)
{
  const gchar *dir = gp_rc_records ();
  GError *err = NULL;
  GpElementSummary *es;
  GpSession *s;

  if (dir == NULL)
    return;
  s = gp_ingest_load_any (dir, &err);
  g_assert_no_error (err);
  g_assert_nonnull (s);
  g_assert_cmpstr (s->mode, ==, "records");
  g_assert_cmpstr (s->launch, ==, GP_RC_LAUNCH);
  es = gp_session_find_elem_summary (s, "slow");
  g_assert_nonnull (es);
  g_assert_cmpuint (es->buffers, ==, 100);
  gp_session_free (s);
}

/* fix DIR: the launch string of the records, patched */
static void
test_fix (void)
{
  const gchar *dir = gp_rc_records ();
  const gchar *patched;
  gchar *line;
  GpTestRun r;

  if (dir == NULL)
    return;
  gp_test_run_gstprof (&r, gp_tmp, "fix", dir, NULL);
  gp_test_message_text (r.out);
  g_assert_cmpint (r.code, ==, 0);
  /* the two converters that convert nothing go; on a loaded machine a
   * QUEUE finding may add a queue before slow, so the patched line is
   * read without the edit count */
  patched = strstr (r.out, "Patched launch (");
  g_assert_nonnull (patched);
  patched = strchr (patched, '\n');
  g_assert_nonnull (patched);
  line = g_strndup (patched + 3, strcspn (patched + 3, "\n"));
  g_test_message ("patched: %s", line);
  g_assert_null (strstr (line, "videoconvert"));
  g_assert_null (strstr (line, "videoscale"));
  g_assert_nonnull (strstr (line, "identity name=slow sleep-time=2000 ! "
          "fakesink"));
  if (strstr (line, "queue") == NULL)
    g_assert_cmpstr (line, ==, GP_RC_FIXED);
  gp_test_assert_has (r.out, "remove videoconvert0");
  gp_test_assert_has (r.out, "remove videoscale0");
  g_assert_cmpstr (r.err, ==, "");
  g_free (line);
  gp_test_run_clear (&r);
}

/* fix --apply DIR: the patched pipeline run as the records were measured
 * (their 100 ms window, not the default 250), every buffer through the
 * planted element, the converters gone */
static void
test_fix_apply (void)
{
  const gchar *dir = gp_rc_records ();
  gchar *out, *after_path;
  GpElementSummary *es;
  GError *err = NULL;
  GpSession *after;
  GpTestRun r;

  if (dir == NULL)
    return;
  out = g_build_filename (gp_tmp, "fixed", NULL);
  gp_test_run_gstprof (&r, gp_tmp, "fix", "--apply", "--out", out, dir,
      NULL);
  gp_test_message_text (r.out);
  gp_test_message_text (r.err);
  g_assert_cmpint (r.code, <=, 1);
  gp_test_run_clear (&r);
  after_path = g_build_filename (out, "session.json", NULL);
  after = gp_session_load (after_path, &err);
  g_assert_no_error (err);
  g_assert_null (strstr (after->launch, "videoconvert"));
  g_assert_null (strstr (after->launch, "videoscale"));
  g_assert_cmpfloat (fabs (after->window_s - 0.1), <, 1e-9);
  es = gp_session_find_elem_summary (after, "slow");
  g_assert_nonnull (es);
  g_assert_cmpuint (es->buffers, ==, 100);
  gp_session_free (after);
  g_free (after_path);
  g_free (out);
}

/* compare DIR DIR: the same run on both sides, every change noise */
static void
test_compare (void)
{
  const gchar *dir = gp_rc_records ();
  gchar *want;
  GpTestRun r;

  if (dir == NULL)
    return;
  gp_test_run_gstprof (&r, gp_tmp, "compare", dir, dir, NULL);
  gp_test_message_text (r.out);
  g_assert_cmpint (r.code, ==, 0);
  want = g_strdup_printf ("A: %s\nB: %s\n", GP_RC_LAUNCH, GP_RC_LAUNCH);
  gp_test_assert_has (r.out, want);
  gp_test_assert_has (r.out, "Rate (per sink, in its own media)");
  gp_test_assert_has (r.out, "  fakesink0 ");
  gp_test_assert_has (r.out, "+0.0 (+0%)  noise");
  g_assert_null (strstr (r.out, "beyond noise"));
  g_free (want);
  gp_test_run_clear (&r);
}

/* export DIR --csv: the planted element's row, every buffer */
static void
test_export (void)
{
  const gchar *dir = gp_rc_records ();
  gchar *csv = g_build_filename (gp_tmp, "csv", NULL);
  gchar *file = g_build_filename (csv, "summary-elements.csv", NULL);
  gchar *text = NULL;
  GpTestRun r;

  if (dir != NULL) {
    gp_test_run_gstprof (&r, gp_tmp, "export", dir, "--csv", csv, NULL);
    g_assert_cmpint (r.code, ==, 0);
    gp_test_run_clear (&r);
    g_assert_true (g_file_get_contents (file, &text, NULL, NULL));
    gp_test_assert_has (text, "\nslow,identity,pipeline0,filter,100,");
  }
  g_free (text);
  g_free (file);
  g_free (csv);
}

/* plot DIR -o FILE.svg: a drawing of its curves */
static void
test_plot (void)
{
  const gchar *dir = gp_rc_records ();
  gchar *svg = g_build_filename (gp_tmp, "curves.svg", NULL);
  gchar *text = NULL;
  gsize len = 0;
  GpTestRun r;

  if (dir != NULL) {
    gp_test_run_gstprof (&r, gp_tmp, "plot", dir, "-o", svg, NULL);
    g_assert_cmpint (r.code, ==, 0);
    gp_test_assert_has (r.out, svg);
    gp_test_run_clear (&r);
    g_assert_true (g_file_get_contents (svg, &text, &len, NULL));
    gp_test_assert_has (text, "<svg");
    g_assert_cmpuint (len, >, 1000);
  }
  g_free (text);
  g_free (svg);
}

/* roofline DIR: the CPU roofline with the source's row; the planted
 * identity hands its buffers on untouched and is not on it */
static void
test_roofline (void)
{
  const gchar *dir = gp_rc_records ();
  gchar *cache = g_build_filename (gp_tmp, "cache", NULL);
  const gchar *row;
  GpTestRun r;

  if (dir != NULL) {
    g_setenv ("GSTPROF_CACHE_DIR", cache, TRUE);
    gp_test_run_gstprof (&r, gp_tmp, "roofline", dir, NULL);
    gp_test_message_text (r.out);
    g_assert_cmpint (r.code, ==, 0);
    gp_test_assert_has (r.out, "CPU roofline: this machine (CPU)");
    row = strstr (r.out, "\n  videotestsrc0 ");
    g_assert_nonnull (row);
    g_assert_nonnull (strstr (row, "videotestsrc"));
    g_assert_null (strstr (r.out, "\n  slow "));
    gp_test_run_clear (&r);
    g_unsetenv ("GSTPROF_CACHE_DIR");
  }
  g_free (cache);
}

/* ds coverage --session DIR: the planted element's self time beside its
 * (absent) NVTX */
static void
test_ds_coverage (void)
{
  const gchar *dir = gp_rc_records ();
  GpTestRun r;

  if (dir == NULL)
    return;
  gp_test_run_gstprof (&r, gp_tmp, "ds", "coverage", "--session", dir,
      GP_RC_LAUNCH, NULL);
  gp_test_message_text (r.out);
  g_assert_cmpint (r.code, ==, 0);
  gp_test_assert_has (r.out, "| slow | identity | UNINSTRUMENTED | ");
  g_assert_nonnull (strstr (strstr (r.out, "| slow |"), " ms (busy "));
  gp_test_run_clear (&r);
}

int
main (int argc, char **argv)
{
  gint ret;

  gst_init (&argc, &argv);
  g_test_init (&argc, &argv, NULL);
  gp_tmp = g_dir_make_tmp ("gp-records-commands-XXXXXX", NULL);
  g_test_add_func ("/records-commands/load-any", test_load_any);
  g_test_add_func ("/records-commands/fix", test_fix);
  g_test_add_func ("/records-commands/fix-apply", test_fix_apply);
  g_test_add_func ("/records-commands/compare", test_compare);
  g_test_add_func ("/records-commands/export", test_export);
  g_test_add_func ("/records-commands/plot", test_plot);
  g_test_add_func ("/records-commands/roofline", test_roofline);
  g_test_add_func ("/records-commands/ds-coverage", test_ds_coverage);
  ret = g_test_run ();
  gp_test_remove_tree (gp_tmp);
  g_free (gp_rc_dir);
  g_free (gp_tmp);
  return ret;
}
