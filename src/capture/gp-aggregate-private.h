/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-aggregate-private.h: the aggregator's state and what its files share.
 *
 *   gp-aggregate-records.c  readers of the tracer's records (gp-record.h):
 *                           field access that tolerates a missing field or
 *                           a wrong type, the sparse histogram pairs, a
 *                           field as JSON
 *   gp-aggregate-series.c   the bounded series: one entry a window, old
 *                           neighbours merged pairwise past
 *                           GP_AGGREGATE_MAX_SERIES, entries as the
 *                           session's series objects
 *   gp-aggregate.c          taking records in: the public entry points that
 *                           fold windows, the graph and events into the
 *                           tables below
 *   gp-aggregate-finish.c   the finish steps: the tables written into the
 *                           GpSession (graph, summaries, steady-state rates,
 *                           paths, events merged), and the progress line
 *
 * The public entry points other than new and free take GpAggregator.lock
 * and call what is declared here under it (the record readers and the pair
 * arrays touch no aggregator state).
 */
#ifndef __GP_AGGREGATE_PRIVATE_H__
#define __GP_AGGREGATE_PRIVATE_H__

#include "gp-aggregate.h"
#include "core/gp-json.h"
#include "core/gp-stats.h"

G_BEGIN_DECLS

/* ------------------------------------------------------------------ */
/* whole-run accumulators (gp-aggregate.c writes, finish reads)        */

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
  /* an application's signal handlers inside its work (gp-record.h
   * GP_E_HANDLER_*) */
  gboolean has_handlers;
  guint64 handler_ns, handler_n;
  /* a queue of its own (gp-record.h GP_E_LEVEL_*): the most it held, what
   * it held at the latest window's end (level_end), its limit */
  gboolean has_level;
  guint64 level_max, level_end, level_end_at, level_limit;
  gboolean level_blocks;
  GPtrArray *threads;           /* gchar*: thread display names */
} GpAggElement;

typedef struct
{
  gchar *name;
  gchar *factory;
  gchar *leaky;
  GpHist residence;             /* its max_ns set at finish */
  guint64 residence_max_ns;
  gdouble pct_wsum;             /* sum of level_pct_mean * window ns */
  gdouble pct_wns;              /* sum of window ns with a level */
  gdouble pct_max;
  guint64 level_buffers_max;
  guint64 dropped;
  guint64 blocked_ns;
} GpAggQueue;

/* What a link carried over some windows. */
typedef struct
{
  guint64 buffers;
  guint64 bytes;
  guint64 duration_ns;          /* media time of the buffers with one */
  guint64 timed;                /* how many had one */
} GpAggLinkCounts;

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
  guint64 last_ts;              /* its last buffer's push, 0 unknown */
  GpAggLinkCounts c;
  gboolean waiting;             /* begun before the pipeline played */
} GpAggLinkWindow;

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
  GpAggLinkCounts steady;
  gboolean seen_data;
  GArray *early;                /* GpAggLinkWindow, starting within
                                 * GP_AGG_STARTUP_NS of the first, or
                                 * before the pipeline played */
  GpAggLinkCounts last;
  guint64 first_start, last_start, last_end;
  /* lateness against the clock (gp-record.h GP_L_LATE_*): over the run
   * (NULL until a window carried it), and each steady window's median
   * against the window's middle (s, ms) for the trend */
  GpHist *late;
  GpTrend late_trend;
  /* the last buffer's push in the last data window and in the one before
   * it (0 unknown: records without GP_L_LAST_TS), so that the steady rate
   * is the buffers between two pushes, not buffers per window span */
  guint64 last_ts, prev_start, prev_last_ts;
  /* RTP sequence numbers (gp-record.h GP_L_RTP_*), over the run; rtp:
   * a window carried them */
  gboolean rtp;
  guint64 rtp_expected, rtp_received, rtp_restarts;
  /* pad probes' time (gp-record.h GP_L_PROBE_*), over the run; probe: a
   * window carried it */
  gboolean probe;
  guint64 probe_ns, probe_n;
  guint64 no_pts;               /* buffers without a PTS, over the run */
  guint64 gap;                  /* buffers flagged GAP, over the run */
} GpAggLink;

/* A latency path's matches over some windows: their histogram (its
 * max_ns set when read), exact maximum and sum, and how many. */
typedef struct
{
  GpHist hist;
  guint64 max_ns;
  guint64 sum_ns;
  guint64 matched;
} GpAggLatencyCounts;

/* One of a latency path's windows in its start-up, kept apart. */
typedef struct
{
  guint64 start, end;
  GArray *pairs;                /* GpAggPair */
  guint64 max_ns, sum_ns, matched;
} GpAggLatencyWindow;

typedef struct
{
  gchar *source;
  gchar *element;
  gboolean sink;
  GpAggLatencyCounts run;       /* every window */
  gboolean has_sum;             /* every record carried sum_ns */
  guint64 exact;
  guint64 unmatched;
  /* the steady state, as the rates' (gp-aggregate.h): the windows before
   * the stop, less the path's start-up (those that begin within
   * GP_AGG_STARTUP_NS of its first window with a match, held in @early
   * by time: windows may arrive out of order) */
  gboolean seen;
  guint64 first_start;
  GArray *early;                /* GpAggLatencyWindow */
  GpAggLatencyCounts steady;
  guint64 steady_first, steady_end;
} GpAggLatency;

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
  /* its run-queue wait (gp-record.h GP_T_RUN_DELAY_NS), when recorded */
  guint64 run_delay_ns;
  gboolean has_run_delay;
} GpAggThread;

typedef struct
{
  guint64 ts;
  gchar *type;
  gchar *source;
  gchar *text;
  JsonObject *data;             /* the record's other fields, or NULL */
  gboolean from_bus;
} GpAggEvent;

/* ------------------------------------------------------------------ */
/* series entries: one window, or several merged                       */

typedef struct
{
  guint64 buffers;
  guint64 self_ns;              /* their self time, summed */
  guint64 max_ns;
  GArray *pairs;
} GpAggSeriesElement;

typedef struct
{
  guint64 buffers;
  guint64 bytes;
  guint64 late_max_ns;
  GArray *late_pairs;           /* NULL when no lateness was measured */
} GpAggSeriesLink;

typedef struct
{
  gdouble pct_wsum;
  gdouble pct_wns;
  gdouble pct_max;
  guint64 dropped;
} GpAggSeriesQueue;

typedef struct
{
  guint64 cpu_ns;
} GpAggSeriesThread;

/* The process's own figures of an entry; the spans count only windows
 * that carried them. */
typedef struct
{
  guint64 cpu_ns;
  guint64 cpu_span_ns;
  guint64 rss_max;              /* bytes, 0 unknown */
} GpAggSeriesProcess;

typedef struct
{
  guint64 matched;
  guint64 unmatched;
  guint64 max_ns;
  GArray *pairs;
} GpAggSeriesPath;

typedef struct
{
  guint64 start;
  guint64 end;
  GHashTable *elements;         /* name -> GpAggSeriesElement */
  GHashTable *links;            /* id -> GpAggSeriesLink */
  GHashTable *queues;           /* name -> GpAggSeriesQueue */
  GHashTable *threads;          /* display name -> GpAggSeriesThread */
  GHashTable *paths;            /* "source->sink" -> GpAggSeriesPath */
  GpAggSeriesProcess process;
  JsonObject *json;             /* cached rendering; NULL when stale
                                 * (gp-aggregate-series.c) */
} GpAggSeriesEntry;

/* ------------------------------------------------------------------ */
/* the aggregator                                                      */

/* Written under @lock: the tables, the times and the process figures by
 * gp-aggregate.c as records come in; @series by gp-aggregate.c (an entry
 * a window) and gp-aggregate-series.c (merging, rendering); @session only
 * by the finish steps. */
struct _GpAggregator
{
  GMutex lock;                  /* held by the public entry points */
  GpSession *session;           /* not owned */
  guint64 t0;

  GHashTable *elements;         /* name -> GpAggElement */
  /* the run's start: a pipeline set up or prerolled (NULL->READY,
   * READY->PAUSED) and none has played yet (its sinks' preroll, a
   * buffering element's first fill): the windows are start-up, not
   * steady. A window's links are added before its events, so the window
   * in which the pipeline began to play is start-up too. Once a pipeline
   * played, never again (a second pipeline that only prerolls,
   * GstDiscoverer's, is no start-up) */
  gboolean waiting_to_play;
  gboolean played;
  GHashTable *queues;           /* name -> GpAggQueue */
  GHashTable *links;            /* id -> GpAggLink */
  GHashTable *latency;          /* "source->element" -> GpAggLatency */
  GHashTable *threads;          /* &tid -> GpAggThread */
  GHashTable *thread_names;     /* display name -> GpAggThread (not owned) */
  GPtrArray *events;            /* GpAggEvent* */
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
  guint64 last_data_push;       /* the last push of that window, 0 unknown */

  GPtrArray *series;            /* GpAggSeriesEntry*, oldest first */
  guint64 last_window_span;     /* the last window's own span, as it came;
                                 * 0 until a second window came */

  /* the process (windows' proc_* fields) */
  guint64 proc_cpu_ns;
  guint64 proc_cpu_span_ns;
  guint64 proc_last_span_ns;
  gdouble proc_pct_max;         /* < 0 none yet */
  guint n_cpus;                 /* 0 unknown */
  guint64 rss_start, rss_max, rss_end;  /* bytes, 0 unknown */

  GpHist *scratch_hist;         /* the series' quantiles */
  GArray *scratch_pairs;        /* one record's histogram at a time */
};

/* ------------------------------------------------------------------ */
/* units                                                               */

#define GP_MIB (1024.0 * 1024.0)

static inline gdouble
gp_agg_ns_to_s (guint64 ns)
{
  return ns / 1e9;
}

/* ------------------------------------------------------------------ */
/* gp-aggregate-records.c: reading the records                         */

/* A field as a number, 0 when absent, negative or not a number. */
/* Whether @count things over [@start, @end] (ns) is a rate a measurement
 * can have: at most GP_JSON_MAX_MAGNITUDE a second, what a session may
 * hold (gp-json.h). */
gboolean gp_agg_rate_possible (guint64 count, guint64 start, guint64 end);
guint64 gp_agg_get_u64 (const GstStructure * s, const gchar * field);
gboolean gp_agg_has_number (const GstStructure * s, const gchar * field);
gdouble gp_agg_get_double (const GstStructure * s, const gchar * field);
/* NULL when absent or not a string. */
const gchar *gp_agg_get_str (const GstStructure * s, const gchar * field);
gboolean gp_agg_get_bool (const GstStructure * s, const gchar * field);
/* Number of entries of a list or array field; 0 when absent or another
 * type. */
guint gp_agg_list_size (const GValue * v);
const GValue *gp_agg_list_value (const GValue * v, guint i);
/* Entry @i of a list as a structure, NULL when it is something else. */
const GstStructure *gp_agg_list_struct (const GValue * v, guint i);
/* A field as JSON: numbers, strings, booleans and enum nicks as they are,
 * anything else as its GStreamer serialisation; NULL when it has none. */
JsonNode *gp_agg_gvalue_to_json (const GValue * v);

/* Pair arrays: a sparse histogram as a GArray of (bucket, count) pairs
 * of guint64, sorted, with distinct buckets. */
/* Reads the sparse histogram @field of @s into @out as sorted pairs with
 * distinct buckets. Pairs that are not two non-negative integers or whose
 * bucket is past the layout are dropped, so a bad record can never index
 * outside a histogram. */
void gp_agg_read_pairs (const GstStructure * s, const gchar * field,
    GArray * out);
/* @dst += @src, both sorted pair arrays with distinct buckets. */
void gp_agg_pairs_merge (GArray * dst, const GArray * src);
GArray *gp_agg_pairs_new (void);
/* p50 and p95 in ms of @pairs (@max_ns its exact maximum, 0 unknown);
 * -1 when empty */
void gp_agg_pairs_quantiles (GpAggregator * agg, const GArray * pairs,
    guint64 max_ns, gdouble * p50, gdouble * p95);
void gp_agg_hist_add (GpHist * h, const GArray * pairs);

/* ------------------------------------------------------------------ */
/* gp-aggregate-series.c: the bounded series                           */

GpAggSeriesEntry *gp_agg_series_entry_new (guint64 start, guint64 end);
void gp_agg_series_entry_free (gpointer p);
/* Item @key of @table, created zeroed when absent. */
gpointer gp_agg_series_item (GHashTable * table, const gchar * key,
    gsize size);
GpAggSeriesElement *gp_agg_series_element (GpAggSeriesEntry * e,
    const gchar * name);
GpAggSeriesPath *gp_agg_series_path (GpAggSeriesEntry * e, const gchar * key);
/* Keeps the series at most GP_AGGREGATE_MAX_SERIES long. */
void gp_agg_series_compact (GpAggregator * agg);
/* Folds @entry into the one before it when much shorter; returns whether
 * @entry was taken (and freed). */
gboolean gp_agg_series_fold_short (GpAggregator * agg,
    GpAggSeriesEntry * entry);
/* Writes session.series from the entries, rendering only those new or
 * merged since the last finish. */
void gp_agg_finish_series (GpAggregator * agg);

/* ------------------------------------------------------------------ */
/* gp-aggregate.c: taking records in                                   */

void gp_agg_link_counts_add (GpAggLinkCounts * dst,
    const GpAggLinkCounts * src, gint sign);

/* ------------------------------------------------------------------ */
/* gp-aggregate-finish.c: the finish steps                             */

/* Keys of @table, sorted, so that every output is in a stable order. */
GPtrArray *gp_agg_sorted_keys (GHashTable * table);

G_END_DECLS

#endif /* __GP_AGGREGATE_PRIVATE_H__ */
