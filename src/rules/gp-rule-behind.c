/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-rule-behind.c: BEHIND, a live pipeline that falls behind real time:
 * (a) an elementary stream, judged at its last link before a muxer,
 * payloader or sink (gp-session-streams.h), gets fewer frames a second
 * than its live source gives, or (b) the lateness of a sink's buffers
 * against the pipeline clock grows through the run (summary.sinks'
 * late_trend_ms_per_s), even where the path latency looks small.  Names
 * the thread and element that hold it back (the limit BUDGET finds,
 * gp_rule_budget_limit) and the fixes that help there; never a queue in
 * front of a consumer slower than the frame period, which only moves the
 * lag.  Thresholds and their reasons: docs/rules.md.
 */
#include "gp-rules-private.h"

#include <math.h>
#include <string.h>

#include "core/gp-session-streams.h"
#include "core/gp-stats.h"

/* A stream may run this far below its source's rate before it counts:
 * the first frames after PLAYING and the last before the stop make a
 * short run's rate a little low even when it keeps up (as BUDGET). */
#define GP_BEHIND_RATE_TOLERANCE 0.05
/* Fewer frames expected over the run make any rate noise ... */
#define GP_BEHIND_MIN_FRAMES 10
/* ... and audio over a shorter run: its steady state leaves out the first
 * second and the last window */
#define GP_BEHIND_MIN_AUDIO_S 3.0
/* A lag that grows this fast (ms a second) is falling behind: 3 s after
 * a minute; a pipeline that keeps up drifts by a few ms a second at most
 * (-0.1 ms/s measured with 5 ms a frame at 30/1, tests/capture/test-late.c). */
#define GP_BEHIND_TREND_MS_PER_S 50.0
/* ... over the run and over its second half alone: an encoder's lookahead
 * filling at start-up (x264enc's 40 frames, 1.3 s) raises the lag once
 * and then holds it, a start-up and not a fall */
#define GP_BEHIND_RECENT_SHARE 0.5

/* The least-squares slope (ms/s) of @link_id's lateness medians in the
 * series windows of the last @share of the run before the stop; NAN with
 * too few.  *@max_ms (may be NULL): the latest buffer in those windows. */
static gdouble
gp_behind_link_trend (GpSession * s, const gchar * link_id, gdouble share,
    gdouble * max_ms)
{
  gdouble end = s->stop_s > 0 ? s->stop_s : s->duration_s;
  gdouble from = end * (1.0 - share);
  GpTrend trend = { 0 };
  guint i;

  for (i = 0; s->series && i < s->series->len; i++) {
    JsonObject *w = g_ptr_array_index (s->series, i);
    JsonObject *links, *l;
    gdouble t0, t1;

    if (!json_object_has_member (w, GP_SERIES_T0) ||
        !json_object_has_member (w, GP_SERIES_T1) ||
        !json_object_has_member (w, GP_SERIES_LINKS))
      continue;
    t0 = json_object_get_double_member (w, GP_SERIES_T0);
    t1 = json_object_get_double_member (w, GP_SERIES_T1);
    if (t0 < from || t1 > end + 1e-6)
      continue;
    links = json_object_get_object_member (w, GP_SERIES_LINKS);
    l = links && json_object_has_member (links, link_id) ?
        json_object_get_object_member (links, link_id) : NULL;
    if (l == NULL || !json_object_has_member (l, GP_SL_LATE_MS_P50))
      continue;
    gp_trend_add (&trend, (t0 + t1) / 2,
        json_object_get_double_member (l, GP_SL_LATE_MS_P50));
    if (max_ms && json_object_has_member (l, GP_SL_LATE_MS_MAX))
      *max_ms = MAX (*max_ms,
          json_object_get_double_member (l, GP_SL_LATE_MS_MAX));
  }
  if (trend.n < GP_LATE_TREND_MIN_WINDOWS)
    return NAN;
  return gp_trend_slope (&trend);
}

/* The worst stream into @sk below its source's rate: its deficit in %,
 * 0 when none.  Audio only when @growing (a lag that grows on the way):
 * a muxer that holds the audio until the video's first frame comes (an
 * encoder's lookahead) makes a short run's audio rate low once, and the
 * live source then catches up. */
/* Whether the frames of @st all reached it over the run, its drain
 * included: as many as its framerate over the run's length (less the
 * tolerance), whatever its steady rate says. */
static gboolean
gp_behind_all_arrived (GpSession * s, const GpStream * st)
{
  GpLinkSummary *ls = gp_session_find_link_summary (s, st->link->id);

  return ls && st->target_fps > 0 && s->duration_s > 0 &&
      ls->buffers >= st->target_fps * s->duration_s *
      (1.0 - GP_BEHIND_RATE_TOLERANCE);
}

static gdouble
gp_behind_slow_stream (GpSession * s, GpSinkSummary * sk, gboolean growing,
    GpStream * worst)
{
  GArray *streams = gp_session_streams_of (s, sk->name);
  gdouble deficit = 0;
  guint i;

  for (i = 0; i < streams->len; i++) {
    GpStream *st = &g_array_index (streams, GpStream, i);
    gdouble d;

    if (st->kind == GP_MEDIA_AUDIO) {
      /* audio in media time: a live source gives a second a second */
      if (!growing || st->media_per_s < 0 ||
          s->duration_s < GP_BEHIND_MIN_AUDIO_S ||
          st->media_per_s >= 1.0 - GP_BEHIND_RATE_TOLERANCE)
        continue;
      d = (1.0 - st->media_per_s) * 100.0;
    } else if (st->fps < 0 || st->target_fps <= 0 ||
        st->target_fps * s->duration_s < GP_BEHIND_MIN_FRAMES ||
        st->fps >= st->target_fps * (1.0 - GP_BEHIND_RATE_TOLERANCE)) {
      continue;
    } else if (gp_behind_all_arrived (s, st)) {
      /* held, not lost: every frame got there, in one go at the end (a
       * splitmuxsink that cannot cut holds its whole fragment) */
      continue;
    } else {
      d = (st->target_fps - st->fps) / st->target_fps * 100.0;
    }
    if (d > deficit) {
      deficit = d;
      *worst = *st;
    }
  }
  g_array_unref (streams);
  return deficit;
}

/* The application's callback of an appsink @name: how long it holds each
 * buffer (its work and what the tracer counts as its wait: the
 * application's time, not a clock's), when that is more than a frame
 * period; else NULL. */
static GpElementSummary *
gp_behind_app_callback (GpSession * s, const gchar * name, gdouble period,
    gdouble * frame_ms)
{
  GpElement *e = gp_session_find_element (s, name);
  GpElementSummary *es = gp_session_find_elem_summary (s, name);
  gdouble ms;

  if (e == NULL || es == NULL || g_strcmp0 (e->factory, "appsink") != 0 ||
      es->self_ms.p50 < 0 || period <= 0)
    return NULL;
  ms = es->self_ms.p50;
  if (es->cpu_buffers > 0 && es->wait_ms.p50 > 0)
    ms += es->wait_ms.p50;
  if (ms < period)
    return NULL;
  *frame_ms = ms;
  return es;
}

/* A sink that does not wait for its clock but holds each buffer at least
 * a frame period (@period): its render blocks (a write to slow storage, a
 * pipe or socket nobody reads fast enough). What holds the stream back
 * when no element's work does; its held time a buffer in @held_ms. */
static GpElementSummary *
gp_behind_blocked_sink (GpSession * s, const gchar * sink, gdouble period,
    gdouble * held_ms)
{
  GpElementSummary *es = gp_session_find_elem_summary (s, sink);
  const GpQuantiles *held;

  if (es == NULL || period <= 0 || gp_session_sink_waits_on_clock (s, sink))
    return NULL;
  held = gp_session_held_ms (es);
  if (held == NULL || held->p50 < period)
    return NULL;
  *held_ms = held->p50;
  return es;
}

/* A queue on another branch of a tee on @up's way is full this share of
 * the run at its mean: the tee waits for room there before it pushes to
 * this branch too. */
#define GP_BEHIND_SIBLING_FULL_PCT 50.0

/* The full queue on another branch of a tee upstream of @sink (@up: its
 * upstream), the fullest; its tee in @tee_out. NULL when none. */
static GpQueueSummary *
gp_behind_full_sibling (GpSession * s, GHashTable * up, const gchar ** tee_out)
{
  GpQueueSummary *best = NULL;
  guint i, j;

  for (i = 0; s->elements && i < s->elements->len; i++) {
    GpElement *tee = g_ptr_array_index (s->elements, i);

    if (g_strcmp0 (tee->kind, "tee") != 0 ||
        !g_hash_table_contains (up, tee->name))
      continue;
    for (j = 0; s->queue_summaries && j < s->queue_summaries->len; j++) {
      GpQueueSummary *q = g_ptr_array_index (s->queue_summaries, j);

      /* a leaky queue drops instead of holding the tee */
      if (g_hash_table_contains (up, q->name) ||
          (q->leaky && g_strcmp0 (q->leaky, "no") != 0) ||
          q->level_pct_mean < GP_BEHIND_SIBLING_FULL_PCT ||
          (best && q->level_pct_mean <= best->level_pct_mean))
        continue;
      if (gp_session_feeds (s, tee->name, q->name)) {
        best = q;
        *tee_out = tee->name;
      }
    }
  }
  return best;
}

/* What helps a sink whose render blocks, by what it writes to. */
static void
gp_behind_blocked_fix (GpSession * s, GpElementSummary * blocked,
    gdouble held_ms, gdouble period, GString * fix)
{
  GpElement *e = gp_session_find_element (s, blocked->name);
  const gchar *factory = e && e->factory ? e->factory : "";

  if (g_str_has_suffix (factory, "filesink") ||
      g_str_equal (factory, "splitmuxsink") || g_str_equal (factory, "fdsink"))
    g_string_append_printf (fix, "What %s writes to takes less than the "
        "stream gives (%.0f ms a buffer against %.1f ms): faster storage, "
        "a compressed format before it (an encoder), or, if frames may go, "
        "a queue with leaky=downstream before it so the source is not held "
        "back.", blocked->name, held_ms, period);
  else
    g_string_append_printf (fix, "Whatever %s sends to takes less than the "
        "stream gives (%.0f ms a buffer against %.1f ms): a lower bitrate, "
        "a faster link or reader, or, if frames may go, a queue with "
        "leaky=downstream before it.", blocked->name, held_ms, period);
}

/* x264's and x265's speed presets, fastest first (their enums' nicks). */
static const gchar *const gp_behind_x26x_presets[] = {
  "ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow",
  "slower", "veryslow", "placebo", NULL
};
/* The faster presets named, the fastest first, at most this many: each
 * step about halves the work for a few % more bits. */
#define GP_BEHIND_FASTER_PRESETS 3

/* An x264enc's or x265enc's advice, from what it is already set to: only
 * presets faster than its own (the fastest, which the patch sets, first;
 * none past ultrafast), tune=zerolatency
 * unless it has it (an encoder set to veryfast and zerolatency was told to
 * use both), else the hardware encoder. */
static void
gp_behind_fix_x26x (GpElement * e, GpElementSummary * hot, gdouble frame_ms,
    const gchar * name, GString * fix, GPtrArray * patch)
{
  const gchar *preset = gp_element_get_prop_string (e, "speed-preset");
  const gchar *tune = gp_element_get_prop_string (e, "tune");
  gboolean zerolatency = tune && strstr (tune, "zerolatency") != NULL;
  guint at, i, n = 0;
  GString *faster = g_string_new (NULL);

  if (preset == NULL || *preset == '\0' || g_str_equal (preset, "None"))
    preset = "medium";
  for (at = 0; gp_behind_x26x_presets[at] &&
      g_ascii_strcasecmp (gp_behind_x26x_presets[at], preset) != 0; at++);
  if (gp_behind_x26x_presets[at] == NULL)
    at = 5;                     /* medium, x264's own default */
  /* the fastest first, ultrafast among them: what the patch sets */
  for (i = 0; i < MIN (at, GP_BEHIND_FASTER_PRESETS); i++)
    g_string_append_printf (faster, "%s%s", n++ ? (i + 1 < MIN (at,
                GP_BEHIND_FASTER_PRESETS) ? ", " : " or ") : "",
        gp_behind_x26x_presets[i]);

  g_string_append_printf (fix, "%s encodes %.1f ms a frame (speed-preset "
      "%s%s): ", hot->name, frame_ms, preset, zerolatency ?
      ", tune=zerolatency" : "");
  if (n > 0)
    g_string_append_printf (fix, "a faster preset (%s: each step about "
        "halves the work for a few %% more bits), ", faster->str);
  if (!zerolatency)
    g_string_append (fix, "tune=zerolatency, ");
  if (n == 0 && zerolatency)
    g_string_append (fix, "it is at its fastest settings already: fewer "
        "pixels before it, ");
  g_string_append_printf (fix, "or the machine's hardware %s encoder. ",
      g_str_equal (e->factory, "x264enc") ? "H.264" : "HEVC");
  if (at > 0)
    g_ptr_array_add (patch, gp_launch_op_set_string (name, "speed-preset",
            "ultrafast"));
  g_string_free (faster, TRUE);
}

/* What helps where @hot (on the limiting thread, @frame_ms a frame) holds
 * the stream back, appended to @fix; the patch that does it into @patch
 * when there is one to make on the launch string. */
static void
gp_behind_fix (GpSession * s, GpElementSummary * hot, gdouble frame_ms,
    GString * fix, GPtrArray * patch)
{
  GpElement *e = gp_session_find_element (s, hot->name);
  const gchar *factory = e && e->factory ? e->factory : "";
  gchar *ln = gp_session_launch_name (s, hot->name);
  const gchar *name = ln ? ln : hot->name;

  if (g_str_equal (factory, "appsink")) {
    g_string_append_printf (fix, "%s's time is the application's callback "
        "on the streaming thread (%.1f ms a frame): hand each sample to a "
        "worker thread of the application's own and return at once, "
        "dropping samples while the worker is busy (or pull them from "
        "another thread with max-buffers=1 drop=true). ", hot->name,
        frame_ms);
  } else if (g_str_equal (factory, "x264enc") ||
      g_str_equal (factory, "x265enc")) {
    gp_behind_fix_x26x (e, hot, frame_ms, name, fix, patch);
  } else if (g_str_equal (factory, "vp8enc") ||
      g_str_equal (factory, "vp9enc")) {
    g_string_append_printf (fix, "%s encodes %.1f ms a frame: deadline=1 "
        "(realtime) with a high cpu-used (8: fastest) and threads= the "
        "cores it may use, or a hardware encoder. ", hot->name,
        frame_ms);
    g_ptr_array_add (patch, gp_launch_op_set_int (name, "deadline", 1));
    g_ptr_array_add (patch, gp_launch_op_set_int (name, "cpu-used", 8));
  } else if (strstr (factory, "enc") != NULL) {
    g_string_append_printf (fix, "%s encodes %.1f ms a frame: a faster "
        "preset or a hardware encoder. ", hot->name, frame_ms);
  } else {
    g_string_append_printf (fix, "%s works %.1f ms a frame: make it "
        "cheaper (smaller frames before it, scaled to the size you need; "
        "its n-threads where it has one) or a hardware element for the "
        "same job. ", hot->name, frame_ms);
  }
  g_string_append_printf (fix, "Where dropping frames is acceptable, a "
      "leaky queue before %s (queue leaky=downstream max-size-buffers=2) "
      "keeps the live timing and drops what it cannot take; a plain queue "
      "only moves the lag.", hot->name);
  g_free (ln);
}

/* The link on the way to a sink (its sink element in @up) whose lag grows
 * fastest over the run and its second half, above a frame period at its
 * worst: the lag starts where the limit is, and shows there when the sink
 * says nothing (a muxer's output is late by its interleaving; an encoder
 * still filling its lookahead gives no output yet while the source's
 * thread, held in it, falls behind).  NULL when none grows. */
static const gchar *
gp_behind_upstream_growth (GpSession * s, GHashTable * up, gdouble period,
    gdouble * trend, gdouble * recent)
{
  const gchar *best = NULL;
  guint i;

  for (i = 0; s->links && i < s->links->len; i++) {
    GpLink *l = g_ptr_array_index (s->links, i);
    gchar *to = gp_pad_element (l->sink);
    gdouble mx = -1, t, r;
    gboolean on_way = g_hash_table_contains (up, to);

    g_free (to);
    if (!on_way)
      continue;
    t = gp_behind_link_trend (s, l->id, 1.0, &mx);
    if (!isfinite (t) || t <= GP_BEHIND_TREND_MS_PER_S || mx <= period)
      continue;
    r = gp_behind_link_trend (s, l->id, GP_BEHIND_RECENT_SHARE, NULL);
    if (!isfinite (r) || r <= GP_BEHIND_TREND_MS_PER_S ||
        (best && r <= *recent))
      continue;
    best = l->id;
    *trend = t;
    *recent = r;
  }
  return best;
}

static void
gp_behind_sink (GpSession * s, const GpRule * rule, GpSinkSummary * sk)
{
  GHashTable *up = gp_session_upstream_of (s, sk->name);
  GpStream worst = { 0 };
  gdouble deficit, trend = sk->late_trend_ms_per_s, recent = NAN;
  gdouble period = s->frame_period_ms, frame_ms;
  gboolean growing = FALSE;
  const gchar *late_link = NULL;
  GpElementSummary *app;
  GpRuleLimit lim;
  GpFinding *f;
  GString *title, *why, *fix;
  GPtrArray *patch;
  GpLink *in;
  GpElementSummary *blocked;
  gdouble blocked_ms = -1;
  GpQueueSummary *sibling;
  const gchar *tee = NULL;
  gchar *app_words = NULL;

  in = gp_session_link_into (s, sk->name);
  if (isfinite (trend) && trend > GP_BEHIND_TREND_MS_PER_S && in &&
      sk->late_ms.max > MAX (period, 0)) {
    recent = gp_behind_link_trend (s, in->id, GP_BEHIND_RECENT_SHARE, NULL);
    growing = isfinite (recent) && recent > GP_BEHIND_TREND_MS_PER_S;
    late_link = growing ? in->id : NULL;
  }
  if (!growing)
    late_link = gp_behind_upstream_growth (s, up, period, &trend, &recent);
  growing = late_link != NULL;
  deficit = gp_behind_slow_stream (s, sk, growing, &worst);
  if (deficit <= 0 && !growing) {
    g_hash_table_unref (up);
    return;
  }
  gp_rule_budget_limit (s, up, &lim);
  /* an element is the limit only on a saturated thread (as BUDGET) */
  if (!lim.saturated) {
    lim.hot = NULL;
    lim.app.id = NULL;
  }
  frame_ms = lim.hot ? lim.hot->self_ms.p50 : -1;
  /* an appsink's callback is the application's work on the streaming
   * thread, which the thread's busy share counts as a wait */
  app = gp_behind_app_callback (s, sk->name, period, &frame_ms);
  if (app) {
    lim.hot = app;
    lim.thread = gp_session_thread_of (s, sk->name);
  }
  blocked = lim.hot || lim.app.id ? NULL :
      gp_behind_blocked_sink (s, sk->name, period, &blocked_ms);
  sibling = lim.hot || lim.app.id || blocked ? NULL :
      gp_behind_full_sibling (s, up, &tee);
  if (lim.app.id)
    app_words = gp_app_work_words (&lim.app);

  title = g_string_new (NULL);
  if (deficit > 0 && worst.kind == GP_MEDIA_AUDIO)
    g_string_append_printf (title, "audio into %s: %.2fx real time, %.0f%% "
        "behind the live source", worst.into, worst.media_per_s, deficit);
  else if (deficit > 0)
    g_string_append_printf (title, "video into %s: %.1f fps of %.1f, %.0f%% "
        "behind the live source", worst.into, worst.fps, worst.target_fps,
        deficit);
  else
    g_string_append_printf (title, "%s falls behind live: the lag grows "
        "%.0f ms a second", sk->name, trend);
  if (lim.hot)
    g_string_append_printf (title, "; held back by %s", lim.hot->name);
  else if (lim.app.id)
    g_string_append_printf (title, "; held back by %s", app_words);
  else if (blocked)
    g_string_append_printf (title, "; held back by %s's render, blocked "
        "%.0f ms a buffer", blocked->name, blocked_ms);
  else if (sibling)
    g_string_append_printf (title, "; held back by %s, full on another "
        "branch of %s", sibling->name, tee);
  f = gp_rule_add_finding (s, rule, GP_SEVERITY_MEDIUM, title->str);
  g_string_free (title, TRUE);
  /* bench/pairs/behind.pair verified a stream below its source's rate; a
   * lag that grows with every frame delivered has no pair yet */
  if (deficit <= 0)
    gp_finding_mark_unverified (f);
  gp_finding_add_target (f, lim.hot ? lim.hot->name : sk->name);
  if (lim.hot)
    gp_finding_add_target (f, sk->name);
  /* a share like the other rules' (rank first comes from gp_rules_rank) */
  f->rank_value = deficit > 0 ? deficit :
      MIN (100.0, trend / 10.0);

  gp_finding_set_string (f, "sink", sk->name);
  if (deficit > 0) {
    gp_finding_set_string (f, "stream_link", worst.link->id);
    gp_finding_set_string (f, "into", worst.into);
    if (worst.kind == GP_MEDIA_AUDIO) {
      gp_finding_set_double (f, "media_per_s", worst.media_per_s);
    } else {
      gp_finding_set_double (f, "stream_fps", worst.fps);
      gp_finding_set_double (f, "target_fps", worst.target_fps);
    }
    gp_finding_set_double (f, "deficit_pct", deficit);
  }
  if (sk->late_ms.p50 >= 0) {
    gp_finding_set_double (f, "late_p50_ms", sk->late_ms.p50);
    gp_finding_set_double (f, "late_max_ms", sk->late_ms.max);
  }
  /* the lag's growth as a share of each second (ms/s / 10): 27 % is
   * 270 ms more behind every second */
  if (late_link)
    gp_finding_set_string (f, "late_link", late_link);
  if (isfinite (trend))
    gp_finding_set_double (f, "lag_growth_pct", trend / 10.0);
  if (isfinite (recent))
    gp_finding_set_double (f, "lag_growth_recent_pct", recent / 10.0);
  if (lim.thread) {
    gp_finding_set_string (f, "thread", lim.thread->name);
    if (lim.busy_pct >= 0 && !app)
      gp_finding_set_double (f, "thread_busy_pct", lim.busy_pct);
    gp_finding_set_double (f, "thread_cpu_pct", lim.thread->cpu_pct_mean);
  }
  if (lim.hot) {
    gp_finding_set_string (f, "limiting", lim.hot->name);
    if (frame_ms >= 0)
      gp_finding_set_double (f, app ? "callback_p50_ms" :
          "limiting_self_p50_ms", frame_ms);
  } else if (blocked) {
    gp_finding_set_string (f, "blocked_sink", blocked->name);
    gp_finding_set_double (f, "blocked_p50_ms", blocked_ms);
  } else if (sibling) {
    gp_finding_set_string (f, "full_branch_queue", sibling->name);
    gp_finding_set_string (f, "tee", tee);
    gp_finding_set_double (f, "full_branch_level_pct",
        sibling->level_pct_mean);
  } else if (lim.app.id && lim.app.handlers) {
    gp_finding_set_string (f, "limiting_handlers", lim.app.id);
    gp_finding_set_double (f, "handlers_mean_ms", lim.app.mean_ms);
    gp_finding_set_double (f, "handlers_busy_pct", lim.app.busy_pct);
  } else if (lim.app.id) {
    gp_finding_set_string (f, "limiting_probe", lim.app.id);
    gp_finding_set_double (f, "probe_mean_ms", lim.app.mean_ms);
    gp_finding_set_double (f, "probe_busy_pct", lim.app.busy_pct);
  }

  why = g_string_new (NULL);
  if (deficit > 0 && worst.kind == GP_MEDIA_AUDIO)
    g_string_append_printf (why, "The live source gives a second of audio "
        "a second and %s gets %.2f s: %.0f%% of it never gets there. ",
        worst.into, worst.media_per_s, deficit);
  else if (deficit > 0)
    g_string_append_printf (why, "The live source gives %.1f frames a "
        "second and only %.1f reach %s: %.0f%% of the frames never get "
        "there (a recording holds that many fewer). ", worst.target_fps,
        worst.fps, worst.into, deficit);
  if (late_link)
    g_string_append_printf (why, "Buffers arrive later and later against "
        "the clock (on %s), %.0f ms more every second, so the output drifts "
        "away from live however small the latency between pads looks. ",
        late_link, trend);
  if (app)
    g_string_append_printf (why, "The application's callback in %s holds "
        "the streaming thread%s%s %.1f ms a frame, longer than the %.1f ms "
        "frame period: that is what holds the stream back (the "
        "application's work, not a wait for the clock).", app->name,
        lim.thread ? " " : "", lim.thread ? lim.thread->name : "", frame_ms,
        period);
  else if (lim.thread && lim.hot)
    g_string_append_printf (why, "Thread %s is busy %.0f%% of the run, "
        "most of it in %s: that is what holds the stream back.",
        lim.thread->name, lim.busy_pct, lim.hot->name);
  else if (sibling)
    g_string_append_printf (why, "No element on this branch is busy; %s, "
        "on another branch of %s, was %.0f%% full on average: a tee pushes "
        "each buffer to every branch in turn, so while that queue has no "
        "room it waits there, and this branch gets only what the slowest "
        "branch takes.", sibling->name, tee, sibling->level_pct_mean);
  else if (blocked)
    g_string_append_printf (why, "%s does not wait for a clock, yet holds "
        "each buffer %.0f ms, longer than the %.1f ms frame period: its "
        "render blocks (the write or send does not return), and the "
        "thread that feeds it waits with it; no element's work holds the "
        "stream back.", blocked->name, blocked_ms, period);
  else if (lim.thread && lim.app.id)
    g_string_append_printf (why, "Thread %s is busy %.0f%% of the run, "
        "%.0f%% of it in %s (%.1f ms a buffer, against a %.1f ms frame "
        "period): the application's work on the streaming thread, not any "
        "element's, holds the stream back.", lim.thread->name, lim.busy_pct,
        lim.app.busy_pct, app_words, lim.app.mean_ms, period);
  else if (lim.thread)
    g_string_append_printf (why, "The busiest thread on its way, %s, is "
        "busy %.0f%%.", lim.thread->name, lim.busy_pct);
  if (s->process.measured && s->process.n_cpus > 0 &&
      s->process.cpu_pct_mean >= 90.0 * s->process.n_cpus)
    g_string_append_printf (why, " The process uses all %d CPUs of the "
        "machine.", s->process.n_cpus);
  g_free (f->why);
  f->why = g_string_free (why, FALSE);

  fix = g_string_new (NULL);
  patch = gp_launch_patch_new ();
  if (lim.hot)
    gp_behind_fix (s, lim.hot, frame_ms, fix, patch);
  else if (blocked)
    gp_behind_blocked_fix (s, blocked, blocked_ms, period, fix);
  else if (sibling)
    g_string_append_printf (fix, "Let the slow branch drop instead of "
        "holding the others: leaky=downstream on %s (with a few buffers of "
        "room, max-size-buffers=2 or so), so %s never waits for it; or make "
        "what drains %s keep up.", sibling->name, tee, sibling->name);
  else if (lim.app.id)
    g_string_append_printf (fix, "Take the %s's work off the streaming "
        "thread: copy what it needs from the buffer, hand that to a worker "
        "thread of the application's own and return at once, skipping "
        "buffers while the worker is busy. The %s cost %.1f ms a buffer "
        "here.", lim.app.handlers ? "handler" : "probe",
        lim.app.handlers ? "handlers" : "probes", lim.app.mean_ms);
  else
    g_string_append (fix, "No element stands out on the way: look at the "
        "CPU of the machine (other processes), and at what the source "
        "gives against its caps.");
  g_free (f->fix);
  f->fix = g_string_free (fix, FALSE);
  /* no edit to make (the fix is advice): the check drops the empty patch */
  gp_rules_attach_patch (s, f, patch);
  g_hash_table_unref (up);
  g_free (app_words);
}

void
gp_rule_behind (GpSession * s, const GpRule * rule)
{
  guint i;

  for (i = 0; s->sinks && i < s->sinks->len; i++) {
    GpSinkSummary *sk = g_ptr_array_index (s->sinks, i);

    /* a stopped sink's rate is not a throughput: STOPPED says it; nor is
     * one over a preroll and a few frames */
    if (s->duration_s <= 0 || gp_session_find_finding (s, "STOPPED",
            sk->name) != NULL ||
        gp_session_sink_played_briefly (s, sk,
            GP_SESSION_RATE_MIN_PLAYED_S))
      continue;
    /* not live: a file converted as fast as it goes has no real time */
    if (gp_session_fed_live (s, sk->name))
      gp_behind_sink (s, rule, sk);
  }
}

/* ------------------------------------------------------------------ */
/* SLOW: the symptom without a live source                              */

/* A sink that plays to the clock is slow when it gets less media time a
 * second than this: 5 % is what a steady rate's windows can miss by. */
#define GP_SLOW_MEDIA_RATE 0.95
/* ... high below this: half speed, every second a second late. */
#define GP_SLOW_HIGH_MEDIA_RATE 0.5
/* Runs shorter than this say little about a steady pace. */
#define GP_SLOW_MIN_S 2.0

/* SLOW's supply: a source that is not live and waited for its data this
 * share of the run or more (a network, a server, a slow disk) ... */
#define GP_SLOW_SUPPLY_WAIT_PCT 50.0

/* Sources that read from a network: their supply is a server and a link. */
static const gchar *const gp_slow_network_sources[] = {
  "souphttpsrc", "curlhttpsrc", "tcpclientsrc", "rtmpsrc", "rtmp2src",
  "srtsrc", "srtclientsrc", "ristsrc", NULL
};

gchar *
gp_rule_supply_fix (GpSession * s, const GpElementSummary * supplier)
{
  GpElement *e = gp_session_find_element (s, supplier->name);
  const gchar *factory = e ? e->factory : NULL;

  if (factory && g_strv_contains (gp_slow_network_sources, factory))
    return g_strdup_printf ("Feed %s faster: the server or the network it "
        "reads from (a closer server, a faster link), or a stream of a "
        "lower bitrate (another rendition); to play through a slow patch, "
        "buffer before playing (playbin's buffer-duration, queue2 with "
        "use-buffering), which only helps when the supply is fast enough "
        "on average.", supplier->name);
  if (factory && (g_str_equal (factory, "filesrc") ||
          g_str_equal (factory, "multifilesrc")))
    return g_strdup_printf ("%s reads slower than the stream plays: the "
        "disk, or the network file system under it, is the limit. Read from "
        "faster storage, or copy the file there first.", supplier->name);
  return g_strdup_printf ("%s delivers its data slower than the stream "
      "plays (an application that feeds it, a device, a server): feed it "
      "faster, or a stream of a lower bitrate.", supplier->name);
}

GpElementSummary *
gp_rule_supplier (GpSession * s, GHashTable * up, gdouble * bytes_per_s,
    gdouble * wait_pct)
{
  GpElementSummary *best = NULL;
  GHashTableIter it;
  gpointer key;

  *bytes_per_s = *wait_pct = -1;
  if (s->duration_s <= 0)
    return NULL;
  g_hash_table_iter_init (&it, up);
  while (g_hash_table_iter_next (&it, &key, NULL)) {
    GpElement *e = gp_session_find_element (s, key);
    GpElementSummary *es = gp_session_find_elem_summary (s, key);
    GpLink *out = gp_session_link_out_of (s, key);
    GpLinkSummary *ls = out ? gp_session_find_link_summary (s, out->id) :
        NULL;
    gdouble pct;

    if (e == NULL || es == NULL || ls == NULL ||
        g_strcmp0 (e->kind, "source") != 0 ||
        gp_session_is_live_source (s, key) || es->wait_total_ms < 0 ||
        ls->bytes_per_s <= 0)
      continue;
    pct = es->wait_total_ms / (s->duration_s * 1000.0) * 100.0;
    if (pct >= GP_SLOW_SUPPLY_WAIT_PCT && pct > *wait_pct) {
      best = es;
      *wait_pct = MIN (100.0, pct);
      *bytes_per_s = ls->bytes_per_s;
    }
  }
  return best;
}

/* Whether frames an element upstream of @sink threw away, not for
 * lateness (LOSS's "dropped": a decoder's decode errors), account for the
 * media @sink lacks at @rate seconds a second, within this many points:
 * the stream has holes, it is not slow. */
#define GP_SLOW_DROPPED_SLACK_PCT 5.0

static gboolean
gp_slow_dropped (GpSession * s, const gchar * sink, gdouble rate)
{
  GPtrArray *qos = gp_rules_qos_collect (s);
  gboolean holes = FALSE;
  guint i;

  for (i = 0; i < qos->len && !holes; i++) {
    GpQosCount *c = g_ptr_array_index (qos, i);
    guint64 handled = gp_rules_qos_handled (s, c);

    holes = c->not_late > 0 && handled > 0 &&
        gp_session_feeds (s, c->source, sink) &&
        100.0 * c->not_late / handled + GP_SLOW_DROPPED_SLACK_PCT >=
        (1.0 - rate) * 100.0;
  }
  g_ptr_array_unref (qos);
  return holes;
}

void
gp_rule_slow (GpSession * s, const GpRule * rule)
{
  guint i;

  if (s->duration_s < GP_SLOW_MIN_S)
    return;
  for (i = 0; s->sinks && i < s->sinks->len; i++) {
    GpSinkSummary *sk = g_ptr_array_index (s->sinks, i);
    GHashTable *up;
    GpRuleLimit lim;
    GpElementSummary *supplier = NULL;
    gdouble rate = gp_session_sink_media_x (s, sk), target, supply = -1;
    gdouble supply_wait = -1;
    GString *why;
    gchar *title;
    GpFinding *f;
    GpMediaKind kind = gp_media_kind_from_name (sk->media);

    /* what plays to the clock without a live source: playback of video
     * or audio (a subtitle or metadata stream comes when it has something
     * to say). A live pipeline is BEHIND's; a sink that does not sync has
     * no real time to keep; a stopped one is STOPPED's */
    if ((kind != GP_MEDIA_VIDEO && kind != GP_MEDIA_AUDIO) ||
        rate < 0 || rate >= GP_SLOW_MEDIA_RATE ||
        gp_session_sink_played_briefly (s, sk, GP_SLOW_MIN_S) ||
        !gp_session_sink_waits_on_clock (s, sk->name) ||
        gp_session_find_finding (s, "STOPPED", sk->name) != NULL ||
        gp_rule_buffered (s, sk->name) || gp_slow_dropped (s, sk->name, rate))
      continue;
    up = gp_session_upstream_of (s, sk->name);
    if (gp_session_any_live (s, up)) {
      g_hash_table_unref (up);
      continue;
    }
    gp_rule_budget_limit (s, up, &lim);
    if (!(lim.hot && lim.saturated) && rate > 0)
      supplier = gp_rule_supplier (s, up, &supply, &supply_wait);
    g_hash_table_unref (up);
    target = gp_session_sink_target_fps (s, sk->name);

    title = g_strdup_printf ("%s plays %.2f s of media a second: playback "
        "slower than real time", sk->name, rate);
    f = gp_rule_add_finding (s, rule, rate < GP_SLOW_HIGH_MEDIA_RATE ?
        GP_SEVERITY_HIGH : GP_SEVERITY_MEDIUM, title);
    g_free (title);
    gp_finding_add_target (f, sk->name);
    if (lim.hot && lim.saturated)
      gp_finding_add_target (f, lim.hot->name);
    if (supplier)
      gp_finding_add_target (f, supplier->name);
    f->rank_value = (1.0 - rate) * 100.0;
    gp_finding_set_string (f, "sink", sk->name);
    gp_finding_set_double (f, "media_x", rate);
    if (sk->fps >= 0 && target > 0) {
      gp_finding_set_double (f, "stream_fps", sk->fps);
      gp_finding_set_double (f, "target_fps", target);
    }
    if (lim.thread) {
      gp_finding_set_string (f, "thread", lim.thread->name);
      if (lim.busy_pct >= 0)
        gp_finding_set_double (f, "thread_busy_pct", lim.busy_pct);
    }
    if (lim.hot && lim.saturated) {
      gp_finding_set_string (f, "limiting", lim.hot->name);
      gp_finding_set_double (f, "limiting_share_pct", lim.hot_share_pct);
    }
    if (supplier) {
      gp_finding_set_string (f, "supplier", supplier->name);
      gp_finding_set_double (f, "supply_mbps", supply * 8 / 1e6);
      gp_finding_set_double (f, "needed_mbps", supply * 8 / 1e6 / rate);
      gp_finding_set_double (f, "supplier_wait_pct", supply_wait);
    }

    why = g_string_new (NULL);
    g_string_append_printf (why, "%s waits on the clock to present each "
        "buffer at its time, but gets only %.2f s of media each second: it "
        "falls %.2f s further behind every second (what a viewer sees as "
        "slow motion, stutter or dropped frames; a sink with qos drops what "
        "comes too late).", sk->name, rate, 1.0 - rate);
    if (lim.hot && lim.saturated)
      g_string_append_printf (why, " Thread %s is busy %.0f%% of the run, "
          "%.0f%% of the processing in %s: that is what holds it back.",
          lim.thread ? lim.thread->name : "?", lim.busy_pct,
          lim.hot_share_pct, lim.hot->name);
    else if (supplier)
      g_string_append_printf (why, " No thread that feeds it is saturated; "
          "%s waited for its data %.0f%% of the run and delivered %.2f "
          "Mbit/s, where playing this stream in real time takes %.2f Mbit/s "
          "(what it delivered, over the %.2f s of media each second it "
          "made): the supply is the limit, not the elements after it.",
          supplier->name, supply_wait, supply * 8 / 1e6,
          supply * 8 / 1e6 / rate, rate);
    else
      g_string_append (why, " Cause not identified: no thread that feeds "
          "it is saturated (a source that reads slowly, a network, a wait "
          "on another stream).");
    g_free (f->why);
    f->why = g_string_free (why, FALSE);
    g_free (f->fix);
    f->fix = lim.hot && lim.saturated ?
        g_strdup_printf ("Make %s cheaper (its settings, a hardware "
        "element for the same job, smaller frames before it) or give it a "
        "thread of its own (a queue before it) if its thread does other "
        "work.", lim.hot->name) : supplier ?
        gp_rule_supply_fix (s, supplier) :
        g_strdup ("Look at what feeds the sink: the source's read rate, "
        "the network, a queue that waits on another branch.");
  }
}
