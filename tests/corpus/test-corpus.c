/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof tests
 *
 * test-corpus.c: the numbers of the verdict on the pipelines people run
 * (tests/corpus/README.md lists them), each checked against a truth that
 * does not come from gstprof: GStreamer's own latency tracer on the same
 * run, the kernel's CPU accounting of the threads, known rates (a live
 * source's framerate, an encoder's bitrate, opus frames of 20 ms),
 * identity sleep-time, a file's known length, and what the pipeline does
 * (it plays, or it does not).
 *
 * Every capture runs in this process, with the latency tracer loaded next
 * to gstprof (GST_TRACERS="latency(flags=pipeline);gstprof(...)"); its
 * records are read from GStreamer's debug log as they are written.  Media
 * files are made here, once, in a temporary folder; RTP senders run as
 * gst-launch-1.0 processes on loopback.  Elements are named in every
 * launch string (automatic names count up across captures).
 */
#include <gst/gst.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "capture/gp-capture.h"
#include "capture/gp-wrap.h"
#include "core/gp-caps.h"
#include "core/gp-launch.h"
#include "rules/gp-rules.h"
#include "report/gp-gate.h"
#include "report/gp-verdict.h"
#include "gp-test-util.h"

static GpCaptureOptions base_opts;
static gchar *media_dir;

/* GStreamer 1.25.x to 1.26.4 run tracer hooks for sticky events under the
 * pad's object lock, and its latency tracer takes that lock again in them
 * and hangs (fixed in 1.26.5). There the truth cannot be loaded: latency is
 * only checked to be matched, and the test says so. */
static gboolean lat_tracer_loaded;

static gboolean
lat_tracer_hangs (void)
{
  guint major, minor, micro, nano;

  gst_version (&major, &minor, &micro, &nano);
  return major == 1 && (minor == 25 || (minor == 26 && micro < 5));
}

/* ------------------------------------------------------------------ */
/* the latency tracer's records, read off GStreamer's debug log        */

typedef struct
{
  gchar *src;                   /* src-element */
  gchar *sink;                  /* sink-element */
  guint64 time;                 /* ns */
  guint64 ts;                   /* when it was logged, ns */
} LatRecord;

static GMutex lat_lock;
static GPtrArray *lat_records;

static void
lat_record_free (gpointer p)
{
  LatRecord *r = p;

  g_free (r->src);
  g_free (r->sink);
  g_free (r);
}

static void
on_log (GstDebugCategory * category, GstDebugLevel level, const gchar * file,
    const gchar * function, gint line, GObject * object,
    GstDebugMessage * message, gpointer user_data)
{
  const gchar *text;
  GstStructure *s;
  LatRecord *r;

  if (g_strcmp0 (gst_debug_category_get_name (category), "GST_TRACER"))
    return;
  text = gst_debug_message_get (message);
  if (text == NULL || !g_str_has_prefix (text, "latency,"))
    return;
  s = gst_structure_from_string (text, NULL);
  if (s == NULL)
    return;
  r = g_new0 (LatRecord, 1);
  r->src = g_strdup (gst_structure_get_string (s, "src-element"));
  r->sink = g_strdup (gst_structure_get_string (s, "sink-element"));
  if (gst_structure_get_uint64 (s, "time", &r->time) &&
      gst_structure_get_uint64 (s, "ts", &r->ts) && r->src && r->sink) {
    g_mutex_lock (&lat_lock);
    g_ptr_array_add (lat_records, r);
    g_mutex_unlock (&lat_lock);
  } else {
    lat_record_free (r);
  }
  gst_structure_free (s);
}

static void
lat_reset (void)
{
  g_mutex_lock (&lat_lock);
  g_ptr_array_set_size (lat_records, 0);
  g_mutex_unlock (&lat_lock);
}

static gint
cmp_u64 (gconstpointer a, gconstpointer b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;

  return x < y ? -1 : x > y;
}

/* A path's start-up as gstprof leaves it out of its latencies
 * (docs/session-schema.md, summary.paths[].steady): the first second
 * after its first match. */
#define LAT_STARTUP_NS GST_SECOND

/* The latency tracer's latencies from @src (NULL: any source) to @sink in
 * ns, sorted: all of them, or with @steady those logged a second or more
 * after the first (the start-up left out, as gstprof leaves it out). */
static GArray *
lat_tracer_times (const gchar * src, const gchar * sink, gboolean steady)
{
  GArray *v = g_array_new (FALSE, FALSE, sizeof (guint64));
  guint64 first = G_MAXUINT64;
  guint i;

  g_mutex_lock (&lat_lock);
  for (i = 0; i < lat_records->len; i++) {
    LatRecord *r = g_ptr_array_index (lat_records, i);

    if ((src == NULL || g_str_equal (r->src, src)) &&
        g_str_equal (r->sink, sink))
      first = MIN (first, r->ts);
  }
  for (i = 0; i < lat_records->len; i++) {
    LatRecord *r = g_ptr_array_index (lat_records, i);

    if ((src == NULL || g_str_equal (r->src, src)) &&
        g_str_equal (r->sink, sink) &&
        (!steady || r->ts >= first + LAT_STARTUP_NS))
      g_array_append_val (v, r->time);
  }
  g_mutex_unlock (&lat_lock);
  g_array_sort (v, cmp_u64);
  return v;
}

/* The @q quantile of @v (sorted ns) in ms, nearest rank; < 0 when empty. */
static gdouble
lat_quantile_ms (GArray * v, gdouble q)
{
  if (v->len == 0)
    return -1;
  return g_array_index (v, guint64, MAX ((guint) ceil (q * v->len), 1) - 1) /
      1e6;
}

/* The latency tracer's p50 from @src (NULL: any source) to @sink in ms,
 * over the same span as gstprof's (@steady), < 0 when it reported
 * nothing for them. */
static gdouble
lat_tracer_p50 (const gchar * src, const gchar * sink, gboolean steady,
    guint * n_out)
{
  GArray *v = lat_tracer_times (src, sink, steady);
  gdouble p50 = v->len ? g_array_index (v, guint64, (v->len - 1) / 2) / 1e6 :
      -1;

  if (n_out)
    *n_out = v->len;
  g_array_unref (v);
  return p50;
}

/* ------------------------------------------------------------------ */
/* runs                                                                */

typedef struct
{
  GpSession *s;
  GpCaptureEnd end;
  gdouble proc_cpu_s;           /* /proc/self/stat over the capture */
  gdouble wall_s;
} Run;

/* utime + stime of this process from /proc/self/stat, in s */
static gdouble
proc_cpu_s (void)
{
  gchar *text = NULL, *p;
  gdouble cpu = -1;

  if (g_file_get_contents ("/proc/self/stat", &text, NULL, NULL) &&
      (p = strrchr (text, ')')) != NULL) {
    gchar **f = g_strsplit (p + 2, " ", 0);

    /* after the comm: state is field 3, utime 14 and stime 15 */
    if (g_strv_length (f) > 13)
      cpu = (g_ascii_strtod (f[11], NULL) + g_ascii_strtod (f[12], NULL)) /
          sysconf (_SC_CLK_TCK);
    g_strfreev (f);
  }
  g_free (text);
  return cpu;
}

/* (the tracer's own parameters, cpu= among them, are fixed at gst_init:
 * every capture here runs with the same) */
static Run
run_with (const GpCaptureOptions * opts, const gchar * launch,
    gdouble duration_s)
{
  Run r;
  gdouble c0 = proc_cpu_s ();
  gint64 t0 = g_get_monotonic_time ();

  lat_reset ();
  r.s = gp_test_capture (opts, launch, duration_s, &r.end);
  r.wall_s = (g_get_monotonic_time () - t0) / 1e6;
  r.proc_cpu_s = proc_cpu_s () - c0;
  gp_rules_run (r.s);
  g_test_message ("%s: %.1f s, end %d, process CPU %.2f s (/proc)", launch,
      r.wall_s, r.end, r.proc_cpu_s);
  return r;
}

static Run
run (const gchar * launch, gdouble duration_s)
{
  return run_with (&base_opts, launch, duration_s);
}

/* A pad probe of the test's own, set on @pad of element @element when the
 * launch string's elements are added to their pipeline (an emission hook
 * on GstBin::element-added): the truth some cases measure, or a wait
 * they plant. */
typedef struct
{
  const gchar *element;
  const gchar *pad;
  GstPadProbeCallback probe;
} ProbeAt;

static gboolean
probe_on_element_added (GSignalInvocationHint * hint, guint n,
    const GValue * values, gpointer data)
{
  GstElement *e = g_value_get_object (&values[1]);
  gchar *name = gst_element_get_name (e);
  const ProbeAt *at;

  for (at = data; at->element; at++) {
    GstPad *pad = g_str_equal (name, at->element) ?
        gst_element_get_static_pad (e, at->pad) : NULL;

    if (pad) {
      gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, at->probe, NULL,
          NULL);
      gst_object_unref (pad);
    }
  }
  g_free (name);
  return TRUE;
}

/* run () with the probes @at (ended by one whose element is NULL). */
static Run
run_probed (const gchar * launch, gdouble duration_s, const ProbeAt * at)
{
  guint signal = g_signal_lookup ("element-added", GST_TYPE_BIN);
  gulong hook = g_signal_add_emission_hook (signal, 0,
      probe_on_element_added, (gpointer) at, NULL);
  Run r = run (launch, duration_s);

  g_signal_remove_emission_hook (signal, hook);
  return r;
}

static void
run_clear (Run * r)
{
  gp_session_free (r->s);
  r->s = NULL;
}

static GpElementSummary *
elem (GpSession * s, const gchar * name)
{
  GpElementSummary *es = gp_session_find_elem_summary (s, name);

  if (es == NULL)
    g_error ("no element summary for %s", name);
  return es;
}

static GpSinkSummary *
sink (GpSession * s, const gchar * name)
{
  GpSinkSummary *sk = gp_session_find_sink (s, name);

  if (sk == NULL)
    g_error ("no sink summary for %s", name);
  g_test_message ("sink %s: %s, %.2f buffers/s, media %.3f per s, %.0f "
      "bytes/s, first at %.2f s", name, sk->media, sk->fps, sk->media_per_s,
      sk->bytes_per_s, sk->first_s);
  return sk;
}

static GpPath *
path (GpSession * s, const gchar * source, const gchar * sinkname)
{
  GpPath *p = gp_session_find_path (s, source, sinkname);

  if (p == NULL)
    g_error ("no latency path %s > %s", source, sinkname);
  g_test_message ("path %s > %s: p50 %.2f ms, mean %.2f ms, %" G_GUINT64_FORMAT
      " matched (%" G_GUINT64_FORMAT " exact), %" G_GUINT64_FORMAT
      " unmatched", source, sinkname, p->latency_ms.p50, p->mean_ms,
      p->matched, p->exact, p->unmatched);
  return p;
}

/* The one latency path into @sinkname. */
static GpPath *
path_into (GpSession * s, const gchar * sinkname)
{
  GpPath *found = NULL;
  guint i;

  for (i = 0; i < s->paths->len; i++) {
    GpPath *p = g_ptr_array_index (s->paths, i);

    if (g_strcmp0 (p->sink, sinkname) != 0)
      continue;
    if (found)
      g_error ("two paths into %s: %s and %s", sinkname, found->source,
          p->source);
    found = p;
  }
  if (found == NULL)
    g_error ("no latency path into %s", sinkname);
  return path (s, found->source, sinkname);
}

/* No finding judges a sink's rate (BUDGET's throughput check). */
static void
assert_no_rate_finding (GpSession * s)
{
  guint i;

  for (i = 0; i < s->findings->len; i++) {
    GpFinding *f = g_ptr_array_index (s->findings, i);

    if (json_object_has_member (f->evidence, "achieved_fps"))
      g_error ("%s: %s", f->rule, f->title);
  }
}

/* Whether @t is @streaming or a worker it started: workers inherit their
 * creator's name, made unique as "name/tid" (x264enc's frame threads,
 * started from the streaming thread that opened the encoder). */
static gboolean
thread_of (const GpThreadSummary * t, const gchar * streaming)
{
  gsize n = strlen (streaming);

  return g_strcmp0 (t->name, streaming) == 0 || (t->worker &&
      strncmp (t->name, streaming, n) == 0 && t->name[n] == '/');
}

/* CPU time in ms that the threads @es ran on, and the workers they started,
 * spent over the run, from the kernel's per-thread clocks (as the tracer's
 * timer reads them): an encoder that waits for its own workers inside its
 * chain holds the streaming thread for their CPU time. With @delay, the
 * time they were ready to run but waited for a core instead (the kernel's
 * run queue: a machine busy with other work), which is not work either
 * and lands in whatever element the thread was in. */
static gdouble
threads_cpu_ms (GpSession * s, GpElementSummary * es, gdouble * delay)
{
  gdouble ms = 0;
  guint i, j;

  *delay = 0;
  for (i = 0; es->threads && i < es->threads->len; i++)
    for (j = 0; j < s->threads->len; j++) {
      GpThreadSummary *t = g_ptr_array_index (s->threads, j);

      if (!thread_of (t, g_ptr_array_index (es->threads, i)))
        continue;
      ms += t->cpu_pct_mean / 100.0 * s->duration_s * 1000.0;
      if (t->run_delay_pct > 0)
        *delay += t->run_delay_pct / 100.0 * s->duration_s * 1000.0;
    }
  return ms;
}

/* Waiting is not work: no element claims more self time than the threads
 * it ran on burnt CPU, and waited for a core on a busy machine (a little
 * slack for the clock reads themselves and the windows' edges), and no
 * busy share passes 100 %. */
static void
assert_work_is_cpu (GpSession * s)
{
  guint i;

  for (i = 0; i < s->elem_summaries->len; i++) {
    GpElementSummary *es = g_ptr_array_index (s->elem_summaries, i);
    gdouble delay, cpu = threads_cpu_ms (s, es, &delay);

    if (es->buffers == 0)
      continue;
    g_test_message ("%s: self %.1f ms, busy %.1f %%, its threads' CPU %.1f "
        "ms, their wait for a core %.1f ms, wait %.1f ms", es->name,
        es->self_total_ms, es->busy_pct, cpu, delay, es->wait_total_ms);
    g_assert_cmpfloat (es->busy_pct, <=, 100.0);
    if (es->self_total_ms > (cpu + delay) * 1.25 + 25.0)
      g_error ("%s claims %.1f ms of self time on threads that burnt %.1f ms "
          "of CPU and waited %.1f ms for a core", es->name,
          es->self_total_ms, cpu, delay);
  }
}

/* The element with the most self time, queues and bins left out. */
static GpElementSummary *
hottest (GpSession * s)
{
  GpElementSummary *best = NULL;
  guint i;

  for (i = 0; i < s->elem_summaries->len; i++) {
    GpElementSummary *es = g_ptr_array_index (s->elem_summaries, i);

    if (gp_session_is_queue (s, es->name))
      continue;
    if (!best || gp_session_work_ms (s, es) > gp_session_work_ms (s, best))
      best = es;
  }
  g_assert_nonnull (best);
  return best;
}

/* |ours - theirs| <= max (10 %, 5 ms): the tolerance. Under a
 * sanitizer (tools/run-asan.sh) each element runs several times slower,
 * and where outputs mix inputs (a compositor's slot) the latency tracer
 * follows the newest input and gstprof the one it matched, which then
 * differ by up to a frame (55.7 against 43.8 ms seen): one frame period
 * (the corpus's live sources run at 30 fps) more there. */
#define GP_CORPUS_SANITIZED_SLACK_MS (1000.0 / 30)

static void
assert_latency_agrees (GpSession * s, const gchar * source_pad,
    const gchar * src_element, const gchar * sinkname)
{
  GpPath *p = path (s, source_pad, sinkname);
  guint n = 0;
  gdouble theirs, tol;

  if (!lat_tracer_loaded) {
    g_test_message ("%s: its latency tracer hangs, not loaded; "
        "%s > %s not compared", gst_version_string (), source_pad, sinkname);
    g_assert_cmpuint (p->matched, >=, 10);
    return;
  }
  theirs = lat_tracer_p50 (src_element, sinkname, p->steady, &n);
  g_test_message ("latency tracer %s > %s: p50 %.2f ms (%u records%s)",
      src_element ? src_element : "any source", sinkname, theirs, n,
      p->steady ? ", its first second left out as gstprof's" : "");
  g_assert_cmpuint (n, >=, 10);
  g_assert_cmpuint (p->matched, >=, 10);
  tol = MAX (theirs * 0.10, 5.0);
  if (gp_test_sanitized ())
    tol += GP_CORPUS_SANITIZED_SLACK_MS;
  if (ABS (p->latency_ms.p50 - theirs) > tol)
    g_error ("%s > %s: gstprof p50 %.2f ms, the latency tracer %.2f ms "
        "(tolerance %.1f ms)", source_pad, sinkname, p->latency_ms.p50,
        theirs, tol);
}

static void
assert_near (gdouble v, gdouble want, gdouble tol, const gchar * what)
{
  if (!(v >= want - tol && v <= want + tol))
    g_error ("%s: %.3f, not %.3f +- %.3f", what, v, want, tol);
}

/* ------------------------------------------------------------------ */
/* media and senders                                                   */

/* A 10 s H.264 + AAC mp4 at 30/1, made once. */
static const gchar *
av_mp4 (void)
{
  static gchar *path;

  if (path == NULL)
    path = gp_test_av_mp4 (media_dir, "av.mp4", 10);
  return path;
}

/* gst-launch-1.0 @launch in a process of its own, until killed. */
static GSubprocess *
sender (const gchar * launch)
{
  GError *err = NULL;
  gchar **argv = NULL;
  gchar *cmd = g_strdup_printf ("gst-launch-1.0 -q %s", launch);
  GSubprocessLauncher *l =
      g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE |
      G_SUBPROCESS_FLAGS_STDERR_SILENCE);
  GSubprocess *p;

  g_assert_true (g_shell_parse_argv (cmd, NULL, &argv, &err));
  /* a live sender runs until killed: killed with us if a check fails */
  g_subprocess_launcher_set_child_setup (l, gp_test_child_dies_with_us, NULL,
      NULL);
  p = g_subprocess_launcher_spawnv (l, (const gchar * const *) argv, &err);
  g_assert_no_error (err);
  g_object_unref (l);
  g_strfreev (argv);
  g_free (cmd);
  return p;
}

static void
sender_stop (GSubprocess * p)
{
  g_subprocess_force_exit (p);
  g_subprocess_wait (p, NULL, NULL);
  g_object_unref (p);
}

/* ------------------------------------------------------------------ */
/* the cases                                                           */

/* A live 30/1 source through a converter into a syncing sink: the rate is
 * the framerate, the sink's wait is the frame period less the work, and
 * latency is what the latency tracer sees. */
static void
test_live_chain (void)
{
  Run r = run ("videotestsrc name=lc_src is-live=true ! "
      "video/x-raw,width=320,height=240,framerate=30/1 ! videoconvert "
      "name=lc_conv ! fakesink name=lc_sink sync=true", 3.0);
  GpElementSummary *es = elem (r.s, "lc_sink");

  assert_near (sink (r.s, "lc_sink")->fps, 30.0, 1.0, "lc_sink fps");
  assert_latency_agrees (r.s, "lc_src.src", "lc_src", "lc_sink");
  /* sync=true holds each frame until its time: nearly a frame period of
   * waiting per buffer, measured apart from the work */
  g_assert_cmpuint (es->cpu_buffers, >, 0);
  g_assert_cmpfloat (es->wait_ms.p50, >, 10.0);
  g_assert_cmpfloat (es->self_ms.p50, <, 2.0);
  assert_work_is_cpu (r.s);
  run_clear (&r);
}

/* identity sleep-time: a planted cost of 5 ms per buffer is its self time,
 * and it is the hottest element. */
static void
test_identity_sleep (void)
{
  Run r = run ("videotestsrc name=is_src num-buffers=60 ! "
      "video/x-raw,width=160,height=120 ! identity name=is_id "
      "sleep-time=5000 ! fakesink name=is_sink", 0);
  GpElementSummary *es = elem (r.s, "is_id");

  g_assert_cmpint (r.end, ==, GP_CAPTURE_END_EOS);
  assert_near (es->self_ms.p50, 5.0, 0.5, "is_id self p50");
  g_assert_cmpstr (hottest (r.s)->name, ==, "is_id");
  run_clear (&r);
}

/* A live source's own work (filling 1080p frames) is its self time, not
 * "-": it is most of its thread's CPU, and the hottest element. */
static void
test_live_source_work (void)
{
  Run r = run ("videotestsrc name=sw_src is-live=true pattern=snow ! "
      "video/x-raw,width=1280,height=720,framerate=30/1 ! fakesink "
      "name=sw_sink sync=false", 3.0);
  GpElementSummary *es = elem (r.s, "sw_src");
  gdouble delay, cpu = threads_cpu_ms (r.s, es, &delay);

  g_test_message ("sw_src self %.1f ms, its thread %.1f ms of CPU",
      es->self_total_ms, cpu);
  g_assert_cmpuint (es->buffers, >, 30);
  g_assert_cmpfloat (es->self_total_ms, >=, cpu * 0.6);
  g_assert_cmpstr (hottest (r.s)->name, ==, "sw_src");
  assert_work_is_cpu (r.s);
  run_clear (&r);
}

/* The audiomixer: two live sources mixed, encoded and sent as RTP.
 * The mixer's inputs wait for its output thread, which is not work; the
 * RTP sink is judged in packets and bits: opus frames of 20 ms are 50
 * packets a second. */
static void
test_audiomixer_rtp (void)
{
  gchar *launch = g_strdup_printf ("audiomixer name=am_mix ! audioconvert ! "
      "audioresample ! opusenc name=am_enc bitrate=64000 ! rtpopuspay ! "
      "udpsink name=am_sink host=127.0.0.1 port=%u audiotestsrc "
      "name=am_a is-live=true freq=440 ! am_mix. audiotestsrc name=am_b "
      "is-live=true freq=660 ! am_mix.",
      gp_test_free_port (G_SOCKET_TYPE_DATAGRAM));
  Run r = run (launch, 3.0);
  GpSinkSummary *sk = sink (r.s, "am_sink");
  GpElementSummary *mix = elem (r.s, "am_mix");

  g_assert_cmpstr (sk->media, ==, "rtp");
  assert_near (sk->fps, 50.0, 2.0, "am_sink packets/s");
  /* 64 kbit/s of opus plus RTP and its headers */
  g_assert_cmpfloat (sk->bytes_per_s * 8, >, 55000);
  g_assert_cmpfloat (sk->bytes_per_s * 8, <, 90000);
  /* the mixer's self time is its mixing: far below what its threads had */
  g_assert_cmpfloat (mix->wait_total_ms, >, mix->self_total_ms * 10);
  assert_work_is_cpu (r.s);
  /* and the mixer that mostly waits is not where the work goes (the issue
   * saw 96 %): its mixing is a part, of the size of opusenc's (on 1.18 a
   * little more, both under 1 % of a core) */
  g_assert_cmpfloat (gp_session_work_ms (r.s, mix), <,
      0.5 * gp_session_total_work_ms (r.s));
  g_assert_cmpfloat (gp_session_work_ms (r.s, elem (r.s, "am_enc")), >,
      0.1 * gp_session_total_work_ms (r.s));
  run_clear (&r);
  g_free (launch);
}

/* A compositor of two live sources: latency as the latency tracer sees it
 * (its probe travels with the newest input of each output's slot), and the
 * compositor's own work on its output thread. */
static void
test_compositor (void)
{
  Run r = run ("videotestsrc name=cp_a is-live=true pattern=ball ! "
      "video/x-raw,width=320,height=240,framerate=30/1 ! cp_mix.sink_0 "
      "videotestsrc name=cp_b is-live=true ! "
      "video/x-raw,width=320,height=240,framerate=30/1 ! cp_mix.sink_1 "
      "compositor name=cp_mix sink_1::xpos=320 ! videoconvert ! "
      "fakesink name=cp_sink sync=true", 3.0);
  GpElementSummary *mix = elem (r.s, "cp_mix");

  /* the latency tracer gives each output to whichever source's probe
   * came last, mostly one of them: both sources against all its records */
  assert_latency_agrees (r.s, "cp_a.src", NULL, "cp_sink");
  assert_latency_agrees (r.s, "cp_b.src", NULL, "cp_sink");
  assert_near (sink (r.s, "cp_sink")->fps, 30.0, 1.0, "cp_sink fps");
  /* it mixes on its own thread: work measured there, not "-" */
  g_assert_cmpuint (mix->buffers, >, 60);
  g_assert_cmpfloat (mix->self_total_ms, >, 0.0);
  assert_work_is_cpu (r.s);
  run_clear (&r);
}

/* videorate halving a live 30/1: 15 frames a second at the sink, and the
 * latency tracer's latency. */
static void
test_videorate (void)
{
  Run r = run ("videotestsrc name=vr_src is-live=true ! "
      "video/x-raw,width=320,height=240,framerate=30/1 ! videorate ! "
      "video/x-raw,framerate=15/1 ! videoconvert ! fakesink name=vr_sink "
      "sync=true", 3.0);
  GpSinkSummary *sk = sink (r.s, "vr_sink");

  assert_near (sk->fps, 15.0, 0.8, "vr_sink fps");
  assert_near (sk->target_fps, 15.0, 0.01, "vr_sink target");
  assert_latency_agrees (r.s, "vr_src.src", "vr_src", "vr_sink");
  run_clear (&r);
}

/* The verdict of @s with every run of white space one space (its lines
 * are wrapped at GP_VERDICT_WIDTH); free it. */
static gchar *
verdict_flat (GpSession * s)
{
  gchar *text = gp_verdict_format (s, NULL, 0);
  GRegex *ws = g_regex_new ("\\s+", 0, 0, NULL);
  gchar *flat = g_regex_replace_literal (ws, text, -1, 0, " ", 0, NULL);

  g_regex_unref (ws);
  g_free (text);
  return flat;
}

/* A 25 fps live feed read at 30 by videorate: a sixth of the frames the
 * sink counts are repeats (the truth: 1 - 25/30 from the two caps), and
 * the verdict says how many, under the sink's 30 fps. */
static void
test_videorate_repeat (void)
{
  Run r = run ("videotestsrc name=vp_src is-live=true ! "
      "video/x-raw,width=320,height=240,framerate=25/1 ! videorate "
      "name=vp_rate ! video/x-raw,framerate=30/1 ! fakesink name=vp_sink",
      3.0);
  GpSinkSummary *sk = sink (r.s, "vp_sink");
  gchar *text = verdict_flat (r.s);
  const gchar *at = strstr (text, "vp_rate (videorate) repeated ");
  gint64 dup = -1, out = -1;
  gdouble pct = -1;

  g_assert_nonnull (at);
  g_assert_cmpint (sscanf (at, "vp_rate (videorate) repeated %" G_GINT64_FORMAT
          " of its %" G_GINT64_FORMAT " frames (%lf %%)", &dup, &out, &pct),
      ==, 3);
  g_test_message ("repeated %" G_GINT64_FORMAT " of %" G_GINT64_FORMAT
      " (%.0f %%)", dup, out, pct);
  assert_near (sk->fps, 30.0, 1.0, "vp_sink fps");
  assert_near ((gdouble) dup / out, 1.0 - 25.0 / 30.0, 0.03, "repeated share");
  assert_near (pct, 100.0 * dup / out, 0.5, "repeated %");
  g_free (text);
  run_clear (&r);
}

/* JPEG snapshots of a live source at 1, 2 and 5 frames a second: the
 * sink's rate within 5 % of the caps' rate (the truth: the live source
 * stamps a frame every 1/rate s), and no rate finding.  A window of 250 ms
 * holds one snapshot or none, so buffers per window span read "0.9 fps,
 * 10 % below" on an 8 s run and 0.57 fps on 3 s: the rate is timed from
 * push to push.  At 1 fps the steady state is two pushes apart: one
 * pushed 80 ms late on a busy machine reads 0.962 (seen with the suite's
 * other parts beside it), hence 5 % and not 2. */
static void
test_snapshot (void)
{
  static const struct
  {
    gint fps;
    gdouble secs;
  } rates[] = { {1, 3.2}, {2, 2.2}, {5, 2.2} };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (rates); i++) {
    gchar *launch = g_strdup_printf ("videotestsrc name=sn_src%u "
        "is-live=true ! video/x-raw,width=320,height=240,framerate=%d/1 ! "
        "jpegenc ! fakesink name=sn_sink%u", i, rates[i].fps, i);
    gchar *name = g_strdup_printf ("sn_sink%u", i);
    Run r = run (launch, rates[i].secs);
    GpSinkSummary *sk = sink (r.s, name);

    assert_near (sk->target_fps, rates[i].fps, 0.01, "snapshot target");
    assert_near (sk->fps, rates[i].fps, 0.05 * rates[i].fps, "snapshot fps");
    assert_no_rate_finding (r.s);
    run_clear (&r);
    g_free (name);
    g_free (launch);
  }
}

#define RTP_CAPS "application/x-rtp,media=video,encoding-name=H264," \
  "clock-rate=90000,payload=96"

/* An RTP receiver fed by a sender in another process: latency as the
 * latency tracer sees it, most of it the jitterbuffer's hold, reported as
 * waiting; the steady rate once frames decode, not lowered by the wait for
 * the first keyframe. */
static void
test_rtp_receiver (void)
{
  guint port = gp_test_free_port (G_SOCKET_TYPE_DATAGRAM);
  gchar *send = g_strdup_printf ("videotestsrc is-live=true ! "
      "video/x-raw,width=320,height=240,framerate=30/1 ! x264enc "
      "tune=zerolatency speed-preset=ultrafast key-int-max=45 ! "
      "rtph264pay config-interval=1 ! udpsink host=127.0.0.1 port=%u", port);
  gchar *recv = g_strdup_printf ("udpsrc name=rr_src port=%u caps=\"%s\" ! "
      "rtpjitterbuffer name=rr_jb latency=200 ! rtph264depay ! avdec_h264 ! "
      "videoconvert ! fakesink name=rr_sink sync=true", port, RTP_CAPS);
  GSubprocess *tx = sender (send);
  Run r;
  GPtrArray *hops;
  gboolean held = FALSE;
  guint i;

  g_usleep (300 * 1000);
  r = run (recv, 5.0);
  assert_latency_agrees (r.s, "rr_src.src", "rr_src", "rr_sink");
  assert_near (sink (r.s, "rr_sink")->fps, 30.0, 1.0, "rr_sink fps");
  hops = gp_session_path_hops (r.s, path (r.s, "rr_src.src", "rr_sink"));
  g_assert_nonnull (hops);
  for (i = 0; i < hops->len; i++) {
    GpHop *h = g_ptr_array_index (hops, i);

    g_test_message ("hop %s: at %.1f ms, %.1f ms to the next, work %.3f ms",
        h->element, h->at_ms, h->hop_ms, h->work_ms);
    /* latency=200: it holds each buffer most of that, and hardly works */
    if (g_str_equal (h->element, "rr_jb")) {
      g_assert_cmpfloat (h->hop_ms, >, 120.0);
      g_assert_cmpfloat (h->work_ms, <, 1.0);
      held = TRUE;
    }
  }
  g_assert_true (held);
  g_ptr_array_unref (hops);
  assert_work_is_cpu (r.s);
  run_clear (&r);
  sender_stop (tx);
  g_free (send);
  g_free (recv);
}

/* An RTP video sender: judged in bits and packets, never against a frame
 * rate; x264enc at 600 kbit/s (cbr) gives about that on the wire. */
static void
test_rtp_sender (void)
{
  gchar *launch = g_strdup_printf ("videotestsrc is-live=true ! "
      "video/x-raw,width=320,height=240,framerate=30/1 ! x264enc "
      "tune=zerolatency speed-preset=ultrafast bitrate=600 ! rtph264pay ! "
      "udpsink name=rs_sink host=127.0.0.1 port=%u",
      gp_test_free_port (G_SOCKET_TYPE_DATAGRAM));
  Run r = run (launch, 4.0);
  GpSinkSummary *sk = sink (r.s, "rs_sink");

  g_assert_cmpstr (sk->media, ==, "rtp");
  g_assert_cmpfloat (sk->target_fps, <, 0);
  g_assert_cmpfloat (gp_session_sink_target_fps (r.s, "rs_sink"), <, 0);
  g_assert_cmpfloat (sk->bytes_per_s * 8 / 1000, >, 600 * 0.6);
  g_assert_cmpfloat (sk->bytes_per_s * 8 / 1000, <, 600 * 1.5);
  /* no frame rate to miss: no throughput finding (a latency one may be) */
  assert_no_rate_finding (r.s);
  run_clear (&r);
  g_free (launch);
}

/* An RTP sender through rtpbin with its RTCP on a second udpsink (issue
 * 29: "an RTSP server's RTCP multiudpsinks read '0 kbit/s' next to the
 * video"): the RTCP sink gets GStreamer's application/x-rtcp, a packet
 * every few seconds; it is control traffic, left out of the Rate section
 * with its name said, out of the latency paths and the gate's rates,
 * while the RTP sink is judged as before. */
static void
test_rtcp_sender (void)
{
  guint port = gp_test_free_port (G_SOCKET_TYPE_DATAGRAM);
  gchar *launch = g_strdup_printf ("rtpbin name=rc_bin videotestsrc "
      "is-live=true ! video/x-raw,width=320,height=240,framerate=30/1 ! "
      "x264enc tune=zerolatency speed-preset=ultrafast bitrate=600 ! "
      "rtph264pay ! rc_bin.send_rtp_sink_0 rc_bin.send_rtp_src_0 ! udpsink "
      "name=rc_rtp host=127.0.0.1 port=%u rc_bin.send_rtcp_src_0 ! udpsink "
      "name=rc_rtcp host=127.0.0.1 port=%u sync=false async=false", port,
      gp_test_free_port (G_SOCKET_TYPE_DATAGRAM));
  Run r = run (launch, 6.0);
  GpLink *in = gp_session_link_into (r.s, "rc_rtcp");
  GpGateRun *g = gp_gate_run_of_session (r.s);
  gchar *text = gp_verdict_format (r.s, NULL, 0), *rate, *rtp_line;
  guint i;

  g_assert_nonnull (in);
  g_assert_true (g_str_has_prefix (in->caps, "application/x-rtcp"));
  g_assert_nonnull (gp_session_find_sink (r.s, "rc_rtcp"));
  g_test_message ("%s", text);
  g_assert_nonnull (strstr (text, "control traffic, not a stream, left out: "
          "rc_rtcp (RTCP)"));
  g_assert_null (strstr (text, "> rc_rtcp"));
  /* the Rate section: the RTP sink's line, none for the RTCP one */
  rate = g_strndup (strstr (text, "\nRate ("), strstr (text, "\nLatency") -
      strstr (text, "\nRate ("));
  g_assert_null (strstr (rate, "\n  rc_rtcp "));
  rtp_line = strstr (rate, "\n  rc_rtp ");
  g_assert_nonnull (rtp_line);
  g_assert_true (g_str_has_prefix (strchr (rtp_line + 1, '\n') - strlen
          ("packets/s (rtp)"), "packets/s (rtp)"));
  g_assert_nonnull (g_hash_table_lookup (g->metrics, "rate rc_rtp"));
  g_assert_null (g_hash_table_lookup (g->metrics, "rate rc_rtcp"));
  for (i = 0; i < r.s->findings->len; i++) {
    GpFinding *f = g_ptr_array_index (r.s->findings, i);

    g_assert_null (strstr (f->title, "rc_rtcp"));
  }
  gp_gate_run_free (g);
  g_free (rate);
  g_free (text);
  run_clear (&r);
  g_free (launch);
}

/* A udpsrc that nothing feeds waits in poll: that is not its work. */
static void
test_udpsrc_idle (void)
{
  gchar *launch = g_strdup_printf ("udpsrc name=ui_src port=%u timeout=0 ! "
      "fakesink name=ui_sink", gp_test_free_port (G_SOCKET_TYPE_DATAGRAM));
  Run r = run (launch, 2.0);
  GpElementSummary *es = gp_session_find_elem_summary (r.s, "ui_src");

  /* no buffer: no sample at all, so no share and no busy time */
  g_assert_true (es == NULL || es->self_total_ms < 5.0);
  g_assert_null (gp_session_find_finding (r.s, "HOT", NULL));
  run_clear (&r);
  g_free (launch);
}

/* A live stream muxed for streaming (one stream): the latency tracer's
 * latency. */
static void
test_live_mux (void)
{
  Run r = run ("videotestsrc name=lm_src is-live=true ! "
      "video/x-raw,width=320,height=240,framerate=30/1 ! x264enc "
      "tune=zerolatency speed-preset=ultrafast ! h264parse ! matroskamux "
      "streamable=true name=lm_mux ! fakesink name=lm_sink sync=false", 3.0);
  GpSinkSummary *sk = sink (r.s, "lm_sink");

  g_assert_cmpstr (sk->media, ==, "muxed");
  assert_latency_agrees (r.s, "lm_src.src", "lm_src", "lm_sink");
  assert_work_is_cpu (r.s);
  run_clear (&r);
}

/* The latency at @element's input from @source, or NULL. */
static GpPath *
interlatency (GpSession * s, const gchar * source, const gchar * element)
{
  guint i;

  for (i = 0; i < s->interlatency->len; i++) {
    GpPath *p = g_ptr_array_index (s->interlatency, i);

    if (g_str_equal (p->source, source) && g_str_equal (p->sink, element))
      return p;
  }
  return NULL;
}

/* Audio and video muxed live.  Below the muxer each packet is matched with
 * the source of its own stream only: as many video matches as frames, as
 * many audio matches as opus packets (50 a second), not all packets for
 * both.  The latency tracer cannot serve as the truth here: its sink keeps
 * the first probe of whichever stream since its last buffer, so in a
 * two-stream mux its per-source records are not the stream's.  The truth is
 * the muxer's own bound: a packet leaves the muxer once the other stream
 * has caught up with it, so each path is its latency into the muxer plus
 * at most one period of the other stream (a video frame, 33.3 ms; an opus
 * frame, 20 ms) and the encoders' lookahead (opus: 6.5 ms). */
static void
test_live_mux_av (void)
{
  Run r = run ("videotestsrc name=la_v is-live=true ! "
      "video/x-raw,width=320,height=240,framerate=30/1 ! x264enc "
      "tune=zerolatency speed-preset=ultrafast ! h264parse ! la_mux. "
      "audiotestsrc name=la_a is-live=true ! audioconvert ! opusenc ! "
      "la_mux. matroskamux name=la_mux streamable=true ! fakesink "
      "name=la_sink sync=false", 4.0);
  GpPath *v = path (r.s, "la_v.src", "la_sink");
  GpPath *a = path (r.s, "la_a.src", "la_sink");
  GpPath *v_in = interlatency (r.s, "la_v.src", "la_mux");
  GpPath *a_in = interlatency (r.s, "la_a.src", "la_mux");
  gdouble secs = r.s->duration_s;

  g_assert_nonnull (v_in);
  g_assert_nonnull (a_in);
  g_test_message ("into the muxer: video p50 %.2f ms, audio p50 %.2f ms",
      v_in->latency_ms.p50, a_in->latency_ms.p50);
  g_assert_cmpfloat (v->latency_ms.p50, >=, v_in->latency_ms.p50 - 1.0);
  g_assert_cmpfloat (v->latency_ms.p50, <=, v_in->latency_ms.p50 + 20.0 +
      6.5 + 5.0);
  g_assert_cmpfloat (a->latency_ms.p50, >=, a_in->latency_ms.p50 - 1.0);
  g_assert_cmpfloat (a->latency_ms.p50, <=, a_in->latency_ms.p50 + 33.3 +
      5.0);
  /* matroskamux sends a frame as a block header and its data, both with
   * the frame's timestamp: 30 to 60 video matches a second; the audio
   * packets (50 a second) and their headers are not among them */
  g_assert_cmpfloat (v->matched / secs, >=, 28.0);
  g_assert_cmpfloat (v->matched / secs, <=, 66.0);
  assert_near (a->matched / secs, 50.0, 8.0, "audio matches per s");
  assert_work_is_cpu (r.s);
  run_clear (&r);
}

/* The bytes of @path: a multiple of 188, each packet starting with the
 * sync byte 0x47 (an MPEG-TS file as written); its size, 0 when not. */
static gsize
ts_file_size (const gchar * path)
{
  gchar *data = NULL;
  gsize len = 0, i;

  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  g_test_message ("%s: %" G_GSIZE_FORMAT " bytes", path, len);
  g_assert_cmpuint (len, >, 0);
  g_assert_cmpuint (len % 188, ==, 0);
  for (i = 0; i < len; i += 188)
    g_assert_cmpint ((guchar) data[i], ==, 0x47);
  g_free (data);
  return len;
}

/* The path from @source into a sink, or NULL. */
static GpPath *
path_from (GpSession * s, const gchar * source)
{
  guint i;

  for (i = 0; i < s->paths->len; i++) {
    GpPath *p = g_ptr_array_index (s->paths, i);

    if (g_strcmp0 (p->source, source) == 0)
      return path (s, p->source, p->sink);
  }
  return NULL;
}

/* Live H.264 320x240 at 30/1 into @mux (launch words) and a file sink at
 * @file, its elements named @pre_src, @pre_mux and @pre_sink: the sink
 * judged as muxed, its latency the latency tracer's, one match a frame
 * (30 a second), not one a packet list. */
static Run
run_live_h264_mux (const gchar * pre, const gchar * mux, const gchar * file)
{
  gchar *launch = g_strdup_printf ("videotestsrc name=%s_src is-live=true ! "
      "video/x-raw,width=320,height=240,framerate=30/1 ! x264enc "
      "tune=zerolatency speed-preset=ultrafast ! h264parse ! %s "
      "name=%s_mux ! filesink name=%s_sink location=%s", pre, mux, pre, pre,
      file);
  gchar *src = g_strdup_printf ("%s_src", pre);
  gchar *pad = g_strdup_printf ("%s_src.src", pre);
  gchar *sk = g_strdup_printf ("%s_sink", pre);
  Run r = run (launch, 3.0);

  g_assert_cmpstr (sink (r.s, sk)->media, ==, "muxed");
  assert_latency_agrees (r.s, pad, src, sk);
  assert_near (path (r.s, pad, sk)->matched / r.s->duration_s, 30.0, 4.0,
      "matches per s");
  g_free (sk);
  g_free (pad);
  g_free (src);
  g_free (launch);
  return r;
}

/* Live H.264 into mpegtsmux and a file.  mpegtsmux re-bases its output
 * (its first packet at its segment's start, every later one by the same
 * offset): the latency was "34.9 ms, held by the muxer 33.6 ms" (frames
 * matched to older ones), and not measured at all with two streams.  Now
 * it is the latency tracer's, one match a frame; the file is whole TS
 * packets. */
static void
test_mpegts (void)
{
  gchar *out = g_build_filename (media_dir, "live.ts", NULL);
  Run r = run_live_h264_mux ("ts", "mpegtsmux", out);

  ts_file_size (out);
  run_clear (&r);
  g_free (out);
}

/* Audio and video live into mpegtsmux: it stamps every packet with the
 * time of its timing stream (the video: the audio packets carry the last
 * video frame's), so the video path is measured, once a frame, within the
 * muxer's bound (its latency into the muxer plus the wait for the audio
 * that covers it: the audio's own latency into the muxer and one AAC
 * frame, 23.2 ms); the audio is not matched by time at all (no path, not a
 * wrong one).  It was "not measured" for both. */
static void
test_mpegts_av (void)
{
  gchar *out = g_build_filename (media_dir, "live-av.ts", NULL);
  gchar *launch = g_strdup_printf ("videotestsrc name=tv_v is-live=true ! "
      "video/x-raw,width=320,height=240,framerate=30/1 ! x264enc "
      "tune=zerolatency speed-preset=ultrafast ! h264parse ! tv_mux. "
      "audiotestsrc name=tv_a is-live=true ! audioconvert ! avenc_aac ! "
      "aacparse ! tv_mux. mpegtsmux name=tv_mux ! filesink name=tv_sink "
      "location=%s", out);
  Run r = run (launch, 3.0);
  GpPath *v = path (r.s, "tv_v.src", "tv_sink");
  GpPath *v_in = interlatency (r.s, "tv_v.src", "tv_mux");
  GpPath *a_in = interlatency (r.s, "tv_a.src", "tv_mux");

  g_assert_nonnull (v_in);
  g_assert_nonnull (a_in);
  g_test_message ("into the muxer: video p50 %.2f ms, audio p50 %.2f ms",
      v_in->latency_ms.p50, a_in->latency_ms.p50);
  g_assert_cmpfloat (v->latency_ms.p50, >=, v_in->latency_ms.p50 - 1.0);
  g_assert_cmpfloat (v->latency_ms.p50, <=, v_in->latency_ms.p50 +
      a_in->latency_ms.p95 + 23.2 + 5.0);
  assert_near (v->matched / r.s->duration_s, 30.0, 4.0, "video matches per s");
  g_assert_null (gp_session_find_path (r.s, "tv_a.src", "tv_sink"));
  ts_file_size (out);
  run_clear (&r);
  g_free (launch);
  g_free (out);
}

/* HLS: hlssink2 (splitmuxsink around mpegtsmux) holds each GOP (1 s here)
 * in its queue until the next keyframe, then writes a segment.  The
 * latency into its file sink is the latency tracer's (about 0.5 s: a
 * frame waits for the rest of its GOP); the segments and the playlist are
 * on disk.  A frame's latency is a saw over each GOP, so the median of a
 * span moves with where the span's ends cut a GOP: 4 GOPs of steady state
 * (with 2, under make test's parallel load, 478 ms against 377). */
static void
test_hls (void)
{
  gchar *dir = g_build_filename (media_dir, "hls", NULL);
  gchar *launch, *playlist, *seg;
  GpPath *p;
  Run r;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  playlist = g_build_filename (dir, "p.m3u8", NULL);
  seg = g_build_filename (dir, "seg00001.ts", NULL);
  launch = g_strdup_printf ("videotestsrc name=hl_src is-live=true ! "
      "video/x-raw,width=320,height=240,framerate=30/1 ! x264enc "
      "tune=zerolatency speed-preset=ultrafast key-int-max=30 ! h264parse ! "
      "hlssink2 name=hl_hls target-duration=1 location=%s/seg%%05d.ts "
      "playlist-location=%s", dir, playlist);
  r = run (launch, 5.2);
  p = path_from (r.s, "hl_src.src");
  g_assert_nonnull (p);
  assert_latency_agrees (r.s, "hl_src.src", "hl_src", p->sink);
  g_assert_cmpfloat (p->latency_ms.p50, >, 250.0);
  g_assert_true (g_file_test (playlist, G_FILE_TEST_EXISTS));
  ts_file_size (seg);
  run_clear (&r);
  g_free (launch);
  g_free (seg);
  g_free (playlist);
  g_free (dir);
}

/* The first bytes of @path are @magic (a Matroska/WebM file starts with
 * the EBML magic). */
static void
assert_file_starts (const gchar * path, const guint8 * magic, gsize n)
{
  gchar *data = NULL;
  gsize len = 0;

  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  g_test_message ("%s: %" G_GSIZE_FORMAT " bytes", path, len);
  g_assert_cmpuint (len, >, n);
  g_assert_cmpmem (data, n, magic, n);
  g_free (data);
}

static const guint8 ebml_magic[] = { 0x1a, 0x45, 0xdf, 0xa3 };

/* A live WebM recording with vp8enc deadline=1 (realtime): the latency
 * tracer's latency; a WebM file; work within the threads' CPU. */
static void
test_webm (void)
{
  gchar *out = g_build_filename (media_dir, "live.webm", NULL);
  gchar *launch = g_strdup_printf ("videotestsrc name=wm_src is-live=true ! "
      "video/x-raw,width=320,height=240,framerate=30/1 ! vp8enc deadline=1 ! "
      "webmmux ! filesink name=wm_sink location=%s", out);
  Run r = run (launch, 3.0);

  g_assert_cmpstr (sink (r.s, "wm_sink")->media, ==, "muxed");
  assert_latency_agrees (r.s, "wm_src.src", "wm_src", "wm_sink");
  assert_work_is_cpu (r.s);
  run_clear (&r);
  assert_file_starts (out, ebml_magic, sizeof (ebml_magic));
  g_free (launch);
  g_free (out);
}

/* A live HEVC recording (x265enc ultrafast, zerolatency) into Matroska:
 * the latency tracer's latency; a Matroska file; work within CPU. */
static void
test_hevc (void)
{
  gchar *out, *launch;
  Run r;

  if (!gp_test_have_element ("x265enc"))
    return;
  out = g_build_filename (media_dir, "live-hevc.mkv", NULL);
  launch = g_strdup_printf ("videotestsrc name=hv_src is-live=true ! "
      "video/x-raw,width=320,height=240,framerate=30/1 ! x265enc "
      "speed-preset=ultrafast tune=zerolatency ! h265parse ! matroskamux ! "
      "filesink name=hv_sink location=%s", out);
  r = run (launch, 3.0);
  assert_latency_agrees (r.s, "hv_src.src", "hv_src", "hv_sink");
  assert_work_is_cpu (r.s);
  run_clear (&r);
  assert_file_starts (out, ebml_magic, sizeof (ebml_magic));
  g_free (launch);
  g_free (out);
}

static const guint8 flv_magic[] = { 'F', 'L', 'V' };
static const guint8 ogg_magic[] = { 'O', 'g', 'g', 'S' };

/* Live H.264 into flvmux (an RTMP stream's muxer) and a file: the latency
 * tracer's latency, one match a frame (a tag a frame); an FLV file. */
static void
test_flv (void)
{
  gchar *out = g_build_filename (media_dir, "live.flv", NULL);
  Run r = run_live_h264_mux ("fl", "flvmux streamable=true", out);

  run_clear (&r);
  assert_file_starts (out, flv_magic, sizeof (flv_magic));
  g_free (out);
}

/* ------------------------------------------------------------------ */
/* a frame's latency through a packing muxer, from pad probes           */

/* The truth for a muxer that packs several frames into one buffer (an Ogg
 * page): pad probes of the test's own (run_probed) on the source's src pad
 * (each frame's PTS and when it left) and the sink's sink pad (each packed
 * buffer's slot, [PTS, PTS + duration), and when it arrived).  A buffer's
 * latency is counted from the newest frame it carries, as GStreamer's
 * latency tracer counts a mixer's output from its newest input. */
typedef struct
{
  GMutex lock;
  GArray *sent_pts;             /* guint64, in order */
  GArray *sent_us;              /* gint64, monotonic */
  GArray *lat_ms;               /* gdouble, one a packed buffer */
} PackTruth;

static PackTruth pack_truth;

static GstPadProbeReturn
pack_src_probe (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  gint64 now = g_get_monotonic_time ();

  if (GST_BUFFER_PTS_IS_VALID (buf)) {
    g_mutex_lock (&pack_truth.lock);
    g_array_append_val (pack_truth.sent_pts, GST_BUFFER_PTS (buf));
    g_array_append_val (pack_truth.sent_us, now);
    g_mutex_unlock (&pack_truth.lock);
  }
  return GST_PAD_PROBE_OK;
}

static GstPadProbeReturn
pack_sink_probe (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  gint64 now = g_get_monotonic_time ();
  guint64 from, to;
  guint i;

  if (!GST_BUFFER_PTS_IS_VALID (buf) || !GST_BUFFER_DURATION_IS_VALID (buf))
    return GST_PAD_PROBE_OK;
  from = GST_BUFFER_PTS (buf);
  to = from + GST_BUFFER_DURATION (buf);
  g_mutex_lock (&pack_truth.lock);
  for (i = pack_truth.sent_pts->len; i > 0; i--) {
    guint64 pts = g_array_index (pack_truth.sent_pts, guint64, i - 1);

    if (pts >= from && pts < to) {
      gdouble ms = (now - g_array_index (pack_truth.sent_us, gint64,
              i - 1)) / 1000.0;

      g_array_append_val (pack_truth.lat_ms, ms);
      break;
    }
  }
  g_mutex_unlock (&pack_truth.lock);
  return GST_PAD_PROBE_OK;
}

/* Runs @launch with the probes on @src and @sink; the truth's p50 (ms) in
 * *@p50 and the buffers it measured in *@n. */
static Run
run_pack_truth (const gchar * launch, gdouble duration_s, const gchar * src,
    const gchar * sinkname, gdouble * p50, guint * n)
{
  const ProbeAt at[] = {
    {src, "src", pack_src_probe}, {sinkname, "sink", pack_sink_probe},
    {NULL}
  };
  Run r;

  pack_truth.sent_pts = g_array_new (FALSE, FALSE, sizeof (guint64));
  pack_truth.sent_us = g_array_new (FALSE, FALSE, sizeof (gint64));
  pack_truth.lat_ms = g_array_new (FALSE, FALSE, sizeof (gdouble));
  r = run_probed (launch, duration_s, at);
  g_mutex_lock (&pack_truth.lock);
  g_array_sort (pack_truth.lat_ms, gp_test_cmp_double);
  *n = pack_truth.lat_ms->len;
  *p50 = *n ? g_array_index (pack_truth.lat_ms, gdouble, (*n - 1) / 2) : -1;
  g_clear_pointer (&pack_truth.sent_pts, g_array_unref);
  g_clear_pointer (&pack_truth.sent_us, g_array_unref);
  g_clear_pointer (&pack_truth.lat_ms, g_array_unref);
  g_mutex_unlock (&pack_truth.lock);
  return r;
}

/* Live Theora into oggmux and a file.  oggmux packs about four frames
 * into a page (the page's PTS its first frame's, its duration theirs) and
 * writes it when the frame after them comes.  GStreamer's latency tracer
 * is not the truth here: its probe travels with the frame that made
 * oggmux write the page, which the page does not carry (it read 3.6 and
 * 7.8 ms on two runs where the page's newest frame had waited 70 ms).
 * The truth is the test's own probes: the page's newest frame, from the
 * source to the file sink; the file is Ogg. */
static void
test_ogg_live (void)
{
  gchar *out = g_build_filename (media_dir, "live.ogg", NULL);
  gchar *launch = g_strdup_printf ("videotestsrc name=og_src is-live=true ! "
      "video/x-raw,width=320,height=240,framerate=30/1 ! theoraenc ! "
      "oggmux name=og_mux ! filesink name=og_sink location=%s", out);
  gdouble truth, theirs;
  guint n, n_theirs;
  GpPath *p;
  Run r;

  r = run_pack_truth (launch, 3.0, "og_src", "og_sink", &truth, &n);
  p = path (r.s, "og_src.src", "og_sink");
  theirs = lat_tracer_p50 ("og_src", "og_sink", FALSE, &n_theirs);
  g_test_message ("the probes: p50 %.2f ms over %u pages; the latency "
      "tracer (not the truth here): p50 %.2f ms over %u", truth, n, theirs,
      n_theirs);
  g_assert_cmpstr (sink (r.s, "og_sink")->media, ==, "muxed");
  g_assert_cmpuint (n, >=, 10);
  g_assert_cmpuint (p->matched, >=, 10);
  assert_near (p->latency_ms.p50, truth, MAX (truth * 0.10, 5.0),
      "og_src.src > og_sink p50 against the probes'");
  run_clear (&r);
  assert_file_starts (out, ogg_magic, sizeof (ogg_magic));
  g_free (launch);
  g_free (out);
}

/* Text and clock overlays on live 1080p: 30 fps (the caps), the overlays'
 * work within the CPU their thread burnt. */
static void
test_overlay_1080p (void)
{
  Run r = run ("videotestsrc name=ov_src is-live=true ! "
      "video/x-raw,width=1920,height=1080,framerate=30/1 ! textoverlay "
      "name=ov_txt text=hello ! clockoverlay name=ov_clock ! fakesink "
      "name=ov_sink", 3.0);

  assert_near (sink (r.s, "ov_sink")->fps, 30.0, 1.5, "ov_sink fps");
  g_assert_cmpfloat (elem (r.s, "ov_txt")->self_total_ms, >, 0.0);
  assert_work_is_cpu (r.s);
  run_clear (&r);
}

/* Deinterlacing 25 interlaced frames a second into 50 progressive ones
 * (deinterlace's default: one frame a field): 50 fps against a target of
 * 50 from the caps; the latency tracer's latency. */
static void
test_deinterlace (void)
{
  Run r = run ("videotestsrc name=di_src is-live=true ! "
      "video/x-raw,width=720,height=576,framerate=25/1 ! interlace "
      "field-pattern=2:2 ! deinterlace name=di_deint ! fakesink name=di_sink",
      3.0);
  GpSinkSummary *sk = sink (r.s, "di_sink");

  assert_near (sk->target_fps, 50.0, 0.01, "di_sink target");
  assert_near (sk->fps, 50.0, 2.0, "di_sink fps");
  assert_latency_agrees (r.s, "di_src.src", "di_src", "di_sink");
  run_clear (&r);
}

/* A 4K conversion (I420 to BGRx, 10 frames, not live): it ends at EOS with
 * every frame at the sink (num-buffers), videoconvert the hottest, work
 * within the thread's CPU. The source fills black frames (a fill, 1.9 ms a
 * frame here, against the conversion's 7 ms): its default pattern costs
 * about what the conversion does (50 % each), and a fresh Debian 12 root
 * once ranked it first. */
static void
test_convert_4k (void)
{
  Run r = run ("videotestsrc name=ck_src num-buffers=10 pattern=black ! "
      "video/x-raw,width=3840,height=2160,format=I420 ! videoconvert "
      "name=ck_conv ! video/x-raw,format=BGRx ! fakesink name=ck_sink", 0);

  g_assert_cmpint (r.end, ==, GP_CAPTURE_END_EOS);
  g_assert_cmpuint (elem (r.s, "ck_sink")->buffers, ==, 10);
  g_assert_cmpstr (hottest (r.s)->name, ==, "ck_conv");
  assert_work_is_cpu (r.s);
  run_clear (&r);
}

/* An audio transcode to a file, as fast as it goes: judged as audio in
 * media time per second (it read "4473 fps"), never against a frame rate;
 * at least the content over the run's wall time (400 buffers of 1024
 * samples at 44.1 kHz: 9.29 s of audio). */
static void
test_audio_transcode (void)
{
  gchar *out = g_build_filename (media_dir, "tr.mp3", NULL);
  gchar *launch = g_strdup_printf ("audiotestsrc name=at_src num-buffers=400 "
      "! audioconvert ! lamemp3enc ! filesink name=at_sink location=%s", out);
  Run r = run (launch, 0);
  GpSinkSummary *sk = sink (r.s, "at_sink");
  gdouble content_s = 400 * 1024 / 44100.0;

  g_assert_cmpint (r.end, ==, GP_CAPTURE_END_EOS);
  g_assert_cmpstr (sk->media, ==, "audio");
  g_assert_cmpfloat (sk->target_fps, <=, 0.0);
  g_test_message ("%.1fx real time; the content over the run's wall time: "
      "%.1fx", sk->media_per_s, content_s / r.wall_s);
  g_assert_cmpfloat (sk->media_per_s, >=, content_s / r.wall_s);
  assert_no_rate_finding (r.s);
  run_clear (&r);
  g_free (launch);
  g_free (out);
}

/* The test's own count of the frames intervideosrc repeats: a buffer
 * whose memory is the previous buffer's (it pushes its stored frame again,
 * a copy that shares the memory, until a new one comes). */
static gint iv_frames, iv_repeats, iv_gaps;
static gpointer iv_last_mem;

static GstPadProbeReturn
iv_probe (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  gpointer mem = gst_buffer_n_memory (buf) ? gst_buffer_peek_memory (buf, 0) :
      NULL;

  iv_frames++;
  if (mem && mem == iv_last_mem)
    iv_repeats++;
  if (GST_BUFFER_FLAG_IS_SET (buf, GST_BUFFER_FLAG_GAP))
    iv_gaps++;
  iv_last_mem = mem;
  return GST_PAD_PROBE_OK;
}

/* A 25 fps feed read by intervideosrc at 30: a sixth of its frames are
 * repeats, and it flags each one GAP. The verdict counts them from the
 * buffers (issue 29: "'about 17 %' computed from the two rates; a
 * frame-identity count gives 19.5-25.3 %"): within 2 points of the test's
 * own count of frames whose memory is the previous frame's. */
static void
test_intervideo (void)
{
  const ProbeAt at[] = { {"iv_in", "src", iv_probe}, {NULL} };
  Run r;
  gchar *text;
  const gchar *at_note;
  guint64 n = 0, of = 0;
  gdouble pct = -1, truth;

  iv_frames = iv_repeats = 0;
  iv_last_mem = NULL;
  r = run_probed ("videotestsrc name=iv_src is-live=true ! "
      "video/x-raw,width=320,height=240,framerate=25/1 ! intervideosink "
      "name=iv_out channel=gp-corpus intervideosrc name=iv_in "
      "channel=gp-corpus ! video/x-raw,width=320,height=240,framerate=30/1 ! "
      "fakesink name=iv_sink", 3.0, at);
  text = verdict_flat (r.s);
  at_note = strstr (text, "iv_in (intervideosrc) repeated ");
  assert_near (sink (r.s, "iv_out")->fps, 25.0, 1.0, "iv_out fps");
  assert_near (sink (r.s, "iv_sink")->fps, 30.0, 1.0, "iv_sink fps");
  g_assert_cmpint (iv_frames, >, 60);
  truth = 100.0 * iv_repeats / iv_frames;
  g_assert_nonnull (at_note);
  g_assert_cmpint (sscanf (at_note, "iv_in (intervideosrc) repeated %"
          G_GUINT64_FORMAT " of its %" G_GUINT64_FORMAT " frames (%lf %%", &n,
          &of, &pct), ==, 3);
  g_test_message ("the probe: %d of %d frames were the one before (%.1f %%), "
      "%d flagged GAP; gstprof: %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT,
      iv_repeats, iv_frames, truth, iv_gaps, n, of);
  assert_near (pct, truth, 2.0, "repeated %");
  /* a sixth, give or take the feed's and the reader's clocks */
  assert_near (truth, 100.0 * (1.0 - 25.0 / 30.0), 8.0, "the probe's %");
  g_free (text);
  run_clear (&r);
}

/* shmsrc fed by a shmsink in another process: the frames arrive at the
 * sender's 30 fps. */
static void
test_shm (void)
{
  gchar *sock = g_build_filename (media_dir, "shm.sock", NULL);
  gchar *send = g_strdup_printf ("videotestsrc is-live=true ! "
      "video/x-raw,format=I420,width=320,height=240,framerate=30/1 ! "
      "shmsink socket-path=%s wait-for-connection=false", sock);
  GSubprocess *p = sender (send);
  gchar *launch = g_strdup_printf ("shmsrc name=sh_src socket-path=%s "
      "is-live=true do-timestamp=true ! video/x-raw,format=I420,width=320,"
      "height=240,framerate=30/1 ! fakesink name=sh_sink", sock);
  Run r;
  guint i;

  for (i = 0; i < 50 && !g_file_test (sock, G_FILE_TEST_EXISTS); i++)
    g_usleep (20000);
  r = run (launch, 3.0);
  assert_near (sink (r.s, "sh_sink")->fps, 30.0, 1.5, "sh_sink fps");
  run_clear (&r);
  sender_stop (p);
  g_free (launch);
  g_free (send);
  g_free (sock);
}

/* Recording to a file: the muxer's inputs wait for each other (mp4mux
 * busy was "101 %"); x264enc burns the CPU and is the hottest; the run ends
 * at the file's end without a stall. */
static void
test_mp4_record (void)
{
  gchar *out = g_build_filename (media_dir, "rec.mp4", NULL);
  gchar *launch = g_strdup_printf ("videotestsrc name=mr_v num-buffers=120 "
      "! video/x-raw,width=640,height=360,framerate=30/1 ! x264enc "
      "name=mr_enc speed-preset=veryfast ! h264parse ! mp4mux name=mr_mux ! "
      "filesink name=mr_sink location=%s audiotestsrc name=mr_a "
      "num-buffers=173 ! audioconvert ! avenc_aac ! aacparse ! mr_mux.", out);
  Run r = run (launch, 0);

  g_assert_cmpint (r.end, ==, GP_CAPTURE_END_EOS);
  g_assert_cmpstr (r.s->end, ==, "eos");
  g_assert_cmpfloat (elem (r.s, "mr_mux")->busy_pct, <=, 100.0);
  g_assert_cmpstr (hottest (r.s)->name, ==, "mr_enc");
  g_assert_null (gp_session_find_finding (r.s, "STALL", NULL));
  assert_work_is_cpu (r.s);
  run_clear (&r);
  g_free (launch);
  g_free (out);
}

/* Playback with decodebin: each stream's path ends at its own sink, the
 * audio sink gets real time (1.00x), the video sink 30 frames a second,
 * and each single queue of decodebin's multiqueue is within its limits. */
static void
test_playback (void)
{
  gchar *launch = g_strdup_printf ("filesrc location=%s ! decodebin "
      "name=pb_dec pb_dec. ! queue ! videoconvert ! fakesink name=pb_video "
      "sync=true pb_dec. ! queue ! audioconvert ! audioresample ! fakesink "
      "name=pb_audio sync=true", av_mp4 ());
  Run r = run (launch, 4.0);
  GpSinkSummary *a = sink (r.s, "pb_audio"), *v = sink (r.s, "pb_video");
  guint i, paths_to_audio = 0, paths_to_video = 0, single = 0;
  gchar *text;

  g_assert_cmpstr (a->media, ==, "audio");
  g_assert_cmpstr (v->media, ==, "video");
  assert_near (a->media_per_s, 1.0, 0.05, "pb_audio real time");
  assert_near (v->fps, 30.0, 1.0, "pb_video fps");
  g_assert_cmpfloat (gp_session_sink_target_fps (r.s, "pb_audio"), <, 0);
  for (i = 0; i < r.s->paths->len; i++) {
    GpPath *p = g_ptr_array_index (r.s->paths, i);

    g_test_message ("path %s > %s", p->source, p->sink);
    if (strstr (p->source, "audio")) {
      g_assert_cmpstr (p->sink, ==, "pb_audio");
      paths_to_audio++;
    } else if (strstr (p->source, "video")) {
      g_assert_cmpstr (p->sink, ==, "pb_video");
      paths_to_video++;
    }
  }
  g_assert_cmpuint (paths_to_audio, ==, 1);
  g_assert_cmpuint (paths_to_video, ==, 1);
  for (i = 0; i < r.s->queue_summaries->len; i++) {
    GpQueueSummary *q = g_ptr_array_index (r.s->queue_summaries, i);

    g_test_message ("queue %s: level %.1f %% mean, %.1f %% max", q->name,
        q->level_pct_mean, q->level_pct_max);
    if (g_str_has_prefix (q->name, "multiqueue")) {
      g_assert_nonnull (strchr (q->name, '.'));
      g_assert_cmpfloat (q->level_pct_max, <=, 110.0);
      single++;
    }
  }
  g_assert_cmpuint (single, ==, 2);
  /* a file is read ahead of the clock: what its frames wait at the sinks'
   * queues is no latency a viewer waits for (issue 29: file playback's
   * pre-roll read "1159 ms over 33.3 ms") */
  text = gp_verdict_format (r.s, NULL, 0);
  g_assert_nonnull (strstr (text, "not live: read ahead of the clock"));
  g_assert_null (strstr (text, "ms  over "));
  g_assert_null (gp_session_find_finding (r.s, "BUDGET", NULL));
  g_free (text);
  run_clear (&r);
  g_free (launch);
}

/* playbin: the same, through its own bins */
static void
test_playbin (void)
{
  gchar *uri = gst_filename_to_uri (av_mp4 (), NULL);
  gchar *launch = g_strdup_printf ("playbin uri=%s video-sink=\"fakesink "
      "name=pl_video sync=true\" audio-sink=\"fakesink name=pl_audio "
      "sync=true\"", uri);
  Run r = run (launch, 3.0);
  GpSinkSummary *a = sink (r.s, "pl_audio");

  assert_near (a->media_per_s, 1.0, 0.05, "pl_audio real time");
  assert_near (sink (r.s, "pl_video")->fps, 30.0, 1.0, "pl_video fps");
  /* one path into each sink, from its own stream */
  g_assert_nonnull (strstr (path_into (r.s, "pl_video")->source, "video"));
  g_assert_nonnull (strstr (path_into (r.s, "pl_audio")->source, "audio"));
  run_clear (&r);
  g_free (launch);
  g_free (uri);
}

/* A demuxer with no queue on its branches never reaches PLAYING: the
 * verdict says so, names the sink that never prerolled, and the fix it
 * proposes (a queue on each branch) makes the same pipeline play. */
static void
test_preroll_stuck (void)
{
  gchar *launch = g_strdup_printf ("filesrc location=%s ! qtdemux name=ps_d "
      "ps_d.video_0 ! h264parse name=ps_vparse ! avdec_h264 ! fakesink "
      "name=ps_video sync=true ps_d.audio_0 ! aacparse name=ps_aparse ! "
      "avdec_aac ! fakesink name=ps_audio sync=true", av_mp4 ());
  Run r = run (launch, 2.0);
  GpFinding *f = gp_session_find_finding (r.s, "PREROLL", NULL);
  GError *err = NULL;
  GpLaunch *l;
  gchar *fixed;

  g_assert_true (gp_session_never_played (r.s));
  g_assert_nonnull (f);
  g_assert_cmpuint (r.s->preroll->len, ==, 2);
  /* nothing but PREROLL about a pipeline that never played */
  g_assert_cmpuint (r.s->findings->len, ==, 1);
  g_assert_cmpstr (json_object_get_string_member (f->evidence,
          "branches_at"), ==, "ps_d");
  /* it stopped at once: no EOS wait */
  g_assert_cmpfloat (r.wall_s, <, 2.0 + 1.5);
  g_assert_nonnull (f->fix_patch);
  l = gp_launch_parse (launch, &err);
  g_assert_no_error (err);
  g_assert_true (gp_launch_apply_patch (l, f->fix_patch, &err));
  g_assert_no_error (err);
  fixed = gp_launch_to_string (l);
  g_test_message ("fixed: %s", fixed);
  run_clear (&r);

  r = run (fixed, 2.0);
  g_assert_false (gp_session_never_played (r.s));
  g_assert_cmpstr (r.s->reached, ==, "PLAYING");
  g_assert_null (gp_session_find_finding (r.s, "PREROLL", NULL));
  assert_near (sink (r.s, "ps_video")->fps, 30.0, 1.5, "fixed video fps");
  run_clear (&r);
  gp_launch_free (l);
  g_free (fixed);
  g_free (launch);
}

/* tee with a queue on each branch: each branch at the source's rate, both
 * latencies matched exactly (nothing re-timestamps). */
static void
test_tee (void)
{
  Run r = run ("videotestsrc name=te_src is-live=true ! "
      "video/x-raw,width=320,height=240,framerate=30/1 ! tee name=te_t "
      "te_t. ! queue ! fakesink name=te_a sync=true te_t. ! queue ! "
      "videoconvert ! fakesink name=te_b sync=true", 3.0);
  GpPath *a = path (r.s, "te_src.src", "te_a");
  GpPath *b = path (r.s, "te_src.src", "te_b");

  assert_near (sink (r.s, "te_a")->fps, 30.0, 1.0, "te_a fps");
  assert_near (sink (r.s, "te_b")->fps, 30.0, 1.0, "te_b fps");
  g_assert_cmpuint (a->exact, ==, a->matched);
  g_assert_cmpuint (b->exact, ==, b->matched);
  assert_latency_agrees (r.s, "te_src.src", "te_src", "te_a");
  run_clear (&r);
}

/* A transcode to a file ends at the file's end: no stall, no starvation,
 * a drain that is the stream's own end. */
static void
test_transcode (void)
{
  gchar *out = g_build_filename (media_dir, "tc.mp4", NULL);
  gchar *launch = g_strdup_printf ("filesrc location=%s ! qtdemux name=tc_d "
      "tc_d.video_0 ! h264parse ! avdec_h264 ! videoconvert ! x264enc "
      "name=tc_enc speed-preset=ultrafast ! mp4mux ! filesink location=%s",
      av_mp4 (), out);
  Run r = run (launch, 0);

  g_assert_cmpint (r.end, ==, GP_CAPTURE_END_EOS);
  g_assert_cmpstr (r.s->end, ==, "eos");
  g_assert_null (gp_session_find_finding (r.s, "STALL", NULL));
  g_assert_null (gp_session_find_finding (r.s, "QFULL", NULL));
  assert_work_is_cpu (r.s);
  run_clear (&r);
  g_free (launch);
  g_free (out);
}

/* splitmuxsink recording a live stream: its muxer's waiting is not work. */
static void
test_splitmux (void)
{
  gchar *pattern = g_build_filename (media_dir, "split%02d.mp4", NULL);
  gchar *launch = g_strdup_printf ("videotestsrc is-live=true ! "
      "video/x-raw,width=320,height=240,framerate=30/1 ! x264enc "
      "tune=zerolatency speed-preset=ultrafast key-int-max=30 ! h264parse ! "
      "splitmuxsink name=sm_split max-size-time=1000000000 location=%s",
      pattern);
  Run r = run (launch, 3.0);

  assert_work_is_cpu (r.s);
  g_assert_false (gp_session_never_played (r.s));
  run_clear (&r);
  g_free (launch);
  g_free (pattern);
}

/* not-negotiated at run time: the error names the link that refused, with
 * both sides' caps, once. */
static void
test_not_negotiated (void)
{
  Run r = run ("audiotestsrc name=nn_src ! audio/x-raw,channels=2 ! opusenc "
      "name=nn_enc ! audio/x-opus,channel-mapping-family=1 ! fakesink "
      "name=nn_sink", 2.0);
  GpEvent *error = NULL;
  guint i, errors = 0;

  g_assert_cmpint (r.end, ==, GP_CAPTURE_END_ERROR);
  for (i = 0; i < r.s->events->len; i++) {
    GpEvent *ev = g_ptr_array_index (r.s->events, i);

    if (g_str_equal (ev->type, "error")) {
      error = ev;
      errors++;
    }
  }
  g_assert_cmpuint (errors, ==, 1);
  g_assert_nonnull (strstr (error->text, "not-negotiated"));
  g_assert_cmpstr (json_object_get_string_member (error->data, "link"), ==,
      "nn_enc.src");
  g_assert_nonnull (strstr (json_object_get_string_member (error->data,
              "caps"), "channel-mapping-family=(int)0"));
  g_assert_nonnull (strstr (json_object_get_string_member (error->data,
              "accepts"), "channel-mapping-family=(int)1"));
  run_clear (&r);
}

/* A file that is not there: the error names it, once. */
static void
test_missing_file (void)
{
  Run r = run ("filesrc location=/nonexistent/gstprof-corpus.mp4 ! "
      "decodebin ! fakesink", 2.0);
  guint i, errors = 0;

  for (i = 0; i < r.s->events->len; i++) {
    GpEvent *ev = g_ptr_array_index (r.s->events, i);

    if (g_str_equal (ev->type, "error")) {
      g_assert_nonnull (strstr (ev->text, "/nonexistent/gstprof-corpus.mp4"));
      errors++;
    }
  }
  g_assert_cmpuint (errors, ==, 1);
  run_clear (&r);
}

/* autovideosink tries its candidates before it settles; their failures
 * are its own business, not errors of the pipeline. */
static void
test_autovideosink (void)
{
  Run r;
  guint i;

  if (!gp_test_have_display ())
    return;
  /* under AddressSanitizer its GL sink (Mesa's softpipe on Xvfb) had not
   * reached PLAYING after 2 s: 8 there */
  r = run ("videotestsrc is-live=true ! video/x-raw,width=320,height=240 ! "
      "autovideosink name=av_sink", gp_test_sanitized ()? 8.0 : 2.0);
  for (i = 0; i < r.s->events->len; i++) {
    GpEvent *ev = g_ptr_array_index (r.s->events, i);

    g_assert_cmpstr (ev->type, !=, "error");
  }
  g_assert_false (gp_session_never_played (r.s));
  run_clear (&r);
}

/* The end of --duration: an event, the stop within a window of it, and a
 * drain that does not count in the rate. */
static void
test_duration_drain (void)
{
  Run r = run ("videotestsrc name=dd_src is-live=true ! "
      "video/x-raw,width=320,height=240,framerate=30/1 ! x264enc "
      "speed-preset=ultrafast ! fakesink name=dd_sink sync=false", 3.0);
  guint i;
  gboolean event = FALSE;

  g_assert_cmpstr (r.s->end, ==, "duration");
  assert_near (r.s->stop_s, 3.0, r.s->window_s + 0.1, "stop");
  g_assert_cmpfloat (r.s->drain_s, >=, 0);
  g_assert_cmpfloat (r.s->drain_s, <, 3.0);
  /* the run lasts the duration, a window, and at most the EOS wait */
  g_assert_cmpfloat (r.s->duration_s, >=, 3.0 - r.s->window_s);
  g_assert_cmpfloat (r.s->duration_s, <=, 3.0 + r.s->window_s + 3.0);
  for (i = 0; i < r.s->events->len; i++)
    event |= g_str_equal (((GpEvent *)
            g_ptr_array_index (r.s->events, i))->type, "duration");
  g_assert_true (event);
  /* x264enc's lookahead burst at EOS is not the steady rate */
  assert_near (sink (r.s, "dd_sink")->fps, 30.0, 1.5, "dd_sink fps");
  g_assert_null (gp_session_find_finding (r.s, "STALL", NULL));
  run_clear (&r);
}

/* Audio played to the clock: real time; audio decoded as fast as it goes:
 * many times real time, and no target (nothing says it must keep time). */
static void
test_audio_rates (void)
{
  Run r = run ("audiotestsrc name=ar_src num-buffers=100 ! audioconvert ! "
      "fakesink name=ar_sink sync=true", 0);
  GpSinkSummary *sk = sink (r.s, "ar_sink");

  assert_near (sk->media_per_s, 1.0, 0.05, "ar_sink real time");
  assert_no_rate_finding (r.s);
  run_clear (&r);

  r = run ("audiotestsrc name=af_src num-buffers=2000 ! fakesink "
      "name=af_sink sync=false", 0);
  sk = sink (r.s, "af_sink");
  g_assert_cmpfloat (sk->media_per_s, >, 5.0);
  g_assert_cmpfloat (gp_session_sink_target_media_rate (r.s, "af_sink"), <, 0);
  run_clear (&r);
}

/* Video faster than real time reads as audio does, in media seconds a
 * second (issue 29: a non-live transcode read "2531.9 fps, target not
 * known", a decode "5699.4 fps of 30.0 fps"): a non-live 30/1 stream into a
 * sink that does not sync runs at its fps over the caps' 30 times real
 * time, and by its buffers' durations (33.3 ms each) the same; the
 * verdict's line says that figure first and the fps beside it. A live
 * 30/1 stream reads in fps against its caps. */
static void
test_video_rates (void)
{
  Run r = run ("videotestsrc name=vx_src num-buffers=20000 ! "
      "video/x-raw,width=64,height=48,framerate=30/1 ! fakesink "
      "name=vx_sink sync=false", 0);
  GpSinkSummary *sk = sink (r.s, "vx_sink");
  gchar *text = verdict_flat (r.s), *want;

  g_test_message ("vx_sink: %.1f fps, %.2fx real time by durations", sk->fps,
      sk->media_per_s);
  g_assert_cmpfloat (sk->fps, >, 5 * 30.0);
  assert_near (sk->media_per_s, sk->fps / 30.0, 0.01 * sk->fps / 30.0,
      "vx_sink's media a second against its fps over the caps' rate");
  want = g_strdup_printf ("vx_sink %.2fx real time (video: %.1f fps of "
      "30.0 fps) faster (not paced)", sk->fps / 30.0, sk->fps);
  if (strstr (text, want) == NULL)
    g_error ("no \"%s\" in the verdict:\n%s", want, text);
  g_assert_null (strstr (text, "target not known"));
  g_free (want);
  g_free (text);
  run_clear (&r);

  r = run ("videotestsrc name=vl_src is-live=true ! "
      "video/x-raw,width=64,height=48,framerate=30/1 ! fakesink "
      "name=vl_sink", 2.0);
  text = verdict_flat (r.s);
  if (!g_regex_match_simple ("vl_sink [0-9.]+ fps of 30.0 fps \\(caps\\)",
          text, 0, 0))
    g_error ("the live sink's line is not in fps against its caps:\n%s",
        text);
  g_free (text);
  run_clear (&r);
}

/* queue min-threshold-time on a live path: the residence and the latency
 * GStreamer's queue gives (ceil (T/d) * d - d: 33.3 ms for 50 ms at 30/1),
 * the latency tracer's too, and it is waiting, not work. */
static void
test_queue_threshold (void)
{
  Run r = run ("videotestsrc name=qt_src is-live=true ! "
      "video/x-raw,width=160,height=120,framerate=30/1 ! queue name=qt_q "
      "min-threshold-time=50000000 ! fakesink name=qt_sink sync=false", 3.0);
  GpQueueSummary *q = gp_session_find_queue_summary (r.s, "qt_q");
  GPtrArray *hops;
  guint i;

  g_assert_nonnull (q);
  assert_near (q->residence_ms.p50, 33.3, 3.0, "qt_q residence p50");
  assert_latency_agrees (r.s, "qt_src.src", "qt_src", "qt_sink");
  hops = gp_session_path_hops (r.s, path (r.s, "qt_src.src", "qt_sink"));
  g_assert_nonnull (hops);
  for (i = 0; i < hops->len; i++) {
    GpHop *h = g_ptr_array_index (hops, i);

    if (g_str_equal (h->element, "qt_q")) {
      g_assert_true (h->queue);
      assert_near (h->hop_ms, 33.3, 3.0, "qt_q hop");
    }
  }
  g_ptr_array_unref (hops);
  run_clear (&r);
}

/* The first frames of a live chain wait in a pad probe of the test's own
 * (a stand-in for a first keyframe, a decoder's or a jitter buffer's
 * start): STARTUP_FRAMES of them, STARTUP_WAIT_US each. */
#define STARTUP_FRAMES 10
#define STARTUP_WAIT_US 60000

static gint startup_seen;

static GstPadProbeReturn
startup_probe (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  if (g_atomic_int_add (&startup_seen, 1) < STARTUP_FRAMES)
    g_usleep (STARTUP_WAIT_US);
  return GST_PAD_PROBE_OK;
}

/* Start-up is not steady state (issue 29: "p99 was 5-40 ms above the
 * steady state on three live pipelines, and one start-up p95 raised a
 * BUDGET finding that two re-runs did not"): with ten 60 ms waits at the
 * start of a live chain, the whole run's p95 is that wait; gstprof's
 * p50, p95 and p99 are the latency tracer's with its first second left
 * out, its start-up's longest is the wait, the verdict says so, and no
 * finding holds the start-up against the frame period. */
static void
test_latency_startup (void)
{
  /* on identity's sink pad: a probe runs after the push's hooks, where
   * both tracers take a buffer's time at the sink it is pushed to */
  const ProbeAt at[] = { {"su_id", "sink", startup_probe}, {NULL} };
  GArray *all, *steady;
  gchar *text;
  GpPath *p;
  Run r;
  gdouble q[] = { 0.50, 0.95, 0.99 }, ours[3];
  guint i;

  g_atomic_int_set (&startup_seen, 0);
  r = run_probed ("videotestsrc name=su_src is-live=true ! "
      "video/x-raw,width=160,height=120,framerate=30/1 ! identity "
      "name=su_id ! fakesink name=su_sink sync=true", 4.0, at);
  p = path (r.s, "su_src.src", "su_sink");
  g_assert_true (p->steady);
  g_assert_cmpfloat (p->startup_max_ms, >=, STARTUP_WAIT_US / 1000.0 * 0.95);
  ours[0] = p->latency_ms.p50;
  ours[1] = p->latency_ms.p95;
  ours[2] = p->latency_ms.p99;
  if (lat_tracer_loaded) {
    all = lat_tracer_times ("su_src", "su_sink", FALSE);
    steady = lat_tracer_times ("su_src", "su_sink", TRUE);
    /* the planted wait is in the whole run's p95: the case is what it
     * says */
    g_assert_cmpfloat (lat_quantile_ms (all, 0.95), >=,
        STARTUP_WAIT_US / 1000.0 * 0.95);
    g_assert_cmpuint (steady->len, >=, 60);
    for (i = 0; i < G_N_ELEMENTS (q); i++) {
      gdouble theirs = lat_quantile_ms (steady, q[i]);

      g_test_message ("p%.0f: gstprof %.2f ms, the latency tracer %.2f ms "
          "(whole run %.2f)", q[i] * 100, ours[i], theirs,
          lat_quantile_ms (all, q[i]));
      g_assert_cmpfloat (ABS (ours[i] - theirs), <=, MAX (theirs * 0.10,
              5.0));
    }
    g_array_unref (all);
    g_array_unref (steady);
  }
  g_assert_cmpfloat (ours[2], <, 1000.0 / 30);
  g_assert_null (gp_session_find_finding (r.s, "BUDGET", NULL));
  text = gp_verdict_format (r.s, NULL, 0);
  g_assert_nonnull (strstr (text, "start-up, its first second, left out: "
          "up to"));
  g_free (text);
  run_clear (&r);
}

/* A GL round trip under Xvfb: the GL elements are measured like any. */
static void
test_gl (void)
{
  GstElementFactory *f = gst_element_factory_find ("glupload");
  Run r;

  if (f == NULL) {
    g_test_skip ("the GL plugin is not installed");
    return;
  }
  gst_object_unref (f);
  if (!gp_test_have_display ())
    return;
  r = run ("videotestsrc name=gl_src is-live=true ! "
      "video/x-raw,width=320,height=240,framerate=30/1 ! glupload ! "
      "glcolorconvert ! gldownload ! fakesink name=gl_sink sync=true", 3.0);
  assert_near (sink (r.s, "gl_sink")->fps, 30.0, 1.5, "gl_sink fps");
  assert_latency_agrees (r.s, "gl_src.src", "gl_src", "gl_sink");
  run_clear (&r);
}

/* ------------------------------------------------------------------ */
/* application programs under gstprof wrap                             */

/* The program @name built beside the tests of @room (tests/capture's
 * appsink application, this room's appsrc one), or NULL, the test
 * skipped, when they were built without gstreamer-app. */
static gchar *
app_program (const gchar * room, const gchar * name)
{
  gchar *prog = g_test_build_filename (G_TEST_BUILT, "..", room, name, NULL);

  if (!g_file_test (prog, G_FILE_TEST_IS_EXECUTABLE)) {
    g_test_skip ("built without gstreamer-app");
    g_clear_pointer (&prog, g_free);
  }
  return prog;
}

/* @argv run to its end under gstprof wrap (gp_test_wrap); the rules run
 * on its session. */
static GpSession *
wrap_app (gchar ** argv)
{
  GpSession *s = gp_test_wrap (argv, 0);

  gp_rules_run (s);
  return s;
}

/* No finding's text proposes a queue before @name as a remedy. */
static void
assert_no_queue_before (GpSession * s, const gchar * name)
{
  gchar *before = g_strdup_printf ("queue before %s", name);
  guint i;

  for (i = 0; i < s->findings->len; i++) {
    GpFinding *f = g_ptr_array_index (s->findings, i);

    if (f->fix && (strstr (f->fix, "put a queue before it") ||
            (strstr (f->fix, before) && !strstr (f->fix, "leaky"))))
      g_error ("%s proposes a queue before %s: %s", f->rule, name, f->fix);
  }
  g_free (before);
}

#define GP_CORPUS_APP_PERIOD_MS (1000.0 / 30)
#define GP_CORPUS_APP_CALLBACK_MS 45.0
/* the lag's growth a frame against its truth: test-late.c's tolerance
 * (windows' medians from 6.25 %-wide buckets) */
#define GP_CORPUS_APP_LAG_TOLERANCE 0.15

/* Whether the BEHIND finding of an appsink program whose callback costs
 * @cost_ms a frame (as this machine sleeps it) on a live 30/1 source's
 * thread says what the truth says: the lag grows by cost - period each
 * frame, and a frame leaves every cost, so by (cost - period) / cost
 * seconds a second. */
static gboolean
appsink_lag_ok (GpFinding * f, gdouble cost_ms)
{
  gdouble ms_per_s = gp_test_evidence_double (f, "lag_growth_pct") * 10.0;
  gdouble per_frame = ms_per_s * cost_ms / 1000.0;
  gdouble truth = cost_ms - GP_CORPUS_APP_PERIOD_MS;

  g_test_message ("lag %.1f ms/s: %.2f ms a frame of %.1f ms; truth %.2f ms "
      "a frame", ms_per_s, per_frame, cost_ms, truth);
  return fabs (per_frame - truth) <= GP_CORPUS_APP_LAG_TOLERANCE * truth;
}

/* An application whose appsink callback works 45 ms a frame on the
 * streaming thread of a live 30/1 source (tests/capture's
 * gp-test-appsink-slow under gstprof wrap): BEHIND names the callback as
 * the application's work (its time is the planted cost, not a clock wait;
 * no SYNC), and the lag grows by the cost less the frame period each
 * frame.  Up to three runs: other processes on a loaded machine stretch
 * the cost past the planted sleep. */
static void
test_appsink_slow (void)
{
  gchar *prog = app_program ("capture", "gp-test-appsink-slow");
  gchar *ms = g_strdup_printf ("%.0f", GP_CORPUS_APP_CALLBACK_MS);
  gboolean ok = FALSE;
  guint attempt;

  for (attempt = 0; prog && attempt < 3 && !ok; attempt++) {
    gchar *argv[] = { prog, ms, (gchar *) "4", NULL };
    gdouble cost = GP_CORPUS_APP_CALLBACK_MS +
        gp_test_oversleep_ms (GP_CORPUS_APP_CALLBACK_MS);
    GpSession *s = wrap_app (argv);
    GpFinding *f = gp_session_find_finding (s, "BEHIND", NULL);

    gp_test_print_findings (s);
    g_assert_nonnull (f);
    g_assert_cmpstr (f->severity, ==, "medium");
    g_assert_cmpstr (gp_test_evidence_string (f, "limiting"), ==, "app");
    assert_near (gp_test_evidence_double (f, "callback_p50_ms"), cost, 2.0,
        "callback p50 ms");
    gp_test_assert_has (f->why, "the application's work, not a wait for "
        "the clock");
    g_assert_null (gp_session_find_finding (s, "SYNC", NULL));
    /* no fix that only moves the lag: a queue before the callback */
    assert_no_queue_before (s, "app");
    ok = appsink_lag_ok (f, cost);
    gp_session_free (s);
  }
  g_assert_true (prog == NULL || ok);
  g_free (ms);
  g_free (prog);
}

#define GP_CORPUS_APP_PUSH_FPS 25
/* gstprof's rate at the sink against the program's own count: the first
 * and last windows are partial, the encoder's start-up holds a frame or
 * two */
#define GP_CORPUS_APP_RATE_TOLERANCE 0.03

/* An application pushing frames into a live appsrc at 25 a second by its
 * own clock, into x264enc and a fakesink (gp-test-appsrc-push under
 * gstprof wrap): the rate at the sink is what the program says it pushed
 * over the time it pushed, and nothing is behind. */
static void
test_appsrc_push (void)
{
  gchar *prog = app_program ("corpus", "gp-test-appsrc-push");
  gchar *out = g_build_filename (media_dir, "appsrc-push.txt", NULL);
  gchar *fps = g_strdup_printf ("%d", GP_CORPUS_APP_PUSH_FPS);
  gchar *argv[] = { prog, fps, (gchar *) "4", out, NULL };
  gchar *truth = NULL, **f;
  gdouble pushed_fps;
  GpSinkSummary *sk;
  GpSession *s;

  if (prog == NULL)
    goto out;
  s = wrap_app (argv);
  g_assert_true (g_file_get_contents (out, &truth, NULL, NULL));
  f = g_strsplit (truth, " ", 2);
  g_assert_cmpuint (g_strv_length (f), ==, 2);
  /* n frames pushed: n - 1 periods from the first to the last */
  pushed_fps = (g_ascii_strtod (f[0], NULL) - 1) / g_ascii_strtod (f[1],
      NULL);
  g_strfreev (f);
  g_test_message ("the program: %s", g_strstrip (truth));
  sk = sink (s, "ap_sink");
  assert_near (sk->fps, pushed_fps, GP_CORPUS_APP_RATE_TOLERANCE * pushed_fps,
      "ap_sink fps against the program's push rate");
  gp_test_print_findings (s);
  g_assert_null (gp_session_find_finding (s, "BEHIND", NULL));
  assert_no_rate_finding (s);
  gp_session_free (s);
out:
  g_free (truth);
  g_free (fps);
  g_free (out);
  g_free (prog);
}

/* A program flooding an appsrc (issue 28's memory: "a program flooding an
 * appsrc reached 585 MiB ..., against 124 MiB with block=true: nothing
 * said"): 640x480 frames pushed at 60 a second, deaf to enough-data, to a
 * pipeline that takes 15. MEM says at medium that memory grows at what
 * the program's own counts give (45 frames a second, 80-130 %) and that it
 * sits in the appsrc, holding what the program's counts left queued at its
 * last push (pushed less those its own probe saw reach the sink), within
 * 15 %; with block=true the push waits for room: no MEM, and the appsrc
 * never held more than its max-bytes (one frame) and a frame. */
static void
test_appsrc_flood (void)
{
  gchar *prog = app_program ("corpus", "gp-test-appsrc-flood");
  gchar *out = g_build_filename (media_dir, "appsrc-flood.txt", NULL);
  /* under AddressSanitizer the freed frames would sit in its quarantine,
   * in the program's memory: not the pipeline's, and kept out */
  gchar *asan = g_strdup_printf ("ASAN_OPTIONS=%s:quarantine_size_mb=1",
      g_getenv ("ASAN_OPTIONS") ? g_getenv ("ASAN_OPTIONS") : "");
  gchar *argv[] = { asan, prog, (gchar *) "0", (gchar *) "5", out, NULL };
  gdouble frame_mib = 640 * 480 * 3 / 2 / (1024.0 * 1024.0), queued_mib;
  gchar *truth = NULL, **f;
  GpElementSummary *es;
  GpFinding *mem;
  GpSession *s;

  if (prog == NULL)
    goto out;
  s = wrap_app (argv);
  gp_test_print_findings (s);
  g_assert_true (g_file_get_contents (out, &truth, NULL, NULL));
  f = g_strsplit (g_strstrip (truth), " ", 3);
  g_assert_cmpuint (g_strv_length (f), ==, 3);
  queued_mib = g_ascii_strtod (f[2], NULL) / (1024.0 * 1024.0);
  g_strfreev (f);
  mem = gp_session_find_finding (s, "MEM", NULL);
  g_assert_nonnull (mem);
  g_test_message ("the program: %s (%.1f MiB queued); MEM: %s", truth,
      queued_mib, mem->title);
  g_assert_cmpstr (mem->severity, ==, GP_SEVERITY_MEDIUM);
  g_assert_cmpstr (gp_test_evidence_string (mem, "own_queue"), ==, "af_src");
  assert_near (gp_test_evidence_double (mem, "queued_max_mib"), queued_mib,
      0.15 * queued_mib, "af_src's queue against the program's counts");
  g_assert_cmpfloat (gp_test_evidence_double (mem, "growth_rate_mib_per_sec"),
      >=, 0.8 * 45 * frame_mib);
  g_assert_cmpfloat (gp_test_evidence_double (mem, "growth_rate_mib_per_sec"),
      <=, 1.3 * 45 * frame_mib);
  gp_session_free (s);

  argv[2] = (gchar *) "1";
  s = wrap_app (argv);
  gp_test_print_findings (s);
  g_assert_null (gp_session_find_finding (s, "MEM", NULL));
  es = gp_session_find_elem_summary (s, "af_src");
  g_assert_nonnull (es);
  g_assert_cmpfloat (es->queued_mb_max, >=, 0);
  g_assert_cmpfloat (es->queued_mb_max, <=, 2 * frame_mib + 0.01);
  g_assert_true (es->queued_blocks);
  gp_session_free (s);
out:
  g_free (truth);
  g_free (asan);
  g_free (out);
  g_free (prog);
}

static const struct
{
  const gchar *path;
  GTestFunc func;
} cases[] = {
  {"/corpus/live-chain", test_live_chain},
  {"/corpus/identity-sleep", test_identity_sleep},
  {"/corpus/live-source-work", test_live_source_work},
  {"/corpus/audiomixer-rtp", test_audiomixer_rtp},
  {"/corpus/compositor", test_compositor},
  {"/corpus/videorate", test_videorate},
  {"/corpus/snapshot", test_snapshot},
  {"/corpus/videorate-repeat", test_videorate_repeat},
  {"/corpus/rtp-receiver", test_rtp_receiver},
  {"/corpus/rtp-sender", test_rtp_sender},
  {"/corpus/rtcp-sender", test_rtcp_sender},
  {"/corpus/udpsrc-idle", test_udpsrc_idle},
  {"/corpus/live-mux", test_live_mux},
  {"/corpus/live-mux-av", test_live_mux_av},
  {"/corpus/mpegts", test_mpegts},
  {"/corpus/mpegts-av", test_mpegts_av},
  {"/corpus/hls", test_hls},
  {"/corpus/webm", test_webm},
  {"/corpus/hevc", test_hevc},
  {"/corpus/flv", test_flv},
  {"/corpus/ogg-live", test_ogg_live},
  {"/corpus/overlay-1080p", test_overlay_1080p},
  {"/corpus/deinterlace", test_deinterlace},
  {"/corpus/convert-4k", test_convert_4k},
  {"/corpus/audio-transcode", test_audio_transcode},
  {"/corpus/intervideo", test_intervideo},
  {"/corpus/shm", test_shm},
  {"/corpus/mp4-record", test_mp4_record},
  {"/corpus/playback", test_playback},
  {"/corpus/playbin", test_playbin},
  {"/corpus/preroll-stuck", test_preroll_stuck},
  {"/corpus/tee", test_tee},
  {"/corpus/transcode", test_transcode},
  {"/corpus/splitmux", test_splitmux},
  {"/corpus/not-negotiated", test_not_negotiated},
  {"/corpus/missing-file", test_missing_file},
  {"/corpus/autovideosink", test_autovideosink},
  {"/corpus/duration-drain", test_duration_drain},
  {"/corpus/audio-rates", test_audio_rates},
  {"/corpus/video-rates", test_video_rates},
  {"/corpus/queue-threshold", test_queue_threshold},
  {"/corpus/latency-startup", test_latency_startup},
  {"/corpus/gl", test_gl},
  {"/corpus/appsink-slow", test_appsink_slow},
  {"/corpus/appsrc-push", test_appsrc_push},
  {"/corpus/appsrc-flood", test_appsrc_flood},
};

int
main (int argc, char **argv)
{
  GError *error = NULL;
  gint ret;
  guint i;

  /* the latency tracer beside gstprof, its records in our log function */
  lat_tracer_loaded = !lat_tracer_hangs ();
  if (lat_tracer_loaded)
    g_setenv ("GST_TRACERS", "latency(flags=pipeline)", TRUE);
  g_setenv ("GST_DEBUG", "GST_TRACER:7", TRUE);
  lat_records = g_ptr_array_new_with_free_func (lat_record_free);
  gp_capture_options_init (&base_opts);
  base_opts.eos_timeout_s = 2.0;
  if (!gp_capture_prepare_env (&base_opts, &error))
    g_error ("%s", error->message);
  gst_debug_remove_log_function (gst_debug_log_default);
  gst_debug_add_log_function (on_log, NULL, NULL);
  gst_init (&argc, &argv);
  g_test_init (&argc, &argv, NULL);
  gp_test_keep_gl_driver ();
  media_dir = g_dir_make_tmp ("gstprof-corpus-XXXXXX", &error);
  g_assert_no_error (error);

  /* --part=K/N: meson runs the table in parts side by side */
  gp_test_parse_part (argc, argv);
  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    if (gp_test_in_part (i, G_N_ELEMENTS (cases)))
      g_test_add_func (cases[i].path, cases[i].func);
  ret = g_test_run ();
  gp_test_stop_display ();
  gp_test_remove_tree (media_dir);
  return ret;
}
