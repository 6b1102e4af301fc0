/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-session-streams.c: the elementary streams that feed a sink, judged at
 * their last link before a muxer, a payloader or the sink
 * (gp-session-streams.h).
 */
#include <string.h>

#include "gp-session-query.h"
#include "gp-session-streams.h"

/* a chain longer than this is a loop in a broken graph, not a pipeline */
#define GP_STREAMS_MAX_HOPS 64

gboolean
gp_session_is_packer (GpSession * s, const gchar * name)
{
  GpElement *e = gp_session_find_element (s, name);

  if (e == NULL)
    return FALSE;
  if (g_strcmp0 (e->kind, "mux") == 0)
    return TRUE;
  /* rtph264pay, rtpL16pay, rtpmp2tpay, gdppay: payloaders by name, since
   * their klass ("Codec/Payloader/Network/RTP") is not in the session */
  return e->factory && g_str_has_suffix (e->factory, "pay");
}

/* The framerate a stream entering by @l is meant to have: its caps', else
 * the nearest upstream caps that say. */
static gdouble
gp_streams_target_fps (GpSession * s, GpLink * l)
{
  guint hops;

  for (hops = 0; l && hops < GP_STREAMS_MAX_HOPS; hops++) {
    gdouble fps = gp_caps_framerate (l->caps);
    gchar *src;

    if (fps > 0)
      return fps;
    src = gp_pad_element (l->src);
    l = gp_session_link_into (s, src);
    g_free (src);
  }
  return -1;
}

static void
gp_streams_add (GpSession * s, GArray * out, GpLink * l, const gchar * into)
{
  GpMediaKind kind = gp_caps_media_kind (l->caps);
  GpLinkSummary *ls = gp_session_find_link_summary (s, l->id);
  GpStream st = { l, into, kind, -1, -1, -1 };

  if (kind != GP_MEDIA_VIDEO && kind != GP_MEDIA_AUDIO)
    return;
  if (ls) {
    st.fps = ls->fps;
    st.media_per_s = ls->media_per_s;
  }
  if (kind == GP_MEDIA_VIDEO)
    st.target_fps = gp_streams_target_fps (s, l);
  g_array_append_val (out, st);
}

GArray *
gp_session_streams_of (GpSession * s, const gchar * sink)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (GpStream));
  GpElement *e = gp_session_find_element (s, sink);
  const gchar *cur = e ? e->name : NULL;
  GpLink *l;
  guint hops, i;

  for (hops = 0; cur && hops < GP_STREAMS_MAX_HOPS; hops++) {
    gchar *up;

    if (gp_session_is_packer (s, cur)) {
      for (i = 0; s->links && i < s->links->len; i++) {
        GpLink *in = g_ptr_array_index (s->links, i);
        gchar *to = gp_pad_element (in->sink);

        if (g_str_equal (to, cur))
          gp_streams_add (s, out, in, cur);
        g_free (to);
      }
      return out;
    }
    l = gp_session_link_into (s, cur);
    if (l == NULL)
      break;
    up = gp_pad_element (l->src);
    e = gp_session_find_element (s, up);
    g_free (up);
    cur = e ? e->name : NULL;
  }
  /* no muxer or payloader: the sink's own input is the stream */
  e = gp_session_find_element (s, sink);
  if (e && (l = gp_session_link_into (s, sink)) != NULL)
    gp_streams_add (s, out, l, e->name);
  return out;
}
