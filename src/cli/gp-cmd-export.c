/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-cmd-export.c: `gstprof export SESSION --perfetto OUT.json`: a saved
 * session (and the pushes `run --trace` kept beside it) as trace-event
 * JSON for ui.perfetto.dev and chrome://tracing (src/export).
 */
#include "gp-cli.h"
#include "core/gp-session.h"
#include "core/gp-trace.h"
#include "export/gp-export-perfetto.h"
#include "ingest/gp-ingest.h"

#include <string.h>

static const gchar gp_export_description[] =
    "SESSION is a session.json or the folder gstprof run --out wrote.\n"
    "\n"
    "--perfetto writes the Chrome trace event format (JSON), which\n"
    "ui.perfetto.dev and chrome://tracing open: one track per streaming\n"
    "thread with per-window slices of each element's self time (aggregates,\n"
    "laid out back to back, not when buffers ran), counters for fps per link\n"
    "and sink, queue levels, latency and CPU; and, when the run kept its\n"
    "pushes (gstprof run --trace), every push as a slice on its thread,\n"
    "nested as the pushes were.\n"
    "\n"
    "Exit codes: 0 written; 3 bad usage, a session or trace file that\n"
    "cannot be read, or an output that cannot be written (one line).\n";

/* The session's folder: where its trace file lies. */
static gchar *
gp_export_session_dir (const gchar * arg)
{
  if (g_file_test (arg, G_FILE_TEST_IS_DIR))
    return g_strdup (arg);
  return g_path_get_dirname (arg);
}

gint
gp_cmd_export (gint argc, gchar ** argv)
{
  gchar *opt_perfetto = NULL, **rest = NULL, *dir = NULL, *tpath = NULL;
  GOptionEntry entries[] = {
    {"perfetto", 0, 0, G_OPTION_ARG_FILENAME, &opt_perfetto,
        "Trace-event JSON for Perfetto and chrome://tracing", "OUT.json"},
    {G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &rest, NULL,
        NULL},
    {NULL}
  };
  GOptionContext *ctx;
  GError *err = NULL;
  GpSession *s = NULL;
  GpTrace *trace = NULL;
  gint code = GP_EXIT_USAGE;

  g_set_prgname ("gstprof export");
  ctx = g_option_context_new ("SESSION --perfetto OUT.json");
  g_option_context_set_summary (ctx, "Writes a saved session for other "
      "tools' viewers.");
  g_option_context_set_description (ctx, gp_export_description);
  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &err)) {
    gp_cli_fail ("export", "%s", err->message);
    goto out;
  }
  if (rest == NULL || rest[0] == NULL || rest[1] != NULL) {
    gp_cli_fail ("export", "%s (gstprof export SESSION --perfetto "
        "OUT.json)", rest && rest[0] ? "one session only" : "no session given");
    goto out;
  }
  if (opt_perfetto == NULL || *opt_perfetto == '\0') {
    gp_cli_fail ("export", "nothing to write: give --perfetto OUT.json");
    goto out;
  }
  s = gp_ingest_load_any (rest[0], &err);
  if (s == NULL) {
    gp_cli_fail ("export", "%s", err->message);
    goto out;
  }
  if (s->trace_file != NULL) {
    dir = gp_export_session_dir (rest[0]);
    tpath = g_build_filename (dir, s->trace_file, NULL);
    trace = gp_trace_load (tpath, &err);
    if (trace == NULL) {
      gp_cli_fail ("export", "%s (the trace the session names in "
          "session.trace.file)", err->message);
      goto out;
    }
  }
  if (!gp_export_perfetto (s, trace, opt_perfetto, &err)) {
    gp_cli_fail ("export", "--perfetto: cannot write %s", err->message);
    goto out;
  }
  g_printerr ("perfetto: %s (open in ui.perfetto.dev or chrome://tracing)\n",
      opt_perfetto);
  code = GP_EXIT_CLEAN;

out:
  gp_trace_free (trace);
  if (s)
    gp_session_free (s);
  g_clear_error (&err);
  g_free (opt_perfetto);
  g_strfreev (rest);
  g_free (dir);
  g_free (tpath);
  g_option_context_free (ctx);
  return code;
}
