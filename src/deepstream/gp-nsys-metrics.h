/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-nsys-metrics.h: the GPU metrics of an Nsight Systems capture
 * (`--gpu-metrics-devices`), summed up per GPU and metric: how many
 * samples, their mean, p50, p95 and maximum. `nsys stats` has no report of
 * them; they come from the SQLite export (gp-nsys-sqlite.h reads its
 * GPU_METRICS table into this). The metrics the bound needs are known by
 * their role whatever the release calls them ("SM Active [Throughput %]",
 * older "SM Active" and "SMs Active").
 */
#ifndef __GP_NSYS_METRICS_H__
#define __GP_NSYS_METRICS_H__

#include <glib.h>

#include "core/gp-stats.h"

G_BEGIN_DECLS

typedef enum
{
  GP_NSYS_METRIC_OTHER,
  GP_NSYS_METRIC_SM_ACTIVE,     /* % of SMs with a warp resident */
  GP_NSYS_METRIC_SM_ISSUE,
  GP_NSYS_METRIC_TENSOR_ACTIVE,
  GP_NSYS_METRIC_DRAM_READ,     /* % of the peak DRAM bandwidth */
  GP_NSYS_METRIC_DRAM_WRITE,
} GpNsysMetricRole;

typedef struct
{
  guint gpu;                    /* the device index (typeId's low byte) */
  gchar *name;                  /* as nsys names it, "SM Active [Throughput
                                 * %]" */
  GpNsysMetricRole role;
  GpSummary values;
} GpNsysMetric;

typedef struct
{
  gchar *origin;                /* the file read */
  GPtrArray *metrics;           /* GpNsysMetric*, by GPU then name */
  guint n_samples;              /* every sample kept, all metrics */
  gdouble rate_hz;              /* the sampling frequency; NAN unknown */
  gdouble span_s;               /* first to last sample; 0 for one */
  /* (private) samples by "GPU\tname" while they are added, and the
   * first and last sample's time */
  GHashTable *adding;
  gint64 t_first, t_last;
} GpNsysMetrics;

/* the samples of one metric on one GPU while they are added */
typedef struct _GpNsysMetricSamples GpNsysMetricSamples;

GpNsysMetrics *gp_nsys_metrics_new (const gchar * origin);
/* The samples of metric @name on @gpu, found or made (owned by @m, valid
 * until gp_nsys_metrics_finish): a reader finds them once per metric,
 * then adds each sample to them. */
GpNsysMetricSamples *gp_nsys_metrics_samples (GpNsysMetrics * m, guint gpu,
    const gchar * name);
/* One sample at @t_ns; a value that is not finite, or a time before the
 * capture (negative), is not a sample. A metric left without samples is
 * not listed. */
void gp_nsys_metrics_add_sample (GpNsysMetrics * m,
    GpNsysMetricSamples * samples, gint64 t_ns, gdouble value);
/* Sums the samples up into m->metrics (once, after the last add). */
void gp_nsys_metrics_finish (GpNsysMetrics * m);
void gp_nsys_metrics_free (GpNsysMetrics * m);

GpNsysMetricRole gp_nsys_metric_role (const gchar * name);
/* The mean of @role's metric on @gpu, NAN when it was not sampled. */
gdouble gp_nsys_metrics_mean (const GpNsysMetrics * m, guint gpu,
    GpNsysMetricRole role);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GpNsysMetrics, gp_nsys_metrics_free)

G_END_DECLS

#endif /* __GP_NSYS_METRICS_H__ */
