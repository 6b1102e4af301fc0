/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-verdict-machine.c: the verdict's Machine section: what the machine
 * did under the pipeline (session.machine) over the PLAYING span: what
 * was sampled, the loads, clocks, heat and power, the accelerator's
 * peaks, and which wall the machine rules found the work hits.
 */
#include "gp-verdict-private.h"
#include "rules/gp-rules.h"
#include "telemetry/gp-roofline-build.h"

#include <math.h>
#include <string.h>

/* The Machine section lists at most this many GPUs, memories and engines
 * each (a node of eight GPUs is summed up past them), and the facts up to
 * this many. */
#define GP_VERDICT_MACHINE_MAX_ROWS 4
#define GP_VERDICT_MACHINE_MAX_FACTS 6
/* The machine rules, whose findings say which wall the work hits. */
static const gchar *const gp_verdict_machine_rules[] = {
  "HW", "MEMBW", "THERMAL", "CPUIO", NULL
};

/* "mean 98%, max 99%" of @sr over the span; FALSE when it has no value
 * there. */
static gboolean
gp_verdict_machine_mean_max (GString * line, const GpMachineSeries * sr,
    const GpPlayingSpan * span, const gchar * unit)
{
  gdouble mean, max;
  gchar b[32], c[32];

  if (sr == NULL)
    return FALSE;
  mean = gp_machine_series_mean (sr, span->t0, span->t1);
  max = gp_machine_series_max (sr, span->t0, span->t1);
  if (isnan (mean))
    return FALSE;
  if (g_strcmp0 (unit, "%") == 0)
    g_string_append_printf (line, "mean %s, max %s", gp_verdict_pct (b, mean),
        gp_verdict_pct (c, max));
  else
    g_string_append_printf (line, "mean %.*f %s, max %.*f %s",
        unit[0] == 'W' ? 1 : 0, mean, unit, unit[0] == 'W' ? 1 : 0, max, unit);
  return TRUE;
}

/* "; clock mean 1300 of 1300 MHz (its max)" */
static void
gp_verdict_machine_clock (GString * line, const GpMachineSeries * freq,
    const GpPlayingSpan * span)
{
  gdouble mean;

  if (freq == NULL || isnan (mean = gp_machine_series_mean (freq, span->t0,
              span->t1)))
    return;
  if (isfinite (freq->limit) && freq->limit > 0)
    g_string_append_printf (line, "; clock mean %.0f of %.0f MHz (its max)",
        mean, freq->limit);
  else
    g_string_append_printf (line, "; clock mean %.0f MHz, top %.0f MHz",
        mean, gp_machine_series_max (freq, span->t0, span->t1));
}

static void
gp_verdict_machine_row (GpVerdictText * vt, const gchar * label,
    const gchar * text)
{
  gchar *first = g_strdup_printf ("  %-12s", label);

  gp_verdict_wrap (vt->out, first, "                ", text);
  g_free (first);
}

/* What was sampled, and what was not and why. */
static void
gp_verdict_machine_sources (GpVerdictText * vt, GpMachine * m)
{
  GString *on = g_string_new (NULL), *off = g_string_new (NULL);
  guint i;

  for (i = 0; i < m->sources->len; i++) {
    GpMachineSource *src = g_ptr_array_index (m->sources, i);

    if (g_strcmp0 (src->state, GP_MACHINE_ABSENT) == 0 ||
        g_strcmp0 (src->state, GP_MACHINE_FAILED) == 0) {
      gboolean failed = g_strcmp0 (src->state, GP_MACHINE_FAILED) == 0;

      /* an absent source's detail says what was looked for */
      g_string_append_printf (off, "%s%s (%s%s)", off->len ? "; " : "",
          src->name, failed ? "failed: " : "",
          src->detail ? src->detail : (failed ? "" : "not here"));
      continue;
    }
    g_string_append_printf (on, "%s%s (%" G_GUINT64_FORMAT " sample%s",
        on->len ? "; " : "", src->name, src->samples,
        src->samples == 1 ? "" : "s");
    if (src->interval_s > 0)
      g_string_append_printf (on, " every %.2g s", src->interval_s);
    if (src->detail)
      g_string_append_printf (on, "; %s", src->detail);
    g_string_append_c (on, ')');
  }
  gp_verdict_machine_row (vt, "sampled:", on->len ? on->str : "nothing");
  if (off->len)
    gp_verdict_machine_row (vt, "unsampled:", off->str);
  g_string_free (on, TRUE);
  g_string_free (off, TRUE);
}

/* One row per series of @quantity (GPUs, memories), with its clock. */
static void
gp_verdict_machine_loads (GpVerdictText * vt, GpMachine * m,
    const gchar * quantity, const gchar * freq_quantity, const gchar * what,
    const GpPlayingSpan * span)
{
  GPtrArray *all = gp_machine_find_all (m, quantity);
  guint i, shown = 0;

  for (i = 0; i < all->len; i++) {
    GpMachineSeries *sr = g_ptr_array_index (all, i);
    const gchar *inst = gp_machine_series_instance (sr);
    GString *line = g_string_new ("load ");
    gchar *label;

    if (shown == GP_VERDICT_MACHINE_MAX_ROWS) {
      g_string_printf (line, "%u more not shown (session.machine has them)",
          all->len - i);
      gp_verdict_machine_row (vt, "", line->str);
      g_string_free (line, TRUE);
      break;
    }
    if (gp_verdict_machine_mean_max (line, sr, span, "%")) {
      gp_verdict_machine_clock (line, gp_machine_find (m, freq_quantity,
              inst), span);
      label = g_strdup_printf ("%s %s:", what, inst);
      gp_verdict_machine_row (vt, label, line->str);
      g_free (label);
      shown++;
    }
    g_string_free (line, TRUE);
  }
  g_ptr_array_unref (all);
}

/* The CPUs: all of them, and the busiest core. */
static void
gp_verdict_machine_cpus (GpVerdictText * vt, GpMachine * m,
    const GpPlayingSpan * span)
{
  GPtrArray *all = gp_machine_find_all (m, GP_MACHINE_CPU_LOAD);
  GpMachineSeries *busiest = NULL;
  GString *line = g_string_new (NULL);
  gdouble best = -1;
  guint i, cores = 0;

  for (i = 0; i < all->len; i++) {
    GpMachineSeries *sr = g_ptr_array_index (all, i);
    gdouble mean = gp_machine_series_mean (sr, span->t0, span->t1);

    if (strcmp (gp_machine_series_instance (sr), "all") == 0 || isnan (mean))
      continue;
    cores++;
    if (mean > best) {
      best = mean;
      busiest = sr;
    }
  }
  g_string_printf (line, "all %u ", cores);
  if (!gp_verdict_machine_mean_max (line, gp_machine_find (m,
              GP_MACHINE_CPU_LOAD, "all"), span, "%"))
    g_string_truncate (line, 0);
  if (busiest) {
    g_string_append_printf (line, "%sbusiest core %s ",
        line->len ? "; " : "", gp_machine_series_instance (busiest));
    gp_verdict_machine_mean_max (line, busiest, span, "%");
  }
  if (line->len)
    gp_verdict_machine_row (vt, "CPU:", line->str);
  g_string_free (line, TRUE);
  g_ptr_array_unref (all);
}

/* The engines that did any work. */
static void
gp_verdict_machine_engines (GpVerdictText * vt, GpMachine * m,
    const GpPlayingSpan * span)
{
  GPtrArray *all = gp_machine_find_all (m, GP_MACHINE_ENGINE_LOAD);
  GString *line = g_string_new (NULL);
  gchar b[32], c[32];
  guint i, idle = 0;

  for (i = 0; i < all->len; i++) {
    GpMachineSeries *sr = g_ptr_array_index (all, i);
    gdouble mean = gp_machine_series_mean (sr, span->t0, span->t1);
    gdouble max = gp_machine_series_max (sr, span->t0, span->t1);

    if (isnan (max))
      continue;
    if (max <= 0) {
      idle++;
      continue;
    }
    g_string_append_printf (line, "%s%s mean %s, max %s", line->len ? "; " :
        "", gp_machine_series_instance (sr), gp_verdict_pct (b, mean),
        gp_verdict_pct (c, max));
  }
  if (idle)
    g_string_append_printf (line, "%s%u idle", line->len ? "; " : "", idle);
  if (line->len)
    gp_verdict_machine_row (vt, "engines:", line->str);
  g_string_free (line, TRUE);
  g_ptr_array_unref (all);
}

/* The hottest zone against its trip point, and the board's power. */
static void
gp_verdict_machine_heat_power (GpVerdictText * vt, GpMachine * m,
    const GpPlayingSpan * span)
{
  GPtrArray *all = gp_machine_find_all (m, GP_MACHINE_TEMP);
  GpMachineSeries *hot = NULL, *tripped = NULL, *power;
  gdouble best = -INFINITY, best_margin = -INFINITY;
  GString *line = g_string_new (NULL);
  guint i;

  /* the zone closest to its trip point where any has one, else the
   * hottest */
  for (i = 0; i < all->len; i++) {
    GpMachineSeries *sr = g_ptr_array_index (all, i);
    gdouble max = gp_machine_series_max (sr, span->t0, span->t1);

    if (isnan (max))
      continue;
    /* tj, the junction, is what a Jetson throttles on */
    if (max > best || (max == best && g_strcmp0 (gp_machine_series_instance
                (sr), "tj") == 0)) {
      best = max;
      hot = sr;
    }
    if (isfinite (sr->limit) && max - sr->limit > best_margin) {
      best_margin = max - sr->limit;
      tripped = sr;
    }
  }
  g_ptr_array_unref (all);
  if (tripped)
    hot = tripped;
  if (hot) {
    g_string_append_printf (line, "%s max %.1f C", gp_machine_series_instance
        (hot), gp_machine_series_max (hot, span->t0, span->t1));
    if (isfinite (hot->limit))
      g_string_append_printf (line, ", its trip point %.1f C", hot->limit);
    else
      g_string_append (line, ", no trip point known");
    gp_verdict_machine_row (vt, "hottest:", line->str);
  }
  power = gp_machine_find (m, GP_MACHINE_POWER, "board");
  if (power == NULL)
    power = gp_machine_find (m, GP_MACHINE_POWER, "0");
  if (power)
    g_string_printf (line, "%s%s ", g_ascii_isdigit
        (*gp_machine_series_instance (power)) ? "GPU " : "",
        gp_machine_series_instance (power));
  if (gp_verdict_machine_mean_max (line, power, span, "W")) {
    if (power->limit > 0)
      g_string_append_printf (line, ", its cap %.1f W", power->limit);
    gp_verdict_machine_row (vt, "power:", line->str);
  }
  g_string_free (line, TRUE);
}

/* The facts, briefly. */
static void
gp_verdict_machine_facts (GpVerdictText * vt, GpMachine * m)
{
  GString *line = g_string_new (NULL);
  guint i;

  for (i = 0; i + 1 < m->facts->len; i += 2) {
    if (i / 2 == GP_VERDICT_MACHINE_MAX_FACTS) {
      g_string_append_printf (line, "; %u more", (m->facts->len - i) / 2);
      break;
    }
    g_string_append_printf (line, "%s%s %s", line->len ? "; " : "",
        (const gchar *) g_ptr_array_index (m->facts, i),
        (const gchar *) g_ptr_array_index (m->facts, i + 1));
  }
  if (line->len)
    gp_verdict_machine_row (vt, "facts:", line->str);
  g_string_free (line, TRUE);
}

/* The accelerator's peaks (telemetry/gp-peaks, the one table), when the
 * machine has one: a GPU that nvidia-smi named, or a Jetson's EMC. */
static void
gp_verdict_machine_peaks (GpVerdictText * vt, GpMachine * m)
{
  GError *error = NULL;
  GpPeaks *p;
  gchar *line, *i8, *f16, *f32, *bw;

  if (gp_machine_fact (m, "gpu0.name") == NULL
      && gp_machine_find (m, GP_MACHINE_MEMBW_LOAD, "emc") == NULL)
    return;
  p = gp_roofline_machine_peaks (m, 0, 0, &error);
  if (p == NULL) {
    gp_verdict_machine_row (vt, "peaks:", error->message);
    g_error_free (error);
    return;
  }
  i8 = isnan (p->int8) ? g_strdup ("none") : gp_roofline_format (p->int8,
      "op/s");
  f16 = gp_roofline_format (p->fp16, "op/s");
  f32 = gp_roofline_format (p->fp32, "op/s");
  bw = gp_roofline_format (p->bw, "B/s");
  line = g_strdup_printf ("%s: INT8 %s, FP16 %s, FP32 %s, memory %s "
      "(gstprof roofline places a network on them)", p->target, i8, f16,
      f32, bw);
  gp_verdict_machine_row (vt, "peaks:", line);
  g_free (line);
  g_free (i8);
  g_free (f16);
  g_free (f32);
  g_free (bw);
  gp_peaks_free (p);
}

/* The most samples any load series has over the span. */
static guint
gp_verdict_machine_samples (GpSession * s)
{
  GpPlayingSpan span;
  guint i, most = 0;

  gp_session_machine_span (s, &span);
  for (i = 0; i < s->machine->series->len; i++) {
    GpMachineSeries *sr = g_ptr_array_index (s->machine->series, i);

    if (strstr (sr->name, ".load/") != NULL)
      most = MAX (most, gp_machine_series_count (sr, span.t0, span.t1));
  }
  return most;
}

/* Which wall the work hits: the machine rules' findings, or none. */
static void
gp_verdict_machine_bound (GpVerdictText * vt, GpSession * s)
{
  GString *line = g_string_new (NULL);
  guint i;

  for (i = 0; s->findings && i < s->findings->len; i++) {
    GpFinding *f = g_ptr_array_index (s->findings, i);

    if (g_strv_contains (gp_verdict_machine_rules, f->rule))
      g_string_append_printf (line, "%s%s: %s", line->len ? "; " : "",
          f->rule, f->title);
  }
  if (line->len == 0 && gp_verdict_machine_samples (s) == 0)
    g_string_assign (line, "not judged: no load was sampled");
  else if (line->len == 0 && gp_verdict_machine_samples (s) <
      GP_RULES_MACHINE_MIN_SAMPLES)
    g_string_printf (line, "not judged: %u sample%s, fewer than the %u of "
        "a steady state", gp_verdict_machine_samples (s),
        gp_verdict_machine_samples (s) == 1 ? "" : "s",
        GP_RULES_MACHINE_MIN_SAMPLES);
  else if (line->len == 0)
    g_string_assign (line, "no wall hit: no engine >= 95% busy, no memory "
        "bus >= 80%, no trip point passed, no clock cut or power cap, no GPU "
        "starved by a saturated core (what was not sampled is not judged)");
  else
    g_string_append (line, " (findings below)");
  gp_verdict_machine_row (vt, "bound:", line->str);
  g_string_free (line, TRUE);
}

/* What the machine did under the pipeline (session.machine). */
void
gp_verdict_machine (GpVerdictText * vt, GpSession * s)
{
  GpMachine *m = s->machine;
  GpPlayingSpan span;
  gchar *head;

  if (m == NULL)
    return;
  gp_session_machine_span (s, &span);
  if (!isnan (span.t0) && !isnan (span.t1))
    head = g_strdup_printf ("Machine (over the PLAYING span, %.1f-%.1f s)",
        span.t0, span.t1);
  else
    head = g_strdup ("Machine (over the whole log)");
  gp_verdict_heading (vt, head);
  g_free (head);
  gp_verdict_machine_sources (vt, m);
  gp_verdict_machine_loads (vt, m, GP_MACHINE_GPU_LOAD, GP_MACHINE_GPU_FREQ,
      "GPU", &span);
  gp_verdict_machine_loads (vt, m, GP_MACHINE_MEMBW_LOAD,
      GP_MACHINE_MEM_FREQ, "memory", &span);
  gp_verdict_machine_cpus (vt, m, &span);
  gp_verdict_machine_engines (vt, m, &span);
  gp_verdict_machine_heat_power (vt, m, &span);
  if (m->cost_pct >= 0) {
    gchar *cost = g_strdup_printf ("%.2g%% of one core", m->cost_pct);

    gp_verdict_machine_row (vt, "cost:", cost);
    g_free (cost);
  }
  gp_verdict_machine_facts (vt, m);
  gp_verdict_machine_peaks (vt, m);
  gp_verdict_machine_bound (vt, s);
}

/* A session of the machine alone (a telemetry log): no pipeline section
 * has anything to say. */
gboolean
gp_verdict_machine_only (GpSession * s)
{
  return s->machine != NULL && (s->elements == NULL || s->elements->len == 0)
      && gp_session_n_windows (s) == 0 && (s->sinks == NULL
      || s->sinks->len == 0);
}

