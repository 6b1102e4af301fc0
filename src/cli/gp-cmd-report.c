/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-cmd-report.c: `gstprof report SESSION|DIR|LOG -o report.html |
 * report.md`: one file to send around (src/page): a session, or a
 * tegrastats or nvidia-smi log alone, read by ingest's gp_ingest_load_any,
 * the rules run again on it, redacted unless --no-redact
 * (src/report/gp-redact.h), then written as HTML or Markdown with its PNG
 * pictures. --model, --fps and the roofline's other options are taken as
 * `gstprof roofline --from` takes them.
 */
#include "gp-cli.h"
#include "ingest/gp-ingest.h"
#include "page/gp-page.h"
#include "report/gp-redact.h"
#include "report/gp-verdict.h"
#include "rules/gp-rules.h"

#include <stdio.h>

typedef struct
{
  gchar *out;
  GpCliRooflineWork work;
  gboolean no_redact, markdown;
  gchar **files;
  GpRooflineAsk ask;
} GpCmdReport;

static const gchar gp_cmd_report_description[] =
    "INPUT is what gstprof analyze reads: a session.json, the folder gstprof\n"
    "run --out wrote, the records the tracer wrote by itself, a log of\n"
    "GStreamer's tracers; or a tegrastats log or nvidia-smi output alone\n"
    "(the machine: its curves, the diagnosis, the roofline with --model).\n"
    "\n"
    "-o report.html writes one HTML file that opens with no network (no\n"
    "script, no font or picture fetched): what ran, the verdict, the\n"
    "findings ranked with their evidence, why, fix and launch-string diff,\n"
    "the graph, the curves of gstprof plot and the roofline as inline SVG,\n"
    "and the tables (elements, links, queues, paths, threads, the machine).\n"
    "-o report.md writes the same as Markdown, each picture a PNG beside it\n"
    "(report-graph.png, report-curves.png, report-roofline.png).\n"
    "\n"
    "Redaction, on by default: URI credentials (rtsp://user:pass@ becomes\n"
    "rtsp://***@), the folders of location and uri properties and of paths\n"
    "under a home folder (***/out.ts), and the values of properties named\n"
    "like a password, key, token or secret (***) are masked everywhere in\n"
    "the report. The session on disk is not changed. --no-redact keeps\n"
    "everything.\n"
    "\n"
    "The roofline: an accelerator's, with --model (gstprof roofline --list)\n"
    "or --ops and --fps, or when the machine shows its memory traffic; else\n"
    "a session's elements on this machine's CPU roofline.\n"
    "\n"
    "Exit codes:\n"
    "  0  the report written\n"
    "  3  no INPUT or -o, an -o that is neither .html nor .md, an INPUT that\n"
    "     cannot be read, a roofline asked for that cannot be made, or a\n"
    "     file that cannot be written (the reason, one line naming it)\n";

/* Every option read and checked; FALSE with the report made. */
static gboolean
gp_cmd_report_check (GpCmdReport * o, gint * code)
{
  gchar *lower;

  if (o->files == NULL || o->files[0] == NULL) {
    *code = gp_cli_fail ("report", "no input given (gstprof report "
        "DIR/session.json -o report.html)");
    return FALSE;
  }
  if (o->files[1] != NULL) {
    *code = gp_cli_fail ("report", "one input at a time ('%s' is extra)",
        o->files[1]);
    return FALSE;
  }
  if (o->out == NULL || *o->out == '\0') {
    *code = gp_cli_fail ("report", "no output given (-o report.html or -o "
        "report.md)");
    return FALSE;
  }
  lower = g_ascii_strdown (o->out, -1);
  o->markdown = g_str_has_suffix (lower, ".md");
  if (!o->markdown && !g_str_has_suffix (lower, ".html")
      && !g_str_has_suffix (lower, ".htm")) {
    g_free (lower);
    *code = gp_cli_fail ("report", "-o %s: name it .html or .md", o->out);
    return FALSE;
  }
  g_free (lower);
  if (!gp_cli_roofline_work_ask ("report", &o->work, &o->ask, code))
    return FALSE;
  if (!g_file_test (o->files[0], G_FILE_TEST_EXISTS)) {
    *code = gp_cli_fail ("report", "%s: no such file or folder",
        o->files[0]);
    return FALSE;
  }
  return TRUE;
}

/* The session read, judged, redacted, made a page and written. */
static gint
gp_cmd_report_write (GpCmdReport * o)
{
  GpPageOptions po = { 0 };
  GError *err = NULL;
  GpSession *s;
  GpPage *page = NULL;
  gchar *note;
  gint code = GP_EXIT_CLEAN;

  s = gp_ingest_load_any (o->files[0], &err);
  if (s == NULL) {
    code = gp_cli_fail ("report", "%s", err ? err->message : o->files[0]);
    g_clear_error (&err);
    return code;
  }
  gp_rules_run (s);
  if (!o->no_redact)
    gp_redact_session (s);
  note = gp_ingest_import_note (s, GP_VERDICT_WIDTH);
  po.ask = &o->ask;
  po.asked = o->work.model || o->work.ops || o->work.target;
  po.cpu_roofline = TRUE;
  po.png = o->markdown;
  po.redacted = !o->no_redact;
  page = gp_page_new (s, note, &po, &err);
  if (page == NULL || !(o->markdown ? gp_page_write_markdown (page, o->out,
              &err) : gp_page_write_html (page, o->out, &err)))
    code = gp_cli_fail ("report", "%s", err->message);
  else
    printf ("wrote %s\n", o->out);
  g_clear_error (&err);
  gp_page_free (page);
  g_free (note);
  gp_session_free (s);
  return code;
}

gint
gp_cmd_report (gint argc, gchar ** argv)
{
  GpCmdReport o = { 0 };
  GOptionEntry entries[] = {
    {"output", 'o', 0, G_OPTION_ARG_FILENAME, &o.out,
        "the report: a .html file, or a .md file with its PNG pictures "
          "beside it", "FILE"},
    {"no-redact", 0, 0, G_OPTION_ARG_NONE, &o.no_redact,
        "keep credentials and private locations in the report", NULL},
    {G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &o.files, NULL,
        NULL},
    {NULL}
  };
  GOptionContext *ctx;
  GError *err = NULL;
  gint code = GP_EXIT_CLEAN;

  ctx = g_option_context_new ("INPUT -o report.html|report.md");
  g_option_context_set_summary (ctx, "Writes one report to send around: "
      "the verdict, the findings, the graph,\nthe curves, the roofline and "
      "the tables, as one HTML file that opens offline\nor as Markdown with "
      "PNG pictures; credentials and private paths masked.");
  g_option_context_set_description (ctx, gp_cmd_report_description);
  g_option_context_add_main_entries (ctx, entries, NULL);
  gp_cli_roofline_work_entries (ctx, &o.work);
  if (!g_option_context_parse (ctx, &argc, &argv, &err))
    code = gp_cli_fail ("report", "%s", err->message);
  else if (gp_cmd_report_check (&o, &code))
    code = gp_cmd_report_write (&o);
  g_clear_error (&err);
  g_free (o.out);
  gp_cli_roofline_work_clear (&o.work);
  g_strfreev (o.files);
  g_option_context_free (ctx);
  return code;
}
