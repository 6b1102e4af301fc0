/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-cmd-ds-coverage.c: `gstprof ds coverage <launch string | deepstream-
 * app config | test-app YAML> [--nsys-report FILE] [--session DIR]`: each element COVERED
 * or UNINSTRUMENTED for NVTX (src/deepstream/gp-ds-coverage).
 */
#include "gp-cli.h"
#include "ingest/gp-ingest.h"

#include <stdio.h>

#include "core/gp-file.h"
#include "deepstream/gp-ds-config.h"
#include "deepstream/gp-ds-coverage.h"


gint
gp_cmd_ds_coverage (gint argc, gchar ** argv)
{
  gchar *nsys = NULL, *session = NULL, **rest = NULL;
  GOptionEntry entries[] = {
    {"nsys-report", 0, 0, G_OPTION_ARG_FILENAME, &nsys,
        "nsys stats output with nvtx_sum: measure instead of the table",
        "FILE"},
    {"session", 0, 0, G_OPTION_ARG_FILENAME, &session,
        "a gstprof session of the pipeline: every element's self time",
        "DIR"},
    {G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &rest, NULL, NULL},
    {NULL}
  };
  GOptionContext *ctx = g_option_context_new ("<LAUNCH | CONFIG.txt | "
      "CONFIG.yml>");
  GError *err = NULL;
  GPtrArray *els = NULL;
  GpNsysStats *stats = NULL;
  GpSession *s = NULL;
  gchar *text = NULL, *md;
  gsize len;
  gint code = GP_EXIT_CLEAN;

  g_option_context_set_summary (ctx, "Which elements emit NVTX ranges: "
      "from DeepStream 9's sources, or measured\nfrom an nsys nvtx_sum.");
  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &err)) {
    code = gp_cli_fail ("ds coverage", "%s", err->message);
    goto out;
  }
  if (rest == NULL || rest[0] == NULL) {
    code = gp_cli_fail ("ds coverage", "a launch string, a deepstream-app "
        "config or a test app's YAML is needed");
    goto out;
  }
  /* a YAML file is read as a test app's: its own error says what is wrong */
  if (rest[1] == NULL && (gp_ds_is_app_config (rest[0])
          || (gp_ds_config_format_for (rest[0]) == GP_DS_CONFIG_YAML
              && g_file_test (rest[0], G_FILE_TEST_EXISTS))))
    els = gp_ds_elements_from_config (rest[0], &err);
  else if (rest[1] == NULL && g_file_test (rest[0], G_FILE_TEST_EXISTS)) {
    code = gp_cli_fail ("ds coverage", "%s: not a deepstream-app config "
        "(no [streammux], [primary-gie], ... group) nor a test app's YAML "
        "(no source, source-list, streammux or primary-gie)", rest[0]);
    goto out;
  } else {
    gchar *launch = g_strjoinv (" ", rest);

    els = gp_ds_elements_from_launch (launch, &err);
    g_free (launch);
  }
  if (els == NULL) {
    code = gp_cli_fail ("ds coverage", "%s", err->message);
    goto out;
  }
  if (nsys) {
    const GpNsysTable *t;

    text = gp_file_read_capped (nsys, GP_NSYS_STATS_MAX_BYTES,
        "an nsys stats report", &len, &err);
    if (text == NULL) {
      code = gp_cli_fail ("ds coverage", "--nsys-report: %s", err->message);
      goto out;
    }
    stats = gp_nsys_parse (text, len, "nvtx_sum", nsys, &err);
    if (stats == NULL) {
      code = gp_cli_fail ("ds coverage", "%s", err->message);
      goto out;
    }
    t = gp_nsys_stats_find (stats, "nvtx_sum");
    if (t == NULL || t->skipped) {
      code = gp_cli_fail ("ds coverage", "%s: no nvtx_sum table%s%s", nsys,
          t ? ": " : "", t ? t->skipped : "");
      goto out;
    }
    gp_ds_coverage_from_nvtx (els, t);
  } else
    gp_ds_coverage_from_table (els);
  if (session) {
    s = gp_ingest_load_any (session, &err);
    if (s == NULL) {
      code = gp_cli_fail ("ds coverage", "%s", err ? err->message : session);
      goto out;
    }
    gp_ds_coverage_add_session (els, s);
  }
  md = gp_ds_coverage_markdown (els);
  fputs ("# NVTX coverage\n\n", stdout);
  fputs (md, stdout);
  if (stats != NULL && stats->rows_skipped.skipped > 0) {
    gchar *skipped = gp_lines_skips_text (&stats->rows_skipped);

    printf ("\n%s: %s\n", nsys, skipped);
    g_free (skipped);
  }
  if (rest[1] == NULL && gp_ds_config_format_for (rest[0]) ==
      GP_DS_CONFIG_YAML)
    printf ("\nFrom the test app's groups: the elements its code adds "
        "besides (converters, queues) are not in %s; --session DIR gives "
        "what ran.\n", rest[0]);
  g_free (md);
out:
  g_clear_error (&err);
  if (els)
    g_ptr_array_unref (els);
  if (s)
    gp_session_free (s);
  gp_nsys_stats_free (stats);
  g_free (text);
  g_free (nsys);
  g_free (session);
  g_strfreev (rest);
  g_option_context_free (ctx);
  return code;
}
