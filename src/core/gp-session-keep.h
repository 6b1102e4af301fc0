/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-session-keep.h: a session folder written again (`gstprof run --out
 * DIR` twice): the earlier session.json is kept beside the new one as
 * session.N.json, with the trace it names as trace.N.bin, never
 * overwritten.
 */
#ifndef __GP_SESSION_KEEP_H__
#define __GP_SESSION_KEEP_H__

#include <glib.h>

G_BEGIN_DECLS

/* A session already at @path (in the folder @dir) is kept: renamed to
 * session.N.json beside it (the first N free for it and for trace.N.bin),
 * and the trace file it names (session.trace.file, a plain name in @dir)
 * renamed to trace.N.bin, its name in the kept session changed to match.
 * @kept (may be NULL) receives the kept session's path, NULL when there
 * was none at @path. FALSE with @error (G_FILE_ERROR, one line naming
 * both paths) when it cannot be moved. */
gboolean gp_session_keep_earlier (const gchar * dir, const gchar * path,
    gchar ** kept, GError ** error);

G_END_DECLS

#endif /* __GP_SESSION_KEEP_H__ */
