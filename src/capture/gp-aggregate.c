/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-aggregate.c: taking records in. The tracer's window and graph
 * records and the events of the bus are folded into the aggregator's
 * tables (gp-aggregate-private.h). See gp-aggregate.h for the definitions
 * of the rates; the record format is in docs/records.md.
 *
 * Everything the tracer sends is accumulated in private tables under one
 * lock (windows arrive on the tracer's thread); the session is rebuilt from
 * those tables by gp_aggregator_finish() (gp-aggregate-finish.c), which may
 * run any number of times. The records are read by the tolerant readers
 * of gp-aggregate-records.c, and every window also becomes an entry of the
 * bounded series (gp-aggregate-series.c).
 */
#include "gp-aggregate-private.h"
#include "core/gp-record.h"

/* ------------------------------------------------------------------ */
/* data helpers                                                        */

static void
gp_agg_str_array_add_unique (GPtrArray * arr, const gchar * s)
{
  guint i;

  for (i = 0; i < arr->len; i++)
    if (g_str_equal (g_ptr_array_index (arr, i), s))
      return;
  g_ptr_array_add (arr, g_strdup (s));
}

/* ------------------------------------------------------------------ */
/* whole-run accumulators                                              */

void
gp_agg_link_counts_add (GpAggLinkCounts * dst, const GpAggLinkCounts * src,
    gint sign)
{
  dst->buffers += sign * src->buffers;
  dst->bytes += sign * src->bytes;
  dst->duration_ns += sign * src->duration_ns;
  dst->timed += sign * src->timed;
}

static void
gp_agg_element_free (gpointer p)
{
  GpAggElement *e = p;

  g_free (e->name);
  g_free (e->factory);
  g_free (e->kind);
  g_ptr_array_unref (e->threads);
  g_free (e);
}

static void
gp_agg_queue_free (gpointer p)
{
  GpAggQueue *q = p;

  g_free (q->name);
  g_free (q->factory);
  g_free (q->leaky);
  g_free (q);
}

static void
gp_agg_link_free (gpointer p)
{
  GpAggLink *l = p;

  g_free (l->id);
  g_free (l->src);
  g_free (l->sink);
  g_free (l->src_element);
  g_free (l->sink_element);
  g_free (l->caps);
  g_free (l->memory);
  g_array_unref (l->early);
  g_free (l->late);
  g_free (l);
}

static void
gp_agg_latency_window_clear (gpointer p)
{
  g_array_unref (((GpAggLatencyWindow *) p)->pairs);
}

static void
gp_agg_latency_free (gpointer p)
{
  GpAggLatency *l = p;

  g_free (l->source);
  g_free (l->element);
  g_array_unref (l->early);
  g_free (l);
}

static void
gp_agg_thread_free (gpointer p)
{
  GpAggThread *t = p;

  g_free (t->name);
  g_free (t->blocked_in);
  g_ptr_array_unref (t->elements);
  g_free (t);
}

static void
gp_agg_event_free (gpointer p)
{
  GpAggEvent *e = p;

  g_free (e->type);
  g_free (e->source);
  g_free (e->text);
  if (e->data)
    json_object_unref (e->data);
  g_free (e);
}

/* ------------------------------------------------------------------ */
/* lookups                                                             */

static GpAggElement *
gp_agg_element (GpAggregator * agg, const gchar * name)
{
  GpAggElement *e = g_hash_table_lookup (agg->elements, name);

  if (e == NULL) {
    e = g_new0 (GpAggElement, 1);
    e->name = g_strdup (name);
    e->threads = g_ptr_array_new_with_free_func (g_free);
    gp_hist_clear (&e->hist);
    gp_hist_clear (&e->wait);
    g_hash_table_insert (agg->elements, e->name, e);
  }
  return e;
}

static GpAggQueue *
gp_agg_queue (GpAggregator * agg, const gchar * name)
{
  GpAggQueue *q = g_hash_table_lookup (agg->queues, name);

  if (q == NULL) {
    q = g_new0 (GpAggQueue, 1);
    q->name = g_strdup (name);
    gp_hist_clear (&q->residence);
    g_hash_table_insert (agg->queues, q->name, q);
  }
  return q;
}

static GpAggLink *
gp_agg_link (GpAggregator * agg, const gchar * src, const gchar * sink)
{
  gchar *id = g_strdup_printf ("%s->%s", src, sink);
  GpAggLink *l = g_hash_table_lookup (agg->links, id);

  if (l == NULL) {
    l = g_new0 (GpAggLink, 1);
    l->id = id;
    l->src = g_strdup (src);
    l->sink = g_strdup (sink);
    l->src_element = gp_pad_element (src);
    l->sink_element = gp_pad_element (sink);
    l->early = g_array_new (FALSE, FALSE, sizeof (GpAggLinkWindow));
    g_hash_table_insert (agg->links, l->id, l);
  } else {
    g_free (id);
  }
  return l;
}

static GpAggLatency *
gp_agg_latency (GpAggregator * agg, const gchar * source, const gchar * element)
{
  gchar *key = g_strdup_printf ("%s->%s", source, element);
  GpAggLatency *l = g_hash_table_lookup (agg->latency, key);

  if (l == NULL) {
    l = g_new0 (GpAggLatency, 1);
    l->source = g_strdup (source);
    l->element = g_strdup (element);
    gp_hist_clear (&l->run.hist);
    gp_hist_clear (&l->steady.hist);
    l->has_sum = TRUE;
    l->early = g_array_new (FALSE, FALSE, sizeof (GpAggLatencyWindow));
    g_array_set_clear_func (l->early, gp_agg_latency_window_clear);
    g_hash_table_insert (agg->latency, key, l);
  } else {
    g_free (key);
  }
  return l;
}

/* Threads are keyed by kernel id; their names (/proc comm, 15 characters)
 * can repeat, so the name shown is made unique once, at first sight, and
 * stays the same for the whole run. */
static GpAggThread *
gp_agg_thread (GpAggregator * agg, guint64 tid, const gchar * comm)
{
  GpAggThread *t = g_hash_table_lookup (agg->threads, &tid);

  if (t == NULL) {
    gchar *name = g_strdup (comm && *comm ? comm : "thread");

    if (g_hash_table_contains (agg->thread_names, name)) {
      gchar *unique = g_strdup_printf ("%s/%" G_GUINT64_FORMAT, name, tid);

      g_free (name);
      name = unique;
    }
    t = g_new0 (GpAggThread, 1);
    t->tid = tid;
    t->name = name;
    t->first_start = G_MAXUINT64;
    t->elements = g_ptr_array_new_with_free_func (g_free);
    t->streaming = FALSE;
    g_hash_table_insert (agg->threads, &t->tid, t);
    g_hash_table_insert (agg->thread_names, t->name, t);
  }
  return t;
}

static void
gp_agg_replace_str (gchar ** dst, const gchar * src)
{
  if (src != NULL && g_strcmp0 (*dst, src) != 0) {
    g_free (*dst);
    *dst = g_strdup (src);
  }
}

/* ------------------------------------------------------------------ */
/* public: construction                                                */

GpAggregator *
gp_aggregator_new (GpSession * session, guint64 t0_ns)
{
  GpAggregator *agg;

  g_return_val_if_fail (session != NULL, NULL);

  agg = g_new0 (GpAggregator, 1);
  g_mutex_init (&agg->lock);
  agg->session = session;
  agg->t0 = t0_ns;
  agg->elements = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
      gp_agg_element_free);
  agg->queues = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
      gp_agg_queue_free);
  agg->links = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
      gp_agg_link_free);
  agg->latency = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      gp_agg_latency_free);
  agg->threads = g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL,
      gp_agg_thread_free);
  agg->thread_names = g_hash_table_new (g_str_hash, g_str_equal);
  agg->events = g_ptr_array_new_with_free_func (gp_agg_event_free);
  agg->series = g_ptr_array_new_with_free_func (gp_agg_series_entry_free);
  agg->scratch_hist = g_new0 (GpHist, 1);
  agg->scratch_pairs = gp_agg_pairs_new ();
  agg->proc_pct_max = -1;
  return agg;
}

void
gp_aggregator_free (GpAggregator * agg)
{
  if (agg == NULL)
    return;
  g_hash_table_unref (agg->thread_names);
  g_hash_table_unref (agg->elements);
  g_hash_table_unref (agg->queues);
  g_hash_table_unref (agg->links);
  g_hash_table_unref (agg->latency);
  g_hash_table_unref (agg->threads);
  g_ptr_array_unref (agg->events);
  g_ptr_array_unref (agg->series);
  if (agg->graph)
    gst_structure_free (agg->graph);
  g_free (agg->scratch_hist);
  g_array_free (agg->scratch_pairs, TRUE);
  g_mutex_clear (&agg->lock);
  g_free (agg);
}

/* ------------------------------------------------------------------ */
/* public: records in                                                  */

static void
gp_agg_add_event_locked (GpAggregator * agg, guint64 ts, const gchar * type,
    const gchar * source, const gchar * text, JsonObject * data,
    gboolean from_bus)
{
  GpAggEvent *ev;
  gboolean important = g_strcmp0 (type, "error") == 0
      || g_strcmp0 (type, "warning") == 0 || g_strcmp0 (type, "eos") == 0
      || g_strcmp0 (type, "interrupt") == 0;

  /* QoS and state events can arrive once per frame for hours; errors and
   * warnings are what a user must never lose */
  if (agg->events->len >= GP_AGGREGATE_MAX_EVENTS
      && (!important || agg->events->len >= 2 * GP_AGGREGATE_MAX_EVENTS)) {
    agg->events_dropped++;
    return;
  }
  ev = g_new0 (GpAggEvent, 1);
  ev->ts = ts;
  ev->type = g_strdup (type ? type : "");
  ev->source = g_strdup (source ? source : "");
  ev->text = g_strdup (text ? text : "");
  ev->data = data ? json_object_ref (data) : NULL;
  ev->from_bus = from_bus;
  g_ptr_array_add (agg->events, ev);
}

/* A window's level of an element with a queue of its own (gp-record.h
 * GP_E_LEVEL_*), the window ending at @end: its largest, and the latest
 * window's last (windows may come in either order). */
static void
gp_agg_element_add_level (GpAggElement * e, const GstStructure * es,
    guint64 end)
{
  const GValue *blocks = gst_structure_get_value (es, GP_E_LEVEL_BLOCKS);

  e->has_level = TRUE;
  e->level_max = MAX (e->level_max, gp_agg_get_u64 (es,
          GP_E_LEVEL_BYTES_MAX));
  if (end >= e->level_end_at) {
    e->level_end_at = end;
    e->level_end = gp_agg_get_u64 (es, GP_E_LEVEL_BYTES);
    e->level_limit = gp_agg_get_u64 (es, GP_E_LEVEL_LIMIT_BYTES);
    e->level_blocks = blocks && G_VALUE_HOLDS_BOOLEAN (blocks) &&
        g_value_get_boolean (blocks);
  }
}

static void
gp_agg_add_elements (GpAggregator * agg, const GstStructure * w,
    GpAggSeriesEntry * entry)
{
  const GValue *list = gst_structure_get_value (w, GP_W_ELEMENTS);
  guint i, n = gp_agg_list_size (list);

  for (i = 0; i < n; i++) {
    const GstStructure *es = gp_agg_list_struct (list, i);
    const gchar *name;
    GpAggElement *e;
    GpAggSeriesElement *se;
    guint64 buffers, self_ns, self_max;

    if (es == NULL || (name = gp_agg_get_str (es, GP_E_NAME)) == NULL)
      continue;
    e = gp_agg_element (agg, name);
    gp_agg_replace_str (&e->factory, gp_agg_get_str (es, GP_E_FACTORY));
    gp_agg_replace_str (&e->kind, gp_agg_get_str (es, GP_E_KIND));
    buffers = gp_agg_get_u64 (es, GP_E_BUFFERS);
    self_max = gp_agg_get_u64 (es, GP_E_SELF_MAX_NS);
    self_ns = gp_agg_get_u64 (es, GP_E_SELF_NS);
    gp_agg_read_pairs (es, GP_E_SELF_HIST, agg->scratch_pairs);
    if (agg->scratch_pairs->len > 0)
      gp_hist_add_pairs_exact (&e->hist,
          (const guint64 *) agg->scratch_pairs->data,
          agg->scratch_pairs->len * 2, self_ns, self_max);
    e->buffers += buffers;
    e->self_ns += self_ns;
    e->self_max_ns = MAX (e->self_max_ns, self_max);
    if (gp_agg_has_number (es, GP_E_CPU_NS)) {
      e->has_cpu = TRUE;
      e->cpu_ns += gp_agg_get_u64 (es, GP_E_CPU_NS);
    }

    se = gp_agg_series_element (entry, name);
    se->buffers += buffers;
    se->self_ns += self_ns;
    se->max_ns = MAX (se->max_ns, self_max);
    gp_agg_pairs_merge (se->pairs, agg->scratch_pairs);

    if (gp_agg_has_number (es, GP_E_LEVEL_BYTES_MAX))
      gp_agg_element_add_level (e, es, gp_agg_get_u64 (w, GP_W_END));
    if (gp_agg_has_number (es, GP_E_HANDLER_N)) {
      e->has_handlers = TRUE;
      e->handler_ns += gp_agg_get_u64 (es, GP_E_HANDLER_NS);
      e->handler_n += gp_agg_get_u64 (es, GP_E_HANDLER_N);
    }
    if (gp_agg_has_number (es, GP_E_WAIT_NS)) {
      e->has_wait = TRUE;
      e->cpu_buffers += gp_agg_get_u64 (es, GP_E_CPU_BUFFERS);
      e->wait_ns += gp_agg_get_u64 (es, GP_E_WAIT_NS);
      gp_agg_read_pairs (es, GP_E_WAIT_HIST, agg->scratch_pairs);
      gp_agg_hist_add (&e->wait, agg->scratch_pairs);
    }
  }
}

/* A window in which @l carried data before the stop: kept apart while it
 * is start-up, and as the last one so far.  Compared by time, not arrival
 * order: flush() and the timer may hand two windows over in either order. */
static void
gp_agg_link_add_data_window (GpAggLink * l, guint64 start, guint64 end,
    guint64 last_ts, const GpAggLinkCounts * c, gboolean waiting)
{
  GpAggLinkWindow w = { start, end, last_ts, *c, waiting };
  guint i;

  if (!l->seen_data || start < l->first_start) {
    l->first_start = start;
    for (i = l->early->len; i > 0; i--)
      if (g_array_index (l->early, GpAggLinkWindow, i - 1).start >=
          start + GP_AGG_STARTUP_NS)
        g_array_remove_index (l->early, i - 1);
  }
  if (start < l->first_start + GP_AGG_STARTUP_NS || waiting)
    g_array_append_val (l->early, w);
  if (!l->seen_data || start >= l->last_start) {
    if (l->seen_data) {
      l->prev_start = l->last_start;
      l->prev_last_ts = l->last_ts;
    }
    l->last = *c;
    l->last_start = start;
    l->last_end = end;
    l->last_ts = last_ts;
  } else if (start >= l->prev_start) {
    l->prev_start = start;
    l->prev_last_ts = last_ts;
  }
}

/* A window's lateness of @l (gp-record.h GP_L_LATE_*), when it carries
 * one: into the run's histogram, the window's series entry and, before
 * gstprof asked the pipeline to stop, the trend (the window's median at
 * its middle). */
static void
gp_agg_link_add_late (GpAggregator * agg, GpAggLink * l, GpAggSeriesLink * sl,
    const GstStructure * ls, guint64 start, guint64 end)
{
  guint64 n = gp_agg_get_u64 (ls, GP_L_LATE_N);
  guint64 max_ns = gp_agg_get_u64 (ls, GP_L_LATE_MAX_NS);
  gdouble p50, p95;

  if (n == 0)
    return;
  gp_agg_read_pairs (ls, GP_L_LATE_HIST, agg->scratch_pairs);
  if (agg->scratch_pairs->len == 0)
    return;
  if (l->late == NULL)
    l->late = g_new0 (GpHist, 1);
  gp_hist_add_pairs_exact (l->late, (const guint64 *) agg->scratch_pairs->data,
      agg->scratch_pairs->len * 2, gp_agg_get_u64 (ls, GP_L_LATE_SUM_NS),
      max_ns);
  if (sl->late_pairs == NULL)
    sl->late_pairs = gp_agg_pairs_new ();
  gp_agg_pairs_merge (sl->late_pairs, agg->scratch_pairs);
  sl->late_max_ns = MAX (sl->late_max_ns, max_ns);
  if (agg->stop_ts == 0 || start < agg->stop_ts) {
    gp_agg_pairs_quantiles (agg, agg->scratch_pairs, max_ns, &p50, &p95);
    gp_trend_add (&l->late_trend,
        gp_agg_ns_to_s ((start + end) / 2 - MIN (agg->t0, start)), p50);
  }
}

/* A window's RTP counts of @l (gp-record.h GP_L_RTP_*), when it carries
 * them: counts no link carries in a window are left out. (More packets
 * received than the link carried buffers over the run is no measurement
 * either: gp_agg_finish_links; per window a push racing its end may show
 * one in the next.) */
static void
gp_agg_link_add_rtp (GpAggLink * l, const GstStructure * ls, guint64 start,
    guint64 end)
{
  guint64 expected = gp_agg_get_u64 (ls, GP_L_RTP_EXPECTED);
  guint64 received = gp_agg_get_u64 (ls, GP_L_RTP_RECEIVED);
  guint64 restarts = gp_agg_get_u64 (ls, GP_L_RTP_RESTARTS);

  if (!gp_agg_has_number (ls, GP_L_RTP_EXPECTED)
      || !gp_agg_rate_possible (expected, start, end)
      || !gp_agg_rate_possible (received, start, end)
      || !gp_agg_rate_possible (restarts, start, end))
    return;
  l->rtp = TRUE;
  l->rtp_expected += expected;
  l->rtp_received += received;
  l->rtp_restarts += restarts;
}

/* A window's pad probe time on @l (gp-record.h GP_L_PROBE_*), when it
 * carries it: counts no window could hold are no measurement. */
static void
gp_agg_link_add_probes (GpAggLink * l, const GstStructure * ls,
    guint64 start, guint64 end)
{
  guint64 ns = gp_agg_get_u64 (ls, GP_L_PROBE_NS);
  guint64 n = gp_agg_get_u64 (ls, GP_L_PROBE_N);

  if (!gp_agg_has_number (ls, GP_L_PROBE_N)
      || !gp_agg_rate_possible (n, start, end)
      || !gp_agg_rate_possible (ns, start, end))
    return;
  l->probe = TRUE;
  l->probe_ns += ns;
  l->probe_n += n;
}

/* Returns whether any link carried a buffer in this window. */
static gboolean
gp_agg_add_links (GpAggregator * agg, const GstStructure * w, guint64 start,
    guint64 end, GpAggSeriesEntry * entry, guint64 * last_push)
{
  const GValue *list = gst_structure_get_value (w, GP_W_LINKS);
  guint i, n = gp_agg_list_size (list);
  gboolean any = FALSE;

  *last_push = 0;

  for (i = 0; i < n; i++) {
    const GstStructure *ls = gp_agg_list_struct (list, i);
    const gchar *src, *sink;
    guint64 b, bytes;
    GpAggLinkCounts c;
    GpAggLink *l;
    GpAggSeriesLink *sl;

    if (ls == NULL || (src = gp_agg_get_str (ls, GP_L_SRC)) == NULL
        || (sink = gp_agg_get_str (ls, GP_L_SINK)) == NULL)
      continue;
    l = gp_agg_link (agg, src, sink);
    gp_agg_replace_str (&l->caps, gp_agg_get_str (ls, GP_L_CAPS));
    gp_agg_replace_str (&l->memory, gp_agg_get_str (ls, GP_L_MEMORY));
    b = gp_agg_get_u64 (ls, GP_L_BUFFERS);
    bytes = gp_agg_get_u64 (ls, GP_L_BYTES);
    /* counts no link carries in its window are not a measurement (a
     * forged or broken record): absent, as any bad value; the session
     * would not load again with them */
    if (!gp_agg_rate_possible (b, start, end)
        || !gp_agg_rate_possible (bytes, start, end))
      b = bytes = 0;
    c.buffers = b;
    c.bytes = bytes;
    c.duration_ns = gp_agg_get_u64 (ls, GP_L_DURATION_NS);
    c.timed = gp_agg_get_u64 (ls, GP_L_TIMED);
    l->buffers += b;
    l->bytes += bytes;
    /* no more buffers without a PTS than buffers */
    l->no_pts += MIN (gp_agg_get_u64 (ls, GP_L_NO_PTS), b);
    l->gap += MIN (gp_agg_get_u64 (ls, GP_L_GAP), b);
    /* the drain after gstprof asked the pipeline to stop is not steady */
    if (b > 0 && (agg->stop_ts == 0 || start < agg->stop_ts)) {
      any = TRUE;
      gp_agg_link_counts_add (&l->steady, &c, 1);
      gp_agg_link_add_data_window (l, start, end,
          gp_agg_get_u64 (ls, GP_L_LAST_TS), &c, agg->waiting_to_play);
      l->seen_data = TRUE;
    } else if (b > 0) {
      any = TRUE;
    }
    if (b > 0)
      *last_push = MAX (*last_push, gp_agg_get_u64 (ls, GP_L_LAST_TS));

    sl = gp_agg_series_item (entry->links, l->id, sizeof (GpAggSeriesLink));
    sl->buffers += b;
    sl->bytes += bytes;
    gp_agg_link_add_late (agg, l, sl, ls, start, end);
    gp_agg_link_add_rtp (l, ls, start, end);
    gp_agg_link_add_probes (l, ls, start, end);
  }
  return any;
}

static void
gp_agg_add_queues (GpAggregator * agg, const GstStructure * w, guint64 dur,
    GpAggSeriesEntry * entry)
{
  const GValue *list = gst_structure_get_value (w, GP_W_QUEUES);
  guint i, n = gp_agg_list_size (list);

  for (i = 0; i < n; i++) {
    const GstStructure *qs = gp_agg_list_struct (list, i);
    const gchar *name;
    GpAggQueue *q;
    GpAggSeriesQueue *sq;
    gdouble pct_max;
    guint64 dropped;

    if (qs == NULL || (name = gp_agg_get_str (qs, GP_Q_NAME)) == NULL)
      continue;
    /* a multiqueue's single queues apart: "multiqueue0.sink_0" */
    if (gp_agg_get_str (qs, GP_Q_PAD)) {
      gchar *key = g_strdup_printf ("%s.%s", name,
          gp_agg_get_str (qs, GP_Q_PAD));

      q = gp_agg_queue (agg, key);
      g_free (key);
    } else {
      q = gp_agg_queue (agg, name);
    }
    gp_agg_replace_str (&q->factory, gp_agg_get_str (qs, GP_Q_FACTORY));
    gp_agg_replace_str (&q->leaky, gp_agg_get_str (qs, GP_Q_LEAKY));
    gp_agg_read_pairs (qs, GP_Q_RESIDENCE_HIST, agg->scratch_pairs);
    gp_agg_hist_add (&q->residence, agg->scratch_pairs);
    q->residence_max_ns = MAX (q->residence_max_ns,
        gp_agg_get_u64 (qs, GP_Q_RESIDENCE_MAX_NS));
    pct_max = gp_agg_get_double (qs, GP_Q_LEVEL_PCT_MAX);
    dropped = gp_agg_get_u64 (qs, GP_Q_DROPPED);
    sq = gp_agg_series_item (entry->queues, q->name, sizeof (GpAggSeriesQueue));
    if (gp_agg_has_number (qs, GP_Q_LEVEL_PCT_MEAN) && dur > 0) {
      gdouble mean = gp_agg_get_double (qs, GP_Q_LEVEL_PCT_MEAN);

      q->pct_wsum += mean * dur;
      q->pct_wns += dur;
      sq->pct_wsum += mean * dur;
      sq->pct_wns += dur;
    }
    q->pct_max = MAX (q->pct_max, pct_max);
    q->level_buffers_max = MAX (q->level_buffers_max,
        gp_agg_get_u64 (qs, GP_Q_LEVEL_BUFFERS_MAX));
    q->dropped += dropped;
    q->blocked_ns += gp_agg_get_u64 (qs, GP_Q_BLOCKED_NS);
    sq->pct_max = MAX (sq->pct_max, pct_max);
    sq->dropped += dropped;
  }
}

static void
gp_agg_latency_counts_add (GpAggLatencyCounts * c, const GArray * pairs,
    guint64 max_ns, guint64 sum_ns, guint64 matched)
{
  gp_agg_hist_add (&c->hist, pairs);
  c->max_ns = MAX (c->max_ns, max_ns);
  c->sum_ns += sum_ns;
  c->matched += matched;
}

/* @w's matches into @l's steady state when @w began before the stop (the
 * drain after it is not steady). */
static void
gp_agg_latency_add_steady (GpAggregator * agg, GpAggLatency * l,
    const GpAggLatencyWindow * w)
{
  if (agg->stop_ts != 0 && w->start >= agg->stop_ts)
    return;
  if (l->steady.matched == 0 || w->start < l->steady_first)
    l->steady_first = w->start;
  l->steady_end = MAX (l->steady_end, w->end);
  gp_agg_latency_counts_add (&l->steady, w->pairs, w->max_ns, w->sum_ns,
      w->matched);
}

/* A window in which @l matched buffers: kept apart while it is start-up
 * (gp-aggregate-private.h), else into the steady state.  Compared by
 * time, not arrival order, as a link's data windows are. */
static void
gp_agg_latency_add_window (GpAggregator * agg, GpAggLatency * l,
    GpAggLatencyWindow * w)
{
  guint i;

  if (!l->seen || w->start < l->first_start) {
    l->first_start = w->start;
    l->seen = TRUE;
    for (i = l->early->len; i > 0; i--) {
      GpAggLatencyWindow *e = &g_array_index (l->early, GpAggLatencyWindow,
          i - 1);

      if (e->start >= w->start + GP_AGG_STARTUP_NS) {
        gp_agg_latency_add_steady (agg, l, e);
        g_array_remove_index (l->early, i - 1);
      }
    }
  }
  if (w->start < l->first_start + GP_AGG_STARTUP_NS) {
    w->pairs = g_array_copy (w->pairs);
    g_array_append_val (l->early, *w);
  } else {
    gp_agg_latency_add_steady (agg, l, w);
  }
}

static void
gp_agg_add_latency (GpAggregator * agg, const GstStructure * w,
    guint64 start, guint64 end, GpAggSeriesEntry * entry)
{
  const GValue *list = gst_structure_get_value (w, GP_W_LATENCY);
  guint i, n = gp_agg_list_size (list);

  for (i = 0; i < n; i++) {
    const GstStructure *ls = gp_agg_list_struct (list, i);
    const gchar *source, *element;
    GpAggLatency *l;
    guint64 max_ns, matched, unmatched, sum_ns;

    if (ls == NULL || (source = gp_agg_get_str (ls, GP_LAT_SOURCE)) == NULL
        || (element = gp_agg_get_str (ls, GP_LAT_ELEMENT)) == NULL)
      continue;
    l = gp_agg_latency (agg, source, element);
    if (gp_agg_get_bool (ls, GP_LAT_SINK))
      l->sink = TRUE;
    gp_agg_read_pairs (ls, GP_LAT_HIST, agg->scratch_pairs);
    max_ns = gp_agg_get_u64 (ls, GP_LAT_MAX_NS);
    matched = gp_agg_get_u64 (ls, GP_LAT_MATCHED);
    unmatched = gp_agg_get_u64 (ls, GP_LAT_UNMATCHED);
    sum_ns = gp_agg_get_u64 (ls, GP_LAT_SUM_NS);
    if (!gst_structure_has_field (ls, GP_LAT_SUM_NS))
      l->has_sum = FALSE;
    gp_agg_latency_counts_add (&l->run, agg->scratch_pairs, max_ns, sum_ns,
        matched);
    if (matched > 0) {
      GpAggLatencyWindow lw = { start, end, agg->scratch_pairs, max_ns,
        sum_ns, matched
      };

      gp_agg_latency_add_window (agg, l, &lw);
    }
    /* records from before interval matching matched exactly only */
    l->exact += gst_structure_has_field (ls, GP_LAT_EXACT) ?
        gp_agg_get_u64 (ls, GP_LAT_EXACT) : matched;
    l->unmatched += unmatched;

    if (l->sink) {
      gchar *key = g_strdup_printf ("%s->%s", source, element);
      GpAggSeriesPath *sp = gp_agg_series_path (entry, key);

      sp->matched += matched;
      sp->unmatched += unmatched;
      sp->max_ns = MAX (sp->max_ns, max_ns);
      gp_agg_pairs_merge (sp->pairs, agg->scratch_pairs);
      g_free (key);
    }
  }
}

/* A thread record's run-queue wait (gp-record.h GP_T_RUN_DELAY_NS): FALSE
 * when absent, or longer than the window could hold (the tracer reads it
 * as the window closes: twice the span is slack enough). */
static gboolean
gp_agg_run_delay (const GstStructure * ts, guint64 start, guint64 end,
    guint64 * ns)
{
  *ns = gp_agg_get_u64 (ts, GP_T_RUN_DELAY_NS);
  return gp_agg_has_number (ts, GP_T_RUN_DELAY_NS) && end > start
      && *ns <= 2 * (end - start);
}

static void
gp_agg_add_threads (GpAggregator * agg, const GstStructure * w, guint64 start,
    guint64 end, GpAggSeriesEntry * entry)
{
  const GValue *list = gst_structure_get_value (w, GP_W_THREADS);
  guint i, n = gp_agg_list_size (list);

  for (i = 0; i < n; i++) {
    const GstStructure *ts = gp_agg_list_struct (list, i);
    const gchar *names;
    GpAggThread *t;
    GpAggSeriesThread *st;
    guint64 cpu, delay;

    if (ts == NULL || !gp_agg_has_number (ts, GP_T_TID))
      continue;
    t = gp_agg_thread (agg, gp_agg_get_u64 (ts, GP_T_TID),
        gp_agg_get_str (ts, GP_T_NAME));
    /* records from before the field existed listed hook-seen threads
     * only; a thread that met a hook once stays a streaming thread */
    if (gst_structure_get_value (ts, GP_T_STREAMING) == NULL ||
        gp_agg_get_bool (ts, GP_T_STREAMING))
      t->streaming = TRUE;
    cpu = gp_agg_get_u64 (ts, GP_T_CPU_NS);
    if (end >= t->latest_end) {
      t->latest_end = end;
      gp_agg_replace_str (&t->blocked_in, gp_agg_get_str (ts, GP_T_BLOCKED_IN));
      t->blocked_ns = gp_agg_get_u64 (ts, GP_T_BLOCKED_NS);
    }
    t->first_start = MIN (t->first_start, start);
    t->last_end = MAX (t->last_end, end);
    t->cpu_ns += cpu;
    if (gp_agg_run_delay (ts, start, end, &delay)) {
      t->has_run_delay = TRUE;
      t->run_delay_ns += delay;
    }
    if (end > start)
      t->pct_max = MAX (t->pct_max, 100.0 * cpu / (end - start));

    names = gp_agg_get_str (ts, GP_T_ELEMENTS);
    if (names != NULL) {
      gchar **v = g_strsplit (names, ",", -1);
      gchar **p;

      for (p = v; *p; p++) {
        GpAggElement *e;

        g_strstrip (*p);
        if (**p == '\0')
          continue;
        gp_agg_str_array_add_unique (t->elements, *p);
        /* only elements the tracer reported: a thread list alone does
         * not make an element summary */
        e = g_hash_table_lookup (agg->elements, *p);
        if (e != NULL)
          gp_agg_str_array_add_unique (e->threads, t->name);
      }
      g_strfreev (v);
    }

    st = gp_agg_series_item (entry->threads, t->name,
        sizeof (GpAggSeriesThread));
    st->cpu_ns += cpu;
  }
}

/* proc_cpu_ns, proc_rss_bytes and n_cpus; each may be absent (a tracer
 * that could not read them, or an older one). */
static void
gp_agg_add_process (GpAggregator * agg, const GstStructure * w, guint64 start,
    guint64 end, GpAggSeriesEntry * entry)
{
  guint64 span = end - start;

  if (gp_agg_has_number (w, GP_W_PROC_CPU_NS) && span > 0) {
    guint64 cpu = gp_agg_get_u64 (w, GP_W_PROC_CPU_NS);

    agg->proc_cpu_ns += cpu;
    agg->proc_cpu_span_ns += span;
    entry->process.cpu_ns += cpu;
    entry->process.cpu_span_ns += span;
    /* a window much shorter than the one before (the flush right after a
     * tick) would make a spike of a few ms; it counts in the mean only */
    if (span * 4 >= agg->proc_last_span_ns)
      agg->proc_pct_max = MAX (agg->proc_pct_max, 100.0 * cpu / span);
    agg->proc_last_span_ns = span;
  }
  if (gp_agg_has_number (w, GP_W_PROC_RSS_BYTES)) {
    guint64 rss = gp_agg_get_u64 (w, GP_W_PROC_RSS_BYTES);

    if (rss > 0) {
      if (agg->rss_start == 0)
        agg->rss_start = rss;
      agg->rss_end = rss;
      agg->rss_max = MAX (agg->rss_max, rss);
      entry->process.rss_max = MAX (entry->process.rss_max, rss);
    }
  }
  if (gp_agg_has_number (w, GP_W_N_CPUS) && gp_agg_get_u64 (w, GP_W_N_CPUS) > 0)
    agg->n_cpus = (guint) MIN (gp_agg_get_u64 (w, GP_W_N_CPUS), G_MAXINT);
}

/* The fields of an event record past ts, type, source and text. */
static gboolean
gp_agg_event_field_to_json (GQuark field, const GValue * v, gpointer user_data)
{
  const gchar *name = g_quark_to_string (field);
  JsonNode *node;

  if (g_str_equal (name, GP_EV_TS) || g_str_equal (name, GP_EV_TYPE)
      || g_str_equal (name, GP_EV_SOURCE) || g_str_equal (name, GP_EV_TEXT))
    return TRUE;
  node = gp_agg_gvalue_to_json (v);
  if (node != NULL)
    json_object_set_member (user_data, name, node);
  return TRUE;
}

static void
gp_agg_add_events (GpAggregator * agg, const GstStructure * w)
{
  const GValue *list = gst_structure_get_value (w, GP_W_EVENTS);
  guint i, n = gp_agg_list_size (list);

  agg->tracer_events_dropped += gp_agg_get_u64 (w, GP_W_EVENTS_DROPPED);
  for (i = 0; i < n; i++) {
    const GstStructure *es = gp_agg_list_struct (list, i);
    JsonObject *data;

    if (es == NULL || gp_agg_get_str (es, GP_EV_TYPE) == NULL)
      continue;
    /* the top-level pipeline's state (the tracer records no other's):
     * set up or prerolled, and not yet playing.  A state's event is its
     * change done: READY->PAUSED comes once every sink prerolled, after
     * their first buffers */
    if (g_strcmp0 (gp_agg_get_str (es, GP_EV_TYPE), "state") == 0) {
      const gchar *text = gp_agg_get_str (es, GP_EV_TEXT);

      if ((g_strcmp0 (text, "NULL->READY") == 0 ||
              g_strcmp0 (text, "READY->PAUSED") == 0) && !agg->played)
        agg->waiting_to_play = TRUE;
      else if (text && g_str_has_suffix (text, "->PLAYING")) {
        agg->waiting_to_play = FALSE;
        agg->played = TRUE;
      }
    }
    data = json_object_new ();
    gst_structure_foreach (es, gp_agg_event_field_to_json, data);
    if (json_object_get_size (data) == 0)
      g_clear_pointer (&data, json_object_unref);
    gp_agg_add_event_locked (agg, gp_agg_get_u64 (es, GP_EV_TS),
        gp_agg_get_str (es, GP_EV_TYPE), gp_agg_get_str (es, GP_EV_SOURCE),
        gp_agg_get_str (es, GP_EV_TEXT), data, FALSE);
    if (data)
      json_object_unref (data);
  }
}

void
gp_aggregator_add_window (GpAggregator * agg, const GstStructure * w)
{
  guint64 start, end, last_push;
  GpAggSeriesEntry *entry;

  g_return_if_fail (agg != NULL);
  g_return_if_fail (w != NULL);

  start = gp_agg_get_u64 (w, GP_W_START);
  end = gp_agg_get_u64 (w, GP_W_END);
  if (end < start)
    end = start;

  g_mutex_lock (&agg->lock);
  entry = gp_agg_series_entry_new (start, end);
  /* elements before threads: the thread records name elements */
  gp_agg_add_elements (agg, w, entry);
  if (gp_agg_add_links (agg, w, start, end, entry, &last_push)) {
    if (!agg->have_data || start < agg->first_data_start) {
      agg->first_data_start = start;
      agg->first_data_end = end;
    }
    if (!agg->have_data || start >= agg->last_data_start) {
      agg->last_data_start = start;
      agg->last_data_end = end;
      agg->last_data_push = last_push;
    }
    agg->have_data = TRUE;
  }
  gp_agg_add_queues (agg, w, end - start, entry);
  gp_agg_add_latency (agg, w, start, end, entry);
  gp_agg_add_threads (agg, w, start, end, entry);
  gp_agg_add_process (agg, w, start, end, entry);
  gp_agg_add_events (agg, w);

  if (!agg->have_window) {
    agg->first_start = start;
    agg->last_end = end;
    agg->have_window = TRUE;
  }
  agg->first_start = MIN (agg->first_start, start);
  agg->last_end = MAX (agg->last_end, end);

  if (!gp_agg_series_fold_short (agg, entry)) {
    g_ptr_array_add (agg->series, entry);
    gp_agg_series_compact (agg);
  }
  g_mutex_unlock (&agg->lock);
}

/* The top-level bin of element @name in @parents (name -> parent). */
static const gchar *
gp_agg_graph_top (GHashTable * parents, const gchar * name)
{
  const gchar *parent;
  guint i;

  for (i = 0; i < 64 && (parent = g_hash_table_lookup (parents, name)) &&
      *parent; i++)
    name = parent;
  return name;
}

static void
gp_agg_list_append (GstStructure * s, const gchar * field, const GValue * v)
{
  GValue list = G_VALUE_INIT, copy = G_VALUE_INIT;

  g_value_init (&list, GST_TYPE_LIST);
  if (gst_structure_get_value (s, field) != NULL)
    g_value_copy (gst_structure_get_value (s, field), &list);
  g_value_init (&copy, G_VALUE_TYPE (v));
  g_value_copy (v, &copy);
  gst_value_list_append_and_take_value (&list, &copy);
  gst_structure_take_value (s, field, &list);
}

/* Each top-level pipeline is a section of the graph: one the program let
 * go (a second pipeline after the first, a pipeline per file) keeps its
 * section, the elements and links @old had of it, in @next, which no
 * longer has them. */
static void
gp_agg_graph_keep_gone (GstStructure * next, const GstStructure * old)
{
  GHashTable *parents = g_hash_table_new (g_str_hash, g_str_equal);
  /* copies: appending to @next's lists below replaces them, and with them
   * the strings they held (the old graph's, borrowed, stay) */
  GHashTable *present = g_hash_table_new_full (g_str_hash, g_str_equal,
      g_free, NULL);
  GHashTable *gone = g_hash_table_new (g_str_hash, g_str_equal);
  const GValue *list;
  guint i, n;

  list = gst_structure_get_value (next, GP_G_PIPELINES);
  for (i = 0; i < gp_agg_list_size (list); i++) {
    const GValue *v = gst_value_list_get_value (list, i);

    if (G_VALUE_HOLDS_STRING (v) && g_value_get_string (v))
      g_hash_table_add (present, g_value_dup_string (v));
  }
  list = gst_structure_get_value (next, GP_G_ELEMENTS);
  for (i = 0; i < gp_agg_list_size (list); i++) {
    const GstStructure *es = gp_agg_list_struct (list, i);
    const gchar *name = es ? gp_agg_get_str (es, GP_GE_NAME) : NULL;

    if (name != NULL)
      g_hash_table_add (present, g_strdup (name));
  }
  list = gst_structure_get_value (old, GP_G_PIPELINES);
  n = gp_agg_list_size (list);
  for (i = 0; i < n; i++) {
    const GValue *v = gst_value_list_get_value (list, i);

    if (G_VALUE_HOLDS_STRING (v) && g_value_get_string (v) &&
        !g_hash_table_contains (present, g_value_get_string (v))) {
      g_hash_table_add (gone, (gpointer) g_value_get_string (v));
      gp_agg_list_append (next, GP_G_PIPELINES, v);
    }
  }
  if (g_hash_table_size (gone) > 0) {
    list = gst_structure_get_value (old, GP_G_ELEMENTS);
    n = gp_agg_list_size (list);
    for (i = 0; i < n; i++) {
      const GstStructure *es = gp_agg_list_struct (list, i);
      const gchar *name = es ? gp_agg_get_str (es, GP_GE_NAME) : NULL;
      const gchar *parent = es ? gp_agg_get_str (es, GP_GE_PARENT) : NULL;

      if (name != NULL)
        g_hash_table_insert (parents, (gpointer) name, (gpointer) (parent ?
                parent : ""));
    }
    for (i = 0; i < n; i++) {
      const GstStructure *es = gp_agg_list_struct (list, i);
      const gchar *name = es ? gp_agg_get_str (es, GP_GE_NAME) : NULL;

      if (name != NULL && !g_hash_table_contains (present, name) &&
          g_hash_table_contains (gone, gp_agg_graph_top (parents, name)))
        gp_agg_list_append (next, GP_G_ELEMENTS, gp_agg_list_value (list,
                i));
    }
    list = gst_structure_get_value (old, GP_G_LINKS);
    n = gp_agg_list_size (list);
    for (i = 0; i < n; i++) {
      const GstStructure *ls = gp_agg_list_struct (list, i);
      const gchar *src = ls ? gp_agg_get_str (ls, GP_L_SRC) : NULL;
      gchar *el = src ? gp_pad_element (src) : NULL;

      if (el != NULL && !g_hash_table_contains (present, el) &&
          g_hash_table_contains (gone, gp_agg_graph_top (parents, el)))
        gp_agg_list_append (next, GP_G_LINKS, gp_agg_list_value (list, i));
      g_free (el);
    }
  }
  g_hash_table_unref (gone);
  g_hash_table_unref (present);
  g_hash_table_unref (parents);
}

void
gp_aggregator_add_graph (GpAggregator * agg, const GstStructure * graph)
{
  const GValue *list;
  guint i, n;

  g_return_if_fail (agg != NULL);
  g_return_if_fail (graph != NULL);

  g_mutex_lock (&agg->lock);
  {
    GstStructure *next = gst_structure_copy (graph);

    if (agg->graph) {
      gp_agg_graph_keep_gone (next, agg->graph);
      gst_structure_free (agg->graph);
    }
    agg->graph = next;
  }

  /* graph links join the link table (with 0 buffers until data flows), so a
   * link that never carried anything still has a summary and its caps can
   * give the target rate */
  list = gst_structure_get_value (graph, GP_G_LINKS);
  n = gp_agg_list_size (list);
  for (i = 0; i < n; i++) {
    const GstStructure *ls = gp_agg_list_struct (list, i);
    const gchar *src, *sink;
    GpAggLink *l;

    if (ls == NULL || (src = gp_agg_get_str (ls, GP_L_SRC)) == NULL
        || (sink = gp_agg_get_str (ls, GP_L_SINK)) == NULL)
      continue;
    l = gp_agg_link (agg, src, sink);
    gp_agg_replace_str (&l->caps, gp_agg_get_str (ls, GP_L_CAPS));
    gp_agg_replace_str (&l->memory, gp_agg_get_str (ls, GP_L_MEMORY));
  }
  g_mutex_unlock (&agg->lock);
}

void
gp_aggregator_watch_bus (GpAggregator * agg)
{
  g_return_if_fail (agg != NULL);

  g_mutex_lock (&agg->lock);
  agg->bus_watched = TRUE;
  g_mutex_unlock (&agg->lock);
}

guint64
gp_aggregator_latest (GpAggregator * agg)
{
  guint64 ts;

  g_mutex_lock (&agg->lock);
  ts = agg->series->len > 0 ? ((GpAggSeriesEntry *)
      g_ptr_array_index (agg->series, agg->series->len - 1))->end : agg->t0;
  g_mutex_unlock (&agg->lock);
  return ts;
}

void
gp_aggregator_add_bus_event (GpAggregator * agg, guint64 ts_ns,
    const gchar * type, const gchar * source, const gchar * text)
{
  gp_aggregator_add_bus_event_data (agg, ts_ns, type, source, text, NULL);
}

void
gp_aggregator_add_bus_event_data (GpAggregator * agg, guint64 ts_ns,
    const gchar * type, const gchar * source, const gchar * text,
    JsonObject * data)
{
  g_return_if_fail (agg != NULL);
  g_return_if_fail (type != NULL);

  g_mutex_lock (&agg->lock);
  gp_agg_add_event_locked (agg, ts_ns, type, source, text, data, TRUE);
  if (agg->stop_ts == 0 && (g_str_equal (type, "interrupt")
          || g_str_equal (type, "duration")))
    agg->stop_ts = MAX (ts_ns, 1);
  g_mutex_unlock (&agg->lock);
}
