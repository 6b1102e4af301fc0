/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof tests
 *
 * gp-test-rtp-send.c: an RTP sender with a network of its own making:
 * 20 ms packets of 8 kHz mono L16 (silence), payload type 96, to
 * 127.0.0.1:PORT, PACKETS of them paced by its own clock once the receiver
 * listens: until then (at most WAIT_MS) it sends the first packet again
 * every 20 ms, which the kernel refuses while nothing is bound to the port
 * (the copies that arrive are duplicates). From the 40th packet on, every
 * LOSE_EVERY-th sequence number is never sent (0: none), and every
 * SWAP_EVERY-th pair is sent in the wrong order (0: none): lost and
 * reordered, as a network does; and every LATE_EVERY-th (0, or absent:
 * none) is held back LATE_MS and sent after the packets due in between, as
 * a network's jitter delays one. When it is done it writes to OUT the
 * truth test-advice.c's /advice/rtp-loss and /advice/jitter-late check
 * gstprof against: "SENT LOST SWAPPED LATE".
 *
 *   gp-test-rtp-send PORT PACKETS WAIT_MS LOSE_EVERY SWAP_EVERY OUT
 *       [LATE_EVERY LATE_MS]
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <glib.h>

#define GP_TRS_PAYLOAD 320      /* 20 ms of 8 kHz 16-bit mono */
#define GP_TRS_PERIOD_US 20000
#define GP_TRS_SSRC 0x67707273u
/* Packets before the first planted loss: the receiver's first packet
 * starts its count, so a hole before it would not be a loss it could
 * see. */
#define GP_TRS_CLEAN_START 40

static void
gp_trs_packet (guint8 * p, guint16 seq, guint32 ts)
{
  memset (p, 0, 12 + GP_TRS_PAYLOAD);
  p[0] = 0x80;
  p[1] = 96;
  p[2] = seq >> 8;
  p[3] = seq & 0xff;
  p[4] = ts >> 24;
  p[5] = (ts >> 16) & 0xff;
  p[6] = (ts >> 8) & 0xff;
  p[7] = ts & 0xff;
  p[8] = GP_TRS_SSRC >> 24;
  p[9] = (GP_TRS_SSRC >> 16) & 0xff;
  p[10] = (GP_TRS_SSRC >> 8) & 0xff;
  p[11] = GP_TRS_SSRC & 0xff;
}

/* Sends packet 0 every period until two sends in a row are not refused
 * (a refusal is the kernel's answer to the send before it), at most
 * @wait_ms: the receiver's socket is bound. */
static gboolean
gp_trs_wait_receiver (int fd, guint8 * p, gint wait_ms)
{
  gint64 end = g_get_monotonic_time () + (gint64) wait_ms * 1000;
  guint ok = 0;

  gp_trs_packet (p, 0, 0);
  while (ok < 2 && g_get_monotonic_time () < end) {
    if (send (fd, p, 12 + GP_TRS_PAYLOAD, 0) >= 0)
      ok++;
    else if (errno == ECONNREFUSED)
      ok = 0;
    g_usleep (GP_TRS_PERIOD_US);
  }
  return ok >= 2;
}

/* A packet held back: sent once the clock passes @due_us. */
typedef struct
{
  gint64 due_us;
  guint16 seq;
} GpTrsHeld;

/* Sends the held packets due by @now (all of them when @now is
 * G_MAXINT64); returns how many. */
static guint
gp_trs_send_held (int fd, GArray * held, gint64 now)
{
  guint8 p[12 + GP_TRS_PAYLOAD];
  guint n = 0;

  while (held->len > 0 && g_array_index (held, GpTrsHeld, 0).due_us <= now) {
    GpTrsHeld h = g_array_index (held, GpTrsHeld, 0);

    if (now == G_MAXINT64 && h.due_us > g_get_monotonic_time ())
      g_usleep (h.due_us - g_get_monotonic_time ());
    gp_trs_packet (p, h.seq, h.seq * (GP_TRS_PAYLOAD / 2));
    send (fd, p, sizeof p, 0);
    g_array_remove_index (held, 0);
    n++;
  }
  return n;
}

int
main (int argc, char **argv)
{
  struct sockaddr_in to;
  guint8 pkt[2][12 + GP_TRS_PAYLOAD];
  guint port, packets, lose_every, swap_every, late_every = 0, i, sent = 1;
  guint lost = 0, swapped = 0, late = 0;
  gint64 t0, late_us = 0;
  GArray *held = g_array_new (FALSE, FALSE, sizeof (GpTrsHeld));
  gchar *truth;
  int fd;

  if (argc != 7 && argc != 9) {
    fprintf (stderr, "usage: %s PORT PACKETS WAIT_MS LOSE_EVERY "
        "SWAP_EVERY OUT [LATE_EVERY LATE_MS]\n", argv[0]);
    return 2;
  }
  port = atoi (argv[1]);
  packets = atoi (argv[2]);
  lose_every = atoi (argv[4]);
  swap_every = atoi (argv[5]);
  if (argc == 9) {
    late_every = atoi (argv[7]);
    late_us = (gint64) atoi (argv[8]) * 1000;
  }
  fd = socket (AF_INET, SOCK_DGRAM, 0);
  memset (&to, 0, sizeof to);
  to.sin_family = AF_INET;
  to.sin_port = htons (port);
  to.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  if (connect (fd, (struct sockaddr *) &to, sizeof to) != 0
      || !gp_trs_wait_receiver (fd, pkt[0], atoi (argv[3]))) {
    fprintf (stderr, "%s: nothing listens on port %u\n", argv[0], port);
    return 1;
  }

  t0 = g_get_monotonic_time ();
  for (i = 1; i < packets; i++) {
    gint64 due = t0 + (gint64) i * GP_TRS_PERIOD_US, now;
    gboolean swap = swap_every && i >= GP_TRS_CLEAN_START
        && i % swap_every == 0 && i + 1 < packets;

    if (lose_every && i >= GP_TRS_CLEAN_START && i % lose_every == 0) {
      lost++;
      continue;
    }
    if (late_every && i >= GP_TRS_CLEAN_START && i % late_every == 0) {
      GpTrsHeld h = { due + late_us, (guint16) i };

      g_array_append_val (held, h);
      late++;
      continue;
    }
    now = g_get_monotonic_time ();
    if (due > now)
      g_usleep (due - now);
    sent += gp_trs_send_held (fd, held, g_get_monotonic_time ());
    gp_trs_packet (pkt[0], (guint16) i, i * (GP_TRS_PAYLOAD / 2));
    if (swap) {
      /* the next one first */
      gp_trs_packet (pkt[1], (guint16) (i + 1), (i + 1) * (GP_TRS_PAYLOAD /
              2));
      send (fd, pkt[1], sizeof pkt[1], 0);
      send (fd, pkt[0], sizeof pkt[0], 0);
      sent += 2;
      swapped++;
      i++;
      continue;
    }
    send (fd, pkt[0], sizeof pkt[0], 0);
    sent++;
  }
  sent += gp_trs_send_held (fd, held, G_MAXINT64);
  g_array_unref (held);
  close (fd);
  truth = g_strdup_printf ("%u %u %u %u\n", sent, lost, swapped, late);
  if (!g_file_set_contents (argv[6], truth, -1, NULL))
    return 1;
  g_free (truth);
  return 0;
}
