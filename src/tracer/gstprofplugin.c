/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof tracer
 *
 * gstprofplugin.c: the plugin (libgstprof.so) registering the "gstprof"
 * tracer.  Load it with GST_PLUGIN_PATH=<its directory> and
 * GST_TRACERS="gstprof(window=250)".
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gp-config.h"
#include "gstproftracer.h"
#include "core/gp-record.h"

/* GST_PLUGIN_DEFINE reads these three */
#ifndef PACKAGE
#define PACKAGE "gstprof"
#endif
#ifndef GST_PACKAGE_NAME
#define GST_PACKAGE_NAME "gstprof"
#endif
#ifndef GST_PACKAGE_ORIGIN
#define GST_PACKAGE_ORIGIN "https://github.com/gstprof/gstprof"
#endif

/* The plugin is "prof": GStreamer finds the descriptor of libgstprof.so
 * under gst_plugin_prof_get_desc (file name minus "libgst").  The tracer
 * it registers is "gstprof". */
static gboolean
plugin_init (GstPlugin * plugin)
{
  return gst_tracer_register (plugin, GP_TRACER_NAME, GST_TYPE_PROF_TRACER);
}

GST_PLUGIN_DEFINE (GST_VERSION_MAJOR, GST_VERSION_MINOR, prof,
    /* "LGPL" is GStreamer's name for the LGPL family (GST_LICENSE list):
     * the file's SPDX line and LICENSE say which, 2.1 or later */
    "gstprof pipeline profiler tracer", plugin_init, GP_VERSION, "LGPL",
    GST_PACKAGE_NAME, GST_PACKAGE_ORIGIN)
