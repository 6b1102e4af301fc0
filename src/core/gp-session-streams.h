/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-session-streams.h: the elementary streams that feed a sink, each
 * judged where it is still itself: at its last raw or encoded link before
 * a muxer, a payloader or the sink (a muxed file's buffers per second say
 * nothing of its video's frame rate).  Read-only questions of a session,
 * beside gp-session-query.h, asked by BEHIND and the verdict's Rate.
 */
#ifndef __GP_SESSION_STREAMS_H__
#define __GP_SESSION_STREAMS_H__

#include <glib.h>
#include "gp-caps.h"
#include "gp-session.h"

G_BEGIN_DECLS

typedef struct
{
  GpLink *link;                 /* where it is judged; the session's */
  const gchar *into;            /* the muxer, payloader or sink it enters:
                                 * the element's name, the session's */
  GpMediaKind kind;             /* GP_MEDIA_VIDEO or GP_MEDIA_AUDIO */
  gdouble fps;                  /* frames (buffers) per second, steady
                                 * state; < 0 unknown */
  gdouble target_fps;           /* video: the framerate its caps (or the
                                 * nearest upstream) ask for; < 0 unknown */
  gdouble media_per_s;          /* media time per second of wall time (1.0
                                 * is real time); < 0 unknown */
} GpStream;

/* The streams into @sink: the inputs of the nearest muxer or payloader on
 * the way up from it, or its own input when none; only video and audio
 * links.  A GArray of GpStream, empty when none (free with
 * g_array_unref). */
GArray *gp_session_streams_of (GpSession * s, const gchar * sink);

/* TRUE when @name packs streams into another format: a muxer (kind "mux")
 * or an RTP (or other) payloader. */
gboolean gp_session_is_packer (GpSession * s, const gchar * name);

G_END_DECLS

#endif /* __GP_SESSION_STREAMS_H__ */
