/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gp-roofline: a roofline, what `gstprof roofline` computes and the plot
 * room draws (log-log: arithmetic intensity in ops/byte on x, ops/s on y).
 *
 * Attainable performance at intensity I is min (compute roof, I × memory
 * bandwidth); the ridge is where the two meet (compute / bandwidth). A
 * roofline may have several compute roofs (FP32, FP16, INT8) and one
 * memory roof; each workload point is placed at its intensity and its
 * achieved rate. A point whose intensity is unknown (a CPU element that
 * only moves bytes) has ai NAN and only its bandwidth: it is drawn and
 * judged against the memory roof alone.
 */
#ifndef __GP_ROOFLINE_H__
#define __GP_ROOFLINE_H__

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  gchar *name;                  /* "INT8", "FP16", "FP32", "CPU" */
  gdouble ops_per_s;
} GpRoof;

typedef struct
{
  gchar *label;                 /* "resnet50 @ 40 fps", "videoconvert0" */
  gdouble ai;                   /* ops/byte; NAN: bytes only */
  gdouble ops_per_s;            /* achieved; NAN with ai NAN */
  gdouble bytes_per_s;          /* achieved */
  gchar *bound;                 /* the wall it hits, "compute", "memory",
                                 * "neither" (latency, CPU, IO), or NULL */
  gchar *reason;                /* one line, the numbers that say so */
} GpRooflinePoint;

typedef struct
{
  gchar *title;                 /* the target: "Jetson AGX Orin 64GB",
                                 * "this machine (CPU)" */
  GArray *roofs;                /* GpRoof, highest first */
  gdouble bw_bytes_per_s;       /* the memory roof */
  gchar *bw_name;               /* "LPDDR5 204.8 GB/s", "measured copy" */
  GPtrArray *points;            /* GpRooflinePoint* */
} GpRoofline;

GpRoofline *gp_roofline_new (const gchar * title, gdouble bw_bytes_per_s,
    const gchar * bw_name);
void gp_roofline_free (GpRoofline * r);
void gp_roofline_add_roof (GpRoofline * r, const gchar * name,
    gdouble ops_per_s);
GpRooflinePoint *gp_roofline_add_point (GpRoofline * r, const gchar * label,
    gdouble ai, gdouble ops_per_s, gdouble bytes_per_s);
/* The ridge of roof @i (ops/byte): roof / bandwidth. */
gdouble gp_roofline_ridge (const GpRoofline * r, guint i);
/* What roof @i allows at intensity @ai (ops/s). */
gdouble gp_roofline_attainable (const GpRoofline * r, guint i, gdouble ai);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GpRoofline, gp_roofline_free)

G_END_DECLS
#endif /* __GP_ROOFLINE_H__ */
