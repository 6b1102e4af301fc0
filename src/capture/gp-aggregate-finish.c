/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-aggregate-finish.c: the finish steps. gp_aggregator_finish() writes
 * the session from the tables the windows were folded into: the graph,
 * the element, queue, link, path, thread, process and sink summaries (with
 * the steady-state rates of gp-aggregate.h), the series (its objects are
 * built by gp-aggregate-series.c) and the events of the bus and the tracer
 * merged. It may run any number of times. The progress line is read from
 * the same tables.
 */
#include "gp-aggregate-private.h"
#include "core/gp-record.h"
#include "core/gp-caps.h"

/* ------------------------------------------------------------------ */
/* data helpers                                                        */

static gint
gp_agg_strcmp_ptr (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(const gchar * const *) a, *(const gchar * const *) b);
}

GPtrArray *
gp_agg_sorted_keys (GHashTable * table)
{
  GPtrArray *keys = g_ptr_array_new ();
  GHashTableIter it;
  gpointer k;

  g_hash_table_iter_init (&it, table);
  while (g_hash_table_iter_next (&it, &k, NULL))
    g_ptr_array_add (keys, k);
  g_ptr_array_sort (keys, gp_agg_strcmp_ptr);
  return keys;
}

/* ------------------------------------------------------------------ */
/* finish: graph                                                       */

static gboolean
gp_agg_props_field_to_json (GQuark field, const GValue * v, gpointer user_data)
{
  JsonNode *node = gp_agg_gvalue_to_json (v);

  if (node != NULL)
    json_object_set_member (user_data, g_quark_to_string (field), node);
  return TRUE;
}

static void
gp_agg_finish_graph (GpAggregator * agg)
{
  GpSession *s = agg->session;
  const GValue *list;
  guint i, n;

  g_ptr_array_set_size (s->elements, 0);
  g_ptr_array_set_size (s->links, 0);
  g_ptr_array_set_size (s->hw_elements, 0);
  gp_session_reindex (s);

  if (agg->graph == NULL) {
    /* no snapshot (the tracer never answered): the elements and links the
     * windows named still make a graph, without properties or parents */
    GPtrArray *keys = gp_agg_sorted_keys (agg->elements);

    for (i = 0; i < keys->len; i++) {
      GpAggElement *e = g_hash_table_lookup (agg->elements, keys->pdata[i]);

      gp_session_add_element (s, e->name, e->factory ? e->factory : "", "",
          e->kind ? e->kind : "filter");
    }
    g_ptr_array_unref (keys);
    keys = gp_agg_sorted_keys (agg->links);
    for (i = 0; i < keys->len; i++) {
      GpAggLink *l = g_hash_table_lookup (agg->links, keys->pdata[i]);

      gp_session_add_link (s, l->src, l->sink, l->caps,
          l->memory ? l->memory : "system");
    }
    g_ptr_array_unref (keys);
    return;
  }

  list = gst_structure_get_value (agg->graph, GP_G_ELEMENTS);
  n = gp_agg_list_size (list);
  for (i = 0; i < n; i++) {
    const GstStructure *es = gp_agg_list_struct (list, i);
    const GstStructure *props = NULL;
    const GValue *pv;
    const gchar *name, *parent;
    GpElement *ge;

    if (es == NULL || (name = gp_agg_get_str (es, GP_GE_NAME)) == NULL)
      continue;
    parent = gp_agg_get_str (es, GP_GE_PARENT);
    ge = gp_session_add_element (s, name, gp_agg_get_str (es, GP_GE_FACTORY),
        parent ? parent : "", gp_agg_get_str (es, GP_GE_KIND));
    if (ge == NULL)
      continue;
    ge->is_bin = gp_agg_get_bool (es, GP_GE_IS_BIN);
    pv = gst_structure_get_value (es, GP_GE_PROPS);
    if (pv != NULL && GST_VALUE_HOLDS_STRUCTURE (pv))
      props = gst_value_get_structure (pv);
    if (props != NULL) {
      if (ge->props)
        json_object_unref (ge->props);
      ge->props = json_object_new ();
      gst_structure_foreach (props, gp_agg_props_field_to_json, ge->props);
    }
  }

  list = gst_structure_get_value (agg->graph, GP_G_LINKS);
  n = gp_agg_list_size (list);
  for (i = 0; i < n; i++) {
    const GstStructure *ls = gp_agg_list_struct (list, i);
    const gchar *src, *sink, *memory;

    if (ls == NULL || (src = gp_agg_get_str (ls, GP_L_SRC)) == NULL
        || (sink = gp_agg_get_str (ls, GP_L_SINK)) == NULL)
      continue;
    memory = gp_agg_get_str (ls, GP_L_MEMORY);
    gp_session_add_link (s, src, sink, gp_agg_get_str (ls, GP_L_CAPS),
        memory ? memory : "system");
  }

  list = gst_structure_get_value (agg->graph, GP_G_HW);
  n = gp_agg_list_size (list);
  for (i = 0; i < n; i++) {
    const GValue *v = gp_agg_list_value (list, i);

    if (v != NULL && G_VALUE_HOLDS_STRING (v) && g_value_get_string (v))
      g_ptr_array_add (s->hw_elements, g_strdup (g_value_get_string (v)));
  }
}

/* Kind of element @name: from the windows, else from the graph. */
static const gchar *
gp_agg_element_kind (GpAggregator * agg, GHashTable * graph_kinds,
    const gchar * name)
{
  GpAggElement *e = g_hash_table_lookup (agg->elements, name);

  if (e != NULL && e->kind != NULL)
    return e->kind;
  return g_hash_table_lookup (graph_kinds, name);
}

/* name -> kind of every element of the last graph (strings borrowed from
 * agg->graph). */
static GHashTable *
gp_agg_graph_kinds_new (GpAggregator * agg)
{
  GHashTable *kinds = g_hash_table_new (g_str_hash, g_str_equal);
  const GValue *list;
  guint i, n;

  if (agg->graph == NULL)
    return kinds;
  list = gst_structure_get_value (agg->graph, GP_G_ELEMENTS);
  n = gp_agg_list_size (list);
  for (i = 0; i < n; i++) {
    const GstStructure *es = gp_agg_list_struct (list, i);
    const gchar *name, *kind;

    if (es == NULL || (name = gp_agg_get_str (es, GP_GE_NAME)) == NULL
        || (kind = gp_agg_get_str (es, GP_GE_KIND)) == NULL
        || gp_agg_get_bool (es, GP_GE_IS_BIN))
      continue;
    g_hash_table_insert (kinds, (gpointer) name, (gpointer) kind);
  }
  return kinds;
}

/* ------------------------------------------------------------------ */
/* finish: summaries                                                   */

/* The tracer's own event (not the bus's, whose clock is the capture's) of
 * @type and @text with its time in [@from, @to]: the earliest, or with
 * @latest the latest.  0 when there is none. */
static guint64
gp_agg_event_in (GpAggregator * agg, const gchar * type, const gchar * text,
    guint64 from, guint64 to, gboolean latest)
{
  guint64 found = 0;
  guint i;

  for (i = 0; i < agg->events->len; i++) {
    const GpAggEvent *ev = g_ptr_array_index (agg->events, i);

    if (ev->from_bus || ev->ts < from || ev->ts > to
        || g_strcmp0 (ev->type, type) != 0
        || (text != NULL && g_strcmp0 (ev->text, text) != 0))
      continue;
    if (found == 0 || (latest ? ev->ts > found : ev->ts < found))
      found = ev->ts;
  }
  return found;
}

/* The PLAYING time, over which busy shares are taken: the windows in which
 * a link carried a buffer, from the first one's start to the last one's
 * end, narrowed to when the data flowed where the tracer saw it begin and
 * end inside them.  A window opened by the tracer itself (out=DIR, wrap)
 * can start at gst_init, well before the pipeline exists, and the last
 * one can close long after its EOS; run's windows are opened and closed
 * by the capture around the pipeline, so both give the same span (a 0.3 s
 * run read "busy 36 %" from its records where run read 98 %).
 * - start: the top-level pipeline leaving NULL (its NULL->READY, posted
 *   before READY->PAUSED starts the streaming threads), when no pipeline
 *   was already PAUSED or PLAYING, which could have pushed before it;
 * - end: the latest EOS at or after the window's last push (a pipeline
 *   played again after its EOS is not cut short).
 * 0 when nothing flowed. */
static gdouble
gp_agg_playing_s (GpAggregator * agg)
{
  guint64 start, end, ready, eos;

  if (!agg->have_data)
    return 0.0;
  start = agg->first_data_start;
  end = agg->last_data_end;
  ready = gp_agg_event_in (agg, "state", "NULL->READY", start,
      agg->first_data_end, FALSE);
  if (ready != 0 && gp_agg_event_in (agg, "state", "READY->PAUSED", 0,
          ready, FALSE) == 0 && gp_agg_event_in (agg, "state",
          "PAUSED->PLAYING", 0, ready, FALSE) == 0)
    start = ready;
  eos = gp_agg_event_in (agg, "eos", NULL, agg->last_data_start, end, TRUE);
  if (eos != 0 && eos >= agg->last_data_push && eos > start)
    end = eos;
  return gp_agg_ns_to_s (end - start);
}

/* The time between the last push of window @from and that of the data
 * window before @l's last, which holds exactly the buffers of the windows
 * after @from up to that one: buffers over it are the rate by the
 * intervals between buffers.  Buffers per window span are off by up to a
 * window when a window holds one buffer or none (a 1 fps sink read
 * "0.9 fps" on an 8 s run).  0 when a push time is unknown. */
static guint64
gp_agg_link_push_span (const GpAggLink * l, const GpAggLinkWindow * from)
{
  if (from == NULL || from->last_ts == 0 || l->prev_last_ts <= from->last_ts
      || l->prev_start < from->end)
    return 0;
  return l->prev_last_ts - from->last_ts;
}

/* The steady-state rate of @l (gp-aggregate.h): buffers, bytes and media
 * time per second over its data windows before the stop, less its
 * start-up when a steady second remains after it, else less only its
 * first data window and those begun before the pipeline played (a sink's
 * preroll, a first fill) and its last, else over all of them; timed from
 * push to push where the records say when the buffers were pushed
 * (gp_agg_link_push_span), else by the windows' bounds.  FALSE when it
 * never carried data. */
static gboolean
gp_agg_link_steady (const GpAggLink * l, gdouble * fps, gdouble * bytes_per_s,
    gdouble * media_per_s)
{
  GpAggLinkCounts c = l->steady;
  const GpAggLinkWindow *from = NULL, *early_last = NULL;
  guint64 early_end = 0, pushes;
  gdouble span;
  guint i;

  *fps = *bytes_per_s = 0.0;
  *media_per_s = -1.0;
  if (!l->seen_data)
    return FALSE;
  for (i = 0; i < l->early->len; i++) {
    const GpAggLinkWindow *w = &g_array_index (l->early, GpAggLinkWindow, i);

    if (w->end >= early_end) {
      early_end = w->end;
      early_last = w;
    }
    if ((w->start == l->first_start || w->waiting) &&
        (from == NULL || w->start > from->start))
      from = w;
  }
  if (l->last_start >= early_end + GP_AGG_STEADY_MIN_NS) {
    for (i = 0; i < l->early->len; i++)
      gp_agg_link_counts_add (&c, &g_array_index (l->early, GpAggLinkWindow,
              i).c, -1);
    gp_agg_link_counts_add (&c, &l->last, -1);
    pushes = gp_agg_link_push_span (l, early_last);
    span = gp_agg_ns_to_s (pushes ? pushes : l->last_start - early_end);
  } else if (from && l->last_start > from->end) {
    /* every window up to @from is the first or began before PLAYING */
    for (i = 0; i < l->early->len; i++)
      if (g_array_index (l->early, GpAggLinkWindow, i).start <= from->start)
        gp_agg_link_counts_add (&c, &g_array_index (l->early,
                GpAggLinkWindow, i).c, -1);
    gp_agg_link_counts_add (&c, &l->last, -1);
    pushes = gp_agg_link_push_span (l, from);
    span = gp_agg_ns_to_s (pushes ? pushes : l->last_start - from->end);
  } else {
    span = gp_agg_ns_to_s (l->last_end - l->first_start);
  }
  if (span <= 0)
    return FALSE;
  /* push to push over a forged record's timestamps: no rate at all */
  if (c.buffers / span > GP_JSON_MAX_MAGNITUDE
      || c.bytes / span > GP_JSON_MAX_MAGNITUDE)
    return FALSE;
  *fps = c.buffers / span;
  *bytes_per_s = c.bytes / span;
  /* media time only when (nearly) every buffer said how long it is */
  if (c.buffers > 0 && c.timed * 10 >= c.buffers * 9)
    *media_per_s = gp_agg_ns_to_s (c.duration_ns) * c.buffers / c.timed / span;
  if (*media_per_s > GP_JSON_MAX_MAGNITUDE)
    *media_per_s = -1.0;
  return TRUE;
}

static gint
gp_agg_elem_summary_cmp (gconstpointer a, gconstpointer b)
{
  const GpElementSummary *ea = *(GpElementSummary * const *) a;
  const GpElementSummary *eb = *(GpElementSummary * const *) b;

  if (ea->self_total_ms != eb->self_total_ms)
    return ea->self_total_ms > eb->self_total_ms ? -1 : 1;
  return g_strcmp0 (ea->name, eb->name);
}

static void
gp_agg_finish_elements (GpAggregator * agg, gdouble playing,
    GHashTable * graph_kinds)
{
  GpSession *s = agg->session;
  GPtrArray *keys = gp_agg_sorted_keys (agg->elements);
  gdouble work_ms = 0.0;
  guint i, j;

  g_ptr_array_set_size (s->elem_summaries, 0);
  gp_session_reindex (s);
  for (i = 0; i < keys->len; i++) {
    GpAggElement *e = g_hash_table_lookup (agg->elements, keys->pdata[i]);
    GpElementSummary *es = gp_session_add_elem_summary (s, e->name);

    gp_hist_quantiles_ms (&e->hist, &es->self_ms);
    gp_hist_octaves (&e->hist, &es->self_octaves);
    es->buffers = e->buffers;
    es->self_total_ms = e->self_ns / 1e6;
    es->cpu_ms = e->has_cpu ? e->cpu_ns / 1e6 : -1.0;
    if (e->has_level) {
      es->queued_mb_max = e->level_max / (1024.0 * 1024.0);
      es->queued_mb_end = e->level_end / (1024.0 * 1024.0);
      es->queued_limit_bytes = e->level_limit;
      es->queued_blocks = e->level_blocks;
    }
    es->cpu_buffers = e->cpu_buffers;
    if (e->has_handlers) {
      es->handler_ms = e->handler_ns / 1e6;
      es->handler_calls = e->handler_n;
      es->handler_busy_pct = playing > 0.0 ?
          100.0 * gp_agg_ns_to_s (e->handler_ns) / playing : 0.0;
    }
    if (e->has_wait) {
      gp_hist_quantiles_ms (&e->wait, &es->wait_ms);
      es->wait_total_ms = e->wait_ns / 1e6;
    }
    /* of the threads it ran on: an element fed by two threads (a muxer)
     * can be busy on both at once, and a share above 100 % means nothing */
    es->busy_pct = playing > 0.0 ?
        100.0 * gp_agg_ns_to_s (e->self_ns) / playing /
        MAX (e->threads->len, 1) : 0.0;
    for (j = 0; j < e->threads->len; j++)
      g_ptr_array_add (es->threads, g_strdup (e->threads->pdata[j]));
    /* a queue's "self time" is hand-over work, its waiting is residence:
     * it takes no share of the work */
    if (g_strcmp0 (gp_agg_element_kind (agg, graph_kinds, e->name),
            "queue") != 0
        && !g_hash_table_contains (agg->queues, e->name))
      work_ms += es->self_total_ms;
  }
  for (i = 0; i < s->elem_summaries->len; i++) {
    GpElementSummary *es = g_ptr_array_index (s->elem_summaries, i);
    gboolean queue = g_strcmp0 (gp_agg_element_kind (agg, graph_kinds,
            es->name), "queue") == 0
        || g_hash_table_contains (agg->queues, es->name);

    es->share_pct = !queue && work_ms > 0.0 ?
        100.0 * es->self_total_ms / work_ms : 0.0;
  }
  g_ptr_array_sort (s->elem_summaries, gp_agg_elem_summary_cmp);
  g_ptr_array_unref (keys);
}

static void
gp_agg_finish_queues (GpAggregator * agg)
{
  GpSession *s = agg->session;
  GPtrArray *keys = gp_agg_sorted_keys (agg->queues);
  guint i;

  g_ptr_array_set_size (s->queue_summaries, 0);
  for (i = 0; i < keys->len; i++) {
    GpAggQueue *q = g_hash_table_lookup (agg->queues, keys->pdata[i]);
    GpQueueSummary *qs = gp_session_add_queue_summary (s, q->name);

    q->residence.max_ns = q->residence_max_ns;
    gp_hist_quantiles_ms (&q->residence, &qs->residence_ms);
    qs->level_pct_mean = q->pct_wns > 0.0 ? q->pct_wsum / q->pct_wns : 0.0;
    qs->level_pct_max = q->pct_max;
    qs->level_buffers_max = q->level_buffers_max;
    qs->dropped = q->dropped;
    g_free (qs->leaky);
    qs->leaky = g_strdup (q->leaky ? q->leaky : "no");
    qs->blocked_ms = q->blocked_ns / 1e6;
  }
  g_ptr_array_unref (keys);
}

static void
gp_agg_finish_links (GpAggregator * agg, gdouble playing)
{
  GpSession *s = agg->session;
  GPtrArray *keys = gp_agg_sorted_keys (agg->links);
  guint i;

  g_ptr_array_set_size (s->link_summaries, 0);
  for (i = 0; i < keys->len; i++) {
    GpAggLink *l = g_hash_table_lookup (agg->links, keys->pdata[i]);
    GpLinkSummary *ls = gp_session_add_link_summary (s, l->id);

    if (gp_agg_link_steady (l, &ls->fps, &ls->bytes_per_s, &ls->media_per_s))
      ls->first_s = ((gdouble) (gint64) (l->first_start - agg->t0)) / 1e9;
    ls->buffers = l->buffers;
    ls->no_pts = l->no_pts;
    ls->gap = l->gap;
    /* more packets than buffers: a forged record, no measurement */
    ls->rtp = l->rtp && l->rtp_received <= l->buffers;
    ls->rtp_expected = l->rtp_expected;
    ls->rtp_received = l->rtp_received;
    ls->rtp_restarts = l->rtp_restarts;
    if (l->probe) {
      ls->probe_ms = l->probe_ns / 1e6;
      ls->probe_pushes = l->probe_n;
      if (playing > 0.0)
        ls->probe_busy_pct = 100.0 * gp_agg_ns_to_s (l->probe_ns) / playing;
    }
  }
  g_ptr_array_unref (keys);
}

/* @l's latencies into @path: over the steady state when at least
 * GP_AGG_STEADY_MIN_NS of it followed the start-up, as a link's rate
 * (gp-aggregate.h), else over the whole run. */
static void
gp_agg_finish_path (GpAggLatency * l, GpPath * path)
{
  GpAggLatencyCounts *c = &l->run;
  guint64 early_end = 0, early_max = 0;
  guint i;

  for (i = 0; i < l->early->len; i++) {
    const GpAggLatencyWindow *w = &g_array_index (l->early,
        GpAggLatencyWindow, i);

    early_end = MAX (early_end, w->end);
    early_max = MAX (early_max, w->max_ns);
  }
  path->steady = l->steady.matched > 0 &&
      l->steady_end >= early_end + GP_AGG_STEADY_MIN_NS;
  path->startup_max_ms = path->steady ? early_max / 1e6 : -1;
  if (path->steady)
    c = &l->steady;
  c->hist.max_ns = c->max_ns;
  gp_hist_quantiles_ms (&c->hist, &path->latency_ms);
  gp_hist_octaves (&c->hist, &path->latency_octaves);
  path->mean_ms = c->matched > 0 && l->has_sum ?
      c->sum_ns / 1e6 / c->matched : -1;
  path->matched = l->run.matched;
  path->exact = l->exact;
  path->unmatched = l->unmatched;
}

static void
gp_agg_finish_paths (GpAggregator * agg)
{
  GpSession *s = agg->session;
  GPtrArray *keys = gp_agg_sorted_keys (agg->latency);
  guint i;

  g_ptr_array_set_size (s->paths, 0);
  g_ptr_array_set_size (s->interlatency, 0);
  for (i = 0; i < keys->len; i++) {
    GpAggLatency *l = g_hash_table_lookup (agg->latency, keys->pdata[i]);
    GpPath *path = gp_session_add_interlatency (s, l->source, l->element);

    gp_agg_finish_path (l, path);
    if (l->sink) {
      GpPath *to_sink = gp_session_add_path (s, l->source, l->element);

      to_sink->latency_ms = path->latency_ms;
      to_sink->latency_octaves = path->latency_octaves;
      to_sink->mean_ms = path->mean_ms;
      to_sink->matched = path->matched;
      to_sink->exact = path->exact;
      to_sink->unmatched = path->unmatched;
      to_sink->steady = path->steady;
      to_sink->startup_max_ms = path->startup_max_ms;
    }
  }
  g_ptr_array_unref (keys);
}

static gint
gp_agg_thread_summary_cmp (gconstpointer a, gconstpointer b)
{
  const GpThreadSummary *ta = *(GpThreadSummary * const *) a;
  const GpThreadSummary *tb = *(GpThreadSummary * const *) b;

  if (ta->cpu_pct_mean != tb->cpu_pct_mean)
    return ta->cpu_pct_mean > tb->cpu_pct_mean ? -1 : 1;
  return ta->tid < tb->tid ? -1 : ta->tid > tb->tid ? 1 : 0;
}

static void
gp_agg_finish_threads (GpAggregator * agg)
{
  GpSession *s = agg->session;
  GHashTableIter it;
  gpointer v;
  guint j;

  g_ptr_array_set_size (s->threads, 0);
  g_hash_table_iter_init (&it, agg->threads);
  while (g_hash_table_iter_next (&it, NULL, &v)) {
    GpAggThread *t = v;
    GpThreadSummary *ts = gp_session_add_thread (s, t->tid, t->name);

    /* mean over the thread's own life (first to last window it was
     * reported in): a thread that ran half the run at 100 % is a
     * saturated thread, not a 50 % one */
    ts->cpu_pct_mean = t->last_end > t->first_start ?
        100.0 * t->cpu_ns / (t->last_end - t->first_start) : 0.0;
    ts->cpu_pct_max = t->pct_max;
    if (t->has_run_delay && t->last_end > t->first_start)
      ts->run_delay_pct = MIN (100.0, 100.0 * t->run_delay_ns /
          (t->last_end - t->first_start));
    ts->worker = !t->streaming;
    if (t->blocked_in) {
      ts->blocked_in = g_strdup (t->blocked_in);
      ts->blocked_ms = t->blocked_ns / 1e6;
    }
    for (j = 0; j < t->elements->len; j++)
      g_ptr_array_add (ts->elements, g_strdup (t->elements->pdata[j]));
  }
  g_ptr_array_sort (s->threads, gp_agg_thread_summary_cmp);
}

static void
gp_agg_finish_process (GpAggregator * agg)
{
  GpProcessSummary *p = &agg->session->process;

  p->measured = agg->proc_cpu_span_ns > 0 || agg->rss_max > 0 ||
      agg->n_cpus > 0;
  p->cpu_pct_mean = agg->proc_cpu_span_ns > 0 ?
      100.0 * agg->proc_cpu_ns / agg->proc_cpu_span_ns : -1.0;
  p->cpu_pct_max = agg->proc_cpu_span_ns > 0 ? agg->proc_pct_max : -1.0;
  p->n_cpus = agg->n_cpus > 0 ? (gint) agg->n_cpus : -1;
  p->rss_mb_start = agg->rss_start ? agg->rss_start / GP_MIB : -1.0;
  p->rss_mb_max = agg->rss_max ? agg->rss_max / GP_MIB : -1.0;
  p->rss_mb_end = agg->rss_end ? agg->rss_end / GP_MIB : -1.0;
}

/* element name -> GPtrArray of its input GpAggLinks (borrowed). */
static GHashTable *
gp_agg_input_links_new (GpAggregator * agg)
{
  GHashTable *inputs = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
      (GDestroyNotify) g_ptr_array_unref);
  GPtrArray *keys = gp_agg_sorted_keys (agg->links);
  guint i;

  for (i = 0; i < keys->len; i++) {
    GpAggLink *l = g_hash_table_lookup (agg->links, keys->pdata[i]);
    GPtrArray *arr = g_hash_table_lookup (inputs, l->sink_element);

    if (arr == NULL) {
      arr = g_ptr_array_new ();
      g_hash_table_insert (inputs, l->sink_element, arr);
    }
    g_ptr_array_add (arr, l);
  }
  g_ptr_array_unref (keys);
  return inputs;
}

/* The input link of @element that carried the most buffers, or NULL. */
static GpAggLink *
gp_agg_main_input (GHashTable * inputs, const gchar * element)
{
  GPtrArray *arr = g_hash_table_lookup (inputs, element);
  GpAggLink *best = NULL;
  guint i;

  for (i = 0; arr != NULL && i < arr->len; i++) {
    GpAggLink *l = g_ptr_array_index (arr, i);

    if (best == NULL || l->buffers > best->buffers)
      best = l;
  }
  return best;
}

/* Target rate at the input of @element: the framerate in the caps of its
 * input link, else of the nearest link upstream that has one (breadth
 * first, so the closest wins); -1 when none has. */
static gdouble
gp_agg_upstream_framerate (GHashTable * inputs, const gchar * element)
{
  GHashTable *seen = g_hash_table_new (g_str_hash, g_str_equal);
  GPtrArray *level = g_ptr_array_new ();
  gdouble rate = -1.0;

  g_ptr_array_add (level, (gpointer) element);
  g_hash_table_add (seen, (gpointer) element);
  while (level->len > 0 && rate < 0) {
    GPtrArray *next = g_ptr_array_new ();
    guint i, j;

    for (i = 0; i < level->len; i++) {
      GPtrArray *arr = g_hash_table_lookup (inputs, level->pdata[i]);

      for (j = 0; arr != NULL && j < arr->len; j++) {
        GpAggLink *l = g_ptr_array_index (arr, j);
        gdouble r = gp_caps_framerate (l->caps);

        if (r > 0 && r > rate)
          rate = r;
        if (!g_hash_table_contains (seen, l->src_element)) {
          g_hash_table_add (seen, l->src_element);
          g_ptr_array_add (next, l->src_element);
        }
      }
    }
    g_ptr_array_unref (level);
    level = next;
  }
  g_ptr_array_unref (level);
  g_hash_table_unref (seen);
  return rate;
}

static gint
gp_agg_sink_summary_cmp (gconstpointer a, gconstpointer b)
{
  const GpSinkSummary *sa = *(GpSinkSummary * const *) a;
  const GpSinkSummary *sb = *(GpSinkSummary * const *) b;

  return g_strcmp0 (sa->name, sb->name);
}

/* Names of the elements of kind @kind, from the windows and the graph. */
static GPtrArray *
gp_agg_elements_of_kind (GpAggregator * agg, GHashTable * graph_kinds,
    const gchar * kind)
{
  GPtrArray *out = g_ptr_array_new ();
  GHashTable *seen = g_hash_table_new (g_str_hash, g_str_equal);
  GHashTableIter it;
  gpointer k;

  g_hash_table_iter_init (&it, agg->elements);
  while (g_hash_table_iter_next (&it, &k, NULL)) {
    if (g_strcmp0 (gp_agg_element_kind (agg, graph_kinds, k), kind) == 0) {
      g_ptr_array_add (out, k);
      g_hash_table_add (seen, k);
    }
  }
  g_hash_table_iter_init (&it, graph_kinds);
  while (g_hash_table_iter_next (&it, &k, NULL)) {
    if (!g_hash_table_contains (seen, k)
        && g_strcmp0 (gp_agg_element_kind (agg, graph_kinds, k), kind) == 0)
      g_ptr_array_add (out, k);
  }
  g_hash_table_unref (seen);
  g_ptr_array_sort (out, gp_agg_strcmp_ptr);
  return out;
}

/* The lateness of the buffers into a sink, from its main input link: the
 * run's quantiles and, over enough windows, their trend. */
static void
gp_agg_sink_late (const GpAggLink * in, GpSinkSummary * ss)
{
  if (in->late == NULL || in->late->total == 0)
    return;
  gp_hist_quantiles_ms (in->late, &ss->late_ms);
  ss->late_windows = in->late_trend.n;
  if (in->late_trend.n >= GP_LATE_TREND_MIN_WINDOWS)
    ss->late_trend_ms_per_s = gp_trend_slope (&in->late_trend);
}

static void
gp_agg_finish_sinks (GpAggregator * agg, GHashTable * graph_kinds)
{
  GpSession *s = agg->session;
  GHashTable *inputs = gp_agg_input_links_new (agg);
  GPtrArray *sinks = gp_agg_elements_of_kind (agg, graph_kinds, "sink");
  gdouble target = -1.0;
  guint i;

  g_ptr_array_set_size (s->sinks, 0);
  for (i = 0; i < sinks->len; i++) {
    const gchar *name = g_ptr_array_index (sinks, i);
    GpAggLink *in = gp_agg_main_input (inputs, name);
    GpSinkSummary *ss;

    if (in == NULL)
      continue;                 /* a sink nothing feeds (e.g. an unlinked one) */
    ss = gp_session_add_sink (s, name);
    g_free (ss->media);
    ss->media = g_strdup (gp_media_kind_name (gp_caps_media_kind (in->caps)));
    if (gp_agg_link_steady (in, &ss->fps, &ss->bytes_per_s, &ss->media_per_s))
      ss->first_s = ((gdouble) (gint64) (in->first_start - agg->t0)) / 1e9;
    else
      ss->bytes_per_s = -1;
    ss->buffers = in->buffers;
    gp_agg_sink_late (in, ss);
    /* frames to keep up with: video sinks only (an audio branch of the
     * same demuxer would find the video's rate upstream) */
    if (gp_caps_media_kind (in->caps) == GP_MEDIA_VIDEO
        || gp_caps_media_kind (in->caps) == GP_MEDIA_UNKNOWN) {
      ss->target_fps = gp_agg_upstream_framerate (inputs, name);
      target = MAX (target, ss->target_fps);
    }
  }
  g_ptr_array_sort (s->sinks, gp_agg_sink_summary_cmp);

  if (target <= 0) {
    /* no sink knows its rate: what the sources produce */
    GPtrArray *sources = gp_agg_elements_of_kind (agg, graph_kinds, "source");
    GHashTableIter it;
    gpointer v;

    g_hash_table_iter_init (&it, agg->links);
    while (g_hash_table_iter_next (&it, NULL, &v)) {
      GpAggLink *l = v;
      guint j;

      for (j = 0; j < sources->len; j++)
        if (g_str_equal (sources->pdata[j], l->src_element))
          target = MAX (target, gp_caps_framerate (l->caps));
    }
    g_ptr_array_unref (sources);
  }
  s->target_fps = target > 0 ? target : -1.0;
  s->frame_period_ms = target > 0 ? 1000.0 / target : -1.0;

  g_ptr_array_unref (sinks);
  g_hash_table_unref (inputs);
}

/* ------------------------------------------------------------------ */
/* finish: events                                                      */

static gint
gp_agg_event_cmp (gconstpointer a, gconstpointer b)
{
  const GpAggEvent *ea = *(GpAggEvent * const *) a;
  const GpAggEvent *eb = *(GpAggEvent * const *) b;

  return ea->ts < eb->ts ? -1 : ea->ts > eb->ts ? 1 : 0;
}

/* Copies the members of @from that @into lacks. */
static void
gp_agg_merge_data (JsonObject * into, JsonObject * from)
{
  GList *members = json_object_get_members (from), *l;

  for (l = members; l; l = l->next)
    if (!json_object_has_member (into, l->data))
      json_object_set_member (into, l->data,
          json_node_copy (json_object_get_member (from, l->data)));
  g_list_free (members);
}

static const gchar *
gp_agg_data_string (JsonObject * data, const gchar * key)
{
  JsonNode *n = data ? json_object_get_member (data, key) : NULL;

  return n && JSON_NODE_HOLDS_VALUE (n) &&
      json_node_get_value_type (n) == G_TYPE_STRING ?
      json_node_get_string (n) : NULL;
}

/* A not-negotiated error names the link the tracer saw refuse: the first
 * refused caps event, else the first push that returned not-negotiated
 * (the innermost: nested pushes return first). */
static void
gp_agg_name_refusal (GPtrArray * sorted, GpAggEvent * error)
{
  const gchar *types[] = { "caps-refused", "flow" };
  const gchar *keys[] = { "link", "peer", "caps", "accepts" };
  guint t, i, k;

  if (g_strcmp0 (gp_agg_data_string (error->data, "reason"), "not-negotiated"))
    return;
  for (t = 0; t < G_N_ELEMENTS (types); t++) {
    for (i = 0; i < sorted->len; i++) {
      GpAggEvent *ev = g_ptr_array_index (sorted, i);

      if (!g_str_equal (ev->type, types[t]) || !ev->data)
        continue;
      for (k = 0; k < G_N_ELEMENTS (keys); k++) {
        if (json_object_has_member (error->data, keys[k]))
          json_object_remove_member (error->data, keys[k]);
        if (gp_agg_data_string (ev->data, keys[k]))
          json_object_set_string_member (error->data, keys[k],
              gp_agg_data_string (ev->data, keys[k]));
      }
      return;
    }
  }
}

/* The same message seen on the bus and by the tracer is one event, at the
 * tracer's time (the posting itself): for errors and warnings the bus copy
 * (what reached the pipeline, with the capture's account of it) with the
 * tracer's details added, for the rest the tracer's.  Each tracer event
 * pairs with at most one bus event.  The list is sorted again after. */
static void
gp_agg_finish_events (GpAggregator * agg)
{
  GpSession *s = agg->session;
  GPtrArray *sorted = g_ptr_array_new ();
  gboolean *skip = g_new0 (gboolean, agg->events->len + 1);
  gboolean *paired = g_new0 (gboolean, agg->events->len + 1);
  guint i, j;

  for (i = 0; i < agg->events->len; i++)
    g_ptr_array_add (sorted, g_ptr_array_index (agg->events, i));
  /* stable: events of the same instant keep their order */
  g_ptr_array_sort (sorted, gp_agg_event_cmp);

  for (i = 0; i < sorted->len; i++) {
    GpAggEvent *ev = g_ptr_array_index (sorted, i);

    if (!ev->from_bus)
      continue;
    for (j = 0; j < sorted->len; j++) {
      GpAggEvent *te = g_ptr_array_index (sorted, j);

      if (te->from_bus || paired[j] || !g_str_equal (te->type, ev->type)
          || !g_str_equal (te->source, ev->source))
        continue;
      paired[j] = TRUE;
      if (g_str_equal (ev->type, "error") || g_str_equal (ev->type,
              "warning")) {
        skip[j] = TRUE;
        ev->ts = te->ts;
        if (te->data) {
          if (ev->data == NULL)
            ev->data = json_object_new ();
          gp_agg_merge_data (ev->data, te->data);
        }
      } else {
        skip[i] = TRUE;
      }
      break;
    }
  }

  for (i = 0; i < sorted->len; i++) {
    GpAggEvent *ev = g_ptr_array_index (sorted, i);

    if (ev->from_bus && g_str_equal (ev->type, "error") && ev->data)
      gp_agg_name_refusal (sorted, ev);
  }
  for (i = 0; agg->bus_watched && i < sorted->len; i++) {
    GpAggEvent *ev = g_ptr_array_index (sorted, i);

    if (!ev->from_bus && !paired[i] && (g_str_equal (ev->type, "error")
            || g_str_equal (ev->type, "warning")))
      skip[i] = TRUE;
  }
  for (i = 0, j = 0; i < sorted->len; i++)
    if (!skip[i])
      sorted->pdata[j++] = sorted->pdata[i];
  g_ptr_array_set_size (sorted, j);
  g_ptr_array_sort (sorted, gp_agg_event_cmp);

  g_ptr_array_set_size (s->events, 0);
  for (i = 0; i < sorted->len; i++) {
    GpAggEvent *ev = g_ptr_array_index (sorted, i);
    GpEvent *se;

    se = gp_session_add_event (s,
        ((gdouble) (gint64) (ev->ts - agg->t0)) / 1e9, ev->type, ev->source,
        ev->text);
    if (ev->data)
      se->data = json_object_ref (ev->data);
  }
  g_free (skip);
  g_free (paired);
  g_ptr_array_unref (sorted);
  s->events_dropped = agg->events_dropped + agg->tracer_events_dropped;
}

void
gp_aggregator_finish (GpAggregator * agg)
{
  GHashTable *graph_kinds;

  g_return_if_fail (agg != NULL);

  g_mutex_lock (&agg->lock);
  graph_kinds = gp_agg_graph_kinds_new (agg);
  gp_agg_finish_graph (agg);
  gp_agg_finish_elements (agg, gp_agg_playing_s (agg), graph_kinds);
  gp_agg_finish_queues (agg);
  gp_agg_finish_links (agg, gp_agg_playing_s (agg));
  gp_agg_finish_paths (agg);
  gp_agg_finish_threads (agg);
  gp_agg_finish_process (agg);
  gp_agg_finish_sinks (agg, graph_kinds);
  gp_agg_finish_series (agg);
  gp_agg_finish_events (agg);
  g_hash_table_unref (graph_kinds);
  g_mutex_unlock (&agg->lock);
}

/* ------------------------------------------------------------------ */
/* progress                                                            */

gchar *
gp_aggregator_describe_progress (GpAggregator * agg, gdouble span_s)
{
  GString *out = g_string_new (NULL);
  GHashTable *graph_kinds, *inputs;
  GPtrArray *sinks;
  guint64 start = 0, end = 0;
  guint first, i;

  g_return_val_if_fail (agg != NULL, g_strdup (""));

  g_mutex_lock (&agg->lock);
  if (agg->series->len == 0) {
    g_mutex_unlock (&agg->lock);
    g_string_free (out, TRUE);
    return g_strdup ("waiting for data");
  }
  /* newest entries back until they cover @span_s */
  first = agg->series->len - 1;
  end = ((GpAggSeriesEntry *) g_ptr_array_index (agg->series, first))->end;
  while (TRUE) {
    start = ((GpAggSeriesEntry *) g_ptr_array_index (agg->series,
            first))->start;
    if (first == 0 || gp_agg_ns_to_s (end - start) >= span_s)
      break;
    first--;
  }

  graph_kinds = gp_agg_graph_kinds_new (agg);
  inputs = gp_agg_input_links_new (agg);
  sinks = gp_agg_elements_of_kind (agg, graph_kinds, "sink");
  for (i = 0; i < sinks->len; i++) {
    GpAggLink *in = gp_agg_main_input (inputs, sinks->pdata[i]);
    guint64 buffers = 0;
    guint k;

    if (in == NULL)
      continue;
    for (k = first; k < agg->series->len; k++) {
      GpAggSeriesEntry *e = g_ptr_array_index (agg->series, k);
      GpAggSeriesLink *sl = g_hash_table_lookup (e->links, in->id);

      if (sl)
        buffers += sl->buffers;
    }
    g_string_append_printf (out, "%s%s %.1f fps", out->len ? "  " : "",
        (const gchar *) sinks->pdata[i],
        end > start ? buffers / gp_agg_ns_to_s (end - start) : 0.0);
  }
  g_ptr_array_unref (sinks);
  g_hash_table_unref (inputs);
  g_hash_table_unref (graph_kinds);
  g_mutex_unlock (&agg->lock);

  if (out->len == 0)
    g_string_append (out, "no sink fed yet");
  return g_string_free (out, FALSE);
}
