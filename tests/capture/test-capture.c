/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * test-capture.c: gp_capture_run on real pipelines, with the tracer of this
 * build tree, against known truths: identity sleep-time=N costs N us per
 * buffer, a live videotestsrc runs at its caps' rate, queue
 * min-threshold-time holds buffers at least that long; plus the ways a run
 * ends (EOS, duration, error, Ctrl-C), a bad launch string, and the
 * session of one that would not start (gp_capture_error_session).
 *
 * All captures run in this one process with the one tracer instance that
 * gst_init created, as `gstprof run` does; every pipeline names its
 * elements, since GStreamer's automatic names count up across pipelines.
 */
#include <gst/gst.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include "capture/gp-capture.h"
#include "report/gp-verdict.h"
#include "rules/gp-rules.h"
#include "gp-config.h"
#include "gp-test-series.h"
#include "gp-test-util.h"

static GpCaptureOptions base_opts;



/* The acceptance pipeline (100 buffers to keep the suite short):
 * each identity's self time p50 within 10 % or 0.2 ms of its sleep, the
 * 8 ms one first with about 8 / 11 of the time.
 *
 * Each truth is the sleep as this machine gives it: the planted time plus
 * the median oversleep of the same sleep timed here (gp_test_oversleep_ms:
 * 0.2 ms at 1 ms on a fresh Debian 12 root, which failed the old bound of
 * the planted time alone).
 *
 * The p50s hold on a busy machine too, but the share is a ratio of sums of
 * wall time: when other processes keep the two cores busy, a few late
 * wake-ups from a 1 ms sleep add tens of ms to that element's sum (truly
 * spent there, but not the truth this test knows). So the share gets up to
 * three runs to show itself on a quiet moment; every run must pass the
 * p50 and rank checks. */
static gboolean
identity_run (gdouble * top_share)
{
  const struct
  {
    const gchar *name;
    gdouble ms;
  } truth[] = { {"id2", 2.0}, {"id8", 8.0}, {"id1", 1.0} };
  GpCaptureEnd end;
  GpSession *s;
  GpElementSummary *top;
  guint i;

  s = gp_test_capture (&base_opts, "videotestsrc name=src num-buffers=100 ! "
      "video/x-raw,width=64,height=48 ! "
      "identity name=id2 sleep-time=2000 ! identity name=id8 sleep-time=8000 ! "
      "identity name=id1 sleep-time=1000 ! fakesink name=sink sync=false",
      0, &end);
  g_assert_cmpint (end, ==, GP_CAPTURE_END_EOS);

  for (i = 0; i < s->elem_summaries->len; i++) {
    GpElementSummary *es = g_ptr_array_index (s->elem_summaries, i);

    g_test_message ("%s: p50 %.3f ms p95 %.3f ms, total %.1f ms, share "
        "%.1f %% (%" G_GUINT64_FORMAT " buffers)", es->name, es->self_ms.p50,
        es->self_ms.p95, es->self_total_ms, es->share_pct, es->buffers);
  }
  for (i = 0; i < G_N_ELEMENTS (truth); i++) {
    GpElementSummary *es = gp_session_find_elem_summary (s, truth[i].name);

    gdouble slept;

    g_assert_nonnull (es);
    slept = truth[i].ms + gp_test_oversleep_ms (truth[i].ms);
    g_test_message ("%s: %.1f ms asked, %.3f ms slept here", truth[i].name,
        truth[i].ms, slept);
    g_assert_cmpuint (es->buffers, ==, 100);
    g_assert_cmpfloat (fabs (es->self_ms.p50 - slept), <=,
        MAX (0.1 * truth[i].ms, 0.2));
  }
  top = g_ptr_array_index (s->elem_summaries, 0);
  g_assert_cmpstr (top->name, ==, "id8");
  *top_share = top->share_pct;
  g_assert_cmpstr (s->mode, ==, "run");
  g_assert_nonnull (s->launch);
  g_assert_nonnull (gp_session_find_element (s, "id8"));
  g_assert_cmpuint (s->series->len, >, 0);
  gp_session_free (s);
  return fabs (*top_share - 100.0 * 8 / 11) <= 5.0;
}

static void
test_identity_self_time (void)
{
  gdouble share = 0;
  guint attempt;
  gboolean ok = FALSE;

  if (!gp_test_have_tracer ())
    return;
  for (attempt = 0; attempt < 3 && !ok; attempt++)
    ok = identity_run (&share);
  if (!ok)
    g_error ("id8's share is %.1f %%, not 72.7 +- 5 %%, in 3 runs", share);
}

/* A live 30/1 source for about 2 s: 30 +- 1 fps at the sink, the target
 * rate from the caps and the frame period from it; ends on the duration. */
static void
test_live_rate (void)
{
  GpCaptureEnd end;
  GpSession *s;
  GpSinkSummary *ss;
  gchar *json;

  if (!gp_test_have_tracer ())
    return;
  s = gp_test_capture (&base_opts, "videotestsrc name=src is-live=true ! "
      "video/x-raw,framerate=30/1,width=64,height=48 ! fakesink name=sink",
      2.0, &end);
  g_assert_cmpint (end, ==, GP_CAPTURE_END_DURATION);

  ss = gp_session_find_sink (s, "sink");
  g_assert_nonnull (ss);
  g_test_message ("sink: %.2f fps (target %.2f), %" G_GUINT64_FORMAT
      " buffers, frame period %.2f ms, duration %.2f s", ss->fps,
      ss->target_fps, ss->buffers, s->frame_period_ms, s->duration_s);
  g_assert_cmpfloat (fabs (ss->fps - 30.0), <=, 1.0);
  g_assert_cmpfloat (fabs (ss->target_fps - 30.0), <, 1e-9);
  g_assert_cmpfloat (fabs (s->target_fps - 30.0), <, 1e-9);
  g_assert_cmpfloat (fabs (s->frame_period_ms - 1000.0 / 30), <, 1e-6);
  g_assert_cmpfloat (s->duration_s, >=, 2.0);
  g_assert_cmpfloat (s->duration_s, <, 6.0);
  g_assert_true (g_str_equal (s->platform, "generic")
      || g_str_equal (s->platform, "dgpu") || g_str_equal (s->platform,
          "jetson"));
  g_assert_cmpuint (strlen (s->started), ==, strlen ("2024-01-01T00:00:00Z"));
  g_assert_cmpuint (s->threads->len, >, 0);

  /* the records' times and the session's clock agree: the series and the
   * events lie within the run (a window may open a little before it) */
  {
    JsonObject *first = g_ptr_array_index (s->series, 0);
    JsonObject *last = g_ptr_array_index (s->series, s->series->len - 1);
    guint i;

    g_assert_cmpfloat (json_object_get_double_member (first, "t0"), >, -0.5);
    g_assert_cmpfloat (json_object_get_double_member (first, "t0"), <, 0.5);
    g_assert_cmpfloat (fabs (json_object_get_double_member (last, "t1") -
            s->duration_s), <, 0.3);
    for (i = 0; i < s->events->len; i++) {
      GpEvent *ev = g_ptr_array_index (s->events, i);

      g_assert_cmpfloat (ev->t, >, -1.0);
      g_assert_cmpfloat (ev->t, <, s->duration_s + 0.5);
    }
  }

  /* the session is whole: the core writes it */
  json = gp_session_to_data (s, TRUE, NULL);
  g_assert_nonnull (json);
  g_free (json);
  gp_session_free (s);
}

/* queue min-threshold-time=50 ms in a live 30/1 path. The truth is one
 * frame period, 33.3 ms, not 50: the queue counts its level with buffer
 * durations, so the second frame in (2 x 33.3 ms >= 50) releases the first;
 * GStreamer's own latency tracer measures 33.4 ms on this pipeline (and
 * 40.1 ms at 25/1, 0.1 ms at 15/1). The path to the sink shows it, the
 * queue's residence says so apart, and the queue's own self time stays
 * small (waiting is not work). */
static void
test_queue_latency (void)
{
  GpCaptureEnd end;
  GpSession *s;
  GpPath *path = NULL;
  GpQueueSummary *qs;
  GpElementSummary *qe;
  guint i;

  if (!gp_test_have_tracer ())
    return;
  s = gp_test_capture (&base_opts, "videotestsrc name=src is-live=true ! "
      "video/x-raw,framerate=30/1,width=64,height=48 ! "
      "queue name=q min-threshold-time=50000000 ! fakesink name=sink",
      1.5, &end);
  g_assert_cmpint (end, ==, GP_CAPTURE_END_DURATION);

  for (i = 0; i < s->paths->len; i++) {
    GpPath *p = g_ptr_array_index (s->paths, i);

    if (g_str_equal (p->sink, "sink"))
      path = p;
  }
  g_assert_nonnull (path);
  g_test_message ("path %s -> %s: p50 %.2f ms p95 %.2f ms, %"
      G_GUINT64_FORMAT " matched, %" G_GUINT64_FORMAT " unmatched",
      path->source, path->sink, path->latency_ms.p50, path->latency_ms.p95,
      path->matched, path->unmatched);
  g_assert_cmpfloat (fabs (path->latency_ms.p50 - 1000.0 / 30), <=, 2.0);
  g_assert_cmpuint (path->matched, >, 0);

  qs = gp_session_find_queue_summary (s, "q");
  g_assert_nonnull (qs);
  g_test_message ("queue q: residence p50 %.2f ms, level mean %.1f %%",
      qs->residence_ms.p50, qs->level_pct_mean);
  g_assert_cmpfloat (fabs (qs->residence_ms.p50 - 1000.0 / 30), <=, 2.0);

  qe = gp_session_find_elem_summary (s, "q");
  g_assert_nonnull (qe);
  g_test_message ("queue q: self p50 %.3f ms", qe->self_ms.p50);
  g_assert_cmpfloat (qe->self_ms.p50, <, 1.0);
  g_assert_cmpfloat (qe->share_pct, ==, 0.0);
  gp_test_assert_series_declared (s);
  gp_session_free (s);
}

/* A pipeline that fails on its own still gives a complete session, ended
 * by the error, with the error among its events. */
static void
test_pipeline_error (void)
{
  GpCaptureEnd end;
  GpSession *s;

  if (!gp_test_have_tracer ())
    return;
  s = gp_test_capture (&base_opts,
      "filesrc name=file location=/nonexistent/gstprof-test ! "
      "fakesink name=sink", 0, &end);
  g_assert_cmpint (end, ==, GP_CAPTURE_END_ERROR);
  g_assert_nonnull (gp_session_find_event (s, "error"));
  g_assert_cmpstr (s->mode, ==, "run");
  gp_session_free (s);
}

/* A bad launch string is refused before anything runs, naming the
 * element. Needs no tracer: parsing comes first. */
static void
test_bad_launch (void)
{
  GpCaptureOptions opts = base_opts;
  GError *error = NULL;
  GpCaptureEnd end;

  opts.launch = "videotestsrc ! gstprofnosuchelement ! fakesink";
  g_assert_null (gp_capture_run (&opts, &end, &error));
  g_assert_error (error, GP_CAPTURE_ERROR, GP_CAPTURE_ERROR_LAUNCH);
  g_assert_nonnull (strstr (error->message, "gstprofnosuchelement"));
  g_assert_null (strchr (error->message, '\n'));
  g_clear_error (&error);

  opts.launch = "videotestsrc ! ! fakesink";
  g_assert_null (gp_capture_run (&opts, &end, &error));
  g_assert_error (error, GP_CAPTURE_ERROR, GP_CAPTURE_ERROR_LAUNCH);
  g_clear_error (&error);
}

static gboolean
send_sigint (gpointer data)
{
  kill (getpid (), SIGINT);
  return G_SOURCE_REMOVE;
}

/* Ctrl-C mid-run: EOS is sent, the run ends as interrupted, and the
 * session has what was measured until then. */
static void
test_interrupt (void)
{
  GpCaptureEnd end;
  GpSession *s;
  GpSinkSummary *ss;

  if (!gp_test_have_tracer ())
    return;
  g_timeout_add (1000, send_sigint, NULL);
  s = gp_test_capture (&base_opts, "videotestsrc name=src is-live=true ! "
      "video/x-raw,framerate=30/1,width=64,height=48 ! fakesink name=sink",
      0, &end);
  g_assert_cmpint (end, ==, GP_CAPTURE_END_INTERRUPTED);
  g_assert_nonnull (gp_session_find_event (s, "interrupt"));
  g_assert_cmpfloat (s->duration_s, <, 4.0);
  ss = gp_session_find_sink (s, "sink");
  g_assert_nonnull (ss);
  g_assert_cmpuint (ss->buffers, >=, 20);
  gp_session_free (s);
}

/* gpspin, an element of this test: its first buffer costs it
 * GP_SPIN_MS of its thread's CPU time (a heavy encoder closing with
 * frames in its lookahead, in small), then it passes buffers on. It notes
 * on the monotonic clock when its work ended: the truth of when the stop
 * could end. */
#define GP_SPIN_MS 9000
typedef GstElement GpSpin;
typedef GstElementClass GpSpinClass;
GType gp_spin_get_type (void);
G_DEFINE_TYPE (GpSpin, gp_spin, GST_TYPE_ELEMENT);
static GstStaticPadTemplate gp_spin_sink = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS_ANY);
static GstStaticPadTemplate gp_spin_src = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS_ANY);
static gint gp_spin_spun;
static gint64 gp_spin_done_us;

static gdouble
gp_spin_thread_cpu_ms (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static GstFlowReturn
gp_spin_chain (GstPad * pad, GstObject * parent, GstBuffer * buf)
{
  if (g_atomic_int_compare_and_exchange (&gp_spin_spun, 0, 1)) {
    gdouble until = gp_spin_thread_cpu_ms () + GP_SPIN_MS;

    while (gp_spin_thread_cpu_ms () < until);
    gp_spin_done_us = g_get_monotonic_time ();     /* read once stopped */
  }
  return gst_pad_push (GST_ELEMENT (parent)->srcpads->data, buf);
}

static void
gp_spin_init (GpSpin * self)
{
  GstPad *sink = gst_pad_new_from_static_template (&gp_spin_sink, "sink");
  GstPad *src = gst_pad_new_from_static_template (&gp_spin_src, "src");

  gst_pad_set_chain_function (sink, gp_spin_chain);
  GST_PAD_SET_PROXY_CAPS (sink);
  GST_PAD_SET_PROXY_ALLOCATION (sink);
  GST_PAD_SET_PROXY_CAPS (src);
  gst_element_add_pad (self, sink);
  gst_element_add_pad (self, src);
}

static void
gp_spin_class_init (GpSpinClass * klass)
{
  gst_element_class_add_static_pad_template (klass, &gp_spin_sink);
  gst_element_class_add_static_pad_template (klass, &gp_spin_src);
  gst_element_class_set_static_metadata (klass, "gpspin", "Filter",
      "burns CPU on its first buffer", "gstprof");
}

/* A stop that takes longer than the usual bound because an element is
 * still working (its thread on the CPU all along) is waited for: the run
 * is not called stuck, the session says how long the stop took, and it
 * ended within a check's period of when the element's work did. */
static void
test_slow_stop (void)
{
  GpCaptureEnd end;
  GpSession *s;
  GpEvent *ev;
  gint64 ended_us;

  if (!gp_test_have_tracer ())
    return;
  g_assert_true (gst_element_register (NULL, "gpspin", GST_RANK_NONE,
          gp_spin_get_type ()));
  s = gp_test_capture (&base_opts, "videotestsrc name=ss_src is-live=true ! "
      "video/x-raw,framerate=30/1,width=64,height=48 ! gpspin name=ss_spin ! "
      "fakesink name=ss_sink", 1.0, &end);
  ended_us = g_get_monotonic_time ();
  g_assert_cmpint (gp_spin_done_us, >, 0);
  g_test_message ("the run ended %.2f s after the element's work",
      (ended_us - gp_spin_done_us) / 1e6);
  g_assert_null (gp_session_find_event (s, "stuck"));
  ev = gp_session_find_event (s, "slow-stop");
  g_assert_nonnull (ev);
  g_test_message ("%s", ev->text);
  g_assert_nonnull (strstr (ev->text, "working all along"));
  g_assert_cmpint (ended_us - gp_spin_done_us, <, 1500 * 1000);
  gp_session_free (s);
}

/* x264enc with threads=2 encodes on its own threads, never seen in a
 * hook: the session keeps them as non-streaming threads with their CPU,
 * the process's CPU is more than all streaming threads' together, RSS and
 * the CPU count are there, they survive session.json, and the verdict
 * names the workers next to the process line. */
static void
test_worker_threads (void)
{
  GstElementFactory *f = gst_element_factory_find ("x264enc");
  GpCaptureEnd end;
  GpSession *s, *back;
  GError *error = NULL;
  gdouble streaming = 0, workers = 0;
  guint i, n_workers = 0;
  gchar *json, *text, *text_back;

  if (!gp_test_have_tracer ())
    return;
  if (!f) {
    g_test_skip ("x264enc is not installed");
    return;
  }
  gst_object_unref (f);
  s = gp_test_capture (&base_opts, "videotestsrc is-live=true pattern=ball ! "
      "video/x-raw,width=1280,height=720,framerate=30/1 ! "
      "x264enc threads=2 speed-preset=faster ! fakesink sync=false",
      2.0, &end);
  g_assert_cmpint (end, ==, GP_CAPTURE_END_DURATION);

  for (i = 0; i < s->threads->len; i++) {
    GpThreadSummary *t = g_ptr_array_index (s->threads, i);

    g_test_message ("thread %s (%" G_GUINT64_FORMAT "): %s, %.1f %% of a "
        "core, %u elements", t->name, t->tid, t->worker ? "worker" :
        "streaming", t->cpu_pct_mean, t->elements->len);
    if (t->worker) {
      g_assert_cmpuint (t->elements->len, ==, 0);
      workers += t->cpu_pct_mean;
      if (t->cpu_pct_mean > 0)
        n_workers++;
    } else {
      streaming += t->cpu_pct_mean;
    }
  }
  g_test_message ("process %.1f %% (max %.1f) of %d CPUs; streaming %.1f "
      "%%, workers %.1f %%; RSS %.1f / %.1f / %.1f MiB",
      s->process.cpu_pct_mean, s->process.cpu_pct_max, s->process.n_cpus,
      streaming, workers, s->process.rss_mb_start, s->process.rss_mb_max,
      s->process.rss_mb_end);
  g_assert_true (s->process.measured);
  g_assert_cmpuint (n_workers, >=, 2);
  /* The threads' CPU adds up to the process's, read apart from
   * /proc/self/stat: no thread left out or counted twice. How x264 splits
   * its work between the streaming thread and its own is its business
   * (on one run in three here its frame threads stay near idle). */
  g_assert_cmpfloat (fabs (s->process.cpu_pct_mean - (streaming + workers)),
      <=, 5.0 + 0.05 * s->process.cpu_pct_mean);
  g_assert_cmpfloat (s->process.cpu_pct_mean, >, streaming);
  g_assert_cmpfloat (s->process.cpu_pct_max, >=, s->process.cpu_pct_mean);
  g_assert_cmpint (s->process.n_cpus, >=, 1);
  g_assert_cmpfloat (s->process.rss_mb_start, >, 1.0);
  g_assert_cmpfloat (s->process.rss_mb_max, >=, s->process.rss_mb_end);
  g_assert_cmpfloat (s->process.rss_mb_end, >, 1.0);
  {
    JsonObject *w = g_ptr_array_index (s->series, s->series->len / 2);
    JsonObject *proc = json_object_get_object_member (w, "process");

    g_assert_nonnull (proc);
    g_assert_cmpfloat (json_object_get_double_member (proc, "cpu_pct"), >,
        0);
    g_assert_cmpfloat (json_object_get_double_member (proc, "rss_mb"), >, 1);
  }

  gp_rules_run (s);
  text = gp_verdict_format (s, NULL, GP_VERDICT_PLAIN);
  gp_test_message_text (text);
  g_assert_nonnull (strstr (text, "\n  process: "));
  /* the worker threads' line when they did enough to say */
  if (workers >= GP_VERDICT_WORKER_MIN_PCT)
    g_assert_nonnull (strstr (text, "\n  worker threads: "));
  else
    g_assert_null (strstr (text, "\n  worker threads: "));

  /* through session.json: the same verdict */
  json = gp_session_to_data (s, FALSE, NULL);
  back = gp_session_load_data (json, -1, "worker.json", &error);
  g_assert_no_error (error);
  g_assert_true (back->process.measured);
  g_assert_cmpfloat (back->process.cpu_pct_mean, ==, s->process.cpu_pct_mean);
  text_back = gp_verdict_format (back, NULL, GP_VERDICT_PLAIN);
  g_assert_cmpstr (text_back, ==, text);

  g_free (text_back);
  g_free (text);
  g_free (json);
  gp_session_free (back);
  gp_session_free (s);
}

/* A launch string that would not start without a message: the session
 * that says so, saved and read back as any other. */
static void
test_error_session (void)
{
  GpSession *s = gp_capture_error_session ("videotestsrc name=es ! "
      "fakesink", "the pipeline would not start");
  gchar *dir = g_dir_make_tmp ("gp-error-session-XXXXXX", NULL);
  gchar *path = g_build_filename (dir, "session.json", NULL);
  GError *err = NULL;
  GpSession *back;
  GpEvent *ev;

  g_assert_cmpstr (s->mode, ==, "run");
  g_assert_cmpstr (s->launch, ==, "videotestsrc name=es ! fakesink");
  g_assert_true (g_str_has_suffix (s->started, "Z"));
  /* the release alone, as a run's session has it ("1.22.0"): the verdict
   * puts "GStreamer" before it */
  {
    guint major, minor, micro, nano;
    gchar *version;

    gst_version (&major, &minor, &micro, &nano);
    version = g_strdup_printf ("%u.%u.%u", major, minor, micro);
    g_assert_cmpstr (s->gstreamer, ==, version);
    g_free (version);
  }
  g_assert_nonnull (s->platform);
  g_assert_null (s->reached);
  g_assert_true (gp_session_save (s, path, &err));
  g_assert_no_error (err);
  back = gp_session_load (path, &err);
  g_assert_no_error (err);
  ev = gp_session_find_event (back, "error");
  g_assert_nonnull (ev);
  g_assert_cmpstr (ev->text, ==, "the pipeline would not start");
  g_assert_cmpfloat (ev->t, ==, 0.0);
  gp_session_free (back);
  gp_session_free (s);
  g_unlink (path);
  g_rmdir (dir);
  g_free (path);
  g_free (dir);
}

int
main (int argc, char **argv)
{
  GError *error = NULL;

  gp_capture_options_init (&base_opts);
  /* like the CLI: the tracer set up before GStreamer starts */
  if (!gp_capture_prepare_env (&base_opts, &error))
    g_error ("%s", error->message);
  gst_init (&argc, &argv);
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/capture/bad-launch", test_bad_launch);
  g_test_add_func ("/capture/identity-self-time", test_identity_self_time);
  g_test_add_func ("/capture/live-rate", test_live_rate);
  g_test_add_func ("/capture/queue-latency", test_queue_latency);
  g_test_add_func ("/capture/pipeline-error", test_pipeline_error);
  g_test_add_func ("/capture/interrupt", test_interrupt);
  g_test_add_func ("/capture/slow-stop", test_slow_stop);
  g_test_add_func ("/capture/worker-threads", test_worker_threads);
  g_test_add_func ("/capture/error-session", test_error_session);
  return g_test_run ();
}
