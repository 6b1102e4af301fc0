/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-ds-perf.h: what a DeepStream application prints about its own speed,
 * read from its log (`gstprof ds perf`):
 *
 * - the perf monitor's `**PERF:` lines: deepstream-app's `**PERF:  30.01
 *   (29.95)<TAB>29.98 (29.90)<TAB>` (current fps and the average since the
 *   start, per source, tab-separated, a trailing tab; `**PERF(<i>):` when
 *   several app instances share the log; its `FPS <i> (Avg)` header lines),
 *   and the Python test apps' dict `**PERF:  {'stream0': 30.0, ...}`
 *   (current only); anywhere in a line, among any other lines;
 * - NVDS_ENABLE_COMPONENT_LATENCY_MEASUREMENT's `Comp name = NAME
 *   in_system_timestamp = T out_system_timestamp = T component latency= MS`
 *   (and the muxer's `Comp name = nvstreammux-SRC source_id = ...
 *   component_latency = MS`), and NVDS_ENABLE_LATENCY_MEASUREMENT's
 *   per-frame `Source id = S Frame_num = N Frame latency = MS (ms)`:
 *   per component (the frame lines as "frame (source S)").
 */
#ifndef __GP_DS_PERF_H__
#define __GP_DS_PERF_H__

#include <glib.h>

#include "core/gp-lines.h"

G_BEGIN_DECLS

#define GP_DS_PERF_ERROR (gp_ds_perf_error_quark ())
GQuark gp_ds_perf_error_quark (void);

typedef enum
{
  GP_DS_PERF_ERROR_IO,
  GP_DS_PERF_ERROR_PARSE,       /* a **PERF or latency line damaged, or no
                                 * such line at all */
} GpDsPerfError;

/* One source's fps series, one value per report that names it. */
typedef struct
{
  gchar *name;                  /* "0" (deepstream-app), "stream0" (dict),
                                 * "1:0" (instance 1's source 0) */
  GArray *current;              /* gdouble, fps */
  GArray *average;              /* gdouble, the app's running average; NAN
                                 * where the form has none (dict) */
} GpDsPerfSource;

/* One component's latencies and what they come to (ms). */
typedef struct
{
  gchar *name;
  GArray *ms;                   /* gdouble, in the order printed */
  gdouble mean, p50, p95, max;  /* (gp_ds_perf_parse) */
} GpDsPerfLatency;

typedef struct
{
  GPtrArray *sources;           /* GpDsPerfSource*, by first appearance */
  GPtrArray *latency;           /* GpDsPerfLatency*, by first appearance */
  guint reports;                /* **PERF value lines */
  guint lines;                  /* lines read */
  guint skipped;                /* of them: too long for a monitor's, or
                                 * the last cut short and unreadable */
  GpLinesSkips damaged;         /* of them: a **PERF or latency line that
                                 * does not read, skipped */
} GpDsPerf;

/* Reads @data (@origin names it in errors: "FILE:LINE: ..."), as far as
 * it is valid: a damaged **PERF or latency line is skipped and counted
 * (GpDsPerf.damaged), a last line cut short (no newline ends it) that
 * does not read is left out; a log without a line that reads is an error
 * naming the first damaged line, or the file. */
GpDsPerf *gp_ds_perf_parse (const gchar * data, gsize len,
    const gchar * origin, GError ** error);
/* The same from @path, read a block at a time (the file is never held
 * whole). */
GpDsPerf *gp_ds_perf_load (const gchar * path, GError ** error);
void gp_ds_perf_free (GpDsPerf * p);

/* A source's steady rate: the mean of its current fps after its first
 * value above 0 (the reports before the pipeline ran are 0.00); NAN when
 * none is. */
gdouble gp_ds_perf_source_steady (const GpDsPerfSource * s);

/* The table `gstprof ds perf` prints. A new string. */
gchar *gp_ds_perf_table (const GpDsPerf * p);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GpDsPerf, gp_ds_perf_free)

G_END_DECLS
#endif /* __GP_DS_PERF_H__ */
