/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-rule-cut.c: CUT, a recording stopped without EOS, a symptom: a muxer
 * that writes its file's index when the stream ends (mp4mux and qtmux: the
 * moov, without which no player opens the file) never saw the end, because
 * the pipeline went to NULL before an EOS reached its sink (gst-launch-1.0
 * without -e stopped by Ctrl-C, an application that sets NULL on exit).
 * The whole recording is lost, though every frame went into the file.
 * Thresholds and reasons: docs/rules.md.
 */
#include "gp-rules-private.h"

/* Muxers that write their index at EOS (isomp4's: the moov box) unless
 * fragment-duration makes them write fragments as they go. */
static const gchar *const gp_cut_index_at_eos[] = {
  "mp4mux", "qtmux", "3gppmux", "mj2mux", "ismlmux", NULL
};

/* Whether @element's file is finished only at EOS. */
static gboolean
gp_cut_needs_eos (GpElement * e)
{
  gint64 fragment = 0, update = 0;

  if (e->factory == NULL || !g_strv_contains (gp_cut_index_at_eos,
          e->factory))
    return FALSE;
  /* robust muxing rewrites a playable moov as it goes */
  if (gp_element_get_prop_int (e, "reserved-moov-update-period", &update) &&
      update > 0)
    return FALSE;
  return !gp_element_get_prop_int (e, "fragment-duration", &fragment) ||
      fragment <= 0;
}

/* A sink below @muxer, the first one; NULL when none. */
static const gchar *
gp_cut_sink_below (GpSession * s, const gchar * muxer)
{
  guint i;

  for (i = 0; i < s->elements->len; i++) {
    GpElement *e = g_ptr_array_index (s->elements, i);

    if (gp_session_is_sink (s, e->name) && gp_session_feeds (s, muxer,
            e->name))
      return e->name;
  }
  return NULL;
}

/* Whether an EOS reached @sink, or a bin's (its pipeline's: all its
 * sinks had one). */
static gboolean
gp_cut_got_eos (GpSession * s, const gchar * sink)
{
  guint i;

  for (i = 0; s->events && i < s->events->len; i++) {
    GpEvent *ev = g_ptr_array_index (s->events, i);
    GpElement *from;

    if (g_strcmp0 (ev->type, "eos") != 0)
      continue;
    from = gp_session_find_element (s, ev->source);
    if (g_strcmp0 (ev->source, sink) == 0 || from == NULL || from->is_bin)
      return TRUE;
  }
  return FALSE;
}

void
gp_rule_cut (GpSession * s, const GpRule * rule)
{
  guint i;

  /* never played: PREROLL's; the stream's own end: it was whole; another
   * tool's events may leave EOS out */
  /* an error stopped it: the error is the finding */
  if (g_strcmp0 (s->reached, "PLAYING") != 0 || s->end == NULL ||
      g_str_equal (s->end, "eos") || g_str_equal (s->end, "error") ||
      s->import_schema != NULL)
    return;
  for (i = 0; s->elements && i < s->elements->len; i++) {
    GpElement *e = g_ptr_array_index (s->elements, i);
    const gchar *sink;
    gchar *title;
    gboolean own;
    GpFinding *f;

    if (!gp_cut_needs_eos (e) || (sink = gp_cut_sink_below (s, e->name)) ==
        NULL || gp_cut_got_eos (s, sink))
      continue;
    /* gstprof run sends the EOS itself: one that did not come back in
     * time was cut by gstprof's own stop, not by the pipeline */
    own = g_strcmp0 (s->mode, "run") == 0;
    title = g_strdup_printf ("the recording into %s was cut without EOS%s: "
        "%s never wrote its index (moov), and the file does not play", sink,
        own ? " by gstprof's stop (the EOS it sent did not come back in "
        "time)" : "", e->name);
    f = gp_rule_add_finding (s, rule, own ? GP_SEVERITY_INFO :
        GP_SEVERITY_HIGH, title);
    g_free (title);
    gp_finding_add_target (f, e->name);
    gp_finding_add_target (f, sink);
    f->rank_value = 100.0;
    gp_finding_set_string (f, "muxer", e->name);
    gp_finding_set_string (f, "sink", sink);
    gp_finding_set_string (f, "ended", s->end);
    g_free (f->why);
    f->why = g_strdup_printf ("%s writes the index of the file (the moov "
        "box: where each frame is, how long the stream is) when the EOS "
        "comes. The pipeline stopped (%s) before an EOS reached %s, so the "
        "file holds the frames and no index: players and qtdemux refuse "
        "it.", e->name, s->end, sink);
    g_free (f->fix);
    if (own) {
      f->fix = g_strdup_printf ("Give the EOS longer to come back: gstprof "
          "run --eos-wait=30s (the encoders drain and %s writes its index "
          "before the pipeline stops). Nothing is wrong with the pipeline "
          "itself.", e->name);
      continue;
    }
    f->fix = g_strdup_printf ("End the recording with an EOS and wait for "
        "it before stopping: gst-launch-1.0 -e (Ctrl-C then sends EOS), or "
        "in a program gst_element_send_event (pipeline, gst_event_new_eos "
        "()) and wait for GST_MESSAGE_EOS on the bus before setting NULL. "
        "Where the process can die without warning, set %s "
        "fragment-duration (a fragmented MP4 plays up to its last "
        "fragment), or record to a format without an index "
        "(mpegtsmux, matroskamux streamable=true).", e->name);
  }
}
