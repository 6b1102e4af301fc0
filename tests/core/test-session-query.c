/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * test-session-query.c: the read-only questions about a session
 * (core/gp-session-query.h) on sessions made by hand, so the truth is
 * known exactly: identities across runs, launch names and the one parse
 * they share, working time, the PLAYING span.
 */
#include <math.h>

#include "core/gp-session-query.h"
#include "gp-test-session.h"
#include "gp-test-util.h"

/* A renumbered queue keeps its identity; threads and links are named by
 * their elements; a name the user gave is the identity. */
static void
test_identity (void)
{
  GpSession *a = gp_test_chain_session (FALSE),
      *b = gp_test_chain_session (TRUE);
  gchar *ia, *ib;

  /* the queue before the encoder is queue1, then queue2: the same one */
  ia = gp_session_element_identity (a, "queue1");
  ib = gp_session_element_identity (b, "queue2");
  g_assert_cmpstr (ia, ==, ib);
  g_assert_cmpstr (ia, ==, "queue(videoconvert>x264enc)");
  g_free (ia);
  g_free (ib);
  /* the only one of its factory is that factory, whatever is beside it
   * (a fix that removes a converter after the source changes nothing) */
  ia = gp_session_element_identity (a, "videotestsrc0");
  g_assert_cmpstr (ia, ==, "videotestsrc");
  g_free (ia);
  /* a software converter, which a fix may add, is named by its
   * neighbours even when it is the only one */
  ia = gp_session_element_identity (a, "videoconvert0");
  g_assert_cmpstr (ia, ==, "videoconvert(videotestsrc>x264enc)");
  g_free (ia);
  ia = gp_session_target_identity (a, "queue1:src");
  ib = gp_session_target_identity (b, "queue2:src");
  g_assert_cmpstr (ia, ==, ib);
  g_free (ia);
  g_free (ib);
  ia = gp_session_target_identity (a, "queue1.src->x264enc0.sink");
  ib = gp_session_target_identity (b, "queue2.src->x264enc0.sink");
  g_assert_cmpstr (ia, ==, ib);
  g_free (ia);
  g_free (ib);
  gp_session_add_element (a, "enc", "x264enc", "pipeline0", "filter");
  ia = gp_session_element_identity (a, "enc");
  g_assert_cmpstr (ia, ==, "enc");
  g_free (ia);
  gp_session_free (a);
  gp_session_free (b);
}

/* Launch names come from one parse of the launch string, kept until the
 * string changes. */
static void
test_launch_name (void)
{
  GpSession *s = gp_test_chain_session (FALSE);
  const GpLaunch *l;
  gchar *ln;

  s->launch = g_strdup ("videotestsrc ! queue ! videoconvert ! queue ! "
      "x264enc ! fakesink");
  gp_session_add_element (s, "sink", "fakesink", "queue0", "sink");
  l = gp_session_parsed_launch (s);
  g_assert_nonnull (l);
  g_assert_true (gp_session_parsed_launch (s) == l);
  ln = gp_session_launch_name (s, "videoconvert0");
  g_assert_cmpstr (ln, ==, "videoconvert0");
  g_free (ln);
  g_assert_null (gp_session_launch_name (s, "sink"));
  g_assert_true (gp_session_is_users (s, "queue1"));
  /* not in the launch string: made at run time */
  g_assert_false (gp_session_is_users (s, "sink"));

  /* a new launch string is parsed again */
  g_free (s->launch);
  s->launch = g_strdup ("videotestsrc ! fakesink");
  g_assert_cmpuint (gp_launch_get_n_elements (gp_session_parsed_launch (s)),
      ==, 2);
  g_assert_null (gp_session_launch_name (s, "videoconvert0"));
  g_assert_false (gp_session_is_users (s, "queue1"));
  /* one that does not parse, and none */
  g_free (s->launch);
  s->launch = g_strdup ("videotestsrc !");
  g_assert_null (gp_session_parsed_launch (s));
  g_clear_pointer (&s->launch, g_free);
  g_assert_null (gp_session_parsed_launch (s));
  g_assert_true (gp_session_is_users (s, "queue1"));
  gp_session_free (s);
}

/* A clock-waiting sink works its CPU time, a queue never works, anything
 * else its self time. */
static void
test_work (void)
{
  GpSession *s = gp_test_chain_session (FALSE);
  GpElementSummary *conv = gp_session_add_elem_summary (s, "videoconvert0");
  GpElementSummary *sink = gp_session_add_elem_summary (s, "fakesink0");
  GpElementSummary *q = gp_session_add_elem_summary (s, "queue0");

  conv->self_total_ms = 300;
  sink->self_total_ms = 900;
  sink->cpu_ms = 20;
  q->self_total_ms = 50;
  g_assert_cmpfloat (gp_session_work_ms (s, conv), ==, 300);
  g_assert_true (gp_session_sink_waits_on_clock (s, "fakesink0"));
  g_assert_cmpfloat (gp_session_work_ms (s, sink), ==, 20);
  g_assert_cmpfloat (gp_session_work_ms (s, q), ==, -1);
  g_assert_cmpfloat (gp_session_total_work_ms (s), ==, 320);
  gp_session_free (s);
}

/* PLAYING runs from the pipeline's PAUSED->PLAYING to its EOS, or to
 * gstprof's stop when that comes first. */
static void
test_playing_span (void)
{
  GpSession *s = gp_test_chain_session (FALSE);
  GpPlayingSpan span;

  s->duration_s = 6;
  gp_session_add_event (s, 0.5, "state", "pipeline0", "READY->PAUSED");
  gp_session_add_event (s, 1.0, "state", "pipeline0", "PAUSED->PLAYING");
  gp_session_add_event (s, 4.0, "eos", "pipeline0", "");
  gp_session_playing_span (s, &span);
  g_assert_cmpfloat (span.t0, ==, 1.0);
  g_assert_cmpfloat (span.t1, ==, 4.0);
  s->stop_s = 3.0;
  gp_session_playing_span (s, &span);
  g_assert_cmpfloat (span.t1, ==, 3.0);
  gp_session_free (s);
}

/* How long a sink played: from PLAYING or its first buffer, whichever is
 * later, to the pipeline leaving PLAYING (playbin prerolled in 4.4 s under
 * ASan and a CPU hog, then played 0.1 s: "0.11x real time" was its
 * preroll); unknown without a first buffer. */
static void
test_sink_played (void)
{
  GpSession *s = gp_test_chain_session (FALSE);
  GpSinkSummary *sk = gp_session_add_sink (s, "late");

  s->duration_s = 5.1;
  gp_session_add_event (s, 0.9, "state", "pipeline0", "NULL->READY");
  gp_session_add_event (s, 4.37, "state", "pipeline0", "PAUSED->PLAYING");
  gp_session_add_event (s, 4.47, "state", "pipeline0", "PLAYING->PAUSED");
  sk->first_s = 3.4;
  g_assert_cmpfloat (fabs (gp_session_sink_played_s (s, sk) - 0.1), <, 1e-9);
  g_assert_true (gp_session_sink_played_briefly (s, sk, 1.0));
  sk->first_s = 4.42;
  g_assert_cmpfloat (fabs (gp_session_sink_played_s (s, sk) - 0.05), <,
      1e-9);
  sk->first_s = -1;
  g_assert_cmpfloat (gp_session_sink_played_s (s, sk), <, 0);
  g_assert_false (gp_session_sink_played_briefly (s, sk, 1.0));
  gp_session_free (s);
}

/* When the last top-level pipeline left PLAYING: each pipeline apart, a
 * pause that plays again is none, an element inside a bin is not a
 * pipeline. */
static void
test_left_playing (void)
{
  GpSession *s = gp_session_new ();

  gp_session_add_element (s, "main", "pipeline", "", "bin");
  gp_session_add_element (s, "helper", "pipeline", "", "bin");
  gp_session_add_element (s, "q", "queue2", "main", "filter");
  gp_session_add_event (s, 0.1, "state", "main", "PAUSED->PLAYING");
  gp_session_add_event (s, 0.2, "state", "helper", "PAUSED->PLAYING");
  gp_session_add_event (s, 1.0, "state", "helper", "PLAYING->PAUSED");
  gp_session_add_event (s, 1.5, "state", "q", "PLAYING->PAUSED");
  g_assert_cmpfloat (gp_session_left_playing (s), <, 0);
  gp_session_add_event (s, 2.0, "state", "main", "PLAYING->PAUSED");
  gp_session_add_event (s, 2.5, "state", "main", "PAUSED->PLAYING");
  g_assert_cmpfloat (gp_session_left_playing (s), <, 0);
  gp_session_add_event (s, 4.0, "state", "main", "PLAYING->PAUSED");
  g_assert_cmpfloat (gp_session_left_playing (s), ==, 4.0);
  gp_session_free (s);
}

/* A buffering element's pauses (gp_session_buffering_pauses): its first
 * fill is no pause; a pause with the pipeline's PLAYING->PAUSED beside it
 * is "paused", one without is not; one still open at the stop runs to it;
 * a percent that is not a number is full (a session file may hold
 * anything); an element below full to the end is the unfilled one. */
static void
test_buffering (void)
{
  GpSession *s = gp_test_chain_session (FALSE);
  GArray *pauses = g_array_new (FALSE, FALSE, sizeof (GpBufferingPause));
  GpBufferingPause *p;
  gdouble fill, waited;
  GpEvent *ev;

  s->duration_s = 12;
  gp_session_add_event (s, 0.1, "buffering", "q2", "0%");
  gp_session_add_event (s, 1.5, "buffering", "q2", "100%");
  gp_session_add_event (s, 1.5, "state", "pipeline0", "PAUSED->PLAYING");
  gp_session_add_event (s, 3.0, "buffering", "q2", "10%");
  gp_session_add_event (s, 3.01, "state", "pipeline0", "PLAYING->PAUSED");
  gp_session_add_event (s, 4.0, "buffering", "q2", "100%");
  gp_session_add_event (s, 6.0, "buffering", "q2", "40%");
  ev = gp_session_add_event (s, 6.5, "buffering", "q2", "50%");
  ev->data = json_object_new ();
  json_object_set_object_member (ev->data, "percent", json_object_new ());
  gp_session_add_event (s, 8.0, "buffering", "q2", "5%");
  s->stop_s = 10.0;
  gp_session_buffering_pauses (s, pauses, &fill);
  g_assert_cmpfloat_with_epsilon (fill, 1.4, 1e-9);
  g_assert_cmpuint (pauses->len, ==, 3);
  p = &g_array_index (pauses, GpBufferingPause, 0);
  g_assert_cmpfloat (p->t0, ==, 3.0);
  g_assert_cmpfloat (p->t1, ==, 4.0);
  g_assert_true (p->paused);
  /* 6.0 opened, the odd one at 6.5 closed it, 8.0 opened again */
  p = &g_array_index (pauses, GpBufferingPause, 1);
  g_assert_cmpfloat (p->t0, ==, 6.0);
  g_assert_cmpfloat (p->t1, ==, 6.5);
  g_assert_false (p->paused);
  p = &g_array_index (pauses, GpBufferingPause, 2);
  g_assert_cmpfloat (p->t0, ==, 8.0);
  g_assert_cmpfloat (p->t1, ==, 10.0);
  g_assert_cmpfloat_with_epsilon (gp_session_buffering_within (s, 0, 12),
      3.5, 1e-9);
  g_assert_cmpfloat_with_epsilon (gp_session_buffering_within (s, 3.5, 9),
      2.0, 1e-9);
  g_assert_cmpstr (gp_session_buffering_unfilled (s, &waited), ==, "q2");
  g_assert_cmpfloat_with_epsilon (waited, 2.0, 1e-9);
  g_array_unref (pauses);
  gp_session_free (s);
}

/* the first video sink's measured rate; an audio sink before it is not
 * one */
static void
test_video_fps (void)
{
  GpSession *s = gp_session_new ();
  GpSinkSummary *ss;

  g_assert_true (isnan (gp_session_video_fps (s)));
  ss = gp_session_add_sink (s, "audio");
  g_free (ss->media);
  ss->media = g_strdup ("audio");
  ss->fps = 50;
  ss = gp_session_add_sink (s, "video");
  g_free (ss->media);
  ss->media = g_strdup ("video");
  ss->fps = 25;
  g_assert_cmpfloat (gp_session_video_fps (s), ==, 25);
  gp_session_free (s);
}

/* A sink's target rate: its own caps', else the session's video rate for
 * a video sink or one whose media is unknown, but not for one a bin made
 * for itself with media unknown (rtspsrc's NAT probe: five buffers, no
 * caps), nor for audio. */
static void
test_sink_target_fps (void)
{
  GpSession *s = gp_session_new ();
  GpSinkSummary *ss;

  s->launch = g_strdup ("rtspsrc location=rtsp://h/x ! fakesink name=out");
  s->target_fps = 30;
  gp_session_add_element (s, "pipeline0", "pipeline", "", "bin");
  gp_session_add_element (s, "rtspsrc0", "rtspsrc", "pipeline0", "bin");
  gp_session_add_element (s, "out", "fakesink", "pipeline0", "sink");
  gp_session_add_element (s, "udpsink0", "udpsink", "rtspsrc0", "sink");
  ss = gp_session_add_sink (s, "out");
  g_free (ss->media);
  ss->media = g_strdup ("unknown");
  ss = gp_session_add_sink (s, "udpsink0");
  g_free (ss->media);
  ss->media = g_strdup ("unknown");
  ss = gp_session_add_sink (s, "pcm");
  g_free (ss->media);
  ss->media = g_strdup ("audio");
  g_assert_cmpfloat (gp_session_sink_target_fps (s, "out"), ==, 30);
  g_assert_cmpfloat (gp_session_sink_target_fps (s, "udpsink0"), <, 0);
  g_assert_cmpfloat (gp_session_sink_target_fps (s, "pcm"), <, 0);
  gp_session_free (s);
}

/* Fed live: a live source upstream (is-live, or a factory always live);
 * read ahead: sources upstream, none live, each one's properties known. */
static void
test_fed_live (void)
{
  GpSession *s = gp_test_encode_session ();
  GHashTable *up;

  g_assert_false (gp_session_fed_live (s, "sink"));
  g_assert_true (gp_session_read_ahead (s, "sink"));
  gp_test_set_prop_bool (gp_session_find_element (s, "src"), "is-live",
      TRUE);
  g_assert_false (gp_session_read_ahead (s, "sink"));
  g_assert_true (gp_session_fed_live (s, "sink"));
  g_assert_true (gp_session_fed_live (s, "conv"));
  /* a live source's own data comes at the world's rate */
  g_assert_true (gp_session_fed_live (s, "src"));
  gp_test_add_element (s, "rx", "udpsrc", "source");
  gp_test_add_element (s, "out", "fakesink", "sink");
  gp_test_link_pads (s, "rx", "out");
  g_assert_true (gp_session_fed_live (s, "out"));
  up = gp_session_upstream_of (s, "out");
  g_assert_true (gp_session_any_live (s, up));
  g_hash_table_unref (up);
  /* a source whose properties an import did not record: not known to
   * be read ahead; nothing upstream: neither */
  gp_test_add_element (s, "file", "filesrc", "source");
  gp_test_add_element (s, "file_out", "fakesink", "sink");
  gp_test_link_pads (s, "file", "file_out");
  g_assert_false (gp_session_read_ahead (s, "file_out"));
  gp_test_set_prop_bool (gp_session_find_element (s, "file"), "sync",
      FALSE);
  g_assert_true (gp_session_read_ahead (s, "file_out"));
  gp_test_add_element (s, "alone", "fakesink", "sink");
  g_assert_false (gp_session_read_ahead (s, "alone"));
  gp_session_free (s);
}

/* Control traffic: RTCP by its caps; data without caps into a sink a bin
 * made for itself (rtspsrc's NAT probe: fakesrc0 into udpsink0 inside
 * rtspsrc0, 5 buffers in 8 s, issue 29); not a sink without caps that the
 * user put in the pipeline, nor the pipeline's stream into a sink a bin
 * holds whose link's caps were not recorded (playbin's video sink in a
 * short run, its decoder slowed by ASan: 5 frames, no caps). */
static void
test_sink_is_control (void)
{
  GpSession *s = gp_session_new ();
  const gchar *what = NULL;

  s->launch = g_strdup ("rtspsrc location=rtsp://h/x ! fakesink name=out "
      "fakesrc ! appsink name=app udpsrc ! multiudpsink name=rtcp");
  gp_session_add_element (s, "pipeline0", "pipeline", "", "bin");
  gp_session_add_element (s, "rtspsrc0", "rtspsrc", "pipeline0", "bin");
  gp_session_add_element (s, "fakesrc0", "fakesrc", "rtspsrc0", "source");
  gp_session_add_element (s, "udpsink0", "udpsink", "rtspsrc0", "sink");
  gp_session_add_element (s, "out", "fakesink", "pipeline0", "sink");
  gp_session_add_element (s, "fakesrc1", "fakesrc", "pipeline0", "source");
  gp_session_add_element (s, "app", "appsink", "pipeline0", "sink");
  gp_session_add_element (s, "udpsrc0", "udpsrc", "pipeline0", "source");
  gp_session_add_element (s, "rtcp", "multiudpsink", "pipeline0", "sink");
  gp_session_add_link (s, "fakesrc0.src", "udpsink0.sink", NULL, NULL);
  gp_session_add_link (s, "rtspsrc0.recv_rtp_src_0", "out.sink",
      "video/x-raw, framerate=(fraction)30/1", NULL);
  gp_session_add_link (s, "fakesrc1.src", "app.sink", NULL, NULL);
  gp_session_add_link (s, "udpsrc0.src", "rtcp.sink", "application/x-rtcp",
      NULL);
  gp_session_add_element (s, "playbin0", "playbin", "pipeline0", "bin");
  gp_session_add_element (s, "playsink", "playsink", "playbin0", "bin");
  gp_session_add_element (s, "vbin", "bin", "playsink", "bin");
  gp_session_add_element (s, "file", "filesrc", "playbin0", "source");
  gp_session_add_element (s, "vqueue", "queue", "playsink", "queue");
  gp_session_add_element (s, "pb_vsink", "fakesink", "vbin", "sink");
  gp_session_add_link (s, "file.src", "vqueue.sink", NULL, NULL);
  gp_session_add_link (s, "vqueue.src", "pb_vsink.sink", NULL, NULL);
  g_assert_false (gp_session_sink_is_control (s, "pb_vsink", &what));
  g_assert_true (gp_session_sink_is_control (s, "udpsink0", &what));
  g_assert_cmpstr (what, ==, "a bin's own");
  g_assert_true (gp_session_sink_is_control (s, "rtcp", &what));
  g_assert_cmpstr (what, ==, "RTCP");
  g_assert_false (gp_session_sink_is_control (s, "out", &what));
  g_assert_null (what);
  g_assert_false (gp_session_sink_is_control (s, "app", NULL));
  gp_session_free (s);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/session-query/identity", test_identity);
  g_test_add_func ("/session-query/launch-name", test_launch_name);
  g_test_add_func ("/session-query/work", test_work);
  g_test_add_func ("/session-query/playing-span", test_playing_span);
  g_test_add_func ("/session-query/buffering", test_buffering);
  g_test_add_func ("/session-query/left-playing", test_left_playing);
  g_test_add_func ("/session-query/sink-played", test_sink_played);
  g_test_add_func ("/session-query/video-fps", test_video_fps);
  g_test_add_func ("/session-query/sink-target-fps", test_sink_target_fps);
  g_test_add_func ("/session-query/fed-live", test_fed_live);
  g_test_add_func ("/session-query/sink-is-control", test_sink_is_control);
  return g_test_run ();
}
