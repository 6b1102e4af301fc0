/* gstprof
 *
 * gp-rules-hw.c: platform knowledge, in one place: which element factories
 * drive hardware (codecs, converters, scalers on a GPU, VPU or ISP). Used by
 * `gstprof check` and by rules that suggest a hardware element.
 */
#include "gp-rules.h"

/* Plugins whose every element drives hardware. */
static const gchar *const gp_hw_plugins[] = {
  "nvcodec", "nvvideo4linux2", "nvvidconv", "nvvideoconvert", "nvjpeg",
  "va", "vaapi", "msdk", "qsv", "omx", "amfcodec", "v4l2codecs", NULL
};

/* Factory-name prefixes of hardware elements, for when the plugin name is
 * not known or the plugin mixes hardware and software elements. */
static const gchar *const gp_hw_prefixes[] = {
  "nvv4l2", "nvvidconv", "nvvideoconvert", "nvjpeg", "nvh264", "nvh265",
  "nvav1", "nvvp8", "nvvp9", "nvcuda", "vaapi", "omx", "msdk", "qsv",
  "vah26", "vaav1", "vavp", "vajpeg", "vampeg2", "vapostproc",
  "vadeinterlace", "vacompositor", NULL
};

gboolean
gp_rules_is_hardware_factory (const gchar * factory, const gchar * plugin)
{
  guint i;

  if (factory == NULL)
    return FALSE;
  if (plugin && g_strv_contains (gp_hw_plugins, plugin))
    return TRUE;
  for (i = 0; gp_hw_prefixes[i]; i++)
    if (g_str_has_prefix (factory, gp_hw_prefixes[i]))
      return TRUE;
  /* V4L2 memory-to-memory devices (v4l2h264enc, v4l2convert, ...), not the
   * capture and output elements (v4l2src, v4l2sink, v4l2radio). */
  if (g_str_has_prefix (factory, "v4l2"))
    return g_str_has_suffix (factory, "enc") ||
        g_str_has_suffix (factory, "dec") ||
        g_strstr_len (factory, -1, "convert") != NULL ||
        g_strstr_len (factory, -1, "transform") != NULL;
  return FALSE;
}
