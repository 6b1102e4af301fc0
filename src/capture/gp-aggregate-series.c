/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-aggregate-series.c: the bounded series. One entry a window (what its
 * elements, links, queues, threads, latency paths and the process did),
 * kept at most GP_AGGREGATE_MAX_SERIES long by merging the oldest
 * neighbours pairwise, and turned into the session's series objects
 * (docs/session-schema.md, "series[]").
 */
#include "gp-aggregate-private.h"
#include "core/gp-series.h"

/* ------------------------------------------------------------------ */
/* series entries: one window, or several merged                       */

static void
gp_agg_series_element_free (gpointer p)
{
  GpAggSeriesElement *e = p;

  g_array_free (e->pairs, TRUE);
  g_free (e);
}

static void
gp_agg_series_link_free (gpointer p)
{
  GpAggSeriesLink *e = p;

  if (e->late_pairs)
    g_array_free (e->late_pairs, TRUE);
  g_free (e);
}

static void
gp_agg_series_path_free (gpointer p)
{
  GpAggSeriesPath *e = p;

  g_array_free (e->pairs, TRUE);
  g_free (e);
}

GpAggSeriesEntry *
gp_agg_series_entry_new (guint64 start, guint64 end)
{
  GpAggSeriesEntry *e = g_new0 (GpAggSeriesEntry, 1);

  e->start = start;
  e->end = end;
  e->elements = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      gp_agg_series_element_free);
  e->links = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      gp_agg_series_link_free);
  e->queues = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  e->threads = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  e->paths = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      gp_agg_series_path_free);
  return e;
}

void
gp_agg_series_entry_free (gpointer p)
{
  GpAggSeriesEntry *e = p;

  g_hash_table_unref (e->elements);
  g_hash_table_unref (e->links);
  g_hash_table_unref (e->queues);
  g_hash_table_unref (e->threads);
  g_hash_table_unref (e->paths);
  if (e->json)
    json_object_unref (e->json);
  g_free (e);
}

gpointer
gp_agg_series_item (GHashTable * table, const gchar * key, gsize size)
{
  gpointer item = g_hash_table_lookup (table, key);

  if (item == NULL) {
    item = g_malloc0 (size);
    g_hash_table_insert (table, g_strdup (key), item);
  }
  return item;
}

GpAggSeriesElement *
gp_agg_series_element (GpAggSeriesEntry * e, const gchar * name)
{
  GpAggSeriesElement *se = gp_agg_series_item (e->elements, name,
      sizeof (GpAggSeriesElement));

  if (se->pairs == NULL)
    se->pairs = gp_agg_pairs_new ();
  return se;
}

GpAggSeriesPath *
gp_agg_series_path (GpAggSeriesEntry * e, const gchar * key)
{
  GpAggSeriesPath *sp = gp_agg_series_item (e->paths, key,
      sizeof (GpAggSeriesPath));

  if (sp->pairs == NULL)
    sp->pairs = gp_agg_pairs_new ();
  return sp;
}

/* @dst absorbs @src (the window right after it): counts add up, maxima take
 * the max, means stay weighted by time; rates are computed later over the
 * merged span. */
static void
gp_agg_series_entry_merge (GpAggSeriesEntry * dst, GpAggSeriesEntry * src)
{
  GHashTableIter it;
  gpointer k, v;

  dst->start = MIN (dst->start, src->start);
  dst->end = MAX (dst->end, src->end);
  if (dst->json) {
    json_object_unref (dst->json);
    dst->json = NULL;
  }

  g_hash_table_iter_init (&it, src->elements);
  while (g_hash_table_iter_next (&it, &k, &v)) {
    GpAggSeriesElement *s = v, *d = gp_agg_series_element (dst, k);

    d->buffers += s->buffers;
    d->self_ns += s->self_ns;
    d->max_ns = MAX (d->max_ns, s->max_ns);
    gp_agg_pairs_merge (d->pairs, s->pairs);
  }
  g_hash_table_iter_init (&it, src->links);
  while (g_hash_table_iter_next (&it, &k, &v)) {
    GpAggSeriesLink *s = v, *d = gp_agg_series_item (dst->links, k,
        sizeof (GpAggSeriesLink));

    d->buffers += s->buffers;
    d->bytes += s->bytes;
    if (s->late_pairs) {
      if (d->late_pairs == NULL)
        d->late_pairs = gp_agg_pairs_new ();
      gp_agg_pairs_merge (d->late_pairs, s->late_pairs);
      d->late_max_ns = MAX (d->late_max_ns, s->late_max_ns);
    }
  }
  g_hash_table_iter_init (&it, src->queues);
  while (g_hash_table_iter_next (&it, &k, &v)) {
    GpAggSeriesQueue *s = v, *d = gp_agg_series_item (dst->queues, k,
        sizeof (GpAggSeriesQueue));

    d->pct_wsum += s->pct_wsum;
    d->pct_wns += s->pct_wns;
    d->pct_max = MAX (d->pct_max, s->pct_max);
    d->dropped += s->dropped;
  }
  g_hash_table_iter_init (&it, src->threads);
  while (g_hash_table_iter_next (&it, &k, &v)) {
    GpAggSeriesThread *s = v, *d = gp_agg_series_item (dst->threads, k,
        sizeof (GpAggSeriesThread));

    d->cpu_ns += s->cpu_ns;
  }
  g_hash_table_iter_init (&it, src->paths);
  while (g_hash_table_iter_next (&it, &k, &v)) {
    GpAggSeriesPath *s = v, *d = gp_agg_series_path (dst, k);

    d->matched += s->matched;
    d->unmatched += s->unmatched;
    d->max_ns = MAX (d->max_ns, s->max_ns);
    gp_agg_pairs_merge (d->pairs, s->pairs);
  }
  dst->process.cpu_ns += src->process.cpu_ns;
  dst->process.cpu_span_ns += src->process.cpu_span_ns;
  dst->process.rss_max = MAX (dst->process.rss_max, src->process.rss_max);
}

/* Keeps the series at most GP_AGGREGATE_MAX_SERIES long: the oldest half is
 * merged pairwise, so recent windows stay at full resolution and older
 * history gets coarser, while memory stays constant. */
void
gp_agg_series_compact (GpAggregator * agg)
{
  GPtrArray *s = agg->series;
  guint n_old, i, w;

  if (s->len <= GP_AGGREGATE_MAX_SERIES)
    return;
  n_old = (s->len / 2) & ~1u;
  for (i = 0, w = 0; i < n_old; i += 2, w++) {
    GpAggSeriesEntry *a = g_ptr_array_index (s, i);
    GpAggSeriesEntry *b = g_ptr_array_index (s, i + 1);

    gp_agg_series_entry_merge (a, b);
    gp_agg_series_entry_free (b);
    s->pdata[w] = a;
  }
  for (i = n_old; i < s->len; i++, w++)
    s->pdata[w] = s->pdata[i];
  /* the entries past w were moved or freed: drop them without freeing */
  g_ptr_array_set_free_func (s, NULL);
  g_ptr_array_set_size (s, w);
  g_ptr_array_set_free_func (s, gp_agg_series_entry_free);
}

/* A window much shorter than the one before it (the flush at the end of
 * a run, right after a timer tick) is folded into that one: its own rates
 * would be over a few ms and show as spikes. "The one before" is that
 * window as it came, not the entry it may have been folded into, and never
 * the first window, which starts with the tracer rather than at a tick:
 * measured against the first or a merged entry, a long first window (a
 * program loading its plugins for 2 s under a sanitizer) took in every
 * window after it, and the series was one entry. Returns whether @entry
 * was taken (and freed). */
gboolean
gp_agg_series_fold_short (GpAggregator * agg, GpAggSeriesEntry * entry)
{
  GpAggSeriesEntry *last;
  guint64 before = agg->last_window_span;

  if (agg->series->len == 0)
    return FALSE;
  agg->last_window_span = entry->end - entry->start;
  last = g_ptr_array_index (agg->series, agg->series->len - 1);
  if (entry->start < last->end || before == 0
      || (entry->end - entry->start) * 4 >= before)
    return FALSE;
  gp_agg_series_entry_merge (last, entry);
  gp_agg_series_entry_free (entry);
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* finish: series                                                      */

void
gp_agg_pairs_quantiles (GpAggregator * agg, const GArray * pairs,
    guint64 max_ns, gdouble * p50, gdouble * p95)
{
  GpHist *h = agg->scratch_hist;

  *p50 = *p95 = -1.0;
  if (pairs->len == 0)
    return;
  gp_hist_clear (h);
  gp_agg_hist_add (h, pairs);
  if (max_ns > 0)
    h->max_ns = max_ns;
  *p50 = gp_hist_quantile_ns (h, 0.50) / 1e6;
  *p95 = gp_hist_quantile_ns (h, 0.95) / 1e6;
}

/* The series entry in the shape of docs/session-schema.md. Rates are over
 * the entry's own span (one window, or the merged windows). */
static JsonObject *
gp_agg_series_entry_to_json (GpAggregator * agg, GpAggSeriesEntry * e)
{
  gdouble span_s = gp_agg_ns_to_s (e->end - e->start);
  JsonObject *o, *entry;
  GPtrArray *keys;
  guint i;

  o = gp_series_window_new (((gdouble) (gint64) (e->start - agg->t0)) / 1e9,
      ((gdouble) (gint64) (e->end - agg->t0)) / 1e9);

  keys = gp_agg_sorted_keys (e->elements);
  for (i = 0; i < keys->len; i++) {
    GpAggSeriesElement *se = g_hash_table_lookup (e->elements,
        keys->pdata[i]);
    gdouble p50, p95;

    gp_agg_pairs_quantiles (agg, se->pairs, se->max_ns, &p50, &p95);
    entry = gp_series_entry (o, GP_SERIES_ELEMENTS, keys->pdata[i]);
    gp_series_set_count (entry, GP_SE_BUFFERS, se->buffers);
    gp_series_set (entry, GP_SE_SELF_MS, se->self_ns / 1e6);
    gp_series_set (entry, GP_SE_SELF_MS_P50, p50);
    gp_series_set (entry, GP_SE_SELF_MS_P95, p95);
  }
  g_ptr_array_unref (keys);

  keys = gp_agg_sorted_keys (e->links);
  for (i = 0; i < keys->len; i++) {
    GpAggSeriesLink *sl = g_hash_table_lookup (e->links, keys->pdata[i]);

    entry = gp_series_entry (o, GP_SERIES_LINKS, keys->pdata[i]);
    gp_series_set (entry, GP_SL_FPS, span_s > 0 ? sl->buffers / span_s : 0.0);
    gp_series_set (entry, GP_SL_BYTES_PER_S,
        span_s > 0 ? sl->bytes / span_s : 0.0);
    /* absent where no buffer's lateness was measured: unknown, not 0 */
    if (sl->late_pairs && sl->late_pairs->len > 0) {
      gdouble p50, p95;

      gp_agg_pairs_quantiles (agg, sl->late_pairs, sl->late_max_ns, &p50,
          &p95);
      gp_series_set (entry, GP_SL_LATE_MS_P50, p50);
      gp_series_set (entry, GP_SL_LATE_MS_MAX, sl->late_max_ns / 1e6);
    }
  }
  g_ptr_array_unref (keys);

  keys = gp_agg_sorted_keys (e->queues);
  for (i = 0; i < keys->len; i++) {
    GpAggSeriesQueue *sq = g_hash_table_lookup (e->queues, keys->pdata[i]);

    entry = gp_series_entry (o, GP_SERIES_QUEUES, keys->pdata[i]);
    gp_series_set (entry, GP_SQ_LEVEL_PCT_MEAN,
        sq->pct_wns > 0 ? sq->pct_wsum / sq->pct_wns : 0.0);
    gp_series_set (entry, GP_SQ_LEVEL_PCT_MAX, sq->pct_max);
    gp_series_set_count (entry, GP_SQ_DROPPED, sq->dropped);
  }
  g_ptr_array_unref (keys);

  keys = gp_agg_sorted_keys (e->threads);
  for (i = 0; i < keys->len; i++) {
    GpAggSeriesThread *st = g_hash_table_lookup (e->threads, keys->pdata[i]);

    entry = gp_series_entry (o, GP_SERIES_THREADS, keys->pdata[i]);
    gp_series_set (entry, GP_ST_CPU_PCT,
        span_s > 0 ? 100.0 * gp_agg_ns_to_s (st->cpu_ns) / span_s : 0.0);
  }
  g_ptr_array_unref (keys);

  keys = gp_agg_sorted_keys (e->paths);
  for (i = 0; i < keys->len; i++) {
    GpAggSeriesPath *sp = g_hash_table_lookup (e->paths, keys->pdata[i]);
    gdouble p50, p95;

    gp_agg_pairs_quantiles (agg, sp->pairs, sp->max_ns, &p50, &p95);
    entry = gp_series_entry (o, GP_SERIES_PATHS, keys->pdata[i]);
    gp_series_set (entry, GP_SP_LATENCY_MS_P50, p50);
    gp_series_set (entry, GP_SP_LATENCY_MS_P95, p95);
    gp_series_set_count (entry, GP_SP_MATCHED, sp->matched);
    gp_series_set_count (entry, GP_SP_UNMATCHED, sp->unmatched);
  }
  g_ptr_array_unref (keys);

  /* null when the windows did not carry it */
  entry = gp_series_entry (o, GP_SERIES_PROCESS, NULL);
  gp_series_set_or_null (entry, GP_SPR_CPU_PCT, e->process.cpu_span_ns > 0 ?
      100.0 * e->process.cpu_ns / e->process.cpu_span_ns : -1);
  gp_series_set_or_null (entry, GP_SPR_RSS_MB, e->process.rss_max > 0 ?
      e->process.rss_max / GP_MIB : -1);
  return o;
}

void
gp_agg_finish_series (GpAggregator * agg)
{
  GpSession *s = agg->session;
  guint i;

  g_ptr_array_set_size (s->series, 0);
  for (i = 0; i < agg->series->len; i++) {
    GpAggSeriesEntry *e = g_ptr_array_index (agg->series, i);

    /* rendered once per entry and kept: a live view calling finish every
     * second re-renders only the new and the merged entries */
    if (e->json == NULL)
      e->json = gp_agg_series_entry_to_json (agg, e);
    gp_session_add_window (s, e->json);
  }
}
