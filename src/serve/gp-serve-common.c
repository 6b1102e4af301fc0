/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-serve-common.c: what the serve room says in every build, with or
 * without libsoup 3: its error domain, whether the server is in, and the
 * server's entry points answering "not in this build" where it is not.
 */
#include "gp-config.h"
#include "gp-serve.h"

G_DEFINE_QUARK (gp-serve-error-quark, gp_serve_error);

gboolean
gp_serve_available (void)
{
  return GP_HAVE_SERVE;
}

gboolean
gp_serve_host_is_loopback (const gchar * host)
{
  return host == NULL || g_str_equal (host, "127.0.0.1") ||
      g_str_equal (host, "::1") || g_str_equal (host, "localhost");
}

#if !GP_HAVE_SERVE
GpServer *
gp_server_new (const GpServeOptions * opts, GError ** error)
{
  g_set_error (error, GP_SERVE_ERROR, GP_SERVE_ERROR_UNAVAILABLE,
      "this gstprof was built without libsoup 3, so it has no server "
      "(--serve, serve); `gstprof report` writes the same views to a file");
  return NULL;
}

const gchar *
gp_server_url (GpServer * srv)
{
  return NULL;
}

const gchar *
gp_server_token (GpServer * srv)
{
  return NULL;
}

guint
gp_server_port (GpServer * srv)
{
  return 0;
}

void
gp_server_update (GpServer * srv, GpSession * s)
{
}

void
gp_server_end (GpServer * srv, GpSession * s)
{
}

void
gp_server_drain (GpServer * srv, gdouble timeout_s)
{
}

void
gp_server_free (GpServer * srv)
{
}
#endif
