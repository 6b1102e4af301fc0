/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-plot-private.h: what the plot room's files share: the page's
 * geometry, building panels and curves, numbers for people.
 */
#ifndef __GP_PLOT_PRIVATE_H__
#define __GP_PLOT_PRIVATE_H__

#include "gp-plot.h"

G_BEGIN_DECLS

/* The page (px): wide enough for a minute of 250 ms windows at about
 * three pixels each, a legend at the right of each panel. */
#define GP_PLOT_WIDTH 1200
#define GP_PLOT_MARGIN_LEFT 84  /* the y ticks and the axis' name */
#define GP_PLOT_MARGIN_RIGHT 16
#define GP_PLOT_LEGEND_W 300    /* the legend, right of the frame */
#define GP_PLOT_TITLE_H 44      /* the page's title */
#define GP_PLOT_PANEL_HEAD 26   /* a panel's title, above its frame */
#define GP_PLOT_PANEL_FOOT 34   /* its x ticks, below its frame */
#define GP_PLOT_PANEL_H 170     /* its frame: eleven legend lines */
#define GP_PLOT_LEGEND_LINE 15  /* one legend entry */
#define GP_PLOT_NOTE_LINE 16    /* one note under the panels */

/* The frame's width on the page. */
#define GP_PLOT_FRAME_W (GP_PLOT_WIDTH - GP_PLOT_MARGIN_LEFT - \
    GP_PLOT_LEGEND_W - GP_PLOT_MARGIN_RIGHT)

GpPlot *gp_plot_new (const gchar * title);
/* A panel appended to @p, its frame at @y (px) for @h, data ranges 0. */
GpPlotPanel *gp_plot_add_panel (GpPlot * p, const gchar * id,
    const gchar * title, const gchar * y_label, gdouble y, gdouble h);
/* A curve appended to @panel in palette colour @colour; @label may be
 * NULL (not in the legend). */
GpPlotCurve *gp_plot_add_curve (GpPlotPanel * panel, const gchar * what,
    const gchar * label, guint colour, GpPlotStyle style);
void gp_plot_curve_append (GpPlotCurve * c, gdouble x, gdouble y);
void gp_plot_add_note (GpPlot * p, const gchar * format, ...)
    G_GNUC_PRINTF (2, 3);
void gp_plot_free_panel (gpointer panel);

/* The largest finite value of @c (x FALSE: y), NAN when none. */
gdouble gp_plot_curve_max (const GpPlotCurve * c, gboolean x);
/* The round step (1, 2 or 5 times a power of ten) at or above @x. */
gdouble gp_plot_nice_step (gdouble x);
/* A linear range from 0 for values up to @max: its end the first
 * multiple of a round step of about a sixth of @max at or above @max; 1
 * when @max <= 0 or NAN. */
gdouble gp_plot_nice_top (gdouble max);
/* @v with an SI prefix and @unit: "1.5 TOPS", "12 GB/s", "950 MOPS". */
gchar *gp_plot_si (gdouble v, const gchar * unit);

G_END_DECLS

#endif /* __GP_PLOT_PRIVATE_H__ */
