/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-cmd-fix.c: `gstprof fix SESSION [--apply]`: its arguments and
 * what it prints. The plan of the findings' launch-string edits and the
 * patched re-run are src/fix's (gp-fix.h); this file shows the plan as a
 * diff, and with --apply writes the second session and prints both side by
 * side (src/report/gp-compare).
 */
#include "gp-cli.h"
#include "core/gp-launch.h"
#include "core/gp-session.h"
#include "capture/gp-capture.h"
#include "capture/gp-records.h"
#include "ingest/gp-ingest.h"
#include "report/gp-compare.h"
#include "fix/gp-fix.h"
#include "rules/gp-rules.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

/* DIR for the after-session when --out is not given: beside the first,
 * "<its folder>-fixed" for DIR/session.json, else "<file less .json>-fixed"
 * (with -2, -3... when that exists). */
static gchar *
gp_cmd_fix_default_out_dir (const gchar * file)
{
  gchar *base = g_path_get_basename (file);
  gchar *dir = g_path_get_dirname (file);
  gchar *stem, *out;
  guint i;

  if (strcmp (base, "session.json") == 0 && strcmp (dir, ".") != 0 &&
      strcmp (dir, G_DIR_SEPARATOR_S) != 0) {
    stem = g_strdup_printf ("%s-fixed", dir);
  } else {
    gchar *noext = g_str_has_suffix (file, ".json") ?
        g_strndup (file, strlen (file) - 5) : g_strdup (file);

    stem = g_strdup_printf ("%s-fixed", noext);
    g_free (noext);
  }
  out = g_strdup (stem);
  for (i = 2; g_file_test (out, G_FILE_TEST_EXISTS); i++) {
    g_free (out);
    out = g_strdup_printf ("%s-%u", stem, i);
  }
  g_free (stem);
  g_free (base);
  g_free (dir);
  return out;
}

/* The tracer set up for --apply's run (before GStreamer starts); FALSE
 * with the one-line report made and its exit code in @code. */
static gboolean
gp_cmd_fix_prepare_tracer (const GpCaptureOptions * opts, gint * code)
{
  GError *err = NULL;

  if (gp_capture_prepare_env (opts, &err))
    return TRUE;
  *code = gp_cli_fail ("fix", "cannot load the gstprof tracer: %s (see "
      "gstprof check)", err->message);
  g_error_free (err);
  return FALSE;
}

/* A format: the rules by what their fix is for (gp_rules_measures_text) */
static const gchar gp_fix_description[] =
    "Runs the rules on the session again (as analyze does; --stored uses the\n"
    "findings saved in the file instead), gathers every finding's launch-\n"
    "string edit (fix_patch) in rank order and applies them to the session's\n"
    "launch string. An edit that changes the same place as a better-ranked\n"
    "finding's edit differently (the same property to another value, an\n"
    "element another edit replaces or removes) is skipped, and so is one\n"
    "that does not apply, or whose patched string GStreamer's parser does\n"
    "not build and link here (built in a child process, not run); each skip\n"
    "is listed with its reason. When the original does not build here (an\n"
    "element this machine lacks), the patch is printed with a note that it\n"
    "was not checked. The same edit asked by several findings is made once\n"
    "and names them all.\n"
    "\n"
    "--apply runs the patched pipeline in-process for the original's\n"
    "duration, window and CPU option, writes DIR/session.json (default: a\n"
    "folder beside the session, \"<folder>-fixed\") and prints both runs side\n"
    "by side: the rate per sink in its own media, latency p50/p95 per path,\n"
    "process and thread CPU, findings cleared, remaining and new. A change\n"
    "within the per-window spread of either run is marked noise. A fix\n"
    "that made it worse beyond noise is said first: a sink's rate lower, or\n"
    "what the fix was for higher:\n  %s.\n"
    "Then a sink that receives other caps after the fix (another format,\n"
    "size, rate or memory).\n"
    "\n"
    "Exit codes:\n"
    "  0  the patched launch string was printed, or no finding has an edit\n"
    "     (said on stdout); with --apply: the after-run has no high or medium\n"
    "     finding\n"
    "  1  with --apply: the fix made it worse beyond noise, or the after-run\n"
    "     has a high or medium finding\n"
    "  2  with --apply: the patched pipeline failed on its own (its session\n"
    "     is still written)\n"
    "  3  bad usage or input: no such file, not a session, a session without\n"
    "     a launch string (a gst-profile import, a wrapped application) or\n"
    "     one that does not parse, a patched pipeline GStreamer refuses\n";

gint
gp_cmd_fix (gint argc, gchar ** argv)
{
  gboolean opt_apply = FALSE, opt_stored = FALSE, opt_quiet = FALSE;
  gchar *opt_out = NULL;
  gchar **files = NULL;
  GOptionEntry entries[] = {
    {"apply", 'a', 0, G_OPTION_ARG_NONE, &opt_apply,
        "Run the patched pipeline and compare it with the original", NULL},
    {"out", 'o', 0, G_OPTION_ARG_FILENAME, &opt_out,
          "With --apply: folder for the after-session (default: see below)",
        "DIR"},
    {"stored", 0, 0, G_OPTION_ARG_NONE, &opt_stored,
          "Use the findings saved in the file, not the rules run again",
        NULL},
    {"quiet", 'q', 0, G_OPTION_ARG_NONE, &opt_quiet,
          "No progress line on stderr while --apply runs", NULL},
    {G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL,
        NULL},
    {NULL}
  };
  GpCaptureOptions opts;
  GOptionContext *ctx;
  GError *err = NULL;
  GpSession *s = NULL, *after = NULL;
  GpFixPlan *plan = NULL;
  gchar *text, *dir = NULL, *path = NULL, *self, *worse = NULL;
  gchar *measures, *description;
  gboolean failed = FALSE;
  gint code;

  ctx = g_option_context_new ("SESSION");
  g_option_context_set_summary (ctx, "Applies the findings' fixes to the "
      "session's launch string and shows the\nresult as a diff; --apply "
      "runs it and shows before and after side by side.\nSESSION is what "
      "analyze takes: a session.json, the folder run wrote, the\nfolder "
      "GST_TRACERS=\"gstprof(out=DIR)\" wrote.");
  measures = gp_rules_measures_text ();
  description = g_strdup_printf (gp_fix_description, measures);
  g_option_context_set_description (ctx, description);
  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &err)) {
    code = gp_cli_fail ("fix", "%s", err->message);
    goto out;
  }
  if (files == NULL || files[0] == NULL) {
    code = gp_cli_fail ("fix", "no session file given (gstprof fix "
        "DIR/session.json)");
    goto out;
  }
  if (files[1] != NULL) {
    code = gp_cli_fail ("fix", "one session file at a time ('%s' is extra)",
        files[1]);
    goto out;
  }
  if (opt_out != NULL && !opt_apply) {
    code = gp_cli_fail ("fix", "--out needs --apply (only the after-run "
        "writes a session)");
    goto out;
  }

  /* The tracer must be set up before GStreamer reads the environment, and
   * loading a tracer's records starts GStreamer: set it up as their header
   * says they were measured (the session's own settings, below, agree). */
  if (opt_apply && gp_ingest_is_records (files[0])) {
    gp_capture_options_init (&opts);
    if (gp_records_peek_params (files[0], &opts.window_ms, &opts.cpu) &&
        !gp_cmd_fix_prepare_tracer (&opts, &code))
      goto out;
  }
  s = gp_ingest_load_any (files[0], &err);
  if (s == NULL) {
    code = gp_cli_fail ("fix", "%s", err ? err->message : files[0]);
    goto out;
  }
  if (s->launch == NULL || *s->launch == '\0') {
    code = gp_cli_fail ("fix", "%s has no launch string (%s): there is "
        "nothing to patch", files[0], s->import_schema ? "an import from "
        "another tool" : "a wrapped application");
    goto out;
  }
  if (opt_apply && !(s->duration_s > 0)) {
    code = gp_cli_fail ("fix", "--apply: %s records no duration to run the "
        "patched pipeline for", files[0]);
    goto out;
  }

  /* Element names in the findings are predicted from the registry, and the
   * tracer must be set up before GStreamer reads the environment. */
  if (opt_apply && !gst_is_initialized ()) {
    gp_capture_options_init (&opts);
    gp_fix_capture_options (s, &opts);
    if (!gp_cmd_fix_prepare_tracer (&opts, &code))
      goto out;
  }
  if (!gst_init_check (NULL, NULL, &err)) {
    code = gp_cli_fail ("fix", "cannot initialise GStreamer: %s",
        err->message);
    goto out;
  }

  if (!opt_stored)
    gp_rules_run (s);
  else
    gp_rules_rank (s);
  /* each patched string is asked of this same program, in a process of
   * its own: `gstprof check LAUNCH` */
  self = g_file_read_link ("/proc/self/exe", NULL);
  plan = gp_fix_plan_new (s, self, &err);
  g_free (self);
  if (plan == NULL) {
    code = gp_cli_fail ("fix", "%s: %s", files[0], err->message);
    goto out;
  }
  text = gp_fix_plan_format (plan);
  fputs (text, stdout);
  fflush (stdout);
  g_free (text);
  code = GP_EXIT_CLEAN;
  if (!opt_apply || gp_fix_plan_get_n_edits (plan) == 0)
    goto out;

  dir = opt_out ? g_strdup (opt_out) : gp_cmd_fix_default_out_dir (files[0]);
  if (g_mkdir_with_parents (dir, 0755) != 0) {
    code = gp_cli_fail ("fix", "--out: cannot create '%s': %s", dir,
        g_strerror (errno));
    goto out;
  }
  fputs ("\n", stdout);
  fflush (stdout);
  after = gp_fix_apply (s, gp_fix_plan_get_launch (plan), !opt_quiet &&
      isatty (2), &failed, &err);
  if (after == NULL) {
    code = gp_cli_fail ("fix", "the patched pipeline could not be run: %s",
        err ? err->message : "unknown error");
    goto out;
  }
  gp_rules_run (after);
  worse = failed ? NULL : gp_compare_worse (s, after,
      gp_fix_plan_get_measures (plan));
  code = failed ? GP_EXIT_PIPELINE : worse ? GP_EXIT_FINDINGS :
      gp_rules_exit_code (after);
  after->exit_code = code;
  path = g_build_filename (dir, "session.json", NULL);
  if (!gp_session_save (after, path, &err)) {
    code = gp_cli_fail ("fix", "cannot write the session: %s", err->message);
    goto out;
  }
  /* a fix that made it worse, first of all: whatever the findings say */
  if (worse != NULL)
    printf ("The fix made it worse, beyond noise, on what it was for:\n%s"
        "Keep the original.\n\n", worse);
  /* what the pipeline delivers, next: a rate beside other caps is not
   * a speed-up */
  text = gp_fix_delivery_changes (s, after);
  if (text != NULL)
    printf ("What the sinks receive changed: this is not a pure speed-up.\n"
        "%s\n", text);
  g_free (text);
  text = gp_compare_format (s, after, "before", "after");
  fputs (text, stdout);
  fflush (stdout);
  g_free (text);
  g_printerr ("session: %s\n", path);

out:
  g_free (worse);
  g_free (measures);
  g_free (description);
  gp_fix_plan_free (plan);
  if (after)
    gp_session_free (after);
  if (s)
    gp_session_free (s);
  g_clear_error (&err);
  g_free (opt_out);
  g_strfreev (files);
  g_free (dir);
  g_free (path);
  g_option_context_free (ctx);
  return code;
}
