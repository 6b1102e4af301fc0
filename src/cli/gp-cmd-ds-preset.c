/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-cmd-ds-preset.c: `gstprof ds preset CONFIG | LAUNCH`: stage 0's
 * performance presets (src/deepstream/gp-ds-preset.h), printed as a diff
 * with a reason per change; --write edits the files in place.
 */
#include "gp-cli.h"

#include <stdio.h>
#include <string.h>
#include <gst/gst.h>

#include "deepstream/gp-ds-preset.h"

static gboolean
gp_cmd_ds_preset_model (const gchar * text, guint * h, guint * w)
{
  gchar **v = g_strsplit_set (text, "x;", -1);
  guint n = g_strv_length (v);
  gchar *end1, *end2;
  guint64 a, b;
  gboolean ok = n == 2 || n == 3;

  if (ok) {
    a = g_ascii_strtoull (v[n - 2], &end1, 10);
    b = g_ascii_strtoull (v[n - 1], &end2, 10);
    ok = *end1 == '\0' && *end2 == '\0' && a > 0 && b > 0 && a < 65536 &&
        b < 65536;
    *h = (guint) a;
    *w = (guint) b;
  }
  g_strfreev (v);
  return ok;
}

gint
gp_cmd_ds_preset (gint argc, gchar ** argv)
{
  GpDsPresetOptions o;
  gboolean write = FALSE, ok;
  gchar *precision = NULL, *model = NULL, *report = NULL;
  gint streams = -1;
  gdouble fps = 0;
  GError *err = NULL;
  GOptionEntry entries[] = {
    {"write", 0, 0, G_OPTION_ARG_NONE, &write,
        "edit the files in place (FILE.bak first)", NULL},
    {"precision", 0, 0, G_OPTION_ARG_STRING, &precision,
        "auto (INT8 with a calibration file, else FP16), int8, fp16, fp32",
        "P"},
    {"streams", 0, 0, G_OPTION_ARG_INT, &streams,
        "the streams (default: the sources counted)", "N"},
    {"fps", 0, 0, G_OPTION_ARG_DOUBLE, &fps,
        "the sources' rate (default 30, assumed)", "FPS"},
    {"model", 0, 0, G_OPTION_ARG_STRING, &model,
        "the model's input, HxW or 3xHxW (default: infer-dims)", "DIMS"},
    {NULL}
  };
  GOptionContext *ctx =
      g_option_context_new ("CONFIG.txt | CONFIG.yml | LAUNCH");

  g_option_context_set_summary (ctx, "Stage 0 of DeepStream's tuning: the "
      "performance presets, each change with its reason (docs/tuning.md).");
  g_option_context_add_main_entries (ctx, entries, NULL);
  ok = g_option_context_parse (ctx, &argc, &argv, &err);
  g_option_context_free (ctx);
  if (!ok) {
    gint code = gp_cli_fail ("ds preset", "%s", err->message);

    g_error_free (err);
    return code;
  }
  gp_ds_preset_options_init (&o);
  if (argc != 2) {
    g_free (precision);
    g_free (model);
    return gp_cli_fail ("ds preset", "one config file or launch string "
        "expected, got %d arguments (see --help)", argc - 1);
  }
  if (precision != NULL && !g_strv_contains ((const gchar *[]) {
        "auto", "int8", "fp16", "fp32", NULL}, precision)) {
    gint code = gp_cli_fail ("ds preset", "--precision '%s': auto, int8, "
        "fp16 or fp32", precision);

    g_free (precision);
    g_free (model);
    return code;
  }
  if (model != NULL && !gp_cmd_ds_preset_model (model, &o.model_h,
          &o.model_w)) {
    gint code = gp_cli_fail ("ds preset", "--model '%s': HxW or 3xHxW",
        model);

    g_free (precision);
    g_free (model);
    return code;
  }
  if (streams == 0 || streams < -1 || fps < 0) {
    g_free (precision);
    g_free (model);
    return gp_cli_fail ("ds preset", "--streams and --fps must be above 0");
  }
  o.precision = precision ? precision : "auto";
  o.streams = streams;
  o.fps = fps;
  if (g_file_test (argv[1], G_FILE_TEST_IS_REGULAR) ||
      (strchr (argv[1], '!') == NULL && strchr (argv[1], ' ') == NULL)) {
    ok = gp_ds_preset_file (argv[1], &o, write, &report, &err);
  } else {
    gst_init (NULL, NULL);
    ok = gp_ds_preset_launch (argv[1], &o, write, &report, &err);
  }
  g_free (model);
  if (!ok) {
    gint code = gp_cli_fail ("ds preset", "%s", err->message);

    g_error_free (err);
    g_free (precision);
    return code;
  }
  fputs (report, stdout);
  g_free (report);
  g_free (precision);
  return GP_EXIT_CLEAN;
}
