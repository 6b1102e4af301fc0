/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * main.c: the gstprof binary: dispatches to one subcommand.
 */
#include "gp-cli.h"
#include "core/gp-version.h"

#include <locale.h>
#include <stdio.h>
#include <string.h>

static const gchar gp_main_help[] =
    "Usage:\n"
    "  gstprof COMMAND [OPTION...]\n"
    "\n"
    "Profiles a GStreamer pipeline: where each frame's time goes (self time\n"
    "per element, queues, latency, threads), and a ranked verdict.\n"
    "\n"
    "Commands:\n"
    "  run \"LAUNCH\"    profile a gst-launch pipeline in-process; prints the\n"
    "                  verdict and writes DIR/session.json\n"
    "  wrap -- PROGRAM ARGS...\n"
    "                  profile any GStreamer program as it is (the tracer is\n"
    "                  loaded through its environment)\n"
    "  analyze FILE [CSV]\n"
    "                  the verdict again, from a saved session.json, the\n"
    "                  folder GST_TRACERS=\"gstprof(out=DIR)\" wrote, a log of\n"
    "                  GStreamer's tracers or a queue-levels CSV (plain or\n"
    "                  gzip, a pipe too), or a tracer log and the CSV of the\n"
    "                  same run; a tegrastats log or nvidia-smi output: the\n"
    "                  machine alone\n"
    "  check           what this machine can measure (never fails)\n"
    "  fix FILE        the findings' fixes applied to the launch string, as a\n"
    "                  diff; --apply runs it and compares before and after\n"
    "  compare A B     two saved sessions side by side\n"
    "  export SESSION --dot FILE --svg FILE --csv DIR --perfetto FILE\n"
    "                  a saved session for other tools: the pipeline graph\n"
    "                  (graphviz dot, SVG), the measurements as CSV, the\n"
    "                  timeline for ui.perfetto.dev and chrome://tracing\n"
    "  plot INPUT -o curves.png|svg\n"
    "                  the curves over time of a saved session or a\n"
    "                  tegrastats / nvidia-smi log: utilisation, clocks,\n"
    "                  temperature, power, element self time, link rates\n"
    "  roofline SESSION | --from LOG --model NAME --fps N\n"
    "                  which wall the work hits: the session's elements on\n"
    "                  this machine's measured memory bandwidth, a network\n"
    "                  on an accelerator's peaks from its tegrastats or\n"
    "                  nvidia-smi log\n"
    "  ds SUBCOMMAND   DeepStream tuned from measured numbers (gstprof ds\n"
    "                  --help)\n"
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

int
main (int argc, char **argv)
{
  const gchar *cmd;

  /* The user's language and charset for messages, but numbers always with
   * a dot: the verdict and the errors are read by scripts too. */
  setlocale (LC_ALL, "");
  setlocale (LC_NUMERIC, "C");

  if (argc < 2) {
    fputs (gp_main_help, stderr);
    return GP_EXIT_USAGE;
  }
  cmd = argv[1];
  if (strcmp (cmd, "run") == 0)
    return gp_cmd_run (argc - 1, argv + 1);
  if (strcmp (cmd, "wrap") == 0)
    return gp_cmd_wrap (argc - 1, argv + 1);
  if (strcmp (cmd, "analyze") == 0)
    return gp_cmd_analyze (argc - 1, argv + 1);
  if (strcmp (cmd, "check") == 0)
    return gp_cmd_check (argc - 1, argv + 1);
  if (strcmp (cmd, "fix") == 0)
    return gp_cmd_fix (argc - 1, argv + 1);
  if (strcmp (cmd, "compare") == 0)
    return gp_cmd_compare (argc - 1, argv + 1);
  if (strcmp (cmd, "export") == 0)
    return gp_cmd_export (argc - 1, argv + 1);
  if (strcmp (cmd, "plot") == 0)
    return gp_cmd_plot (argc - 1, argv + 1);
  if (strcmp (cmd, "roofline") == 0)
    return gp_cmd_roofline (argc - 1, argv + 1);
  if (strcmp (cmd, "ds") == 0)
    return gp_cmd_ds (argc - 1, argv + 1);
  if (strcmp (cmd, "--help") == 0 || strcmp (cmd, "-h") == 0 ||
      strcmp (cmd, "help") == 0) {
    fputs (gp_main_help, stdout);
    return GP_EXIT_CLEAN;
  }
  if (strcmp (cmd, "--version") == 0 || strcmp (cmd, "version") == 0) {
    printf ("gstprof %s\n", gp_version ());
    return GP_EXIT_CLEAN;
  }
  return gp_cli_fail (NULL, "unknown command '%s' (run, wrap, analyze, check, "
      "fix, compare, export, plot, roofline, ds; see gstprof --help)", cmd);
}
