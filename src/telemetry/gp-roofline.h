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

/* A point at this share of the roof above it or more is at that wall:
 * tuned kernels reach 60 to 80 % of a peak, and 0.7 × bandwidth is the
 * DeepStream guide's own memory-bound line. */
#define GP_ROOFLINE_NEAR 0.7
/* A point this far above the roof it is under has wrong inputs (the
 * peaks, the ops or bytes per frame), not a better machine. */
#define GP_ROOFLINE_ABOVE 1.1

/* What roof @i allows @pt (ops/s; bytes/s for a point without
 * intensity, or on a roofline without compute roofs). */
gdouble gp_roofline_point_attainable (const GpRoofline * r, guint i,
    const GpRooflinePoint * pt);
/* @pt's share of that (0..1, above 1 past the roof); NAN unknown. */
gdouble gp_roofline_point_fraction (const GpRoofline * r, guint i,
    const GpRooflinePoint * pt);
/* Sets @pt's bound and reason against roof @i (ignored for a point
 * without intensity): "compute" when its intensity is at or past the
 * ridge and it is at GP_ROOFLINE_NEAR of the flat roof or more, "memory"
 * when it is below the ridge (or has no intensity) and at GP_ROOFLINE_NEAR
 * of the bandwidth or more, "neither" when it is far below both (latency,
 * launches, the CPU, IO); the reason quotes the numbers. Returns the
 * bound. */
const gchar *gp_roofline_classify (GpRoofline * r, guint i,
    GpRooflinePoint * pt);
/* The index of the roof called @name ("INT8"), -1 when none. */
gint gp_roofline_find_roof (const GpRoofline * r, const gchar * name);
/* @v with an SI prefix and @unit ("85.2 Tops/s", "12.4 GB/s"): a new
 * string. */
gchar *gp_roofline_format (gdouble v, const gchar * unit);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GpRoofline, gp_roofline_free)

G_END_DECLS
#endif /* __GP_ROOFLINE_H__ */
