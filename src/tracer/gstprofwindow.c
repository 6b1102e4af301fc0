/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof tracer
 *
 * gstprofwindow.c: the window emitter.  A private thread with its own
 * GMainContext (so windows close whether or not the application runs a main
 * loop) samples queue levels every few tens of ms and, every window, reads
 * and resets the accumulators the hooks fill, builds one `gstprof-window`
 * record and emits it.  Nothing here runs on a streaming thread, except
 * `flush`, which builds the same record on the caller's thread.
 *
 * Each window also reads the whole process from /proc (its CPU clock, its
 * RSS, and every thread of /proc/self/task), so CPU burnt on threads that
 * never pass a pad (an encoder's own workers, a library's pool) is seen too.
 * That costs one directory read and a clock read plus one small file read
 * per thread per window, all on the timer thread; the hot path is untouched.
 *
 * Reading is lock-free against the hot path: histograms and sums are taken
 * with an atomic exchange to 0 (no snapshot copies), single-writer counters
 * (links) as deltas against the previous window.  The registry lock is held
 * only to copy the lists of states; GStreamer objects are locked afterwards,
 * never under our locks, so a hook called with an object lock held can never
 * deadlock against the timer.
 */
/* sched_getaffinity () and CPU_COUNT () */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstprofprivate.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sched.h>
#endif

#define GP_SAMPLE_NS (25 * GST_MSECOND)
#define GP_SAMPLE_MIN_NS (5 * GST_MSECOND)

/* registry snapshots */

static GPtrArray *
gp_copy_elems (GstProfTracer * self)
{
  GPtrArray *a;
  guint i;

  g_mutex_lock (&self->reg_lock);
  a = g_ptr_array_new_full (self->elems->len, (GDestroyNotify) gp_elem_unref);
  for (i = 0; i < self->elems->len; i++)
    g_ptr_array_add (a, gp_elem_ref (g_ptr_array_index (self->elems, i)));
  g_mutex_unlock (&self->reg_lock);
  return a;
}

static GPtrArray *
gp_copy_pads (GstProfTracer * self)
{
  GPtrArray *a;
  guint i;

  g_mutex_lock (&self->reg_lock);
  a = g_ptr_array_new_full (self->pads->len, (GDestroyNotify) gp_pad_unref);
  for (i = 0; i < self->pads->len; i++)
    g_ptr_array_add (a, gp_pad_ref (g_ptr_array_index (self->pads, i)));
  g_mutex_unlock (&self->reg_lock);
  return a;
}

static GPtrArray *
gp_copy_threads (GstProfTracer * self)
{
  GPtrArray *a;
  guint i;

  g_mutex_lock (&self->reg_lock);
  a = g_ptr_array_new_full (self->threads->len,
      (GDestroyNotify) gp_thread_unref);
  for (i = 0; i < self->threads->len; i++) {
    GpThread *t = g_ptr_array_index (self->threads, i);

    g_atomic_int_inc (&t->ref);
    g_ptr_array_add (a, t);
  }
  g_mutex_unlock (&self->reg_lock);
  return a;
}

/* value helpers */

/* Sparse [bucket, count, ...] of a dense histogram, reset to 0 on the way:
 * each bucket is exchanged, so a concurrent add lands in this window or the
 * next, never nowhere. */
static void
gp_take_hist (GstStructure * s, const gchar * field, guint64 * hist)
{
  GValue arr = G_VALUE_INIT;
  guint b;

  g_value_init (&arr, GST_TYPE_ARRAY);
  for (b = 0; b < GP_HIST_N_BUCKETS; b++) {
    guint64 c;
    GValue v = G_VALUE_INIT;

    if (!hist || gp_load (&hist[b]) == 0)
      continue;
    c = gp_xchg (&hist[b], 0);
    if (!c)
      continue;
    g_value_init (&v, G_TYPE_UINT64);
    g_value_set_uint64 (&v, b);
    gst_value_array_append_and_take_value (&arr, &v);
    g_value_init (&v, G_TYPE_UINT64);
    g_value_set_uint64 (&v, c);
    gst_value_array_append_and_take_value (&arr, &v);
  }
  gst_structure_take_value (s, field, &arr);
}

void
gp_list_take_structure (GValue * list, GstStructure * s)
{
  GValue v = G_VALUE_INIT;

  g_value_init (&v, GST_TYPE_STRUCTURE);
  g_value_take_boxed (&v, s);
  gst_value_list_append_and_take_value (list, &v);
}

/* queue levels */

static void
gp_level_add (GpQueueAcc * q, guint64 lb, guint64 lby, guint64 lt,
    gdouble pct)
{
  q->n_level++;
  q->level_buffers_sum += lb;
  q->level_buffers_max = MAX (q->level_buffers_max, lb);
  q->level_bytes_max = MAX (q->level_bytes_max, lby);
  q->level_time_max = MAX (q->level_time_max, lt);
  q->level_pct_sum += pct;
  q->level_pct_max = MAX (q->level_pct_max, pct);
}

/* A multiqueue's single queue: its pads tell its level (since 1.18; before,
 * the tracer's own ring counts buffers and bytes).  Its limit in buffers
 * is no limit: multiqueue raises it on its own when a queue is full while
 * another is empty, so only bytes and time count in the fill. */
static void
gp_sample_single_queue (GpQueueAcc * q, GstPad * sinkpad, GpPad * p,
    guint mby, guint64 mt)
{
  guint64 lb = 0, lby = 0, lt = 0;
  gdouble pct = 0;

  if (g_object_class_find_property (G_OBJECT_GET_CLASS (sinkpad),
          "current-level-time")) {
    guint cb = 0, cby = 0;

    g_object_get (sinkpad, "current-level-buffers", &cb,
        "current-level-bytes", &cby, "current-level-time", &lt, NULL);
    lb = cb;
    lby = cby;
  } else if (p->ring && !g_atomic_int_get (&p->ring->broken)) {
    GpRing *r = p->ring;
    guint64 h = gp_load (&r->head), t = gp_load (&r->tail);
    guint64 bi = gp_load (&r->bytes_in), bo = gp_load (&r->bytes_out);

    lb = h > t ? h - t : 0;
    lby = bi > bo ? bi - bo : 0;
  }
  if (mby)
    pct = MAX (pct, 100.0 * lby / mby);
  if (mt)
    pct = MAX (pct, 100.0 * lt / mt);
  gp_level_add (q, lb, lby, lt, pct);
  q->max_bytes = mby;
  q->max_time = mt;
}

static void
gp_sample_queue (GstProfTracer * self, GpElem * e, GstElement * q)
{
  guint mb = 0, mby = 0;
  guint64 mt = 0;

  g_object_get (q, "max-size-buffers", &mb, "max-size-bytes", &mby,
      "max-size-time", &mt, NULL);
  if (e->qtype == GP_QUEUE_MULTI) {
    GList *pads = NULL, *l;

    GST_OBJECT_LOCK (q);
    for (l = q->sinkpads; l; l = l->next)
      pads = g_list_prepend (pads, gst_object_ref (l->data));
    GST_OBJECT_UNLOCK (q);
    for (l = pads; l; l = l->next) {
      GpPad *p = g_object_get_qdata (l->data, self->q_pad);

      if (p && p->q)
        gp_sample_single_queue (p->q, l->data, p, mby, mt);
    }
    g_list_free_full (pads, gst_object_unref);
  } else if (e->q) {
    guint cb = 0, cby = 0;
    guint64 lt = 0;
    gdouble pct = 0;

    g_object_get (q, "current-level-buffers", &cb, "current-level-bytes",
        &cby, "current-level-time", &lt, NULL);
    if (mb)
      pct = MAX (pct, 100.0 * cb / mb);
    if (mby)
      pct = MAX (pct, 100.0 * cby / mby);
    if (mt)
      pct = MAX (pct, 100.0 * lt / mt);
    gp_level_add (e->q, cb, cby, lt, pct);
    e->q->max_buffers = mb;
    e->q->max_bytes = mby;
    e->q->max_time = mt;
  }
  if (g_object_class_find_property (G_OBJECT_GET_CLASS (q), "leaky")) {
    gint leaky = 0;

    g_object_get (q, "leaky", &leaky, NULL);
    e->leaky = leaky == 1 ? "upstream" : leaky == 2 ? "downstream" : "no";
  }
}

/* An element with a queue of its own (appsrc): its level. The properties
 * are read under the element's own lock. */
static void
gp_sample_own_level (GpElem * e, GstElement * el)
{
  guint64 level = 0, limit = 0;
  gboolean blocks = FALSE;
  GParamSpec *spec;

  g_object_get (el, "current-level-bytes", &level, "max-bytes", &limit,
      NULL);
  spec = g_object_class_find_property (G_OBJECT_GET_CLASS (el), "block");
  if (spec && spec->value_type == G_TYPE_BOOLEAN)
    g_object_get (el, "block", &blocks, NULL);
  e->level_n++;
  e->level_bytes_max = MAX (e->level_bytes_max, level);
  e->level_bytes = level;
  e->level_limit = limit;
  e->level_blocks = blocks;
}

/* Whether a level sample is missing this window (a window shorter than
 * the sampling period still gets one). */
static gboolean
gp_queue_needs_level (GstProfTracer * self, GpElem * e)
{
  return (e->q && e->q->n_level == 0) || e->qtype == GP_QUEUE_MULTI ||
      (e->own_level && e->level_n == 0);
}

static void
gp_sample_levels (GstProfTracer * self, GPtrArray * elems)
{
  GPtrArray *own = elems ? NULL : gp_copy_elems (self);
  GPtrArray *a = elems ? elems : own;
  guint i;

  for (i = 0; i < a->len; i++) {
    GpElem *e = g_ptr_array_index (a, i);
    GstElement *q;

    if ((e->qtype == GP_QUEUE_NONE && !e->own_level)
        || g_atomic_int_get (&e->dead))
      continue;
    q = g_weak_ref_get (&e->obj);
    if (!q)
      continue;
    if (e->own_level)
      gp_sample_own_level (e, q);
    else
      gp_sample_queue (self, e, q);
    gst_object_unref (q);
  }
  if (own)
    g_ptr_array_unref (own);
}

/* window sections */

/* the record names (gp_names_refresh), then the pads' "element.pad" */
static void
gp_refresh_names (GstProfTracer * self, GPtrArray * pads)
{
  guint i;

  gp_names_refresh (self);
  for (i = 0; i < pads->len; i++) {
    GpPad *p = g_ptr_array_index (pads, i);
    GstPad *o = g_weak_ref_get (&p->obj);
    gchar *name;

    if (!o) {
      g_atomic_int_set (&p->dead, 1);
      continue;
    }
    name = gp_pad_full_name (self, o);
    gst_object_unref (o);
    g_mutex_lock (&p->lock);
    g_free (p->name);
    p->name = name;
    g_mutex_unlock (&p->lock);
  }
}

static void
gp_add_elements (GstProfTracer * self, GstStructure * w, GPtrArray * elems)
{
  GValue list = G_VALUE_INIT;
  guint i;

  g_value_init (&list, GST_TYPE_LIST);
  for (i = 0; i < elems->len; i++) {
    GpElem *e = g_ptr_array_index (elems, i);
    guint64 buffers, event_ns;
    gint seen;
    GstStructure *s;

    if (e->is_bin)
      continue;
    buffers = gp_xchg (&e->buffers, 0);
    event_ns = gp_xchg (&e->event_ns, 0);
    seen = __atomic_exchange_n (&e->seen, 0, __ATOMIC_RELAXED);
    if (!buffers && !event_ns && !seen)
      continue;

    s = gst_structure_new (GP_RECORD_ELEMENT,
        GP_E_NAME, G_TYPE_STRING, e->name ? e->name : "",
        GP_E_FACTORY, G_TYPE_STRING, e->factory,
        GP_E_KIND, G_TYPE_STRING, gp_kind_name (e->kind), NULL);
    if (e->is_source)
      gst_structure_set (s, GP_E_LIVE, G_TYPE_BOOLEAN,
          g_atomic_int_get (&e->live) == 1, NULL);
    gst_structure_set (s, GP_E_BUFFERS, G_TYPE_UINT64, buffers,
        GP_E_SELF_NS, G_TYPE_UINT64, gp_xchg (&e->self_ns, 0),
        GP_E_SELF_MAX_NS, G_TYPE_UINT64, gp_xchg (&e->self_max, 0), NULL);
    gp_take_hist (s, GP_E_SELF_HIST, e->hist);
    gst_structure_set (s, GP_E_CPU_BUFFERS, G_TYPE_UINT64,
        gp_xchg (&e->cpu_samples, 0),
        GP_E_WAIT_NS, G_TYPE_UINT64, gp_xchg (&e->wait_ns, 0), NULL);
    gp_take_hist (s, GP_E_WAIT_HIST, e->wait_hist);
    if (self->cpu)
      gst_structure_set (s, GP_E_CPU_NS, G_TYPE_UINT64,
          gp_xchg (&e->cpu_ns, 0), NULL);
    gst_structure_set (s, GP_E_EVENT_NS, G_TYPE_UINT64, event_ns, NULL);
    if (e->handlers) {
      guint64 n = gp_xchg (&e->handler_n, 0);

      if (n > 0)
        gst_structure_set (s, GP_E_HANDLER_NS, G_TYPE_UINT64,
            gp_xchg (&e->handler_ns, 0), GP_E_HANDLER_N, G_TYPE_UINT64, n,
            NULL);
    }
    if (e->own_level && e->level_n > 0) {
      gst_structure_set (s, GP_E_LEVEL_BYTES_MAX, G_TYPE_UINT64,
          e->level_bytes_max, GP_E_LEVEL_BYTES, G_TYPE_UINT64,
          e->level_bytes, GP_E_LEVEL_LIMIT_BYTES, G_TYPE_UINT64,
          e->level_limit, GP_E_LEVEL_BLOCKS, G_TYPE_BOOLEAN,
          e->level_blocks, NULL);
      e->level_n = 0;
      e->level_bytes_max = 0;
    }
    gp_list_take_structure (&list, s);
  }
  gst_structure_take_value (w, GP_W_ELEMENTS, &list);
}

/* The link's lateness this window (gp-record.h GP_L_LATE_*), reset on
 * the way; nothing when no buffer's was measured. */
static void
gp_take_link_late (GstStructure * s, GpPad * p)
{
  guint64 n;

  if (gp_load (&p->late_n) == 0)
    return;
  n = gp_xchg (&p->late_n, 0);
  gst_structure_set (s, GP_L_LATE_N, G_TYPE_UINT64, n,
      GP_L_LATE_SUM_NS, G_TYPE_UINT64, gp_xchg (&p->late_sum, 0),
      GP_L_LATE_MAX_NS, G_TYPE_UINT64, gp_xchg (&p->late_max, 0), NULL);
  gp_take_hist (s, GP_L_LATE_HIST, p->late_hist);
}

/* A link's RTP counters (gp-record.h GP_L_RTP_*), read before its buffer
 * count: the pusher counts the buffer first, so a push racing the window
 * never shows more packets received than buffers carried. */
typedef struct
{
  gboolean seen;
  guint64 expected, received, restarts;
} GpRtpCounts;

static void
gp_read_link_rtp (GpPad * p, GpRtpCounts * c)
{
  c->seen = g_atomic_int_get (&p->rtp_seen);
  c->received = gp_load (&p->rtp_received);
  c->expected = gp_load (&p->rtp_expected);
  c->restarts = gp_load (&p->rtp_restarts);
}

/* The link's RTP counts this window, once it carried a packet. */
static void
gp_take_link_rtp (GstStructure * s, GpPad * p, const GpRtpCounts * c)
{
  guint64 e = c->expected, r = c->received, x = c->restarts;

  if (!c->seen)
    return;
  gst_structure_set (s, GP_L_RTP_EXPECTED, G_TYPE_UINT64,
      e - p->last_rtp_expected, GP_L_RTP_RECEIVED, G_TYPE_UINT64,
      r - p->last_rtp_received, GP_L_RTP_RESTARTS, G_TYPE_UINT64,
      x - p->last_rtp_restarts, NULL);
  p->last_rtp_expected = e;
  p->last_rtp_received = r;
  p->last_rtp_restarts = x;
}

/* The time pad probes took on the link this window, once any ran. */
static void
gp_take_link_probes (GstStructure * s, GpPad * p)
{
  guint64 ns = gp_load (&p->probe_ns), n = gp_load (&p->probe_n);

  if (n == 0)
    return;
  gst_structure_set (s, GP_L_PROBE_NS, G_TYPE_UINT64, ns - p->last_probe_ns,
      GP_L_PROBE_N, G_TYPE_UINT64, n - p->last_probe_n, NULL);
  p->last_probe_ns = ns;
  p->last_probe_n = n;
}

/* Where @p's buffers went: the real pad downstream, remembered as the
 * pad's last link; a pad that died or was unlinked since the last window
 * keeps its last link for the buffers it pushed before (a pipeline torn
 * down before the timer closed the window: gst-launch-1.0 at EOS, a
 * program's last seconds).  NULL when there is no link to report.
 * @news: what there is to report since the last window: the buffers it
 * pushed, and the pushes whose probes' time closed (a push is counted at
 * its start, its probes at its end: a window can fall between). */
static gchar *
gp_link_sink_name (GstProfTracer * self, GpPad * p, GstPad * pad,
    guint64 news)
{
  GstPad *sink = pad ? gp_pad_downstream_real (pad) : NULL;

  if (sink) {
    g_free (p->link_sink);
    p->link_sink = gp_pad_full_name (self, sink);
    gst_object_unref (sink);
    return g_strdup (p->link_sink);
  }
  if (news == 0)
    return NULL;
  /* pushed, then gone before any window reported the link: its peer's
   * state, which the last push left (a proxy peer has none); the lock
   * keeps a pusher's gp_pad_refresh_peer off it meanwhile */
  if (p->link_sink == NULL) {
    g_mutex_lock (&self->state_lock);
    if (p->peer_state != NULL)
      p->link_sink = gp_pad_dup_name (p->peer_state);
    g_mutex_unlock (&self->state_lock);
  }
  return g_strdup (p->link_sink);
}

static void
gp_add_links (GstProfTracer * self, GstStructure * w, GPtrArray * pads)
{
  GValue list = G_VALUE_INIT;
  guint i;

  g_value_init (&list, GST_TYPE_LIST);
  for (i = 0; i < pads->len; i++) {
    GpPad *p = g_ptr_array_index (pads, i);
    GstPad *pad;
    guint64 b, by, du, ti, np, gap, last_ts;
    GpRtpCounts rtp;
    gchar *caps = NULL, *mem = NULL, *sink_name, *src_name;
    GstStructure *s;

    if (!p->is_src || p->is_proxy || p->reported_dead)
      continue;
    /* a push racing the close may be counted here and timed in the next
     * window: one buffer's interval off, once (the pusher stores it after
     * its count) */
    gp_read_link_rtp (p, &rtp);
    last_ts = gp_load (&p->last_push_ts);
    b = gp_load (&p->buffers);
    by = gp_load (&p->bytes);
    du = gp_load (&p->duration);
    ti = gp_load (&p->timed);
    np = gp_load (&p->no_pts);
    gap = gp_load (&p->gap);

    /* a dead pad is reported once more, with what it pushed since the
     * last window (gp_retire lets it go after this one) */
    pad = g_atomic_int_get (&p->dead) ? NULL : g_weak_ref_get (&p->obj);
    sink_name = gp_link_sink_name (self, p, pad, b - p->last_buffers +
        gp_load (&p->probe_n) - p->last_probe_n);
    if (!sink_name) {
      if (pad)
        gst_object_unref (pad);
      continue;
    }

    g_mutex_lock (&p->lock);
    caps = g_strdup (p->caps);
    mem = g_strdup (p->memory);
    src_name = g_strdup (p->name ? p->name : "");
    g_mutex_unlock (&p->lock);
    if (!caps && pad) {
      /* caps resent as sticky events with a buffer (a pad linked after its
       * caps were pushed) pass no push-event hook before GStreamer 1.24 */
      GstCaps *c = gst_pad_get_current_caps (pad);

      if (c) {
        g_free (mem);
        gp_caps_describe (c, &caps, &mem);
        gst_caps_unref (c);
      }
    }

    s = gst_structure_new (GP_RECORD_LINK,
        GP_L_SRC, G_TYPE_STRING, src_name,
        GP_L_SINK, G_TYPE_STRING, sink_name,
        GP_L_BUFFERS, G_TYPE_UINT64, b - p->last_buffers,
        GP_L_BYTES, G_TYPE_UINT64, by - p->last_bytes,
        GP_L_DURATION_NS, G_TYPE_UINT64, du - p->last_duration,
        GP_L_TIMED, G_TYPE_UINT64, ti - p->last_timed, NULL);
    if (b > p->last_buffers)
      gst_structure_set (s, GP_L_LAST_TS, G_TYPE_UINT64, last_ts, NULL);
    if (caps)
      gst_structure_set (s, GP_L_CAPS, G_TYPE_STRING, caps, NULL);
    gst_structure_set (s, GP_L_MEMORY, G_TYPE_STRING, mem ? mem : "system",
        NULL);
    if (np > 0)
      gst_structure_set (s, GP_L_NO_PTS, G_TYPE_UINT64, np - p->last_no_pts,
          NULL);
    if (gap > 0)
      gst_structure_set (s, GP_L_GAP, G_TYPE_UINT64, gap - p->last_gap, NULL);
    gp_take_link_late (s, p);
    gp_take_link_rtp (s, p, &rtp);
    gp_take_link_probes (s, p);
    p->last_buffers = b;
    p->last_bytes = by;
    p->last_duration = du;
    p->last_timed = ti;
    p->last_no_pts = np;
    p->last_gap = gap;
    gp_list_take_structure (&list, s);

    g_free (sink_name);
    g_free (src_name);
    g_free (caps);
    g_free (mem);
    if (pad)
      gst_object_unref (pad);
  }
  gst_structure_take_value (w, GP_W_LINKS, &list);
}

/* One queue record from @q, which is reset for the next window. */
static GstStructure *
gp_queue_record (GpElem * e, GpQueueAcc * q, const gchar * pad)
{
  GstStructure *s;
  guint n = q->n_level;

  s = gst_structure_new (GP_RECORD_QUEUE,
      GP_Q_NAME, G_TYPE_STRING, e->name ? e->name : "",
      GP_Q_FACTORY, G_TYPE_STRING, e->factory, NULL);
  if (pad)
    gst_structure_set (s, GP_Q_PAD, G_TYPE_STRING, pad, NULL);
  gp_take_hist (s, GP_Q_RESIDENCE_HIST, q->res_hist);
  gst_structure_set (s,
      GP_Q_RESIDENCE_MAX_NS, G_TYPE_UINT64, gp_xchg (&q->res_max, 0),
      GP_Q_LEVEL_BUFFERS_MEAN, G_TYPE_DOUBLE,
      n ? q->level_buffers_sum / n : 0.0,
      GP_Q_LEVEL_BUFFERS_MAX, G_TYPE_UINT64, q->level_buffers_max,
      GP_Q_LEVEL_BYTES_MAX, G_TYPE_UINT64, q->level_bytes_max,
      GP_Q_LEVEL_TIME_MAX_NS, G_TYPE_UINT64, q->level_time_max,
      GP_Q_LEVEL_PCT_MEAN, G_TYPE_DOUBLE, n ? q->level_pct_sum / n : 0.0,
      GP_Q_LEVEL_PCT_MAX, G_TYPE_DOUBLE, q->level_pct_max,
      GP_Q_MAX_BUFFERS, G_TYPE_UINT, q->max_buffers,
      GP_Q_MAX_BYTES, G_TYPE_UINT, q->max_bytes,
      GP_Q_MAX_TIME_NS, G_TYPE_UINT64, q->max_time,
      GP_Q_LEAKY, G_TYPE_STRING, e->leaky,
      GP_Q_DROPPED, G_TYPE_UINT64, gp_xchg (&q->dropped, 0),
      GP_Q_BLOCKED_NS, G_TYPE_UINT64, gp_xchg (&q->blocked_ns, 0), NULL);
  q->n_level = 0;
  q->level_buffers_sum = 0;
  q->level_buffers_max = 0;
  q->level_bytes_max = 0;
  q->level_time_max = 0;
  q->level_pct_sum = 0;
  q->level_pct_max = 0;
  return s;
}

static void
gp_add_queues (GstProfTracer * self, GstStructure * w, GPtrArray * elems)
{
  GValue list = G_VALUE_INIT;
  guint i;

  g_value_init (&list, GST_TYPE_LIST);
  for (i = 0; i < elems->len; i++) {
    GpElem *e = g_ptr_array_index (elems, i);

    if (e->q) {
      gp_list_take_structure (&list, gp_queue_record (e, e->q, NULL));
    } else if (e->qtype == GP_QUEUE_MULTI) {
      /* one record per single queue, named by its sink pad */
      GstElement *mq = g_weak_ref_get (&e->obj);
      GList *pads = NULL, *l;

      if (!mq)
        continue;
      GST_OBJECT_LOCK (mq);
      for (l = mq->sinkpads; l; l = l->next)
        pads = g_list_prepend (pads, gst_object_ref (l->data));
      GST_OBJECT_UNLOCK (mq);
      pads = g_list_reverse (pads);
      for (l = pads; l; l = l->next) {
        GpPad *p = g_object_get_qdata (l->data, self->q_pad);
        gchar *pad = gst_object_get_name (l->data);

        if (p && p->q)
          gp_list_take_structure (&list, gp_queue_record (e, p->q, pad));
        g_free (pad);
      }
      g_list_free_full (pads, gst_object_unref);
      gst_object_unref (mq);
    }
  }
  gst_structure_take_value (w, GP_W_QUEUES, &list);
}

static void
gp_add_latency (GstProfTracer * self, GstStructure * w, GPtrArray * elems)
{
  GValue list = G_VALUE_INIT;
  guint i, j;

  g_value_init (&list, GST_TYPE_LIST);
  for (i = 0; i < elems->len; i++) {
    GpElem *e = g_ptr_array_index (elems, i);
    GPtrArray *lats = g_ptr_array_new ();

    /* the pairs only grow; the GpLat memory lives as long as the element
     * state, which this snapshot holds */
    g_mutex_lock (&e->lat_lock);
    for (j = 0; j < e->lat->len; j++)
      g_ptr_array_add (lats, g_ptr_array_index (e->lat, j));
    g_mutex_unlock (&e->lat_lock);

    for (j = 0; j < lats->len; j++) {
      GpLat *l = g_ptr_array_index (lats, j);
      guint64 matched = gp_xchg (&l->matched, 0);
      guint64 unmatched = gp_xchg (&l->unmatched, 0);
      GstStructure *s;
      gchar *src_name;

      if (!matched && !unmatched)
        continue;
      src_name = gp_pad_dup_name (l->origin);
      s = gst_structure_new (GP_RECORD_LATENCY,
          GP_LAT_SOURCE, G_TYPE_STRING, src_name,
          GP_LAT_ELEMENT, G_TYPE_STRING, e->name ? e->name : "",
          GP_LAT_SINK, G_TYPE_BOOLEAN, e->is_sink, NULL);
      gp_take_hist (s, GP_LAT_HIST, l->hist);
      gst_structure_set (s,
          GP_LAT_MAX_NS, G_TYPE_UINT64, gp_xchg (&l->max_ns, 0),
          GP_LAT_SUM_NS, G_TYPE_UINT64, gp_xchg (&l->sum_ns, 0),
          GP_LAT_MATCHED, G_TYPE_UINT64, matched,
          GP_LAT_EXACT, G_TYPE_UINT64, gp_xchg (&l->exact, 0),
          GP_LAT_UNMATCHED, G_TYPE_UINT64, unmatched, NULL);
      g_free (src_name);
      gp_list_take_structure (&list, s);
    }
    g_ptr_array_unref (lats);
  }
  gst_structure_take_value (w, GP_W_LATENCY, &list);
}

static void
gp_read_comm (GpThread * t)
{
  gchar *path = g_strdup_printf ("/proc/self/task/%d/comm", t->tid);
  gchar *text = NULL;

  if (t->tid > 0 && g_file_get_contents (path, &text, NULL, NULL)) {
    g_strchomp (text);
    g_strlcpy (t->name, text, sizeof (t->name));
    g_free (text);
  }
  g_free (path);
}

/* the process and its other threads */

/* A thread of the process that no hook has seen (yet). */
typedef struct
{
  gint tid;
  guint64 cpu_last;
  guint64 scan;                 /* others_scan when last listed */
  guint64 comm_scan;            /* others_scan when comm was last read */
  gchar name[GP_THREAD_NAME_BYTES];
} GpOther;

/* A thread's comm is read when it is first met and then every this many
 * windows: names rarely change after a thread's first moments, and an
 * application may have hundreds of threads. */
#define GP_COMM_REREAD_SCANS 16


static guint64
gp_process_cpu_now (gboolean * ok)
{
  struct timespec t;

  *ok = clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &t) == 0;
  return *ok ? (guint64) t.tv_sec * GST_SECOND + (guint64) t.tv_nsec : 0;
}

/* Resident set size in bytes, 0 when unknown. */
static guint64
gp_process_rss (void)
{
#ifdef __linux__
  gchar buf[128];
  unsigned long long size, resident;
  long page = sysconf (_SC_PAGESIZE);

  if (page > 0 && gp_read_small ("/proc/self/statm", buf, sizeof buf) &&
      sscanf (buf, "%llu %llu", &size, &resident) == 2)
    return (guint64) resident * (guint64) page;
#endif
  return 0;
}

/* CPUs this process may run on: its affinity mask when the kernel tells
 * (a container or taskset may allow fewer than are online), else the
 * online count. 0 when unknown. */
static guint
gp_process_n_cpus (void)
{
  long online;

#ifdef __linux__
  cpu_set_t set;

  CPU_ZERO (&set);
  if (sched_getaffinity (0, sizeof set, &set) == 0 && CPU_COUNT (&set) > 0)
    return (guint) CPU_COUNT (&set);
#endif
  online = sysconf (_SC_NPROCESSORS_ONLN);
  return online > 0 ? (guint) online : 0;
}

#ifdef __linux__
static void
gp_comm_of (gint tid, gchar name[GP_THREAD_NAME_BYTES])
{
  gchar path[64], buf[64];

  name[0] = '\0';
  g_snprintf (path, sizeof path, "/proc/self/task/%d/comm", tid);
  if (gp_read_small (path, buf, sizeof buf)) {
    g_strchomp (buf);
    g_strlcpy (name, buf, GP_THREAD_NAME_BYTES);
  }
}

static gboolean
gp_tid_in (GPtrArray * threads, gint tid)
{
  guint i;

  for (i = 0; i < threads->len; i++)
    if (((GpThread *) g_ptr_array_index (threads, i))->tid == tid)
      return TRUE;
  return FALSE;
}

static gboolean
gp_other_gone (gpointer key, gpointer value, gpointer data)
{
  return ((GpOther *) value)->scan != *(guint64 *) data;
}
#endif

/* Walks /proc/self/task: every thread that is not a hook-seen one is
 * listed with @list (when not NULL) and its CPU since the previous walk.
 * A thread met for the first time was born after that walk (the walk at
 * start set every older thread's baseline), so all its CPU is new. */
static void
gp_scan_others (GstProfTracer * self, GPtrArray * threads, GValue * list)
{
#ifdef __linux__
  GDir *dir;
  const gchar *entry;
  guint64 scan;

  if (!self->others)
    return;
  dir = g_dir_open ("/proc/self/task", 0, NULL);
  if (!dir)
    return;
  scan = ++self->others_scan;
  while ((entry = g_dir_read_name (dir))) {
    gint tid = atoi (entry);
    GpOther *o;
    guint64 cpu, delta;
    gboolean alive = FALSE;

    if (tid <= 0)
      continue;
    if (threads && gp_tid_in (threads, tid)) {
      /* it met a hook: from now on it is a streaming thread, whose own
       * baseline was taken then */
      g_hash_table_remove (self->others, GINT_TO_POINTER (tid));
      continue;
    }
    cpu = gp_tid_cpu (tid, &alive);
    if (!alive)
      continue;                 /* exited since the directory was read */
    o = g_hash_table_lookup (self->others, GINT_TO_POINTER (tid));
    if (!o) {
      o = g_new0 (GpOther, 1);
      o->tid = tid;
      o->cpu_last = list ? 0 : cpu;
      g_hash_table_insert (self->others, GINT_TO_POINTER (tid), o);
    }
    /* a smaller clock than last time is a new thread under a reused id */
    if (cpu >= o->cpu_last) {
      delta = cpu - o->cpu_last;
    } else {
      delta = cpu;
      o->comm_scan = 0;
    }
    o->cpu_last = cpu;
    o->scan = scan;
    if (!list)
      continue;
    if (o->comm_scan == 0 || scan - o->comm_scan >= GP_COMM_REREAD_SCANS) {
      gp_comm_of (tid, o->name);
      o->comm_scan = scan;
    }
    gp_list_take_structure (list, gst_structure_new (GP_RECORD_THREAD,
            GP_T_TID, G_TYPE_UINT64, (guint64) tid,
            GP_T_NAME, G_TYPE_STRING, o->name,
            GP_T_CPU_NS, G_TYPE_UINT64, delta,
            GP_T_ELEMENTS, G_TYPE_STRING, "",
            GP_T_STREAMING, G_TYPE_BOOLEAN, FALSE, NULL));
  }
  g_dir_close (dir);
  /* exited threads: their last slice is in proc_cpu_ns only */
  g_hash_table_foreach_remove (self->others, gp_other_gone, &scan);
#else
  (void) self;
  (void) threads;
  (void) list;
#endif
}

static void
gp_add_process (GstProfTracer * self, GstStructure * w)
{
  gboolean ok;
  guint64 cpu = gp_process_cpu_now (&ok), rss;

  if (w == NULL) {
    /* the baseline at start */
    self->proc_cpu_last = cpu;
    self->have_proc_cpu = ok;
    return;
  }
  rss = gp_process_rss ();
  if (ok && self->have_proc_cpu)
    gst_structure_set (w, GP_W_PROC_CPU_NS, G_TYPE_UINT64,
        cpu > self->proc_cpu_last ? cpu - self->proc_cpu_last : 0, NULL);
  if (ok) {
    self->proc_cpu_last = MAX (cpu, self->proc_cpu_last);
    self->have_proc_cpu = TRUE;
  }
  if (rss)
    gst_structure_set (w, GP_W_PROC_RSS_BYTES, G_TYPE_UINT64, rss, NULL);
  if (self->n_cpus)
    gst_structure_set (w, GP_W_N_CPUS, G_TYPE_UINT, self->n_cpus, NULL);
}

/* The element a streaming thread has been pushing into since before the
 * window began: the innermost open frame that belongs to an element.  Read
 * from the owner's stack without a lock: a frame shows only once it is
 * whole (gp_frame_open), and one that changes under the read is either too
 * young to count or read again next window. */
static GpElem *
gp_thread_blocked (GstProfTracer * self, GpThread * t, guint64 * since)
{
  /* acquire: pairs with gp_frame_open's release store of depth, the
   * frames below it are whole */
  guint depth = __atomic_load_n (&t->depth, __ATOMIC_ACQUIRE);
  guint i;

  if (depth == 0 || depth > GP_STACK_DEPTH)
    return NULL;
  for (i = depth; i > 0; i--) {
    GpFrame *f = &t->stack[i - 1];
    /* acquire: pairs with gp_frame_open's release store of elem, which
     * follows its stores of start and kind: the start read below is this
     * elem's frame's or newer (too young, skipped) */
    GpElem *e = __atomic_load_n (&f->elem, __ATOMIC_ACQUIRE);
    guint64 start = gp_load (&f->start);

    if (start >= self->win_start)
      continue;
    if (e && gp_load (&f->kind) == GP_FRAME_BUFFER) {
      *since = start;
      return e;
    }
  }
  return NULL;
}

/* @t's run-queue wait this window (gp-record.h GP_T_RUN_DELAY_NS), when
 * the kernel keeps it; an exited thread's up to its exit. */
static void
gp_take_run_delay (GstStructure * s, GpThread * t)
{
  guint64 now;

  if (!t->run_delay_known)
    return;
  if (g_atomic_int_get (&t->exited)) {
    if (!t->run_delay_exit_known)
      return;
    now = t->run_delay_at_exit;
  } else if (!gp_tid_run_delay (t->tid, &now)) {
    return;
  }
  gst_structure_set (s, GP_T_RUN_DELAY_NS, G_TYPE_UINT64,
      now > t->run_delay_last ? now - t->run_delay_last : 0, NULL);
  t->run_delay_last = MAX (now, t->run_delay_last);
}

static void
gp_add_threads (GstProfTracer * self, GstStructure * w, GPtrArray * threads,
    guint64 index)
{
  GValue list = G_VALUE_INIT;
  guint i, j;

  g_value_init (&list, GST_TYPE_LIST);
  for (i = 0; i < threads->len; i++) {
    GpThread *t = g_ptr_array_index (threads, i);
    guint64 cpu;
    gboolean alive = FALSE;
    GString *names = g_string_new (NULL);
    GstStructure *s;

    if (t->reported_exit)
      continue;
    if (g_atomic_int_get (&t->exited)) {
      cpu = t->cpu_at_exit;
      t->reported_exit = TRUE;
    } else {
      cpu = gp_tid_cpu (t->tid, &alive);
      if (alive)
        gp_read_comm (t);
      else
        cpu = t->cpu_last;
    }
    for (j = 0; j < GP_THREAD_ELEMS; j++) {
      /* acquire: pairs with gp_thread_add_elem's release store, the
       * element's state (its name) is visible */
      GpElem *e = __atomic_load_n (&t->elems[j].elem, __ATOMIC_ACQUIRE);

      if (e && gp_load (&t->elems[j].win) == index && e->name)
        g_string_append_printf (names, "%s%s", names->len ? "," : "",
            e->name);
    }
    s = gst_structure_new (GP_RECORD_THREAD,
        GP_T_TID, G_TYPE_UINT64, (guint64) MAX (t->tid, 0),
        GP_T_NAME, G_TYPE_STRING, t->name,
        GP_T_CPU_NS, G_TYPE_UINT64, cpu > t->cpu_last ? cpu - t->cpu_last : 0,
        GP_T_ELEMENTS, G_TYPE_STRING, names->str,
        GP_T_STREAMING, G_TYPE_BOOLEAN, TRUE, NULL);
    gp_take_run_delay (s, t);
    if (!g_atomic_int_get (&t->exited)) {
      guint64 since = 0, now = gp_now (self);
      GpElem *in = gp_thread_blocked (self, t, &since);

      if (in && in->name)
        gst_structure_set (s, GP_T_BLOCKED_IN, G_TYPE_STRING, in->name,
            GP_T_BLOCKED_NS, G_TYPE_UINT64, now > since ? now - since : 0,
            NULL);
    }
    t->cpu_last = MAX (cpu, t->cpu_last);
    g_string_free (names, TRUE);
    gp_list_take_structure (&list, s);
  }
  gp_scan_others (self, threads, &list);
  gst_structure_take_value (w, GP_W_THREADS, &list);
}

static void
gp_add_events (GstProfTracer * self, GstStructure * w)
{
  GValue list = G_VALUE_INIT;
  GPtrArray *events;
  guint64 dropped;
  guint i;

  g_mutex_lock (&self->ev_lock);
  events = self->events;
  self->events = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_structure_free);
  dropped = self->events_dropped;
  self->events_dropped = 0;
  g_mutex_unlock (&self->ev_lock);

  g_value_init (&list, GST_TYPE_LIST);
  /* the list takes the structures over */
  g_ptr_array_set_free_func (events, NULL);
  for (i = 0; i < events->len; i++)
    gp_list_take_structure (&list, g_ptr_array_index (events, i));
  g_ptr_array_unref (events);
  gst_structure_take_value (w, GP_W_EVENTS, &list);
  gst_structure_set (w, GP_W_EVENTS_DROPPED, G_TYPE_UINT64, dropped, NULL);
}

/* Dead states were reported one last time above; now the registry lets go.
 * Their links to other states go too, which breaks the reference cycles a
 * topology can form (origin pad -> peer -> element -> latency -> origin). */
static void
gp_retire (GstProfTracer * self, GPtrArray * elems, GPtrArray * pads,
    GPtrArray * threads, guint64 now)
{
  guint i;

  g_mutex_lock (&self->reg_lock);
  for (i = 0; i < elems->len; i++) {
    GpElem *e = g_ptr_array_index (elems, i);

    if (g_atomic_int_get (&e->dead) && !e->reported_dead) {
      e->reported_dead = TRUE;
      if (g_ptr_array_remove_fast (self->elems, e))
        gp_elem_unref (e);
    }
  }
  for (i = 0; i < pads->len; i++) {
    GpPad *p = g_ptr_array_index (pads, i);

    if (g_atomic_int_get (&p->dead) && !p->reported_dead) {
      p->reported_dead = TRUE;
      if (g_ptr_array_remove_fast (self->pads, p))
        gp_pad_unref (p);
    }
  }
  for (i = 0; i < threads->len; i++) {
    GpThread *t = g_ptr_array_index (threads, i);

    if (t->reported_exit && g_ptr_array_remove_fast (self->threads, t)) {
      /* trace=SECONDS: its pushes outlive it, within the span */
      gp_pushes_retire (self, t, now);
      gp_thread_unref (t);
    }
  }
  g_mutex_unlock (&self->reg_lock);

  /* the snapshot holds the last refs of most of these: release the links
   * before it drops them (nobody pushes through a dead pad) */
  for (i = 0; i < pads->len; i++) {
    GpPad *p = g_ptr_array_index (pads, i);

    if (p->reported_dead)
      gp_pad_release_links (p);
  }
  for (i = 0; i < elems->len; i++) {
    GpElem *e = g_ptr_array_index (elems, i);

    if (e->reported_dead)
      gp_elem_release_links (e);
  }
}

/* Builds and emits one window [win_start, now).  emit_lock held. */
static void
gp_emit (GstProfTracer * self, guint64 now)
{
  GstStructure *w;
  GPtrArray *elems = gp_copy_elems (self);
  GPtrArray *pads = gp_copy_pads (self);
  GPtrArray *threads = gp_copy_threads (self);
  guint64 index = gp_load (&self->win_index);
  guint i;

  gp_refresh_names (self, pads);
  /* a window shorter than the sampling period still gets one level */
  for (i = 0; i < elems->len; i++) {
    GpElem *e = g_ptr_array_index (elems, i);

    if ((e->qtype != GP_QUEUE_NONE || e->own_level)
        && gp_queue_needs_level (self, e)) {
      gp_sample_levels (self, elems);
      break;
    }
  }

  w = gst_structure_new (GP_RECORD_WINDOW,
      GP_W_INDEX, G_TYPE_UINT64, index,
      GP_W_START, G_TYPE_UINT64, self->win_start,
      GP_W_END, G_TYPE_UINT64, now, NULL);
  gp_add_elements (self, w, elems);
  gp_add_links (self, w, pads);
  gp_add_queues (self, w, elems);
  gp_add_latency (self, w, elems);
  gp_add_threads (self, w, threads, index);
  gp_add_process (self, w);
  gp_add_events (self, w);

  /* the hot path marks threads' elements with the new index from now on */
  gp_store (&self->win_index, index + 1);
  self->win_start = now;

  gp_retire (self, elems, pads, threads, now);
  g_ptr_array_unref (threads);
  g_ptr_array_unref (pads);
  g_ptr_array_unref (elems);

  gst_prof_tracer_emit_window (self, w);
  gst_structure_free (w);
}

/* the timer */

static gboolean
gp_tick_dispatch (GSource * source, GSourceFunc callback, gpointer data)
{
  return callback (data);
}

static GSourceFuncs gp_tick_funcs = {
  NULL, NULL, gp_tick_dispatch, NULL, NULL, NULL
};

static void
gp_schedule (GstProfTracer * self, guint64 now)
{
  guint64 next = MIN (self->sample_deadline, self->win_deadline);
  guint64 wait_us = next > now ? (next - now + 999) / 1000 : 0;

  g_source_set_ready_time (self->tick, g_get_monotonic_time () + wait_us);
}

/* Deadlines advance by whole periods from the start, so windows do not
 * drift with the timer's wake-up latency. */
static gboolean
gp_tick (gpointer data)
{
  GstProfTracer *self = data;
  guint64 now;

  g_rec_mutex_lock (&self->emit_lock);
  now = gp_now (self);
  if (now >= self->sample_deadline) {
    gp_sample_levels (self, NULL);
    self->sample_deadline += self->sample_ns;
    if (self->sample_deadline <= now)
      self->sample_deadline = now + self->sample_ns;
  }
  if (now >= self->win_deadline) {
    gp_emit (self, now);
    self->win_deadline += self->window_ms * GST_MSECOND;
    if (self->win_deadline <= now)
      self->win_deadline = now + self->window_ms * GST_MSECOND;
  }
  now = gp_now (self);
  gp_schedule (self, now);
  g_rec_mutex_unlock (&self->emit_lock);
  return G_SOURCE_CONTINUE;
}

static gpointer
gp_timer_thread (gpointer data)
{
  GstProfTracer *self = data;

  g_main_context_push_thread_default (self->ctx);
  g_main_loop_run (self->loop);
  g_main_context_pop_thread_default (self->ctx);
  return NULL;
}

void
gp_window_start (GstProfTracer * self)
{
  guint64 now = gp_now (self);

  self->ctx = g_main_context_new ();
  self->loop = g_main_loop_new (self->ctx, FALSE);
  self->sample_ns = MIN (GP_SAMPLE_NS, self->window_ms * GST_MSECOND / 4);
  self->sample_ns = MAX (self->sample_ns, GP_SAMPLE_MIN_NS);
  self->win_start = now;
  self->win_deadline = now + self->window_ms * GST_MSECOND;
  self->sample_deadline = now + self->sample_ns;

  /* baselines: CPU spent before the tracer started is not the first
   * window's */
  self->n_cpus = gp_process_n_cpus ();
  self->others = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  gp_scan_others (self, NULL, NULL);
  gp_add_process (self, NULL);

  self->tick = g_source_new (&gp_tick_funcs, sizeof (GSource));
  g_source_set_callback (self->tick, gp_tick, self, NULL);
  g_source_set_priority (self->tick, G_PRIORITY_HIGH);
  gp_schedule (self, now);
  g_source_attach (self->tick, self->ctx);

  self->thread = g_thread_new ("gstprof-timer", gp_timer_thread, self);
}

static gboolean
gp_quit (gpointer data)
{
  g_main_loop_quit (data);
  return G_SOURCE_REMOVE;
}

void
gp_window_stop (GstProfTracer * self)
{
  GSource *quit;

  if (!self->thread)
    return;
  quit = g_idle_source_new ();
  g_source_set_callback (quit, gp_quit, self->loop, NULL);
  g_source_attach (quit, self->ctx);
  g_source_unref (quit);
  g_thread_join (self->thread);
  self->thread = NULL;
  g_source_destroy (self->tick);
  g_source_unref (self->tick);
  g_main_loop_unref (self->loop);
  g_main_context_unref (self->ctx);
  g_rec_mutex_lock (&self->emit_lock);
  g_clear_pointer (&self->others, g_hash_table_unref);
  g_rec_mutex_unlock (&self->emit_lock);
}

void
gp_window_flush (GstProfTracer * self)
{
  g_rec_mutex_lock (&self->emit_lock);
  gp_emit (self, gp_now (self));
  /* the next window is a full one from now */
  self->win_deadline = self->win_start + self->window_ms * GST_MSECOND;
  g_rec_mutex_unlock (&self->emit_lock);
}

void
gp_window_add_event (GstProfTracer * self, GstStructure * ev)
{
  g_mutex_lock (&self->ev_lock);
  if (self->events->len < GP_RECORD_MAX_EVENTS) {
    g_ptr_array_add (self->events, ev);
    ev = NULL;
  } else {
    self->events_dropped++;
  }
  g_mutex_unlock (&self->ev_lock);
  if (ev)
    gst_structure_free (ev);
}
