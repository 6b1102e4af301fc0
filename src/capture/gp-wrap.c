/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-wrap.c: gp_wrap_run, a GStreamer program run unchanged with the
 * tracer loaded through its environment (GST_PLUGIN_PATH, and gstprof
 * added to whatever GST_TRACERS it already had), supervised to its end.
 * The tracer streams its records, window by window, to a Unix socket in a
 * folder private to this user; each process that loads it (the program,
 * and any GStreamer program it starts) connects on its own. The records go
 * into an aggregator per process as they arrive (the live progress line
 * `run` prints), and when the program ends they become the sessions
 * (gp-records.c reads them all, line by line). A process that cannot
 * reach the socket writes its records file in the same folder instead,
 * read at the end. The signal rules: gp-wrap.h.
 */
/* accept4 () */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include "gp-wrap.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib-unix.h>
#include <glib/gstdio.h>
#include <gst/gst.h>

#include "gp-capture.h"
#include "gp-capture-private.h"
#include "gp-records.h"
#include "core/gp-record.h"
#include "telemetry/gp-sampler.h"

/* After the program ended, how long its processes' streams may take to
 * close (a child it left running keeps its own open). */
#define GP_WRAP_DRAIN_MS 2000
/* accept () without a descriptor to give (EMFILE, ENFILE): the listening
 * socket stays readable, so it is left alone this long instead of woken
 * again at once; the connection waits in the backlog meanwhile. */
#define GP_WRAP_ACCEPT_PAUSE_MS 250
/* A process's command line in a note, at most: the note stays about one
 * line of a terminal (longer ones end in "..."). */
#define GP_WRAP_PROGRAM_TEXT_MAX 72
/* The progress line's period: run's, a rate a person can read. */
#define GP_WRAP_PROGRESS_MS 1000
/* The socket's file in the private folder. */
#define GP_WRAP_SOCKET_NAME "gstprof.sock"
/* The private folder in TMPDIR: the prefix, then wrap's pid, then
 * mkdtemp's letters, so that a later wrap finds the folders of wraps that
 * died (a SIGKILL leaves its folder) and removes them. */
#define GP_WRAP_DIR_PREFIX "gstprof-wrap-"

G_DEFINE_QUARK (gp-wrap-error-quark, gp_wrap_error);

/* One connection to the socket: one process's records. */
typedef struct
{
  GpWrap *w;
  gint fd;                      /* -1 once closed */
  guint source;
  gboolean refused;             /* its first line was not a header */
  gboolean cut;                 /* it closed inside a line */
  GpRecordsReader *reader;
  gint64 header_us;             /* monotonic: its header came (the
                                 * session's t = 0, within the socket's
                                 * latency); 0 before */
} GpWrapConn;

struct _GpWrap
{
  const GpWrapOptions *opts;
  gchar *dir;                   /* the private folder: socket, records */
  GMainLoop *loop;
  GPid pid;
  gint status;
  gboolean exited;
  const gchar *stopped_by;      /* "duration", "interrupt" or NULL */
  guint escalation;             /* signals sent: 1 SIGINT, 2 SIGTERM, ... */
  guint grace_id;
  gboolean duration_done;       /* its timeout has fired (and is gone) */
  gint64 start_us, stop_us, exit_us;    /* monotonic: the spawn, the first
                                         * signal, the exit */
  gint listen_fd;               /* -1: no socket, records files only */
  guint listen_source;          /* 0 while accepting is paused */
  guint accept_pause_id;
  guint accept_paused;          /* times accept () had no descriptor */
  GPtrArray *conns;             /* GpWrapConn*, in the order they came */
  guint drain_id;
  gboolean tty;                 /* progress: a line rewritten in place */
  gboolean progress_open;
  gboolean checkpoint_said;     /* a failed checkpoint was said */
  GpSampler *sampler;           /* the machine's, from the spawn */
  GpMachine *machine;           /* the sampler's until it stops */
};

static gboolean gp_wrap_escalate (gpointer data);

static void
gp_wrap_signal_child (GpWrap * w)
{
  static const gint sigs[] = { SIGINT, SIGTERM, SIGKILL };

  if (w->exited || w->escalation >= G_N_ELEMENTS (sigs))
    return;
  if (w->escalation == 0)
    w->stop_us = g_get_monotonic_time ();
  kill (w->pid, sigs[w->escalation++]);
  if (w->escalation < G_N_ELEMENTS (sigs))
    w->grace_id = g_timeout_add_seconds (GP_WRAP_GRACE_S, gp_wrap_escalate,
        w);
}

static gboolean
gp_wrap_escalate (gpointer data)
{
  GpWrap *w = data;

  w->grace_id = 0;
  gp_wrap_signal_child (w);
  return G_SOURCE_REMOVE;
}

/* SIGTERM to gstprof, or a second Ctrl-C: the program is stopped, not
 * gstprof; each goes straight to the next, stronger signal. */
static gboolean
gp_wrap_on_signal (gpointer data)
{
  GpWrap *w = data;

  if (w->stopped_by == NULL)
    w->stopped_by = "interrupt";
  if (w->grace_id) {
    g_source_remove (w->grace_id);
    w->grace_id = 0;
  }
  gp_wrap_signal_child (w);
  return G_SOURCE_CONTINUE;
}

/* Whether a SIGINT to gstprof came from its terminal's Ctrl-C: gstprof's
 * process group is the foreground group of its controlling terminal (the
 * one a standard descriptor shows, else /dev/tty), the only group the
 * line discipline sends it to. With no terminal (a script, systemd) or
 * from the background, a SIGINT came from kill (2) to gstprof alone. */
static gboolean
gp_wrap_sigint_from_terminal (void)
{
  pid_t group = getpgrp (), foreground = -1;
  gint fd;

  /* a tty that is not the controlling terminal answers -1 (ENOTTY) */
  for (fd = 0; fd <= 2 && foreground < 0; fd++)
    if (isatty (fd))
      foreground = tcgetpgrp (fd);
  if (foreground < 0 && (fd = open ("/dev/tty", O_RDONLY | O_NOCTTY |
              O_CLOEXEC)) >= 0) {
    foreground = tcgetpgrp (fd);
    close (fd);
  }
  return foreground >= 0 && foreground == group;
}

/* Ctrl-C: the terminal sends SIGINT to its whole foreground process group,
 * which the program is in when it shares gstprof's. One more from gstprof
 * would be a second Ctrl-C, which gst-launch-1.0 does not survive (its
 * handler is gone after the first: the default action kills it before EOS
 * drains). So that SIGINT is taken as already delivered and only the
 * grace timer starts. Any other first SIGINT (kill -INT to gstprof from a
 * script, a program in a group of its own) is forwarded to the program. */
static gboolean
gp_wrap_on_sigint (gpointer data)
{
  GpWrap *w = data;

  if (w->escalation > 0 || w->exited || getpgid (w->pid) != getpgrp () ||
      !gp_wrap_sigint_from_terminal ())
    return gp_wrap_on_signal (data);
  w->stopped_by = w->stopped_by ? w->stopped_by : "interrupt";
  w->stop_us = g_get_monotonic_time ();
  w->escalation = 1;
  w->grace_id = g_timeout_add_seconds (GP_WRAP_GRACE_S, gp_wrap_escalate, w);
  return G_SOURCE_CONTINUE;
}

static gboolean
gp_wrap_on_duration (gpointer data)
{
  GpWrap *w = data;

  w->duration_done = TRUE;
  if (w->stopped_by == NULL) {
    w->stopped_by = "duration";
    gp_wrap_signal_child (w);
  }
  return G_SOURCE_REMOVE;
}

/* ------------------------------------------------------------------ */
/* the socket                                                          */

static gboolean gp_wrap_on_accept (gint fd, GIOCondition cond,
    gpointer data);

/* Listens on DIR/gstprof.sock; its path, or NULL (no socket: the tracer
 * writes its records file in DIR instead). */
static gchar *
gp_wrap_listen (GpWrap * w, const gchar * dir)
{
  struct sockaddr_un addr = { 0 };
  gchar *path = g_build_filename (dir, GP_WRAP_SOCKET_NAME, NULL);
  gint fd;

  w->listen_fd = -1;
  if (strlen (path) >= sizeof addr.sun_path) {
    g_free (path);
    return NULL;
  }
  addr.sun_family = AF_UNIX;
  strcpy (addr.sun_path, path);
  fd = socket (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0 || bind (fd, (struct sockaddr *) &addr, sizeof addr) != 0 ||
      listen (fd, SOMAXCONN) != 0) {
    if (fd >= 0)
      close (fd);
    g_free (path);
    return NULL;
  }
  w->listen_fd = fd;
  w->listen_source = g_unix_fd_add (fd, G_IO_IN, gp_wrap_on_accept, w);
  return path;
}

static void
gp_wrap_conn_close (GpWrapConn * c)
{
  if (c->fd < 0)
    return;
  close (c->fd);
  c->fd = -1;
  c->cut = gp_records_reader_cut (c->reader);
}

static void
gp_wrap_conn_free (gpointer data)
{
  GpWrapConn *c = data;

  if (c->source)
    g_source_remove (c->source);
  gp_wrap_conn_close (c);
  gp_records_reader_free (c->reader);
  g_free (c);
}

static void gp_wrap_maybe_quit (GpWrap * w);

static gboolean
gp_wrap_on_read (gint fd, GIOCondition cond, gpointer data)
{
  GpWrapConn *c = data;
  gchar chunk[65536];

  while (TRUE) {
    gssize n = read (fd, chunk, sizeof chunk);

    if (n > 0) {
      if (!c->refused && !gp_records_reader_feed (c->reader, chunk, n))
        c->refused = TRUE;
      if (c->header_us == 0
          && gp_records_reader_get_header (c->reader) != NULL)
        c->header_us = g_get_monotonic_time ();
      continue;
    }
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
      return G_SOURCE_CONTINUE;
    /* the end of the stream: the process closed it, or ended */
    break;
  }
  c->source = 0;
  gp_wrap_conn_close (c);
  gp_wrap_maybe_quit (c->w);
  return G_SOURCE_REMOVE;
}

static gboolean
gp_wrap_on_accept_resume (gpointer data)
{
  GpWrap *w = data;

  w->accept_pause_id = 0;
  w->listen_source = g_unix_fd_add (w->listen_fd, G_IO_IN, gp_wrap_on_accept,
      w);
  return G_SOURCE_REMOVE;
}

/* No descriptor for the next connection: stop watching the socket for
 * GP_WRAP_ACCEPT_PAUSE_MS, counted (the verdict says it). */
static void
gp_wrap_accept_pause (GpWrap * w)
{
  w->accept_paused++;
  if (w->listen_source) {
    g_source_remove (w->listen_source);
    w->listen_source = 0;
  }
  if (w->accept_pause_id == 0)
    w->accept_pause_id = g_timeout_add (GP_WRAP_ACCEPT_PAUSE_MS,
        gp_wrap_on_accept_resume, w);
}

static gboolean
gp_wrap_on_accept (gint fd, GIOCondition cond, gpointer data)
{
  GpWrap *w = data;
  gint cfd;

  while ((cfd = accept4 (fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK)) >= 0
      || errno == EINTR) {
    GpWrapConn *c;

    if (cfd < 0)
      continue;
    c = g_new0 (GpWrapConn, 1);
    c->w = w;
    c->fd = cfd;
    c->reader = gp_records_reader_new ("its stream on the socket");
    c->source = g_unix_fd_add (cfd, G_IO_IN | G_IO_HUP | G_IO_ERR,
        gp_wrap_on_read, c);
    g_ptr_array_add (w->conns, c);
  }
  if (errno == EMFILE || errno == ENFILE)
    gp_wrap_accept_pause (w);
  return G_SOURCE_CONTINUE;
}

/* The stream of process @pid (0: of the first process that sent a
 * header), or NULL. */
static GpWrapConn *
gp_wrap_conn_of (GpWrap * w, guint pid)
{
  guint i, p;

  for (i = 0; i < w->conns->len; i++) {
    GpWrapConn *c = g_ptr_array_index (w->conns, i);
    const GstStructure *h = gp_records_reader_get_header (c->reader);

    if (h != NULL && (pid == 0 || (gst_structure_get_uint (h, GP_FH_PID,
                    &p) && p == pid)))
      return c;
  }
  return NULL;
}

/* Once the program has ended: quit when every stream has closed. */
static gboolean
gp_wrap_on_drained (gpointer data)
{
  GpWrap *w = data;

  w->drain_id = 0;
  g_main_loop_quit (w->loop);
  return G_SOURCE_REMOVE;
}

static void
gp_wrap_maybe_quit (GpWrap * w)
{
  guint i;

  if (!w->exited)
    return;
  for (i = 0; i < w->conns->len; i++)
    if (((GpWrapConn *) g_ptr_array_index (w->conns, i))->fd >= 0)
      return;
  g_main_loop_quit (w->loop);
}

/* The live progress line, as run prints it: the rate into each sink of
 * the program's pipeline over the last second. */
/* The program's stream, else the first process's that sent a header. */
static GpRecordsReader *
gp_wrap_program_reader (GpWrap * w)
{
  GpWrapConn *c = gp_wrap_conn_of (w, (guint) w->pid);

  if (c == NULL)
    c = gp_wrap_conn_of (w, 0);
  return c ? c->reader : NULL;
}

static gboolean
gp_wrap_on_progress (gpointer data)
{
  GpWrap *w = data;
  GpRecordsReader *r = gp_wrap_program_reader (w);
  GpAggregator *agg = r ? gp_records_reader_aggregator (r) : NULL;
  gchar *rates;
  gdouble t = (g_get_monotonic_time () - w->start_us) / 1e6;

  rates = agg ? gp_aggregator_describe_progress (agg,
      GP_WRAP_PROGRESS_MS / 1000.0) :
      g_strdup ("waiting for data");
  w->progress_open |= gp_capture_progress_line (t, rates, w->tty);
  g_free (rates);
  return G_SOURCE_CONTINUE;
}

static gboolean
gp_wrap_on_live (gpointer data)
{
  GpWrap *w = data;
  GpRecordsReader *r = gp_wrap_program_reader (w);
  GpSession *s = r ? gp_records_reader_peek (r) : NULL;

  /* the machine so far, lent while the sampler's thread waits; its times
   * count from the spawn until the end moves them to the session's t = 0
   * (the program's start-up earlier: a fraction of a second) */
  if (s && w->sampler && s->machine == NULL) {
    gp_sampler_lock (w->sampler);
    s->machine = w->machine;
    w->opts->live (w, s, w->opts->live_data);
    s->machine = NULL;
    gp_sampler_unlock (w->sampler);
  } else
    w->opts->live (w, s, w->opts->live_data);
  return G_SOURCE_CONTINUE;
}

/* An event of @type with @text in the program's session, at the end of its
 * newest window; FALSE before any process sent its header. */
static gboolean
gp_wrap_add_event (GpWrap * w, const gchar * type, const gchar * text)
{
  GpRecordsReader *r = gp_wrap_program_reader (w);
  GpAggregator *agg = r ? gp_records_reader_aggregator (r) : NULL;

  if (agg == NULL)
    return FALSE;
  gp_aggregator_add_bus_event (agg, gp_aggregator_latest (agg), type, "",
      text);
  return TRUE;
}

void
gp_wrap_stop (GpWrap * w, const gchar * why)
{
  gp_wrap_add_event (w, "interrupt", why);
  gp_wrap_on_signal (w);
}

gboolean
gp_wrap_mark (GpWrap * w, const gchar * text)
{
  return gp_wrap_add_event (w, "mark", text);
}

/* The program's session so far (its stream, else the first process's
 * that sent a header), saved atomically: a wrap killed outright still
 * leaves it. A failed write is said once and tried again next time. */
static gboolean
gp_wrap_on_checkpoint (gpointer data)
{
  GpWrap *w = data;
  GpRecordsReader *r = gp_wrap_program_reader (w);
  GpSession *s = r ? gp_records_reader_peek (r) : NULL;

  if (s != NULL)
    gp_capture_checkpoint_save (s, w->opts->checkpoint_path,
        &w->checkpoint_said, &w->progress_open);
  return G_SOURCE_CONTINUE;
}

static void
gp_wrap_on_exit (GPid pid, gint status, gpointer data)
{
  GpWrap *w = data;

  w->status = status;
  w->exited = TRUE;
  w->exit_us = g_get_monotonic_time ();
  g_spawn_close_pid (pid);
  if (w->listen_fd < 0) {
    g_main_loop_quit (w->loop);
    return;
  }
  /* the streams' last lines are still on their way: connections not
   * accepted yet, data not read yet */
  gp_wrap_on_accept (w->listen_fd, G_IO_IN, w);
  w->drain_id = g_timeout_add (GP_WRAP_DRAIN_MS, gp_wrap_on_drained, w);
  gp_wrap_maybe_quit (w);
}

/* How the program ended, in words; NULL for a clean exit 0. */
static gchar *
gp_wrap_exit_text (const GpWrap * w, const gchar * program)
{
  if (WIFEXITED (w->status))
    return WEXITSTATUS (w->status) == 0 ? NULL :
        g_strdup_printf ("%s exited with status %d", program,
        WEXITSTATUS (w->status));
  if (WIFSIGNALED (w->status))
    return g_strdup_printf ("%s was killed by signal %d (%s)%s", program,
        WTERMSIG (w->status), g_strsignal (WTERMSIG (w->status)),
        w->escalation > 0 ? ", from gstprof" : "");
  return g_strdup_printf ("%s ended (status 0x%x)", program, w->status);
}

/* The program failed on its own: not a clean exit, and not the end of the
 * signals gstprof sent it. */
static gboolean
gp_wrap_failed (const GpWrap * w)
{
  if (WIFEXITED (w->status))
    return WEXITSTATUS (w->status) != 0 && w->escalation == 0;
  return w->escalation == 0;
}

/* ------------------------------------------------------------------ */
/* the sessions                                                        */

/* The command line a records header keeps, for people, shortened. */
static gchar *
gp_wrap_program_text (const GstStructure * header)
{
  const GValue *program = gst_structure_get_value (header, GP_FH_PROGRAM);
  GString *out = g_string_new (NULL);
  guint i, n = program && GST_VALUE_HOLDS_LIST (program) ?
      gst_value_list_get_size (program) : 0;

  for (i = 0; i < n; i++) {
    const GValue *v = gst_value_list_get_value (program, i);

    if (G_VALUE_HOLDS_STRING (v) && g_value_get_string (v) != NULL)
      g_string_append_printf (out, "%s%s", out->len ? " " : "",
          g_value_get_string (v));
  }
  if (out->len > GP_WRAP_PROGRAM_TEXT_MAX) {
    g_string_truncate (out, GP_WRAP_PROGRAM_TEXT_MAX - strlen ("..."));
    g_string_append (out, "...");
  }
  if (out->len == 0)
    g_string_append (out, "a program");
  return g_string_free (out, FALSE);
}

static guint
gp_wrap_header_pid (const GstStructure * header)
{
  guint pid = 0;

  gst_structure_get_uint (header, GP_FH_PID, &pid);
  return pid;
}

/* "its busiest element: slow, 3.02 ms a buffer (p50 of 60)" */
static gchar *
gp_wrap_busiest (GpSession * s)
{
  GpElementSummary *best = NULL;
  guint i;

  for (i = 0; i < s->elem_summaries->len; i++) {
    GpElementSummary *es = g_ptr_array_index (s->elem_summaries, i);

    if (es->buffers > 0 && (best == NULL ||
            es->self_total_ms > best->self_total_ms))
      best = es;
  }
  if (best == NULL)
    return g_strdup ("no element worked");
  return g_strdup_printf ("its busiest element: %s, %.2f ms a buffer (p50 "
      "of %" G_GUINT64_FORMAT ")", best->name, best->self_ms.p50,
      best->buffers);
}

/* The program's session from its stream (or, where it could not reach
 * the socket, its records file); when it ran no pipeline itself, that of
 * the first process it started that did (a shell script), whose pid goes
 * to @main_pid. NULL with @error when there is none; @text says how the
 * program ended (NULL: a clean exit). */
static GpSession *
gp_wrap_main_session (GpWrap * w, const gchar * text,
    GpWrapConn ** main_conn, guint * main_pid, GError ** error)
{
  GpWrapConn *c = gp_wrap_conn_of (w, (guint) w->pid);
  gchar *file = NULL, *unfollowed = NULL;
  GpSession *s = NULL;
  GError *err = NULL;

  *main_pid = (guint) w->pid;
  if (c == NULL)
    file = gp_records_file_of (w->dir, (guint) w->pid, &unfollowed);
  if (c == NULL && file == NULL && (c = gp_wrap_conn_of (w, 0)) != NULL)
    *main_pid = gp_wrap_header_pid (gp_records_reader_get_header
        (c->reader));
  *main_conn = c;
  if (c == NULL && file == NULL) {
    g_set_error (error, GP_WRAP_ERROR, GP_WRAP_ERROR_NO_PIPELINE,
        "%s%sno GStreamer pipeline ran in it (no records from the "
        "tracer%s%s)", text ? text : "", text ? "; " : "",
        unfollowed ? "; other processes': " : "",
        unfollowed ? unfollowed : "");
  } else if (c != NULL) {
    s = gp_records_reader_finish (c->reader, c->cut);
  } else if ((s = gp_records_load (file, &err)) == NULL) {
    g_set_error_literal (error, GP_WRAP_ERROR, GP_WRAP_ERROR_RECORDS,
        err->message);
    g_clear_error (&err);
  }
  g_free (unfollowed);
  g_free (file);
  return s;
}

static void
gp_wrap_note (GpSession * s, gchar * text)
{
  gp_session_add_event (s, s->duration_s, "warning", "gstprof", text);
  g_free (text);
}

/* How the program ended, on the session: stopped by gstprof (the stop on
 * the records' clock: their last window is about when the program ended),
 * how it exited, and whose session it is when not its own. */
static void
gp_wrap_note_end (GpWrap * w, GpSession * s, const gchar * text,
    GpWrapConn * main_conn, guint main_pid)
{
  if (w->stopped_by != NULL) {
    gdouble drain = w->stop_us ? (w->exit_us - w->stop_us) / 1e6 : 0;

    g_free (s->end);
    s->end = g_strdup (w->stopped_by);
    s->stop_s = MAX (0, s->duration_s - drain);
    /* the program's business what it does on the signal: a drain only
     * when an EOS came (gst-launch-1.0 without -e sets NULL at once) */
    if (gp_session_find_event (s, "eos")) {
      s->drain_s = drain;
    } else {
      gchar *text = g_strdup_printf ("it exited %.2f s later, no EOS "
          "reached its sinks", drain);

      gp_session_add_event (s, s->duration_s, "stopped", "", text);
      g_free (text);
    }
  }
  if (text != NULL)
    gp_wrap_note (s, g_strdup (text));
  if (main_pid != (guint) w->pid) {
    gchar *what = gp_wrap_program_text (gp_records_reader_get_header
        (main_conn->reader));

    gp_wrap_note (s, g_strdup_printf ("%s ran no GStreamer pipeline itself: "
            "this is process %u (%s), which it started", w->opts->argv[0],
            main_pid, what));
    g_free (what);
  }
}

/* Every other process that streamed: a session of its own in @r (its pid
 * beside it), named in the program's; connections with no header counted
 * there. */
static void
gp_wrap_other_sessions (GpWrap * w, GpSession * s, GpWrapConn * main_conn,
    GpWrapResult * r)
{
  guint i, refused = 0;

  for (i = 0; i < w->conns->len; i++) {
    GpWrapConn *c = g_ptr_array_index (w->conns, i);
    const GstStructure *h = gp_records_reader_get_header (c->reader);
    GpSession *so;
    gchar *what, *busiest, *saved;
    guint pid;

    if (c == main_conn)
      continue;
    if (h == NULL) {
      /* nothing, or no header: not the tracer's */
      refused += c->refused || c->cut;
      continue;
    }
    pid = gp_wrap_header_pid (h);
    what = gp_wrap_program_text (h);
    if (c->fd >= 0) {
      /* its stream still open after the drain: it outlived the program,
       * it did not crash */
      gchar *note = g_strdup_printf ("process %u was still running when "
          "%s ended: its windows up to then are here", pid,
          w->opts->argv[0]);

      so = gp_records_reader_finish_running (c->reader, note);
      g_free (note);
    } else {
      so = gp_records_reader_finish (c->reader, c->cut);
    }
    busiest = gp_wrap_busiest (so);
    saved = w->opts->saved_apart ? g_strdup_printf (" (session-%u.json)",
        pid) : g_strdup ("");
    gp_wrap_note (s, g_strdup_printf ("process %u (%s) ran GStreamer too: "
            "profiled apart, its verdict follows%s; %s", pid, what, saved,
            busiest));
    g_ptr_array_add (r->others, so);
    g_array_append_val (r->pids, pid);
    g_free (saved);
    g_free (busiest);
    g_free (what);
  }
  if (refused > 0)
    gp_wrap_note (s, g_strdup_printf ("%u connection%s to gstprof's socket "
            "sent no records header: not a tracer's, left out", refused,
            refused == 1 ? "" : "s"));
}

/* What gstprof could not follow: processes that wrote records files
 * instead of streaming, connections it had no descriptor for. */
static void
gp_wrap_note_unfollowed (GpWrap * w, GpSession * s, guint main_pid)
{
  gchar *unfollowed = NULL;

  g_free (gp_records_file_of (w->dir, main_pid, &unfollowed));
  if (unfollowed != NULL)
    gp_wrap_note (s, g_strdup_printf ("processes it started ran GStreamer "
            "too (pid %s) but could not reach gstprof's socket: not "
            "followed, their records stay out of this session", unfollowed));
  g_free (unfollowed);
  if (w->accept_paused > 0)
    gp_wrap_note (s, g_strdup_printf ("gstprof ran out of file descriptors "
            "accepting connections to its socket (%u time%s, each a pause "
            "of " G_STRINGIFY (GP_WRAP_ACCEPT_PAUSE_MS) " ms): a process "
            "that connected late may be missing", w->accept_paused,
            w->accept_paused == 1 ? "" : "s"));
}

/* The machine sampled from the spawn into @s, which starts with the
 * tracer in the program, when its header came. */
static void
gp_wrap_give_machine (GpWrap * w, GpSession * s, GpWrapConn * main_conn)
{
  if (w->machine == NULL)
    return;
  if (main_conn != NULL && main_conn->header_us > w->start_us)
    gp_machine_shift (w->machine, (main_conn->header_us - w->start_us) /
        1e6);
  gp_machine_free (s->machine);
  s->machine = w->machine;
  w->machine = NULL;
}

/* The program's session and every other process's, noted, into @r. */
static gboolean
gp_wrap_sessions (GpWrap * w, GpWrapResult * r, GError ** error)
{
  gchar *text = gp_wrap_exit_text (w, w->opts->argv[0]);
  GpWrapConn *main_conn;
  GpSession *s;
  guint main_pid;

  s = gp_wrap_main_session (w, text, &main_conn, &main_pid, error);
  if (s != NULL) {
    gp_wrap_give_machine (w, s, main_conn);
    gp_wrap_note_end (w, s, text, main_conn, main_pid);
    gp_wrap_other_sessions (w, s, main_conn, r);
    gp_wrap_note_unfollowed (w, s, main_pid);
    r->session = s;
    r->failed = gp_wrap_failed (w);
  }
  g_free (text);
  return s != NULL;
}

/* The machine sampled from the spawn, the program's threads and RSS with
 * it; a sampler that cannot start leaves it unsampled, said on stderr. */
static void
gp_wrap_start_sampler (GpWrap * w)
{
  GpSamplerOptions so;
  GError *err = NULL;

  gp_sampler_options_init (&so);
  so.window_ms = w->opts->window_ms;
  so.start_us = w->start_us;
  so.pid = w->pid;
  w->machine = gp_machine_new ();
  w->sampler = gp_sampler_start (w->machine, &so, &err);
  if (w->sampler == NULL) {
    g_printerr ("gstprof wrap: the machine is not sampled: %s\n",
        err->message);
    g_clear_error (&err);
    gp_machine_free (w->machine);
    w->machine = NULL;
  }
}

/* In the program, between fork and exec: the kernel kills it when
 * gstprof dies (a SIGKILL gives gstprof no chance to stop it), and a
 * gstprof already gone before the request (its pid no longer the parent:
 * the program was re-parented) means the same at once. */
static void
gp_wrap_child_setup (gpointer data)
{
  pid_t parent = GPOINTER_TO_INT (data);

  prctl (PR_SET_PDEATHSIG, SIGKILL);
  if (getppid () != parent)
    _exit (127);
}

static void gp_wrap_remove_dir (const gchar * dir);

/* The pid a private folder's name holds, or 0 when it is not one of
 * ours ("gstprof-wrap-PID-XXXXXX"). */
static pid_t
gp_wrap_dir_owner (const gchar * name)
{
  const gchar *p = name + strlen (GP_WRAP_DIR_PREFIX);
  gchar *end = NULL;
  guint64 pid;

  if (!g_str_has_prefix (name, GP_WRAP_DIR_PREFIX) || !g_ascii_isdigit (*p))
    return 0;
  pid = g_ascii_strtoull (p, &end, 10);
  if (end == NULL || *end != '-' || strlen (end + 1) != 6 || pid == 0 ||
      pid > G_MAXINT)
    return 0;
  return (pid_t) pid;
}

/* The private folders wraps that died left in @tmp: removed, but only
 * those that are folders (not links), this user's, and whose wrap is
 * gone (its pid no longer a process). Another user's, or a live wrap's,
 * are never touched. */
static void
gp_wrap_remove_stale (const gchar * tmp)
{
  GDir *d = g_dir_open (tmp, 0, NULL);
  const gchar *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL) {
    pid_t owner = gp_wrap_dir_owner (name);
    gchar *path;
    GStatBuf st;

    /* EPERM: a process of another user's has that pid, alive */
    if (owner == 0 || kill (owner, 0) == 0 || errno != ESRCH)
      continue;
    path = g_build_filename (tmp, name, NULL);
    if (g_lstat (path, &st) == 0 && S_ISDIR (st.st_mode) &&
        st.st_uid == getuid ())
      gp_wrap_remove_dir (path);
    g_free (path);
  }
  if (d != NULL)
    g_dir_close (d);
}

/* GStreamer for reading the records, the private folder (w->dir, to
 * remove), the socket, and the program started with the tracer's
 * environment; FALSE with @error when one cannot be had. */
static gboolean
gp_wrap_spawn (GpWrap * w, GError ** error)
{
  const GpWrapOptions *o = w->opts;
  GpCaptureOptions opts;
  GError *err = NULL;
  gchar **envp, *socket_path, *template;
  gboolean ok;

  /* the records are read by this process's GStreamer, which has no
   * tracer */
  if (!gst_init_check (NULL, NULL, &err)) {
    g_set_error (error, GP_WRAP_ERROR, GP_WRAP_ERROR_SETUP,
        "cannot initialise GStreamer: %s", err->message);
    g_clear_error (&err);
    return FALSE;
  }
  /* a folder only this user reads: the records name the program's
   * elements and its command line */
  gp_wrap_remove_stale (g_get_tmp_dir ());
  template = g_strdup_printf (GP_WRAP_DIR_PREFIX "%d-XXXXXX", (gint)
      getpid ());
  w->dir = g_dir_make_tmp (template, &err);
  g_free (template);
  if (w->dir == NULL) {
    g_set_error (error, GP_WRAP_ERROR, GP_WRAP_ERROR_SETUP,
        "cannot make a private folder: %s", err->message);
    g_clear_error (&err);
    return FALSE;
  }
  socket_path = gp_wrap_listen (w, w->dir);
  gp_capture_options_init (&opts);
  opts.window_ms = o->window_ms;
  opts.cpu = o->cpu;
  opts.records_dir = w->dir;
  opts.records_socket = socket_path;
  envp = gp_capture_tracer_environ (NULL, &opts);
  ok = g_spawn_async (NULL, o->argv, envp, G_SPAWN_SEARCH_PATH |
      G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_CHILD_INHERITS_STDIN,
      gp_wrap_child_setup, GINT_TO_POINTER (getpid ()), &w->pid, &err);
  if (!ok) {
    g_set_error (error, GP_WRAP_ERROR, GP_WRAP_ERROR_SPAWN,
        "cannot run %s: %s", o->argv[0], err->message);
    g_clear_error (&err);
  }
  w->start_us = g_get_monotonic_time ();
  if (ok && o->machine)
    gp_wrap_start_sampler (w);
  g_strfreev (envp);
  g_free (socket_path);
  return ok;
}

/* Until the program has ended and its streams have closed: its exit, the
 * signals to gstprof, the duration, the progress line on a terminal. */
static void
gp_wrap_loop (GpWrap * w)
{
  guint sigint_id, sigterm_id, duration_id = 0, progress_id = 0;
  guint checkpoint_id = 0, live_id = 0;

  w->loop = g_main_loop_new (NULL, FALSE);
  w->tty = isatty (2);
  g_child_watch_add (w->pid, gp_wrap_on_exit, w);
  sigint_id = g_unix_signal_add (SIGINT, gp_wrap_on_sigint, w);
  sigterm_id = g_unix_signal_add (SIGTERM, gp_wrap_on_signal, w);
  if (w->opts->duration_s > 0)
    duration_id = g_timeout_add ((guint) (w->opts->duration_s * 1000),
        gp_wrap_on_duration, w);
  /* a progress line is for a person watching, as run's */
  if (w->opts->progress && w->tty)
    progress_id = g_timeout_add (GP_WRAP_PROGRESS_MS, gp_wrap_on_progress,
        w);
  if (w->opts->checkpoint_path != NULL)
    checkpoint_id = g_timeout_add_seconds (GP_WRAP_CHECKPOINT_S,
        gp_wrap_on_checkpoint, w);
  if (w->opts->live)
    live_id = g_timeout_add (w->opts->window_ms ? w->opts->window_ms : 250,
        gp_wrap_on_live, w);
  g_main_loop_run (w->loop);
  if (checkpoint_id)
    g_source_remove (checkpoint_id);
  if (live_id)
    g_source_remove (live_id);
  g_source_remove (sigint_id);
  g_source_remove (sigterm_id);
  if (duration_id && !w->duration_done)
    g_source_remove (duration_id);
  if (progress_id)
    g_source_remove (progress_id);
  if (w->grace_id)
    g_source_remove (w->grace_id);
  if (w->drain_id)
    g_source_remove (w->drain_id);
  if (w->listen_source)
    g_source_remove (w->listen_source);
  w->listen_source = 0;
  if (w->accept_pause_id)
    g_source_remove (w->accept_pause_id);
  w->accept_pause_id = 0;
  if (w->progress_open)
    fputs ("\n", stderr);
}

/* The private folder and what the tracer left in it. */
static void
gp_wrap_remove_dir (const gchar * dir)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  const gchar *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL) {
    gchar *p = g_build_filename (dir, name, NULL);

    g_unlink (p);
    g_free (p);
  }
  if (d != NULL)
    g_dir_close (d);
  g_rmdir (dir);
}

void
gp_wrap_options_init (GpWrapOptions * opts)
{
  memset (opts, 0, sizeof *opts);
  opts->window_ms = 250;
  opts->machine = TRUE;
}

gboolean
gp_wrap_run (const GpWrapOptions * opts, GpWrapResult * result,
    GError ** error)
{
  GpWrap w = { 0 };
  gboolean ok;

  g_return_val_if_fail (opts != NULL && opts->argv != NULL &&
      opts->argv[0] != NULL && result != NULL, FALSE);

  memset (result, 0, sizeof *result);
  result->others = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gp_session_free);
  result->pids = g_array_new (FALSE, FALSE, sizeof (guint));
  w.opts = opts;
  w.listen_fd = -1;
  w.conns = g_ptr_array_new_with_free_func (gp_wrap_conn_free);
  ok = gp_wrap_spawn (&w, error);
  if (ok) {
    gp_wrap_loop (&w);
    gp_sampler_stop (w.sampler);
    w.sampler = NULL;
    ok = gp_wrap_sessions (&w, result, error);
  }

  gp_sampler_stop (w.sampler);
  gp_machine_free (w.machine);
  g_ptr_array_unref (w.conns);
  if (w.listen_fd >= 0)
    close (w.listen_fd);
  if (w.dir != NULL)
    gp_wrap_remove_dir (w.dir);
  if (w.loop)
    g_main_loop_unref (w.loop);
  g_free (w.dir);
  if (!ok)
    gp_wrap_result_clear (result);
  return ok;
}

void
gp_wrap_result_clear (GpWrapResult * result)
{
  g_clear_pointer (&result->session, gp_session_free);
  g_clear_pointer (&result->others, g_ptr_array_unref);
  g_clear_pointer (&result->pids, g_array_unref);
  result->failed = FALSE;
}
