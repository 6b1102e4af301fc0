/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-rules-hw.c: platform knowledge, in one place: which element factories
 * drive hardware (codecs, converters, scalers on a GPU, VPU or ISP: the
 * table of src/core/gp-hw-factories.h, which the tracer uses too), the
 * device memories and their converters, the software elements' hardware
 * swaps and device twins. Used by the rules and the gst-profile reader.
 */
#include "gp-rules-private.h"
#include "core/gp-hw-factories.h"

#include <string.h>

/* Which factories are hardware is src/core/gp-hw-factories.h's table, shared
 * with the tracer; a session knows factory names (and a registry the
 * plugin), not the klass. */
gboolean
gp_rules_is_hardware_factory (const gchar * factory, const gchar * plugin)
{
  return gp_hw_factory_is_hardware (factory, plugin, NULL);
}

/* Device memories: for each caps feature that keeps buffers on a device,
 * the element that converts (format, size) without leaving it, and the pure
 * movers into and out of it when the platform has them. A link in system
 * memory between two links in one of these memories is a round trip
 * (rule ZC). First entry per memory wins when several converters are
 * available. */
static const GpHwMemory gp_hw_memories[] = {
  {"memory:NVMM", "jetson", "nvvidconv", NULL, NULL},
  {"memory:NVMM", "dgpu", "nvvideoconvert", NULL, NULL},
  {"memory:GLMemory", "gl", "glcolorconvert", "gldownload", "glupload"},
  {"memory:CUDAMemory", "cuda", "cudaconvert", "cudadownload",
      "cudaupload"},
  {"memory:VAMemory", "intel-va", "vapostproc", NULL, NULL},
  {"memory:DMABuf", "v4l2", "v4l2convert", NULL, NULL},
  {"memory:D3D11Memory", "d3d11", "d3d11convert", "d3d11download",
      "d3d11upload"},
};

/* Software factories and the hardware elements that do their job, per
 * platform. formats: the raw formats the hardware element takes and gives
 * in system memory (NULL: no raw side to check, or any); sink_memory /
 * src_memory: the only memory it takes at its input or gives at its output
 * (NULL: system memory works). The formats are those of the elements' pad
 * templates on the named platforms (JetPack 6 / L4T 36, DeepStream 7, VA
 * 1.22, V4L2 stateful drivers' common subset). */
static const GpHwSwap gp_hw_swaps[] = {
  /* Jetson: VIC converter, NVENC/NVDEC through V4L2, NVJPG */
  {"jetson", "videoconvert", "nvvidconv",
      "I420,I420_10LE,P010_10LE,UYVY,YUY2,YVYU,NV12,NV16,NV24,GRAY8,BGRx,"
        "RGBA,Y42B", NULL, NULL},
  {"jetson", "videoscale", "nvvidconv",
      "I420,I420_10LE,P010_10LE,UYVY,YUY2,YVYU,NV12,NV16,NV24,GRAY8,BGRx,"
        "RGBA,Y42B", NULL, NULL},
  {"jetson", "videoconvertscale", "nvvidconv",
      "I420,I420_10LE,P010_10LE,UYVY,YUY2,YVYU,NV12,NV16,NV24,GRAY8,BGRx,"
        "RGBA,Y42B", NULL, NULL},
  {"jetson", "x264enc", "nvv4l2h264enc", "I420,NV12", "memory:NVMM", NULL},
  {"jetson", "openh264enc", "nvv4l2h264enc", "I420,NV12", "memory:NVMM",
      NULL},
  {"jetson", "x265enc", "nvv4l2h265enc", "I420,NV12", "memory:NVMM", NULL},
  {"jetson", "avdec_h264", "nvv4l2decoder", "NV12", NULL, "memory:NVMM"},
  {"jetson", "avdec_h265", "nvv4l2decoder", "NV12", NULL, "memory:NVMM"},
  {"jetson", "jpegdec", "nvjpegdec", "I420", NULL, NULL},
  {"jetson", "jpegenc", "nvjpegenc", "I420,NV12", NULL, NULL},
  /* DeepStream on a discrete GPU */
  {"dgpu", "videoconvert", "nvvideoconvert",
      "I420,NV12,P010_10LE,BGRx,RGBA,GRAY8,YUY2,UYVY,RGB,BGR", NULL, NULL},
  {"dgpu", "videoscale", "nvvideoconvert",
      "I420,NV12,P010_10LE,BGRx,RGBA,GRAY8,YUY2,UYVY,RGB,BGR", NULL, NULL},
  {"dgpu", "x264enc", "nvv4l2h264enc", "I420,NV12", "memory:NVMM", NULL},
  {"dgpu", "avdec_h264", "nvv4l2decoder", "NV12", NULL, "memory:NVMM"},
  {"dgpu", "avdec_h265", "nvv4l2decoder", "NV12", NULL, "memory:NVMM"},
  /* Intel (and AMD) VA-API, the va plugin */
  {"intel-va", "x264enc", "vah264enc", "NV12", NULL, NULL},
  {"intel-va", "x265enc", "vah265enc", "NV12,P010_10LE", NULL, NULL},
  {"intel-va", "videoconvert", "vapostproc",
      "NV12,I420,YV12,YUY2,UYVY,RGBA,BGRA,BGRx,RGBx,P010_10LE", NULL, NULL},
  {"intel-va", "videoscale", "vapostproc",
      "NV12,I420,YV12,YUY2,UYVY,RGBA,BGRA,BGRx,RGBx,P010_10LE", NULL, NULL},
  {"intel-va", "avdec_h264", "vah264dec", "NV12", NULL, NULL},
  {"intel-va", "avdec_h265", "vah265dec", "NV12,P010_10LE", NULL, NULL},
  /* V4L2 stateful memory-to-memory (Raspberry Pi, i.MX, MediaTek,
   * Rockchip): the formats every such driver takes */
  {"v4l2", "x264enc", "v4l2h264enc", "I420,NV12", NULL, NULL},
  {"v4l2", "x265enc", "v4l2h265enc", "I420,NV12", NULL, NULL},
  {"v4l2", "avdec_h264", "v4l2h264dec", "I420,NV12", NULL, NULL},
  {"v4l2", "avdec_h265", "v4l2h265dec", "I420,NV12", NULL, NULL},
  {"v4l2", "jpegdec", "v4l2jpegdec", "I420,NV12", NULL, NULL},
  {"v4l2", "jpegenc", "v4l2jpegenc", "I420,NV12", NULL, NULL},
  {"v4l2", "videoconvert", "v4l2convert", "I420,NV12,YUY2,RGB16", NULL,
      NULL},
};

/* Elements that do a software element's job on frames in device memory,
 * with the same properties: what a round trip (rule ZC) swaps in instead
 * of dropping work the user asked for. The GL ones are all in the same
 * plugin as glupload and gldownload, so a pipeline that has those has
 * them. */
static const struct
{
  const gchar *memory, *sw, *device;
} gp_hw_twins[] = {
  {"memory:GLMemory", "videoflip", "glvideoflip"},
  {"memory:GLMemory", "videobalance", "glcolorbalance"},
  {"memory:GLMemory", "videoscale", "glcolorscale"},
  {"memory:GLMemory", "videoconvert", "glcolorconvert"},
  {"memory:GLMemory", "compositor", "glvideomixer"},
  {"memory:CUDAMemory", "videoconvert", "cudaconvert"},
  {"memory:CUDAMemory", "videoscale", "cudascale"},
  {"memory:VAMemory", "videoconvert", "vapostproc"},
  {"memory:VAMemory", "videoscale", "vapostproc"},
  {"memory:VAMemory", "compositor", "vacompositor"},
  {"memory:D3D11Memory", "videoconvert", "d3d11convert"},
  {"memory:D3D11Memory", "compositor", "d3d11compositor"},
  {"memory:NVMM", "compositor", "nvcompositor"},
};

const gchar *
gp_rules_hw_device_twin (const gchar * memory, const gchar * factory)
{
  guint i;

  for (i = 0; memory && factory && i < G_N_ELEMENTS (gp_hw_twins); i++)
    if (strcmp (gp_hw_twins[i].memory, memory) == 0 &&
        strcmp (gp_hw_twins[i].sw, factory) == 0)
      return gp_hw_twins[i].device;
  return NULL;
}

const GpHwMemory *
gp_rules_hw_memories (guint * n)
{
  *n = G_N_ELEMENTS (gp_hw_memories);
  return gp_hw_memories;
}

const GpHwSwap *
gp_rules_hw_swaps (guint * n)
{
  *n = G_N_ELEMENTS (gp_hw_swaps);
  return gp_hw_swaps;
}

gboolean
gp_rules_is_device_memory (const gchar * memory)
{
  guint i;

  if (memory == NULL)
    return FALSE;
  for (i = 0; i < G_N_ELEMENTS (gp_hw_memories); i++)
    if (g_strcmp0 (gp_hw_memories[i].memory, memory) == 0)
      return TRUE;
  /* Any other memory feature names a device's memory too (a vendor's
   * own), except the overlay-composition meta, which rides on any memory. */
  return g_str_has_prefix (memory, "memory:") &&
      g_strcmp0 (memory, "memory:SystemMemory") != 0;
}

gboolean
gp_rules_is_device_converter (const gchar * factory)
{
  guint i;

  for (i = 0; factory && i < G_N_ELEMENTS (gp_hw_memories); i++)
    if (g_strcmp0 (gp_hw_memories[i].converter, factory) == 0)
      return TRUE;
  return FALSE;
}

gboolean
gp_rules_hw_format_ok (const gchar * formats, const gchar * format)
{
  gchar **list;
  gboolean ok;

  /* Nothing to check on either side: compatible as far as we know. */
  if (formats == NULL || format == NULL)
    return TRUE;
  list = g_strsplit (formats, ",", -1);
  ok = g_strv_contains ((const gchar * const *) list, format);
  g_strfreev (list);
  return ok;
}
