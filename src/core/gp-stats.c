/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-stats.c: dense histograms on the gp-histogram.h layout and the
 * quantiles read back from them.
 *
 * A bucket only says "this many values fell between low and low + width".
 * Quantiles therefore treat each bucket as a continuous interval whose values
 * are spread evenly, and interpolate linearly inside it: with many samples
 * (a whole run of buffers) this is much closer to the truth than returning
 * the bucket's midpoint, and for a constant value it stays within the
 * half-width (3.2 %) of the layout. The highest non-empty bucket is cut at
 * the exact maximum when it is known, so no quantile ever exceeds a value
 * that was really seen.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gp-stats.h"

void
gp_hist_clear (GpHist * h)
{
  g_return_if_fail (h != NULL);

  memset (h, 0, sizeof (*h));
}

/* Adds the bucket counts and returns their midpoint sum, so the two public
 * variants differ only in what they do with sum and max. */
static guint64
gp_hist_add_pairs_counts (GpHist * h, const guint64 * pairs, guint n_values)
{
  guint64 mid_sum = 0;
  guint i;

  /* An odd trailing value has no count: ignore it rather than read past. */
  for (i = 0; i + 1 < n_values; i += 2) {
    guint64 idx = pairs[i];
    guint64 count = pairs[i + 1];
    guint b;

    if (count == 0)
      continue;
    /* A bucket past the layout can only come from a newer or broken writer;
     * the last bucket already means "at least 2^39 ns", so keep the count
     * there instead of dropping samples. */
    b = idx >= GP_HIST_N_BUCKETS ? GP_HIST_N_BUCKETS - 1 : (guint) idx;
    h->counts[b] += count;
    h->total += count;
    mid_sum += (gp_hist_bucket_low (b) + (gp_hist_bucket_width (b) - 1) / 2)
        * count;
  }
  return mid_sum;
}

void
gp_hist_add_pairs (GpHist * h, const guint64 * pairs, guint n_values)
{
  g_return_if_fail (h != NULL);
  g_return_if_fail (pairs != NULL || n_values == 0);

  h->sum_ns += gp_hist_add_pairs_counts (h, pairs, n_values);
}

void
gp_hist_add_pairs_exact (GpHist * h, const guint64 * pairs, guint n_values,
    guint64 sum_ns, guint64 max_ns)
{
  g_return_if_fail (h != NULL);
  g_return_if_fail (pairs != NULL || n_values == 0);

  gp_hist_add_pairs_counts (h, pairs, n_values);
  h->sum_ns += sum_ns;
  h->max_ns = MAX (h->max_ns, max_ns);
}

void
gp_hist_add_value (GpHist * h, guint64 v_ns)
{
  g_return_if_fail (h != NULL);

  h->counts[gp_hist_bucket (v_ns)]++;
  h->total++;
  h->sum_ns += v_ns;
  h->max_ns = MAX (h->max_ns, v_ns);
}

void
gp_hist_merge (GpHist * dst, const GpHist * src)
{
  guint i;

  g_return_if_fail (dst != NULL);
  g_return_if_fail (src != NULL);

  for (i = 0; i < GP_HIST_N_BUCKETS; i++)
    dst->counts[i] += src->counts[i];
  dst->total += src->total;
  dst->sum_ns += src->sum_ns;
  dst->max_ns = MAX (dst->max_ns, src->max_ns);
}

gdouble
gp_hist_mean_ns (const GpHist * h)
{
  g_return_val_if_fail (h != NULL, 0);

  if (h->total == 0)
    return 0;
  return (gdouble) h->sum_ns / (gdouble) h->total;
}

/* Index of the highest non-empty bucket, or -1. */
static gint
gp_hist_top_bucket (const GpHist * h)
{
  gint i;

  for (i = GP_HIST_N_BUCKETS - 1; i >= 0; i--)
    if (h->counts[i] != 0)
      return i;
  return -1;
}

/* The largest value the histogram may hold: the exact maximum when known,
 * else the last value of the highest non-empty bucket. */
static gdouble
gp_hist_effective_max (const GpHist * h, gint top)
{
  if (h->max_ns != 0)
    return (gdouble) h->max_ns;
  return (gdouble) (gp_hist_bucket_low (top) + gp_hist_bucket_width (top) - 1);
}

gdouble
gp_hist_quantile_ns (const GpHist * h, gdouble q)
{
  gdouble target, cum = 0, max;
  gint top, i;

  g_return_val_if_fail (h != NULL, 0);

  top = gp_hist_top_bucket (h);
  if (top < 0)
    return 0;
  max = gp_hist_effective_max (h, top);

  if (isnan (q) || q < 0)
    q = 0;
  else if (q > 1)
    q = 1;

  /* h->total may disagree with the counts if a caller filled the struct by
   * hand; the counts are what the quantile is read from. */
  {
    gdouble n = 0;

    for (i = 0; i <= top; i++)
      n += (gdouble) h->counts[i];
    target = q * n;
  }

  for (i = 0; i <= top; i++) {
    gdouble c = (gdouble) h->counts[i];
    gdouble lo, hi, v;

    if (c == 0)
      continue;
    if (cum + c < target && i != top) {
      cum += c;
      continue;
    }
    lo = (gdouble) gp_hist_bucket_low (i);
    hi = lo + (gdouble) gp_hist_bucket_width (i);
    /* Values in the top bucket stop at the maximum actually seen. */
    if (i == top && max < hi)
      hi = MAX (max, lo);
    v = lo + (hi - lo) * CLAMP ((target - cum) / c, 0.0, 1.0);
    return MIN (v, max);
  }
  return max;
}

void
gp_hist_quantiles_ms (const GpHist * h, GpQuantiles * out)
{
  gint top;

  g_return_if_fail (h != NULL);
  g_return_if_fail (out != NULL);

  top = gp_hist_top_bucket (h);
  if (top < 0) {
    out->p50 = out->p95 = out->p99 = out->max = -1;
    return;
  }
  out->p50 = gp_hist_quantile_ns (h, 0.50) / 1e6;
  out->p95 = gp_hist_quantile_ns (h, 0.95) / 1e6;
  out->p99 = gp_hist_quantile_ns (h, 0.99) / 1e6;
  out->max = gp_hist_effective_max (h, top) / 1e6;
}

void
gp_hist_octaves (const GpHist * h, GpOctaves * out)
{
  guint64 below = 0;
  guint b = 0, i;

  for (i = 0; i < GP_OCTAVE_N; i++) {
    guint edge = gp_hist_bucket (G_GUINT64_CONSTANT (1) <<
        (GP_OCTAVE_FIRST + i));

    for (; b < edge; b++)
      below += h->counts[b];
    out->below[i] = below;
  }
  out->count = h->total;
}

/* ------------------------------------------------------------------ */
/* a run's quantiles from its windows' p50 and p95 (gp-stats.h)         */
/* ------------------------------------------------------------------ */

typedef struct
{
  gdouble w, p50, p95;
} GpMixtureWindow;

GArray *
gp_mixture_new (void)
{
  return g_array_new (FALSE, FALSE, sizeof (GpMixtureWindow));
}

static gdouble
gp_mixture_cdf (const GArray * wq, gdouble v)
{
  gdouble acc = 0, wsum = 0;
  guint i;

  for (i = 0; i < wq->len; i++) {
    const GpMixtureWindow *q = &g_array_index (wq, GpMixtureWindow, i);

    wsum += q->w;
    if (v < q->p50)
      continue;
    if (v >= q->p95)
      acc += q->w;
    else
      acc += q->w * (0.5 + 0.45 * (v - q->p50) / (q->p95 - q->p50));
  }
  return wsum > 0 ? acc / wsum : 1.0;
}

/* Smallest v with mixture CDF >= @q (bisection: the CDF is monotonic). */
gdouble
gp_mixture_quantile (const GArray * wq, gdouble q)
{
  gdouble lo = G_MAXDOUBLE, hi = 0;
  guint i;

  if (wq->len == 0)
    return -1;
  for (i = 0; i < wq->len; i++) {
    const GpMixtureWindow *w = &g_array_index (wq, GpMixtureWindow, i);

    lo = MIN (lo, w->p50);
    hi = MAX (hi, w->p95);
  }
  if (gp_mixture_cdf (wq, lo) >= q)
    return lo;
  for (i = 0; i < 200; i++) {
    gdouble mid = lo + (hi - lo) / 2;

    if (mid <= lo || mid >= hi)
      break;
    if (gp_mixture_cdf (wq, mid) >= q)
      hi = mid;
    else
      lo = mid;
  }
  return hi;
}

void
gp_mixture_add (GArray * mix, gdouble weight, gdouble p50, gdouble p95)
{
  GpMixtureWindow q;

  if (isnan (p50) || isnan (p95) || !(weight > 0))
    return;
  q.w = weight;
  q.p50 = p50;
  q.p95 = MAX (p50, p95);
  g_array_append_val (mix, q);
}

/* ---- a plain list of values ------------------------------------------ */

static gint
gp_summary_cmp (gconstpointer a, gconstpointer b)
{
  gdouble x = *(const gdouble *) a, y = *(const gdouble *) b;

  return x < y ? -1 : x > y;
}

static gdouble
gp_summary_rank (const GArray * sorted, gdouble q)
{
  guint k = (guint) ceil (q * sorted->len);

  return g_array_index (sorted, gdouble, k > 0 ? k - 1 : 0);
}

void
gp_summary_of (const GArray * values, GpSummary * out)
{
  GArray *sorted;
  /* the sum of any finite doubles is finite in a long double with a
   * 15-bit exponent: x87's 80 bits on amd64, IEEE binary128 on arm64
   * (added in software there, tens of ns a value; its 113-bit mantissa
   * can round a mean's last bit apart from amd64's 64-bit one) */
  long double sum = 0;
  guint i;

  out->n = values->len;
  out->mean = out->p50 = out->p95 = out->max = NAN;
  if (values->len == 0)
    return;
  sorted = g_array_sized_new (FALSE, FALSE, sizeof (gdouble), values->len);
  g_array_append_vals (sorted, values->data, values->len);
  g_array_sort (sorted, gp_summary_cmp);
  for (i = 0; i < sorted->len; i++)
    sum += g_array_index (sorted, gdouble, i);
  out->mean = (gdouble) (sum / sorted->len);
  out->p50 = gp_summary_rank (sorted, 0.50);
  out->p95 = gp_summary_rank (sorted, 0.95);
  out->max = g_array_index (sorted, gdouble, sorted->len - 1);
  g_array_unref (sorted);
}

/**
 * gp_trend_add:
 * Adds the point (@x, @y) to the least-squares fit @t.
 */
void
gp_trend_add (GpTrend * t, gdouble x, gdouble y)
{
  t->n++;
  t->sx += x;
  t->sy += y;
  t->sxx += x * x;
  t->sxy += x * y;
}

/**
 * gp_trend_slope:
 * The slope of the least-squares line through @t's points.
 */
gdouble
gp_trend_slope (const GpTrend * t)
{
  gdouble d;

  if (t->n < 2)
    return NAN;
  d = t->n * t->sxx - t->sx * t->sx;
  /* every x the same (or rounding of nearly so): no line */
  if (d <= 1e-12 * MAX (1.0, t->sxx))
    return NAN;
  return (t->n * t->sxy - t->sx * t->sy) / d;
}

static gint
gp_rank_cmp (gconstpointer x, gconstpointer y)
{
  gdouble a = *(const gdouble *) x, b = *(const gdouble *) y;

  return a < b ? -1 : a > b;
}

/**
 * gp_rank_test_greater:
 * The exact one-sided rank test of @b above @a (gp-stats.h). Ranks are
 * doubled so that a tie's mean rank is a whole number; the count of the
 * ways to pick nb of the pooled ranks with each sum is built one value at
 * a time (ways[k][sum]), in doubles: C(128, 64) is about 2.4e37.
 */
gdouble
gp_rank_test_greater (const gdouble * a, guint na, const gdouble * b,
    guint nb)
{
  guint n = na + nb, i, j, k, smax, seen = 0;
  gdouble *pool, *ways, total = 0, at_least = 0;
  guint *rank2;

  if (na == 0 || nb == 0 || na > GP_RANK_TEST_MAX || nb > GP_RANK_TEST_MAX)
    return NAN;
  pool = g_new (gdouble, n);
  memcpy (pool, a, na * sizeof (gdouble));
  memcpy (pool + na, b, nb * sizeof (gdouble));
  qsort (pool, n, sizeof (gdouble), gp_rank_cmp);
  /* doubled mean ranks of the sorted pool: a run of ties i..j-1 shares
   * (i + 1) + j, twice the mean of ranks i + 1 .. j */
  rank2 = g_new (guint, n);
  for (i = 0; i < n; i = j) {
    for (j = i + 1; j < n && pool[j] == pool[i]; j++);
    for (k = i; k < j; k++)
      rank2[k] = i + 1 + j;
  }
  for (i = 0; i < nb; i++) {
    /* b[i]'s rank: that of its value in the pool */
    for (k = 0; k < n && pool[k] != b[i]; k++);
    seen += k < n ? rank2[k] : 0;
  }
  smax = n * (n + 1);
  ways = g_new0 (gdouble, (nb + 1) * (smax + 1));
  ways[0] = 1;
  for (i = 0; i < n; i++)
    for (k = MIN (i + 1, nb); k >= 1; k--)
      for (j = rank2[i]; j <= smax; j++)
        ways[k * (smax + 1) + j] += ways[(k - 1) * (smax + 1) + j - rank2[i]];
  for (j = 0; j <= smax; j++) {
    total += ways[nb * (smax + 1) + j];
    if (j >= seen)
      at_least += ways[nb * (smax + 1) + j];
  }
  g_free (ways);
  g_free (rank2);
  g_free (pool);
  return total > 0 ? at_least / total : NAN;
}

gdouble
gp_rank_test_min_p (guint na, guint nb)
{
  gdouble c = 1;
  guint i;

  /* C(na + nb, nb), built so that each step stays whole */
  for (i = 1; i <= nb; i++)
    c = c * (na + i) / i;
  return 1.0 / c;
}
