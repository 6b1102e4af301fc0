/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof fuzz target: the GPU metrics of an nsys SQLite export
 * (src/deepstream, gp-nsys-sqlite.c and gp-nsys-metrics.c).
 *
 * The input is SQL: libFuzzer's mutations of the statements that build an
 * export (seeded with tests/deepstream/data/gpu-metrics.sql) make tables
 * with other columns, types and values than nsys writes: text and NULL
 * values, real times, names missing or repeated, ids that do not join.
 * It runs into an in-memory database up to its first statement that
 * fails, then gp_nsys_sqlite_read () reads the result. The database file's
 * own format is SQLite's to defend (and fuzzed by SQLite itself). Besides
 * "no crash, no leak, no undefined behaviour", it checks:
 * - a refusal is one line that starts with the name given;
 * - every summary's figures are numbers, in order (p50 <= p95 <= max,
 *   mean <= max), its samples more than none, and all of them add up to
 *   the samples kept; the metrics are sorted by GPU, then name, once each;
 * - the span and the rate are numbers, the rate above 0.
 *
 * Built and run by tests/fuzz/run-fuzz.sh (`make fuzz`).
 */
#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "deepstream/gp-nsys-sqlite.h"
#include "gp-fuzz-checks.h"

#define ORIGIN "fuzz.sqlite"
/* the progress handler's calls (each 1000 virtual machine steps) before a
 * statement is stopped: recursive queries may not run for ever */
#define STEPS 20000

static gint
progress (gpointer data)
{
  guint *left = data;

  return *left == 0 || --*left == 0;
}

/* no file is attached or written from a fuzz input */
static gint
authorise (gpointer data, gint action, const gchar * a, const gchar * b,
    const gchar * c, const gchar * d)
{
  return action == SQLITE_ATTACH || action == SQLITE_DETACH ?
      SQLITE_DENY : SQLITE_OK;
}

static void
check (const GpNsysMetrics * m)
{
  guint i, sum = 0;

  gp_fuzz_check_number ("span", m->span_s);
  if (m->span_s < 0 || (!isnan (m->rate_hz) && !(m->rate_hz > 0
              && isfinite (m->rate_hz))) || m->metrics->len == 0)
    abort ();
  for (i = 0; i < m->metrics->len; i++) {
    const GpNsysMetric *x = g_ptr_array_index (m->metrics, i);
    const GpSummary *v = &x->values;

    if (x->name == NULL || !g_utf8_validate (x->name, -1, NULL)
        || x->gpu > 255 || v->n == 0)
      abort ();
    gp_fuzz_check_number ("mean", v->mean);
    gp_fuzz_check_number ("p50", v->p50);
    gp_fuzz_check_number ("p95", v->p95);
    gp_fuzz_check_number ("max", v->max);
    if (v->p50 > v->p95 || v->p95 > v->max
        || v->mean > v->max + 1e-9 * fabs (v->max)) {
      g_printerr ("%s: mean %g p50 %g p95 %g max %g\n", x->name, v->mean,
          v->p50, v->p95, v->max);
      abort ();
    }
    if (i > 0) {
      const GpNsysMetric *p = g_ptr_array_index (m->metrics, i - 1);

      if (p->gpu > x->gpu || (p->gpu == x->gpu
              && strcmp (p->name, x->name) >= 0))
        abort ();
    }
    sum += v->n;
  }
  if (sum != m->n_samples)
    abort ();
}

int LLVMFuzzerTestOneInput (const guint8 * data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 * data, size_t size)
{
  gchar *sql = g_strndup ((const gchar *) data, size);
  GError *err = NULL;
  GpNsysMetrics *m;
  guint left = STEPS;
  sqlite3 *db;

  if (sqlite3_open (":memory:", &db) != SQLITE_OK)
    abort ();
  sqlite3_limit (db, SQLITE_LIMIT_LENGTH, 1 << 20);
  sqlite3_set_authorizer (db, authorise, NULL);
  sqlite3_progress_handler (db, 1000, progress, &left);
  sqlite3_exec (db, sql, NULL, NULL, NULL);
  left = STEPS;
  m = gp_nsys_sqlite_read (db, ORIGIN, &err);
  if (m == NULL) {
    gp_fuzz_check_error (err, ORIGIN, FALSE);
    g_error_free (err);
  } else {
    check (m);
    gp_nsys_metrics_free (m);
  }
  sqlite3_close (db);
  g_free (sql);
  return 0;
}
