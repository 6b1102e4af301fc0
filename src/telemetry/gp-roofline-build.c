/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gp-roofline-build: the CPU roofline of a session's elements and an
 * accelerator's roofline of a workload (gp-roofline-build.h). */
#include "gp-roofline-build.h"
#include "core/gp-hw-factories.h"

#include <math.h>
#include <string.h>

void
gp_cpu_element_bw_free (GpCpuElementBw * e)
{
  if (e == NULL)
    return;
  g_free (e->name);
  g_free (e->factory);
  g_free (e);
}

/* ------------------------------------------------------------------ */
/* the CPU roofline                                                    */
/* ------------------------------------------------------------------ */

/* Elements that hand the buffer they get on (or drop it) without reading
 * or writing its bytes: their links' bytes over their few microseconds
 * would put them far above any memory's bandwidth (a capsfilter at
 * "2.61 TB/s"). */
static const gchar *const gp_roofline_cpu_passthrough[] = {
  "capsfilter", "identity", "tee", "valve", "funnel", "input-selector",
  "output-selector", "capssetter", "progressreport", "fakesink",
  "fakevideosink", "fakeaudiosink", "appsink", "intervideosink",
  "interaudiosink", NULL
};

/* Whether @el is an element of its own whose bytes are CPU work: not a
 * bin, not a queue (it hands buffers over), not one that passes buffers
 * through, not hardware. */
static gboolean
gp_roofline_cpu_counts (const GpElement * el)
{
  if (el->is_bin || g_strcmp0 (el->kind, "bin") == 0
      || g_strcmp0 (el->kind, "queue") == 0 || (el->factory &&
          g_strv_contains (gp_roofline_cpu_passthrough, el->factory)))
    return FALSE;
  return !gp_hw_factory_is_hardware (el->factory, NULL, NULL);
}

/* The bytes per second into and out of @name on its links, and the
 * largest bytes per buffer among them (NAN unknown). */
static void
gp_roofline_cpu_link_bytes (GpSession * s, const gchar * name,
    gdouble * in, gdouble * out, gdouble * buffer, gdouble * rate)
{
  guint i;

  *in = *out = *rate = 0.0;
  *buffer = NAN;
  for (i = 0; i < s->link_summaries->len; i++) {
    GpLinkSummary *ls = g_ptr_array_index (s->link_summaries, i);
    GpLink *l = gp_session_find_link (s, ls->id);
    gchar *src, *sink;

    if (l == NULL || !(ls->bytes_per_s > 0))
      continue;
    src = gp_pad_element (l->src);
    sink = gp_pad_element (l->sink);
    if (strcmp (src, name) == 0)
      *out += ls->bytes_per_s;
    if (strcmp (sink, name) == 0)
      *in += ls->bytes_per_s;
    if ((strcmp (src, name) == 0 || strcmp (sink, name) == 0) && ls->fps > 0) {
      if (!(ls->bytes_per_s / ls->fps <= *buffer))
        *buffer = ls->bytes_per_s / ls->fps;
      *rate = MAX (*rate, ls->fps);
    }
    g_free (src);
    g_free (sink);
  }
}

const gchar *
gp_roofline_cpu_classify (GpRoofline * r, const GpMembw * bw,
    const GpCpuElementBw * e, GpRooflinePoint * pt)
{
  gchar *avg = gp_roofline_format (e->bytes_per_s, "B/s");
  gchar *busy = gp_roofline_format (e->busy_bytes_per_s, "B/s");
  gchar *one = gp_roofline_format (bw->copy_1, "B/s");
  gdouble best = MAX (MAX (bw->copy_1, bw->triad_1),
      MAX (isnan (bw->copy_all) ? 0 : bw->copy_all,
          isnan (bw->triad_all) ? 0 : bw->triad_all));
  gdouble l2 = bw->l2_bytes ? bw->l2_bytes : GP_ROOFLINE_CPU_L2_DEFAULT;
  const gchar *bound;
  gchar *reason;

  if (e->buffer_bytes < l2) {
    gchar *buf = gp_roofline_format (e->buffer_bytes, "B");
    gchar *cache = gp_roofline_format (l2, "B");

    bound = "neither";
    reason = g_strdup_printf ("%s on average in buffers of %s, which a "
        "core's %s level-2 cache holds: not memory traffic", avg, buf, cache);
    g_free (buf);
    g_free (cache);
  } else if (isnan (e->busy_bytes_per_s) ||
      e->busy_pct < GP_ROOFLINE_CPU_MIN_BUSY_PCT) {
    bound = "neither";
    reason = g_strdup_printf ("%s on average, busy %.1f %% of the time: "
        "too little work to be held by memory", avg, e->busy_pct);
  } else if (e->busy_bytes_per_s > GP_ROOFLINE_CPU_IMPLAUSIBLE * best) {
    bound = "neither";
    reason = g_strdup_printf ("%s on average in %.1f %% busy time would be "
        "%s while busy, far more than this machine moves: it passes "
        "its buffers on without touching them", avg, e->busy_pct, busy);
  } else if (e->share >= GP_ROOFLINE_CPU_MEMBOUND) {
    bound = "memory";
    reason = g_strdup_printf ("%s on average, busy %.1f %%: %s while busy, "
        "%.0f %% of the %s one thread copies (memory-bound at %.0f %%): a "
        "cheaper format or a smaller frame helps, more threads hardly",
        avg, e->busy_pct, busy, 100 * e->share, one,
        100 * GP_ROOFLINE_CPU_MEMBOUND);
  } else {
    bound = "neither";
    reason = g_strdup_printf ("%s on average, busy %.1f %%: %s while busy, "
        "%.0f %% of the %s one thread copies (memory-bound at %.0f %%): "
        "its time is computation, not memory", avg, e->busy_pct, busy,
        100 * e->share, one, 100 * GP_ROOFLINE_CPU_MEMBOUND);
  }
  g_free (pt->bound);
  g_free (pt->reason);
  pt->bound = g_strdup (bound);
  pt->reason = reason;
  g_free (avg);
  g_free (busy);
  g_free (one);
  return pt->bound;
}

static gint
gp_roofline_cpu_order (gconstpointer a, gconstpointer b)
{
  const GpCpuElementBw *x = *(GpCpuElementBw * const *) a;
  const GpCpuElementBw *y = *(GpCpuElementBw * const *) b;
  gdouble vx = isnan (x->busy_bytes_per_s) ? -1 : x->busy_bytes_per_s;
  gdouble vy = isnan (y->busy_bytes_per_s) ? -1 : y->busy_bytes_per_s;

  return vx < vy ? 1 : vx > vy ? -1 : 0;
}

GpRoofline *
gp_roofline_cpu (GpSession * s, const GpMembw * bw, GPtrArray ** elements)
{
  GPtrArray *els = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gp_cpu_element_bw_free);
  gchar *name = g_strdup_printf ("measured copy, one thread%s",
      bw->below_llc ? " (arrays below 4 x the last-level cache)" : "");
  GpRoofline *r = gp_roofline_new ("this machine (CPU)", bw->copy_1, name);
  guint i;

  g_free (name);
  for (i = 0; i < s->elements->len; i++) {
    GpElement *el = g_ptr_array_index (s->elements, i);
    GpElementSummary *es;
    GpCpuElementBw *e;
    gdouble rate;

    if (!gp_roofline_cpu_counts (el))
      continue;
    e = g_new0 (GpCpuElementBw, 1);
    gp_roofline_cpu_link_bytes (s, el->name, &e->in_bytes_per_s,
        &e->out_bytes_per_s, &e->buffer_bytes, &rate);
    e->bytes_per_s = e->in_bytes_per_s + e->out_bytes_per_s;
    if (!(e->bytes_per_s > 0)) {
      g_free (e);
      continue;
    }
    e->name = g_strdup (el->name);
    e->factory = g_strdup (el->factory);
    es = gp_session_find_elem_summary (s, el->name);
    e->busy_pct = es ? es->busy_pct : 0.0;
    /* the typical buffer's time (its median self time at the rate its
     * links carry), not the run's sum: a push descheduled on a loaded
     * machine adds wall time that moved no byte */
    if (es != NULL && es->self_ms.p50 > 0 && rate > 0)
      e->busy_pct = MIN (e->busy_pct, 100.0 * rate * es->self_ms.p50 / 1e3);
    e->busy_bytes_per_s = e->busy_pct > 0 ?
        e->bytes_per_s / (e->busy_pct / 100.0) : NAN;
    e->share = e->busy_bytes_per_s / bw->copy_1;
    g_ptr_array_add (els, e);
  }
  g_ptr_array_sort (els, gp_roofline_cpu_order);
  for (i = 0; i < els->len; i++) {
    GpCpuElementBw *e = g_ptr_array_index (els, i);

    /* bytes only: no intensity is known for a CPU element */
    e->point = gp_roofline_add_point (r, e->name, NAN, NAN,
        isnan (e->busy_bytes_per_s) ? e->bytes_per_s : e->busy_bytes_per_s);
    gp_roofline_cpu_classify (r, bw, e, e->point);
  }
  if (elements)
    *elements = els;
  else
    g_ptr_array_unref (els);
  return r;
}

/* ------------------------------------------------------------------ */
/* an accelerator's roofline                                           */
/* ------------------------------------------------------------------ */

/* The first memory-load series: the EMC's on a Jetson, else the first
 * GPU's. */
static GpMachineSeries *
gp_roofline_load_series (const GpMachine * m)
{
  GpMachineSeries *s;

  if (m == NULL)
    return NULL;
  s = gp_machine_find (m, GP_MACHINE_MEMBW_LOAD, "emc");
  return s ? s : gp_machine_find (m, GP_MACHINE_MEMBW_LOAD, NULL);
}

gdouble
gp_roofline_machine_bw (const GpMachine * m, const GpPeaks * p, gchar ** how)
{
  GpMachineSeries *load = gp_roofline_load_series (m);
  GpMachineSeries *freq;
  const gchar *inst;
  gdouble sum = 0, max_mhz;
  guint i, n = 0, scaled = 0;

  if (how)
    *how = NULL;
  if (load == NULL || !(p->bw > 0))
    return NAN;
  inst = gp_machine_series_instance (load);
  freq = gp_machine_find (m, GP_MACHINE_MEM_FREQ, inst);
  /* the clock the peak bandwidth is at: the series' limit when the tool
   * printed one (nvidia-smi's clocks.max.memory), else the peaks' */
  max_mhz = freq && freq->limit > 0 ? freq->limit : p->mem_mhz;
  for (i = 0; i < gp_machine_series_len (load); i++) {
    gdouble pct = gp_machine_series_v (load, i), scale = 1.0;

    if (isnan (pct))
      continue;
    /* EMC % is of the bandwidth at the EMC's current clock: scale it to
     * the maximum's. nvidia-smi's mem % is a busy share of the time, not
     * of a clock's bandwidth: not scaled. */
    if (strcmp (inst, "emc") == 0 && freq && i < gp_machine_series_len (freq)
        && gp_machine_series_v (freq, i) > 0 && max_mhz > 0) {
      scale = MIN (1.0, gp_machine_series_v (freq, i) / max_mhz);
      scaled++;
    }
    sum += pct / 100.0 * scale;
    n++;
  }
  if (n == 0)
    return NAN;
  if (how) {
    gchar *peak = gp_roofline_format (p->bw, "B/s");

    if (strcmp (inst, "emc") == 0)
      *how = g_strdup_printf ("EMC %% x %s peak x EMC clock / %.0f MHz, "
          "mean of %u samples (%u with a clock)", peak, max_mhz, n, scaled);
    else
      *how = g_strdup_printf ("memory busy %% of GPU %s x %s peak (a "
          "busy-time proxy), mean of %u samples", inst, peak, n);
    g_free (peak);
  }
  return sum / n * p->bw;
}

GpRoofline *
gp_roofline_of_peaks (const GpPeaks * p)
{
  static const gchar *const precisions[] = { "INT8", "FP16", "FP32" };
  GpRoofline *r = gp_roofline_new (p->target, p->bw, "peak memory "
      "bandwidth");
  guint i;

  for (i = 0; i < G_N_ELEMENTS (precisions); i++) {
    gdouble v = gp_peaks_ops (p, precisions[i]);

    if (v > 0)
      gp_roofline_add_roof (r, precisions[i], v);
  }
  return r;
}

GpRoofline *
gp_roofline_accel (const GpPeaks * p, const GpWorkload * w,
    const GpMachine * m, gchar ** how)
{
  GpRoofline *r = gp_roofline_of_peaks (p);
  gdouble ops, bytes;
  gchar *label, *from = NULL;
  GpRooflinePoint *pt;
  gint roof;

  ops = w->fps * w->ops_per_frame;
  bytes = m ? gp_roofline_machine_bw (m, p, &from) : NAN;
  if (!(bytes > 0) && w->bytes_per_frame > 0) {
    /* none measured, or none at all while frames were said to run: the
     * log is not of that work */
    gchar *why = isnan (bytes) ? g_strdup ("no memory load in the "
        "telemetry") : g_strdup_printf ("the telemetry's memory load is 0, "
        "the accelerator idled then: %s", from);

    bytes = w->fps * w->bytes_per_frame;
    g_free (from);
    from = g_strdup_printf ("fps x %.3g bytes per frame (%s)",
        w->bytes_per_frame, why);
    g_free (why);
  }
  label = g_strdup_printf ("%s @ %.4g fps", w->label, w->fps);
  pt = gp_roofline_add_point (r, label, bytes > 0 ? ops / bytes : NAN, ops,
      bytes);
  g_free (label);
  roof = gp_roofline_find_roof (r, w->precision ? w->precision : "INT8");
  if (roof < 0) {
    g_free (pt->reason);
    pt->reason = g_strdup_printf ("%s has no %s peak", p->target,
        w->precision ? w->precision : "INT8");
  } else {
    gp_roofline_classify (r, roof, pt);
  }
  if (how)
    *how = from ? from : g_strdup ("no bytes: neither telemetry nor bytes "
        "per frame");
  else
    g_free (from);
  return r;
}

/* How many CPUs a tegrastats log shows (cpu.load/N series). */
static guint
gp_roofline_machine_cpus (const GpMachine * m)
{
  GPtrArray *all = gp_machine_find_all (m, GP_MACHINE_CPU_LOAD);
  guint i, n = 0;

  for (i = 0; i < all->len; i++)
    if (strcmp (gp_machine_series_instance (all->pdata[i]), "all") != 0)
      n++;
  g_ptr_array_unref (all);
  return n;
}

GpPeaks *
gp_roofline_machine_peaks (const GpMachine * m, guint sms, guint bus_bits,
    GError ** error)
{
  const gchar *name = gp_machine_fact (m, "gpu0.name");
  GpMachineSeries *ram;
  const GpPeaksRow *row;
  GpPeaks *p;
  gchar *how;

  if (name != NULL)
    return gp_peaks_from_nvsmi (name, gp_machine_fact (m, "gpu0.compute_cap"),
        gp_machine_fact_double (m, "gpu0.clocks.max.sm"),
        gp_machine_fact_double (m, "gpu0.clocks.max.memory"),
        gp_machine_fact_double (m, "gpu0.memory.total"), sms, bus_bits,
        error);
  if (gp_machine_find (m, GP_MACHINE_MEMBW_LOAD, "emc") != NULL) {
    ram = gp_machine_find (m, GP_MACHINE_MEM_USED, "ram");
    row = gp_peaks_guess_jetson (gp_roofline_machine_cpus (m),
        ram ? ram->limit : NAN, error);
    if (row == NULL)
      return NULL;
    p = gp_peaks_for_row (row, NAN, NAN);
    how = g_strdup_printf ("told from the log by its %u CPUs (--target "
        "names it); %s", gp_roofline_machine_cpus (m), p->how);
    g_free (p->how);
    p->how = how;
    return p;
  }
  g_set_error (error, GP_PEAKS_ERROR, GP_PEAKS_ERROR_MISSING,
      "the telemetry names no GPU: give --target, or --peak-ops and "
      "--peak-bw");
  return NULL;
}
