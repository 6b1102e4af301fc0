/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-aggregate.h: folds the tracer's records (docs/records.md, "The
 * window record") into a GpSession: whole-run histograms per
 * element, queue and latency path, link and sink rates, thread CPU, events,
 * and a bounded series (recent windows at full resolution, older ones merged
 * pairwise, so memory stays constant however long the run).
 *
 * Thread-safe: windows arrive on the tracer's thread while the main thread
 * adds bus events and calls finish. The session is written only by
 * gp_aggregator_finish(), so between two calls to it the session is never
 * touched from another thread.
 *
 * Rates (summary.links.*, summary.sinks.*) are steady-state rates, link by
 * link: over the windows in which the link carried data before gstprof
 * asked the pipeline to stop (the end of --duration, Ctrl-C; the drain
 * after is not steady), less the link's start-up (the data windows that
 * begin within GP_AGG_STARTUP_NS of its first: a receiver decoding from
 * its first keyframe, a jitter buffer filling; when less than
 * GP_AGG_STEADY_MIN_NS follows, only its first window and those begun
 * before the pipeline played: a sink's preroll) and its last data window,
 * which data covers only in part, divided by the time between them; when
 * there is no window between them, all of its data over its whole data
 * time.
 * busy_pct is the element's self time over the PLAYING time (from the
 * first window any link carried data in to the last), per thread it ran on.
 */
#ifndef __GP_AGGREGATE_H__
#define __GP_AGGREGATE_H__

#include <gst/gst.h>
#include "core/gp-session.h"

G_BEGIN_DECLS

typedef struct _GpAggregator GpAggregator;

/* @t0_ns: tracer timestamp that is t = 0 of the session. The aggregator does
 * not own @session; it must outlive the aggregator. */
GpAggregator *gp_aggregator_new (GpSession * session, guint64 t0_ns);
void gp_aggregator_free (GpAggregator * agg);

/* A "gstprof-window" record; copied from, not kept. */
void gp_aggregator_add_window (GpAggregator * agg, const GstStructure * window);
/* A "gstprof-graph" record; the last one added is the session's graph. */
void gp_aggregator_add_graph (GpAggregator * agg, const GstStructure * graph);

/* The caller adds the errors and warnings of the pipeline's bus: at
 * finish, those the tracer saw that never reached the bus (an element
 * without one, a bin that handled its child's) are left out. */
void gp_aggregator_watch_bus (GpAggregator * agg);

/* An event seen outside the tracer (bus message, Ctrl-C), @ts_ns on the
 * tracer's time base. At finish, a bus event of the same type and source as
 * one the tracer reported makes one event with it: errors and warnings keep
 * the bus copy (what reached the pipeline) with the tracer's details, the
 * rest the tracer's. The first "interrupt" or "duration" event marks the
 * stop: windows after it are the drain, left out of the steady-state
 * rates. */
void gp_aggregator_add_bus_event (GpAggregator * agg, guint64 ts_ns,
    const gchar * type, const gchar * source, const gchar * text);
/* The same with the numbers and names behind @text (GpEvent.data); a
 * reference is taken on @data. */
void gp_aggregator_add_bus_event_data (GpAggregator * agg, guint64 ts_ns,
    const gchar * type, const gchar * source, const gchar * text,
    JsonObject * data);

/* The end of the newest window added, on the tracer's time base (a mark
 * of a process whose tracer clock gstprof does not share lands there);
 * the session's start before any. */
guint64 gp_aggregator_latest (GpAggregator * agg);

/* Writes summary.*, graph, series and events into the session from
 * everything added so far. May be called more than once (live views). */
void gp_aggregator_finish (GpAggregator * agg);

/* One short line for a progress display: the rate into each sink over the
 * newest windows covering at least @span_s seconds, e.g.
 * "fakesink0 29.8 fps". Never NULL; free with g_free(). */
gchar *gp_aggregator_describe_progress (GpAggregator * agg, gdouble span_s);

/* Most series entries kept before the oldest are merged pairwise. */
#define GP_AGGREGATE_MAX_SERIES 240
/* Most events kept; past it, only errors, warnings and EOS are kept (up to
 * twice as many) and the rest are counted as dropped. */
#define GP_AGGREGATE_MAX_EVENTS 4096

G_END_DECLS

#endif /* __GP_AGGREGATE_H__ */
