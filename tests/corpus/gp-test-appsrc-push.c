/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof tests
 *
 * gp-test-appsrc-push.c: an application that pushes 320x240 I420 frames
 * into a live appsrc at FPS frames a second for SECONDS, paced by its own
 * clock (each frame at its deadline, the deadlines FPS apart), into
 * x264enc and a fakesink: what test-corpus.c's /corpus/appsrc-push wraps.
 * When it is done it writes to OUT the truth the test checks gstprof's
 * rate against: how many frames it pushed and over how long, from the
 * first push to the last ("N SECONDS").
 *
 *   gp-test-appsrc-push FPS SECONDS OUT
 */
#include <stdlib.h>
#include <string.h>

#include <gst/gst.h>
#include <gst/app/gstappsrc.h>

#define GP_TAP_WIDTH 320
#define GP_TAP_HEIGHT 240

/* Pushes a frame every 1/@fps s for @seconds; the number pushed, and the
 * time from the first push to the last in *@span_s. */
static guint
gp_tap_push (GstAppSrc * src, gint fps, gdouble seconds, gdouble * span_s)
{
  gsize size = GP_TAP_WIDTH * GP_TAP_HEIGHT * 3 / 2;
  gint64 t0 = g_get_monotonic_time (), first = 0, last = 0;
  guint n;

  for (n = 0; n < (guint) (seconds * fps); n++) {
    gint64 due = t0 + (gint64) n * G_USEC_PER_SEC / fps;
    gint64 now = g_get_monotonic_time ();
    GstBuffer *buf;
    GstMapInfo map;

    if (due > now)
      g_usleep (due - now);
    buf = gst_buffer_new_allocate (NULL, size, NULL);
    gst_buffer_map (buf, &map, GST_MAP_WRITE);
    memset (map.data, n & 0xff, map.size);
    gst_buffer_unmap (buf, &map);
    if (gst_app_src_push_buffer (src, buf) != GST_FLOW_OK)
      break;
    last = g_get_monotonic_time ();
    if (n == 0)
      first = last;
  }
  *span_s = (last - first) / 1e6;
  return n;
}

int
main (int argc, char **argv)
{
  GError *error = NULL;
  GstElement *pipeline, *src;
  GstBus *bus;
  GstMessage *msg;
  gchar *launch, *truth;
  gdouble seconds, span_s;
  gint fps;
  guint n;

  gst_init (&argc, &argv);
  if (argc != 4) {
    g_printerr ("usage: %s FPS SECONDS OUT\n", argv[0]);
    return 3;
  }
  fps = atoi (argv[1]);
  seconds = g_ascii_strtod (argv[2], NULL);
  if (fps <= 0 || seconds <= 0) {
    g_printerr ("%s: FPS and SECONDS must be > 0\n", argv[0]);
    return 3;
  }
  launch = g_strdup_printf ("appsrc name=ap_src is-live=true format=time "
      "do-timestamp=true caps=video/x-raw,format=I420,width=%d,height=%d,"
      "framerate=%d/1 ! x264enc name=ap_enc speed-preset=ultrafast "
      "tune=zerolatency ! fakesink name=ap_sink sync=false", GP_TAP_WIDTH,
      GP_TAP_HEIGHT, fps);
  pipeline = gst_parse_launch (launch, &error);
  g_free (launch);
  if (pipeline == NULL) {
    g_printerr ("%s\n", error->message);
    return 1;
  }
  src = gst_bin_get_by_name (GST_BIN (pipeline), "ap_src");
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  n = gp_tap_push (GST_APP_SRC (src), fps, seconds, &span_s);
  gst_app_src_end_of_stream (GST_APP_SRC (src));
  gst_object_unref (src);

  bus = gst_element_get_bus (pipeline);
  msg = gst_bus_timed_pop_filtered (bus, 5 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  if (msg)
    gst_message_unref (msg);
  gst_object_unref (bus);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);

  truth = g_strdup_printf ("%u %.6f\n", n, span_s);
  /* on stderr: its parent's stdout may be a TAP stream (test-corpus runs it
   * under wrap in-process), which a line of its own would break */
  g_printerr ("pushed %u frames in %.3f s\n", n, span_s);
  if (!g_file_set_contents (argv[3], truth, -1, &error)) {
    g_printerr ("%s\n", error->message);
    return 1;
  }
  g_free (truth);
  gst_deinit ();
  return 0;
}
