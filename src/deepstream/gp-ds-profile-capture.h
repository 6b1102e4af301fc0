/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-ds-profile-capture.h: what `gstprof ds profile` reports on, gathered
 * into a GpDsProfile (gp-ds-profile.h) for gp_ds_profile_markdown: an
 * Nsight Systems capture of a command by the capture recipe, or the nsys
 * stats saved in a folder; the GPU and its ceilings; a gstprof session's
 * elements beside NVTX. Built into the gpnsysdb library with the SQLite
 * export's reader (gp-nsys-sqlite.h), whose GPU metrics it reads.
 */
#ifndef __GP_DS_PROFILE_CAPTURE_H__
#define __GP_DS_PROFILE_CAPTURE_H__

#include <glib.h>

#include "gp-ds-profile.h"

G_BEGIN_DECLS

/* The capture recipe on @cmd (a NULL-terminated argv, PATH searched) for
 * @secs: `nsys profile --trace=cuda,nvtx,osrt` with
 * --gpu-metrics-devices=all (taken again without it, and said in
 * @p->metrics_why, where the driver keeps the counters to
 * administrators), then `nsys stats --report R --format csv` for each of
 * gp_ds_profile_reports, saved as @out/R.csv and read into @p->stats; the
 * GPU metrics from the SQLite export nsys stats leaves beside the report
 * (@p->metrics, or why not). Sets @p->source and @p->duration_s. FALSE
 * with @error when nsys failed or gave no report. */
gboolean gp_ds_profile_capture (GpDsProfile * p, gchar ** cmd, gdouble secs,
    const gchar * out, GError ** error);

/* The nsys stats outputs saved in @dir (every .csv and .txt, one report a
 * file or several in one) into @p->stats, the GPU metrics of the first
 * SQLite export there into @p->metrics (or why not in @p->metrics_why),
 * and @p->source. FALSE with @error when one does not read or there is
 * none. */
gboolean gp_ds_profile_read_stats (GpDsProfile * p, const gchar * dir,
    GError ** error);

/* The GPU and its ceilings as `ds hw` prints them into @p->hardware: from
 * a saved nvidia-smi query or tegrastats log (@file), else this machine's
 * when @live (why not in @p->hardware_why); its first GPU, the one
 * nvinfer's gpu-id 0 names. FALSE with @error only when @file does not
 * read. */
gboolean gp_ds_profile_hardware (GpDsProfile * p, const gchar * file,
    gboolean live, GError ** error);

/* @session (taken) in @p, its elements covered from @p->stats' nvtx_sum
 * where nsys has one (@p->stats may be NULL), else from DeepStream's
 * sources, with their self time beside. */
void gp_ds_profile_add_session (GpDsProfile * p, GpSession * session);

G_END_DECLS

#endif /* __GP_DS_PROFILE_CAPTURE_H__ */
