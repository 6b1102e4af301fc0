/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof fuzz target: DeepStream applications' logs (src/deepstream,
 * gp-ds-perf.c: **PERF lines and latency lines).
 *
 * libFuzzer's bytes are one log given to gp_ds_perf_parse (). Seeded with
 * tests/fixtures/telemetry/deepstream_app_perf_*_log.txt and lines of
 * each latency form. Besides "no crash, no leak, no undefined behaviour",
 * it checks:
 * - a refusal is one line of printable ASCII in GP_DS_PERF_ERROR that
 *   starts with the origin;
 * - a result has a report or a latency line, every fps finite and >= 0
 *   (averages finite or NAN), every source's series of one length in its
 *   two arrays, every component's statistics finite and ordered (p50 <=
 *   p95 <= max, the mean within the values), and its table prints.
 *
 * Built and run by tests/fuzz/run-fuzz.sh (`make fuzz`).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "deepstream/gp-ds-perf.h"

static void
fuzz_ds_perf_die (const gchar * what, const gchar * detail)
{
  fprintf (stderr, "fuzz-ds-perf: %s: %s\n", what, detail);
  abort ();
}

static void
fuzz_ds_perf_check_error (const GError * error)
{
  if (error == NULL || error->domain != GP_DS_PERF_ERROR ||
      !g_str_has_prefix (error->message, "fuzz.log"))
    fuzz_ds_perf_die ("refusal without its error", error ? error->message :
        "(none)");
  for (const gchar * c = error->message; *c; c++)
    if (*c < 0x20 || *c > 0x7e)
      fuzz_ds_perf_die ("error not one line of printable ASCII",
          error->message);
}

static void
fuzz_ds_perf_check (const GpDsPerf * p)
{
  gchar *table;

  if (p->reports == 0 && p->latency->len == 0)
    fuzz_ds_perf_die ("a result of nothing", "");
  for (guint i = 0; i < p->sources->len; i++) {
    const GpDsPerfSource *s = g_ptr_array_index (p->sources, i);

    if (s->name == NULL || s->current->len == 0 ||
        s->current->len != s->average->len)
      fuzz_ds_perf_die ("bad source", s->name ? s->name : "(null)");
    for (guint k = 0; k < s->current->len; k++) {
      gdouble c = g_array_index (s->current, gdouble, k);
      gdouble a = g_array_index (s->average, gdouble, k);

      if (!isfinite (c) || c < 0 || isinf (a) || a < 0)
        fuzz_ds_perf_die ("fps not finite or negative", s->name);
    }
  }
  for (guint i = 0; i < p->latency->len; i++) {
    const GpDsPerfLatency *l = g_ptr_array_index (p->latency, i);
    gdouble lo = INFINITY;

    if (l->name == NULL || l->name[0] == '\0' || l->ms->len == 0)
      fuzz_ds_perf_die ("bad component", l->name ? l->name : "(null)");
    for (guint k = 0; k < l->ms->len; k++)
      lo = MIN (lo, g_array_index (l->ms, gdouble, k));
    if (!isfinite (l->mean) || !isfinite (l->max) || !(l->p50 <= l->p95) ||
        !(l->p95 <= l->max) || l->mean < lo - 1e-6 * fabs (lo) - 1e-9 ||
        l->mean > l->max + 1e-6 * fabs (l->max) + 1e-9)
      fuzz_ds_perf_die ("statistics out of order", l->name);
  }
  table = gp_ds_perf_table (p);
  if (table == NULL || table[0] == '\0')
    fuzz_ds_perf_die ("no table", "");
  g_free (table);
}

int
LLVMFuzzerTestOneInput (const guint8 * data, size_t size)
{
  GError *error = NULL;
  GpDsPerf *p = gp_ds_perf_parse ((const gchar *) data, size, "fuzz.log",
      &error);

  if (p == NULL)
    fuzz_ds_perf_check_error (error);
  else {
    if (error != NULL)
      fuzz_ds_perf_die ("a result with an error", error->message);
    fuzz_ds_perf_check (p);
    gp_ds_perf_free (p);
  }
  g_clear_error (&error);
  return 0;
}
