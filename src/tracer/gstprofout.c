/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gstprofout.c: `out` and `socket`, the records the tracer writes by
 * itself.
 *
 * GST_TRACERS="gstprof(out=DIR)" makes the tracer append its own records
 * to DIR/gstprof-PID.records (the format is in src/core/gp-record.h), for
 * programs that only an environment variable can reach (a systemd unit, a
 * container). `gstprof analyze DIR` folds the file into a session and a
 * verdict as `run` would.
 *
 * GST_TRACERS="gstprof(socket=PATH)" streams the same lines to the Unix
 * socket gstprof wrap listens on, each as its window closes. The reader
 * must never stall the pipeline: the socket is non-blocking, lines it
 * cannot take yet wait in a bounded buffer (GP_OUT_PENDING_MAX) and, past
 * that, whole lines are left out and counted, never cut; the header and
 * the end line are always kept (the end says how many windows were left
 * out, and that the program ended cleanly). With `out` too,
 * a socket that cannot be reached falls back to the file.
 *
 * Everything here runs on the timer thread under emit_lock, or at the end
 * (gp_out_close) when no timer runs any more: each record is one line
 * handed to one write () on an O_APPEND descriptor, so a program killed at
 * any moment leaves whole lines up to the last window it closed.
 */
#include "gstprofprivate.h"

#define GST_CAT_DEFAULT gst_prof_debug

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "core/gp-record.h"


/* Lines a socket's reader has not taken yet, at most: about a hundred
 * windows of a large pipeline; past it the reader is stalled, and lines are
 * left out rather than held. */
#define GP_OUT_PENDING_MAX (4 * 1024 * 1024)
/* A lower GP_OUT_PENDING_MAX in bytes, read once as the tracer starts:
 * only a test sets it, to fill the bound at a known point. */
#define GP_OUT_PENDING_MAX_ENV "GSTPROF_TEST_PENDING_MAX"
/* At the end, how long the last lines may wait for a slow reader. */
#define GP_OUT_CLOSE_WAIT_MS 1000
/* connect () on a listener whose backlog is full: tries, 10 ms apart */
#define GP_OUT_CONNECT_TRIES 20
/* Names tried for the records file when gstprof-PID.records is taken (a
 * file or a link left there): past this many the folder is someone else's
 * game, and nothing is written. */
#define GP_OUT_NAME_TRIES 100

static void
gp_out_stop (GstProfTracer * self, const gchar * why)
{
  g_warning ("gstprof: %s: %s; no more records", self->out_is_socket ?
      "socket" : "out", why);
  close (self->out_fd);
  self->out_fd = -1;
}

/* The bytes of out_pending the reader has not taken: those after
 * out_pending_off. */
static gsize
gp_out_pending_len (GstProfTracer * self)
{
  return self->out_pending->len - self->out_pending_off;
}

/* Hands the reader what it takes now, waiting at most @wait_ms for it;
 * FALSE when the connection is gone. What it took is only skipped
 * (out_pending_off): the bytes left are moved to the front once they are
 * fewer than those skipped, so that each byte moves at most once on
 * average however little a send takes. */
static gboolean
gp_out_flush (GstProfTracer * self, gint wait_ms)
{
  gint64 deadline = g_get_monotonic_time () + wait_ms * (gint64) 1000;
  GString *p = self->out_pending;

  while (self->out_fd >= 0 && gp_out_pending_len (self) > 0) {
    gssize n = send (self->out_fd, p->str + self->out_pending_off,
        gp_out_pending_len (self), MSG_DONTWAIT | MSG_NOSIGNAL);

    if (n > 0) {
      self->out_pending_off += n;
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      struct pollfd pfd = { self->out_fd, POLLOUT, 0 };
      gint64 left = (deadline - g_get_monotonic_time ()) / 1000;

      if (left <= 0 || poll (&pfd, 1, (gint) left) <= 0)
        break;
    } else {
      gp_out_stop (self, n < 0 ? g_strerror (errno) : "closed by its reader");
      return FALSE;
    }
  }
  if (self->out_pending_off == p->len) {
    g_string_truncate (p, 0);
    self->out_pending_off = 0;
  } else if (self->out_pending_off > gp_out_pending_len (self)) {
    g_string_erase (p, 0, self->out_pending_off);
    self->out_pending_off = 0;
  }
  return self->out_fd >= 0;
}

/* Appends @s as one line; FALSE when it was not written: the file cannot
 * take it (warned once, after which nothing more is written), or the
 * socket's reader is too far behind (the caller counts it). A line that
 * @must reach the reader (the header, the end: without the end it cannot
 * tell a clean exit from a crash) is taken past GP_OUT_PENDING_MAX. */
static gboolean
gp_out_write (GstProfTracer * self, const GstStructure * s, gboolean must)
{
  gchar *text = gst_structure_to_string (s);
  gsize len = strlen (text);
  gssize n;

  text = g_realloc (text, len + 2);
  text[len++] = '\n';
  text[len] = '\0';
  if (self->out_is_socket) {
    gboolean taken = must ||
        gp_out_pending_len (self) + len <= self->out_pending_max;

    if (taken) {
      g_string_append_len (self->out_pending, text, len);
      self->out_bytes += len;
    }
    g_free (text);
    return gp_out_flush (self, 0) && taken;
  }
  do
    n = write (self->out_fd, text, len);
  while (n < 0 && errno == EINTR);
  g_free (text);
  if (n != (gssize) len) {
    g_warning ("gstprof: out: cannot write to %s: %s; no more records",
        self->out_dir, n < 0 ? g_strerror (errno) : "short write");
    close (self->out_fd);
    self->out_fd = -1;
    return FALSE;
  }
  self->out_bytes += len;
  return TRUE;
}

/* The `socket` connection, non-blocking; -1 (warned) when there is none. */
static gint
gp_out_connect (GstProfTracer * self)
{
  struct sockaddr_un addr = { 0 };
  gint fd, i, r = -1;

  if (strlen (self->socket_path) >= sizeof addr.sun_path) {
    g_warning ("gstprof: socket: %s: path too long", self->socket_path);
    return -1;
  }
  addr.sun_family = AF_UNIX;
  strcpy (addr.sun_path, self->socket_path);
  fd = socket (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  for (i = 0; fd >= 0 && i < GP_OUT_CONNECT_TRIES; i++) {
    r = connect (fd, (struct sockaddr *) &addr, sizeof addr);
    if (r == 0 || (errno != EAGAIN && errno != EINTR))
      break;
    g_usleep (10 * 1000);
  }
  if (fd < 0 || r != 0) {
    g_warning ("gstprof: socket: cannot connect to %s: %s%s",
        self->socket_path, g_strerror (errno), self->out_dir ?
        "; writing the records file instead" : "");
    if (fd >= 0)
      close (fd);
    return -1;
  }
  return fd;
}

/* The records file of `out`, -1 (warned once: nothing will be written)
 * when it cannot be made. The file is always a new one, made by this open
 * (O_EXCL): in a folder others may write to, a link planted at the name is
 * never followed and a file already there never truncated; when the name
 * is taken the next free one (gstprof-PID.N.records) is used. Its mode is
 * the user's umask's. */
static gint
gp_out_create (GstProfTracer * self)
{
  gchar *path = NULL;
  gint fd = -1, i;

  if (g_mkdir_with_parents (self->out_dir, 0755) != 0) {
    g_warning ("gstprof: out: cannot make folder %s: %s; no records are "
        "written", self->out_dir, g_strerror (errno));
    return -1;
  }
  for (i = 0; fd < 0 && i < GP_OUT_NAME_TRIES; i++) {
    gchar *name = i == 0 ?
        g_strdup_printf (GP_RECORDS_FILE_PREFIX "%u" GP_RECORDS_FILE_SUFFIX,
        (guint) getpid ()) :
        g_strdup_printf (GP_RECORDS_FILE_PREFIX "%u.%d" GP_RECORDS_FILE_SUFFIX,
        (guint) getpid (), i);

    g_free (path);
    path = g_build_filename (self->out_dir, name, NULL);
    g_free (name);
    fd = g_open (path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_APPEND |
        O_CLOEXEC, 0666);
    if (fd < 0 && errno != EEXIST)
      break;
  }
  if (fd < 0)
    g_warning ("gstprof: out: cannot write %s: %s; no records are written",
        path, g_strerror (errno));
  else
    GST_INFO_OBJECT (self, "writing records to %s", path);
  g_free (path);
  return fd;
}

/* The program's command line, NUL-separated in /proc/self/cmdline. */
static void
gp_out_add_program (GstStructure * header)
{
  GValue list = G_VALUE_INIT;
  gchar *cmdline = NULL;
  gsize len = 0, i = 0;

  g_value_init (&list, GST_TYPE_LIST);
  if (g_file_get_contents ("/proc/self/cmdline", &cmdline, &len, NULL)) {
    while (i < len) {
      GValue v = G_VALUE_INIT;

      g_value_init (&v, G_TYPE_STRING);
      g_value_set_string (&v, cmdline + i);
      gst_value_list_append_and_take_value (&list, &v);
      i += strlen (cmdline + i) + 1;
    }
  }
  g_free (cmdline);
  gst_structure_take_value (header, GP_FH_PROGRAM, &list);
}

void
gp_out_open (GstProfTracer * self)
{
  GDateTime *now;
  gchar *started;
  GstStructure *header;
  guint major, minor, micro, nano;
  gchar *version;

  self->out_fd = -1;
  self->out_pid = getpid ();
  if (self->out_dir != NULL && *self->out_dir == '\0')
    g_clear_pointer (&self->out_dir, g_free);
  if (self->socket_path != NULL && *self->socket_path == '\0')
    g_clear_pointer (&self->socket_path, g_free);
  if (self->socket_path != NULL) {
    self->out_fd = gp_out_connect (self);
    self->out_is_socket = self->out_fd >= 0;
    if (self->out_is_socket) {
      const gchar *max = g_getenv (GP_OUT_PENDING_MAX_ENV);

      self->out_pending = g_string_new (NULL);
      self->out_pending_off = 0;
      self->out_pending_max = GP_OUT_PENDING_MAX;
      if (max != NULL && g_ascii_strtoull (max, NULL, 10) > 0)
        self->out_pending_max = MIN (self->out_pending_max,
            g_ascii_strtoull (max, NULL, 10));
      GST_INFO_OBJECT (self, "streaming records to %s", self->socket_path);
    }
  }
  if (self->out_fd < 0 && self->out_dir != NULL)
    self->out_fd = gp_out_create (self);
  if (self->out_fd < 0)
    return;

  now = g_date_time_new_now_utc ();
  gst_version (&major, &minor, &micro, &nano);
  version = g_strdup_printf ("%u.%u.%u", major, minor, micro);
  started = g_date_time_format (now, "%Y-%m-%dT%H:%M:%SZ");
  header = gst_structure_new (GP_RECORD_FILE_HEADER,
      GP_FH_VERSION, G_TYPE_UINT, 1,
      GP_FH_PID, G_TYPE_UINT, (guint) getpid (),
      GP_FH_HOST, G_TYPE_STRING, g_get_host_name (),
      GP_FH_STARTED, G_TYPE_STRING, started,
      GP_FH_T0, G_TYPE_UINT64, gp_now (self),
      GP_FH_GSTREAMER, G_TYPE_STRING, version,
      GP_FH_WINDOW_MS, G_TYPE_UINT, self->window_ms,
      GP_FH_CPU, G_TYPE_BOOLEAN, self->cpu, NULL);
  gp_out_add_program (header);
  gp_out_write (self, header, TRUE);
  gst_structure_free (header);
  g_free (started);
  g_free (version);
  g_date_time_unref (now);
  /* no graph written yet */
  self->out_topo_gen = -1;
}

/* A forked child (no exec) inherits the descriptor, and runs the exit
 * handler: only the process that opened it writes to it. */
static gboolean
gp_out_mine (GstProfTracer * self)
{
  if (self->out_fd < 0)
    return FALSE;
  if (self->out_pid == getpid ())
    return TRUE;
  close (self->out_fd);
  self->out_fd = -1;
  return FALSE;
}

void
gp_out_window (GstProfTracer * self, const GstStructure * w)
{
  gint gen;

  if (!gp_out_mine (self))
    return;
  if (!self->out_is_socket && self->out_bytes >= GP_RECORDS_MAX_BYTES) {
    if (self->out_dropped++ == 0) {
      GstStructure *full = gst_structure_new_empty (GP_RECORD_FILE_FULL);

      gp_out_write (self, full, FALSE);
      gst_structure_free (full);
    }
    return;
  }
  /* the graph before the first window that may name what changed; a graph
   * the reader could not take yet is sent again before the next window */
  /* bumped by streaming threads with an atomic add, outside state_lock */
  gen = g_atomic_int_get (&self->topo_gen);
  if (gen != self->out_topo_gen) {
    GstStructure *graph = gp_graph_snapshot (self);
    gboolean written = graph == NULL || gp_out_write (self, graph, FALSE);

    if (graph != NULL)
      gst_structure_free (graph);
    if (!written) {
      if (self->out_fd >= 0)
        self->out_dropped++;
      return;
    }
    self->out_topo_gen = gen;
  }
  if (gp_out_write (self, w, FALSE))
    self->out_windows++;
  else if (self->out_fd >= 0)
    self->out_dropped++;
}

void
gp_out_close (GstProfTracer * self)
{
  GstStructure *end;

  if (!gp_out_mine (self))
    return;
  end = gst_structure_new (GP_RECORD_FILE_END,
      GP_FE_WINDOWS, G_TYPE_UINT64, self->out_windows,
      GP_FE_DROPPED, G_TYPE_UINT64, self->out_dropped, NULL);
  gp_out_write (self, end, TRUE);
  gst_structure_free (end);
  if (self->out_is_socket && self->out_fd >= 0)
    gp_out_flush (self, GP_OUT_CLOSE_WAIT_MS);
  if (self->out_fd >= 0) {
    if (!self->out_is_socket)
      fsync (self->out_fd);
    close (self->out_fd);
    self->out_fd = -1;
  }
  if (self->out_pending != NULL)
    g_string_free (self->out_pending, TRUE);
  self->out_pending = NULL;
}
