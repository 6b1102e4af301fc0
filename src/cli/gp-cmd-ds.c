/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-cmd-ds.c: `gstprof ds SUBCOMMAND`: DeepStream's tuning flow from
 * measured numbers; one row per subcommand, each in its own
 * gp-cmd-ds-NAME.c (the work is in src/deepstream).
 */
#include "gp-cli.h"

#include <stdio.h>
#include <string.h>

typedef struct
{
  const gchar *name;
  const gchar *usage;           /* its arguments, in the help */
  const gchar *what;            /* one line */
  gint (*func) (gint argc, gchar ** argv);
} GpCmdDs;

static const GpCmdDs gp_cmd_ds_table[] = {
  {"derive", "--plateau B --streams N --source WxH@FPS --model CxHxW "
        "[CONFIG...]", "R1-R7: every knob from the plateau batch, each "
        "with its reason", gp_cmd_ds_derive},
  {"perf", "LOG", "fps per source and latency per component from an app's "
        "log", gp_cmd_ds_perf},
  {"sweep", "\"LAUNCH with {batch}\" [--batches 1,2,4] [--streams N]",
      "runs each batch size, finds the plateau batch", gp_cmd_ds_sweep},
  {"hw", "[--gpu N] [--from FILE]", "the GPUs and their ceilings: decode, "
        "compute, memory, PCIe", gp_cmd_ds_hw},
  {"coverage", "<LAUNCH | CONFIG.txt | CONFIG.yml> [--nsys-report FILE] "
        "[--session DIR]",
      "each element COVERED or UNINSTRUMENTED for NVTX", gp_cmd_ds_coverage},
  {"profile", "[--duration 30s] -- COMMAND | --from-stats DIR",
      "nsys capture and stats: per plugin, copies, kernels, the bound",
      gp_cmd_ds_profile},
  {"preset", "CONFIG.txt | CONFIG.yml | LAUNCH [--write]",
      "stage 0: the performance presets, a diff with a reason per change",
      gp_cmd_ds_preset},
  {NULL, NULL, NULL, NULL}
};

static void
gp_cmd_ds_help (FILE * out)
{
  const GpCmdDs *c;

  fputs ("Usage:\n  gstprof ds SUBCOMMAND [OPTION...]\n\n"
      "DeepStream tuned from measured numbers (docs/tuning.md).\n\n"
      "Subcommands:\n", out);
  for (c = gp_cmd_ds_table; c->name != NULL; c++)
    fprintf (out, "  %s %s\n      %s\n", c->name, c->usage, c->what);
  fputs ("\n  gstprof ds SUBCOMMAND --help    its options\n", out);
}

gint
gp_cmd_ds (gint argc, gchar ** argv)
{
  const GpCmdDs *c;
  GString *names;
  gint code;

  if (argc < 2) {
    gp_cmd_ds_help (stderr);
    return GP_EXIT_USAGE;
  }
  if (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0) {
    gp_cmd_ds_help (stdout);
    return GP_EXIT_CLEAN;
  }
  for (c = gp_cmd_ds_table; c->name != NULL; c++)
    if (strcmp (argv[1], c->name) == 0) {
      gchar *prgname = g_strconcat ("gstprof ds ", c->name, NULL);

      g_set_prgname (prgname);
      g_free (prgname);
      return c->func (argc - 1, argv + 1);
    }
  names = g_string_new (NULL);
  for (c = gp_cmd_ds_table; c->name != NULL; c++)
    g_string_append_printf (names, "%s%s", names->len ? ", " : "", c->name);
  code = gp_cli_fail ("ds", "unknown subcommand '%s' (%s; see gstprof ds "
      "--help)", argv[1], names->str);
  g_string_free (names, TRUE);
  return code;
}
