/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-cmd-run.c: `gstprof run "LAUNCH"`: profile a launch string in-process
 * (src/capture), run the rules, write DIR/session.json, print the verdict.
 */
#include "gp-cli.h"
#include "core/gp-session.h"
#include "capture/gp-capture.h"
#include "core/gp-launch.h"
#include "core/gp-session-keep.h"
#include "report/gp-check.h"
#include "report/gp-verdict.h"
#include "rules/gp-rules.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define GP_RUN_DEFAULT_DURATION "10s"
#define GP_RUN_DEFAULT_WINDOW "250ms"
/* How long the EOS sent at the end may take to come back (an encoder's
 * drain, a muxer writing its index): long enough for most, short enough
 * that Ctrl-C feels like a stop; --eos-wait from a tenth of a second to
 * ten minutes. */
#define GP_RUN_DEFAULT_EOS_WAIT "3s"
#define GP_RUN_EOS_WAIT_MIN_S 0.1
#define GP_RUN_EOS_WAIT_MAX_S 600.0
/* The tracer's window bounds: below 10 ms the windows cost more than they
 * show; above 10 s a "window" is no longer a time series. */
#define GP_RUN_WINDOW_MIN_S 0.010
#define GP_RUN_WINDOW_MAX_S 10.0
/* --trace: the tracer's bounds (gp-record.h: the rings hold GP_TRACE_MAX_S
 * at most, 24 MiB a streaming thread at its rate bound) */
#define GP_RUN_TRACE_MIN_S 1

/* --trace[=SECONDS]: GOption hands an optional value to a callback only */
static gboolean gp_run_trace_on;
static gchar *gp_run_trace_arg;

static gboolean
gp_run_on_trace (const gchar * name, const gchar * value, gpointer data,
    GError ** error)
{
  gp_run_trace_on = TRUE;
  g_free (gp_run_trace_arg);
  gp_run_trace_arg = g_strdup (value);
  return TRUE;
}

/* GOption would take the pipeline after a bare --trace as its value: a
 * bare one becomes --trace=DEFAULT first (in place: argv is main's). */
static void
gp_run_bare_trace (gint argc, gchar ** argv)
{
  static gchar bare[] = "--trace=" G_STRINGIFY (GP_TRACE_DEFAULT_S);
  gint i;

  for (i = 1; i < argc && g_strcmp0 (argv[i], "--") != 0; i++)
    if (strcmp (argv[i], "--trace") == 0)
      argv[i] = bare;
}

/* The seconds of --trace, or 0 with the reason in @error. */
static guint
gp_run_trace_seconds (GError ** error)
{
  gdouble s;

  if (gp_run_trace_arg == NULL)
    return GP_TRACE_DEFAULT_S;
  if (!gp_cli_parse_duration (gp_run_trace_arg, &s, error))
    return 0;
  if (s < GP_RUN_TRACE_MIN_S || s > GP_TRACE_MAX_S) {
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
        "'%s' is out of range (1s to %us: the rings hold at most a minute)",
        gp_run_trace_arg, GP_TRACE_MAX_S);
    return 0;
  }
  return (guint) (s + 0.999);
}

static const gchar gp_run_description[] =
    "Runs the pipeline with the gstprof tracer until it ends on its own "
    "(EOS or\n"
    "error), --duration is reached, or Ctrl-C. At the end of the duration or "
    "on\n"
    "Ctrl-C EOS is sent and waited for a bounded time (3 s, --eos-wait), "
    "then\n"
    "the pipeline stops (at once if it never reached PLAYING: EOS cannot\n"
    "flow then); a second Ctrl-C or SIGTERM stops it at once. Stopping\n"
    "takes 3 s at most (250 ms after a second Ctrl-C or SIGTERM): a\n"
    "pipeline that will not stop (a sink blocked in a system call) is\n"
    "left behind, the session holds what was measured, and the exit code\n"
    "is 4. DIR/session.json is written atomically (temp file +\n"
    "rename), the verdict is printed on stdout and \"session:\n"
    "DIR/session.json\" on stderr.\n"
    "\n"
    "Durations: 10s, 500ms, 2m, 1h, or a plain number of seconds.\n"
    "DIR defaults to gstprof-session-YYYYmmdd-HHMMSS in the current folder;\n"
    "it is created once the pipeline runs (not at all when the launch string\n"
    "is bad). While it runs, DIR/session.json is saved every 2 s (exit_code\n"
    "-1, no findings yet), so even a run killed outright leaves a valid\n"
    "session; the final one replaces it. A session.json already in DIR is\n"
    "kept, renamed to session.N.json (the first free N). The progress line\n"
    "(once a second) is shown only on a terminal. A pipeline pasted with\n"
    "its gst-launch-1.0 command and options in front runs without them.\n"
    "\n"
    "--serve serves the live panel while it runs (docs/serve.md): the\n"
    "address is printed on stderr; the panel's Stop ends the run as Ctrl-C\n"
    "does, its Mark adds an event; /metrics answers Prometheus. --hold keeps\n"
    "serving the result after the end.\n"
    "\n"
    "--trace[=SECONDS] (default 10 s, at most 60) also keeps every push's\n"
    "enter and exit per streaming thread, the last SECONDS of it (a ring per\n"
    "thread sized for 10000 pushes a second), saved as DIR/trace.bin for\n"
    "gstprof export DIR --perfetto trace.json (per-buffer slices).\n"
    "\n"
    "The machine under the pipeline is sampled once a window, on a thread of\n"
    "its own, into the session (session.machine): CPU per core and per\n"
    "thread, memory and RSS from /proc; thermal zones, cpufreq, devfreq and\n"
    "a Jetson's power rails from sysfs; tegrastats and nvidia-smi when they\n"
    "are in PATH (one child each, stopped at the end). --no-machine: none.\n"
    "\n"
    "Ctrl-C is a normal way to end a run: the session is written, the "
    "verdict\n"
    "printed, and the exit code is that of the findings (0 or 1), as when the\n"
    "duration is reached.\n"
    "\n"
    "Exit codes:\n"
    "  0  clean, or only info findings (also after Ctrl-C)\n"
    "  1  a high or medium finding (also after Ctrl-C)\n"
    "  2  the pipeline failed on its own (an error message, or it never\n"
    "     reached PLAYING); the session is still written, with what happened\n"
    "  3  bad usage or input: a bad option value, a bad launch string or an\n"
    "     unknown element (named), the tracer not found, DIR not writable\n"
    "     (a session that cannot be written at the end: the verdict is\n"
    "     printed first, then one line says why)\n"
    "  4  the pipeline did not stop when told to (an element blocked, or\n"
    "     still busy 30 s later): it was left behind; the session holds what\n"
    "     was measured\n";

/* --serve: the panel's view of the run, and its buttons */
static void
gp_run_on_live (GpCaptureRun * run, GpSession * so_far, gpointer data)
{
  gp_cli_serve_live (data, run, so_far);
}

static gboolean
gp_run_stop (gpointer run, const gchar * why)
{
  gp_capture_stop (run, why);
  return TRUE;
}

static gboolean
gp_run_mark (gpointer run, const gchar * text)
{
  gp_capture_mark (run, text);
  return TRUE;
}

/* Where session.json goes: @out, or gstprof-session-YYYYmmdd-HHMMSS in the
 * current folder (with -2, -3... when that exists already). */
static gchar *
gp_run_default_dir (void)
{
  GDateTime *now = g_date_time_new_now_local ();
  gchar *base = g_date_time_format (now, "gstprof-session-%Y%m%d-%H%M%S");
  gchar *dir = g_strdup (base);
  guint i;

  for (i = 2; g_file_test (dir, G_FILE_TEST_EXISTS); i++) {
    g_free (dir);
    dir = g_strdup_printf ("%s-%u", base, i);
  }
  g_free (base);
  g_date_time_unref (now);
  return dir;
}

/* Fails early, before a long capture, when DIR cannot be written: it must
 * be a writable folder, or not exist under a writable folder. */
static gboolean
gp_run_check_dir (const gchar * dir, gchar ** reason)
{
  gchar *parent;
  gboolean ok;

  if (g_file_test (dir, G_FILE_TEST_EXISTS)) {
    if (!g_file_test (dir, G_FILE_TEST_IS_DIR)) {
      *reason = g_strdup ("exists and is not a folder");
      return FALSE;
    }
    if (g_access (dir, W_OK) != 0) {
      *reason = g_strdup (g_strerror (errno));
      return FALSE;
    }
    return TRUE;
  }
  /* The nearest existing ancestor must be writable for mkdir -p. */
  parent = g_path_get_dirname (dir);
  while (!g_file_test (parent, G_FILE_TEST_EXISTS)) {
    gchar *up = g_path_get_dirname (parent);

    if (g_strcmp0 (up, parent) == 0) {
      g_free (up);
      break;
    }
    g_free (parent);
    parent = up;
  }
  ok = g_file_test (parent, G_FILE_TEST_IS_DIR) && g_access (parent, W_OK)
      == 0;
  if (!ok)
    *reason = g_strdup_printf ("%s is not a writable folder", parent);
  g_free (parent);
  return ok;
}

/* A pipeline pasted from a shell line, "gst-launch-1.0 -v -e ...": the
 * command and its options dropped, with a note. Returns @launch itself
 * when there is nothing to drop. */
static gchar *
gp_run_drop_gst_launch (gchar * launch)
{
  gchar **words = g_strsplit_set (launch, " \t", -1);
  gchar *dropped = NULL;
  gchar *rest = gp_launch_from_gst_launch ((const gchar * const *) words,
      &dropped);

  g_strfreev (words);
  if (rest == NULL)
    return launch;
  g_printerr ("gstprof run: dropped '%s' from the front of the pipeline "
      "(gstprof runs it itself)\n", dropped);
  g_free (dropped);
  g_free (launch);
  return rest;
}

/* DIR created, the pushes kept (--trace) beside the session that names
 * them, and the session, each written whole or not at all; FALSE with the
 * reason (naming the file) in @error. */
static gboolean
gp_run_save (GpSession * s, const gchar * dir, const gchar * path,
    GError ** error)
{
  gboolean ok = TRUE;

  if (g_mkdir_with_parents (dir, 0755) != 0) {
    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno),
        "cannot create '%s': %s", dir, g_strerror (errno));
    return FALSE;
  }
  if (s->trace != NULL) {
    gchar *trace_path = g_build_filename (dir, GP_TRACE_FILE, NULL);

    ok = gp_trace_save (s->trace, trace_path, error);
    g_free (trace_path);
    if (!ok)
      return FALSE;
    g_free (s->trace_file);
    s->trace_file = g_strdup (GP_TRACE_FILE);
  }
  return gp_session_save (s, path, error);
}

gint
gp_cmd_run (gint argc, gchar ** argv)
{
  gchar *opt_duration = NULL, *opt_window = NULL, *opt_out = NULL;
  gchar *opt_eos_wait = NULL;
  GpLaunch *lp;
  gboolean opt_cpu = FALSE, opt_quiet = FALSE, opt_no_machine = FALSE;
  gchar **rest = NULL;
  GOptionEntry entries[] = {
    {"duration", 'd', 0, G_OPTION_ARG_STRING, &opt_duration,
        "How long; 0: until EOS or Ctrl-C (default "
          GP_RUN_DEFAULT_DURATION ")", "TIME"},
    {"out", 'o', 0, G_OPTION_ARG_FILENAME, &opt_out,
          "Folder for session.json (default: see below)", "DIR"},
    {"window", 'w', 0, G_OPTION_ARG_STRING, &opt_window,
          "Measurement window, 10ms to 10s (default " GP_RUN_DEFAULT_WINDOW
          ")", "TIME"},
    {"eos-wait", 0, 0, G_OPTION_ARG_STRING, &opt_eos_wait,
          "How long the EOS sent at the end may take (default "
          GP_RUN_DEFAULT_EOS_WAIT ")", "TIME"},
    {"cpu", 0, 0, G_OPTION_ARG_NONE, &opt_cpu,
          "Also CPU time per element (work vs waiting)", NULL},
    {"quiet", 'q', 0, G_OPTION_ARG_NONE, &opt_quiet,
          "No progress line on stderr", NULL},
    {"no-machine", 0, 0, G_OPTION_ARG_NONE, &opt_no_machine,
          "Do not sample the machine (CPU, memory, clocks, heat, power)",
          NULL},
    {"trace", 0, G_OPTION_FLAG_OPTIONAL_ARG, G_OPTION_ARG_CALLBACK,
          gp_run_on_trace, "Keep every push of the last SECONDS (default "
          "10) for gstprof export --perfetto", "SECONDS"},
    {G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &rest, NULL, NULL},
    {NULL}
  };
  GpCaptureOptions opts;
  GpCliServe sv = { 0 };
  GpCaptureEnd end = GP_CAPTURE_END_EOS;
  GOptionContext *ctx;
  GError *err = NULL;
  GpSession *s = NULL;
  gdouble duration, window, eos_wait;
  guint trace_s = 0;
  gchar *launch = NULL, *dir = NULL, *path = NULL, *reason = NULL;
  gchar *kept = NULL;
  gchar *verdict;
  const GpEvent *stuck;
  gboolean saved;
  gint code;

  ctx = g_option_context_new ("\"LAUNCH\"");
  g_option_context_set_summary (ctx, "Profiles a pipeline written as for "
      "gst-launch-1.0, e.g.\n  gstprof run --duration 5s \\\n"
      "    \"videotestsrc is-live=true ! videoconvert ! x264enc ! fakesink\"");
  g_option_context_set_description (ctx, gp_run_description);
  g_option_context_add_main_entries (ctx, entries, NULL);
  gp_cli_serve_entries (ctx, &sv, TRUE);
  gp_run_bare_trace (argc, argv);
  if (!g_option_context_parse (ctx, &argc, &argv, &err)) {
    code = gp_cli_fail ("run", "%s", err->message);
    goto out;
  }

  if (!gp_cli_parse_duration (opt_duration ? opt_duration :
          GP_RUN_DEFAULT_DURATION, &duration, &err)) {
    code = gp_cli_fail ("run", "--duration: %s", err->message);
    goto out;
  }
  if (!gp_cli_parse_duration (opt_window ? opt_window :
          GP_RUN_DEFAULT_WINDOW, &window, &err)) {
    code = gp_cli_fail ("run", "--window: %s", err->message);
    goto out;
  }
  if (window < GP_RUN_WINDOW_MIN_S || window > GP_RUN_WINDOW_MAX_S) {
    code = gp_cli_fail ("run", "--window: '%s' is out of range (10ms to 10s; "
        "a plain number is seconds: 250ms, not 250)", opt_window);
    goto out;
  }
  if (!gp_cli_parse_duration (opt_eos_wait ? opt_eos_wait :
          GP_RUN_DEFAULT_EOS_WAIT, &eos_wait, &err)) {
    code = gp_cli_fail ("run", "--eos-wait: %s", err->message);
    goto out;
  }
  if (eos_wait < GP_RUN_EOS_WAIT_MIN_S || eos_wait > GP_RUN_EOS_WAIT_MAX_S) {
    code = gp_cli_fail ("run", "--eos-wait: '%s' is out of range (100ms to "
        "10m)", opt_eos_wait);
    goto out;
  }
  if (gp_run_trace_on && (trace_s = gp_run_trace_seconds (&err)) == 0) {
    code = gp_cli_fail ("run", "--trace: %s", err->message);
    goto out;
  }
  /* gst-launch-1.0 takes the pipeline as one or several arguments. */
  launch = rest ? g_strstrip (g_strjoinv (" ", rest)) : NULL;
  if (launch)
    launch = gp_run_drop_gst_launch (launch);
  if (launch == NULL || *launch == '\0') {
    code = gp_cli_fail ("run", "no pipeline given (gstprof run \"videotestsrc "
        "! fakesink\"; see gstprof run --help)");
    goto out;
  }
  dir = opt_out ? g_strdup (opt_out) : gp_run_default_dir ();
  if (!gp_run_check_dir (dir, &reason)) {
    code = gp_cli_fail ("run", "--out: cannot write to '%s': %s", dir,
        reason);
    goto out;
  }

  gp_capture_options_init (&opts);
  opts.launch = launch;
  opts.duration_s = duration;
  opts.window_ms = (guint) (window * 1000.0 + 0.5);
  opts.eos_timeout_s = eos_wait;
  opts.cpu = opt_cpu;
  opts.machine = !opt_no_machine;
  opts.trace_s = trace_s;
  /* A progress line is for a person watching; in a pipe or a log it is
   * noise. */
  opts.progress = !opt_quiet && isatty (2);
  /* Checkpoints: a capture killed outright still leaves a valid session. */
  path = g_build_filename (dir, "session.json", NULL);
  opts.checkpoint_path = path;
  /* an earlier run into the same DIR is not overwritten: kept beside it,
   * once the launch string is known to be one */
  lp = gp_launch_parse (launch, NULL);
  if (lp && !gp_session_keep_earlier (dir, path, &kept, &err)) {
    code = gp_cli_fail ("run", "--out: %s", err->message);
    gp_launch_free (lp);
    goto out;
  }
  if (lp)
    gp_launch_free (lp);
  if (kept != NULL)
    g_printerr ("gstprof run: the earlier %s is kept as %s\n", path, kept);

  /* The tracer is found through the environment, which GStreamer reads
   * once, in gst_init: so first the environment, then gst_init. */
  if (!gp_capture_prepare_env (&opts, &err)) {
    code = gp_cli_fail ("run", "cannot load the gstprof tracer: %s (see "
        "gstprof check)", err->message);
    goto out;
  }
  if (!gst_init_check (NULL, NULL, &err)) {
    code = gp_cli_fail ("run", "cannot initialise GStreamer: %s",
        err->message);
    goto out;
  }

  if (!gp_cli_serve_start ("run", &sv, gp_run_stop, gp_run_mark, &code))
    goto out;
  if (sv.srv) {
    opts.live = gp_run_on_live;
    opts.live_data = &sv;
  }
  s = gp_capture_run (&opts, &end, &err);
  gp_cli_serve_live (&sv, NULL, NULL);  /* the run is gone */
  if (s == NULL) {
    if (err && err->domain == GP_CAPTURE_ERROR &&
        err->code == GP_CAPTURE_ERROR_STATE) {
      /* It parsed, so the input was good: the pipeline itself refused to
       * start (a missing file, a busy device). That is exit 2, with a
       * session that records why. */
      s = gp_capture_error_session (launch, err->message);
      end = GP_CAPTURE_END_ERROR;
      g_clear_error (&err);
    } else {
      code = gp_cli_fail ("run", "%s", err ? err->message :
          "the pipeline could not be run");
      goto out;
    }
  }

  gp_rules_run (s);
  stuck = gp_session_find_event (s, GP_CAPTURE_STUCK_EVENT);
  code = end == GP_CAPTURE_END_ERROR || gp_session_never_played (s) ?
      GP_EXIT_PIPELINE : gp_rules_exit_code (s);
  if (stuck)
    code = GP_EXIT_STUCK;
  s->exit_code = code;

  /* The session first, the verdict second: whatever happens while
   * printing, the measurements are on disk. A session that cannot be
   * written (a full disk, a folder made read-only) still gets its
   * verdict, then one line says why it was not written. */
  saved = gp_run_save (s, dir, path, &err);
  if (sv.srv)
    gp_server_end (sv.srv, s);
  verdict = gp_verdict_format (s, NULL, gp_verdict_want_color (1) ?
      GP_VERDICT_COLOR : GP_VERDICT_PLAIN);
  fputs (verdict, stdout);
  fflush (stdout);
  g_free (verdict);
  if (stuck)
    g_printerr ("gstprof run: %s\n", stuck->text);
  if (saved)
    g_printerr ("session: %s\n", path);
  else
    code = gp_cli_fail ("run", "the session was not written: %s",
        err->message);
  gp_cli_serve_hold ("run", &sv, FALSE);

out:
  gp_cli_serve_clear (&sv);
  if (s)
    gp_session_free (s);
  g_clear_error (&err);
  g_free (opt_duration);
  g_free (opt_window);
  g_free (opt_eos_wait);
  g_free (opt_out);
  g_strfreev (rest);
  g_free (launch);
  g_free (dir);
  g_free (path);
  g_free (reason);
  g_free (kept);
  g_clear_pointer (&gp_run_trace_arg, g_free);
  gp_run_trace_on = FALSE;
  g_option_context_free (ctx);
  return code;
}
