/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * test-aggregate.c: the aggregator on hand-built tracer records (the
 * "gstprof-window" / "gstprof-graph" formats of docs/records.md), where
 * every expected number is known exactly: histogram merging, rates over the
 * PLAYING time, shares, target rates from caps, thread CPU, events, and the
 * bounded series.
 */
#include <gst/gst.h>
#include <math.h>
#include <string.h>

#include "capture/gp-aggregate.h"
#include "core/gp-histogram.h"
#include "core/gp-session.h"

#define MS (G_GUINT64_CONSTANT (1000000))
#define T0 (G_GUINT64_CONSTANT (5000000000))    /* session t = 0 */
#define WIN (250 * MS)

/* ------------------------------------------------------------------ */
/* record builders                                                     */

static void
append_struct (GstStructure * s, const gchar * field, GstStructure * item)
{
  const GValue *old = gst_structure_get_value (s, field);
  GValue list = G_VALUE_INIT, v = G_VALUE_INIT;

  if (old != NULL) {
    g_value_init (&list, G_VALUE_TYPE (old));
    g_value_copy (old, &list);
  } else {
    g_value_init (&list, GST_TYPE_LIST);
  }
  g_value_init (&v, GST_TYPE_STRUCTURE);
  gst_value_set_structure (&v, item);
  gst_structure_free (item);
  gst_value_list_append_and_take_value (&list, &v);
  gst_structure_take_value (s, field, &list);
}

/* A sparse histogram field: @n (value_ns, count) pairs. */
static void
set_hist (GstStructure * s, const gchar * field, guint n, ...)
{
  GValue arr = G_VALUE_INIT;
  va_list ap;
  guint i;

  g_value_init (&arr, GST_TYPE_ARRAY);
  va_start (ap, n);
  for (i = 0; i < n; i++) {
    guint64 value = va_arg (ap, guint64);
    guint64 count = va_arg (ap, guint64);
    GValue v = G_VALUE_INIT;

    g_value_init (&v, G_TYPE_UINT64);
    g_value_set_uint64 (&v, gp_hist_bucket (value));
    gst_value_array_append_and_take_value (&arr, &v);
    g_value_init (&v, G_TYPE_UINT64);
    g_value_set_uint64 (&v, count);
    gst_value_array_append_and_take_value (&arr, &v);
  }
  va_end (ap);
  gst_structure_take_value (s, field, &arr);
}

static GstStructure *
window_new (guint64 index, guint64 start, guint64 end)
{
  return gst_structure_new ("gstprof-window", "index", G_TYPE_UINT64, index,
      "start", G_TYPE_UINT64, start, "end", G_TYPE_UINT64, end, NULL);
}

/* @buffers samples of @each_ns self time each. */
static void
add_element (GstStructure * w, const gchar * name, const gchar * kind,
    guint64 buffers, guint64 each_ns)
{
  GstStructure *e = gst_structure_new ("element", "name", G_TYPE_STRING, name,
      "factory", G_TYPE_STRING, "identity", "kind", G_TYPE_STRING, kind,
      "buffers", G_TYPE_UINT64, buffers,
      "self_ns", G_TYPE_UINT64, buffers * each_ns,
      "self_max_ns", G_TYPE_UINT64, buffers ? each_ns : 0,
      "event_ns", G_TYPE_UINT64, (guint64) 0, NULL);

  if (buffers > 0)
    set_hist (e, "self_hist", 1, each_ns, buffers);
  else
    set_hist (e, "self_hist", 0);
  append_struct (w, "elements", e);
}

static void
add_link (GstStructure * w, const gchar * src, const gchar * sink,
    guint64 buffers, guint64 bytes, const gchar * caps)
{
  GstStructure *l = gst_structure_new ("link", "src", G_TYPE_STRING, src,
      "sink", G_TYPE_STRING, sink, "buffers", G_TYPE_UINT64, buffers,
      "bytes", G_TYPE_UINT64, bytes, "memory", G_TYPE_STRING, "system", NULL);

  if (caps)
    gst_structure_set (l, "caps", G_TYPE_STRING, caps, NULL);
  append_struct (w, "links", l);
}

static void
add_thread (GstStructure * w, guint64 tid, const gchar * name, guint64 cpu,
    const gchar * elements)
{
  append_struct (w, "threads", gst_structure_new ("thread",
          "tid", G_TYPE_UINT64, tid, "name", G_TYPE_STRING, name,
          "cpu_ns", G_TYPE_UINT64, cpu, "elements", G_TYPE_STRING, elements,
          NULL));
}

static void
add_event (GstStructure * w, guint64 ts, const gchar * type,
    const gchar * source, const gchar * text)
{
  append_struct (w, "events", gst_structure_new ("event",
          "ts", G_TYPE_UINT64, ts, "type", G_TYPE_STRING, type,
          "source", G_TYPE_STRING, source, "text", G_TYPE_STRING, text, NULL));
}

static void
add_latency (GstStructure * w, const gchar * source, const gchar * element,
    gboolean sink, guint64 value_ns, guint64 matched, guint64 unmatched)
{
  GstStructure *l = gst_structure_new ("latency",
      "source", G_TYPE_STRING, source, "element", G_TYPE_STRING, element,
      "sink", G_TYPE_BOOLEAN, sink, "max_ns", G_TYPE_UINT64, value_ns,
      "matched", G_TYPE_UINT64, matched,
      "unmatched", G_TYPE_UINT64, unmatched, NULL);

  set_hist (l, "hist", 1, value_ns, matched);
  append_struct (w, "latency", l);
}

static void
add_queue (GstStructure * w, const gchar * name, gdouble pct_mean,
    gdouble pct_max, guint64 dropped, guint64 residence_ns, guint64 n)
{
  GstStructure *q = gst_structure_new ("queue", "name", G_TYPE_STRING, name,
      "factory", G_TYPE_STRING, "queue",
      "residence_max_ns", G_TYPE_UINT64, residence_ns,
      "level_buffers_mean", G_TYPE_DOUBLE, 1.0,
      "level_buffers_max", G_TYPE_UINT64, (guint64) 3,
      "level_bytes_max", G_TYPE_UINT64, (guint64) 0,
      "level_time_max_ns", G_TYPE_UINT64, (guint64) 0,
      "level_pct_mean", G_TYPE_DOUBLE, pct_mean,
      "level_pct_max", G_TYPE_DOUBLE, pct_max,
      "max_buffers", G_TYPE_UINT, 200, "max_bytes", G_TYPE_UINT, 10485760,
      "max_time_ns", G_TYPE_UINT64, 1000 * MS,
      "leaky", G_TYPE_STRING, "downstream",
      "dropped", G_TYPE_UINT64, dropped,
      "blocked_ns", G_TYPE_UINT64, 2 * MS, NULL);

  set_hist (q, "residence_hist", 1, residence_ns, n);
  append_struct (w, "queues", q);
}

static void
feed (GpAggregator * agg, GstStructure * w)
{
  gp_aggregator_add_window (agg, w);
  gst_structure_free (w);
}

static void
assert_near (gdouble value, gdouble expected, gdouble tolerance)
{
  if (fabs (value - expected) > tolerance)
    g_error ("%.6f is not %.6f +- %.6f", value, expected, tolerance);
}



/* ------------------------------------------------------------------ */
/* tests                                                               */

/* Two windows of one element merge into one histogram: 90 samples of 1 ms
 * and 10 of 10 ms give p50 = 1 ms and p95 = max = 10 ms; shares leave the
 * queue out; busy is over the PLAYING time (2 windows = 0.5 s). */
static void
test_hist_merge (void)
{
  GpSession *s = gp_session_new ();
  GpAggregator *agg = gp_aggregator_new (s, T0);
  GpElementSummary *work, *other, *q;
  GstStructure *w;

  w = window_new (0, T0, T0 + WIN);
  add_element (w, "work", "filter", 90, 1 * MS);
  add_element (w, "other", "filter", 50, 900000);
  add_element (w, "q0", "queue", 50, 50000);
  add_link (w, "src.src", "work.sink", 100, 1000, NULL);
  feed (agg, w);
  w = window_new (1, T0 + WIN, T0 + 2 * WIN);
  add_element (w, "work", "filter", 10, 10 * MS);
  add_element (w, "other", "filter", 50, 900000);
  add_element (w, "q0", "queue", 50, 50000);
  add_link (w, "src.src", "work.sink", 100, 1000, NULL);
  feed (agg, w);
  gp_aggregator_finish (agg);

  g_assert_cmpuint (s->elem_summaries->len, ==, 3);
  work = g_ptr_array_index (s->elem_summaries, 0);
  other = g_ptr_array_index (s->elem_summaries, 1);
  q = g_ptr_array_index (s->elem_summaries, 2);
  /* ranked by self time */
  g_assert_cmpstr (work->name, ==, "work");
  g_assert_cmpstr (other->name, ==, "other");
  g_assert_cmpstr (q->name, ==, "q0");

  g_assert_cmpuint (work->buffers, ==, 100);
  assert_near (work->self_total_ms, 190.0, 1e-9);
  /* a bucket is at most 6.25 % wide: the interpolated quantile is within
   * its width of the truth */
  assert_near (work->self_ms.p50, 1.0, 0.035);
  assert_near (work->self_ms.p95, 10.0, 0.5);
  g_assert_cmpfloat (work->self_ms.p95, <=, 10.0);
  assert_near (work->self_ms.max, 10.0, 1e-9);
  assert_near (other->self_total_ms, 90.0, 1e-9);
  assert_near (other->self_ms.p50, 0.9, 0.03);

  /* shares of the non-queue work: 190 / 280 and 90 / 280 */
  assert_near (work->share_pct, 100.0 * 190 / 280, 1e-6);
  assert_near (other->share_pct, 100.0 * 90 / 280, 1e-6);
  assert_near (q->share_pct, 0.0, 1e-9);
  /* busy: 190 ms in 500 ms */
  assert_near (work->busy_pct, 38.0, 1e-6);
  g_assert_cmpfloat (work->cpu_ms, <, 0);

  gp_aggregator_free (agg);
  gp_session_free (s);
}

/* Rates exclude the partial windows where data starts and stops: 10
 * windows, 3 buffers in the first, 2 in the last, 8 or 7 in between. */
static void
test_rates (void)
{
  GpSession *s = gp_session_new ();
  GpAggregator *agg = gp_aggregator_new (s, T0);
  /* a start-up (3, then a slow 4), the steady state, a last partial window */
  const guint64 counts[10] = { 3, 4, 8, 7, 8, 8, 7, 8, 8, 2 };
  guint64 steady = 0, total = 0;
  GpLinkSummary *ls, *ls2;
  GpSinkSummary *ss;
  guint i;

  /* an idle window before data: not part of the PLAYING time */
  feed (agg, window_new (0, T0, T0 + WIN));
  for (i = 0; i < 10; i++) {
    guint64 start = T0 + (i + 1) * WIN;
    GstStructure *w = window_new (i + 1, start, start + WIN);

    add_element (w, "src", "source", counts[i], 10000);
    add_element (w, "sink", "sink", counts[i], 10000);
    add_link (w, "src.src", "sink.sink", counts[i], counts[i] * 1000,
        "video/x-raw, framerate=(fraction)30/1");
    /* a second branch that flows only in windows 0..5 */
    add_link (w, "src.src_1", "other.sink", i <= 5 ? 8 : 0, i <= 5 ? 800 : 0,
        NULL);
    feed (agg, w);
    total += counts[i];
    /* the first second of data (windows 0..3) is start-up */
    if (i >= 4 && i < 9)
      steady += counts[i];
  }
  /* and idle windows after EOS */
  feed (agg, window_new (11, T0 + 11 * WIN, T0 + 12 * WIN));
  gp_aggregator_finish (agg);

  ls = gp_session_find_link_summary (s, "src.src->sink.sink");
  g_assert_nonnull (ls);
  g_assert_cmpuint (ls->buffers, ==, total);
  /* after the start-up, before the last window: 5 windows = 1.25 s */
  assert_near (ls->fps, steady / 1.25, 1e-9);
  assert_near (ls->bytes_per_s, steady * 1000 / 1.25, 1e-6);

  ls2 = gp_session_find_link_summary (s, "src.src_1->other.sink");
  g_assert_nonnull (ls2);
  /* its own steady state: it flowed in windows 0..5, too short to leave
   * out a second of start-up, so its inner windows 1..4 (32 buffers in
   * 1.0 s); that it stopped is a stall's business, not its rate's */
  assert_near (ls2->fps, 32.0, 1e-9);
  assert_near (ls2->first_s, 0.25, 1e-9);

  ss = gp_session_find_sink (s, "sink");
  g_assert_nonnull (ss);
  assert_near (ss->fps, ls->fps, 1e-9);
  g_assert_cmpuint (ss->buffers, ==, total);
  assert_near (ss->target_fps, 30.0, 1e-9);

  /* busy over the whole PLAYING time: 10 windows = 2.5 s */
  {
    GpElementSummary *es = gp_session_find_elem_summary (s, "src");

    g_assert_nonnull (es);
    assert_near (es->busy_pct, 100.0 * (total * 0.01) / 2500.0, 1e-9);
  }

  gp_aggregator_free (agg);
  gp_session_free (s);
}

/* A short run's rate leaves out what came before the pipeline played, not
 * its first window only: a sink prerolls one buffer; the pipeline is
 * PAUSED once another sink prerolled and PLAYING just after, both in the
 * next window, which gets 2 more; then 11 a window.  The run is too short
 * to leave out a second of start-up.  (playbin's audio sink, its decoder
 * slowed by ASan, read 0.85x real time where the test's own probe
 * counted 1.00x: those records' events, in this order.) */
static void
test_rates_preroll (void)
{
  GpSession *s = gp_session_new ();
  GpAggregator *agg = gp_aggregator_new (s, T0);
  const guint64 counts[6] = { 1, 2, 11, 11, 11, 5 };
  GstStructure *w = window_new (0, T0, T0 + WIN);
  GpLinkSummary *ls;
  guint i;

  add_event (w, T0 + WIN / 2, "state", "pipe", "NULL->READY");
  feed (agg, w);
  for (i = 0; i < 6; i++) {
    guint64 start = T0 + (i + 1) * WIN;

    w = window_new (i + 1, start, start + WIN);
    add_link (w, "src.src", "sink.sink", counts[i], counts[i] * 100, NULL);
    if (i == 1) {
      add_event (w, start + WIN - 2 * MS, "state", "pipe", "READY->PAUSED");
      add_event (w, start + WIN - MS, "state", "pipe", "PAUSED->PLAYING");
    }
    feed (agg, w);
  }
  gp_aggregator_finish (agg);
  ls = gp_session_find_link_summary (s, "src.src->sink.sink");
  g_assert_nonnull (ls);
  /* windows 3..5 (33 buffers) over their 0.75 s; the old span from the
   * first window's end took in the 2 of the preroll wait: 35 a second */
  assert_near (ls->fps, 44.0, 1e-9);
  gp_aggregator_free (agg);
  gp_session_free (s);
}

/* 10000 windows: the series stays bounded, covers the whole run without
 * gaps, and its merged entries keep the counts (rates * span) exact. */
static void
test_series_bounded (void)
{
  GpSession *s = gp_session_new ();
  GpAggregator *agg = gp_aggregator_new (s, T0);
  const guint n = 10000;
  gdouble buffers = 0, matched = 0, prev_t1 = 0;
  guint i;

  for (i = 0; i < n; i++) {
    guint64 start = T0 + (guint64) i * WIN;
    GstStructure *w = window_new (i, start, start + WIN);

    add_element (w, "el", "filter", 8, (i % 2 ? 2 : 1) * MS);
    add_link (w, "src.src", "sink.sink", 8, 800, NULL);
    add_queue (w, "q", i % 2 ? 30.0 : 10.0, i % 2 ? 50.0 : 20.0, 1, 40 * MS,
        8);
    add_thread (w, 42, "worker", WIN / 2, "el");
    add_latency (w, "src.src", "sink", TRUE, 60 * MS, 8, 1);
    feed (agg, w);
    /* the bound holds at every moment, not only at the end */
    if (i % 997 == 0)
      g_assert_cmpuint (s->series->len, <=, GP_AGGREGATE_MAX_SERIES);
  }
  gp_aggregator_finish (agg);

  g_assert_cmpuint (s->series->len, <=, GP_AGGREGATE_MAX_SERIES);
  g_assert_cmpuint (s->series->len, >=, GP_AGGREGATE_MAX_SERIES / 2);
  for (i = 0; i < s->series->len; i++) {
    JsonObject *e = g_ptr_array_index (s->series, i);
    gdouble t0 = json_object_get_double_member (e, "t0");
    gdouble t1 = json_object_get_double_member (e, "t1");
    JsonObject *links = json_object_get_object_member (e, "links");
    JsonObject *link = json_object_get_object_member (links,
        "src.src->sink.sink");
    JsonObject *threads = json_object_get_object_member (e, "threads");
    JsonObject *queues = json_object_get_object_member (e, "queues");
    JsonObject *q = json_object_get_object_member (queues, "q");
    JsonObject *paths = json_object_get_object_member (e, "paths");
    JsonObject *path = json_object_get_object_member (paths,
        "src.src->sink");
    JsonObject *el = json_object_get_object_member (json_object_get_object_member
        (e, "elements"), "el");
    guint n_win = (guint) round ((t1 - t0) / 0.25);

    if (i == 0)
      assert_near (t0, 0.0, 1e-9);
    else
      assert_near (t0, prev_t1, 1e-9);
    prev_t1 = t1;
    g_assert_cmpfloat (t1, >, t0);
    /* the rate is over the entry's span: 8 buffers per 0.25 s */
    assert_near (json_object_get_double_member (link, "fps"), 32.0, 1e-6);
    buffers += json_object_get_double_member (link, "fps") * (t1 - t0);
    assert_near (json_object_get_double_member (json_object_get_object_member
            (threads, "worker"), "cpu_pct"), 50.0, 1e-6);
    /* windows alternate (even: level 10 %, max 20 %, 1 ms; odd: 30 %,
     * 50 %, 2 ms): a merged entry shows the time-weighted mean of its
     * windows and the max of their maxima */
    {
      guint k0 = (guint) round (t0 / 0.25), k, n_odd = 0;

      for (k = k0; k < k0 + n_win; k++)
        n_odd += k % 2;
      assert_near (json_object_get_double_member (q, "level_pct_mean"),
          (10.0 * (n_win - n_odd) + 30.0 * n_odd) / n_win, 1e-6);
      assert_near (json_object_get_double_member (q, "level_pct_max"),
          n_odd ? 50.0 : 20.0, 1e-9);
      assert_near (json_object_get_double_member (el, "self_ms_p95"),
          n_odd ? 2.0 : 1.0, 0.07);
    }
    g_assert_cmpint (json_object_get_int_member (q, "dropped"), ==, n_win);
    g_assert_cmpint (json_object_get_int_member (el, "buffers"), ==,
        8 * n_win);
    matched += json_object_get_int_member (path, "matched");
    g_assert_cmpint (json_object_get_int_member (path, "unmatched"), ==,
        n_win);
    assert_near (json_object_get_double_member (path, "latency_ms_p50"), 60.0,
        2.0);
  }
  assert_near (prev_t1, n * 0.25, 1e-6);
  assert_near (buffers, 8.0 * n, 1e-3);
  assert_near (matched, 8.0 * n, 0);
  /* recent windows stay at full resolution */
  {
    JsonObject *last = g_ptr_array_index (s->series, s->series->len - 1);

    assert_near (json_object_get_double_member (last, "t1") -
        json_object_get_double_member (last, "t0"), 0.25, 1e-9);
  }
  /* the whole-run summary is unaffected by merging */
  {
    GpQueueSummary *qs = gp_session_find_queue_summary (s, "q");
    GpThreadSummary *ts = g_ptr_array_index (s->threads, 0);

    g_assert_nonnull (qs);
    assert_near (qs->level_pct_mean, 20.0, 1e-6);
    assert_near (qs->level_pct_max, 50.0, 1e-9);
    g_assert_cmpuint (qs->dropped, ==, n);
    assert_near (qs->blocked_ms, 2.0 * n, 1e-6);
    g_assert_cmpstr (qs->leaky, ==, "downstream");
    g_assert_cmpuint (qs->level_buffers_max, ==, 3);
    assert_near (qs->residence_ms.p50, 40.0, 1.3);
    assert_near (ts->cpu_pct_mean, 50.0, 1e-9);
    assert_near (ts->cpu_pct_max, 50.0, 1e-9);
  }

  gp_aggregator_free (agg);
  gp_session_free (s);
}

/* The flush at the end of a run makes a window of a few ms: folded into
 * the one before, so its rate is not over 2 ms. */
static void
test_short_window (void)
{
  GpSession *s = gp_session_new ();
  GpAggregator *agg = gp_aggregator_new (s, T0);
  GstStructure *w;
  JsonObject *last;
  guint i;

  for (i = 0; i < 3; i++) {
    w = window_new (i, T0 + i * WIN, T0 + (i + 1) * WIN);
    add_link (w, "a.src", "b.sink", 8, 8, NULL);
    feed (agg, w);
  }
  w = window_new (3, T0 + 3 * WIN, T0 + 3 * WIN + 2 * MS);
  add_link (w, "a.src", "b.sink", 1, 1, NULL);
  feed (agg, w);
  gp_aggregator_finish (agg);

  g_assert_cmpuint (s->series->len, ==, 3);
  last = g_ptr_array_index (s->series, 2);
  assert_near (json_object_get_double_member (last, "t1"), 0.752, 1e-9);
  assert_near (json_object_get_double_member (json_object_get_object_member
          (json_object_get_object_member (last, "links"), "a.src->b.sink"),
          "fps"), 9 / 0.252, 1e-6);
  gp_aggregator_free (agg);
  gp_session_free (s);
}

/* A first window much longer than the rest (a program that took 2 s to
 * load its plugins before the first tick): the windows after it are not
 * short flushes, and each stays an entry of its own. Before, each was
 * folded into the growing first entry: one entry for the run. */
static void
test_long_first_window (void)
{
  GpSession *s = gp_session_new ();
  GpAggregator *agg = gp_aggregator_new (s, T0);
  GstStructure *w;
  guint i;

  w = window_new (0, T0, T0 + 8 * WIN);
  add_link (w, "a.src", "b.sink", 60, 60, NULL);
  feed (agg, w);
  for (i = 0; i < 20; i++) {
    w = window_new (i + 1, T0 + (8 + i) * WIN, T0 + (9 + i) * WIN);
    add_link (w, "a.src", "b.sink", 8, 8, NULL);
    feed (agg, w);
  }
  /* and the flush at the end is still folded */
  w = window_new (21, T0 + 28 * WIN, T0 + 28 * WIN + 2 * MS);
  add_link (w, "a.src", "b.sink", 1, 1, NULL);
  feed (agg, w);
  gp_aggregator_finish (agg);

  g_assert_cmpuint (s->series->len, ==, 21);
  gp_aggregator_free (agg);
  gp_session_free (s);
}

/* A record whose link carried more than any link can in its window (the
 * wrap socket's fuzzer sent 3.8e20 bytes a second): the counts are not a
 * measurement and count as absent, so the session gstprof writes loads
 * again (the reader refuses magnitudes past 1e15); the link's good
 * windows keep their rate. */
static void
test_impossible_counts (void)
{
  GpSession *s = gp_session_new ();
  GpAggregator *agg = gp_aggregator_new (s, T0);
  GstStructure *w;
  GpSession *back;
  GError *err = NULL;
  gchar *json;
  guint i;

  for (i = 0; i < 8; i++) {
    w = window_new (i, T0 + i * WIN, T0 + (i + 1) * WIN);
    add_link (w, "a.src", "b.sink", 8, i == 4 ? G_GUINT64_CONSTANT (1) << 62 :
        8000, NULL);
    feed (agg, w);
  }
  gp_aggregator_finish (agg);
  json = gp_session_to_data (s, TRUE, NULL);
  back = gp_session_load_data (json, -1, "impossible", &err);
  g_assert_no_error (err);
  g_assert_nonnull (back);
  g_assert_cmpuint (s->series->len, ==, 8);
  assert_near (json_object_get_double_member (json_object_get_object_member
          (json_object_get_object_member (g_ptr_array_index (s->series, 4),
                  "links"), "a.src->b.sink"), "bytes_per_s"), 0.0, 1e-9);
  assert_near (json_object_get_double_member (json_object_get_object_member
          (json_object_get_object_member (g_ptr_array_index (s->series, 3),
                  "links"), "a.src->b.sink"), "bytes_per_s"), 8000 / 0.25,
      1e-6);
  gp_session_free (back);
  g_free (json);
  gp_aggregator_free (agg);
  gp_session_free (s);
}

/* Target rates from caps: the sink's own input when it says, else the
 * nearest link upstream with a framerate; the session takes the highest
 * sink target and the frame period follows. */
static void
test_target_fps (void)
{
  GpSession *s = gp_session_new ();
  GpAggregator *agg = gp_aggregator_new (s, T0);
  GstStructure *w = window_new (0, T0, T0 + WIN);
  GpSinkSummary *a, *b;

  add_element (w, "src", "source", 8, 1000);
  add_element (w, "conv", "filter", 8, 1000);
  add_element (w, "enc", "filter", 8, 1000);
  add_element (w, "sink_a", "sink", 8, 1000);
  add_element (w, "sink_b", "sink", 8, 1000);
  add_link (w, "src.src", "conv.sink", 8, 8,
      "video/x-raw, format=(string)I420, width=(int)64, height=(int)48, "
      "framerate=(fraction)30/1");
  /* variable rate (0/1) and no rate at all: look further up */
  add_link (w, "conv.src", "enc.sink", 8, 8,
      "video/x-raw, format=(string)NV12, framerate=(fraction)0/1");
  add_link (w, "enc.src", "sink_a.sink", 8, 8, "video/x-h264");
  /* a branch that says its own rate */
  add_link (w, "tee.src_1", "sink_b.sink", 8, 8,
      "video/x-raw, framerate=(fraction)60000/1001");
  feed (agg, w);
  gp_aggregator_finish (agg);

  a = gp_session_find_sink (s, "sink_a");
  b = gp_session_find_sink (s, "sink_b");
  g_assert_nonnull (a);
  g_assert_nonnull (b);
  assert_near (a->target_fps, 30.0, 1e-9);
  assert_near (b->target_fps, 60000.0 / 1001, 1e-9);
  assert_near (s->target_fps, 60000.0 / 1001, 1e-9);
  assert_near (s->frame_period_ms, 1000.0 / (60000.0 / 1001), 1e-9);
  gp_aggregator_free (agg);
  gp_session_free (s);

  /* no sink rate known: the source's caps give the target */
  s = gp_session_new ();
  agg = gp_aggregator_new (s, T0);
  w = window_new (0, T0, T0 + WIN);
  add_element (w, "cam", "source", 8, 1000);
  add_element (w, "filter", "filter", 8, 1000);
  add_link (w, "cam.src", "filter.sink", 8, 8,
      "video/x-raw, framerate=(fraction)30/1");
  feed (agg, w);
  gp_aggregator_finish (agg);
  assert_near (s->target_fps, 30.0, 1e-9);
  assert_near (s->frame_period_ms, 1000.0 / 30, 1e-9);
  gp_aggregator_free (agg);
  gp_session_free (s);

  /* nothing says a rate: unknown, not guessed */
  s = gp_session_new ();
  agg = gp_aggregator_new (s, T0);
  w = window_new (0, T0, T0 + WIN);
  add_element (w, "src", "source", 8, 1000);
  add_element (w, "sink", "sink", 8, 1000);
  add_link (w, "src.src", "sink.sink", 8, 8, "audio/x-raw, rate=(int)48000");
  feed (agg, w);
  gp_aggregator_finish (agg);
  g_assert_cmpfloat (s->target_fps, <, 0);
  g_assert_cmpfloat (s->frame_period_ms, <, 0);
  g_assert_cmpfloat (gp_session_find_sink (s, "sink")->target_fps, <, 0);
  gp_aggregator_free (agg);
  gp_session_free (s);
}

/* A 1 fps link over 8 s of 250 ms windows, a buffer 100 ms into every
 * fourth window: timed from push to push (the records' last_ts) its rate
 * is 1.0 exactly; records without last_ts keep the windows' bounds (6
 * buffers over 6.75 s, the "0.9 fps, 10 % below" of a snapshot sink). */
static void
test_rates_pushes (void)
{
  GpSession *s = gp_session_new ();
  GpAggregator *agg = gp_aggregator_new (s, T0);
  guint i;

  for (i = 0; i < 32; i++) {
    guint64 start = T0 + i * WIN;
    GstStructure *w = window_new (i, start, start + WIN);
    guint64 n = i % 4 == 0 ? 1 : 0;

    GstStructure *l = gst_structure_new ("link", "src", G_TYPE_STRING,
        "snap.src", "sink", G_TYPE_STRING, "sink.sink", "buffers",
        G_TYPE_UINT64, n, "bytes", G_TYPE_UINT64, n * 1000, "memory",
        G_TYPE_STRING, "system", "caps", G_TYPE_STRING,
        "image/jpeg, framerate=(fraction)1/1", NULL);

    if (n)
      gst_structure_set (l, "last_ts", G_TYPE_UINT64,
          start + 100 * GST_MSECOND, NULL);
    append_struct (w, "links", l);
    add_link (w, "old.src", "oldsink.sink", n, n * 1000,
        "image/jpeg, framerate=(fraction)1/1");
    feed (agg, w);
  }
  gp_aggregator_finish (agg);
  assert_near (gp_session_find_link_summary (s, "snap.src->sink.sink")->fps,
      1.0, 1e-9);
  assert_near (gp_session_find_link_summary (s,
          "old.src->oldsink.sink")->fps, 6 / 6.75, 1e-9);
  gp_aggregator_free (agg);
  gp_session_free (s);
}

static GstStructure *
graph_element (const gchar * name, const gchar * factory, const gchar * kind,
    gboolean with_props)
{
  GstStructure *e = gst_structure_new ("element", "name", G_TYPE_STRING, name,
      "factory", G_TYPE_STRING, factory, "parent", G_TYPE_STRING, "pipe",
      "kind", G_TYPE_STRING, kind, "is_bin", G_TYPE_BOOLEAN, FALSE, NULL);

  if (with_props) {
    GstStructure *props = gst_structure_new ("props",
        "sleep-time", G_TYPE_UINT, 2000,
        "sync", G_TYPE_BOOLEAN, TRUE,
        "name", G_TYPE_STRING, name,
        "max-size-time", G_TYPE_UINT64, G_GUINT64_CONSTANT (1000000000),
        "ts-offset", G_TYPE_INT64, (gint64) - 5,
        "leaky", G_TYPE_STRING, "downstream", NULL);

    gst_structure_set (e, "props", GST_TYPE_STRUCTURE, props, NULL);
    gst_structure_free (props);
  }
  return e;
}

/* The last graph snapshot is the session's graph, with properties as JSON;
 * summaries of elements only the windows saw are kept. */
static void
test_graph (void)
{
  GpSession *s = gp_session_new ();
  GpAggregator *agg = gp_aggregator_new (s, T0);
  GstStructure *g, *w;
  GpElement *e;
  GpLink *l;
  GValue hw = G_VALUE_INIT, v = G_VALUE_INIT;
  gboolean b;

  g = gst_structure_new ("gstprof-graph", "pipeline", G_TYPE_STRING, "pipe",
      "state", G_TYPE_STRING, "PLAYING", NULL);
  append_struct (g, "elements", graph_element ("src", "videotestsrc",
          "source", FALSE));
  append_struct (g, "elements", graph_element ("id", "identity", "filter",
          TRUE));
  append_struct (g, "elements", graph_element ("gone", "identity", "filter",
          FALSE));
  append_struct (g, "links", gst_structure_new ("link",
          "src", G_TYPE_STRING, "src.src", "sink", G_TYPE_STRING, "id.sink",
          "caps", G_TYPE_STRING, "video/x-raw, framerate=(fraction)25/1",
          "memory", G_TYPE_STRING, "system", NULL));
  g_value_init (&hw, GST_TYPE_LIST);
  g_value_init (&v, G_TYPE_STRING);
  g_value_set_string (&v, "nvv4l2decoder");
  gst_value_list_append_and_take_value (&hw, &v);
  gst_structure_take_value (g, "hw", &hw);
  gp_aggregator_add_graph (agg, g);
  gst_structure_free (g);

  w = window_new (0, T0, T0 + WIN);
  add_element (w, "gone", "filter", 4, MS);
  add_element (w, "id", "filter", 4, MS);
  add_link (w, "src.src", "id.sink", 4, 4, NULL);
  feed (agg, w);
  gp_aggregator_finish (agg);

  g_assert_cmpuint (s->elements->len, ==, 3);
  e = gp_session_find_element (s, "id");
  g_assert_nonnull (e);
  g_assert_cmpstr (e->factory, ==, "identity");
  g_assert_cmpstr (e->parent, ==, "pipe");
  g_assert_nonnull (e->props);
  g_assert_cmpint (json_object_get_int_member (e->props, "sleep-time"), ==,
      2000);
  g_assert_true (gp_element_get_prop_bool (e, "sync", &b) && b);
  g_assert_cmpstr (gp_element_get_prop_string (e, "leaky"), ==, "downstream");
  g_assert_cmpint (json_object_get_int_member (e->props, "ts-offset"), ==, -5);
  g_assert_cmpint (json_object_get_int_member (e->props, "max-size-time"), ==,
      1000000000);
  g_assert_cmpuint (s->links->len, ==, 1);
  l = g_ptr_array_index (s->links, 0);
  g_assert_cmpstr (l->id, ==, "src.src->id.sink");
  g_assert_cmpstr (l->memory, ==, "system");
  g_assert_cmpuint (s->hw_elements->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (s->hw_elements, 0), ==, "nvv4l2decoder");
  /* the graph link's caps count for the target rate */
  assert_near (s->target_fps, 25.0, 1e-9);

  /* a new snapshot replaces the graph: "gone" left the pipeline */
  g = gst_structure_new ("gstprof-graph", "pipeline", G_TYPE_STRING, "pipe",
      "state", G_TYPE_STRING, "PLAYING", NULL);
  append_struct (g, "elements", graph_element ("src", "videotestsrc",
          "source", FALSE));
  append_struct (g, "elements", graph_element ("id", "identity", "filter",
          FALSE));
  gp_aggregator_add_graph (agg, g);
  gst_structure_free (g);
  gp_aggregator_finish (agg);

  g_assert_cmpuint (s->elements->len, ==, 2);
  g_assert_null (gp_session_find_element (s, "gone"));
  g_assert_cmpuint (s->links->len, ==, 0);
  g_assert_cmpuint (s->hw_elements->len, ==, 0);
  /* but what it measured is not lost */
  g_assert_nonnull (gp_session_find_elem_summary (s, "gone"));
  g_assert_cmpuint (gp_session_find_elem_summary (s, "gone")->buffers, ==, 4);

  gp_aggregator_free (agg);
  gp_session_free (s);
}

/* Without any graph snapshot the windows still make a graph. */
static void
test_graph_from_windows (void)
{
  GpSession *s = gp_session_new ();
  GpAggregator *agg = gp_aggregator_new (s, T0);
  GstStructure *w = window_new (0, T0, T0 + WIN);

  add_element (w, "a", "source", 1, MS);
  add_element (w, "b", "sink", 1, MS);
  add_link (w, "a.src", "b.sink", 1, 1, NULL);
  feed (agg, w);
  gp_aggregator_finish (agg);
  g_assert_cmpuint (s->elements->len, ==, 2);
  g_assert_cmpstr (gp_session_find_element (s, "b")->kind, ==, "sink");
  g_assert_cmpuint (s->links->len, ==, 1);
  gp_aggregator_free (agg);
  gp_session_free (s);
}

/* Events: relative times, in order; a message both the bus and the tracer
 * saw is one event at the tracer's time (an error keeps the bus text), what
 * only the bus saw is kept. */
static void
test_events (void)
{
  GpSession *s = gp_session_new ();
  GpAggregator *agg = gp_aggregator_new (s, T0);
  GstStructure *w = window_new (0, T0 + 1000 * MS, T0 + 1250 * MS);
  GpEvent *ev;

  /* bus events may arrive before the window that carries the tracer's */
  gp_aggregator_add_bus_event (agg, T0 + 1210 * MS, "error", "src",
      "Resource not found (bus)");
  gp_aggregator_add_bus_event (agg, T0 + 1100 * MS, "warning", "conv",
      "odd caps");
  add_event (w, T0 + 1200 * MS, "error", "src", "Resource not found.");
  add_event (w, T0 + 1050 * MS, "state", "pipe", "PAUSED->PLAYING");
  feed (agg, w);
  gp_aggregator_add_bus_event (agg, T0 + 1300 * MS, "interrupt", "",
      "SIGINT");
  gp_aggregator_finish (agg);

  g_assert_cmpuint (s->events->len, ==, 4);
  ev = g_ptr_array_index (s->events, 0);
  g_assert_cmpstr (ev->type, ==, "state");
  assert_near (ev->t, 1.05, 1e-9);
  ev = g_ptr_array_index (s->events, 1);
  g_assert_cmpstr (ev->type, ==, "warning");
  g_assert_cmpstr (ev->source, ==, "conv");
  ev = g_ptr_array_index (s->events, 2);
  g_assert_cmpstr (ev->type, ==, "error");
  g_assert_cmpstr (ev->text, ==, "Resource not found (bus)");
  assert_near (ev->t, 1.2, 1e-9);
  ev = g_ptr_array_index (s->events, 3);
  g_assert_cmpstr (ev->type, ==, "interrupt");

  /* finish again (a live view): the same events, not twice as many */
  gp_aggregator_finish (agg);
  g_assert_cmpuint (s->events->len, ==, 4);

  gp_aggregator_free (agg);
  gp_session_free (s);
}

/* Thread CPU: mean over the thread's life, max of its windows; threads
 * with the same name stay apart; elements learn their threads. */
static void
test_threads (void)
{
  GpSession *s = gp_session_new ();
  GpAggregator *agg = gp_aggregator_new (s, T0);
  GpThreadSummary *t0, *t1;
  GpElementSummary *es;
  guint i;

  for (i = 0; i < 4; i++) {
    GstStructure *w = window_new (i, T0 + i * WIN, T0 + (i + 1) * WIN);

    add_element (w, "a", "source", 1, MS);
    add_element (w, "b", "filter", 1, MS);
    add_thread (w, 100, "src:src", i == 3 ? WIN : WIN / 2, "a, b");
    /* a second thread of the same name, alive for two windows only */
    if (i >= 2)
      add_thread (w, 101, "src:src", WIN / 10, "b");
    feed (agg, w);
  }
  gp_aggregator_finish (agg);

  g_assert_cmpuint (s->threads->len, ==, 2);
  t0 = g_ptr_array_index (s->threads, 0);
  t1 = g_ptr_array_index (s->threads, 1);
  g_assert_cmpuint (t0->tid, ==, 100);
  g_assert_cmpstr (t0->name, ==, "src:src");
  assert_near (t0->cpu_pct_mean, 62.5, 1e-9);
  assert_near (t0->cpu_pct_max, 100.0, 1e-9);
  g_assert_cmpuint (t0->elements->len, ==, 2);
  g_assert_cmpuint (t1->tid, ==, 101);
  g_assert_cmpstr (t1->name, ==, "src:src/101");
  assert_near (t1->cpu_pct_mean, 10.0, 1e-9);

  es = gp_session_find_elem_summary (s, "b");
  g_assert_nonnull (es);
  g_assert_cmpuint (es->threads->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (es->threads, 0), ==, "src:src");
  g_assert_cmpstr (g_ptr_array_index (es->threads, 1), ==, "src:src/101");

  gp_aggregator_free (agg);
  gp_session_free (s);
}

/* The run-queue wait (GP_T_RUN_DELAY_NS) over a thread's life, a window
 * claiming more than it could hold left out; a thread without it unknown.
 * An appsrc's level (GP_E_LEVEL_*): its largest, and the latest window's
 * last, whatever order the windows come in; an element without unknown.
 * RTP counts (GP_L_RTP_*) summed per link over the run, a packet counted
 * in the window after its buffer's kept; a link without them carries no
 * rtp, nor one claiming more packets than buffers over the run; pad
 * probes' time (GP_L_PROBE_*) summed per link, as a share of the PLAYING
 * time too, and signal handlers' (GP_E_HANDLER_*) per element, absent on
 * an element that carries none. */
static void
test_run_delay_and_rtp (void)
{
  GpSession *s = gp_session_new ();
  GpAggregator *agg = gp_aggregator_new (s, T0);
  GpLinkSummary *rtp, *plain;
  GpThreadSummary *t;
  GpElementSummary *es;
  guint i;

  /* windows fed out of order: the latest window's level is the end */
  for (i = 4; i-- > 0;) {
    GstStructure *w = window_new (i, T0 + i * WIN, T0 + (i + 1) * WIN);
    const GValue *threads, *links;
    GstStructure *ts, *ls;

    add_element (w, "a", "source", 10, MS);
    add_element (w, "b", "filter", 10, MS);
    /* an appsrc's level: its largest in the second window, 1 MiB last */
    gst_structure_set ((GstStructure *) gst_value_get_structure
        (gst_value_list_get_value (gst_structure_get_value (w, "elements"),
                0)), "level_bytes_max", G_TYPE_UINT64, (guint64) (i == 1 ?
            3 : 2) * 1024 * 1024, "level_bytes", G_TYPE_UINT64, (guint64) (i
            == 3 ? 1 : 2) * 1024 * 1024, "level_limit_bytes", G_TYPE_UINT64,
        (guint64) 200000, "level_blocks", G_TYPE_BOOLEAN, FALSE, NULL);
    /* b's handlers: a tenth of each window, 10 emissions */
    gst_structure_set ((GstStructure *) gst_value_get_structure
        (gst_value_list_get_value (gst_structure_get_value (w, "elements"),
                1)), "handler_ns", G_TYPE_UINT64, (guint64) WIN / 10,
        "handler_n", G_TYPE_UINT64, (guint64) 10, NULL);
    add_thread (w, 100, "src:src", WIN / 2, "a, b");
    add_thread (w, 101, "other", WIN / 4, "");
    add_link (w, "a.src", "b.sink", 10, 1000, "application/x-rtp");
    add_link (w, "b.src", "c.sink", 10, 1000, "video/x-raw");
    add_link (w, "x.src", "y.sink", 10, 1000, "application/x-rtp");
    threads = gst_structure_get_value (w, "threads");
    ts = (GstStructure *) gst_value_get_structure (gst_value_list_get_value
        (threads, 0));
    /* the last window's is more than a window holds */
    gst_structure_set (ts, "run_delay_ns", G_TYPE_UINT64, i == 3 ?
        3 * WIN : WIN / 4, NULL);
    links = gst_structure_get_value (w, "links");
    ls = (GstStructure *) gst_value_get_structure (gst_value_list_get_value
        (links, 0));
    /* the second window's holds a packet of the first's buffers (a push
     * racing the window's end) */
    gst_structure_set (ls, "rtp_expected", G_TYPE_UINT64, (guint64) 12,
        "rtp_received", G_TYPE_UINT64, (guint64) (i == 1 ? 11 : i == 0 ?
            9 : 10), "rtp_restarts", G_TYPE_UINT64, (guint64) (i == 0),
        NULL);
    /* a forged one: twice as many packets as buffers, every window */
    ls = (GstStructure *) gst_value_get_structure (gst_value_list_get_value
        (links, 2));
    gst_structure_set (ls, "rtp_expected", G_TYPE_UINT64, (guint64) 20,
        "rtp_received", G_TYPE_UINT64, (guint64) 20, "rtp_restarts",
        G_TYPE_UINT64, (guint64) 0, NULL);
    /* pad probes on the plain link: a fifth of each window */
    ls = (GstStructure *) gst_value_get_structure (gst_value_list_get_value
        (links, 1));
    gst_structure_set (ls, "probe_ns", G_TYPE_UINT64, (guint64) WIN / 5,
        "probe_n", G_TYPE_UINT64, (guint64) 10, NULL);
    /* buffers without a PTS: 4 of 10, one window claiming more than it
     * carried (counted as all of them) */
    gst_structure_set (ls, "no_pts", G_TYPE_UINT64, (guint64) (i == 2 ? 99 :
            4), NULL);
    feed (agg, w);
  }
  gp_aggregator_finish (agg);

  t = gp_session_find_thread (s, 100);
  assert_near (t->run_delay_pct, 3 * 25.0 / 4, 1e-9);
  es = gp_session_find_elem_summary (s, "a");
  assert_near (es->queued_mb_max, 3.0, 1e-9);
  assert_near (es->queued_mb_end, 1.0, 1e-9);
  g_assert_cmpuint (es->queued_limit_bytes, ==, 200000);
  g_assert_false (es->queued_blocks);
  g_assert_cmpfloat (gp_session_find_elem_summary (s, "b")->queued_mb_max, <,
      0);
  g_assert_cmpfloat (gp_session_find_thread (s, 101)->run_delay_pct, <, 0);
  g_assert_cmpfloat (es->handler_ms, <, 0);
  es = gp_session_find_elem_summary (s, "b");
  assert_near (es->handler_ms, 4 * WIN / 10 / 1e6, 1e-9);
  g_assert_cmpuint (es->handler_calls, ==, 40);
  assert_near (es->handler_busy_pct, 10.0, 1e-9);
  rtp = gp_session_find_link_summary (s, "a.src->b.sink");
  plain = gp_session_find_link_summary (s, "b.src->c.sink");
  g_assert_true (rtp->rtp);
  g_assert_cmpuint (rtp->rtp_expected, ==, 48);
  g_assert_cmpuint (rtp->rtp_received, ==, 40);
  g_assert_cmpuint (rtp->rtp_restarts, ==, 1);
  g_assert_false (plain->rtp);
  g_assert_false (gp_session_find_link_summary (s, "x.src->y.sink")->rtp);
  /* the probes' time over the run, and over its PLAYING time */
  assert_near (plain->probe_ms, 4 * WIN / 5 / 1e6, 1e-9);
  g_assert_cmpuint (plain->probe_pushes, ==, 40);
  assert_near (plain->probe_busy_pct, 20.0, 1e-9);
  g_assert_cmpuint (plain->no_pts, ==, 3 * 4 + 10);
  g_assert_cmpuint (rtp->no_pts, ==, 0);
  g_assert_cmpfloat (rtp->probe_ms, <, 0);
  g_assert_cmpfloat (rtp->probe_busy_pct, <, 0);

  gp_aggregator_free (agg);
  gp_session_free (s);
}

/* The process: CPU over the windows that carried it (mean, and the max
 * of its windows, a short flush window left out of the max), RSS first /
 * max / last, n_cpus; threads no hook saw stay in summary.threads as
 * non-streaming ones, records without the field are streaming threads,
 * and the series carries the process per entry (null when unknown). */
static void
test_process (void)
{
  GpSession *s = gp_session_new ();
  GpAggregator *agg = gp_aggregator_new (s, T0);
  const guint64 cpu[4] = { WIN, 3 * WIN / 2, 2 * WIN, WIN / 2 };
  const guint64 rss[4] = { 100, 300, 200, 250 };
  GpThreadSummary *enc, *worker, *old;
  JsonObject *e, *proc;
  GstStructure *w;
  guint i;

  for (i = 0; i < 4; i++) {
    w = window_new (i, T0 + i * WIN, T0 + (i + 1) * WIN);
    add_element (w, "enc", "filter", 1, MS);
    add_thread (w, 100, "src:src", WIN / 2, "enc");
    gst_structure_set (g_value_get_boxed (gst_value_list_get_value
            (gst_structure_get_value (w, "threads"), 0)), "streaming",
        G_TYPE_BOOLEAN, TRUE, NULL);
    /* an encoder's worker, named after the thread that started it */
    append_struct (w, "threads", gst_structure_new ("thread",
            "tid", G_TYPE_UINT64, (guint64) 101,
            "name", G_TYPE_STRING, "src:src",
            "cpu_ns", G_TYPE_UINT64, WIN,
            "elements", G_TYPE_STRING, "",
            "streaming", G_TYPE_BOOLEAN, FALSE, NULL));
    /* an older tracer's record: no streaming field */
    add_thread (w, 102, "old", 0, "");
    gst_structure_set (w, "proc_cpu_ns", G_TYPE_UINT64, cpu[i],
        "proc_rss_bytes", G_TYPE_UINT64, rss[i] * 1024 * 1024,
        "n_cpus", G_TYPE_UINT, 2, NULL);
    feed (agg, w);
  }
  /* the flush right after the last tick: 1 ms at 300 %, in the mean only */
  w = window_new (4, T0 + 4 * WIN, T0 + 4 * WIN + MS);
  gst_structure_set (w, "proc_cpu_ns", G_TYPE_UINT64, 3 * MS, NULL);
  feed (agg, w);
  /* a window without the process's figures */
  w = window_new (5, T0 + 5 * WIN, T0 + 6 * WIN);
  feed (agg, w);
  gp_aggregator_finish (agg);

  g_assert_true (s->process.measured);
  /* (1 + 1.5 + 2 + 0.5) windows of CPU + 3 ms over 4 windows + 1 ms */
  assert_near (s->process.cpu_pct_mean,
      100.0 * (5 * WIN + 3 * MS) / (4 * WIN + MS), 1e-9);
  assert_near (s->process.cpu_pct_max, 200.0, 1e-9);
  g_assert_cmpint (s->process.n_cpus, ==, 2);
  assert_near (s->process.rss_mb_start, 100.0, 1e-9);
  assert_near (s->process.rss_mb_max, 300.0, 1e-9);
  assert_near (s->process.rss_mb_end, 250.0, 1e-9);

  enc = gp_session_find_thread (s, 100);
  worker = gp_session_find_thread (s, 101);
  old = gp_session_find_thread (s, 102);
  g_assert_nonnull (enc);
  g_assert_nonnull (worker);
  g_assert_nonnull (old);
  g_assert_false (enc->worker);
  g_assert_true (worker->worker);
  g_assert_false (old->worker);
  g_assert_cmpstr (worker->name, ==, "src:src/101");
  assert_near (worker->cpu_pct_mean, 100.0, 1e-9);
  g_assert_cmpuint (worker->elements->len, ==, 0);
  /* the busiest thread first, workers included */
  g_assert_true (g_ptr_array_index (s->threads, 0) == worker);

  /* the series: the flush was folded into the window before it */
  g_assert_cmpuint (s->series->len, ==, 5);
  e = g_ptr_array_index (s->series, 1);
  proc = json_object_get_object_member (e, "process");
  assert_near (json_object_get_double_member (proc, "cpu_pct"), 150.0, 1e-9);
  assert_near (json_object_get_double_member (proc, "rss_mb"), 300.0, 1e-9);
  e = g_ptr_array_index (s->series, 3);
  proc = json_object_get_object_member (e, "process");
  assert_near (json_object_get_double_member (proc, "cpu_pct"),
      100.0 * (WIN / 2 + 3 * MS) / (WIN + MS), 1e-9);
  e = g_ptr_array_index (s->series, 4);
  proc = json_object_get_object_member (e, "process");
  g_assert_true (json_object_get_null_member (proc, "cpu_pct"));
  g_assert_true (json_object_get_null_member (proc, "rss_mb"));

  gp_aggregator_free (agg);
  gp_session_free (s);

  /* no process figures at all: not measured */
  s = gp_session_new ();
  agg = gp_aggregator_new (s, T0);
  w = window_new (0, T0, T0 + WIN);
  add_thread (w, 100, "src:src", WIN / 2, "enc");
  feed (agg, w);
  gp_aggregator_finish (agg);
  g_assert_false (s->process.measured);
  g_assert_false (((GpThreadSummary *) g_ptr_array_index (s->threads,
              0))->worker);
  gp_aggregator_free (agg);
  gp_session_free (s);
}

/* Latency: pairs whose element is a sink are paths, every pair is
 * interlatency; counts add up over windows. */
static void
test_latency (void)
{
  GpSession *s = gp_session_new ();
  GpAggregator *agg = gp_aggregator_new (s, T0);
  GpPath *p;
  guint i;

  for (i = 0; i < 3; i++) {
    GstStructure *w = window_new (i, T0 + i * WIN, T0 + (i + 1) * WIN);

    add_latency (w, "src.src", "sink", TRUE, 50 * MS, 7, 1);
    add_latency (w, "src.src", "mid", FALSE, 20 * MS, 8, 0);
    feed (agg, w);
  }
  gp_aggregator_finish (agg);

  g_assert_cmpuint (s->paths->len, ==, 1);
  g_assert_cmpuint (s->interlatency->len, ==, 2);
  p = g_ptr_array_index (s->paths, 0);
  g_assert_cmpstr (p->source, ==, "src.src");
  g_assert_cmpstr (p->sink, ==, "sink");
  g_assert_cmpuint (p->matched, ==, 21);
  g_assert_cmpuint (p->unmatched, ==, 3);
  assert_near (p->latency_ms.p50, 50.0, 1.6);
  assert_near (p->latency_ms.max, 50.0, 1e-9);
  g_assert_nonnull (gp_session_find_path (s, "src.src", "sink"));

  gp_aggregator_free (agg);
  gp_session_free (s);
}

/* Bad records must not crash nor poison the numbers: wrong types, odd
 * histogram lists, buckets past the layout, missing names. */
static void
test_malformed (void)
{
  GpSession *s = gp_session_new ();
  GpAggregator *agg = gp_aggregator_new (s, T0);
  GstStructure *w = window_new (0, T0, T0 + WIN);
  GstStructure *e;
  GValue arr = G_VALUE_INIT, v = G_VALUE_INIT;
  guint64 bad[] = { GP_HIST_N_BUCKETS + 5, 3, 10, 2, 7 };
  guint i;

  gst_structure_set (w, "links", G_TYPE_STRING, "not a list", NULL);
  e = gst_structure_new ("element", "name", G_TYPE_STRING, "x",
      "buffers", G_TYPE_STRING, "many", "self_ns", G_TYPE_INT, -4, NULL);
  g_value_init (&arr, GST_TYPE_ARRAY);
  for (i = 0; i < G_N_ELEMENTS (bad); i++) {
    g_value_init (&v, G_TYPE_UINT64);
    g_value_set_uint64 (&v, bad[i]);
    gst_value_array_append_and_take_value (&arr, &v);
  }
  gst_structure_take_value (e, "self_hist", &arr);
  append_struct (w, "elements", e);
  append_struct (w, "elements", gst_structure_new_empty ("element"));
  append_struct (w, "threads", gst_structure_new ("thread", "name",
          G_TYPE_STRING, "no tid", NULL));
  append_struct (w, "events", gst_structure_new ("event", "ts",
          G_TYPE_STRING, "soon", NULL));
  feed (agg, w);
  /* a window whose end is before its start */
  feed (agg, window_new (1, T0 + 2 * WIN, T0 + WIN));
  feed (agg, gst_structure_new_empty ("gstprof-window"));
  gp_aggregator_finish (agg);

  g_assert_cmpuint (s->elem_summaries->len, ==, 1);
  /* only the one well-formed pair (bucket 10, 2 samples) was kept */
  g_assert_cmpuint (gp_session_find_elem_summary (s, "x")->buffers, ==, 0);
  assert_near (gp_session_find_elem_summary (s, "x")->self_ms.p50, 10e-6,
      1e-6);
  g_assert_cmpuint (s->threads->len, ==, 0);
  g_assert_cmpuint (s->events->len, ==, 0);
  g_assert_cmpfloat (s->target_fps, <, 0);
  gp_aggregator_free (agg);
  gp_session_free (s);
}

typedef struct
{
  GpAggregator *agg;
  guint n;
} FeedJob;

static gpointer
feed_thread (gpointer data)
{
  FeedJob *job = data;
  guint i;

  for (i = 0; i < job->n; i++) {
    guint64 start = T0 + (guint64) i * WIN;
    GstStructure *w = window_new (i, start, start + WIN);

    add_element (w, "el", "filter", 4, MS);
    add_element (w, "sink", "sink", 4, MS);
    add_link (w, "el.src", "sink.sink", 4, 40, NULL);
    add_event (w, start, "qos", "sink", "late");
    feed (job->agg, w);
  }
  return NULL;
}

/* Windows on one thread, finish (a live view) and progress on another. */
static void
test_concurrent (void)
{
  GpSession *s = gp_session_new ();
  GpAggregator *agg = gp_aggregator_new (s, T0);
  FeedJob job = { agg, 3000 };
  GThread *t = g_thread_new ("feeder", feed_thread, &job);
  guint rounds = 0;
  gchar *text;

  while (rounds < 20) {
    gp_aggregator_finish (agg);
    text = gp_aggregator_describe_progress (agg, 1.0);
    g_assert_nonnull (text);
    g_free (text);
    rounds++;
    g_usleep (1000);
  }
  g_thread_join (t);
  gp_aggregator_finish (agg);
  g_assert_cmpuint (gp_session_find_elem_summary (s, "el")->buffers, ==,
      4 * 3000);
  g_assert_cmpuint (s->series->len, <=, GP_AGGREGATE_MAX_SERIES);
  g_assert_cmpuint (s->events->len, ==, 3000);

  text = gp_aggregator_describe_progress (agg, 1.0);
  g_assert_cmpstr (text, ==, "sink 16.0 fps");
  g_free (text);
  gp_aggregator_free (agg);
  gp_session_free (s);
}

/* Past the event cap, QoS floods are dropped but errors are still kept. */
static void
test_event_cap (void)
{
  GpSession *s = gp_session_new ();
  GpAggregator *agg = gp_aggregator_new (s, T0);
  GstStructure *w = window_new (0, T0, T0 + WIN);
  guint i, errors = 0;

  for (i = 0; i < GP_AGGREGATE_MAX_EVENTS + 100; i++)
    add_event (w, T0 + i, "qos", "sink", "late");
  add_event (w, T0 + 2 * MS, "error", "sink", "boom");
  feed (agg, w);
  gp_aggregator_finish (agg);
  g_assert_cmpuint (s->events->len, ==, GP_AGGREGATE_MAX_EVENTS + 1);
  for (i = 0; i < s->events->len; i++)
    if (g_str_equal (((GpEvent *) g_ptr_array_index (s->events, i))->type,
            "error"))
      errors++;
  g_assert_cmpuint (errors, ==, 1);
  gp_aggregator_free (agg);
  gp_session_free (s);
}


/* The steady state ends where gstprof asked the pipeline to stop: the
 * drain's burst (an encoder flushing its lookahead) is not part of the
 * rate; media time per second from the buffers' durations. */
static void
test_stop_and_media (void)
{
  GpSession *s = gp_session_new ();
  GpAggregator *agg = gp_aggregator_new (s, T0);
  GpLinkSummary *ls;
  guint i;

  for (i = 0; i < 12; i++) {
    guint64 start = T0 + i * WIN;
    GstStructure *w = window_new (i, start, start + WIN);
    /* 10 buffers of 25 ms each window (1.0x real time); 40 after the
     * stop, a drain */
    guint64 b = i < 8 ? 10 : 40;
    GstStructure *l;

    if (i == 8)
      gp_aggregator_add_bus_event (agg, start, "duration", "",
          "--duration 2.0 s reached: EOS sent");
    add_element (w, "src", "source", b, 10000);
    add_element (w, "sink", "sink", b, 10000);
    add_link (w, "src.src", "sink.sink", b, b * 100, "audio/x-raw, "
        "rate=(int)48000");
    l = (GstStructure *) gst_value_get_structure (gst_value_list_get_value
        (gst_structure_get_value (w, "links"), 0));
    gst_structure_set (l, "duration_ns", G_TYPE_UINT64, b * 25 * MS,
        "timed", G_TYPE_UINT64, b, NULL);
    feed (agg, w);
  }
  gp_aggregator_finish (agg);
  ls = gp_session_find_link_summary (s, "src.src->sink.sink");
  g_assert_nonnull (ls);
  /* windows 1..6 between the first (0) and the last before the stop (7) */
  assert_near (ls->fps, 40.0, 1e-9);
  assert_near (ls->media_per_s, 1.0, 1e-9);
  g_assert_cmpuint (ls->buffers, ==, 8 * 10 + 4 * 40);
  g_assert_cmpstr (gp_session_find_sink (s, "sink")->media, ==, "audio");
  /* no frame rate for an audio sink, whatever the caps upstream say */
  g_assert_cmpfloat (gp_session_find_sink (s, "sink")->target_fps, <, 0);
  gp_aggregator_free (agg);
  gp_session_free (s);
}

/* A multiqueue's single queues are summaries of their own. */
static void
test_single_queues (void)
{
  GpSession *s = gp_session_new ();
  GpAggregator *agg = gp_aggregator_new (s, T0);
  GstStructure *w = window_new (0, T0, T0 + WIN);
  guint i;

  add_queue (w, "mq", 40.0, 60.0, 0, 10 * MS, 5);
  add_queue (w, "mq", 5.0, 8.0, 0, 1 * MS, 5);
  for (i = 0; i < 2; i++) {
    GstStructure *q = (GstStructure *) gst_value_get_structure
        (gst_value_list_get_value (gst_structure_get_value (w, "queues"), i));

    gst_structure_set (q, "factory", G_TYPE_STRING, "multiqueue", "pad",
        G_TYPE_STRING, i == 0 ? "sink_0" : "sink_1", NULL);
  }
  feed (agg, w);
  gp_aggregator_finish (agg);
  g_assert_cmpuint (s->queue_summaries->len, ==, 2);
  assert_near (gp_session_find_queue_summary (s, "mq.sink_0")->level_pct_max,
      60.0, 1e-9);
  assert_near (gp_session_find_queue_summary (s, "mq.sink_1")->level_pct_max,
      8.0, 1e-9);
  gp_aggregator_free (agg);
  gp_session_free (s);
}

/* The numbers behind an event travel with it; a bus error takes the
 * tracer's details; what never reached the bus, or was dropped, is said. */
static void
test_event_data (void)
{
  GpSession *s = gp_session_new ();
  GpAggregator *agg = gp_aggregator_new (s, T0);
  GstStructure *w = window_new (0, T0, T0 + WIN);
  GstStructure *ev;
  GpEvent *e;
  guint i, errors = 0, qos = 0;

  gp_aggregator_watch_bus (agg);
  ev = gst_structure_new ("event", "ts", G_TYPE_UINT64, T0 + 10 * MS,
      "type", G_TYPE_STRING, "qos", "source", G_TYPE_STRING, "snk",
      "text", G_TYPE_STRING, "processed 90, dropped 10 (buffers)",
      "processed", G_TYPE_UINT64, (guint64) 90,
      "dropped", G_TYPE_UINT64, (guint64) 10,
      "jitter_ns", G_TYPE_INT64, (gint64) 5 * MS, NULL);
  append_struct (w, "events", ev);
  ev = gst_structure_new ("event", "ts", G_TYPE_UINT64, T0 + 20 * MS,
      "type", G_TYPE_STRING, "error", "source", G_TYPE_STRING, "src",
      "text", G_TYPE_STRING, "Internal data stream error.",
      "debug", G_TYPE_STRING, "streaming stopped, reason not-negotiated",
      NULL);
  append_struct (w, "events", ev);
  /* an element without a bus: the tracer saw it, the pipeline never did */
  add_event (w, T0 + 30 * MS, "error", "probe", "could not open display");
  gst_structure_set (w, "events_dropped", G_TYPE_UINT64, (guint64) 7, NULL);
  gp_aggregator_add_bus_event (agg, T0 + 25 * MS, "error", "src",
      "Internal data stream error: streaming stopped, reason not-negotiated");
  feed (agg, w);
  gp_aggregator_finish (agg);

  for (i = 0; i < s->events->len; i++) {
    e = g_ptr_array_index (s->events, i);
    if (g_str_equal (e->type, "error")) {
      errors++;
      g_assert_cmpstr (e->source, ==, "src");
      assert_near (e->t, 0.020, 1e-9);
      g_assert_nonnull (strstr (e->text, "not-negotiated"));
      g_assert_cmpstr (json_object_get_string_member (e->data, "debug"), ==,
          "streaming stopped, reason not-negotiated");
    } else if (g_str_equal (e->type, "qos")) {
      qos++;
      g_assert_cmpint (json_object_get_int_member (e->data, "dropped"), ==,
          10);
      g_assert_cmpint (json_object_get_int_member (e->data, "jitter_ns"), ==,
          5 * MS);
    }
  }
  g_assert_cmpuint (errors, ==, 1);
  g_assert_cmpuint (qos, ==, 1);
  g_assert_cmpuint (s->events_dropped, ==, 7);
  gp_aggregator_free (agg);
  gp_session_free (s);
}

/* A thread blocked inside a push, as its latest window says. */
static void
test_blocked_thread (void)
{
  GpSession *s = gp_session_new ();
  GpAggregator *agg = gp_aggregator_new (s, T0);
  guint i;

  for (i = 0; i < 2; i++) {
    GstStructure *w = window_new (i, T0 + i * WIN, T0 + (i + 1) * WIN);

    add_element (w, "d", "demux", i == 0 ? 1 : 0, MS);
    add_thread (w, 7, "d:sink", MS, "d");
    if (i == 1) {
      GstStructure *t = (GstStructure *) gst_value_get_structure
          (gst_value_list_get_value (gst_structure_get_value (w, "threads"),
              0));

      gst_structure_set (t, "blocked_in", G_TYPE_STRING, "snk",
          "blocked_ns", G_TYPE_UINT64, 400 * MS, NULL);
    }
    feed (agg, w);
  }
  gp_aggregator_finish (agg);
  g_assert_cmpstr (gp_session_find_thread (s, 7)->blocked_in, ==, "snk");
  assert_near (gp_session_find_thread (s, 7)->blocked_ms, 400.0, 1e-9);
  gp_aggregator_free (agg);
  gp_session_free (s);
}

/* A link's lateness folded: windows whose every buffer is 10 ms + 50 ms
 * a window late (a line of slope 50 ms / 0.25 s = 200 ms/s) give the
 * sink that trend exactly, the run's quantiles from the histograms and
 * the max from the records; the series carries each window's median; a
 * link without late_* fields has none (unknown, not 0). */
static void
test_lateness (void)
{
  GpSession *s = gp_session_new ();
  GpAggregator *agg = gp_aggregator_new (s, T0);
  GpSinkSummary *ss, *other;
  JsonObject *links, *l0;
  guint i;

  for (i = 0; i < 8; i++) {
    guint64 start = T0 + i * WIN;
    guint64 late = (10 + 50 * i) * GST_MSECOND;
    GstStructure *w = window_new (i, start, start + WIN);
    const GValue *lv;
    GstStructure *ls;

    add_element (w, "sink", "sink", 8, 1000);
    add_element (w, "sink2", "sink", 8, 1000);
    add_link (w, "src.src", "sink.sink", 8, 8000,
        "video/x-raw, framerate=(fraction)30/1");
    add_link (w, "src.src_1", "sink2.sink", 8, 8000,
        "video/x-raw, framerate=(fraction)30/1");
    lv = gst_value_list_get_value (gst_structure_get_value (w, "links"), 0);
    ls = (GstStructure *) gst_value_get_structure (lv);
    gst_structure_set (ls, "late_n", G_TYPE_UINT64, (guint64) 8,
        "late_sum_ns", G_TYPE_UINT64, 8 * late,
        "late_max_ns", G_TYPE_UINT64, late, NULL);
    set_hist (ls, "late_hist", 1, late, (guint64) 8);
    feed (agg, w);
  }
  gp_aggregator_finish (agg);

  ss = gp_session_find_sink (s, "sink");
  g_assert_nonnull (ss);
  g_assert_cmpuint (ss->late_windows, ==, 8);
  /* each window's median is within its bucket (6.25 %), the slope too */
  assert_near (ss->late_trend_ms_per_s, 200.0, 200.0 * 0.0625);
  assert_near (ss->late_ms.max, 360.0, 1e-9);
  /* 64 buffers, 8 a value: the median between the 4th and 5th values */
  g_assert_cmpfloat (ss->late_ms.p50, >=, 160.0 * 0.93);
  g_assert_cmpfloat (ss->late_ms.p50, <=, 210.0 * 1.07);

  other = gp_session_find_sink (s, "sink2");
  g_assert_nonnull (other);
  g_assert_cmpfloat (other->late_ms.p50, <, 0);
  g_assert_true (isnan (other->late_trend_ms_per_s));

  links = json_object_get_object_member (g_ptr_array_index (s->series, 3),
      "links");
  l0 = json_object_get_object_member (links, "src.src->sink.sink");
  assert_near (json_object_get_double_member (l0, "late_ms_p50"), 160.0,
      160.0 * 0.0625);
  assert_near (json_object_get_double_member (l0, "late_ms_max"), 160.0,
      1e-9);
  g_assert_false (json_object_has_member (json_object_get_object_member
          (links, "src.src_1->sink2.sink"), "late_ms_p50"));

  /* and back from session.json */
  {
    gchar *json = gp_session_to_data (s, TRUE, NULL);
    GError *err = NULL;
    GpSession *back = gp_session_load_data (json, -1, "lateness", &err);
    GpSinkSummary *bs;

    g_assert_no_error (err);
    bs = gp_session_find_sink (back, "sink");
    assert_near (bs->late_trend_ms_per_s, ss->late_trend_ms_per_s, 1e-6);
    assert_near (bs->late_ms.p95, ss->late_ms.p95, 1e-6);
    g_assert_cmpuint (bs->late_windows, ==, 8);
    g_assert_true (isnan (gp_session_find_sink (back,
                "sink2")->late_trend_ms_per_s));
    gp_session_free (back);
    g_free (json);
  }
  gp_aggregator_free (agg);
  gp_session_free (s);
}

int
main (int argc, char **argv)
{
  gst_init (&argc, &argv);
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/aggregate/hist-merge", test_hist_merge);
  g_test_add_func ("/aggregate/rates", test_rates);
  g_test_add_func ("/aggregate/rates-preroll", test_rates_preroll);
  g_test_add_func ("/aggregate/rates-pushes", test_rates_pushes);
  g_test_add_func ("/aggregate/series-bounded", test_series_bounded);
  g_test_add_func ("/aggregate/short-window", test_short_window);
  g_test_add_func ("/aggregate/long-first-window", test_long_first_window);
  g_test_add_func ("/aggregate/impossible-counts", test_impossible_counts);
  g_test_add_func ("/aggregate/target-fps", test_target_fps);
  g_test_add_func ("/aggregate/graph", test_graph);
  g_test_add_func ("/aggregate/graph-from-windows", test_graph_from_windows);
  g_test_add_func ("/aggregate/events", test_events);
  g_test_add_func ("/aggregate/threads", test_threads);
  g_test_add_func ("/aggregate/process", test_process);
  g_test_add_func ("/aggregate/run-delay-and-rtp", test_run_delay_and_rtp);
  g_test_add_func ("/aggregate/latency", test_latency);
  g_test_add_func ("/aggregate/malformed", test_malformed);
  g_test_add_func ("/aggregate/concurrent", test_concurrent);
  g_test_add_func ("/aggregate/event-cap", test_event_cap);
  g_test_add_func ("/aggregate/stop-and-media", test_stop_and_media);
  g_test_add_func ("/aggregate/single-queues", test_single_queues);
  g_test_add_func ("/aggregate/event-data", test_event_data);
  g_test_add_func ("/aggregate/blocked-thread", test_blocked_thread);
  g_test_add_func ("/aggregate/lateness", test_lateness);
  return g_test_run ();
}
