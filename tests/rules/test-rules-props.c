/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * test-rules-props.c: SYNC, LATE, ENC and MEM on real pipelines captured
 * here through gp_capture_run (each fires on the bad pipeline and stays
 * silent on its fixed twin, usually the bad one with the finding's own
 * fix_patch applied), on the gst-profile fixtures from a Jetson (encoder
 * and sink properties recorded there), and on hand-made sessions at the
 * edges of the thresholds.
 *
 * Every pipeline names its elements: GStreamer's automatic names count up
 * across the pipelines of one process.
 */
#include <gst/gst.h>
#include <string.h>

#include "capture/gp-capture.h"
#include "ingest/gp-ingest.h"
#include "rules/gp-rules.h"
#include "gp-config.h"
#include "gp-test-util.h"

static GpCaptureOptions base_opts;

static GpSession *
capture (const gchar * launch, gdouble duration_s)
{
  GpCaptureOptions opts = base_opts;
  GpSession *s;

  /* the drain after EOS proves nothing here; keep the runs short */
  opts.eos_timeout_s = 1.0;
  s = gp_test_capture (&opts, launch, duration_s, NULL);
  gp_rules_run (s);
  return s;
}




/* SYNC, LATE and ENC are verified by bench pairs (medium, not heuristic);
 * MEM is a measured symptom: medium where a queue without limits holds the
 * growth, info (heuristic) where nothing says it has no end. */
static void
check_finding_shape (GpFinding * f)
{
  if (g_strcmp0 (f->rule, "MEM") == 0) {
    gboolean held = strstr (f->title, " sits in ") != NULL;

    g_assert_cmpstr (f->severity, ==, held ? GP_SEVERITY_MEDIUM :
        GP_SEVERITY_INFO);
    g_assert_true (f->heuristic == !held);
  } else {
    g_assert_cmpstr (f->severity, ==, GP_SEVERITY_MEDIUM);
    g_assert_false (f->heuristic);
    g_assert_nonnull (f->verified_on);
  }
  g_assert_nonnull (f->why);
  g_assert_nonnull (f->fix);
  g_assert_cmpuint (f->targets->len, >=, 1);
}

/* ---- SYNC ---- */

#define LIVE_SMALL "videotestsrc name=src is-live=true ! " \
  "video/x-raw,width=320,height=240,framerate=30/1 ! "

static void
test_sync_fires_and_fix_clears (void)
{
  GpSession *s, *s2;
  GpFinding *f;
  gchar *fixed;

  if (!gp_test_have_tracer ())
    return;
  s = capture (LIVE_SMALL "intervideosink name=snk sync=true", 1.5);
  f = gp_session_find_finding (s, "SYNC", "snk");
  g_assert_nonnull (f);
  check_finding_shape (f);
  g_assert_cmpstr (json_object_get_string_member (f->evidence,
          "live_source"), ==, "src");
  /* The sink holds each frame for most of a frame period (live
   * videotestsrc reports one frame of latency). */
  g_test_message ("SYNC fires: held p50 %.1f ms, period %.1f ms",
      gp_test_evidence_double (f, "held_p50_ms"), gp_test_evidence_double (f,
          "frame_period_ms"));
  g_assert_cmpfloat (gp_test_evidence_double (f, "held_p50_ms"), >, 10.0);

  fixed = gp_test_patched (s, f);
  g_assert_nonnull (strstr (fixed, "intervideosink name=snk sync=false"));
  s2 = capture (fixed, 1.5);
  g_assert_null (gp_session_find_finding (s2, "SYNC", NULL));
  g_free (fixed);
  gp_session_free (s2);
  gp_session_free (s);
}

/* The real value, default included: intervideosink defaults to sync=true
 * and fires with nothing written; fakesink defaults to sync=false and does
 * not (and with sync=true written stands in for a display: info). An appsink (sync=true by default too) never does: the time it holds
 * a buffer is the application's as much as the clock's. */
static void
test_sync_defaults (void)
{
  GpSession *s;
  GpFinding *f;
  gchar *fixed;

  if (!gp_test_have_tracer ())
    return;
  s = capture (LIVE_SMALL "intervideosink name=iv", 1.0);
  f = gp_session_find_finding (s, "SYNC", "iv");
  g_assert_nonnull (f);
  fixed = gp_test_patched (s, f);
  g_assert_nonnull (strstr (fixed, "intervideosink name=iv sync=false"));
  g_free (fixed);
  gp_session_free (s);

  s = capture (LIVE_SMALL "fakesink name=snk", 1.0);
  g_assert_cmpuint (gp_session_count_findings (s, "SYNC"), ==, 0);
  gp_session_free (s);

  /* fakesink with sync=true set: a stand-in for a display, keeping its
   * pace; said at info, and kept */
  s = capture (LIVE_SMALL "fakesink name=snk sync=true", 1.0);
  f = gp_session_find_finding (s, "SYNC", "snk");
  g_assert_nonnull (f);
  g_assert_cmpstr (f->severity, ==, GP_SEVERITY_INFO);
  g_assert_null (f->fix_patch);
  gp_session_free (s);

  s = capture (LIVE_SMALL "appsink name=app max-buffers=1 drop=true", 1.0);
  g_assert_cmpuint (gp_session_count_findings (s, "SYNC"), ==, 0);
  gp_session_free (s);
}

/* A preview through fpsdisplaysink: the sink it makes for itself is a
 * display's, whose wait gives the even pace: never more than info, and the
 * run exits 0. */
static void
test_sync_display_bin (void)
{
  GpSession *s;
  guint i;

  if (!gp_test_have_tracer ())
    return;
  s = capture (LIVE_SMALL "fpsdisplaysink name=fps text-overlay=false "
      "video-sink=fakesink sync=true", 1.5);
  for (i = 0; i < s->findings->len; i++) {
    GpFinding *f = g_ptr_array_index (s->findings, i);

    g_test_message ("[%s] %s: %s", f->severity, f->rule, f->title);
    if (g_str_equal (f->rule, "SYNC"))
      g_assert_cmpstr (f->severity, ==, GP_SEVERITY_INFO);
  }
  g_assert_cmpint (gp_rules_exit_code (s), ==, 0);
  gp_session_free (s);
}

/* Without a live source, sync=true is what plays a file at its rate. */
static void
test_sync_not_live (void)
{
  GpSession *s;

  if (!gp_test_have_tracer ())
    return;
  s = capture ("videotestsrc name=src num-buffers=20 ! "
      "video/x-raw,width=320,height=240,framerate=30/1 ! "
      "fakesink name=snk sync=true", 0);
  g_assert_cmpuint (gp_session_count_findings (s, "SYNC"), ==, 0);
  gp_session_free (s);
}

/* ---- LATE ---- */

#define LATE_SINK "fakesink name=snk sync=true qos=true max-lateness=5000000"

static void
test_late_fires (void)
{
  GpSession *s;
  GpFinding *f;

  if (!gp_test_have_tracer ())
    return;
  /* 60 ms per frame for a 33 ms period */
  s = capture (LIVE_SMALL "identity name=slow sleep-time=60000 ! "
      LATE_SINK, 2.0);
  f = gp_session_find_finding (s, "LATE", "snk");
  g_assert_nonnull (f);
  check_finding_shape (f);
  g_test_message ("LATE fires: dropped %" G_GINT64_FORMAT " processed %"
      G_GINT64_FORMAT " (%.1f%%), hottest %s",
      gp_test_evidence_int (f, "dropped"), gp_test_evidence_int (f,
          "processed"),
      gp_test_evidence_double (f, "dropped_pct"),
      json_object_get_string_member (f->evidence, "hottest"));
  g_assert_cmpint (gp_test_evidence_int (f, "dropped"), >=, 10);
  g_assert_cmpstr (json_object_get_string_member (f->evidence, "hottest"),
      ==, "slow");
  g_assert_nonnull (strstr (f->fix, "slow takes"));
  g_assert_null (f->fix_patch);
  gp_session_free (s);
}

static void
test_late_silent_when_fast (void)
{
  GpSession *s;

  if (!gp_test_have_tracer ())
    return;
  s = capture (LIVE_SMALL "identity name=slow sleep-time=1000 ! " LATE_SINK,
      2.0);
  g_assert_cmpuint (gp_session_count_findings (s, "LATE"), ==, 0);
  gp_session_free (s);
}

/* The thresholds on hand-made events: 2 drops never fire, 3 of 1000 (0.3%)
 * neither, 3 of 100 do; the counts are the largest totals. */
static void
qos_event (GpSession * s, gdouble t, gint processed, gint dropped)
{
  gchar *text = g_strdup_printf ("processed %d, dropped %d (buffers)",
      processed, dropped);
  GpEvent *ev = gp_session_add_event (s, t, "qos", "snk", text);

  ev->data = json_object_new ();
  json_object_set_int_member (ev->data, "processed", processed);
  json_object_set_int_member (ev->data, "dropped", dropped);
  json_object_set_int_member (ev->data, "running_time", (gint64) (t * 1e9));
  g_free (text);
}

/* A decoder dropping its header packets before PLAYING (theoradec posts
 * three QoS messages, the first two without a running time): not late
 * frames, and not in the share of the frames that came later. */
static void
test_late_not_before_playing (void)
{
  GpSession *s = gp_session_new ();
  GpFinding *f;
  GpEvent *ev;
  gint i;

  gp_session_add_element (s, "pipeline0", "pipeline", "", "bin");
  gp_session_add_element (s, "dec", "theoradec", "pipeline0", "filter");
  gp_session_add_element (s, "snk", "fakesink", "pipeline0", "sink");
  for (i = 1; i <= 3; i++) {
    ev = gp_session_add_event (s, 0.001 * i, "qos", "dec", "header");
    ev->data = json_object_new ();
    json_object_set_int_member (ev->data, "processed", 0);
    json_object_set_int_member (ev->data, "dropped", i);
    if (i == 3)
      json_object_set_int_member (ev->data, "running_time", 0);
  }
  gp_session_add_event (s, 0.004, "state", "pipeline0", "PAUSED->PLAYING");
  gp_rules_run (s);
  g_assert_null (gp_session_find_finding (s, "LATE", "dec"));
  /* the same start, then 3 real drops of 100 after PLAYING: those count */
  ev = gp_session_add_event (s, 2.0, "qos", "dec", "late");
  ev->data = json_object_new ();
  json_object_set_int_member (ev->data, "processed", 97);
  json_object_set_int_member (ev->data, "dropped", 6);
  json_object_set_int_member (ev->data, "running_time", 2000000000);
  gp_rules_run (s);
  f = gp_session_find_finding (s, "LATE", "dec");
  g_assert_nonnull (f);
  g_assert_cmpint (gp_test_evidence_int (f, "dropped"), ==, 3);
  g_assert_cmpint (gp_test_evidence_int (f, "processed"), ==, 97);
  g_assert_cmpint (gp_test_evidence_int (f, "qos_messages"), ==, 1);
  /* the count the gate holds: the same 3, the header drops left out */
  g_assert_cmpint (gp_rules_late_dropped (s), ==, 3);
  gp_session_free (s);
  /* no element posted QoS: not known, not 0 */
  s = gp_session_new ();
  g_assert_cmpint (gp_rules_late_dropped (s), ==, -1);
  gp_session_free (s);
}

static void
test_late_thresholds (void)
{
  struct
  {
    gint processed, dropped;
    gboolean fires;
  } cases[] = {
    {98, 2, FALSE},
    {997, 3, FALSE},
    {97, 3, TRUE},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    GpSession *s = gp_session_new ();
    GpFinding *f;

    gp_session_add_element (s, "snk", "fakesink", "", "sink");
    qos_event (s, 1.0, 10, 1);
    qos_event (s, 2.0, cases[i].processed, cases[i].dropped);
    /* text is for people: numbers in it count for nothing */
    gp_session_add_event (s, 2.5, "qos", "snk", "processed 1, dropped 99");
    gp_session_add_event (s, 2.6, "warning", "snk", "dropped 99");
    gp_rules_run (s);
    f = gp_session_find_finding (s, "LATE", "snk");
    g_assert_cmpint (f != NULL, ==, cases[i].fires);
    if (f) {
      g_assert_cmpint (gp_test_evidence_int (f, "dropped"), ==, 3);
      /* the one without numbers in its data is not counted */
      g_assert_cmpint (gp_test_evidence_int (f, "qos_messages"), ==, 2);
    }
    gp_session_free (s);
  }
}

/* ---- ENC ---- */

#define ENC_TAIL " ! h264parse name=parse ! rtph264pay name=pay ! " \
  "udpsink name=net host=127.0.0.1 port=5999"

static void
test_enc_default_x264_fires (void)
{
  GpSession *s;
  GpFinding *f;
  gchar *fixed;

  if (!gp_test_have_tracer ())
    return;
  s = capture (LIVE_SMALL "x264enc name=enc" ENC_TAIL, 2.0);
  f = gp_session_find_finding (s, "ENC", "enc");
  g_assert_nonnull (f);
  check_finding_shape (f);
  g_test_message ("ENC fires: %s", f->title);
  /* The properties read back bframes=0, but preset medium decides:
   * 3 B-frames, 40 frames of lookahead, automatic keyint 250. */
  g_assert_cmpstr (json_object_get_string_member (f->evidence, "tune"), ==,
      "none");
  g_assert_cmpint (gp_test_evidence_int (f, "bframes"), ==, 3);
  g_assert_cmpint (gp_test_evidence_int (f, "lookahead_frames"), ==, 40);
  g_assert_cmpint (gp_test_evidence_int (f, "keyint_frames"), ==, 250);
  g_assert_cmpstr (json_object_get_string_member (f->evidence,
          "streaming_sink"), ==, "net");
  fixed = gp_test_patched (s, f);
  g_assert_nonnull (strstr (fixed, "x264enc name=enc tune=zerolatency "
          "key-int-max=30 !"));
  g_free (fixed);
  gp_session_free (s);

  /* a property the user set wins over the preset, in either spelling of
   * its name */
  s = capture (LIVE_SMALL "x264enc name=enc rc_lookahead=5" ENC_TAIL, 2.0);
  f = gp_session_find_finding (s, "ENC", "enc");
  g_assert_nonnull (f);
  g_assert_cmpint (gp_test_evidence_int (f, "bframes"), ==, 3);
  g_assert_cmpint (gp_test_evidence_int (f, "lookahead_frames"), ==, 5);
  gp_session_free (s);
}

static void
test_enc_tuned_silent (void)
{
  GpSession *s;

  if (!gp_test_have_tracer ())
    return;
  s = capture (LIVE_SMALL "x264enc name=enc tune=zerolatency key-int-max=30 "
      "bframes=0" ENC_TAIL, 2.0);
  g_assert_cmpuint (gp_session_count_findings (s, "ENC"), ==, 0);
  gp_session_free (s);
}

static GpSession *
load_fixture (const gchar * name)
{
  GpSession *s = gp_test_load_fixture (name);

  gp_rules_run (s);
  return s;
}

/* jetson-zc-break recorded nvv4l2h264enc bframes=2 and
 * insert-sps-pps=false, feeding udpsink (sync=true) from
 * nvarguscamerasrc; the Orin NX captures recorded no encoder settings
 * (only non-default values, none of these), so nothing can be said. */
static void
test_fixtures (void)
{
  GpSession *s = load_fixture ("jetson-zc-break.json");
  GpFinding *f = gp_session_find_finding (s, "ENC", "nvv4l2h264enc0");
  g_assert_nonnull (f);
  g_test_message ("ENC on jetson-zc-break: %s", f->title);
  g_assert_cmpint (gp_test_evidence_int (f, "bframes"), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (f->evidence,
          "insert_sps_pps"), ==, "false");
  g_assert_nonnull (f->fix_patch);
  g_assert_cmpuint (f->fix_patch->len, ==, 2);
  /* udpsink0 has sync=true, but the capture did not time it: no hold
   * measured, no finding (and a sender would only get info) */
  g_assert_null (gp_session_find_finding (s, "SYNC", "udpsink0"));
  g_assert_cmpuint (gp_session_count_findings (s, "LATE"), ==, 0);
  g_assert_cmpuint (gp_session_count_findings (s, "MEM"), ==, 0);
  gp_session_free (s);

  s = load_fixture ("orin-nx-jp6-healthy.json");
  g_assert_cmpuint (gp_session_count_findings (s, "ENC"), ==, 0);
  g_assert_cmpuint (gp_session_count_findings (s, "SYNC"), ==, 0);
  g_assert_cmpuint (gp_session_count_findings (s, "MEM"), ==, 0);
  gp_session_free (s);

  /* x264enc tune=zerolatency into fakesink sync=false */
  s = load_fixture ("software-healthy.json");
  g_assert_cmpuint (gp_session_count_findings (s, "ENC"), ==, 0);
  g_assert_cmpuint (gp_session_count_findings (s, "SYNC"), ==, 0);
  gp_session_free (s);
}

/* ---- MEM ---- */

#define MEM_PIPE(limit, sleep) "videotestsrc name=src is-live=true " \
  "pattern=black ! video/x-raw,width=1280,height=720,framerate=30/1 ! " \
  "queue name=q max-size-buffers=0 max-size-bytes=0 max-size-time=" limit \
  " ! identity name=slow sleep-time=" sleep " ! fakesink name=snk"

/* An unbounded queue before an element at 10 fps: the 20 frames a second
 * it cannot take (1.4 MB each) pile up. Bounded by the finding's patch,
 * memory grows until the queue is full and then stays: silent. */
static void
test_mem_fires_and_fix_clears (void)
{
  GpSession *s, *s2;
  GpFinding *f;
  gchar *fixed;

  if (!gp_test_have_tracer ())
    return;
  s = capture (MEM_PIPE ("0", "100000"), 3.0);
  f = gp_session_find_finding (s, "MEM", "q");
  g_assert_nonnull (f);
  check_finding_shape (f);
  g_test_message ("MEM fires: %.1f MiB/s, %.0f MiB over %.1f s steady",
      gp_test_evidence_double (f, "growth_rate_mib_per_sec"),
          gp_test_evidence_double (f, "growth_mib"),
      gp_test_evidence_double (f, "steady_s"));
  g_assert_cmpfloat (gp_test_evidence_double (f, "growth_rate_mib_per_sec"), >,
      20.0);
  fixed = gp_test_patched (s, f);
  g_assert_nonnull (strstr (fixed, "max-size-time=1000000000 !"));
  s2 = capture (fixed, 3.0);
  g_assert_cmpuint (gp_session_count_findings (s2, "MEM"), ==, 0);
  g_free (fixed);
  gp_session_free (s2);
  gp_session_free (s);
}

static void
test_mem_steady_silent (void)
{
  GpSession *s;

  if (!gp_test_have_tracer ())
    return;
  s = capture (MEM_PIPE ("0", "1000"), 2.0);
  g_assert_cmpuint (gp_session_count_findings (s, "MEM"), ==, 0);
  gp_session_free (s);
}

/* Hand-made series of 5 s in 0.25 s windows; with @teardown, a program
 * that then sets its pipeline to NULL (no EOS) at 5.05 s, and a last
 * window to 5.3 s whose sample is taken after it freed all but 50 MiB. */
static GpSession *
mem_session_full (gdouble (*rss) (gdouble t), gboolean teardown,
    gboolean helper)
{
  GpSession *s = gp_session_new ();
  guint i;

  gp_session_add_element (s, "pipeline0", "pipeline", "", "bin");
  gp_session_add_event (s, 0.0, "state", "pipeline0", "PAUSED->PLAYING");
  /* @helper: a second pipeline that plays from 0.5 s and leaves PLAYING
   * at 2 s while pipeline0 plays on */
  if (helper) {
    gp_session_add_element (s, "helper", "pipeline", "", "bin");
    gp_session_add_event (s, 0.5, "state", "helper", "PAUSED->PLAYING");
    gp_session_add_event (s, 2.0, "state", "helper", "PLAYING->PAUSED");
  }
  for (i = 1; i <= (teardown ? 21u : 20u); i++) {
    JsonObject *w = json_object_new (), *p = json_object_new ();
    gdouble t1 = i <= 20 ? i * 0.25 : 5.3;

    json_object_set_double_member (w, "t0", (i - 1) * 0.25);
    json_object_set_double_member (w, "t1", t1);
    json_object_set_double_member (p, "rss_mb", i <= 20 ? rss (t1) : 50);
    json_object_set_object_member (w, "process", p);
    gp_session_add_window (s, w);
    json_object_unref (w);
  }
  if (teardown)
    gp_session_add_event (s, 5.05, "state", "pipeline0", "PLAYING->PAUSED");
  gp_rules_run (s);
  return s;
}

static GpSession *
mem_session (gdouble (*rss) (gdouble t))
{
  return mem_session_full (rss, FALSE, FALSE);
}

static gdouble
rss_ramp (gdouble t)
{
  /* 200 MiB of start-up in the first second, then flat */
  return 50 + 200 * MIN (t, 1.0);
}

static gdouble
rss_linear (gdouble t)
{
  return 50 + 20 * t;
}

static gdouble
rss_slow (gdouble t)
{
  /* 1.5 MiB/s: below the slope threshold */
  return 50 + 1.5 * t;
}

static gdouble
rss_step (gdouble t)
{
  /* one step at 2.5 s, flat after */
  return t < 2.5 ? 60 : 160;
}

static void
test_mem_thresholds (void)
{
  GpSession *s = mem_session (rss_ramp);

  g_assert_cmpuint (gp_session_count_findings (s, "MEM"), ==, 0);
  gp_session_free (s);
  s = mem_session (rss_slow);
  g_assert_cmpuint (gp_session_count_findings (s, "MEM"), ==, 0);
  gp_session_free (s);
  s = mem_session (rss_step);
  g_assert_cmpuint (gp_session_count_findings (s, "MEM"), ==, 0);
  gp_session_free (s);
  s = mem_session (rss_linear);
  g_assert_cmpuint (gp_session_count_findings (s, "MEM"), ==, 1);
  g_assert_cmpfloat_with_epsilon (gp_test_evidence_double
      (gp_session_find_finding (s, "MEM", NULL), "growth_rate_mib_per_sec"),
      20.0, 0.01);
  gp_session_free (s);
  /* the same growth, and the teardown's sample after it: left out */
  s = mem_session_full (rss_linear, TRUE, FALSE);
  g_assert_cmpuint (gp_session_count_findings (s, "MEM"), ==, 1);
  g_assert_cmpfloat_with_epsilon (gp_test_evidence_double
      (gp_session_find_finding (s, "MEM", NULL), "growth_rate_mib_per_sec"),
      20.0, 0.01);
  g_assert_cmpfloat_with_epsilon (gp_test_evidence_double
      (gp_session_find_finding (s, "MEM", NULL), "rss_end_mib"), 150.0, 0.01);
  gp_session_free (s);
  /* a helper pipeline that ends while the main one plays is no teardown:
   * every sample counts, to the last at 5 s (1.5 to 5 s steady) */
  s = mem_session_full (rss_linear, FALSE, TRUE);
  g_assert_cmpuint (gp_session_count_findings (s, "MEM"), ==, 1);
  g_assert_cmpfloat_with_epsilon (gp_test_evidence_double
      (gp_session_find_finding (s, "MEM", NULL), "steady_s"), 3.5, 0.01);
  gp_session_free (s);
}

int
main (int argc, char **argv)
{
  GError *error = NULL;

  gp_capture_options_init (&base_opts);
  base_opts.progress = FALSE;
  if (!gp_capture_prepare_env (&base_opts, &error))
    g_error ("%s", error->message);
  gst_init (&argc, &argv);
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/rules/props/sync/fires-and-fix-clears",
      test_sync_fires_and_fix_clears);
  g_test_add_func ("/rules/props/sync/defaults", test_sync_defaults);
  g_test_add_func ("/rules/props/sync/not-live", test_sync_not_live);
  g_test_add_func ("/rules/props/sync/display-bin", test_sync_display_bin);
  g_test_add_func ("/rules/props/late/fires", test_late_fires);
  g_test_add_func ("/rules/props/late/silent-when-fast",
      test_late_silent_when_fast);
  g_test_add_func ("/rules/props/late/thresholds", test_late_thresholds);
  g_test_add_func ("/rules/props/late/not-before-playing",
      test_late_not_before_playing);
  g_test_add_func ("/rules/props/enc/default-x264-fires",
      test_enc_default_x264_fires);
  g_test_add_func ("/rules/props/enc/tuned-silent", test_enc_tuned_silent);
  g_test_add_func ("/rules/props/fixtures", test_fixtures);
  g_test_add_func ("/rules/props/mem/fires-and-fix-clears",
      test_mem_fires_and_fix_clears);
  g_test_add_func ("/rules/props/mem/steady-silent", test_mem_steady_silent);
  g_test_add_func ("/rules/props/mem/thresholds", test_mem_thresholds);
  return g_test_run ();
}
