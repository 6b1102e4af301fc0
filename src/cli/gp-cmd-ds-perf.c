/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-cmd-ds-perf.c: `gstprof ds perf LOG`: a DeepStream application's
 * **PERF and latency lines as per-source fps and per-component latency
 * (src/deepstream/gp-ds-perf).
 */
#include "gp-cli.h"

#include <stdio.h>

#include "deepstream/gp-ds-perf.h"

gint
gp_cmd_ds_perf (gint argc, gchar ** argv)
{
  gchar **files = NULL;
  GOptionEntry entries[] = {
    {G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL,
        NULL},
    {NULL}
  };
  GOptionContext *ctx;
  GError *err = NULL;
  GpDsPerf *p = NULL;
  gint code = GP_EXIT_CLEAN;
  gchar *table;

  ctx = g_option_context_new ("LOG");
  g_option_context_set_summary (ctx, "Reads a DeepStream application's "
      "log: its **PERF lines (deepstream-app's\n'fps (avg)' columns, the "
      "Python apps' dict) into fps per source, and the\n"
      "NVDS_ENABLE_COMPONENT_LATENCY_MEASUREMENT / "
      "NVDS_ENABLE_LATENCY_MEASUREMENT\nlines into latency per component "
      "(count, mean, p50, p95, max).");
  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &err)) {
    code = gp_cli_fail ("ds perf", "%s", err->message);
    goto out;
  }
  if (files == NULL || files[0] == NULL || files[1] != NULL) {
    code = gp_cli_fail ("ds perf", "give one LOG (gstprof ds perf "
        "app.log)");
    goto out;
  }
  p = gp_ds_perf_load (files[0], &err);
  if (p == NULL) {
    code = gp_cli_fail ("ds perf", "%s", err->message);
    goto out;
  }
  table = gp_ds_perf_table (p);
  fputs (table, stdout);
  g_free (table);

out:
  g_clear_error (&err);
  gp_ds_perf_free (p);
  g_strfreev (files);
  g_option_context_free (ctx);
  return code;
}
