/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-cmd-ds-hw.c: `gstprof ds hw [--gpu N] [--from FILE]`: the GPUs and
 * their ceilings (src/deepstream/gp-ds-hw).
 */
#include "gp-cli.h"

#include <stdio.h>

#include "deepstream/gp-ds-hw.h"

gint
gp_cmd_ds_hw (gint argc, gchar ** argv)
{
  gchar *from = NULL, **rest = NULL;
  gint gpu = -1;
  GOptionEntry entries[] = {
    {"gpu", 0, 0, G_OPTION_ARG_INT, &gpu, "only GPU N (nvidia-smi's index)",
        "N"},
    {"from", 0, 0, G_OPTION_ARG_FILENAME, &from, "a saved nvidia-smi "
          "--query-gpu output (with its header) or tegrastats log", "FILE"},
    {G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &rest, NULL,
        NULL},
    {NULL}
  };
  GOptionContext *ctx;
  GError *err = NULL;
  GPtrArray *gpus = NULL;
  gint code = GP_EXIT_CLEAN;
  guint i;
  gchar *report, *note = NULL;

  ctx = g_option_context_new ("");
  g_option_context_set_summary (ctx, "The GPUs under a DeepStream pipeline "
      "and their ceilings: decode (NVDEC\nengines x frames a second each), "
      "compute at FP16 and INT8 and memory\nbandwidth (the peaks table of "
      "gstprof roofline), PCIe copies (per lane x\nwidth, at the link's "
      "maximum). From nvidia-smi, a Jetson's model, or --from.");
  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &err)) {
    code = gp_cli_fail ("ds hw", "%s", err->message);
    goto out;
  }
  if (rest != NULL && rest[0] != NULL) {
    code = gp_cli_fail ("ds hw", "unexpected argument '%s' (a saved query "
        "is --from FILE)", rest[0]);
    goto out;
  }
  gpus = from ? gp_ds_hw_load (from, &note, &err) : gp_ds_hw_probe (&err);
  if (gpus == NULL) {
    code = gp_cli_fail ("ds hw", "%s", err->message);
    goto out;
  }
  if (gpu >= 0) {
    for (i = gpus->len; i-- > 0;)
      if (((GpDsGpu *) g_ptr_array_index (gpus, i))->index != gpu)
        g_ptr_array_remove_index (gpus, i);
    if (gpus->len == 0) {
      code = gp_cli_fail ("ds hw", "--gpu: no GPU %d", gpu);
      goto out;
    }
  }
  report = gp_ds_hw_report (gpus);
  fputs (report, stdout);
  g_free (report);
  if (note != NULL)
    printf ("\n%s: %s\n", from, note);

out:
  g_free (note);
  if (gpus)
    g_ptr_array_unref (gpus);
  g_clear_error (&err);
  g_free (from);
  g_strfreev (rest);
  g_option_context_free (ctx);
  return code;
}
