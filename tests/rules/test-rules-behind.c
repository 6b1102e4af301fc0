/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * test-rules-behind.c: BEHIND on sessions made by hand, so the truth is
 * known exactly: a live encode into a muxer at 14.2 of 30 fps fires first,
 * naming the encoder and its faster preset (never a plain queue); the same
 * at 29.5 fps, and a file encode at any rate, stay silent; an appsink
 * whose lag grows 270 ms a second all run fires and names the
 * application's callback; a lag that rises at start-up and then holds (an
 * encoder's lookahead filling) stays silent.  The verdict's Rate section
 * shows the stream under the muxed output.  On real runs: tests/corpus
 * (advice) and tests/capture/test-late.c (the lateness itself).
 */
#include <math.h>
#include <string.h>

#include "core/gp-session-streams.h"
#include "report/gp-verdict.h"
#include "rules/gp-rules.h"
#include "gp-test-session.h"
#include "gp-test-util.h"

/* videotestsrc (live or not) ! x264enc ! mp4mux ! filesink, 10 s, the
 * video into the muxer at @fps of 30; the encoder has 90 % of the work on
 * the source's thread. */
static GpSession *
encode_mux_session (gboolean live, gdouble fps)
{
  GpSession *s = gp_test_session_new (10.0);
  const gchar *const els[] = { "src", "enc", NULL };
  const gchar *const mux_els[] = { "mux", "sink", NULL };
  GpElement *e;
  GpLink *l;
  GpLinkSummary *ls;
  GpSinkSummary *sk;

  e = gp_test_add_element (s, "src", "videotestsrc", "source");
  gp_test_set_prop_bool (e, "is-live", live);
  e = gp_test_add_element (s, "enc", "x264enc", "filter");
  json_object_set_string_member ((e->props = json_object_new ()),
      "speed-preset", "medium");
  gp_test_add_element (s, "mux", "mp4mux", "mux");
  gp_test_add_element (s, "sink", "filesink", "sink");
  gp_test_link_pads (s, "src", "enc");
  l = gp_session_add_link (s, "enc.src", "mux.video_0",
      "video/x-h264, framerate=(fraction)30/1", "system");
  ls = gp_session_add_link_summary (s, l->id);
  ls->fps = fps;
  ls->buffers = (guint64) (fps * 10);
  l = gp_session_add_link (s, "mux.src", "sink.sink", "video/quicktime",
      "system");
  ls = gp_session_add_link_summary (s, l->id);
  ls->fps = fps;
  gp_test_add_summary (s, "enc", 9000, 66.0, 70.0, ls->buffers, "src:src");
  gp_test_add_summary (s, "src", 500, 1.0, 2.0, ls->buffers, "src:src");
  gp_test_add_summary (s, "mux", 100, 0.1, 0.2, ls->buffers, "mux:src");
  gp_test_add_thread (s, 100, "src:src", 95.0, els);
  gp_test_add_thread (s, 101, "mux:src", 1.0, mux_els);
  sk = gp_session_add_sink (s, "sink");
  g_free (sk->media);
  sk->media = g_strdup ("muxed");
  sk->fps = fps;
  sk->bytes_per_s = 100000;
  sk->buffers = (guint64) (fps * 10);
  s->target_fps = 30.0;
  s->frame_period_ms = 1000.0 / 30.0;
  return s;
}

static void
test_encode_mux_fires (void)
{
  GpSession *s = encode_mux_session (TRUE, 14.2);
  GpFinding *f, *first;
  GpLaunchOp *op;
  gchar *text;

  gp_rules_run (s);
  g_assert_cmpuint (gp_session_count_findings (s, "BEHIND"), ==, 1);
  f = gp_session_find_finding (s, "BEHIND", NULL);
  first = g_ptr_array_index (s->findings, 0);
  /* first, before HOT (90 % of the work) and BUDGET; medium, as
   * bench/pairs/behind.pair verified it */
  g_assert_true (first == f);
  g_assert_cmpstr (f->severity, ==, "medium");
  g_assert_false (f->heuristic);
  g_assert_cmpint (gp_rules_exit_code (s), ==, 1);
  g_assert_cmpstr (g_ptr_array_index (f->targets, 0), ==, "enc");
  g_assert_cmpstr (gp_test_evidence_string (f, "into"), ==, "mux");
  g_assert_cmpstr (gp_test_evidence_string (f, "limiting"), ==, "enc");
  g_assert_cmpstr (gp_test_evidence_string (f, "thread"), ==, "src:src");
  g_assert_cmpfloat (fabs (gp_test_evidence_double (f, "stream_fps") - 14.2),
      <, 1e-9);
  g_assert_cmpfloat (fabs (gp_test_evidence_double (f, "deficit_pct") -
          (30 - 14.2) / 30 * 100), <, 0.01);
  g_assert_nonnull (strstr (f->title, "video into mux: 14.2 fps of 30.0"));
  g_assert_nonnull (strstr (f->fix, "faster preset"));
  g_assert_nonnull (strstr (f->fix, "leaky=downstream"));
  g_assert_null (strstr (f->fix, "put a queue"));
  g_assert_nonnull (f->fix_patch);
  op = g_ptr_array_index (f->fix_patch, 0);
  g_assert_cmpstr (op->prop, ==, "speed-preset");

  /* the verdict's Rate: the video under the muxed output */
  text = gp_verdict_format (s, NULL, GP_VERDICT_PLAIN);
  g_assert_nonnull (strstr (text, "    video into mux: 14.2 fps of 30.0 fps"
          "  53% below\n"));
  g_free (text);
  gp_session_free (s);
}

static void
test_encode_mux_silent (void)
{
  GpSession *s = encode_mux_session (TRUE, 29.5);

  gp_rules_run (s);
  g_assert_null (gp_session_find_finding (s, "BEHIND", NULL));
  gp_session_free (s);

  /* a file encode has no real time to fall behind */
  s = encode_mux_session (FALSE, 14.2);
  gp_rules_run (s);
  g_assert_null (gp_session_find_finding (s, "BEHIND", NULL));
  gp_session_free (s);
}

/* The streams of the muxed output: the video at the muxer's input. */
static void
test_streams_of (void)
{
  GpSession *s = encode_mux_session (TRUE, 14.2);
  GArray *st = gp_session_streams_of (s, "sink");
  GpStream *v;

  g_assert_cmpuint (st->len, ==, 1);
  v = &g_array_index (st, GpStream, 0);
  g_assert_cmpstr (v->into, ==, "mux");
  g_assert_cmpstr (v->link->id, ==, "enc.src->mux.video_0");
  g_assert_cmpint (v->kind, ==, GP_MEDIA_VIDEO);
  g_assert_cmpfloat (v->target_fps, ==, 30.0);
  g_array_unref (st);
  gp_session_free (s);
}

/* src (live) ! app (appsink), 8 s at the full 30 fps, whose lag against
 * the clock grows @early ms/s in the first half and @late in the second
 * (one series window every 0.25 s). */
static GpSession *
appsink_session (gdouble early, gdouble late)
{
  GpSession *s = gp_test_session_new (8.0);
  const gchar *const els[] = { "src", "app", NULL };
  GpElement *e;
  GpLink *l;
  GpLinkSummary *ls;
  GpSinkSummary *sk;
  GpElementSummary *es;
  gdouble lag = 10.0;
  guint i;

  e = gp_test_add_element (s, "src", "videotestsrc", "source");
  gp_test_set_prop_bool (e, "is-live", TRUE);
  gp_test_add_element (s, "app", "appsink", "sink");
  gp_test_link_pads (s, "src", "app");
  l = gp_session_link_into (s, "app");
  ls = gp_session_add_link_summary (s, l->id);
  ls->fps = 30.0;
  es = gp_test_add_summary (s, "app", 20, 0.07, 0.1, 240, "src:src");
  /* the callback's 45 ms: CPU-timed samples, the sleep a "wait" */
  es->cpu_buffers = 240;
  es->wait_ms.p50 = 45.0;
  es->wait_ms.p95 = 46.0;
  gp_test_add_thread (s, 100, "src:src", 2.0, els);
  sk = gp_session_add_sink (s, "app");
  g_free (sk->media);
  sk->media = g_strdup ("video");
  sk->fps = 30.0;
  sk->target_fps = 30.0;
  sk->buffers = 240;
  for (i = 0; i < 32; i++) {
    gdouble t0 = i * 0.25, t1 = t0 + 0.25;
    JsonObject *w = json_object_new (), *links = json_object_new ();
    JsonObject *lo = json_object_new ();

    lag += 0.25 * (t0 < 4.0 ? early : late);
    json_object_set_double_member (w, GP_SERIES_T0, t0);
    json_object_set_double_member (w, GP_SERIES_T1, t1);
    json_object_set_double_member (lo, GP_SL_LATE_MS_P50, lag);
    json_object_set_object_member (links, l->id, lo);
    json_object_set_object_member (w, GP_SERIES_LINKS, links);
    gp_session_add_window (s, w);
    json_object_unref (w);
  }
  sk->late_ms.p50 = lag / 2;
  sk->late_ms.p95 = lag * 0.95;
  sk->late_ms.p99 = sk->late_ms.max = lag;
  sk->late_trend_ms_per_s = (early + late) / 2;
  sk->late_windows = 32;
  s->target_fps = 30.0;
  s->frame_period_ms = 1000.0 / 30.0;
  return s;
}

static void
test_appsink_growing (void)
{
  GpSession *s = appsink_session (270.0, 270.0);
  GpFinding *f;

  gp_rules_run (s);
  f = gp_session_find_finding (s, "BEHIND", NULL);
  g_assert_nonnull (f);
  g_assert_true (g_ptr_array_index (s->findings, 0) == f);
  g_assert_cmpstr (gp_test_evidence_string (f, "limiting"), ==, "app");
  g_assert_cmpfloat (fabs (gp_test_evidence_double (f, "lag_growth_pct") -
          27.0), <, 0.01);
  g_assert_cmpfloat (fabs (gp_test_evidence_double (f,
              "lag_growth_recent_pct") - 27.0), <, 0.01);
  g_assert_nonnull (strstr (f->fix, "application's callback"));
  /* a lag that grows at the full rate has no bench pair yet */
  g_assert_cmpstr (f->severity, ==, "info");
  g_assert_true (f->heuristic);
  g_assert_cmpfloat (fabs (gp_test_evidence_double (f, "callback_p50_ms") -
          45.07), <, 0.01);
  g_assert_nonnull (strstr (f->why, "45.1 ms a frame"));
  g_assert_null (f->fix_patch);
  gp_session_free (s);
}

static void
test_appsink_startup_only (void)
{
  /* 300 ms/s for 4 s (1.2 s of lookahead filling), then flat */
  GpSession *s = appsink_session (300.0, 0.0);

  gp_rules_run (s);
  g_assert_null (gp_session_find_finding (s, "BEHIND", NULL));
  gp_session_free (s);
}

/* Series windows of 0.25 s over @s's run whose lag on @link_id grows
 * @early ms/s in the first half and @late in the second; returns the
 * last lag (ms). */
static gdouble
add_lag_series (GpSession * s, const gchar * link_id, gdouble early,
    gdouble late)
{
  guint i, n = (guint) (s->duration_s / 0.25);
  gdouble lag = 10.0;

  for (i = 0; i < n; i++) {
    gdouble t0 = i * 0.25, t1 = t0 + 0.25;
    JsonObject *w = json_object_new (), *links = json_object_new ();
    JsonObject *lo = json_object_new ();

    lag += 0.25 * (t0 < s->duration_s / 2 ? early : late);
    json_object_set_double_member (w, GP_SERIES_T0, t0);
    json_object_set_double_member (w, GP_SERIES_T1, t1);
    json_object_set_double_member (lo, GP_SL_LATE_MS_P50, lag);
    json_object_set_double_member (lo, GP_SL_LATE_MS_MAX, lag + 5);
    json_object_set_object_member (links, link_id, lo);
    json_object_set_object_member (w, GP_SERIES_LINKS, links);
    gp_session_add_window (s, w);
    json_object_unref (w);
  }
  return lag;
}

/* A live audio stream into the muxer beside the video (at its full 30
 * fps), at 0.8x real time: behind, in media time, when its lag grows all
 * run; silent when the muxer held it once at start-up and its lag then
 * shrank (the live source caught up: QFULL's business, not BEHIND's). */
static void
test_audio_stream (void)
{
  guint i;

  for (i = 0; i < 2; i++) {
    GpSession *s = encode_mux_session (TRUE, 30.0);
    GpElement *e = gp_test_add_element (s, "asrc", "audiotestsrc",
        "source");
    GpLink *l;
    GpLinkSummary *ls;
    GpFinding *f;

    gp_test_set_prop_bool (e, "is-live", TRUE);
    l = gp_session_add_link (s, "asrc.src", "mux.audio_0",
        "audio/x-raw, rate=(int)48000, channels=(int)2", "system");
    ls = gp_session_add_link_summary (s, l->id);
    ls->fps = 47.0;
    ls->media_per_s = 0.80;
    if (i == 0)
      add_lag_series (s, l->id, 200.0, 200.0);
    else
      add_lag_series (s, l->id, 300.0, -250.0);
    gp_rules_run (s);
    f = gp_session_find_finding (s, "BEHIND", NULL);
    if (i == 0) {
      g_assert_nonnull (f);
      g_assert_cmpstr (gp_test_evidence_string (f, "stream_link"), ==,
          "asrc.src->mux.audio_0");
      g_assert_cmpstr (gp_test_evidence_string (f, "late_link"), ==,
          "asrc.src->mux.audio_0");
      g_assert_cmpfloat (fabs (gp_test_evidence_double (f, "deficit_pct") -
              20.0), <, 0.01);
      g_assert_nonnull (strstr (f->title, "audio into mux: 0.80x real time"));
    } else {
      g_assert_null (f);
    }
    gp_session_free (s);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/rules/behind/encode-mux-fires", test_encode_mux_fires);
  g_test_add_func ("/rules/behind/encode-mux-silent", test_encode_mux_silent);
  g_test_add_func ("/rules/behind/streams-of", test_streams_of);
  g_test_add_func ("/rules/behind/audio-stream", test_audio_stream);
  g_test_add_func ("/rules/behind/appsink-growing", test_appsink_growing);
  g_test_add_func ("/rules/behind/appsink-startup-only",
      test_appsink_startup_only);
  return g_test_run ();
}
