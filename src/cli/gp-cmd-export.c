/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-cmd-export.c: `gstprof export SESSION --dot FILE --svg FILE --csv
 * DIR --perfetto FILE`: a saved session in the formats other tools open
 * (src/export). One
 * table lists the outputs: its option, what it takes, its help and the
 * export that writes it; each given output is written, in the table's
 * order, atomically.
 */
#include "gp-cli.h"
#include "ingest/gp-ingest.h"
#include "core/gp-trace.h"
#include "export/gp-export.h"

#include <stdio.h>
#include <string.h>

/* @session is the argument the session was loaded from, for files that
 * lie beside it (run --trace's trace.bin). */
typedef gboolean (*GpCmdExportWrite) (GpSession * s, const gchar * session,
    const gchar * path, GError ** error);

typedef struct
{
  const gchar *option;          /* --option */
  const gchar *arg;             /* FILE or DIR, in --help */
  const gchar *help;
  GpCmdExportWrite write;
} GpCmdExportTarget;

static gboolean
gp_cmd_export_dot (GpSession * s, const gchar * session, const gchar * path,
    GError ** error)
{
  return gp_export_graph (s, GP_EXPORT_GRAPH_DOT, path, error);
}

static gboolean
gp_cmd_export_svg (GpSession * s, const gchar * session, const gchar * path,
    GError ** error)
{
  return gp_export_graph (s, GP_EXPORT_GRAPH_SVG, path, error);
}

static gboolean
gp_cmd_export_csv (GpSession * s, const gchar * session, const gchar * path,
    GError ** error)
{
  return gp_export_csv (s, path, error);
}

/* The timeline, with the pushes the run kept when the session names its
 * trace file (in the session's folder). */
static gboolean
gp_cmd_export_perfetto (GpSession * s, const gchar * session,
    const gchar * path, GError ** error)
{
  GpTrace *trace = NULL;
  gboolean ok;

  if (s->trace_file != NULL) {
    gchar *dir = g_file_test (session, G_FILE_TEST_IS_DIR) ?
        g_strdup (session) : g_path_get_dirname (session);
    gchar *tpath = g_build_filename (dir, s->trace_file, NULL);

    trace = gp_trace_load (tpath, error);
    g_free (tpath);
    g_free (dir);
    if (trace == NULL) {
      g_prefix_error (error, "the trace the session names in "
          "session.trace.file: ");
      return FALSE;
    }
  }
  ok = gp_export_perfetto (s, trace, path, error);
  gp_trace_free (trace);
  return ok;
}

static const GpCmdExportTarget gp_cmd_export_targets[] = {
  {"dot", "FILE", "the pipeline graph as graphviz dot text, laid out",
      gp_cmd_export_dot},
  {"svg", "FILE", "the pipeline graph drawn as SVG", gp_cmd_export_svg},
  {"csv", "DIR", "the series and the element summary as CSV files in DIR",
      gp_cmd_export_csv},
  {"perfetto", "FILE", "the timeline as trace-event JSON for ui.perfetto.dev "
        "and chrome://tracing", gp_cmd_export_perfetto},
};

#define GP_CMD_EXPORT_N G_N_ELEMENTS (gp_cmd_export_targets)

static const gchar gp_cmd_export_description[] =
    "SESSION is what gstprof analyze reads: a session.json, the folder\n"
    "gstprof run --out wrote, or the records the tracer wrote by itself\n"
    "(GST_TRACERS=\"gstprof(out=DIR)\"). At least one output is needed.\n"
    "\n"
    "The graph (--dot, --svg): every bin a cluster, every element a box\n"
    "filled by its share of the self time (white none, the deepest red the\n"
    "largest; queues grey, as their time is waiting), every link labelled\n"
    "with its steady-state rate and the stream in a few words (the whole\n"
    "caps in its tooltip). Laid out by graphviz's library, top to bottom\n"
    "when a row would not fit a page; branches alike, from 3 on, drawn once\n"
    "with a count.\n"
    "\n"
    "The CSV files (--csv): elements.csv, links.csv, queues.csv,\n"
    "threads.csv, paths.csv and process.csv hold a row per window and\n"
    "entity: t0_s and t1_s (the window, seconds since the start), the\n"
    "entity's name (process.csv has none), then the session's fields for\n"
    "it, their units in their names (self_ms_p50, bytes_per_s, cpu_pct;\n"
    "counts bare); an empty cell is no sample. summary-elements.csv holds a\n"
    "row per element for the whole run. DIR is made when missing; other\n"
    "files in it are left alone. RFC 4180 quoting, CRLF line ends.\n"
    "\n"
    "The timeline (--perfetto): the Chrome trace event format (JSON), which\n"
    "ui.perfetto.dev and chrome://tracing open: one track per streaming\n"
    "thread with per-window slices of each element's self time (aggregates,\n"
    "laid out back to back, not when buffers ran), counters for fps per link\n"
    "and sink, queue levels, latency and CPU; and, when the run kept its\n"
    "pushes (gstprof run --trace), every push as a slice on its thread,\n"
    "nested as the pushes were.\n"
    "\n"
    "Each file is written whole or not at all (a temporary file renamed\n"
    "over it). Outputs are written in the order above; when one fails, the\n"
    "ones before it stay written.\n"
    "\n"
    "Exit codes:\n"
    "  0  every output written\n"
    "  3  no output asked, SESSION missing or not a session, or an output\n"
    "     that cannot be written (the reason, one line naming it)\n";

gint
gp_cmd_export (gint argc, gchar ** argv)
{
  gchar *paths[GP_CMD_EXPORT_N] = { NULL };
  gchar **files = NULL;
  GOptionEntry entries[GP_CMD_EXPORT_N + 2];
  GOptionContext *ctx;
  GError *err = NULL;
  GpSession *s = NULL;
  guint i, n_asked = 0;
  gint code = GP_EXIT_CLEAN;

  memset (entries, 0, sizeof entries);
  for (i = 0; i < GP_CMD_EXPORT_N; i++) {
    entries[i].long_name = gp_cmd_export_targets[i].option;
    entries[i].arg = G_OPTION_ARG_FILENAME;
    entries[i].arg_data = &paths[i];
    entries[i].description = gp_cmd_export_targets[i].help;
    entries[i].arg_description = gp_cmd_export_targets[i].arg;
  }
  entries[i].long_name = G_OPTION_REMAINING;
  entries[i].arg = G_OPTION_ARG_FILENAME_ARRAY;
  entries[i].arg_data = &files;

  ctx = g_option_context_new ("SESSION");
  g_option_context_set_summary (ctx, "Writes a saved session in the formats "
      "other tools open: the pipeline graph\nfor graphviz (dot, SVG), "
      "the measurements as CSV for spreadsheets and pandas,\nthe timeline "
      "for Perfetto and chrome://tracing.");
  g_option_context_set_description (ctx, gp_cmd_export_description);
  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &err)) {
    code = gp_cli_fail ("export", "%s", err->message);
    goto out;
  }
  if (files == NULL || files[0] == NULL) {
    code = gp_cli_fail ("export", "no session given (gstprof export "
        "DIR/session.json --svg graph.svg)");
    goto out;
  }
  if (files[1] != NULL) {
    code = gp_cli_fail ("export", "one session at a time ('%s' is extra)",
        files[1]);
    goto out;
  }
  for (i = 0; i < GP_CMD_EXPORT_N; i++) {
    if (paths[i] && *paths[i] == '\0') {
      code = gp_cli_fail ("export", "--%s needs a %s name",
          gp_cmd_export_targets[i].option, gp_cmd_export_targets[i].arg);
      goto out;
    }
    n_asked += paths[i] != NULL;
  }
  if (n_asked == 0) {
    code = gp_cli_fail ("export", "no output asked (--dot FILE, --svg FILE, "
        "--csv DIR or --perfetto FILE; see gstprof export --help)");
    goto out;
  }

  s = gp_ingest_load_any (files[0], &err);
  if (s == NULL) {
    code = gp_cli_fail ("export", "%s", err ? err->message : files[0]);
    goto out;
  }
  for (i = 0; i < GP_CMD_EXPORT_N; i++) {
    if (paths[i] == NULL)
      continue;
    if (!gp_cmd_export_targets[i].write (s, files[0], paths[i], &err)) {
      code = gp_cli_fail ("export", "%s", err->message);
      goto out;
    }
    printf ("wrote %s\n", paths[i]);
  }

out:
  if (s)
    gp_session_free (s);
  for (i = 0; i < GP_CMD_EXPORT_N; i++)
    g_free (paths[i]);
  g_clear_error (&err);
  g_strfreev (files);
  g_option_context_free (ctx);
  return code;
}
