/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-aggregate.c: the tracer's window and graph records folded into the
 * session model. See gp-aggregate.h for the definitions of the rates; the
 * record format is in docs/ARCHITECTURE.md.
 *
 * Everything the tracer sends is accumulated in private tables under one
 * lock (windows arrive on the tracer's thread); the session is rebuilt from
 * those tables by gp_aggregator_finish(), which may run any number of times.
 * Malformed records (missing fields, wrong types, odd histogram lists) are
 * tolerated field by field: a bad value counts as absent, never as a crash.
 */
#include "gp-aggregate.h"
#include "gp-stats.h"
#include "gp-record.h"
#include "gp-caps.h"

#include <string.h>

/* ------------------------------------------------------------------ */
/* data helpers                                                        */

/* One (bucket, count) pair of a sparse histogram. Two guint64 in a row, so
 * an array of them is exactly the [bucket, count, ...] list that
 * gp_hist_add_pairs() reads. */
typedef struct
{
  guint64 bucket;
  guint64 count;
} GpPair;

static guint64
get_u64 (const GstStructure * s, const gchar * field)
{
  const GValue *v = gst_structure_get_value (s, field);

  if (v == NULL)
    return 0;
  if (G_VALUE_HOLDS_UINT64 (v))
    return g_value_get_uint64 (v);
  if (G_VALUE_HOLDS_INT64 (v))
    return MAX (g_value_get_int64 (v), 0);
  if (G_VALUE_HOLDS_UINT (v))
    return g_value_get_uint (v);
  if (G_VALUE_HOLDS_INT (v))
    return MAX (g_value_get_int (v), 0);
  if (G_VALUE_HOLDS_ULONG (v))
    return g_value_get_ulong (v);
  if (G_VALUE_HOLDS_LONG (v))
    return MAX (g_value_get_long (v), 0);
  if (G_VALUE_HOLDS_DOUBLE (v) && g_value_get_double (v) > 0)
    return (guint64) g_value_get_double (v);
  return 0;
}

static gboolean
has_number (const GstStructure * s, const gchar * field)
{
  const GValue *v = gst_structure_get_value (s, field);

  return v != NULL && (G_VALUE_HOLDS_UINT64 (v) || G_VALUE_HOLDS_INT64 (v)
      || G_VALUE_HOLDS_UINT (v) || G_VALUE_HOLDS_INT (v)
      || G_VALUE_HOLDS_ULONG (v) || G_VALUE_HOLDS_LONG (v)
      || G_VALUE_HOLDS_DOUBLE (v) || G_VALUE_HOLDS_FLOAT (v));
}

static gdouble
get_double (const GstStructure * s, const gchar * field)
{
  const GValue *v = gst_structure_get_value (s, field);

  if (v == NULL)
    return 0.0;
  if (G_VALUE_HOLDS_DOUBLE (v))
    return g_value_get_double (v);
  if (G_VALUE_HOLDS_FLOAT (v))
    return g_value_get_float (v);
  return (gdouble) get_u64 (s, field);
}

static const gchar *
get_str (const GstStructure * s, const gchar * field)
{
  const GValue *v = gst_structure_get_value (s, field);

  if (v == NULL || !G_VALUE_HOLDS_STRING (v))
    return NULL;
  return g_value_get_string (v);
}

static gboolean
get_bool (const GstStructure * s, const gchar * field)
{
  const GValue *v = gst_structure_get_value (s, field);

  return v != NULL && G_VALUE_HOLDS_BOOLEAN (v) && g_value_get_boolean (v);
}

/* Number of entries of a list or array field; 0 when absent or another
 * type. */
static guint
list_size (const GValue * v)
{
  if (v == NULL)
    return 0;
  if (GST_VALUE_HOLDS_LIST (v))
    return gst_value_list_get_size (v);
  if (GST_VALUE_HOLDS_ARRAY (v))
    return gst_value_array_get_size (v);
  return 0;
}

static const GValue *
list_value (const GValue * v, guint i)
{
  if (GST_VALUE_HOLDS_LIST (v))
    return gst_value_list_get_value (v, i);
  return gst_value_array_get_value (v, i);
}

static const GstStructure *
list_struct (const GValue * v, guint i)
{
  const GValue *e = list_value (v, i);

  if (e == NULL || !GST_VALUE_HOLDS_STRUCTURE (e))
    return NULL;
  return gst_value_get_structure (e);
}

static gboolean
value_to_u64 (const GValue * v, guint64 * out)
{
  if (G_VALUE_HOLDS_UINT64 (v))
    *out = g_value_get_uint64 (v);
  else if (G_VALUE_HOLDS_INT64 (v) && g_value_get_int64 (v) >= 0)
    *out = g_value_get_int64 (v);
  else if (G_VALUE_HOLDS_UINT (v))
    *out = g_value_get_uint (v);
  else if (G_VALUE_HOLDS_INT (v) && g_value_get_int (v) >= 0)
    *out = g_value_get_int (v);
  else
    return FALSE;
  return TRUE;
}

static gint
pair_cmp (gconstpointer a, gconstpointer b)
{
  const GpPair *pa = a, *pb = b;

  return pa->bucket < pb->bucket ? -1 : pa->bucket > pb->bucket ? 1 : 0;
}

/* Reads the sparse histogram @field of @s into @out as sorted pairs with
 * distinct buckets. Pairs that are not two non-negative integers or whose
 * bucket is past the layout are dropped, so a bad record can never index
 * outside a histogram. */
static void
read_pairs (const GstStructure * s, const gchar * field, GArray * out)
{
  const GValue *v = gst_structure_get_value (s, field);
  guint i, n, w;

  g_array_set_size (out, 0);
  n = list_size (v);
  for (i = 0; i + 1 < n; i += 2) {
    GpPair p;

    if (!value_to_u64 (list_value (v, i), &p.bucket)
        || !value_to_u64 (list_value (v, i + 1), &p.count))
      continue;
    if (p.bucket >= GP_HIST_N_BUCKETS || p.count == 0)
      continue;
    g_array_append_val (out, p);
  }
  if (out->len < 2)
    return;
  /* the contract does not promise an order; the series merge needs one */
  g_array_sort (out, pair_cmp);
  for (i = 1, w = 0; i < out->len; i++) {
    GpPair *dst = &g_array_index (out, GpPair, w);
    GpPair *src = &g_array_index (out, GpPair, i);

    if (src->bucket == dst->bucket)
      dst->count += src->count;
    else
      g_array_index (out, GpPair, ++w) = *src;
  }
  g_array_set_size (out, w + 1);
}

/* @dst += @src, both sorted pair arrays with distinct buckets. */
static void
pairs_merge (GArray * dst, const GArray * src)
{
  GArray *out;
  guint i = 0, j = 0;

  if (src->len == 0)
    return;
  if (dst->len == 0) {
    g_array_append_vals (dst, src->data, src->len);
    return;
  }
  out = g_array_sized_new (FALSE, FALSE, sizeof (GpPair),
      dst->len + src->len);
  while (i < dst->len || j < src->len) {
    const GpPair *a = i < dst->len ? &g_array_index (dst, GpPair, i) : NULL;
    const GpPair *b = j < src->len ? &g_array_index (src, GpPair, j) : NULL;
    GpPair p;

    if (b == NULL || (a != NULL && a->bucket < b->bucket)) {
      p = *a;
      i++;
    } else if (a == NULL || b->bucket < a->bucket) {
      p = *b;
      j++;
    } else {
      p.bucket = a->bucket;
      p.count = a->count + b->count;
      i++;
      j++;
    }
    g_array_append_val (out, p);
  }
  g_array_set_size (dst, 0);
  g_array_append_vals (dst, out->data, out->len);
  g_array_free (out, TRUE);
}

static GArray *
pairs_new (void)
{
  return g_array_new (FALSE, FALSE, sizeof (GpPair));
}

static void
hist_add (GpHist * h, const GArray * pairs)
{
  if (pairs->len > 0)
    gp_hist_add_pairs (h, (const guint64 *) pairs->data, pairs->len * 2);
}

static void
str_array_add_unique (GPtrArray * arr, const gchar * s)
{
  guint i;

  for (i = 0; i < arr->len; i++)
    if (g_str_equal (g_ptr_array_index (arr, i), s))
      return;
  g_ptr_array_add (arr, g_strdup (s));
}

static gint
strcmp_ptr (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(const gchar * const *) a, *(const gchar * const *) b);
}

/* Keys of @table, sorted, so that every output is in a stable order. */
static GPtrArray *
sorted_keys (GHashTable * table)
{
  GPtrArray *keys = g_ptr_array_new ();
  GHashTableIter it;
  gpointer k;

  g_hash_table_iter_init (&it, table);
  while (g_hash_table_iter_next (&it, &k, NULL))
    g_ptr_array_add (keys, k);
  g_ptr_array_sort (keys, strcmp_ptr);
  return keys;
}


static gdouble
ns_to_s (guint64 ns)
{
  return ns / 1e9;
}

/* ------------------------------------------------------------------ */
/* whole-run accumulators                                              */

typedef struct
{
  gchar *name;
  gchar *factory;
  gchar *kind;
  GpHist hist;
  guint64 buffers;
  guint64 self_ns;
  guint64 self_max_ns;
  guint64 cpu_ns;
  gboolean has_cpu;
  guint64 cpu_buffers;          /* samples timed by CPU (gp-record.h) */
  GpHist wait;
  guint64 wait_ns;
  gboolean has_wait;
  GPtrArray *threads;           /* gchar*: thread display names */
} AggElement;

typedef struct
{
  gchar *name;
  gchar *factory;
  gchar *leaky;
  GpHist residence;
  guint64 residence_max_ns;
  gdouble pct_wsum;             /* sum of level_pct_mean * window ns */
  gdouble pct_wns;              /* sum of window ns with a level */
  gdouble pct_max;
  guint64 level_buffers_max;
  guint64 dropped;
  guint64 blocked_ns;
} AggQueue;

/* What a link carried over some windows. */
typedef struct
{
  guint64 buffers;
  guint64 bytes;
  guint64 duration_ns;          /* media time of the buffers with one */
  guint64 timed;                /* how many had one */
} LinkCounts;

static void
link_counts_add (LinkCounts * dst, const LinkCounts * src, gint sign)
{
  dst->buffers += sign * src->buffers;
  dst->bytes += sign * src->bytes;
  dst->duration_ns += sign * src->duration_ns;
  dst->timed += sign * src->timed;
}

/* A link's first second of data is start-up, not steady state: a receiver
 * decoding from its first keyframe, a jitter buffer and a decoder filling
 * (an RTP receiver's first 250 ms windows carry 4 and 12 frames of 30). */
#define GP_AGG_STARTUP_NS (1 * GST_SECOND)
/* It is left out only when this much data time remains after it. */
#define GP_AGG_STEADY_MIN_NS (1 * GST_SECOND)

/* One of a link's data windows in its start-up. */
typedef struct
{
  guint64 start, end;
  LinkCounts c;
} LinkWindow;

typedef struct
{
  gchar *id;
  gchar *src;
  gchar *sink;
  gchar *src_element;
  gchar *sink_element;
  gchar *caps;
  gchar *memory;
  guint64 buffers;
  guint64 bytes;
  /* the steady-state rate (gp-aggregate.h): what the windows before the
   * stop carried, less the link's start-up (the data windows in
   * @early, its first among them) and its last data window */
  LinkCounts steady;
  gboolean seen_data;
  GArray *early;                /* LinkWindow, starting within
                                 * GP_AGG_STARTUP_NS of the first */
  LinkCounts last;
  guint64 first_start, last_start, last_end;
} AggLink;

typedef struct
{
  gchar *source;
  gchar *element;
  gboolean sink;
  GpHist hist;
  guint64 max_ns;
  guint64 sum_ns;
  gboolean has_sum;             /* every record carried sum_ns */
  guint64 matched;
  guint64 exact;
  guint64 unmatched;
} AggLatency;

typedef struct
{
  guint64 tid;
  gchar *name;                  /* unique display name */
  guint64 cpu_ns;
  guint64 first_start;
  guint64 last_end;
  gdouble pct_max;
  GPtrArray *elements;          /* gchar* */
  gboolean streaming;           /* seen in a hook at least once */
  /* in its latest window: the element it had been pushing into since
   * before that window, and for how long; NULL when none */
  gchar *blocked_in;
  guint64 blocked_ns;
  guint64 latest_end;
} AggThread;

typedef struct
{
  guint64 ts;
  gchar *type;
  gchar *source;
  gchar *text;
  JsonObject *data;             /* the record's other fields, or NULL */
  gboolean from_bus;
} AggEvent;

/* ------------------------------------------------------------------ */
/* series entries: one window, or several merged                       */

typedef struct
{
  guint64 buffers;
  guint64 max_ns;
  GArray *pairs;
} SerElement;

typedef struct
{
  guint64 buffers;
  guint64 bytes;
} SerLink;

typedef struct
{
  gdouble pct_wsum;
  gdouble pct_wns;
  gdouble pct_max;
  guint64 dropped;
} SerQueue;

typedef struct
{
  guint64 cpu_ns;
} SerThread;

/* The process's own figures of an entry; the spans count only windows
 * that carried them. */
typedef struct
{
  guint64 cpu_ns;
  guint64 cpu_span_ns;
  guint64 rss_max;              /* bytes, 0 unknown */
} SerProcess;

typedef struct
{
  guint64 matched;
  guint64 unmatched;
  guint64 max_ns;
  GArray *pairs;
} SerPath;

typedef struct
{
  guint64 start;
  guint64 end;
  GHashTable *elements;         /* name -> SerElement */
  GHashTable *links;            /* id -> SerLink */
  GHashTable *queues;           /* name -> SerQueue */
  GHashTable *threads;          /* display name -> SerThread */
  GHashTable *paths;            /* "source->sink" -> SerPath */
  SerProcess process;
  JsonObject *json;             /* cached rendering; NULL when stale */
} SerEntry;

struct _GpAggregator
{
  GMutex lock;
  GpSession *session;
  guint64 t0;

  GHashTable *elements;         /* name -> AggElement */
  GHashTable *queues;           /* name -> AggQueue */
  GHashTable *links;            /* id -> AggLink */
  GHashTable *latency;          /* "source->element" -> AggLatency */
  GHashTable *threads;          /* &tid -> AggThread */
  GHashTable *thread_names;     /* display name -> AggThread (not owned) */
  GPtrArray *events;            /* AggEvent* */
  guint64 events_dropped;       /* past GP_AGGREGATE_MAX_EVENTS */
  guint64 tracer_events_dropped;        /* the windows' events_dropped */
  /* the caller reads the pipeline's bus: an error or warning that did not
   * reach it (an element without a bus, a bin that handled its child's)
   * is not the pipeline's */
  gboolean bus_watched;
  /* when gstprof asked the pipeline to stop (end of --duration, Ctrl-C):
   * the drain after it is not steady state; 0 while running */
  guint64 stop_ts;

  GstStructure *graph;          /* last graph record, or NULL */

  gboolean have_window;
  guint64 first_start, last_end;
  gboolean have_data;
  guint64 first_data_start, first_data_end;
  guint64 last_data_start, last_data_end;

  GPtrArray *series;            /* SerEntry*, oldest first */

  /* the process (windows' proc_* fields) */
  guint64 proc_cpu_ns;
  guint64 proc_cpu_span_ns;
  guint64 proc_last_span_ns;
  gdouble proc_pct_max;         /* < 0 none yet */
  guint n_cpus;                 /* 0 unknown */
  guint64 rss_start, rss_max, rss_end;  /* bytes, 0 unknown */

  GpHist *scratch_hist;
  GArray *scratch_pairs;
};

static void
agg_element_free (gpointer p)
{
  AggElement *e = p;

  g_free (e->name);
  g_free (e->factory);
  g_free (e->kind);
  g_ptr_array_unref (e->threads);
  g_free (e);
}

static void
agg_queue_free (gpointer p)
{
  AggQueue *q = p;

  g_free (q->name);
  g_free (q->factory);
  g_free (q->leaky);
  g_free (q);
}

static void
agg_link_free (gpointer p)
{
  AggLink *l = p;

  g_free (l->id);
  g_free (l->src);
  g_free (l->sink);
  g_free (l->src_element);
  g_free (l->sink_element);
  g_free (l->caps);
  g_free (l->memory);
  g_array_unref (l->early);
  g_free (l);
}

static void
agg_latency_free (gpointer p)
{
  AggLatency *l = p;

  g_free (l->source);
  g_free (l->element);
  g_free (l);
}

static void
agg_thread_free (gpointer p)
{
  AggThread *t = p;

  g_free (t->name);
  g_free (t->blocked_in);
  g_ptr_array_unref (t->elements);
  g_free (t);
}

static void
agg_event_free (gpointer p)
{
  AggEvent *e = p;

  g_free (e->type);
  g_free (e->source);
  g_free (e->text);
  if (e->data)
    json_object_unref (e->data);
  g_free (e);
}

static void
ser_element_free (gpointer p)
{
  SerElement *e = p;

  g_array_free (e->pairs, TRUE);
  g_free (e);
}

static void
ser_path_free (gpointer p)
{
  SerPath *e = p;

  g_array_free (e->pairs, TRUE);
  g_free (e);
}

static SerEntry *
ser_entry_new (guint64 start, guint64 end)
{
  SerEntry *e = g_new0 (SerEntry, 1);

  e->start = start;
  e->end = end;
  e->elements = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      ser_element_free);
  e->links = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  e->queues = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  e->threads = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  e->paths = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      ser_path_free);
  return e;
}

static void
ser_entry_free (gpointer p)
{
  SerEntry *e = p;

  g_hash_table_unref (e->elements);
  g_hash_table_unref (e->links);
  g_hash_table_unref (e->queues);
  g_hash_table_unref (e->threads);
  g_hash_table_unref (e->paths);
  if (e->json)
    json_object_unref (e->json);
  g_free (e);
}

/* Item @key of @table, created zeroed when absent. */
static gpointer
ser_item (GHashTable * table, const gchar * key, gsize size)
{
  gpointer item = g_hash_table_lookup (table, key);

  if (item == NULL) {
    item = g_malloc0 (size);
    g_hash_table_insert (table, g_strdup (key), item);
  }
  return item;
}

static SerElement *
ser_element (SerEntry * e, const gchar * name)
{
  SerElement *se = ser_item (e->elements, name, sizeof (SerElement));

  if (se->pairs == NULL)
    se->pairs = pairs_new ();
  return se;
}

static SerPath *
ser_path (SerEntry * e, const gchar * key)
{
  SerPath *sp = ser_item (e->paths, key, sizeof (SerPath));

  if (sp->pairs == NULL)
    sp->pairs = pairs_new ();
  return sp;
}

/* @dst absorbs @src (the window right after it): counts add up, maxima take
 * the max, means stay weighted by time; rates are computed later over the
 * merged span. */
static void
ser_entry_merge (SerEntry * dst, SerEntry * src)
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
    SerElement *s = v, *d = ser_element (dst, k);

    d->buffers += s->buffers;
    d->max_ns = MAX (d->max_ns, s->max_ns);
    pairs_merge (d->pairs, s->pairs);
  }
  g_hash_table_iter_init (&it, src->links);
  while (g_hash_table_iter_next (&it, &k, &v)) {
    SerLink *s = v, *d = ser_item (dst->links, k, sizeof (SerLink));

    d->buffers += s->buffers;
    d->bytes += s->bytes;
  }
  g_hash_table_iter_init (&it, src->queues);
  while (g_hash_table_iter_next (&it, &k, &v)) {
    SerQueue *s = v, *d = ser_item (dst->queues, k, sizeof (SerQueue));

    d->pct_wsum += s->pct_wsum;
    d->pct_wns += s->pct_wns;
    d->pct_max = MAX (d->pct_max, s->pct_max);
    d->dropped += s->dropped;
  }
  g_hash_table_iter_init (&it, src->threads);
  while (g_hash_table_iter_next (&it, &k, &v)) {
    SerThread *s = v, *d = ser_item (dst->threads, k, sizeof (SerThread));

    d->cpu_ns += s->cpu_ns;
  }
  g_hash_table_iter_init (&it, src->paths);
  while (g_hash_table_iter_next (&it, &k, &v)) {
    SerPath *s = v, *d = ser_path (dst, k);

    d->matched += s->matched;
    d->unmatched += s->unmatched;
    d->max_ns = MAX (d->max_ns, s->max_ns);
    pairs_merge (d->pairs, s->pairs);
  }
  dst->process.cpu_ns += src->process.cpu_ns;
  dst->process.cpu_span_ns += src->process.cpu_span_ns;
  dst->process.rss_max = MAX (dst->process.rss_max, src->process.rss_max);
}

/* Keeps the series at most GP_AGGREGATE_MAX_SERIES long: the oldest half is
 * merged pairwise, so recent windows stay at full resolution and older
 * history gets coarser, while memory stays constant. */
static void
series_compact (GpAggregator * agg)
{
  GPtrArray *s = agg->series;
  guint n_old, i, w;

  if (s->len <= GP_AGGREGATE_MAX_SERIES)
    return;
  n_old = (s->len / 2) & ~1u;
  for (i = 0, w = 0; i < n_old; i += 2, w++) {
    SerEntry *a = g_ptr_array_index (s, i);
    SerEntry *b = g_ptr_array_index (s, i + 1);

    ser_entry_merge (a, b);
    ser_entry_free (b);
    s->pdata[w] = a;
  }
  for (i = n_old; i < s->len; i++, w++)
    s->pdata[w] = s->pdata[i];
  /* the entries past w were moved or freed: drop them without freeing */
  g_ptr_array_set_free_func (s, NULL);
  g_ptr_array_set_size (s, w);
  g_ptr_array_set_free_func (s, ser_entry_free);
}

/* A window much shorter than the one before it (the flush at the end of
 * a run, right after a timer tick) is folded into that one: its own rates
 * would be over a few ms and show as spikes. Returns whether @entry was
 * taken (and freed). */
static gboolean
series_fold_short (GpAggregator * agg, SerEntry * entry)
{
  SerEntry *last;
  guint64 last_span;

  if (agg->series->len == 0)
    return FALSE;
  last = g_ptr_array_index (agg->series, agg->series->len - 1);
  last_span = last->end - last->start;
  if (entry->start < last->end || last_span == 0
      || (entry->end - entry->start) * 4 >= last_span)
    return FALSE;
  ser_entry_merge (last, entry);
  ser_entry_free (entry);
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* lookups                                                             */

static AggElement *
agg_element (GpAggregator * agg, const gchar * name)
{
  AggElement *e = g_hash_table_lookup (agg->elements, name);

  if (e == NULL) {
    e = g_new0 (AggElement, 1);
    e->name = g_strdup (name);
    e->threads = g_ptr_array_new_with_free_func (g_free);
    gp_hist_clear (&e->hist);
    gp_hist_clear (&e->wait);
    g_hash_table_insert (agg->elements, e->name, e);
  }
  return e;
}

static AggQueue *
agg_queue (GpAggregator * agg, const gchar * name)
{
  AggQueue *q = g_hash_table_lookup (agg->queues, name);

  if (q == NULL) {
    q = g_new0 (AggQueue, 1);
    q->name = g_strdup (name);
    gp_hist_clear (&q->residence);
    g_hash_table_insert (agg->queues, q->name, q);
  }
  return q;
}

static AggLink *
agg_link (GpAggregator * agg, const gchar * src, const gchar * sink)
{
  gchar *id = g_strdup_printf ("%s->%s", src, sink);
  AggLink *l = g_hash_table_lookup (agg->links, id);

  if (l == NULL) {
    l = g_new0 (AggLink, 1);
    l->id = id;
    l->src = g_strdup (src);
    l->sink = g_strdup (sink);
    l->src_element = gp_pad_element (src);
    l->sink_element = gp_pad_element (sink);
    l->early = g_array_new (FALSE, FALSE, sizeof (LinkWindow));
    g_hash_table_insert (agg->links, l->id, l);
  } else {
    g_free (id);
  }
  return l;
}

static AggLatency *
agg_latency (GpAggregator * agg, const gchar * source, const gchar * element)
{
  gchar *key = g_strdup_printf ("%s->%s", source, element);
  AggLatency *l = g_hash_table_lookup (agg->latency, key);

  if (l == NULL) {
    l = g_new0 (AggLatency, 1);
    l->source = g_strdup (source);
    l->element = g_strdup (element);
    gp_hist_clear (&l->hist);
    l->has_sum = TRUE;
    g_hash_table_insert (agg->latency, key, l);
  } else {
    g_free (key);
  }
  return l;
}

/* Threads are keyed by kernel id; their names (/proc comm, 15 characters)
 * can repeat, so the name shown is made unique once, at first sight, and
 * stays the same for the whole run. */
static AggThread *
agg_thread (GpAggregator * agg, guint64 tid, const gchar * comm)
{
  AggThread *t = g_hash_table_lookup (agg->threads, &tid);

  if (t == NULL) {
    gchar *name = g_strdup (comm && *comm ? comm : "thread");

    if (g_hash_table_contains (agg->thread_names, name)) {
      gchar *unique = g_strdup_printf ("%s/%" G_GUINT64_FORMAT, name, tid);

      g_free (name);
      name = unique;
    }
    t = g_new0 (AggThread, 1);
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
replace_str (gchar ** dst, const gchar * src)
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
      agg_element_free);
  agg->queues = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
      agg_queue_free);
  agg->links = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
      agg_link_free);
  agg->latency = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      agg_latency_free);
  agg->threads = g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL,
      agg_thread_free);
  agg->thread_names = g_hash_table_new (g_str_hash, g_str_equal);
  agg->events = g_ptr_array_new_with_free_func (agg_event_free);
  agg->series = g_ptr_array_new_with_free_func (ser_entry_free);
  agg->scratch_hist = g_new0 (GpHist, 1);
  agg->scratch_pairs = pairs_new ();
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
add_event_locked (GpAggregator * agg, guint64 ts, const gchar * type,
    const gchar * source, const gchar * text, JsonObject * data,
    gboolean from_bus)
{
  AggEvent *ev;
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
  ev = g_new0 (AggEvent, 1);
  ev->ts = ts;
  ev->type = g_strdup (type ? type : "");
  ev->source = g_strdup (source ? source : "");
  ev->text = g_strdup (text ? text : "");
  ev->data = data ? json_object_ref (data) : NULL;
  ev->from_bus = from_bus;
  g_ptr_array_add (agg->events, ev);
}

static void
add_elements (GpAggregator * agg, const GstStructure * w, SerEntry * entry)
{
  const GValue *list = gst_structure_get_value (w, GP_W_ELEMENTS);
  guint i, n = list_size (list);

  for (i = 0; i < n; i++) {
    const GstStructure *es = list_struct (list, i);
    const gchar *name;
    AggElement *e;
    SerElement *se;
    guint64 buffers, self_ns, self_max;

    if (es == NULL || (name = get_str (es, GP_E_NAME)) == NULL)
      continue;
    e = agg_element (agg, name);
    replace_str (&e->factory, get_str (es, GP_E_FACTORY));
    replace_str (&e->kind, get_str (es, GP_E_KIND));
    buffers = get_u64 (es, GP_E_BUFFERS);
    self_max = get_u64 (es, GP_E_SELF_MAX_NS);
    self_ns = get_u64 (es, GP_E_SELF_NS);
    read_pairs (es, GP_E_SELF_HIST, agg->scratch_pairs);
    if (agg->scratch_pairs->len > 0)
      gp_hist_add_pairs_exact (&e->hist,
          (const guint64 *) agg->scratch_pairs->data,
          agg->scratch_pairs->len * 2, self_ns, self_max);
    e->buffers += buffers;
    e->self_ns += self_ns;
    e->self_max_ns = MAX (e->self_max_ns, self_max);
    if (has_number (es, GP_E_CPU_NS)) {
      e->has_cpu = TRUE;
      e->cpu_ns += get_u64 (es, GP_E_CPU_NS);
    }


    se = ser_element (entry, name);
    se->buffers += buffers;
    se->max_ns = MAX (se->max_ns, self_max);
    pairs_merge (se->pairs, agg->scratch_pairs);

    if (has_number (es, GP_E_WAIT_NS)) {
      e->has_wait = TRUE;
      e->cpu_buffers += get_u64 (es, GP_E_CPU_BUFFERS);
      e->wait_ns += get_u64 (es, GP_E_WAIT_NS);
      read_pairs (es, GP_E_WAIT_HIST, agg->scratch_pairs);
      hist_add (&e->wait, agg->scratch_pairs);
    }
  }
}

/* A window in which @l carried data before the stop: kept apart while it
 * is start-up, and as the last one so far.  Compared by time, not arrival
 * order: flush() and the timer may hand two windows over in either order. */
static void
link_add_data_window (AggLink * l, guint64 start, guint64 end,
    const LinkCounts * c)
{
  LinkWindow w = { start, end, *c };
  guint i;

  if (!l->seen_data || start < l->first_start) {
    l->first_start = start;
    for (i = l->early->len; i > 0; i--)
      if (g_array_index (l->early, LinkWindow, i - 1).start >=
          start + GP_AGG_STARTUP_NS)
        g_array_remove_index (l->early, i - 1);
  }
  if (start < l->first_start + GP_AGG_STARTUP_NS)
    g_array_append_val (l->early, w);
  if (!l->seen_data || start >= l->last_start) {
    l->last = *c;
    l->last_start = start;
    l->last_end = end;
  }
}

/* Returns whether any link carried a buffer in this window. */
static gboolean
add_links (GpAggregator * agg, const GstStructure * w, guint64 start,
    guint64 end, SerEntry * entry)
{
  const GValue *list = gst_structure_get_value (w, GP_W_LINKS);
  guint i, n = list_size (list);
  gboolean any = FALSE;

  for (i = 0; i < n; i++) {
    const GstStructure *ls = list_struct (list, i);
    const gchar *src, *sink;
    guint64 b, bytes;
    LinkCounts c;
    AggLink *l;
    SerLink *sl;

    if (ls == NULL || (src = get_str (ls, GP_L_SRC)) == NULL
        || (sink = get_str (ls, GP_L_SINK)) == NULL)
      continue;
    l = agg_link (agg, src, sink);
    replace_str (&l->caps, get_str (ls, GP_L_CAPS));
    replace_str (&l->memory, get_str (ls, GP_L_MEMORY));
    b = get_u64 (ls, GP_L_BUFFERS);
    bytes = get_u64 (ls, GP_L_BYTES);
    c.buffers = b;
    c.bytes = bytes;
    c.duration_ns = get_u64 (ls, GP_L_DURATION_NS);
    c.timed = get_u64 (ls, GP_L_TIMED);
    l->buffers += b;
    l->bytes += bytes;
    /* the drain after gstprof asked the pipeline to stop is not steady */
    if (b > 0 && (agg->stop_ts == 0 || start < agg->stop_ts)) {
      any = TRUE;
      link_counts_add (&l->steady, &c, 1);
      link_add_data_window (l, start, end, &c);
      l->seen_data = TRUE;
    } else if (b > 0) {
      any = TRUE;
    }

    sl = ser_item (entry->links, l->id, sizeof (SerLink));
    sl->buffers += b;
    sl->bytes += bytes;
  }
  return any;
}

static void
add_queues (GpAggregator * agg, const GstStructure * w, guint64 dur,
    SerEntry * entry)
{
  const GValue *list = gst_structure_get_value (w, GP_W_QUEUES);
  guint i, n = list_size (list);

  for (i = 0; i < n; i++) {
    const GstStructure *qs = list_struct (list, i);
    const gchar *name;
    AggQueue *q;
    SerQueue *sq;
    gdouble pct_max;
    guint64 dropped;

    if (qs == NULL || (name = get_str (qs, GP_Q_NAME)) == NULL)
      continue;
    /* a multiqueue's single queues apart: "multiqueue0.sink_0" */
    if (get_str (qs, GP_Q_PAD)) {
      gchar *key = g_strdup_printf ("%s.%s", name, get_str (qs, GP_Q_PAD));

      q = agg_queue (agg, key);
      g_free (key);
    } else {
      q = agg_queue (agg, name);
    }
    replace_str (&q->factory, get_str (qs, GP_Q_FACTORY));
    replace_str (&q->leaky, get_str (qs, GP_Q_LEAKY));
    read_pairs (qs, GP_Q_RESIDENCE_HIST, agg->scratch_pairs);
    hist_add (&q->residence, agg->scratch_pairs);
    q->residence_max_ns = MAX (q->residence_max_ns,
        get_u64 (qs, GP_Q_RESIDENCE_MAX_NS));
    pct_max = get_double (qs, GP_Q_LEVEL_PCT_MAX);
    dropped = get_u64 (qs, GP_Q_DROPPED);
    sq = ser_item (entry->queues, q->name, sizeof (SerQueue));
    if (has_number (qs, GP_Q_LEVEL_PCT_MEAN) && dur > 0) {
      gdouble mean = get_double (qs, GP_Q_LEVEL_PCT_MEAN);

      q->pct_wsum += mean * dur;
      q->pct_wns += dur;
      sq->pct_wsum += mean * dur;
      sq->pct_wns += dur;
    }
    q->pct_max = MAX (q->pct_max, pct_max);
    q->level_buffers_max = MAX (q->level_buffers_max,
        get_u64 (qs, GP_Q_LEVEL_BUFFERS_MAX));
    q->dropped += dropped;
    q->blocked_ns += get_u64 (qs, GP_Q_BLOCKED_NS);
    sq->pct_max = MAX (sq->pct_max, pct_max);
    sq->dropped += dropped;
  }
}

static void
add_latency (GpAggregator * agg, const GstStructure * w, SerEntry * entry)
{
  const GValue *list = gst_structure_get_value (w, GP_W_LATENCY);
  guint i, n = list_size (list);

  for (i = 0; i < n; i++) {
    const GstStructure *ls = list_struct (list, i);
    const gchar *source, *element;
    AggLatency *l;
    guint64 max_ns, matched, unmatched;

    if (ls == NULL || (source = get_str (ls, GP_LAT_SOURCE)) == NULL
        || (element = get_str (ls, GP_LAT_ELEMENT)) == NULL)
      continue;
    l = agg_latency (agg, source, element);
    if (get_bool (ls, GP_LAT_SINK))
      l->sink = TRUE;
    read_pairs (ls, GP_LAT_HIST, agg->scratch_pairs);
    hist_add (&l->hist, agg->scratch_pairs);
    max_ns = get_u64 (ls, GP_LAT_MAX_NS);
    matched = get_u64 (ls, GP_LAT_MATCHED);
    unmatched = get_u64 (ls, GP_LAT_UNMATCHED);
    l->max_ns = MAX (l->max_ns, max_ns);
    if (!gst_structure_has_field (ls, GP_LAT_SUM_NS))
      l->has_sum = FALSE;
    l->sum_ns += get_u64 (ls, GP_LAT_SUM_NS);
    l->matched += matched;
    /* records from before interval matching matched exactly only */
    l->exact += gst_structure_has_field (ls, GP_LAT_EXACT) ?
        get_u64 (ls, GP_LAT_EXACT) : matched;
    l->unmatched += unmatched;

    if (l->sink) {
      gchar *key = g_strdup_printf ("%s->%s", source, element);
      SerPath *sp = ser_path (entry, key);

      sp->matched += matched;
      sp->unmatched += unmatched;
      sp->max_ns = MAX (sp->max_ns, max_ns);
      pairs_merge (sp->pairs, agg->scratch_pairs);
      g_free (key);
    }
  }
}

static void
add_threads (GpAggregator * agg, const GstStructure * w, guint64 start,
    guint64 end, SerEntry * entry)
{
  const GValue *list = gst_structure_get_value (w, GP_W_THREADS);
  guint i, n = list_size (list);

  for (i = 0; i < n; i++) {
    const GstStructure *ts = list_struct (list, i);
    const gchar *names;
    AggThread *t;
    SerThread *st;
    guint64 cpu;

    if (ts == NULL || !has_number (ts, GP_T_TID))
      continue;
    t = agg_thread (agg, get_u64 (ts, GP_T_TID), get_str (ts, GP_T_NAME));
    /* records from before the field existed listed hook-seen threads
     * only; a thread that met a hook once stays a streaming thread */
    if (gst_structure_get_value (ts, GP_T_STREAMING) == NULL ||
        get_bool (ts, GP_T_STREAMING))
      t->streaming = TRUE;
    cpu = get_u64 (ts, GP_T_CPU_NS);
    if (end >= t->latest_end) {
      t->latest_end = end;
      replace_str (&t->blocked_in, get_str (ts, GP_T_BLOCKED_IN));
      t->blocked_ns = get_u64 (ts, GP_T_BLOCKED_NS);
    }
    t->first_start = MIN (t->first_start, start);
    t->last_end = MAX (t->last_end, end);
    t->cpu_ns += cpu;
    if (end > start)
      t->pct_max = MAX (t->pct_max, 100.0 * cpu / (end - start));

    names = get_str (ts, GP_T_ELEMENTS);
    if (names != NULL) {
      gchar **v = g_strsplit (names, ",", -1);
      gchar **p;

      for (p = v; *p; p++) {
        AggElement *e;

        g_strstrip (*p);
        if (**p == '\0')
          continue;
        str_array_add_unique (t->elements, *p);
        /* only elements the tracer reported: a thread list alone does
         * not make an element summary */
        e = g_hash_table_lookup (agg->elements, *p);
        if (e != NULL)
          str_array_add_unique (e->threads, t->name);
      }
      g_strfreev (v);
    }

    st = ser_item (entry->threads, t->name, sizeof (SerThread));
    st->cpu_ns += cpu;
  }
}

/* proc_cpu_ns, proc_rss_bytes and n_cpus; each may be absent (a tracer
 * that could not read them, or an older one). */
static void
add_process (GpAggregator * agg, const GstStructure * w, guint64 start,
    guint64 end, SerEntry * entry)
{
  guint64 span = end - start;

  if (has_number (w, GP_W_PROC_CPU_NS) && span > 0) {
    guint64 cpu = get_u64 (w, GP_W_PROC_CPU_NS);

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
  if (has_number (w, GP_W_PROC_RSS_BYTES)) {
    guint64 rss = get_u64 (w, GP_W_PROC_RSS_BYTES);

    if (rss > 0) {
      if (agg->rss_start == 0)
        agg->rss_start = rss;
      agg->rss_end = rss;
      agg->rss_max = MAX (agg->rss_max, rss);
      entry->process.rss_max = MAX (entry->process.rss_max, rss);
    }
  }
  if (has_number (w, GP_W_N_CPUS) && get_u64 (w, GP_W_N_CPUS) > 0)
    agg->n_cpus = (guint) MIN (get_u64 (w, GP_W_N_CPUS), G_MAXINT);
}

static JsonNode *gvalue_to_json (const GValue * v);

/* The fields of an event record past ts, type, source and text. */
static gboolean
event_field_to_json (GQuark field, const GValue * v, gpointer user_data)
{
  const gchar *name = g_quark_to_string (field);
  JsonNode *node;

  if (g_str_equal (name, GP_EV_TS) || g_str_equal (name, GP_EV_TYPE)
      || g_str_equal (name, GP_EV_SOURCE) || g_str_equal (name, GP_EV_TEXT))
    return TRUE;
  node = gvalue_to_json (v);
  if (node != NULL)
    json_object_set_member (user_data, name, node);
  return TRUE;
}

static void
add_events (GpAggregator * agg, const GstStructure * w)
{
  const GValue *list = gst_structure_get_value (w, GP_W_EVENTS);
  guint i, n = list_size (list);

  agg->tracer_events_dropped += get_u64 (w, GP_W_EVENTS_DROPPED);
  for (i = 0; i < n; i++) {
    const GstStructure *es = list_struct (list, i);
    JsonObject *data;

    if (es == NULL || get_str (es, GP_EV_TYPE) == NULL)
      continue;
    data = json_object_new ();
    gst_structure_foreach (es, event_field_to_json, data);
    if (json_object_get_size (data) == 0)
      g_clear_pointer (&data, json_object_unref);
    add_event_locked (agg, get_u64 (es, GP_EV_TS), get_str (es, GP_EV_TYPE),
        get_str (es, GP_EV_SOURCE), get_str (es, GP_EV_TEXT), data, FALSE);
    if (data)
      json_object_unref (data);
  }
}

void
gp_aggregator_add_window (GpAggregator * agg, const GstStructure * w)
{
  guint64 start, end;
  SerEntry *entry;

  g_return_if_fail (agg != NULL);
  g_return_if_fail (w != NULL);

  start = get_u64 (w, GP_W_START);
  end = get_u64 (w, GP_W_END);
  if (end < start)
    end = start;

  g_mutex_lock (&agg->lock);
  entry = ser_entry_new (start, end);
  /* elements before threads: the thread records name elements */
  add_elements (agg, w, entry);
  if (add_links (agg, w, start, end, entry)) {
    if (!agg->have_data || start < agg->first_data_start) {
      agg->first_data_start = start;
      agg->first_data_end = end;
    }
    if (!agg->have_data || start >= agg->last_data_start) {
      agg->last_data_start = start;
      agg->last_data_end = end;
    }
    agg->have_data = TRUE;
  }
  add_queues (agg, w, end - start, entry);
  add_latency (agg, w, entry);
  add_threads (agg, w, start, end, entry);
  add_process (agg, w, start, end, entry);
  add_events (agg, w);

  if (!agg->have_window) {
    agg->first_start = start;
    agg->last_end = end;
    agg->have_window = TRUE;
  }
  agg->first_start = MIN (agg->first_start, start);
  agg->last_end = MAX (agg->last_end, end);

  if (!series_fold_short (agg, entry)) {
    g_ptr_array_add (agg->series, entry);
    series_compact (agg);
  }
  g_mutex_unlock (&agg->lock);
}

void
gp_aggregator_add_graph (GpAggregator * agg, const GstStructure * graph)
{
  const GValue *list;
  guint i, n;

  g_return_if_fail (agg != NULL);
  g_return_if_fail (graph != NULL);

  g_mutex_lock (&agg->lock);
  if (agg->graph)
    gst_structure_free (agg->graph);
  agg->graph = gst_structure_copy (graph);

  /* graph links join the link table (with 0 buffers until data flows), so a
   * link that never carried anything still has a summary and its caps can
   * give the target rate */
  list = gst_structure_get_value (graph, GP_G_LINKS);
  n = list_size (list);
  for (i = 0; i < n; i++) {
    const GstStructure *ls = list_struct (list, i);
    const gchar *src, *sink;
    AggLink *l;

    if (ls == NULL || (src = get_str (ls, GP_L_SRC)) == NULL
        || (sink = get_str (ls, GP_L_SINK)) == NULL)
      continue;
    l = agg_link (agg, src, sink);
    replace_str (&l->caps, get_str (ls, GP_L_CAPS));
    replace_str (&l->memory, get_str (ls, GP_L_MEMORY));
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
  add_event_locked (agg, ts_ns, type, source, text, data, TRUE);
  if (agg->stop_ts == 0 && (g_str_equal (type, "interrupt")
          || g_str_equal (type, "duration")))
    agg->stop_ts = MAX (ts_ns, 1);
  g_mutex_unlock (&agg->lock);
}

/* ------------------------------------------------------------------ */
/* finish: graph                                                       */

static JsonNode *
gvalue_to_json (const GValue * v)
{
  JsonNode *node = json_node_new (JSON_NODE_VALUE);
  GType t = G_VALUE_TYPE (v);

  switch (G_TYPE_FUNDAMENTAL (t)) {
    case G_TYPE_BOOLEAN:
      json_node_set_boolean (node, g_value_get_boolean (v));
      return node;
    case G_TYPE_CHAR:
      json_node_set_int (node, g_value_get_schar (v));
      return node;
    case G_TYPE_UCHAR:
      json_node_set_int (node, g_value_get_uchar (v));
      return node;
    case G_TYPE_INT:
      json_node_set_int (node, g_value_get_int (v));
      return node;
    case G_TYPE_UINT:
      json_node_set_int (node, g_value_get_uint (v));
      return node;
    case G_TYPE_LONG:
      json_node_set_int (node, g_value_get_long (v));
      return node;
    case G_TYPE_ULONG:
      json_node_set_int (node, g_value_get_ulong (v));
      return node;
    case G_TYPE_INT64:
      json_node_set_int (node, g_value_get_int64 (v));
      return node;
    case G_TYPE_UINT64:
      /* JSON integers are signed 64-bit here; GST_CLOCK_TIME_NONE and the
       * like stay visible as a (large) number rather than wrapping to -1 */
      if (g_value_get_uint64 (v) > G_MAXINT64)
        json_node_set_double (node, (gdouble) g_value_get_uint64 (v));
      else
        json_node_set_int (node, g_value_get_uint64 (v));
      return node;
    case G_TYPE_FLOAT:
      json_node_set_double (node, g_value_get_float (v));
      return node;
    case G_TYPE_DOUBLE:
      json_node_set_double (node, g_value_get_double (v));
      return node;
    case G_TYPE_STRING:
      if (g_value_get_string (v) == NULL) {
        json_node_init_null (node);
      } else {
        json_node_set_string (node, g_value_get_string (v));
      }
      return node;
    case G_TYPE_ENUM:{
      GEnumClass *klass = g_type_class_ref (t);
      GEnumValue *ev = g_enum_get_value (klass, g_value_get_enum (v));

      if (ev)
        json_node_set_string (node, ev->value_nick);
      else
        json_node_set_int (node, g_value_get_enum (v));
      g_type_class_unref (klass);
      return node;
    }
    default:{
      /* caps, fractions, flags...: their GStreamer serialisation */
      gchar *str = gst_value_serialize (v);

      if (str == NULL) {
        json_node_unref (node);
        return NULL;
      }
      json_node_set_string (node, str);
      g_free (str);
      return node;
    }
  }
}

static gboolean
props_field_to_json (GQuark field, const GValue * v, gpointer user_data)
{
  JsonNode *node = gvalue_to_json (v);

  if (node != NULL)
    json_object_set_member (user_data, g_quark_to_string (field), node);
  return TRUE;
}

static void
finish_graph (GpAggregator * agg)
{
  GpSession *s = agg->session;
  const GValue *list;
  guint i, n;

  g_ptr_array_set_size (s->elements, 0);
  g_ptr_array_set_size (s->links, 0);
  g_ptr_array_set_size (s->hw_elements, 0);

  if (agg->graph == NULL) {
    /* no snapshot (the tracer never answered): the elements and links the
     * windows named still make a graph, without properties or parents */
    GPtrArray *keys = sorted_keys (agg->elements);

    for (i = 0; i < keys->len; i++) {
      AggElement *e = g_hash_table_lookup (agg->elements, keys->pdata[i]);

      gp_session_add_element (s, e->name, e->factory ? e->factory : "", "",
          e->kind ? e->kind : "filter");
    }
    g_ptr_array_unref (keys);
    keys = sorted_keys (agg->links);
    for (i = 0; i < keys->len; i++) {
      AggLink *l = g_hash_table_lookup (agg->links, keys->pdata[i]);

      gp_session_add_link (s, l->src, l->sink, l->caps,
          l->memory ? l->memory : "system");
    }
    g_ptr_array_unref (keys);
    return;
  }

  list = gst_structure_get_value (agg->graph, GP_G_ELEMENTS);
  n = list_size (list);
  for (i = 0; i < n; i++) {
    const GstStructure *es = list_struct (list, i);
    const GstStructure *props = NULL;
    const GValue *pv;
    const gchar *name, *parent;
    GpElement *ge;

    if (es == NULL || (name = get_str (es, GP_GE_NAME)) == NULL)
      continue;
    parent = get_str (es, GP_GE_PARENT);
    ge = gp_session_add_element (s, name, get_str (es, GP_GE_FACTORY),
        parent ? parent : "", get_str (es, GP_GE_KIND));
    if (ge == NULL)
      continue;
    ge->is_bin = get_bool (es, GP_GE_IS_BIN);
    pv = gst_structure_get_value (es, GP_GE_PROPS);
    if (pv != NULL && GST_VALUE_HOLDS_STRUCTURE (pv))
      props = gst_value_get_structure (pv);
    if (props != NULL) {
      if (ge->props)
        json_object_unref (ge->props);
      ge->props = json_object_new ();
      gst_structure_foreach (props, props_field_to_json, ge->props);
    }
  }

  list = gst_structure_get_value (agg->graph, GP_G_LINKS);
  n = list_size (list);
  for (i = 0; i < n; i++) {
    const GstStructure *ls = list_struct (list, i);
    const gchar *src, *sink, *memory;

    if (ls == NULL || (src = get_str (ls, GP_L_SRC)) == NULL
        || (sink = get_str (ls, GP_L_SINK)) == NULL)
      continue;
    memory = get_str (ls, GP_L_MEMORY);
    gp_session_add_link (s, src, sink, get_str (ls, GP_L_CAPS),
        memory ? memory : "system");
  }

  list = gst_structure_get_value (agg->graph, GP_G_HW);
  n = list_size (list);
  for (i = 0; i < n; i++) {
    const GValue *v = list_value (list, i);

    if (v != NULL && G_VALUE_HOLDS_STRING (v) && g_value_get_string (v))
      g_ptr_array_add (s->hw_elements, g_strdup (g_value_get_string (v)));
  }
}

/* Kind of element @name: from the windows, else from the graph. */
static const gchar *
element_kind (GpAggregator * agg, GHashTable * graph_kinds, const gchar * name)
{
  AggElement *e = g_hash_table_lookup (agg->elements, name);

  if (e != NULL && e->kind != NULL)
    return e->kind;
  return g_hash_table_lookup (graph_kinds, name);
}

/* name -> kind of every element of the last graph (strings borrowed from
 * agg->graph). */
static GHashTable *
graph_kinds_new (GpAggregator * agg)
{
  GHashTable *kinds = g_hash_table_new (g_str_hash, g_str_equal);
  const GValue *list;
  guint i, n;

  if (agg->graph == NULL)
    return kinds;
  list = gst_structure_get_value (agg->graph, GP_G_ELEMENTS);
  n = list_size (list);
  for (i = 0; i < n; i++) {
    const GstStructure *es = list_struct (list, i);
    const gchar *name, *kind;

    if (es == NULL || (name = get_str (es, GP_GE_NAME)) == NULL
        || (kind = get_str (es, GP_GE_KIND)) == NULL || get_bool (es, GP_GE_IS_BIN))
      continue;
    g_hash_table_insert (kinds, (gpointer) name, (gpointer) kind);
  }
  return kinds;
}

/* ------------------------------------------------------------------ */
/* finish: summaries                                                   */

/* The PLAYING time: from the start of the first window in which any link
 * carried a buffer to the end of the last such window; busy shares are
 * over it. 0 when nothing flowed. */
static gdouble
playing_s (GpAggregator * agg)
{
  return agg->have_data ?
      ns_to_s (agg->last_data_end - agg->first_data_start) : 0.0;
}

/* The steady-state rate of @l (gp-aggregate.h): buffers, bytes and media
 * time per second over its data windows before the stop, less its
 * start-up when a steady second remains after it, else less only its
 * first and last data window, else over all of them.  FALSE when it never
 * carried data. */
static gboolean
link_steady (const AggLink * l, gdouble * fps, gdouble * bytes_per_s,
    gdouble * media_per_s)
{
  LinkCounts c = l->steady;
  const LinkWindow *first = NULL;
  guint64 early_end = 0;
  gdouble span;
  guint i;

  *fps = *bytes_per_s = 0.0;
  *media_per_s = -1.0;
  if (!l->seen_data)
    return FALSE;
  for (i = 0; i < l->early->len; i++) {
    const LinkWindow *w = &g_array_index (l->early, LinkWindow, i);

    early_end = MAX (early_end, w->end);
    if (w->start == l->first_start)
      first = w;
  }
  if (l->last_start >= early_end + GP_AGG_STEADY_MIN_NS) {
    for (i = 0; i < l->early->len; i++)
      link_counts_add (&c, &g_array_index (l->early, LinkWindow, i).c, -1);
    link_counts_add (&c, &l->last, -1);
    span = ns_to_s (l->last_start - early_end);
  } else if (first && l->last_start > first->end) {
    link_counts_add (&c, &first->c, -1);
    link_counts_add (&c, &l->last, -1);
    span = ns_to_s (l->last_start - first->end);
  } else {
    span = ns_to_s (l->last_end - l->first_start);
  }
  if (span <= 0)
    return FALSE;
  *fps = c.buffers / span;
  *bytes_per_s = c.bytes / span;
  /* media time only when (nearly) every buffer said how long it is */
  if (c.buffers > 0 && c.timed * 10 >= c.buffers * 9)
    *media_per_s = ns_to_s (c.duration_ns) * c.buffers / c.timed / span;
  return TRUE;
}

static gint
elem_summary_cmp (gconstpointer a, gconstpointer b)
{
  const GpElementSummary *ea = *(GpElementSummary * const *) a;
  const GpElementSummary *eb = *(GpElementSummary * const *) b;

  if (ea->self_total_ms != eb->self_total_ms)
    return ea->self_total_ms > eb->self_total_ms ? -1 : 1;
  return g_strcmp0 (ea->name, eb->name);
}

static void
finish_elements (GpAggregator * agg, gdouble playing, GHashTable * graph_kinds)
{
  GpSession *s = agg->session;
  GPtrArray *keys = sorted_keys (agg->elements);
  gdouble work_ms = 0.0;
  guint i, j;

  g_ptr_array_set_size (s->elem_summaries, 0);
  for (i = 0; i < keys->len; i++) {
    AggElement *e = g_hash_table_lookup (agg->elements, keys->pdata[i]);
    GpElementSummary *es = gp_session_add_elem_summary (s, e->name);

    gp_hist_quantiles_ms (&e->hist, &es->self_ms);
    es->buffers = e->buffers;
    es->self_total_ms = e->self_ns / 1e6;
    es->cpu_ms = e->has_cpu ? e->cpu_ns / 1e6 : -1.0;
    es->cpu_buffers = e->cpu_buffers;
    if (e->has_wait) {
      gp_hist_quantiles_ms (&e->wait, &es->wait_ms);
      es->wait_total_ms = e->wait_ns / 1e6;
    }
    /* of the threads it ran on: an element fed by two threads (a muxer)
     * can be busy on both at once, and a share above 100 % means nothing */
    es->busy_pct = playing > 0.0 ?
        100.0 * ns_to_s (e->self_ns) / playing / MAX (e->threads->len, 1) :
        0.0;
    for (j = 0; j < e->threads->len; j++)
      g_ptr_array_add (es->threads, g_strdup (e->threads->pdata[j]));
    /* a queue's "self time" is hand-over work, its waiting is residence:
     * it takes no share of the work */
    if (g_strcmp0 (element_kind (agg, graph_kinds, e->name), "queue") != 0
        && !g_hash_table_contains (agg->queues, e->name))
      work_ms += es->self_total_ms;
  }
  for (i = 0; i < s->elem_summaries->len; i++) {
    GpElementSummary *es = g_ptr_array_index (s->elem_summaries, i);
    gboolean queue = g_strcmp0 (element_kind (agg, graph_kinds, es->name),
        "queue") == 0 || g_hash_table_contains (agg->queues, es->name);

    es->share_pct = !queue && work_ms > 0.0 ?
        100.0 * es->self_total_ms / work_ms : 0.0;
  }
  g_ptr_array_sort (s->elem_summaries, elem_summary_cmp);
  g_ptr_array_unref (keys);
}

static void
finish_queues (GpAggregator * agg)
{
  GpSession *s = agg->session;
  GPtrArray *keys = sorted_keys (agg->queues);
  guint i;

  g_ptr_array_set_size (s->queue_summaries, 0);
  for (i = 0; i < keys->len; i++) {
    AggQueue *q = g_hash_table_lookup (agg->queues, keys->pdata[i]);
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
finish_links (GpAggregator * agg)
{
  GpSession *s = agg->session;
  GPtrArray *keys = sorted_keys (agg->links);
  guint i;

  g_ptr_array_set_size (s->link_summaries, 0);
  for (i = 0; i < keys->len; i++) {
    AggLink *l = g_hash_table_lookup (agg->links, keys->pdata[i]);
    GpLinkSummary *ls = gp_session_add_link_summary (s, l->id);

    if (link_steady (l, &ls->fps, &ls->bytes_per_s, &ls->media_per_s))
      ls->first_s = ((gdouble) (gint64) (l->first_start - agg->t0)) / 1e9;
    ls->buffers = l->buffers;
  }
  g_ptr_array_unref (keys);
}

static void
finish_paths (GpAggregator * agg)
{
  GpSession *s = agg->session;
  GPtrArray *keys = sorted_keys (agg->latency);
  guint i;

  g_ptr_array_set_size (s->paths, 0);
  g_ptr_array_set_size (s->interlatency, 0);
  for (i = 0; i < keys->len; i++) {
    AggLatency *l = g_hash_table_lookup (agg->latency, keys->pdata[i]);
    GpPath *path = gp_session_add_interlatency (s, l->source, l->element);

    l->hist.max_ns = l->max_ns;
    gp_hist_quantiles_ms (&l->hist, &path->latency_ms);
    path->mean_ms = l->matched > 0 && l->has_sum ?
        l->sum_ns / 1e6 / l->matched : -1;
    path->matched = l->matched;
    path->exact = l->exact;
    path->unmatched = l->unmatched;
    if (l->sink) {
      GpPath *to_sink = gp_session_add_path (s, l->source, l->element);

      to_sink->latency_ms = path->latency_ms;
      to_sink->mean_ms = path->mean_ms;
      to_sink->matched = path->matched;
      to_sink->exact = path->exact;
      to_sink->unmatched = path->unmatched;
    }
  }
  g_ptr_array_unref (keys);
}

static gint
thread_summary_cmp (gconstpointer a, gconstpointer b)
{
  const GpThreadSummary *ta = *(GpThreadSummary * const *) a;
  const GpThreadSummary *tb = *(GpThreadSummary * const *) b;

  if (ta->cpu_pct_mean != tb->cpu_pct_mean)
    return ta->cpu_pct_mean > tb->cpu_pct_mean ? -1 : 1;
  return ta->tid < tb->tid ? -1 : ta->tid > tb->tid ? 1 : 0;
}

static void
finish_threads (GpAggregator * agg)
{
  GpSession *s = agg->session;
  GHashTableIter it;
  gpointer v;
  guint j;

  g_ptr_array_set_size (s->threads, 0);
  g_hash_table_iter_init (&it, agg->threads);
  while (g_hash_table_iter_next (&it, NULL, &v)) {
    AggThread *t = v;
    GpThreadSummary *ts = gp_session_add_thread (s, t->tid, t->name);

    /* mean over the thread's own life (first to last window it was
     * reported in): a thread that ran half the run at 100 % is a
     * saturated thread, not a 50 % one */
    ts->cpu_pct_mean = t->last_end > t->first_start ?
        100.0 * t->cpu_ns / (t->last_end - t->first_start) : 0.0;
    ts->cpu_pct_max = t->pct_max;
    ts->worker = !t->streaming;
    if (t->blocked_in) {
      ts->blocked_in = g_strdup (t->blocked_in);
      ts->blocked_ms = t->blocked_ns / 1e6;
    }
    for (j = 0; j < t->elements->len; j++)
      g_ptr_array_add (ts->elements, g_strdup (t->elements->pdata[j]));
  }
  g_ptr_array_sort (s->threads, thread_summary_cmp);
}

#define GP_MIB (1024.0 * 1024.0)

static void
finish_process (GpAggregator * agg)
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

/* element name -> GPtrArray of its input AggLinks (borrowed). */
static GHashTable *
input_links_new (GpAggregator * agg)
{
  GHashTable *inputs = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
      (GDestroyNotify) g_ptr_array_unref);
  GPtrArray *keys = sorted_keys (agg->links);
  guint i;

  for (i = 0; i < keys->len; i++) {
    AggLink *l = g_hash_table_lookup (agg->links, keys->pdata[i]);
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
static AggLink *
main_input (GHashTable * inputs, const gchar * element)
{
  GPtrArray *arr = g_hash_table_lookup (inputs, element);
  AggLink *best = NULL;
  guint i;

  for (i = 0; arr != NULL && i < arr->len; i++) {
    AggLink *l = g_ptr_array_index (arr, i);

    if (best == NULL || l->buffers > best->buffers)
      best = l;
  }
  return best;
}

/* Target rate at the input of @element: the framerate in the caps of its
 * input link, else of the nearest link upstream that has one (breadth
 * first, so the closest wins); -1 when none has. */
static gdouble
upstream_framerate (GHashTable * inputs, const gchar * element)
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
        AggLink *l = g_ptr_array_index (arr, j);
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
sink_summary_cmp (gconstpointer a, gconstpointer b)
{
  const GpSinkSummary *sa = *(GpSinkSummary * const *) a;
  const GpSinkSummary *sb = *(GpSinkSummary * const *) b;

  return g_strcmp0 (sa->name, sb->name);
}

/* Names of the elements of kind @kind, from the windows and the graph. */
static GPtrArray *
elements_of_kind (GpAggregator * agg, GHashTable * graph_kinds,
    const gchar * kind)
{
  GPtrArray *out = g_ptr_array_new ();
  GHashTable *seen = g_hash_table_new (g_str_hash, g_str_equal);
  GHashTableIter it;
  gpointer k;

  g_hash_table_iter_init (&it, agg->elements);
  while (g_hash_table_iter_next (&it, &k, NULL)) {
    if (g_strcmp0 (element_kind (agg, graph_kinds, k), kind) == 0) {
      g_ptr_array_add (out, k);
      g_hash_table_add (seen, k);
    }
  }
  g_hash_table_iter_init (&it, graph_kinds);
  while (g_hash_table_iter_next (&it, &k, NULL)) {
    if (!g_hash_table_contains (seen, k)
        && g_strcmp0 (element_kind (agg, graph_kinds, k), kind) == 0)
      g_ptr_array_add (out, k);
  }
  g_hash_table_unref (seen);
  g_ptr_array_sort (out, strcmp_ptr);
  return out;
}

static void
finish_sinks (GpAggregator * agg, GHashTable * graph_kinds)
{
  GpSession *s = agg->session;
  GHashTable *inputs = input_links_new (agg);
  GPtrArray *sinks = elements_of_kind (agg, graph_kinds, "sink");
  gdouble target = -1.0;
  guint i;

  g_ptr_array_set_size (s->sinks, 0);
  for (i = 0; i < sinks->len; i++) {
    const gchar *name = g_ptr_array_index (sinks, i);
    AggLink *in = main_input (inputs, name);
    GpSinkSummary *ss;

    if (in == NULL)
      continue;                 /* a sink nothing feeds (e.g. an unlinked one) */
    ss = gp_session_add_sink (s, name);
    g_free (ss->media);
    ss->media = g_strdup (gp_media_kind_name (gp_caps_media_kind (in->caps)));
    if (link_steady (in, &ss->fps, &ss->bytes_per_s, &ss->media_per_s))
      ss->first_s = ((gdouble) (gint64) (in->first_start - agg->t0)) / 1e9;
    else
      ss->bytes_per_s = -1;
    ss->buffers = in->buffers;
    /* frames to keep up with: video sinks only (an audio branch of the
     * same demuxer would find the video's rate upstream) */
    if (gp_caps_media_kind (in->caps) == GP_MEDIA_VIDEO
        || gp_caps_media_kind (in->caps) == GP_MEDIA_UNKNOWN) {
      ss->target_fps = upstream_framerate (inputs, name);
      target = MAX (target, ss->target_fps);
    }
  }
  g_ptr_array_sort (s->sinks, sink_summary_cmp);

  if (target <= 0) {
    /* no sink knows its rate: what the sources produce */
    GPtrArray *sources = elements_of_kind (agg, graph_kinds, "source");
    GHashTableIter it;
    gpointer v;

    g_hash_table_iter_init (&it, agg->links);
    while (g_hash_table_iter_next (&it, NULL, &v)) {
      AggLink *l = v;
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
/* finish: series and events                                           */

static void
pairs_quantiles (GpAggregator * agg, const GArray * pairs, guint64 max_ns,
    gdouble * p50, gdouble * p95)
{
  GpHist *h = agg->scratch_hist;

  *p50 = *p95 = -1.0;
  if (pairs->len == 0)
    return;
  gp_hist_clear (h);
  hist_add (h, pairs);
  if (max_ns > 0)
    h->max_ns = max_ns;
  *p50 = gp_hist_quantile_ns (h, 0.50) / 1e6;
  *p95 = gp_hist_quantile_ns (h, 0.95) / 1e6;
}

/* The series entry in the shape of docs/session-schema.md. Rates are over
 * the entry's own span (one window, or the merged windows). */
static JsonObject *
ser_entry_to_json (GpAggregator * agg, SerEntry * e)
{
  JsonObject *o = json_object_new (), *sub;
  gdouble span_s = ns_to_s (e->end - e->start);
  GPtrArray *keys;
  guint i;

  json_object_set_double_member (o, "t0",
      ((gdouble) (gint64) (e->start - agg->t0)) / 1e9);
  json_object_set_double_member (o, "t1",
      ((gdouble) (gint64) (e->end - agg->t0)) / 1e9);

  sub = json_object_new ();
  keys = sorted_keys (e->elements);
  for (i = 0; i < keys->len; i++) {
    SerElement *se = g_hash_table_lookup (e->elements, keys->pdata[i]);
    JsonObject *eo = json_object_new ();
    gdouble p50, p95;

    pairs_quantiles (agg, se->pairs, se->max_ns, &p50, &p95);
    json_object_set_int_member (eo, "buffers", se->buffers);
    json_object_set_double_member (eo, "self_ms_p50", p50);
    json_object_set_double_member (eo, "self_ms_p95", p95);
    json_object_set_object_member (sub, keys->pdata[i], eo);
  }
  g_ptr_array_unref (keys);
  json_object_set_object_member (o, "elements", sub);

  sub = json_object_new ();
  keys = sorted_keys (e->links);
  for (i = 0; i < keys->len; i++) {
    SerLink *sl = g_hash_table_lookup (e->links, keys->pdata[i]);
    JsonObject *lo = json_object_new ();

    json_object_set_double_member (lo, "fps",
        span_s > 0 ? sl->buffers / span_s : 0.0);
    json_object_set_double_member (lo, "bytes_per_s",
        span_s > 0 ? sl->bytes / span_s : 0.0);
    json_object_set_object_member (sub, keys->pdata[i], lo);
  }
  g_ptr_array_unref (keys);
  json_object_set_object_member (o, "links", sub);

  sub = json_object_new ();
  keys = sorted_keys (e->queues);
  for (i = 0; i < keys->len; i++) {
    SerQueue *sq = g_hash_table_lookup (e->queues, keys->pdata[i]);
    JsonObject *qo = json_object_new ();

    json_object_set_double_member (qo, "level_pct_mean",
        sq->pct_wns > 0 ? sq->pct_wsum / sq->pct_wns : 0.0);
    json_object_set_double_member (qo, "level_pct_max", sq->pct_max);
    json_object_set_int_member (qo, "dropped", sq->dropped);
    json_object_set_object_member (sub, keys->pdata[i], qo);
  }
  g_ptr_array_unref (keys);
  json_object_set_object_member (o, "queues", sub);

  sub = json_object_new ();
  keys = sorted_keys (e->threads);
  for (i = 0; i < keys->len; i++) {
    SerThread *st = g_hash_table_lookup (e->threads, keys->pdata[i]);
    JsonObject *to = json_object_new ();

    json_object_set_double_member (to, "cpu_pct",
        span_s > 0 ? 100.0 * ns_to_s (st->cpu_ns) / span_s : 0.0);
    json_object_set_object_member (sub, keys->pdata[i], to);
  }
  g_ptr_array_unref (keys);
  json_object_set_object_member (o, "threads", sub);

  sub = json_object_new ();
  keys = sorted_keys (e->paths);
  for (i = 0; i < keys->len; i++) {
    SerPath *sp = g_hash_table_lookup (e->paths, keys->pdata[i]);
    JsonObject *po = json_object_new ();
    gdouble p50, p95;

    pairs_quantiles (agg, sp->pairs, sp->max_ns, &p50, &p95);
    json_object_set_double_member (po, "latency_ms_p50", p50);
    json_object_set_double_member (po, "latency_ms_p95", p95);
    json_object_set_int_member (po, "matched", sp->matched);
    json_object_set_int_member (po, "unmatched", sp->unmatched);
    json_object_set_object_member (sub, keys->pdata[i], po);
  }
  g_ptr_array_unref (keys);
  json_object_set_object_member (o, "paths", sub);

  /* null when the windows did not carry it */
  sub = json_object_new ();
  if (e->process.cpu_span_ns > 0)
    json_object_set_double_member (sub, "cpu_pct",
        100.0 * e->process.cpu_ns / e->process.cpu_span_ns);
  else
    json_object_set_null_member (sub, "cpu_pct");
  if (e->process.rss_max > 0)
    json_object_set_double_member (sub, "rss_mb",
        e->process.rss_max / GP_MIB);
  else
    json_object_set_null_member (sub, "rss_mb");
  json_object_set_object_member (o, "process", sub);
  return o;
}

static void
finish_series (GpAggregator * agg)
{
  GpSession *s = agg->session;
  guint i;

  g_ptr_array_set_size (s->series, 0);
  for (i = 0; i < agg->series->len; i++) {
    SerEntry *e = g_ptr_array_index (agg->series, i);

    /* rendered once per entry and kept: a live view calling finish every
     * second re-renders only the new and the merged entries */
    if (e->json == NULL)
      e->json = ser_entry_to_json (agg, e);
    gp_session_add_window (s, e->json);
  }
}

static gint
event_cmp (gconstpointer a, gconstpointer b)
{
  const AggEvent *ea = *(AggEvent * const *) a;
  const AggEvent *eb = *(AggEvent * const *) b;

  return ea->ts < eb->ts ? -1 : ea->ts > eb->ts ? 1 : 0;
}

/* Copies the members of @from that @into lacks. */
static void
merge_data (JsonObject * into, JsonObject * from)
{
  GList *members = json_object_get_members (from), *l;

  for (l = members; l; l = l->next)
    if (!json_object_has_member (into, l->data))
      json_object_set_member (into, l->data,
          json_node_copy (json_object_get_member (from, l->data)));
  g_list_free (members);
}

static const gchar *
data_string (JsonObject * data, const gchar * key)
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
name_refusal (GPtrArray * sorted, AggEvent * error)
{
  const gchar *types[] = { "caps-refused", "flow" };
  const gchar *keys[] = { "link", "peer", "caps", "accepts" };
  guint t, i, k;

  if (g_strcmp0 (data_string (error->data, "reason"), "not-negotiated"))
    return;
  for (t = 0; t < G_N_ELEMENTS (types); t++) {
    for (i = 0; i < sorted->len; i++) {
      AggEvent *ev = g_ptr_array_index (sorted, i);

      if (!g_str_equal (ev->type, types[t]) || !ev->data)
        continue;
      for (k = 0; k < G_N_ELEMENTS (keys); k++) {
        if (json_object_has_member (error->data, keys[k]))
          json_object_remove_member (error->data, keys[k]);
        if (data_string (ev->data, keys[k]))
          json_object_set_string_member (error->data, keys[k],
              data_string (ev->data, keys[k]));
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
finish_events (GpAggregator * agg)
{
  GpSession *s = agg->session;
  GPtrArray *sorted = g_ptr_array_new ();
  gboolean *skip = g_new0 (gboolean, agg->events->len + 1);
  gboolean *paired = g_new0 (gboolean, agg->events->len + 1);
  guint i, j;

  for (i = 0; i < agg->events->len; i++)
    g_ptr_array_add (sorted, g_ptr_array_index (agg->events, i));
  /* stable: events of the same instant keep their order */
  g_ptr_array_sort (sorted, event_cmp);

  for (i = 0; i < sorted->len; i++) {
    AggEvent *ev = g_ptr_array_index (sorted, i);

    if (!ev->from_bus)
      continue;
    for (j = 0; j < sorted->len; j++) {
      AggEvent *te = g_ptr_array_index (sorted, j);

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
          merge_data (ev->data, te->data);
        }
      } else {
        skip[i] = TRUE;
      }
      break;
    }
  }

  for (i = 0; i < sorted->len; i++) {
    AggEvent *ev = g_ptr_array_index (sorted, i);

    if (ev->from_bus && g_str_equal (ev->type, "error") && ev->data)
      name_refusal (sorted, ev);
  }
  for (i = 0; agg->bus_watched && i < sorted->len; i++) {
    AggEvent *ev = g_ptr_array_index (sorted, i);

    if (!ev->from_bus && !paired[i] && (g_str_equal (ev->type, "error")
            || g_str_equal (ev->type, "warning")))
      skip[i] = TRUE;
  }
  for (i = 0, j = 0; i < sorted->len; i++)
    if (!skip[i])
      sorted->pdata[j++] = sorted->pdata[i];
  g_ptr_array_set_size (sorted, j);
  g_ptr_array_sort (sorted, event_cmp);

  g_ptr_array_set_size (s->events, 0);
  for (i = 0; i < sorted->len; i++) {
    AggEvent *ev = g_ptr_array_index (sorted, i);
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
  graph_kinds = graph_kinds_new (agg);
  finish_graph (agg);
  finish_elements (agg, playing_s (agg), graph_kinds);
  finish_queues (agg);
  finish_links (agg);
  finish_paths (agg);
  finish_threads (agg);
  finish_process (agg);
  finish_sinks (agg, graph_kinds);
  finish_series (agg);
  finish_events (agg);
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
  end = ((SerEntry *) g_ptr_array_index (agg->series, first))->end;
  while (TRUE) {
    start = ((SerEntry *) g_ptr_array_index (agg->series, first))->start;
    if (first == 0 || ns_to_s (end - start) >= span_s)
      break;
    first--;
  }

  graph_kinds = graph_kinds_new (agg);
  inputs = input_links_new (agg);
  sinks = elements_of_kind (agg, graph_kinds, "sink");
  for (i = 0; i < sinks->len; i++) {
    AggLink *in = main_input (inputs, sinks->pdata[i]);
    guint64 buffers = 0;
    guint k;

    if (in == NULL)
      continue;
    for (k = first; k < agg->series->len; k++) {
      SerEntry *e = g_ptr_array_index (agg->series, k);
      SerLink *sl = g_hash_table_lookup (e->links, in->id);

      if (sl)
        buffers += sl->buffers;
    }
    g_string_append_printf (out, "%s%s %.1f fps", out->len ? "  " : "",
        (const gchar *) sinks->pdata[i],
        end > start ? buffers / ns_to_s (end - start) : 0.0);
  }
  g_ptr_array_unref (sinks);
  g_hash_table_unref (inputs);
  g_hash_table_unref (graph_kinds);
  g_mutex_unlock (&agg->lock);

  if (out->len == 0)
    g_string_append (out, "no sink fed yet");
  return g_string_free (out, FALSE);
}
