/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof tracer tests: real pipelines under the gstprof tracer, each
 * measurement compared with a known truth (identity sleep-time, queue
 * min-threshold-time, a live source's frame rate).
 *
 * Built twice: test-tracer (window=100) and test-tracer-cpu (window=100,
 * cpu=true, only the CPU case and the properties).  The tracer is found
 * through GST_PLUGIN_PATH, set by meson (tests/meson.build).  With
 * GP_TEST_TRACERS set, the program is a child of /tracer/params, run
 * under those GST_TRACERS.
 */
#include <gst/gst.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/syscall.h>
#endif

#include "core/gp-histogram.h"
#include "core/gp-record.h"
#include "gp-test-clock.h"

#ifndef GP_TEST_CPU
#define GP_TEST_CPU 0
#endif

#if !GST_CHECK_VERSION (1, 20, 0)
#define gst_element_request_pad_simple(e, n) gst_element_get_request_pad (e, n)
#endif

#define WINDOW_MS 100

static GstTracer *tracer;
static GMutex win_lock;
static GPtrArray *windows;      /* GstStructure copies */
static gint64 first_window_us;  /* monotonic time of the first window */

static void
on_window (GstTracer * t, const GstStructure * w, gpointer user_data)
{
  g_mutex_lock (&win_lock);
  if (!first_window_us)
    first_window_us = g_get_monotonic_time ();
  /* NULL once main () has let the array go: the tracer's timer thread
   * emits until gst_deinit () */
  if (windows)
    g_ptr_array_add (windows, gst_structure_copy (w));
  g_mutex_unlock (&win_lock);
}

static guint
n_windows (void)
{
  guint n;

  g_mutex_lock (&win_lock);
  n = windows->len;
  g_mutex_unlock (&win_lock);
  return n;
}

/* flush: whatever the previous test left goes */
static void
reset_windows (void)
{
  g_assert_nonnull (tracer);
  g_signal_emit_by_name (tracer, "flush");
  g_mutex_lock (&win_lock);
  g_ptr_array_set_size (windows, 0);
  g_mutex_unlock (&win_lock);
}

/* flush, then hand over everything collected since the last reset */
static GPtrArray *
take_windows (void)
{
  GPtrArray *out;

  g_signal_emit_by_name (tracer, "flush");
  g_mutex_lock (&win_lock);
  out = windows;
  windows = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_structure_free);
  g_mutex_unlock (&win_lock);
  return out;
}

/* The tracer's events of @type in @ws, in order (borrowed). */
G_GNUC_UNUSED static GPtrArray *
events_of (GPtrArray * ws, const gchar * type)
{
  GPtrArray *out = g_ptr_array_new ();
  guint i, j;

  for (i = 0; i < ws->len; i++) {
    const GValue *list = gst_structure_get_value (g_ptr_array_index (ws, i),
        GP_W_EVENTS);

    for (j = 0; list && j < gst_value_list_get_size (list); j++) {
      const GstStructure *ev =
          gst_value_get_structure (gst_value_list_get_value (list, j));

      if (g_strcmp0 (gst_structure_get_string (ev, GP_EV_TYPE), type) == 0)
        g_ptr_array_add (out, (gpointer) ev);
    }
  }
  return out;
}

/* the plugin of this build must load and be found (gp-record.h) */
#define REQUIRE_TRACER() g_assert_nonnull (tracer)

static GstElement *
launch (const gchar * desc)
{
  GError *err = NULL;
  GstElement *p = gst_parse_launch (desc, &err);

  g_assert_no_error (err);
  g_assert_nonnull (p);
  return p;
}

/* runs to EOS (or fails after @timeout_s) */
static void
run_to_eos (GstElement * p, guint timeout_s)
{
  GstBus *bus = gst_element_get_bus (p);
  GstMessage *msg;

  g_assert_cmpint (gst_element_set_state (p, GST_STATE_PLAYING), !=,
      GST_STATE_CHANGE_FAILURE);
  msg = gst_bus_timed_pop_filtered (bus, timeout_s * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  g_assert_nonnull (msg);
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    GError *err = NULL;

    gst_message_parse_error (msg, &err, NULL);
    g_error ("pipeline error: %s", err->message);
  }
  gst_message_unref (msg);
  gst_object_unref (bus);
}

/* runs for @ms without a main loop; fails on an error */
G_GNUC_UNUSED static void
run_for (GstElement * p, guint ms)
{
  GstBus *bus = gst_element_get_bus (p);
  GstMessage *msg;

  msg = gst_bus_timed_pop_filtered (bus, ms * GST_MSECOND,
      GST_MESSAGE_ERROR);
  if (msg) {
    GError *err = NULL;

    gst_message_parse_error (msg, &err, NULL);
    g_error ("pipeline error: %s", err->message);
  }
  gst_object_unref (bus);
}

static void
stop (GstElement * p)
{
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (p);
}

/* record helpers */

static const GstStructure *
list_nth (const GstStructure * w, const gchar * field, guint i)
{
  const GValue *l = gst_structure_get_value (w, field);

  g_assert_nonnull (l);
  if (i >= gst_value_list_get_size (l))
    return NULL;
  return gst_value_get_structure (gst_value_list_get_value (l, i));
}

static guint64
get_u64 (const GstStructure * s, const gchar * f)
{
  guint64 v = 0;

  g_assert_true (gst_structure_get_uint64 (s, f, &v));
  return v;
}

static void
hist_add (guint64 * counts, const GstStructure * s, const gchar * field)
{
  const GValue *a = gst_structure_get_value (s, field);
  guint i, n;

  g_assert_nonnull (a);
  n = gst_value_array_get_size (a);
  g_assert_cmpuint (n % 2, ==, 0);
  for (i = 0; i < n; i += 2) {
    guint64 b = g_value_get_uint64 (gst_value_array_get_value (a, i));
    guint64 c = g_value_get_uint64 (gst_value_array_get_value (a, i + 1));

    g_assert_cmpuint (b, <, GP_HIST_N_BUCKETS);
    counts[b] += c;
  }
}

/* quantile from bucket midpoints */
G_GNUC_UNUSED static gdouble
hist_quantile_ms (const guint64 * counts, gdouble q)
{
  guint64 total = 0, cum = 0;
  guint b;

  for (b = 0; b < GP_HIST_N_BUCKETS; b++)
    total += counts[b];
  if (!total)
    return -1;
  for (b = 0; b < GP_HIST_N_BUCKETS; b++) {
    cum += counts[b];
    if (cum > 0 && (gdouble) cum >= q * total)
      return (gp_hist_bucket_low (b) + gp_hist_bucket_width (b) / 2.0) / 1e6;
  }
  return -1;
}

typedef struct
{
  guint64 hist[GP_HIST_N_BUCKETS];
  guint64 buffers;
  guint64 self_ns;
  guint64 cpu_ns;
  guint64 event_ns;
  guint64 handler_ns;
  guint64 handler_n;
  guint n;
} ElemSum;

static void
sum_element (GPtrArray * ws, const gchar * name, ElemSum * out)
{
  guint i, j;

  memset (out, 0, sizeof (*out));
  for (i = 0; i < ws->len; i++) {
    const GstStructure *w = g_ptr_array_index (ws, i);
    const GstStructure *e;

    for (j = 0; (e = list_nth (w, "elements", j)); j++) {
      if (g_strcmp0 (gst_structure_get_string (e, "name"), name))
        continue;
      hist_add (out->hist, e, "self_hist");
      out->buffers += get_u64 (e, "buffers");
      out->self_ns += get_u64 (e, "self_ns");
      out->event_ns += get_u64 (e, "event_ns");
      if (gst_structure_has_field (e, "cpu_ns"))
        out->cpu_ns += get_u64 (e, "cpu_ns");
      if (gst_structure_has_field (e, GP_E_HANDLER_N)) {
        out->handler_ns += get_u64 (e, GP_E_HANDLER_NS);
        out->handler_n += get_u64 (e, GP_E_HANDLER_N);
      }
      out->n++;
    }
  }
}

typedef struct
{
  guint64 hist[GP_HIST_N_BUCKETS];
  guint64 matched;
  guint64 unmatched;
} LatSum;

G_GNUC_UNUSED static void
sum_latency (GPtrArray * ws, const gchar * source_prefix,
    const gchar * element, LatSum * out)
{
  guint i, j;

  memset (out, 0, sizeof (*out));
  for (i = 0; i < ws->len; i++) {
    const GstStructure *w = g_ptr_array_index (ws, i);
    const GstStructure *l;

    for (j = 0; (l = list_nth (w, "latency", j)); j++) {
      if (g_strcmp0 (gst_structure_get_string (l, "element"), element) ||
          !g_str_has_prefix (gst_structure_get_string (l, "source"),
              source_prefix))
        continue;
      hist_add (out->hist, l, "hist");
      out->matched += get_u64 (l, "matched");
      out->unmatched += get_u64 (l, "unmatched");
    }
  }
}

G_GNUC_UNUSED static const GstStructure *
find_by (const GstStructure * w, const gchar * list, const gchar * field,
    const gchar * value)
{
  const GstStructure *s;
  guint j;

  for (j = 0; (s = list_nth (w, list, j)); j++)
    if (!g_strcmp0 (gst_structure_get_string (s, field), value))
      return s;
  return NULL;
}

/* Under AddressSanitizer (gp_test_sanitized ()) a time measured per buffer
 * grows by this much: every allocation in the element's chain and in the
 * tracer's hooks records a 16-frame stack with the slow unwinder
 * (tools/run-asan.sh), tens of microseconds each. Measured: st_id1's p50
 * 1.21 ms for a planted 1 ms. */
#define SANITIZED_SLACK_MS 0.5

G_GNUC_UNUSED static void
assert_near_ms (const gchar * what, gdouble got, gdouble want)
{
  gdouble tol = MAX (0.1 * want, 0.2);

  if (gp_test_sanitized ())
    tol += SANITIZED_SLACK_MS;

  g_test_message ("%s: %.3f ms (want %.3f +- %.3f)", what, got, want, tol);
  if (got < want - tol || got > want + tol)
    g_error ("%s: %.3f ms, expected %.3f +- %.3f ms", what, got, want, tol);
}

/* A planted `identity sleep-time` of @ms as this machine sleeps it now
 * (gp_test_oversleep_ms ()): on a loaded CI machine a 1 ms sleep took
 * 1.21 ms, truly spent in the element. */
G_GNUC_UNUSED static gdouble
slept_ms (gdouble ms)
{
  gdouble slept = ms + gp_test_oversleep_ms (ms);

  g_test_message ("identity sleep-time of %.1f ms: %.3f ms slept here", ms,
      slept);
  return slept;
}

/* tests */

/* The tracer's properties: what gst-inspect-1.0 lists, and the state
 * GST_TRACERS' params left (window=100, and cpu=true in test-tracer-cpu).
 * That the windows really last WINDOW_MS is /tracer/windows-without-data's
 * (three in 450 ms). */
static void
test_properties (void)
{
  GObjectClass *klass;
  GParamSpec *ps;
  guint window = 0;
  gboolean cpu = !GP_TEST_CPU;
  gchar *out = NULL;

  REQUIRE_TRACER ();
  klass = G_OBJECT_GET_CLASS (tracer);

  ps = g_object_class_find_property (klass, "window");
  g_assert_nonnull (ps);
  g_assert_true (G_IS_PARAM_SPEC_UINT (ps));
  g_assert_cmpuint (G_PARAM_SPEC_UINT (ps)->default_value, ==, 250);
  g_assert_cmpuint (G_PARAM_SPEC_UINT (ps)->minimum, ==, 10);
  g_assert_cmpuint (G_PARAM_SPEC_UINT (ps)->maximum, ==, 3600 * 1000);
  g_assert_cmpuint (ps->flags & (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY),
      ==, G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY);
  g_assert_nonnull (g_param_spec_get_blurb (ps));

  ps = g_object_class_find_property (klass, "cpu");
  g_assert_nonnull (ps);
  g_assert_true (G_IS_PARAM_SPEC_BOOLEAN (ps));
  g_assert_false (G_PARAM_SPEC_BOOLEAN (ps)->default_value);
  g_assert_cmpuint (ps->flags & (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY),
      ==, G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY);
  g_assert_nonnull (g_param_spec_get_blurb (ps));

  ps = g_object_class_find_property (klass, "out");
  g_assert_nonnull (ps);
  g_assert_true (G_IS_PARAM_SPEC_STRING (ps));
  g_assert_null (G_PARAM_SPEC_STRING (ps)->default_value);
  g_assert_cmpuint (ps->flags & (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY),
      ==, G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY);

  ps = g_object_class_find_property (klass, "socket");
  g_assert_nonnull (ps);
  g_assert_true (G_IS_PARAM_SPEC_STRING (ps));
  g_assert_null (G_PARAM_SPEC_STRING (ps)->default_value);
  ps = g_object_class_find_property (klass, "trace");
  g_assert_nonnull (ps);
  g_assert_true (G_IS_PARAM_SPEC_UINT (ps));
  g_assert_cmpuint (G_PARAM_SPEC_UINT (ps)->default_value, ==, 0);
  g_assert_cmpuint (G_PARAM_SPEC_UINT (ps)->maximum, ==, GP_TRACE_MAX_S);
  g_assert_cmpuint (ps->flags & (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY),
      ==, G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY);

  g_object_get (tracer, "window", &window, "cpu", &cpu, "out", &out, NULL);
  g_assert_cmpuint (window, ==, WINDOW_MS);
  g_assert_cmpint (cpu, ==, GP_TEST_CPU);
  /* no folder given here: the records go to the window signal only */
  g_assert_null (out);
  g_object_get (tracer, "socket", &out, NULL);
  g_assert_null (out);
}

/* GST_TRACERS is read once, at gst_init: each params string runs in a
 * child (this program again, with GP_TEST_TRACERS), which prints the
 * properties the tracer ended with. */
static const gchar *test_program;

static void
test_params_child (void)
{
  guint window = 0;
  gboolean cpu = FALSE;

  REQUIRE_TRACER ();
  g_object_get (tracer, "window", &window, "cpu", &cpu, NULL);
  g_print ("gstprof: window=%u cpu=%d\n", window, cpu);
}

/* @warning: a piece of the one warning the tracer must give (NULL: none) */
G_GNUC_UNUSED static void
check_params (const gchar * params, guint window, gboolean cpu,
    const gchar * warning)
{
  gchar *argv[] = { (gchar *) test_program, (gchar *) "-p",
    (gchar *) "/tracer/params-child", NULL
  };
  gchar **envp = g_get_environ ();
  gchar *tracers = g_strdup_printf ("gstprof(%s)", params);
  const gchar *prefix = "gstprof: GST_TRACERS: ";
  gchar *out = NULL, *err = NULL, *want, *all, *msg, **lines;
  GError *error = NULL;
  gint status = 0;
  guint n, i;

  envp = g_environ_setenv (envp, "GP_TEST_TRACERS", tracers, TRUE);
  g_assert_true (g_spawn_sync (NULL, argv, envp, G_SPAWN_DEFAULT, NULL, NULL,
          &out, &err, &status, &error));
  g_assert_no_error (error);
  /* GLib logs a test's warnings to stdout (as TAP comments), to stderr, or
   * to both, by version: each of the tracer's must be @warning */
  all = g_strconcat (out, err, NULL);
  /* one message a line: older GLib does not prefix a message's other lines
   * with "#", and the child's own TAP lines would mislead meson */
  lines = g_strsplit (all, "\n", -1);
  for (i = 0; lines[i]; i++)
    if (lines[i][0])
      g_test_message ("%s: %s", tracers, lines[i]);
  g_strfreev (lines);
  g_assert_true (g_spawn_check_exit_status (status, NULL));
  want = g_strdup_printf ("gstprof: window=%u cpu=%d\n", window, cpu);
  g_assert_nonnull (strstr (out, want));
  n = 0;
  for (msg = strstr (all, prefix); msg; msg = strstr (msg + 1, prefix)) {
    g_assert_nonnull (warning);
    g_assert_true (g_str_has_prefix (msg + strlen (prefix), warning));
    n++;
  }
  if (warning)
    g_assert_cmpuint (n, >, 0);
  g_free (all);
  g_free (want);
  g_free (tracers);
  g_free (out);
  g_free (err);
  g_strfreev (envp);
}

#if !GP_TEST_CPU

/* params from GST_TRACERS, bad ones too: a warning that names the value,
 * and the tracer measuring with the default, the nearest bound or without
 * the unknown key (the same on every GStreamer release: gstproftracer.c) */
static void
test_params (void)
{
  check_params ("window=250ms,cpu=true", 250, TRUE, NULL);
  check_params ("window=10,cpu=false", 10, FALSE, NULL);
  check_params ("window=5", 10, FALSE,
      "window=5 is below the minimum of 10 ms; using 10");
  check_params ("window=7200000", 3600000, FALSE,
      "window=7200000 is above the maximum of 3600000 ms (an hour); "
      "using 3600000");
  check_params ("window=abc", 250, FALSE,
      "window: 'window=abc' is not a number of ms; using 250");
  check_params ("cpu=maybe", 250, FALSE,
      "cpu: expected true or false in 'cpu=maybe'");
  check_params ("window=100,colour=red", 100, FALSE,
      "unknown parameter 'colour' in 'window=100,colour=red' "
      "(known: window, cpu, out, socket, trace, nvtx)");
}

/* identity sleep-time=N costs N us per buffer: the exclusive time of each
 * identity must come out as its own sleep, not the sum downstream of it */
static void
test_self_time (void)
{
  GstElement *p;
  GPtrArray *ws;
  ElemSum s2, s8, s1, src, sink;
  gdouble share, want, slept2, slept8, slept1;
  guint i;

  REQUIRE_TRACER ();

  reset_windows ();
  p = launch ("videotestsrc name=st_src num-buffers=100 "
      "! video/x-raw,width=64,height=48 "
      "! identity name=st_id2 sleep-time=2000 "
      "! identity name=st_id8 sleep-time=8000 "
      "! identity name=st_id1 sleep-time=1000 "
      "! fakesink name=st_sink sync=false");
  run_to_eos (p, 20);
  stop (p);
  ws = take_windows ();

  /* the records themselves: consecutive, ordered windows */
  g_assert_cmpuint (ws->len, >=, 5);
  for (i = 1; i < ws->len; i++) {
    const GstStructure *a = g_ptr_array_index (ws, i - 1);
    const GstStructure *b = g_ptr_array_index (ws, i);

    g_assert_true (gst_structure_has_name (b, "gstprof-window"));
    g_assert_cmpuint (get_u64 (b, "index"), ==, get_u64 (a, "index") + 1);
    g_assert_cmpuint (get_u64 (b, "start"), ==, get_u64 (a, "end"));
    g_assert_cmpuint (get_u64 (b, "end"), >=, get_u64 (b, "start"));
  }

  sum_element (ws, "st_id2", &s2);
  sum_element (ws, "st_id8", &s8);
  sum_element (ws, "st_id1", &s1);
  sum_element (ws, "st_src", &src);
  sum_element (ws, "st_sink", &sink);
  g_assert_cmpuint (s2.buffers, ==, 100);
  g_assert_cmpuint (s8.buffers, ==, 100);
  g_assert_cmpuint (s1.buffers, ==, 100);
  slept2 = slept_ms (2.0);
  slept8 = slept_ms (8.0);
  slept1 = slept_ms (1.0);
  assert_near_ms ("st_id2 p50", hist_quantile_ms (s2.hist, 0.5), slept2);
  assert_near_ms ("st_id8 p50", hist_quantile_ms (s8.hist, 0.5), slept8);
  assert_near_ms ("st_id1 p50", hist_quantile_ms (s1.hist, 0.5), slept1);

  g_test_message ("self time sums: st_id2 %.1f ms, st_id8 %.1f ms, st_id1 "
      "%.1f ms; p99 %.2f / %.2f / %.2f ms", s2.self_ns / 1e6, s8.self_ns / 1e6,
      s1.self_ns / 1e6, hist_quantile_ms (s2.hist, 0.99),
      hist_quantile_ms (s8.hist, 0.99), hist_quantile_ms (s1.hist, 0.99));
  share = (gdouble) s8.self_ns / (s2.self_ns + s8.self_ns + s1.self_ns);
  g_test_message ("st_id8 share of the identities' self time: %.1f %%",
      100 * share);
  /* 8 / 11 = 72.7 % with exact sleeps; every sleep overshoots by the
   * timer slack (and far more on a loaded machine), which pulls the share
   * towards 1/3: the truth is the share of the sleeps as slept here, and
   * a few late wake-ups among 100 sleeps move the sums a little more */
  want = slept8 / (slept2 + slept8 + slept1);
  g_test_message ("st_id8 share as slept here: %.1f %%", 100 * want);
  g_assert_cmpfloat (fabs (share - want), <, 0.06);
  g_assert_cmpuint (s8.self_ns, >, s2.self_ns);
  g_assert_cmpuint (s2.self_ns, >, s1.self_ns);

  /* a non-live source works between its pushes: it has samples, small
   * ones (64x48 frames), and the sink too */
  g_assert_cmpuint (src.buffers, >=, 98);
  g_assert_cmpfloat (hist_quantile_ms (src.hist, 0.5), <, 1.0);
  g_assert_cmpuint (sink.buffers, ==, 100);
  g_assert_cmpfloat (hist_quantile_ms (sink.hist, 0.5), <, 0.5);
  /* caps negotiation is event time, not buffer time */
  g_assert_cmpuint (s2.event_ns, >, 0);

  g_ptr_array_unref (ws);
}

/* A queue that holds buffers for min-threshold-time adds latency, and the
 * wait is residence, not the queue's processing time.  The truth is not the
 * threshold itself: GstQueue counts each buffer's duration in its time
 * level, so a buffer leaves when the level reaches the threshold, i.e.
 * after ceil (T / d) * d - d for frames of duration d (checked with pad
 * probes outside the tracer: 33.3 ms for T = 50 ms at 30/1, 66.7 ms for
 * T = 80 ms).  Two branches cover both. */
static void
check_queue_branch (GPtrArray * ws, const gchar * queue, const gchar * sink,
    gdouble truth_ms)
{
  LatSum lat;
  ElemSum q;
  guint64 res[GP_HIST_N_BUCKETS] = { 0 };
  guint i, nq = 0;
  gdouble lat50, res50;
  gchar *what;

  sum_latency (ws, "qr_src.src", sink, &lat);
  sum_element (ws, queue, &q);
  for (i = 0; i < ws->len; i++) {
    const GstStructure *s = find_by (g_ptr_array_index (ws, i), "queues",
        "name", queue);

    if (s) {
      hist_add (res, s, "residence_hist");
      g_assert_cmpstr (gst_structure_get_string (s, "leaky"), ==, "no");
      nq++;
    }
  }
  lat50 = hist_quantile_ms (lat.hist, 0.5);
  res50 = hist_quantile_ms (res, 0.5);
  g_test_message ("latency qr_src->%s: %" G_GUINT64_FORMAT " matched, %"
      G_GUINT64_FORMAT " unmatched; %s self p50 %.3f ms", sink, lat.matched,
      lat.unmatched, queue, hist_quantile_ms (q.hist, 0.5));
  g_assert_cmpuint (nq, ==, ws->len);
  g_assert_cmpuint (lat.matched, >=, 20);
  g_assert_cmpuint (lat.unmatched, ==, 0);
  what = g_strdup_printf ("latency qr_src->%s p50", sink);
  assert_near_ms (what, lat50, truth_ms);
  g_free (what);
  what = g_strdup_printf ("%s residence p50", queue);
  assert_near_ms (what, res50, truth_ms);
  g_free (what);
  g_assert_cmpuint (q.buffers, >=, 20);
  g_assert_cmpfloat (hist_quantile_ms (q.hist, 0.5), <, 1.0);
}

static void
test_queue_residence (void)
{
  GstElement *p;
  GPtrArray *ws;

  REQUIRE_TRACER ();

  reset_windows ();
  p = launch ("videotestsrc name=qr_src is-live=true "
      "! video/x-raw,width=64,height=48,framerate=30/1 ! tee name=qr_tee "
      "qr_tee. ! queue name=qr_q50 min-threshold-time=50000000 "
      "! fakesink name=qr_s50 sync=false "
      "qr_tee. ! queue name=qr_q80 min-threshold-time=80000000 "
      "! fakesink name=qr_s80 sync=false");
  g_assert_cmpint (gst_element_set_state (p, GST_STATE_PLAYING), !=,
      GST_STATE_CHANGE_FAILURE);
  run_for (p, 1300);
  stop (p);
  ws = take_windows ();
  check_queue_branch (ws, "qr_q50", "qr_s50", 1000.0 / 30);
  check_queue_branch (ws, "qr_q80", "qr_s80", 2000.0 / 30);
  g_ptr_array_unref (ws);
}

static guint64
sum_queue_u64 (GPtrArray * ws, const gchar * queue, const gchar * field,
    guint64 * res)
{
  guint64 total = 0;
  guint i;

  for (i = 0; i < ws->len; i++) {
    const GstStructure *s = find_by (g_ptr_array_index (ws, i), "queues",
        "name", queue);

    if (s) {
      total += get_u64 (s, field);
      if (res)
        hist_add (res, s, "residence_hist");
    }
  }
  return total;
}

static guint64
sum_link (GPtrArray * ws, const gchar * field, const gchar * pad)
{
  guint64 total = 0;
  guint i;

  for (i = 0; i < ws->len; i++) {
    const GstStructure *l = find_by (g_ptr_array_index (ws, i), "links",
        field, pad);

    if (l)
      total += get_u64 (l, "buffers");
  }
  return total;
}

/* A full queue makes its upstream wait: that wait is the queue's
 * blocked_ns, and the source's own self time stays its own work.  With 2
 * buffers of room and a consumer that takes 5 ms per buffer, a buffer
 * waits behind one other and its own processing slot: 2 x 5 ms. */
static void
test_backpressure (void)
{
  GstElement *p;
  GPtrArray *ws;
  ElemSum src, id;
  guint64 blocked, res[GP_HIST_N_BUCKETS] = { 0 };

  REQUIRE_TRACER ();

  reset_windows ();
  p = launch ("videotestsrc name=bp_src num-buffers=40 "
      "! video/x-raw,width=64,height=48 "
      "! queue name=bp_q max-size-buffers=2 max-size-bytes=0 max-size-time=0 "
      "! identity name=bp_id sleep-time=5000 ! fakesink sync=false");
  run_to_eos (p, 20);
  stop (p);
  ws = take_windows ();
  sum_element (ws, "bp_src", &src);
  sum_element (ws, "bp_id", &id);
  blocked = sum_queue_u64 (ws, "bp_q", "blocked_ns", res);
  g_test_message ("bp_q blocked %.1f ms, bp_src self %.1f ms, bp_id self "
      "%.1f ms", blocked / 1e6, src.self_ns / 1e6, id.self_ns / 1e6);
  /* all but the first few pushes wait for a slot, about 5 ms each */
  g_assert_cmpfloat (blocked / 1e6, >, 0.8 * 37 * 5.0);
  g_assert_cmpuint (blocked, <=, id.self_ns);
  g_assert_cmpfloat (src.self_ns / 1e6, <, 0.1 * blocked / 1e6);
  assert_near_ms ("bp_q residence p50", hist_quantile_ms (res, 0.5),
      2 * hist_quantile_ms (id.hist, 0.5));
  g_ptr_array_unref (ws);
}

/* A leaky queue drops what the consumer cannot take: every buffer that went
 * in either came out, was dropped, or is still inside at the end.  Inside
 * at the end are the queue's own (max-size-buffers) and those it dropped
 * since its last dequeue, which the tracer counts at the next one (at most
 * the arrivals during one slot of the consumer: LEAKY_SLOT_ARRIVALS).  Behind
 * a tee whose other branch still holds each buffer, the buffer after a drop
 * comes out as a copy (GstQueue marks it DISCONT, gst_buffer_make_writable):
 * it is the same buffer, not one more drop (a drop count twice the truth
 * was what a pipeline with fpsdisplaysink on the other branch showed). */
/* lk_q's max-size-buffers, and the buffers that arrive at 100 fps while
 * lk_id sleeps its 30 ms */
#define LEAKY_QUEUE_BUFFERS 2
#define LEAKY_SLOT_ARRIVALS 3

static void
leaky_check (const gchar * launch_line)
{
  GstElement *p;
  GPtrArray *ws;
  guint64 in, out, dropped, res[GP_HIST_N_BUCKETS] = { 0 };
  guint i;

  reset_windows ();
  p = launch (launch_line);
  g_assert_cmpint (gst_element_set_state (p, GST_STATE_PLAYING), !=,
      GST_STATE_CHANGE_FAILURE);
  run_for (p, 800);
  stop (p);
  ws = take_windows ();
  in = sum_link (ws, "sink", "lk_q.sink");
  out = sum_link (ws, "src", "lk_q.src");
  dropped = sum_queue_u64 (ws, "lk_q", "dropped", res);
  g_test_message ("lk_q: %" G_GUINT64_FORMAT " in, %" G_GUINT64_FORMAT
      " out, %" G_GUINT64_FORMAT " dropped", in, out, dropped);
  for (i = 0; i < ws->len; i++) {
    const GstStructure *q = find_by (g_ptr_array_index (ws, i), "queues",
        "name", "lk_q");

    g_assert_nonnull (q);
    g_assert_cmpstr (gst_structure_get_string (q, "leaky"), ==,
        "downstream");
  }
  g_assert_cmpuint (in, >=, 50);
  g_assert_cmpuint (dropped, >, in / 2);
  g_assert_cmpuint (out + dropped, <=, in);
  g_assert_cmpuint (in - out - dropped, <=,
      LEAKY_QUEUE_BUFFERS + LEAKY_SLOT_ARRIVALS);
  /* what came out waited at most two 30 ms slots */
  g_assert_cmpfloat (hist_quantile_ms (res, 0.5), <, 70.0);
  g_ptr_array_unref (ws);
}

static void
test_leaky (void)
{
  REQUIRE_TRACER ();

  leaky_check ("videotestsrc name=lk_src is-live=true "
      "! video/x-raw,width=64,height=48,framerate=100/1 "
      "! queue name=lk_q leaky=downstream max-size-buffers=2 max-size-bytes=0 "
      "max-size-time=0 ! identity name=lk_id sleep-time=30000 "
      "! fakesink sync=false");
  leaky_check ("videotestsrc name=lk_src is-live=true "
      "! video/x-raw,width=64,height=48,framerate=100/1 ! tee name=lk_t "
      "lk_t. ! queue max-size-buffers=0 max-size-bytes=0 max-size-time=0 "
      "! identity sleep-time=9000 ! fakesink sync=false "
      "lk_t. ! queue name=lk_q leaky=downstream max-size-buffers=2 "
      "max-size-bytes=0 max-size-time=0 ! identity name=lk_id "
      "sleep-time=30000 ! fakesink sync=false");
}

/* a live 30/1 source: 30 buffers per second on its link, counted over the
 * windows that lie fully inside the flowing period */
static void
test_live_rate (void)
{
  GstElement *p;
  GPtrArray *ws;
  gint first = -1, last = -1, i;
  guint64 buffers = 0, ns = 0;
  gdouble fps;

  REQUIRE_TRACER ();

  reset_windows ();
  p = launch ("videotestsrc name=lr_src is-live=true "
      "! video/x-raw,width=64,height=48,framerate=30/1 "
      "! fakesink name=lr_sink sync=false");
  g_assert_cmpint (gst_element_set_state (p, GST_STATE_PLAYING), !=,
      GST_STATE_CHANGE_FAILURE);
  run_for (p, 2400);
  stop (p);
  ws = take_windows ();

  for (i = 0; i < (gint) ws->len; i++) {
    const GstStructure *l = find_by (g_ptr_array_index (ws, i), "links",
        "sink", "lr_sink.sink");

    if (l && get_u64 (l, "buffers") > 0) {
      if (first < 0)
        first = i;
      last = i;
    }
  }
  g_assert_cmpint (first, >=, 0);
  for (i = first + 1; i < last; i++) {
    const GstStructure *w = g_ptr_array_index (ws, i);
    const GstStructure *l = find_by (w, "links", "sink", "lr_sink.sink");

    /* the capsfilter in between is reported as the element it is */
    g_assert_nonnull (l);
    g_assert_true (g_str_has_prefix (gst_structure_get_string (l, "src"),
            "capsfilter"));
    g_assert_cmpstr (gst_structure_get_string (l, "memory"), ==, "system");
    g_assert_true (g_str_has_prefix (gst_structure_get_string (l, "caps"),
            "video/x-raw"));
    buffers += get_u64 (l, "buffers");
    ns += get_u64 (w, "end") - get_u64 (w, "start");
  }
  g_assert_cmpuint (ns, >, 1500 * GST_MSECOND);
  fps = buffers * 1e9 / ns;
  g_test_message ("-> lr_sink.sink: %" G_GUINT64_FORMAT " buffers in %.3f s: "
      "%.2f buffers/s", buffers, ns / 1e9, fps);
  g_assert_cmpfloat (fps, >=, 29.0);
  g_assert_cmpfloat (fps, <=, 31.0);
  g_ptr_array_unref (ws);
}

/* The buffers whose lateness was measured on the link into @sink_pad
 * over @ws, and how many were pushed on it. */
static guint64
late_into (GPtrArray * ws, const gchar * sink_pad, guint64 * buffers)
{
  guint64 n = 0;
  guint i;

  *buffers = 0;
  for (i = 0; i < ws->len; i++) {
    const GstStructure *l = find_by (g_ptr_array_index (ws, i), "links",
        "sink", sink_pad);

    if (l == NULL)
      continue;
    *buffers += get_u64 (l, "buffers");
    if (gst_structure_has_field (l, GP_L_LATE_N))
      n += get_u64 (l, GP_L_LATE_N);
  }
  return n;
}

/* Lateness is measured per pipeline: two pipelines in one process, one
 * live, one not (a file-like source synced to the clock beside a camera).
 * The live one's links measure every buffer's lateness; the other's none,
 * though the live source came first. */
static void
test_late_per_pipeline (void)
{
  GstElement *live, *other;
  GPtrArray *ws;
  guint64 live_buffers, other_buffers, live_late, other_late;

  REQUIRE_TRACER ();

  reset_windows ();
  live = launch ("videotestsrc name=lp_live is-live=true "
      "! video/x-raw,width=64,height=48,framerate=30/1 "
      "! fakesink name=lp_lsink sync=false");
  other = launch ("videotestsrc name=lp_file "
      "! video/x-raw,width=64,height=48,framerate=30/1 "
      "! fakesink name=lp_fsink sync=true");
  g_assert_cmpint (gst_element_set_state (live, GST_STATE_PLAYING), !=,
      GST_STATE_CHANGE_FAILURE);
  g_assert_cmpint (gst_element_set_state (other, GST_STATE_PLAYING), !=,
      GST_STATE_CHANGE_FAILURE);
  run_for (live, 1500);
  stop (other);
  stop (live);
  ws = take_windows ();

  live_late = late_into (ws, "lp_lsink.sink", &live_buffers);
  other_late = late_into (ws, "lp_fsink.sink", &other_buffers);
  g_test_message ("live: %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT
      " buffers measured late; not live: %" G_GUINT64_FORMAT " of %"
      G_GUINT64_FORMAT, live_late, live_buffers, other_late, other_buffers);
  /* both ran: about 45 frames each */
  g_assert_cmpuint (live_buffers, >=, 30);
  g_assert_cmpuint (other_buffers, >=, 30);
  /* every buffer of the live pipeline measured but the few whose
   * element's lock another thread held at that instant (gp_link_late
   * tries it, never waits: under load one in 45 went unmeasured) */
  g_assert_cmpuint (live_late, <=, live_buffers);
  g_assert_cmpuint (live_late, >=, live_buffers - live_buffers / 10);
  g_assert_cmpuint (other_late, ==, 0);
  g_ptr_array_unref (ws);
}

/* windows close on the tracer's own timer: with no data flowing (a live
 * source in PAUSED produces nothing) and no main loop running */
static void
test_windows_without_data (void)
{
  GstElement *p;
  GPtrArray *ws;
  guint i, with_link = 0;

  REQUIRE_TRACER ();

  /* the first window came within two periods of the tracer's start (the
   * handler was connected right after gst_init) */
  g_assert_cmpint (first_window_us, >, 0);

  reset_windows ();
  p = launch ("videotestsrc name=nd_src is-live=true ! fakesink name=nd_sink");
  g_assert_cmpint (gst_element_set_state (p, GST_STATE_PAUSED), ==,
      GST_STATE_CHANGE_NO_PREROLL);
  g_usleep (450 * 1000);
  g_assert_cmpuint (n_windows (), >=, 3);
  stop (p);
  ws = take_windows ();
  for (i = 0; i < ws->len; i++) {
    const GstStructure *l = find_by (g_ptr_array_index (ws, i), "links",
        "src", "nd_src.src");

    /* the link exists and is reported at 0 buffers: a stall is visible */
    if (l) {
      g_assert_cmpuint (get_u64 (l, "buffers"), ==, 0);
      with_link++;
    }
  }
  g_assert_cmpuint (with_link, >=, 3);
  g_ptr_array_unref (ws);
}

/* tee: both branches match the source's PTS; each sink has its path */
static void
test_tee (void)
{
  GstElement *p;
  GPtrArray *ws;
  LatSum a, b;

  REQUIRE_TRACER ();

  reset_windows ();
  p = launch ("videotestsrc name=te_src num-buffers=60 "
      "! video/x-raw,width=64,height=48 ! tee name=te_tee "
      "te_tee. ! queue name=te_q1 ! fakesink name=te_s1 sync=false "
      "te_tee. ! queue name=te_q2 ! identity sleep-time=1000 "
      "! fakesink name=te_s2 sync=false");
  run_to_eos (p, 20);
  stop (p);
  ws = take_windows ();
  sum_latency (ws, "te_src.src", "te_s1", &a);
  sum_latency (ws, "te_src.src", "te_s2", &b);
  g_test_message ("te_s1: %" G_GUINT64_FORMAT " matched, te_s2: %"
      G_GUINT64_FORMAT " matched", a.matched, b.matched);
  g_assert_cmpuint (a.matched, ==, 60);
  g_assert_cmpuint (b.matched, ==, 60);
  g_assert_cmpuint (a.unmatched + b.unmatched, ==, 0);
  /* the second branch sleeps 1 ms per buffer downstream of its queue */
  g_assert_cmpfloat (hist_quantile_ms (b.hist, 0.5), >=, 0.9);
  g_ptr_array_unref (ws);
}

/* x264enc shifts PTS and its segment by 1000 hours (to keep DTS positive):
 * latency must match running times, so every buffer through the encoder
 * is still matched, and the encoder's frame delay shows in the latency */
static void
test_encoder_offset (void)
{
  GstElement *p;
  GPtrArray *ws;
  LatSum lat;

  REQUIRE_TRACER ();
  if (!gst_registry_check_feature_version (gst_registry_get (), "x264enc",
          1, 0, 0)) {
    g_test_skip ("x264enc is not installed");
    return;
  }
  reset_windows ();
  /* no zerolatency tune, B-frames and lookahead: the encoder holds frames back */
  p = launch ("videotestsrc name=enc_src num-buffers=60 "
      "! video/x-raw,width=160,height=120,framerate=30/1 "
      "! x264enc speed-preset=ultrafast bframes=2 rc-lookahead=5 "
      "! h264parse ! fakesink name=enc_sink sync=false");
  run_to_eos (p, 30);
  stop (p);
  ws = take_windows ();
  sum_latency (ws, "enc_src.src", "enc_sink", &lat);
  g_test_message ("enc_sink: %" G_GUINT64_FORMAT " matched, %"
      G_GUINT64_FORMAT " unmatched", lat.matched, lat.unmatched);
  g_assert_cmpuint (lat.matched, ==, 60);
  g_assert_cmpuint (lat.unmatched, ==, 0);
  g_ptr_array_unref (ws);
}

/* a file the test makes itself, played through decodebin (dynamic pads,
 * a demuxer turning untimed bytes into timed buffers) */
static void
test_decodebin (void)
{
  GstElement *p;
  GPtrArray *ws;
  gchar *dir, *file, *desc;
  LatSum lat;
  guint i, j, n_origin = 0;
  GError *err = NULL;

  REQUIRE_TRACER ();

  dir = g_dir_make_tmp ("gstprof-test-XXXXXX", &err);
  g_assert_no_error (err);
  file = g_build_filename (dir, "clip.mkv", NULL);
  desc = g_strdup_printf ("videotestsrc num-buffers=30 "
      "! video/x-raw,width=160,height=120,framerate=30/1 "
      "! x264enc speed-preset=ultrafast ! matroskamux "
      "! filesink location=\"%s\"", file);
  p = launch (desc);
  run_to_eos (p, 30);
  stop (p);
  g_free (desc);

  reset_windows ();
  desc = g_strdup_printf ("filesrc location=\"%s\" ! decodebin name=db "
      "! fakesink name=db_sink sync=false", file);
  p = launch (desc);
  run_to_eos (p, 30);
  stop (p);
  ws = take_windows ();

  /* the demuxer's video pad is the origin; the sink behind the decoder
   * matches every frame */
  for (i = 0; i < ws->len; i++) {
    const GstStructure *l;

    for (j = 0; (l = list_nth (g_ptr_array_index (ws, i), "latency", j));
        j++) {
      if (!g_strcmp0 (gst_structure_get_string (l, "element"), "db_sink")) {
        g_test_message ("db_sink latency from %s: %" G_GUINT64_FORMAT
            " matched, %" G_GUINT64_FORMAT " unmatched",
            gst_structure_get_string (l, "source"), get_u64 (l, "matched"),
            get_u64 (l, "unmatched"));
        g_assert_true (g_str_has_prefix (gst_structure_get_string (l,
                    "source"), "matroskademux"));
        n_origin++;
      }
    }
  }
  g_assert_cmpuint (n_origin, >, 0);
  sum_latency (ws, "matroskademux", "db_sink", &lat);
  g_test_message ("db_sink: %" G_GUINT64_FORMAT " matched, %"
      G_GUINT64_FORMAT " unmatched", lat.matched, lat.unmatched);
  g_assert_cmpuint (lat.matched, >=, 30);
  g_assert_cmpuint (lat.unmatched, ==, 0);

  g_ptr_array_unref (ws);
  g_unlink (file);
  g_rmdir (dir);
  g_free (file);
  g_free (dir);
  g_free (desc);
}

/* elements added while PLAYING, and a requested pad left unlinked */
static void
test_dynamic (void)
{
  GstElement *p, *tee, *q, *sink;
  GstPad *req, *unlinked, *qsink;
  GPtrArray *ws, *evs;
  LatSum lat;

  REQUIRE_TRACER ();

  reset_windows ();
  p = launch ("videotestsrc name=dy_src is-live=true "
      "! video/x-raw,width=64,height=48,framerate=30/1 "
      "! tee name=dy_tee allow-not-linked=true "
      "! queue ! fakesink name=dy_s1 sync=false");
  g_assert_cmpint (gst_element_set_state (p, GST_STATE_PLAYING), !=,
      GST_STATE_CHANGE_FAILURE);
  run_for (p, 300);

  tee = gst_bin_get_by_name (GST_BIN (p), "dy_tee");
  unlinked = gst_element_request_pad_simple (tee, "src_%u");
  q = gst_element_factory_make ("queue", "dy_q2");
  sink = gst_element_factory_make ("fakesink", "dy_s2");
  g_object_set (sink, "sync", FALSE, NULL);
  gst_bin_add_many (GST_BIN (p), q, sink, NULL);
  g_assert_true (gst_element_link (q, sink));
  gst_element_sync_state_with_parent (sink);
  gst_element_sync_state_with_parent (q);
  req = gst_element_request_pad_simple (tee, "src_%u");
  qsink = gst_element_get_static_pad (q, "sink");
  g_assert_cmpint (gst_pad_link (req, qsink), ==, GST_PAD_LINK_OK);
  run_for (p, 600);

  stop (p);
  gst_object_unref (qsink);
  gst_object_unref (req);
  gst_object_unref (unlinked);
  gst_object_unref (tee);
  ws = take_windows ();
  sum_latency (ws, "dy_src.src", "dy_s2", &lat);
  g_test_message ("dy_s2 (added while PLAYING): %" G_GUINT64_FORMAT
      " matched", lat.matched);
  g_assert_cmpuint (lat.matched, >=, 10);
  /* the unlinked request pad refuses its sticky events: not a negotiation
   * failure (and, pushed under the pad's lock on 1.26, not a deadlock) */
  evs = events_of (ws, "caps-refused");
  g_assert_cmpuint (evs->len, ==, 0);
  g_ptr_array_unref (evs);
  g_ptr_array_unref (ws);
}

/* Caps the peer refuses: one event naming the link, the caps offered and
 * what the peer accepts, then the error. */
static void
test_caps_refused (void)
{
  GstElement *p, *src;
  GstBus *bus;
  GstMessage *msg;
  GPtrArray *ws, *evs, *flows;
  const GstStructure *ev;
  GstBuffer *buf;
  GstFlowReturn ret;

  REQUIRE_TRACER ();

  reset_windows ();
  p = launch ("appsrc name=cr_src format=time caps=video/x-raw,format=I420,"
      "width=64,height=48,framerate=30/1 ! capsfilter name=cr_filter "
      "caps=video/x-raw,format=RGB ! fakesink");
  src = gst_bin_get_by_name (GST_BIN (p), "cr_src");
  g_assert_cmpint (gst_element_set_state (p, GST_STATE_PLAYING), !=,
      GST_STATE_CHANGE_FAILURE);
  buf = gst_buffer_new_allocate (NULL, 64 * 48 * 3 / 2, NULL);
  g_signal_emit_by_name (src, "push-buffer", buf, &ret);
  gst_buffer_unref (buf);
  bus = gst_element_get_bus (p);
  msg = gst_bus_timed_pop_filtered (bus, 5 * GST_SECOND, GST_MESSAGE_ERROR);
  g_assert_nonnull (msg);
  gst_message_unref (msg);
  gst_object_unref (bus);
  gst_object_unref (src);
  stop (p);

  /* Which hook sees it depends on the version: a refused sticky caps event
   * is retried by the buffer push, which returns not-negotiated ("flow");
   * where the event hooks run for that retry too (1.26), the caps event
   * is seen refused first. Either way once, naming the link. */
  ws = take_windows ();
  evs = events_of (ws, "caps-refused");
  flows = events_of (ws, "flow");
  g_test_message ("%u caps-refused, %u flow", evs->len, flows->len);
  g_assert_cmpuint (evs->len + flows->len, ==, 1);
  ev = g_ptr_array_index (evs->len ? evs : flows, 0);
  g_assert_cmpstr (gst_structure_get_string (ev, GP_EV_LINK), ==,
      "cr_src.src");
  g_assert_cmpstr (gst_structure_get_string (ev, GP_EV_PEER), ==,
      "cr_filter.sink");
  g_assert_nonnull (strstr (gst_structure_get_string (ev, GP_EV_CAPS),
          "I420"));
  g_assert_nonnull (strstr (gst_structure_get_string (ev, GP_EV_ACCEPTS),
          "RGB"));
  g_ptr_array_unref (evs);
  g_ptr_array_unref (flows);
  g_ptr_array_unref (ws);
}

/* RTP sequence numbers (gp-record.h GP_L_RTP_*): crafted packets pushed
 * through an appsrc with RTP caps, one at a time and as a list. */

static GstBuffer *
rtp_packet (guint16 seq, guint32 ssrc)
{
  GstBuffer *b = gst_buffer_new_allocate (NULL, 12 + 8, NULL);
  guint8 h[12] = { 0x80, 96 };

  GST_WRITE_UINT16_BE (h + 2, seq);
  GST_WRITE_UINT32_BE (h + 8, ssrc);
  gst_buffer_fill (b, 0, h, sizeof h);
  gst_buffer_memset (b, 12, 0, 8);
  return b;
}

/* Wrapping past 65535, a hole (6), a late packet filling one (7),
 * duplicates, a new SSRC, a stray that nothing follows, a stray that the
 * next packet follows (a restart), then a list: 24 expected, 23 received
 * (6 never came), 2 restarts; and nothing RTP on a link of other caps. */
static void
test_rtp_sequence (void)
{
  static const guint32 seqs[][2] = {
    {65530, 1}, {65531, 1}, {65532, 1}, {65533, 1}, {65534, 1}, {65535, 1},
    {0, 1}, {1, 1}, {2, 1}, {3, 1}, {4, 1}, {5, 1},
    {8, 1}, {9, 1}, {7, 1}, {9, 1}, {7, 1},
    {1000, 2}, {1001, 2}, {30000, 2}, {1002, 2}, {20000, 2}, {20001, 2},
  };
  GstElement *p, *src;
  GstBufferList *list;
  GstFlowReturn ret;
  GPtrArray *ws;
  guint64 expected = 0, received = 0, restarts = 0;
  gboolean any_other = FALSE;
  guint i, j;

  REQUIRE_TRACER ();

  reset_windows ();
  p = launch ("appsrc name=rs_src format=time caps=\"application/x-rtp,"
      "media=audio,clock-rate=8000,encoding-name=L16,payload=96\" ! "
      "fakesink name=rs_sink videotestsrc num-buffers=5 ! fakesink");
  src = gst_bin_get_by_name (GST_BIN (p), "rs_src");
  g_assert_cmpint (gst_element_set_state (p, GST_STATE_PLAYING), !=,
      GST_STATE_CHANGE_FAILURE);
  for (i = 0; i < G_N_ELEMENTS (seqs); i++) {
    GstBuffer *b = rtp_packet (seqs[i][0], seqs[i][1]);

    g_signal_emit_by_name (src, "push-buffer", b, &ret);
    gst_buffer_unref (b);
    g_assert_cmpint (ret, ==, GST_FLOW_OK);
  }
  list = gst_buffer_list_new ();
  for (i = 20002; i <= 20004; i++)
    gst_buffer_list_add (list, rtp_packet (i, 2));
  g_signal_emit_by_name (src, "push-buffer-list", list, &ret);
  gst_buffer_list_unref (list);
  g_assert_cmpint (ret, ==, GST_FLOW_OK);
  g_signal_emit_by_name (src, "end-of-stream", &ret);
  run_to_eos (p, 10);
  gst_object_unref (src);
  stop (p);

  ws = take_windows ();
  for (i = 0; i < ws->len; i++) {
    const GstStructure *w = g_ptr_array_index (ws, i);
    const GstStructure *l;

    for (j = 0; (l = list_nth (w, GP_W_LINKS, j)) != NULL; j++) {
      if (g_strcmp0 (gst_structure_get_string (l, GP_L_SRC),
              "rs_src.src") != 0) {
        any_other |= gst_structure_has_field (l, GP_L_RTP_EXPECTED);
        continue;
      }
      expected += get_u64 (l, GP_L_RTP_EXPECTED);
      received += get_u64 (l, GP_L_RTP_RECEIVED);
      restarts += get_u64 (l, GP_L_RTP_RESTARTS);
    }
  }
  g_assert_cmpuint (expected, ==, 24);
  g_assert_cmpuint (received, ==, 23);
  g_assert_cmpuint (restarts, ==, 2);
  g_assert_false (any_other);
  g_ptr_array_unref (ws);
}

/* Pad probes are the application's time, not the element's
 * (gp_probe_prepare): each probe sleeps and adds what it slept to its
 * link's truth. A probe on ps_id's sink pad; on ps_drop's src pad one that
 * drops every other buffer, and one on the ghost pad of the bin after it,
 * which sees only the buffers the first let through. The link's probe
 * time is what the probes slept (10 %), every push counted once; the
 * elements' self time keeps none of it. */
typedef struct
{
  guint sleep_us;
  gboolean drop_odd;
  guint seen;
  gint64 *slept_us;
} ProbeSleep;

static GstPadProbeReturn
probe_sleep (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  ProbeSleep *ps = data;
  gint64 t0 = g_get_monotonic_time ();

  g_usleep (ps->sleep_us);
  *ps->slept_us += g_get_monotonic_time () - t0;
  return ps->drop_odd && (ps->seen++ % 2) ? GST_PAD_PROBE_DROP :
      GST_PAD_PROBE_OK;
}

static void
add_sleep_probe (GstElement * p, const gchar * element, gboolean sink,
    ProbeSleep * ps)
{
  GstElement *e = gst_bin_get_by_name (GST_BIN (p), element);
  GstPad *pad;

  if (sink) {
    GstIterator *it = gst_element_iterate_sink_pads (e);
    GValue v = G_VALUE_INIT;

    g_assert_cmpint (gst_iterator_next (it, &v), ==, GST_ITERATOR_OK);
    pad = g_value_dup_object (&v);
    g_value_unset (&v);
    gst_iterator_free (it);
  } else {
    pad = gst_element_get_static_pad (e, "src");
  }
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, probe_sleep, ps, NULL);
  gst_object_unref (pad);
  gst_object_unref (e);
}

static void
test_probe_split (void)
{
  gint64 into_id = 0, out_of_drop = 0;
  ProbeSleep on_id = { 5000, FALSE, 0, &into_id };
  ProbeSleep on_drop = { 3000, TRUE, 0, &out_of_drop };
  ProbeSleep on_ghost = { 4000, FALSE, 0, &out_of_drop };
  guint64 probe_ns[2] = { 0, 0 }, probe_n[2] = { 0, 0 };
  const gchar *links[2] = { "ps_caps.src", "ps_drop.src" };
  GstElement *p;
  GPtrArray *ws;
  ElemSum es;
  guint i, j, k;

  REQUIRE_TRACER ();

  reset_windows ();
  p = launch ("videotestsrc num-buffers=20 ! capsfilter name=ps_caps "
      "caps=video/x-raw,width=64,height=48 ! identity name=ps_id ! "
      "identity name=ps_drop ! ( name=ps_bin identity name=ps_in ) ! "
      "fakesink name=ps_sink sync=false");
  add_sleep_probe (p, "ps_id", TRUE, &on_id);
  add_sleep_probe (p, "ps_drop", FALSE, &on_drop);
  add_sleep_probe (p, "ps_bin", TRUE, &on_ghost);
  run_to_eos (p, 10);
  stop (p);

  ws = take_windows ();
  for (i = 0; i < ws->len; i++) {
    const GstStructure *l;

    for (j = 0; (l = list_nth (g_ptr_array_index (ws, i), GP_W_LINKS, j));
        j++)
      for (k = 0; k < 2; k++)
        if (g_strcmp0 (gst_structure_get_string (l, GP_L_SRC),
                links[k]) == 0) {
          probe_ns[k] += get_u64 (l, GP_L_PROBE_NS);
          probe_n[k] += get_u64 (l, GP_L_PROBE_N);
        }
  }
  g_test_message ("probes: %.1f ms into ps_id (slept %.1f), %.1f ms out of "
      "ps_drop (slept %.1f)", probe_ns[0] / 1e6, into_id / 1e3,
      probe_ns[1] / 1e6, out_of_drop / 1e3);
  g_assert_cmpuint (probe_n[0], ==, 20);
  g_assert_cmpuint (probe_n[1], ==, 20);
  g_assert_cmpfloat (fabs (probe_ns[0] / 1e3 - into_id), <=, into_id * 0.1);
  g_assert_cmpfloat (fabs (probe_ns[1] / 1e3 - out_of_drop), <=,
      out_of_drop * 0.1);
  for (k = 0; k < 3; k++) {
    const gchar *name = (const gchar *[]) {
    "ps_id", "ps_drop", "ps_in"}[k];

    sum_element (ws, name, &es);
    g_test_message ("%s: self %.2f ms over %" G_GUINT64_FORMAT " buffers",
        name, es.self_ns / 1e6, es.buffers);
    g_assert_cmpuint (es.self_ns, <, 10 * GST_MSECOND);
  }
  sum_element (ws, "ps_sink", &es);
  g_assert_cmpuint (es.buffers, ==, 10);
  g_ptr_array_unref (ws);
}

/* Signal handlers are the application's time, not the element's
 * (gp_handlers_watch): a handler of identity's handoff and one of
 * fakesink's each sleep and add what they slept to their truth. Each
 * element's handler time is what its handler slept (10 %), every buffer
 * counted once; their self time keeps none of it. An identity whose
 * handoff nobody handles has no handler fields. */
static void
handoff_sleep (GstElement * e, GstBuffer * buf, gpointer data)
{
  ProbeSleep *ps = data;
  gint64 t0 = g_get_monotonic_time ();

  g_usleep (ps->sleep_us);
  *ps->slept_us += g_get_monotonic_time () - t0;
  ps->seen++;
}

static void
handoff_sleep_sink (GstElement * e, GstBuffer * buf, GstPad * pad,
    gpointer data)
{
  handoff_sleep (e, buf, data);
}

static void
test_handler_split (void)
{
  gint64 id_us = 0, sink_us = 0;
  ProbeSleep on_id = { 4000, FALSE, 0, &id_us };
  ProbeSleep on_sink = { 3000, FALSE, 0, &sink_us };
  const gchar *names[] = { "hs_id", "hs_sink" };
  gint64 *slept[] = { &id_us, &sink_us };
  GstElement *p, *e;
  GPtrArray *ws;
  ElemSum es;
  guint k;

  REQUIRE_TRACER ();

  reset_windows ();
  p = launch ("videotestsrc num-buffers=20 ! "
      "video/x-raw,width=64,height=48 ! identity name=hs_plain ! "
      "identity name=hs_id ! fakesink name=hs_sink sync=false "
      "signal-handoffs=true");
  e = gst_bin_get_by_name (GST_BIN (p), "hs_id");
  g_signal_connect (e, "handoff", G_CALLBACK (handoff_sleep), &on_id);
  gst_object_unref (e);
  e = gst_bin_get_by_name (GST_BIN (p), "hs_sink");
  g_signal_connect (e, "handoff", G_CALLBACK (handoff_sleep_sink), &on_sink);
  gst_object_unref (e);
  run_to_eos (p, 10);
  stop (p);

  ws = take_windows ();
  for (k = 0; k < G_N_ELEMENTS (names); k++) {
    sum_element (ws, names[k], &es);
    g_test_message ("%s: handlers %.1f ms over %" G_GUINT64_FORMAT
        " emissions (slept %.1f), self %.2f ms", names[k],
        es.handler_ns / 1e6, es.handler_n, *slept[k] / 1e3, es.self_ns / 1e6);
    g_assert_cmpuint (es.handler_n, ==, 20);
    g_assert_cmpfloat (fabs (es.handler_ns / 1e3 - *slept[k]), <=,
        *slept[k] * 0.1);
    g_assert_cmpuint (es.self_ns, <, 10 * GST_MSECOND);
  }
  sum_element (ws, "hs_plain", &es);
  g_assert_cmpuint (es.buffers, ==, 20);
  g_assert_cmpuint (es.handler_n, ==, 0);
  g_ptr_array_unref (ws);
}

/* the graph: real property values (defaults included), links with caps */
/* record contract (src/core/gp-record.h) */

static gboolean
field_type_ok (const GValue * v, GpFieldType type)
{
  switch (type) {
    case GP_FIELD_U64:
      return G_VALUE_HOLDS_UINT64 (v);
    case GP_FIELD_INT64:
      return G_VALUE_HOLDS_INT64 (v);
    case GP_FIELD_UINT:
      return G_VALUE_HOLDS_UINT (v);
    case GP_FIELD_DOUBLE:
      return G_VALUE_HOLDS_DOUBLE (v);
    case GP_FIELD_BOOL:
      return G_VALUE_HOLDS_BOOLEAN (v);
    case GP_FIELD_STRING:
      return G_VALUE_HOLDS_STRING (v);
    case GP_FIELD_HIST:{
      guint i, n;

      if (!GST_VALUE_HOLDS_ARRAY (v))
        return FALSE;
      n = gst_value_array_get_size (v);
      for (i = 0; i < n; i++)
        if (!G_VALUE_HOLDS_UINT64 (gst_value_array_get_value (v, i)))
          return FALSE;
      return n % 2 == 0;
    }
    case GP_FIELD_LIST:
    case GP_FIELD_STRINGS:
      return GST_VALUE_HOLDS_LIST (v);
    case GP_FIELD_STRUCT:
      return GST_VALUE_HOLDS_STRUCTURE (v);
    case GP_FIELD_BYTES:
      return G_VALUE_HOLDS (v, G_TYPE_BYTES);
  }
  return FALSE;
}

/* Every field of @s is declared in @spec with its type, every field the
 * spec says is always there is; problems are appended to @out. */
static void
check_record (const GstStructure * s, const gchar * record,
    const GpFieldSpec * spec, guint n, GString * out)
{
  guint i, j, nf = (guint) gst_structure_n_fields (s);

  if (!gst_structure_has_name (s, record))
    g_string_append_printf (out, "record %s where %s was expected\n",
        gst_structure_get_name (s), record);
  for (i = 0; i < n; i++)
    if (!spec[i].optional && !gst_structure_has_field (s, spec[i].name))
      g_string_append_printf (out, "%s: no %s\n", record, spec[i].name);
  for (j = 0; j < nf; j++) {
    const gchar *name = gst_structure_nth_field_name (s, j);
    const GValue *v = gst_structure_get_value (s, name);

    for (i = 0; i < n && strcmp (spec[i].name, name) != 0; i++);
    if (i == n)
      g_string_append_printf (out, "%s: %s is not in the contract\n", record,
          name);
    else if (!field_type_ok (v, spec[i].type))
      g_string_append_printf (out, "%s: %s has type %s\n", record, name,
          G_VALUE_TYPE_NAME (v));
  }
}

static void
check_sub_records (const GstStructure * s, const gchar * field,
    const gchar * record, const GpFieldSpec * spec, guint n, GString * out)
{
  const GValue *list = gst_structure_get_value (s, field);
  guint i;

  if (list == NULL || !GST_VALUE_HOLDS_LIST (list))
    return;
  for (i = 0; i < gst_value_list_get_size (list); i++) {
    const GValue *v = gst_value_list_get_value (list, i);

    if (!GST_VALUE_HOLDS_STRUCTURE (v))
      g_string_append_printf (out, "%s: an entry of %s is a %s\n", record,
          field, G_VALUE_TYPE_NAME (v));
    else
      check_record (gst_value_get_structure (v), record, spec, n, out);
  }
}

static void
check_window_record (const GstStructure * w, GString * out)
{
  check_record (w, GP_RECORD_WINDOW, gp_window_spec,
      G_N_ELEMENTS (gp_window_spec), out);
  check_sub_records (w, GP_W_ELEMENTS, GP_RECORD_ELEMENT, gp_element_spec,
      G_N_ELEMENTS (gp_element_spec), out);
  check_sub_records (w, GP_W_LINKS, GP_RECORD_LINK, gp_link_spec,
      G_N_ELEMENTS (gp_link_spec), out);
  check_sub_records (w, GP_W_QUEUES, GP_RECORD_QUEUE, gp_queue_spec,
      G_N_ELEMENTS (gp_queue_spec), out);
  check_sub_records (w, GP_W_LATENCY, GP_RECORD_LATENCY, gp_latency_spec,
      G_N_ELEMENTS (gp_latency_spec), out);
  check_sub_records (w, GP_W_THREADS, GP_RECORD_THREAD, gp_thread_spec,
      G_N_ELEMENTS (gp_thread_spec), out);
  check_sub_records (w, GP_W_EVENTS, GP_RECORD_EVENT, gp_event_spec,
      G_N_ELEMENTS (gp_event_spec), out);
}

/* The records a pipeline with a queue, a live source, latency, QoS and a
 * warning makes, field by field against the contract, and the contract
 * against them: every declared sub-record list is non-empty here. */
static void
test_record_contract (void)
{
  GstElement *p;
  GPtrArray *ws;
  GstStructure *g = NULL;
  GString *problems = g_string_new (NULL);
  gboolean seen[4] = { FALSE, FALSE, FALSE, FALSE };
  guint i;

  REQUIRE_TRACER ();
  reset_windows ();
  p = launch ("videotestsrc num-buffers=40 is-live=true "
      "! video/x-raw,width=64,height=48,framerate=100/1 ! queue "
      "! identity sleep-time=1000 ! fakesink sync=true qos=true");
  run_to_eos (p, 10);
  g_signal_emit_by_name (tracer, "snapshot-graph", &g);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (p);
  ws = take_windows ();
  g_assert_cmpuint (ws->len, >, 0);
  for (i = 0; i < ws->len; i++) {
    const GstStructure *w = g_ptr_array_index (ws, i);
    const gchar *lists[] = { GP_W_ELEMENTS, GP_W_QUEUES, GP_W_LATENCY,
      GP_W_EVENTS
    };
    guint k;

    check_window_record (w, problems);
    for (k = 0; k < G_N_ELEMENTS (lists); k++) {
      const GValue *v = gst_structure_get_value (w, lists[k]);

      if (v && gst_value_list_get_size (v) > 0)
        seen[k] = TRUE;
    }
  }
  g_assert_nonnull (g);
  check_record (g, GP_RECORD_GRAPH, gp_graph_spec,
      G_N_ELEMENTS (gp_graph_spec), problems);
  check_sub_records (g, GP_G_ELEMENTS, GP_RECORD_GRAPH_ELEMENT,
      gp_graph_element_spec, G_N_ELEMENTS (gp_graph_element_spec), problems);
  check_sub_records (g, GP_G_LINKS, GP_RECORD_LINK, gp_graph_link_spec,
      G_N_ELEMENTS (gp_graph_link_spec), problems);
  if (problems->len)
    g_error ("records break the contract:\n%s", problems->str);
  for (i = 0; i < G_N_ELEMENTS (seen); i++)
    g_assert_true (seen[i]);
  g_string_free (problems, TRUE);
  gst_structure_free (g);
  g_ptr_array_unref (ws);
}

static void
test_graph (void)
{
  GstElement *p;
  GstStructure *g = NULL;
  const GstStructure *e, *props, *l;
  gboolean sync = TRUE, async = FALSE;
  guint sleep_time = 0, i, found = 0;

  REQUIRE_TRACER ();

  p = launch ("videotestsrc name=gr_src num-buffers=200 is-live=true "
      "! video/x-raw,width=64,height=48,framerate=100/1 "
      "! identity name=gr_id sleep-time=2000 ! fakesink name=gr_sink");
  gst_element_set_name (p, "gr_pipe");
  g_assert_cmpint (gst_element_set_state (p, GST_STATE_PLAYING), !=,
      GST_STATE_CHANGE_FAILURE);
  g_assert_cmpint (gst_element_get_state (p, NULL, NULL, 5 * GST_SECOND),
      ==, GST_STATE_CHANGE_SUCCESS);

  g_signal_emit_by_name (tracer, "snapshot-graph", &g);
  g_assert_nonnull (g);
  g_assert_true (gst_structure_has_name (g, "gstprof-graph"));

  e = find_by (g, "elements", "name", "gr_sink");
  g_assert_nonnull (e);
  g_assert_cmpstr (gst_structure_get_string (e, "parent"), ==, "gr_pipe");
  g_assert_cmpstr (gst_structure_get_string (e, "kind"), ==, "sink");
  g_assert_true (gst_structure_get (e, "props", GST_TYPE_STRUCTURE, &props,
          NULL));
  /* never set: the values are read from the object.  fakesink's sync
   * defaults to FALSE (unlike basesink's), async to TRUE */
  g_assert_true (gst_structure_get_boolean (props, "sync", &sync));
  g_assert_false (sync);
  g_assert_true (gst_structure_get_boolean (props, "async", &async));
  g_assert_true (async);
  g_assert_cmpstr (gst_structure_get_string (props, "name"), ==, "gr_sink");
  /* objects are left out */
  g_assert_false (gst_structure_has_field (props, "parent"));
  g_assert_false (gst_structure_has_field (props, "last-sample"));
  gst_structure_free ((GstStructure *) props);

  e = find_by (g, "elements", "name", "gr_id");
  g_assert_nonnull (e);
  g_assert_cmpstr (gst_structure_get_string (e, "kind"), ==, "filter");
  g_assert_true (gst_structure_get (e, "props", GST_TYPE_STRUCTURE, &props,
          NULL));
  g_assert_true (gst_structure_get_uint (props, "sleep-time", &sleep_time));
  g_assert_cmpuint (sleep_time, ==, 2000);
  gst_structure_free ((GstStructure *) props);

  e = find_by (g, "elements", "name", "gr_src");
  g_assert_nonnull (e);
  g_assert_cmpstr (gst_structure_get_string (e, "kind"), ==, "source");
  g_assert_true (gst_structure_get (e, "props", GST_TYPE_STRUCTURE, &props,
          NULL));
  /* enums as nicks */
  g_assert_cmpstr (gst_structure_get_string (props, "pattern"), ==,
      "smpte");
  gst_structure_free ((GstStructure *) props);

  e = find_by (g, "elements", "name", "gr_pipe");
  g_assert_nonnull (e);
  g_assert_cmpstr (gst_structure_get_string (e, "parent"), ==, "");

  for (i = 0; (l = list_nth (g, "links", i)); i++) {
    const gchar *src = gst_structure_get_string (l, "src");
    const gchar *sink = gst_structure_get_string (l, "sink");

    if (g_str_has_prefix (src, "gr_") || g_str_has_prefix (sink, "gr_")) {
      g_assert_true (g_str_has_prefix (gst_structure_get_string (l, "caps"),
              "video/x-raw"));
      g_assert_cmpstr (gst_structure_get_string (l, "memory"), ==, "system");
      found++;
    }
  }
  /* videotestsrc -> capsfilter -> identity -> fakesink */
  g_assert_cmpuint (found, ==, 3);
  g_assert_nonnull (gst_structure_get_value (g, "hw"));

  gst_structure_free (g);
  stop (p);
}

/* the whole process: CPU clock, RSS, CPUs, and every thread */

typedef struct
{
  guint64 proc_cpu_ns;
  guint64 streaming_ns;         /* threads seen in a hook */
  guint64 worker_ns;            /* the others */
  guint64 busiest_streaming_ns; /* the streaming thread with most CPU */
  guint n_workers_busy;         /* workers with CPU > 0 */
  guint n_proc;                 /* windows carrying proc_cpu_ns */
  guint64 rss_min, rss_max;
  guint n_cpus;
} ProcSum;

/* a hash key (g_memdup2 is too new for the GLib of older images) */
static guint64 *
u64_dup (guint64 v)
{
  guint64 *p = g_new (guint64, 1);

  *p = v;
  return p;
}

static void
sum_process (GPtrArray * ws, ProcSum * out)
{
  GHashTable *per_tid = g_hash_table_new_full (g_int64_hash, g_int64_equal,
      g_free, g_free);
  GHashTableIter it;
  gpointer k, v;
  guint i, j;

  memset (out, 0, sizeof (*out));
  out->rss_min = G_MAXUINT64;
  for (i = 0; i < ws->len; i++) {
    const GstStructure *w = g_ptr_array_index (ws, i);
    GHashTable *seen = g_hash_table_new_full (g_int64_hash, g_int64_equal,
        g_free, NULL);
    const GstStructure *t;
    guint64 rss;
    guint n_cpus;

    if (gst_structure_has_field (w, "proc_cpu_ns")) {
      out->proc_cpu_ns += get_u64 (w, "proc_cpu_ns");
      out->n_proc++;
    }
    g_assert_true (gst_structure_get_uint64 (w, "proc_rss_bytes", &rss));
    out->rss_min = MIN (out->rss_min, rss);
    out->rss_max = MAX (out->rss_max, rss);
    g_assert_true (gst_structure_get_uint (w, "n_cpus", &n_cpus));
    out->n_cpus = n_cpus;
    for (j = 0; (t = list_nth (w, "threads", j)); j++) {
      guint64 tid = get_u64 (t, "tid"), cpu = get_u64 (t, "cpu_ns");
      gboolean streaming;
      guint64 *acc;

      /* each thread once per window: nothing counted twice */
      g_assert_false (g_hash_table_contains (seen, &tid));
      g_hash_table_add (seen, u64_dup (tid));
      g_assert_true (gst_structure_get_boolean (t, "streaming", &streaming));
      if (streaming) {
        out->streaming_ns += cpu;
        acc = g_hash_table_lookup (per_tid, &tid);
        if (!acc) {
          acc = g_new0 (guint64, 1);
          g_hash_table_insert (per_tid, u64_dup (tid), acc);
        }
        *acc += cpu;
      } else {
        /* threads no hook saw run no element */
        g_assert_cmpstr (gst_structure_get_string (t, "elements"), ==, "");
        out->worker_ns += cpu;
        if (cpu > 0)
          out->n_workers_busy++;
      }
    }
    g_hash_table_unref (seen);
  }
  g_hash_table_iter_init (&it, per_tid);
  while (g_hash_table_iter_next (&it, &k, &v))
    out->busiest_streaming_ns = MAX (out->busiest_streaming_ns,
        *(guint64 *) v);
  g_hash_table_unref (per_tid);
  g_test_message ("process %.1f ms CPU in %u windows; streaming threads %.1f "
      "ms (busiest %.1f), workers %.1f ms (%u busy samples); RSS %.1f-%.1f "
      "MiB; %u CPUs", out->proc_cpu_ns / 1e6, out->n_proc,
      out->streaming_ns / 1e6, out->busiest_streaming_ns / 1e6,
      out->worker_ns / 1e6, out->n_workers_busy, out->rss_min / 1048576.0,
      out->rss_max / 1048576.0, out->n_cpus);
}

static guint64
process_cpu_ns (void)
{
  struct timespec t;

  g_assert_cmpint (clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &t), ==, 0);
  return (guint64) t.tv_sec * GST_SECOND + t.tv_nsec;
}

/* One streaming thread doing real work (snow frames converted): the
 * windows' process CPU adds up to the process's own clock over the same
 * span, that one thread carries nearly all of it, and the thread list
 * accounts for the whole process. */
static void
test_process (void)
{
  GstElement *p;
  GPtrArray *ws;
  ProcSum ps;
  guint64 cpu0, cpu1;
  gdouble truth;

  REQUIRE_TRACER ();

  cpu0 = process_cpu_ns ();
  reset_windows ();
  p = launch ("videotestsrc name=pr_src num-buffers=150 pattern=snow "
      "! video/x-raw,width=1280,height=720 ! videoconvert "
      "! video/x-raw,format=Y444 ! fakesink sync=false");
  run_to_eos (p, 30);
  stop (p);
  ws = take_windows ();
  cpu1 = process_cpu_ns ();
  truth = (cpu1 - cpu0) / 1e6;
  sum_process (ws, &ps);
  g_test_message ("process clock around the run: %.1f ms", truth);

  g_assert_cmpuint (ps.n_proc, ==, ws->len);
  /* the windows tile the run: their sum is the clock's delta, less the
   * bit between the test's clock reads and the flushes */
  g_assert_cmpfloat (ps.proc_cpu_ns / 1e6, <=, truth + 1.0);
  g_assert_cmpfloat (ps.proc_cpu_ns / 1e6, >=, truth * 0.95 - 2.0);
  g_assert_cmpfloat (truth, >, 100.0);
  /* the working thread is most of the process */
  g_assert_cmpfloat ((gdouble) ps.busiest_streaming_ns, >=,
      0.75 * ps.proc_cpu_ns);
  /* every thread is listed: streaming and others add up to the process
   * (threads that exited mid-window lose their last slice) */
  g_assert_cmpfloat ((gdouble) (ps.streaming_ns + ps.worker_ns), >=,
      0.9 * ps.proc_cpu_ns);
  g_assert_cmpfloat ((gdouble) (ps.streaming_ns + ps.worker_ns), <=,
      1.02 * ps.proc_cpu_ns + 2 * GST_MSECOND);
  g_assert_cmpuint (ps.rss_min, >, 1024 * 1024);
  g_assert_cmpuint (ps.n_cpus, >=, 1);
  g_assert_cmpuint (ps.n_cpus, <=, (guint) sysconf (_SC_NPROCESSORS_ONLN));
  g_ptr_array_unref (ws);
}

/* x264enc with threads=2 encodes on its own threads, which never pass a
 * pad: they are listed as non-streaming threads with their CPU, and the
 * process burns more than all streaming threads together. */
static void
test_worker_threads (void)
{
  GstElement *p;
  GPtrArray *ws;
  ProcSum ps;
  GstElementFactory *f;

  REQUIRE_TRACER ();
  f = gst_element_factory_find ("x264enc");
  if (!f) {
    g_test_skip ("x264enc is not installed");
    return;
  }
  gst_object_unref (f);

  reset_windows ();
  p = launch ("videotestsrc name=wk_src num-buffers=40 pattern=ball "
      "! video/x-raw,width=1280,height=720,framerate=30/1 "
      "! x264enc threads=2 speed-preset=veryfast ! fakesink sync=false");
  run_to_eos (p, 60);
  stop (p);
  ws = take_windows ();
  sum_process (ws, &ps);

  g_assert_cmpuint (ps.n_workers_busy, >, 0);
  g_assert_cmpuint (ps.worker_ns, >, 20 * GST_MSECOND);
  g_assert_cmpfloat ((gdouble) ps.proc_cpu_ns, >, 1.1 * ps.streaming_ns);
  /* the encoder's threads exit at stop: their last slice is in the
   * process's CPU only */
  g_assert_cmpfloat ((gdouble) (ps.streaming_ns + ps.worker_ns), >=,
      0.7 * ps.proc_cpu_ns);
  g_ptr_array_unref (ws);
}

#else /* GP_TEST_CPU */

/* cpu=true: sleeping is not CPU; producing frames is */
static void
test_cpu (void)
{
  GstElement *p;
  GPtrArray *ws;
  ElemSum id, src;

  REQUIRE_TRACER ();

  reset_windows ();
  p = launch ("videotestsrc name=cpu_src num-buffers=40 pattern=snow "
      "! video/x-raw,width=320,height=240 "
      "! identity name=cpu_id sleep-time=5000 ! fakesink sync=false");
  run_to_eos (p, 20);
  stop (p);
  ws = take_windows ();
  sum_element (ws, "cpu_id", &id);
  sum_element (ws, "cpu_src", &src);
  g_test_message ("cpu_id: self %.1f ms, cpu %.1f ms; cpu_src: self %.1f ms, "
      "cpu %.1f ms", id.self_ns / 1e6, id.cpu_ns / 1e6, src.self_ns / 1e6,
      src.cpu_ns / 1e6);
  g_assert_cmpuint (id.buffers, ==, 40);
  g_assert_cmpfloat (id.self_ns / 1e6, >, 40 * 5.0 * 0.95);
  g_assert_cmpfloat ((gdouble) id.cpu_ns, <, 0.2 * id.self_ns);
  g_assert_cmpuint (src.cpu_ns, >, 0);
  g_assert_cmpfloat ((gdouble) src.cpu_ns, >, 0.3 * src.self_ns);
  g_ptr_array_unref (ws);
}

#endif

#if !GP_TEST_CPU

/* trace=SECONDS (src/tracer/gstproftrace.c): run in a child under
 * GST_TRACERS="gstprof(window=100,trace=...)", since the parameter is the
 * process's.  The child prints the trace it got; with a trace, the
 * collect-trace record of a pipeline whose identity sleeps 2 ms a buffer,
 * checked against gp-record.h, and its identity pushes. */
#define TRACE_BUFFERS 20
#define TRACE_SLEEP_US 2000
/* windows the tracer closes after the feeder exits (100 ms each): its
 * state is retired one window after the exit was reported */
#define TRACE_EXITED_WAIT_MS 1000

/* A thread of the test's own, not a GStreamer task: it pushes
 * TRACE_BUFFERS buffers into identity @pad's peer and exits. */
typedef struct
{
  GstPad *pad;
  gint tid;
} TraceFeeder;

static gpointer
trace_feeder (gpointer data)
{
  TraceFeeder *f = data;
  GstSegment seg;
  guint i;

#ifdef __linux__
  f->tid = (gint) syscall (SYS_gettid);
#endif
  gst_segment_init (&seg, GST_FORMAT_BYTES);
  g_assert_true (gst_pad_push_event (f->pad,
          gst_event_new_stream_start ("feeder")));
  g_assert_true (gst_pad_push_event (f->pad,
          gst_event_new_caps (gst_caps_new_empty_simple ("application/x-t"))));
  g_assert_true (gst_pad_push_event (f->pad, gst_event_new_segment (&seg)));
  for (i = 0; i < TRACE_BUFFERS; i++)
    g_assert_cmpint (gst_pad_push (f->pad, gst_buffer_new_allocate (NULL, 16,
                NULL)), ==, GST_FLOW_OK);
  return NULL;
}

/* The identity pushes of thread @tid in @rec (-1: any thread) */
static guint
trace_count (const GstStructure * rec, const gchar * elem, gint64 tid,
    guint * short_, guint * nested)
{
  const GValue *names = gst_structure_get_value (rec, GP_TR_ELEMENTS);
  const GValue *threads = gst_structure_get_value (rec, GP_TR_THREADS);
  guint i, j, id = G_MAXUINT, pushes = 0;

  for (i = 0; i < gst_value_list_get_size (names); i++)
    if (!g_strcmp0 (g_value_get_string (gst_value_list_get_value (names, i)),
            elem))
      id = i;
  g_assert_cmpuint (id, !=, G_MAXUINT);
  for (i = 0; i < gst_value_list_get_size (threads); i++) {
    const GstStructure *ts =
        gst_value_get_structure (gst_value_list_get_value (threads, i));
    GBytes *b = g_value_get_boxed (gst_structure_get_value (ts,
            GP_TT_SLICES));
    gsize len;
    const GpTraceSlice *sl = g_bytes_get_data (b, &len);

    g_assert_cmpuint (len % sizeof (GpTraceSlice), ==, 0);
    if (tid >= 0 && get_u64 (ts, GP_TT_TID) != (guint64) tid)
      continue;
    for (j = 0; j < len / sizeof (GpTraceSlice); j++) {
      guint k;

      if (sl[j].element != id || sl[j].kind != GP_TRACE_KIND_BUFFER)
        continue;
      pushes++;
      /* usleep never sleeps less */
      if (sl[j].end - sl[j].start < TRACE_SLEEP_US * GST_USECOND)
        (*short_)++;
      /* the push into fakesink returned first, inside it, one deeper */
      for (k = 0; k < j; k++)
        if (sl[k].depth == sl[j].depth + 1 && sl[k].start >= sl[j].start
            && sl[k].end <= sl[j].end)
          break;
      *nested += k < j;
    }
  }
  return pushes;
}

/* A thread that pushed and exited a second before the collection (its
 * state retired meanwhile) still has its pushes in the trace. */
static void
test_trace_exited (void)
{
  GstElement *p = launch ("identity name=late sleep-time="
      G_STRINGIFY (TRACE_SLEEP_US) " ! fakesink name=lateend");
  GstElement *id = gst_bin_get_by_name (GST_BIN (p), "late");
  GstPad *sink = gst_element_get_static_pad (id, "sink");
  TraceFeeder f = { gst_pad_new ("feeder", GST_PAD_SRC), -1 };
  GstStructure *rec = NULL;
  GThread *th;
  guint pushes, short_ = 0, nested = 0;

  g_assert_cmpint (gst_pad_link (f.pad, sink), ==, GST_PAD_LINK_OK);
  g_assert_true (gst_pad_set_active (f.pad, TRUE));
  g_assert_cmpint (gst_element_set_state (p, GST_STATE_PLAYING), !=,
      GST_STATE_CHANGE_FAILURE);
  th = g_thread_new ("feeder", trace_feeder, &f);
  g_thread_join (th);
  g_usleep (TRACE_EXITED_WAIT_MS * 1000);
  g_signal_emit_by_name (tracer, "collect-trace", &rec);
  g_assert_nonnull (rec);
  pushes = trace_count (rec, "late", f.tid, &short_, &nested);
  g_print ("gstprof: trace exited pushes=%u short=%u nested=%u\n", pushes,
      short_, nested);
  gst_structure_free (rec);
  gst_pad_set_active (f.pad, FALSE);
  gst_object_unref (f.pad);
  gst_object_unref (sink);
  gst_object_unref (id);
  stop (p);
}

static void
test_trace_child (void)
{
  GstStructure *rec = NULL;
  GString *problems = g_string_new (NULL);
  GstElement *p;
  guint trace = 0, pushes = 0, short_ = 0, nested = 0;

  REQUIRE_TRACER ();
  g_object_get (tracer, "trace", &trace, NULL);
  g_print ("gstprof: trace=%u\n", trace);
  if (trace == 0) {
    g_signal_emit_by_name (tracer, "collect-trace", &rec);
    g_assert_null (rec);
    return;
  }
  p = launch ("fakesrc num-buffers=" G_STRINGIFY (TRACE_BUFFERS)
      " ! identity name=slow sleep-time=" G_STRINGIFY (TRACE_SLEEP_US)
      " ! fakesink name=end");
  run_to_eos (p, 30);
  stop (p);
  g_signal_emit_by_name (tracer, "collect-trace", &rec);
  g_assert_nonnull (rec);
  check_record (rec, GP_RECORD_TRACE, gp_trace_spec,
      G_N_ELEMENTS (gp_trace_spec), problems);
  check_sub_records (rec, GP_TR_THREADS, GP_RECORD_TRACE_THREAD,
      gp_trace_thread_spec, G_N_ELEMENTS (gp_trace_thread_spec), problems);
  if (problems->len)
    g_error ("collect-trace record:\n%s", problems->str);
  pushes = trace_count (rec, "slow", -1, &short_, &nested);
  g_print ("gstprof: trace pushes=%u short=%u nested=%u\n", pushes, short_,
      nested);
  gst_structure_free (rec);
  g_string_free (problems, TRUE);
  test_trace_exited ();
}

/* The child's stdout for @params, with its warnings checked: each one
 * the tracer gives must start with @warning (NULL: none). */
static gchar *
run_trace_child (const gchar * params, const gchar * warning)
{
  gchar *argv[] = { (gchar *) test_program, (gchar *) "-p",
    (gchar *) "/tracer/trace-child", NULL
  };
  gchar **envp = g_get_environ ();
  gchar *tracers = g_strdup_printf ("gstprof(window=100,%s)", params);
  const gchar *prefix = "gstprof: GST_TRACERS: ";
  gchar *out = NULL, *err = NULL, *all, *msg, **lines;
  GError *error = NULL;
  gint status = 0;
  guint n = 0, i;

  envp = g_environ_setenv (envp, "GP_TEST_TRACERS", tracers, TRUE);
  g_assert_true (g_spawn_sync (NULL, argv, envp, G_SPAWN_DEFAULT, NULL, NULL,
          &out, &err, &status, &error));
  g_assert_no_error (error);
  all = g_strconcat (out, err, NULL);
  /* one message a line, as check_params () */
  lines = g_strsplit (all, "\n", -1);
  for (i = 0; lines[i]; i++)
    if (lines[i][0])
      g_test_message ("%s: %s", tracers, lines[i]);
  g_strfreev (lines);
  g_assert_true (g_spawn_check_exit_status (status, NULL));
  for (msg = strstr (all, prefix); msg; msg = strstr (msg + 1, prefix)) {
    g_assert_nonnull (warning);
    g_assert_true (g_str_has_prefix (msg + strlen (prefix), warning));
    n++;
  }
  if (warning)
    g_assert_cmpuint (n, >, 0);
  g_free (all);
  g_free (err);
  g_free (tracers);
  g_strfreev (envp);
  return out;
}

static void
test_trace (void)
{
  gchar *out;

  out = run_trace_child ("trace=5", NULL);
  g_assert_nonnull (strstr (out, "gstprof: trace=5\n"));
  /* every identity push kept, each at least its sleep, each around the
   * push into the sink */
  g_assert_nonnull (strstr (out, "gstprof: trace pushes="
          G_STRINGIFY (TRACE_BUFFERS) " short=0 nested="
          G_STRINGIFY (TRACE_BUFFERS) "\n"));
  /* and those of a thread that exited before the collection */
  g_assert_nonnull (strstr (out, "gstprof: trace exited pushes="
          G_STRINGIFY (TRACE_BUFFERS) " short=0 nested="
          G_STRINGIFY (TRACE_BUFFERS) "\n"));
  g_free (out);
  out = run_trace_child ("trace=true", NULL);
  g_assert_nonnull (strstr (out, "gstprof: trace=10\n"));
  g_free (out);
  out = run_trace_child ("cpu=false", NULL);
  g_assert_nonnull (strstr (out, "gstprof: trace=0\n"));
  g_free (out);
  out = run_trace_child ("trace=600", "trace=600 is above the maximum of "
      "60 s; using 60");
  g_assert_nonnull (strstr (out, "gstprof: trace=60\n"));
  g_free (out);
  out = run_trace_child ("trace=soon", "trace: 'window=100,trace=soon' is "
      "not a number of seconds or true/false; trace off");
  g_assert_nonnull (strstr (out, "gstprof: trace=0\n"));
  g_free (out);
}
#endif

int
main (int argc, char **argv)
{
  gint ret;

  const gchar *child_tracers = g_getenv ("GP_TEST_TRACERS");

  test_program = argv[0];
  g_setenv ("GST_TRACERS", child_tracers ? child_tracers :
      GP_TEST_CPU ? "gstprof(window=100,cpu=true)" : "gstprof(window=100)",
      TRUE);
  g_test_init (&argc, &argv, NULL);
  /* a child of /tracer/params: the tracer's warnings are what it checks */
  if (child_tracers)
    g_log_set_always_fatal (G_LOG_FATAL_MASK);
  gst_init (&argc, &argv);

  windows = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_structure_free);
  {
    /* as any application finds it (src/core/gp-record.h) */
    GType type = g_type_from_name (GP_TRACER_TYPE_NAME);
    gpointer found = type ? g_type_get_qdata (type,
        g_quark_from_static_string (GP_TRACER_INSTANCE_QDATA)) : NULL;

    if (found)
      tracer = gst_object_ref (found);
  }
  if (tracer && !child_tracers) {
    gint64 t0 = g_get_monotonic_time ();

    g_signal_connect (tracer, "window", G_CALLBACK (on_window), NULL);
    /* no main loop: the first window must come on its own */
    while (!n_windows () && g_get_monotonic_time () - t0 < 2000 * 1000)
      g_usleep (1000);
    if (g_get_monotonic_time () - t0 > 2 * WINDOW_MS * 1000)
      first_window_us = -1;
  } else if (!tracer) {
    g_printerr ("gstprof tracer not loaded (GST_PLUGIN_PATH=%s)\n",
        g_getenv ("GST_PLUGIN_PATH"));
  }

  if (child_tracers) {
    g_test_add_func ("/tracer/params-child", test_params_child);
#if !GP_TEST_CPU
    g_test_add_func ("/tracer/trace-child", test_trace_child);
#endif
  }
  g_test_add_func ("/tracer/properties", test_properties);
#if !GP_TEST_CPU
  g_test_add_func ("/tracer/params", test_params);
  g_test_add_func ("/tracer/trace", test_trace);
  g_test_add_func ("/tracer/self-time", test_self_time);
  g_test_add_func ("/tracer/queue-residence", test_queue_residence);
  g_test_add_func ("/tracer/backpressure", test_backpressure);
  g_test_add_func ("/tracer/leaky", test_leaky);
  g_test_add_func ("/tracer/live-rate", test_live_rate);
  g_test_add_func ("/tracer/late-per-pipeline", test_late_per_pipeline);
  g_test_add_func ("/tracer/windows-without-data", test_windows_without_data);
  g_test_add_func ("/tracer/tee", test_tee);
  g_test_add_func ("/tracer/decodebin", test_decodebin);
  g_test_add_func ("/tracer/encoder-offset", test_encoder_offset);
  g_test_add_func ("/tracer/dynamic", test_dynamic);
  g_test_add_func ("/tracer/caps-refused", test_caps_refused);
  g_test_add_func ("/tracer/rtp-sequence", test_rtp_sequence);
  g_test_add_func ("/tracer/probe-split", test_probe_split);
  g_test_add_func ("/tracer/handler-split", test_handler_split);
  g_test_add_func ("/tracer/graph", test_graph);
  g_test_add_func ("/tracer/record-contract", test_record_contract);
  g_test_add_func ("/tracer/process", test_process);
  g_test_add_func ("/tracer/worker-threads", test_worker_threads);
#else
  g_test_add_func ("/tracer/cpu", test_cpu);
#endif
  ret = g_test_run ();

  /* gst_deinit destroys the tracer: its timer thread must stop cleanly.
   * Until then it still emits windows on its own thread: the array goes
   * under the lock (on_window skips it once NULL), as a handler already
   * being called outlives its disconnection. */
  if (tracer)
    g_signal_handlers_disconnect_by_func (tracer, on_window, NULL);
  g_mutex_lock (&win_lock);
  g_clear_pointer (&windows, g_ptr_array_unref);
  g_mutex_unlock (&win_lock);
  if (tracer)
    gst_object_unref (tracer);
  gst_deinit ();
  return ret;
}
