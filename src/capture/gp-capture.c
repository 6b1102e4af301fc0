/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-capture.c: `gstprof run`, in-process. The tracer is loaded by
 * GStreamer itself (GST_PLUGIN_PATH + GST_TRACERS, set before gst_init);
 * this file finds the tracer instance, folds its windows into a session
 * through the aggregator, and owns the run's life: the bus, the duration,
 * Ctrl-C, and a bounded wait for EOS.
 *
 * The pipeline's state changes run on threads of their own (GpCaptureJob),
 * so a start or a stop that blocks (a FIFO's open (), a sink blocked in
 * write ()) never holds the main loop: the stop is bounded whatever the
 * pipeline does, and a pipeline that will not stop is left behind.
 *
 * Whatever way the run ends (EOS, duration, Ctrl-C, a pipeline error), the
 * session is complete: the graph is snapshotted again and the tracer's open
 * window is flushed before the pipeline is stopped, so the caller can save
 * and analyse it like any other.
 */
#include "gp-capture.h"
#include "gp-capture-private.h"
#include "core/gp-platform.h"
#include "gp-aggregate.h"
#include "gp-config.h"
#include "core/gp-record.h"
#include "telemetry/gp-sampler.h"

#include <errno.h>
#include <glib-unix.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define GP_TRACER_LIB "libgstprof.so"
/* Once the run stops the pipeline for good (EOS came, or the EOS wait is
 * over), how long its state change to NULL may take before the pipeline
 * is left behind as stuck: a healthy one stops in milliseconds, a heavy
 * encoder closing its frame threads in a second or two (x264enc at
 * speed-preset=veryslow, 720p, on a loaded 2-core machine: over 1 s); an
 * element blocked in a system call (a filesink writing into a FIFO nobody
 * reads) or stuck in its chain function never does. */
#define GP_CAPTURE_TEARDOWN_MS 3000
/* Past that, the process's CPU time says which: a stop that is working its
 * way there (an encoder closing with frames still in its lookahead, a long
 * frame finishing: x264enc veryslow beside two CPU hogs took over 3 s) burns
 * at least this share of a core over each GP_CAPTURE_STOP_CHECK_MS, and is
 * waited for; a blocked one (a system call, a lock, a sleep) burns none.
 * gstprof's own threads while it waits (the sampler's tick, the panel's
 * server) stay under 2 %. */
#define GP_CAPTURE_STOP_WORKING_SHARE 0.10
#define GP_CAPTURE_STOP_CHECK_MS 1000
/* A working stop is waited for this long in all: a loop that never ends is
 * left behind like a blocked call. */
#define GP_CAPTURE_STOP_WORKING_MAX_MS 30000
/* The same wait after a second Ctrl-C or a SIGTERM: the user asked for
 * the end at once; long enough for a healthy pipeline to stop. */
#define GP_CAPTURE_HURRY_MS 250
/* A start refused without an error message: how long an element may take
 * to post its error from a thread of its own. */
#define GP_CAPTURE_START_GRACE_MS 200

G_DEFINE_QUARK (gp-capture-error-quark, gp_capture_error);

/* Where prepare_env looked for the plugin, for the error message when the
 * tracer turns out not to be loaded. Written before gst_init, read after:
 * no other thread exists yet when it changes. */
static gchar *gp_capture_plugin_dirs_tried = NULL;

void
gp_capture_options_init (GpCaptureOptions * opts)
{
  g_return_if_fail (opts != NULL);

  memset (opts, 0, sizeof (*opts));
  opts->duration_s = 0.0;
  opts->window_ms = 250;
  opts->cpu = FALSE;
  opts->eos_timeout_s = 3.0;
  opts->progress = FALSE;
  opts->checkpoint_path = NULL;
  opts->checkpoint_s = 2.0;
}

/* ------------------------------------------------------------------ */
/* environment                                                         */

static gboolean
gp_capture_dir_has_plugin (const gchar * dir)
{
  gchar *path = g_build_filename (dir, GP_TRACER_LIB, NULL);
  gboolean ok = g_file_test (path, G_FILE_TEST_IS_REGULAR);

  g_free (path);
  return ok;
}

/* The build tree puts the binary in <build>/src/cli and the plugin in
 * <build>/src/tracer: a build directory moved elsewhere still finds its own
 * plugin. */
static gchar *
gp_capture_exe_sibling_tracer_dir (void)
{
  gchar *exe = g_file_read_link ("/proc/self/exe", NULL);
  gchar *dir, *tracer;

  if (exe == NULL)
    return NULL;
  dir = g_path_get_dirname (exe);
  tracer = g_build_filename (dir, "..", "tracer", NULL);
  g_free (dir);
  g_free (exe);
  return tracer;
}

/* The directory to prepend to the plugin path, or NULL when none of the
 * candidates holds the plugin (it may then still be in GStreamer's own
 * plugin directories). Records what was tried. */
static gchar *
gp_capture_find_plugin_dir (void)
{
  const gchar *env = g_getenv ("GSTPROF_PLUGIN_DIR");
  GPtrArray *tried = g_ptr_array_new_with_free_func (g_free);
  gchar *found = NULL;
  gchar *candidates[3];
  guint i;

  if (env != NULL && *env != '\0') {
    /* an explicit choice is taken as is; if it is wrong, the error names
     * it rather than silently loading another build */
    g_free (gp_capture_plugin_dirs_tried);
    gp_capture_plugin_dirs_tried =
        g_strdup_printf ("%s (GSTPROF_PLUGIN_DIR)", env);
    g_ptr_array_unref (tried);
    return g_strdup (env);
  }

  candidates[0] = g_strdup (GP_BUILD_PLUGIN_DIR);
  candidates[1] = gp_capture_exe_sibling_tracer_dir ();
  candidates[2] = g_strdup (GP_INSTALL_PLUGIN_DIR);
  for (i = 0; i < G_N_ELEMENTS (candidates); i++) {
    if (candidates[i] == NULL)
      continue;
    if (found == NULL && gp_capture_dir_has_plugin (candidates[i]))
      found = g_strdup (candidates[i]);
    g_ptr_array_add (tried, candidates[i]);
  }
  g_ptr_array_add (tried, NULL);

  g_free (gp_capture_plugin_dirs_tried);
  gp_capture_plugin_dirs_tried = g_strjoinv (", ", (gchar **) tried->pdata);
  g_ptr_array_unref (tried);
  return found;
}

/* @envp with @dir first in the plugin path GStreamer will read
 * (GST_PLUGIN_PATH_1_0 instead of GST_PLUGIN_PATH when it is set). */
static gchar **
gp_capture_prepend_plugin_path (gchar ** envp, const gchar * dir)
{
  const gchar *var = g_environ_getenv (envp, "GST_PLUGIN_PATH_1_0") ?
      "GST_PLUGIN_PATH_1_0" : "GST_PLUGIN_PATH";
  const gchar *old = g_environ_getenv (envp, var);
  gchar *value;

  if (old == NULL || *old == '\0') {
    value = g_strdup (dir);
  } else {
    gchar **parts = g_strsplit (old, G_SEARCHPATH_SEPARATOR_S, -1);
    gboolean present = parts[0] != NULL && g_str_equal (parts[0], dir);

    g_strfreev (parts);
    if (present)
      return envp;
    value = g_strconcat (dir, G_SEARCHPATH_SEPARATOR_S, old, NULL);
  }
  envp = g_environ_setenv (envp, var, value, TRUE);
  g_free (value);
  return envp;
}

/* The user's GST_TRACERS, less any gstprof entry (ours replaces it, so
 * the instance found after gst_init has our parameters), plus ours. */
static gchar *
gp_capture_tracers_value (const gchar * old, const GpCaptureOptions * opts)
{
  GString *out = g_string_new (NULL);
  guint window = opts->window_ms ? MAX (opts->window_ms, 10) : 250;

  if (old != NULL) {
    gchar **parts = g_strsplit (old, ";", -1);
    gchar **p;

    for (p = parts; *p; p++) {
      gchar *entry = g_strstrip (*p);
      gsize name_len = strcspn (entry, "(");
      gchar *name = g_strstrip (g_strndup (entry, name_len));

      if (*entry != '\0' && !g_str_equal (name, GP_TRACER_NAME))
        g_string_append_printf (out, "%s;", entry);
      g_free (name);
    }
    g_strfreev (parts);
  }
  g_string_append_printf (out, "%s(window=%u,cpu=%s", GP_TRACER_NAME,
      window, opts->cpu ? "true" : "false");
  if (opts->trace_s > 0)
    g_string_append_printf (out, ",trace=%u", opts->trace_s);
  g_string_append_c (out, ')');
  return g_string_free (out, FALSE);
}

gchar **
gp_capture_tracer_environ (gchar ** envp, const GpCaptureOptions * opts)
{
  gchar *dir = gp_capture_find_plugin_dir (), *tracers;

  envp = envp ? g_strdupv (envp) : g_get_environ ();
  if (dir != NULL)
    envp = gp_capture_prepend_plugin_path (envp, dir);
  g_free (dir);
  tracers = gp_capture_tracers_value (g_environ_getenv (envp, "GST_TRACERS"),
      opts);
  envp = g_environ_setenv (envp, "GST_TRACERS", tracers, TRUE);
  g_free (tracers);
  /* paths beside GST_TRACERS, not in it: a ';' or ')' in them (a TMPDIR)
   * would cut its entry (gp-record.h) */
  envp = g_environ_unsetenv (envp, GP_TRACER_OUT_ENV);
  envp = g_environ_unsetenv (envp, GP_TRACER_SOCKET_ENV);
  if (opts->records_dir != NULL)
    envp = g_environ_setenv (envp, GP_TRACER_OUT_ENV, opts->records_dir,
        TRUE);
  if (opts->records_socket != NULL)
    envp = g_environ_setenv (envp, GP_TRACER_SOCKET_ENV,
        opts->records_socket, TRUE);
  return envp;
}

gboolean
gp_capture_prepare_env (const GpCaptureOptions * opts, GError ** error)
{
  static const gchar *const vars[] = { "GST_PLUGIN_PATH",
    "GST_PLUGIN_PATH_1_0", "GST_TRACERS", GP_TRACER_OUT_ENV,
    GP_TRACER_SOCKET_ENV
  };
  gchar **envp;
  guint i;

  g_return_val_if_fail (opts != NULL, FALSE);

  if (gst_is_initialized ()) {
    g_set_error (error, GP_CAPTURE_ERROR, GP_CAPTURE_ERROR_TRACER,
        "the gstprof tracer must be set up before GStreamer is initialised "
        "(gp_capture_prepare_env after gst_init)");
    return FALSE;
  }
  /* this process is its own child here */
  envp = gp_capture_tracer_environ (NULL, opts);
  for (i = 0; i < G_N_ELEMENTS (vars); i++) {
    const gchar *v = g_environ_getenv (envp, vars[i]);

    if (v != NULL)
      g_setenv (vars[i], v, TRUE);
    else if (g_str_has_prefix (vars[i], "GSTPROF_"))
      g_unsetenv (vars[i]);     /* the tracer's paths: only @opts' */
  }
  g_strfreev (envp);
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* the tracer instance                                                 */

/* The instance that measures, however GStreamer made it (gp-record.h). */
static GstTracer *
gp_capture_find_tracer (void)
{
  GType type = g_type_from_name (GP_TRACER_TYPE_NAME);
  gpointer tracer = type ? g_type_get_qdata (type,
      g_quark_from_static_string (GP_TRACER_INSTANCE_QDATA)) : NULL;

  return tracer ? gst_object_ref (tracer) : NULL;
}

static void
gp_capture_set_tracer_error (GError ** error)
{
  const gchar *tracers = g_getenv ("GST_TRACERS");

  if (tracers == NULL || strstr (tracers, GP_TRACER_NAME) == NULL) {
    g_set_error (error, GP_CAPTURE_ERROR, GP_CAPTURE_ERROR_TRACER,
        "the gstprof tracer is not loaded: GST_TRACERS does not name it "
        "(GStreamer was initialised before gp_capture_prepare_env)");
  } else {
    g_set_error (error, GP_CAPTURE_ERROR, GP_CAPTURE_ERROR_TRACER,
        "the gstprof tracer is not loaded: %s not found or not loadable "
        "(looked in %s; set GSTPROF_PLUGIN_DIR)", GP_TRACER_LIB,
        gp_capture_plugin_dirs_tried ? gp_capture_plugin_dirs_tried :
        "GST_PLUGIN_PATH and GStreamer's plugin directories");
  }
}

/* The tracer's "window" handler runs on the tracer's thread and may be in
 * flight while the run disconnects it; this holder outlives the handler
 * (freed with the closure) and is cleared under its lock first, so a late
 * window never reaches a freed aggregator. */
typedef struct
{
  GMutex lock;
  GpAggregator *agg;
} GpWindowSink;

static void
gp_capture_on_window (GstTracer * tracer, const GstStructure * window,
    gpointer data)
{
  GpWindowSink *sink = data;

  g_mutex_lock (&sink->lock);
  if (sink->agg != NULL && window != NULL)
    gp_aggregator_add_window (sink->agg, window);
  g_mutex_unlock (&sink->lock);
}

static void
gp_capture_window_sink_free (gpointer data, GClosure * closure)
{
  GpWindowSink *sink = data;

  g_mutex_clear (&sink->lock);
  g_free (sink);
}

/* The tracer's records count time from gst_init's private start time,
 * which GStreamer does not export (gst_util_get_timestamp () is the
 * monotonic clock itself). The session's t = 0 and every time the capture
 * stamps (bus events, the end) must be on the records' base, so the run
 * asks the tracer for the time: a flush emits a window, right away and on
 * this thread, whose end is the tracer's "now". */
typedef struct
{
  GMutex lock;
  guint64 end;
  gboolean got;
} GpClockProbe;

static void
gp_capture_on_probe_window (GstTracer * tracer, const GstStructure * window,
    gpointer data)
{
  GpClockProbe *probe = data;
  guint64 end;

  if (window == NULL || !gst_structure_get_uint64 (window, "end", &end))
    return;
  g_mutex_lock (&probe->lock);
  /* the timer may hand over a window at the same moment: any window's end
   * is a past "now", the latest is the closest */
  if (!probe->got || end > probe->end)
    probe->end = end;
  probe->got = TRUE;
  g_mutex_unlock (&probe->lock);
}

/* Freed with the handler's closure: a window being handed over on the
 * timer thread while the handler is disconnected still finds it. */
static void
gp_capture_clock_probe_free (gpointer data, GClosure * closure)
{
  GpClockProbe *probe = data;

  g_mutex_clear (&probe->lock);
  g_free (probe);
}

gchar *
gp_capture_gst_version (void)
{
  guint major, minor, micro, nano;

  gst_version (&major, &minor, &micro, &nano);
  return g_strdup_printf ("%u.%u.%u", major, minor, micro);
}

/* gst_util_get_timestamp () minus the tracer's time, or 0 when the tracer
 * did not answer (times are then on the monotonic clock's base). */
static guint64
gp_capture_tracer_clock_offset (GstTracer * tracer)
{
  GpClockProbe *probe = g_new0 (GpClockProbe, 1);
  guint64 after, offset = 0;
  gulong id;

  g_mutex_init (&probe->lock);
  id = g_signal_connect_data (tracer, "window",
      G_CALLBACK (gp_capture_on_probe_window),
      probe, gp_capture_clock_probe_free, 0);
  g_signal_emit_by_name (tracer, "flush");
  after = gst_util_get_timestamp ();
  g_mutex_lock (&probe->lock);
  if (probe->got && probe->end <= after)
    offset = after - probe->end;
  g_mutex_unlock (&probe->lock);
  g_signal_handler_disconnect (tracer, id);
  return offset;
}

/* ------------------------------------------------------------------ */
/* the run                                                             */

struct _GpCaptureRun
{
  const GpCaptureOptions *opts;
  GMainLoop *loop;
  GstElement *pipeline;
  GstTracer *tracer;
  GpAggregator *agg;
  guint64 clock_offset;         /* monotonic - tracer time */
  guint64 t0;                   /* tracer time */

  GpCaptureEnd end;
  gboolean end_set;
  gboolean eos_sent;
  gboolean eos_received;
  guint64 stop_ts;              /* tracer time gstprof asked it to stop, 0 */
  guint64 eos_ts;               /* tracer time EOS came back, 0 */
  GstState reached;             /* the highest state the pipeline reached */
  GPtrArray *preroll;           /* GpPrerollSink*, when it never played */
  GThread *gp_capture_eos_thread;
  guint n_interrupts;
  gboolean graph_taken;
  gboolean buffering;           /* paused by gstprof until a buffering
                                 * element is full again */
  gboolean live;                /* the start returned NO_PREROLL */
  gboolean hurry;               /* a second Ctrl-C or SIGTERM: no waiting */
  gboolean stopping;            /* waiting for the state change to NULL */
  gboolean start_refused;       /* PLAYING refused, no error message */
  guint start_grace_id;
  guint stop_deadline_id;
  gint64 stop_began_us;         /* monotonic, when the stop began */
  gdouble stop_cpu_s;           /* the process's CPU time at the last check */
  gdouble stop_cpu_at_begin_s;
  gboolean stop_working;        /* it burnt CPU past GP_CAPTURE_TEARDOWN_MS */

  guint bus_watch_id;
  guint duration_id;
  guint eos_timeout_id;
  guint progress_id;
  guint checkpoint_id;
  gboolean checkpoint_said;     /* a failed checkpoint was said */
  GpSession *session;
  GDateTime *started;
  guint sigint_id;
  guint sigterm_id;

  gboolean tty;
  gboolean progress_open;       /* a \r line is on the terminal */
  GpSampler *sampler;           /* the machine's, with opts->machine */
  GpMachine *machine;           /* the sampler's until it stops */
  guint live_id;                /* opts->live's timer */
};

/* Now, on the tracer's time base. */
static guint64
gp_capture_run_now (GpCaptureRun * r)
{
  return gst_util_get_timestamp () - r->clock_offset;
}

static void
gp_capture_set_end (GpCaptureRun * r, GpCaptureEnd end)
{
  /* an error overrides how the run was being stopped; otherwise the first
   * reason to stop is the one reported */
  if (!r->end_set || end == GP_CAPTURE_END_ERROR) {
    r->end = end;
    r->end_set = TRUE;
  }
}

static void
gp_capture_take_graph (GpCaptureRun * r)
{
  GstStructure *graph = NULL;

  g_signal_emit_by_name (r->tracer, "snapshot-graph", &graph);
  if (graph != NULL) {
    gp_aggregator_add_graph (r->agg, graph);
    gst_structure_free (graph);
  }
}

/* The tracer's rings of pushes (--trace), read once the pipeline stopped,
 * into the session's trace; nothing when the tracer keeps none (trace off,
 * or a tracer made earlier in this process without it). */
static void
gp_capture_take_trace (GpCaptureRun * r, GpSession * s)
{
  GstStructure *rec = NULL;
  const GValue *names, *threads;
  GpTrace *t;
  guint i;

  if (r->opts->trace_s == 0)
    return;
  g_signal_emit_by_name (r->tracer, "collect-trace", &rec);
  if (rec == NULL)
    return;
  t = gp_trace_new ();
  t->t0 = r->t0;
  gst_structure_get_uint (rec, GP_TR_SECONDS, &t->seconds);
  gst_structure_get_uint64 (rec, GP_TR_NOW, &t->now);
  names = gst_structure_get_value (rec, GP_TR_ELEMENTS);
  for (i = 0; names && GST_VALUE_HOLDS_LIST (names) &&
      i < gst_value_list_get_size (names); i++) {
    const GValue *v = gst_value_list_get_value (names, i);

    g_ptr_array_add (t->elements, g_strdup (G_VALUE_HOLDS_STRING (v) ?
            g_value_get_string (v) : ""));
  }
  threads = gst_structure_get_value (rec, GP_TR_THREADS);
  for (i = 0; threads && GST_VALUE_HOLDS_LIST (threads) &&
      i < gst_value_list_get_size (threads); i++) {
    const GValue *v = gst_value_list_get_value (threads, i);
    const GstStructure *ts;
    const GValue *bv;
    GpTraceThread *th;
    guint64 tid = 0, lost = 0;
    gsize len = 0;
    gconstpointer data;

    if (!GST_VALUE_HOLDS_STRUCTURE (v))
      continue;
    ts = gst_value_get_structure (v);
    bv = gst_structure_get_value (ts, GP_TT_SLICES);
    if (bv == NULL || !G_VALUE_HOLDS (bv, G_TYPE_BYTES))
      continue;
    gst_structure_get_uint64 (ts, GP_TT_TID, &tid);
    gst_structure_get_uint64 (ts, GP_TT_LOST, &lost);
    th = gp_trace_add_thread (t, tid, gst_structure_get_string (ts,
            GP_TT_NAME), lost);
    data = g_bytes_get_data (g_value_get_boxed (bv), &len);
    g_array_append_vals (th->slices, data, len / sizeof (GpTraceSlice));
  }
  gst_structure_free (rec);
  gp_trace_free (s->trace);
  s->trace = t;
  s->trace_s = t->seconds;
  s->trace_slices = gp_trace_n_slices (t);
}

static gboolean
gp_capture_on_eos_timeout (gpointer data)
{
  GpCaptureRun *r = data;

  r->eos_timeout_id = 0;
  gp_aggregator_add_bus_event (r->agg, gp_capture_run_now (r), "stopped", "",
      "EOS did not reach the sinks in time; stopped without it");
  g_main_loop_quit (r->loop);
  return G_SOURCE_REMOVE;
}

/* Every object @it yields, each with a reference, in its order; @it is
 * freed. A resync starts the list over. */
static GList *
gp_capture_iterator_objects (GstIterator * it)
{
  GValue v = G_VALUE_INIT;
  GList *objects = NULL;
  gboolean done = FALSE;

  while (!done) {
    switch (gst_iterator_next (it, &v)) {
      case GST_ITERATOR_OK:
        objects = g_list_prepend (objects, g_value_dup_object (&v));
        g_value_reset (&v);
        break;
      case GST_ITERATOR_RESYNC:
        g_list_free_full (objects, gst_object_unref);
        objects = NULL;
        gst_iterator_resync (it);
        break;
      default:
        done = TRUE;
        break;
    }
  }
  g_value_unset (&v);
  gst_iterator_free (it);
  return g_list_reverse (objects);
}

/* EOS goes to each source, from a thread of its own.
 *
 * Not gst_element_send_event (pipeline): that holds the pipeline's state
 * lock while the event is delivered, and a source delivers EOS only after
 * taking its pad's stream lock, which its streaming thread holds for as
 * long as a push is blocked downstream. A sink still waiting for its
 * preroll (a slow first buffer) is blocked on a state change that needs
 * that very state lock: a deadlock. Per source, only the sources' own
 * locks are taken; and off the main loop, a source that cannot take EOS
 * yet leaves the EOS timeout and a second Ctrl-C working. */
static gpointer
gp_capture_eos_thread (gpointer data)
{
  GstElement *pipeline = data;
  GList *sources = gp_capture_iterator_objects (gst_bin_iterate_sources (GST_BIN
          (pipeline))), *l;

  /* (a bin among them passes it on to its own sources) */
  for (l = sources; l != NULL; l = l->next)
    gst_element_send_event (l->data, gst_event_new_eos ());
  if (sources == NULL)
    gst_element_send_event (pipeline, gst_event_new_eos ());
  g_list_free_full (sources, gst_object_unref);
  gst_object_unref (pipeline);
  return NULL;
}

static gboolean
gp_capture_push_flush_start (GstElement * element, GstPad * pad,
    gpointer user_data)
{
  gst_pad_push_event (pad, gst_event_new_flush_start ());
  return TRUE;
}

static void
gp_capture_unblock_source (const GValue * v, gpointer user_data)
{
  GstElement *e = g_value_get_object (v);

  if (!GST_IS_BIN (e) && GST_OBJECT_FLAG_IS_SET (e, GST_ELEMENT_FLAG_SOURCE))
    gst_element_foreach_src_pad (e, gp_capture_push_flush_start, NULL);
}

/* The stop that will not wait any longer (EOS timeout, second Ctrl-C) may
 * find the EOS thread inside a source's send_event, holding that source's
 * state lock while it waits for a streaming thread blocked downstream (a
 * sink waiting for its preroll, a full queue). The state change to NULL
 * needs that lock: first a flush from every source (flush events may come
 * from any thread) releases the blocked pushes, so the EOS thread and then
 * the state change go through. */
static void
gp_capture_unblock_streaming (GstElement * pipeline)
{
  GstIterator *it = gst_bin_iterate_recurse (GST_BIN (pipeline));

  while (gst_iterator_foreach (it, gp_capture_unblock_source, NULL) ==
      GST_ITERATOR_RESYNC)
    gst_iterator_resync (it);
  gst_iterator_free (it);
}

/* ------------------------------------------------------------------ */
/* state changes off the main thread                                   */

static void gp_capture_remove_source (guint * id);

/* A state change of the whole pipeline, run on a thread of its own: the
 * start to PLAYING and the stop to NULL may each block for as long as an
 * element does (a filesink opening a FIFO nobody reads, a sink blocked in
 * write (), a chain function asleep), and the main loop must still see
 * the duration, the signals and its own deadline. The job outlives the
 * run when its thread never comes back: it holds its own reference to
 * the pipeline, and reports to the run (on the main loop) only while the
 * run is still there (@run, cleared on the main thread when the run no
 * longer waits for it). */
typedef struct
{
  gint ref;
  GMutex lock;
  GpCaptureRun *run;
  GstElement *pipeline;
  GstState target;
  gboolean unblock;             /* to NULL: flush from the sources first */
  GThread *eos_thread;          /* to NULL: joined once the pipeline stopped */
  GstStateChangeReturn ret;
  gboolean done;
  void (*on_done) (GpCaptureRun * r, GstStateChangeReturn ret);
} GpCaptureJob;

static GpCaptureJob *
gp_capture_job_ref (GpCaptureJob * job)
{
  g_atomic_int_inc (&job->ref);
  return job;
}

static void
gp_capture_job_unref (gpointer data)
{
  GpCaptureJob *job = data;

  if (!g_atomic_int_dec_and_test (&job->ref))
    return;
  g_mutex_clear (&job->lock);
  if (job->pipeline)
    gst_object_unref (job->pipeline);
  g_free (job);
}

/* On the main loop: the job's thread came back. */
static gboolean
gp_capture_on_job_done (gpointer data)
{
  GpCaptureJob *job = data;
  GstStateChangeReturn ret;

  /* @run is only cleared on this thread; @ret is read under the lock it
   * was written under (the main context's wake-up orders them too, but no
   * race checker sees it) */
  g_mutex_lock (&job->lock);
  ret = job->ret;
  g_mutex_unlock (&job->lock);
  if (job->run != NULL)
    job->on_done (job->run, ret);
  return G_SOURCE_REMOVE;
}

static gpointer
gp_capture_job_thread (gpointer data)
{
  GpCaptureJob *job = data;
  GstStateChangeReturn ret;

  if (job->unblock)
    gp_capture_unblock_streaming (job->pipeline);
  ret = gst_element_set_state (job->pipeline, job->target);
  /* stopping the pipeline released whatever held the EOS back */
  if (job->eos_thread != NULL)
    g_thread_join (job->eos_thread);
  job->eos_thread = NULL;
  /* the job's reference goes now, not with the job: the report below may
   * wait in the main context until its next run, and a stopped pipeline
   * kept alive until then shares the next run's graph (its elements'
   * names then clash) */
  gst_object_unref (job->pipeline);
  job->pipeline = NULL;
  g_mutex_lock (&job->lock);
  job->ret = ret;
  job->done = TRUE;
  if (job->run != NULL)
    g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, gp_capture_on_job_done,
        gp_capture_job_ref (job), gp_capture_job_unref);
  g_mutex_unlock (&job->lock);
  gp_capture_job_unref (job);
  return NULL;
}

/* Starts the state change of @r's pipeline to @target on a thread of its
 * own; @on_done runs on the main loop when it returns. */
static GpCaptureJob *
gp_capture_job_start (GpCaptureRun * r, GstState target,
    void (*on_done) (GpCaptureRun * r, GstStateChangeReturn ret))
{
  GpCaptureJob *job = g_new0 (GpCaptureJob, 1);

  job->ref = 1;
  g_mutex_init (&job->lock);
  job->run = r;
  job->pipeline = gst_object_ref (r->pipeline);
  job->target = target;
  job->on_done = on_done;
  return job;
}

static void
gp_capture_job_go (GpCaptureJob * job)
{
  g_thread_unref (g_thread_new (job->target == GST_STATE_NULL ?
          "gstprof-stop" : "gstprof-start", gp_capture_job_thread,
          gp_capture_job_ref (job)));
}

/* Whether the job came back; the run no longer hears of it. */
static gboolean
gp_capture_job_finish (GpCaptureJob * job)
{
  gboolean done;

  g_mutex_lock (&job->lock);
  done = job->done;
  job->run = NULL;
  g_mutex_unlock (&job->lock);
  gp_capture_job_unref (job);
  return done;
}

static gboolean
gp_capture_on_start_grace (gpointer data)
{
  GpCaptureRun *r = data;

  r->start_grace_id = 0;
  if (!r->end_set)
    r->start_refused = TRUE;
  g_main_loop_quit (r->loop);
  return G_SOURCE_REMOVE;
}

/* The start to PLAYING came back. A refusal: the element that refused
 * posts its error before the call returns (the bus watch records it and
 * ends the run); a short grace covers one that posts it from its own
 * thread, and without any the run ends as refused. */
static void
gp_capture_on_started (GpCaptureRun * r, GstStateChangeReturn ret)
{
  /* a start that comes back while the run stops the pipeline was cut
   * short by the stop: no refusal */
  if (r->stopping)
    return;
  r->live = ret == GST_STATE_CHANGE_NO_PREROLL;
  if (ret == GST_STATE_CHANGE_FAILURE && !r->end_set && !r->start_grace_id)
    r->start_grace_id = g_timeout_add (GP_CAPTURE_START_GRACE_MS,
        gp_capture_on_start_grace, r);
}

static void
gp_capture_on_stopped (GpCaptureRun * r, GstStateChangeReturn ret)
{
  g_main_loop_quit (r->loop);
}

/* The CPU time of the whole process, in seconds (user + system). */
static gdouble
gp_capture_process_cpu_s (void)
{
  struct timespec ts;

  if (clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
    return 0;
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The stop's wait is over: unless it is working its way to the end
 * (GP_CAPTURE_STOP_WORKING_SHARE of a core since the last check), and not
 * in a hurry, and not past GP_CAPTURE_STOP_WORKING_MAX_MS. */
static gboolean
gp_capture_on_stop_deadline (gpointer data)
{
  GpCaptureRun *r = data;
  gdouble cpu = gp_capture_process_cpu_s ();
  gdouble waited_ms = (g_get_monotonic_time () - r->stop_began_us) / 1000.0;
  gdouble since_ms = r->stop_working ? GP_CAPTURE_STOP_CHECK_MS :
      GP_CAPTURE_TEARDOWN_MS;
  gboolean working = (cpu - r->stop_cpu_s) * 1000.0 >=
      GP_CAPTURE_STOP_WORKING_SHARE * since_ms;

  r->stop_deadline_id = 0;
  r->stop_cpu_s = cpu;
  if (!r->hurry && working && waited_ms + GP_CAPTURE_STOP_CHECK_MS <=
      GP_CAPTURE_STOP_WORKING_MAX_MS) {
    r->stop_working = TRUE;
    r->stop_deadline_id = g_timeout_add (GP_CAPTURE_STOP_CHECK_MS,
        gp_capture_on_stop_deadline, r);
    return G_SOURCE_REMOVE;
  }
  g_main_loop_quit (r->loop);
  return G_SOURCE_REMOVE;
}

/* What the session says of a stop that outlasted GP_CAPTURE_TEARDOWN_MS:
 * a "slow-stop" event when it ended, the "stuck" one when it did not. */
static void
gp_capture_say_stop (GpCaptureRun * r, gboolean stopped)
{
  gdouble took_s = (g_get_monotonic_time () - r->stop_began_us) / 1e6;
  gdouble cpu_s = gp_capture_process_cpu_s () - r->stop_cpu_at_begin_s;
  gchar *text;

  if (stopped && !r->stop_working)
    return;
  if (stopped)
    text = g_strdup_printf ("the pipeline took %.1f s to stop, working all "
        "along (%.1f s of CPU): an element finishing its work as it closes",
        took_s, cpu_s);
  else if (r->stop_working)
    text = g_strdup_printf ("the pipeline did not stop within %.1f s of "
        "being told to, busy all along (%.1f s of CPU: an element in a loop "
        "that does not end): left running, the session holds what was "
        "measured up to then", took_s, cpu_s);
  else
    text = g_strdup_printf ("the pipeline did not stop within %.2f s of "
        "being told to (%s): left running, the session holds what was "
        "measured up to then", took_s, r->hurry ? "the end was asked for at "
        "once" : "an element blocked, using no CPU");
  gp_aggregator_add_bus_event (r->agg, gp_capture_run_now (r),
      stopped ? GP_CAPTURE_SLOW_STOP_EVENT : GP_CAPTURE_STUCK_EVENT, "", text);
  g_free (text);
}

/* The pipeline to NULL, waited for GP_CAPTURE_TEARDOWN_MS at most
 * (GP_CAPTURE_HURRY_MS after a second Ctrl-C or a SIGTERM; a signal
 * during the wait ends it at once). FALSE: it did not stop in time and is
 * left behind, its threads where they are; the session holds what was
 * measured. Pushes blocked downstream of an EOS that never arrived (or of
 * a preroll that never completed) are released first by a flush. */
static gboolean
gp_capture_stop_pipeline (GpCaptureRun * r)
{
  GpCaptureJob *job = gp_capture_job_start (r, GST_STATE_NULL,
      gp_capture_on_stopped);
  gboolean stopped;

  job->unblock = (r->eos_sent && !r->eos_received) ||
      r->reached < GST_STATE_PLAYING;
  job->eos_thread = r->gp_capture_eos_thread;
  r->gp_capture_eos_thread = NULL;
  r->stopping = TRUE;
  r->stop_began_us = g_get_monotonic_time ();
  r->stop_cpu_s = r->stop_cpu_at_begin_s = gp_capture_process_cpu_s ();
  r->stop_working = FALSE;
  r->stop_deadline_id = g_timeout_add (r->hurry ? GP_CAPTURE_HURRY_MS :
      GP_CAPTURE_TEARDOWN_MS, gp_capture_on_stop_deadline, r);
  gp_capture_job_go (job);
  g_main_loop_run (r->loop);
  gp_capture_remove_source (&r->stop_deadline_id);
  r->stopping = FALSE;
  stopped = gp_capture_job_finish (job);
  gp_capture_say_stop (r, stopped);
  return stopped;
}

/* Ends the run the clean way: EOS from the sources, so every element
 * drains and the last buffers are measured; bounded, because a pipeline
 * that is stuck will never deliver it. */
static void
gp_capture_send_eos (GpCaptureRun * r)
{
  gdouble timeout_s = r->opts->eos_timeout_s > 0 ? r->opts->eos_timeout_s : 3.0;

  if (r->eos_sent)
    return;
  r->eos_sent = TRUE;
  /* paused for buffering: the sinks need PLAYING to finish the EOS */
  if (r->buffering) {
    r->buffering = FALSE;
    gst_element_set_state (r->pipeline, GST_STATE_PLAYING);
  }
  r->gp_capture_eos_thread = g_thread_new ("gstprof-eos", gp_capture_eos_thread,
      gst_object_ref (r->pipeline));
  r->eos_timeout_id = g_timeout_add ((guint) (timeout_s * 1000),
      gp_capture_on_eos_timeout, r);
}

/* A pipeline that never reached PLAYING cannot carry an EOS to its sinks
 * (they wait for their preroll): waiting for it would only add the EOS
 * timeout to the run. */
static gboolean
gp_capture_stop_if_never_played (GpCaptureRun * r)
{
  if (r->reached == GST_STATE_PLAYING)
    return FALSE;
  gp_aggregator_add_bus_event (r->agg, gp_capture_run_now (r), "stopped", "",
      "the pipeline never reached PLAYING; stopped without waiting for EOS");
  g_main_loop_quit (r->loop);
  return TRUE;
}

static gboolean
gp_capture_on_duration (gpointer data)
{
  GpCaptureRun *r = data;
  gchar *text;

  r->duration_id = 0;
  gp_capture_set_end (r, GP_CAPTURE_END_DURATION);
  r->stop_ts = gp_capture_run_now (r);
  text = g_strdup_printf ("--duration %.1f s reached: EOS sent",
      r->opts->duration_s);
  gp_aggregator_add_bus_event (r->agg, r->stop_ts, "duration", "", text);
  g_free (text);
  if (!gp_capture_stop_if_never_played (r))
    gp_capture_send_eos (r);
  return G_SOURCE_REMOVE;
}

/* Ctrl-C: EOS sent and waited for, as at the end of the duration. A
 * second Ctrl-C, or SIGTERM (a service manager, a script's kill): the
 * user does not want to wait for EOS, the pipeline is stopped at once;
 * and while the run waits for the pipeline to stop, any of them ends the
 * wait (the pipeline left behind). */
static gboolean
gp_capture_on_signal (GpCaptureRun * r, const gchar * name, gboolean at_once)
{
  gboolean first = ++r->n_interrupts == 1 && !r->stopping;
  gchar *text;

  if (first) {
    r->stop_ts = gp_capture_run_now (r);
    gp_capture_set_end (r, GP_CAPTURE_END_INTERRUPTED);
  }
  if (first && !at_once) {
    text = g_strdup_printf ("%s: EOS sent, stopping", name);
    gp_aggregator_add_bus_event (r->agg, r->stop_ts, "interrupt", "", text);
    g_free (text);
    if (!gp_capture_stop_if_never_played (r))
      gp_capture_send_eos (r);
    return G_SOURCE_CONTINUE;
  }
  /* at once: a second signal, a SIGTERM, or any during the stop's wait */
  text = g_strdup_printf ("%s: stopped at once%s", name, r->stopping ?
      ", without waiting for the pipeline to stop" : "");
  gp_aggregator_add_bus_event (r->agg, gp_capture_run_now (r), "interrupt",
      "", text);
  g_free (text);
  r->hurry = TRUE;
  g_main_loop_quit (r->loop);
  return G_SOURCE_CONTINUE;
}

static gboolean
gp_capture_on_sigint (gpointer data)
{
  return gp_capture_on_signal (data, "SIGINT", FALSE);
}

static gboolean
gp_capture_on_sigterm (gpointer data)
{
  return gp_capture_on_signal (data, "SIGTERM", TRUE);
}

void
gp_capture_stop (GpCaptureRun * r, const gchar * why)
{
  gp_capture_on_signal (r, why, FALSE);
}

void
gp_capture_mark (GpCaptureRun * r, const gchar * text)
{
  gp_aggregator_add_bus_event (r->agg, gp_capture_run_now (r), "mark", "",
      text);
}

static void
gp_capture_progress_clear (GpCaptureRun * r)
{
  if (r->progress_open) {
    fputs ("\n", stderr);
    r->progress_open = FALSE;
  }
}

static const gchar *gp_capture_end_name (GpCaptureEnd end);
static void gp_capture_fill_session (GpCaptureRun * r, GpSession * s,
    GDateTime * started, guint64 t_end);
static guint64 gp_capture_run_now (GpCaptureRun * r);

/* The session so far, as the end of the run writes it (rules not run). On
 * the main thread, the only one that writes the session. */
static void
gp_capture_so_far (GpCaptureRun * r)
{
  gp_capture_fill_session (r, r->session, r->started, gp_capture_run_now (r));
  gp_aggregator_finish (r->agg);
}

/* The session so far, saved atomically. Runs on the main thread, the only
 * one that writes the session (gp-aggregate.h), so no lock is needed. A
 * failed write is reported once and retried at the next checkpoint. */
static gboolean
gp_capture_on_checkpoint (gpointer data)
{
  GpCaptureRun *r = data;

  gp_capture_so_far (r);
  gp_capture_checkpoint_save (r->session, r->opts->checkpoint_path,
      &r->checkpoint_said, &r->progress_open);
  return G_SOURCE_CONTINUE;
}

void
gp_capture_checkpoint_save (GpSession * s, const gchar * path,
    gboolean * said, gboolean * progress_open)
{
  gchar *dir = g_path_get_dirname (path);
  GError *err = NULL;

  s->exit_code = -1;
  if (g_mkdir_with_parents (dir, 0755) != 0)
    g_set_error (&err, G_FILE_ERROR, g_file_error_from_errno (errno),
        "cannot make '%s': %s", dir, g_strerror (errno));
  else
    gp_session_save (s, path, &err);
  if (err != NULL && !*said) {
    if (*progress_open) {
      fputs ("\n", stderr);
      *progress_open = FALSE;
    }
    g_printerr ("gstprof: checkpoint not written (tried again every few "
        "seconds, and at the end): %s\n", err->message);
    *said = TRUE;
  }
  g_clear_error (&err);
  g_free (dir);
}

/* The live view's window: the session so far, as a checkpoint writes it. */
static gboolean
gp_capture_on_live (gpointer data)
{
  GpCaptureRun *r = data;

  gp_capture_so_far (r);
  /* the machine so far, lent while the sampler's thread waits */
  if (r->sampler) {
    gp_sampler_lock (r->sampler);
    r->session->machine = r->machine;
  }
  r->opts->live (r, r->session, r->opts->live_data);
  if (r->sampler) {
    r->session->machine = NULL;
    gp_sampler_unlock (r->sampler);
  }
  return G_SOURCE_CONTINUE;
}

static gboolean
gp_capture_on_progress (gpointer data)
{
  GpCaptureRun *r = data;
  gdouble t = (gp_capture_run_now (r) - r->t0) / 1e9;
  gchar *rates = gp_aggregator_describe_progress (r->agg, 1.0);

  r->progress_open |= gp_capture_progress_line (t, rates, r->tty);
  g_free (rates);
  return G_SOURCE_CONTINUE;
}

gboolean
gp_capture_progress_line (gdouble t_s, const gchar * rates, gboolean tty)
{
  /* on a terminal one line rewritten in place; in a log, one line each */
  if (tty)
    fprintf (stderr, "\r\033[Kgstprof: %.1f s  %s", t_s, rates);
  else
    fprintf (stderr, "gstprof: %.1f s  %s\n", t_s, rates);
  fflush (stderr);
  return tty;
}

/* The part of an error's debug string that helps a user: its last line
 * ("No such file "/x.mp4"", "streaming stopped, reason not-negotiated
 * (-4)"), after the source location and the element path before it. */
static gchar *
gp_capture_error_text (const GError * err, const gchar * debug)
{
  const gchar *msg = err && err->message ? err->message : "error";
  const gchar *nl;
  gchar *detail, *base, *text;

  if (debug == NULL || *debug == '\0')
    return g_strdup (msg);
  nl = strrchr (debug, '\n');
  detail = g_strstrip (g_strdup (nl ? nl + 1 : debug));
  /* a single line is "file(line): function (): /GstPipeline:...: detail" */
  if (!nl && strstr (detail, "): ") && strrchr (detail, ':')) {
    gchar *cut = g_strstrip (g_strdup (strrchr (detail, ':') + 1));

    g_free (detail);
    detail = cut;
  }
  base = g_strdup (msg);
  if (g_str_has_suffix (base, "."))
    base[strlen (base) - 1] = '\0';
  text = *detail && !strstr (msg, detail) ?
      g_strdup_printf ("%s: %s", base, detail) : g_strdup (msg);
  g_free (base);
  g_free (detail);
  return text;
}

static gboolean
gp_capture_caps_fails (GstPad * src, GstPad * sink, gchar ** offered,
    gchar ** accepted)
{
  GstCaps *have = gst_pad_get_current_caps (src);
  GstCaps *want = gst_pad_query_caps (sink, NULL);
  gboolean fails;

  if (have == NULL)
    have = gst_pad_query_caps (src, NULL);
  /* a pad that answers EMPTY once the stream failed says nothing */
  fails = have && want && !gst_caps_is_empty (have) &&
      !gst_caps_is_empty (want) && !gst_caps_can_intersect (have, want);
  if (fails) {
    *offered = gst_caps_to_string (have);
    *accepted = gst_caps_to_string (want);
  }
  if (have)
    gst_caps_unref (have);
  if (want)
    gst_caps_unref (want);
  return fails;
}

/* For "not-negotiated": the first link (in the order the pipeline's
 * elements are iterated) whose caps cannot meet, with both sides' caps.
 * Where the tracer saw the refusal itself (gp-aggregate-finish.c), its
 * account replaces this one. */
static void
gp_capture_negotiation_data (GstElement * pipeline, JsonObject * data)
{
  GList *elements =
      gp_capture_iterator_objects (gst_bin_iterate_recurse (GST_BIN
          (pipeline))), *el;
  gboolean found = FALSE;

  for (el = elements; el && !found; el = el->next) {
    GstElement *e = el->data;
    GList *pads = NULL, *l;

    GST_OBJECT_LOCK (e);
    for (l = e->srcpads; l; l = l->next)
      pads = g_list_prepend (pads, gst_object_ref (l->data));
    GST_OBJECT_UNLOCK (e);
    for (l = pads; l && !found && !GST_IS_BIN (e); l = l->next) {
      GstPad *peer = gst_pad_get_peer (l->data);
      gchar *offered = NULL, *accepted = NULL;

      if (peer && gp_capture_caps_fails (l->data, peer, &offered, &accepted)) {
        gchar *src = g_strdup_printf ("%s.%s", GST_OBJECT_NAME (e),
            GST_OBJECT_NAME (l->data));
        GstObject *pp = gst_pad_get_parent (peer);
        gchar *sink = g_strdup_printf ("%s.%s", pp ?
            GST_OBJECT_NAME (pp) : "", GST_OBJECT_NAME (peer));

        json_object_set_string_member (data, "link", src);
        json_object_set_string_member (data, "peer", sink);
        json_object_set_string_member (data, "caps", offered);
        json_object_set_string_member (data, "accepts", accepted);
        found = TRUE;
        g_free (src);
        g_free (sink);
        if (pp)
          gst_object_unref (pp);
      }
      g_free (offered);
      g_free (accepted);
      if (peer)
        gst_object_unref (peer);
    }
    g_list_free_full (pads, gst_object_unref);
  }
  g_list_free_full (elements, gst_object_unref);
}

static void
gp_capture_record_message (GpCaptureRun * r, GstMessage * msg,
    const gchar * type)
{
  GError *err = NULL;
  gchar *debug = NULL, *text;
  JsonObject *data = json_object_new ();

  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR)
    gst_message_parse_error (msg, &err, &debug);
  else
    gst_message_parse_warning (msg, &err, &debug);
  text = gp_capture_error_text (err, debug);
  if (debug)
    json_object_set_string_member (data, "debug", debug);
  /* a flow error: "streaming stopped, reason not-negotiated (-4)" */
  if (strstr (text, "not-negotiated")) {
    json_object_set_string_member (data, "reason", "not-negotiated");
    gp_capture_negotiation_data (r->pipeline, data);
  }
  gp_aggregator_add_bus_event_data (r->agg, gp_capture_run_now (r), type,
      GST_MESSAGE_SRC_NAME (msg) ? GST_MESSAGE_SRC_NAME (msg) : "", text,
      data);
  json_object_unref (data);
  g_free (text);
  g_clear_error (&err);
  g_free (debug);
}

static void
gp_capture_record_error (GpCaptureRun * r, GstMessage * msg)
{
  GError *err = NULL;
  gboolean generic;

  /* "state change failed and some element failed to post a proper error
   * message": GStreamer's own, after the element's proper one */
  gst_message_parse_error (msg, &err, NULL);
  generic = g_error_matches (err, GST_CORE_ERROR,
      GST_CORE_ERROR_STATE_CHANGE);
  g_clear_error (&err);
  if (!(generic && r->end_set && r->end == GP_CAPTURE_END_ERROR))
    gp_capture_record_message (r, msg, "error");
  gp_capture_set_end (r, GP_CAPTURE_END_ERROR);
}

/* Whether @r's pipeline is live, as gst-launch-1.0 tells it: its start
 * returned NO_PREROLL (a udpsrc or a v4l2src has no is-live property);
 * before that return has reached the main loop, its state now says so,
 * or a source's is-live property. Not the latency query: a sink that
 * syncs answers it live in any pipeline. */
static gboolean
gp_capture_is_live (GpCaptureRun * r)
{
  GList *all, *l;
  gboolean live = r->live;

  if (live || gst_element_get_state (r->pipeline, NULL, NULL, 0) ==
      GST_STATE_CHANGE_NO_PREROLL)
    return TRUE;
  all = gp_capture_iterator_objects (gst_bin_iterate_recurse (GST_BIN
          (r->pipeline)));
  for (l = all; l && !live; l = l->next)
    if (GST_OBJECT_FLAG_IS_SET (l->data, GST_ELEMENT_FLAG_SOURCE) &&
        g_object_class_find_property (G_OBJECT_GET_CLASS (l->data),
            "is-live"))
      g_object_get (l->data, "is-live", &live, NULL);
  g_list_free_full (all, gst_object_unref);
  return live;
}

/* A buffering element (queue2, a multiqueue with use-buffering: playbin's
 * and uridecodebin's over a network) is handled as gst-launch-1.0 handles
 * it: in a pipeline that is not live, PAUSED while its level is below
 * full and PLAYING again once it is full, so playback waits for data as
 * the user's own gst-launch would instead of running dry. Not once the
 * run is stopping. */
static void
gp_capture_on_buffering (GpCaptureRun * r, GstMessage * msg)
{
  gint pct;

  if (r->eos_sent || r->stopping)
    return;
  gst_message_parse_buffering (msg, &pct);
  if (pct < 100 && !r->buffering && !gp_capture_is_live (r)) {
    r->buffering = TRUE;
    gst_element_set_state (r->pipeline, GST_STATE_PAUSED);
  } else if (pct >= 100 && r->buffering) {
    r->buffering = FALSE;
    gst_element_set_state (r->pipeline, GST_STATE_PLAYING);
  }
}

static gboolean
gp_capture_on_bus (GstBus * bus, GstMessage * msg, gpointer data)
{
  GpCaptureRun *r = data;

  switch (GST_MESSAGE_TYPE (msg)) {
    case GST_MESSAGE_ERROR:
      gp_capture_record_error (r, msg);
      g_main_loop_quit (r->loop);
      break;
    case GST_MESSAGE_WARNING:
      gp_capture_record_message (r, msg, "warning");
      break;
    case GST_MESSAGE_BUFFERING:
      gp_capture_on_buffering (r, msg);
      break;
    case GST_MESSAGE_EOS:
      r->eos_received = TRUE;
      r->eos_ts = gp_capture_run_now (r);
      gp_capture_set_end (r, GP_CAPTURE_END_EOS);
      g_main_loop_quit (r->loop);
      break;
    case GST_MESSAGE_STATE_CHANGED:
      if (GST_MESSAGE_SRC (msg) == GST_OBJECT (r->pipeline)) {
        GstState old_state, new_state;

        gst_message_parse_state_changed (msg, &old_state, &new_state, NULL);
        r->reached = MAX (r->reached, new_state);
        /* properties and caps are read at PLAYING, as the user's pipeline
         * really runs */
        if (new_state == GST_STATE_PLAYING && !r->graph_taken) {
          r->graph_taken = TRUE;
          gp_capture_take_graph (r);
        }
      }
      break;
    default:
      break;
  }
  return G_SOURCE_CONTINUE;
}

/* The window the tracer really uses: its parameters were fixed when
 * gst_init created it, and a later run in the same process (another
 * gp_capture_run, a test) may have asked for another. */
static guint
gp_capture_tracer_window_ms (GstTracer * tracer, const GpCaptureOptions * opts)
{
  guint window = 0;

  /* the tracer's own property: the window it measures with, whichever way
   * GST_TRACERS gave it */
  if (tracer != NULL && g_object_class_find_property (G_OBJECT_GET_CLASS
          (tracer), "window") != NULL)
    g_object_get (tracer, "window", &window, NULL);
  if (window == 0)
    window = opts->window_ms ? MAX (opts->window_ms, 10) : 250;
  return window;
}

static void
gp_capture_replace_session_str (gchar ** dst, const gchar * value)
{
  g_free (*dst);
  *dst = g_strdup (value);
}

static void
gp_capture_fill_session (GpCaptureRun * r, GpSession * s, GDateTime * started,
    guint64 t_end)
{
  gchar *str;

  gp_capture_replace_session_str (&s->mode, "run");
  gp_capture_replace_session_str (&s->launch, r->opts->launch);
  str = g_date_time_format (started, "%Y-%m-%dT%H:%M:%SZ");
  gp_capture_replace_session_str (&s->started, str);
  g_free (str);
  s->duration_s = t_end > r->t0 ? (t_end - r->t0) / 1e9 : 0.0;
  g_free (s->gstreamer);
  s->gstreamer = gp_capture_gst_version ();
  g_free (s->platform);
  s->platform = gp_platform_detect (NULL);
  s->window_s = gp_capture_tracer_window_ms (r->tracer, r->opts) / 1000.0;
  gp_capture_replace_session_str (&s->reached,
      gst_element_state_get_name (r->reached));
  gp_capture_replace_session_str (&s->end,
      r->end_set ? gp_capture_end_name (r->end) : NULL);
  s->stop_s = r->stop_ts > r->t0 ? (r->stop_ts - r->t0) / 1e9 : -1;
  s->drain_s = r->stop_ts && r->eos_ts > r->stop_ts ?
      (r->eos_ts - r->stop_ts) / 1e9 : -1;
  g_ptr_array_set_size (s->preroll, 0);
  if (r->preroll) {
    guint i;

    for (i = 0; i < r->preroll->len; i++) {
      GpPrerollSink *p = g_ptr_array_index (r->preroll, i);

      g_ptr_array_add (s->preroll, gp_preroll_sink_new (p->name, p->state,
              p->pending, p->prerolled));
    }
  }
}

static const gchar *
gp_capture_end_name (GpCaptureEnd end)
{
  switch (end) {
    case GP_CAPTURE_END_EOS:
      return "eos";
    case GP_CAPTURE_END_DURATION:
      return "duration";
    case GP_CAPTURE_END_INTERRUPTED:
      return "interrupt";
    case GP_CAPTURE_END_ERROR:
      return "error";
  }
  return NULL;
}

/* The sinks of a pipeline that never reached PLAYING, and whether each
 * prerolled: one that got its first buffer is in PAUSED and holds it, one
 * still going to PAUSED never got one. */
static GPtrArray *
gp_capture_collect_preroll (GstElement * pipeline)
{
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gp_preroll_sink_free);
  GList *sinks = gp_capture_iterator_objects (gst_bin_iterate_sinks (GST_BIN
          (pipeline))), *l;

  for (l = sinks; l; l = l->next) {
    GstElement *e = l->data;

    if (GST_IS_BIN (e)) {
      /* a sink bin (autovideosink, a user's bin): its own sinks */
      GPtrArray *inner = gp_capture_collect_preroll (e);

      while (inner->len > 0)
        g_ptr_array_add (out, g_ptr_array_steal_index (inner, 0));
      g_ptr_array_unref (inner);
    } else {
      GstState state = GST_STATE_VOID_PENDING, pending = state;

      gst_element_get_state (e, &state, &pending, 0);
      g_ptr_array_add (out, gp_preroll_sink_new (GST_OBJECT_NAME (e),
              gst_element_state_get_name (state),
              gst_element_state_get_name (pending),
              state >= GST_STATE_PAUSED));
    }
  }
  g_list_free_full (sinks, gst_object_unref);
  return out;
}

static void
gp_capture_remove_source (guint * id)
{
  if (*id != 0) {
    g_source_remove (*id);
    *id = 0;
  }
}

/* The machine's sampler, on the session's clock: t = 0 is r->t0 (tracer
 * time) + the offset to the monotonic clock, which g_get_monotonic_time ()
 * reads too. A sampler that cannot start leaves the run unsampled, said
 * on stderr. */
static GpSampler *
gp_capture_start_sampler (GpCaptureRun * r)
{
  GpSamplerOptions so;
  GError *err = NULL;
  GpSampler *sampler;

  gp_sampler_options_init (&so);
  so.window_ms = gp_capture_tracer_window_ms (r->tracer, r->opts);
  so.start_us = (gint64) ((r->t0 + r->clock_offset) / 1000);
  so.pid = getpid ();
  r->machine = gp_machine_new ();
  sampler = gp_sampler_start (r->machine, &so, &err);
  if (sampler == NULL) {
    g_printerr ("gstprof: the machine is not sampled: %s\n", err->message);
    g_clear_error (&err);
    gp_machine_free (r->machine);
    r->machine = NULL;
  }
  return sampler;
}

/* Stops the sampler (its children reaped) and hands its machine to
 * @session. */
static void
gp_capture_stop_sampler (GpCaptureRun * r, GpSession * session)
{
  if (r->sampler == NULL)
    return;
  gp_sampler_stop (r->sampler);
  r->sampler = NULL;
  gp_machine_free (session->machine);
  session->machine = r->machine;
  r->machine = NULL;
}

GpSession *
gp_capture_run (const GpCaptureOptions * opts, GpCaptureEnd * end,
    GError ** error)
{
  GpCaptureRun r;
  GpWindowSink *sink;
  GpSession *session;
  GstElement *parsed;
  GError *perr = NULL;
  GstBus *bus;
  GDateTime *started;
  gulong window_handler;
  GpCaptureJob *start;

  g_return_val_if_fail (opts != NULL, NULL);
  g_return_val_if_fail (opts->launch != NULL, NULL);

  if (!gst_is_initialized ()) {
    if (!gp_capture_prepare_env (opts, error))
      return NULL;
    if (!gst_init_check (NULL, NULL, error))
      return NULL;
  }

  parsed = gst_parse_launch_full (opts->launch, NULL,
      GST_PARSE_FLAG_FATAL_ERRORS, &perr);
  if (parsed == NULL || perr != NULL) {
    /* gst's message names the element or the token it could not use */
    g_set_error (error, GP_CAPTURE_ERROR, GP_CAPTURE_ERROR_LAUNCH,
        "bad launch string: %s", perr ? perr->message : "nothing to run");
    g_clear_error (&perr);
    if (parsed)
      gst_object_unref (parsed);
    return NULL;
  }
  if (!GST_IS_PIPELINE (parsed)) {
    /* a launch string of a single element parses to that element */
    GstElement *pipeline = gst_pipeline_new (NULL);

    gst_bin_add (GST_BIN (pipeline), parsed);
    parsed = pipeline;
  }

  memset (&r, 0, sizeof (r));
  r.opts = opts;
  r.reached = GST_STATE_NULL;
  r.pipeline = parsed;
  r.tracer = gp_capture_find_tracer ();
  if (r.tracer == NULL) {
    gp_capture_set_tracer_error (error);
    gst_object_unref (r.pipeline);
    return NULL;
  }

  session = gp_session_new ();
  started = g_date_time_new_now_utc ();
  r.clock_offset = gp_capture_tracer_clock_offset (r.tracer);
  r.t0 = gp_capture_run_now (&r);
  r.agg = gp_aggregator_new (session, r.t0);
  if (opts->machine)
    r.sampler = gp_capture_start_sampler (&r);
  gp_aggregator_watch_bus (r.agg);
  r.loop = g_main_loop_new (NULL, FALSE);
  r.tty = isatty (STDERR_FILENO);

  sink = g_new0 (GpWindowSink, 1);
  g_mutex_init (&sink->lock);
  sink->agg = r.agg;
  window_handler = g_signal_connect_data (r.tracer, "window",
      G_CALLBACK (gp_capture_on_window), sink, gp_capture_window_sink_free, 0);

  bus = gst_element_get_bus (r.pipeline);
  r.bus_watch_id = gst_bus_add_watch (bus, gp_capture_on_bus, &r);
  r.sigint_id = g_unix_signal_add (SIGINT, gp_capture_on_sigint, &r);
  r.sigterm_id = g_unix_signal_add (SIGTERM, gp_capture_on_sigterm, &r);
  if (opts->duration_s > 0)
    r.duration_id = g_timeout_add ((guint) (opts->duration_s * 1000),
        gp_capture_on_duration, &r);
  if (opts->progress)
    r.progress_id = g_timeout_add (1000, gp_capture_on_progress, &r);
  r.session = session;
  r.started = started;
  if (opts->checkpoint_path && opts->checkpoint_s > 0)
    r.checkpoint_id = g_timeout_add ((guint) (opts->checkpoint_s * 1000),
        gp_capture_on_checkpoint, &r);
  if (opts->live)
    r.live_id = g_timeout_add (opts->window_ms ? opts->window_ms : 250,
        gp_capture_on_live, &r);

  /* off the main thread: a start that blocks (a FIFO's open ()) still
   * ends with the duration or a signal */
  start = gp_capture_job_start (&r, GST_STATE_PLAYING, gp_capture_on_started);
  gp_capture_job_go (start);
  g_main_loop_run (r.loop);

  gp_capture_remove_source (&r.duration_id);
  gp_capture_remove_source (&r.eos_timeout_id);
  gp_capture_remove_source (&r.progress_id);
  gp_capture_remove_source (&r.checkpoint_id);
  gp_capture_remove_source (&r.live_id);
  gp_capture_remove_source (&r.start_grace_id);
  gp_capture_remove_source (&r.bus_watch_id);
  gp_capture_progress_clear (&r);
  if (r.start_refused)
    g_set_error (error, GP_CAPTURE_ERROR, GP_CAPTURE_ERROR_STATE,
        "the pipeline would not start (state change to PLAYING failed "
        "without an error message)");

  if (!r.start_refused) {
    guint64 t_end;

    /* pads added while PLAYING (demuxers, decodebin) are in this one */
    gp_capture_take_graph (&r);
    g_signal_emit_by_name (r.tracer, "flush");
    t_end = gp_capture_run_now (&r);
    gp_capture_stop_sampler (&r, session);

    g_mutex_lock (&sink->lock);
    sink->agg = NULL;
    g_mutex_unlock (&sink->lock);
    g_signal_handler_disconnect (r.tracer, window_handler);
    if (r.reached < GST_STATE_PLAYING)
      r.preroll = gp_capture_collect_preroll (r.pipeline);
    /* bounded: a pipeline that will not stop is left behind */
    if (gp_capture_stop_pipeline (&r))
      gp_capture_take_trace (&r, session);      /* no push on its way */

    gp_capture_fill_session (&r, session, started, t_end);
    gp_aggregator_finish (r.agg);
    if (end)
      *end = r.end_set ? r.end : GP_CAPTURE_END_INTERRUPTED;
  } else {
    g_mutex_lock (&sink->lock);
    sink->agg = NULL;
    g_mutex_unlock (&sink->lock);
    g_signal_handler_disconnect (r.tracer, window_handler);
    gp_capture_stop_pipeline (&r);
    gp_capture_stop_sampler (&r, session);
    gp_session_free (session);
    session = NULL;
  }
  gp_capture_job_finish (start);
  gp_capture_remove_source (&r.sigint_id);
  gp_capture_remove_source (&r.sigterm_id);

  gp_aggregator_free (r.agg);
  if (r.preroll)
    g_ptr_array_unref (r.preroll);
  g_main_loop_unref (r.loop);
  gst_object_unref (bus);
  gst_object_unref (r.pipeline);
  gst_object_unref (r.tracer);
  g_date_time_unref (started);
  return session;
}

GpSession *
gp_capture_error_session (const gchar * launch, const gchar * message)
{
  GpSession *s = gp_session_new ();
  GDateTime *now = g_date_time_new_now_utc ();

  g_free (s->mode);
  s->mode = g_strdup ("run");
  g_free (s->launch);
  s->launch = g_strdup (launch);
  g_free (s->started);
  s->started = g_date_time_format (now, "%Y-%m-%dT%H:%M:%SZ");
  g_free (s->gstreamer);
  s->gstreamer = gp_capture_gst_version ();
  g_free (s->platform);
  s->platform = gp_platform_detect (NULL);
  gp_session_add_event (s, 0.0, "error", "", message);
  g_date_time_unref (now);
  return s;
}
