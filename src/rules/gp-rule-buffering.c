/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-rule-buffering.c: BUFFERING, playback that paused to refill its
 * buffer.  A buffering element (queue2, or a multiqueue with
 * use-buffering: playbin's and uridecodebin's over a network) says how
 * full it is; gst-launch-1.0, playbin applications and `gstprof run` pause
 * the pipeline while it is below full and play again once it is full.
 * Each pause after the first fill is a stop the viewer sees (a spinner, a
 * frozen picture), whether or not a rule knows why: a symptom.  Its cause,
 * where one is measured, is the source that supplies the data too slowly.
 * Thresholds and reasons: docs/rules.md.
 */
#include "gp-rules-private.h"

/* Pauses adding up to less than this are a hiccup a viewer hardly sees:
 * info. */
#define GP_BUFFERING_MIN_S 0.5
/* ... and a fifth of the playing time paused or more is playback nobody
 * would watch: high. */
#define GP_BUFFERING_HIGH_PCT 20.0

/* The element whose pauses add up to the most, and their total. */
static const gchar *
gp_buffering_worst (GArray * pauses, gdouble * total_s, gdouble * longest_s)
{
  GHashTable *by = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
      g_free);
  const gchar *worst = NULL;
  gdouble most = -1;
  guint i;

  *total_s = *longest_s = 0;
  for (i = 0; i < pauses->len; i++) {
    GpBufferingPause *p = &g_array_index (pauses, GpBufferingPause, i);
    gdouble *sum = g_hash_table_lookup (by, p->source);

    if (sum == NULL) {
      sum = g_new0 (gdouble, 1);
      g_hash_table_insert (by, (gpointer) p->source, sum);
    }
    *sum += p->t1 - p->t0;
    *longest_s = MAX (*longest_s, p->t1 - p->t0);
    if (*sum > most) {
      most = *sum;
      worst = p->source;
    }
  }
  g_hash_table_unref (by);
  *total_s = most;
  return worst;
}

/* The media a second reaching a video or audio sink @element feeds: what
 * the supply's rate bought (<= 0: none known). */
static gdouble
gp_buffering_media_x (GpSession * s, const gchar * element)
{
  guint i;

  for (i = 0; s->sinks && i < s->sinks->len; i++) {
    GpSinkSummary *sk = g_ptr_array_index (s->sinks, i);
    GpMediaKind kind = gp_media_kind_from_name (sk->media);
    gdouble x;

    if ((kind == GP_MEDIA_VIDEO || kind == GP_MEDIA_AUDIO) &&
        gp_session_feeds (s, element, sk->name) &&
        (x = gp_session_sink_media_x (s, sk)) > 0)
      return x;
  }
  return -1;
}

gboolean
gp_rule_buffered (GpSession * s, const gchar * sink)
{
  guint i;

  for (i = 0; s->findings && i < s->findings->len; i++) {
    GpFinding *f = g_ptr_array_index (s->findings, i);

    if (g_strcmp0 (f->rule, "BUFFERING") == 0 &&
        gp_severity_weight (f->severity) >=
        gp_severity_weight (GP_SEVERITY_MEDIUM) &&
        json_object_has_member (f->evidence, "element") &&
        gp_session_feeds (s, json_object_get_string_member (f->evidence,
                "element"), sink))
      return TRUE;
  }
  return FALSE;
}

/* The cause, where one is measured: the source that supplies @where too
 * slowly (as SLOW names it), into @f's evidence, @why and its fix. */
static void
gp_buffering_cause (GpSession * s, GpFinding * f, const gchar * where,
    GString * why)
{
  GHashTable *up = gp_session_upstream_of (s, where);
  gdouble supply = -1, wait = -1, x = gp_buffering_media_x (s, where);
  GpElementSummary *supplier = gp_rule_supplier (s, up, &supply, &wait);

  g_hash_table_unref (up);
  if (supplier) {
    gp_finding_add_target (f, supplier->name);
    gp_finding_set_string (f, "supplier", supplier->name);
    gp_finding_set_double (f, "supply_mbps", supply * 8 / 1e6);
    if (x > 0)
      gp_finding_set_double (f, "needed_mbps", supply * 8 / 1e6 / x);
  }
  if (supplier && x > 0)
    g_string_append_printf (why, " %s waited for its data %.0f%% of the run "
        "and delivered %.2f Mbit/s, where playing the stream in real time "
        "takes %.2f Mbit/s: the supply is the limit.", supplier->name, wait,
        supply * 8 / 1e6, supply * 8 / 1e6 / x);
  else if (supplier)
    g_string_append_printf (why, " %s waited for its data %.0f%% of the run "
        "(%.2f Mbit/s): the supply is the limit.", supplier->name, wait,
        supply * 8 / 1e6);
  else
    g_string_append (why, " Cause not identified: no source before it was "
        "seen waiting for its data.");
  g_free (f->why);
  f->why = g_string_free (why, FALSE);
  g_free (f->fix);
  f->fix = supplier ? gp_rule_supply_fix (s, supplier) :
      g_strdup_printf ("Look at what feeds %s: the server, the network or "
      "the storage it reads from; a stream of a lower bitrate; or more "
      "data ahead before playing (playbin's buffer-duration and "
      "buffer-size, queue2's high-watermark).", where);
}

/* A buffering element that was never full again: playback that waited
 * for a fill that never came (the pipeline never played), or a stream
 * that ran dry for good. */
static void
gp_buffering_unfilled (GpSession * s, const GpRule * rule)
{
  gdouble waited, share;
  const gchar *where = gp_session_buffering_unfilled (s, &waited);
  GString *why;
  gchar *title;
  GpFinding *f;

  if (where == NULL || waited < GP_BUFFERING_MIN_S || s->duration_s <= 0)
    return;
  share = MIN (100.0, 100.0 * waited / s->duration_s);
  title = g_strdup_printf ("%s was below full for the last %.1f s of the "
      "run (%.0f%%) and never full again: playback waited for data that "
      "did not come", where, waited, share);
  f = gp_rule_add_finding (s, rule, share >= GP_BUFFERING_HIGH_PCT ?
      GP_SEVERITY_HIGH : GP_SEVERITY_MEDIUM, title);
  g_free (title);
  gp_finding_add_target (f, where);
  f->rank_value = share;
  gp_finding_set_string (f, "element", where);
  gp_finding_set_double (f, "unfilled_s", waited);
  gp_finding_set_double (f, "unfilled_pct", share);
  why = g_string_new (NULL);
  g_string_append_printf (why, "%s holds the data ahead of playback and "
      "was still below full when the run ended: a pipeline that handles "
      "buffering (gst-launch-1.0, playbin applications, gstprof run) stays "
      "PAUSED until it is full, so nothing played in that time.", where);
  gp_buffering_cause (s, f, where, why);
}

void
gp_rule_buffering (GpSession * s, const GpRule * rule)
{
  GArray *pauses = g_array_new (FALSE, FALSE, sizeof (GpBufferingPause));
  gdouble fill, total, longest, playing, pct;
  gboolean paused = TRUE;
  GpPlayingSpan span;
  const gchar *where;
  GString *why;
  gchar *title;
  GpFinding *f;
  guint n = 0, i;

  gp_session_buffering_pauses (s, pauses, &fill);
  where = gp_buffering_worst (pauses, &total, &longest);
  gp_session_playing_span (s, &span);
  /* of the PLAYING time: after the first fill where the pipeline waited
   * for it, as gst-launch-1.0 and gstprof run do */
  playing = span.t1 - span.t0;
  if (where == NULL || playing <= 0) {
    g_array_unref (pauses);
    gp_buffering_unfilled (s, rule);
    return;
  }
  for (i = 0; i < pauses->len; i++) {
    GpBufferingPause *p = &g_array_index (pauses, GpBufferingPause, i);

    if (g_strcmp0 (p->source, where) == 0) {
      n++;
      paused &= p->paused;
    }
  }
  pct = MIN (100.0, 100.0 * total / playing);

  /* an application that does not pause on buffering plays on what is
   * left: the same starved stream, said as it happened */
  if (paused)
    title = g_strdup_printf ("playback paused %u time%s to refill %s's "
        "buffer: %.1f s of %.1f s (%.0f%%)", n, n == 1 ? "" : "s", where,
        total, playing, pct);
  else
    title = g_strdup_printf ("%s ran below full %u time%s, %.1f s of %.1f s "
        "(%.0f%%): playback starved of data", where, n, n == 1 ? "" : "s",
        total, playing, pct);
  f = gp_rule_add_finding (s, rule, total < GP_BUFFERING_MIN_S ?
      GP_SEVERITY_INFO : pct >= GP_BUFFERING_HIGH_PCT ? GP_SEVERITY_HIGH :
      GP_SEVERITY_MEDIUM, title);
  g_free (title);
  gp_finding_add_target (f, where);
  f->rank_value = pct;
  gp_finding_set_string (f, "element", where);
  gp_finding_set_int (f, "pauses", n);
  json_object_set_boolean_member (f->evidence, "paused", paused);
  gp_finding_set_double (f, "paused_s", total);
  gp_finding_set_double (f, "paused_pct", pct);
  gp_finding_set_double (f, "longest_s", longest);
  if (fill >= 0)
    gp_finding_set_double (f, "startup_fill_s", fill);

  why = g_string_new (NULL);
  if (paused)
    g_string_append_printf (why, "%s holds the data ahead of playback; "
        "each time it ran below full, the pipeline paused until it was full "
        "again (as gst-launch-1.0 and playbin applications do): %u pause%s, "
        "the longest %.1f s, what a viewer sees as a frozen picture or a "
        "spinner.", where, n, n == 1 ? "" : "s", longest);
  else
    g_string_append_printf (why, "%s holds the data ahead of playback and "
        "ran below full %u time%s, the longest %.1f s; the application did "
        "not pause the pipeline to refill it, so playback went on with "
        "what was left: stutter, late or dropped frames.", where, n,
        n == 1 ? "" : "s", longest);
  gp_buffering_cause (s, f, where, why);
  g_array_unref (pauses);
}
