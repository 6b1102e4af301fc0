/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof tests
 *
 * gp-test-appsink-slow.c: an application whose appsink callback works MS
 * milliseconds a frame on the streaming thread (a g_usleep standing for
 * the application's processing), fed by a live 30/1 source for SECONDS:
 * what test-late.c wraps, the "program whose appsink callback
 * takes 45 ms a frame" that falls behind live.
 *
 *   gp-test-appsink-slow MS SECONDS
 */
#include <stdlib.h>

#include <gst/gst.h>
#include <gst/app/gstappsink.h>

static GstFlowReturn
gp_tas_new_sample (GstAppSink * sink, gpointer data)
{
  GstSample *sample = gst_app_sink_pull_sample (sink);
  gulong us = GPOINTER_TO_SIZE (data);

  if (sample == NULL)
    return GST_FLOW_EOS;
  g_usleep (us);
  gst_sample_unref (sample);
  return GST_FLOW_OK;
}

static gboolean
gp_tas_quit (gpointer loop)
{
  g_main_loop_quit (loop);
  return G_SOURCE_REMOVE;
}

int
main (int argc, char **argv)
{
  GstAppSinkCallbacks cb = { NULL, NULL, gp_tas_new_sample };
  GError *error = NULL;
  GstElement *pipeline, *sink;
  GMainLoop *loop;
  gdouble ms, seconds;

  gst_init (&argc, &argv);
  if (argc != 3) {
    g_printerr ("usage: %s MS SECONDS\n", argv[0]);
    return 3;
  }
  ms = g_ascii_strtod (argv[1], NULL);
  seconds = g_ascii_strtod (argv[2], NULL);
  pipeline = gst_parse_launch ("videotestsrc name=src is-live=true ! "
      "video/x-raw,width=64,height=48,framerate=30/1 ! appsink name=app",
      &error);
  if (pipeline == NULL) {
    g_printerr ("%s\n", error->message);
    return 1;
  }
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "app");
  gst_app_sink_set_callbacks (GST_APP_SINK (sink), &cb,
      GSIZE_TO_POINTER ((gsize) (ms * 1000)), NULL);
  gst_object_unref (sink);

  loop = g_main_loop_new (NULL, FALSE);
  g_timeout_add ((guint) (seconds * 1000), gp_tas_quit, loop);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  g_main_loop_run (loop);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
  g_main_loop_unref (loop);
  gst_deinit ();
  return 0;
}
