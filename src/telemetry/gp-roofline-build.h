/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gp-roofline-build: the rooflines gstprof puts together (gp-roofline.h
 * is the model).
 *
 * The CPU roofline (gp_roofline_cpu): the machine's measured memory
 * bandwidth (gp-membw) as the only roof, and a point per software element
 * of a session at the bytes it moves. Those are the bytes of its links as
 * the tracer measured them (summary.links: bytes_per_s, steady state): an
 * element reads its input and writes its output, so a filter moves in +
 * out, a source its output, a sink its input. Hardware elements, queues
 * and bins are left out.
 *
 * An element moving 1.2 GB/s on average may still be memory-bound if it
 * only runs 10 % of the time: while it runs it draws 12 GB/s. So the
 * point is placed at its busy-time bandwidth (average ÷ busy share,
 * GpCpuElementBw.busy_bytes_per_s; the share from the median buffer's
 * self time, so that pushes descheduled on a loaded machine do not count
 * as work), and that is held against the
 * bandwidth ONE thread can draw (the single-thread copy): an element runs
 * on one streaming thread at a time, and one thread cannot pull the
 * all-CPU figure. It is memory-bound at GP_ROOFLINE_CPU_MEMBOUND of that
 * or more. A busy-time bandwidth past GP_ROOFLINE_CPU_IMPLAUSIBLE times
 * the best the probe measured cannot be its own traffic: the element
 * passed its buffers on without touching them (identity, a capsfilter, a
 * fakesink) and is judged "neither". So is one whose buffers fit a core's
 * level-2 cache: they need not reach memory at all.
 *
 * An accelerator's roofline (gp_roofline_accel): its peaks (gp-peaks) as
 * the roofs, one point for the workload: achieved ops/s = fps × ops per
 * frame; achieved bytes/s from the machine's telemetry where it has them
 * (EMC % × peak bandwidth × current / maximum EMC clock on a Jetson, dmon
 * mem % or utilization.memory × peak bandwidth on a discrete GPU: a
 * busy-time proxy), else fps × the bytes per frame given or estimated.
 */
#ifndef __GP_ROOFLINE_BUILD_H__
#define __GP_ROOFLINE_BUILD_H__

#include "core/gp-session.h"
#include "gp-membw.h"
#include "gp-peaks.h"
#include "gp-roofline.h"

G_BEGIN_DECLS

/* Half of what one thread can copy, drawn while the element runs: a
 * loop that reaches half a bare copy's rate spends most of its time
 * waiting on memory (a cheaper format or a smaller frame helps it, more
 * threads do not much). */
#define GP_ROOFLINE_CPU_MEMBOUND 0.5
/* Past 4 × the best figure of the probe while busy, the bytes on its
 * links were not its own work: a pass-through element's busy time is its
 * push overhead alone and puts it at 100 × the bus or more (TB/s), while
 * 4 × leaves room for a probe taken while other work loaded the
 * machine. */
#define GP_ROOFLINE_CPU_IMPLAUSIBLE 4.0
/* Buffers smaller than the level-2 cache of a core (GpMembw.l2_bytes;
 * 1 MiB when it is not listed) stay in the caches between the elements
 * that pass them: their bytes are no memory traffic. */
#define GP_ROOFLINE_CPU_L2_DEFAULT (1u << 20)
/* Less busy than this, an element's busy-time figures are a few short
 * pushes, too few to judge. */
#define GP_ROOFLINE_CPU_MIN_BUSY_PCT 1.0

typedef struct
{
  gchar *name;
  gchar *factory;
  gdouble in_bytes_per_s;       /* its input links' bytes, summed */
  gdouble out_bytes_per_s;      /* its output links' */
  gdouble bytes_per_s;          /* what it moves: in + out */
  gdouble buffer_bytes;         /* its largest link's bytes per buffer;
                                 * NAN unknown */
  gdouble busy_pct;             /* the share of the time it works: its
                                 * median self time × its links' rate, or
                                 * summary.elements busy_pct when less */
  gdouble busy_bytes_per_s;     /* bytes_per_s over the busy share; NAN
                                 * when it was never busy */
  gdouble share;                /* busy_bytes_per_s / one thread's copy */
  GpRooflinePoint *point;       /* its point (borrowed from the roofline) */
} GpCpuElementBw;

void gp_cpu_element_bw_free (GpCpuElementBw * e);

/* The CPU roofline of @s's software elements against @bw; @elements (may
 * be NULL) gets a new array of GpCpuElementBw*, by busy-time bandwidth,
 * highest first. Every point is classified. */
GpRoofline *gp_roofline_cpu (GpSession * s, const GpMembw * bw,
    GPtrArray ** elements);
/* Sets @pt's bound and reason as the CPU roofline judges an element. */
const gchar *gp_roofline_cpu_classify (GpRoofline * r, const GpMembw * bw,
    const GpCpuElementBw * e, GpRooflinePoint * pt);

/* What runs on the accelerator. */
typedef struct
{
  const gchar *label;           /* "resnet50", "ops 8.2e9" */
  gdouble ops_per_frame;
  gdouble bytes_per_frame;      /* NAN: none given or estimated */
  gdouble fps;
  const gchar *precision;       /* "int8", "fp16", "fp32" */
} GpWorkload;

/* The accelerator's achieved bandwidth as @m's telemetry shows it, its
 * mean over the samples, bytes/s; NAN when @m has no memory load series.
 * @how: a new line saying how (the series, the samples, the clocks). */
gdouble gp_roofline_machine_bw (const GpMachine * m, const GpPeaks * p,
    gchar ** how);
/* The roofs of @p (INT8, FP16, FP32 where known) and its bandwidth, no
 * point yet. */
GpRoofline *gp_roofline_of_peaks (const GpPeaks * p);
/* The roofline of @p with @w's point, placed at the measured bandwidth of
 * @m when it has one (@m may be NULL) and classified against the roof of
 * @w's precision. @how (may be NULL) gets the line saying where the
 * point's bytes come from. */
GpRoofline *gp_roofline_accel (const GpPeaks * p, const GpWorkload * w,
    const GpMachine * m, gchar ** how);

/* The Jetson or GPU that @m was sampled on, when its telemetry says so
 * (an nvidia-smi name among the facts, its memory and maximum clocks; a
 * tegrastats CPU count that only one board has). @sms and @bus_bits (0:
 * unknown) complete what nvidia-smi does not print, for a GPU the table
 * does not know. NULL with @error otherwise. */
GpPeaks *gp_roofline_machine_peaks (const GpMachine * m, guint sms,
    guint bus_bits, GError ** error);

/* ---- what a roofline is asked for (gp-roofline-choose.c) ---- */

/* The accelerator and the work of `gstprof roofline`, as given: NULL or
 * NAN where not. */
typedef struct
{
  const gchar *target;          /* the part, a name of the peaks table;
                                 * NULL: the one the telemetry shows */
  gdouble peak_ops, peak_bw;    /* op/s and bytes/s over the table's */
  gdouble sms, bus_bits;        /* of a GPU the table does not know */
  const gchar *model;           /* a network of gp-models.h */
  gdouble ops, bytes;           /* per frame, instead of (bytes: beside)
                                 * the model's */
  gdouble fps;                  /* frames per second; NAN: the session's */
  const gchar *precision;       /* "int8", "fp16", "fp32"; NULL: fp16 */
} GpRooflineAsk;

/* The accelerator's peaks: @a's target (its memory and maximum clocks
 * from @m where @m has them), else the part @m's telemetry shows, else,
 * with both peaks given, those alone; @a's peak figures over them. NULL
 * with @error (GP_PEAKS_ERROR; a target's error begins "--target: "). */
GpPeaks *gp_roofline_choose_peaks (const GpRooflineAsk * a,
    const GpMachine * m, GError ** error);

/* The accelerator's roofline on @p: @a's workload (the model's or the
 * given ops, at @a's fps or else @session_fps) placed on it; without one,
 * the memory traffic @m shows alone. @work receives the line saying what
 * the workload is, @how (may be NULL) where its bytes came from (NULL
 * when nothing showed them), @judged the roof of @a's precision its points
 * are judged against (-1: none). */
GpRoofline *gp_roofline_of_ask (const GpRooflineAsk * a, const GpPeaks * p,
    const GpMachine * m, gdouble session_fps, gchar ** work, gchar ** how,
    gint * judged);

/* The two above as a report or the panel shows the accelerator's
 * roofline: the peaks chosen for @a (NULL: nothing asked) and @m, the
 * work placed on them, and @caption its lines (the peaks, the workload,
 * where the bytes came from). NULL with @error when no peaks can be
 * chosen. */
GpRoofline *gp_roofline_of_machine (const GpRooflineAsk * a,
    const GpMachine * m, gdouble session_fps, gchar ** caption,
    GError ** error);

G_END_DECLS
#endif /* __GP_ROOFLINE_BUILD_H__ */
