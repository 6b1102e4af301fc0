/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-cmd-ds-sweep.c: `gstprof ds sweep "LAUNCH with {batch}" --batches
 * 1,2,4 [--streams N] [--duration S]`: the batch sweep and its plateau
 * (src/deepstream/gp-ds-sweep).
 */
#include "gp-cli.h"

#include <math.h>
#include <stdio.h>

#include "capture/gp-capture.h"
#include "deepstream/gp-ds-sweep.h"
#include "plot/gp-plot.h"

/* Long enough for a steady window after the start-up second the session
 * leaves out (docs/session-schema.md); short enough for six batches. */
#define GP_CMD_DS_SWEEP_DURATION_S 5.0

static void
gp_cmd_ds_sweep_progress (const GpDsSweepRow * row, gpointer user_data)
{
  if (row->state == GP_DS_SWEEP_RAN)
    fprintf (stderr, "gstprof ds sweep: batch %u: %.1f fps\n", row->batch,
        row->aggregate_fps);
  else
    fprintf (stderr, "gstprof ds sweep: batch %u: %s\n", row->batch,
        row->state == GP_DS_SWEEP_FAILED ? "failed" : "skipped");
}

/* The sweep's chart: aggregate and per-stream fps against the batch
 * (log x), the plateau marked; the batches not measured left as gaps. */
static gboolean
gp_cmd_ds_sweep_chart (const GArray * rows, guint streams, const gchar * out,
    GError ** error)
{
  const GpDsSweepRow *r = (const GpDsSweepRow *) rows->data;
  gdouble *x = g_new (gdouble, rows->len), *agg = g_new (gdouble, rows->len);
  gdouble *per = g_new (gdouble, rows->len);
  const gdouble *ys[2] = { agg, per };
  const gchar *labels[2] = { "aggregate fps", "per-stream fps" };
  gint at = gp_ds_sweep_plateau (r, rows->len, GP_DS_SWEEP_GAIN);
  guint plateau = at >= 0 ? r[at].batch : 0;
  gchar *mark = plateau > 0 ? g_strdup_printf ("plateau: batch %u",
      plateau) : NULL;
  GpPlotXY xy = { 0 };
  gboolean ok;
  guint i;

  for (i = 0; i < rows->len; i++) {
    x[i] = r[i].batch;
    agg[i] = r[i].state == GP_DS_SWEEP_RAN ? r[i].aggregate_fps : NAN;
    per[i] = r[i].state == GP_DS_SWEEP_RAN ? r[i].per_stream_fps : NAN;
  }
  xy.title = "gstprof ds sweep";
  xy.panel_title = "Throughput by batch size (the plateau: the smallest B "
      "whose 2B gains under 5 %)";
  xy.x_label = "batch size";
  xy.y_label = "frames per second";
  xy.log_x = TRUE;
  xy.n_series = streams > 0 ? 2 : 1;
  xy.n_points = rows->len;
  xy.labels = labels;
  xy.x = x;
  xy.ys = ys;
  xy.mark_x = plateau > 0 ? plateau : NAN;
  xy.mark_label = mark;
  ok = gp_plot_xy (&xy, out, error);
  g_free (mark);
  g_free (x);
  g_free (agg);
  g_free (per);
  return ok;
}

gint
gp_cmd_ds_sweep (gint argc, gchar ** argv)
{
  gchar **args = NULL, *batches_text = NULL, *duration_text = NULL,
      *out = NULL;
  gint streams = 0;
  GOptionEntry entries[] = {
    {"batches", 'b', 0, G_OPTION_ARG_STRING, &batches_text,
        "the batch sizes (default 1,2,4,8,16,32)", "LIST"},
    {"streams", 'n', 0, G_OPTION_ARG_INT, &streams,
        "the streams: {streams}, the cap on the batch, per-stream fps",
        "N"},
    {"duration", 'd', 0, G_OPTION_ARG_STRING, &duration_text,
        "how long each batch runs (default 5s)", "S"},
    {"output", 'o', 0, G_OPTION_ARG_FILENAME, &out,
        "a chart of the sweep, PNG or SVG", "FILE"},
    {G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &args, NULL,
        NULL},
    {NULL}
  };
  GOptionContext *ctx;
  GError *err = NULL;
  GArray *batches = NULL, *rows = NULL;
  GpCaptureOptions copts;
  gdouble duration = GP_CMD_DS_SWEEP_DURATION_S;
  gint code = GP_EXIT_CLEAN;
  gchar *probe, *table;

  ctx = g_option_context_new ("\"LAUNCH with {batch}\"");
  g_option_context_set_summary (ctx, "Runs the pipeline once per batch "
      "size under the gstprof tracer and finds\nthe plateau: the smallest "
      "batch B whose next one (2B) gains under 5 % in\naggregate fps (the "
      "sinks' steady buffers/s x B). {batch} and {streams}\nare replaced "
      "in the launch string.");
  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &err)) {
    code = gp_cli_fail ("ds sweep", "%s", err->message);
    goto out;
  }
  if (args == NULL || args[0] == NULL || args[1] != NULL) {
    code = gp_cli_fail ("ds sweep", "give one launch string with {batch} "
        "(quoted)");
    goto out;
  }
  if (streams < 0) {
    code = gp_cli_fail ("ds sweep", "--streams: %d is not 1 or more",
        streams);
    goto out;
  }
  if (duration_text && !gp_cli_parse_duration (duration_text, &duration,
          &err)) {
    code = gp_cli_fail ("ds sweep", "--duration: %s", err->message);
    goto out;
  }
  if (!(duration > 0)) {
    code = gp_cli_fail ("ds sweep", "--duration: give a time above 0");
    goto out;
  }
  batches = gp_ds_sweep_parse_batches (batches_text ? batches_text :
      "1,2,4,8,16,32", &err);
  if (batches == NULL) {
    code = gp_cli_fail ("ds sweep", "%s", err->message);
    goto out;
  }
  probe = gp_ds_sweep_substitute (args[0], 1, 1, &err);
  if (probe == NULL) {
    code = gp_cli_fail ("ds sweep", "%s", err->message);
    goto out;
  }
  g_free (probe);
  if (out && !gp_plot_check_path (out, &err)) {
    code = gp_cli_fail ("ds sweep", "-o: %s", err->message);
    goto out;
  }

  gp_capture_options_init (&copts);
  if (!gp_capture_prepare_env (&copts, &err)) {
    code = gp_cli_fail ("ds sweep", "cannot load the gstprof tracer: %s "
        "(see gstprof check)", err->message);
    goto out;
  }
  if (!gst_init_check (NULL, NULL, &err)) {
    code = gp_cli_fail ("ds sweep", "cannot initialise GStreamer: %s",
        err->message);
    goto out;
  }
  rows = gp_ds_sweep_run (args[0], batches, (guint) streams, duration,
      gp_cmd_ds_sweep_progress, NULL, &err);
  if (rows == NULL) {
    code = gp_cli_fail ("ds sweep", "%s", err->message);
    goto out;
  }
  table = gp_ds_sweep_table ((GpDsSweepRow *) rows->data, rows->len,
      (guint) streams);
  fputs (table, stdout);
  g_free (table);
  if (out && !gp_cmd_ds_sweep_chart (rows, (guint) streams, out, &err)) {
    code = gp_cli_fail ("ds sweep", "-o: %s", err->message);
    goto out;
  }
  if (out)
    printf ("wrote %s\n", out);

out:
  g_clear_error (&err);
  if (batches)
    g_array_unref (batches);
  gp_ds_sweep_rows_free (rows);
  g_strfreev (args);
  g_free (batches_text);
  g_free (duration_text);
  g_free (out);
  g_option_context_free (ctx);
  return code;
}
