/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-session-query.c: read-only questions about a session (see
 * gp-session-query.h). They look only at the GpSession, never at a live
 * pipeline.
 */
#include "gp-session-query.h"
#include "gp-caps.h"
#include "gp-launch.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

gboolean
gp_session_is_capsfilter (GpSession * s, const gchar * name)
{
  GpElement *e = gp_session_find_element (s, name);

  return e && g_strcmp0 (e->factory, "capsfilter") == 0;
}

GpElement *
gp_session_neighbour (GpSession * s, const gchar * name, gboolean down)
{
  gchar *cur = g_strdup (name);
  GpElement *e = NULL;
  guint n;

  /* a chain of capsfilters this long is no pipeline anyone writes; the
   * bound keeps a cycle in a damaged session from looping */
  for (n = 0; n < 16; n++) {
    GpLink *l = down ? gp_session_link_out_of (s, cur) :
        gp_session_link_into (s, cur);
    gchar *next;

    if (l == NULL)
      break;
    next = gp_pad_element (down ? l->sink : l->src);
    g_free (cur);
    cur = next;
    if (!gp_session_is_capsfilter (s, cur)) {
      e = gp_session_find_element (s, cur);
      break;
    }
  }
  g_free (cur);
  return e;
}

gboolean
gp_session_is_queue (GpSession * s, const gchar * name)
{
  GpElement *e = gp_session_find_element (s, name);

  if (gp_session_find_queue_summary (s, name))
    return TRUE;
  if (e == NULL)
    return FALSE;
  return g_strcmp0 (e->kind, "queue") == 0 ||
      g_strcmp0 (e->factory, "queue") == 0 ||
      g_strcmp0 (e->factory, "queue2") == 0 ||
      g_strcmp0 (e->factory, "multiqueue") == 0;
}

gboolean
gp_session_queue_unbounded (GpSession * s, const gchar * name)
{
  GpElement *e = gp_session_find_element (s, name);
  gint64 b, by, t;

  if (e == NULL || (g_strcmp0 (e->factory, "queue") != 0 &&
          g_strcmp0 (e->factory, "queue2") != 0))
    return FALSE;
  return gp_element_get_prop_int (e, "max-size-buffers", &b) &&
      gp_element_get_prop_int (e, "max-size-bytes", &by) &&
      gp_element_get_prop_int (e, "max-size-time", &t) &&
      b == 0 && by == 0 && t == 0;
}

gboolean
gp_session_is_sink (GpSession * s, const gchar * name)
{
  GpElement *e = gp_session_find_element (s, name);

  return (e && g_strcmp0 (e->kind, "sink") == 0) ||
      (s->sinks && gp_session_find_sink (s, name) != NULL);
}

gboolean
gp_session_sink_waits_on_clock (GpSession * s, const gchar * name)
{
  GpElement *e;
  gboolean sync;

  if (!gp_session_is_sink (s, name))
    return FALSE;
  e = gp_session_find_element (s, name);
  if (e && gp_element_get_prop_bool (e, "sync", &sync))
    return sync;
  /* Not recorded: GstBaseSink's default is sync=true, so assume the sink
   * waits rather than blame it for time it may have spent waiting. */
  return TRUE;
}

/* Sources that are live whatever their properties say. */
static const gchar *const gp_session_query_live_factories[] = {
  "v4l2src", "nvarguscamerasrc", "nvv4l2camerasrc", "libcamerasrc",
  "pipewiresrc", "ximagesrc", "avfvideosrc", "ksvideosrc", "mfvideosrc",
  "decklinkvideosrc", "decklinkaudiosrc", "alsasrc", "pulsesrc",
  "udpsrc", "rtspsrc", "srtsrc", "ristsrc", "webrtcbin", NULL
};

gboolean
gp_session_is_live_source (GpSession * s, const gchar * name)
{
  GpElement *e = gp_session_find_element (s, name);
  gboolean live;

  if (e == NULL)
    return FALSE;
  if (gp_element_get_prop_bool (e, "is-live", &live))
    return live;
  return e->factory && g_strv_contains (gp_session_query_live_factories,
      e->factory);
}

gboolean
gp_session_any_live (GpSession * s, GHashTable * elements)
{
  GHashTableIter it;
  gpointer key;

  g_hash_table_iter_init (&it, elements);
  while (g_hash_table_iter_next (&it, &key, NULL))
    if (gp_session_is_live_source (s, key))
      return TRUE;
  return FALSE;
}

gboolean
gp_session_fed_live (GpSession * s, const gchar * element)
{
  GHashTable *up = gp_session_upstream_of (s, element);
  gboolean live = gp_session_any_live (s, up);

  g_hash_table_unref (up);
  return live;
}

gboolean
gp_session_read_ahead (GpSession * s, const gchar * element)
{
  GHashTable *up = gp_session_upstream_of (s, element);
  GHashTableIter it;
  gpointer key;
  guint sources = 0;
  gboolean known = TRUE;

  g_hash_table_iter_init (&it, up);
  while (known && g_hash_table_iter_next (&it, &key, NULL)) {
    GpElement *e = gp_session_find_element (s, key);

    if (e == NULL || g_strcmp0 (e->kind, "source") != 0)
      continue;
    sources++;
    known = e->props != NULL && !gp_session_is_live_source (s, key);
  }
  g_hash_table_unref (up);
  return known && sources > 0;
}

/* Converters of format and/or size that run on the CPU. */
static const gchar *const gp_session_query_sw_converters[] = {
  "videoconvert", "videoscale", "videoconvertscale", "autovideoconvert",
  NULL
};

gboolean
gp_factory_is_sw_converter (const gchar * factory)
{
  return factory && g_strv_contains (gp_session_query_sw_converters, factory);
}

gdouble
gp_session_work_ms (GpSession * s, const GpElementSummary * es)
{
  GpElement *e = gp_session_find_element (s, es->name);

  /* A bin's own time is its children's; counting it would count twice. */
  if (e && e->is_bin)
    return -1;
  if (gp_session_is_queue (s, es->name))
    return -1;
  /* self time timed by CPU is work already; a sink's wall self time
   * (imports, older sessions) is mostly its wait for the clock */
  if (es->cpu_buffers == 0 && gp_session_sink_waits_on_clock (s, es->name))
    return es->cpu_ms >= 0 ? es->cpu_ms : -1;
  return es->self_total_ms;
}

const GpQuantiles *
gp_session_held_ms (const GpElementSummary * es)
{
  if (es->cpu_buffers > 0 && es->wait_ms.p50 >= 0)
    return &es->wait_ms;
  return &es->self_ms;
}

gdouble
gp_session_work_busy_pct (GpSession * s, const GpElementSummary * es)
{
  gdouble w = gp_session_work_ms (s, es);

  if (w < 0)
    return -1;
  /* busy_pct is over the PLAYING time, which the rates use too; the
   * session's duration also covers start-up and the EOS drain. */
  if (es->busy_pct >= 0 && es->self_total_ms > 0)
    return es->busy_pct * (w / es->self_total_ms);
  if (s->duration_s > 0)
    return w / (s->duration_s * 1000.0) * 100.0;
  return -1;
}

const gchar *
gp_session_element_time_words (GpSession * s)
{
  if (s->import_missing & GP_IMPORT_MISSING_SELF_TIME)
    return "element time: entry to exit, waiting included";
  return "self time: work only; downstream and waiting excluded";
}

gdouble
gp_session_total_work_ms (GpSession * s)
{
  gdouble total = 0;
  guint i;

  for (i = 0; s->elem_summaries && i < s->elem_summaries->len; i++) {
    GpElementSummary *es = g_ptr_array_index (s->elem_summaries, i);
    gdouble w;

    if ((w = gp_session_work_ms (s, es)) > 0)
      total += w;
  }
  return total;
}

GHashTable *
gp_session_upstream_of (GpSession * s, const gchar * element)
{
  GHashTable *set = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      NULL);
  gboolean grew = TRUE;
  guint i;

  g_hash_table_add (set, g_strdup (element));
  /* Fixed point over the links: graphs are small (tens of links), so a few
   * passes cost nothing and need no adjacency index. */
  while (grew) {
    grew = FALSE;
    for (i = 0; s->links && i < s->links->len; i++) {
      GpLink *l = g_ptr_array_index (s->links, i);
      gchar *src = gp_pad_element (l->src);
      gchar *sink = gp_pad_element (l->sink);

      if (g_hash_table_contains (set, sink) &&
          !g_hash_table_contains (set, src)) {
        g_hash_table_add (set, src);
        src = NULL;
        grew = TRUE;
      }
      g_free (src);
      g_free (sink);
    }
  }
  return set;
}

gboolean
gp_session_feeds (GpSession * s, const gchar * up, const gchar * element)
{
  GHashTable *set = gp_session_upstream_of (s, element);
  gboolean feeds = g_hash_table_contains (set, up);

  g_hash_table_unref (set);
  return feeds;
}

static gboolean
gp_session_query_thread_runs (const GpThreadSummary * t, const gchar * name)
{
  guint i;

  for (i = 0; t->elements && i < t->elements->len; i++)
    if (g_strcmp0 (g_ptr_array_index (t->elements, i), name) == 0)
      return TRUE;
  return FALSE;
}

/* One piece of the application's work on a thread, @pct of the run on
 * @es (NULL: unknown): summed as that element's time would be, split
 * evenly over the threads it ran on; the largest kept in @most. */
static gdouble
gp_session_app_work_add (const GpElementSummary * es, const gchar * id,
    gboolean handlers, gdouble pct, gdouble mean_ms, GpAppWork * most)
{
  if (most && (most->id == NULL || pct > most->busy_pct)) {
    most->id = id;
    most->handlers = handlers;
    most->busy_pct = pct;
    most->mean_ms = mean_ms;
  }
  return pct / (es && es->threads && es->threads->len > 1 ?
      es->threads->len : 1);
}

gdouble
gp_session_thread_app (GpSession * s, const GpThreadSummary * t,
    GpAppWork * most)
{
  gdouble sum = 0;
  guint i;

  if (most)
    memset (most, 0, sizeof (*most));
  for (i = 0; s->links && i < s->links->len; i++) {
    GpLink *l = g_ptr_array_index (s->links, i);
    GpLinkSummary *ls = gp_session_find_link_summary (s, l->id);
    gchar *into;

    if (ls == NULL || ls->probe_busy_pct <= 0)
      continue;
    into = gp_pad_element (l->sink);
    if (gp_session_query_thread_runs (t, into))
      sum += gp_session_app_work_add (gp_session_find_elem_summary (s, into),
          ls->id, FALSE, ls->probe_busy_pct, ls->probe_pushes > 0 ?
          ls->probe_ms / ls->probe_pushes : 0, most);
    g_free (into);
  }
  for (i = 0; t->elements && i < t->elements->len; i++) {
    GpElementSummary *es =
        gp_session_find_elem_summary (s, g_ptr_array_index (t->elements, i));

    if (es && es->handler_busy_pct > 0)
      sum += gp_session_app_work_add (es, es->name, TRUE,
          es->handler_busy_pct, es->handler_calls > 0 ?
          es->handler_ms / es->handler_calls : 0, most);
  }
  return sum;
}

gchar *
gp_app_work_words (const GpAppWork * w)
{
  return g_strdup_printf (w->handlers ? "the signal handlers on %s" :
      "the pad probes on %s", w->id);
}

gdouble
gp_session_thread_busy_pct (GpSession * s, const GpThreadSummary * t)
{
  gdouble sum = gp_session_thread_app (s, t, NULL);
  gboolean any = sum > 0;
  guint i;

  for (i = 0; t->elements && i < t->elements->len; i++) {
    GpElementSummary *es =
        gp_session_find_elem_summary (s, g_ptr_array_index (t->elements, i));
    gdouble b;

    if (es == NULL || (b = gp_session_work_busy_pct (s, es)) < 0)
      continue;
    /* An element seen on several threads: its time is split evenly, the
     * session does not say how much ran where. */
    if (es->threads && es->threads->len > 1)
      b /= es->threads->len;
    sum += b;
    any = TRUE;
  }
  return any ? sum : -1;
}

static gboolean
gp_session_query_thread_runs_any (const GpThreadSummary * t, GHashTable * only)
{
  guint i;

  for (i = 0; t->elements && i < t->elements->len; i++)
    if (g_hash_table_contains (only, g_ptr_array_index (t->elements, i)))
      return TRUE;
  return FALSE;
}

GpThreadSummary *
gp_session_thread_of (GpSession * s, const gchar * element)
{
  GpThreadSummary *best = NULL;
  guint i, j;

  for (i = 0; s->threads && i < s->threads->len; i++) {
    GpThreadSummary *t = g_ptr_array_index (s->threads, i);

    for (j = 0; t->elements && j < t->elements->len; j++) {
      if (g_strcmp0 (g_ptr_array_index (t->elements, j), element) == 0 &&
          (best == NULL || t->cpu_pct_mean > best->cpu_pct_mean))
        best = t;
    }
  }
  return best;
}

GpThreadSummary *
gp_session_limiting_thread (GpSession * s, GHashTable * only)
{
  GpThreadSummary *best = NULL;
  gdouble best_busy = -2;
  guint i;

  /* Wall busy share first: a thread blocked in an element (I/O, a sleep, an
   * encoder waiting for its own worker threads) limits the rate as surely
   * as one burning CPU, and its CPU % would hide that. */
  for (i = 0; s->threads && i < s->threads->len; i++) {
    GpThreadSummary *t = g_ptr_array_index (s->threads, i);
    gdouble busy;

    if (only && !gp_session_query_thread_runs_any (t, only))
      continue;
    busy = gp_session_thread_busy_pct (s, t);
    if (best == NULL || busy > best_busy ||
        (busy == best_busy && t->cpu_pct_mean > best->cpu_pct_mean)) {
      best = t;
      best_busy = busy;
    }
  }
  return best;
}

const GpThreadSummary *
gp_session_blocked_thread (GpSession * s)
{
  const GpThreadSummary *blocked = NULL;
  guint i;

  for (i = 0; s->threads && i < s->threads->len; i++) {
    GpThreadSummary *t = g_ptr_array_index (s->threads, i);

    if (t->blocked_in && (!blocked || t->blocked_ms > blocked->blocked_ms))
      blocked = t;
  }
  return blocked;
}

GpElementSummary *
gp_session_hottest_on_thread (GpSession * s, const GpThreadSummary * t)
{
  GpElementSummary *best = NULL;
  gdouble best_w = -1;
  guint i;

  for (i = 0; t->elements && i < t->elements->len; i++) {
    GpElementSummary *es =
        gp_session_find_elem_summary (s, g_ptr_array_index (t->elements, i));
    gdouble w;

    if (es == NULL || (w = gp_session_work_ms (s, es)) < 0)
      continue;
    if (w > best_w) {
      best = es;
      best_w = w;
    }
  }
  return best;
}

gdouble
gp_session_sink_target_fps (GpSession * s, const gchar * sink)
{
  GpSinkSummary *sk = gp_session_find_sink (s, sink);

  if (sk && sk->target_fps > 0)
    return sk->target_fps;
  /* an audio, RTP or muxed output has no frame rate to keep up with,
   * whatever the video beside it runs at */
  if (sk && gp_media_kind_from_name (sk->media) != GP_MEDIA_VIDEO
      && gp_media_kind_from_name (sk->media) != GP_MEDIA_UNKNOWN)
    return -1;
  /* nor does a sink a bin made for itself that gets no caps we know
   * (rtspsrc's NAT probe: a few buffers, then nothing, by design) */
  if (sk && gp_media_kind_from_name (sk->media) == GP_MEDIA_UNKNOWN &&
      !gp_session_is_users (s, sink))
    return -1;
  return s->target_fps > 0 ? s->target_fps : -1;
}

gdouble
gp_session_video_fps (const GpSession * s)
{
  guint i;

  for (i = 0; i < s->sinks->len; i++) {
    GpSinkSummary *ss = g_ptr_array_index (s->sinks, i);

    if (g_strcmp0 (ss->media, "video") == 0 && ss->fps > 0)
      return ss->fps;
  }
  return NAN;
}

gdouble
gp_session_sinks_fps (const GpSession * s)
{
  gdouble sum = 0;
  guint i;

  for (i = 0; i < s->sinks->len; i++) {
    const GpSinkSummary *k = g_ptr_array_index (s->sinks, i);

    if (k->fps > 0)
      sum += k->fps;
  }
  return sum;
}

gdouble
gp_session_sink_media_x (GpSession * s, const GpSinkSummary * sk)
{
  gdouble target;

  if (sk->media_per_s >= 0)
    return sk->media_per_s;
  target = gp_session_sink_target_fps (s, sk->name);
  return target > 0 && sk->fps >= 0 ? sk->fps / target : -1;
}

gdouble
gp_session_sink_target_media_rate (GpSession * s, const gchar * sink)
{
  GpSinkSummary *sk = gp_session_find_sink (s, sink);

  if (!sk || gp_media_kind_from_name (sk->media) != GP_MEDIA_AUDIO)
    return -1;
  if (gp_session_sink_waits_on_clock (s, sink))
    return 1.0;
  return gp_session_fed_live (s, sink) ? 1.0 : -1;
}

GpPath *
gp_session_interlatency (GpSession * s, const gchar * source,
    const gchar * element)
{
  guint i;

  for (i = 0; s->interlatency && i < s->interlatency->len; i++) {
    GpPath *p = g_ptr_array_index (s->interlatency, i);

    if (g_strcmp0 (p->source, source) == 0 && g_strcmp0 (p->sink, element)
        == 0)
      return p;
  }
  return NULL;
}

static void
gp_session_query_hop_free (gpointer p)
{
  GpHop *h = p;

  g_free (h->element);
  g_free (h);
}

/* The element chain of @path, sink last: upstream from the sink, through
 * the input whose element the path's origin reached (its interlatency
 * entry matched buffers), which keeps the streams of a demuxer or a
 * multiqueue apart. NULL when the chain does not reach the origin. */
static GPtrArray *
gp_session_query_path_chain (GpSession * s, const GpPath * path)
{
  GPtrArray *chain = g_ptr_array_new_with_free_func (g_free);
  gchar *origin = gp_pad_element (path->source);
  gchar *cur = g_strdup (path->sink);
  guint steps;

  g_ptr_array_add (chain, g_strdup (cur));
  for (steps = 0; g_strcmp0 (cur, origin) != 0 && steps < 64; steps++) {
    gchar *best = NULL;
    guint64 best_matched = 0;
    guint i;

    for (i = 0; s->links && i < s->links->len; i++) {
      GpLink *l = g_ptr_array_index (s->links, i);
      gchar *sink = gp_pad_element (l->sink);
      gchar *up;
      GpPath *ip;

      if (g_strcmp0 (sink, cur) != 0) {
        g_free (sink);
        continue;
      }
      g_free (sink);
      up = gp_pad_element (l->src);
      if (g_strcmp0 (l->src, path->source) == 0) {
        g_free (best);
        best = up;
        break;
      }
      ip = gp_session_interlatency (s, path->source, up);
      if (ip && ip->matched > best_matched) {
        g_free (best);
        best = up;
        best_matched = ip->matched;
      } else {
        g_free (up);
      }
    }
    if (best == NULL)
      break;
    g_free (cur);
    cur = best;
    g_ptr_array_insert (chain, 0, g_strdup (cur));
  }
  if (g_strcmp0 (cur, origin) != 0)
    g_clear_pointer (&chain, g_ptr_array_unref);
  g_free (cur);
  g_free (origin);
  return chain;
}

GPtrArray *
gp_session_path_hops (GpSession * s, const GpPath * path)
{
  GPtrArray *chain = gp_session_query_path_chain (s, path);
  GPtrArray *hops;
  gdouble *at;
  guint k;

  if (chain == NULL)
    return NULL;
  /* the mean latency at each element's input, the origin at 0.  Means
   * further up are over other buffers when an element re-chunks (RTP
   * packets before a depayloader, frames after it): a packet waits longer
   * than the frame it ends.  No element can see a buffer before the one
   * upstream of it, so a mean above a later one is taken down to it and
   * the hops add up to the path's own latency. */
  at = g_new0 (gdouble, chain->len);
  for (k = chain->len - 1; k > 0; k--) {
    GpPath *p = gp_session_interlatency (s, path->source,
        g_ptr_array_index (chain, k));

    at[k] = p && p->mean_ms >= 0 ? p->mean_ms : -1;
    if (k + 1 < chain->len && at[k + 1] >= 0 && (at[k] < 0 ||
            at[k] > at[k + 1]))
      at[k] = at[k + 1];
  }
  hops = g_ptr_array_new_with_free_func (gp_session_query_hop_free);
  for (k = 0; k + 1 < chain->len; k++) {
    const gchar *el = g_ptr_array_index (chain, k);
    GpPath *here = k > 0 ? gp_session_interlatency (s, path->source, el) : NULL;
    GpElementSummary *es = gp_session_find_elem_summary (s, el);
    GpHop *h = g_new0 (GpHop, 1);

    h->element = g_strdup (el);
    h->at_ms = at[k];
    h->hop_ms = at[k] >= 0 && at[k + 1] >= 0 ? at[k + 1] - at[k] : -1;
    h->work_ms = es && es->buffers > 0 && es->self_total_ms >= 0 ?
        es->self_total_ms / es->buffers : -1;
    h->queue = gp_session_is_queue (s, el);
    /* the origin's own buffers always match exactly */
    h->exact = k == 0 || (here && here->matched > 0 &&
        here->exact * 2 >= here->matched);
    g_ptr_array_add (hops, h);
  }
  g_free (at);
  g_ptr_array_unref (chain);
  return hops;
}

/* links, caps and launch names (ZC, SW, CAPS, the patch check) */

/* The first link into (@into) or out of @element. */
static GpLink *
gp_session_query_link_at (GpSession * s, const gchar * element, gboolean into)
{
  guint i;

  for (i = 0; s->links && i < s->links->len; i++) {
    GpLink *l = g_ptr_array_index (s->links, i);
    gchar *e = gp_pad_element (into ? l->sink : l->src);
    gboolean is = g_strcmp0 (e, element) == 0;

    g_free (e);
    if (is)
      return l;
  }
  return NULL;
}

guint64
gp_session_buffers_into (GpSession * s, const gchar * element)
{
  guint64 n = 0;
  guint i;

  for (i = 0; s->links && i < s->links->len; i++) {
    GpLink *l = g_ptr_array_index (s->links, i);
    gchar *sink = gp_pad_element (l->sink);
    GpLinkSummary *ls = gp_session_find_link_summary (s, l->id);

    if (g_strcmp0 (sink, element) == 0 && ls)
      n += ls->buffers;
    g_free (sink);
  }
  return n;
}

GpLink *
gp_session_link_into (GpSession * s, const gchar * element)
{
  return gp_session_query_link_at (s, element, TRUE);
}

GpLink *
gp_session_link_out_of (GpSession * s, const gchar * element)
{
  return gp_session_query_link_at (s, element, FALSE);
}

const GpLaunch *
gp_session_parsed_launch (GpSession * s)
{
  if (g_strcmp0 (s->launch_parsed_of, s->launch) != 0) {
    g_clear_pointer (&s->launch_parsed, gp_launch_free);
    g_free (s->launch_parsed_of);
    s->launch_parsed_of = g_strdup (s->launch);
    s->launch_parsed = s->launch ? gp_launch_parse (s->launch, NULL) : NULL;
  }
  return s->launch_parsed;
}

gchar *
gp_session_launch_name (GpSession * s, const gchar * element)
{
  const GpLaunch *l;
  GpElement *e;
  gchar *name = NULL;
  const gchar *digits;

  if (element == NULL || (l = gp_session_parsed_launch (s)) == NULL)
    return NULL;
  if (gp_launch_find_element (l, element) >= 0) {
    name = g_strdup (element);
  } else if ((e = gp_session_find_element (s, element)) && e->factory) {
    /* Another tool's capture names an element after its GType
     * ("nvvconv0" for nvvidconv): its trailing number is still its rank
     * among the elements of that factory, which the alias names. */
    digits = element + strlen (element);
    while (digits > element && g_ascii_isdigit (digits[-1]))
      digits--;
    if (*digits) {
      gchar *alias = g_strconcat (e->factory, digits, NULL);

      if (gp_launch_find_element (l, alias) >= 0)
        name = alias;
      else
        g_free (alias);
    }
  }
  return name;
}

void
gp_session_playing_span (GpSession * s, GpPlayingSpan * span)
{
  guint i;

  span->t0 = -1;
  span->t1 = s->duration_s;
  /* gstprof asked it to stop (--duration, Ctrl-C): what follows is the
   * EOS drain, not playing */
  if (s->stop_s > 0)
    span->t1 = MIN (span->t1, s->stop_s);
  for (i = 0; s->events && i < s->events->len; i++) {
    GpEvent *ev = g_ptr_array_index (s->events, i);
    GpElement *e = gp_session_find_element (s, ev->source);
    gboolean top = e && (e->parent == NULL || e->parent[0] == '\0');

    if (span->t0 < 0 && top && g_strcmp0 (ev->type, "state") == 0 &&
        g_str_has_suffix (ev->text, "->PLAYING"))
      span->t0 = ev->t;
    else if (span->t0 >= 0 && ((top && g_strcmp0 (ev->type, "eos") == 0) ||
            g_strcmp0 (ev->type, "interrupt") == 0 ||
            g_strcmp0 (ev->type, "error") == 0))
      span->t1 = MIN (span->t1, ev->t);
  }
  if (span->t0 < 0 && gp_session_n_windows (s) > 0)
    gp_session_window_span (s, 0, &span->t0, NULL);
}

gdouble
gp_session_sink_played_s (GpSession * s, const GpSinkSummary * sk)
{
  GpPlayingSpan span;
  gdouble left = gp_session_left_playing (s);

  if (sk->first_s < 0)
    return -1;
  gp_session_playing_span (s, &span);
  if (left >= 0)
    span.t1 = MIN (span.t1, left);
  return MAX (0.0, span.t1 - MAX (span.t0, sk->first_s));
}

gboolean
gp_session_sink_played_briefly (GpSession * s, const GpSinkSummary * sk,
    gdouble min_s)
{
  gdouble played = gp_session_sink_played_s (s, sk);

  return played >= 0 && played < min_s;
}

gdouble
gp_session_left_playing (GpSession * s)
{
  GHashTable *left = g_hash_table_new (g_str_hash, g_str_equal);
  GHashTableIter it;
  gpointer value;
  gboolean playing = FALSE;
  gdouble last = -1;
  guint i;

  for (i = 0; s->events && i < s->events->len; i++) {
    GpEvent *ev = g_ptr_array_index (s->events, i);
    GpElement *e;

    if (g_strcmp0 (ev->type, "state") != 0 || ev->text == NULL)
      continue;
    e = gp_session_find_element (s, ev->source);
    if (e == NULL || (e->parent && e->parent[0]))
      continue;
    /* the event's time, borrowed; NULL while it plays */
    if (g_str_has_prefix (ev->text, "PLAYING->"))
      g_hash_table_insert (left, e->name, &ev->t);
    else if (g_str_has_suffix (ev->text, "->PLAYING"))
      g_hash_table_insert (left, e->name, NULL);
  }
  g_hash_table_iter_init (&it, left);
  while (g_hash_table_iter_next (&it, NULL, &value)) {
    if (value == NULL)
      playing = TRUE;
    else
      last = MAX (last, *(gdouble *) value);
  }
  g_hash_table_unref (left);
  return playing ? -1 : last;
}

/* A buffering event's level, from its data (else its text; a session
 * read from a file may hold anything there: not a number is full). */
static gint
gp_session_buffering_pct (const GpEvent * ev)
{
  JsonNode *n = ev->data ? json_object_get_member (ev->data, "percent") :
      NULL;

  if (n && JSON_NODE_HOLDS_VALUE (n) &&
      json_node_get_value_type (n) == G_TYPE_INT64)
    return (gint) CLAMP (json_node_get_int (n), 0, 100);
  if (n == NULL && ev->text && g_ascii_isdigit (ev->text[0]))
    return atoi (ev->text);
  return 100;
}

/* A pipeline paused within this long of its buffering element's level
 * falling below full paused for it (the bus message, then the state
 * change, take milliseconds). */
#define GP_SESSION_BUFFERING_PAUSE_S 0.5

/* Whether a top-level pipeline of @s went PLAYING->PAUSED around @t. */
static gboolean
gp_session_paused_at (GpSession * s, gdouble t)
{
  guint i;

  for (i = 0; s->events && i < s->events->len; i++) {
    GpEvent *ev = g_ptr_array_index (s->events, i);

    if (g_strcmp0 (ev->type, "state") == 0 &&
        g_strcmp0 (ev->text, "PLAYING->PAUSED") == 0 &&
        fabs (ev->t - t) <= GP_SESSION_BUFFERING_PAUSE_S)
      return TRUE;
  }
  return FALSE;
}

static gint
gp_session_buffering_cmp (gconstpointer a, gconstpointer b)
{
  const GpBufferingPause *pa = a, *pb = b;

  return pa->t0 < pb->t0 ? -1 : pa->t0 > pb->t0;
}

void
gp_session_buffering_pauses (GpSession * s, GArray * out, gdouble * fill_s)
{
  GHashTable *open = g_hash_table_new (g_str_hash, g_str_equal);
  GHashTable *first = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
      g_free);
  GHashTable *full = g_hash_table_new (g_str_hash, g_str_equal);
  GpPlayingSpan span;
  GHashTableIter it;
  gpointer key, value;
  guint i;

  g_array_set_size (out, 0);
  *fill_s = -1;
  gp_session_playing_span (s, &span);
  for (i = 0; s->events && i < s->events->len; i++) {
    GpEvent *ev = g_ptr_array_index (s->events, i);
    gdouble *since;

    if (g_strcmp0 (ev->type, "buffering") != 0 || ev->source == NULL)
      continue;
    since = g_hash_table_lookup (open, ev->source);
    if (gp_session_buffering_pct (ev) >= 100) {
      if (!g_hash_table_contains (full, ev->source)) {
        gdouble *began = g_hash_table_lookup (first, ev->source);

        g_hash_table_add (full, ev->source);
        *fill_s = MAX (*fill_s, began ? ev->t - *began : 0);
      } else if (since) {
        GpBufferingPause p = { MAX (*since, span.t0),
          MIN (ev->t, span.t1), ev->source, gp_session_paused_at (s, *since)
        };

        if (p.t1 > p.t0)
          g_array_append_val (out, p);
      }
      g_hash_table_remove (open, ev->source);
      g_free (since);
    } else if (since == NULL && g_hash_table_contains (full, ev->source)) {
      since = g_new (gdouble, 1);
      *since = ev->t;
      g_hash_table_insert (open, ev->source, since);
    } else if (!g_hash_table_contains (first, ev->source)) {
      gdouble *began = g_new (gdouble, 1);

      *began = ev->t;
      g_hash_table_insert (first, ev->source, began);
    }
  }
  /* still below full at the end */
  g_hash_table_iter_init (&it, open);
  while (g_hash_table_iter_next (&it, &key, &value)) {
    GpBufferingPause p = { MAX (*(gdouble *) value, span.t0), span.t1, key,
      gp_session_paused_at (s, *(gdouble *) value)
    };

    if (p.t1 > p.t0)
      g_array_append_val (out, p);
    g_free (value);
  }
  g_hash_table_unref (open);
  g_hash_table_unref (full);
  g_hash_table_unref (first);
  g_array_sort (out, gp_session_buffering_cmp);
}

const gchar *
gp_session_buffering_unfilled (GpSession * s, gdouble * waited_s)
{
  const gchar *unfilled = NULL;
  gdouble end = s->stop_s > 0 ? MIN (s->stop_s, s->duration_s) :
      s->duration_s;
  GHashTable *since = g_hash_table_new (g_str_hash, g_str_equal);
  GHashTableIter it;
  gpointer key, value;
  guint i;

  *waited_s = -1;
  for (i = 0; s->events && i < s->events->len; i++) {
    GpEvent *ev = g_ptr_array_index (s->events, i);

    if (g_strcmp0 (ev->type, "buffering") != 0 || ev->source == NULL)
      continue;
    if (gp_session_buffering_pct (ev) >= 100)
      g_hash_table_remove (since, ev->source);
    else if (!g_hash_table_contains (since, ev->source))
      g_hash_table_insert (since, ev->source, ev);
  }
  g_hash_table_iter_init (&it, since);
  while (g_hash_table_iter_next (&it, &key, &value))
    if (end - ((GpEvent *) value)->t > *waited_s) {
      *waited_s = MAX (0, end - ((GpEvent *) value)->t);
      unfilled = key;
    }
  g_hash_table_unref (since);
  return unfilled;
}

gdouble
gp_session_buffering_within (GpSession * s, gdouble t0, gdouble t1)
{
  GArray *pauses = g_array_new (FALSE, FALSE, sizeof (GpBufferingPause));
  gdouble fill, covered = 0, reach = t0;
  guint i;

  gp_session_buffering_pauses (s, pauses, &fill);
  /* in time order: each adds what lies past the furthest so far */
  for (i = 0; i < pauses->len; i++) {
    GpBufferingPause *p = &g_array_index (pauses, GpBufferingPause, i);
    gdouble a = MAX (p->t0, reach), b = MIN (p->t1, t1);

    if (b > a) {
      covered += b - a;
      reach = b;
    }
  }
  g_array_unref (pauses);
  return covered;
}

void
gp_session_machine_span (GpSession * s, GpPlayingSpan * span)
{
  gboolean pipeline = (s->elements && s->elements->len > 0) ||
      gp_session_n_windows (s) > 0;

  span->t0 = span->t1 = NAN;
  if (!pipeline)
    return;
  gp_session_playing_span (s, span);
  if (span->t0 < 0)
    span->t0 = NAN;
  if (!(span->t1 > 0) || (!isnan (span->t0) && span->t1 <= span->t0))
    span->t1 = NAN;
}

gboolean
gp_session_machine_cpu (GpSession * s, guint min_samples, GpMachineCpu * out)
{
  GpMachineSeries *all = s->machine ? gp_machine_find (s->machine,
      GP_MACHINE_CPU_LOAD, "all") : NULL;
  GPtrArray *cores;
  GpPlayingSpan span;
  guint i;

  memset (out, 0, sizeof *out);
  if (all == NULL || !s->process.measured || s->process.cpu_pct_mean < 0)
    return FALSE;
  gp_session_machine_span (s, &span);
  if (gp_machine_series_count (all, span.t0, span.t1) < min_samples)
    return FALSE;
  cores = gp_machine_find_all (s->machine, GP_MACHINE_CPU_LOAD);
  for (i = 0; i < cores->len; i++)
    if (strcmp (gp_machine_series_instance (g_ptr_array_index (cores, i)),
            "all") != 0)
      out->n_cpus++;
  g_ptr_array_unref (cores);
  if (out->n_cpus == 0)
    out->n_cpus = s->process.n_cpus > 0 ? (guint) s->process.n_cpus : 1;
  out->busy_pct = CLAMP (gp_machine_series_mean (all, span.t0, span.t1),
      0.0, 100.0);
  out->own_pct = MIN (s->process.cpu_pct_mean / out->n_cpus, out->busy_pct);
  out->others_pct = out->busy_pct - out->own_pct;
  out->idle_pct = 100.0 - out->busy_pct;
  return TRUE;
}

/* Sinks that write a recording: latency through the encoder does not
 * matter to anyone there. */
static const gchar *const gp_session_query_file_sinks[] = {
  "filesink", "multifilesink", "splitmuxsink", "giosink", NULL
};

gboolean
gp_session_recording_only (GpSession * s, const gchar * element)
{
  guint i, n = 0, files = 0;

  for (i = 0; s->elements && i < s->elements->len; i++) {
    GpElement *e = g_ptr_array_index (s->elements, i);
    GHashTable *up;

    if (e->is_bin || !gp_session_is_sink (s, e->name))
      continue;
    up = gp_session_upstream_of (s, e->name);
    if (g_hash_table_contains (up, element)) {
      n++;
      files += e->factory &&
          g_strv_contains (gp_session_query_file_sinks, e->factory);
    }
    g_hash_table_unref (up);
  }
  return n > 0 && files == n;
}

gboolean
gp_session_is_users (GpSession * s, const gchar * name)
{
  GpElement *e = gp_session_find_element (s, name);
  guint depth = 0;

  while (e && depth++ < 64) {
    gchar *ln = s->launch ? gp_session_launch_name (s, e->name) : NULL;
    GpElement *parent;

    /* without a launch string (an import), only where it sits tells */
    if (s->launch && ln == NULL)
      return FALSE;
    g_free (ln);
    if (e->parent == NULL || *e->parent == '\0')
      return TRUE;
    parent = gp_session_find_element (s, e->parent);
    /* the top-level pipeline gst-launch made around several elements */
    if (parent == NULL || g_strcmp0 (parent->parent, "") == 0)
      return TRUE;
    e = parent;
  }
  return FALSE;
}

/* Whether @name sits inside the bin @bin, at any depth. */
static gboolean
gp_session_query_within (GpSession * s, const gchar * name,
    const gchar * bin)
{
  GpElement *e = gp_session_find_element (s, name);
  guint depth = 0;

  for (; e && e->parent && *e->parent && depth < 64; depth++) {
    if (g_str_equal (e->parent, bin))
      return TRUE;
    e = gp_session_find_element (s, e->parent);
  }
  return FALSE;
}

/* Whether all that feeds @sink comes from inside its own bin: data the
 * bin makes itself (rtspsrc's fakesrc into its udpsink), not the
 * pipeline's stream passing through a sink a bin holds (playbin's video
 * sink, fed from its demuxer). */
static gboolean
gp_session_query_fed_within (GpSession * s, const gchar * sink,
    const gchar * bin)
{
  GHashTable *up = gp_session_upstream_of (s, sink);
  GHashTableIter it;
  gpointer key;
  gboolean within = TRUE;

  g_hash_table_iter_init (&it, up);
  while (within && g_hash_table_iter_next (&it, &key, NULL))
    within = g_str_equal (key, sink) || gp_session_query_within (s, key, bin);
  g_hash_table_unref (up);
  return within;
}

gboolean
gp_session_sink_is_control (GpSession * s, const gchar * name,
    const gchar ** what)
{
  GpLink *in = gp_session_link_into (s, name);
  gchar *type = in ? gp_caps_media_type (in->caps) : NULL;
  GpElement *e = gp_session_find_element (s, name);
  const gchar *word = NULL;

  if (type && (g_str_equal (type, "application/x-rtcp") ||
          g_str_equal (type, "application/x-srtcp")))
    word = "RTCP";
  else if (in && type == NULL && e && e->parent && *e->parent &&
      !gp_session_is_users (s, name)) {
    GpElement *parent = gp_session_find_element (s, e->parent);

    /* made by a bin below the top-level pipeline, for its own data */
    if (parent && parent->parent && *parent->parent &&
        gp_session_query_fed_within (s, name, e->parent))
      word = "a bin's own";
  }
  g_free (type);
  if (what)
    *what = word;
  return word != NULL;
}

/* Bins that pick decoders at run time: what they output depends on the
 * stream. */
static const gchar *const gp_session_query_autoplug_bins[] = {
  "decodebin", "decodebin3", "uridecodebin", "uridecodebin3", "playbin",
  "playbin3", "parsebin", NULL
};

gboolean
gp_session_in_autoplug_bin (GpSession * s, const gchar * name)
{
  GpElement *e = gp_session_find_element (s, name);
  guint depth = 0;

  for (; e && depth < 64; depth++) {
    if (e->factory &&
        g_strv_contains (gp_session_query_autoplug_bins, e->factory))
      return TRUE;
    e = e->parent && *e->parent ? gp_session_find_element (s, e->parent) :
        NULL;
  }
  return FALSE;
}

/* identities that survive a second run */

/* TRUE when @e's name is one GStreamer made up (factory or type name and
 * a number: "queue1", "avdec_h264-0", "gldownloadelement0"). */
static gboolean
gp_session_query_auto_name (const GpElement * e)
{
  gsize n = strlen (e->name);
  gchar *stem;
  gboolean is;

  while (n > 0 && g_ascii_isdigit (e->name[n - 1]))
    n--;
  if (n == strlen (e->name))
    return FALSE;
  if (n > 0 && e->name[n - 1] == '-')
    n--;
  stem = g_strndup (e->name, n);
  is = e->factory && *stem && (g_str_has_prefix (stem, e->factory) ||
      g_str_has_prefix (e->factory, stem));
  g_free (stem);
  return is;
}

/* The number at the end of an automatic name. */
static guint64
gp_session_query_auto_number (const GpElement * e)
{
  const gchar *p = e->name + strlen (e->name);

  while (p > e->name && g_ascii_isdigit (p[-1]))
    p--;
  return g_ascii_strtoull (p, NULL, 10);
}

/* Elements a fix adds or takes away without changing what the pipeline
 * does (queues, caps): they are no landmark for the others. */
static gboolean
gp_session_query_transparent (GpSession * s, const GpElement * e)
{
  return gp_session_is_queue (s, e->name) ||
      g_strcmp0 (e->factory, "capsfilter") == 0 ||
      g_strcmp0 (e->factory, "identity") == 0;
}

/* What one identity question has worked out already, so that bins inside
 * bins with made-up names are not worked out again at every level (which
 * grows as the elements to the power of the depth). */
typedef struct
{
  GHashTable *bases;            /* GpElement* -> its identity base */
  GHashTable *n_auto;           /* factory -> elements of it with a
                                 * made-up name, all counted at once */
} GpIdentityMemo;

/* How many elements of @e's factory have a made-up name. */
static guint
gp_session_query_n_auto (GpSession * s, const GpElement * e,
    GpIdentityMemo * memo)
{
  guint i;

  if (memo->n_auto == NULL) {
    memo->n_auto = g_hash_table_new (g_str_hash, g_str_equal);
    for (i = 0; s->elements && i < s->elements->len; i++) {
      GpElement *o = g_ptr_array_index (s->elements, i);

      if (o->factory && gp_session_query_auto_name (o))
        g_hash_table_insert (memo->n_auto, o->factory,
            GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup
                    (memo->n_auto, o->factory)) + 1));
    }
  }
  return e->factory ? GPOINTER_TO_UINT (g_hash_table_lookup (memo->n_auto,
          e->factory)) : 0;
}

/* The factory of the nearest element up (or down) the links from @name
 * that is not transparent, or "-". */
static const gchar *
gp_session_query_landmark (GpSession * s, const gchar * name, gboolean up)
{
  gchar *cur = g_strdup (name);
  const gchar *found = "-";
  guint hops;

  for (hops = 0; hops < 16; hops++) {
    GpLink *l = up ? gp_session_link_into (s, cur) :
        gp_session_link_out_of (s, cur);
    gchar *next = l ? gp_pad_element (up ? l->src : l->sink) : NULL;
    GpElement *ne = next ? gp_session_find_element (s, next) : NULL;

    g_free (cur);
    cur = next;
    if (ne == NULL)
      break;
    if (!gp_session_query_transparent (s, ne)) {
      found = ne->factory ? ne->factory : "-";
      break;
    }
  }
  g_free (cur);
  return found;
}

static gchar *gp_session_query_identity (GpSession * s, const gchar * name,
    guint depth, GpIdentityMemo * memo);

/* Bins nested deeper than this are no pipeline anyone builds; the bound
 * keeps a parent chain that loops in a session not checked by the reader
 * (an import) from recursing without end. */
#define GP_SESSION_QUERY_MAX_NESTING 64

static gchar *
gp_session_query_identity_base (GpSession * s, GpElement * e, guint depth,
    GpIdentityMemo * memo)
{
  GpElement *parent = e->parent && *e->parent ?
      gp_session_find_element (s, e->parent) : NULL;
  gchar *in = NULL, *base;

  /* inside a bin: the bin's identity first (playbin's own elements) */
  if (parent && parent->parent && *parent->parent &&
      depth < GP_SESSION_QUERY_MAX_NESTING)
    in = gp_session_query_identity (s, parent->name, depth + 1, memo);
  /* the user's name; the factory alone when it is the only one of its
   * kind (and not of the kinds a fix adds: a queue, a converter); else
   * the factory between its neighbours */
  if (!gp_session_query_auto_name (e))
    base = g_strdup (e->name);
  else if (!gp_session_query_transparent (s, e) &&
      !gp_factory_is_sw_converter (e->factory) &&
      gp_session_query_n_auto (s, e, memo) == 1)
    base = g_strdup (e->factory);
  else
    base = g_strdup_printf ("%s(%s>%s)", e->factory ? e->factory : "?",
        gp_session_query_landmark (s, e->name, TRUE),
        gp_session_query_landmark (s, e->name, FALSE));
  if (in) {
    gchar *full = g_strdup_printf ("%s/%s", in, base);

    g_free (base);
    g_free (in);
    base = full;
  }
  return base;
}

gchar *
gp_session_element_identity (GpSession * s, const gchar * name)
{
  GpIdentityMemo memo = { NULL, NULL };
  gchar *id;

  memo.bases = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL,
      g_free);
  id = gp_session_query_identity (s, name, 0, &memo);
  g_hash_table_unref (memo.bases);
  if (memo.n_auto)
    g_hash_table_unref (memo.n_auto);
  return id;
}

/* @e's identity base, worked out once per question. */
static const gchar *
gp_session_query_memo_base (GpSession * s, GpElement * e, guint depth,
    GpIdentityMemo * memo)
{
  gchar *base = g_hash_table_lookup (memo->bases, e);

  if (base == NULL) {
    base = gp_session_query_identity_base (s, e, depth, memo);
    g_hash_table_insert (memo->bases, e, base);
  }
  return base;
}

/* @name's identity, @depth bins down from where the question began. */
static gchar *
gp_session_query_identity (GpSession * s, const gchar * name, guint depth,
    GpIdentityMemo * memo)
{
  GpElement *e = gp_session_find_element (s, name);
  gchar *base;
  guint i, k = 0, n = 0;

  if (e == NULL)
    return g_strdup (name);
  base = g_strdup (gp_session_query_memo_base (s, e, depth, memo));
  if (!gp_session_query_auto_name (e))
    return base;
  /* the same factory between the same neighbours twice (two branches of a
   * tee): the order GStreamer made them in tells them apart (their
   * numbers, which only count up) */
  for (i = 0; s->elements && i < s->elements->len; i++) {
    GpElement *o = g_ptr_array_index (s->elements, i);
    const gchar *ob;

    if (g_strcmp0 (o->factory, e->factory) != 0 ||
        !gp_session_query_auto_name (o))
      continue;
    ob = gp_session_query_memo_base (s, o, depth, memo);
    if (g_strcmp0 (ob, base) == 0) {
      n++;
      if (gp_session_query_auto_number (o) <= gp_session_query_auto_number (e))
        k++;
    }
  }
  if (n > 1) {
    gchar *numbered = g_strdup_printf ("%s#%u", base, k);

    g_free (base);
    base = numbered;
  }
  return base;
}

gchar *
gp_session_target_identity (GpSession * s, const gchar * target)
{
  const gchar *arrow = strstr (target, "->");
  const gchar *colon;
  guint i;

  /* a series of the machine ("gpu.load/0", "temp/tj"): the same on every
   * run */
  for (i = 0; s->machine && i < s->machine->series->len; i++)
    if (strcmp (((GpMachineSeries *) g_ptr_array_index (s->machine->series,
                    i))->name, target) == 0)
      return g_strdup (target);
  if (arrow) {
    gchar *src = g_strndup (target, arrow - target);
    gchar *a = gp_session_target_identity (s, src);
    gchar *b = gp_session_target_identity (s, arrow + 2);
    gchar *id = g_strdup_printf ("%s->%s", a, b);

    g_free (src);
    g_free (a);
    g_free (b);
    return id;
  }
  /* a pad ("el.src") or a thread ("el:src", "el:s/1234": a worker whose
   * thread id differs every run) */
  colon = strchr (target, ':');
  if (colon || (strrchr (target, '.') && !gp_session_find_element (s,
              target))) {
    const gchar *sep = colon ? colon : strrchr (target, '.');
    gchar *el = g_strndup (target, sep - target);
    gchar *rest = g_strdup (sep);
    gchar *slash = strchr (rest, '/');
    gchar *id, *eid;

    if (slash)
      *slash = '\0';
    eid = gp_session_element_identity (s, el);
    id = g_strconcat (eid, rest, slash ? "/worker" : "", NULL);
    g_free (eid);
    g_free (el);
    g_free (rest);
    return id;
  }
  return gp_session_element_identity (s, target);
}

gchar *
gp_session_launch_caps_beside (GpSession * s, const gchar * element,
    gboolean before, gchar ** caps_name)
{
  const GpLaunch *l = gp_session_parsed_launch (s);
  gchar *ln = gp_session_launch_name (s, element), *caps = NULL;
  gint idx = l && ln ? gp_launch_find_element (l, ln) : -1;
  gint c = idx >= 0 ? gp_launch_caps_beside (l, idx, before) : -1;

  if (caps_name)
    *caps_name = NULL;
  if (c >= 0) {
    const GpLaunchElement *ce = gp_launch_get_element (l, c);

    caps = g_strndup (s->launch + ce->offset, ce->length);
    if (caps_name)
      *caps_name = g_strdup (ce->name);
  }
  g_free (ln);
  return caps;
}
