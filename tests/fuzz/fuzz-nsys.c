/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof fuzz target: `nsys stats` output in its csv, column and table
 * forms (src/deepstream, gp-nsys.c).
 *
 * libFuzzer feeds arbitrary bytes to gp_nsys_parse () with and without a
 * report name for a bare table, then adds every NVTX table's rows up again
 * by normalised name, with UID kept and folded. Seeded with
 * GP_FIXTURES/telemetry/nsys_stats_*.txt. Besides "no crash, no leak, no
 * undefined behaviour", it checks:
 * - a refusal is one line that starts with the name given for the input;
 * - every number a row holds is finite or missing (NAN), every row has a
 *   name and one cell per column;
 * - the rows added up keep the table's sums of time and instances, are no
 *   more than the rows they came from, and each one's average is its total
 *   over its count.
 *
 * Built and run by tests/fuzz/run-fuzz.sh (`make fuzz`).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "deepstream/gp-nsys.h"
#include "gp-fuzz-checks.h"

#define ORIGIN "fuzz.txt"

static void
check_number (const gchar * what, gdouble v)
{
  if (!isnan (v))
    gp_fuzz_check_number (what, v);
}

static void
check_row (const GpNsysTable * t, const GpNsysRow * r)
{
  if (r->name == NULL || r->cells == NULL
      || g_strv_length (r->cells) != t->n_columns)
    abort ();
  check_number ("share", r->share_pct);
  check_number ("total", r->total);
  check_number ("count", r->count);
  check_number ("avg", r->avg);
  check_number ("med", r->med);
  check_number ("min", r->min);
  check_number ("max", r->max);
  check_number ("stddev", r->stddev);
}

static void
sums (const GpNsysTable * t, gdouble * total, gdouble * count)
{
  guint i;

  *total = *count = 0;
  for (i = 0; i < t->rows->len; i++) {
    const GpNsysRow *r = g_ptr_array_index (t->rows, i);

    *total += isnan (r->total) ? 0 : r->total;
    *count += isnan (r->count) ? 0 : r->count;
  }
}

static gboolean
close_to (gdouble a, gdouble b)
{
  return fabs (a - b) <= 1e-9 * MAX (1.0, MAX (fabs (a), fabs (b)));
}

static void
check_aggregate (const GpNsysTable * t, GpNsysNorm norm)
{
  GpNsysTable *a = gp_nsys_nvtx_aggregate (t, norm);
  gdouble t0, c0, t1, c1;
  guint i;

  sums (t, &t0, &c0);
  sums (a, &t1, &c1);
  if (!isfinite (t1) || !isfinite (c1))
    abort ();
  if (isfinite (t0) && (!close_to (t0, t1) || !close_to (c0, c1))) {
    g_printerr ("sums not kept: %g/%g became %g/%g\n", t0, c0, t1, c1);
    abort ();
  }
  if (a->rows->len > t->rows->len)
    abort ();
  for (i = 0; i < a->rows->len; i++) {
    const GpNsysRow *r = g_ptr_array_index (a->rows, i);

    check_row (a, r);
    if (r->count > 0 && !close_to (r->avg, r->total / r->count))
      abort ();
  }
  gp_nsys_table_free (a);
}

static void
parse (const guint8 * data, size_t size, const gchar * hint)
{
  GError *err = NULL;
  GpNsysStats *s = gp_nsys_parse ((const gchar *) data, size, hint, ORIGIN,
      &err);
  guint i, j;

  if (s == NULL) {
    gp_fuzz_check_error (err, ORIGIN, FALSE);
    g_error_free (err);
    return;
  }
  if (s->tables->len == 0)
    abort ();
  for (i = 0; i < s->tables->len; i++) {
    const GpNsysTable *t = g_ptr_array_index (s->tables, i);

    if (t->report == NULL || (t->skipped != NULL && t->rows->len != 0))
      abort ();
    for (j = 0; j < t->n_columns; j++)
      if (gp_nsys_table_column (t, t->columns[j]) > (gint) j)
        abort ();
    for (j = 0; j < t->rows->len; j++)
      check_row (t, g_ptr_array_index (t->rows, j));
    if (g_str_has_prefix (t->report, "nvtx")) {
      check_aggregate (t, 0);
      check_aggregate (t, GP_NSYS_NORM_UID);
    }
  }
  gp_nsys_stats_free (s);
}

int LLVMFuzzerTestOneInput (const guint8 * data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 * data, size_t size)
{
  parse (data, size, NULL);
  parse (data, size, "nvtx_sum");
  return 0;
}
