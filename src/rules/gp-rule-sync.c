/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-rule-sync.c: SYNC, a sink that synchronises to the clock on a path
 * fed by a live source.
 *
 * When latency matters: a live source upstream of the sink. A live source
 * timestamps each frame with the clock at capture, and a sink with
 * sync=true then holds every frame until running time + the pipeline's
 * latency: the frame waits in the sink for the rest of the latency budget
 * even when it could have gone out at once. Without a live source,
 * sync=true is what paces playback of a file at real time and is wanted, so
 * SYNC stays silent. Audio sinks are left out: they need the clock to play
 * at the right speed.
 *
 * Only a sink that measurably holds its buffers (GP_SYNC_HELD_MIN_MS) is a
 * finding: an RTP sender whose packets go out within microseconds of
 * arriving gains nothing from sync=false. Display sinks and network
 * senders want sync=true (an even pace on screen; packets paced at the
 * stream's rate rather than in bursts), and so does a fakesink standing in
 * for a display: there the finding is info, with the trade-off. Medium is
 * for a sink that hands frames on (intervideosink, shmsink): what it holds
 * is latency for whoever reads them.
 *
 * An appsink is left out: its new-sample callback runs on the streaming
 * thread and a full appsink waits for the application to pull, so the time
 * it holds a buffer is the application's work as much as the clock's, and
 * the two cannot be told apart here (the verdict's Waiting section says
 * so). A sink inside a display bin (fpsdisplaysink, autovideosink) is a
 * display.
 *
 * The value is the real one recorded at PLAYING (defaults included: fakesink
 * defaults to sync=false, appsink and the video sinks to sync=true). An
 * imported session that only holds non-default properties does not say, and
 * the rule does not guess. Thresholds and reasons: docs/rules.md.
 *
 * PACE is the other side, a symptom: an offline job (no live source, a
 * sink that hands data on: a file, an application) that sync=true holds to
 * real time, so it takes as long as its media lasts.
 */
#include "gp-rules-private.h"
#include "core/gp-session-streams.h"

#include <math.h>
#include <string.h>

/* Sinks that must follow the clock to play correctly: sync=false would
 * make them play too fast or glitch, whatever the latency. */
static const gchar *const gp_sync_audio_sinks[] = {
  "alsasink", "pulsesink", "pipewiresink", "jackaudiosink", "osssink",
  "oss4sink", "autoaudiosink", "osxaudiosink", "wasapisink", "wasapi2sink",
  "directsoundsink", "openslessink", "openalsink", "sndiosink", NULL
};

/* A sink that holds each buffer less than this at the median waits for
 * nothing worth removing: scheduling noise, not the clock. */
#define GP_SYNC_HELD_MIN_MS 1.0

/* Sinks that show frames to a person: sync=true gives the even pace. */
static const gchar *const gp_sync_display_sinks[] = {
  "xvimagesink", "ximagesink", "glimagesink", "glimagesinkelement",
  "autovideosink", "waylandsink", "kmssink", "fbdevsink", "gtksink",
  "gtkglsink", "gtk4paintablesink", "qmlglsink", "qml6glsink",
  "d3dvideosink", "d3d11videosink", "d3d12videosink", "osxvideosink",
  "nv3dsink", "nveglglessink", "nvoverlaysink", "nvdrmvideosink",
  "clutterautovideosink", "aasink", "cacasink", "fpsdisplaysink", NULL
};

/* Sinks that throw their frames away: with sync=true (fakesink's own
 * default is false, so someone chose it; fakevideosink's is true, as the
 * display it imitates) one stands in for a display, keeping its pace,
 * and nobody sees the latency it adds (a shared-memory consumer into
 * fakesink sync=true was told, at medium, to give up the pace it was set
 * for). */
static const gchar *const gp_sync_stand_in_sinks[] = {
  "fakesink", "fakevideosink", NULL
};

/* Bins nested deeper than this are not followed up. */
#define GP_SYNC_MAX_DEPTH 16

/* TRUE when @e, or a bin it is in, is a display sink. */
static gboolean
gp_sync_is_display (GpSession * s, GpElement * e)
{
  guint depth;

  for (depth = 0; e && depth < GP_SYNC_MAX_DEPTH; depth++) {
    if (e->factory && g_strv_contains (gp_sync_display_sinks, e->factory))
      return TRUE;
    e = e->parent && *e->parent ? gp_session_find_element (s, e->parent) :
        NULL;
  }
  return FALSE;
}

/* Sinks that send to a receiver: sync=true paces the packets. */
static const gchar *const gp_sync_network_sinks[] = {
  "udpsink", "multiudpsink", "dynudpsink", "tcpserversink",
  "tcpclientsink", "srtsink", "srtserversink", "srtclientsink", "ristsink",
  "rtspclientsink", "rtmpsink", "rtmp2sink", "webrtcsink", "whipsink",
  "whipclientsink", "shout2send", NULL
};

static gboolean
gp_sync_is_audio_sink (const gchar * factory)
{
  if (factory == NULL)
    return FALSE;
  return g_strv_contains (gp_sync_audio_sinks, factory) ||
      strstr (factory, "audiosink") != NULL;
}

/* The first live source feeding @sink, or NULL. */
static gchar *
gp_sync_live_source (GpSession * s, const gchar * sink)
{
  GHashTable *up = gp_session_upstream_of (s, sink);
  GHashTableIter it;
  gpointer key;
  gchar *found = NULL;

  g_hash_table_iter_init (&it, up);
  while (g_hash_table_iter_next (&it, &key, NULL)) {
    if (g_strcmp0 (key, sink) != 0 && gp_session_is_live_source (s, key)) {
      /* Deterministic among several live sources: the smallest name. */
      if (found == NULL || g_strcmp0 (key, found) < 0) {
        g_free (found);
        found = g_strdup (key);
      }
    }
  }
  g_hash_table_unref (up);
  return found;
}

/* The edit that sets @sink's sync to false. */
static GPtrArray *
gp_sync_patch (const gchar * sink)
{
  GPtrArray *patch = gp_launch_patch_new ();

  g_ptr_array_add (patch, gp_launch_op_set_bool (sink, "sync", FALSE));
  return patch;
}

void
gp_rule_sync (GpSession * s, const GpRule * rule)
{
  guint i;

  for (i = 0; s->elements && i < s->elements->len; i++) {
    GpElement *e = g_ptr_array_index (s->elements, i);
    GpElementSummary *es;
    const GpQuantiles *held;
    gboolean sync, display, network, stand_in;
    gchar *live, *title;
    gdouble period, target;
    GpFinding *f;

    if (e->is_bin || !gp_session_is_sink (s, e->name))
      continue;
    /* Only the recorded value: absent means the element has no such
     * property (gstprof records every one) or an import that does not
     * say; neither is evidence. */
    if (!gp_element_get_prop_bool (e, "sync", &sync) || !sync)
      continue;
    if (gp_sync_is_audio_sink (e->factory) ||
        g_strcmp0 (e->factory, "appsink") == 0)
      continue;
    live = gp_sync_live_source (s, e->name);
    if (live == NULL)
      continue;

    /* Only a sink that measurably holds buffers is worth a word. */
    es = gp_session_find_elem_summary (s, e->name);
    held = es ? gp_session_held_ms (es) : NULL;
    if (held == NULL || held->p50 < GP_SYNC_HELD_MIN_MS) {
      g_free (live);
      continue;
    }
    display = gp_sync_is_display (s, e);
    network = e->factory && g_strv_contains (gp_sync_network_sinks,
        e->factory);
    stand_in = !display && e->factory &&
        g_strv_contains (gp_sync_stand_in_sinks, e->factory);

    title = g_strdup_printf ("%s has sync=true on a path fed by the live "
        "source %s%s", e->name, live, display ? " (a display: usually "
        "wanted)" : network ? " (a sender: usually wanted)" : stand_in ?
        " (a stand-in for a display, keeping its pace: usually wanted)" :
        "");
    f = gp_rule_add_finding (s, rule, display || network || stand_in ?
        GP_SEVERITY_INFO : GP_SEVERITY_MEDIUM, title);
    g_free (title);
    gp_finding_add_target (f, e->name);

    gp_finding_set_string (f, "factory", e->factory);
    gp_finding_set_string (f, "sync", "true");
    gp_finding_set_string (f, "live_source", live);
    target = gp_session_sink_target_fps (s, e->name);
    period = target > 0 ? 1000.0 / target : s->frame_period_ms;
    if (period > 0)
      gp_finding_set_double (f, "frame_period_ms", period);
    /* With sync=true the sink's wait per buffer is mostly the wait for
     * the clock: what sync=false would give back. */
    gp_finding_set_double (f, "held_p50_ms", held->p50);
    if (held->p95 >= 0)
      gp_finding_set_double (f, "held_p95_ms", held->p95);
    gp_finding_set_int (f, "buffers", (gint64) es->buffers);
    if (period > 0)
      f->rank_value = MIN (100.0, held->p50 / period * 100.0);

    g_free (f->why);
    f->why = g_strdup_printf ("%s timestamps frames when it captures them; "
        "with sync=true, %s holds each frame until its running time plus "
        "the pipeline latency before rendering it (%.1f ms at the median "
        "here), so every frame waits in the sink for whatever is left of "
        "the latency budget.%s", live, e->name, held->p50, display ?
        " On a display that wait is what shows each frame at its time, "
        "evenly, and in step with audio; sync=false shows frames as they "
        "come, sooner but unevenly." : network ? " A sender with sync=true "
        "sends each frame at its time, so the receiver's jitter buffer sees "
        "an even stream; sync=false sends as soon as a frame is encoded, "
        "sooner but in bursts." : stand_in ? " It throws its frames away, "
        "so nobody sees that wait: sync=true on it keeps the pace a display "
        "would, sync=false runs the pipeline as fast as frames come." :
        " For control, analysis or a "
        "hand-off to an application, rendering as soon as the frame "
        "arrives (sync=false) takes that wait off the end-to-end latency.");
    g_free (f->fix);
    f->fix = display || network || stand_in ?
        g_strdup_printf ("Keep sync=true on %s unless the lowest latency "
        "matters more than an even pace: then sync=false takes %.1f ms "
        "off.", e->name, held->p50) :
        g_strdup_printf ("Set sync=false on %s (keep sync=true when "
        "frames must be handed on at an even pace, or audio and video must "
        "stay in step).", e->name);
    /* the fix text of a display, a sender or a stand-in says keep it:
     * no edit */
    if (!display && !network && !stand_in)
      gp_rules_attach_patch (s, f, gp_sync_patch (e->name));
    g_free (live);
  }
}

/* ------------------------------------------------------------------ */
/* PACE: an offline job held to the clock                               */

/* Sinks that hand data on rather than show or send it: nothing downstream
 * needs them on time, so a job that ends in them may run as fast as it
 * goes. fakesink is left out: it often stands in for a display. */
static const gchar *const gp_pace_offline_sinks[] = {
  "appsink", "filesink", "multifilesink", "fdsink", "giosink",
  "giostreamsink", "splitmuxsink", NULL
};

/* A job is paced by the clock when its sink waits for it this share of
 * PLAYING or more ... */
#define GP_PACE_WAIT_PCT 50.0
/* ... and gets its media at real time, within this: a pace the clock
 * sets, not the application's or a slow element's. */
#define GP_PACE_REAL_TIME_TOLERANCE 0.05
/* Runs shorter than this cannot lose enough to matter. */
#define GP_PACE_MIN_S 2.0
/* A sender with nothing live upstream and sync=false sends as fast as it
 * reads: a stream into it at this many times real time or more is
 * unpaced (a file's 10 s of video went out in 0.02 s, and a receiver on
 * the same machine lost 228 of 2333 packets); a little above real time is
 * a source catching up. */
#define GP_PACE_UNPACED_X 2.0

/* The fastest stream into @sink against real time (its media time a
 * second, or its frames a second against its framerate), in @x; NULL
 * when no stream says. */
static GpStream *
gp_pace_fastest_stream (GArray * streams, gdouble * x)
{
  GpStream *best = NULL;
  guint i;

  *x = -1;
  for (i = 0; i < streams->len; i++) {
    GpStream *st = &g_array_index (streams, GpStream, i);
    gdouble v = st->media_per_s > 0 ? st->media_per_s :
        st->fps > 0 && st->target_fps > 0 ? st->fps / st->target_fps : -1;

    if (v > *x) {
      *x = v;
      best = st;
    }
  }
  return best;
}

/* A sink that syncs to the clock can only pace buffers that carry a PTS:
 * from this share of its input without one (a raw MJPEG or H.264 file
 * through a parser that gets no framerate, an appsrc pushing bytes) it
 * shows them as they come ... */
#define GP_PACE_NO_PTS_PCT 50.0
/* ... once it got this many: a header or two without one is normal. */
#define GP_PACE_NO_PTS_MIN 10

/* A sink with sync=true whose buffers mostly have no PTS: it cannot pace
 * them, the stream plays as fast as it is made. */
static void
gp_pace_untimed (GpSession * s, const GpRule * rule, GpSinkSummary * sk,
    GpElement * e)
{
  GpLink *in = gp_session_link_into (s, sk->name);
  GpLinkSummary *ls = in ? gp_session_find_link_summary (s, in->id) : NULL;
  gboolean sync = FALSE;
  gdouble pct;
  gchar *title;
  GpFinding *f;

  if (ls == NULL || ls->buffers == 0 || ls->no_pts < GP_PACE_NO_PTS_MIN ||
      !gp_element_get_prop_bool (e, "sync", &sync) || !sync)
    return;
  pct = 100.0 * ls->no_pts / ls->buffers;
  if (pct < GP_PACE_NO_PTS_PCT)
    return;
  title = g_strdup_printf ("%s syncs to the clock, but %" G_GUINT64_FORMAT
      " of its %" G_GUINT64_FORMAT " buffers carry no timestamp: it shows "
      "them as fast as they come", sk->name, ls->no_pts, ls->buffers);
  f = gp_rule_add_finding (s, rule, GP_SEVERITY_MEDIUM, title);
  g_free (title);
  gp_finding_add_target (f, sk->name);
  f->rank_value = MIN (100.0, pct);
  gp_finding_set_string (f, "link", in->id);
  gp_finding_set_int (f, "no_pts", (gint64) ls->no_pts);
  gp_finding_set_int (f, "buffers", (gint64) ls->buffers);
  gp_finding_set_double (f, "no_pts_pct", pct);
  gp_finding_set_double (f, "playing_s", s->duration_s);
  g_free (f->why);
  f->why = g_strdup_printf ("A sink renders a buffer when the clock reaches "
      "its timestamp; one without a timestamp it renders at once. %.0f%% of "
      "what reached %s had none, so the stream plays as fast as it is read "
      "and decoded (%.2f s for %" G_GUINT64_FORMAT " buffers here), not at "
      "its rate.", pct, sk->name, s->duration_s, ls->buffers);
  g_free (f->fix);
  f->fix = g_strdup_printf ("Give the stream timestamps before %s: a raw "
      "elementary stream belongs in a container that records them (avimux, "
      "matroskamux), or behind a parser that makes them from a framerate in "
      "the caps before it (h264parse and h265parse do; jpegparse does not "
      "in GStreamer 1.22); an appsrc needs format=time and a PTS on each "
      "buffer (or do-timestamp=true for a live feed).", sk->name);
}

/* A network sink with sync=false that nothing live feeds sends its
 * stream faster than real time: the other side of PACE. */
static void
gp_pace_unpaced_sender (GpSession * s, const GpRule * rule,
    GpSinkSummary * sk, GpElement * e)
{
  GArray *streams;
  GpStream *st;
  gboolean sync = TRUE;
  gdouble x;
  gchar *title;
  GPtrArray *patch;
  GpFinding *f;

  if (e->factory == NULL || !g_strv_contains (gp_sync_network_sinks,
          e->factory) || !gp_element_get_prop_bool (e, "sync", &sync) ||
      sync)
    return;
  if (gp_session_fed_live (s, sk->name))
    return;
  streams = gp_session_streams_of (s, sk->name);
  st = gp_pace_fastest_stream (streams, &x);
  if (st == NULL || x < GP_PACE_UNPACED_X) {
    g_array_unref (streams);
    return;
  }
  title = g_strdup_printf ("%s sends its stream %.0fx faster than real "
      "time: nothing paces it (sync=false, no live source)", sk->name, x);
  f = gp_rule_add_finding (s, rule, GP_SEVERITY_MEDIUM, title);
  g_free (title);
  gp_finding_add_target (f, sk->name);
  f->rank_value = 100.0;
  gp_finding_set_string (f, "factory", e->factory);
  gp_finding_set_string (f, "sync", "false");
  gp_finding_set_string (f, "stream_link", st->link->id);
  gp_finding_set_double (f, "media_x", x);
  g_free (f->why);
  f->why = g_strdup_printf ("Nothing live feeds %s, so the only pace is "
      "the clock, and with sync=false it does not wait for it: the media "
      "goes out as fast as it is read, %.0f times real time here. A "
      "receiver plays it at its own pace: its socket buffer and jitter "
      "buffer hold a few hundred milliseconds, and the rest of the burst "
      "is lost (a server or a player may also drop the connection).",
      sk->name, x);
  g_free (f->fix);
  f->fix = g_strdup_printf ("Set sync=true on %s: it then sends each packet "
      "at its time, as a live sender would.", e->name);
  patch = gp_launch_patch_new ();
  g_ptr_array_add (patch, gp_launch_op_set_bool (e->name, "sync", TRUE));
  gp_rules_attach_patch (s, f, patch);
  g_array_unref (streams);
}

void
gp_rule_pace (GpSession * s, const GpRule * rule)
{
  guint i;

  for (i = 0; s->sinks && i < s->sinks->len; i++) {
    GpSinkSummary *sk = g_ptr_array_index (s->sinks, i);
    GpElement *e = gp_session_find_element (s, sk->name);

    if (e != NULL) {
      gp_pace_unpaced_sender (s, rule, sk, e);
      gp_pace_untimed (s, rule, sk, e);
    }
  }
  if (s->duration_s < GP_PACE_MIN_S)
    return;
  for (i = 0; s->sinks && i < s->sinks->len; i++) {
    GpSinkSummary *sk = g_ptr_array_index (s->sinks, i);
    GpElement *e = gp_session_find_element (s, sk->name);
    GpElementSummary *es = gp_session_find_elem_summary (s, sk->name);
    gboolean sync;
    gdouble rate, wait_s, left_s;
    gchar *title;
    GpFinding *f;

    if (e == NULL || es == NULL || e->factory == NULL ||
        !g_strv_contains (gp_pace_offline_sinks, e->factory) ||
        !gp_element_get_prop_bool (e, "sync", &sync) || !sync ||
        es->wait_total_ms < 0)
      continue;
    if (gp_session_fed_live (s, sk->name))
      continue;
    rate = gp_session_sink_media_x (s, sk);
    wait_s = es->wait_total_ms / 1000.0;
    if (rate < 0 || fabs (rate - 1.0) > GP_PACE_REAL_TIME_TOLERANCE ||
        wait_s < s->duration_s * GP_PACE_WAIT_PCT / 100.0)
      continue;
    left_s = MAX (s->duration_s - wait_s, 0.0);

    title = g_strdup_printf ("%s holds an offline job to real time: it "
        "waited on the clock %.1f s of %.1f s", sk->name, wait_s,
        s->duration_s);
    f = gp_rule_add_finding (s, rule, GP_SEVERITY_MEDIUM, title);
    g_free (title);
    gp_finding_add_target (f, sk->name);
    f->rank_value = MIN (100.0, 100.0 * wait_s / s->duration_s);
    gp_finding_set_string (f, "factory", e->factory);
    gp_finding_set_string (f, "sync", "true");
    gp_finding_set_double (f, "media_x", rate);
    gp_finding_set_double (f, "playing_s", s->duration_s);
    gp_finding_set_double (f, "wait_s", wait_s);
    gp_finding_set_double (f, "would_take_s", left_s);
    g_free (f->why);
    f->why = g_strdup_printf ("Nothing live feeds %s and nothing downstream "
        "of it needs data on time, but with sync=true it holds every "
        "buffer until the clock reaches its time: the job runs at real "
        "time (%.2f s of media a second) and %s spent %.0f%% of the run "
        "waiting. Without the wait it would take about %.1f s instead of "
        "%.1f s (the work measured here; a machine with fewer free cores "
        "takes longer).", sk->name, rate, sk->name,
        100.0 * wait_s / s->duration_s, left_s, s->duration_s);
    g_free (f->fix);
    gp_rules_attach_patch (s, f, gp_sync_patch (e->name));
    f->fix = g_strdup_printf ("Set sync=false on %s (keep sync=true if the "
        "job must run at real time: a simulation of a live feed).",
        e->name);
  }
}
