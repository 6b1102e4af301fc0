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
/* q in [0,1]; linear interpolation inside the bucket; 0 for an empty
 * histogram; never above max_ns when max_ns is known. */
gdouble gp_hist_quantile_ns (const GpHist * h, gdouble q);
/* p50/p95/p99/max in ms; all -1 for an empty histogram. */
void gp_hist_quantiles_ms (const GpHist * h, GpQuantiles * out);

G_END_DECLS

#endif /* __GP_STATS_H__ */
