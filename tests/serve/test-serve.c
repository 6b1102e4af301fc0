/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * test-serve.c: the live panel's server (src/serve/gp-serve.c) as a user
 * meets it: the real binary with --serve on a real pipeline, or `gstprof
 * serve` on a saved session, spoken to over loopback with plain HTTP/1.1
 * written by hand (so that a request can be as wrong as a test needs).
 * The truth for the numbers it serves: a planted identity sleep-time.
 * Without libsoup 3 in the build, --serve must say so in one line.
 */
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <unistd.h>
#include <glib-unix.h>
#include <errno.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "gp-config.h"
#include "serve/gp-serve.h"
#include "gp-test-clock.h"
#include "gp-test-util.h"

#define SLEEP_MS 20.0
#define LIVE_LAUNCH "videotestsrc is-live=true ! " \
  "video/x-raw,width=160,height=120,framerate=30/1 ! " \
  "identity name=slow sleep-time=20000 ! fakesink name=sink"

static gchar *tmp;

/* ---- a gstprof that serves ---------------------------------------------- */

typedef struct
{
  GPid pid;
  gint err_fd;
  gchar *url;                   /* http://127.0.0.1:PORT/ */
  gchar *token;                 /* from the printed #token=, or NULL */
  guint port;
  GString *err;                 /* what it printed on stderr so far */
} Server;

/* Reads the child's stderr until a line holds "serving http://"; asserts
 * it comes within 20 s. */
static void
server_wait_url (Server * sv)
{
  gint64 end = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  gchar buf[512];

  while (g_get_monotonic_time () < end) {
    gssize n = read (sv->err_fd, buf, sizeof (buf) - 1);
    const gchar *at;

    if (n <= 0) {
      g_usleep (20000);
      if (n == 0)
        break;
      continue;
    }
    buf[n] = '\0';
    g_string_append (sv->err, buf);
    if ((at = strstr (sv->err->str, "serving http://")) && strchr (at, '\n')) {
      const gchar *u = at + strlen ("serving ");
      const gchar *sp = strchr (u, ' ');
      const gchar *frag = memchr (u, '#', sp - u);

      sv->url = g_strndup (u, (frag ? frag : sp) - u);
      if (frag && g_str_has_prefix (frag, "#token="))
        sv->token = g_strndup (frag + 7, sp - frag - 7);
      sv->port = (guint) atoi (strrchr (sv->url, ':') + 1);
      return;
    }
  }
  g_error ("no address printed; stderr: %s", sv->err->str);
}

/* The child's setup: it dies with the test, and with a descriptor limit
 * when @data points at one other than 0. */
static void
server_child_setup (gpointer data)
{
  rlim_t limit = data ? *(rlim_t *) data : 0;

  gp_test_child_dies_with_us (NULL);
  if (limit > 0) {
    struct rlimit rl = { limit, limit };

    setrlimit (RLIMIT_NOFILE, &rl);
  }
}

static void
server_start_v (Server * sv, rlim_t fd_limit, const gchar * first,
    va_list ap)
{
  GPtrArray *args = g_ptr_array_new ();
  GError *err = NULL;
  const gchar *a;

  memset (sv, 0, sizeof (*sv));
  sv->err = g_string_new (NULL);
  g_ptr_array_add (args, (gpointer) g_getenv ("GSTPROF_BIN"));
  for (a = first; a; a = va_arg (ap, const gchar *))
    g_ptr_array_add (args, (gpointer) a);
  g_ptr_array_add (args, NULL);
  g_assert_true (g_spawn_async_with_pipes (tmp, (gchar **) args->pdata, NULL,
          G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL,
          server_child_setup, &fd_limit, &sv->pid, NULL, NULL,
          &sv->err_fd, &err));
  g_assert_no_error (err);
  g_ptr_array_free (args, TRUE);
  g_unix_set_fd_nonblocking (sv->err_fd, TRUE, NULL);
  server_wait_url (sv);
}

static void
server_start (Server * sv, const gchar * first, ...)
{
  va_list ap;

  va_start (ap, first);
  server_start_v (sv, 0, first, ap);
  va_end (ap);
}

/* The same with at most @fd_limit descriptors for the server's process. */
static void
server_start_limited (Server * sv, rlim_t fd_limit, const gchar * first, ...)
{
  va_list ap;

  va_start (ap, first);
  server_start_v (sv, fd_limit, first, ap);
  va_end (ap);
}

/* Waits up to @timeout_s for the child to exit: its exit code, -1 when it
 * did not (then it is killed). */
static gint
server_wait_exit (Server * sv, gdouble timeout_s)
{
  gint64 end = g_get_monotonic_time () + timeout_s * G_USEC_PER_SEC;
  gint status;

  while (g_get_monotonic_time () < end) {
    if (waitpid (sv->pid, &status, WNOHANG) == sv->pid) {
      sv->pid = 0;
      return gp_test_exit_code (status);
    }
    g_usleep (20000);
  }
  kill (sv->pid, SIGKILL);
  waitpid (sv->pid, &status, 0);
  sv->pid = 0;
  return -1;
}

static void
server_clear (Server * sv)
{
  if (sv->pid) {
    kill (sv->pid, SIGKILL);
    waitpid (sv->pid, NULL, 0);
  }
  if (sv->err_fd > 0)
    close (sv->err_fd);
  g_free (sv->url);
  g_free (sv->token);
  g_string_free (sv->err, TRUE);
}

/* ---- HTTP by hand ------------------------------------------------------- */

typedef struct
{
  guint status;
  gchar *head;
  gchar *body;
} Reply;

/* Sends @request (the whole of it, "Connection: close" in it) to
 * 127.0.0.1:@port and reads the reply to the end. */
static void
http_raw (guint port, const gchar * request, gsize len, Reply * r)
{
  GSocketClient *c = g_socket_client_new ();
  GSocketConnection *conn;
  GError *err = NULL;
  GString *all = g_string_new (NULL);
  gchar buf[4096];
  gssize n;
  gchar *sep;

  g_socket_client_set_timeout (c, 10);
  g_socket_client_set_enable_proxy (c, FALSE);
  conn = g_socket_client_connect_to_host (c, "127.0.0.1", port, NULL, &err);
  g_assert_no_error (err);
  g_output_stream_write_all (g_io_stream_get_output_stream (G_IO_STREAM
          (conn)), request, len, NULL, NULL, &err);
  g_assert_no_error (err);
  while ((n = g_input_stream_read (g_io_stream_get_input_stream (G_IO_STREAM
                  (conn)), buf, sizeof (buf), NULL, NULL)) > 0)
    g_string_append_len (all, buf, n);
  g_object_unref (conn);
  g_object_unref (c);
  r->status = 0;
  sscanf (all->str, "HTTP/1.%*d %u", &r->status);
  sep = strstr (all->str, "\r\n\r\n");
  r->head = sep ? g_strndup (all->str, sep - all->str) : g_strdup (all->str);
  r->body = g_strdup (sep ? sep + 4 : "");
  g_string_free (all, TRUE);
}

/* A request of @method on @path with extra header lines @headers ("" or
 * lines each ending in \r\n) and @body (NULL: none). */
static void
http (guint port, const gchar * method, const gchar * path,
    const gchar * headers, const gchar * body, Reply * r)
{
  gchar *length = body ? g_strdup_printf ("Content-Length: %zu\r\n",
      strlen (body)) : g_strdup ("");
  gchar *req = g_strdup_printf ("%s %s HTTP/1.1\r\nHost: 127.0.0.1:%u\r\n"
      "Connection: close\r\n%s%s\r\n%s", method, path, port, headers,
      length, body ? body : "");

  http_raw (port, req, strlen (req), r);
  g_free (req);
  g_free (length);
}

static void
reply_clear (Reply * r)
{
  g_free (r->head);
  g_free (r->body);
}

static JsonObject *
reply_json (Reply * r, JsonParser ** keep)
{
  GError *err = NULL;

  *keep = json_parser_new ();
  json_parser_load_from_data (*keep, r->body, -1, &err);
  g_assert_no_error (err);
  return json_node_get_object (json_parser_get_root (*keep));
}

/* The first @n "window" events of an event stream, read raw: their data. */
static GPtrArray *
read_windows (guint port, guint n)
{
  GSocketClient *c = g_socket_client_new ();
  GSocketConnection *conn;
  GError *err = NULL;
  GString *all = g_string_new (NULL);
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);
  gchar *req = g_strdup_printf ("GET /api/events HTTP/1.1\r\n"
      "Host: 127.0.0.1:%u\r\nAccept: text/event-stream\r\n\r\n", port);
  gchar buf[8192];
  gssize got;

  g_socket_client_set_timeout (c, 10);
  g_socket_client_set_enable_proxy (c, FALSE);
  conn = g_socket_client_connect_to_host (c, "127.0.0.1", port, NULL, &err);
  g_assert_no_error (err);
  g_output_stream_write_all (g_io_stream_get_output_stream (G_IO_STREAM
          (conn)), req, strlen (req), NULL, NULL, &err);
  g_assert_no_error (err);
  while (out->len < n && (got = g_input_stream_read
          (g_io_stream_get_input_stream (G_IO_STREAM (conn)), buf,
              sizeof (buf), NULL, NULL)) > 0) {
    gchar *ev;

    g_string_append_len (all, buf, got);
    while ((ev = strstr (all->str, "event: window\ndata: "))) {
      gchar *end = strstr (ev, "\n\n");

      if (end == NULL)
        break;
      ev += strlen ("event: window\ndata: ");
      g_ptr_array_add (out, g_strndup (ev, strchr (ev, '\n') - ev));
      g_string_erase (all, 0, end + 2 - all->str);
    }
  }
  g_object_unref (conn);
  g_object_unref (c);
  g_string_free (all, TRUE);
  g_free (req);
  return out;
}

/* A value in the JSON text @json at the members @path (dots), -1 when
 * absent. */
static gdouble
json_double_at (const gchar * json, const gchar * path)
{
  JsonParser *p = json_parser_new ();
  gchar **parts = g_strsplit (path, ".", -1);
  JsonNode *node;
  gdouble v = -1;
  guint i;

  g_assert_true (json_parser_load_from_data (p, json, -1, NULL));
  node = json_parser_get_root (p);
  for (i = 0; parts[i] && node && JSON_NODE_HOLDS_OBJECT (node); i++)
    node = json_object_get_member (json_node_get_object (node), parts[i]);
  if (parts[i] == NULL && node && JSON_NODE_HOLDS_VALUE (node))
    v = json_node_get_double (node);
  g_strfreev (parts);
  g_object_unref (p);
  return v;
}

static gboolean
poll_ready (guint port, gdouble timeout_s)
{
  gint64 end = g_get_monotonic_time () + timeout_s * G_USEC_PER_SEC;
  Reply r;

  while (g_get_monotonic_time () < end) {
    http (port, "GET", "/readyz", "", NULL, &r);
    reply_clear (&r);
    if (r.status == 200)
      return TRUE;
    g_usleep (100000);
  }
  return FALSE;
}

/* Another account on the machine (nobody, when the test runs as root):
 * it can read the state, which holds no token, and cannot Stop or Mark
 * without one.  The reads and posts run in a child that gave up root;
 * its exit status says which step failed (0: none). */
static void
assert_other_account_cannot_stop (guint port)
{
  pid_t pid;
  gint status;

  if (getuid () != 0) {
    g_test_message ("not root: the other account's steps run as this one");
  }
  pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0) {
    Reply r;

    if (getuid () == 0 && (setgid (65534) != 0 || setuid (65534) != 0))
      _exit (10);
    http (port, "GET", "/api/state", "", NULL, &r);
    if (r.status != 200)
      _exit (11);
    if (strstr (r.body, "\"token\"") != NULL)
      _exit (12);
    reply_clear (&r);
    http (port, "POST", "/api/mark", "", "from another account", &r);
    if (r.status != 403)
      _exit (13);
    reply_clear (&r);
    http (port, "POST", "/api/stop", "", "", &r);
    if (r.status != 403)
      _exit (14);
    reply_clear (&r);
    _exit (0);
  }
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
}

/* A plain TCP connection to 127.0.0.1:@port, its descriptor; @send
 * (NULL: nothing) written on it. */
static gint
tcp_open (guint port, const gchar * send)
{
  struct sockaddr_in a = { 0 };
  gint fd = socket (AF_INET, SOCK_STREAM, 0);

  g_assert_cmpint (fd, >=, 0);
  a.sin_family = AF_INET;
  a.sin_port = htons (port);
  a.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  if (connect (fd, (struct sockaddr *) &a, sizeof (a)) != 0)
    g_error ("connect to port %u: %s", port, g_strerror (errno));
  if (send)
    g_assert_cmpint (write (fd, send, strlen (send)), ==, strlen (send));
  return fd;
}

/* Whether the server closed @fd (an end or a reset, not "nothing yet");
 * what it sent before is read and dropped. */
static gboolean
tcp_closed (gint fd)
{
  gchar buf[4096];
  gssize n;

  while ((n = recv (fd, buf, sizeof (buf), MSG_DONTWAIT)) > 0);
  return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK);
}

/* CPU seconds the process @pid has used (user + system). */
static gdouble
proc_cpu_s (GPid pid)
{
  gchar *path = g_strdup_printf ("/proc/%d/stat", pid), *text = NULL;
  gulong ut = 0, st = 0;
  const gchar *close_paren;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  close_paren = strrchr (text, ')');
  g_assert_cmpint (sscanf (close_paren + 2, "%*c %*d %*d %*d %*d %*d %*u "
          "%*u %*u %*u %*u %lu %lu", &ut, &st), ==, 2);
  g_free (text);
  g_free (path);
  return (ut + st) / (gdouble) sysconf (_SC_CLK_TCK);
}

/* The descriptors process @pid holds (/proc/PID/fd). */
static guint
count_fds (GPid pid)
{
  gchar *path = g_strdup_printf ("/proc/%d/fd", (gint) pid);
  GDir *d = g_dir_open (path, 0, NULL);
  guint n = 0;

  g_assert_nonnull (d);
  while (g_dir_read_name (d))
    n++;
  g_dir_close (d);
  g_free (path);
  return n;
}

static gint64
file_mtime_us (const gchar * path)
{
  struct stat st;

  if (g_stat (path, &st) != 0)
    return 0;
  return st.st_mtim.tv_sec * G_USEC_PER_SEC + st.st_mtim.tv_nsec / 1000;
}

#define FLOOD_FD_LIMIT 64
#define FLOOD_IDLE 300
#define FLOOD_SLOW 20

/* Clients that hold connections: a live run whose process may open 64
 * descriptors, 300 idle connections and 20 that send their headers a
 * byte at a time.  The server keeps to its share of the descriptors,
 * answers /healthz at once, burns no CPU on them, closes them all within
 * its timeouts, and the capture's windows and checkpoints go on; event
 * streams past its cap get a 503 that says so.  Before the cap, 1,020
 * idle connections at 1,024 descriptors took them all: nothing answered,
 * GLib logged "Too many open files" in a loop at 0.6-0.9 CPU-seconds a
 * second, and no checkpoint came for 27 s. */
static void
test_connections (void)
{
  gchar *out = g_build_filename (tmp, "flood", NULL);
  gchar *session = g_build_filename (out, "session.json", NULL);
  gint idle[FLOOD_IDLE], slow[FLOOD_SLOW], streams[FLOOD_FD_LIMIT];
  guint i, n_streams = 0, open_left, refused = 0;
  gint panel;
  gint64 ckpt0, ckpt1;
  gdouble cpu0, cpu1, flood_s;
  Server sv;
  Reply r;

  server_start_limited (&sv, FLOOD_FD_LIMIT, "run", "--serve", "--port",
      "0", "--quiet", "--duration", "14s", "--out", out, LIVE_LAUNCH, NULL);
  g_assert_true (poll_ready (sv.port, 10));
  for (i = 0; i < 50 && file_mtime_us (session) == 0; i++)
    g_usleep (100000);
  g_test_message ("server: %u descriptors before the flood",
      count_fds (sv.pid));
  /* a panel's event stream, open through it all */
  {
    gchar *req = g_strdup_printf ("GET /api/events HTTP/1.1\r\n"
        "Host: 127.0.0.1:%u\r\n\r\n", sv.port);

    panel = tcp_open (sv.port, req);
    g_free (req);
  }

  for (i = 0; i < FLOOD_IDLE; i++)
    idle[i] = tcp_open (sv.port, NULL);
  for (i = 0; i < FLOOD_SLOW; i++)
    slow[i] = tcp_open (sv.port, "G");
  cpu0 = proc_cpu_s (sv.pid);
  ckpt0 = file_mtime_us (session);
  /* a request beside them is answered at once */
  {
    gint64 t0 = g_get_monotonic_time ();

    http (sv.port, "GET", "/healthz", "", NULL, &r);
    g_assert_cmpuint (r.status, ==, 200);
    reply_clear (&r);
    g_test_message ("/healthz beside %u held connections: %.1f ms",
        FLOOD_IDLE + FLOOD_SLOW, (g_get_monotonic_time () - t0) / 1e3);
    /* answered, not starved: without the cap it never was (no descriptor
     * left). On a fresh root still busy with its build it took 1.02 s once
     * while the server accepted and refused the flood */
    g_assert_cmpint (g_get_monotonic_time () - t0, <, 2 * G_USEC_PER_SEC);
  }
  g_test_message ("server: %u descriptors in the flood", count_fds (sv.pid));
  g_assert_cmpuint (count_fds (sv.pid), <=, FLOOD_FD_LIMIT * 3 / 4);
  /* the slow ones go on, a byte a second, past the headers' timeout */
  for (i = 0; i < 7; i++) {
    guint k;

    g_usleep (G_USEC_PER_SEC);
    for (k = 0; k < FLOOD_SLOW; k++)
      if (send (slow[k], "E", 1, MSG_NOSIGNAL) < 0) {
        /* closed by the server: that is the point */
      }
  }
  flood_s = 7.0;
  cpu1 = proc_cpu_s (sv.pid);
  ckpt1 = file_mtime_us (session);
  g_test_message ("server: %.2f CPU-seconds over %.0f s of flood (the run "
      "included); checkpoint %.1f s later", cpu1 - cpu0, flood_s,
      (ckpt1 - ckpt0) / 1e6);
  g_assert_cmpfloat ((cpu1 - cpu0) / flood_s, <, 0.3);
  g_assert_cmpint (ckpt1, >, ckpt0);
  open_left = 0;
  for (i = 0; i < FLOOD_IDLE; i++)
    open_left += !tcp_closed (idle[i]);
  for (i = 0; i < FLOOD_SLOW; i++)
    open_left += !tcp_closed (slow[i]);
  g_test_message ("%u of %u held connections still open after %.0f s",
      open_left, FLOOD_IDLE + FLOOD_SLOW, flood_s);
  g_assert_cmpuint (open_left, ==, 0);
  /* the panel's stream is not idle: windows still come on it */
  {
    gchar buf[65536];
    gssize n;

    while (recv (panel, buf, sizeof (buf), MSG_DONTWAIT) > 0);
    g_usleep (600000);
    n = recv (panel, buf, sizeof (buf) - 1, MSG_DONTWAIT);
    g_assert_cmpint (n, >, 0);
    buf[n] = '\0';
    gp_test_assert_has (buf, "event: window");
  }

  /* event streams, long by design, fill the cap: the next is refused */
  for (i = 0; i < G_N_ELEMENTS (streams) && refused == 0; i++) {
    gchar *req = g_strdup_printf ("GET /api/events HTTP/1.1\r\n"
        "Host: 127.0.0.1:%u\r\n\r\n", sv.port);
    gchar head[256] = "";
    gssize n;

    streams[n_streams++] = tcp_open (sv.port, req);
    g_free (req);
    n = recv (streams[n_streams - 1], head, sizeof (head) - 1, 0);
    if (n > 0 && strstr (head, " 503 ")) {
      gp_test_assert_has (head, "too many connections");
      refused++;
    }
  }
  g_test_message ("%u event streams, the last refused: %u", n_streams,
      refused);
  g_assert_cmpuint (refused, ==, 1);
  g_assert_cmpuint (n_streams, <, G_N_ELEMENTS (streams));
  for (i = 0; i < n_streams; i++)
    close (streams[i]);
  close (panel);
  for (i = 0; i < FLOOD_IDLE; i++)
    close (idle[i]);
  for (i = 0; i < FLOOD_SLOW; i++)
    close (slow[i]);
  /* once they are gone, served again */
  for (i = 0; i < 20; i++) {
    http (sv.port, "GET", "/healthz", "", NULL, &r);
    reply_clear (&r);
    if (r.status == 200)
      break;
    g_usleep (100000);
  }
  g_assert_cmpuint (r.status, ==, 200);
  g_assert_cmpint (server_wait_exit (&sv, 20), >=, 0);
  server_clear (&sv);
  g_free (session);
  g_free (out);
}

/* A run that serves without --hold: a reader of its event stream still
 * gets the last window and "end", and the stream's own end (the server
 * once went away first: curl exited 18, a transfer cut short). */
static void
test_end_without_hold (void)
{
  gchar *out = g_build_filename (tmp, "no-hold", NULL);
  gchar *req, buf[8192];
  GString *all = g_string_new (NULL);
  Server sv;
  gssize n;
  gint fd;

  server_start (&sv, "run", "--serve", "--port", "0", "--quiet",
      "--duration", "2s", "--out", out, LIVE_LAUNCH, NULL);
  g_assert_true (poll_ready (sv.port, 10));
  req = g_strdup_printf ("GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:%u"
      "\r\n\r\n", sv.port);
  fd = tcp_open (sv.port, req);
  while ((n = recv (fd, buf, sizeof (buf), 0)) > 0)
    g_string_append_len (all, buf, n);
  close (fd);
  /* chunked: the last chunk, then the close */
  gp_test_assert_has (all->str, "event: window");
  gp_test_assert_has (all->str, "event: end");
  g_assert_true (g_str_has_suffix (all->str, "0\r\n\r\n"));
  g_assert_cmpint (server_wait_exit (&sv, 10), >=, 0);
  g_string_free (all, TRUE);
  g_free (req);
  server_clear (&sv);
  g_free (out);
}

/* ---- the tests ---------------------------------------------------------- */

/* A live run: the state and the windows carry the planted element's self
 * time; Mark lands in the session; Stop without the token or from another
 * origin is refused, with it ends the run as Ctrl-C does. */
static void
test_live (void)
{
  gchar *out = g_build_filename (tmp, "live", NULL);
  gchar *headers, *sess;
  Server sv;
  Reply r;
  JsonParser *p;
  JsonObject *o;
  GPtrArray *w;
  GSocketConnection *stuck;
  gdouble p50, truth = SLEEP_MS + gp_test_oversleep_ms (SLEEP_MS);
  gint code;
  guint i;

  server_start (&sv, "run", "--serve", "--port", "0", "--quiet",
      "--duration", "0", "--hold", "3s", "--out", out, LIVE_LAUNCH, NULL);
  http (sv.port, "GET", "/healthz", "", NULL, &r);
  g_assert_cmpuint (r.status, ==, 200);
  reply_clear (&r);
  g_assert_true (poll_ready (sv.port, 10));

  http (sv.port, "GET", "/api/state", "", NULL, &r);
  g_assert_cmpuint (r.status, ==, 200);
  gp_test_assert_has (r.head, "Content-Security-Policy: default-src 'self'");
  o = reply_json (&r, &p);
  g_assert_true (json_object_get_boolean_member (o, "live"));
  /* the token is the printed address's only */
  g_assert_false (json_object_has_member (o, "token"));
  g_assert_nonnull (sv.token);
  g_assert_cmpuint (strlen (sv.token), ==, 32);
  g_assert_null (strstr (r.body, sv.token));
  headers = g_strdup_printf ("X-Gstprof-Token: %s\r\n", sv.token);
  g_object_unref (p);
  reply_clear (&r);
  assert_other_account_cannot_stop (sv.port);

  /* a client that opens the event stream and never reads it: the others
   * still get their windows, and the run stops when told */
  {
    GSocketClient *c = g_socket_client_new ();
    gchar *req = g_strdup_printf ("GET /api/events HTTP/1.1\r\n"
        "Host: 127.0.0.1:%u\r\n\r\n", sv.port);

    g_socket_client_set_enable_proxy (c, FALSE);
    stuck = g_socket_client_connect_to_host (c, "127.0.0.1", sv.port, NULL,
        NULL);
    g_assert_nonnull (stuck);
    g_output_stream_write_all (g_io_stream_get_output_stream (G_IO_STREAM
            (stuck)), req, strlen (req), NULL, NULL, NULL);
    g_object_unref (c);
    g_free (req);
  }

  /* two windows, each with the planted element's summary so far */
  w = read_windows (sv.port, 2);
  g_assert_cmpuint (w->len, ==, 2);
  p50 = json_double_at (g_ptr_array_index (w, 1),
      "summary.elements.slow.self_ms.p50");
  g_test_message ("slow: self p50 %.2f ms live (slept %.2f ms)", p50, truth);
  /* the machine so far, window by window */
  g_assert_true (strstr (g_ptr_array_index (w, 0), "\"cpu.load/all\"") ||
      strstr (g_ptr_array_index (w, 1), "\"cpu.load/all\""));
  g_assert_cmpfloat (fabs (p50 - truth), <=, 0.1 * truth);
  g_ptr_array_unref (w);

  http (sv.port, "POST", "/api/mark", headers, "hello mark", &r);
  g_assert_cmpuint (r.status, ==, 200);
  reply_clear (&r);
  http (sv.port, "POST", "/api/stop", "", "", &r);
  g_assert_cmpuint (r.status, ==, 403);
  reply_clear (&r);
  {
    gchar *cross = g_strdup_printf ("%sOrigin: http://evil.example\r\n",
        headers);

    http (sv.port, "POST", "/api/stop", cross, "", &r);
    g_assert_cmpuint (r.status, ==, 403);
    reply_clear (&r);
    g_free (cross);
  }
  /* the page's own origin, by either of the names it may be opened at */
  {
    gchar *own = g_strdup_printf ("%sOrigin: http://localhost:%u\r\n"
        "Host: localhost:%u\r\n", headers, sv.port, sv.port);
    gchar *req = g_strdup_printf ("POST /api/mark HTTP/1.1\r\n%s"
        "Connection: close\r\nContent-Length: 5\r\n\r\nlocal", own);

    http_raw (sv.port, req, strlen (req), &r);
    g_assert_cmpuint (r.status, ==, 200);
    reply_clear (&r);
    g_free (req);
    g_free (own);
  }
  http (sv.port, "POST", "/api/stop", headers, "", &r);
  g_assert_cmpuint (r.status, ==, 200);
  reply_clear (&r);
  /* --hold: the result is still served, and there is nothing to stop */
  for (i = 0; i < 50; i++) {
    http (sv.port, "GET", "/api/state", "", NULL, &r);
    if (strstr (r.body, "\"ended\":true"))
      break;
    reply_clear (&r);
    g_usleep (100000);
  }
  gp_test_assert_has (r.body, "\"ended\":true");
  reply_clear (&r);
  http (sv.port, "POST", "/api/stop", headers, "", &r);
  g_assert_cmpuint (r.status, ==, 409);
  reply_clear (&r);
  code = server_wait_exit (&sv, 10);
  g_assert_cmpint (code, >=, 0);
  g_assert_cmpint (code, <=, 1);

  g_object_unref (stuck);
  sess = gp_test_read_file (out, "session.json");
  g_assert_nonnull (sess);
  gp_test_assert_has (sess, "\"hello mark\"");
  gp_test_assert_has (sess, "\"local\"");
  gp_test_assert_has (sess, "Stop in the panel");
  g_free (sess);
  g_free (headers);
  server_clear (&sv);
  g_free (out);
}

/* wrap --serve: the program's session so far, live; Stop reaches the
 * program as Ctrl-C would (gst-launch-1.0 -e drains to EOS and exits). */
static void
test_wrap (void)
{
  gchar *out = g_build_filename (tmp, "wrap", NULL);
  gchar *headers, *sess;
  gdouble p50 = -1, truth = SLEEP_MS + gp_test_oversleep_ms (SLEEP_MS);
  Server sv;
  Reply r;
  JsonParser *p;
  JsonObject *o;
  guint i;

  server_start (&sv, "wrap", "--serve", "--port", "0", "--quiet", "--out",
      out, "--", "gst-launch-1.0", "-q", "-e", "videotestsrc",
      "is-live=true", "!", "identity", "name=slow", "sleep-time=20000", "!",
      "fakesink", NULL);
  g_assert_true (poll_ready (sv.port, 15));
  /* the state is remade every 2 s (GP_SERVE_RULES_S): the first may hold
   * no buffer yet */
  for (i = 0; i < 40; i++) {
    http (sv.port, "GET", "/api/state", "", NULL, &r);
    p50 = json_double_at (r.body,
        "session.summary.elements.slow.self_ms.p50");
    if (p50 > 0)
      break;
    reply_clear (&r);
    g_usleep (200000);
  }
  o = reply_json (&r, &p);
  g_test_message ("wrapped slow: self p50 %.2f ms live (slept %.2f ms)", p50,
      truth);
  g_assert_cmpfloat (fabs (p50 - truth), <=, 0.1 * truth);
  g_assert_false (json_object_has_member (o, "token"));
  g_assert_nonnull (sv.token);
  headers = g_strdup_printf ("X-Gstprof-Token: %s\r\n", sv.token);
  g_object_unref (p);
  reply_clear (&r);
  http (sv.port, "POST", "/api/mark", headers, "wrapped mark", &r);
  g_assert_cmpuint (r.status, ==, 200);
  reply_clear (&r);
  g_usleep (500000);
  http (sv.port, "POST", "/api/stop", headers, "", &r);
  g_assert_cmpuint (r.status, ==, 200);
  reply_clear (&r);
  g_assert_cmpint (server_wait_exit (&sv, 15), >=, 0);
  sess = gp_test_read_file (out, "session.json");
  g_assert_nonnull (sess);
  gp_test_assert_has (sess, "\"wrapped mark\"");
  gp_test_assert_has (sess, "Stop in the panel");
  g_free (sess);
  g_free (headers);
  server_clear (&sv);
  g_free (out);
}

/* What a server on loopback refuses: another host name (a rebinding
 * page), other methods, unknown paths and ones that climb, bodies and
 * headers past their bounds; and 200 event streams opened and dropped
 * leave its memory where it was. */
static void
test_bounds (void)
{
  const gchar *session = gp_test_run_once (tmp, LIVE_LAUNCH);
  gchar *req, *big;
  Server sv;
  Reply r;
  guint i;

  server_start (&sv, "serve", "--port", "0", session, NULL);
  http (sv.port, "GET", "/../../etc/passwd", "", NULL, &r);
  g_assert_cmpuint (r.status, ==, 404);
  reply_clear (&r);
  http (sv.port, "GET", "/nothing", "", NULL, &r);
  g_assert_cmpuint (r.status, ==, 404);
  reply_clear (&r);
  http (sv.port, "PUT", "/api/state", "", "x", &r);
  g_assert_cmpuint (r.status, ==, 405);
  reply_clear (&r);

  /* another name in Host, in a second Host (libsoup reads the last one),
   * or in an absolute target (which comes before Host); "%1$u" is the
   * port */
  {
    static const struct
    {
      const gchar *request;
      guint status;
    } hosts[] = {
      {"GET /api/state HTTP/1.1\r\nHost: evil.example:%1$u\r\n", 421},
      {"GET /api/state HTTP/1.1\r\nHost: evil.example\r\n"
            "Host: 127.0.0.1:%1$u\r\n", 400},
      {"GET http://evil.example/api/state HTTP/1.1\r\n"
            "Host: 127.0.0.1:%1$u\r\n", 421},
      {"GET http://localhost:%1$u/api/state HTTP/1.1\r\n"
            "Host: localhost:%1$u\r\n", 200},
    };

    for (i = 0; i < G_N_ELEMENTS (hosts); i++) {
      gchar *head = g_strdup_printf (hosts[i].request, sv.port);

      req = g_strconcat (head, "Connection: close\r\n\r\n", NULL);
      http_raw (sv.port, req, strlen (req), &r);
      if (r.status != hosts[i].status)
        g_error ("%s: %u, expected %u", head, r.status, hosts[i].status);
      reply_clear (&r);
      g_free (req);
      g_free (head);
    }
  }

  big = g_strnfill (10000, 'a');
  http (sv.port, "POST", "/api/mark", "X-Gstprof-Token: x\r\n", big, &r);
  g_assert_cmpuint (r.status, ==, 413);
  reply_clear (&r);
  g_free (big);
  big = g_strnfill (20000, 'h');
  req = g_strdup_printf ("X-Big: %s\r\n", big);
  http (sv.port, "GET", "/api/state", req, NULL, &r);
  g_assert_cmpuint (r.status, ==, 431);
  reply_clear (&r);
  g_free (req);
  g_free (big);

  /* a replay has no run to stop */
  http (sv.port, "POST", "/api/stop", "X-Gstprof-Token: \r\n", "", &r);
  g_assert_cmpuint (r.status, ==, 403);
  reply_clear (&r);

  {
    gchar *status_path = g_strdup_printf ("/proc/%d/status", sv.pid);
    gchar *text;
    const gchar *at;
    glong rss0, rss1;

    for (i = 0; i < 20; i++)
      g_ptr_array_unref (read_windows (sv.port, 0));
    g_file_get_contents (status_path, &text, NULL, NULL);
    at = strstr (text, "VmRSS:");
    rss0 = atol (at + 6);
    g_free (text);
    for (i = 0; i < 200; i++)
      g_ptr_array_unref (read_windows (sv.port, 0));
    g_usleep (200000);
    g_file_get_contents (status_path, &text, NULL, NULL);
    at = strstr (text, "VmRSS:");
    rss1 = atol (at + 6);
    g_free (text);
    g_test_message ("RSS %ld kB before 200 event streams, %ld kB after",
        rss0, rss1);
    /* AddressSanitizer keeps freed blocks in its quarantine (256 MiB):
     * there the RSS says nothing, and LeakSanitizer at exit checks that
     * each stream's memory went back */
    if (!gp_test_sanitized ())
      g_assert_cmpint (rss1 - rss0, <, 2048);
    g_free (status_path);
  }
  kill (sv.pid, SIGTERM);
  g_assert_cmpint (server_wait_exit (&sv, 5), ==, 0);
  server_clear (&sv);
}

/* A replay: the whole session at once, its findings, not live, masked
 * unless --no-redact. */
static void
test_replay (void)
{
  gchar *dir = g_build_filename (tmp, "replay", NULL);
  gchar *loc = g_build_filename (g_get_home_dir (), "private-folder",
      "out.raw", NULL);
  gchar *launch = g_strdup_printf ("videotestsrc num-buffers=30 ! "
      "video/x-raw,width=160,height=120 ! identity name=slow "
      "sleep-time=20000 ! filesink location=%s", loc);
  gchar *session = g_build_filename (dir, "session.json", NULL);
  gchar *base = g_path_get_dirname (loc);
  GpTestRun run;
  Server sv;
  Reply r;
  JsonParser *p;
  JsonObject *o, *s;

  g_mkdir_with_parents (base, 0700);
  gp_test_run_gstprof (&run, tmp, "run", "--quiet", "--out", dir, launch,
      NULL);
  g_assert_cmpint (run.code, <=, 1);
  gp_test_run_clear (&run);

  server_start (&sv, "serve", "--port", "0", session, NULL);
  g_assert_true (poll_ready (sv.port, 5));
  http (sv.port, "GET", "/api/state", "", NULL, &r);
  o = reply_json (&r, &p);
  g_assert_false (json_object_get_boolean_member (o, "live"));
  g_assert_false (json_object_has_member (o, "token"));
  g_assert_null (sv.token);
  s = json_object_get_object_member (o, "session");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (s,
              "findings")), >, 0);
  g_assert_null (strstr (r.body, "private-folder"));
  g_object_unref (p);
  reply_clear (&r);
  /* the panel's Save: masked as shown, the location's file name kept */
  http (sv.port, "GET", "/api/session.json", "", NULL, &r);
  g_assert_cmpuint (r.status, ==, 200);
  gp_test_assert_has (r.head, "attachment");
  gp_test_assert_has (r.body, "out.raw");
  g_assert_null (strstr (r.body, "private-folder"));
  reply_clear (&r);
  http (sv.port, "GET", "/api/graph.svg", "", NULL, &r);
  g_assert_cmpuint (r.status, ==, 200);
  gp_test_assert_has (r.body, "<svg");
  gp_test_assert_has (r.body, "slow");
  reply_clear (&r);
  /* a PC shows no accelerator's memory traffic: no roofline */
  http (sv.port, "GET", "/api/roofline.svg", "", NULL, &r);
  g_assert_cmpuint (r.status, ==, 404);
  reply_clear (&r);
  kill (sv.pid, SIGTERM);
  g_assert_cmpint (server_wait_exit (&sv, 5), ==, 0);
  server_clear (&sv);

  server_start (&sv, "serve", "--port", "0", "--no-redact", session, NULL);
  http (sv.port, "GET", "/api/state", "", NULL, &r);
  gp_test_assert_has (r.body, "private-folder");
  reply_clear (&r);
  server_clear (&sv);

  g_unlink (loc);
  g_rmdir (base);
  g_free (base);
  g_free (loc);
  g_free (launch);
  g_free (session);
  g_free (dir);
}

/* A Jetson's tegrastats log alone: the machine views (every series of the
 * log, a GPU load among them in /metrics), no graph. */
static void
test_replay_log (void)
{
  gchar *log = g_build_filename (g_getenv ("GP_FIXTURES"), "telemetry",
      "tegrastats_agx_orin64_r36.4.4_nvenc_active.txt", NULL);
  Server sv;
  Reply r;
  JsonParser *p;
  JsonObject *o, *s;

  server_start (&sv, "serve", "--port", "0", log, NULL);
  http (sv.port, "GET", "/api/state", "", NULL, &r);
  o = reply_json (&r, &p);
  s = json_object_get_object_member (o, "session");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member
          (json_object_get_object_member (s, "machine"), "series")), >, 10);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member
          (json_object_get_object_member (s, "graph"), "elements")), ==, 0);
  g_object_unref (p);
  reply_clear (&r);
  http (sv.port, "GET", "/metrics", "", NULL, &r);
  g_assert_cmpuint (r.status, ==, 200);
  gp_test_assert_has (r.body, "gstprof_machine_gpu_load_ratio{");
  reply_clear (&r);
  /* the EMC's load is memory traffic: the roofline, as report draws it
   * for the same log, its caption in the state */
  http (sv.port, "GET", "/api/roofline.svg", "", NULL, &r);
  g_assert_cmpuint (r.status, ==, 200);
  gp_test_assert_has (r.head, "image/svg+xml");
  gp_test_assert_has (r.body, "<svg");
  reply_clear (&r);
  http (sv.port, "GET", "/api/state", "", NULL, &r);
  o = reply_json (&r, &p);
  gp_test_assert_has (json_object_get_string_member (o, "roofline"),
      "peaks: ");
  gp_test_assert_has (json_object_get_string_member (o, "roofline"),
      "Orin");
  g_object_unref (p);
  reply_clear (&r);
  server_clear (&sv);
  g_free (log);
}


/* 200 requests on connections kept alive that the client closes once
 * answered, as a scraper or a probe does: the server's descriptors stay
 * where they were (libsoup 3.2's own listener kept each one for ever). */
static void
close_idle_connections (Server * sv)
{
  gchar *req = g_strdup_printf ("GET /healthz HTTP/1.1\r\n"
      "Host: 127.0.0.1:%u\r\n\r\n", sv->port);
  guint before = count_fds (sv->pid), i;
  gint64 end;

  for (i = 0; i < 200; i++) {
    GSocketClient *c = g_socket_client_new ();
    GSocketConnection *conn;
    gchar buf[1024];

    g_socket_client_set_enable_proxy (c, FALSE);
    g_socket_client_set_timeout (c, 5);
    conn = g_socket_client_connect_to_host (c, "127.0.0.1", sv->port, NULL,
        NULL);
    g_assert_nonnull (conn);
    g_output_stream_write_all (g_io_stream_get_output_stream (G_IO_STREAM
            (conn)), req, strlen (req), NULL, NULL, NULL);
    g_assert_cmpint (g_input_stream_read (g_io_stream_get_input_stream
            (G_IO_STREAM (conn)), buf, sizeof (buf), NULL, NULL), >, 0);
    g_io_stream_close (G_IO_STREAM (conn), NULL, NULL);
    g_object_unref (conn);
    g_object_unref (c);
  }
  /* (the server closes its ends as it reads them gone) */
  end = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;
  while (count_fds (sv->pid) > before + 2 && g_get_monotonic_time () < end)
    g_usleep (50000);
  g_test_message ("descriptors: %u before, %u after 200 connections",
      before, count_fds (sv->pid));
  g_assert_cmpuint (count_fds (sv->pid), <=, before + 2);
  g_free (req);
}

/* Bytes that are no HTTP, cut requests and lines without end: the server
 * answers each with an error or drops it, and still serves, its
 * descriptors where they were. */
static void
test_garbage (void)
{
  const gchar *session = gp_test_run_once (tmp, LIVE_LAUNCH);
  GRand *rand = g_rand_new_with_seed (22);
  Server sv;
  Reply r;
  guint i, j;

  server_start (&sv, "serve", "--port", "0", session, NULL);
  for (i = 0; i < 200; i++) {
    GSocketClient *c = g_socket_client_new ();
    GSocketConnection *conn;
    guint len = g_rand_int_range (rand, 1, 3000);
    guchar *junk = g_malloc (len);

    g_socket_client_set_enable_proxy (c, FALSE);
    g_socket_client_set_timeout (c, 5);
    for (j = 0; j < len; j++)
      junk[j] = (guchar) g_rand_int_range (rand, 0, 256);
    /* a third of them start like a request, so the parser goes further */
    if (i % 3 == 0 && len > 20)
      memcpy (junk, "GET /api/state HTTP/1.1\r\n", 25);
    conn = g_socket_client_connect_to_host (c, "127.0.0.1", sv.port, NULL,
        NULL);
    g_assert_nonnull (conn);
    g_output_stream_write_all (g_io_stream_get_output_stream (G_IO_STREAM
            (conn)), junk, len, NULL, NULL, NULL);
    g_io_stream_close (G_IO_STREAM (conn), NULL, NULL);
    g_object_unref (conn);
    g_object_unref (c);
    g_free (junk);
  }
  http (sv.port, "GET", "/healthz", "", NULL, &r);
  g_assert_cmpuint (r.status, ==, 200);
  reply_clear (&r);
  close_idle_connections (&sv);
  kill (sv.pid, SIGTERM);
  g_assert_cmpint (server_wait_exit (&sv, 5), ==, 0);
  server_clear (&sv);
  g_rand_free (rand);
}

/* ---- in process --------------------------------------------------------- */

/* A session of @n elements, each with its summary: a window of a few
 * dozen KiB. */
static GpSession *
wide_session (guint n)
{
  GString *json = g_string_new ("{\"schema\": \"gstprof/1\", "
      "\"summary\": {\"elements\": {");
  GError *err = NULL;
  GpSession *s;
  guint i;

  for (i = 0; i < n; i++)
    g_string_append_printf (json, "%s\"element%04u\": {\"buffers\": %u, "
        "\"self_total_ms\": %u.5, \"self_ms\": {\"p50\": 1.25, "
        "\"p95\": 2.5, \"p99\": 3.75, \"max\": 4.5}}", i ? ", " : "", i,
        1000 + i, i);
  g_string_append (json, "}}}");
  s = gp_session_load_data (json->str, -1, "wide", &err);
  g_assert_no_error (err);
  g_string_free (json, TRUE);
  return s;
}

/* An event stream opened on @port by a client whose receive buffer is
 * @rcvbuf bytes (0: the kernel's), read without waiting. */
static gint
events_open (guint port, gint rcvbuf)
{
  struct sockaddr_in a = {.sin_family = AF_INET,.sin_port = htons (port),
    .sin_addr.s_addr = htonl (INADDR_LOOPBACK)
  };
  gint fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  gchar *req = g_strdup_printf ("GET /api/events HTTP/1.1\r\n"
      "Host: 127.0.0.1:%u\r\n\r\n", port);

  g_assert_cmpint (fd, >=, 0);
  if (rcvbuf > 0)
    g_assert_cmpint (setsockopt (fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf,
            sizeof (rcvbuf)), ==, 0);
  if (connect (fd, (struct sockaddr *) &a, sizeof (a)) != 0)
    g_error ("connect to port %u: %s", port, g_strerror (errno));
  g_assert_cmpint (send (fd, req, strlen (req), MSG_NOSIGNAL), ==,
      (gssize) strlen (req));
  g_unix_set_fd_nonblocking (fd, TRUE, NULL);
  g_free (req);
  return fd;
}

/* What @fd has now, appended to @got; the main context run first. */
static void
events_read (gint fd, GString * got)
{
  gchar buf[65536];
  gssize n;

  while (g_main_context_iteration (NULL, FALSE));
  while ((n = recv (fd, buf, sizeof (buf), 0)) > 0)
    g_string_append_len (got, buf, n);
}

static guint
count_of (const gchar * text, const gchar * what)
{
  guint n = 0;

  for (; (text = strstr (text, what)); text += strlen (what))
    n++;
  return n;
}

/* A client that stops reading its event stream never grows the server's
 * memory past its bound: once its unread windows pass it, its stream is
 * ended (the server, in this process, holds the bound, 4 MiB); a client
 * that reads on gets every window. */
static void
test_stalled_dropped (void)
{
  GpServeOptions opts = {.live = TRUE };
  GpSession *s = wide_session (400);
  GError *err = NULL;
  GpServer *srv = gp_server_new (&opts, &err);
  GString *live = g_string_new (NULL), *stalled = g_string_new (NULL);
  gint fd_live, fd_stalled;
  guint i, n_updates = 0, first;
  gint64 end;

  g_assert_no_error (err);
  fd_stalled = events_open (gp_server_port (srv), 4096);
  fd_live = events_open (gp_server_port (srv), 0);
  events_read (fd_stalled, stalled);
  gp_server_update (srv, s);
  n_updates++;
  events_read (fd_live, live);
  g_assert_cmpuint (count_of (live->str, "event: window\n"), ==, 1);
  /* windows enough for eight times the bound, the kernel's buffers too */
  first = live->len;
  for (i = 0; i * first < 32 * 1024 * 1024 && i < 5000; i++) {
    gp_server_update (srv, s);
    n_updates++;
    events_read (fd_live, live);
    /* (the live client's reads keep its own share small) */
    if (live->len > 1024 * 1024)
      g_string_erase (live, 0, live->len - 64);
  }
  g_test_message ("%u windows of %u bytes", n_updates, first);
  /* now read the stalled one: what was queued for it, then its end */
  end = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  while (g_get_monotonic_time () < end &&
      !g_str_has_suffix (stalled->str, "\r\n0\r\n\r\n")) {
    events_read (fd_stalled, stalled);
    g_usleep (1000);
  }
  g_assert_true (g_str_has_suffix (stalled->str, "\r\n0\r\n\r\n"));
  g_test_message ("the stalled client got %u windows, %zu bytes",
      count_of (stalled->str, "event: window\n"), stalled->len);
  g_assert_cmpuint (count_of (stalled->str, "event: window\n"), <,
      n_updates);
  g_assert_cmpuint (count_of (stalled->str, "event: window\n"), >, 0);
  /* the live client is still served */
  g_string_truncate (live, 0);
  gp_server_update (srv, s);
  events_read (fd_live, live);
  g_assert_cmpuint (count_of (live->str, "event: window\n"), ==, 1);

  close (fd_live);
  close (fd_stalled);
  gp_server_free (srv);
  gp_session_free (s);
  g_string_free (live, TRUE);
  g_string_free (stalled, TRUE);
}

/* A build without libsoup 3: --serve and serve say so in one line, exit
 * 3, and nothing runs. */
static void
test_unavailable (void)
{
  GpTestRun r;
  gchar *path;

  gp_test_run_gstprof (&r, tmp, "run", "--serve", "--quiet", "--out",
      "unavailable", "videotestsrc num-buffers=5 ! fakesink", NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, "without libsoup 3");
  path = g_build_filename (tmp, "unavailable", "session.json", NULL);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  g_free (path);
  gp_test_run_clear (&r);
}

int
main (int argc, char **argv)
{
  gint ret;

  g_test_init (&argc, &argv, NULL);
  tmp = g_dir_make_tmp ("gstprof-serve-XXXXXX", NULL);
  if (GP_HAVE_SERVE) {
    g_test_add_func ("/serve/live", test_live);
    g_test_add_func ("/serve/wrap", test_wrap);
    g_test_add_func ("/serve/bounds", test_bounds);
    g_test_add_func ("/serve/connections", test_connections);
    g_test_add_func ("/serve/end-without-hold", test_end_without_hold);
    g_test_add_func ("/serve/replay", test_replay);
    g_test_add_func ("/serve/replay-log", test_replay_log);
    g_test_add_func ("/serve/garbage", test_garbage);
    g_test_add_func ("/serve/stalled-dropped", test_stalled_dropped);
  } else
    g_test_add_func ("/serve/unavailable", test_unavailable);
  ret = g_test_run ();
  gp_test_remove_tree (tmp);
  g_free (tmp);
  return ret;
}
