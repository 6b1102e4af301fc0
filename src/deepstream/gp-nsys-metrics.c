/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-nsys-metrics.c: GPU metric samples summed up per GPU and metric
 * (gp-nsys-metrics.h).
 */
#include "gp-nsys-metrics.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct _GpNsysMetricSamples
{
  guint gpu;
  gchar *name;
  GArray *values;               /* gdouble */
};

static void
gp_nsys_metric_adding_free (gpointer p)
{
  GpNsysMetricSamples *a = p;

  g_free (a->name);
  g_array_unref (a->values);
  g_free (a);
}

static void
gp_nsys_metric_free (gpointer p)
{
  GpNsysMetric *m = p;

  g_free (m->name);
  g_free (m);
}

GpNsysMetrics *
gp_nsys_metrics_new (const gchar * origin)
{
  GpNsysMetrics *m = g_new0 (GpNsysMetrics, 1);

  m->origin = g_strdup (origin);
  m->metrics = g_ptr_array_new_with_free_func (gp_nsys_metric_free);
  m->rate_hz = NAN;
  m->adding = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      gp_nsys_metric_adding_free);
  return m;
}

GpNsysMetricSamples *
gp_nsys_metrics_samples (GpNsysMetrics * m, guint gpu, const gchar * name)
{
  gchar *key = g_strdup_printf ("%u\t%s", gpu, name);
  GpNsysMetricSamples *a = g_hash_table_lookup (m->adding, key);

  if (a != NULL) {
    g_free (key);
    return a;
  }
  a = g_new0 (GpNsysMetricSamples, 1);
  a->gpu = gpu;
  a->name = g_strdup (name);
  a->values = g_array_new (FALSE, FALSE, sizeof (gdouble));
  g_hash_table_insert (m->adding, key, a);
  return a;
}

void
gp_nsys_metrics_add_sample (GpNsysMetrics * m, GpNsysMetricSamples * a,
    gint64 t_ns, gdouble value)
{
  if (!isfinite (value) || t_ns < 0)
    return;
  g_array_append_val (a->values, value);
  if (m->n_samples == 0 || t_ns < m->t_first)
    m->t_first = t_ns;
  if (m->n_samples == 0 || t_ns > m->t_last)
    m->t_last = t_ns;
  m->n_samples++;
}

static gint
gp_nsys_metric_cmp (gconstpointer a, gconstpointer b)
{
  const GpNsysMetric *x = *(GpNsysMetric * const *) a;
  const GpNsysMetric *y = *(GpNsysMetric * const *) b;

  if (x->gpu != y->gpu)
    return x->gpu < y->gpu ? -1 : 1;
  return strcmp (x->name, y->name);
}

void
gp_nsys_metrics_finish (GpNsysMetrics * m)
{
  GHashTableIter it;
  gpointer v;

  if (m->adding == NULL)
    return;
  g_hash_table_iter_init (&it, m->adding);
  while (g_hash_table_iter_next (&it, NULL, &v)) {
    GpNsysMetricSamples *a = v;
    GpNsysMetric *metric;

    if (a->values->len == 0)    /* found, but no sample was one */
      continue;
    metric = g_new0 (GpNsysMetric, 1);
    metric->gpu = a->gpu;
    metric->name = g_strdup (a->name);
    metric->role = gp_nsys_metric_role (a->name);
    gp_summary_of (a->values, &metric->values);
    g_ptr_array_add (m->metrics, metric);
  }
  g_ptr_array_sort (m->metrics, gp_nsys_metric_cmp);
  g_clear_pointer (&m->adding, g_hash_table_unref);
  m->span_s = m->n_samples ? (m->t_last - m->t_first) / 1e9 : 0;
}

void
gp_nsys_metrics_free (GpNsysMetrics * m)
{
  if (m == NULL)
    return;
  g_free (m->origin);
  g_ptr_array_unref (m->metrics);
  if (m->adding)
    g_hash_table_unref (m->adding);
  g_free (m);
}

/* A throughput metric by its name in any release: the name, then nothing
 * or a unit in brackets that is a share ("[Throughput %]"). */
GpNsysMetricRole
gp_nsys_metric_role (const gchar * name)
{
  static const struct
  {
    const gchar *name;
    GpNsysMetricRole role;
  } names[] = {
    {"SM Active", GP_NSYS_METRIC_SM_ACTIVE},
    {"SMs Active", GP_NSYS_METRIC_SM_ACTIVE},
    {"SM Issue", GP_NSYS_METRIC_SM_ISSUE},
    {"Tensor Active", GP_NSYS_METRIC_TENSOR_ACTIVE},
    {"DRAM Read Bandwidth", GP_NSYS_METRIC_DRAM_READ},
    {"DRAM Write Bandwidth", GP_NSYS_METRIC_DRAM_WRITE},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (names); i++) {
    gsize n = strlen (names[i].name);
    const gchar *rest = name + n;

    if (strncmp (name, names[i].name, n) != 0)
      continue;
    if (*rest == '\0' || (rest[0] == ' ' && rest[1] == '['
            && strstr (rest, "%]") != NULL))
      return names[i].role;
  }
  return GP_NSYS_METRIC_OTHER;
}

gdouble
gp_nsys_metrics_mean (const GpNsysMetrics * m, guint gpu,
    GpNsysMetricRole role)
{
  guint i;

  for (i = 0; i < m->metrics->len; i++) {
    const GpNsysMetric *x = g_ptr_array_index (m->metrics, i);

    if (x->gpu == gpu && x->role == role)
      return x->values.mean;
  }
  return NAN;
}
