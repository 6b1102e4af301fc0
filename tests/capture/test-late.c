/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * test-late.c: lateness against the pipeline clock (docs/records.md,
 * "Lateness against the clock"; summary.sinks' late_ms and
 * late_trend_ms_per_s) on real live pipelines, against planted truths.
 *
 * A live 30/1 videotestsrc stamps frame n with running time n x T (T =
 * 33.3 ms) and, once behind, pushes the next at once.  An element that
 * costs C > T a frame on the source's own thread (identity sleep-time, no
 * queue) makes frame n leave at n x C: the lag grows by C - T a frame and
 * a frame comes every C, so by 1 - T / C seconds a second (0.26 s/s at
 * C = 45 ms; C as this machine sleeps it, gp_test_oversleep_ms).  The
 * measured trend must be within GP_TL_TOLERANCE of that.  A pipeline that
 * keeps up (5 ms a frame) stays flat and under one frame late.  The same
 * holds for an application's appsink callback that works 45 ms a frame on
 * the streaming thread (gp-test-appsink-slow under gp_wrap_run): the
 * issue's program that fell seconds behind live while its path latency
 * looked small.  A pipeline that is not live measures none.
 */
#include <math.h>

#include <gst/gst.h>

#include "capture/gp-capture.h"
#include "capture/gp-wrap.h"
#include "gp-test-util.h"

/* the measured slope against 1 - T / C: the windows' medians are read
 * from 6.25 %-wide buckets, and the other elements' few tenths of a ms a
 * frame add to C */
#define GP_TL_TOLERANCE 0.15
/* flat: a pipeline that keeps up drifts by less than this (ms/s) */
#define GP_TL_FLAT_MS_PER_S 10.0
#define GP_TL_PERIOD_MS (1000.0 / 30)

static GpCaptureOptions base_opts;

/* The slope (ms/s) of a lag that a cost of @cost_ms a frame on the live
 * source's thread makes, with the cost as this machine sleeps it. */
static gdouble
gp_tl_truth (gdouble cost_ms)
{
  gdouble c = cost_ms + gp_test_oversleep_ms (cost_ms);

  return 1000.0 * (1.0 - GP_TL_PERIOD_MS / c);
}

/* Whether @ss's trend is the truth of @cost_ms within the tolerance. */
static gboolean
gp_tl_trend_ok (const GpSinkSummary * ss, gdouble cost_ms)
{
  gdouble truth = gp_tl_truth (cost_ms);

  g_test_message ("%s: late p50 %.1f p95 %.1f max %.1f ms, trend %.1f ms/s "
      "over %" G_GUINT64_FORMAT " windows; truth %.1f ms/s", ss->name,
      ss->late_ms.p50, ss->late_ms.p95, ss->late_ms.max,
      ss->late_trend_ms_per_s, ss->late_windows, truth);
  g_assert_cmpuint (ss->late_windows, >=, GP_LATE_TREND_MIN_WINDOWS);
  return fabs (ss->late_trend_ms_per_s - truth) <= GP_TL_TOLERANCE * truth;
}

/* identity sleep-time=45000 on the live source's thread: the lag grows by
 * 1 - T / C.  Up to three runs, since other processes on a loaded
 * machine stretch C past the planted sleep. */
static void
test_behind (void)
{
  gboolean ok = FALSE;
  guint attempt;

  if (!gp_test_have_tracer ())
    return;
  for (attempt = 0; attempt < 3 && !ok; attempt++) {
    GpSession *s = gp_test_capture (&base_opts, "videotestsrc name=src "
        "is-live=true ! video/x-raw,width=64,height=48,framerate=30/1 ! "
        "identity name=slow sleep-time=45000 ! fakesink name=sink "
        "sync=false", 4.0, NULL);
    GpSinkSummary *ss = gp_session_find_sink (s, "sink");

    g_assert_nonnull (ss);
    /* behind by more than a frame most of the run, more at the end */
    g_assert_cmpfloat (ss->late_ms.p50, >, GP_TL_PERIOD_MS);
    g_assert_cmpfloat (ss->late_ms.max, >, 500.0);
    ok = gp_tl_trend_ok (ss, 45.0);
    gp_session_free (s);
  }
  g_assert_true (ok);
}

/* 5 ms a frame keeps up: flat, and under one frame late. */
static void
test_keeps_up (void)
{
  GpSession *s;
  GpSinkSummary *ss;

  if (!gp_test_have_tracer ())
    return;
  s = gp_test_capture (&base_opts, "videotestsrc name=src is-live=true ! "
      "video/x-raw,width=64,height=48,framerate=30/1 ! "
      "identity name=ok sleep-time=5000 ! fakesink name=sink sync=false",
      3.0, NULL);
  ss = gp_session_find_sink (s, "sink");
  g_assert_nonnull (ss);
  g_test_message ("late p50 %.1f p95 %.1f max %.1f ms, trend %.2f ms/s",
      ss->late_ms.p50, ss->late_ms.p95, ss->late_ms.max,
      ss->late_trend_ms_per_s);
  /* at least the planted cost, never a frame */
  g_assert_cmpfloat (ss->late_ms.p50, >=, 5.0);
  g_assert_cmpfloat (ss->late_ms.p95, <, GP_TL_PERIOD_MS);
  g_assert_cmpfloat (fabs (ss->late_trend_ms_per_s), <, GP_TL_FLAT_MS_PER_S);
  gp_session_free (s);
}

/* An application's appsink callback that works 45 ms a frame on the
 * streaming thread falls behind at the same slope. */
static void
test_appsink (void)
{
  gchar *prog = g_test_build_filename (G_TEST_BUILT, "gp-test-appsink-slow",
      NULL);
  gboolean ok = FALSE;
  guint attempt;

  if (!gp_test_have_tracer ())
    goto out;
  if (!g_file_test (prog, G_FILE_TEST_IS_EXECUTABLE)) {
    g_test_skip ("built without gstreamer-app");
    goto out;
  }
  for (attempt = 0; attempt < 3 && !ok; attempt++) {
    gchar *argv[] = { prog, (gchar *) "45", (gchar *) "4", NULL };
    GpWrapOptions opts;
    GpWrapResult r;
    GError *err = NULL;
    GpSinkSummary *ss;

    gp_wrap_options_init (&opts);
    opts.argv = argv;
    opts.machine = FALSE;
    g_assert_true (gp_wrap_run (&opts, &r, &err));
    g_assert_no_error (err);
    g_assert_false (r.failed);
    ss = gp_session_find_sink (r.session, "app");
    g_assert_nonnull (ss);
    g_assert_cmpfloat (ss->late_ms.max, >, 500.0);
    ok = gp_tl_trend_ok (ss, 45.0);
    gp_wrap_result_clear (&r);
  }
  g_assert_true (ok);
out:
  g_free (prog);
}

/* Not live: no real time to fall behind, so nothing is measured (and the
 * tracer pays nothing for it); unknown, never 0. */
static void
test_not_live (void)
{
  GpSession *s;
  GpSinkSummary *ss;

  if (!gp_test_have_tracer ())
    return;
  s = gp_test_capture (&base_opts, "videotestsrc name=src num-buffers=60 ! "
      "video/x-raw,width=64,height=48,framerate=30/1 ! fakesink name=sink "
      "sync=true", 0, NULL);
  ss = gp_session_find_sink (s, "sink");
  g_assert_nonnull (ss);
  g_assert_cmpuint (ss->buffers, ==, 60);
  g_assert_cmpfloat (ss->late_ms.p50, <, 0);
  g_assert_true (isnan (ss->late_trend_ms_per_s));
  gp_session_free (s);
}

int
main (int argc, char **argv)
{
  GError *error = NULL;

  gp_capture_options_init (&base_opts);
  if (!gp_capture_prepare_env (&base_opts, &error))
    g_error ("%s", error->message);
  gst_init (&argc, &argv);
  g_test_init (&argc, &argv, NULL);

  /* lateness is measured per pipeline (gstproftracer.c, gp_note_live): a
   * pipeline that is not live measures none, wherever it runs */
  g_test_add_func ("/late/not-live", test_not_live);
  g_test_add_func ("/late/behind", test_behind);
  g_test_add_func ("/late/keeps-up", test_keeps_up);
  g_test_add_func ("/late/appsink", test_appsink);
  return g_test_run ();
}
