/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-export.h: a session handed to the tools people already use. Each
 * export reads only the model (src/core/gp-session.h) and writes one file
 * or folder, atomically: a temporary file in the same folder, renamed over
 * the target once it is whole, so a reader never sees half a file.
 *
 * - gp_export_graph (): the pipeline graph, laid out by graphviz's library
 *   (cgraph and gvc), as dot text or SVG: elements coloured by their share
 *   of the self time, links labelled with their rate, brief caps and
 *   memory, bins drawn as clusters (gp-export-dot.c);
 * - gp_export_csv (): one CSV per series section and a summary CSV per
 *   element, for spreadsheets and pandas (gp-export-csv.c);
 * - gp_export_perfetto (): the timeline as trace-event JSON, for
 *   ui.perfetto.dev and chrome://tracing (gp-export-perfetto.c): per-window
 *   aggregate slices per streaming thread, counters for fps per link and
 *   sink, queue levels, latency, CPU, the events; with a trace, every push
 *   as a slice nested per thread;
 * - their error domain (gp-export.c).
 *
 * The room, src/export: its own static library (libgpexport), linked only
 * by the binary and its tests, so that nothing else links graphviz.
 *
 * May depend on: core, graphviz (libcgraph, libgvc).
 */
#ifndef __GP_EXPORT_H__
#define __GP_EXPORT_H__

#include <stdio.h>
#include <glib.h>
#include "core/gp-session.h"
#include "core/gp-trace.h"
#include "core/gp-file.h"

G_BEGIN_DECLS

#define GP_EXPORT_ERROR (gp_export_error_quark ())
GQuark gp_export_error_quark (void);
typedef enum
{
  GP_EXPORT_ERROR_IO,           /* the target cannot be written */
  GP_EXPORT_ERROR_GRAPHVIZ,     /* graphviz refused the graph or its layout */
} GpExportError;

/* What gp_export_graph () writes. */
typedef enum
{
  GP_EXPORT_GRAPH_DOT,          /* dot text with the layout's positions */
  GP_EXPORT_GRAPH_SVG,
  GP_EXPORT_GRAPH_PNG,          /* graphviz's cairo renderer */
} GpExportGraphFormat;

/* The pipeline graph of @s into the file @path. FALSE with a one-line
 * @error naming @path when it cannot be written (nothing is left at @path
 * then), or naming graphviz when its layout failed. */
gboolean gp_export_graph (GpSession * s, GpExportGraphFormat format,
    const gchar * path, GError ** error);
/* The same picture in memory, for a page that holds it (the report);
 * @what names it in the one-line @error. */
GBytes *gp_export_graph_data (GpSession * s, GpExportGraphFormat format,
    const gchar * what, GError ** error);

/* The series and the element summary of @s as CSV files in the folder
 * @dir, made when missing: elements.csv, links.csv, queues.csv,
 * threads.csv, paths.csv, process.csv (one row per window and entity, the
 * window's span in seconds from the session's start, then the series'
 * fields, whose names carry their units) and summary-elements.csv (one row
 * per element). Existing files of those names are replaced, nothing else
 * in @dir is touched. FALSE with a one-line @error naming the path that
 * could not be written. */
gboolean gp_export_csv (GpSession * s, const gchar * dir, GError ** error);

/* The file names gp_export_csv () writes, NULL-terminated. */
const gchar *const *gp_export_csv_files (void);

/* The timeline of @s (and @trace, the pushes `run --trace` kept; NULL:
 * none) as trace-event JSON (the Chrome trace event format that
 * ui.perfetto.dev and chrome://tracing open) into @path. Two processes in
 * the viewer:
 *  - pid GP_EXPORT_PID_WINDOWS, "windows": one track per streaming thread,
 *    with per window one slice "window N" holding one slice per element
 *    that ran on the thread, as long as the element's self time in that
 *    window, laid out back to back from the window's start: aggregates,
 *    not when buffers ran (their names and args say so); counter tracks
 *    for fps per link and per sink, queue levels, latency per path, CPU of
 *    the process and each thread; the session's events as instants.
 *  - pid GP_EXPORT_PID_TRACE, "trace" (only with a trace): one track per
 *    streaming thread with every push the ring kept as a slice on its
 *    element, from its enter to its exit; a push into downstream elements
 *    nests within the push around it.
 * ts and dur are microseconds from the session's start, with ns digits.
 * FALSE with a one-line @error naming @path when it cannot be written. */
#define GP_EXPORT_PID_WINDOWS 1
#define GP_EXPORT_PID_TRACE 2
gboolean gp_export_perfetto (const GpSession * s, const GpTrace * trace,
    const gchar * path, GError ** error);

G_END_DECLS

#endif /* __GP_EXPORT_H__ */
