/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-cmd-compare.c: `gstprof compare A B`: two saved sessions
 * side by side (src/report/gp-compare), the table `gstprof fix --apply`
 * prints. The rules run again on both, as analyze does.
 */
#include "gp-cli.h"
#include "core/gp-session.h"
#include "ingest/gp-ingest.h"
#include "report/gp-compare.h"
#include "rules/gp-rules.h"

#include <stdio.h>

gint
gp_cmd_compare (gint argc, gchar ** argv)
{
  gboolean opt_stored = FALSE;
  gchar **files = NULL;
  GOptionEntry entries[] = {
    {"stored", 0, 0, G_OPTION_ARG_NONE, &opt_stored,
        "Use the findings saved in the files, not the rules run again",
        NULL},
    {G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL,
        NULL},
    {NULL}
  };
  GOptionContext *ctx;
  GError *err = NULL;
  GpSession *a = NULL, *b = NULL;
  gchar *text;
  gint code;

  ctx = g_option_context_new ("A B");
  g_option_context_set_summary (ctx, "Two saved sessions side by side: the "
      "rate per sink in its own media\n(fps, x real time for audio, kbit/s "
      "for muxed and RTP outputs), latency\np50/p95 per path, process and "
      "thread CPU, findings cleared, remaining and\nnew (B against A).");
  g_option_context_set_description (ctx, "Sinks, paths and threads are "
      "matched by name; one without a partner is\nsaid. Changes show their "
      "sign and percent; a change within the per-window\nspread of either "
      "run is marked noise (\"noise?\" when a run has under three\n"
      "windows). A and B are what analyze takes: a session.json, the folder\n"
      "run wrote, the folder GST_TRACERS=\"gstprof(out=DIR)\" wrote, a "
      "gst-profile\nsession (gst-profile/1).\n"
      "\n"
      "Exit codes:\n"
      "  0  the table was printed\n"
      "  3  bad usage, or a file missing or not a session (the reason, one "
      "line)\n");
  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &err)) {
    code = gp_cli_fail ("compare", "%s", err->message);
    goto out;
  }
  if (files == NULL || files[0] == NULL || files[1] == NULL) {
    code = gp_cli_fail ("compare", "two session files are needed (gstprof "
        "compare A/session.json B/session.json)");
    goto out;
  }
  if (files[2] != NULL) {
    code = gp_cli_fail ("compare", "two session files only ('%s' is extra)",
        files[2]);
    goto out;
  }
  a = gp_ingest_load_any (files[0], &err);
  if (a == NULL) {
    code = gp_cli_fail ("compare", "%s", err ? err->message : files[0]);
    goto out;
  }
  b = gp_ingest_load_any (files[1], &err);
  if (b == NULL) {
    code = gp_cli_fail ("compare", "%s", err ? err->message : files[1]);
    goto out;
  }
  if (opt_stored) {
    gp_rules_rank (a);
    gp_rules_rank (b);
  } else {
    gp_rules_run (a);
    gp_rules_run (b);
  }
  printf ("A = %s\nB = %s\n\n", files[0], files[1]);
  text = gp_compare_format (a, b, "A", "B");
  fputs (text, stdout);
  fflush (stdout);
  g_free (text);
  code = GP_EXIT_CLEAN;

out:
  if (a)
    gp_session_free (a);
  if (b)
    gp_session_free (b);
  g_clear_error (&err);
  g_strfreev (files);
  g_option_context_free (ctx);
  return code;
}
