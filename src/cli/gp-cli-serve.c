/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-cli-serve.c: the live panel's options and server for the commands
 * that serve (`run --serve`, `wrap --serve`, `serve`): gp-cli.h.
 */
#include "gp-cli.h"

#include <glib-unix.h>
#include <signal.h>
#include <stdio.h>

/* Without --hold, how long the end may wait for event streams to be
 * written out (a reader that does not read is not waited for longer). */
#define GP_CLI_SERVE_DRAIN_S 2.0

void
gp_cli_serve_entries (GOptionContext * ctx, GpCliServe * sv, gboolean flag)
{
  GOptionEntry capture[] = {
    {"serve", 0, 0, G_OPTION_ARG_NONE, &sv->serve,
        "Serve the live panel and /metrics while it runs", NULL},
    {"hold", 0, 0, G_OPTION_ARG_STRING, &sv->hold,
          "With --serve: keep serving the result this long after the end "
          "(default 0)", "TIME"},
    {NULL}
  };
  GOptionEntry both[] = {
    {"host", 0, 0, G_OPTION_ARG_STRING, &sv->host,
          "Address to serve on (default " GP_SERVE_DEFAULT_HOST ")", "ADDR"},
    {"port", 0, 0, G_OPTION_ARG_INT, &sv->port,
          "Port to serve on, 0: any free (default "
          G_STRINGIFY (GP_SERVE_DEFAULT_PORT) ")", "PORT"},
    {"no-redact", 0, 0, G_OPTION_ARG_NONE, &sv->no_redact,
          "The panel shows credentials and paths as they are (default: masked)", NULL},
    {NULL}
  };

  sv->port = GP_SERVE_DEFAULT_PORT;
  if (flag)
    g_option_context_add_main_entries (ctx, capture, NULL);
  g_option_context_add_main_entries (ctx, both, NULL);
}

static gboolean
gp_cli_serve_on_stop (gpointer data)
{
  GpCliServe *sv = data;

  return sv->run && sv->stop (sv->run, "Stop in the panel");
}

static gboolean
gp_cli_serve_on_mark (const gchar * text, gpointer data)
{
  GpCliServe *sv = data;

  return sv->run && sv->mark (sv->run, text);
}

gboolean
gp_cli_serve_start (const gchar * cmd, GpCliServe * sv, GpCliServeAct stop,
    GpCliServeAct mark, gint * code)
{
  GpServeOptions o = { 0 };
  GError *err = NULL;

  if (sv->port < 0 || sv->port > 65535) {
    *code = gp_cli_fail (cmd, "--port: %d is no port (0 to 65535)",
        sv->port);
    return FALSE;
  }
  if (sv->hold && !gp_cli_parse_duration (sv->hold, &sv->hold_s, &err)) {
    *code = gp_cli_fail (cmd, "--hold: %s", err->message);
    g_error_free (err);
    return FALSE;
  }
  if (!sv->serve)
    return TRUE;
  sv->stop = stop;
  sv->mark = mark;
  o.host = sv->host;
  o.port = (guint) sv->port;
  o.no_redact = sv->no_redact;
  o.live = stop != NULL;
  o.stop = stop ? gp_cli_serve_on_stop : NULL;
  o.mark = mark ? gp_cli_serve_on_mark : NULL;
  o.data = sv;
  sv->srv = gp_server_new (&o, &err);
  if (sv->srv == NULL) {
    *code = gp_cli_fail (cmd, "--serve: %s", err->message);
    g_error_free (err);
    return FALSE;
  }
  /* the token in the fragment: the browser keeps it, no server sees it;
   * only this terminal's user has it */
  g_printerr ("gstprof %s: serving %s%s%s (the panel; /metrics for "
      "Prometheus)\n", cmd, gp_server_url (sv->srv),
      gp_server_token (sv->srv) ? "#token=" : "",
      gp_server_token (sv->srv) ? gp_server_token (sv->srv) : "");
  if (!gp_serve_host_is_loopback (sv->host))
    g_printerr ("gstprof %s: --host %s: anyone who can reach this port can "
        "see the pipeline; Stop and Mark need the token, which plain HTTP "
        "carries readable on the network\n", cmd, sv->host);
  return TRUE;
}

void
gp_cli_serve_live (GpCliServe * sv, gpointer run, GpSession * so_far)
{
  sv->run = run;
  if (so_far)
    gp_server_update (sv->srv, so_far);
}

static gboolean
gp_cli_serve_on_end (gpointer data)
{
  g_main_loop_quit (data);
  return G_SOURCE_REMOVE;
}

void
gp_cli_serve_hold (const gchar * cmd, GpCliServe * sv, gboolean forever)
{
  GMainLoop *loop;

  if (sv->srv == NULL)
    return;
  if (!forever && sv->hold_s <= 0) {
    /* no hold: the readers still get the last window and "end" */
    gp_server_drain (sv->srv, GP_CLI_SERVE_DRAIN_S);
    return;
  }
  loop = g_main_loop_new (NULL, FALSE);
  if (forever)
    g_printerr ("gstprof %s: Ctrl-C to stop serving\n", cmd);
  else {
    g_printerr ("gstprof %s: serving the result for %.0f s more (Ctrl-C "
        "ends it)\n", cmd, sv->hold_s);
    g_timeout_add ((guint) (sv->hold_s * 1000), gp_cli_serve_on_end, loop);
  }
  g_unix_signal_add (SIGINT, gp_cli_serve_on_end, loop);
  g_unix_signal_add (SIGTERM, gp_cli_serve_on_end, loop);
  g_main_loop_run (loop);
  /* the one that fired removed itself; the others go here */
  while (g_source_remove_by_user_data (loop));
  g_main_loop_unref (loop);
}

void
gp_cli_serve_clear (GpCliServe * sv)
{
  g_clear_pointer (&sv->srv, gp_server_free);
  g_free (sv->host);
  g_free (sv->hold);
}
