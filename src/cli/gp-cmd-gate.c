/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-cmd-gate.c: `gstprof gate (--record | --baseline) BASE.json
 * ("LAUNCH" | -- PROGRAM ARGS... | SESSION...)`: the performance gate for
 * CI (src/report/gp-gate, docs/ci.md). The runs: a launch string in this
 * process (capture/gp-step, as ds sweep and density run theirs), a
 * program wrapped, or sessions already captured.
 */
#include "gp-cli.h"

#include <stdio.h>
#include <string.h>

#include "capture/gp-step.h"
#include "capture/gp-wrap.h"
#include "core/gp-file.h"
#include "ingest/gp-ingest.h"
#include "report/gp-gate.h"
#include "rules/gp-rules.h"

#define GP_GATE_DEFAULT_DURATION_S 10.0
/* Ctrl-C: as a shell reports a command SIGINT ended (128 + 2); a gate cut
 * short neither passed nor failed. */
#define GP_GATE_EXIT_INTERRUPTED 130

static const gchar gp_gate_description[] =
    "Records a baseline (--record), or runs the pipeline again and holds "
    "each run's\n"
    "figures against the baseline's runs (--baseline): each sink's steady "
    "rate, each\n"
    "path's latency p50 and p95, the process's CPU per frame, the self time "
    "of the\n"
    "elements that work (1 % of the self time or more), what leaky queues and "
    "QoS\n"
    "dropped, a live sink's lateness p95, and the findings at medium or "
    "above.\n"
    "\n"
    "A metric fails only when its median is worse by more than its "
    "threshold AND the\n"
    "two sets of runs differ beyond their noise: the exact one-sided "
    "Wilcoxon-Mann-\n"
    "Whitney rank test, p < 0.01 (5 runs a side can reach it, 4 and 5 too; "
    "with fewer\n"
    "the thresholds alone judge, and the output says so). A finding fails "
    "when it is in\n"
    "more than half of the new runs and in none of the baseline's.\n"
    "\n"
    "Thresholds (--max-regress KIND=N%, comma-separated or repeated):\n"
    "  rate 10%  latency 20%  latency-p95 25%  cpu 20%  self 15%  dropped 10%  "
    "late 25%\n"
    "each also never under the measurement's resolution (docs/ci.md).\n"
    "\n"
    "What runs: \"LAUNCH\" (in this process, --runs times, each for "
    "--duration or to\n"
    "its end), -- PROGRAM ARGS... (wrapped, as gstprof wrap), or SESSION... "
    "(sessions\n"
    "already captured: a session.json or a run's folder each). A baseline "
    "of another\n"
    "pipeline is refused; one from another machine or GStreamer version too, "
    "unless\n"
    "--allow-other-machine.\n"
    "\n"
    "Exit codes:\n"
    "  0  pass (or the baseline was recorded)\n"
    "  1  a regression\n"
    "  2  the pipeline failed in a run (an error, or no steady rate at any "
    "sink)\n"
    "  3  bad usage or input: options, a baseline that cannot be read or is "
    "of\n"
    "     another pipeline, machine or version, a launch string that does "
    "not parse\n"
    "  130  interrupted (Ctrl-C): nothing recorded or judged\n";

typedef struct
{
  gchar *record, *baseline, *duration_text, *junit, *markdown;
  gchar **max_regress, **rest, **program;
  gint runs;
  gboolean other_machine;
  gdouble duration;
  GpGateThresholds thresholds;
} GpGateArgs;

static void
gp_gate_args_clear (GpGateArgs * a)
{
  g_free (a->record);
  g_free (a->baseline);
  g_free (a->duration_text);
  g_free (a->junit);
  g_free (a->markdown);
  g_strfreev (a->max_regress);
  g_strfreev (a->rest);
  g_strfreev (a->program);
}

/* The options (a program after "--" kept apart, never parsed as ours);
 * FALSE with the exit code in @code. */
static gboolean
gp_gate_parse (gint argc, gchar ** argv, GpGateArgs * a, gint * code)
{
  GOptionEntry entries[] = {
    {"record", 0, 0, G_OPTION_ARG_FILENAME, &a->record,
        "write the runs' figures as the baseline", "BASE.json"},
    {"baseline", 'b', 0, G_OPTION_ARG_FILENAME, &a->baseline,
        "hold the runs against this baseline", "BASE.json"},
    {"runs", 'n', 0, G_OPTION_ARG_INT, &a->runs,
        "runs of the pipeline (default 5)", "N"},
    {"duration", 'd', 0, G_OPTION_ARG_STRING, &a->duration_text,
        "each run's length (default 10s; it ends sooner at EOS)", "S"},
    {"max-regress", 0, 0, G_OPTION_ARG_STRING_ARRAY, &a->max_regress,
        "a metric's threshold, e.g. cpu=10%", "KIND=N%"},
    {"allow-other-machine", 0, 0, G_OPTION_ARG_NONE, &a->other_machine,
        "compare with a baseline of another machine or GStreamer", NULL},
    {"junit", 0, 0, G_OPTION_ARG_FILENAME, &a->junit,
        "the judgement (or the pipeline's failure) as JUnit XML", "FILE"},
    {"markdown", 0, 0, G_OPTION_ARG_FILENAME, &a->markdown,
        "the same as Markdown (a merge request's comment)", "FILE"},
    {G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &a->rest, NULL,
        NULL},
    {NULL}
  };
  GOptionContext *ctx = g_option_context_new ("(--record | --baseline) "
      "BASE.json (\"LAUNCH\" | -- PROGRAM ARGS... | SESSION...)");
  GError *err = NULL;
  gchar **head;
  gint i, split = -1;
  gboolean ok = FALSE;

  a->runs = GP_GATE_RUNS_DEFAULT;
  a->duration = GP_GATE_DEFAULT_DURATION_S;
  gp_gate_thresholds_init (&a->thresholds);
  for (i = 1; i < argc && split < 0; i++)
    if (strcmp (argv[i], "--") == 0)
      split = i;
  g_option_context_set_summary (ctx, "A performance gate for CI: fails "
      "when the pipeline got slower than its\nbaseline by more than a "
      "threshold and beyond the runs' noise.");
  g_option_context_set_description (ctx, gp_gate_description);
  g_option_context_add_main_entries (ctx, entries, NULL);
  head = g_new0 (gchar *, (split >= 0 ? split : argc) + 1);
  for (i = 0; i < (split >= 0 ? split : argc); i++)
    head[i] = g_strdup (argv[i]);
  if (split >= 0)
    a->program = g_strdupv (argv + split + 1);
  if (!g_option_context_parse_strv (ctx, &head, &err))
    *code = gp_cli_fail ("gate", "%s", err->message);
  else if ((a->record == NULL) == (a->baseline == NULL))
    *code = gp_cli_fail ("gate", "give one of --record BASE.json (write a "
        "baseline) and --baseline BASE.json (hold the runs against one)");
  else if (a->runs < 1 || a->runs > GP_GATE_RUNS_MAX)
    *code = gp_cli_fail ("gate", "--runs: %d is not 1 to %d", a->runs,
        GP_GATE_RUNS_MAX);
  else if (a->duration_text && !gp_cli_parse_duration (a->duration_text,
          &a->duration, &err))
    *code = gp_cli_fail ("gate", "--duration: %s", err->message);
  else if (!(a->duration > 0))
    *code = gp_cli_fail ("gate", "--duration: give a time above 0");
  else if (split >= 0 && (a->program[0] == NULL || a->rest != NULL))
    *code = gp_cli_fail ("gate", a->program[0] == NULL ? "no program after "
        "'--'" : "a program after '--', or a launch string or sessions: "
        "not both");
  else if (split < 0 && (a->rest == NULL || a->rest[0] == NULL))
    *code = gp_cli_fail ("gate", "give the pipeline: \"LAUNCH\", -- PROGRAM "
        "ARGS..., or SESSION...");
  else
    ok = TRUE;
  for (i = 0; ok && a->max_regress && a->max_regress[i]; i++)
    if (!gp_gate_thresholds_parse (&a->thresholds, a->max_regress[i], &err)) {
      *code = gp_cli_fail ("gate", "%s", err->message);
      ok = FALSE;
    }
  g_clear_error (&err);
  g_strfreev (head);
  g_option_context_free (ctx);
  return ok;
}

/* Whether every argument is a file or folder (sessions), not a launch
 * string. */
static gboolean
gp_gate_are_sessions (gchar ** rest)
{
  guint i;

  for (i = 0; rest[i]; i++)
    if (!g_file_test (rest[i], G_FILE_TEST_EXISTS))
      return FALSE;
  return TRUE;
}

/* Whether runs here with @version may be held against @base
 * (gp_gate_same_machine: this machine; @version NULL: the machine alone);
 * FALSE with the exit code in @code. */
static gboolean
gp_gate_check_machine (const GpGateArgs * a, const GpGateBaseline * base,
    const gchar * version, gint * code)
{
  gchar *machine = gp_gate_machine ();
  gchar *why = NULL;
  gboolean ok = gp_gate_same_machine (base, machine, version ? version :
      base->gstreamer, a->other_machine, &why);

  if (!ok)
    *code = gp_cli_fail ("gate", "%s: %s", a->baseline, why);
  g_free (why);
  g_free (machine);
  return ok;
}

/* Whether @base may judge the runs whose first is @s: this machine, @s's
 * GStreamer (a program's own, a session's), @s's elements
 * (gp_gate_same_pipeline); FALSE with the exit code in @code. NULL @base:
 * nothing to check. */
static gboolean
gp_gate_check_first (const GpGateArgs * a, const GpGateBaseline * base,
    GpSession * s, gint * code)
{
  GPtrArray *ids;
  gchar *why = NULL;
  gboolean ok;

  if (base == NULL)
    return TRUE;
  if (!gp_gate_check_machine (a, base, s->gstreamer, code))
    return FALSE;
  ids = gp_gate_elements_of (s);
  ok = gp_gate_same_pipeline (base, ids, &why);
  if (!ok)
    *code = gp_cli_fail ("gate", "%s: %s", a->baseline, why);
  g_free (why);
  g_ptr_array_unref (ids);
  return ok;
}

/* The sessions given, rules run, into @sessions; their one launch string
 * (or NULL) in @pipeline. FALSE with the exit code in @code. */
static gboolean
gp_gate_load_sessions (const GpGateArgs * a, const GpGateBaseline * base,
    GPtrArray * sessions, gchar ** pipeline, gint * code)
{
  gchar **files = a->rest;
  GError *err = NULL;
  guint i;

  if (g_strv_length (files) > GP_GATE_RUNS_MAX) {
    *code = gp_cli_fail ("gate", "%u sessions: %d at most", g_strv_length
        (files), GP_GATE_RUNS_MAX);
    return FALSE;
  }
  for (i = 0; files[i]; i++) {
    GpSession *s = gp_ingest_load_any (files[i], &err);

    if (s == NULL) {
      *code = gp_cli_fail ("gate", "%s", err->message);
      g_clear_error (&err);
      return FALSE;
    }
    gp_rules_run (s);
    g_ptr_array_add (sessions, s);
    /* sessions are taken as captured on this machine, with their own
     * GStreamer */
    if (i == 0 && !gp_gate_check_first (a, base, s, code))
      return FALSE;
    if (!(gp_session_sinks_fps (s) > 0)) {
      *code = gp_cli_fail ("gate", "%s: no steady rate at any sink: "
          "nothing to hold against a baseline", files[i]);
      return FALSE;
    }
    if (i == 0)
      *pipeline = g_strdup (s->launch);
    else if (g_strcmp0 (*pipeline, s->launch) != 0) {
      *code = gp_cli_fail ("gate", "%s: another pipeline than %s's",
          files[i], files[0]);
      return FALSE;
    }
  }
  return TRUE;
}

/* Ctrl-C during run @i: nothing recorded or judged; FALSE, the exit code
 * (GP_GATE_EXIT_INTERRUPTED) in @code. */
static gboolean
gp_gate_interrupted (const GpGateArgs * a, gint i, gint * code)
{
  g_printerr ("gstprof gate: interrupted in run %d of %d: nothing %s\n",
      i + 1, a->runs, a->record ? "recorded" : "judged");
  *code = GP_GATE_EXIT_INTERRUPTED;
  return FALSE;
}

/* --runs runs of @launch in this process into @sessions; FALSE with the
 * exit code in @code and, when the pipeline failed, why in @failed. */
static gboolean
gp_gate_run_launch (const GpGateArgs * a, const GpGateBaseline * base,
    const gchar * launch, GPtrArray * sessions, gchar ** failed, gint * code)
{
  GpCaptureOptions copts;
  GError *err = NULL;
  gint i;

  gp_capture_options_init (&copts);
  if (!gp_capture_prepare_env (&copts, &err) ||
      !gst_init_check (NULL, NULL, &err)) {
    *code = gp_cli_fail ("gate", "cannot load the gstprof tracer: %s (see "
        "gstprof check)", err->message);
    g_clear_error (&err);
    return FALSE;
  }
  for (i = 0; i < a->runs; i++) {
    GpStep step;

    if (!gp_step_run (launch, a->duration, i == 0, &step, &err)) {
      *code = gp_cli_fail ("gate", "%s", err->message);
      g_clear_error (&err);
      return FALSE;
    }
    if (step.end == GP_CAPTURE_END_INTERRUPTED) {
      gp_step_clear (&step);
      return gp_gate_interrupted (a, i, code);
    }
    if (!step.ran) {
      *failed = g_strdup_printf ("run %d of %d: %s", i + 1, a->runs,
          step.why);
      gp_step_clear (&step);
      *code = GP_EXIT_PIPELINE;
      return FALSE;
    }
    gp_rules_run (step.session);
    fprintf (stderr, "gstprof gate: run %d of %d: %.1f fps at the sinks\n",
        i + 1, a->runs, gp_session_sinks_fps (step.session));
    g_ptr_array_add (sessions, g_steal_pointer (&step.session));
    gp_step_clear (&step);
    if (i == 0 && !gp_gate_check_first (a, base,
            g_ptr_array_index (sessions, 0), code))
      return FALSE;
  }
  return TRUE;
}

/* --runs runs of the program, wrapped, into @sessions (as
 * gp_gate_run_launch). */
static gboolean
gp_gate_run_program (const GpGateArgs * a, const GpGateBaseline * base,
    GPtrArray * sessions, gchar ** failed, gint * code)
{
  gint i;

  for (i = 0; i < a->runs; i++) {
    GpWrapOptions opts;
    GpWrapResult r;
    GError *err = NULL;

    gp_wrap_options_init (&opts);
    opts.argv = a->program;
    opts.duration_s = a->duration;
    if (!gp_wrap_run (&opts, &r, &err)) {
      if (g_error_matches (err, GP_WRAP_ERROR, GP_WRAP_ERROR_NO_PIPELINE)) {
        *failed = g_strdup_printf ("run %d of %d: %s", i + 1, a->runs,
            err->message);
        *code = GP_EXIT_PIPELINE;
      } else
        *code = gp_cli_fail ("gate", "%s", err->message);
      g_clear_error (&err);
      return FALSE;
    }
    if (r.failed) {
      *failed = g_strdup_printf ("run %d of %d: %s failed on its own",
          i + 1, a->runs, a->program[0]);
      gp_wrap_result_clear (&r);
      *code = GP_EXIT_PIPELINE;
      return FALSE;
    }
    if (gp_session_find_event (r.session, "interrupt") != NULL) {
      gp_wrap_result_clear (&r);
      return gp_gate_interrupted (a, i, code);
    }
    if (!(gp_session_sinks_fps (r.session) > 0)) {
      *failed = g_strdup_printf ("run %d of %d: no steady rate at any sink",
          i + 1, a->runs);
      gp_wrap_result_clear (&r);
      *code = GP_EXIT_PIPELINE;
      return FALSE;
    }
    gp_rules_run (r.session);
    fprintf (stderr, "gstprof gate: run %d of %d: %.1f fps at the sinks\n",
        i + 1, a->runs, gp_session_sinks_fps (r.session));
    g_ptr_array_add (sessions, g_steal_pointer (&r.session));
    gp_wrap_result_clear (&r);
    if (i == 0 && !gp_gate_check_first (a, base,
            g_ptr_array_index (sessions, 0), code))
      return FALSE;
  }
  return TRUE;
}

/* @text written to @path whole or not at all; FALSE (said) when it
 * cannot be. */
static gboolean
gp_gate_write (const gchar * option, const gchar * path, gchar * text)
{
  GError *err = NULL;
  gboolean ok = gp_atomic_file_write (path, text, strlen (text), &err);

  if (!ok) {
    gp_cli_fail ("gate", "--%s: %s", option, err->message);
    g_error_free (err);
  }
  g_free (text);
  return ok;
}

/* The reports --junit and --markdown ask for; FALSE when one cannot be
 * written. */
static gboolean
gp_gate_reports (const GpGateArgs * a, const GpGateResult * r,
    const gchar * failed)
{
  gboolean ok = TRUE;

  if (a->junit)
    ok = gp_gate_write ("junit", a->junit, gp_gate_junit (r, failed)) && ok;
  if (a->markdown)
    ok = gp_gate_write ("markdown", a->markdown, gp_gate_markdown (r,
            a->baseline ? a->baseline : a->record, failed)) && ok;
  return ok;
}

/* The runs judged against the baseline, or recorded as one; the exit
 * code. */
static gint
gp_gate_conclude (const GpGateArgs * a, GpGateBaseline * base,
    GpGateBaseline * now)
{
  GError *err = NULL;
  GpGateResult *r;
  gchar *text;
  gint code;

  if (a->record) {
    if (!gp_gate_baseline_save (now, a->record, &err)) {
      code = gp_cli_fail ("gate", "--record: %s", err->message);
      g_error_free (err);
      return code;
    }
    printf ("gstprof gate: recorded %u runs in %s (%s; GStreamer %s)\n",
        now->runs->len, a->record, now->machine, now->gstreamer);
    return GP_EXIT_CLEAN;
  }
  r = gp_gate_judge (base, now, &a->thresholds);
  text = gp_gate_format (r, a->baseline);
  fputs (text, stdout);
  g_free (text);
  code = r->regressions ? GP_EXIT_FINDINGS : GP_EXIT_CLEAN;
  if (!gp_gate_reports (a, r, NULL))
    code = GP_EXIT_USAGE;
  gp_gate_result_free (r);
  return code;
}

gint
gp_cmd_gate (gint argc, gchar ** argv)
{
  GpGateArgs a = { 0 };
  GPtrArray *sessions = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gp_session_free);
  GpGateBaseline *base = NULL, *now = NULL;
  GError *err = NULL;
  gchar *pipeline = NULL, *failed = NULL;
  const gchar *what;
  gboolean ok;
  gint code = GP_EXIT_USAGE;

  if (!gp_gate_parse (argc, argv, &a, &code))
    goto out;
  /* a baseline that cannot be read is said before any run */
  if (a.baseline && (base = gp_gate_baseline_load (a.baseline, &err)) ==
      NULL) {
    code = gp_cli_fail ("gate", "%s", err->message);
    goto out;
  }
  if (a.program) {
    what = "program";
    pipeline = g_strjoinv (" ", a.program);
  } else if (gp_gate_are_sessions (a.rest)) {
    what = "sessions";
  } else if (a.rest[1] != NULL) {
    guint i;

    for (i = 0; g_file_test (a.rest[i], G_FILE_TEST_EXISTS); i++);
    code = gp_cli_fail ("gate", "'%s' is not a file: give one launch "
        "string (quoted), or sessions", a.rest[i]);
    goto out;
  } else {
    what = "launch";
    pipeline = g_strdup (a.rest[0]);
  }
  /* another machine (and, in this process, GStreamer): refused before
   * any run; a program's GStreamer and another pipeline after the first */
  if (base && pipeline) {
    gchar *version = a.program ? NULL : gp_capture_gst_version ();

    ok = gp_gate_check_machine (&a, base, version, &code);
    g_free (version);
    if (!ok)
      goto out;
  }
  if (a.program)
    ok = gp_gate_run_program (&a, base, sessions, &failed, &code);
  else if (pipeline == NULL)
    ok = gp_gate_load_sessions (&a, base, sessions, &pipeline, &code);
  else
    ok = gp_gate_run_launch (&a, base, pipeline, sessions, &failed, &code);
  if (!ok) {
    if (failed) {
      g_printerr ("gstprof gate: the pipeline failed: %s\n", failed);
      if (!gp_gate_reports (&a, NULL, failed))
        code = GP_EXIT_USAGE;
    }
    goto out;
  }
  now = gp_gate_baseline_new (what, pipeline, sessions);
  code = gp_gate_conclude (&a, base, now);

out:
  g_clear_error (&err);
  gp_gate_baseline_free (base);
  gp_gate_baseline_free (now);
  g_ptr_array_unref (sessions);
  g_free (pipeline);
  g_free (failed);
  gp_gate_args_clear (&a);
  return code;
}
