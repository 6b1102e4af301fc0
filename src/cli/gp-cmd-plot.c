/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-cmd-plot.c: `gstprof plot INPUT -o curves.png|svg`: the curves over
 * time (src/plot) of a saved session (its machine section and its
 * windows) or of a telemetry log alone (a tegrastats log, nvidia-smi's
 * CSV or dmon output, src/telemetry). Which one INPUT is, is told by what
 * it is: a folder, a JSON, gzip or tracer-record file, a GStreamer tracer
 * log or a queue-levels CSV is a session; anything else is handed to the
 * telemetry reader, which names what it is not.
 */
#include "gp-cli.h"
#include "capture/gp-records.h"
#include "ingest/gp-ingest.h"
#include "plot/gp-plot.h"
#include "telemetry/gp-telemetry.h"

#include <stdio.h>
#include <string.h>

/* Bytes looked at to tell a session from a log. */
#define GP_CMD_PLOT_PEEK 64

static const gchar gp_cmd_plot_description[] =
    "INPUT is a saved session (what gstprof analyze reads: a session.json,\n"
    "the folder gstprof run --out wrote, the records the tracer wrote by\n"
    "itself, a log of GStreamer's tracers) or a telemetry log alone: a\n"
    "tegrastats log (tegrastats --logfile, or its output), nvidia-smi\n"
    "--query-gpu --format=csv output with its header, or nvidia-smi dmon\n"
    "output.\n"
    "\n"
    "The picture stacks one panel per kind of curve, on one time axis in\n"
    "seconds from the start:\n"
    "  utilisation  gpu.load, membw.load (EMC), cpu.load (all cores, or\n"
    "               their mean), engine.load; a grey line at 95 %\n"
    "               (saturated)\n"
    "  clocks       gpu.freq, mem.freq, cpu.freq (the mean of the cores),\n"
    "               each with its maximum dashed, to see them drop\n"
    "  temperature  every sensor, its trip point dashed\n"
    "  power        every rail or GPU, its cap dashed\n"
    "  elements     (a session) the mean self time per buffer in each\n"
    "               window of the 6 elements with the most self time\n"
    "  links        (a session) buffers/s per link; links at the same\n"
    "               steady rate are one line\n"
    "A panel without data is left out, and the picture's last lines say\n"
    "which and why. PNG or SVG, by OUTPUT's extension; written whole or\n"
    "not at all.\n"
    "\n"
    "Exit codes:\n"
    "  0  the picture written\n"
    "  3  no INPUT or OUTPUT, an OUTPUT that is neither .png nor .svg, an\n"
    "     INPUT that cannot be read, or nothing in it to plot (the reason,\n"
    "     one line naming the file)\n";

/* Whether @path is surely a session: a folder, the tracer's records, a
 * queue-levels CSV, gzip (a tracer log) or a JSON document. A plain text
 * may be a tegrastats or nvidia-smi log, or a log of GStreamer's tracers:
 * gp_cmd_plot_load () asks the telemetry reader first. */
static gboolean
gp_cmd_plot_is_session (const gchar * path)
{
  gchar buf[GP_CMD_PLOT_PEEK];
  gsize n, i = 0;
  FILE *fp;

  if (g_file_test (path, G_FILE_TEST_IS_DIR) || gp_records_present (path)
      || gp_ingest_queuelevels_sniff (path))
    return TRUE;
  fp = fopen (path, "rb");
  if (fp == NULL)
    return FALSE;
  n = fread (buf, 1, sizeof buf, fp);
  fclose (fp);
  if (n >= 2 && (guchar) buf[0] == 0x1f && (guchar) buf[1] == 0x8b)
    return TRUE;
  while (i < n && g_ascii_isspace (buf[i]))
    i++;
  return i < n && buf[i] == '{';
}

/* @path as a session (in @s) or a telemetry log (in @m). A text neither
 * reader takes is the telemetry reader's error: it names the line. */
static gboolean
gp_cmd_plot_load (const gchar * path, gdouble interval_s, GpSession ** s,
    GpMachine ** m, GError ** error)
{
  GError *tracer_err = NULL;

  if (gp_cmd_plot_is_session (path)) {
    *s = gp_ingest_load_any (path, error);
    return *s != NULL;
  }
  *m = gp_telemetry_load_file (path, interval_s, error);
  if (*m != NULL)
    return TRUE;
  /* not read at all (missing, unreadable): no other reader either */
  if (g_error_matches (*error, GP_TELEMETRY_ERROR, GP_TELEMETRY_ERROR_IO))
    return FALSE;
  *s = gp_ingest_load_any (path, &tracer_err);
  if (*s != NULL) {
    g_clear_error (error);
    return TRUE;
  }
  g_clear_error (&tracer_err);
  return FALSE;
}

gint
gp_cmd_plot (gint argc, gchar ** argv)
{
  gchar **files = NULL, *out = NULL, *interval_arg = NULL;
  GOptionEntry entries[] = {
    {"output", 'o', 0, G_OPTION_ARG_FILENAME, &out,
        "the picture to write: a .png or .svg file", "FILE"},
    {"interval", 0, 0, G_OPTION_ARG_STRING, &interval_arg,
          "a log's sample interval where its lines have no time of their "
          "own (tegrastats before JetPack 5, dmon without -o T; default 1s)",
        "DURATION"},
    {G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL,
        NULL},
    {NULL}
  };
  GOptionContext *ctx;
  GError *err = NULL;
  GpSession *s = NULL;
  GpMachine *m = NULL;
  gdouble interval_s = 1;
  gint code = GP_EXIT_CLEAN;

  ctx = g_option_context_new ("INPUT -o OUTPUT");
  g_option_context_set_summary (ctx, "Draws the curves of a saved session "
      "or a telemetry log over time:\nutilisation, clocks, temperature, "
      "power, and a session's element self time\nand link rates.");
  g_option_context_set_description (ctx, gp_cmd_plot_description);
  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &err)) {
    code = gp_cli_fail ("plot", "%s", err->message);
    goto out;
  }
  if (files == NULL || files[0] == NULL) {
    code = gp_cli_fail ("plot", "no input given (gstprof plot "
        "DIR/session.json -o curves.png)");
    goto out;
  }
  if (files[1] != NULL) {
    code = gp_cli_fail ("plot", "one input at a time ('%s' is extra)",
        files[1]);
    goto out;
  }
  if (out == NULL || *out == '\0') {
    code = gp_cli_fail ("plot", "no output given (-o curves.png or -o "
        "curves.svg)");
    goto out;
  }
  if (!gp_plot_check_path (out, &err)) {
    code = gp_cli_fail ("plot", "-o %s", err->message);
    goto out;
  }
  if (interval_arg && (!gp_cli_parse_duration (interval_arg, &interval_s,
              &err) || interval_s <= 0)) {
    code = gp_cli_fail ("plot", "--interval '%s': %s", interval_arg,
        err ? err->message : "must be more than 0");
    goto out;
  }
  if (!g_file_test (files[0], G_FILE_TEST_EXISTS)) {
    code = gp_cli_fail ("plot", "%s: no such file or folder", files[0]);
    goto out;
  }

  if (!gp_cmd_plot_load (files[0], interval_s, &s, &m, &err)) {
    code = gp_cli_fail ("plot", "%s", err ? err->message : files[0]);
    goto out;
  }
  if (!gp_plot_machine (m, s, out, &err)) {
    /* nothing to plot is the input's fault, a write the output's (its
     * error names it) */
    if (g_error_matches (err, GP_PLOT_ERROR, GP_PLOT_ERROR_EMPTY))
      code = gp_cli_fail ("plot", "%s: %s", files[0], err->message);
    else
      code = gp_cli_fail ("plot", "%s", err->message);
    goto out;
  }
  if (gp_telemetry_read_detail (m) != NULL)
    printf ("wrote %s (%s: %s)\n", out, files[0],
        gp_telemetry_read_detail (m));
  else
    printf ("wrote %s\n", out);

out:
  gp_machine_free (m);
  if (s)
    gp_session_free (s);
  g_clear_error (&err);
  g_strfreev (files);
  g_free (out);
  g_free (interval_arg);
  g_option_context_free (ctx);
  return code;
}
