/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-cmd-wrap.c: `gstprof wrap [OPTIONS] -- PROGRAM ARGS...`: runs any
 * GStreamer program unchanged with the tracer loaded through its
 * environment (GST_PLUGIN_PATH, and gstprof added to whatever GST_TRACERS
 * it already had), the tracer writing its records into a folder private to
 * this user; when the program ends, the records become the session and the
 * verdict, as `run`'s windows do (src/capture/gp-records.c).
 *
 * Ctrl-C and --duration stop the program the same way: SIGINT, then
 * SIGTERM, then SIGKILL, each after a bounded wait. A program that dies
 * by a signal of its own (a crash, an OOM kill) still leaves every window
 * up to its last one, and the verdict says how it ended.
 */
#include "gp-cli.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib-unix.h>
#include <glib/gstdio.h>
#include <gst/gst.h>

#include "capture/gp-capture.h"
#include "capture/gp-records.h"
#include "core/gp-record.h"
#include "core/gp-session.h"
#include "report/gp-verdict.h"
#include "rules/gp-rules.h"

/* How long the program has after SIGINT before SIGTERM, and after that
 * before SIGKILL: gst-launch-1.0 -e drains to EOS within a few seconds. */
#define GP_WRAP_GRACE_S 5

typedef struct
{
  GMainLoop *loop;
  GPid pid;
  gint status;
  gboolean exited;
  const gchar *stopped_by;      /* "duration", "interrupt" or NULL */
  guint escalation;             /* signals sent: 1 SIGINT, 2 SIGTERM, ... */
  guint grace_id;
  gint64 stop_us, exit_us;      /* monotonic: the first signal, the exit */
} GpWrap;

static const gchar gp_wrap_description[] =
    "The program runs unchanged; GStreamer in it loads the gstprof tracer\n"
    "from the environment (GST_PLUGIN_PATH, and gstprof added to the\n"
    "GST_TRACERS it already has: other tracers are kept). Its records go to\n"
    "a folder only you can read, and become the session when it ends.\n"
    "Ctrl-C and --duration stop it alike: SIGINT, then SIGTERM and SIGKILL\n"
    "after " G_STRINGIFY (GP_WRAP_GRACE_S) " s each. A program killed or "
    "crashed still gives every window\nup to its last one.\n\n"
    "Exit codes:\n"
    "  0  clean, or only info findings\n"
    "  1  a high or medium finding\n"
    "  2  the program failed on its own (a non-zero exit, a signal it did\n"
    "     not get from gstprof), or no GStreamer pipeline ran in it\n"
    "  3  bad usage, the program not found, DIR not writable\n";

static gboolean gp_wrap_escalate (gpointer data);

static void
gp_wrap_signal_child (GpWrap * w)
{
  static const gint sigs[] = { SIGINT, SIGTERM, SIGKILL };

  if (w->exited || w->escalation >= G_N_ELEMENTS (sigs))
    return;
  if (w->escalation == 0)
    w->stop_us = g_get_monotonic_time ();
  kill (w->pid, sigs[w->escalation++]);
  if (w->escalation < G_N_ELEMENTS (sigs))
    w->grace_id = g_timeout_add_seconds (GP_WRAP_GRACE_S, gp_wrap_escalate,
        w);
}

static gboolean
gp_wrap_escalate (gpointer data)
{
  GpWrap *w = data;

  w->grace_id = 0;
  gp_wrap_signal_child (w);
  return G_SOURCE_REMOVE;
}

/* Ctrl-C or SIGTERM to gstprof: the program is stopped, not gstprof; a
 * second one goes straight to the next, stronger signal. */
static gboolean
gp_wrap_on_signal (gpointer data)
{
  GpWrap *w = data;

  if (w->stopped_by == NULL)
    w->stopped_by = "interrupt";
  if (w->grace_id) {
    g_source_remove (w->grace_id);
    w->grace_id = 0;
  }
  gp_wrap_signal_child (w);
  return G_SOURCE_CONTINUE;
}

static gboolean
gp_wrap_on_duration (gpointer data)
{
  GpWrap *w = data;

  if (w->stopped_by == NULL) {
    w->stopped_by = "duration";
    gp_wrap_signal_child (w);
  }
  return G_SOURCE_REMOVE;
}

static void
gp_wrap_on_exit (GPid pid, gint status, gpointer data)
{
  GpWrap *w = data;

  w->status = status;
  w->exited = TRUE;
  w->exit_us = g_get_monotonic_time ();
  g_spawn_close_pid (pid);
  g_main_loop_quit (w->loop);
}

/* How the program ended, in words; NULL for a clean exit 0. */
static gchar *
gp_wrap_exit_text (const GpWrap * w, const gchar * program)
{
  if (WIFEXITED (w->status))
    return WEXITSTATUS (w->status) == 0 ? NULL :
        g_strdup_printf ("%s exited with status %d", program,
        WEXITSTATUS (w->status));
  if (WIFSIGNALED (w->status))
    return g_strdup_printf ("%s was killed by signal %d (%s)%s", program,
        WTERMSIG (w->status), g_strsignal (WTERMSIG (w->status)),
        w->escalation > 0 ? ", from gstprof" : "");
  return g_strdup_printf ("%s ended (status 0x%x)", program, w->status);
}

/* The program failed on its own: not a clean exit, and not the end of the
 * signals gstprof sent it. */
static gboolean
gp_wrap_failed (const GpWrap * w)
{
  if (WIFEXITED (w->status))
    return WEXITSTATUS (w->status) != 0 && w->escalation == 0;
  return w->escalation == 0;
}

gint
gp_cmd_wrap (gint argc, gchar ** argv)
{
  gchar *opt_duration = NULL, *opt_window = NULL, *opt_out = NULL;
  gboolean opt_cpu = FALSE;
  GOptionEntry entries[] = {
    {"duration", 'd', 0, G_OPTION_ARG_STRING, &opt_duration,
        "Stop the program after this long (default: until it exits)",
          "TIME"},
    {"out", 'o', 0, G_OPTION_ARG_FILENAME, &opt_out,
          "Folder for session.json (default: none written)", "DIR"},
    {"window", 'w', 0, G_OPTION_ARG_STRING, &opt_window,
          "Measurement window, 10ms to 10s (default 250ms)", "TIME"},
    {"cpu", 0, 0, G_OPTION_ARG_NONE, &opt_cpu,
          "Also CPU time per element (work vs waiting)", NULL},
    {NULL}
  };
  GpWrap w = { 0 };
  GpCaptureOptions opts;
  GOptionContext *ctx;
  GError *err = NULL;
  GpSession *s = NULL;
  gchar **program = NULL, **envp = NULL;
  gchar *dir = NULL, *file = NULL, *others = NULL, *text, *verdict;
  gdouble duration = 0, window = 0.25;
  guint sigint_id = 0, sigterm_id = 0;
  gint code, i, split = -1;

  g_set_prgname ("gstprof wrap");
  /* everything after "--" is the program's */
  for (i = 1; i < argc; i++)
    if (strcmp (argv[i], "--") == 0) {
      split = i;
      break;
    }
  ctx = g_option_context_new ("-- PROGRAM [ARGS...]");
  g_option_context_set_summary (ctx, "Profiles a GStreamer program as it "
      "is, e.g.\n  gstprof wrap -- python3 my_app.py --camera 0");
  g_option_context_set_description (ctx, gp_wrap_description);
  g_option_context_add_main_entries (ctx, entries, NULL);
  {
    /* gstprof's own options, before "--": parsed on a copy, so that the
     * program's arguments are never taken for ours */
    gint n = split >= 0 ? split : argc;
    gchar **head = g_new0 (gchar *, n + 1);
    gchar **parsed = head;

    for (i = 0; i < n; i++)
      head[i] = g_strdup (argv[i]);
    if (!g_option_context_parse (ctx, &n, &parsed, &err)) {
      code = gp_cli_fail ("wrap", "%s", err->message);
      g_strfreev (parsed);
      goto out;
    }
    if (n > 1) {
      code = gp_cli_fail ("wrap", "'%s' before '--': the program comes "
          "after it (gstprof wrap -- %s ...)", parsed[1], parsed[1]);
      g_strfreev (parsed);
      goto out;
    }
    g_strfreev (parsed);
  }
  if (split < 0 || split + 1 >= argc) {
    code = gp_cli_fail ("wrap", "no program given (gstprof wrap -- "
        "PROGRAM ARGS...)");
    goto out;
  }
  if (opt_duration && !gp_cli_parse_duration (opt_duration, &duration,
          &err)) {
    code = gp_cli_fail ("wrap", "--duration: %s", err->message);
    goto out;
  }
  if (opt_window && (!gp_cli_parse_duration (opt_window, &window, &err) ||
          window < 0.01 || window > 10)) {
    code = gp_cli_fail ("wrap", "--window: '%s' is not 10ms to 10s",
        opt_window);
    goto out;
  }
  program = g_strdupv (argv + split + 1);

  /* a folder only this user reads: the records name the program's
   * elements and its command line */
  dir = g_dir_make_tmp ("gstprof-wrap-XXXXXX", &err);
  if (dir == NULL) {
    code = gp_cli_fail ("wrap", "cannot make a private folder: %s",
        err->message);
    goto out;
  }
  gp_capture_options_init (&opts);
  opts.window_ms = (guint) (window * 1000 + 0.5);
  opts.cpu = opt_cpu;
  opts.records_dir = dir;
  envp = gp_capture_tracer_environ (NULL, &opts);

  if (!g_spawn_async (NULL, program, envp, G_SPAWN_SEARCH_PATH |
          G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_CHILD_INHERITS_STDIN, NULL,
          NULL, &w.pid, &err)) {
    code = gp_cli_fail ("wrap", "cannot run %s: %s", program[0],
        err->message);
    goto out;
  }
  w.loop = g_main_loop_new (NULL, FALSE);
  g_child_watch_add (w.pid, gp_wrap_on_exit, &w);
  sigint_id = g_unix_signal_add (SIGINT, gp_wrap_on_signal, &w);
  sigterm_id = g_unix_signal_add (SIGTERM, gp_wrap_on_signal, &w);
  if (duration > 0)
    g_timeout_add ((guint) (duration * 1000), gp_wrap_on_duration, &w);
  g_main_loop_run (w.loop);
  g_source_remove (sigint_id);
  g_source_remove (sigterm_id);
  if (w.grace_id)
    g_source_remove (w.grace_id);

  /* the records, read by this process's GStreamer, which has no tracer */
  if (!gst_init_check (NULL, NULL, &err)) {
    code = gp_cli_fail ("wrap", "cannot initialise GStreamer: %s",
        err->message);
    goto out;
  }
  file = gp_records_file_of (dir, (guint) w.pid, &others);
  text = gp_wrap_exit_text (&w, program[0]);
  if (file == NULL) {
    g_printerr ("gstprof wrap: %s%sno GStreamer pipeline ran in it (no "
        "records from the tracer%s%s)\n", text ? text : "", text ? "; " : "",
        others ? "; other processes': " : "", others ? others : "");
    g_free (text);
    code = GP_EXIT_PIPELINE;
    goto out;
  }
  s = gp_records_load (file, &err);
  if (s == NULL) {
    code = gp_cli_fail ("wrap", "%s", err->message);
    g_free (text);
    goto out;
  }
  if (w.stopped_by != NULL) {
    /* the stop on the records' clock: their last window is about when the
     * program ended */
    gdouble drain = w.stop_us ? (w.exit_us - w.stop_us) / 1e6 : 0;

    g_free (s->end);
    s->end = g_strdup (w.stopped_by);
    s->stop_s = MAX (0, s->duration_s - drain);
    s->drain_s = drain;
  }
  if (text != NULL) {
    gp_session_add_event (s, s->duration_s, "warning", "gstprof", text);
    g_free (text);
  }
  if (others != NULL) {
    text = g_strdup_printf ("processes it started ran GStreamer too (pid "
        "%s): not followed, their records stay out of this session", others);
    gp_session_add_event (s, s->duration_s, "warning", "gstprof", text);
    g_free (text);
  }

  gp_rules_run (s);
  code = gp_wrap_failed (&w) || gp_session_never_played (s) ?
      GP_EXIT_PIPELINE : gp_rules_exit_code (s);
  s->exit_code = code;
  if (opt_out != NULL) {
    gchar *path = g_build_filename (opt_out, "session.json", NULL);

    if (g_mkdir_with_parents (opt_out, 0755) != 0 ||
        !gp_session_save (s, path, &err)) {
      code = gp_cli_fail ("wrap", "--out: cannot write %s: %s", path,
          err ? err->message : g_strerror (errno));
      g_free (path);
      goto out;
    }
    g_printerr ("session: %s\n", path);
    g_free (path);
  }
  verdict = gp_verdict_format (s, NULL, gp_verdict_want_color (1) ?
      GP_VERDICT_COLOR : GP_VERDICT_PLAIN);
  fputs (verdict, stdout);
  fflush (stdout);
  g_free (verdict);

out:
  if (dir != NULL) {
    GDir *d = g_dir_open (dir, 0, NULL);
    const gchar *name;

    while (d != NULL && (name = g_dir_read_name (d)) != NULL) {
      gchar *p = g_build_filename (dir, name, NULL);

      g_unlink (p);
      g_free (p);
    }
    if (d != NULL)
      g_dir_close (d);
    g_rmdir (dir);
  }
  if (s)
    gp_session_free (s);
  if (w.loop)
    g_main_loop_unref (w.loop);
  g_clear_error (&err);
  g_strfreev (program);
  g_strfreev (envp);
  g_free (dir);
  g_free (file);
  g_free (others);
  g_free (opt_duration);
  g_free (opt_window);
  g_free (opt_out);
  g_option_context_free (ctx);
  return code;
}
