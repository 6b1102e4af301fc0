/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-serve.h: the live panel's server (`gstprof run|wrap --serve`,
 * `gstprof serve`): a real HTTP server (libsoup 3) on the capture's own
 * main context. It keeps the state so far (the session a capture hands it
 * each window, or a saved one to replay) and answers:
 * - GET /            the panel (the page's assets, a GResource: nothing is
 *                    fetched from the network);
 * - GET /api/state   the state so far: {"live", "ended", "roofline",
 *                    "session"} (the session redacted unless told not to);
 * - GET /api/events  server-sent events: a late client first gets "state",
 *                    then one "window" per update (the entries new since
 *                    the last: series, machine samples, events; the
 *                    summary; the findings and the graph when they
 *                    changed), "end" when the capture ends;
 * - GET /api/graph.svg  the graph as `gstprof export` lays it out;
 * - GET /api/roofline.svg  the accelerator's roofline as `gstprof report`
 *                    draws it, where the machine shows its memory traffic
 *                    (404 elsewhere; the state's "roofline" is its caption);
 * - GET /metrics     Prometheus (gp-metrics.h); /healthz (up), /readyz
 *                    (a live capture: PLAYING and windows arriving; a
 *                    replay: loaded);
 * - POST /api/stop, /api/mark  with the per-run token (header
 *                    X-Gstprof-Token), which no route gives out: the page
 *                    reads it from the fragment of the URL printed on the
 *                    user's terminal (#token=...); refused from another
 *                    origin.
 * GETs only elsewhere; unknown paths 404; request bodies and headers
 * bounded. A client that stops reading is dropped once its backlog passes
 * GP_SERVE_MAX_BACKLOG, so it never stalls the capture or grows memory.
 * Connections are capped (GP_SERVE_MAX_CONNECTIONS, a share of the free
 * descriptors) and timed out when idle or slow; past the cap the oldest
 * idle one makes room, else 503.
 *
 * The room, src/serve: libgpserve (gp-metrics.c always; gp-serve.c and the
 * panel's assets where libsoup 3 is found: GP_HAVE_SERVE).
 *
 * May depend on: core, rules, report (redaction), export (the graph),
 * telemetry and plot (the roofline).
 */
#ifndef __GP_SERVE_H__
#define __GP_SERVE_H__

#include <glib.h>
#include "core/gp-session.h"

G_BEGIN_DECLS

#define GP_SERVE_DEFAULT_HOST "127.0.0.1"
#define GP_SERVE_DEFAULT_PORT 8790

#define GP_SERVE_ERROR (gp_serve_error_quark ())
GQuark gp_serve_error_quark (void);
typedef enum
{
  GP_SERVE_ERROR_UNAVAILABLE,   /* built without libsoup 3 */
  GP_SERVE_ERROR_LISTEN,        /* the address could not be bound */
} GpServeError;

typedef struct _GpServer GpServer;

typedef struct
{
  const gchar *host;            /* NULL: GP_SERVE_DEFAULT_HOST */
  guint port;                   /* 0: any free port */
  gboolean no_redact;           /* the session as it is, credentials too */
  gboolean live;                /* a capture feeds it; else a replay */
  /* The page's Stop and Mark, called on the main context; FALSE when
   * there is nothing to act on yet (answered 409). NULL: the buttons are
   * refused (a replay). */
  gboolean (*stop) (gpointer data);
  gboolean (*mark) (const gchar * text, gpointer data);
  gpointer data;
} GpServeOptions;

/* Whether this build has the server (libsoup 3). */
gboolean gp_serve_available (void);

/* Whether --host @host (NULL: the default) is this machine's loopback:
 * only then is the Host header held to this server's own names. */
gboolean gp_serve_host_is_loopback (const gchar * host);

/* Listens on the thread-default main context. NULL with @error when it
 * cannot (GP_SERVE_ERROR_UNAVAILABLE: one line saying the build has no
 * libsoup 3). */
GpServer *gp_server_new (const GpServeOptions * opts, GError ** error);
/* http://HOST:PORT/ */
const gchar *gp_server_url (GpServer * srv);
/* The token Stop and Mark need, for whoever started the run only (the
 * panel's URL on its terminal: URL#token=TOKEN); NULL for a replay. */
const gchar *gp_server_token (GpServer * srv);
guint gp_server_port (GpServer * srv);

/* A window closed: @s is the session so far (not kept: what the server
 * needs is copied out). Sends the clients what is new. */
void gp_server_update (GpServer * srv, GpSession * s);
/* The capture ended (or a replay loaded): @s is the final session, with
 * its findings; clients get "end" (a replay: its state on connect). */
void gp_server_end (GpServer * srv, GpSession * s);

/* After gp_server_end: runs the thread-default main context until every
 * event stream has been written to its end ("end" included), at most
 * @timeout_s, so that a run that stops serving at once still tells its
 * readers it ended. */
void gp_server_drain (GpServer * srv, gdouble timeout_s);

void gp_server_free (GpServer * srv);

G_END_DECLS

#endif /* __GP_SERVE_H__ */
