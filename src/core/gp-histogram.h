/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-histogram.h: the log-linear histogram shared by the tracer (which only
 * bins values) and the analysis side (which reads quantiles back).
 *
 * Values are nanoseconds. Below 16 ns every value has its own bucket; above,
 * each power of two is cut in 16 equal sub-buckets, so a bucket is at most
 * 1/16 (6.25 %) of its lower bound wide and the midpoint used as the
 * representative value is within 3.2 % of any value in it. Values at or above
 * 2^40 ns (about 18 minutes) land in the last bucket. 592 buckets in all.
 *
 * Header-only on purpose: the tracer plugin must not link the analysis
 * library, and both sides must agree on the bucket layout bit for bit.
 */
#ifndef __GP_HISTOGRAM_H__
#define __GP_HISTOGRAM_H__

#include <glib.h>

G_BEGIN_DECLS

#define GP_HIST_SUB_BITS 4
#define GP_HIST_SUB (1 << GP_HIST_SUB_BITS)     /* 16 sub-buckets per octave */
#define GP_HIST_MAX_EXP 39                      /* highest octave: [2^39, 2^40) */
#define GP_HIST_N_BUCKETS ((GP_HIST_MAX_EXP - GP_HIST_SUB_BITS + 2) * GP_HIST_SUB)

/* gp_hist_bucket:
 * Bucket index of @v. Branch-light; one count-leading-zeros. */
static inline guint
gp_hist_bucket (guint64 v)
{
  guint e;

  if (v < GP_HIST_SUB)
    return (guint) v;
  e = 63 - __builtin_clzll (v);
  if (e > GP_HIST_MAX_EXP)
    return GP_HIST_N_BUCKETS - 1;
  return (e - GP_HIST_SUB_BITS + 1) * GP_HIST_SUB +
      (guint) ((v >> (e - GP_HIST_SUB_BITS)) & (GP_HIST_SUB - 1));
}

/* gp_hist_bucket_low:
 * Smallest value that falls into bucket @idx. */
static inline guint64
gp_hist_bucket_low (guint idx)
{
  guint e, sub;

  if (idx < GP_HIST_SUB)
    return idx;
  e = idx / GP_HIST_SUB + GP_HIST_SUB_BITS - 1;
  sub = idx % GP_HIST_SUB;
  return ((guint64) (GP_HIST_SUB + sub)) << (e - GP_HIST_SUB_BITS);
}

/* gp_hist_bucket_width:
 * Number of distinct values in bucket @idx. */
static inline guint64
gp_hist_bucket_width (guint idx)
{
  guint e;

  if (idx < GP_HIST_SUB)
    return 1;
  e = idx / GP_HIST_SUB + GP_HIST_SUB_BITS - 1;
  return ((guint64) 1) << (e - GP_HIST_SUB_BITS);
}

G_END_DECLS

#endif /* __GP_HISTOGRAM_H__ */
