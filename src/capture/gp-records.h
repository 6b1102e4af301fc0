/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-records.h: a records file the tracer wrote by itself
 * (GST_TRACERS="gstprof(out=DIR)", format in src/core/gp-record.h), folded
 * into a session through the aggregator, as `run` folds the windows it is
 * signalled.
 */
#ifndef __GP_RECORDS_H__
#define __GP_RECORDS_H__

#include <stdio.h>

#include <glib.h>

#include "gp-aggregate.h"
#include "core/gp-session.h"

G_BEGIN_DECLS

/* TRUE when @path is a records file or a folder holding one. */
gboolean gp_records_present (const gchar * path);

/* The session of the records file @path, or of the one records file in
 * the folder @path (several: an error that names them). GStreamer must be
 * initialised (the records are GstStructures). Lines that do not parse are
 * counted and the first few named by line number in the session's events
 * ("warning" from gstprof); a last line cut off by a killed program is not
 * one of them. NULL with @error (GP_SESSION_ERROR, one line naming the
 * file) when it is not a records file at all or cannot be read. Rules are
 * not run. */
GpSession *gp_records_load (const gchar * path, GError ** error);

/* The tracer's window and cpu parameters in the header of the records
 * @path names (as gp_records_load () picks the file), read without
 * GStreamer: a command that runs a pipeline again the way these records
 * were measured sets the tracer up before GStreamer starts, and loading
 * records starts GStreamer. FALSE when there is no such header. */
gboolean gp_records_peek_params (const gchar * path, guint * window_ms,
    gboolean * cpu);

/* In the folder @dir, the records file of process @pid (NULL when it
 * wrote none); @others (may be NULL) receives the pids of the other
 * processes there, ", "-separated, or NULL when there are none. */
gchar *gp_records_file_of (const gchar * dir, guint pid, gchar ** others);

/* The same from an open stream, @file naming it in errors and notes. */
GpSession *gp_records_read (FILE * f, const gchar * file, GError ** error);

/* The same line by line, for a stream that arrives as it is written (the
 * tracer's `socket`): one reader per process. @name names it in notes. */
typedef struct _GpRecordsReader GpRecordsReader;

GpRecordsReader *gp_records_reader_new (const gchar * name);
void gp_records_reader_free (GpRecordsReader * r);
/* One line, without its newline. The first must be the header: FALSE
 * with @error (one line naming the stream) when it is not, and every line
 * after a refused first one is FALSE too. After it, a line that is not a
 * record is counted (named in the session by its number, the first few),
 * never trusted, and TRUE. */
gboolean gp_records_reader_add_line (GpRecordsReader * r,
    const gchar * line, GError ** error);
/* Bytes as they arrive (a socket's reads): the whole lines among them go
 * to gp_records_reader_add_line, the rest waits for the next; a line
 * longer than 16 MiB is not the tracer's, counted and skipped. FALSE once
 * the first line was not a header (the rest is ignored). */
gboolean gp_records_reader_feed (GpRecordsReader * r, const gchar * data,
    gsize len);
/* The bytes fed end inside a line. */
gboolean gp_records_reader_cut (GpRecordsReader * r);
/* The header (pid, program, ...), NULL before it. */
const GstStructure *gp_records_reader_get_header (GpRecordsReader * r);
/* The aggregator the records go into, for a live view
 * (gp_aggregator_describe_progress); NULL before the header. Borrowed. */
GpAggregator *gp_records_reader_aggregator (GpRecordsReader * r);
/* Windows read, and lines that were not records, so far. */
guint64 gp_records_reader_windows (GpRecordsReader * r);
guint64 gp_records_reader_bad_lines (GpRecordsReader * r);
/* As gp_records_reader_finish, for the stream of a process still running
 * when the reading ends (one that outlived wrap's program): its windows
 * up to now, with @note, and not taken for a crash. */
GpSession *gp_records_reader_finish_running (GpRecordsReader * r,
    const gchar * note);
/* The session so far, for a checkpoint (wrap's, every few seconds): the
 * aggregator's finish run on what came (it goes on taking lines after),
 * the header's facts filled in. Borrowed, until the next line or
 * gp_records_reader_finish; NULL before the header. */
GpSession *gp_records_reader_peek (GpRecordsReader * r);
/* The session of every line read (rules not run); @cut: the stream ended
 * inside a line. NULL when no header came. Once. */
GpSession *gp_records_reader_finish (GpRecordsReader * r, gboolean cut);

G_END_DECLS

#endif /* __GP_RECORDS_H__ */
