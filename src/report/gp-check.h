/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-check.h: what this machine can measure (`gstprof check`): GStreamer
 * version, the gstprof tracer plugin, platform, vendor tools, hardware
 * elements, per-thread CPU clocks. Never fails: whatever cannot be found is
 * reported as missing.
 */
#ifndef __GP_CHECK_H__
#define __GP_CHECK_H__

#include <glib.h>

G_BEGIN_DECLS

/* The report, one "name: value" line per item. gst_init() must have run;
 * @tracer_problem is why the tracer's environment could not be prepared
 * (NULL when it could); @user_plugin_path is the user's GST_PLUGIN_PATH
 * before gstprof added its own folder (NULL when unset), for where a
 * program given only GST_TRACERS=gstprof finds the tracer. */
gchar *gp_check_report (const gchar * tracer_problem,
    const gchar * user_plugin_path);

G_END_DECLS

#endif /* __GP_CHECK_H__ */
