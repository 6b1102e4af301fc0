/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-plot-xy.c: one panel of lines over a shared x (gp_plot_xy, in
 * gp-plot.h): what a sweep draws, throughput against batch size.
 */
#include "gp-plot-private.h"

#include <math.h>
#include <string.h>

/* A log x axis starts and ends this far past its first and last points
 * (a factor), so that their markers are not on the frame. */
#define GP_PLOT_XY_LOG_MARGIN 1.25

GpPlot *
gp_plot_xy_layout (const GpPlotXY * xy, GError ** error)
{
  GpPlotPanel *panel;
  GpPlot *p;
  gdouble x_lo = INFINITY, x_hi = -INFINITY, y_max = 0;
  guint s, i;

  for (s = 0; s < xy->n_series; s++)
    for (i = 0; i < xy->n_points; i++) {
      gdouble x = xy->x[i], y = xy->ys[s][i];

      if (!isfinite (x) || (xy->log_x && !(x > 0)))
        continue;
      x_lo = MIN (x_lo, x);
      x_hi = MAX (x_hi, x);
      if (isfinite (y))
        y_max = MAX (y_max, y);
    }
  if (!(x_hi >= x_lo)) {
    g_set_error (error, GP_PLOT_ERROR, GP_PLOT_ERROR_EMPTY,
        "%s: no point to draw", xy->title);
    return NULL;
  }
  p = gp_plot_new (xy->title);
  panel = gp_plot_add_panel (p, GP_PLOT_PANEL_XY, xy->panel_title,
      xy->y_label, GP_PLOT_TITLE_H + GP_PLOT_PANEL_HEAD, GP_PLOT_PANEL_H * 2);
  panel->x_label = g_strdup (xy->x_label);
  panel->frame.log_x = xy->log_x;
  if (xy->log_x) {
    panel->frame.x0 = x_lo / GP_PLOT_XY_LOG_MARGIN;
    panel->frame.x1 = x_hi * GP_PLOT_XY_LOG_MARGIN;
  } else {
    panel->frame.x0 = 0;
    panel->frame.x1 = gp_plot_nice_top (x_hi);
  }
  panel->frame.y0 = 0;
  panel->frame.y1 = gp_plot_nice_top (y_max * 1.05);
  for (s = 0; s < xy->n_series; s++) {
    GpPlotCurve *c = gp_plot_add_curve (panel, xy->labels[s], xy->labels[s],
        s, GP_PLOT_LINE);

    for (i = 0; i < xy->n_points; i++)
      gp_plot_curve_append (c, xy->x[i], xy->ys[s][i]);
    /* a few points: each one marked */
    c->style = xy->n_points <= GP_PLOT_XY_MARKED ? GP_PLOT_MARKER :
        GP_PLOT_LINE;
    if (c->style == GP_PLOT_MARKER) {
      GpPlotCurve *line = gp_plot_add_curve (panel, xy->labels[s], NULL, s,
          GP_PLOT_LINE);

      g_array_append_vals (line->x, c->x->data, c->x->len);
      g_array_append_vals (line->y, c->y->data, c->y->len);
    }
  }
  if (isfinite (xy->mark_x)) {
    panel->rule = xy->mark_x;
    panel->rule_vertical = TRUE;
    panel->rule_label = g_strdup (xy->mark_label);
  }
  for (i = 0; xy->notes && xy->notes[i]; i++)
    gp_plot_add_note (p, "%s", xy->notes[i]);
  p->height = (gint) (panel->frame.y + panel->frame.h + GP_PLOT_PANEL_FOOT +
      8 + p->notes->len * GP_PLOT_NOTE_LINE + 8);
  return p;
}

gboolean
gp_plot_xy (const GpPlotXY * xy, const gchar * path, GError ** error)
{
  GpPlot *p;
  gboolean ok;

  if (!gp_plot_check_path (path, error))
    return FALSE;
  p = gp_plot_xy_layout (xy, error);
  if (p == NULL)
    return FALSE;
  ok = gp_plot_write (p, path, error);
  gp_plot_free (p);
  return ok;
}
