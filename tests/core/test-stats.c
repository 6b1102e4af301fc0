/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof tests: gp-stats.c quantiles against distributions whose quantiles
 * are known exactly. The values are generated here, so the truth is the
 * sorted sample itself, not a formula. */
#include <math.h>
#include <string.h>

#include "core/gp-stats.h"

/* The sample's own q-quantile (nearest rank on the sorted values). */
static gdouble
sample_quantile (const guint64 * sorted, guint n, gdouble q)
{
  guint idx = (guint) ceil (q * n);

  if (idx > 0)
    idx--;
  if (idx >= n)
    idx = n - 1;
  return (gdouble) sorted[idx];
}

static gint
cmp_u64 (gconstpointer a, gconstpointer b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;

  return x < y ? -1 : (x > y ? 1 : 0);
}

static void
assert_within (gdouble got, gdouble want, gdouble rel, const gchar * what)
{
  gdouble err = fabs (got - want) / want;

  if (err > rel)
    g_error ("%s: got %.6f, want %.6f (error %.3f %% > %.3f %%)", what, got,
        want, err * 100, rel * 100);
}

static void
test_uniform (void)
{
  const guint n = 10000;
  GRand *rand = g_rand_new_with_seed (1234);
  GpHist *h = g_new0 (GpHist, 1);
  guint64 *vals = g_new (guint64, n);
  GpQuantiles q;
  guint i;

  /* Uniform in [1 ms, 3 ms]: p50 2 ms, p95 2.9 ms, p99 2.98 ms. */
  for (i = 0; i < n; i++) {
    vals[i] = (guint64) g_rand_double_range (rand, 1e6, 3e6);
    gp_hist_add_value (h, vals[i]);
  }
  qsort (vals, n, sizeof (guint64), cmp_u64);

  gp_hist_quantiles_ms (h, &q);
  assert_within (q.p50, 2.0, 0.01, "p50 vs 2 ms");
  assert_within (q.p95, 2.9, 0.01, "p95 vs 2.9 ms");
  assert_within (q.p99, 2.98, 0.01, "p99 vs 2.98 ms");
  /* Against the sample itself the interpolation does better still. */
  assert_within (q.p50, sample_quantile (vals, n, 0.50) / 1e6, 0.005,
      "p50 vs sample");
  assert_within (q.p95, sample_quantile (vals, n, 0.95) / 1e6, 0.005,
      "p95 vs sample");
  g_assert_cmpfloat (q.max, ==, vals[n - 1] / 1e6);
  g_assert_cmpuint (h->total, ==, n);
  assert_within (gp_hist_mean_ns (h), 2e6, 0.01, "mean");

  g_free (vals);
  g_free (h);
  g_rand_free (rand);
}

/* Exponential (heavy right tail, like a sink waiting on a clock): the tail
 * quantiles land in wide buckets, the hardest case for interpolation. */
static void
test_exponential (void)
{
  const guint n = 50000;
  GRand *rand = g_rand_new_with_seed (99);
  GpHist *h = g_new0 (GpHist, 1);
  guint64 *vals = g_new (guint64, n);
  gdouble qs[] = { 0.5, 0.9, 0.95, 0.99 };
  guint i;

  for (i = 0; i < n; i++) {
    vals[i] = (guint64) (-log (1.0 - g_rand_double (rand)) * 5e6) + 1000;
    gp_hist_add_value (h, vals[i]);
  }
  qsort (vals, n, sizeof (guint64), cmp_u64);
  for (i = 0; i < G_N_ELEMENTS (qs); i++) {
    gchar *what = g_strdup_printf ("exponential q=%.2f", qs[i]);

    /* Within the bucket half-width whatever the shape. */
    assert_within (gp_hist_quantile_ns (h, qs[i]),
        sample_quantile (vals, n, qs[i]), 0.032, what);
    g_free (what);
  }
  g_free (vals);
  g_free (h);
  g_rand_free (rand);
}

static void
test_constant (void)
{
  /* Every kind of bucket: exact small ones, bucket edges, mid-bucket,
   * the top of the range and beyond it. */
  const guint64 consts[] = { 1, 7, 15, 16, 17, 100, 1000, 1023, 1024, 1025,
    65537, 999999, 2000000, 8000000, 33333333, 123456789,
    G_GUINT64_CONSTANT (549755813887), G_GUINT64_CONSTANT (549755813888),
    G_GUINT64_CONSTANT (1099511627775), G_GUINT64_CONSTANT (5000000000000)
  };
  guint c, i;

  for (c = 0; c < G_N_ELEMENTS (consts); c++) {
    GpHist *h = g_new0 (GpHist, 1);
    GpQuantiles q;
    gdouble v = consts[c] / 1e6;
    gchar *what;

    for (i = 0; i < 1000; i++)
      gp_hist_add_value (h, consts[c]);
    gp_hist_quantiles_ms (h, &q);
    what = g_strdup_printf ("constant %" G_GUINT64_FORMAT, consts[c]);
    /* Past 2^40 ns everything shares the last bucket: only max is exact. */
    if (consts[c] < G_GUINT64_CONSTANT (1099511627776)) {
      assert_within (q.p50, v, 0.032, what);
      assert_within (q.p95, v, 0.032, what);
      assert_within (q.p99, v, 0.032, what);
    }
    g_assert_cmpfloat (q.max, ==, v);
    g_assert_cmpfloat (q.p99, <=, q.max);
    g_assert_cmpfloat (q.p50, <=, q.p95);
    g_assert_cmpfloat (q.p95, <=, q.p99);
    g_free (what);
    g_free (h);
  }
}

static void
test_empty (void)
{
  GpHist *h = g_new0 (GpHist, 1);
  GpQuantiles q = { 1, 2, 3, 4 };

  gp_hist_quantiles_ms (h, &q);
  g_assert_cmpfloat (q.p50, ==, -1);
  g_assert_cmpfloat (q.p95, ==, -1);
  g_assert_cmpfloat (q.p99, ==, -1);
  g_assert_cmpfloat (q.max, ==, -1);
  g_assert_cmpfloat (gp_hist_quantile_ns (h, 0.5), ==, 0);
  g_assert_cmpfloat (gp_hist_mean_ns (h), ==, 0);

  /* Adding nothing keeps it empty. */
  gp_hist_add_pairs (h, NULL, 0);
  gp_hist_quantiles_ms (h, &q);
  g_assert_cmpfloat (q.p50, ==, -1);
  g_free (h);
}

/* The tracer sends sparse [bucket, count] pairs per window: merged windows
 * must give what adding the values directly gives. */
static void
test_pairs_and_merge (void)
{
  GRand *rand = g_rand_new_with_seed (7);
  GpHist *direct = g_new0 (GpHist, 1);
  GpHist *from_pairs = g_new0 (GpHist, 1);
  GpHist *win = g_new0 (GpHist, 1);
  GpHist *merged = g_new0 (GpHist, 1);
  GpQuantiles a, b, c;
  guint w, i;

  for (w = 0; w < 20; w++) {
    guint64 pairs[2 * GP_HIST_N_BUCKETS];
    guint np = 0, k;
    guint64 sum = 0, max = 0;

    gp_hist_clear (win);
    for (i = 0; i < 500; i++) {
      /* two modes: 2 ms and 8 ms, like two identity sleep-times */
      guint64 v = (i % 4 == 0 ? 8000000 : 2000000) +
          (guint64) g_rand_int_range (rand, 0, 200000);

      gp_hist_add_value (direct, v);
      gp_hist_add_value (win, v);
      sum += v;
      max = MAX (max, v);
    }
    for (k = 0; k < GP_HIST_N_BUCKETS; k++) {
      if (win->counts[k] != 0) {
        pairs[np++] = k;
        pairs[np++] = win->counts[k];
      }
    }
    gp_hist_add_pairs_exact (from_pairs, pairs, np, sum, max);
    gp_hist_merge (merged, win);
  }

  gp_hist_quantiles_ms (direct, &a);
  gp_hist_quantiles_ms (from_pairs, &b);
  gp_hist_quantiles_ms (merged, &c);
  g_assert_cmpfloat (a.p50, ==, b.p50);
  g_assert_cmpfloat (a.p95, ==, b.p95);
  g_assert_cmpfloat (a.p99, ==, b.p99);
  g_assert_cmpfloat (a.max, ==, b.max);
  g_assert_cmpfloat (a.p50, ==, c.p50);
  g_assert_cmpfloat (a.max, ==, c.max);
  g_assert_cmpuint (direct->total, ==, from_pairs->total);
  g_assert_cmpuint (direct->sum_ns, ==, from_pairs->sum_ns);
  g_assert_cmpuint (direct->sum_ns, ==, merged->sum_ns);
  /* 3/4 of the values uniform in [2.0, 2.2] ms, 1/4 in [8.0, 8.2] ms:
   * p50 is 2/3 into the low mode, p95 4/5 into the high one. */
  assert_within (a.p50, 2.0 + 0.2 * 2 / 3, 0.01, "bimodal p50");
  assert_within (a.p95, 8.0 + 0.2 * 4 / 5, 0.01, "bimodal p95");

  g_free (direct);
  g_free (from_pairs);
  g_free (win);
  g_free (merged);
  g_rand_free (rand);
}

/* Pairs without the exact max: the quantiles stay inside the highest
 * bucket, midpoints make the sum, and malformed input is contained. */
static void
test_pairs_plain (void)
{
  GpHist *h = g_new0 (GpHist, 1);
  guint b = gp_hist_bucket (5000000);
  guint64 pairs[] = { b, 10, G_MAXUINT64, 1, 3 };
  gdouble hi = (gdouble) (gp_hist_bucket_low (b) + gp_hist_bucket_width (b));

  gp_hist_add_pairs (h, pairs, 2);
  g_assert_cmpuint (h->total, ==, 10);
  g_assert_cmpuint (h->max_ns, ==, 0);
  g_assert_cmpfloat (gp_hist_quantile_ns (h, 1.0), <, hi);
  g_assert_cmpfloat (gp_hist_quantile_ns (h, 0.0), >=,
      (gdouble) gp_hist_bucket_low (b));
  assert_within (gp_hist_mean_ns (h), 5e6, 0.032, "midpoint mean");

  /* A bucket past the layout counts in the last one; an odd trailing value
   * is ignored; q outside [0,1] is clamped. */
  gp_hist_add_pairs (h, pairs + 2, 3);
  g_assert_cmpuint (h->total, ==, 11);
  g_assert_cmpuint (h->counts[GP_HIST_N_BUCKETS - 1], ==, 1);
  g_assert_cmpfloat (gp_hist_quantile_ns (h, 7.0), ==,
      gp_hist_quantile_ns (h, 1.0));
  g_assert_cmpfloat (gp_hist_quantile_ns (h, -1.0), ==,
      gp_hist_quantile_ns (h, 0.0));
  g_assert_cmpfloat (gp_hist_quantile_ns (h, NAN), ==,
      gp_hist_quantile_ns (h, 0.0));
  g_free (h);
}

/* Quantiles never exceed the exact maximum, even when the caller set a
 * maximum below the values' bucket (a record from a racy writer). */
static void
test_clamped_to_max (void)
{
  GpHist *h = g_new0 (GpHist, 1);
  GpQuantiles q;
  guint i;

  for (i = 0; i < 100; i++)
    gp_hist_add_value (h, 1000000 + i);
  gp_hist_quantiles_ms (h, &q);
  g_assert_cmpfloat (q.max, ==, 1000099 / 1e6);
  g_assert_cmpfloat (q.p99, <=, q.max);

  h->max_ns = 999000;
  gp_hist_quantiles_ms (h, &q);
  g_assert_cmpfloat (q.p50, <=, 0.999);
  g_assert_cmpfloat (q.p99, <=, 0.999);
  g_assert_cmpfloat (q.max, ==, 0.999);
  g_free (h);
}

/* The windows' mixture: windows that agree give their own p50 and p95;
 * a heavier window pulls the run's quantiles toward its own; unknown or
 * weightless windows count for nothing. */
static void
test_mixture (void)
{
  GArray *mix = gp_mixture_new ();
  gdouble p50, p95;

  g_assert_cmpfloat (gp_mixture_quantile (mix, 0.5), ==, -1);
  gp_mixture_add (mix, 10, 4, 8);
  gp_mixture_add (mix, 10, 4, 8);
  gp_mixture_add (mix, 0, 100, 200);
  gp_mixture_add (mix, 5, NAN, 200);
  g_assert_cmpfloat_with_epsilon (gp_mixture_quantile (mix, 0.50), 4, 1e-6);
  g_assert_cmpfloat_with_epsilon (gp_mixture_quantile (mix, 0.95), 8, 1e-6);

  /* a window of 180 samples at 10 ms beside 20 at 4 ms: the run's median is
   * the heavy window's */
  g_array_set_size (mix, 0);
  gp_mixture_add (mix, 20, 4, 8);
  gp_mixture_add (mix, 180, 10, 12);
  p50 = gp_mixture_quantile (mix, 0.50);
  p95 = gp_mixture_quantile (mix, 0.95);
  g_assert_cmpfloat (p50, >=, 10);
  g_assert_cmpfloat (p50, <, 10.5);
  g_assert_cmpfloat (p95, <=, 12);
  g_assert_cmpfloat (p95, >, 11);

  /* a p95 below its p50 is taken as the p50 */
  g_array_set_size (mix, 0);
  gp_mixture_add (mix, 1, 6, 2);
  g_assert_cmpfloat_with_epsilon (gp_mixture_quantile (mix, 0.95), 6, 1e-6);
  g_array_unref (mix);
}

/* The octave counts are exact at every edge: values one below an edge,
 * at it and one above, and random values counted against the truth by
 * brute force. */
static void
test_octaves (void)
{
  GpHist *h = g_new0 (GpHist, 1);
  GArray *values = g_array_new (FALSE, FALSE, sizeof (guint64));
  GRand *rand = g_rand_new_with_seed (2026);
  GpOctaves o;
  guint i, j;

  gp_hist_clear (h);
  gp_hist_octaves (h, &o);
  g_assert_cmpuint (o.count, ==, 0);
  for (i = 0; i < GP_OCTAVE_N; i++) {
    guint64 edge = G_GUINT64_CONSTANT (1) << (GP_OCTAVE_FIRST + i);

    g_array_append_val (values, edge);
    edge--;
    g_array_append_val (values, edge);
    edge += 2;
    g_array_append_val (values, edge);
  }
  for (i = 0; i < 5000; i++) {
    /* log-uniform over 1 ns .. 4 s, past both ends */
    guint64 v = (guint64) exp (g_rand_double_range (rand, 0, log (4e9)));

    g_array_append_val (values, v);
  }
  for (i = 0; i < values->len; i++)
    gp_hist_add_value (h, g_array_index (values, guint64, i));
  gp_hist_octaves (h, &o);
  g_assert_cmpuint (o.count, ==, values->len);
  for (i = 0; i < GP_OCTAVE_N; i++) {
    guint64 edge = G_GUINT64_CONSTANT (1) << (GP_OCTAVE_FIRST + i);
    guint64 below = 0;

    for (j = 0; j < values->len; j++)
      below += g_array_index (values, guint64, j) < edge;
    g_assert_cmpuint (o.below[i], ==, below);
    g_assert_cmpfloat (GP_OCTAVE_EDGE_MS (i), ==, edge / 1e6);
  }
  g_rand_free (rand);
  g_array_unref (values);
  g_free (h);
}

/* The exact rank test against counts made by hand: of the 20 ways to
 * pick 3 of ranks 1..6, {4,5,6} and {3,5,6} reach a rank sum of 14 or
 * more; every b above every a of 5 and 5 is one arrangement of 252; all
 * tied is no evidence at all. */
static void
test_rank_test (void)
{
  const gdouble a1[] = { 1, 2, 4 }, b1[] = { 3, 5, 6 };
  const gdouble a2[] = { 1, 2, 3, 4, 5 }, b2[] = { 6, 7, 8, 9, 10 };
  const gdouble same[] = { 7, 7, 7 };
  /* ties across the sides: the four 2s share rank 3.5, so b's ranks are
   * 3.5, 3.5 and 6 (sum 13); of the 20 picks of 3 of 1, 3.5 x4, 6, the
   * 6 with the 6 and two 3.5s reach it */
  const gdouble a3[] = { 1, 2, 2 }, b3[] = { 2, 2, 3 };

  g_assert_cmpfloat_with_epsilon (gp_rank_test_greater (a1, 3, b1, 3),
      2.0 / 20, 1e-12);
  g_assert_cmpfloat_with_epsilon (gp_rank_test_greater (b1, 3, a1, 3),
      19.0 / 20, 1e-12);
  g_assert_cmpfloat_with_epsilon (gp_rank_test_greater (a2, 5, b2, 5),
      1.0 / 252, 1e-12);
  g_assert_cmpfloat_with_epsilon (gp_rank_test_min_p (5, 5), 1.0 / 252,
      1e-12);
  g_assert_cmpfloat_with_epsilon (gp_rank_test_greater (same, 3, same, 3),
      1.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (gp_rank_test_greater (a3, 3, b3, 3),
      6.0 / 20, 1e-12);
  g_assert_true (isnan (gp_rank_test_greater (a1, 0, b1, 3)));
  g_assert_true (isnan (gp_rank_test_greater (a1, 3, b1,
              GP_RANK_TEST_MAX + 1)));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/core/stats/uniform", test_uniform);
  g_test_add_func ("/core/stats/exponential", test_exponential);
  g_test_add_func ("/core/stats/constant", test_constant);
  g_test_add_func ("/core/stats/empty", test_empty);
  g_test_add_func ("/core/stats/pairs-and-merge", test_pairs_and_merge);
  g_test_add_func ("/core/stats/pairs-plain", test_pairs_plain);
  g_test_add_func ("/core/stats/clamped-to-max", test_clamped_to_max);
  g_test_add_func ("/core/stats/mixture", test_mixture);
  g_test_add_func ("/core/stats/octaves", test_octaves);
  g_test_add_func ("/core/stats/rank-test", test_rank_test);
  return g_test_run ();
}
