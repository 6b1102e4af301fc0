/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-export-perfetto.h: a session as trace-event JSON (the Chrome trace
 * event format that ui.perfetto.dev and chrome://tracing open), for
 * `gstprof export SESSION --perfetto out.json`.
 *
 * Two processes in the viewer:
 *  - pid 1, "windows": one track per streaming thread, with per window one
 *    slice "window N" holding one slice per element that ran on the thread,
 *    as long as the element's self time in that window, laid out back to
 *    back from the window's start: aggregates, not when buffers ran (their
 *    names and args say so); counter tracks for fps per link and per sink,
 *    queue levels, latency per path, CPU of the process and each thread;
 *    the session's events as instants.
 *  - pid 2, "trace" (only with `run --trace`): one track per streaming
 *    thread with every push the ring kept as a slice on its element, from
 *    its enter to its exit; a push into downstream elements nests within
 *    the push around it.
 * ts and dur are microseconds from the session's start, with ns digits.
 */
#ifndef __GP_EXPORT_PERFETTO_H__
#define __GP_EXPORT_PERFETTO_H__

#include <glib.h>
#include "core/gp-session.h"
#include "core/gp-trace.h"

G_BEGIN_DECLS

#define GP_EXPORT_PID_WINDOWS 1
#define GP_EXPORT_PID_TRACE 2

/* Writes @s (and @trace, the session's pushes, NULL: none) to @path,
 * atomically (a temporary file beside it, then rename). FALSE with a
 * one-line @error naming @path when it cannot be written. */
gboolean gp_export_perfetto (const GpSession * s, const GpTrace * trace,
    const gchar * path, GError ** error);

G_END_DECLS

#endif /* __GP_EXPORT_PERFETTO_H__ */
