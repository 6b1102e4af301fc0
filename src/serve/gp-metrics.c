/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-metrics.c: the Prometheus text of a session (gp-metrics.h). Being
 * written: for now only gstprof_up.
 */
#include "gp-metrics.h"

gchar *
gp_metrics_text (GpSession * s, const gchar * pipeline)
{
  return g_strdup_printf ("# HELP gstprof_up 1 while gstprof serves.\n"
      "# TYPE gstprof_up gauge\ngstprof_up{pipeline=\"%s\"} 1\n",
      pipeline ? pipeline : "pipeline");
}
