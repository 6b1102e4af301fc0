/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-plot.h: the pictures people expect, drawn with cairo as PNG or SVG
 * (the output's extension says which). Its own static library
 * (libgpplot), linked only by the binary and its tests, so that nothing
 * else links cairo.
 *
 * A picture is laid out first (a GpPlot: its panels, each with its frame,
 * the data it maps to pixels, and its curves in their palette colours),
 * then drawn; the layout is public so that a test can find each curve's
 * colour at the pixels its values map to.
 *
 * - gp_plot_machine (): the curves of the machine under the pipeline and
 *   of the pipeline itself, stacked panels on one time axis, seconds from
 *   the session's start (gp-plot-curves.c):
 *     utilisation: gpu.load, membw.load, cpu.load ("all", else the mean
 *       of the cores), engine.load, with the saturation line
 *       (GP_PLOT_SATURATION_PCT);
 *     clocks: gpu.freq, mem.freq, cpu.freq (the mean of the cores), each
 *       with its maximum (the series' limit) dashed in its colour;
 *     temperature: every sensor with its trip point dashed;
 *     power: every rail or GPU with its cap dashed;
 *     element self time (from a session's windows): the mean self time
 *       per buffer in each window of the GP_PLOT_TOP_ELEMENTS elements
 *       with the most self time (queues and bins left out: their time is
 *       waiting, or their children's);
 *     link rate (from a session's windows): buffers/s per link, links of
 *       the same steady-state rate drawn once (the legend says how many).
 *   A panel without data is left out and the picture's last line names
 *   it.
 * - gp_plot_roofline (): the roofline (gp-plot-roofline.c), log-log,
 *   ops/byte on x and ops/s on y: the memory roof slanted up to the
 *   highest ridge, each compute roof flat from its ridge, every ridge
 *   marked and labelled, every workload point marked and labelled with its
 *   bound. Points without an intensity (ai NAN: bytes only, a CPU element)
 *   are not on the chart: they are horizontal bars in a panel below it,
 *   their achieved bandwidth against the memory roof (a dashed line at the
 *   roof's GB/s), labelled with their share of it and their bound.
 * - gp_plot_xy (): one panel of lines over a shared x for what a command
 *   measures by steps (gp-plot-xy.c: `ds sweep`'s fps by batch, the
 *   plateau marked).
 *
 * The room, src/plot: the pictures (gp-plot.c draws a laid-out GpPlot:
 * ticks at round steps or decades with SI prefixes, NAN as gaps, a marker
 * on a sparse series, the file written whole; a fixed palette of ten
 * colours; each panel with its rule and its legend; gp-plot-private.h what
 * the three drawers share).
 *
 * May depend on: core, telemetry, cairo.
 */
#ifndef __GP_PLOT_H__
#define __GP_PLOT_H__

#include <glib.h>
#include "core/gp-machine.h"
#include "core/gp-session.h"
#include "telemetry/gp-roofline.h"

G_BEGIN_DECLS

#define GP_PLOT_ERROR (gp_plot_error_quark ())
GQuark gp_plot_error_quark (void);
typedef enum
{
  GP_PLOT_ERROR_FORMAT,         /* neither .png nor .svg */
  GP_PLOT_ERROR_EMPTY,          /* nothing to draw */
  GP_PLOT_ERROR_IO,             /* cairo or the file failed */
} GpPlotError;

/* The line a utilisation is held against: the HW rule's saturated engine
 * (issue 10: an engine at 95 % or more is the wall). */
#define GP_PLOT_SATURATION_PCT 95.0
/* Elements drawn in the self-time panel: more lines than this on one
 * panel are no longer told apart. */
#define GP_PLOT_TOP_ELEMENTS 6
/* Links of the same steady-state rate within this share are one curve
 * (a chain of filters carries the same frames: one line, not N on top
 * of each other). */
#define GP_PLOT_SAME_RATE 0.02
/* The fixed palette: this many colours, told apart on screen and in
 * print; a panel draws at most this many curves and says how many it
 * left out. */
#define GP_PLOT_PALETTE_N 10
guint32 gp_plot_palette (guint i);      /* 0xRRGGBB, i modulo the palette */

/* The panels of gp_plot_machine (), in their order. */
#define GP_PLOT_PANEL_UTIL "utilisation"
#define GP_PLOT_PANEL_CLOCKS "clocks"
#define GP_PLOT_PANEL_TEMP "temperature"
#define GP_PLOT_PANEL_POWER "power"
#define GP_PLOT_PANEL_ELEMENTS "elements"
#define GP_PLOT_PANEL_LINKS "links"
/* and of gp_plot_roofline () */
#define GP_PLOT_PANEL_ROOFLINE "roofline"
#define GP_PLOT_PANEL_BANDWIDTH "bandwidth"
/* and of gp_plot_xy () */
#define GP_PLOT_PANEL_XY "xy"

/* A panel's plot area in pixels and the data range it shows. */
typedef struct
{
  gdouble x, y, w, h;           /* px from the picture's top left */
  gdouble x0, x1, y0, y1;       /* data at the area's edges */
  gboolean log_x, log_y;        /* log10 scales (then all four > 0) */
} GpPlotFrame;

/* Data to pixels and back. */
gdouble gp_plot_frame_px (const GpPlotFrame * f, gdouble x);
gdouble gp_plot_frame_py (const GpPlotFrame * f, gdouble y);
gdouble gp_plot_frame_y_at (const GpPlotFrame * f, gdouble py);

typedef enum
{
  GP_PLOT_LINE,                 /* a polyline, NAN a gap; a point alone
                                 * (or a sparse series) gets a marker */
  GP_PLOT_MARKER,               /* a filled circle per point */
  GP_PLOT_RING,                 /* an open circle per point (a ridge) */
  GP_PLOT_BAR,                  /* a horizontal bar from x0 to x at row y */
} GpPlotStyle;

typedef struct
{
  gchar *label;                 /* the legend's text; NULL: not in it */
  gchar *what;                  /* what it was drawn from: "gpu.load/0",
                                 * "cpu.freq mean", "element slow",
                                 * "link a.src->b.sink", "roof INT8" */
  guint32 rgb;                  /* 0xRRGGBB, from the palette */
  GpPlotStyle style;
  GArray *x, *y;                /* gdouble: what is drawn, in the
                                 * panel's units */
  gdouble limit;                /* dashed across the panel in its colour
                                 * (a maximum, a trip point, a cap);
                                 * NAN none */
  gchar *tag;                   /* text beside its last point; NULL */
} GpPlotCurve;

typedef struct
{
  const gchar *id;              /* GP_PLOT_PANEL_* */
  gchar *title;
  gchar *y_label;               /* with its unit */
  gchar *x_label;               /* NULL: ticks only */
  GpPlotFrame frame;
  GPtrArray *curves;            /* GpPlotCurve*, drawn in order */
  gboolean y_ticks;             /* FALSE: rows (bars), no y ticks */
  const gchar *x_unit;          /* SI ticks on a log axis: "ops/B" */
  const gchar *y_unit;          /* "OPS" */
  /* a grey dashed line not of any curve (the saturation, the memory
   * roof of the bars), horizontal at y or, with rule_vertical, at x;
   * NAN none */
  gdouble rule;
  gboolean rule_vertical;
  gchar *rule_label;
  guint n_left_out;             /* series not drawn: past the palette */
  gchar *legend_note;           /* the legend's last line, grey; NULL */
} GpPlotPanel;

typedef struct
{
  gint width, height;           /* px (SVG: pt) */
  gchar *title;
  GPtrArray *panels;            /* GpPlotPanel* */
  GPtrArray *notes;             /* gchar*: lines under the panels (what was
                                 * absent, the points' reasons) */
} GpPlot;

void gp_plot_free (GpPlot * p);
/* The panel @id, or NULL. */
GpPlotPanel *gp_plot_find_panel (const GpPlot * p, const gchar * id);
/* Its curve drawn from @what, or NULL. */
GpPlotCurve *gp_plot_panel_find_curve (const GpPlotPanel * panel,
    const gchar * what);

/* The layout of gp_plot_machine (): @m NULL takes @s's machine; @s may be
 * NULL. NULL with a one-line @error (GP_PLOT_ERROR_EMPTY) when no panel
 * has data. */
GpPlot *gp_plot_machine_layout (const GpMachine * m, const GpSession * s,
    GError ** error);
/* The layout of gp_plot_roofline (): NULL with a one-line @error when
 * the roofline has no memory bandwidth or no compute roof. */
GpPlot *gp_plot_roofline_layout (const GpRoofline * r, GError ** error);

/* What a picture is drawn as. */
typedef enum
{
  GP_PLOT_PNG,
  GP_PLOT_SVG,
} GpPlotFormat;

/* @p drawn into memory, for a page that holds it (the report). NULL with
 * a one-line @error (GP_PLOT_ERROR_IO) when cairo fails. */
GBytes *gp_plot_draw (const GpPlot * p, GpPlotFormat format,
    GError ** error);

/* Draws @p into @path, PNG or SVG by its extension (case aside), written
 * whole or not at all (src/core/gp-file.h). FALSE with a one-line @error
 * naming @path. */
gboolean gp_plot_write (const GpPlot * p, const gchar * path,
    GError ** error);
/* TRUE when @path names a picture gp_plot_write () can draw; else FALSE
 * with a one-line @error (GP_PLOT_ERROR_FORMAT) naming it. */
gboolean gp_plot_check_path (const gchar * path, GError ** error);

/* Layout and write in one. */
gboolean gp_plot_machine (const GpMachine * m, const GpSession * s,
    const gchar * path, GError ** error);
gboolean gp_plot_roofline (const GpRoofline * r, const gchar * path,
    GError ** error);

/* One panel of lines over a shared x: @n_series curves of @n_points each
 * (ys[s][i] at x[i]; NAN a gap), a series of at most GP_PLOT_XY_MARKED
 * points marked at each; with @mark_x finite a grey vertical line there,
 * labelled; @notes (NULL-terminated, may be NULL) under the panel. */
#define GP_PLOT_XY_MARKED 16
typedef struct
{
  const gchar *title;           /* the page's */
  const gchar *panel_title;
  const gchar *x_label, *y_label;       /* with their units */
  gboolean log_x;
  guint n_series, n_points;
  const gchar *const *labels;   /* the legend, one per series */
  const gdouble *x;
  const gdouble *const *ys;
  gdouble mark_x;
  const gchar *mark_label;
  const gchar *const *notes;
} GpPlotXY;

GpPlot *gp_plot_xy_layout (const GpPlotXY * xy, GError ** error);
gboolean gp_plot_xy (const GpPlotXY * xy, const gchar * path,
    GError ** error);

G_END_DECLS

#endif /* __GP_PLOT_H__ */
