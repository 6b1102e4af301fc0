/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-metrics.h: a session (a capture so far, or a saved one) in
 * Prometheus' text exposition format (version 0.0.4), what the server's
 * /metrics answers. Every metric, its type, unit and labels:
 * docs/metrics.md. Works without the server (no libsoup), so that it is
 * built and tested everywhere.
 */
#ifndef __GP_METRICS_H__
#define __GP_METRICS_H__

#include <glib.h>
#include "core/gp-session.h"

G_BEGIN_DECLS

/* The most elements, links, queues, paths or threads one metric family
 * labels: a pipeline that makes elements at run time (decodebin, a
 * splitmuxsink's fragments, an rtspsrc per camera) cannot grow a scrape
 * without bound. The rest are folded into one series labelled "_other"
 * and counted in gstprof_series_folded. */
#define GP_METRICS_MAX_SERIES 256

/* The exposition of @s: a new string ending in a newline. @pipeline is the
 * `pipeline` label of every series (the session's launch string is no
 * label: too long), NULL: "pipeline". */
gchar *gp_metrics_text (GpSession * s, const gchar * pipeline);

/* Every metric name gp_metrics_text () can write on a sample's line (a
 * summary's own name, its _sum and its _count), NULL-terminated, static:
 * what a dashboard or an alert rule may name (docs/metrics.md). */
const gchar *const *gp_metrics_names (void);

G_END_DECLS

#endif /* __GP_METRICS_H__ */
