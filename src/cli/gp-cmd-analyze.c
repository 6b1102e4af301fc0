/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-cmd-analyze.c: `gstprof analyze FILE`: the verdict from a saved
 * session, gstprof's own (gstprof/1) or another tool's (gst-profile/1,
 * GStreamer's tracer logs, the queue-levels tracer's CSV, through
 * src/ingest; a tegrastats log or nvidia-smi output, the machine alone);
 * `gstprof analyze LOG CSV`: a tracer log and the
 * queue-levels CSV of the same run as one session. The findings stored in
 * the file are ignored; the rules run again on its measurements. For an
 * import, what the other tool did not measure is said under the verdict's
 * header, so its numbers are not read as ours.
 */
#include "gp-cli.h"
#include "core/gp-session.h"
#include "ingest/gp-ingest.h"
#include "rules/gp-rules.h"
#include "report/gp-verdict.h"

#include <stdio.h>
#include <string.h>

gint
gp_cmd_analyze (gint argc, gchar ** argv)
{
  gchar **files = NULL;
  GOptionEntry entries[] = {
    {G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL,
        NULL},
    {NULL}
  };
  GOptionContext *ctx;
  GError *err = NULL;
  GpSession *s;
  gchar *verdict, *note;
  gint code;

  ctx = g_option_context_new ("FILE [QUEUE-LEVELS-CSV]");
  g_option_context_set_summary (ctx, "Prints the verdict of a saved session: "
      "a gstprof session.json (schema\ngstprof/1) or a gst-profile session "
      "(gst-profile/1). The rules run again on the\nmeasurements; findings "
      "stored in the file are not trusted. A log of GStreamer's\nown tracers "
      "(GST_DEBUG=GST_TRACER:7 with latency, stats, rusage, leaks; plain or\n"
      "gzip) gives the verdict its records allow, saying what they lack; so\n"
      "does the CSV of gst-plugins-rs' queue-levels tracer, alone or as a "
      "second\nfile beside a tracer log of the same run. A tegrastats log or "
      "nvidia-smi output\n(--query-gpu CSV with its header, dmon) alone "
      "gives the machine's verdict: what\nwas sampled, and which wall the "
      "work hit (HW, MEMBW, THERMAL, CPUIO).");
  g_option_context_set_description (ctx, "Exit codes:\n"
      "  0  clean, or only info findings\n"
      "  1  a high or medium finding\n"
      "  3  the file is missing or not a session gstprof reads (the reason, "
      "one line)\n"
      "A session whose pipeline failed still analyzes; its error is in the "
      "verdict.\n");
  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &err)) {
    code = gp_cli_fail ("analyze", "%s", err->message);
    goto out;
  }
  if (files == NULL || files[0] == NULL) {
    code = gp_cli_fail ("analyze", "no session file given (gstprof analyze "
        "DIR/session.json)");
    goto out;
  }
  if (files[1] != NULL && files[2] != NULL) {
    code = gp_cli_fail ("analyze", "one session file at a time, or a tracer "
        "log and a queue-levels CSV ('%s' is extra)", files[2]);
    goto out;
  }

  /* a tracer log and the queue-levels CSV of the same run, merged */
  if (files[1] != NULL)
    s = gp_ingest_load_pair (files[0], files[1], &err);
  else
    s = gp_ingest_load_any (files[0], &err);
  if (s == NULL) {
    code = gp_cli_fail ("analyze", "%s", err ? err->message : files[0]);
    goto out;
  }
  gp_rules_run (s);
  note = gp_ingest_import_note (s, GP_VERDICT_WIDTH);
  verdict = gp_verdict_format (s, note, gp_verdict_want_color (1) ?
      GP_VERDICT_COLOR : GP_VERDICT_PLAIN);
  fputs (verdict, stdout);
  g_free (note);
  fflush (stdout);
  g_free (verdict);
  code = gp_rules_exit_code (s);
  gp_session_free (s);

out:
  g_clear_error (&err);
  g_strfreev (files);
  g_option_context_free (ctx);
  return code;
}
