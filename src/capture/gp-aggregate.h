/* gstprof
 *
 * gp-aggregate.h: folds the tracer's records (docs/ARCHITECTURE.md, "The
 * tracer's window record") into a GpSession: whole-run histograms per
 * element, queue and latency path, link and sink rates, thread CPU, events,
 * and a bounded series (recent windows at full resolution, older ones merged
 * pairwise, so memory stays constant however long the run).
 * Thread-safe: windows arrive on the tracer's thread.
 */
#ifndef __GP_AGGREGATE_H__
#define __GP_AGGREGATE_H__

#include <gst/gst.h>
#include "gp-session.h"

G_BEGIN_DECLS

typedef struct _GpAggregator GpAggregator;

/* @t0_ns: tracer timestamp that is t = 0 of the session. */
GpAggregator *gp_aggregator_new (GpSession * session, guint64 t0_ns);
void gp_aggregator_free (GpAggregator * agg);

void gp_aggregator_add_window (GpAggregator * agg, const GstStructure * window);
void gp_aggregator_add_graph (GpAggregator * agg, const GstStructure * graph);

/* Writes summary.* (quantiles, rates, shares, target fps) into the session
 * from everything added so far. May be called more than once (live views). */
void gp_aggregator_finish (GpAggregator * agg);

/* Most series entries kept before the oldest are merged pairwise. */
#define GP_AGGREGATE_MAX_SERIES 240

G_END_DECLS

#endif /* __GP_AGGREGATE_H__ */
