/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof tests
 *
 * gp-test-appsrc-flood.c: an application that pushes 640x480 I420 frames
 * into an appsrc at 60 a second for SECONDS, paced by its own clock and
 * deaf to enough-data, while the pipeline takes 15 a second (identity
 * sleep-time=66667): with BLOCK 0 (appsrc's default, block=false) the
 * frames pile up inside appsrc; with BLOCK 1 its push waits for room
 * (max-bytes, one frame). What test-corpus.c's /corpus/appsrc-flood wraps.
 * When it is done it writes to OUT the truth the test checks gstprof
 * against, from its own counts: "PUSHED CONSUMED QUEUED_BYTES", the
 * frames it pushed, those that had reached the sink (a probe of its own
 * on the sink's pad) at its last push, and the bytes between the two.
 *
 *   gp-test-appsrc-flood BLOCK SECONDS OUT
 */
#include <stdlib.h>
#include <string.h>

#include <gst/gst.h>
#include <gst/app/gstappsrc.h>

#define GP_TAF_WIDTH 640
#define GP_TAF_HEIGHT 480
#define GP_TAF_FPS 60
#define GP_TAF_FRAME (GP_TAF_WIDTH * GP_TAF_HEIGHT * 3 / 2)

static gint consumed;

static GstPadProbeReturn
gp_taf_count (GstPad * pad, GstPadProbeInfo * info, gpointer unused)
{
  g_atomic_int_inc (&consumed);
  return GST_PAD_PROBE_OK;
}

int
main (int argc, char **argv)
{
  GError *error = NULL;
  GstElement *pipeline, *src, *sink;
  GstPad *pad;
  GstBus *bus;
  GstMessage *msg;
  gchar *launch, *truth;
  gdouble seconds;
  gint64 t0;
  guint n, taken = 0;

  gst_init (&argc, &argv);
  if (argc != 4) {
    g_printerr ("usage: %s BLOCK SECONDS OUT\n", argv[0]);
    return 3;
  }
  seconds = g_ascii_strtod (argv[2], NULL);
  launch = g_strdup_printf ("appsrc name=af_src format=time is-live=true "
      "do-timestamp=true block=%s max-bytes=%d caps=video/x-raw,format=I420,"
      "width=%d,height=%d,framerate=%d/1 ! identity name=af_slow "
      "sleep-time=66667 ! fakesink name=af_sink sync=false",
      atoi (argv[1]) ? "true" : "false", GP_TAF_FRAME, GP_TAF_WIDTH,
      GP_TAF_HEIGHT, GP_TAF_FPS);
  pipeline = gst_parse_launch (launch, &error);
  g_free (launch);
  if (pipeline == NULL) {
    g_printerr ("%s\n", error->message);
    return 1;
  }
  src = gst_bin_get_by_name (GST_BIN (pipeline), "af_src");
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "af_sink");
  pad = gst_element_get_static_pad (sink, "sink");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, gp_taf_count, NULL,
      NULL);
  gst_object_unref (pad);
  gst_object_unref (sink);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);

  t0 = g_get_monotonic_time ();
  for (n = 0; n < (guint) (seconds * GP_TAF_FPS); n++) {
    gint64 due = t0 + (gint64) n * G_USEC_PER_SEC / GP_TAF_FPS;
    gint64 now = g_get_monotonic_time ();
    GstBuffer *buf;

    if (due > now)
      g_usleep (due - now);
    buf = gst_buffer_new_allocate (NULL, GP_TAF_FRAME, NULL);
    gst_buffer_memset (buf, 0, n & 0xff, GP_TAF_FRAME);
    if (gst_app_src_push_buffer (GST_APP_SRC (src), buf) != GST_FLOW_OK)
      break;
  }
  taken = g_atomic_int_get (&consumed);
  /* what is queued is thrown away: the run is over */
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (src);
  bus = gst_element_get_bus (pipeline);
  while ((msg = gst_bus_pop (bus)))
    gst_message_unref (msg);
  gst_object_unref (bus);
  gst_object_unref (pipeline);

  truth = g_strdup_printf ("%u %u %" G_GUINT64_FORMAT "\n", n, taken,
      (guint64) (n > taken ? n - taken : 0) * GP_TAF_FRAME);
  /* on stderr: its parent's stdout may be a TAP stream */
  g_printerr ("pushed %u frames, %u consumed\n", n, taken);
  if (!g_file_set_contents (argv[3], truth, -1, &error)) {
    g_printerr ("%s\n", error->message);
    return 1;
  }
  g_free (truth);
  gst_deinit ();
  return 0;
}
