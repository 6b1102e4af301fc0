/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gp-models: the work of known networks per frame, for a roofline point
 * of an accelerator (`gstprof roofline --model resnet50`).
 *
 * Operations are FLOPs = 2 × MACs at the native input, batch 1
 * (torchvision's "GFLOPS" are GMACs; Ultralytics' "FLOPs (B)" are true
 * FLOPs); an INT8 multiply-add is 2 ops as well.
 *
 * Bytes per frame are an ESTIMATE (gp_model_bytes_estimate): the input
 * tensor plus every weight once, at the precision's element size, at
 * batch 1. It leaves out the activations (the largest traffic of a CNN at
 * high resolution, so it is low) and counts the weights as re-read every
 * frame (so it is high where they stay in cache or a batch shares them).
 * A measured bandwidth (EMC %, dmon mem %) always wins over it.
 */
#ifndef __GP_MODELS_H__
#define __GP_MODELS_H__

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  const gchar *name;            /* "resnet50", as --model takes it */
  const gchar *title;           /* "ResNet-50 (torchvision)" */
  guint width, height, channels;        /* native input */
  gdouble gflops;               /* per frame, FLOPs = 2 × MACs */
  gdouble params_m;             /* weights, millions */
  const gchar *source;          /* where the figures come from */
} GpModel;

const GpModel *gp_models (guint * n);
/* By name, case and '-', '_' ignored ("ResNet-50", "yolov8n",
 * "mobilenet_v3_large"); NULL when unknown. */
const GpModel *gp_model_find (const gchar * name);
/* Operations per frame. */
gdouble gp_model_ops (const GpModel * m);
/* The bytes of one element at @precision ("int8" 1, "fp16" 2, "fp32"
 * 4); 0 when unknown. */
guint gp_precision_bytes (const gchar * precision);
/* The estimate of the bytes one frame moves (above): (channels × width ×
 * height + params) × element size. */
gdouble gp_model_bytes_estimate (const GpModel * m, const gchar * precision);

G_END_DECLS
#endif /* __GP_MODELS_H__ */
