/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-ds-sweep.c: the batch sweep and its plateau (gp-ds-sweep.h).
 */
#include "gp-ds-sweep.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "capture/gp-step.h"
#include "core/gp-session-query.h"

/* nvstreammux's own bound on batch-size is 1024; four times that leaves
 * room for any other batching element and still refuses a typo */
#define GP_DS_SWEEP_MAX_BATCH 4096

gchar *
gp_ds_sweep_substitute (const gchar * template_, guint batch, guint streams,
    GError ** error)
{
  GString *out;
  const gchar *at;
  gboolean seen = FALSE;

  out = g_string_new (NULL);
  for (at = template_; *at;) {
    if (g_str_has_prefix (at, "{batch}")) {
      g_string_append_printf (out, "%u", batch);
      at += strlen ("{batch}");
      seen = TRUE;
    } else if (g_str_has_prefix (at, "{streams}")) {
      g_string_append_printf (out, "%u", streams);
      at += strlen ("{streams}");
    } else
      g_string_append_c (out, *at++);
  }
  if (!seen) {
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
        "the pipeline has no {batch} to set the batch size with");
    g_string_free (out, TRUE);
    return NULL;
  }
  return g_string_free (out, FALSE);
}

GArray *
gp_ds_sweep_parse_batches (const gchar * text, GError ** error)
{
  GArray *b = g_array_new (FALSE, FALSE, sizeof (guint));
  gchar **parts = g_strsplit (text, ",", -1);
  guint i;

  for (i = 0; parts[i]; i++) {
    gchar *end, *p = g_strstrip (parts[i]);
    guint64 v = g_ascii_strtoull (p, &end, 10);
    guint u = (guint) v;

    if (end == p || *end || !g_ascii_isdigit (*p) || v < 1 ||
        v > GP_DS_SWEEP_MAX_BATCH || (b->len && u <= g_array_index (b,
                guint, b->len - 1))) {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
          "--batches: '%s' is not a batch size of 1 to %u above the one "
          "before it", p, GP_DS_SWEEP_MAX_BATCH);
      g_array_unref (b);
      g_strfreev (parts);
      return NULL;
    }
    g_array_append_val (b, u);
  }
  g_strfreev (parts);
  if (b->len == 0) {
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
        "--batches: no batch size");
    g_array_unref (b);
    return NULL;
  }
  return b;
}

gboolean
gp_ds_sweep_oom_text (const gchar * text)
{
  static const gchar *const words[] = {
    "out of memory", "OUT_OF_MEMORY", "cudaErrorMemoryAllocation",
    "Cannot allocate memory", "failed to allocate", "OOM", NULL
  };
  gchar *low;
  guint i;
  gboolean hit = FALSE;

  if (text == NULL)
    return FALSE;
  low = g_ascii_strdown (text, -1);
  for (i = 0; words[i] && !hit; i++) {
    gchar *w = g_ascii_strdown (words[i], -1);

    hit = strstr (low, w) != NULL;
    g_free (w);
  }
  g_free (low);
  return hit;
}

gint
gp_ds_sweep_plateau (const GpDsSweepRow * rows, guint n, gdouble gain)
{
  gint prev = -1;
  guint i;

  for (i = 0; i < n; i++) {
    if (rows[i].state != GP_DS_SWEEP_RAN)
      continue;
    if (prev >= 0 && rows[i].aggregate_fps < rows[prev].aggregate_fps *
        (1.0 + gain))
      return prev;
    prev = (gint) i;
  }
  return -1;
}

/* The most GPU memory the run's machine series say was used, on any
 * GPU, and that GPU's total. */
static void
gp_ds_sweep_gpu_memory (GpSession * s, GpDsSweepRow * row)
{
  GPtrArray *all;
  guint i;

  row->gpu_mem_mib = row->gpu_mem_total_mib = NAN;
  if (s->machine == NULL)
    return;
  all = gp_machine_find_all (s->machine, GP_MACHINE_GPU_MEM);
  for (i = 0; i < all->len; i++) {
    GpMachineSeries *ms = g_ptr_array_index (all, i);
    gdouble used = gp_machine_series_max (ms, NAN, NAN);

    if (isfinite (used) && !(used <= row->gpu_mem_mib)) {
      row->gpu_mem_mib = used;
      row->gpu_mem_total_mib = ms->limit;
    }
  }
  g_ptr_array_unref (all);
}

/* One batch: a row (gp_step_run), or FALSE with @error when nothing could
 * be run: the tracer, or the launch string of the @first batch. */
static gboolean
gp_ds_sweep_one (const gchar * launch, guint batch, guint streams,
    gdouble duration_s, gboolean first, GpDsSweepRow * row, GError ** error)
{
  GpStep step;

  if (!gp_step_run (launch, duration_s, first, &step, error))
    return FALSE;
  if (!step.ran) {
    row->state = GP_DS_SWEEP_FAILED;
    row->why = g_steal_pointer (&step.why);
  } else {
    row->state = GP_DS_SWEEP_RAN;
    /* a batched buffer carries @batch frames */
    row->aggregate_fps = gp_session_sinks_fps (step.session) * batch;
    row->per_stream_fps = row->aggregate_fps / MAX (streams, 1);
  }
  if (step.session)
    gp_ds_sweep_gpu_memory (step.session, row);
  gp_step_clear (&step);
  return TRUE;
}

gboolean
gp_ds_sweep_memory_fits (const GpDsSweepRow * rows, guint n, guint batch,
    gchar ** why)
{
  const GpDsSweepRow *a = NULL, *b = NULL;
  gdouble slope, need;
  guint i;

  for (i = n; i-- > 0 && a == NULL;) {
    if (rows[i].state != GP_DS_SWEEP_RAN || isnan (rows[i].gpu_mem_mib) ||
        !(rows[i].gpu_mem_total_mib > 0))
      continue;
    if (b == NULL)
      b = &rows[i];
    else
      a = &rows[i];
  }
  if (a == NULL || b->batch <= a->batch)
    return TRUE;
  slope = (b->gpu_mem_mib - a->gpu_mem_mib) / (b->batch - a->batch);
  need = b->gpu_mem_mib + MAX (slope, 0) * ((gdouble) batch - b->batch);
  if (need <= GP_DS_SWEEP_MEM_SHARE * b->gpu_mem_total_mib)
    return TRUE;
  if (why)
    *why = g_strdup_printf ("would need about %.0f MiB of the GPU's %.0f "
        "(%.0f MiB a batch, from batches %u and %u; over %.0f %%)", need,
        b->gpu_mem_total_mib, slope, a->batch, b->batch,
        100 * GP_DS_SWEEP_MEM_SHARE);
  return FALSE;
}

GArray *
gp_ds_sweep_run (const gchar * template_, const GArray * batches,
    guint streams, gdouble duration_s, GpDsSweepProgress progress,
    gpointer user_data, GError ** error)
{
  GArray *rows = g_array_new (FALSE, TRUE, sizeof (GpDsSweepRow));
  gchar *oom = NULL;
  gboolean first = TRUE;
  guint i;

  for (i = 0; i < batches->len; i++) {
    GpDsSweepRow row = { 0 };
    gchar *launch;

    row.batch = g_array_index (batches, guint, i);
    row.aggregate_fps = row.per_stream_fps = NAN;
    row.gpu_mem_mib = row.gpu_mem_total_mib = NAN;
    launch = gp_ds_sweep_substitute (template_, row.batch,
        MAX (streams, 1), error);
    if (launch == NULL) {
      gp_ds_sweep_rows_free (rows);
      return NULL;
    }
    if (streams > 0 && row.batch > streams) {
      row.state = GP_DS_SWEEP_SKIPPED;
      row.why = g_strdup_printf ("above --streams %u: a batch is never "
          "fuller than the streams", streams);
    } else if (oom != NULL) {
      row.state = GP_DS_SWEEP_SKIPPED;
      row.why = g_strdup_printf ("batch %s ran out of memory", oom);
    } else if (!gp_ds_sweep_memory_fits ((GpDsSweepRow *) rows->data,
            rows->len, row.batch, &row.why)) {
      row.state = GP_DS_SWEEP_SKIPPED;
    } else if (!gp_ds_sweep_one (launch, row.batch, MAX (streams, 1),
            duration_s, first, &row, error)) {
      g_free (launch);
      gp_ds_sweep_rows_free (rows);
      g_free (oom);
      return NULL;
    }
    g_free (launch);
    first = first && row.state == GP_DS_SWEEP_SKIPPED;
    if (row.state == GP_DS_SWEEP_FAILED && oom == NULL &&
        gp_ds_sweep_oom_text (row.why))
      oom = g_strdup_printf ("%u", row.batch);
    g_array_append_val (rows, row);
    if (progress)
      progress (&row, user_data);
  }
  g_free (oom);
  return rows;
}

void
gp_ds_sweep_rows_free (GArray * rows)
{
  guint i;

  if (rows == NULL)
    return;
  for (i = 0; i < rows->len; i++)
    g_free (g_array_index (rows, GpDsSweepRow, i).why);
  g_array_unref (rows);
}

gchar *
gp_ds_sweep_table (const GpDsSweepRow * rows, guint n, guint streams)
{
  GString *out = g_string_new (NULL);
  gint plateau = gp_ds_sweep_plateau (rows, n, GP_DS_SWEEP_GAIN);
  guint i;

  g_string_append_printf (out, "  %6s %14s %14s %8s\n", "batch",
      "aggregate fps", "per stream", "gain");
  for (i = 0; i < n; i++) {
    const GpDsSweepRow *r = &rows[i];

    if (r->state != GP_DS_SWEEP_RAN) {
      g_string_append_printf (out, "  %6u %s: %s\n", r->batch,
          r->state == GP_DS_SWEEP_FAILED ? "failed" : "skipped", r->why);
      continue;
    }
    g_string_append_printf (out, "  %6u %14.1f %14.1f ", r->batch,
        r->aggregate_fps, r->per_stream_fps);
    {
      gint k;

      for (k = (gint) i - 1; k >= 0 && rows[k].state != GP_DS_SWEEP_RAN;
          k--);
      if (k >= 0)
        g_string_append_printf (out, "%+7.1f%%",
            100.0 * (r->aggregate_fps / rows[k].aggregate_fps - 1.0));
      else
        g_string_append_printf (out, "%8s", "");
    }
    g_string_append (out, (gint) i == plateau ? "  <- plateau\n" : "\n");
  }
  if (plateau >= 0)
    g_string_append_printf (out, "plateau batch: %u (the next batch gains "
        "under %.0f %%)\n", rows[plateau].batch, GP_DS_SWEEP_GAIN * 100);
  else
    g_string_append_printf (out, "no plateau: the rate still gains %.0f %% "
        "or more at the largest batch run (or fewer than two ran)\n",
        GP_DS_SWEEP_GAIN * 100);
  return g_string_free (out, FALSE);
}
