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

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/session-query/identity", test_identity);
  g_test_add_func ("/session-query/launch-name", test_launch_name);
  g_test_add_func ("/session-query/work", test_work);
  g_test_add_func ("/session-query/playing-span", test_playing_span);
  g_test_add_func ("/session-query/video-fps", test_video_fps);
  g_test_add_func ("/session-query/sink-target-fps", test_sink_target_fps);
  return g_test_run ();
}
