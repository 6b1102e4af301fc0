/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-cmd-serve.c: `gstprof serve INPUT`: a saved session (or a tegrastats
 * log or nvidia-smi output alone: the machine views) replayed in the live
 * panel, and its /metrics, until Ctrl-C.
 */
#include "gp-cli.h"
#include "ingest/gp-ingest.h"
#include "rules/gp-rules.h"

static const gchar gp_cmd_serve_description[] =
    "INPUT is what gstprof analyze reads: a session.json, the folder gstprof\n"
    "run --out wrote, the records the tracer wrote by itself, a log of\n"
    "GStreamer's tracers; or a tegrastats log or nvidia-smi output alone\n"
    "(the machine views only).\n"
    "\n"
    "The panel replays it with a time scrubber: the graph filled by each\n"
    "element's share of the window under the cursor, the timeline, the\n"
    "machine, the findings, and an inspector per element. /metrics answers\n"
    "as for a live run (docs/metrics.md). It listens on 127.0.0.1 unless\n"
    "--host says otherwise, and serves until Ctrl-C or SIGTERM.\n"
    "Credentials and paths are masked as in gstprof report unless\n"
    "--no-redact.\n"
    "\n"
    "Exit codes:\n"
    "  0  served, then stopped by Ctrl-C or SIGTERM\n"
    "  3  no INPUT, an INPUT that cannot be read, a port that cannot be\n"
    "     listened on, or a gstprof built without the server (libsoup 3)\n";

gint
gp_cmd_serve (gint argc, gchar ** argv)
{
  gchar **files = NULL;
  GOptionEntry entries[] = {
    {G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL,
        NULL},
    {NULL}
  };
  GpCliServe sv = { 0 };
  GOptionContext *ctx = g_option_context_new ("INPUT");
  GpSession *s = NULL;
  GError *err = NULL;
  gint code = GP_EXIT_CLEAN;

  g_option_context_set_summary (ctx, "Replays a saved session in the live "
      "panel, e.g.\n  gstprof serve gstprof-session-20261202-101500");
  g_option_context_set_description (ctx, gp_cmd_serve_description);
  g_option_context_add_main_entries (ctx, entries, NULL);
  gp_cli_serve_entries (ctx, &sv, FALSE);
  if (!g_option_context_parse (ctx, &argc, &argv, &err)) {
    code = gp_cli_fail ("serve", "%s", err->message);
    goto out;
  }
  if (files == NULL || files[0] == NULL) {
    code = gp_cli_fail ("serve", "no input given (gstprof serve "
        "session.json; see gstprof serve --help)");
    goto out;
  }
  if (files[1] != NULL) {
    code = gp_cli_fail ("serve", "one input at a time ('%s' is extra)",
        files[1]);
    goto out;
  }
  if (!gp_serve_available ()) {
    code = gp_cli_fail ("serve", "this gstprof was built without libsoup 3, "
        "so it has no server; gstprof report %s -o report.html writes the "
        "same views to a file", files[0]);
    goto out;
  }
  s = gp_ingest_load_any (files[0], &err);
  if (s == NULL) {
    code = gp_cli_fail ("serve", "%s", err ? err->message : files[0]);
    goto out;
  }
  gp_rules_run (s);
  sv.serve = TRUE;
  if (!gp_cli_serve_start ("serve", &sv, NULL, NULL, &code))
    goto out;
  gp_server_end (sv.srv, s);
  gp_cli_serve_hold ("serve", &sv, TRUE);

out:
  gp_cli_serve_clear (&sv);
  if (s)
    gp_session_free (s);
  g_clear_error (&err);
  g_strfreev (files);
  g_option_context_free (ctx);
  return code;
}
