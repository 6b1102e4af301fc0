/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-trace.h: the pushes a run kept (`gstprof run --trace`): per streaming
 * thread, every push's enter, exit and element over the ring's span (the
 * tracer's `trace` parameter, gp-record.h's GpTraceSlice). Saved beside
 * session.json as DIR/trace.bin (the file format is gp-trace.c's; the
 * session names it, docs/session-schema.md, session.trace), read back by
 * the exports.
 */
#ifndef __GP_TRACE_H__
#define __GP_TRACE_H__

#include <glib.h>
#include "gp-record.h"

G_BEGIN_DECLS

/* the file's name in a session folder */
#define GP_TRACE_FILE "trace.bin"

typedef struct
{
  guint64 tid;
  gchar *name;                  /* its /proc comm */
  guint64 lost;                 /* older pushes not kept (gp-record.h) */
  GArray *slices;               /* GpTraceSlice, in the order they returned */
} GpTraceThread;

typedef struct
{
  guint seconds;                /* the span the rings were sized for */
  guint64 t0;                   /* the session's t = 0, on the slices' base */
  guint64 now;                  /* when the rings were read, same base */
  GPtrArray *elements;          /* gchar*: GpTraceSlice.element indexes it */
  GPtrArray *threads;           /* GpTraceThread* */
} GpTrace;

GpTrace *gp_trace_new (void);
void gp_trace_free (GpTrace * t);
GpTraceThread *gp_trace_add_thread (GpTrace * t, guint64 tid,
    const gchar * name, guint64 lost);
/* Every thread's slices. */
guint64 gp_trace_n_slices (const GpTrace * t);

/* DIR/trace.bin, written atomically (temp file + rename). */
gboolean gp_trace_save (const GpTrace * t, const gchar * path,
    GError ** error);
/* Reads the file back; one-line errors naming @path (and the byte offset
 * of what is wrong), GP_SESSION_ERROR_IO or _PARSE. */
GpTrace *gp_trace_load (const gchar * path, GError ** error);
GpTrace *gp_trace_load_data (const guint8 * data, gsize len,
    const gchar * origin, GError ** error);

G_END_DECLS

#endif /* __GP_TRACE_H__ */
