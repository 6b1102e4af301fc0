/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-cmd-wrap.c: `gstprof wrap [OPTIONS] -- PROGRAM ARGS...`: runs any
 * GStreamer program unchanged with the tracer loaded through its
 * environment (src/capture/gp-wrap.h: the supervision, the socket, the
 * signals), then runs the rules on the program's session and on every
 * other process's, saves them with --out and prints their verdicts, the
 * program's first.
 */
#include "gp-cli.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "capture/gp-wrap.h"
#include "core/gp-session.h"
#include "report/gp-verdict.h"
#include "rules/gp-rules.h"

static const gchar gp_cmd_wrap_description[] =
    "The program runs unchanged; GStreamer in it loads the gstprof tracer\n"
    "from the environment (GST_PLUGIN_PATH, and gstprof added to the\n"
    "GST_TRACERS it already has: other tracers are kept). Its records\n"
    "stream to a socket in a folder only you can read, and become the\n"
    "session when it ends; GStreamer programs it starts are profiled too,\n"
    "each in a verdict (and with --out, a session-PID.json) of its own.\n"
    "Ctrl-C and --duration stop it alike: SIGINT, then SIGTERM and SIGKILL\n"
    "after " G_STRINGIFY (GP_WRAP_GRACE_S) " s each (Ctrl-C reaches the "
    "program from the terminal itself;\ngstprof adds no second SIGINT; "
    "kill -INT to gstprof is passed on). A program\nkilled or crashed "
    "still gives every window up to its last one.\n"
    "The program dies with gstprof; with --out its session so far is\n"
    "saved every 2 s, so a gstprof killed outright leaves a valid one.\n\n"
    "The machine is sampled from the start as by gstprof run, the program's\n"
    "threads and RSS with it, into its session (--no-machine: not).\n\n"
    "Exit codes:\n"
    "  0  clean, or only info findings\n"
    "  1  a high or medium finding\n"
    "  2  the program failed on its own (a non-zero exit, a signal it did\n"
    "     not get from gstprof), or no GStreamer pipeline ran in it\n"
    "  3  bad usage, the program not found, DIR not writable (the\n"
    "     verdicts are printed first, then one line says why)\n";

/* @s saved as @out_dir/@name (atomically: a failed write leaves the one
 * before); FALSE with the reason, naming the file, in @error. */
static gboolean
gp_cmd_wrap_save (GpSession * s, const gchar * out_dir, const gchar * name,
    GError ** error)
{
  gchar *path = g_build_filename (out_dir, name, NULL);
  gboolean ok = TRUE;

  if (g_mkdir_with_parents (out_dir, 0755) != 0) {
    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno),
        "cannot create '%s': %s", out_dir, g_strerror (errno));
    ok = FALSE;
  } else if (!gp_session_save (s, path, error)) {
    ok = FALSE;
  } else {
    g_printerr ("session: %s\n", path);
  }
  g_free (path);
  return ok;
}

static void
gp_cmd_wrap_print (GpSession * s)
{
  gchar *verdict = gp_verdict_format (s, NULL, gp_verdict_want_color (1) ?
      GP_VERDICT_COLOR : GP_VERDICT_PLAIN);

  fputs (verdict, stdout);
  fflush (stdout);
  g_free (verdict);
}
/* @s saved with --out; when it cannot be, one line says why and the
 * exit code becomes GP_EXIT_USAGE. */
static void
gp_cmd_wrap_keep (GpSession * s, const gchar * out_dir, const gchar * name,
    gint * code)
{
  GError *err = NULL;

  if (out_dir != NULL && !gp_cmd_wrap_save (s, out_dir, name, &err)) {
    *code = gp_cli_fail ("wrap", "the session was not written: %s",
        err->message);
    g_clear_error (&err);
  }
}

/* The rules on every session, the exit code (the worst of every
 * process's), the sessions saved in @out_dir and the verdicts printed,
 * the program's first. The exit code. */
static gint
gp_cmd_wrap_report (GpWrapResult * r, const gchar * program,
    const gchar * out_dir)
{
  GpSession *s = r->session;
  gint code;
  guint i;

  gp_rules_run (s);
  for (i = 0; i < r->others->len; i++)
    gp_rules_run (g_ptr_array_index (r->others, i));
  code = r->failed || gp_session_never_played (s) ?
      GP_EXIT_PIPELINE : gp_rules_exit_code (s);
  for (i = 0; i < r->others->len && code < GP_EXIT_PIPELINE; i++)
    code = MAX (code, gp_rules_exit_code (g_ptr_array_index (r->others, i)));
  s->exit_code = code;
  /* the verdicts are printed whether or not their sessions could be
   * written (a full disk, a folder made read-only); a line says which
   * was not */
  gp_cmd_wrap_keep (s, out_dir, "session.json", &code);
  gp_cmd_wrap_print (s);
  for (i = 0; i < r->others->len; i++) {
    GpSession *so = g_ptr_array_index (r->others, i);
    guint pid = g_array_index (r->pids, guint, i);
    gchar *name = g_strdup_printf ("session-%u.json", pid);

    so->exit_code = gp_rules_exit_code (so);
    gp_cmd_wrap_keep (so, out_dir, name, &code);
    g_free (name);
    printf ("\nprocess %u, started by %s:\n", pid, program);
    gp_cmd_wrap_print (so);
  }
  return code;
}

/* gstprof's own options and the program; FALSE with *@code on bad
 * usage. */
typedef struct
{
  gchar *duration_text, *window_text, *out;
  gboolean cpu, quiet, no_machine;
  gdouble duration, window;     /* seconds; 0: no --duration */
  gchar **program;
  GpCliServe sv;
} GpCmdWrapArgs;

/* --serve: the panel's view of the program, and its buttons */
static void
gp_cmd_wrap_on_live (GpWrap * w, GpSession * so_far, gpointer data)
{
  gp_cli_serve_live (data, w, so_far);
}

static gboolean
gp_cmd_wrap_stop (gpointer w, const gchar * why)
{
  gp_wrap_stop (w, why);
  return TRUE;
}

static gboolean
gp_cmd_wrap_mark (gpointer w, const gchar * text)
{
  return gp_wrap_mark (w, text);
}

static gboolean
gp_cmd_wrap_parse (gint argc, gchar ** argv, GpCmdWrapArgs * a, gint * code)
{
  GOptionEntry entries[] = {
    {"duration", 'd', 0, G_OPTION_ARG_STRING, &a->duration_text,
        "Stop the program after this long (default: until it exits)",
          "TIME"},
    {"out", 'o', 0, G_OPTION_ARG_FILENAME, &a->out,
          "Folder for session.json (default: none written)", "DIR"},
    {"window", 'w', 0, G_OPTION_ARG_STRING, &a->window_text,
          "Measurement window, 10ms to 10s (default 250ms)", "TIME"},
    {"cpu", 0, 0, G_OPTION_ARG_NONE, &a->cpu,
          "Also CPU time per element (work vs waiting)", NULL},
    {"quiet", 'q', 0, G_OPTION_ARG_NONE, &a->quiet,
          "No progress line on stderr", NULL},
    {"no-machine", 0, 0, G_OPTION_ARG_NONE, &a->no_machine,
          "Do not sample the machine (CPU, memory, clocks, heat, power)",
          NULL},
    {NULL}
  };
  GOptionContext *ctx;
  GError *err = NULL;
  gchar **head, **parsed;
  gint i, n, split = -1;
  gboolean ok = FALSE;

  a->window = 0.25;
  /* everything after "--" is the program's */
  for (i = 1; i < argc && split < 0; i++)
    if (strcmp (argv[i], "--") == 0)
      split = i;
  ctx = g_option_context_new ("-- PROGRAM [ARGS...]");
  g_option_context_set_summary (ctx, "Profiles a GStreamer program as it "
      "is, e.g.\n  gstprof wrap -- python3 my_app.py --camera 0");
  g_option_context_set_description (ctx, gp_cmd_wrap_description);
  g_option_context_add_main_entries (ctx, entries, NULL);
  gp_cli_serve_entries (ctx, &a->sv, TRUE);
  /* gstprof's own options, before "--": parsed on a copy, so that the
   * program's arguments are never taken for ours */
  n = split >= 0 ? split : argc;
  head = g_new0 (gchar *, n + 1);
  for (i = 0; i < n; i++)
    head[i] = g_strdup (argv[i]);
  /* (the _strv form frees the arguments it takes out; the plain one
   * leaves them to the caller, who no longer holds them) */
  parsed = head;
  if (!g_option_context_parse_strv (ctx, &parsed, &err))
    *code = gp_cli_fail ("wrap", "%s", err->message);
  else if ((n = g_strv_length (parsed)) > 1)
    *code = gp_cli_fail ("wrap", "'%s' before '--': the program comes "
        "after it (gstprof wrap -- %s ...)", parsed[1], parsed[1]);
  else if (split < 0 || split + 1 >= argc)
    *code = gp_cli_fail ("wrap", "no program given (gstprof wrap -- "
        "PROGRAM ARGS...)");
  else if (a->duration_text && !gp_cli_parse_duration (a->duration_text,
          &a->duration, &err))
    *code = gp_cli_fail ("wrap", "--duration: %s", err->message);
  else if (a->window_text && (!gp_cli_parse_duration (a->window_text,
              &a->window, &err) || a->window < 0.01 || a->window > 10))
    *code = gp_cli_fail ("wrap", "--window: '%s' is not 10ms to 10s",
        a->window_text);
  else
    ok = TRUE;
  if (ok)
    a->program = g_strdupv (argv + split + 1);
  g_strfreev (parsed);
  g_clear_error (&err);
  g_option_context_free (ctx);
  return ok;
}


/* The program run under gp_wrap_run: its sessions reported, or why
 * there are none. The exit code. */
static gint
gp_cmd_wrap_run (GpCmdWrapArgs * a)
{
  GpWrapOptions opts;
  GpWrapResult r;
  GError *err = NULL;
  gchar *checkpoint = a->out ? g_build_filename (a->out, "session.json",
      NULL) : NULL;
  gboolean ok;
  gint code;

  gp_wrap_options_init (&opts);
  opts.argv = a->program;
  opts.duration_s = a->duration;
  opts.window_ms = (guint) (a->window * 1000 + 0.5);
  opts.cpu = a->cpu;
  opts.progress = !a->quiet;
  opts.machine = !a->no_machine;
  opts.saved_apart = a->out != NULL;
  /* a wrap killed outright still leaves the session so far */
  opts.checkpoint_path = checkpoint;
  if (!gp_cli_serve_start ("wrap", &a->sv, gp_cmd_wrap_stop,
          gp_cmd_wrap_mark, &code)) {
    g_free (checkpoint);
    return code;
  }
  if (a->sv.srv) {
    opts.live = gp_cmd_wrap_on_live;
    opts.live_data = &a->sv;
  }
  ok = gp_wrap_run (&opts, &r, &err);
  gp_cli_serve_live (&a->sv, NULL, NULL);       /* the program is gone */
  if (ok) {
    code = gp_cmd_wrap_report (&r, a->program[0], a->out);
    if (a->sv.srv)
      gp_server_end (a->sv.srv, r.session);
    gp_wrap_result_clear (&r);
    gp_cli_serve_hold ("wrap", &a->sv, FALSE);
  } else if (g_error_matches (err, GP_WRAP_ERROR,
          GP_WRAP_ERROR_NO_PIPELINE)) {
    /* the program ran: its own failure, not bad usage */
    g_printerr ("gstprof wrap: %s\n", err->message);
    code = GP_EXIT_PIPELINE;
  } else {
    code = gp_cli_fail ("wrap", "%s", err->message);
  }
  g_clear_error (&err);
  g_free (checkpoint);
  return code;
}

gint
gp_cmd_wrap (gint argc, gchar ** argv)
{
  GpCmdWrapArgs a = { 0 };
  gint code = 0;

  if (gp_cmd_wrap_parse (argc, argv, &a, &code))
    code = gp_cmd_wrap_run (&a);
  gp_cli_serve_clear (&a.sv);
  g_strfreev (a.program);
  g_free (a.duration_text);
  g_free (a.window_text);
  g_free (a.out);
  return code;
}
