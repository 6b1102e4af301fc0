/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-stats.h: dense histograms on the gp-histogram.h layout, merged from
 * the tracer's sparse per-window histograms, and the quantiles read back.
 */
#ifndef __GP_STATS_H__
#define __GP_STATS_H__

#include <glib.h>
#include "gp-histogram.h"
#include "gp-session.h"

G_BEGIN_DECLS

typedef struct
{
  guint64 counts[GP_HIST_N_BUCKETS];
  guint64 total;                /* number of samples */
  guint64 sum_ns;               /* exact sum when known, else from midpoints */
  guint64 max_ns;               /* exact maximum */
} GpHist;

void gp_hist_clear (GpHist * h);
/* Adds a sparse [bucket, count, bucket, count, ...] list (n_values even). */
void gp_hist_add_pairs (GpHist * h, const guint64 * pairs, guint n_values);
void gp_hist_add_value (GpHist * h, guint64 v_ns);
void gp_hist_merge (GpHist * dst, const GpHist * src);
/* Like gp_hist_add_pairs (), for a record that also carries the exact sum
 * and maximum of the values it binned (the tracer's self_ns/self_max_ns):
 * sum_ns grows by @sum_ns instead of the midpoints, and max_ns becomes the
 * exact maximum. Use this whenever the record has them. */
void gp_hist_add_pairs_exact (GpHist * h, const guint64 * pairs,
    guint n_values, guint64 sum_ns, guint64 max_ns);
/* Mean in ns (sum_ns / total); 0 for an empty histogram. */
gdouble gp_hist_mean_ns (const GpHist * h);
/* q in [0,1]; linear interpolation inside the bucket; 0 for an empty
 * histogram; never above max_ns when max_ns is known.
 *
 * max_ns is "known" when it is not 0: gp_hist_add_value (),
 * gp_hist_add_pairs_exact () and gp_hist_merge () keep it exact, while
 * gp_hist_add_pairs () alone cannot know it and leaves it untouched (the
 * caller may then set it from the record's own maximum). With max_ns 0 and
 * samples present, the maximum is read as the top of the highest non-empty
 * bucket. */
gdouble gp_hist_quantile_ns (const GpHist * h, gdouble q);
/* p50/p95/p99/max in ms; all -1 for an empty histogram. */
void gp_hist_quantiles_ms (const GpHist * h, GpQuantiles * out);

G_END_DECLS

#endif /* __GP_STATS_H__ */
