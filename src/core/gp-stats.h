/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-stats.h: dense histograms on the gp-histogram.h layout, merged from
 * the tracer's sparse per-window histograms, and the quantiles read back;
 * the exact summary of a plain list of values.
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
/* The counts below each octave edge (exact: the edges are buckets'). */
void gp_hist_octaves (const GpHist * h, GpOctaves * out);

/* Quantiles of a run known only by each window's p50 and p95 and how many
 * samples it had (a gst-profile series): they are not a function of those.
 * Each window is modelled as its own distribution: half its samples at its
 * p50, 45 % spread evenly up to its p95, 5 % at its p95; the run is the
 * mixture of the windows weighted by their sample counts. When every
 * window agrees this gives their p50 and p95 exactly; when they differ (a
 * slow phase, a warm-up window) each window pulls in proportion to its
 * samples, where a p95 of the p95s would take the worst windows' values.
 * Nothing above a window's p95 is known, so p99 and max stay unknown. */
GArray *gp_mixture_new (void);
/* Adds a window; ignored unless both quantiles are known (not NAN) and
 * @weight > 0. A p95 below its p50 cannot be: the p50 is taken for both. */
void gp_mixture_add (GArray * mix, gdouble weight, gdouble p50, gdouble p95);
/* Smallest value whose mixture CDF reaches @q; -1 when @mix is empty. */
gdouble gp_mixture_quantile (const GArray * mix, gdouble q);

/* A plain list of values summed up exactly: how many, their mean, and
 * nearest-rank quantiles (the smallest value with at least q of them at or
 * below it: of 1..20, p50 10 and p95 19). */
typedef struct
{
  guint n;
  gdouble mean, p50, p95, max;  /* NAN when n is 0 */
} GpSummary;

/* Summarises @values (a GArray of gdouble, left as it is). */
void gp_summary_of (const GArray * values, GpSummary * out);

/* A least-squares line through points (x, y) added one at a time, in
 * constant memory (the sums); a zeroed GpTrend is empty. */
typedef struct
{
  guint n;
  gdouble sx, sy, sxx, sxy;
} GpTrend;

void gp_trend_add (GpTrend * t, gdouble x, gdouble y);
/* Its slope (y per x); NAN with fewer than two distinct x. */
gdouble gp_trend_slope (const GpTrend * t);

/* The one-sided Wilcoxon-Mann-Whitney rank test, exact: the chance, were
 * @a and @b drawn alike, that @b's rank sum among the pooled values is at
 * least what was seen (@b tends larger). Ties take their mean rank, and
 * the exact distribution is that of those ranks (a permutation test on
 * them), so it holds for any number of ties. At most GP_RANK_TEST_MAX
 * values a side; NAN when a side is empty or larger. */
#define GP_RANK_TEST_MAX 64
gdouble gp_rank_test_greater (const gdouble * a, guint na, const gdouble * b,
    guint nb);
/* The smallest p the test can give with @na and @nb values: every @b above
 * every @a, one arrangement of C(na + nb, nb). */
gdouble gp_rank_test_min_p (guint na, guint nb);

G_END_DECLS

#endif /* __GP_STATS_H__ */
