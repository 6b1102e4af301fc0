/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof fuzz target: the queue-levels tracer's CSV (src/ingest,
 * gp-ingest-queuelevels.c).
 *
 * libFuzzer feeds arbitrary bytes to gp_ingest_queuelevels_data () (line
 * splitting, the row parser, queues by name and address, the windows and
 * their halving, gzip when the bytes start with its magic, the session
 * built at the end), and to gp_ingest_queuelevels_merge_data () into a
 * session that already has windows and a queue, as `analyze LOG CSV` does.
 * Seeded with tests/ingest/queuelevels. Besides "no crash, no leak, no
 * undefined behaviour", it checks:
 * - a refusal is one line in GP_SESSION_ERROR that starts with the name
 *   given for the input, and a refused merge leaves the session as it was;
 * - every level is finite, the mean never above the max, the series
 *   within its bound;
 * - it saves as a gstprof session that loads again.
 *
 * Built and run by tests/fuzz/run-fuzz.sh (`make fuzz`).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/gp-ingest.h"
#include "gp-fuzz-checks.h"

#define ORIGIN "fuzz.csv"

static void
check_session (GpSession * s)
{
  GError *err = NULL;
  GpSession *again;
  gchar *text;
  gsize len;
  guint i;

  if (s->import_detail == NULL || gp_session_n_windows (s) > 512 ||
      !isfinite (s->duration_s))
    abort ();
  for (i = 0; i < s->queue_summaries->len; i++) {
    GpQueueSummary *q = g_ptr_array_index (s->queue_summaries, i);

    if (!isfinite (q->level_pct_mean) || !isfinite (q->level_pct_max) ||
        q->level_pct_mean > q->level_pct_max + 1e-6 * (1 + q->level_pct_max)
        || (q->level_pct_max >= 0 && q->level_pct_mean < 0)) {
      g_printerr ("%s: level %g / %g\n", q->name, q->level_pct_mean,
          q->level_pct_max);
      abort ();
    }
  }
  for (i = 0; i < gp_session_n_windows (s); i++) {
    gdouble t0, t1;

    gp_session_window_span (s, i, &t0, &t1);
    if (!isfinite (t0) || !isfinite (t1) || t1 < t0)
      abort ();
  }
  text = gp_session_to_data (s, FALSE, &len);
  again = gp_session_load_data (text, (gssize) len, ORIGIN, &err);
  if (again == NULL) {
    g_printerr ("imported CSV, once saved, does not load: %s\n",
        err->message);
    abort ();
  }
  g_free (text);
  gp_session_free (again);
}

/* A tracer log's session as small as can be: two windows and queue0. */
static GpSession *
make_log_session (void)
{
  static const gchar log[] =
      "element-latency, element-id=(string)0x1, element=(string)queue0, "
      "src=(string)src, time=(guint64)5000000, ts=(guint64)100000000;\n"
      "element-latency, element-id=(string)0x1, element=(string)queue0, "
      "src=(string)src, time=(guint64)5000000, ts=(guint64)400000000;\n";
  GpSession *s = gp_ingest_tracerlog_data (log, sizeof (log) - 1, "log",
      NULL);

  if (s == NULL)
    abort ();
  return s;
}

int LLVMFuzzerTestOneInput (const guint8 * data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 * data, size_t size)
{
  GError *err = NULL;
  GpSession *s;
  gchar *before, *after;

  s = gp_ingest_queuelevels_data ((const gchar *) data, size, ORIGIN, &err);
  if (s == NULL) {
    gp_fuzz_check_error (err, ORIGIN, TRUE);
    g_clear_error (&err);
  } else {
    if (g_strcmp0 (s->import_schema, GP_INGEST_SCHEMA_QUEUELEVELS) != 0)
      abort ();
    check_session (s);
    gp_session_free (s);
  }

  s = make_log_session ();
  before = gp_session_to_data (s, FALSE, NULL);
  if (!gp_ingest_queuelevels_merge_data (s, (const gchar *) data, size,
          ORIGIN, &err)) {
    gp_fuzz_check_error (err, ORIGIN, TRUE);
    g_clear_error (&err);
    after = gp_session_to_data (s, FALSE, NULL);
    if (strcmp (before, after) != 0) {
      g_printerr ("a refused merge changed the session\n");
      abort ();
    }
    g_free (after);
  } else {
    if (g_strcmp0 (s->import_schema,
            GP_INGEST_SCHEMA_TRACERLOG_QUEUELEVELS) != 0)
      abort ();
    check_session (s);
  }
  g_free (before);
  gp_session_free (s);
  return 0;
}
