/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-hw-factories.h: which element factories drive hardware (a GPU, VPU,
 * ISP or a vendor's media block: codecs, converters, scalers, compositors,
 * DeepStream's batcher, inference and tracker), in one table for everyone
 * who asks:
 *
 *  - the tracer (src/tracer/gstprofgraph.c) lists the hardware factories
 *    registered on the machine in its graph record (`hw`, which the
 *    session keeps as graph.hw_elements: what the capture's machine has);
 *  - the rules (src/rules/gp-rules-hw.c, gp_rules_is_hardware_factory ())
 *    ask it of the elements of a session, which keeps factory names only:
 *    QUEUE (a device's work is not the upstream thread's), SW (not a
 *    software element to swap), ZC, CAPS, and the gst-profile reader (which
 *    of the pipeline's factories make its hw list);
 *  - `gstprof check` (src/report/gp-check.c) asks it of every registered
 *    factory, as the tracer does, and prints the same list, split by
 *    whether an element of each opens a device here (READY).
 *
 * A factory is hardware when its klass says "Hardware" (the plugin's own
 * word: d3d11 and VideoToolbox decoders, capture cards such as decklink;
 * known only where the registry is at hand: pass NULL otherwise), when its
 * plugin is one whose every element is, when its name starts with one of
 * the prefixes (vendor plugins whose plugin name varies, and sessions that
 * know only the factory), or when it is a V4L2 memory-to-memory element.
 *
 * Which device memory each works in, the device twins of software elements
 * and the software-to-hardware swaps per platform are the rules' knowledge
 * and stay in gp-rules-hw.c.
 *
 * Header-only on purpose, like gp-histogram.h and gp-record.h: the tracer
 * plugin must not link the analysis library, and both sides must give the
 * same answer.
 */
#ifndef __GP_HW_FACTORIES_H__
#define __GP_HW_FACTORIES_H__

#include <glib.h>
#include <string.h>

G_BEGIN_DECLS

typedef enum
{
  GP_HW_PLUGIN,                 /* every element of the plugin so named */
  GP_HW_PREFIX,                 /* factory names starting with this */
} GpHwMatch;

typedef struct
{
  GpHwMatch match;
  const gchar *name;
} GpHwFactory;

static const GpHwFactory gp_hw_factories[] = {
  /* NVIDIA: NVENC/NVDEC through V4L2 and the VIC converter (Jetson,
   * DeepStream), NVJPG, nvcodec's codecs and CUDA elements, DeepStream's
   * batcher, inference and tracker */
  {GP_HW_PLUGIN, "nvcodec"},
  {GP_HW_PLUGIN, "nvvideo4linux2"},
  {GP_HW_PLUGIN, "nvvidconv"},
  {GP_HW_PLUGIN, "nvvideoconvert"},
  {GP_HW_PLUGIN, "nvjpeg"},
  {GP_HW_PREFIX, "nvv4l2"},
  {GP_HW_PREFIX, "nvvidconv"},
  {GP_HW_PREFIX, "nvvideoconvert"},
  {GP_HW_PREFIX, "nvjpeg"},
  {GP_HW_PREFIX, "nvcuda"},
  {GP_HW_PREFIX, "nvh264"},
  {GP_HW_PREFIX, "nvh265"},
  {GP_HW_PREFIX, "nvav1"},
  {GP_HW_PREFIX, "nvvp8"},
  {GP_HW_PREFIX, "nvvp9"},
  {GP_HW_PREFIX, "nvmpeg"},
  {GP_HW_PREFIX, "nvautogpu"},
  {GP_HW_PREFIX, "nvd3d11"},
  {GP_HW_PREFIX, "cuda"},
  {GP_HW_PREFIX, "nvinfer"},
  {GP_HW_PREFIX, "nvstreammux"},
  {GP_HW_PREFIX, "nvtracker"},
  /* VA-API: the va plugin and gstreamer-vaapi */
  {GP_HW_PLUGIN, "va"},
  {GP_HW_PLUGIN, "vaapi"},
  {GP_HW_PREFIX, "vaapi"},
  {GP_HW_PREFIX, "vah26"},
  {GP_HW_PREFIX, "vaav1"},
  {GP_HW_PREFIX, "vavp"},
  {GP_HW_PREFIX, "vajpeg"},
  {GP_HW_PREFIX, "vampeg2"},
  {GP_HW_PREFIX, "vapostproc"},
  {GP_HW_PREFIX, "vadeinterlace"},
  {GP_HW_PREFIX, "vacompositor"},
  /* Intel Media SDK and oneVPL */
  {GP_HW_PLUGIN, "msdk"},
  {GP_HW_PLUGIN, "qsv"},
  {GP_HW_PREFIX, "msdk"},
  {GP_HW_PREFIX, "qsv"},
  /* AMD AMF */
  {GP_HW_PLUGIN, "amfcodec"},
  {GP_HW_PREFIX, "amf"},
  /* OpenMAX IL (older Raspberry Pi firmware, vendor BSPs) */
  {GP_HW_PLUGIN, "omx"},
  {GP_HW_PREFIX, "omx"},
  /* V4L2 stateless codecs (v4l2slh264dec, ...); the stateful ones are
   * gp_hw_factory_is_v4l2_m2m ()'s */
  {GP_HW_PLUGIN, "v4l2codecs"},
  /* Rockchip MPP, NXP i.MX VPU */
  {GP_HW_PREFIX, "mpp"},
  {GP_HW_PREFIX, "imxvpu"},
};

/* gp_hw_factory_is_v4l2_m2m:
 * TRUE for a V4L2 memory-to-memory element (v4l2h264enc, v4l2h264dec,
 * v4l2jpegdec, v4l2slh264dec, v4l2convert, v4l2video10convert, ...), not
 * for the capture and output elements (v4l2src, v4l2sink, v4l2radio). */
static inline gboolean
gp_hw_factory_is_v4l2_m2m (const gchar * factory)
{
  return factory != NULL && g_str_has_prefix (factory, "v4l2") &&
      (g_str_has_suffix (factory, "enc") || g_str_has_suffix (factory, "dec")
      || strstr (factory, "convert") != NULL
      || strstr (factory, "transform") != NULL);
}

/* gp_hw_factory_is_hardware:
 * @factory: the factory's name (NULL: FALSE)
 * @plugin: (nullable): its plugin's name, when known
 * @klass: (nullable): its klass metadata, when the registry is at hand
 *
 * TRUE when the factory drives hardware (see the top of this file). */
static inline gboolean
gp_hw_factory_is_hardware (const gchar * factory, const gchar * plugin,
    const gchar * klass)
{
  guint i;

  if (factory == NULL)
    return FALSE;
  if (klass != NULL && strstr (klass, "Hardware") != NULL)
    return TRUE;
  for (i = 0; i < G_N_ELEMENTS (gp_hw_factories); i++) {
    const GpHwFactory *f = &gp_hw_factories[i];

    if (f->match == GP_HW_PLUGIN ? plugin != NULL &&
        strcmp (plugin, f->name) == 0 : g_str_has_prefix (factory, f->name))
      return TRUE;
  }
  return gp_hw_factory_is_v4l2_m2m (factory);
}

G_END_DECLS

#endif /* __GP_HW_FACTORIES_H__ */
