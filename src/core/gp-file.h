/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-file.h: writing a file whole or not at all. Every file gstprof
 * writes for people (session.json, trace.bin, the exports) goes through a
 * temporary file in the target's folder, flushed, synced and renamed over
 * the target, so a reader, a crash or a full disk never leaves half a
 * file, and a failed write leaves the old one. And reading a file whole
 * up to a bound, for the readers whose format is not read line by line.
 */
#ifndef __GP_FILE_H__
#define __GP_FILE_H__

#include <stdio.h>
#include <glib.h>

G_BEGIN_DECLS

/* An open temporary file next to its target; write to ->fp. */
typedef struct
{
  gchar *path;                  /* the target */
  gchar *tmp;                   /* PATH.tmp-XXXXXX, same folder */
  FILE *fp;
} GpAtomicFile;

/* NULL with "PATH: cannot write: reason" (GP_SESSION_ERROR_IO) when no
 * file can be made beside @path. */
GpAtomicFile *gp_atomic_file_open (const gchar * path, GError ** error);
/* Flushes, syncs and renames the file over its target, and frees @f. On
 * any failure the temporary file is removed and @error names the target. */
gboolean gp_atomic_file_commit (GpAtomicFile * f, GError ** error);
/* Removes the temporary file and frees @f. */
void gp_atomic_file_abort (GpAtomicFile * f);
/* @len bytes of @data as the whole of @path, the same way. */
gboolean gp_atomic_file_write (const gchar * path, gconstpointer data,
    gsize len, GError ** error);

/* All of @path, NUL-terminated, its length in @len, when it holds at most
 * @limit bytes (pipes and devices too: the reading stops one byte past
 * it). NULL with one line (GP_SESSION_ERROR_IO): "PATH: cannot read: reason"
 * when it cannot be read, "PATH: larger than N MiB, the most WHAT takes" past
 * @limit, so that a reader's memory is bounded whatever it is given. */
gchar *gp_file_read_capped (const gchar * path, gsize limit,
    const gchar * what, gsize * len, GError ** error);

G_END_DECLS

#endif /* __GP_FILE_H__ */
