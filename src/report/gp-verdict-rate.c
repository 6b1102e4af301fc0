/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-verdict-rate.c: the verdict's Rate section: the steady-state rate at
 * each sink in its own media against its target, the streams a muxed sink
 * carries, a sink's growing lateness, and the frames a videorate repeated
 * or dropped.
 */
#include "gp-verdict-private.h"
#include "core/gp-json.h"
#include "core/gp-session-query.h"
#include "core/gp-session-streams.h"

#include <math.h>
#include <string.h>

/* "412 kbit/s" */
static const gchar *
gp_verdict_bitrate (gchar buf[32], gdouble bytes_per_s)
{
  gdouble bits = bytes_per_s * 8;

  if (bytes_per_s < 0)
    g_snprintf (buf, 32, "-");
  else if (bits >= 1e6)
    g_snprintf (buf, 32, "%.1f Mbit/s", bits / 1e6);
  else
    g_snprintf (buf, 32, "%.0f kbit/s", bits / 1e3);
  return buf;
}

/* A sink's lag against the clock that grows faster than this (ms a
 * second) is said under its rate: BEHIND's threshold, 3 s after a minute */
#define GP_VERDICT_LATE_GROWING_MS_PER_S 50.0

/* How far @got falls short of @target, as the line's verdict. */
static void
gp_verdict_rate_judge (GString * line, gdouble got, gdouble target)
{
  if (got < 0 || target <= 0)
    return;
  if (got < target * 0.95)
    g_string_append_printf (line, "  %.0f%% below", (target - got) / target *
        100.0);
  else if (got > target * 1.05)
    g_string_append (line, "  faster (not paced)");
  else
    g_string_append (line, "  ok");
}

/* A sink's line's verdict: its rate against its target, unless it
 * stopped (STOPPED): then what it lost is the gap, which its steady rate
 * does not count where the gap lasts to the end. */
static void
gp_verdict_rate_sink_judge (GString * line, GpSession * s,
    const gchar * sink, gdouble got, gdouble target)
{
  GpFinding *stop = gp_session_find_finding (s, "STOPPED", sink);

  if (stop != NULL)
    g_string_append_printf (line, "  but stopped for %.1f s (STOPPED)",
        gp_json_get_double (stop->evidence, "gap_s", 0));
  else
    gp_verdict_rate_judge (line, got, target);
}

/* A video stream faster than real time beyond this (a transcode, a remux,
 * a decode into a sink that does not sync) reads in media seconds a
 * second, as audio does: "2531.9 fps" says nothing of how fast the job
 * goes, "84.40x real time" does. At real time, and within what a paced
 * stream's rate wobbles on a loaded machine (a live source catching up),
 * it reads in fps against its caps. */
#define GP_VERDICT_FASTER_X 1.5

/* A video stream's speed against real time: its fps against the caps'
 * framerate, else its media time a second (buffer durations, where the
 * caps say no rate); < 0 when neither says. */
static gdouble
gp_verdict_video_x (gdouble media_per_s, gdouble fps, gdouble target)
{
  if (fps >= 0 && target > 0)
    return fps / target;
  return media_per_s > 0 ? media_per_s : -1;
}

/* A video rate: "30.0 fps of 30.0 fps (caps)", or faster than real time
 * "84.40x real time (video: 2531.9 fps of 30.0 fps)"; @sink_line: a sink's
 * own line, in its column, which names the media when it is @video (a
 * stream's line names it first). */
static void
gp_verdict_rate_video (GString * line, gdouble fps, gdouble target,
    gdouble media_per_s, gboolean sink_line, gboolean video)
{
  gdouble x = gp_verdict_video_x (media_per_s, fps, target);

  if (x > GP_VERDICT_FASTER_X) {
    g_string_append_printf (line, "%5.2fx real time (%s%.1f fps", x,
        sink_line && video ? "video: " : "", fps);
    if (target > 0)
      g_string_append_printf (line, " of %.1f fps", target);
    g_string_append_c (line, ')');
    return;
  }
  /* a sink's line in its column; a stream's after its name */
  g_string_append_printf (line, sink_line ? "%7.1f fps" : "%.1f fps", fps);
  if (target <= 0)
    g_string_append (line, ", target not known (no framerate in caps)");
  else
    g_string_append_printf (line, " of %.1f fps%s", target, sink_line ?
        " (caps)" : "");
}

/* Under a muxed or RTP output, each elementary stream at its last link
 * before the muxer or payloader (gp-session-streams.h): "video into
 * mp4mux0: 14.2 fps of 30.0 fps", since the output's buffers per second
 * say nothing of its frames. */
static void
gp_verdict_rate_streams (GpVerdictText * vt, GpSession * s,
    GpSinkSummary * sk)
{
  GArray *streams = gp_session_streams_of (s, sk->name);
  guint i;

  for (i = 0; i < streams->len; i++) {
    GpStream *st = &g_array_index (streams, GpStream, i);
    GString *line = g_string_new ("    ");

    if (g_strcmp0 (st->into, sk->name) == 0) {
      g_string_free (line, TRUE);
      continue;                 /* the sink's own line says it */
    }
    g_string_append_printf (line, "%s into %s: ", st->kind == GP_MEDIA_VIDEO ?
        "video" : "audio", st->into);
    if (st->kind == GP_MEDIA_VIDEO && st->fps >= 0) {
      gp_verdict_rate_video (line, st->fps, st->target_fps, st->media_per_s,
          FALSE, TRUE);
      gp_verdict_rate_judge (line, st->fps, st->target_fps);
    } else if (st->kind == GP_MEDIA_AUDIO && st->media_per_s >= 0) {
      g_string_append_printf (line, "%.2fx real time", st->media_per_s);
    } else {
      g_string_append (line, "rate not measured");
    }
    g_string_append_c (line, '\n');
    g_string_append (vt->out, line->str);
    g_string_free (line, TRUE);
  }
  g_array_unref (streams);
}

/* How late a sink's buffers were against the clock, when it grew: a
 * live pipeline that falls behind real time (summary.sinks' late_ms). */
static void
gp_verdict_rate_late (GpVerdictText * vt, GpSinkSummary * sk)
{
  gchar *note;

  if (sk->late_ms.p50 < 0 || !isfinite (sk->late_trend_ms_per_s) ||
      sk->late_trend_ms_per_s <= GP_VERDICT_LATE_GROWING_MS_PER_S)
    return;
  note = g_strdup_printf ("behind live: buffers arrive %.0f ms late against "
      "the clock at the median, %.0f ms at the worst, and %.0f ms later "
      "every second", sk->late_ms.p50, sk->late_ms.max,
      sk->late_trend_ms_per_s);
  gp_verdict_wrap (vt->out, "    ", "    ", note);
  g_free (note);
}

/* Rates within this share of each other are the same rate (the steady
 * state's own jitter), not repeats. */
#define GP_VERDICT_REPEAT_MIN 0.03

/* An integer property of @e as the graph holds it (its value at the end
 * of the run), -1 when absent. */
static gint64
gp_verdict_prop_int (const GpElement * e, const gchar * prop)
{
  JsonNode *n;

  if (e->props == NULL || !json_object_has_member (e->props, prop))
    return -1;
  n = json_object_get_member (e->props, prop);
  if (json_node_get_value_type (n) != G_TYPE_INT64)
    return -1;
  return json_node_get_int (n);
}

/* An intervideosrc @src repeats its stored frame until a new one comes,
 * and flags each repeat GAP: counted from its buffers (the link's `gap`),
 * said as a note under the sink. Where its buffers were not counted (an
 * older session), what an intervideosink of the same channel in this
 * session receives says it: the frames it sends beyond those are the
 * repeats. */
static void
gp_verdict_rate_inter_repeats (GpVerdictText * vt, GpSession * s,
    const GpElement * src)
{
  const gchar *channel;
  GpLink *out = gp_session_link_out_of (s, src->name);
  GpLinkSummary *ls = out ? gp_session_find_link_summary (s, out->id) : NULL;
  gchar *note = NULL;
  guint i;

  if (ls == NULL || ls->fps <= 0)
    return;
  if (ls->gap > 0 && ls->buffers > 0) {
    if (ls->gap >= ls->buffers * GP_VERDICT_REPEAT_MIN)
      note = g_strdup_printf ("%s (intervideosrc) repeated %" G_GUINT64_FORMAT
          " of its %" G_GUINT64_FORMAT " frames (%.0f %%, each flagged GAP): "
          "its feed comes at under its %.1f fps", src->name, ls->gap,
          ls->buffers, 100.0 * ls->gap / ls->buffers, ls->fps);
  } else if (src->props != NULL && json_object_has_member (src->props,
          "channel")) {
    channel = json_object_get_string_member (src->props, "channel");
    for (i = 0; note == NULL && s->elements && i < s->elements->len; i++) {
      GpElement *e = g_ptr_array_index (s->elements, i);
      GpSinkSummary *fed = gp_session_find_sink (s, e->name);

      if (g_strcmp0 (e->factory, "intervideosink") != 0 || fed == NULL
          || e->props == NULL
          || !json_object_has_member (e->props, "channel")
          || g_strcmp0 (json_object_get_string_member (e->props, "channel"),
              channel) != 0 || fed->fps <= 0
          || fed->fps >= ls->fps * (1.0 - GP_VERDICT_REPEAT_MIN))
        continue;
      note = g_strdup_printf ("%s (intervideosrc) sends %.1f fps of what %s "
          "receives at %.1f: about %.0f %% of its frames are repeats",
          src->name, ls->fps, e->name, fed->fps,
          100.0 * (1.0 - fed->fps / ls->fps));
    }
  }
  if (note)
    gp_verdict_wrap (vt->out, "    ", "    ", note);
  g_free (note);
}

/* The frames a videorate upstream of @sink repeated or dropped (its own
 * "duplicate", "drop" and "out" counts): a 25 fps feed read at 30 shows a
 * sixth of its frames twice, and the sink's 30 fps counts each repeat; and
 * those an intervideosrc upstream showed again. */
static void
gp_verdict_rate_repeats (GpVerdictText * vt, GpSession * s, const gchar * sink)
{
  GHashTable *up = gp_session_upstream_of (s, sink);
  guint i;

  for (i = 0; s->elements && i < s->elements->len; i++) {
    GpElement *e = g_ptr_array_index (s->elements, i);
    gint64 dup, drop, out;
    gchar *note;

    if (!g_hash_table_contains (up, e->name))
      continue;
    if (g_strcmp0 (e->factory, "intervideosrc") == 0)
      gp_verdict_rate_inter_repeats (vt, s, e);
    if (g_strcmp0 (e->factory, "videorate") != 0)
      continue;
    dup = gp_verdict_prop_int (e, "duplicate");
    drop = gp_verdict_prop_int (e, "drop");
    out = gp_verdict_prop_int (e, "out");
    if (out <= 0 || (dup <= 0 && drop <= 0))
      continue;
    note = g_strdup_printf ("%s (videorate) repeated %" G_GINT64_FORMAT
        " of its %" G_GINT64_FORMAT " frames (%.0f %%) and dropped %"
        G_GINT64_FORMAT ": the rate counts each repeat", e->name,
        MAX (dup, 0), out, 100.0 * MAX (dup, 0) / out, MAX (drop, 0));
    gp_verdict_wrap (vt->out, "    ", "    ", note);
    g_free (note);
  }
  g_hash_table_unref (up);
}

/* Each sink in its own media (gp-session.h, GpSinkSummary). */
void
gp_verdict_rate (GpVerdictText * vt, GpSession * s)
{
  GString *control;
  gchar b[32];
  guint i;

  gp_verdict_heading (vt, "Rate (steady state at each sink, in its own media)");
  if (gp_session_never_played (s)) {
    g_string_append (vt->out, "  not measured (the pipeline never played)\n");
    return;
  }
  if (s->sinks == NULL || s->sinks->len == 0) {
    g_string_append (vt->out, "  not measured (no sink received a buffer)\n");
    return;
  }
  control = g_string_new (NULL);
  for (i = 0; i < s->sinks->len; i++) {
    GpSinkSummary *sk = g_ptr_array_index (s->sinks, i);
    GpMediaKind kind = gp_media_kind_from_name (sk->media);
    GString *line;
    gboolean streams = FALSE;
    const gchar *what;
    gboolean brief;             /* played too little for a rate */

    if (gp_session_sink_is_control (s, sk->name, &what)) {
      g_string_append_printf (control, "%s%s (%s)", control->len ? ", " : "",
          sk->name, what);
      continue;
    }
    line = g_string_new ("  ");
    gp_verdict_name_cell (line, sk->name, 22);
    brief = gp_session_sink_played_briefly (s, sk,
        GP_SESSION_RATE_MIN_PLAYED_S);
    if (sk->fps < 0) {
      g_string_append (line, "  rate not measured");
    } else if (brief) {
      GpPlayingSpan span;

      gp_session_playing_span (s, &span);
      g_string_append_printf (line, "  rate not measured: played %.1f s "
          "(from %.1f s)", gp_session_sink_played_s (s, sk), span.t0);
    } else if (kind == GP_MEDIA_AUDIO) {
      gdouble target = gp_session_sink_target_media_rate (s, sk->name);

      if (sk->media_per_s >= 0)
        g_string_append_printf (line, "%5.2fx real time (audio)",
            sk->media_per_s);
      else
        g_string_append_printf (line, "%7.1f buffers/s (audio, no "
            "durations)", sk->fps);
      gp_verdict_rate_sink_judge (line, s, sk->name, sk->media_per_s,
          target);
    } else if (kind == GP_MEDIA_RTP || kind == GP_MEDIA_MUXED
        || kind == GP_MEDIA_OTHER) {
      g_string_append_printf (line, "%s, %.1f %s/s (%s)",
          gp_verdict_bitrate (b, sk->bytes_per_s), sk->fps,
          kind == GP_MEDIA_RTP ? "packets" : "buffers", sk->media);
      streams = TRUE;
    } else {
      gdouble target = gp_session_sink_target_fps (s, sk->name);

      gp_verdict_rate_video (line, sk->fps, target, sk->media_per_s, TRUE,
          kind == GP_MEDIA_VIDEO);
      gp_verdict_rate_sink_judge (line, s, sk->name, sk->fps, target);
    }
    g_string_append_c (line, '\n');
    g_string_append (vt->out, line->str);
    g_string_free (line, TRUE);
    if (streams)
      gp_verdict_rate_streams (vt, s, sk);
    gp_verdict_rate_late (vt, sk);
    if (kind == GP_MEDIA_VIDEO)
      gp_verdict_rate_repeats (vt, s, sk->name);
    /* a receiver that waited for its first keyframe, a branch that opened
     * late: its rate is the steady state after its start-up */
    if (sk->first_s > 2 * s->window_s && s->window_s > 0 && !brief) {
      gchar *note = g_strdup_printf ("first buffer after %.1f s; the rate "
          "is the steady state after it", sk->first_s);

      gp_verdict_wrap (vt->out, "    ", "    ", note);
      g_free (note);
    }
  }
  if (control->len > 0) {
    g_string_prepend (control, "control traffic, not a stream, left out: ");
    gp_verdict_wrap (vt->out, "  ", "    ", control->str);
  }
  g_string_free (control, TRUE);
}
