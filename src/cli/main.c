/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * main.c: the gstprof binary: dispatches to one subcommand. Each command
 * is one row of gp_main_commands: its name, its function and its lines in
 * the help; the help, the dispatch and the unknown-command message all
 * come from that table.
 */
#include "gp-cli.h"
#include "core/gp-version.h"

#include <locale.h>
#include <stdio.h>
#include <string.h>

typedef struct
{
  const gchar *name;
  gint (*func) (gint argc, gchar ** argv);
  const gchar *usage;           /* its arguments, after its name */
  const gchar *what;            /* what it does, lines of the help */
} GpMainCommand;

/* The column the commands' text starts at in the help. */
#define GP_MAIN_HELP_COLUMN 18

static const GpMainCommand gp_main_commands[] = {
  {"run", gp_cmd_run, "\"LAUNCH\"",
      "profile a gst-launch pipeline in-process; prints the\n"
        "verdict and writes DIR/session.json"},
  {"wrap", gp_cmd_wrap, "-- PROGRAM ARGS...",
      "profile any GStreamer program as it is (the tracer is\n"
        "loaded through its environment)"},
  {"analyze", gp_cmd_analyze, "FILE [CSV]",
      "the verdict again, from a saved session.json, the\n"
        "folder GST_TRACERS=\"gstprof(out=DIR)\" wrote, a log of\n"
        "GStreamer's tracers or a queue-levels CSV (plain or\n"
        "gzip, a pipe too), or a tracer log and the CSV of the\n"
        "same run; a tegrastats log or nvidia-smi output: the\n"
        "machine alone"},
  {"check", gp_cmd_check, "[\"LAUNCH\"]",
      "what this machine can measure (never fails); with a\n"
        "launch string: whether it builds and links here"},
  {"fix", gp_cmd_fix, "FILE",
      "the findings' fixes applied to the launch string, as a\n"
        "diff; --apply runs it and compares before and after"},
  {"compare", gp_cmd_compare, "A B", "two saved sessions side by side"},
  {"gate", gp_cmd_gate, "--baseline BASE.json \"LAUNCH\"",
      "a performance gate for CI: the pipeline run N times\n"
        "against a recorded baseline's runs; fails on a\n"
        "regression beyond threshold and noise (--record writes\n"
        "the baseline)"},
  {"density", gp_cmd_density, "\"TEMPLATE with {n}\" | --pipeline \"ONE\"",
      "how many streams this machine holds: 1, 2, 4, ...\n"
        "streams until one falls below the floor, then bisected;\n"
        "what hit the wall at the first that did not hold"},
  {"export", gp_cmd_export, "SESSION --dot FILE --svg FILE --csv DIR "
        "--perfetto FILE",
      "a saved session for other tools: the pipeline graph\n"
        "(graphviz dot, SVG), the measurements as CSV, the\n"
        "timeline for ui.perfetto.dev and chrome://tracing"},
  {"plot", gp_cmd_plot, "INPUT -o curves.png|svg",
      "the curves over time of a saved session or a\n"
        "tegrastats / nvidia-smi log: utilisation, clocks,\n"
        "temperature, power, element self time, link rates"},
  {"report", gp_cmd_report, "INPUT -o report.html|md",
      "one file to send around: the verdict, findings, graph,\n"
        "curves, roofline and tables of a session or a\n"
        "tegrastats / nvidia-smi log, as HTML that opens offline\n"
        "or Markdown with PNGs; credentials and paths masked"},
  {"serve", gp_cmd_serve, "INPUT",
      "a saved session replayed in the live panel (run and\n"
        "wrap take --serve to show one live), with /metrics"},
  {"roofline", gp_cmd_roofline, "SESSION | --from LOG --model NAME --fps N",
      "which wall the work hits: the session's elements on\n"
        "this machine's measured memory bandwidth, a network\n"
        "on an accelerator's peaks from its tegrastats or\n"
        "nvidia-smi log"},
  {"ds", gp_cmd_ds, "SUBCOMMAND",
      "DeepStream tuned from measured numbers (gstprof ds\n--help)"},
  {NULL, NULL, NULL, NULL}
};

static const gchar gp_main_help_head[] =
    "Usage:\n"
    "  gstprof COMMAND [OPTION...]\n"
    "\n"
    "Profiles a GStreamer pipeline: where each frame's time goes (self time\n"
    "per element, queues, latency, threads), and a ranked verdict.\n"
    "\n"
    "Commands:\n";

static const gchar gp_main_help_tail[] =
    "\n"
    "  gstprof COMMAND --help    a command's options\n"
    "  gstprof --version         the version\n"
    "\n"
    "Exit codes:\n"
    "  0  clean, or only info findings\n"
    "  1  a high or medium finding\n"
    "  2  the pipeline or program failed on its own (the session is still\n"
    "     written)\n"
    "  3  bad usage or bad input (the reason, one line on stderr)\n";

/* One command in the help: its name and usage, then its text from the
 * column on (on the same line where they leave room), each line of it
 * indented to that column. */
static void
gp_main_help_command (FILE * out, const GpMainCommand * c)
{
  gchar *head = g_strdup_printf ("  %s%s%s", c->name, *c->usage ? " " : "",
      c->usage);
  gchar **lines = g_strsplit (c->what, "\n", -1);
  guint i;

  if (strlen (head) < GP_MAIN_HELP_COLUMN)
    fprintf (out, "%-*s", GP_MAIN_HELP_COLUMN, head);
  else
    fprintf (out, "%s\n%*s", head, GP_MAIN_HELP_COLUMN, "");
  for (i = 0; lines[i] != NULL; i++)
    fprintf (out, "%*s%s\n", i > 0 ? GP_MAIN_HELP_COLUMN : 0, "", lines[i]);
  g_strfreev (lines);
  g_free (head);
}

static void
gp_main_help (FILE * out)
{
  const GpMainCommand *c;

  fputs (gp_main_help_head, out);
  for (c = gp_main_commands; c->name != NULL; c++)
    gp_main_help_command (out, c);
  fputs (gp_main_help_tail, out);
}

/* "unknown command" with the names of the table. */
static gint
gp_main_unknown (const gchar * cmd)
{
  const GpMainCommand *c;
  GString *names = g_string_new (NULL);
  gint code;

  for (c = gp_main_commands; c->name != NULL; c++)
    g_string_append_printf (names, "%s%s", names->len ? ", " : "", c->name);
  code = gp_cli_fail (NULL, "unknown command '%s' (%s; see gstprof --help)",
      cmd, names->str);
  g_string_free (names, TRUE);
  return code;
}

int
main (int argc, char **argv)
{
  const GpMainCommand *c;
  const gchar *cmd;

  /* The user's language and charset for messages, but numbers always with
   * a dot: the verdict and the errors are read by scripts too. */
  setlocale (LC_ALL, "");
  setlocale (LC_NUMERIC, "C");

  if (argc < 2) {
    gp_main_help (stderr);
    return GP_EXIT_USAGE;
  }
  cmd = argv[1];
  for (c = gp_main_commands; c->name != NULL; c++)
    if (strcmp (cmd, c->name) == 0) {
      gchar *prgname = g_strconcat ("gstprof ", c->name, NULL);

      /* the name its --help and GLib's messages give it */
      g_set_prgname (prgname);
      g_free (prgname);
      return c->func (argc - 1, argv + 1);
    }
  if (strcmp (cmd, "--help") == 0 || strcmp (cmd, "-h") == 0 ||
      strcmp (cmd, "help") == 0) {
    gp_main_help (stdout);
    return GP_EXIT_CLEAN;
  }
  if (strcmp (cmd, "--version") == 0 || strcmp (cmd, "version") == 0) {
    printf ("gstprof %s\n", gp_version ());
    return GP_EXIT_CLEAN;
  }
  return gp_main_unknown (cmd);
}
