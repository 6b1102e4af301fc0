/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-ds-profile.c: the report of `gstprof ds profile` (gp-ds-profile.h),
 * section by section; the bound from the signals the reports give, each
 * against its named threshold.
 */
#include "gp-ds-profile.h"

#include <math.h>
#include <string.h>

#include "gp-ds-coverage.h"

const gchar *const gp_ds_profile_reports[] = {
  "nvtx_sum", "cuda_gpu_kern_sum", "cuda_gpu_mem_time_sum",
  "cuda_gpu_mem_size_sum", "cuda_api_sum", "osrt_sum", NULL
};

/* the pipeline runs under this share of the plateau's fps: what feeds the
 * inference (decode or the CPU side) holds it back */
#define GP_DS_BELOW_PLATEAU_PCT 50.0
/* rows of a long report shown */
#define GP_DS_TOP 10

static const GpNsysTable *
gp_ds_profile_table (const GpDsProfile * p, const gchar * report)
{
  const GpNsysTable *t = gp_nsys_stats_find (p->stats, report);

  return t && t->skipped == NULL ? t : NULL;
}

static gdouble
gp_ds_profile_total (const GpNsysTable * t)
{
  gdouble sum = 0;
  guint i;

  for (i = 0; t && i < t->rows->len; i++) {
    const GpNsysRow *r = g_ptr_array_index (t->rows, i);

    sum += isnan (r->total) ? 0 : r->total;
  }
  return sum;
}

static void
gp_ds_profile_absent (GString * o, const GpDsProfile * p,
    const gchar * report)
{
  const GpNsysTable *t = gp_nsys_stats_find (p->stats, report);

  if (t && t->skipped)
    g_string_append_printf (o, "Not measured: nsys skipped %s (%s).\n",
        report, t->skipped);
  else
    g_string_append_printf (o, "Not measured: no %s report.\n", report);
}

static void
gp_ds_profile_hardware (GString * o, const GpDsProfile * p)
{
  g_string_append (o, "## Hardware and ceilings\n\n");
  if (p->hardware == NULL)
    g_string_append_printf (o, "Not measured (%s).\n\n", p->hardware_why ?
        p->hardware_why : "no nvidia-smi output: --nvsmi FILE, or "
        "nvidia-smi in PATH");
  else
    g_string_append_printf (o, "```\n%s```\n\n", p->hardware);
}

static void
gp_ds_profile_rate (GString * o, const GpDsProfile * p)
{
  g_string_append (o, "## Throughput\n\n");
  if (isnan (p->fps))
    g_string_append (o, "- end-to-end fps: not given (--fps)\n");
  else
    g_string_append_printf (o, "- end-to-end fps: %.1f\n", p->fps);
  if (isnan (p->plateau))
    g_string_append (o, "- plateau: not given (--plateau, from gstprof ds "
        "sweep)\n");
  else if (!isnan (p->fps))
    g_string_append_printf (o, "- plateau: %.1f fps; the pipeline reaches "
        "%.0f %% of it\n", p->plateau, 100.0 * p->fps / p->plateau);
  else
    g_string_append_printf (o, "- plateau: %.1f fps\n", p->plateau);
  if (isnan (p->duration_s))
    g_string_append (o, "- capture: duration not known (--duration)\n\n");
  else
    g_string_append_printf (o, "- capture: %.1f s\n\n", p->duration_s);
}

static void
gp_ds_profile_plugins (GString * o, const GpDsProfile * p)
{
  const GpNsysTable *nvtx = gp_ds_profile_table (p, "nvtx_sum");
  g_autoptr (GpNsysTable) agg = NULL;
  gdouble sum;
  guint i;

  g_string_append (o, "## Per-plugin time\n\n");
  if (nvtx == NULL) {
    gp_ds_profile_absent (o, p, "nvtx_sum");
  } else {
    agg = gp_nsys_nvtx_aggregate (nvtx, 0);
    sum = gp_ds_profile_total (agg);
    g_string_append_printf (o, "NVTX ranges (%s, counters folded: %u rows "
        "into %u):\n\n| range | element | instances | total ms | avg ms "
        "| share |\n|---|---|---|---|---|---|\n", agg->report,
        nvtx->rows->len, agg->rows->len);
    for (i = 0; i < agg->rows->len && i < 2 * GP_DS_TOP; i++) {
      const GpNsysRow *r = g_ptr_array_index (agg->rows, i);
      gchar *d, *m, *n = gp_nsys_nvtx_normalise (r->name, 0, &d, &m);
      GpDsElement *e = p->elements ?
          gp_ds_coverage_owner (p->elements, d, m) : NULL;

      g_string_append_printf (o, "| %s | %s | %.0f | %.3f | %.3f | %.1f %% "
          "|\n", n, e ? e->name : "-", r->count, r->total / 1e6,
          r->avg / 1e6, sum > 0 ? 100.0 * r->total / sum : 0.0);
      g_free (n);
      g_free (d);
      g_free (m);
    }
    g_string_append_c (o, '\n');
  }
  if (p->elements == NULL || p->session == NULL) {
    g_string_append (o, "gstprof's tracer: no session (--session DIR gives "
        "every element's self time beside NVTX).\n\n");
    return;
  }
  g_string_append (o, "Side by side, per element:\n\n| element | factory "
      "| NVTX ms | gstprof self ms | busy |\n|---|---|---|---|---|\n");
  for (i = 0; i < p->elements->len; i++) {
    GpDsElement *e = g_ptr_array_index (p->elements, i);
    gchar nv[32] = "-", self[32] = "-", busy[32] = "-";

    if (!isnan (e->nvtx_ns))
      g_snprintf (nv, sizeof nv, "%.3f", e->nvtx_ns / 1e6);
    if (!isnan (e->self_ms)) {
      g_snprintf (self, sizeof self, "%.3f", e->self_ms);
      g_snprintf (busy, sizeof busy, "%.0f %%", e->busy_pct);
    }
    g_string_append_printf (o, "| %s | %s | %s | %s | %s |\n", e->name,
        e->factory, nv, self, busy);
  }
  g_string_append_c (o, '\n');
}

static void
gp_ds_profile_copies (GString * o, const GpDsProfile * p)
{
  const GpNsysTable *tt = gp_ds_profile_table (p, "cuda_gpu_mem_time_sum");
  const GpNsysTable *st = gp_ds_profile_table (p, "cuda_gpu_mem_size_sum");
  guint i, j;

  g_string_append (o, "## Memory copies\n\n");
  if (tt == NULL) {
    gp_ds_profile_absent (o, p, "cuda_gpu_mem_time_sum");
    g_string_append_c (o, '\n');
    return;
  }
  g_string_append (o, "| operation | count | time ms | of the capture | "
      "MB |\n|---|---|---|---|---|\n");
  for (i = 0; i < tt->rows->len; i++) {
    const GpNsysRow *r = g_ptr_array_index (tt->rows, i);
    gchar wall[32] = "-", mb[32] = "-";

    if (!isnan (p->duration_s))
      g_snprintf (wall, sizeof wall, "%.2f %%", 100.0 * r->total /
          (p->duration_s * 1e9));
    for (j = 0; st && j < st->rows->len; j++) {
      const GpNsysRow *s = g_ptr_array_index (st->rows, j);

      if (strcmp (s->name, r->name) == 0)
        g_snprintf (mb, sizeof mb, "%.3f", s->total);
    }
    g_string_append_printf (o, "| %s | %.0f | %.3f | %s | %s |\n", r->name,
        r->count, r->total / 1e6, wall, mb);
  }
  if (st == NULL)
    g_string_append (o, "\nSizes: no cuda_gpu_mem_size_sum report.\n");
  g_string_append_c (o, '\n');
}

static void
gp_ds_profile_top (GString * o, const GpDsProfile * p, const gchar * report,
    const gchar * title, const gchar * count)
{
  const GpNsysTable *t = gp_ds_profile_table (p, report);
  gdouble sum = gp_ds_profile_total (t);
  guint i;

  g_string_append_printf (o, "## %s\n\n", title);
  if (t == NULL) {
    gp_ds_profile_absent (o, p, report);
    g_string_append_c (o, '\n');
    return;
  }
  g_string_append_printf (o, "| name | %s | total ms | avg ms | share |\n"
      "|---|---|---|---|---|\n", count);
  for (i = 0; i < t->rows->len && i < GP_DS_TOP; i++) {
    const GpNsysRow *r = g_ptr_array_index (t->rows, i);

    g_string_append_printf (o, "| %s%s | %.0f | %.3f | %.3f | %.1f %% |\n",
        r->name, r->truncated ? " (name cut by nsys)" : "", r->count,
        r->total / 1e6, r->avg / 1e6, sum > 0 ? 100.0 * r->total / sum : 0);
  }
  if (t->rows->len > GP_DS_TOP)
    g_string_append_printf (o, "\n%u more rows.\n", t->rows->len - GP_DS_TOP);
  g_string_append_c (o, '\n');
}

static void
gp_ds_profile_metrics (GString * o, const GpDsProfile * p)
{
  const GpNsysMetrics *m = p->metrics;
  guint i;

  g_string_append (o, "## GPU metrics\n\n");
  if (m == NULL) {
    g_string_append_printf (o, "Not measured: %s.\n\n", p->metrics_why ?
        p->metrics_why : "`gpu_metric_gpu_util_sum` is not an nsys stats "
        "report; GPU metrics come from the SQLite export's GPU_METRICS "
        "table (a capture with --gpu-metrics-devices), and none was found");
    return;
  }
  g_string_append_printf (o, "From %s: %u samples over %.1f s", m->origin,
      m->n_samples, m->span_s);
  if (!isnan (m->rate_hz))
    g_string_append_printf (o, ", sampled at %.0f Hz", m->rate_hz);
  g_string_append (o, ".\n\n| GPU | metric | samples | mean | p50 | p95 | "
      "max |\n|---|---|---|---|---|---|---|\n");
  for (i = 0; i < m->metrics->len; i++) {
    const GpNsysMetric *x = g_ptr_array_index (m->metrics, i);

    g_string_append_printf (o, "| %u | %s | %u | %.1f | %.1f | %.1f | %.1f "
        "|\n", x->gpu, x->name, x->values.n, x->values.mean, x->values.p50,
        x->values.p95, x->values.max);
  }
  g_string_append_c (o, '\n');
}

static void
gp_ds_profile_uninstrumented (GString * o, const GpDsProfile * p)
{
  guint i, n = 0;

  g_string_append (o, "## Uninstrumented elements\n\n");
  if (p->elements == NULL) {
    g_string_append (o, "Not known: no pipeline (--session DIR).\n\n");
    return;
  }
  for (i = 0; i < p->elements->len; i++) {
    GpDsElement *e = g_ptr_array_index (p->elements, i);

    if (e->covered)
      continue;
    n++;
    if (isnan (e->self_ms))
      g_string_append_printf (o, "- %s (%s)\n", e->name, e->factory);
    else
      g_string_append_printf (o, "- %s (%s): no NVTX; gstprof self time "
          "%.3f ms, busy %.0f %%\n", e->name, e->factory, e->self_ms,
          e->busy_pct);
  }
  if (n == 0)
    g_string_append (o, "None: every element has a range.\n");
  g_string_append_c (o, '\n');
}

/* ---- the bound -------------------------------------------------------- */

typedef enum
{
  GP_DS_DECODE, GP_DS_COMPUTE, GP_DS_MEMCPY, GP_DS_MEMBW, GP_DS_CPU,
  GP_DS_N_BOUNDS
} GpDsBound;

static const gchar *const gp_ds_bound_names[] = {
  "DECODE", "COMPUTE", "MEMORY COPY", "MEMORY BANDWIDTH", "CPU"
};

static gdouble
gp_ds_profile_sum_if (const GpNsysTable * t, const gchar * const *needles)
{
  gdouble sum = 0;
  guint i, k;

  for (i = 0; t && i < t->rows->len; i++) {
    const GpNsysRow *r = g_ptr_array_index (t->rows, i);

    for (k = 0; needles[k]; k++)
      if (strstr (r->name, needles[k]) != NULL) {
        sum += isnan (r->total) ? 0 : r->total;
        break;
      }
  }
  return sum;
}

static gboolean
gp_ds_profile_gemm (const gchar * name)
{
  guint k;
  static const gchar *const sms[] = { "sm70_", "sm75_", "sm80_", "sm86_",
    "sm89_", "sm90_", NULL
  };

  if (strstr (name, "xmma") || strstr (name, "cask_"))
    return TRUE;
  for (k = 0; sms[k]; k++)
    if (strstr (name, sms[k]) && (strstr (name, "int8")
            || strstr (name, "fp16") || strstr (name, "f16")))
      return TRUE;
  return FALSE;
}

static void
gp_ds_profile_signal (GString * ev, guint * n, GpDsBound b,
    const gchar * format, ...) G_GNUC_PRINTF (4, 5);

static void
gp_ds_profile_signal (GString * ev, guint * n, GpDsBound b,
    const gchar * format, ...)
{
  va_list ap;

  n[b]++;
  g_string_append_printf (ev, "- %s signal: ", gp_ds_bound_names[b]);
  va_start (ap, format);
  g_string_append_vprintf (ev, format, ap);
  va_end (ap);
  g_string_append_c (ev, '\n');
}

/* each GPU's SM Active and DRAM throughput against the skill's rules 4
 * and 5 */
static void
gp_ds_profile_metric_signals (GString * ev, guint * n,
    const GpNsysMetrics * m)
{
  guint i;

  for (i = 0; m && i < m->metrics->len; i++) {
    const GpNsysMetric *x = g_ptr_array_index (m->metrics, i);
    gdouble rd, wr, dram, sm;

    if (x->role != GP_NSYS_METRIC_SM_ACTIVE)
      continue;
    sm = x->values.mean;
    rd = gp_nsys_metrics_mean (m, x->gpu, GP_NSYS_METRIC_DRAM_READ);
    wr = gp_nsys_metrics_mean (m, x->gpu, GP_NSYS_METRIC_DRAM_WRITE);
    dram = (isnan (rd) ? 0 : rd) + (isnan (wr) ? 0 : wr);
    if (sm > GP_DS_SM_ACTIVE_PCT)
      gp_ds_profile_signal (ev, n, GP_DS_COMPUTE, "GPU %u's SMs are active "
          "%.0f %% of the time, above %.0f %% (GP_DS_SM_ACTIVE_PCT; nsys GPU "
          "metrics)", x->gpu, sm, GP_DS_SM_ACTIVE_PCT);
    else if (dram > GP_DS_DRAM_PCT)
      gp_ds_profile_signal (ev, n, GP_DS_MEMBW, "GPU %u's DRAM throughput "
          "is %.0f %% of its peak, above %.0f %% (GP_DS_DRAM_PCT), while its "
          "SMs are active %.0f %% (nsys GPU metrics)", x->gpu, dram,
          GP_DS_DRAM_PCT, sm);
  }
}

static void
gp_ds_profile_bound (GString * o, const GpDsProfile * p)
{
  static const gchar *const memcpy_ops[] = { "memcpy", NULL };
  static const gchar *const module_load[] = { "cuModuleLoadData", NULL };
  static const gchar *const builds[] = { "trtBuilder", "cask_engine_build",
    NULL
  };
  static const gchar *const collect[] = { "m_collectingBuffers", NULL };
  static const gchar *const syncs[] = { "cudaStreamSynchronize",
    "cudaEventSynchronize", NULL
  };
  const GpNsysTable *kern = gp_ds_profile_table (p, "cuda_gpu_kern_sum");
  const GpNsysTable *mem = gp_ds_profile_table (p, "cuda_gpu_mem_time_sum");
  const GpNsysTable *api = gp_ds_profile_table (p, "cuda_api_sum");
  const GpNsysTable *nvtx = gp_ds_profile_table (p, "nvtx_sum");
  gdouble wall = p->duration_s * 1e9, kern_total = gp_ds_profile_total (kern);
  GString *ev = g_string_new (NULL);
  guint n[GP_DS_N_BOUNDS] = { 0 }, i, best = 0, tied = 0;
  gboolean contaminated = FALSE;

  g_string_append (o, "## Bound\n\n");
  /* rule 1: the capture includes an engine build */
  if ((api && !isnan (wall) && 100.0 * gp_ds_profile_sum_if (api,
              module_load) / wall > GP_DS_ENGINE_BUILD_PCT)
      || gp_ds_profile_sum_if (kern, builds) > 0) {
    contaminated = TRUE;
    g_string_append_printf (o, "ENGINE BUILD CONTAMINATED: cuModuleLoadData "
        "above %.0f %% of the capture (GP_DS_ENGINE_BUILD_PCT) or TensorRT "
        "builder kernels: capture again with a prebuilt engine.\n\n",
        GP_DS_ENGINE_BUILD_PCT);
  }
  if (mem && !isnan (wall)) {
    gdouble pct = 100.0 * gp_ds_profile_sum_if (mem, memcpy_ops) / wall;

    if (pct > GP_DS_MEMCPY_BOUND_PCT)
      gp_ds_profile_signal (ev, n, GP_DS_MEMCPY, "copies take %.1f %% of "
          "the capture, above %.0f %% (GP_DS_MEMCPY_BOUND_PCT)", pct,
          GP_DS_MEMCPY_BOUND_PCT);
  }
  if (kern && kern_total > 0) {
    gdouble gemm = 0;

    for (i = 0; i < kern->rows->len; i++) {
      const GpNsysRow *r = g_ptr_array_index (kern->rows, i);

      if (gp_ds_profile_gemm (r->name))
        gemm += r->total;
    }
    if (100.0 * gemm / kern_total > GP_DS_GEMM_PCT)
      gp_ds_profile_signal (ev, n, GP_DS_COMPUTE, "TensorRT GEMM kernels "
          "are %.0f %% of kernel time, above %.0f %% (GP_DS_GEMM_PCT)",
          100.0 * gemm / kern_total, GP_DS_GEMM_PCT);
    if (!isnan (wall) && 100.0 * kern_total / wall < GP_DS_GPU_IDLE_PCT)
      gp_ds_profile_signal (ev, n, GP_DS_CPU, "kernels run %.1f %% of the "
          "capture, under %.0f %% (GP_DS_GPU_IDLE_PCT): the GPU waits",
          100.0 * kern_total / wall, GP_DS_GPU_IDLE_PCT);
  }
  gp_ds_profile_metric_signals (ev, n, p->metrics);
  if (!isnan (p->plateau) && p->plateau <= 4)
    gp_ds_profile_signal (ev, n, GP_DS_COMPUTE, "inference plateaus by "
        "batch %.0f (the skill's rule 4: by B=4)", p->plateau);
  if (nvtx) {
    g_autoptr (GpNsysTable) agg = gp_nsys_nvtx_aggregate (nvtx, 0);
    gdouble all = gp_ds_profile_total (agg);
    gdouble c = gp_ds_profile_sum_if (agg, collect);

    if (all > 0 && 100.0 * c / all > GP_DS_COLLECT_PCT)
      gp_ds_profile_signal (ev, n, GP_DS_DECODE, "streammux collects "
          "buffers %.0f %% of NVTX time, above %.0f %% (GP_DS_COLLECT_PCT)",
          100.0 * c / all, GP_DS_COLLECT_PCT);
  }
  if (!isnan (p->fps) && !isnan (p->plateau) && p->plateau > 0
      && 100.0 * p->fps / p->plateau < GP_DS_BELOW_PLATEAU_PCT) {
    gp_ds_profile_signal (ev, n, GP_DS_DECODE, "%.0f %% of the plateau, "
        "under %.0f %% (GP_DS_BELOW_PLATEAU_PCT): what feeds inference "
        "holds it back", 100.0 * p->fps / p->plateau,
        GP_DS_BELOW_PLATEAU_PCT);
    gp_ds_profile_signal (ev, n, GP_DS_CPU, "the same: under %.0f %% of "
        "the plateau", GP_DS_BELOW_PLATEAU_PCT);
  }
  if (p->elements) {
    for (i = 0; i < p->elements->len; i++) {
      GpDsElement *e = g_ptr_array_index (p->elements, i);

      if (!isnan (e->busy_pct) && e->busy_pct > GP_DS_CPU_BUSY_PCT
          && !g_str_has_prefix (e->factory, "nv"))
        gp_ds_profile_signal (ev, n, GP_DS_CPU, "%s (%s) is busy %.0f %%, "
            "above %.0f %% (GP_DS_CPU_BUSY_PCT; gstprof's tracer)", e->name,
            e->factory, e->busy_pct, GP_DS_CPU_BUSY_PCT);
    }
  }
  if (api) {
    gdouble all = gp_ds_profile_total (api);
    gdouble s = gp_ds_profile_sum_if (api, syncs);

    if (all > 0 && 100.0 * s / all > GP_DS_SYNC_PCT)
      g_string_append_printf (ev, "- note: stream/event synchronisation is "
          "%.0f %% of CUDA API time, above %.0f %% (GP_DS_SYNC_PCT): only "
          "then try NVDS_DISABLE_CUDADEV_BLOCKINGSYNC=1\n", 100.0 * s / all,
          GP_DS_SYNC_PCT);
  }
  for (i = 1; i < GP_DS_N_BOUNDS; i++)
    if (n[i] > n[best])
      best = i;
  for (i = 0; i < GP_DS_N_BOUNDS; i++)
    if (n[i] == n[best])
      tied++;
  if (n[GP_DS_MEMCPY] > 0) {
    g_string_append (o, "**MEMORY COPY** (the skill's rule 2: one measure "
        "decides)\n\n");
  } else if (n[best] == 0) {
    g_string_append (o, "**INCONCLUSIVE**: no signal (top kernels, copies "
        "and the tables above are the evidence)\n\n");
  } else if (tied > 1) {
    g_string_append (o, "**INCONCLUSIVE**: the signals disagree:");
    for (i = 0; i < GP_DS_N_BOUNDS; i++)
      if (n[i] == n[best])
        g_string_append_printf (o, " %s (%u)%s", gp_ds_bound_names[i], n[i],
            --tied > 0 ? "," : "");
    g_string_append (o, "\n\n");
  } else if (n[best] >= 2) {
    g_string_append_printf (o, "**%s** (%u agreeing signals)\n\n",
        gp_ds_bound_names[best], n[best]);
  } else {
    g_string_append_printf (o, "**INCONCLUSIVE**: one signal, %s; two "
        "agreeing ones decide\n\n", gp_ds_bound_names[best]);
  }
  if (ev->len)
    g_string_append_printf (o, "Evidence:\n%s", ev->str);
  if (contaminated)
    g_string_append (o, "- every figure above includes the engine build\n");
  g_string_append (o, "\n");
  g_string_free (ev, TRUE);
}

gchar *
gp_ds_profile_markdown (const GpDsProfile * p)
{
  GString *o = g_string_new (NULL);

  g_string_append_printf (o, "# DeepStream profile\n\nFrom %s.\n\n",
      p->source ? p->source : "nsys stats");
  gp_ds_profile_hardware (o, p);
  gp_ds_profile_rate (o, p);
  gp_ds_profile_plugins (o, p);
  gp_ds_profile_copies (o, p);
  gp_ds_profile_top (o, p, "cuda_gpu_kern_sum", "Top kernels", "instances");
  gp_ds_profile_top (o, p, "cuda_api_sum", "CUDA API", "calls");
  gp_ds_profile_top (o, p, "osrt_sum", "OS runtime", "calls");
  gp_ds_profile_metrics (o, p);
  gp_ds_profile_uninstrumented (o, p);
  gp_ds_profile_bound (o, p);
  return g_string_free (o, FALSE);
}
