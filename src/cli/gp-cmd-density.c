/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-cmd-density.c: `gstprof density "TEMPLATE" | --pipeline "ONE STREAM"
 * [--streams-max N] [--fps-floor F]`: the most streams that all hold the
 * floor, searched as Intel's density test does (capture/gp-step: double,
 * then bisect), each step measured in steady state under the tracer; the
 * streams and the wall from report/gp-density (docs/density.md).
 */
#include "gp-cli.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "capture/gp-step.h"
#include "plot/gp-plot.h"
#include "report/gp-density.h"
#include "rules/gp-rules.h"

/* Long enough for a few steady windows after the start-up second. */
#define GP_DENSITY_DURATION_S 5.0
#define GP_DENSITY_STREAMS_MAX_DEFAULT 16
/* Far above what one machine runs in one process, small enough that a
 * typo does not start a thousand pipelines. */
#define GP_DENSITY_STREAMS_MAX_LIMIT 256
/* Ctrl-C: as a shell reports a command SIGINT ended (128 + 2) */
#define GP_DENSITY_EXIT_INTERRUPTED 130

static const gchar gp_density_description[] =
    "Runs the pipeline with 1, 2, 4, ... streams until a stream falls "
    "below the\n"
    "floor (or --streams-max is reached), then bisects between the most "
    "that held\n"
    "and the fewest that did not: the answer is the largest number of "
    "streams that\n"
    "all hold the floor. Each step runs --duration under the tracer and "
    "is judged\n"
    "in steady state (the start-up second left out).\n"
    "\n"
    "The streams: --pipeline \"ONE STREAM\" is copied n times into one "
    "process, each\n"
    "copy in a bin named s0, s1, ... (a stream's rate: its slowest sink). "
    "A template\n"
    "takes the streams itself: its {n} is the count, and what lies "
    "between {each}\n"
    "and {/each} is written once a stream with {k} its number from 0, e.g.\n"
    "  \"compositor name=c ! fakesink {each} videotestsrc is-live=true ! "
    "c.sink_{k} {/each}\"\n"
    "(a stream's rate: its sink's when there are n sinks, else its link "
    "into the\n"
    "element that takes the n inputs).\n"
    "\n"
    "The floor defaults to 95 % of the frame rate the caps ask for. At the "
    "first\n"
    "count that did not hold, what hit the wall: a full streaming thread "
    "and its\n"
    "element, every core busy, a machine rule (an engine at its wall, the "
    "memory\n"
    "bus, heat).\n"
    "\n"
    "Exit codes:\n"
    "  0  the search ended (even when one stream does not hold the floor)\n"
    "  2  the pipeline failed with one stream\n"
    "  3  bad usage or input: options, a launch string that does not "
    "parse,\n"
    "     streams that cannot be told apart, no frame rate for a floor\n"
    "  130  interrupted (Ctrl-C): the steps run so far and the most that "
    "held\n";

typedef struct
{
  guint n;
  gboolean ran, held;
  gboolean interrupted;         /* Ctrl-C: the step not judged */
  gchar *why;                   /* not run through: one line */
  gdouble fps_min, fps_median;
  gdouble cpu_pct;              /* the process's, % of one core */
  gchar **wall;                 /* where it did not hold */
} GpDensityRow;

static void
gp_density_rows_free (GArray * rows)
{
  guint i;

  for (i = 0; i < rows->len; i++) {
    GpDensityRow *r = &g_array_index (rows, GpDensityRow, i);

    g_free (r->why);
    g_strfreev (r->wall);
  }
  g_array_unref (rows);
}

/* One step of @n streams into @row; FALSE with the exit code in @code
 * when the search cannot go on. */
static gboolean
gp_density_step (const gchar * template_, guint n, gdouble duration,
    gdouble * floor, gboolean first, GpDensityRow * row, gint * code)
{
  GError *err = NULL;
  gchar *launch = gp_density_launch (template_, n, &err);
  GArray *fps;
  GpStep step;

  row->n = n;
  row->fps_min = row->fps_median = row->cpu_pct = NAN;
  row->interrupted = FALSE;
  if (launch == NULL || !gp_step_run (launch, duration, first, &step,
          &err)) {
    *code = gp_cli_fail ("density", "%s", err->message);
    g_error_free (err);
    g_free (launch);
    return FALSE;
  }
  g_free (launch);
  if (step.end == GP_CAPTURE_END_INTERRUPTED) {
    row->interrupted = TRUE;
    gp_step_clear (&step);
    return TRUE;
  }
  if (!step.ran) {
    row->why = g_strdup (step.why);
    gp_step_clear (&step);
    if (first) {
      g_printerr ("gstprof density: the pipeline failed with one stream: "
          "%s\n", row->why);
      *code = GP_EXIT_PIPELINE;
      return FALSE;
    }
    return TRUE;
  }
  fps = gp_density_stream_fps (step.session, n,
      !gp_density_is_template (template_), &err);
  if (fps == NULL) {
    *code = gp_cli_fail ("density", "%s", err->message);
    g_error_free (err);
    gp_step_clear (&step);
    return FALSE;
  }
  if (isnan (*floor)) {
    gdouble target = gp_density_target_fps (step.session);

    if (!(target > 0)) {
      *code = gp_cli_fail ("density", "the streams' caps name no frame "
          "rate: give --fps-floor");
      g_array_unref (fps);
      gp_step_clear (&step);
      return FALSE;
    }
    *floor = GP_DENSITY_FLOOR_SHARE * target;
  }
  row->ran = TRUE;
  row->fps_min = g_array_index (fps, gdouble, 0);
  row->fps_median = g_array_index (fps, gdouble, fps->len / 2);
  if (fps->len % 2 == 0)
    row->fps_median = (row->fps_median + g_array_index (fps, gdouble,
            fps->len / 2 - 1)) / 2;
  row->cpu_pct = step.session->process.measured ?
      step.session->process.cpu_pct_mean : NAN;
  row->held = row->fps_min >= *floor;
  if (!row->held) {
    gp_rules_run (step.session);
    row->wall = gp_density_wall (step.session);
  }
  g_array_unref (fps);
  gp_step_clear (&step);
  return TRUE;
}

static gint
gp_density_row_cmp (gconstpointer a, gconstpointer b)
{
  return (gint) ((const GpDensityRow *) a)->n -
      (gint) ((const GpDensityRow *) b)->n;
}

/* The table by stream count, the answer, and the wall at the first
 * count that did not hold. */
static void
gp_density_print (GArray * rows, guint answer, guint max, gdouble floor)
{
  const GpDensityRow *first_out = NULL;
  guint i, j;

  printf ("  %7s %10s %10s %8s  %s\n", "streams", "fps min", "median",
      "CPU", "held");
  for (i = 0; i < rows->len; i++) {
    const GpDensityRow *r = &g_array_index (rows, GpDensityRow, i);

    if (!r->ran) {
      printf ("  %7u %s\n", r->n, r->why);
    } else
      printf ("  %7u %10.1f %10.1f %7.0f%%  %s%s\n", r->n, r->fps_min,
          r->fps_median, r->cpu_pct, r->held ? "yes" : "no",
          r->n == answer ? "  <- the most that hold" : "");
    if (!r->held && first_out == NULL)
      first_out = r;
  }
  if (answer == 0)
    printf ("\none stream does not hold %.1f fps\n", floor);
  else
    printf ("\n%u stream%s hold %.1f fps or more%s\n", answer,
        answer == 1 ? "" : "s", floor, first_out == NULL && answer == max ?
        " (the most asked for: --streams-max)" : "");
  if (first_out) {
    printf ("at %u streams, what hit the wall:\n", first_out->n);
    if (first_out->why)
      printf ("  %s\n", first_out->why);
    for (j = 0; first_out->wall && first_out->wall[j]; j++)
      printf ("  %s\n", first_out->wall[j]);
  }
}

/* fps against streams: the slowest and the median stream, the floor, the
 * answer marked */
static gboolean
gp_density_chart (GArray * rows, guint answer, gdouble floor,
    const gchar * out, GError ** error)
{
  gdouble *x = g_new (gdouble, rows->len), *lo = g_new (gdouble, rows->len);
  gdouble *mid = g_new (gdouble, rows->len), *fl = g_new (gdouble,
      rows->len);
  const gdouble *ys[3] = { lo, mid, fl };
  const gchar *labels[3] = { "slowest stream fps", "median stream fps",
    "floor"
  };
  gchar *mark = g_strdup_printf ("%u streams hold", answer);
  GpPlotXY xy = { 0 };
  gboolean ok;
  guint i;

  for (i = 0; i < rows->len; i++) {
    const GpDensityRow *r = &g_array_index (rows, GpDensityRow, i);

    x[i] = r->n;
    lo[i] = r->fps_min;
    mid[i] = r->fps_median;
    fl[i] = floor;
  }
  xy.title = "gstprof density";
  xy.panel_title = "Frames per second of each stream against the streams "
      "run";
  xy.x_label = "streams";
  xy.y_label = "frames per second";
  xy.n_series = 3;
  xy.n_points = rows->len;
  xy.labels = labels;
  xy.x = x;
  xy.ys = ys;
  xy.mark_x = answer > 0 ? answer : NAN;
  xy.mark_label = mark;
  ok = gp_plot_xy (&xy, out, error);
  g_free (mark);
  g_free (x);
  g_free (lo);
  g_free (mid);
  g_free (fl);
  return ok;
}

gint
gp_cmd_density (gint argc, gchar ** argv)
{
  gchar **args = NULL, *one = NULL, *duration_text = NULL, *out = NULL;
  gchar *floor_text = NULL, *launch;
  gint max = GP_DENSITY_STREAMS_MAX_DEFAULT;
  gdouble floor = NAN, duration = GP_DENSITY_DURATION_S;
  GOptionEntry entries[] = {
    {"pipeline", 'p', 0, G_OPTION_ARG_STRING, &one,
        "one stream, copied n times", "\"ONE STREAM\""},
    {"streams-max", 'n', 0, G_OPTION_ARG_INT, &max,
        "the most streams to try (default 16)", "N"},
    {"fps-floor", 'f', 0, G_OPTION_ARG_STRING, &floor_text,
        "the rate each stream must hold (default 95 % of its caps' rate)",
        "FPS"},
    {"duration", 'd', 0, G_OPTION_ARG_STRING, &duration_text,
        "how long each step runs (default 5s)", "S"},
    {"output", 'o', 0, G_OPTION_ARG_FILENAME, &out,
        "a chart of fps against streams, PNG or SVG", "FILE"},
    {G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &args, NULL,
        NULL},
    {NULL}
  };
  GOptionContext *ctx = g_option_context_new ("\"TEMPLATE with {n} or "
      "{each}\" | --pipeline \"ONE STREAM\"");
  GpCaptureOptions copts;
  GError *err = NULL;
  GArray *rows = g_array_new (FALSE, TRUE, sizeof (GpDensityRow));
  gint *held = NULL, code = GP_EXIT_USAGE;
  gboolean interrupted = FALSE;
  const gchar *template_;
  guint n, answer;

  g_option_context_set_summary (ctx, "How many streams this machine "
      "holds: the largest number that all keep\nthe floor.");
  g_option_context_set_description (ctx, gp_density_description);
  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &err)) {
    code = gp_cli_fail ("density", "%s", err->message);
    goto out;
  }
  if ((one == NULL) == (args == NULL || args[0] == NULL) ||
      (args && args[0] && args[1])) {
    code = gp_cli_fail ("density", "give one template with {n} or {each} "
        "(quoted), or one stream with --pipeline");
    goto out;
  }
  template_ = one ? one : args[0];
  if (one == NULL && !gp_density_is_template (template_)) {
    code = gp_cli_fail ("density", "the pipeline has no {n} or {each}: "
        "give one stream with --pipeline to copy it");
    goto out;
  }
  if (one && gp_density_is_template (template_)) {
    code = gp_cli_fail ("density", "--pipeline is one stream, copied: a "
        "template with {n} or {each} goes without it");
    goto out;
  }
  if (max < 1 || max > GP_DENSITY_STREAMS_MAX_LIMIT) {
    code = gp_cli_fail ("density", "--streams-max: %d is not 1 to %d", max,
        GP_DENSITY_STREAMS_MAX_LIMIT);
    goto out;
  }
  /* read as text: NAN means "not given", and "nan" must not mean that */
  if (!gp_cli_positive_option ("density", "fps-floor", floor_text, &floor,
          &code))
    goto out;
  if (floor_text && !(floor < 1e6)) {
    code = gp_cli_fail ("density", "--fps-floor: give a rate above 0");
    goto out;
  }
  /* a template's mistakes are said before anything runs */
  if ((launch = gp_density_launch (template_, 1, &err)) == NULL) {
    code = gp_cli_fail ("density", "%s", err->message);
    goto out;
  }
  g_free (launch);
  if (duration_text && (!gp_cli_parse_duration (duration_text, &duration,
              &err) || !(duration > 0))) {
    code = gp_cli_fail ("density", "--duration: %s", err ? err->message :
        "give a time above 0");
    goto out;
  }
  if (out && !gp_plot_check_path (out, &err)) {
    code = gp_cli_fail ("density", "-o: %s", err->message);
    goto out;
  }
  gp_capture_options_init (&copts);
  if (!gp_capture_prepare_env (&copts, &err) ||
      !gst_init_check (NULL, NULL, &err)) {
    code = gp_cli_fail ("density", "cannot load the gstprof tracer: %s "
        "(see gstprof check)", err->message);
    goto out;
  }

  held = g_new0 (gint, max + 1);
  while ((n = gp_step_density_next (held, (guint) max)) > 0) {
    GpDensityRow row = { 0 };

    if (!gp_density_step (template_, n, duration, &floor, rows->len == 0,
            &row, &code)) {
      g_free (row.why);
      goto out;
    }
    if (row.interrupted) {
      /* what was measured so far is said, with the search cut short */
      fprintf (stderr, "gstprof density: interrupted at %u streams\n", n);
      interrupted = TRUE;
      break;
    }
    held[n] = row.held ? 1 : -1;
    if (row.ran)
      fprintf (stderr, "gstprof density: %u stream%s: slowest %.1f fps, "
          "median %.1f (floor %.1f): %s\n", n, n == 1 ? "" : "s",
          row.fps_min, row.fps_median, floor, row.held ? "held" :
          "did not hold");
    else
      fprintf (stderr, "gstprof density: %u streams: failed: %s\n", n,
          row.why);
    g_array_append_val (rows, row);
  }
  if (rows->len == 0) {
    /* Ctrl-C in the first step: nothing was judged */
    printf ("interrupted before a step was judged: no answer\n");
    code = GP_DENSITY_EXIT_INTERRUPTED;
    goto out;
  }
  g_array_sort (rows, gp_density_row_cmp);
  answer = gp_step_density_answer (held, (guint) max);
  gp_density_print (rows, answer, (guint) max, floor);
  if (interrupted)
    printf ("interrupted: the search was cut short, so the answer is the "
        "most that held so far\n");
  code = interrupted ? GP_DENSITY_EXIT_INTERRUPTED : GP_EXIT_CLEAN;
  if (out) {
    if (!gp_density_chart (rows, answer, floor, out, &err))
      code = gp_cli_fail ("density", "-o: %s", err->message);
    else
      printf ("wrote %s\n", out);
  }

out:
  g_clear_error (&err);
  gp_density_rows_free (rows);
  g_free (held);
  g_strfreev (args);
  g_free (one);
  g_free (duration_text);
  g_free (floor_text);
  g_free (out);
  g_option_context_free (ctx);
  return code;
}
