/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-serve.c: the live panel's server (gp-serve.h) on libsoup 3.
 *
 * Once a GP_SERVE_RULES_S, an update makes a redacted copy of the session
 * so far (the capture's own is never touched) and runs the rules on it;
 * the copy answers /api/state, /metrics and /api/graph.svg until the next
 * one. Every update sends every client the same bytes: what is new since
 * the last (the measurements each window, what holds property values and
 * texts from the copy).
 */
#include <string.h>
#include <errno.h>
#include <malloc.h>
#include <fcntl.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <unistd.h>
#include <libsoup/soup.h>

#include "gp-serve.h"
#include "gp-metrics.h"
#include "export/gp-export.h"
#include "plot/gp-plot.h"
#include "report/gp-redact.h"
#include "rules/gp-rules.h"
#include "telemetry/gp-roofline-build.h"

/* The panel's page, the GResource compiled from panel/gp-panel.gresource.xml
 * (meson, --manual-register): looked up in it alone, never by path in the
 * global set, but made once by its register call (before that,
 * gp_panel_get_resource () is NULL). */
GResource *gp_panel_get_resource (void);
void gp_panel_register_resource (void);

/* A client whose unread events pass this many bytes is dropped: one that
 * stopped reading must not grow the capture's memory (a window is a few
 * KiB; this is minutes of them). */
#define GP_SERVE_MAX_BACKLOG (4 * 1024 * 1024)
/* The redacted copy (the state a client joins with, /metrics, the graph)
 * is made and the rules run on it at most this often (seconds): about 5 ms
 * on a small pipeline's 10 s session, which once a second was a quarter
 * of the server's cost; findings change slowly. */
#define GP_SERVE_RULES_S 2.0
/* The state's JSON (what a client joining gets, Save) keeps at most this
 * many samples of each machine series, neighbours merged past it: a
 * chart's worth of history, and its size bounded whatever the run's
 * length (the sampler keeps up to 32768 a series, once a window: written
 * whole every GP_SERVE_RULES_S, a run at 20 ms windows grew the server by
 * 5 MB in 30 s). The copy the rules, /metrics and the roofline read keeps
 * every sample, copied as they are, not through JSON. What comes after a
 * client joined comes whole, window by window. */
#define GP_SERVE_MACHINE_MAX 256
/* A request body (Mark's text) longer than this is refused (413). */
#define GP_SERVE_MAX_BODY 4096
/* Request headers longer than this, all together, are refused (431). */
#define GP_SERVE_MAX_HEADERS 16384
/* /readyz: a live capture is ready while windows came within this many
 * seconds. */
#define GP_SERVE_READY_S 5.0
/* A comment line keeps an idle event stream open through proxies and
 * tells a closed connection apart, this often (seconds). */
#define GP_SERVE_KEEPALIVE_S 15
/* Connections served at once, at most: a panel and a scraper or two need
 * a handful, a browser six per page. Never more than a quarter of the
 * descriptors the process had free when the server started
 * (GP_SERVE_FD_SHARE): the capture keeps the rest for its files, sockets
 * and pipes (1,020 idle connections once took all 1,024, and the panel,
 * /healthz and the checkpoints with them). Past the cap the oldest
 * connection that is not in the middle of a request is closed to make
 * room; when every one is, the newcomer gets 503. */
#define GP_SERVE_MAX_CONNECTIONS 64
/* Connections the kernel completes before the server accepts them. */
#define GP_SERVE_LISTEN_BACKLOG 128
#define GP_SERVE_FD_SHARE 4
/* A connection with no request in progress is closed after this many
 * seconds (a kept-alive browser connection reopens at once; an idle one
 * held open by anyone else holds a descriptor for nothing). */
#define GP_SERVE_IDLE_S 5
/* A request's headers must be in this many seconds after it began
 * (headers sent one byte a second were once held forever), and the whole
 * request, but an event stream, answered within GP_SERVE_REQUEST_S. */
#define GP_SERVE_HEADERS_S 5
#define GP_SERVE_REQUEST_S 30

typedef struct
{
  GpServer *srv;
  SoupServerMessage *msg;
  gsize backlog;                /* bytes appended, not yet written */
  gboolean gone;
} GpServeClient;

/* One accepted connection, from accept to its stream's finalization. */
typedef struct
{
  GpServer *srv;
  GSocketConnection *conn;      /* weak: libsoup holds it while it serves */
  GSocket *socket;
  gchar *peer;                  /* the client's address:port, the key of
                                 * srv->conns */
  gint64 since_us;              /* accepted, or its last request ended */
  gint64 request_us;            /* a request began; 0: none in progress */
  gboolean headers;             /* that request's headers are in */
  gboolean streaming;           /* it is an event stream: long by design */
  gboolean closing;             /* shut down by the server, going */
} GpServeConn;

struct _GpServer
{
  SoupServer *soup;
  GSocketService *service;      /* accepts; each connection goes to soup */
  GpServeOptions opts;
  gchar *host;
  guint port;
  gchar *url;
  gchar *token;
  GResource *panel;
  GHashTable *conns;            /* peer -> GpServeConn* */
  guint max_conns;
  guint sweep_id;

  GpSession *current;           /* the redacted copy, with findings */
  gchar *session_json;          /* current, as JSON */
  /* the state as its event ("event: state\ndata: STATE\n\n"), made once
   * for every client that joins and /api/state until the state changes;
   * NULL until asked */
  GBytes *state_event;
  /* the accelerator's roofline of current's machine, where it shows its
   * memory traffic (a Jetson): the picture, and its caption; NULL none */
  GBytes *roofline_svg;
  gchar *roofline_caption;
  gboolean have_state;
  gboolean ended;
  gboolean playing;
  gint64 last_update_us;
  gint64 last_rules_us;
  GList *clients;               /* GpServeClient* */
  guint keepalive_id;

  /* what the clients have: the delta's bookkeeping */
  gdouble sent_series_t1;
  GHashTable *sent_machine;     /* series name -> gdouble* last t sent */
  /* how far the state goes: a client that joins gets it, and from then
   * on everything after it, again to every client (they keep an entry
   * once, by its time) */
  gdouble state_series_t1;
  GHashTable *state_machine;    /* series name -> gdouble* last t */
  guint state_events;
  guint sent_events;
  gchar *sent_findings;
  gchar *sent_graph;
};

/* The connection @msg came on, NULL when it is not one of the server's:
 * by the client's address and port, which name one open connection
 * (a connection accepted as a stream has no GSocket in libsoup). */
static GpServeConn *
gp_serve_conn_of (GpServer * srv, SoupServerMessage * msg)
{
  GSocketAddress *remote = soup_server_message_get_remote_address (msg);
  gchar *peer;
  GpServeConn *c;

  if (remote == NULL)
    return NULL;
  peer = g_socket_connectable_to_string (G_SOCKET_CONNECTABLE (remote));
  c = g_hash_table_lookup (srv->conns, peer);
  g_free (peer);
  return c;
}

/* ---- the state ---------------------------------------------------------- */

/* A machine series' last time, as the bookkeeping's tables hold it. */
static gdouble *
gp_serve_new_time (gdouble t)
{
  gdouble *p = g_new (gdouble, 1);

  *p = t;
  return p;
}

/* A redacted (unless told not to) copy of @s, every machine sample in it
 * (the rules, /metrics and the roofline read them): the panel shows what
 * a report would, and the capture's session stays exact. */
static GpSession *
gp_serve_copy (GpServer * srv, GpSession * s)
{
  GpSession *copy = gp_session_copy (s, NULL);

  if (copy && !srv->opts.no_redact)
    gp_redact_session (copy);
  return copy;
}

static gchar *
gp_serve_node_string (JsonNode * node)
{
  return node ? json_to_string (node, FALSE) : g_strdup ("null");
}

/* The roofline's caption as a JSON value: a string, or null. */
static gchar *
gp_serve_roofline_json (GpServer * srv)
{
  JsonNode *n = srv->roofline_caption ?
      json_node_init_string (json_node_alloc (), srv->roofline_caption) : NULL;
  gchar *text = gp_serve_node_string (n);

  if (n)
    json_node_unref (n);
  return text;
}

/* The state event's framing, before and after the state's JSON. */
#define GP_SERVE_STATE_HEAD "event: state\ndata: "
#define GP_SERVE_STATE_TAIL "\n\n"

/* What a client joining now gets first, as its event: the same bytes for
 * every client (the state is as large as the session: a copy each would
 * be a copy each). */
static GBytes *
gp_serve_state_event (GpServer * srv)
{
  gchar *roofline;
  GString *ev;

  if (srv->state_event)
    return srv->state_event;
  roofline = gp_serve_roofline_json (srv);
  ev = g_string_new (GP_SERVE_STATE_HEAD);
  /* never the token: anyone who can connect may read the state */
  g_string_append_printf (ev, "{\"live\":%s,\"ended\":%s,"
      "\"roofline\":%s,\"session\":",
      srv->opts.live ? "true" : "false", srv->ended ? "true" : "false",
      roofline);
  g_string_append (ev, srv->session_json ? srv->session_json : "null");
  g_string_append (ev, "}" GP_SERVE_STATE_TAIL);
  g_free (roofline);
  srv->state_event = g_string_free_to_bytes (ev);
  return srv->state_event;
}

/* The state alone (/api/state): the event's bytes less its framing. */
static GBytes *
gp_serve_state_json (GpServer * srv)
{
  GBytes *ev = gp_serve_state_event (srv);

  return g_bytes_new_from_bytes (ev, strlen (GP_SERVE_STATE_HEAD),
      g_bytes_get_size (ev) - strlen (GP_SERVE_STATE_HEAD) -
      strlen (GP_SERVE_STATE_TAIL));
}

/* @session's member @key into @w when it is not what @sent says was
 * sent last (then it is). */
static void
gp_serve_if_changed (JsonObject * session, const gchar * key, gchar ** sent,
    JsonObject * w)
{
  JsonNode *node = json_object_get_member (session, key);
  gchar *text = gp_serve_node_string (node);

  if (g_strcmp0 (text, *sent) != 0) {
    json_object_set_member (w, key, json_node_copy (node));
    g_free (*sent);
    *sent = text;
  } else
    g_free (text);
}

/* The parts of the window event that hold property values and texts,
 * from the redacted copy's @session into @w. */
static void
gp_serve_window_masked (GpServer * srv, JsonObject * session, JsonObject * w)
{
  JsonArray *events, *new_events;
  guint i, n;

  json_object_set_member (w, "session",
      json_node_copy (json_object_get_member (session, "session")));
  new_events = json_array_new ();
  events = json_object_get_array_member (session, "events");
  n = events ? json_array_get_length (events) : 0;
  if (n < srv->sent_events)
    srv->sent_events = 0;       /* merged again: all of them */
  for (i = srv->sent_events; i < n; i++)
    json_array_add_element (new_events,
        json_node_copy (json_array_get_element (events, i)));
  srv->sent_events = n;
  json_object_set_array_member (w, "events", new_events);

  gp_serve_if_changed (session, "findings", &srv->sent_findings, w);
  gp_serve_if_changed (session, "graph", &srv->sent_graph, w);
  /* the roofline was drawn again with the copy */
  if (srv->roofline_caption)
    json_object_set_string_member (w, "roofline", srv->roofline_caption);
  else
    json_object_set_null_member (w, "roofline");
}

/* The "window" event: from @s, the session so far as it is (names and
 * numbers, never masked), the summary whole and the series entries and
 * machine samples new since the last; with @masked, the redacted copy's
 * JSON, the run's information, the new events, and the findings and the
 * graph when they changed (they hold property values and texts). */
static gchar *
gp_serve_window_json (GpServer * srv, GpSession * s, JsonNode * masked,
    gboolean machine_whole)
{
  JsonObject *w = gp_session_live_json (s, srv->sent_series_t1,
      machine_whole ? NULL : srv->sent_machine);
  JsonArray *series = json_object_get_array_member (w, "series");
  JsonObject *machine = json_object_get_object_member (w, "machine");
  GList *names, *l;
  JsonNode *wn;
  gchar *out;
  guint n = json_array_get_length (series);

  /* what the clients have now */
  if (n > 0)
    srv->sent_series_t1 = json_object_get_double_member
        (json_array_get_object_element (series, n - 1), "t1");
  names = json_object_get_members (machine);
  for (l = names; l; l = l->next) {
    JsonArray *t = json_object_get_array_member
        (json_object_get_object_member (machine, l->data), "t");
    gdouble *last = g_hash_table_lookup (srv->sent_machine, l->data);

    /* each series whole: the client replaces what it holds (wrap's
     * machine moved to the session's t = 0 at the end) */
    if (machine_whole)
      json_object_set_boolean_member (json_object_get_object_member (machine,
              l->data), "reset", TRUE);
    if (last == NULL) {
      last = gp_serve_new_time (0);
      g_hash_table_insert (srv->sent_machine, g_strdup (l->data), last);
    }
    *last = json_array_get_double_element (t, json_array_get_length (t) - 1);
  }
  g_list_free (names);
  if (masked)
    gp_serve_window_masked (srv, json_node_get_object (masked), w);

  wn = json_node_init_object (json_node_alloc (), w);
  out = json_to_string (wn, FALSE);
  json_node_unref (wn);
  json_object_unref (w);
  return out;
}

/* ---- event streams ------------------------------------------------------ */

static void
gp_serve_client_drop (GpServeClient * c)
{
  if (c->gone)
    return;
  c->gone = TRUE;
  c->srv->clients = g_list_remove (c->srv->clients, c);
}

/* An event's bytes: "event: EVENT\ndata: DATA\n\n", or a comment line
 * ": DATA\n\n" when @event is NULL. */
static GBytes *
gp_serve_event_bytes (const gchar * event, const gchar * data)
{
  gchar *chunk = event ? g_strdup_printf ("event: %s\ndata: %s\n\n", event,
      data) : g_strdup_printf (": %s\n\n", data);

  return g_bytes_new_take (chunk, strlen (chunk));
}

/* Appends @chunk to @c's stream (shared with the other clients, not
 * copied). */
static void
gp_serve_client_append (GpServeClient * c, GBytes * chunk)
{
  SoupMessageBody *body;

  if (c->gone)
    return;
  body = soup_server_message_get_response_body (c->msg);
  if (c->backlog > GP_SERVE_MAX_BACKLOG) {
    /* it stopped reading: end its stream (the browser reconnects and
     * gets the state so far) */
    soup_message_body_complete (body);
    soup_server_message_unpause (c->msg);
    gp_serve_client_drop (c);
    return;
  }
  soup_message_body_append_bytes (body, chunk);
  c->backlog += g_bytes_get_size (chunk);
  soup_server_message_unpause (c->msg);
}

static void
gp_serve_broadcast (GpServer * srv, const gchar * event, const gchar * data)
{
  GBytes *chunk = gp_serve_event_bytes (event, data);
  GList *l, *next;

  for (l = srv->clients; l; l = next) {
    next = l->next;
    gp_serve_client_append (l->data, chunk);
  }
  g_bytes_unref (chunk);
}

static void
gp_serve_on_wrote_data (SoupServerMessage * msg, guint size, gpointer data)
{
  GpServeClient *c = data;

  c->backlog = c->backlog > size ? c->backlog - size : 0;
}

/* The stream ended (the client went, or its stream was ended): nothing
 * of the client is used after this. */
static void
gp_serve_on_finished (SoupServerMessage * msg, gpointer data)
{
  GpServeClient *c = data;

  gp_serve_client_drop (c);
  g_signal_handlers_disconnect_by_data (msg, c);
  g_free (c);
}

static gboolean
gp_serve_on_keepalive (gpointer data)
{
  gp_serve_broadcast (data, NULL, "keepalive");
  return G_SOURCE_CONTINUE;
}

/* A client joined with the state: the next window sends everything after
 * it. The first one after none takes the state's place as what was sent
 * (nothing went out while nobody listened); with others listening, what
 * they already have is sent again, and each keeps an entry once. */
static void
gp_serve_rewind (GpServer * srv)
{
  GHashTableIter it;
  gpointer k, v;

  if (srv->clients == NULL) {
    srv->sent_series_t1 = srv->state_series_t1;
    srv->sent_events = srv->state_events;
    g_hash_table_remove_all (srv->sent_machine);
    g_hash_table_iter_init (&it, srv->state_machine);
    while (g_hash_table_iter_next (&it, &k, &v))
      g_hash_table_insert (srv->sent_machine, g_strdup (k),
          gp_serve_new_time (*(gdouble *) v));
    g_clear_pointer (&srv->sent_findings, g_free);
    g_clear_pointer (&srv->sent_graph, g_free);
    return;
  }
  srv->sent_series_t1 = MIN (srv->sent_series_t1, srv->state_series_t1);
  g_hash_table_iter_init (&it, srv->sent_machine);
  while (g_hash_table_iter_next (&it, &k, &v)) {
    gdouble *in_state = g_hash_table_lookup (srv->state_machine, k);

    if (in_state == NULL)
      g_hash_table_iter_remove (&it);   /* all of it again */
    else
      *(gdouble *) v = MIN (*(gdouble *) v, *in_state);
  }
}

static void
gp_serve_open_events (GpServer * srv, SoupServerMessage * msg)
{
  SoupMessageHeaders *h = soup_server_message_get_response_headers (msg);
  GpServeClient *c = g_new0 (GpServeClient, 1);
  GpServeConn *conn = gp_serve_conn_of (srv, msg);

  if (conn)
    conn->streaming = TRUE;
  c->srv = srv;
  c->msg = msg;
  soup_message_headers_set_content_type (h, "text/event-stream", NULL);
  soup_message_headers_set_encoding (h, SOUP_ENCODING_CHUNKED);
  soup_message_headers_replace (h, "Cache-Control", "no-store");
  soup_message_body_set_accumulate (soup_server_message_get_response_body
      (msg), FALSE);
  soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
  g_signal_connect (msg, "wrote-body-data",
      G_CALLBACK (gp_serve_on_wrote_data), c);
  g_signal_connect (msg, "finished", G_CALLBACK (gp_serve_on_finished), c);
  gp_serve_rewind (srv);
  srv->clients = g_list_prepend (srv->clients, c);
  gp_serve_client_append (c, gp_serve_state_event (srv));
  if (srv->ended) {
    /* a replay or a finished run: nothing more comes */
    GBytes *end = gp_serve_event_bytes ("end", "{}");

    gp_serve_client_append (c, end);
    g_bytes_unref (end);
    soup_message_body_complete (soup_server_message_get_response_body (msg));
    gp_serve_client_drop (c);
  }
}

/* ---- requests ----------------------------------------------------------- */

static void
gp_serve_reply (SoupServerMessage * msg, guint status, const gchar * type,
    const gchar * body, gssize len)
{
  soup_server_message_set_status (msg, status, NULL);
  soup_server_message_set_response (msg, type, SOUP_MEMORY_COPY, body,
      len < 0 ? strlen (body) : (gsize) len);
}

/* The reply's body @body as it is (not copied). */
static void
gp_serve_reply_bytes (SoupServerMessage * msg, guint status,
    const gchar * type, GBytes * body)
{
  soup_server_message_set_status (msg, status, NULL);
  soup_message_headers_set_content_type
      (soup_server_message_get_response_headers (msg), type, NULL);
  soup_message_body_append_bytes (soup_server_message_get_response_body
      (msg), body);
}

static void
gp_serve_reply_text (SoupServerMessage * msg, guint status,
    const gchar * text)
{
  gp_serve_reply (msg, status, "text/plain; charset=utf-8", text, -1);
}

/* The panel's own files: a fixed list, so no path reaches anything else. */
static gboolean
gp_serve_asset (GpServer * srv, SoupServerMessage * msg, const gchar * path)
{
  static const struct
  {
    const gchar *path, *file, *type;
  } assets[] = {
    {"/", "index.html", "text/html; charset=utf-8"},
    {"/index.html", "index.html", "text/html; charset=utf-8"},
    {"/panel.css", "panel.css", "text/css; charset=utf-8"},
    {"/panel.js", "panel.js", "text/javascript; charset=utf-8"},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (assets); i++) {
    gchar *rpath;
    GBytes *b;

    if (strcmp (path, assets[i].path) != 0)
      continue;
    rpath = g_strconcat ("/org/gstprof/panel/", assets[i].file, NULL);
    b = g_resource_lookup_data (srv->panel, rpath, 0, NULL);
    g_free (rpath);
    if (b == NULL)
      return FALSE;
    gp_serve_reply_bytes (msg, SOUP_STATUS_OK, assets[i].type, b);
    g_bytes_unref (b);
    return TRUE;
  }
  return FALSE;
}

/* Whether @a and @b are the same, in time that does not depend on where
 * they differ (a token guessed byte by byte learns nothing). */
static gboolean
gp_serve_same_secret (const gchar * a, const gchar * b)
{
  gsize la = strlen (a), lb = strlen (b), i;
  guint8 d = la != lb;

  for (i = 0; i < la && i < lb; i++)
    d |= (guint8) (a[i] ^ b[i]);
  return d == 0;
}

/* POSTs change the run: only whoever has the token, which the server
 * gives to nobody (gp_server_token: the URL printed on the terminal of
 * the user who started the run, its fragment never sent to a server),
 * and from this server's own origin: the scheme and the Host the request
 * names (the Host check let only this server's names through on
 * loopback). */
static gboolean
gp_serve_post_allowed (GpServer * srv, SoupServerMessage * msg)
{
  SoupMessageHeaders *h = soup_server_message_get_request_headers (msg);
  const gchar *token = soup_message_headers_get_one (h, "X-Gstprof-Token");
  const gchar *origin = soup_message_headers_get_one (h, "Origin");
  const gchar *host = soup_message_headers_get_one (h, "Host");
  gchar *own;
  gboolean ok;

  if (token == NULL || !gp_serve_same_secret (token, srv->token)) {
    gp_serve_reply_text (msg, SOUP_STATUS_FORBIDDEN, "no or wrong token\n");
    return FALSE;
  }
  if (origin == NULL)
    return TRUE;                /* not a browser's cross-site request */
  own = host ? g_strconcat ("http://", host, NULL) :
      g_strndup (srv->url, strlen (srv->url) - 1);
  ok = strcmp (origin, own) == 0;
  g_free (own);
  if (!ok)
    gp_serve_reply_text (msg, SOUP_STATUS_FORBIDDEN, "another origin\n");
  return ok;
}

static void
gp_serve_post (GpServer * srv, SoupServerMessage * msg, const gchar * path)
{
  SoupMessageBody *body = soup_server_message_get_request_body (msg);
  gchar *text;

  if (strcmp (path, "/api/stop") != 0 && strcmp (path, "/api/mark") != 0) {
    gp_serve_reply_text (msg, SOUP_STATUS_NOT_FOUND, "not found\n");
    return;
  }
  if (!gp_serve_post_allowed (srv, msg))
    return;
  if (!srv->opts.live || srv->ended || srv->opts.stop == NULL) {
    gp_serve_reply_text (msg, SOUP_STATUS_CONFLICT, "no capture running\n");
    return;
  }
  if (strcmp (path, "/api/stop") == 0) {
    if (srv->opts.stop (srv->opts.data))
      gp_serve_reply_text (msg, SOUP_STATUS_OK, "stopping\n");
    else
      gp_serve_reply_text (msg, SOUP_STATUS_CONFLICT, "nothing running yet\n");
    return;
  }
  text = g_strndup (body->data ? body->data : "", body->length);
  g_strstrip (text);
  if (!g_utf8_validate (text, -1, NULL) || *text == '\0') {
    gp_serve_reply_text (msg, SOUP_STATUS_BAD_REQUEST,
        "a mark needs its text as UTF-8\n");
  } else if (srv->opts.mark (text, srv->opts.data)) {
    gp_serve_reply_text (msg, SOUP_STATUS_OK, "marked\n");
  } else {
    gp_serve_reply_text (msg, SOUP_STATUS_CONFLICT,
        "no pipeline has sent a window yet\n");
  }
  g_free (text);
}

static gboolean
gp_serve_ready (GpServer * srv)
{
  if (!srv->opts.live)
    return srv->have_state;
  return srv->playing && !srv->ended && srv->last_update_us > 0 &&
      g_get_monotonic_time () - srv->last_update_us <
      GP_SERVE_READY_S * G_USEC_PER_SEC;
}

static void
gp_serve_get (GpServer * srv, SoupServerMessage * msg, const gchar * path)
{
  gchar *text;

  if (gp_serve_asset (srv, msg, path))
    return;
  if (strcmp (path, "/api/state") == 0) {
    GBytes *state = gp_serve_state_json (srv);

    gp_serve_reply_bytes (msg, SOUP_STATUS_OK, "application/json", state);
    g_bytes_unref (state);
  } else if (strcmp (path, "/api/events") == 0) {
    gp_serve_open_events (srv, msg);
  } else if (strcmp (path, "/api/session.json") == 0) {
    /* the panel's Save: the state's session, masked as it is shown */
    if (srv->session_json) {
      soup_message_headers_replace (soup_server_message_get_response_headers
          (msg), "Content-Disposition",
          "attachment; filename=\"session.json\"");
      gp_serve_reply (msg, SOUP_STATUS_OK, "application/json",
          srv->session_json, -1);
    } else
      gp_serve_reply_text (msg, SOUP_STATUS_SERVICE_UNAVAILABLE,
          "no window yet\n");
  } else if (strcmp (path, "/api/graph.svg") == 0) {
    GBytes *svg = srv->current ? gp_export_graph_data (srv->current,
        GP_EXPORT_GRAPH_SVG, "the graph", NULL) : NULL;

    if (svg) {
      gp_serve_reply_bytes (msg, SOUP_STATUS_OK, "image/svg+xml", svg);
      g_bytes_unref (svg);
    } else
      gp_serve_reply_text (msg, SOUP_STATUS_SERVICE_UNAVAILABLE,
          "no graph yet\n");
  } else if (strcmp (path, "/api/roofline.svg") == 0) {
    if (srv->roofline_svg)
      gp_serve_reply_bytes (msg, SOUP_STATUS_OK, "image/svg+xml",
          srv->roofline_svg);
    else
      gp_serve_reply_text (msg, SOUP_STATUS_NOT_FOUND, "no roofline: the "
          "machine shows no accelerator's memory traffic\n");
  } else if (strcmp (path, "/metrics") == 0) {
    text = srv->current ? gp_metrics_text (srv->current, NULL) : NULL;
    if (text)
      gp_serve_reply (msg, SOUP_STATUS_OK,
          "text/plain; version=0.0.4; charset=utf-8", text, -1);
    else
      gp_serve_reply_text (msg, SOUP_STATUS_SERVICE_UNAVAILABLE,
          "no window yet\n");
    g_free (text);
  } else if (strcmp (path, "/healthz") == 0) {
    gp_serve_reply_text (msg, SOUP_STATUS_OK, "ok\n");
  } else if (strcmp (path, "/readyz") == 0) {
    if (gp_serve_ready (srv))
      gp_serve_reply_text (msg, SOUP_STATUS_OK, "ready\n");
    else
      gp_serve_reply_text (msg, SOUP_STATUS_SERVICE_UNAVAILABLE,
          srv->ended ? "the capture ended\n" : "no window yet\n");
  } else
    gp_serve_reply_text (msg, SOUP_STATUS_NOT_FOUND, "not found\n");
}

/* Whether @name (a Host header's "host:port") is one of this server's
 * own names on loopback. */
static gboolean
gp_serve_own_name (GpServer * srv, const gchar * name)
{
  gchar *a = g_strdup_printf ("127.0.0.1:%u", srv->port);
  gchar *b = g_strdup_printf ("localhost:%u", srv->port);
  gchar *c = g_strdup_printf ("[::1]:%u", srv->port);
  gboolean ok = g_str_equal (name, a) || g_str_equal (name, b) ||
      g_str_equal (name, c);

  g_free (a);
  g_free (b);
  g_free (c);
  return ok;
}

/* The request names this server: a page on another site that made a
 * name resolve to 127.0.0.1 (DNS rebinding) sends its own name, in the
 * Host header or in an absolute request target (which HTTP/1.1 puts
 * before Host); two Host headers are no request (libsoup reads the last:
 * "Host: evil, Host: 127.0.0.1:PORT" would pass on the second).  Checked
 * when bound to a loopback address only: elsewhere the user said that
 * anyone who can reach the port may look.  0 when it may go on, else
 * the status to refuse it with. */
static guint
gp_serve_host_refused (GpServer * srv, SoupServerMessage * msg)
{
  SoupMessageHeaders *h = soup_server_message_get_request_headers (msg);
  const gchar *host = soup_message_headers_get_list (h, "Host");
  GUri *uri = soup_server_message_get_uri (msg);
  const gchar *uhost;
  gchar *authority;
  gboolean ok;

  if (host != NULL && strchr (host, ',') != NULL)
    return SOUP_STATUS_BAD_REQUEST;
  if (!gp_serve_host_is_loopback (srv->host))
    return 0;
  if (host != NULL && !gp_serve_own_name (srv, host))
    return SOUP_STATUS_MISDIRECTED_REQUEST;
  /* the target's authority: Host's for an origin-form target, its own
   * for an absolute one; HTTP/1.0 without Host: the address it came to */
  /* GUri is GLib 2.66's; libsoup 3 needs 2.69, so wherever this file
   * builds it is there */
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS;
  if (uri == NULL || (uhost = g_uri_get_host (uri)) == NULL)
    return 0;
  authority = g_strdup_printf (strchr (uhost, ':') ? "[%s]:%d" : "%s:%d",
      uhost, g_uri_get_port (uri) > 0 ? g_uri_get_port (uri) : 80);
  G_GNUC_END_IGNORE_DEPRECATIONS;
  ok = gp_serve_own_name (srv, authority);
  g_free (authority);
  return ok ? 0 : SOUP_STATUS_MISDIRECTED_REQUEST;
}

static void
gp_serve_on_request (SoupServer * soup, SoupServerMessage * msg,
    const char *path, GHashTable * query, gpointer data)
{
  GpServer *srv = data;
  const gchar *method = soup_server_message_get_method (msg);
  SoupMessageHeaders *h = soup_server_message_get_response_headers (msg);
  guint refused;

  soup_message_headers_replace (h, "X-Content-Type-Options", "nosniff");
  soup_message_headers_replace (h, "Cache-Control", "no-store");
  soup_message_headers_replace (h, "Content-Security-Policy",
      "default-src 'self'; style-src 'self' 'unsafe-inline'; "
      "img-src 'self' data:; frame-ancestors 'none'");
  if ((refused = gp_serve_host_refused (srv, msg)) != 0) {
    gp_serve_reply_text (msg, refused, refused == SOUP_STATUS_BAD_REQUEST ?
        "more than one Host\n" : "not this server's name\n");
    return;
  }
  if (method == SOUP_METHOD_GET || method == SOUP_METHOD_HEAD)
    gp_serve_get (srv, msg, path);
  else if (method == SOUP_METHOD_POST)
    gp_serve_post (srv, msg, path);
  else {
    soup_message_headers_replace (h, "Allow", "GET, HEAD, POST");
    gp_serve_reply_text (msg, SOUP_STATUS_METHOD_NOT_ALLOWED,
        "GET or POST only\n");
  }
}

/* Bounds before the body is read: its declared length, and the headers'. */
static void
gp_serve_on_got_headers (SoupServerMessage * msg, gpointer data)
{
  SoupMessageHeaders *h = soup_server_message_get_request_headers (msg);
  SoupMessageHeadersIter it;
  const char *name, *value;
  gsize total = 0;

  soup_message_headers_iter_init (&it, h);
  while (soup_message_headers_iter_next (&it, &name, &value))
    total += strlen (name) + strlen (value) + 4;
  if (total > GP_SERVE_MAX_HEADERS) {
    gp_serve_reply_text (msg, 431, "request headers too large\n");
    return;
  }
  if (soup_message_headers_get_encoding (h) == SOUP_ENCODING_CHUNKED ||
      soup_message_headers_get_content_length (h) > GP_SERVE_MAX_BODY)
    gp_serve_reply_text (msg, SOUP_STATUS_REQUEST_ENTITY_TOO_LARGE,
        "request body too large\n");
}

/* ---- connections -------------------------------------------------------- */

/* Ends @c: both directions shut, so libsoup reads the end, lets the
 * connection go, and its descriptor closes with it. */
static void
gp_serve_conn_close (GpServeConn * c)
{
  if (c->closing)
    return;
  c->closing = TRUE;
  g_socket_shutdown (c->socket, TRUE, TRUE, NULL);
}

/* The connection's stream was finalized: libsoup is done with it. */
static void
gp_serve_conn_gone (gpointer data, GObject * where_the_object_was)
{
  GpServeConn *c = data;

  g_hash_table_remove (c->srv->conns, c->peer);
}

static void
gp_serve_conn_free (gpointer data)
{
  GpServeConn *c = data;

  g_free (c->peer);
  g_free (c);
}

static guint
gp_serve_conns_open (GpServer * srv)
{
  GHashTableIter it;
  gpointer v;
  guint n = 0;

  g_hash_table_iter_init (&it, srv->conns);
  while (g_hash_table_iter_next (&it, NULL, &v))
    n += !((GpServeConn *) v)->closing;
  return n;
}

/* When a connection with no request under way, or one whose headers are
 * still coming, began to wait. */
#define GP_SERVE_CONN_WAITING_SINCE(c) ((c)->request_us ? (c)->request_us : \
    (c)->since_us)

/* Makes room by closing the connection that waited longest without a
 * request under way (idle, or its headers still coming); FALSE when every
 * connection is serving one. */
static gboolean
gp_serve_evict (GpServer * srv)
{
  GpServeConn *oldest = NULL;
  GHashTableIter it;
  gpointer v;

  g_hash_table_iter_init (&it, srv->conns);
  while (g_hash_table_iter_next (&it, NULL, &v)) {
    GpServeConn *c = v;

    if (c->closing || (c->request_us && c->headers))
      continue;
    if (oldest == NULL || GP_SERVE_CONN_WAITING_SINCE (c) <
        GP_SERVE_CONN_WAITING_SINCE (oldest))
      oldest = c;
  }
  if (oldest == NULL)
    return FALSE;
  gp_serve_conn_close (oldest);
  return TRUE;
}

/* Full: a 503 the client can read, then the connection closed.  Its
 * request is read first when it came with the connection: a close with
 * unread bytes resets the connection, and the answer with it. */
static void
gp_serve_refuse (GSocketConnection * conn)
{
  static const gchar body[] = "too many connections: try again\n";
  GSocket *sock = g_socket_connection_get_socket (conn);
  gchar *reply = g_strdup_printf ("HTTP/1.1 503 Service Unavailable\r\n"
      "Content-Type: text/plain; charset=utf-8\r\n"
      "Content-Length: %zu\r\nRetry-After: 5\r\nConnection: close\r\n"
      "\r\n%s", strlen (body), body);
  gchar drain[4096];
  guint i;

  g_socket_set_blocking (sock, FALSE);
  for (i = 0; i < 16 && g_socket_receive (sock, drain, sizeof (drain), NULL,
          NULL) > 0; i++);
  g_socket_send (sock, reply, strlen (reply), NULL, NULL);
  g_io_stream_close (G_IO_STREAM (conn), NULL, NULL);
  g_free (reply);
}

/* Once a second: connections idle past GP_SERVE_IDLE_S, headers slower
 * than GP_SERVE_HEADERS_S, requests (not event streams) longer than
 * GP_SERVE_REQUEST_S are closed. */
static gboolean
gp_serve_on_sweep (gpointer data)
{
  GpServer *srv = data;
  gint64 now = g_get_monotonic_time ();
  GHashTableIter it;
  gpointer v;

  g_hash_table_iter_init (&it, srv->conns);
  while (g_hash_table_iter_next (&it, NULL, &v)) {
    GpServeConn *c = v;

    if (c->request_us == 0 ? now - c->since_us > GP_SERVE_IDLE_S *
        G_USEC_PER_SEC : !c->headers ? now - c->request_us >
        GP_SERVE_HEADERS_S * G_USEC_PER_SEC : !c->streaming &&
        now - c->request_us > GP_SERVE_REQUEST_S * G_USEC_PER_SEC)
      gp_serve_conn_close (c);
  }
  return G_SOURCE_CONTINUE;
}

/* At most a quarter of the descriptors free now, at most
 * GP_SERVE_MAX_CONNECTIONS, at least one. */
static guint
gp_serve_max_connections (void)
{
  struct rlimit rl;
  GDir *dir;
  guint open = 0;
  rlim_t free_fds;

  if (getrlimit (RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
    return GP_SERVE_MAX_CONNECTIONS;
  if ((dir = g_dir_open ("/proc/self/fd", 0, NULL)) != NULL) {
    while (g_dir_read_name (dir))
      open++;
    g_dir_close (dir);
  }
  free_fds = rl.rlim_cur > open ? rl.rlim_cur - open : 0;
  return CLAMP (free_fds / GP_SERVE_FD_SHARE, 1, GP_SERVE_MAX_CONNECTIONS);
}

static void
gp_serve_on_got_request_headers (SoupServerMessage * msg, gpointer data)
{
  GpServeConn *c = gp_serve_conn_of (data, msg);

  if (c)
    c->headers = TRUE;
}

static void
gp_serve_on_request_finished (SoupServerMessage * msg, gpointer data)
{
  GpServeConn *c = gp_serve_conn_of (data, msg);

  if (c) {
    c->request_us = 0;
    c->headers = c->streaming = FALSE;
    c->since_us = g_get_monotonic_time ();
  }
}

static void
gp_serve_on_request_started (SoupServer * soup, SoupServerMessage * msg,
    gpointer data)
{
  GpServeConn *c = gp_serve_conn_of (data, msg);

  if (c) {
    c->request_us = g_get_monotonic_time ();
    c->headers = c->streaming = FALSE;
  }
  g_signal_connect (msg, "got-headers", G_CALLBACK (gp_serve_on_got_headers),
      data);
  g_signal_connect (msg, "got-headers",
      G_CALLBACK (gp_serve_on_got_request_headers), data);
  g_signal_connect (msg, "finished",
      G_CALLBACK (gp_serve_on_request_finished), data);
}

/* ---- the server --------------------------------------------------------- */

/* A connection accepted: libsoup speaks HTTP on it. The server accepts
 * for itself rather than through soup_server_listen: libsoup 3.2's
 * listener (Debian 12's) never freed a connection's socket once it ended,
 * with its descriptor too when the client closed a kept-alive one (20,000
 * requests: +6.8 MB; 200 closed by the client: 200 descriptors held); a
 * stream accepted here is freed with its connection. */
static gboolean
gp_serve_on_incoming (GSocketService * service, GSocketConnection * conn,
    GObject * source, gpointer data)
{
  GpServer *srv = data;
  GSocketAddress *local, *remote;
  GpServeConn *c, *old;

  /* closed ones still going count too, up to twice the cap */
  if (g_hash_table_size (srv->conns) >= 2 * srv->max_conns ||
      (gp_serve_conns_open (srv) >= srv->max_conns && !gp_serve_evict (srv))) {
    gp_serve_refuse (conn);
    return TRUE;
  }
  local = g_socket_connection_get_local_address (conn, NULL);
  remote = g_socket_connection_get_remote_address (conn, NULL);
  if (local && remote) {
    c = g_new0 (GpServeConn, 1);
    c->srv = srv;
    c->conn = conn;
    c->socket = g_socket_connection_get_socket (conn);
    c->since_us = g_get_monotonic_time ();
    c->peer = g_socket_connectable_to_string (G_SOCKET_CONNECTABLE (remote));
    old = g_hash_table_lookup (srv->conns, c->peer);
    /* the client's port again while its last connection is still going:
     * that one is forgotten */
    if (old)
      g_object_weak_unref (G_OBJECT (old->conn), gp_serve_conn_gone, old);
    g_hash_table_replace (srv->conns, c->peer, c);
    g_object_weak_ref (G_OBJECT (conn), gp_serve_conn_gone, c);
    soup_server_accept_iostream (srv->soup, G_IO_STREAM (conn), local,
        remote, NULL);
  }
  g_clear_object (&local);
  g_clear_object (&remote);
  return TRUE;
}

/* The panel's GResource, made (registered) once. */
static GResource *
gp_serve_panel (void)
{
  static gsize registered;

  if (g_once_init_enter (&registered)) {
    gp_panel_register_resource ();
    g_once_init_leave (&registered, 1);
  }
  return gp_panel_get_resource ();
}

/* 128 random bits as hex, from the kernel; NULL when it gives none. */
static gchar *
gp_serve_new_token (void)
{
  guint8 b[16];
  GString *s;
  guint i;

  if (getrandom (b, sizeof (b), 0) != (gssize) sizeof (b))
    return NULL;
  s = g_string_new (NULL);
  for (i = 0; i < sizeof (b); i++)
    g_string_append_printf (s, "%02x", b[i]);
  return g_string_free (s, FALSE);
}

GpServer *
gp_server_new (const GpServeOptions * opts, GError ** error)
{
  GpServer *srv = g_new0 (GpServer, 1);
  GSocketAddress *addr;
  GSocketAddress *local = NULL;
  GError *err = NULL;

  srv->opts = *opts;
  srv->host = g_strdup (opts->host ? opts->host : GP_SERVE_DEFAULT_HOST);
  srv->opts.host = srv->host;
  srv->token = gp_serve_new_token ();
  if (srv->token == NULL) {
    g_set_error (error, GP_SERVE_ERROR, GP_SERVE_ERROR_LISTEN,
        "no random bytes from the kernel for the panel's token: %s",
        g_strerror (errno));
    gp_server_free (srv);
    return NULL;
  }
  srv->panel = gp_serve_panel ();
  srv->conns = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
      gp_serve_conn_free);
  srv->max_conns = gp_serve_max_connections ();
  srv->sent_machine = g_hash_table_new_full (g_str_hash, g_str_equal,
      g_free, g_free);
  srv->sent_series_t1 = -1;
  srv->state_machine = g_hash_table_new_full (g_str_hash, g_str_equal,
      g_free, g_free);
  srv->state_series_t1 = -1;

  addr = g_inet_socket_address_new_from_string (g_str_equal (srv->host,
          "localhost") ? "127.0.0.1" : srv->host, opts->port);
  if (addr == NULL) {
    g_set_error (error, GP_SERVE_ERROR, GP_SERVE_ERROR_LISTEN,
        "--host %s: not an IP address (127.0.0.1, 0.0.0.0, ::1, ...)",
        srv->host);
    gp_server_free (srv);
    return NULL;
  }
  srv->soup = soup_server_new ("server-header", "gstprof", NULL);
  soup_server_add_handler (srv->soup, NULL, gp_serve_on_request, srv, NULL);
  g_signal_connect (srv->soup, "request-started",
      G_CALLBACK (gp_serve_on_request_started), srv);
  srv->service = g_socket_service_new ();
  /* GLib's 10 drops the SYN of the 12th client that connects before the
   * main loop next accepts: it waits a second to try again */
  g_socket_listener_set_backlog (G_SOCKET_LISTENER (srv->service),
      GP_SERVE_LISTEN_BACKLOG);
  if (!g_socket_listener_add_address (G_SOCKET_LISTENER (srv->service), addr,
          G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, NULL, &local, &err)) {
    g_set_error (error, GP_SERVE_ERROR, GP_SERVE_ERROR_LISTEN,
        "cannot listen on %s port %u: %s", srv->host, opts->port,
        err->message);
    g_clear_error (&err);
    g_object_unref (addr);
    gp_server_free (srv);
    return NULL;
  }
  g_object_unref (addr);
  g_signal_connect (srv->service, "incoming",
      G_CALLBACK (gp_serve_on_incoming), srv);
  g_socket_service_start (srv->service);
  /* the port asked for, or the one the kernel chose for 0 */
  srv->port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (local));
  g_object_unref (local);
  srv->url = g_strdup_printf (strchr (srv->host, ':') ? "http://[%s]:%u/" :
      "http://%s:%u/", srv->host, srv->port);
  srv->keepalive_id = g_timeout_add_seconds (GP_SERVE_KEEPALIVE_S,
      gp_serve_on_keepalive, srv);
  srv->sweep_id = g_timeout_add_seconds (1, gp_serve_on_sweep, srv);
  return srv;
}

const gchar *
gp_server_url (GpServer * srv)
{
  return srv->url;
}

const gchar *
gp_server_token (GpServer * srv)
{
  return srv->opts.live ? srv->token : NULL;
}

guint
gp_server_port (GpServer * srv)
{
  return srv->port;
}

/* How far @copy goes, the state a client joining gets: its last series
 * entry and each machine series' last sample. */
static void
gp_serve_mark_state (GpServer * srv, GpSession * copy)
{
  guint i;

  g_hash_table_remove_all (srv->state_machine);
  srv->state_events = copy->events ? copy->events->len : 0;
  srv->state_series_t1 = copy->series->len > 0 ?
      json_object_get_double_member (g_ptr_array_index (copy->series,
          copy->series->len - 1), "t1") : -1;
  for (i = 0; copy->machine && i < copy->machine->series->len; i++) {
    GpMachineSeries *ms = g_ptr_array_index (copy->machine->series, i);

    if (ms->t->len > 0)
      g_hash_table_insert (srv->state_machine, g_strdup (ms->name),
          gp_serve_new_time (g_array_index (ms->t, gdouble,
                  ms->t->len - 1)));
  }
}

/* The accelerator's roofline of @copy's machine, drawn as a report draws
 * it, where the machine shows its memory traffic (a Jetson's EMC); none
 * elsewhere (the CPU's roofline needs a bandwidth probe: `gstprof report`
 * has it). */
static void
gp_serve_roofline (GpServer * srv, GpSession * copy)
{
  const GpMachine *m = copy->machine;
  GpRoofline *r;
  GpPlot *plot = NULL;
  gchar *caption = NULL;

  g_clear_pointer (&srv->roofline_svg, g_bytes_unref);
  g_clear_pointer (&srv->roofline_caption, g_free);
  if (!(m && gp_machine_find (m, GP_MACHINE_MEMBW_LOAD, NULL)))
    return;
  r = gp_roofline_of_machine (NULL, m, gp_session_video_fps (copy),
      &caption, NULL);
  if (r)
    plot = gp_plot_roofline_layout (r, NULL);
  if (plot)
    srv->roofline_svg = gp_plot_draw (plot, GP_PLOT_SVG, NULL);
  if (srv->roofline_svg)
    srv->roofline_caption = g_steal_pointer (&caption);
  g_free (caption);
  if (plot)
    gp_plot_free (plot);
  if (r)
    gp_roofline_free (r);
}

/* A new redacted copy of @s becomes the state, with its findings made
 * when @rules (else @s's own stand: the end's, after the caller's rules)
 * and its roofline. Returns its JSON. */
static JsonNode *
gp_serve_take (GpServer * srv, GpSession * s, gboolean rules)
{
  GpSession *copy = gp_serve_copy (srv, s);
  JsonNode *root;

  if (copy == NULL)
    return NULL;
  if (rules) {
    gp_rules_run (copy);
    srv->last_rules_us = g_get_monotonic_time ();
  }
  if (srv->current)
    gp_session_free (srv->current);
  srv->current = copy;
  gp_serve_roofline (srv, copy);
  gp_serve_mark_state (srv, copy);
  root = gp_session_to_json_bounded (copy, GP_SERVE_MACHINE_MAX);
  g_free (srv->session_json);
  srv->session_json = json_to_string (root, FALSE);
  g_clear_pointer (&srv->state_event, g_bytes_unref);
  srv->have_state = TRUE;
#ifdef __GLIBC__
  /* the copy's trees are freed once the caller is done with @root; the
   * previous take's are freed by now: hand their pages back, or glibc
   * keeps a few MiB more each time the state grows a little */
  malloc_trim (0);
#endif
  return root;
}

void
gp_server_update (GpServer * srv, GpSession * s)
{
  gint64 now = g_get_monotonic_time ();
  JsonNode *masked = NULL;
  gchar *w;

  srv->last_update_us = now;
  srv->playing = g_strcmp0 (s->reached, "PLAYING") == 0;
  /* the redacted copy, its findings and the state a client joining gets:
   * once a GP_SERVE_RULES_S; each window only the measurements */
  if (srv->current == NULL ||
      now - srv->last_rules_us >= GP_SERVE_RULES_S * G_USEC_PER_SEC)
    masked = gp_serve_take (srv, s, TRUE);
  if (srv->clients) {
    w = gp_serve_window_json (srv, s, masked, FALSE);
    gp_serve_broadcast (srv, "window", w);
    g_free (w);
  }
  if (masked)
    json_node_unref (masked);
}

void
gp_server_end (GpServer * srv, GpSession * s)
{
  JsonNode *root;
  GList *l;

  srv->ended = TRUE;
  g_clear_pointer (&srv->state_event, g_bytes_unref);
  /* the final findings are the session's own (the caller ran the rules) */
  root = gp_serve_take (srv, s, FALSE);
  if (root && srv->clients) {
    gchar *w = gp_serve_window_json (srv, s, root, TRUE);

    gp_serve_broadcast (srv, "window", w);
    g_free (w);
  }
  gp_serve_broadcast (srv, "end", "{}");
  if (root)
    json_node_unref (root);
  /* nothing more comes: each stream ends once written */
  while ((l = srv->clients)) {
    GpServeClient *c = l->data;

    soup_message_body_complete (soup_server_message_get_response_body
        (c->msg));
    soup_server_message_unpause (c->msg);
    gp_serve_client_drop (c);
  }
}

/* Whether an event stream's last bytes are still on their way. */
static gboolean
gp_serve_streaming (GpServer * srv)
{
  GHashTableIter it;
  gpointer v;

  g_hash_table_iter_init (&it, srv->conns);
  while (g_hash_table_iter_next (&it, NULL, &v)) {
    GpServeConn *c = v;

    if (!c->closing && c->streaming && c->request_us)
      return TRUE;
  }
  return FALSE;
}

static gboolean
gp_serve_on_drain_timeout (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

void
gp_server_drain (GpServer * srv, gdouble timeout_s)
{
  gboolean timed_out = FALSE;
  guint id;

  if (srv == NULL)
    return;
  id = g_timeout_add ((guint) (timeout_s * 1000), gp_serve_on_drain_timeout,
      &timed_out);
  while (!timed_out && gp_serve_streaming (srv))
    g_main_context_iteration (NULL, TRUE);
  if (!timed_out)
    g_source_remove (id);
}

void
gp_server_free (GpServer * srv)
{
  if (srv == NULL)
    return;
  if (srv->keepalive_id)
    g_source_remove (srv->keepalive_id);
  if (srv->sweep_id)
    g_source_remove (srv->sweep_id);
  if (srv->conns) {
    GHashTableIter it;
    gpointer v;

    /* the connections outlive the server's bookkeeping */
    g_hash_table_iter_init (&it, srv->conns);
    while (g_hash_table_iter_next (&it, NULL, &v))
      g_object_weak_unref (G_OBJECT (((GpServeConn *) v)->conn),
          gp_serve_conn_gone, v);
    g_hash_table_unref (srv->conns);
  }
  while (srv->clients) {
    GpServeClient *c = srv->clients->data;

    g_signal_handlers_disconnect_by_data (c->msg, c);
    gp_serve_client_drop (c);
    g_free (c);
  }
  if (srv->service) {
    g_socket_service_stop (srv->service);
    g_socket_listener_close (G_SOCKET_LISTENER (srv->service));
    g_object_unref (srv->service);
  }
  if (srv->soup) {
    soup_server_disconnect (srv->soup);
    g_object_unref (srv->soup);
  }
  if (srv->current)
    gp_session_free (srv->current);
  g_hash_table_unref (srv->sent_machine);
  g_hash_table_unref (srv->state_machine);
  g_free (srv->session_json);
  g_clear_pointer (&srv->state_event, g_bytes_unref);
  g_clear_pointer (&srv->roofline_svg, g_bytes_unref);
  g_free (srv->roofline_caption);
  g_free (srv->sent_findings);
  g_free (srv->sent_graph);
  g_free (srv->host);
  g_free (srv->url);
  g_free (srv->token);
  g_free (srv);
}
