/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-compare.h: two sessions side by side (before and after a fix, or any
 * two saved runs): fps per sink, latency p50/p95 per path, process and
 * thread CPU, and which findings were cleared, remain or are new. Sinks,
 * paths and threads are matched by name; what has no partner is said.
 *
 * Every change is shown with its sign and percent, and is marked "noise"
 * when it is within the run-to-run variation the windows show: the larger
 * of the two sessions' per-window standard deviations of that quantity
 * (first and last window left out when there are five or more: start-up
 * and the final flush), and never less than the measurement's resolution
 * (0.05 ms latency, 0.5 % CPU, 1 MiB memory) nor 2 % of the value: a
 * quantity steady within each run still moves between runs. A change under
 * that is not claimed as a gain. With fewer than three usable windows on a
 * side
 * the variation is unknown and the row says so ("noise?").
 */
#ifndef __GP_COMPARE_H__
#define __GP_COMPARE_H__

#include <glib.h>
#include "core/gp-session.h"

G_BEGIN_DECLS

/* One compared quantity. */
typedef struct
{
  gdouble a, b;                 /* < 0: not measured on that side */
  gdouble spread;               /* noise band (same unit), < 0 unknown */
  gboolean noise;               /* |b - a| <= spread (FALSE when unknown) */
} GpCompareValue;

/* Fills @v for a sink's fps (matched by name); FALSE when either session
 * lacks the sink. */
gboolean gp_compare_sink_fps (GpSession * a, GpSession * b,
    const gchar * sink, GpCompareValue * v);

/* The median time of the machine's fixed reference work in @s
 * (GP_MACHINE_CPU_REF "xorshift", sampled each tick), in ns a round: how
 * fast the machine was for a thread during the run; NAN when the session
 * has none (an older gstprof, --no-machine). Two runs' ratio is the
 * machine's drift between them. */
gdouble gp_compare_machine_reference (GpSession * s);

/* What got worse beyond noise from @a to @b: a sink's rate lower (always:
 * a fix never delivers less; a muxed or RTP output's by each stream into
 * its muxer or payloader, matched by the pad it enters, else by its own
 * bits a second), and with @measures (GpRuleMeasure flags) a
 * path's latency p50, the process's mean CPU or its RSS at its most
 * higher; one indented line each ("  fakesink0: 30.0 -> 22.8 fps (-24 %),
 * beyond noise (±1.0)"), or NULL when nothing did. A change whose noise is
 * unknown (too few windows) is not claimed. */
gchar *gp_compare_worse (GpSession * a, GpSession * b, guint measures);

/* The side-by-side table, plain text, @label_a / @label_b heading the
 * columns ("before", "after"). Findings must be ranked already (the rules
 * run); they are matched by rule and targets. */
gchar *gp_compare_format (GpSession * a, GpSession * b,
    const gchar * label_a, const gchar * label_b);

G_END_DECLS

#endif /* __GP_COMPARE_H__ */
