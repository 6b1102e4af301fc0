/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-cmd-ds-derive.c: `gstprof ds derive --plateau B --streams N --source
 * WxH@FPS --model CxHxW [CONFIG...]`: R1-R7 (src/deepstream/gp-ds-derive)
 * printed as a table, key, value in the file now, derived value, reason;
 * --write edits the files through the config editor (gp-ds-config).
 * Argument parsing and printing only.
 */
#include "gp-cli.h"
#include "deepstream/gp-ds-derive.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct
{
  gchar *plateau, *streams, *source, *model, *calib, *gpu_mem;
  gchar *plateau_fps, *decode_fps;
  gboolean write;
  gchar **files;
} GpCmdDsDerive;

static const gchar *const gp_cmd_ds_derive_elems[] = {
  "nvstreammux", "nvinfer (primary)", "decoder", "nvtracker", "queue",
  "capacity (streams)"
};

/* A whole number from 1 to 4096 for option @name; FALSE with the one line
 * said. */
static gboolean
gp_cmd_ds_derive_count (const gchar * name, const gchar * text, guint * out,
    gint * code)
{
  guint64 v = 0;

  if (text && g_ascii_string_to_unsigned (text, 10, 1, 4096, &v, NULL)) {
    *out = (guint) v;
    return TRUE;
  }
  *code = gp_cli_fail ("ds derive", "--%s: '%s' is not a whole number from "
      "1 to 4096", name, text ? text : "");
  return FALSE;
}

static gboolean
gp_cmd_ds_derive_input (GpCmdDsDerive * o, GpDsDeriveInput * in,
    gint * code)
{
  if (!o->plateau || !o->streams || !o->source || !o->model) {
    *code = gp_cli_fail ("ds derive", "--%s is needed (see gstprof ds "
        "derive --help)", !o->plateau ? "plateau" : !o->streams ? "streams" :
        !o->source ? "source" : "model");
    return FALSE;
  }
  if (!gp_cmd_ds_derive_count ("plateau", o->plateau, &in->plateau, code)
      || !gp_cmd_ds_derive_count ("streams", o->streams, &in->streams, code))
    return FALSE;
  if (!gp_ds_derive_parse_source (o->source, &in->src_w, &in->src_h,
          &in->src_fps)) {
    *code = gp_cli_fail ("ds derive", "--source: '%s' is not WIDTHxHEIGHT@"
        "FPS (1920x1080@30, 1280x720@30000/1001)", o->source);
    return FALSE;
  }
  if (!gp_ds_derive_parse_model (o->model, &in->model_c, &in->model_h,
          &in->model_w)) {
    *code = gp_cli_fail ("ds derive", "--model: '%s' is not CxHxW, the "
        "network input as infer-dims (3x544x960)", o->model);
    return FALSE;
  }
  if (!gp_cli_positive_option ("ds derive", "gpu-mem", o->gpu_mem,
          &in->gpu_mem_mib, code)
      || !gp_cli_positive_option ("ds derive", "plateau-fps",
          o->plateau_fps, &in->plateau_fps, code)
      || !gp_cli_positive_option ("ds derive", "decode-fps", o->decode_fps,
          &in->decode_fps, code))
    return FALSE;
  in->int8_calib = o->calib;
  in->int8_calib_exists = o->calib
      && g_file_test (o->calib, G_FILE_TEST_IS_REGULAR);
  return TRUE;
}

static void
gp_cmd_ds_derive_print_values (const GpDsDerivation * d)
{
  gint last = -1;
  guint i;

  for (i = 0; i < d->values->len; i++) {
    const GpDsValue *v = g_ptr_array_index (d->values, i);

    if ((gint) v->elem != last) {
      printf ("%s%s\n", last < 0 ? "" : "\n",
          gp_cmd_ds_derive_elems[v->elem]);
      last = v->elem;
    }
    printf ("  %-4s %-22s %-12s %s\n", v->rule, v->key, v->value, v->reason);
  }
}

static void
gp_cmd_ds_derive_print_changes (GPtrArray * changes)
{
  const gchar *file = NULL;
  guint i;

  for (i = 0; i < changes->len; i++) {
    const GpDsChange *ch = g_ptr_array_index (changes, i);
    gchar *key = g_strdup_printf ("[%s] %s", ch->group, ch->key);
    const gchar *mark = !ch->write ? "left" :
        g_strcmp0 (ch->old, ch->value) == 0 ? "same" : "set";

    if (g_strcmp0 (file, ch->file) != 0) {
      file = ch->file;
      printf ("\n%s\n  %-30s %-12s %-12s %-5s %s\n", file, "key", "old",
          "new", "", "reason");
    }
    printf ("  %-30s %-12s %-12s %-5s %s\n", key, ch->old ? ch->old : "-",
        ch->write ? ch->value : "-", mark, ch->reason);
    g_free (key);
  }
}

gint
gp_cmd_ds_derive (gint argc, gchar ** argv)
{
  GpCmdDsDerive o = { 0 };
  GOptionEntry entries[] = {
    {"plateau", 0, 0, G_OPTION_ARG_STRING, &o.plateau,
        "the plateau batch (gstprof ds sweep)", "B"},
    {"streams", 0, 0, G_OPTION_ARG_STRING, &o.streams,
        "streams to serve", "N"},
    {"source", 0, 0, G_OPTION_ARG_STRING, &o.source,
        "source resolution and rate (1920x1080@30)", "WxH@FPS"},
    {"model", 0, 0, G_OPTION_ARG_STRING, &o.model,
        "the network input, as infer-dims (3x544x960)", "CxHxW"},
    {"int8-calib", 0, 0, G_OPTION_ARG_FILENAME, &o.calib,
        "an INT8 calibration file (INT8 when it exists, else FP16)", "F"},
    {"gpu-mem", 0, 0, G_OPTION_ARG_STRING, &o.gpu_mem,
        "GPU memory free for the streams, MiB (R7)", "MiB"},
    {"plateau-fps", 0, 0, G_OPTION_ARG_STRING, &o.plateau_fps,
        "aggregate fps measured at the plateau batch (R7)", "FPS"},
    {"decode-fps", 0, 0, G_OPTION_ARG_STRING, &o.decode_fps,
        "the decoders' fps at this source (gstprof ds hw, R7)", "FPS"},
    {"write", 0, 0, G_OPTION_ARG_NONE, &o.write,
        "edit the configuration files in place (a backup beside)", NULL},
    {G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &o.files, NULL,
        NULL},
    {NULL}
  };
  GpDsDeriveInput in = { 0 };
  GOptionContext *ctx;
  GError *err = NULL;
  GpDsConfigs *cfg = NULL;
  GpDsDerivation *d = NULL;
  GPtrArray *changes = NULL;
  gint code = GP_EXIT_CLEAN;

  ctx = g_option_context_new ("[CONFIG...]");
  g_option_context_set_summary (ctx, "DeepStream's knobs from the plateau "
      "batch and the streams, by R1-R7 (docs/tuning.md), each with its "
      "reason; with deepstream-app or nvinfer configurations, what they "
      "change there.");
  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &err)) {
    code = gp_cli_fail ("ds derive", "%s", err->message);
    goto done;
  }
  if (!gp_cmd_ds_derive_input (&o, &in, &code))
    goto done;
  if (o.write && !o.files) {
    code = gp_cli_fail ("ds derive", "--write: no configuration file given");
    goto done;
  }
  in.new_mux = g_strcmp0 (g_getenv ("USE_NEW_NVSTREAMMUX"), "yes") == 0;
  if (o.files) {
    cfg = gp_ds_configs_load (o.files, &err);
    if (!cfg) {
      code = gp_cli_fail ("ds derive", "%s", err->message);
      goto done;
    }
    gp_ds_derive_scan (cfg, &in);
  }
  d = gp_ds_derive (&in);
  printf ("final batch %u = min(plateau %u, streams %u)%s\n\n",
      d->final_batch, in.plateau, in.streams, in.streams > in.plateau ?
      "; several batches a frame interval" : "");
  gp_cmd_ds_derive_print_values (d);
  if (cfg) {
    changes = gp_ds_derive_changes (d, cfg);
    gp_cmd_ds_derive_print_changes (changes);
  }
  if (o.write) {
    GPtrArray *wrote = g_ptr_array_new ();
    guint i;

    if (!gp_ds_derive_write (cfg, changes, wrote, &err)) {
      code = gp_cli_fail ("ds derive", "%s", err->message);
    } else {
      for (i = 0; i < wrote->len; i++)
        printf ("%swrote %s (as it was: %s.bak)\n", i ? "" : "\n",
            (const gchar *) g_ptr_array_index (wrote, i),
            (const gchar *) g_ptr_array_index (wrote, i));
      if (wrote->len == 0)
        printf ("\nnothing to write: every file has these values\n");
    }
    g_ptr_array_unref (wrote);
  }

done:
  if (changes) {
    guint i;

    for (i = 0; i < changes->len; i++)
      gp_ds_change_free (g_ptr_array_index (changes, i));
    g_ptr_array_unref (changes);
  }
  gp_ds_derivation_free (d);
  gp_ds_configs_free (cfg);
  g_clear_error (&err);
  g_option_context_free (ctx);
  g_free (o.plateau);
  g_free (o.streams);
  g_free (o.source);
  g_free (o.model);
  g_free (o.calib);
  g_free (o.gpu_mem);
  g_free (o.plateau_fps);
  g_free (o.decode_fps);
  g_strfreev (o.files);
  return code;
}
