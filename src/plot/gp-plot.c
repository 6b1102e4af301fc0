/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-plot.c: a laid-out picture (GpPlot) drawn with cairo and written as
 * PNG or SVG: the page, each panel's frame with its grid and ticks (round
 * numbers on a linear axis, decades on a log one), its rule, its curves
 * clipped to the frame, its legend at the right, the notes under the
 * panels. Text with cairo's own ("toy") font API, sans-serif.
 */
#include "gp-plot-private.h"
#include "core/gp-file.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

#include <cairo.h>
#include <cairo-svg.h>

G_DEFINE_QUARK (gp-plot-error-quark, gp_plot_error)

/* Ten colours told apart on screen and in print, none of them grey (the
 * grid, the rules and the text are): Tableau's ten with its grey swapped
 * for black. */
static const guint32 gp_plot_colours[GP_PLOT_PALETTE_N] = {
  0x1f77b4, 0xff7f0e, 0x2ca02c, 0xd62728, 0x9467bd,
  0x8c564b, 0xe377c2, 0x000000, 0xbcbd22, 0x17becf,
};

/* The page's own colours. */
#define GP_PLOT_INK 0x222222    /* text, the frames */
#define GP_PLOT_GRID 0xe4e4e4
#define GP_PLOT_RULE 0x888888   /* rules, notes */
/* A line series with at most this many samples also gets a marker on
 * each: a one-line tegrastats log is one point, not an empty panel. */
#define GP_PLOT_MARKERS_MAX 30
/* What a curve may stray past its frame's top and bottom (px): its line
 * width and a marker's radius. */
#define GP_PLOT_EDGE 4
/* Ticks along a linear axis: about this many. */
#define GP_PLOT_TICKS 6

guint32
gp_plot_palette (guint i)
{
  return gp_plot_colours[i % GP_PLOT_PALETTE_N];
}

/* ------------------------------------------------------------------ */
/* the model                                                            */
/* ------------------------------------------------------------------ */

static void
gp_plot_curve_free (gpointer p)
{
  GpPlotCurve *c = p;

  g_free (c->label);
  g_free (c->what);
  g_free (c->tag);
  g_array_unref (c->x);
  g_array_unref (c->y);
  g_free (c);
}

void
gp_plot_free_panel (gpointer p)
{
  GpPlotPanel *panel = p;

  g_free (panel->title);
  g_free (panel->y_label);
  g_free (panel->x_label);
  g_free (panel->rule_label);
  g_free (panel->legend_note);
  g_ptr_array_unref (panel->curves);
  g_free (panel);
}

GpPlot *
gp_plot_new (const gchar * title)
{
  GpPlot *p = g_new0 (GpPlot, 1);

  p->width = GP_PLOT_WIDTH;
  p->title = g_strdup (title);
  p->panels = g_ptr_array_new_with_free_func (gp_plot_free_panel);
  p->notes = g_ptr_array_new_with_free_func (g_free);
  return p;
}

void
gp_plot_free (GpPlot * p)
{
  if (p == NULL)
    return;
  g_free (p->title);
  g_ptr_array_unref (p->panels);
  g_ptr_array_unref (p->notes);
  g_free (p);
}

GpPlotPanel *
gp_plot_add_panel (GpPlot * p, const gchar * id, const gchar * title,
    const gchar * y_label, gdouble y, gdouble h)
{
  GpPlotPanel *panel = g_new0 (GpPlotPanel, 1);

  panel->id = id;
  panel->title = g_strdup (title);
  panel->y_label = g_strdup (y_label);
  panel->frame.x = GP_PLOT_MARGIN_LEFT;
  panel->frame.y = y;
  panel->frame.w = GP_PLOT_FRAME_W;
  panel->frame.h = h;
  panel->curves = g_ptr_array_new_with_free_func (gp_plot_curve_free);
  panel->y_ticks = TRUE;
  panel->rule = NAN;
  g_ptr_array_add (p->panels, panel);
  return panel;
}

GpPlotCurve *
gp_plot_add_curve (GpPlotPanel * panel, const gchar * what,
    const gchar * label, guint colour, GpPlotStyle style)
{
  GpPlotCurve *c = g_new0 (GpPlotCurve, 1);

  c->what = g_strdup (what);
  c->label = g_strdup (label);
  c->rgb = gp_plot_palette (colour);
  c->style = style;
  c->x = g_array_new (FALSE, FALSE, sizeof (gdouble));
  c->y = g_array_new (FALSE, FALSE, sizeof (gdouble));
  c->limit = NAN;
  g_ptr_array_add (panel->curves, c);
  return c;
}

void
gp_plot_curve_append (GpPlotCurve * c, gdouble x, gdouble y)
{
  g_array_append_val (c->x, x);
  g_array_append_val (c->y, y);
}

void
gp_plot_add_note (GpPlot * p, const gchar * format, ...)
{
  va_list ap;

  va_start (ap, format);
  g_ptr_array_add (p->notes, g_strdup_vprintf (format, ap));
  va_end (ap);
}

GpPlotPanel *
gp_plot_find_panel (const GpPlot * p, const gchar * id)
{
  for (guint i = 0; i < p->panels->len; i++) {
    GpPlotPanel *panel = g_ptr_array_index (p->panels, i);

    if (strcmp (panel->id, id) == 0)
      return panel;
  }
  return NULL;
}

GpPlotCurve *
gp_plot_panel_find_curve (const GpPlotPanel * panel, const gchar * what)
{
  for (guint i = 0; i < panel->curves->len; i++) {
    GpPlotCurve *c = g_ptr_array_index (panel->curves, i);

    if (strcmp (c->what, what) == 0)
      return c;
  }
  return NULL;
}

gdouble
gp_plot_curve_max (const GpPlotCurve * c, gboolean x)
{
  GArray *a = x ? c->x : c->y;
  gdouble max = NAN;

  for (guint i = 0; i < a->len; i++) {
    gdouble v = g_array_index (a, gdouble, i);

    if (isfinite (v) && (isnan (max) || v > max))
      max = v;
  }
  return max;
}

gdouble
gp_plot_nice_step (gdouble x)
{
  gdouble p, f;

  if (!(x > 0) || !isfinite (x))
    return 1;
  p = pow (10, floor (log10 (x)));
  f = x / p;
  /* 1, 2, 5, 10 times the power: the first at or above */
  if (f <= 1.0 + 1e-9)
    return p;
  if (f <= 2)
    return 2 * p;
  if (f <= 5)
    return 5 * p;
  return 10 * p;
}

gdouble
gp_plot_nice_top (gdouble max)
{
  gdouble step;

  if (!(max > 0) || !isfinite (max))
    return 1;
  step = gp_plot_nice_step (max / GP_PLOT_TICKS);
  return ceil (max / step - 1e-9) * step;
}

gchar *
gp_plot_si (gdouble v, const gchar * unit)
{
  static const gchar *const prefixes[] = { "", "k", "M", "G", "T", "P", "E" };
  guint k = 0;

  while (fabs (v) >= 1000 && k + 1 < G_N_ELEMENTS (prefixes)) {
    v /= 1000;
    k++;
  }
  /* a tick a rounding error under 0 is 0, not -0 */
  if (fabs (v) < 1e-9)
    v = 0;
  return g_strdup_printf ("%.4g %s%s", v, prefixes[k], unit);
}

/* ------------------------------------------------------------------ */
/* frames: data to pixels                                               */
/* ------------------------------------------------------------------ */

static gdouble
gp_plot_frame_share (gdouble v, gdouble lo, gdouble hi, gboolean log)
{
  if (log)
    return (log10 (v) - log10 (lo)) / (log10 (hi) - log10 (lo));
  return (v - lo) / (hi - lo);
}

gdouble
gp_plot_frame_px (const GpPlotFrame * f, gdouble x)
{
  return f->x + f->w * gp_plot_frame_share (x, f->x0, f->x1, f->log_x);
}

gdouble
gp_plot_frame_py (const GpPlotFrame * f, gdouble y)
{
  return f->y + f->h * (1 - gp_plot_frame_share (y, f->y0, f->y1,
          f->log_y));
}

gdouble
gp_plot_frame_y_at (const GpPlotFrame * f, gdouble py)
{
  gdouble share = 1 - (py - f->y) / f->h;

  if (f->log_y)
    return pow (10, log10 (f->y0) + share * (log10 (f->y1) -
            log10 (f->y0)));
  return f->y0 + share * (f->y1 - f->y0);
}

/* ------------------------------------------------------------------ */
/* drawing: text, ticks, curves, legends                                */
/* ------------------------------------------------------------------ */

static void
gp_plot_colour (cairo_t * cr, guint32 rgb)
{
  cairo_set_source_rgb (cr, ((rgb >> 16) & 0xff) / 255.0,
      ((rgb >> 8) & 0xff) / 255.0, (rgb & 0xff) / 255.0);
}

static void
gp_plot_font (cairo_t * cr, gdouble size, gboolean bold)
{
  cairo_select_font_face (cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
      bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size (cr, size);
}

/* @text with its anchor at (@x, @y): @ax 0 left, 0.5 centre, 1 right;
 * @ay 0 top, 0.5 middle, 1 baseline. */
static void
gp_plot_text (cairo_t * cr, gdouble x, gdouble y, gdouble ax, gdouble ay,
    const gchar * text)
{
  cairo_text_extents_t te;
  cairo_font_extents_t fe;

  cairo_text_extents (cr, text, &te);
  cairo_font_extents (cr, &fe);
  cairo_move_to (cr, x - ax * te.x_advance,
      y + (1 - ay) * fe.ascent - (ay == 0.5 ? fe.ascent / 2 : 0));
  cairo_show_text (cr, text);
}

/* Whether @n bytes of @text and "..." fit @w px. */
static gboolean
gp_plot_prefix_fits (cairo_t * cr, const gchar * text, gsize n, gdouble w)
{
  cairo_text_extents_t te;
  gchar *s = g_strdup_printf ("%.*s...", (gint) n, text);

  cairo_text_extents (cr, s, &te);
  g_free (s);
  return te.x_advance <= w;
}

/* @text cut with "..." to fit @w px: the longest prefix that fits, found
 * by halving (a launch string of a megabyte is measured some twenty
 * times, not once per character); at least one character is kept. */
static gchar *
gp_plot_fit (cairo_t * cr, const gchar * text, gdouble w)
{
  cairo_text_extents_t te;
  GArray *starts;
  const gchar *p;
  guint lo, hi;
  gchar *fit;

  cairo_text_extents (cr, text, &te);
  if (te.x_advance <= w)
    return g_strdup (text);
  /* where each character starts, and the text's end */
  starts = g_array_new (FALSE, FALSE, sizeof (gsize));
  for (p = text; *p; p = g_utf8_next_char (p)) {
    gsize at = p - text;

    g_array_append_val (starts, at);
  }
  lo = 1;
  hi = starts->len;
  /* invariant: lo characters are kept at least; hi do not fit */
  while (hi - lo > 1) {
    guint mid = lo + (hi - lo) / 2;

    if (gp_plot_prefix_fits (cr, text, g_array_index (starts, gsize, mid), w))
      lo = mid;
    else
      hi = mid;
  }
  fit = lo < starts->len ? g_strdup_printf ("%.*s...",
      (gint) g_array_index (starts, gsize, lo), text) : g_strdup (text);
  g_array_unref (starts);
  return fit;
}

/* A tick's text on a linear axis of step @step. */
static gchar *
gp_plot_tick_text (gdouble v, gdouble step)
{
  gint decimals = step >= 1 ? 0 : (gint) ceil (-log10 (step) - 1e-9);

  if (fabs (v) < step / 1e6)
    v = 0;
  return g_strdup_printf ("%.*f", decimals, v);
}

/* A decade's text: SI with @unit, else a plain number. */
static gchar *
gp_plot_decade_text (gdouble v, const gchar * unit)
{
  if (unit)
    return gp_plot_si (v, unit);
  return g_strdup_printf (v >= 1 ? "%.0f" : "%g", v);
}

/* Positions of the ticks of [lo, hi]: round steps, or decades. */
static GArray *
gp_plot_ticks (gdouble lo, gdouble hi, gboolean log, gdouble * step)
{
  GArray *t = g_array_new (FALSE, FALSE, sizeof (gdouble));

  if (log) {
    for (gdouble e = ceil (log10 (lo) - 1e-9); e <= log10 (hi) + 1e-9; e++) {
      gdouble v = pow (10, e);

      g_array_append_val (t, v);
    }
    *step = 0;
    return t;
  }
  *step = gp_plot_nice_step ((hi - lo) / GP_PLOT_TICKS);
  for (gdouble v = ceil (lo / *step - 1e-9) * *step; v <= hi + *step * 1e-6;
      v += *step)
    g_array_append_val (t, v);
  return t;
}

static void
gp_plot_draw_axes (cairo_t * cr, const GpPlotPanel * panel)
{
  const GpPlotFrame *f = &panel->frame;
  GArray *ticks;
  gdouble step;

  gp_plot_font (cr, 11, FALSE);
  cairo_set_line_width (cr, 1);

  /* x: grid and tick texts under the frame */
  ticks = gp_plot_ticks (f->x0, f->x1, f->log_x, &step);
  for (guint i = 0; i < ticks->len; i++) {
    gdouble v = g_array_index (ticks, gdouble, i);
    gdouble px = round (gp_plot_frame_px (f, v)) + 0.5;
    gchar *text = f->log_x ? gp_plot_decade_text (v, panel->x_unit) :
        panel->x_unit ? gp_plot_si (v, panel->x_unit) :
        gp_plot_tick_text (v, step);

    gp_plot_colour (cr, GP_PLOT_GRID);
    cairo_move_to (cr, px, f->y);
    cairo_line_to (cr, px, f->y + f->h);
    cairo_stroke (cr);
    gp_plot_colour (cr, GP_PLOT_INK);
    gp_plot_text (cr, px, f->y + f->h + 4, 0.5, 0, text);
    g_free (text);
  }
  g_array_unref (ticks);

  /* y: grid and tick texts left of the frame */
  if (panel->y_ticks) {
    ticks = gp_plot_ticks (f->y0, f->y1, f->log_y, &step);
    for (guint i = 0; i < ticks->len; i++) {
      gdouble v = g_array_index (ticks, gdouble, i);
      gdouble py = round (gp_plot_frame_py (f, v)) + 0.5;
      gchar *text = f->log_y ? gp_plot_decade_text (v, panel->y_unit) :
          gp_plot_tick_text (v, step);

      gp_plot_colour (cr, GP_PLOT_GRID);
      cairo_move_to (cr, f->x, py);
      cairo_line_to (cr, f->x + f->w, py);
      cairo_stroke (cr);
      gp_plot_colour (cr, GP_PLOT_INK);
      gp_plot_text (cr, f->x - 5, py, 1, 0.5, text);
      g_free (text);
    }
    g_array_unref (ticks);
  }

  /* the axes' names: y turned along the frame's left, x under it */
  if (panel->y_label) {
    cairo_save (cr);
    cairo_translate (cr, 14, f->y + f->h / 2);
    cairo_rotate (cr, -G_PI / 2);
    gp_plot_text (cr, 0, 0, 0.5, 0.5, panel->y_label);
    cairo_restore (cr);
  }
  if (panel->x_label)
    gp_plot_text (cr, f->x + f->w / 2, f->y + f->h + 19, 0.5, 0,
        panel->x_label);
}

static void
gp_plot_draw_rule (cairo_t * cr, const GpPlotPanel * panel)
{
  const GpPlotFrame *f = &panel->frame;
  static const gdouble dash[] = { 8, 4 };
  gdouble pos;

  if (isnan (panel->rule))
    return;
  gp_plot_colour (cr, GP_PLOT_RULE);
  cairo_set_line_width (cr, 1.5);
  cairo_set_dash (cr, dash, 2, 0);
  gp_plot_font (cr, 11, FALSE);
  if (panel->rule_vertical) {
    pos = gp_plot_frame_px (f, panel->rule);
    cairo_move_to (cr, pos, f->y);
    cairo_line_to (cr, pos, f->y + f->h);
    cairo_stroke (cr);
    if (panel->rule_label)
      gp_plot_text (cr, pos - 4, f->y + 3, 1, 0, panel->rule_label);
  } else {
    pos = gp_plot_frame_py (f, panel->rule);
    cairo_move_to (cr, f->x, pos);
    cairo_line_to (cr, f->x + f->w, pos);
    cairo_stroke (cr);
    /* its name above it, or under it near the top */
    if (panel->rule_label && pos - f->y > 16)
      gp_plot_text (cr, f->x + 4, pos - 3, 0, 1, panel->rule_label);
    else if (panel->rule_label)
      gp_plot_text (cr, f->x + 4, pos + 3, 0, 0, panel->rule_label);
  }
  cairo_set_dash (cr, NULL, 0, 0);
}

/* The limit of @c: dashed, thinner, in its colour. */
static void
gp_plot_draw_limit (cairo_t * cr, const GpPlotFrame * f,
    const GpPlotCurve * c)
{
  static const gdouble dash[] = { 5, 4 };
  gdouble py;

  if (!isfinite (c->limit) || c->limit < f->y0 || c->limit > f->y1)
    return;
  py = gp_plot_frame_py (f, c->limit);
  gp_plot_colour (cr, c->rgb);
  cairo_set_line_width (cr, 1.2);
  cairo_set_dash (cr, dash, 2, 0);
  cairo_move_to (cr, f->x, py);
  cairo_line_to (cr, f->x + f->w, py);
  cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0);
}

static void
gp_plot_marker (cairo_t * cr, gdouble x, gdouble y, GpPlotStyle style)
{
  cairo_new_sub_path (cr);
  cairo_arc (cr, x, y, style == GP_PLOT_RING ? 6 : 4, 0, 2 * G_PI);
  if (style == GP_PLOT_RING) {
    cairo_set_line_width (cr, 2.5);
    cairo_stroke (cr);
  } else {
    cairo_fill (cr);
  }
}

static gboolean
gp_plot_point (const GpPlotFrame * f, const GpPlotCurve * c, guint i,
    gdouble * px, gdouble * py)
{
  gdouble x = g_array_index (c->x, gdouble, i);
  gdouble y = g_array_index (c->y, gdouble, i);

  if (!isfinite (x) || !isfinite (y))
    return FALSE;
  if ((f->log_x && x <= 0) || (f->log_y && y <= 0))
    return FALSE;
  *px = gp_plot_frame_px (f, x);
  *py = gp_plot_frame_py (f, y);
  return TRUE;
}

static void
gp_plot_draw_line (cairo_t * cr, const GpPlotFrame * f,
    const GpPlotCurve * c)
{
  guint n_valid = 0, run = 0;
  gdouble px, py, lx = 0, ly = 0;

  cairo_set_line_width (cr, 2.2);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  for (guint i = 0; i < c->x->len; i++) {
    if (!gp_plot_point (f, c, i, &px, &py)) {
      run = 0;
      continue;
    }
    if (run == 0)
      cairo_move_to (cr, px, py);
    else
      cairo_line_to (cr, px, py);
    run++;
    n_valid++;
  }
  cairo_stroke (cr);
  /* markers on a sparse series, and on a point with no neighbour */
  for (guint i = 0; i < c->x->len; i++) {
    gboolean alone;

    if (!gp_plot_point (f, c, i, &px, &py))
      continue;
    alone = (i == 0 || !gp_plot_point (f, c, i - 1, &lx, &ly)) &&
        (i + 1 == c->x->len || !gp_plot_point (f, c, i + 1, &lx, &ly));
    if (alone || n_valid <= GP_PLOT_MARKERS_MAX)
      gp_plot_marker (cr, px, py, GP_PLOT_MARKER);
  }
}

/* One bar of the row y, from the frame's left to x. */
static void
gp_plot_draw_bar (cairo_t * cr, const GpPlotFrame * f,
    const GpPlotCurve * c)
{
  gdouble row_h = f->h / (f->y1 - f->y0);

  for (guint i = 0; i < c->x->len; i++) {
    gdouble x = g_array_index (c->x, gdouble, i);
    gdouble y = g_array_index (c->y, gdouble, i);
    gdouble px0 = gp_plot_frame_px (f, f->x0);

    if (!isfinite (x) || !isfinite (y))
      continue;
    cairo_rectangle (cr, px0, gp_plot_frame_py (f, y) - row_h * 0.2,
        MAX (gp_plot_frame_px (f, MIN (x, f->x1)) - px0, 1), row_h * 0.4);
    cairo_fill (cr);
  }
}

static void
gp_plot_draw_tag (cairo_t * cr, const GpPlotFrame * f,
    const GpPlotCurve * c)
{
  gdouble px, py;
  cairo_text_extents_t te;
  guint last;

  if (c->tag == NULL || c->x->len == 0)
    return;
  last = c->x->len - 1;
  if (!gp_plot_point (f, c, last, &px, &py))
    return;
  gp_plot_font (cr, 11, FALSE);
  cairo_text_extents (cr, c->tag, &te);
  gp_plot_colour (cr, GP_PLOT_INK);
  if (c->style == GP_PLOT_LINE) {
    /* above the line's end, inside the frame */
    gp_plot_text (cr, MIN (px, f->x + f->w) - 4, py - 4, 1, 1, c->tag);
  } else if (c->style == GP_PLOT_BAR) {
    /* in its row above the bar, from the frame's left */
    gp_plot_text (cr, f->x + 4, py - f->h / (f->y1 - f->y0) * 0.2 - 3, 0,
        1, c->tag);
  } else if (c->style == GP_PLOT_RING) {
    /* a ridge: below the flat roof, right of the slanted one */
    gp_plot_text (cr, px + 8, py + 6, 0, 0, c->tag);
  } else if (px + 10 + te.x_advance > f->x + f->w) {
    gp_plot_text (cr, px - 10, py, 1, 0.5, c->tag);
  } else {
    gp_plot_text (cr, px + 10, py, 0, 0.5, c->tag);
  }
}

static void
gp_plot_draw_curve (cairo_t * cr, const GpPlotFrame * f,
    const GpPlotCurve * c)
{
  gdouble px, py;

  gp_plot_colour (cr, c->rgb);
  switch (c->style) {
    case GP_PLOT_LINE:
      gp_plot_draw_line (cr, f, c);
      break;
    case GP_PLOT_BAR:
      gp_plot_draw_bar (cr, f, c);
      break;
    case GP_PLOT_MARKER:
    case GP_PLOT_RING:
      for (guint i = 0; i < c->x->len; i++)
        if (gp_plot_point (f, c, i, &px, &py))
          gp_plot_marker (cr, px, py, c->style);
      break;
  }
}

static void
gp_plot_draw_legend (cairo_t * cr, const GpPlotPanel * panel)
{
  const GpPlotFrame *f = &panel->frame;
  gdouble x = f->x + f->w + 14, y = f->y + 2;

  gp_plot_font (cr, 11, FALSE);
  for (guint i = 0; i < panel->curves->len; i++) {
    GpPlotCurve *c = g_ptr_array_index (panel->curves, i);
    gchar *text;

    if (c->label == NULL)
      continue;
    if (y + GP_PLOT_LEGEND_LINE > f->y + f->h + GP_PLOT_PANEL_FOOT)
      break;
    gp_plot_colour (cr, c->rgb);
    if (c->style == GP_PLOT_LINE) {
      cairo_set_line_width (cr, 3);
      cairo_move_to (cr, x, y + 7);
      cairo_line_to (cr, x + 22, y + 7);
      cairo_stroke (cr);
    } else if (c->style == GP_PLOT_BAR) {
      cairo_rectangle (cr, x, y + 3, 22, 8);
      cairo_fill (cr);
    } else {
      gp_plot_marker (cr, x + 11, y + 7, c->style);
    }
    gp_plot_colour (cr, GP_PLOT_INK);
    text = gp_plot_fit (cr, c->label, GP_PLOT_LEGEND_W - 44);
    gp_plot_text (cr, x + 28, y + 7, 0, 0.5, text);
    g_free (text);
    y += GP_PLOT_LEGEND_LINE;
  }
  if (panel->n_left_out > 0) {
    gchar *text = g_strdup_printf ("%u more not drawn (past the palette)",
        panel->n_left_out);

    gp_plot_colour (cr, GP_PLOT_RULE);
    gp_plot_text (cr, x + 28, y + 7, 0, 0.5, text);
    g_free (text);
    y += GP_PLOT_LEGEND_LINE;
  }
  if (panel->legend_note) {
    gchar *text = gp_plot_fit (cr, panel->legend_note, GP_PLOT_LEGEND_W -
        16);

    gp_plot_colour (cr, GP_PLOT_RULE);
    gp_plot_text (cr, x, y + 7, 0, 0.5, text);
    g_free (text);
  }
}

static void
gp_plot_draw_panel (cairo_t * cr, const GpPlotPanel * panel)
{
  const GpPlotFrame *f = &panel->frame;

  gp_plot_colour (cr, GP_PLOT_INK);
  gp_plot_font (cr, 13, TRUE);
  gp_plot_text (cr, f->x, f->y - 8, 0, 1, panel->title);
  gp_plot_draw_axes (cr, panel);

  /* clipped to the frame and a line's width around it: a value at 0 or
   * at the top is drawn whole on the frame's edge */
  cairo_save (cr);
  cairo_rectangle (cr, f->x, f->y - GP_PLOT_EDGE, f->w, f->h +
      2 * GP_PLOT_EDGE);
  cairo_clip (cr);
  gp_plot_draw_rule (cr, panel);
  for (guint i = 0; i < panel->curves->len; i++)
    gp_plot_draw_limit (cr, f, g_ptr_array_index (panel->curves, i));
  for (guint i = 0; i < panel->curves->len; i++)
    gp_plot_draw_curve (cr, f, g_ptr_array_index (panel->curves, i));
  for (guint i = 0; i < panel->curves->len; i++)
    gp_plot_draw_tag (cr, f, g_ptr_array_index (panel->curves, i));
  cairo_restore (cr);

  gp_plot_colour (cr, GP_PLOT_INK);
  cairo_set_line_width (cr, 1);
  cairo_rectangle (cr, round (f->x) + 0.5, round (f->y) + 0.5,
      round (f->w), round (f->h));
  cairo_stroke (cr);
  gp_plot_draw_legend (cr, panel);
}

/* The page: white, the title, the panels, the notes. */
static void
gp_plot_render (cairo_t * cr, const GpPlot * p)
{
  gdouble y = 0;
  gchar *title;

  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  gp_plot_colour (cr, GP_PLOT_INK);
  gp_plot_font (cr, 16, TRUE);
  title = gp_plot_fit (cr, p->title, p->width - GP_PLOT_MARGIN_LEFT -
      GP_PLOT_MARGIN_RIGHT);
  gp_plot_text (cr, GP_PLOT_MARGIN_LEFT, 14, 0, 0, title);
  g_free (title);
  for (guint i = 0; i < p->panels->len; i++) {
    GpPlotPanel *panel = g_ptr_array_index (p->panels, i);

    gp_plot_draw_panel (cr, panel);
    y = MAX (y, panel->frame.y + panel->frame.h + GP_PLOT_PANEL_FOOT);
  }
  gp_plot_font (cr, 11, FALSE);
  gp_plot_colour (cr, GP_PLOT_INK);
  for (guint i = 0; i < p->notes->len; i++) {
    gchar *text = gp_plot_fit (cr, g_ptr_array_index (p->notes, i),
        p->width - GP_PLOT_MARGIN_LEFT - GP_PLOT_MARGIN_RIGHT);

    gp_plot_text (cr, GP_PLOT_MARGIN_LEFT, y + 4 + i * GP_PLOT_NOTE_LINE,
        0, 0, text);
    g_free (text);
  }
}

/* ------------------------------------------------------------------ */
/* the file                                                             */
/* ------------------------------------------------------------------ */

static gboolean
gp_plot_format (const gchar * path, GpPlotFormat * format, GError ** error)
{
  gchar *lower = g_ascii_strdown (path, -1);
  gboolean ok = TRUE;

  if (g_str_has_suffix (lower, ".png"))
    *format = GP_PLOT_PNG;
  else if (g_str_has_suffix (lower, ".svg"))
    *format = GP_PLOT_SVG;
  else {
    g_set_error (error, GP_PLOT_ERROR, GP_PLOT_ERROR_FORMAT,
        "%s: cannot tell the picture's format (name it .png or .svg)", path);
    ok = FALSE;
  }
  g_free (lower);
  return ok;
}

gboolean
gp_plot_check_path (const gchar * path, GError ** error)
{
  GpPlotFormat format;

  return gp_plot_format (path, &format, error);
}

static cairo_status_t
gp_plot_append (void *closure, const unsigned char *data, unsigned int len)
{
  g_byte_array_append (closure, data, len);
  return CAIRO_STATUS_SUCCESS;
}

GBytes *
gp_plot_draw (const GpPlot * p, GpPlotFormat format, GError ** error)
{
  GByteArray *bytes = g_byte_array_new ();
  cairo_surface_t *surface;
  cairo_status_t status;
  cairo_t *cr;

  if (format == GP_PLOT_SVG)
    surface = cairo_svg_surface_create_for_stream (gp_plot_append, bytes,
        p->width, p->height);
  else
    surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, p->width,
        p->height);
  cr = cairo_create (surface);
  gp_plot_render (cr, p);
  status = cairo_status (cr);
  cairo_destroy (cr);
  if (status == CAIRO_STATUS_SUCCESS && format == GP_PLOT_PNG)
    status = cairo_surface_write_to_png_stream (surface, gp_plot_append,
        bytes);
  cairo_surface_finish (surface);
  if (status == CAIRO_STATUS_SUCCESS)
    status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);
  if (status != CAIRO_STATUS_SUCCESS) {
    g_set_error (error, GP_PLOT_ERROR, GP_PLOT_ERROR_IO,
        "cairo cannot draw the picture: %s", cairo_status_to_string (status));
    g_byte_array_unref (bytes);
    return NULL;
  }
  return g_byte_array_free_to_bytes (bytes);
}

gboolean
gp_plot_write (const GpPlot * p, const gchar * path, GError ** error)
{
  GpPlotFormat format;
  GBytes *bytes;
  gboolean ok;

  if (!gp_plot_format (path, &format, error))
    return FALSE;
  bytes = gp_plot_draw (p, format, error);
  if (bytes == NULL) {
    g_prefix_error (error, "%s: ", path);
    return FALSE;
  }
  ok = gp_atomic_file_write (path, g_bytes_get_data (bytes, NULL),
      g_bytes_get_size (bytes), error);
  g_bytes_unref (bytes);
  return ok;
}

gboolean
gp_plot_machine (const GpMachine * m, const GpSession * s,
    const gchar * path, GError ** error)
{
  GpPlot *p;
  gboolean ok;

  if (!gp_plot_check_path (path, error))
    return FALSE;
  p = gp_plot_machine_layout (m, s, error);
  if (p == NULL)
    return FALSE;
  ok = gp_plot_write (p, path, error);
  gp_plot_free (p);
  return ok;
}

gboolean
gp_plot_roofline (const GpRoofline * r, const gchar * path, GError ** error)
{
  GpPlot *p;
  gboolean ok;

  if (!gp_plot_check_path (path, error))
    return FALSE;
  p = gp_plot_roofline_layout (r, error);
  if (p == NULL)
    return FALSE;
  ok = gp_plot_write (p, path, error);
  gp_plot_free (p);
  return ok;
}
