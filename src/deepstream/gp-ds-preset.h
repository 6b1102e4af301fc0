/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-ds-preset.h: stage 0 of DeepStream's tuning, the performance presets
 * applied before anything is measured (docs/tuning.md, "Stage 0
 * presets"), on a deepstream-app INI, a test app's YAML, an nvinfer
 * config or a launch string. Every change carries its one-line reason;
 * a value already right is said too. A pipeline with a display or a
 * recording gets two variants: "visible" (the presets, its display and
 * recording kept) and "benchmark" (fakesink sync=false, no OSD, no
 * tiler); without either, the one variant is "benchmark".
 */
#ifndef __GP_DS_PRESET_H__
#define __GP_DS_PRESET_H__

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  gint streams;                 /* -1: counted from the sources */
  gdouble fps;                  /* the sources' rate; 0: 30 assumed */
  const gchar *precision;       /* "auto" (INT8 with a calibration file,
                                 * else FP16), "int8", "fp16", "fp32" */
  gboolean jetson;              /* the decoder has no cudadec-memtype */
  gboolean new_mux;             /* USE_NEW_NVSTREAMMUX=yes: no width,
                                 * height or nvbuf-memory-type */
  guint model_h, model_w;       /* the model's input; 0: from infer-dims */
} GpDsPresetOptions;

/* The defaults: streams counted, 30 fps assumed, "auto", the platform
 * and the muxer of this machine ($USE_NEW_NVSTREAMMUX). */
void gp_ds_preset_options_init (GpDsPresetOptions * o);

/* The presets on the config at @path (its kind told by its groups) and on
 * the nvinfer config its primary inference names, when it is there. The
 * report (the changes as a diff with their reasons, per variant and
 * file) in @report. With @write, each changed file is saved in place
 * (FILE.bak first, gp-ds-config.h) and, with two variants, the benchmark
 * one beside it as NAME.benchmark.EXT. FALSE with a one-line error
 * ("FILE:LINE: reason") on a file the editor refuses. */
gboolean gp_ds_preset_file (const gchar * path, const GpDsPresetOptions * o,
    gboolean write, gchar ** report, GError ** error);

/* The presets on a launch string: the report with each variant's diff and
 * its new launch string in @report; with @write, the nvinfer configs it
 * names are saved in place. FALSE with a one-line error on a string that
 * is not a launch string. */
gboolean gp_ds_preset_launch (const gchar * launch,
    const GpDsPresetOptions * o, gboolean write, gchar ** report,
    GError ** error);

G_END_DECLS

#endif /* __GP_DS_PRESET_H__ */
