/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof tests
 *
 * gp-test-http-slow.c: an HTTP server on loopback slower than the media
 * it serves: it answers one GET on 127.0.0.1:PORT with FILE, paced to
 * RATE bytes a second by its own clock (a twentieth of it every 50 ms),
 * then exits. It writes OUT empty once it listens. When the client has it all or goes away, it writes to OUT
 * the truth test-advice.c's /advice/http-slow checks gstprof's byte rate
 * against: "BYTES RATE", the body bytes it sent, and its rate measured by
 * its own clock (the bytes after the first write over the time from the
 * first write to the last).
 *
 *   gp-test-http-slow PORT FILE RATE OUT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gio/gio.h>

#define GP_THS_TICK_US 50000
/* How long it waits for the client before giving up. */
#define GP_THS_ACCEPT_S 30

/* Reads the request up to its blank line; FALSE when it never ends. */
static gboolean
gp_ths_read_request (GInputStream * in)
{
  gchar buf[4096];
  gsize have = 0;

  while (have < sizeof buf - 1) {
    gssize n = g_input_stream_read (in, buf + have, sizeof buf - 1 - have,
        NULL, NULL);

    if (n <= 0)
      return FALSE;
    have += n;
    buf[have] = '\0';
    if (strstr (buf, "\r\n\r\n"))
      return TRUE;
  }
  return FALSE;
}

int
main (int argc, char **argv)
{
  GSocketListener *listener;
  GSocketConnection *conn;
  GInetAddress *lo;
  GSocketAddress *addr;
  GOutputStream *out;
  GError *err = NULL;
  gchar *body, *head, *truth;
  gsize len, sent = 0, chunk, first_n = 0;
  gint64 first = 0, last = 0, due;
  guint rate;

  if (argc != 5) {
    fprintf (stderr, "usage: %s PORT FILE RATE OUT\n", argv[0]);
    return 2;
  }
  if (!g_file_get_contents (argv[2], &body, &len, &err)) {
    fprintf (stderr, "%s: %s\n", argv[0], err->message);
    return 1;
  }
  rate = atoi (argv[3]);
  chunk = MAX (1, rate / (G_USEC_PER_SEC / GP_THS_TICK_US));
  listener = g_socket_listener_new ();
  lo = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  addr = g_inet_socket_address_new (lo, atoi (argv[1]));
  if (!g_socket_listener_add_address (listener, addr, G_SOCKET_TYPE_STREAM,
          G_SOCKET_PROTOCOL_TCP, NULL, NULL, &err)) {
    fprintf (stderr, "%s: %s\n", argv[0], err->message);
    return 1;
  }
  g_file_set_contents (argv[4], "", 0, NULL);
  alarm (GP_THS_ACCEPT_S);
  conn = g_socket_listener_accept (listener, NULL, NULL, &err);
  alarm (0);
  if (conn == NULL || !gp_ths_read_request (g_io_stream_get_input_stream
          (G_IO_STREAM (conn)))) {
    fprintf (stderr, "%s: no request\n", argv[0]);
    return 1;
  }
  out = g_io_stream_get_output_stream (G_IO_STREAM (conn));
  head = g_strdup_printf ("HTTP/1.1 200 OK\r\nContent-Type: video/mpegts\r\n"
      "Content-Length: %" G_GSIZE_FORMAT "\r\nConnection: close\r\n\r\n",
      len);
  g_output_stream_write_all (out, head, strlen (head), NULL, NULL, NULL);
  due = g_get_monotonic_time ();
  while (sent < len) {
    gsize n = MIN (chunk, len - sent);
    gint64 now = g_get_monotonic_time ();

    if (due > now)
      g_usleep (due - now);
    if (!g_output_stream_write_all (out, body + sent, n, NULL, NULL, NULL))
      break;
    if (sent == 0) {
      first = g_get_monotonic_time ();
      first_n = n;
    }
    sent += n;
    last = g_get_monotonic_time ();
    due += GP_THS_TICK_US;
  }
  truth = g_strdup_printf ("%" G_GSIZE_FORMAT " %.1f\n", sent,
      last > first ? (sent - first_n) / ((last - first) / 1e6) : 0.0);
  g_file_set_contents (argv[4], truth, -1, NULL);
  g_io_stream_close (G_IO_STREAM (conn), NULL, NULL);
  g_free (truth);
  g_free (head);
  g_free (body);
  g_object_unref (conn);
  g_object_unref (addr);
  g_object_unref (lo);
  g_object_unref (listener);
  return 0;
}
