/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-plot-roofline.c: the layout of gp_plot_roofline (): the log-log
 * chart (the memory roof up to the highest ridge, each compute roof flat
 * from its own ridge, the ridges ringed, the workload points), and below
 * it the points that only move bytes as bars against the memory roof;
 * each point's reason as a note.
 */
#include "gp-plot-private.h"

#include <math.h>

/* The chart's frame (px): square-ish, a decade about 70 px at 8. */
#define GP_PLOT_ROOF_H 420
/* One bar of the bytes-only panel, and the panel's least height. */
#define GP_PLOT_BAR_ROW 34
#define GP_PLOT_BAR_MIN_H 60
/* Decades around the data: one on each side, so that the lowest ridge
 * and the flat roofs past the highest are seen. */
#define GP_PLOT_ROOF_DECADES_AROUND 1

typedef struct
{
  gdouble x_lo, x_hi, y_lo, y_hi;
} GpPlotRoofRange;

static void
gp_plot_roof_extend (gdouble * lo, gdouble * hi, gdouble v)
{
  if (!isfinite (v) || v <= 0)
    return;
  if (isnan (*lo) || v < *lo)
    *lo = v;
  if (isnan (*hi) || v > *hi)
    *hi = v;
}

/* Decades around the ridges, the points, the roofs. */
static void
gp_plot_roof_range (const GpRoofline * r, GpPlotFrame * f)
{
  GpPlotRoofRange g = { NAN, NAN, NAN, NAN };

  for (guint i = 0; i < r->roofs->len; i++) {
    gp_plot_roof_extend (&g.x_lo, &g.x_hi, gp_roofline_ridge (r, i));
    gp_plot_roof_extend (&g.y_lo, &g.y_hi,
        g_array_index (r->roofs, GpRoof, i).ops_per_s);
  }
  for (guint i = 0; i < r->points->len; i++) {
    GpRooflinePoint *pt = g_ptr_array_index (r->points, i);

    if (isnan (pt->ai))
      continue;
    gp_plot_roof_extend (&g.x_lo, &g.x_hi, pt->ai);
    gp_plot_roof_extend (&g.y_lo, &g.y_hi, pt->ops_per_s);
  }
  f->log_x = f->log_y = TRUE;
  f->x0 = pow (10, floor (log10 (g.x_lo)) - GP_PLOT_ROOF_DECADES_AROUND);
  f->x1 = pow (10, ceil (log10 (g.x_hi)) + GP_PLOT_ROOF_DECADES_AROUND);
  /* the memory roof enters at the left edge */
  gp_plot_roof_extend (&g.y_lo, &g.y_hi, r->bw_bytes_per_s * f->x0);
  f->y0 = pow (10, floor (log10 (g.y_lo)));
  /* the highest roof half a decade or more under the top */
  f->y1 = pow (10, ceil (log10 (g.y_hi) + 0.5));
}

/* The highest compute roof's index. */
static guint
gp_plot_roof_top (const GpRoofline * r)
{
  guint top = 0;

  for (guint i = 1; i < r->roofs->len; i++)
    if (g_array_index (r->roofs, GpRoof, i).ops_per_s >
        g_array_index (r->roofs, GpRoof, top).ops_per_s)
      top = i;
  return top;
}

static void
gp_plot_roof_roofs (GpPlotPanel * panel, const GpRoofline * r)
{
  const GpPlotFrame *f = &panel->frame;
  guint top = gp_plot_roof_top (r);
  gdouble top_ops = g_array_index (r->roofs, GpRoof, top).ops_per_s;
  gchar *bw = gp_plot_si (r->bw_bytes_per_s, "B/s");
  gchar *label = g_strdup_printf ("memory roof: %s%s%s", bw,
      r->bw_name ? ", " : "", r->bw_name ? r->bw_name : "");
  GpPlotCurve *c = gp_plot_add_curve (panel, "roof memory", label, 0,
      GP_PLOT_LINE);

  gp_plot_curve_append (c, f->x0, r->bw_bytes_per_s * f->x0);
  gp_plot_curve_append (c, top_ops / r->bw_bytes_per_s, top_ops);
  g_free (label);
  g_free (bw);

  for (guint i = 0; i < r->roofs->len; i++) {
    GpRoof *roof = &g_array_index (r->roofs, GpRoof, i);
    gdouble ridge = gp_roofline_ridge (r, i);
    gchar *ops = gp_plot_si (roof->ops_per_s, "OPS");
    gchar *what = g_strdup_printf ("roof %s", roof->name);
    gchar *text = g_strdup_printf ("%s: %s", roof->name, ops);

    c = gp_plot_add_curve (panel, what, text, 1 + i, GP_PLOT_LINE);
    gp_plot_curve_append (c, ridge, roof->ops_per_s);
    gp_plot_curve_append (c, f->x1, roof->ops_per_s);
    c->tag = g_strdup (text);
    g_free (what);
    g_free (text);

    what = g_strdup_printf ("ridge %s", roof->name);
    c = gp_plot_add_curve (panel, what, NULL, 1 + i, GP_PLOT_RING);
    gp_plot_curve_append (c, ridge, roof->ops_per_s);
    c->tag = g_strdup_printf (ridge >= 100 ? "ridge %.0f ops/B" :
        "ridge %.3g ops/B", ridge);
    g_free (what);
    g_free (ops);
  }
}

/* The bound a point's label carries. */
static const gchar *
gp_plot_roof_bound (const GpRooflinePoint * pt)
{
  return pt->bound ? pt->bound : "bound not judged";
}

static void
gp_plot_roof_points (GpPlot * p, GpPlotPanel * panel, const GpRoofline * r,
    guint * colour)
{
  for (guint i = 0; i < r->points->len; i++) {
    GpRooflinePoint *pt = g_ptr_array_index (r->points, i);
    gchar *what, *label;
    GpPlotCurve *c;

    if (isnan (pt->ai))
      continue;
    what = g_strdup_printf ("point %s", pt->label);
    label = g_strdup_printf ("%s (%s)", pt->label, gp_plot_roof_bound (pt));
    c = gp_plot_add_curve (panel, what, label, (*colour)++, GP_PLOT_MARKER);
    gp_plot_curve_append (c, pt->ai, pt->ops_per_s);
    c->tag = g_strdup (label);
    g_free (what);
    g_free (label);
  }
}

/* The points without an intensity, as bars of their bandwidth; NULL when
 * there are none. */
static GpPlotPanel *
gp_plot_roof_bars (GpPlot * p, const GpRoofline * r, gdouble y,
    guint * colour)
{
  GpPlotPanel *panel = NULL;
  guint n = 0, row = 0;
  gdouble max = r->bw_bytes_per_s;
  gchar *bw;

  for (guint i = 0; i < r->points->len; i++) {
    GpRooflinePoint *pt = g_ptr_array_index (r->points, i);

    if (isnan (pt->ai)) {
      n++;
      if (isfinite (pt->bytes_per_s))
        max = MAX (max, pt->bytes_per_s);
    }
  }
  if (n == 0)
    return NULL;
  panel = gp_plot_add_panel (p, GP_PLOT_PANEL_BANDWIDTH,
      "Bytes only (no operation count): achieved bandwidth against the "
      "memory roof", NULL, y, MAX (GP_PLOT_BAR_MIN_H, n * GP_PLOT_BAR_ROW));
  panel->y_ticks = FALSE;
  panel->x_unit = "B/s";
  panel->x_label = g_strdup ("achieved memory bandwidth (bytes/s)");
  panel->frame.x0 = 0;
  panel->frame.x1 = gp_plot_nice_top (max * 1.05);
  panel->frame.y0 = 0;
  panel->frame.y1 = n;
  bw = gp_plot_si (r->bw_bytes_per_s, "B/s");
  panel->rule = r->bw_bytes_per_s;
  panel->rule_vertical = TRUE;
  panel->rule_label = g_strdup_printf ("memory roof %s", bw);
  g_free (bw);
  for (guint i = 0; i < r->points->len; i++) {
    GpRooflinePoint *pt = g_ptr_array_index (r->points, i);
    gchar *what, *label, *got;
    GpPlotCurve *c;

    if (!isnan (pt->ai))
      continue;
    what = g_strdup_printf ("bytes %s", pt->label);
    label = g_strdup_printf ("%s (%s)", pt->label, gp_plot_roof_bound (pt));
    c = gp_plot_add_curve (panel, what, label, (*colour)++, GP_PLOT_BAR);
    gp_plot_curve_append (c, pt->bytes_per_s, n - row - 0.5);
    got = gp_plot_si (pt->bytes_per_s, "B/s");
    c->tag = g_strdup_printf ("%s: %s, %.0f %% of the roof (%s)", pt->label,
        got, 100 * pt->bytes_per_s / r->bw_bytes_per_s,
        gp_plot_roof_bound (pt));
    g_free (got);
    g_free (what);
    g_free (label);
    row++;
  }
  return panel;
}

GpPlot *
gp_plot_roofline_layout (const GpRoofline * r, GError ** error)
{
  GpPlotPanel *chart, *bars;
  guint colour;
  gchar *title;
  GpPlot *p;
  gdouble bottom;

  if (!(r->bw_bytes_per_s > 0) || !isfinite (r->bw_bytes_per_s)) {
    g_set_error (error, GP_PLOT_ERROR, GP_PLOT_ERROR_EMPTY,
        "the roofline of %s has no memory bandwidth", r->title);
    return NULL;
  }
  for (guint i = 0; i < r->roofs->len; i++) {
    gdouble ops = g_array_index (r->roofs, GpRoof, i).ops_per_s;

    if (!(ops > 0) || !isfinite (ops)) {
      g_set_error (error, GP_PLOT_ERROR, GP_PLOT_ERROR_EMPTY,
          "the roofline of %s has a roof of %g ops/s", r->title, ops);
      return NULL;
    }
  }
  if (r->roofs->len == 0) {
    g_set_error (error, GP_PLOT_ERROR, GP_PLOT_ERROR_EMPTY,
        "the roofline of %s has no compute roof", r->title);
    return NULL;
  }
  title = g_strdup_printf ("gstprof roofline: %s", r->title);
  p = gp_plot_new (title);
  g_free (title);
  chart = gp_plot_add_panel (p, GP_PLOT_PANEL_ROOFLINE, "Roofline (log-log:"
      " attainable = min (compute roof, intensity x memory bandwidth))",
      "attainable performance (ops/s)",
      GP_PLOT_TITLE_H + GP_PLOT_PANEL_HEAD, GP_PLOT_ROOF_H);
  chart->x_label = g_strdup ("arithmetic intensity (ops/byte)");
  chart->y_unit = "OPS";
  gp_plot_roof_range (r, &chart->frame);
  gp_plot_roof_roofs (chart, r);
  colour = 1 + r->roofs->len;
  gp_plot_roof_points (p, chart, r, &colour);

  bottom = chart->frame.y + chart->frame.h + GP_PLOT_PANEL_FOOT;
  bars = gp_plot_roof_bars (p, r, bottom + GP_PLOT_PANEL_HEAD, &colour);
  if (bars)
    bottom = bars->frame.y + bars->frame.h + GP_PLOT_PANEL_FOOT;
  for (guint i = 0; i < r->points->len; i++) {
    GpRooflinePoint *pt = g_ptr_array_index (r->points, i);

    if (pt->reason)
      gp_plot_add_note (p, "%s: %s: %s", pt->label, gp_plot_roof_bound (pt),
          pt->reason);
  }
  p->height = (gint) bottom + 8 + p->notes->len * GP_PLOT_NOTE_LINE + 8;
  return p;
}
