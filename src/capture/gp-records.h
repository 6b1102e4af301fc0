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

/* In the folder @dir, the records file of process @pid (NULL when it
 * wrote none); @others (may be NULL) receives the pids of the other
 * processes there, ", "-separated, or NULL when there are none. */
gchar *gp_records_file_of (const gchar * dir, guint pid, gchar ** others);

/* The same from an open stream, @file naming it in errors and notes. */
GpSession *gp_records_read (FILE * f, const gchar * file, GError ** error);

G_END_DECLS

#endif /* __GP_RECORDS_H__ */
