/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-wrap.h: profile any GStreamer program as it is (`gstprof wrap`): the
 * program runs with the tracer loaded through its environment, its
 * records stream to a private socket, and when it ends they become its
 * session, beside one for every other process it started that ran
 * GStreamer too. Beside gp_capture_run (gp-capture.h), which runs a
 * launch string in-process.
 *
 * The supervision: Ctrl-C (SIGINT), SIGTERM and the duration stop the
 * program alike: SIGINT, then SIGTERM, then SIGKILL, each after
 * GP_WRAP_GRACE_S; a Ctrl-C on the terminal has already reached a program
 * in this process group (the terminal sends it to the whole foreground
 * group), so no second one is sent; a SIGINT from kill (2) is forwarded.
 * A program that dies by a signal of its own (a crash, an OOM kill) still
 * leaves every window up to its last one. The program dies with gstprof
 * (PR_SET_PDEATHSIG); with a checkpoint path its session so far is saved
 * every GP_WRAP_CHECKPOINT_S, so a gstprof killed outright leaves a valid
 * one; the private folders of wraps that died are removed at the next
 * start (docs/wrap.md).
 */
#ifndef __GP_WRAP_H__
#define __GP_WRAP_H__

#include <glib.h>

#include "core/gp-session.h"

G_BEGIN_DECLS

/* How long the program has after SIGINT before SIGTERM, and after that
 * before SIGKILL: gst-launch-1.0 -e drains to EOS within a few seconds. */
#define GP_WRAP_GRACE_S 5
/* The checkpoints' period: run's (gp-capture.h). */
#define GP_WRAP_CHECKPOINT_S 2

typedef struct _GpWrap GpWrap;

typedef struct
{
  gchar **argv;                 /* the program and its arguments (PATH
                                 * searched) */
  gdouble duration_s;           /* > 0: stopped after this long; 0: until
                                 * it exits */
  guint window_ms;              /* the tracer's window, default 250 */
  gboolean cpu;                 /* per-element thread CPU time */
  gboolean progress;            /* the live line on stderr, once a second,
                                 * when stderr is a terminal */
  gboolean machine;             /* sample the machine from the spawn, the
                                 * program's threads and RSS with it; TRUE
                                 * by default */
  const gchar *checkpoint_path;  /* while it runs, the program's session so
                                 * far saved here every GP_WRAP_CHECKPOINT_S
                                 * (atomically, exit_code -1, no findings),
                                 * so that a wrap killed outright leaves a
                                 * valid session; NULL: none */
  gboolean saved_apart;         /* the caller saves each other process's
                                 * session as session-PID.json: the
                                 * program's session says so */
  /* A live view (--serve): called on the main thread once every
   * window_ms with the program's session so far (as a checkpoint saves
   * it; the caller must not keep it; NULL until a process sent its
   * header), and @w, which gp_wrap_stop () and gp_wrap_mark () take until
   * the run returns. NULL: none. */
  void (*live) (GpWrap * w, GpSession * so_far, gpointer data);
  gpointer live_data;
} GpWrapOptions;

/* What gp_wrap_run gives; the caller runs the rules on the sessions. */
typedef struct
{
  GpSession *session;           /* the program's, or that of the first
                                 * process it started that ran a pipeline
                                 * (a shell script's), noted so; rules not
                                 * run */
  GPtrArray *others;            /* GpSession*: every other process that
                                 * streamed records, rules not run */
  GArray *pids;                 /* guint: the pid of each of @others */
  gboolean failed;              /* the program failed on its own: a
                                 * non-zero exit or a signal it did not
                                 * get from gstprof */
} GpWrapResult;

#define GP_WRAP_ERROR (gp_wrap_error_quark ())
GQuark gp_wrap_error_quark (void);
typedef enum
{
  GP_WRAP_ERROR_SETUP,          /* GStreamer, the private folder */
  GP_WRAP_ERROR_SPAWN,          /* the program could not be started */
  GP_WRAP_ERROR_NO_PIPELINE,    /* it ran, but no GStreamer pipeline in it
                                 * sent records (the message says how it
                                 * ended) */
  GP_WRAP_ERROR_RECORDS,        /* its records file could not be read */
} GpWrapError;

void gp_wrap_options_init (GpWrapOptions * opts);

/* Runs @opts->argv to its end (and its processes' streams to theirs),
 * supervised as above, and fills @result. FALSE with @error when the
 * program could not be run or left no session (@result then empty). The
 * machine, when sampled, is in the program's session from the moment its
 * tracer started. Initialises GStreamer (the records are GstStructures)
 * and handles SIGINT and SIGTERM while it runs. */
gboolean gp_wrap_run (const GpWrapOptions * opts, GpWrapResult * result,
    GError ** error);

/* From the live view, on the main thread: stop the program as a SIGINT to
 * gstprof does (SIGINT, then SIGTERM and SIGKILL after their grace), an
 * "interrupt" event with @why in its session (once it sent a window). */
void gp_wrap_stop (GpWrap * w, const gchar * why);
/* A "mark" event with @text in the program's session, at the end of its
 * newest window (the tracer's clock is the program's: gstprof reads it
 * only in the windows); FALSE before a process sent its header. */
gboolean gp_wrap_mark (GpWrap * w, const gchar * text);

/* Frees what @result holds and empties it. */
void gp_wrap_result_clear (GpWrapResult * result);

G_END_DECLS

#endif /* __GP_WRAP_H__ */
