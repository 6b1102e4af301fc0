/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-capture.h: profile a launch string in-process. The tracer is loaded
 * through GST_PLUGIN_PATH + GST_TRACERS (so gp_capture_prepare_env() must run
 * before gst_init()), its windows are folded into a GpSession by the
 * aggregator (gp-aggregate.h), and the run ends on EOS, at the end of the
 * duration, on Ctrl-C (SIGINT: EOS is sent, then a bounded wait; a second
 * one or SIGTERM: at once), or on an error from the pipeline. Every stop
 * is bounded whatever the pipeline does: the state changes run off the
 * main thread, and a pipeline that does not stop in time is left behind
 * (the session then has a GP_CAPTURE_STUCK_EVENT).
 *
 * The room, src/capture: the runs and what folds their records into a
 * session.
 * - gp-capture: the in-process run (pipeline, bus, EOS on duration or
 *   Ctrl-C, bounded wait, the highest state reached, which sinks prerolled,
 *   errors with their detail); with `machine` the run's sampler
 *   (telemetry/gp-sampler) started at the session's t = 0 and stopped at its
 *   end, its machine the session's; the session of a run that failed before
 *   it measured (gp_capture_error_session); the progress line run and wrap
 *   print (gp-capture-private.h);
 * - gp-wrap (gp-wrap.h): `gstprof wrap`'s supervision, gp_wrap_run: the
 *   tracer's environment (gp_capture_tracer_environ), the spawn, a Unix
 *   socket in a private folder that every process of the program connects
 *   to, each stream read by gp-records as it arrives, the progress line,
 *   the signals (docs/wrap.md), the machine sampled from the spawn on the
 *   program's PID, its times moved to the session's t = 0 when the
 *   program's tracer header came; it returns a session per process for the
 *   CLI to report;
 * - the aggregator (gp-aggregate.h: tracer windows into a session;
 *   gp-aggregate.c takes the records in (the public entry points),
 *   gp-aggregate-records.c reads the tracer's records field by field
 *   (core/gp-record.h), gp-aggregate-series.c keeps the bounded series (old
 *   neighbours merged pairwise) and hands each entry to the session's
 *   series builder, gp-aggregate-finish.c writes the session: steady-state
 *   rates, summaries, paths, events merged from the bus and the tracer, the
 *   progress line; gp-aggregate-private.h holds the state the four share); a
 *   top-level pipeline the program let go keeps its section of the graph
 *   (gp_agg_graph_keep_gone);
 * - gp-records: the records the tracer writes by itself read back into the
 *   aggregator: a file, or line by line as a socket's bytes arrive
 *   (GpRecordsReader; docs/records.md).
 *
 * May depend on: core, telemetry (the samplers), GStreamer.
 */
#ifndef __GP_CAPTURE_H__
#define __GP_CAPTURE_H__

#include <gst/gst.h>
#include "core/gp-session.h"

G_BEGIN_DECLS

typedef struct _GpCaptureRun GpCaptureRun;

typedef struct
{
  const gchar *launch;          /* gst-launch syntax */
  gdouble duration_s;           /* <= 0: until EOS, error or Ctrl-C */
  guint window_ms;              /* tracer window, default 250 */
  gboolean cpu;                 /* per-element thread CPU time */
  gdouble eos_timeout_s;        /* wait for EOS after it was sent, default 3 */
  gboolean progress;            /* one status line on stderr per second */
  /* While the pipeline runs, save the session so far to this path every
   * checkpoint_s seconds (atomically; rules not run, exit_code -1), so that
   * a capture killed outright (SIGKILL, a crashing element) still leaves a
   * valid session. NULL: no checkpoints. The folder is created when the
   * first checkpoint is written, never for a launch string that fails. */
  const gchar *checkpoint_path;
  gdouble checkpoint_s;
  /* The tracer's `out` folder: it writes its records there itself (a
   * wrapped program's); passed in GP_TRACER_OUT_ENV, beside GST_TRACERS
   * (gp-record.h), so any path travels. NULL: none. */
  const gchar *records_dir;
  /* The tracer's `socket`: it streams its records to this Unix socket as
   * windows close (gstprof wrap listens on it); with records_dir too, the
   * file is written where the socket cannot be reached; passed in
   * GP_TRACER_SOCKET_ENV. NULL: none. */
  const gchar *records_socket;
  /* Seconds of pushes the tracer keeps per streaming thread (its `trace`
   * parameter, at most GP_TRACE_MAX_S); at the end of the run they are
   * collected into the session's trace (GpSession.trace), for the caller
   * to save beside session.json. 0: off. */
  guint trace_s;
  /* Sample the machine under the pipeline while it runs (CPU per core and
   * per thread of this process, memory, thermal zones, clocks, rails,
   * tegrastats and nvidia-smi where present: telemetry/gp-sampler.h) into
   * the session's machine, one sample a window. FALSE by default; `gstprof
   * run` turns it on unless --no-machine. */
  gboolean machine;
  /* A live view (--serve): called on the main thread once every window_ms
   * with the session so far (its summary and series as the end of the run
   * writes them, rules not run; the caller must not keep it), and @run,
   * which gp_capture_stop () and gp_capture_mark () take until the run
   * returns. NULL: none. */
  void (*live) (GpCaptureRun * run, GpSession * so_far, gpointer data);
  gpointer live_data;
} GpCaptureOptions;

typedef enum
{
  GP_CAPTURE_END_EOS,           /* the pipeline ended on its own */
  GP_CAPTURE_END_DURATION,      /* --duration reached */
  GP_CAPTURE_END_INTERRUPTED,   /* Ctrl-C / SIGTERM */
  GP_CAPTURE_END_ERROR,         /* the pipeline posted an error */
} GpCaptureEnd;

/* The event type of a run whose pipeline did not stop when told to (an
 * element blocked in a system call or stuck in its chain, or working past
 * GP_CAPTURE_STOP_WORKING_MAX_MS, gp-capture.c): the session
 * holds what was measured up to the stop, the pipeline was left running. */
#define GP_CAPTURE_STUCK_EVENT "stuck"
/* The event of a stop that outlasted the usual bound, working all along,
 * and ended. */
#define GP_CAPTURE_SLOW_STOP_EVENT "slow-stop"

#define GP_CAPTURE_ERROR (gp_capture_error_quark ())
GQuark gp_capture_error_quark (void);
typedef enum
{
  GP_CAPTURE_ERROR_LAUNCH,      /* bad launch string or unknown element */
  GP_CAPTURE_ERROR_TRACER,      /* the gstprof tracer could not be loaded */
  GP_CAPTURE_ERROR_STATE,       /* the pipeline would not start */
} GpCaptureError;

void gp_capture_options_init (GpCaptureOptions * opts);

/* session.gstreamer: the running release as "1.22.0" (the verdict says
 * "GStreamer 1.22.0"; gst_version_string () has the word already). */
gchar *gp_capture_gst_version (void);

/* The environment of a child process whose GStreamer loads the tracer:
 * @envp (NULL: this process's) with the tracer's folder first in
 * GST_PLUGIN_PATH (or GST_PLUGIN_PATH_1_0 where that is set) and gstprof
 * with @opts' parameters added to the GST_TRACERS already there (any other
 * tracer kept, an earlier gstprof entry replaced), and @opts' records
 * folder and socket in GP_TRACER_OUT_ENV and GP_TRACER_SOCKET_ENV (any
 * earlier ones removed). A new array. */
gchar **gp_capture_tracer_environ (gchar ** envp,
    const GpCaptureOptions * opts);

/* Sets GST_PLUGIN_PATH and GST_TRACERS for the tracer; call before gst_init. */
gboolean gp_capture_prepare_env (const GpCaptureOptions * opts,
    GError ** error);

/* Runs the pipeline. Returns the session (rules not yet run) with @end set,
 * or NULL with @error when nothing could be run: a bad launch string or an
 * unknown element (GP_CAPTURE_ERROR_LAUNCH, gst's one-line message naming
 * it), the tracer not loaded (GP_CAPTURE_ERROR_TRACER, naming where the
 * plugin was looked for), or a start refused without any error message
 * (GP_CAPTURE_ERROR_STATE). A pipeline that fails with an error message,
 * even while starting (a missing file), gives a complete session with
 * @end = GP_CAPTURE_END_ERROR and the error among its events; so does a run
 * stopped by Ctrl-C (an "interrupt" event), and one whose pipeline would
 * not stop (a GP_CAPTURE_STUCK_EVENT; its threads are left where they
 * are, the pipeline is not freed). Times in the session are
 * seconds from the start of the run, on the tracer's clock.
 * If GStreamer is not initialised yet, prepares the environment and
 * initialises it. */
GpSession *gp_capture_run (const GpCaptureOptions * opts, GpCaptureEnd * end,
    GError ** error);

/* From the live view (GpCaptureOptions.live), on the main thread: stop the
 * run as Ctrl-C does (EOS, then a bounded wait), with a "stop" event
 * saying @why; a second call stops at once. */
void gp_capture_stop (GpCaptureRun * run, const gchar * why);
/* A "mark" event with @text at this moment of the run. */
void gp_capture_mark (GpCaptureRun * run, const gchar * text);

/* The session of a launch string that parsed but would not start without
 * any error message (gp_capture_run's GP_CAPTURE_ERROR_STATE), enough to
 * say what happened: mode "run", @launch, the start time, GStreamer's
 * version, the platform, and @message as its one "error" event. */
GpSession *gp_capture_error_session (const gchar * launch,
    const gchar * message);

G_END_DECLS

#endif /* __GP_CAPTURE_H__ */
