/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof tests: the CSV of gst-plugins-rs' queue-levels tracer (src/ingest,
 * gp-ingest-queuelevels.c).
 *
 * No gst-plugins-rs is installed here: the samples in
 * tests/ingest/queuelevels are written in the exact format the tracer's
 * source writes (its README says how, and what each holds). The truth is
 * the levels planted in them, worked out by hand in the README: a queue
 * that fills to its limit and stays there (92.5 % weighted by time), one
 * that stays near empty (1 ms of one buffer every 100 ms: 0.0333 %), a
 * multiqueue's two single queues (their buffer limit does not count), and
 * the log of tests/ingest/tracerlog beside a CSV of its queue0. Damaged
 * lines are counted and named, a file that is not the format is exit 3
 * through the binary.
 */
#include <math.h>
#include <string.h>

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <gst/gst.h>

#include "ingest/gp-ingest.h"
#include "gp-test-series.h"
#include "gp-test-util.h"

static gchar *gp_tmp;

static gchar *
sample_path (const gchar * dir, const gchar * name)
{
  return g_build_filename (g_getenv ("GP_SOURCE_ROOT"), "tests", "ingest",
      dir, name, NULL);
}

static gchar *
sample_text (const gchar * name, gsize * len)
{
  gchar *path = sample_path ("queuelevels", name), *text;

  g_assert_true (g_file_get_contents (path, &text, len, NULL));
  g_free (path);
  return text;
}

static GpSession *
load (const gchar * path)
{
  GError *err = NULL;
  GpSession *s = gp_ingest_load_any (path, &err);

  g_assert_no_error (err);
  g_assert_nonnull (s);
  gp_test_assert_series_declared (s);
  return s;
}

static GpSession *
load_text (const gchar * text, gsize len)
{
  GError *err = NULL;
  GpSession *s = gp_ingest_queuelevels_data (text, len, "t.csv", &err);

  g_assert_no_error (err);
  g_assert_nonnull (s);
  return s;
}

static GpQueueSummary *
queue (GpSession * s, const gchar * name)
{
  GpQueueSummary *q = gp_session_find_queue_summary (s, name);

  g_assert_nonnull (q);
  return q;
}

#define ASSERT_NEAR(a, b) g_assert_cmpfloat (fabs ((a) - (b)), <, 1e-9)

/* The level of one buffer in queue1: its 33333333 ns of 1 s, the tightest
 * of its limits (1000 of 10485760 bytes, 1 of 200 buffers). */
#define QUEUE1_ONE_PCT (100.0 * 33333333 / 1e9)

/* two-queues.csv, its planted truth (README.md). */
static void
check_two_queues (GpSession * s)
{
  GpQueueSummary *q;
  GpElement *e;
  gint64 v;

  g_assert_cmpuint (s->queue_summaries->len, ==, 4);
  q = queue (s, "qfull");
  ASSERT_NEAR (q->level_pct_mean, 92.5);
  ASSERT_NEAR (q->level_pct_max, 100.0);
  g_assert_cmpuint (q->level_buffers_max, ==, 4);
  /* what the file does not have */
  g_assert_cmpfloat (q->blocked_ms, <, 0);
  g_assert_cmpfloat (q->residence_ms.p50, <, 0);
  g_assert_cmpstr (q->leaky, ==, "unknown");
  g_assert_cmpuint (q->dropped, ==, 0);

  q = queue (s, "queue1");
  ASSERT_NEAR (q->level_pct_mean, QUEUE1_ONE_PCT * 20 / 2000);
  ASSERT_NEAR (q->level_pct_max, QUEUE1_ONE_PCT);
  g_assert_cmpuint (q->level_buffers_max, ==, 1);

  /* a multiqueue's fill: bytes and time only (5 of 5 buffers is not
   * full), its single queues apart */
  q = queue (s, "multiqueue0.sink_0");
  ASSERT_NEAR (q->level_pct_mean, 50.0);
  ASSERT_NEAR (q->level_pct_max, 50.0);
  g_assert_cmpuint (q->level_buffers_max, ==, 5);
  q = queue (s, "multiqueue0.sink_1");
  ASSERT_NEAR (q->level_pct_mean, 10.0);
  g_assert_cmpuint (q->level_buffers_max, ==, 10);

  /* the elements, their limits as properties */
  e = gp_session_find_element (s, "qfull");
  g_assert_nonnull (e);
  g_assert_cmpstr (e->kind, ==, "queue");
  g_assert_cmpstr (e->factory, ==, "");
  g_assert_true (gp_element_get_prop_int (e, "max-size-buffers", &v));
  g_assert_cmpint (v, ==, 4);
  g_assert_true (gp_element_get_prop_int (e, "max-size-time", &v));
  g_assert_cmpint (v, ==, 1000000000);
  e = gp_session_find_element (s, "multiqueue0");
  g_assert_nonnull (e);
  g_assert_cmpstr (e->factory, ==, "multiqueue");
  e = gp_session_find_element (s, "queue1");
  g_assert_nonnull (e);
  g_assert_cmpstr (e->factory, ==, "queue");
  g_assert_null (gp_session_find_element (s, "multiqueue0:0"));
}

static void
check_two_queues_series (GpSession * s)
{
  gdouble t0, t1, prev = -1;
  guint i;

  /* 250 ms windows from 1 s to the last row at 3 s */
  g_assert_cmpuint (gp_session_n_windows (s), ==, 9);
  for (i = 0; i < gp_session_n_windows (s); i++) {
    gp_session_window_span (s, i, &t0, &t1);
    if (prev >= 0)
      ASSERT_NEAR (t0, prev);
    g_assert_cmpfloat (t1, >, t0);
    prev = t1;
  }
  gp_session_window_span (s, 0, &t0, &t1);
  ASSERT_NEAR (t0, 1.0);
  ASSERT_NEAR (t1, 1.25);
  /* qfull: 25 % for 100 ms, 50 % for 100, 75 % for 50 */
  ASSERT_NEAR (gp_session_window_value (s, 0, GP_SERIES_QUEUES, "qfull",
          GP_SQ_LEVEL_PCT_MEAN), (25.0 * 100 + 50.0 * 100 + 75.0 * 50) / 250);
  ASSERT_NEAR (gp_session_window_value (s, 0, GP_SERIES_QUEUES, "qfull",
          GP_SQ_LEVEL_PCT_MAX), 75.0);
  /* 75 % for 50 ms, then full */
  ASSERT_NEAR (gp_session_window_value (s, 1, GP_SERIES_QUEUES, "qfull",
          GP_SQ_LEVEL_PCT_MEAN), (75.0 * 50 + 100.0 * 200) / 250);
  ASSERT_NEAR (gp_session_window_value (s, 1, GP_SERIES_QUEUES, "qfull",
          GP_SQ_LEVEL_PCT_MAX), 100.0);
  for (i = 2; i < 8; i++)
    ASSERT_NEAR (gp_session_window_value (s, i, GP_SERIES_QUEUES, "qfull",
            GP_SQ_LEVEL_PCT_MEAN), 100.0);
  /* queue1: one buffer for 1 ms in each 100 ms; the first window holds
   * three of them */
  ASSERT_NEAR (gp_session_window_value (s, 0, GP_SERIES_QUEUES, "queue1",
          GP_SQ_LEVEL_PCT_MEAN), QUEUE1_ONE_PCT * 3 / 250);
  ASSERT_NEAR (gp_session_window_value (s, 0, GP_SERIES_QUEUES,
          "multiqueue0.sink_0", GP_SQ_LEVEL_PCT_MEAN), 50.0);
  /* nothing the file does not say */
  g_assert_cmpfloat (gp_session_window_value (s, 0, GP_SERIES_QUEUES,
          "qfull", GP_SQ_DROPPED), <, 0);
}

static void
test_sample_truth (void)
{
  gchar *path = sample_path ("queuelevels", "two-queues.csv");
  GpSession *s, *again;
  GError *err = NULL;
  gchar *text;
  gsize len;

  g_assert_true (gp_ingest_queuelevels_sniff (path));
  s = load (path);
  g_assert_cmpstr (s->import_schema, ==, GP_INGEST_SCHEMA_QUEUELEVELS);
  g_assert_cmpstr (s->mode, ==, "analyze");
  g_assert_cmphex (s->import_missing, ==, GP_INGEST_QUEUELEVELS_MISSING);
  g_assert_false (s->import_missing & GP_IMPORT_MISSING_QUEUE_LEVELS);
  ASSERT_NEAR (s->duration_s, 3.0);
  g_assert_nonnull (strstr (s->import_detail, "4 queues (2 single queues of "
          "multiqueues) in 55 rows of 55 lines"));
  check_two_queues (s);
  check_two_queues_series (s);

  /* saved as a gstprof session and read back: the same */
  text = gp_session_to_data (s, FALSE, &len);
  again = gp_session_load_data (text, (gssize) len, "again.json", &err);
  g_assert_no_error (err);
  g_assert_cmpstr (again->import_schema, ==, GP_INGEST_SCHEMA_QUEUELEVELS);
  g_assert_cmphex (again->import_missing, ==, GP_INGEST_QUEUELEVELS_MISSING);
  check_two_queues (again);
  check_two_queues_series (again);
  gp_session_free (again);
  g_free (text);
  gp_session_free (s);
  g_free (path);
}

/* A header added by hand, names with commas, two queues of one name
 * (two pipelines), a queue without limits, newer versions' appsrc and
 * appsink. */
static void
test_newer (void)
{
  gchar *path = sample_path ("queuelevels", "newer.csv");
  GpSession *s = load (path);
  GpQueueSummary *q;

  g_assert_cmpuint (s->queue_summaries->len, ==, 3);
  q = queue (s, "cam, left");
  ASSERT_NEAR (q->level_pct_mean, 50.0);
  q = queue (s, "queue0");
  ASSERT_NEAR (q->level_pct_mean, 100.0);
  g_assert_cmpuint (q->level_buffers_max, ==, 2);
  /* the other queue0, told by its address; no limit: no level */
  q = queue (s, "queue0@0x7f3a5c00c410");
  g_assert_cmpfloat (q->level_pct_mean, <, 0);
  g_assert_cmpfloat (q->level_pct_max, <, 0);
  g_assert_cmpuint (q->level_buffers_max, ==, 7);
  g_assert_cmpstr (gp_session_find_element (s,
          "queue0@0x7f3a5c00c410")->factory, ==, "queue");
  /* app elements are not queues */
  g_assert_null (gp_session_find_queue_summary (s, "appsrc0"));
  g_assert_null (gp_session_find_element (s, "appsink0"));
  g_assert_nonnull (strstr (s->import_detail, "2 app elements (appsrc, "
          "appsink) left out"));
  g_assert_nonnull (strstr (s->import_detail, "in 10 rows of 11 lines"));
  g_assert_null (strstr (s->import_detail, "malformed"));
  gp_session_free (s);
  g_free (path);
}

static void
test_gzip (void)
{
  gchar *gz = g_build_filename (gp_tmp, "levels.csv.gz", NULL), *text;
  GConverter *z = G_CONVERTER (g_zlib_compressor_new
      (G_ZLIB_COMPRESSOR_FORMAT_GZIP, 9));
  gsize len, in_used, out_used;
  guint8 *out;
  GpSession *s;

  text = sample_text ("two-queues.csv", &len);
  out = g_malloc (len + 1024);
  g_assert_cmpint (g_converter_convert (z, text, len, out, len + 1024,
          G_CONVERTER_INPUT_AT_END, &in_used, &out_used, NULL), ==,
      G_CONVERTER_FINISHED);
  g_assert_true (g_file_set_contents (gz, (gchar *) out, out_used, NULL));
  g_assert_true (gp_ingest_queuelevels_sniff (gz));
  s = load (gz);
  g_assert_cmpstr (s->import_schema, ==, GP_INGEST_SCHEMA_QUEUELEVELS);
  check_two_queues (s);
  check_two_queues_series (s);
  gp_session_free (s);
  /* and in memory */
  s = load_text ((gchar *) out, out_used);
  check_two_queues (s);
  gp_session_free (s);
  g_unlink (gz);
  g_object_unref (z);
  g_free (out);
  g_free (text);
  g_free (gz);
}

/* Damaged lines among the sample's: counted and named by line, never
 * trusted; the numbers stay those of the clean rows. */
static void
test_malformed (void)
{
  gsize len, i;
  gchar *text = sample_text ("two-queues.csv", &len);
  gchar **lines = g_strsplit (text, "\n", -1);
  GString *bad = g_string_new (NULL);
  gchar *long_line = g_strnfill (100 * 1024, 'x');
  GpSession *s;

  for (i = 0; lines[i] != NULL && lines[i][0] != '\0'; i++) {
    if (i == 2)                 /* line 3 */
      g_string_append (bad, "1.5e9,qfull,0x5581a0c3e1d0,1,1,1,1,1,1\n");
    if (i == 8)                 /* line 10 */
      g_string_append (bad, "1200000000,qfull,5581a0c3e1d0,1,1,1,1,1,1\n");
    if (i == 12)                /* line 15 */
      g_string_append (bad, "1200000000,qfull,0x5581a0c3e1d0,1,1,1,1,1\n");
    if (i == 20) {              /* lines 24, 25, 26 */
      g_string_append (bad, "1200000000,qfull,0x5581a0c3e1d0,-1,1,1,1,1,1\n");
      g_string_append (bad, long_line);
      g_string_append (bad, "\n1200000000,,0x1,1,1,1,1,1,1\n");
    }
    g_string_append_printf (bad, "%s\n", lines[i]);
  }
  /* the program was killed while writing (newer versions' write-log) */
  g_string_append (bad, "3000000000,qfull,0x55");
  s = load_text (bad->str, bad->len);
  check_two_queues (s);
  check_two_queues_series (s);
  g_test_message ("%s", s->import_detail);
  g_assert_nonnull (strstr (s->import_detail, "5 malformed lines, not "
          "trusted: line 3 (a timestamp that is not a number of ns), line 10 "
          "(a queue pointer that is not 0x and hex digits), line 15 (not the "
          "queue-levels tracer's 9 comma-separated fields), and 2 more."));
  g_assert_nonnull (strstr (s->import_detail, "1 lines longer than 64 KiB "
          "skipped."));
  g_assert_nonnull (strstr (s->import_detail, "Its last line is cut "
          "short."));
  gp_session_free (s);
  g_string_free (bad, TRUE);
  g_strfreev (lines);
  g_free (long_line);
  g_free (text);
}

/* Rows are in the order of the levels, their stamps taken before the
 * tracer's lock: one stamped before the row ahead of it counts at that
 * row's time. */
static void
test_order (void)
{
  static const gchar rows[] =
      "0,q,0x10,0,0,10,0,0,10\n"
      "100,q,0x10,0,0,0,0,0,10\n"
      "99,q,0x10,0,0,5,0,0,10\n" "200,q,0x10,0,0,5,0,0,10\n";
  GpSession *s = load_text (rows, sizeof (rows) - 1);

  ASSERT_NEAR (queue (s, "q")->level_pct_mean, (100.0 * 100 + 50.0 * 100) /
      200);
  ASSERT_NEAR (queue (s, "q")->level_pct_max, 100.0);
  gp_session_free (s);
}

/* Three hours of a half-full queue, a row every 100 ms: the series stays
 * within its bound, its windows contiguous, the level exact. */
static void
test_long_bounded (void)
{
  GString *csv = g_string_new (NULL);
  guint64 i, n = 3 * 3600 * 10;
  gdouble t1 = -1;
  GpSession *s;
  guint w;

  for (i = 0; i <= n; i++)
    g_string_append_printf (csv, "%" G_GUINT64_FORMAT ",queue0,0x55d0c0a1b2c0"
        ",%u,0,%u,0,0,10\n", i * G_GUINT64_CONSTANT (100000000),
        i % 2 ? 4096u : 8192u, i % 2 ? 4u : 6u);
  s = load_text (csv->str, csv->len);
  g_assert_cmpuint (gp_session_n_windows (s), <=, 512);
  g_assert_cmpuint (gp_session_n_windows (s), >=, 256);
  for (w = 0; w < gp_session_n_windows (s); w++) {
    gdouble a, b;

    gp_session_window_span (s, w, &a, &b);
    if (t1 >= 0)
      ASSERT_NEAR (a, t1);
    t1 = b;
    /* every window holds as long at 40 % as at 60 % */
    if (w + 1 < gp_session_n_windows (s))
      g_assert_cmpfloat (fabs (gp_session_window_value (s, w,
                  GP_SERIES_QUEUES, "queue0", GP_SQ_LEVEL_PCT_MEAN) - 50.0), <,
          1e-6);
  }
  ASSERT_NEAR (queue (s, "queue0")->level_pct_mean, 50.0);
  ASSERT_NEAR (queue (s, "queue0")->level_pct_max, 60.0);
  gp_session_free (s);
  g_string_free (csv, TRUE);
}

static void
assert_one_line (const gchar * err, const gchar * needle)
{
  const gchar *nl;

  g_assert_nonnull (err);
  if (strstr (err, needle) == NULL)
    g_test_message ("stderr: %s", err);
  g_assert_nonnull (strstr (err, needle));
  nl = strchr (err, '\n');
  g_assert_true (nl == NULL || nl[1] == '\0');
}

static gchar *
tmp_file (const gchar * name, const gchar * text)
{
  gchar *path = g_build_filename (gp_tmp, name, NULL);

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  return path;
}

static void
test_not_the_format (void)
{
  gchar *empty = tmp_file ("empty.csv", "");
  gchar *header = tmp_file ("header.csv", "timestamp,queue name,queue "
      "pointer,cur-level-bytes,cur-level-time,cur-level-buffers,"
      "max-size-bytes,max-size-time,max-size-buffers\n");
  gchar *other = tmp_file ("other.csv", "a,b,c\n1,2,3\n");
  GError *err = NULL;
  GpTestRun r;

  g_assert_false (gp_ingest_queuelevels_sniff (other));
  g_assert_false (gp_ingest_queuelevels_sniff (empty));
  g_assert_true (gp_ingest_queuelevels_sniff (header));

  g_assert_null (gp_ingest_queuelevels_data ("a,b,c\n", 6, "x.csv", &err));
  g_assert_error (err, GP_SESSION_ERROR, GP_SESSION_ERROR_SCHEMA);
  assert_one_line (err->message, "x.csv: not a session, a GStreamer tracer "
      "log or a queue-levels CSV: no row of the queue-levels tracer's CSV");
  g_clear_error (&err);
  g_assert_null (gp_ingest_queuelevels_data ("\0\1\2", 3, "x.bin", &err));
  assert_one_line (err->message, "x.bin: not a session, a GStreamer tracer "
      "log or a queue-levels CSV: it holds binary data");
  g_clear_error (&err);

  gp_test_run_gstprof (&r, gp_tmp, "analyze", header, NULL);
  g_assert_cmpint (r.code, ==, 3);
  assert_one_line (r.err, "header.csv: a queue-levels CSV without a row");
  g_assert_cmpstr (r.out, ==, "");
  gp_test_run_clear (&r);
  gp_test_run_gstprof (&r, gp_tmp, "analyze", empty, NULL);
  g_assert_cmpint (r.code, ==, 3);
  assert_one_line (r.err, "empty.csv: ");
  gp_test_run_clear (&r);
  gp_test_run_gstprof (&r, gp_tmp, "analyze", other, NULL);
  g_assert_cmpint (r.code, ==, 3);
  assert_one_line (r.err, "other.csv: not a GStreamer tracer log");
  gp_test_run_clear (&r);

  g_unlink (empty);
  g_unlink (header);
  g_unlink (other);
  g_free (empty);
  g_free (header);
  g_free (other);
}

/* Through the binary: the verdict's Queues table from the file alone, and
 * no queue rule fed what the file does not have (QFULL's full state needs
 * the upstream's blocking). */
static void
test_cli (void)
{
  gchar *path = sample_path ("queuelevels", "two-queues.csv");
  GpTestRun r;

  gp_test_run_gstprof (&r, gp_tmp, "analyze", path, NULL);
  gp_test_message_text (r.out);
  g_assert_cmpint (r.code, ==, 0);
  g_assert_nonnull (strstr (r.out, "imported from queue-levels; not in "
          "it:"));
  g_assert_nonnull (strstr (r.out, "queue drops, leakiness"));
  g_assert_nonnull (strstr (r.out, "  qfull                        -       "
          "  -       92% / 100%         -          -\n"));
  g_assert_nonnull (strstr (r.out, "  multiqueue0.sink_0           -       "
          "  -        50% / 50%         -          -\n"));
  g_assert_null (strstr (r.out, "QFULL:"));
  g_assert_null (strstr (r.out, "QLEAK:"));
  g_assert_nonnull (strstr (r.out, "Findings: none"));
  gp_test_run_clear (&r);
  g_free (path);
}

/* A tracer log and the CSV of its queue0: one session, the log's windows,
 * the log's residence beside the CSV's levels. */
static void
check_merged (GpSession * s, GpSession * log_alone)
{
  GpQueueSummary *q = queue (s, "queue0"), *lq = queue (log_alone, "queue0");
  guint i, with_level = 0, n_inside = 0;

  g_assert_cmpstr (s->import_schema, ==,
      GP_INGEST_SCHEMA_TRACERLOG_QUEUELEVELS);
  g_assert_false (s->import_missing & GP_IMPORT_MISSING_QUEUE_LEVELS);
  g_assert_true (s->import_missing & GP_IMPORT_MISSING_QUEUE_FLOW);
  g_assert_cmphex (s->import_missing & ~GP_IMPORT_MISSING_QUEUE_FLOW, ==,
      log_alone->import_missing & ~GP_IMPORT_MISSING_QUEUE_LEVELS);
  /* 4608 bytes of 33.3 ms for 10 ms in every 40, from 0.2 s to 2.2 s */
  ASSERT_NEAR (q->level_pct_mean, QUEUE1_ONE_PCT * 10 / 40);
  ASSERT_NEAR (q->level_pct_max, QUEUE1_ONE_PCT);
  g_assert_cmpuint (q->level_buffers_max, ==, 1);
  ASSERT_NEAR (q->residence_ms.p50, lq->residence_ms.p50);
  g_assert_cmpfloat (q->residence_ms.p50, >, 9.0);
  g_assert_cmpfloat (q->blocked_ms, <, 0);
  /* the log's own numbers stay */
  ASSERT_NEAR (gp_session_find_elem_summary (s, "identity0")->self_total_ms,
      gp_session_find_elem_summary (log_alone, "identity0")->self_total_ms);
  g_assert_cmpuint (s->elements->len, ==, log_alone->elements->len);
  g_assert_cmpstr (gp_session_find_element (s, "queue0")->factory, ==,
      "queue");
  g_assert_cmpuint (gp_session_n_windows (s), ==,
      gp_session_n_windows (log_alone));
  for (i = 0; i < gp_session_n_windows (s); i++) {
    gdouble a, b;

    gp_session_window_span (s, i, &a, &b);
    if (gp_session_window_value (s, i, GP_SERIES_QUEUES, "queue0",
            GP_SQ_LEVEL_PCT_MAX) >= 0) {
      with_level++;
      g_assert_cmpfloat (b, >, 0.2);
      g_assert_cmpfloat (a, <=, 2.2);
    }
    /* a window inside the CSV's span: at one buffer where it overlaps
     * [0.2 + 0.04 k, 0.21 + 0.04 k) */
    if (a >= 0.2 && b <= 2.2) {
      gdouble held = 0;
      guint k;

      for (k = 0; k < 50; k++)
        held += MAX (0.0, MIN (b, 0.21 + 0.04 * k) - MAX (a, 0.2 + 0.04 * k));
      g_assert_cmpfloat (fabs (gp_session_window_value (s, i,
                  GP_SERIES_QUEUES, "queue0", GP_SQ_LEVEL_PCT_MEAN) -
              QUEUE1_ONE_PCT * held / (b - a)), <, 1e-6);
      n_inside++;
    }
  }
  g_assert_cmpuint (with_level, >=, 7);
  g_assert_cmpuint (n_inside, >=, 6);
  g_assert_nonnull (strstr (s->import_detail, "Tracers in the log:"));
  g_assert_nonnull (strstr (s->import_detail, "beside-gst122-all.csv): 1 "
          "queue in 101 rows"));
  g_assert_null (strstr (s->import_detail, "outside the log's windows"));
  g_assert_null (strstr (s->import_detail, "not in the log"));
}

static void
test_merge (void)
{
  gchar *log = sample_path ("tracerlog", "gst122-all.log.gz");
  gchar *csv = sample_path ("queuelevels", "beside-gst122-all.csv");
  gchar *other = sample_path ("queuelevels", "two-queues.csv");
  GpSession *alone = load (log), *s;
  GError *err = NULL;
  GpTestRun r;

  s = gp_ingest_load_pair (log, csv, &err);
  g_assert_no_error (err);
  check_merged (s, alone);
  gp_session_free (s);
  /* either order */
  s = gp_ingest_load_pair (csv, log, &err);
  g_assert_no_error (err);
  check_merged (s, alone);
  gp_session_free (s);

  /* another run's CSV: its queues are not the log's, its times outside */
  s = gp_ingest_load_pair (log, other, &err);
  g_assert_no_error (err);
  g_assert_nonnull (strstr (s->import_detail, "4 of its queues not in the "
          "log."));
  g_assert_nonnull (strstr (s->import_detail, "outside the log's windows "
          "(not the same run?)"));
  gp_session_free (s);

  gp_test_run_gstprof (&r, gp_tmp, "analyze", log, csv, NULL);
  g_assert_cmpint (r.code, <=, 1);
  g_assert_nonnull (strstr (r.out, "imported from gst-tracer-log+"
          "queue-levels"));
  g_assert_nonnull (strstr (r.out, "  queue0                    9.69      "
          "9.95      0.8% / 3.3%         -          -\n"));
  gp_test_run_clear (&r);

  /* pairs that are not a log and a CSV */
  gp_test_run_gstprof (&r, gp_tmp, "analyze", csv, other, NULL);
  g_assert_cmpint (r.code, ==, 3);
  assert_one_line (r.err, "two-queues.csv: a second queue-levels CSV");
  gp_test_run_clear (&r);
  gp_test_run_gstprof (&r, gp_tmp, "analyze", log, log, NULL);
  g_assert_cmpint (r.code, ==, 3);
  assert_one_line (r.err, "gst122-all.log.gz: not a queue-levels CSV");
  gp_test_run_clear (&r);
  gp_test_run_gstprof (&r, gp_tmp, "analyze", log, csv, other, NULL);
  g_assert_cmpint (r.code, ==, 3);
  assert_one_line (r.err, "two-queues.csv' is extra");
  gp_test_run_clear (&r);
  /* a second file that is not there: the OS's reason, not the format's,
   * in either place */
  gp_test_run_gstprof (&r, gp_tmp, "analyze", log, "/nonexistent/q.csv",
      NULL);
  g_assert_cmpint (r.code, ==, 3);
  assert_one_line (r.err, "/nonexistent/q.csv: No such file or directory");
  gp_test_run_clear (&r);
  gp_test_run_gstprof (&r, gp_tmp, "analyze", "/nonexistent/t.log", csv,
      NULL);
  g_assert_cmpint (r.code, ==, 3);
  assert_one_line (r.err, "/nonexistent/t.log: No such file or directory");
  gp_test_run_clear (&r);

  gp_session_free (alone);
  g_free (log);
  g_free (csv);
  g_free (other);
}

int
main (int argc, char **argv)
{
  gint ret;

  gst_init (&argc, &argv);
  g_test_init (&argc, &argv, NULL);
  gp_tmp = g_dir_make_tmp ("gp-queuelevels-XXXXXX", NULL);
  g_test_add_func ("/ingest/queuelevels/sample-truth", test_sample_truth);
  g_test_add_func ("/ingest/queuelevels/newer", test_newer);
  g_test_add_func ("/ingest/queuelevels/gzip", test_gzip);
  g_test_add_func ("/ingest/queuelevels/malformed", test_malformed);
  g_test_add_func ("/ingest/queuelevels/order", test_order);
  g_test_add_func ("/ingest/queuelevels/long-bounded", test_long_bounded);
  g_test_add_func ("/ingest/queuelevels/not-the-format",
      test_not_the_format);
  g_test_add_func ("/ingest/queuelevels/cli", test_cli);
  g_test_add_func ("/ingest/queuelevels/merge", test_merge);
  ret = g_test_run ();
  g_rmdir (gp_tmp);
  g_free (gp_tmp);
  return ret;
}
