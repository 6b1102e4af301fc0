/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * fuzz-serve.c: libFuzzer target for the requests the live panel's server
 * answers (src/serve/gp-serve.c, included here for the server's token and
 * port): whoever reaches its port may send anything. The server is the real
 * one, listening on loopback with a session's state (each session of
 * $GP_FUZZ_SESSIONS that loads, a live server each, kept from input to
 * input); the input's first byte picks one and the rest is written as one
 * TCP connection, "@TOKEN@" and "@PORT@" replaced by that server's token
 * and port so that the fuzzer reaches past the token and Host checks. The
 * main context runs between the writes as the capture's loop would; a
 * window is sent halfway (an event stream open then gets it), and the
 * connection is closed at the end.
 * For any input:
 * - nothing crashes, hangs or leaks, and the server serves the next input;
 * - what comes back, when anything does, is HTTP/1.x;
 * - Stop and Mark are reached only by an input that carries the token.
 *
 * Built and run by tests/fuzz/run-fuzz.sh (`make fuzz`), with requests of
 * every route as seeds (tests/fuzz/serve-seeds/).
 */
#define _GNU_SOURCE             /* memmem */
#include "serve/gp-serve.c"

#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <gst/gst.h>

#define GP_FUZZ_TOKEN "@TOKEN@"
#define GP_FUZZ_PORT "@PORT@"
/* Sessions (servers) at most, and rounds of the main context a piece of
 * the connection gets: each round dispatches what is ready, none waits. */
#define GP_FUZZ_SERVERS 8
#define GP_FUZZ_ROUNDS 64

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const guint8 * data, size_t size);

typedef struct
{
  GpServer *srv;
  GpSession *s;
  guint acted;                  /* Stop and Mark calls since the input began */
} GpFuzzServer;

static GpFuzzServer servers[GP_FUZZ_SERVERS];
static guint n_servers;

static gboolean
gp_fuzz_stop (gpointer data)
{
  ((GpFuzzServer *) data)->acted++;
  return TRUE;
}

static gboolean
gp_fuzz_mark (const gchar * text, gpointer data)
{
  if (!g_utf8_validate (text, -1, NULL))
    abort ();
  ((GpFuzzServer *) data)->acted++;
  return TRUE;
}

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  const gchar *dir = g_getenv ("GP_FUZZ_SESSIONS"), *name;
  GDir *d;

  gst_init (NULL, NULL);
  d = dir ? g_dir_open (dir, 0, NULL) : NULL;
  if (d == NULL) {
    g_printerr ("fuzz-serve: GP_FUZZ_SESSIONS names no folder of sessions\n");
    exit (3);
  }
  while ((name = g_dir_read_name (d)) && n_servers < GP_FUZZ_SERVERS) {
    gchar *path = g_build_filename (dir, name, NULL);
    GpFuzzServer *f = &servers[n_servers];
    GpServeOptions opts = {.live = TRUE,.stop = gp_fuzz_stop,
      .mark = gp_fuzz_mark,.data = f
    };
    GError *err = NULL;

    f->s = gp_session_load (path, NULL);
    g_free (path);
    if (f->s == NULL)
      continue;
    f->srv = gp_server_new (&opts, &err);
    if (f->srv == NULL) {
      g_printerr ("fuzz-serve: %s\n", err->message);
      exit (3);
    }
    gp_server_update (f->srv, f->s);
    n_servers++;
  }
  g_dir_close (d);
  if (n_servers == 0) {
    g_printerr ("fuzz-serve: no session in %s loads\n", dir);
    exit (3);
  }
  return 0;
}

/* The main context, each source that is ready dispatched, for a while. */
static void
gp_fuzz_spin (void)
{
  guint i;

  for (i = 0; i < GP_FUZZ_ROUNDS; i++)
    if (!g_main_context_iteration (NULL, FALSE))
      break;
}

/* What the server wrote so far, appended to @got. */
static void
gp_fuzz_read (gint fd, GString * got)
{
  gchar buf[16384];
  gssize n;

  while ((n = recv (fd, buf, sizeof (buf), MSG_DONTWAIT)) > 0)
    g_string_append_len (got, buf, n);
}

static gint
gp_fuzz_connect (GpServer * srv)
{
  struct sockaddr_in a = {.sin_family = AF_INET,
    .sin_port = htons (srv->port),.sin_addr.s_addr = htonl (INADDR_LOOPBACK)
  };
  gint fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

  if (fd < 0 || connect (fd, (struct sockaddr *) &a, sizeof (a)) != 0)
    abort ();
  return fd;
}

/* The connection's bytes, written in two halves with the main context run
 * after each (a window sent after the first), then read to the end of
 * what came. */
static void
gp_fuzz_converse (GpFuzzServer * f, const gchar * req, gsize len,
    GString * got)
{
  gint fd = gp_fuzz_connect (f->srv);
  gsize half = len / 2, at = 0;
  guint part;

  for (part = 0; part < 2; part++) {
    gsize end = part == 0 ? half : len;

    while (at < end) {
      gssize n = send (fd, req + at, end - at, MSG_NOSIGNAL | MSG_DONTWAIT);

      if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
        break;                  /* the server closed it: answered already */
      if (n > 0)
        at += n;
      gp_fuzz_spin ();
      gp_fuzz_read (fd, got);
    }
    gp_fuzz_spin ();
    gp_fuzz_read (fd, got);
    if (part == 0)
      gp_server_update (f->srv, f->s);
  }
  gp_fuzz_spin ();
  gp_fuzz_read (fd, got);
  close (fd);
  /* the server sees it gone (an event stream's client dropped) */
  gp_fuzz_spin ();
}

/* @data with the placeholders replaced by @srv's token and port (bytes
 * may hold NULs: no string functions). */
static gchar *
gp_fuzz_request (GpServer * srv, const guint8 * data, gsize size, gsize * len)
{
  GString *req = g_string_sized_new (size);
  gchar port[16];
  gsize i = 0;

  g_snprintf (port, sizeof (port), "%u", srv->port);
  while (i < size) {
    const gchar *at = (const gchar *) data + i;

    if (size - i >= strlen (GP_FUZZ_TOKEN) &&
        memcmp (at, GP_FUZZ_TOKEN, strlen (GP_FUZZ_TOKEN)) == 0) {
      g_string_append (req, srv->token);
      i += strlen (GP_FUZZ_TOKEN);
    } else if (size - i >= strlen (GP_FUZZ_PORT) &&
        memcmp (at, GP_FUZZ_PORT, strlen (GP_FUZZ_PORT)) == 0) {
      g_string_append (req, port);
      i += strlen (GP_FUZZ_PORT);
    } else
      g_string_append_c (req, data[i++]);
  }
  *len = req->len;
  return g_string_free (req, FALSE);
}

int
LLVMFuzzerTestOneInput (const guint8 * data, size_t size)
{
  GpFuzzServer *f;
  GString *got;
  gchar *req;
  gsize len;
  gboolean has_token;

  if (size < 1)
    return 0;
  f = &servers[data[0] % n_servers];
  has_token = memmem (data + 1, size - 1, GP_FUZZ_TOKEN,
      strlen (GP_FUZZ_TOKEN)) != NULL;
  req = gp_fuzz_request (f->srv, data + 1, size - 1, &len);
  got = g_string_new (NULL);
  f->acted = 0;
  gp_fuzz_converse (f, req, len, got);

  if (got->len > 0 && !g_str_has_prefix (got->str, "HTTP/1.")) {
    g_printerr ("the server answered with no HTTP status line: '%.40s'\n",
        got->str);
    abort ();
  }
  if (f->acted > 0 && !has_token) {
    g_printerr ("Stop or Mark ran for a request without the token\n");
    abort ();
  }
  g_string_free (got, TRUE);
  g_free (req);
  return 0;
}
