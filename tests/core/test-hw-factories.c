/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof tests: src/core/gp-hw-factories.h, the one table of hardware
 * factories: everything the tracer's patterns and the rules' lists named
 * before they shared it is still hardware, the V4L2 capture and output
 * elements and software elements are not, and the rules answer as the
 * table does. */
#include "core/gp-hw-factories.h"
#include "rules/gp-rules.h"

/* factory, plugin (NULL: not known), as the graph and sessions name them */
static const gchar *const hardware[][2] = {
  /* NVIDIA */
  {"nvv4l2decoder", NULL}, {"nvv4l2h264enc", NULL}, {"nvvidconv", NULL},
  {"nvvideoconvert", NULL}, {"nvjpegdec", NULL}, {"nvcudah264enc", NULL},
  {"nvh264dec", NULL}, {"nvh265enc", NULL}, {"nvav1dec", NULL},
  {"nvvp9dec", NULL}, {"nvmpeg2videodec", NULL}, {"nvautogpuh264enc", NULL},
  {"nvd3d11h264enc", NULL}, {"cudaconvert", NULL}, {"cudaupload", NULL},
  {"nvinfer", NULL}, {"nvstreammux", NULL}, {"nvtracker", NULL},
  /* VA-API */
  {"vaapih264dec", NULL}, {"vah264dec", NULL}, {"vah265enc", NULL},
  {"vaav1dec", NULL}, {"vavp9dec", NULL}, {"vajpegdec", NULL},
  {"vampeg2dec", NULL}, {"vapostproc", NULL}, {"vadeinterlace", NULL},
  {"vacompositor", NULL},
  /* V4L2 memory-to-memory, stateful and stateless */
  {"v4l2h264enc", NULL}, {"v4l2h264dec", NULL}, {"v4l2convert", NULL},
  {"v4l2video10convert", NULL}, {"v4l2slh264dec", NULL},
  {"v4l2slh265dec", NULL},
  /* the others */
  {"omxh264enc", NULL}, {"msdkh264enc", NULL}, {"qsvh264enc", NULL},
  {"amfh264enc", NULL}, {"mpph264enc", NULL}, {"imxvpudec", NULL},
  /* by plugin: any element of these */
  {"anything", "nvcodec"}, {"anything", "nvvideo4linux2"},
  {"anything", "nvvidconv"}, {"anything", "nvvideoconvert"},
  {"anything", "nvjpeg"}, {"anything", "va"}, {"anything", "vaapi"},
  {"anything", "msdk"}, {"anything", "qsv"}, {"anything", "omx"},
  {"anything", "amfcodec"}, {"anything", "v4l2codecs"},
};

static const gchar *const software[] = {
  "v4l2src", "v4l2sink", "v4l2radio", "videoconvert", "videoscale",
  "x264enc", "avdec_h264", "jpegdec", "glcolorconvert", "glupload",
  "compositor", "queue", "decklinkvideosrc",
};

static void
test_hardware (void)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (hardware); i++) {
    const gchar *factory = hardware[i][0], *plugin = hardware[i][1];

    g_test_message ("%s (%s)", factory, plugin ? plugin : "-");
    g_assert_true (gp_hw_factory_is_hardware (factory, plugin, NULL));
    g_assert_true (gp_rules_is_hardware_factory (factory, plugin));
  }
  for (i = 0; i < G_N_ELEMENTS (software); i++) {
    g_test_message ("%s", software[i]);
    g_assert_false (gp_hw_factory_is_hardware (software[i], NULL, NULL));
    g_assert_false (gp_rules_is_hardware_factory (software[i], NULL));
    g_assert_false (gp_hw_factory_is_hardware (software[i], "coreelements",
            "Filter/Converter/Video"));
  }
  g_assert_false (gp_hw_factory_is_hardware (NULL, "va", "Hardware"));
  g_assert_false (gp_rules_is_hardware_factory (NULL, NULL));
}

/* the klass, where the registry gives it (the tracer, gstprof check) */
static void
test_klass (void)
{
  g_assert_true (gp_hw_factory_is_hardware ("decklinkvideosrc", "decklink",
          "Video/Source/Hardware"));
  g_assert_true (gp_hw_factory_is_hardware ("d3d11h264dec", "d3d11",
          "Codec/Decoder/Video/Hardware"));
  g_assert_false (gp_hw_factory_is_hardware ("d3d11h264dec", "d3d11",
          NULL));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/core/hw-factories/hardware", test_hardware);
  g_test_add_func ("/core/hw-factories/klass", test_klass);
  return g_test_run ();
}
