/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-roofline-choose.c: what an accelerator's roofline is drawn for, from
 * what `gstprof roofline` was asked (GpRooflineAsk): the peaks (a named
 * part, the one the telemetry shows, or the figures given) and the work
 * (a known network, given ops and bytes, or the memory traffic alone).
 */
#include "gp-roofline-build.h"
#include "gp-models.h"

#include <math.h>

/* Peaks with nothing known, for the user's own figures to fill. */
static GpPeaks *
gp_roofline_choose_given_peaks (void)
{
  GpPeaks *p = g_new0 (GpPeaks, 1);

  p->target = g_strdup ("given peaks");
  p->fp32 = p->fp16 = p->int8 = p->bw = NAN;
  p->sm_mhz = p->tensor_mhz = p->mem_mhz = NAN;
  return p;
}

/* The named part, with @m's memory size (to tell a part's variants) and
 * maximum clocks where it has them. */
static GpPeaks *
gp_roofline_choose_target_peaks (const gchar * target, const GpMachine * m,
    GError ** error)
{
  const GpPeaksRow *row;
  gdouble mem = NAN;

  if (m) {
    GpMachineSeries *ram = gp_machine_find (m, GP_MACHINE_MEM_USED, "ram");

    mem = gp_machine_fact_double (m, "gpu0.memory.total");
    if (isnan (mem) && ram)
      mem = ram->limit;
  }
  row = gp_peaks_find (target, mem, error);
  if (row == NULL) {
    g_prefix_error (error, "--target: ");
    return NULL;
  }
  return gp_peaks_for_row (row, m ? gp_machine_fact_double (m,
          "gpu0.clocks.max.sm") : NAN, m ? gp_machine_fact_double (m,
          "gpu0.clocks.max.memory") : NAN);
}

GpPeaks *
gp_roofline_choose_peaks (const GpRooflineAsk * a, const GpMachine * m,
    GError ** error)
{
  GpPeaks *p = NULL;
  GError *err = NULL;

  g_return_val_if_fail (a != NULL, NULL);

  if (a->target) {
    p = gp_roofline_choose_target_peaks (a->target, m, error);
    if (p == NULL)
      return NULL;
  } else if (m) {
    p = gp_roofline_machine_peaks (m, a->sms > 0 ? (guint) a->sms : 0,
        a->bus_bits > 0 ? (guint) a->bus_bits : 0, &err);
    if (p == NULL && a->peak_ops > 0 && a->peak_bw > 0) {
      g_clear_error (&err);
      p = gp_roofline_choose_given_peaks ();
    } else if (p == NULL) {
      g_propagate_error (error, err);
      return NULL;
    }
  } else {
    g_set_error (error, GP_PEAKS_ERROR, GP_PEAKS_ERROR_MISSING,
        "no telemetry and no --target");
    return NULL;
  }
  gp_peaks_override (p, a->peak_ops, a->peak_bw);
  return p;
}

/* @a's workload in @w, at @fps; the line saying what it is, or NULL when
 * @a gives none. @prec_up: the precision in capitals, as the roofs are
 * named. */
static gchar *
gp_roofline_choose_workload (const GpRooflineAsk * a, gdouble fps,
    const gchar * precision, const gchar * prec_up, GpWorkload * w)
{
  const GpModel *model = a->model ? gp_model_find (a->model) : NULL;

  w->precision = prec_up;
  w->fps = fps;
  if (model) {
    w->label = model->name;
    w->ops_per_frame = gp_model_ops (model);
    w->bytes_per_frame = a->bytes > 0 ? a->bytes :
        gp_model_bytes_estimate (model, precision);
    return g_strdup_printf ("%s: %.3g Gop per frame (%s), %.3g MB per "
        "frame (%s) at %s, %.4g fps", model->title, model->gflops,
        model->source, w->bytes_per_frame / 1e6, a->bytes > 0 ? "given" :
        "estimate: input + weights, batch 1", prec_up, w->fps);
  }
  if (a->ops > 0) {
    w->label = "workload";
    w->ops_per_frame = a->ops;
    w->bytes_per_frame = a->bytes;
    return g_strdup_printf ("%.3g op per frame, %s, at %.4g fps", a->ops,
        a->bytes > 0 ? "bytes per frame given" : "no bytes per frame",
        w->fps);
  }
  return NULL;
}

GpRoofline *
gp_roofline_of_ask (const GpRooflineAsk * a, const GpPeaks * p,
    const GpMachine * m, gdouble session_fps, gchar ** work, gchar ** how,
    gint * judged)
{
  const gchar *precision = a->precision ? a->precision : "fp16";
  gchar *prec_up = g_ascii_strup (precision, -1);
  GpWorkload w = { 0 };
  GpRoofline *r;
  gchar *bytes_how = NULL;

  *work = gp_roofline_choose_workload (a, isnan (a->fps) ? session_fps : a->fps,
      precision, prec_up, &w);
  if (*work == NULL || !(w.fps > 0)) {
    /* no work per frame: the memory traffic alone */
    gdouble bytes = m ? gp_roofline_machine_bw (m, p, &bytes_how) : NAN;

    r = gp_roofline_of_peaks (p);
    if (bytes > 0)
      gp_roofline_classify (r, G_MAXUINT, gp_roofline_add_point (r,
              "memory traffic", NAN, NAN, bytes));
    g_free (*work);
    *work = g_strdup ("none given (--model or --ops, with --fps): the "
        "memory traffic alone");
  } else {
    r = gp_roofline_accel (p, &w, m, &bytes_how);
  }
  *judged = gp_roofline_find_roof (r, prec_up);
  if (how != NULL)
    *how = bytes_how;
  else
    g_free (bytes_how);
  g_free (prec_up);
  return r;
}

GpRoofline *
gp_roofline_of_machine (const GpRooflineAsk * a, const GpMachine * m,
    gdouble session_fps, gchar ** caption, GError ** error)
{
  GpRooflineAsk none = { NULL, NAN, NAN, NAN, NAN, NULL, NAN, NAN, NAN,
    NULL
  };
  gchar *work = NULL, *how = NULL;
  GpRoofline *r;
  GpPeaks *peaks;
  gint judged;

  if (a == NULL)
    a = &none;
  peaks = gp_roofline_choose_peaks (a, m, error);
  if (peaks == NULL)
    return NULL;
  r = gp_roofline_of_ask (a, peaks, m, session_fps, &work, &how, &judged);
  *caption = g_strdup_printf ("peaks: %s\nworkload: %s\nbytes: %s",
      peaks->how ? peaks->how : "given", work, how ? how :
      "no telemetry of the memory");
  gp_peaks_free (peaks);
  g_free (work);
  g_free (how);
  return r;
}
