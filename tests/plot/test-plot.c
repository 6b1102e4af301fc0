/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof tests
 *
 * test-plot.c: the pictures of src/plot, read back. A PNG is loaded by
 * cairo: its size is the layout's, it is not blank, and every curve's
 * colour is at the pixels its values map to (where no later curve covers
 * them); the values read back from the pixels are the ones read by hand
 * from the fixtures (tegrastats, nvidia-smi dmon and --query-gpu, real
 * outputs in GP_FIXTURES/telemetry) and the planted truths of a real
 * capture (identity sleep-time=4000 is 4 ms per buffer, the sink's clock
 * 30 buffers/s). An SVG parses as XML (GMarkup) with the page's size, a
 * path stroked in each curve's colour and a glyph per character of the
 * legend. The roofline's roofs, ridges, points and bars are at their
 * places. `gstprof plot` end to end, and its refusals: exit 3, one line.
 */
#include <math.h>
#include <string.h>

#include <cairo.h>
#include <glib/gstdio.h>

#include "core/gp-session.h"
#include "plot/gp-plot.h"
#include "telemetry/gp-telemetry.h"
#include "gp-test-fixtures.h"
#include "gp-test-util.h"

static gchar *gp_tmp;

/* A pixel is a curve's colour when each channel is this close (a line's
 * core is the colour itself; its antialiased rim is not counted). */
#define GP_PLOT_TEST_NEAR 24
/* Rows and columns around a value's pixel where its colour is looked
 * for: a line 2.2 px wide, a marker of radius 4. */
#define GP_PLOT_TEST_REACH 3
/* A curve hidden under a later one: the later line passes this close. */
#define GP_PLOT_TEST_COVERED 4.0
/* Values read back from pixels: a pixel of a 170 px frame is 0.6 % of
 * its range; two of them, and the line's width. */
#define GP_PLOT_TEST_PIXELS 2.5
/* A picture with curves has at least this share of non-white pixels. */
#define GP_PLOT_TEST_INKED 0.02

/* the planted cost and the rate the sink's clock holds */
#define GP_PLOT_TEST_SLEEP_MS 4.0
#define GP_PLOT_TEST_FPS 30.0
/* a self time this close to the planted sleep is the sleep: the curve is
 * a window's mean (self_ms / buffers), and one buffer of a 7-buffer window
 * that oversleeps by a few milliseconds moves it more than it moves a run's
 * median (5.25 ms seen at mid-run on a 2-core machine); a window's rate
 * this close to the clock's (a 250 ms window holds 7 or 8 frames of 30/1) */
#define GP_PLOT_TEST_SLEEP_TOLERANCE_MS 1.5
#define GP_PLOT_TEST_FPS_TOLERANCE 4.5
#define GP_PLOT_TEST_LAUNCH "videotestsrc num-buffers=90 ! " \
  "video/x-raw,width=160,height=120,framerate=30/1 ! " \
  "identity name=slow sleep-time=4000 ! fakesink sync=true"

/* ------------------------------------------------------------------ */
/* inputs                                                               */
/* ------------------------------------------------------------------ */

/* GP_FIXTURES/telemetry/@name, or NULL with the test skipped when the
 * fixtures are not there. */
static gchar *
gp_plot_test_fixture (const gchar * name)
{
  return gp_test_fixture_path ("telemetry", name);
}

/* The session of GP_PLOT_TEST_LAUNCH under `gstprof run --out`, run once. */
static const gchar *
gp_plot_test_run_dir (void)
{
  return gp_test_run_once (gp_tmp, GP_PLOT_TEST_LAUNCH);
}

static GpSession *
gp_plot_test_session (void)
{
  return gp_test_load_session_dir (gp_plot_test_run_dir ());
}

static gchar *
gp_plot_test_path (const gchar * name)
{
  return g_build_filename (gp_tmp, name, NULL);
}

/* ------------------------------------------------------------------ */
/* the PNG read back                                                    */
/* ------------------------------------------------------------------ */

typedef struct
{
  cairo_surface_t *surface;
  const guint8 *data;
  gint width, height, stride;
} GpPlotTestImage;

static void
gp_plot_test_image_load (GpPlotTestImage * img, const gchar * path)
{
  img->surface = cairo_image_surface_create_from_png (path);
  g_assert_cmpint (cairo_surface_status (img->surface), ==,
      CAIRO_STATUS_SUCCESS);
  cairo_surface_flush (img->surface);
  img->data = cairo_image_surface_get_data (img->surface);
  img->width = cairo_image_surface_get_width (img->surface);
  img->height = cairo_image_surface_get_height (img->surface);
  img->stride = cairo_image_surface_get_stride (img->surface);
}

static guint32
gp_plot_test_pixel (const GpPlotTestImage * img, gint x, gint y)
{
  return *(const guint32 *) (img->data + y * img->stride + x * 4) &
      0xffffff;
}

static gboolean
gp_plot_test_near (guint32 a, guint32 b)
{
  for (guint shift = 0; shift <= 16; shift += 8) {
    gint ca = (a >> shift) & 0xff, cb = (b >> shift) & 0xff;

    if (ABS (ca - cb) > GP_PLOT_TEST_NEAR)
      return FALSE;
  }
  return TRUE;
}

/* Whether @rgb is within @reach px of (@px, @py). */
static gboolean
gp_plot_test_colour_at (const GpPlotTestImage * img, guint32 rgb,
    gdouble px, gdouble py, gint reach)
{
  for (gint y = (gint) py - reach; y <= (gint) py + reach; y++)
    for (gint x = (gint) px - reach; x <= (gint) px + reach; x++)
      if (x >= 0 && y >= 0 && x < img->width && y < img->height &&
          gp_plot_test_near (gp_plot_test_pixel (img, x, y), rgb))
        return TRUE;
  return FALSE;
}

/* The share of pixels that are not white. */
static gdouble
gp_plot_test_inked (const GpPlotTestImage * img)
{
  guint64 n = 0;

  for (gint y = 0; y < img->height; y++)
    for (gint x = 0; x < img->width; x++)
      n += gp_plot_test_pixel (img, x, y) != 0xffffff;
  return (gdouble) n / ((gdouble) img->width * img->height);
}

static gdouble
gp_plot_test_segment_distance (gdouble px, gdouble py, gdouble ax,
    gdouble ay, gdouble bx, gdouble by)
{
  gdouble dx = bx - ax, dy = by - ay, len2 = dx * dx + dy * dy;
  gdouble u = len2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / len2 : 0;

  u = CLAMP (u, 0, 1);
  return hypot (px - (ax + u * dx), py - (ay + u * dy));
}

/* Whether a curve drawn after curve @k of @panel passes over (@px, @py). */
static gboolean
gp_plot_test_covered (const GpPlotPanel * panel, guint k, gdouble px,
    gdouble py)
{
  const GpPlotFrame *f = &panel->frame;

  for (guint j = k + 1; j < panel->curves->len; j++) {
    GpPlotCurve *c = g_ptr_array_index (panel->curves, j);
    gboolean have_last = FALSE;
    gdouble lx = 0, ly = 0;

    for (guint i = 0; i < c->x->len; i++) {
      gdouble x = g_array_index (c->x, gdouble, i);
      gdouble y = g_array_index (c->y, gdouble, i);
      gdouble cx, cy;

      if (!isfinite (x) || !isfinite (y)) {
        have_last = FALSE;
        continue;
      }
      cx = gp_plot_frame_px (f, x);
      cy = gp_plot_frame_py (f, y);
      if (hypot (cx - px, cy - py) < GP_PLOT_TEST_COVERED + 4 ||
          (have_last && c->style == GP_PLOT_LINE &&
              gp_plot_test_segment_distance (px, py, lx, ly, cx, cy) <
              GP_PLOT_TEST_COVERED))
        return TRUE;
      lx = cx;
      ly = cy;
      have_last = TRUE;
    }
  }
  return FALSE;
}

/* Every curve of every panel of @p (lines and markers) has its colour at
 * each of its points inside the frame that no later curve covers, and
 * at least one such point. */
static void
gp_plot_test_assert_curves (const GpPlot * p, const GpPlotTestImage * img)
{
  for (guint n = 0; n < p->panels->len; n++) {
    GpPlotPanel *panel = g_ptr_array_index (p->panels, n);
    const GpPlotFrame *f = &panel->frame;

    for (guint k = 0; k < panel->curves->len; k++) {
      GpPlotCurve *c = g_ptr_array_index (panel->curves, k);
      guint seen = 0, checked = 0;

      if (c->style == GP_PLOT_BAR)
        continue;
      for (guint i = 0; i < c->x->len; i++) {
        gdouble x = g_array_index (c->x, gdouble, i);
        gdouble y = g_array_index (c->y, gdouble, i);
        gdouble px, py;

        if (!isfinite (x) || !isfinite (y) || x < f->x0 || x > f->x1 ||
            y < f->y0 || y > f->y1)
          continue;
        px = gp_plot_frame_px (f, x);
        py = gp_plot_frame_py (f, y);
        /* a line's end at the frame's right edge is half drawn */
        px = MIN (px, f->x + f->w - 2);
        if (gp_plot_test_covered (panel, k, px, py))
          continue;
        checked++;
        if (gp_plot_test_colour_at (img, c->rgb, px, py,
                GP_PLOT_TEST_REACH))
          seen++;
        else
          g_test_message ("%s: %s: no #%06x at %.0f,%.0f (%g, %g)",
              panel->id, c->what, c->rgb, px, py, x, y);
      }
      g_test_message ("%s: %s: #%06x seen at %u of %u points", panel->id,
          c->what, c->rgb, seen, checked);
      g_assert_cmpuint (seen, ==, checked);
    }
  }
}

/* The value curve @c's pixels say at data x @x: the middle of the rows
 * of its colour in that column of @f (NAN when none). */
static gdouble
gp_plot_test_read_value (const GpPlotTestImage * img, const GpPlotFrame * f,
    const GpPlotCurve * c, gdouble x)
{
  /* off the frame's border, which is drawn over the curves */
  gint px = (gint) CLAMP (gp_plot_frame_px (f, x), f->x + 3,
      f->x + f->w - 3);
  gint lo = -1, hi = -1;

  for (gint y = (gint) f->y - 3; y <= (gint) (f->y + f->h) + 3; y++)
    if (gp_plot_test_near (gp_plot_test_pixel (img, px, y), c->rgb)) {
      if (lo < 0)
        lo = y;
      hi = y;
    }
  if (lo < 0)
    return NAN;
  return gp_plot_frame_y_at (f, (lo + hi + 1) / 2.0);
}

/* The value curve @what of panel @panel_id shows at @x is @want, within
 * the pixels' precision and @measured (a measurement's own spread; 0 for
 * a value printed in a log). */
static void
gp_plot_test_assert_read_within (const GpPlotTestImage * img,
    const GpPlot * p, const gchar * panel_id, const gchar * what, gdouble x,
    gdouble want, gdouble measured)
{
  GpPlotPanel *panel = gp_plot_find_panel (p, panel_id);
  GpPlotCurve *c;
  gdouble got, tol;

  g_assert_nonnull (panel);
  c = gp_plot_panel_find_curve (panel, what);
  if (c == NULL)
    g_error ("no curve %s in panel %s", what, panel_id);
  got = gp_plot_test_read_value (img, &panel->frame, c, x);
  tol = GP_PLOT_TEST_PIXELS * (panel->frame.y1 - panel->frame.y0) /
      panel->frame.h + measured;
  g_test_message ("%s %s at %g s: %.3f from the pixels, %.3f the truth",
      panel_id, what, x, got, want);
  g_assert_cmpfloat_with_epsilon (got, want, tol);
}

static void
gp_plot_test_assert_read (const GpPlotTestImage * img, const GpPlot * p,
    const gchar * panel_id, const gchar * what, gdouble x, gdouble want)
{
  gp_plot_test_assert_read_within (img, p, panel_id, what, x, want, 0);
}

/* @p written as PNG, read back: the layout's size, inked, every curve
 * drawn. The image is the caller's. */
static void
gp_plot_test_png (const GpPlot * p, const gchar * name, GpPlotTestImage * img)
{
  gchar *path = gp_plot_test_path (name);
  GError *err = NULL;

  g_assert_true (gp_plot_write (p, path, &err));
  g_assert_no_error (err);
  gp_plot_test_image_load (img, path);
  g_assert_cmpint (img->width, ==, p->width);
  g_assert_cmpint (img->height, ==, p->height);
  g_assert_cmpfloat (gp_plot_test_inked (img), >, GP_PLOT_TEST_INKED);
  gp_plot_test_assert_curves (p, img);
  g_free (path);
}

/* ------------------------------------------------------------------ */
/* the SVG read back                                                    */
/* ------------------------------------------------------------------ */

typedef struct
{
  guint n_svg, n_glyph_uses;
  gdouble width, height;
  GHashTable *strokes;          /* a stroked path's 0xRRGGBB + 1: count */
} GpPlotTestSvg;

/* "rgb(R%,G%,B%)" (cairo 1.16's style) or "rgb(R%, G%, B%)" (1.18's
 * attribute) at @text as 0xRRGGBB; -1 when it is not one. */
static gint64
gp_plot_test_svg_rgb (const gchar * text)
{
  guint32 rgb = 0;
  const gchar *p = text + strlen ("rgb(");

  if (!g_str_has_prefix (text, "rgb("))
    return -1;
  for (guint i = 0; i < 3; i++) {
    gchar *end;
    gdouble pct;

    while (*p == ' ' || *p == ',')
      p++;
    pct = g_ascii_strtod (p, &end);
    if (end == p || *end != '%')
      return -1;
    rgb = (rgb << 8) | (guint32) lround (pct * 2.55);
    p = end + 1;
  }
  return rgb;
}

static void
gp_plot_test_svg_stroke (GpPlotTestSvg * svg, const gchar * colour)
{
  gint64 rgb = gp_plot_test_svg_rgb (colour);
  gpointer key;

  g_assert_cmpint (rgb, >=, 0);
  key = GUINT_TO_POINTER ((guint) rgb + 1);
  g_hash_table_insert (svg->strokes, key, GUINT_TO_POINTER
      (GPOINTER_TO_UINT (g_hash_table_lookup (svg->strokes, key)) + 1));
}

static void
gp_plot_test_svg_start (GMarkupParseContext * ctx, const gchar * element,
    const gchar ** names, const gchar ** values, gpointer data,
    GError ** error)
{
  GpPlotTestSvg *svg = data;

  for (guint i = 0; names[i]; i++) {
    if (strcmp (element, "svg") == 0 && strcmp (names[i], "width") == 0)
      svg->width = g_ascii_strtod (values[i], NULL);
    if (strcmp (element, "svg") == 0 && strcmp (names[i], "height") == 0)
      svg->height = g_ascii_strtod (values[i], NULL);
    if (strcmp (element, "use") == 0 && strcmp (names[i], "xlink:href") == 0
        && g_str_has_prefix (values[i], "#glyph"))
      svg->n_glyph_uses++;
    if (strcmp (element, "path") != 0)
      continue;
    /* cairo 1.16 strokes in a style, 1.18 in an attribute */
    if (strcmp (names[i], "style") == 0 && strstr (values[i], "stroke:rgb("))
      gp_plot_test_svg_stroke (svg, strstr (values[i], "stroke:rgb(") + 7);
    if (strcmp (names[i], "stroke") == 0)
      gp_plot_test_svg_stroke (svg, values[i]);
  }
  svg->n_svg += strcmp (element, "svg") == 0;
}

static guint
gp_plot_test_glyphs (const gchar * text)
{
  guint n = 0;

  for (const gchar * c = text; *c; c = g_utf8_next_char (c))
    n += !g_unichar_isspace (g_utf8_get_char (c));
  return n;
}

/* The paths cairo strokes in @c's colour: its line (one path, gaps and
 * all), each ring, its limit where the frame shows it, its legend swatch
 * (a line's or a ring's). Filled markers and bars are not strokes. */
static guint
gp_plot_test_strokes (const GpPlotPanel * panel, const GpPlotCurve * c)
{
  const GpPlotFrame *f = &panel->frame;
  guint n = 0;

  if (c->style == GP_PLOT_LINE)
    n++;
  if (c->style == GP_PLOT_RING)
    n += c->x->len;
  if (c->label && (c->style == GP_PLOT_LINE || c->style == GP_PLOT_RING))
    n++;
  if (isfinite (c->limit) && c->limit >= f->y0 && c->limit <= f->y1)
    n++;
  return n;
}

/* @path parses as XML, one svg of @p's size, as many paths stroked in
 * each palette colour as its curves stroke, and at least a glyph per
 * character of the title and the panels' titles. */
static void
gp_plot_test_assert_svg (const GpPlot * p, const gchar * path)
{
  GMarkupParser parser = { gp_plot_test_svg_start, NULL, NULL, NULL, NULL };
  GpPlotTestSvg svg = { 0 };
  GMarkupParseContext *ctx;
  GError *err = NULL;
  gchar *text;
  gsize len;
  guint want_glyphs = gp_plot_test_glyphs (p->title);
  /* colour + 1 (black is 0): count */
  GHashTable *want_strokes = g_hash_table_new (NULL, NULL);
  GHashTableIter it;
  gpointer key, value;

  g_assert_true (g_file_get_contents (path, &text, &len, &err));
  g_assert_no_error (err);
  svg.strokes = g_hash_table_new (NULL, NULL);
  ctx = g_markup_parse_context_new (&parser, 0, &svg, NULL);
  g_assert_true (g_markup_parse_context_parse (ctx, text, len, &err));
  g_assert_no_error (err);
  g_assert_true (g_markup_parse_context_end_parse (ctx, &err));
  g_assert_no_error (err);
  g_markup_parse_context_free (ctx);
  g_assert_cmpuint (svg.n_svg, ==, 1);
  g_assert_cmpfloat (svg.width, ==, p->width);
  g_assert_cmpfloat (svg.height, ==, p->height);
  for (guint n = 0; n < p->panels->len; n++) {
    GpPlotPanel *panel = g_ptr_array_index (p->panels, n);

    want_glyphs += gp_plot_test_glyphs (panel->title);
    for (guint k = 0; k < panel->curves->len; k++) {
      GpPlotCurve *c = g_ptr_array_index (panel->curves, k);
      gpointer colour = GUINT_TO_POINTER (c->rgb + 1);

      g_hash_table_insert (want_strokes, colour,
          GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup
                  (want_strokes, colour)) + gp_plot_test_strokes (panel,
                  c)));
    }
  }
  g_hash_table_iter_init (&it, want_strokes);
  while (g_hash_table_iter_next (&it, &key, &value)) {
    guint got = GPOINTER_TO_UINT (g_hash_table_lookup (svg.strokes, key));

    g_test_message ("%u paths stroked #%06x, %u curves' lines, rings, "
        "limits and legend swatches", got, GPOINTER_TO_UINT (key) - 1,
        GPOINTER_TO_UINT (value));
    g_assert_cmpuint (got, ==, GPOINTER_TO_UINT (value));
  }
  g_hash_table_unref (want_strokes);
  g_test_message ("%u glyphs drawn, %u characters in the title, panel "
      "titles", svg.n_glyph_uses, want_glyphs);
  g_assert_cmpuint (svg.n_glyph_uses, >=, want_glyphs);
  g_hash_table_unref (svg.strokes);
  g_free (text);
}

/* ------------------------------------------------------------------ */
/* tests: telemetry logs                                                */
/* ------------------------------------------------------------------ */

/* Every tegrastats fixture (JetPack 4 to 7): each series drawn. */
static void
test_plot_tegrastats_all (void)
{
  gchar *dir = gp_test_fixture_path ("telemetry", NULL);
  GDir *d;
  const gchar *name;
  guint n = 0;

  if (dir == NULL)
    return;
  d = g_dir_open (dir, 0, NULL);
  while ((name = g_dir_read_name (d)) != NULL) {
    GpPlotTestImage img;
    GpMachine *m;
    GpPlot *p;
    GError *err = NULL;

    if (!g_str_has_prefix (name, "tegrastats_"))
      continue;
    g_test_message ("%s", name);
    m = gp_test_fixture_machine (name);
    p = gp_plot_machine_layout (m, NULL, &err);
    g_assert_no_error (err);
    /* every board prints a CPU load */
    g_assert_nonnull (gp_plot_find_panel (p, GP_PLOT_PANEL_UTIL));
    g_assert_nonnull (gp_plot_panel_find_curve (gp_plot_find_panel (p,
                GP_PLOT_PANEL_UTIL), "cpu.load/all"));
    gp_plot_test_png (p, "tegrastats.png", &img);
    cairo_surface_destroy (img.surface);
    gp_plot_free (p);
    gp_machine_free (m);
    n++;
  }
  g_dir_close (d);
  g_free (dir);
  g_assert_cmpuint (n, >=, 10);
}

/* AGX Orin with NVENC busy: the values the pixels say are the ones read
 * by hand from its two lines (NVENC 79 % then 78 %, VIC 36 % then 32 %,
 * EMC 3 %, tj 52.562 C then 52.343 C, VIN_SYS_5V0 4707 mW then 4607 mW);
 * the idle engines named in the legend, not drawn. */
static void
test_plot_tegrastats_values (void)
{
  GpMachine *m =
      gp_test_fixture_machine ("tegrastats_agx_orin64_r36.4.4_"
          "nvenc_active.txt");
  GpPlotTestImage img;
  GpPlotPanel *util;
  GError *err = NULL;
  GpPlot *p;

  if (m == NULL)
    return;
  p = gp_plot_machine_layout (m, NULL, &err);
  g_assert_no_error (err);
  gp_plot_test_png (p, "orin.png", &img);
  gp_plot_test_assert_read (&img, p, GP_PLOT_PANEL_UTIL,
      "engine.load/NVENC", 0, 79);
  gp_plot_test_assert_read (&img, p, GP_PLOT_PANEL_UTIL,
      "engine.load/NVENC", 1, 78);
  gp_plot_test_assert_read (&img, p, GP_PLOT_PANEL_UTIL,
      "engine.load/VIC", 0, 36);
  gp_plot_test_assert_read (&img, p, GP_PLOT_PANEL_UTIL,
      "engine.load/VIC", 1, 32);
  gp_plot_test_assert_read (&img, p, GP_PLOT_PANEL_UTIL,
      "membw.load/emc", 0.5, 3);
  gp_plot_test_assert_read (&img, p, GP_PLOT_PANEL_TEMP, "temp/tj", 0,
      52.562);
  gp_plot_test_assert_read (&img, p, GP_PLOT_PANEL_TEMP, "temp/tj", 1,
      52.343);
  gp_plot_test_assert_read (&img, p, GP_PLOT_PANEL_POWER,
      "power/VIN_SYS_5V0", 0, 4.707);
  gp_plot_test_assert_read (&img, p, GP_PLOT_PANEL_POWER,
      "power/VIN_SYS_5V0", 1, 4.607);
  util = gp_plot_find_panel (p, GP_PLOT_PANEL_UTIL);
  g_assert_null (gp_plot_panel_find_curve (util, "engine.load/NVDEC"));
  g_assert_nonnull (strstr (util->legend_note, "NVDEC"));
  g_assert_cmpfloat (util->rule, ==, GP_PLOT_SATURATION_PCT);
  /* no session: its panels are named as absent */
  g_assert_null (gp_plot_find_panel (p, GP_PLOT_PANEL_ELEMENTS));
  g_assert_cmpuint (p->notes->len, >=, 1);
  g_assert_nonnull (strstr (g_ptr_array_index (p->notes, 0), "No session"));
  cairo_surface_destroy (img.surface);
  gp_plot_free (p);
  gp_machine_free (m);
}

/* nvidia-smi: dmon (T4: gtemp 41 41 40 C, pwr 15 W, pclk 300 and mclk
 * 405 MHz) and a --query-gpu loop (2017: utilization.gpu 70 % then 68 %,
 * utilization.memory 32 %, temperature.gpu 67 C). */
static void
test_plot_nvsmi (void)
{
  GpMachine *m =
      gp_test_fixture_machine ("nvidia_smi_dmon_t4_default_drv535.txt");
  GpPlotTestImage img;
  GError *err = NULL;
  GpPlot *p;

  if (m == NULL)
    return;
  p = gp_plot_machine_layout (m, NULL, &err);
  g_assert_no_error (err);
  gp_plot_test_png (p, "dmon.png", &img);
  gp_plot_test_assert_read (&img, p, GP_PLOT_PANEL_TEMP, "temp/gpu0", 0, 41);
  gp_plot_test_assert_read (&img, p, GP_PLOT_PANEL_TEMP, "temp/gpu0", 2, 40);
  gp_plot_test_assert_read (&img, p, GP_PLOT_PANEL_POWER, "power/0", 1, 15);
  gp_plot_test_assert_read (&img, p, GP_PLOT_PANEL_CLOCKS, "gpu.freq/0", 1,
      300);
  gp_plot_test_assert_read (&img, p, GP_PLOT_PANEL_CLOCKS, "mem.freq/0", 1,
      405);
  cairo_surface_destroy (img.surface);
  gp_plot_free (p);
  gp_machine_free (m);

  m = gp_test_fixture_machine
      ("nvidia_smi_query_legacy_2017_throttle_reasons_timestamped.txt");
  p = gp_plot_machine_layout (m, NULL, &err);
  g_assert_no_error (err);
  gp_plot_test_png (p, "query.png", &img);
  gp_plot_test_assert_read (&img, p, GP_PLOT_PANEL_UTIL, "gpu.load/0", 0,
      70);
  gp_plot_test_assert_read (&img, p, GP_PLOT_PANEL_UTIL, "membw.load/0", 0,
      32);
  gp_plot_test_assert_read (&img, p, GP_PLOT_PANEL_TEMP, "temp/gpu0", 0, 67);
  {
    GpPlotCurve *c = gp_plot_panel_find_curve (gp_plot_find_panel (p,
            GP_PLOT_PANEL_UTIL), "gpu.load/0");
    gdouble t1 = g_array_index (c->x, gdouble, 1);

    /* its own timestamps: 19:58:44.615 after 19:58:43.613 */
    g_assert_cmpfloat_with_epsilon (t1, 1.002, 0.01);
    gp_plot_test_assert_read (&img, p, GP_PLOT_PANEL_UTIL, "gpu.load/0", t1,
        68);
  }
  cairo_surface_destroy (img.surface);
  gp_plot_free (p);
  gp_machine_free (m);
}

/* The picture of a log as SVG: XML, the page's size, every curve
 * stroked, the text there. */
static void
test_plot_svg (void)
{
  GpMachine *m =
      gp_test_fixture_machine ("tegrastats_agx_orin64_r36.4.4_"
          "nvenc_active.txt");
  gchar *path = gp_plot_test_path ("orin.svg");
  GError *err = NULL;
  GpPlot *p;

  if (m == NULL)
    return;
  p = gp_plot_machine_layout (m, NULL, &err);
  g_assert_no_error (err);
  g_assert_true (gp_plot_write (p, path, &err));
  g_assert_no_error (err);
  gp_plot_test_assert_svg (p, path);
  gp_plot_free (p);
  gp_machine_free (m);
  g_free (path);
}

/* ------------------------------------------------------------------ */
/* tests: a real session                                                */
/* ------------------------------------------------------------------ */

/* A capture's element and link panels: the identity's 4 ms per buffer
 * and the sink's 30 buffers/s, read back from the pixels in the middle
 * of the run; the links of that one rate drawn once. */
static void
test_plot_session (void)
{
  GpSession *s = gp_plot_test_session ();
  GpPlotTestImage img;
  GpPlotPanel *elements, *links;
  GpPlotCurve *slow, *link;
  GError *err = NULL;
  gdouble mid;
  GpPlot *p;

  p = gp_plot_machine_layout (NULL, s, &err);
  g_assert_no_error (err);
  elements = gp_plot_find_panel (p, GP_PLOT_PANEL_ELEMENTS);
  links = gp_plot_find_panel (p, GP_PLOT_PANEL_LINKS);
  g_assert_nonnull (elements);
  g_assert_nonnull (links);
  slow = gp_plot_panel_find_curve (elements, "element slow");
  g_assert_nonnull (slow);
  /* the planted cost is the most self time: the first curve */
  g_assert_true (slow == g_ptr_array_index (elements->curves, 0));
  /* one rate through the whole chain: one line */
  g_assert_cmpuint (links->curves->len, ==, 1);
  link = g_ptr_array_index (links->curves, 0);
  g_assert_nonnull (strstr (link->label, "links)"));

  gp_plot_test_png (p, "session.png", &img);
  mid = s->duration_s / 2;
  gp_plot_test_assert_read_within (&img, p, GP_PLOT_PANEL_ELEMENTS,
      "element slow", mid, GP_PLOT_TEST_SLEEP_MS,
      GP_PLOT_TEST_SLEEP_TOLERANCE_MS);
  gp_plot_test_assert_read_within (&img, p, GP_PLOT_PANEL_LINKS, link->what,
      mid, GP_PLOT_TEST_FPS, GP_PLOT_TEST_FPS_TOLERANCE);
  cairo_surface_destroy (img.surface);
  gp_plot_free (p);
  gp_session_free (s);
}

/* ------------------------------------------------------------------ */
/* tests: the roofline                                                  */
/* ------------------------------------------------------------------ */

/* A roofline of two roofs (100 and 10 TOPS) on 200 GB/s: the ridges at
 * 500 and 50 ops/B ringed there, the memory roof through 200 GOPS at 1
 * op/B, the points at their places, the bytes-only point a bar as long
 * as its bandwidth (50 GB/s: a quarter of the roof). */
static void
test_plot_roofline (void)
{
  GpRoofline *r = gp_roofline_new ("a test accelerator", 200e9,
      "LPDDR5 200 GB/s");
  GpRooflinePoint *pt;
  GpPlotTestImage img;
  GpPlotPanel *chart, *bars;
  GpPlotCurve *c;
  GError *err = NULL;
  gchar *svg = gp_plot_test_path ("roofline.svg");
  GpPlot *p;
  gdouble row_y, px_end;

  gp_roofline_add_roof (r, "INT8", 100e12);
  gp_roofline_add_roof (r, "FP16", 10e12);
  pt = gp_roofline_add_point (r, "resnet50 @ 40 fps", 10, 1.5e12, 150e9);
  pt->bound = g_strdup ("memory");
  pt->reason = g_strdup ("150 GB/s of 200 GB/s while 1.5 of 100 TOPS");
  pt = gp_roofline_add_point (r, "yolov8n @ 300 fps", 2000, 40e12, 20e9);
  pt->bound = g_strdup ("neither");
  pt = gp_roofline_add_point (r, "videoconvert0", NAN, NAN, 50e9);
  pt->bound = g_strdup ("neither");

  g_assert_cmpfloat_with_epsilon (gp_roofline_ridge (r, 0), 500, 1e-9);
  p = gp_plot_roofline_layout (r, &err);
  g_assert_no_error (err);
  chart = gp_plot_find_panel (p, GP_PLOT_PANEL_ROOFLINE);
  bars = gp_plot_find_panel (p, GP_PLOT_PANEL_BANDWIDTH);
  g_assert_nonnull (chart);
  g_assert_nonnull (bars);
  g_assert_true (chart->frame.log_x && chart->frame.log_y);
  gp_plot_test_png (p, "roofline.png", &img);

  /* the ridges, ringed where the roofs meet the memory roof */
  c = gp_plot_panel_find_curve (chart, "ridge INT8");
  g_assert_nonnull (c);
  g_assert_cmpfloat_with_epsilon (g_array_index (c->x, gdouble, 0), 500,
      1e-9);
  g_assert_cmpstr (c->tag, ==, "ridge 500 ops/B");
  g_assert_true (gp_plot_test_colour_at (&img, c->rgb,
          gp_plot_frame_px (&chart->frame, 500) + 6,
          gp_plot_frame_py (&chart->frame, 100e12), 2));
  c = gp_plot_panel_find_curve (chart, "ridge FP16");
  g_assert_cmpfloat_with_epsilon (g_array_index (c->x, gdouble, 0), 50,
      1e-9);
  /* the memory roof: 200 GOPS at 1 op/B, 2 TOPS at 10 */
  c = gp_plot_panel_find_curve (chart, "roof memory");
  g_assert_true (gp_plot_test_colour_at (&img, c->rgb,
          gp_plot_frame_px (&chart->frame, 1),
          gp_plot_frame_py (&chart->frame, 200e9), 2));
  g_assert_true (gp_plot_test_colour_at (&img, c->rgb,
          gp_plot_frame_px (&chart->frame, 10),
          gp_plot_frame_py (&chart->frame, 2e12), 2));
  /* the flat INT8 roof past its ridge, not before */
  c = gp_plot_panel_find_curve (chart, "roof INT8");
  g_assert_true (gp_plot_test_colour_at (&img, c->rgb,
          gp_plot_frame_px (&chart->frame, 5000),
          gp_plot_frame_py (&chart->frame, 100e12), 2));
  g_assert_false (gp_plot_test_colour_at (&img, c->rgb,
          gp_plot_frame_px (&chart->frame, 50),
          gp_plot_frame_py (&chart->frame, 100e12), 2));
  /* the points, labelled with their bound */
  c = gp_plot_panel_find_curve (chart, "point resnet50 @ 40 fps");
  g_assert_cmpstr (c->tag, ==, "resnet50 @ 40 fps (memory)");
  g_assert_true (gp_plot_test_colour_at (&img, c->rgb,
          gp_plot_frame_px (&chart->frame, 10),
          gp_plot_frame_py (&chart->frame, 1.5e12), 1));
  g_assert_null (gp_plot_panel_find_curve (chart, "point videoconvert0"));
  /* the bytes-only bar: to 50 GB/s, not past it */
  c = gp_plot_panel_find_curve (bars, "bytes videoconvert0");
  g_assert_nonnull (c);
  row_y = gp_plot_frame_py (&bars->frame, g_array_index (c->y, gdouble, 0));
  px_end = gp_plot_frame_px (&bars->frame, 50e9);
  g_assert_true (gp_plot_test_colour_at (&img, c->rgb,
          gp_plot_frame_px (&bars->frame, 25e9), row_y, 0));
  g_assert_true (gp_plot_test_colour_at (&img, c->rgb, px_end - 2, row_y,
          0));
  g_assert_false (gp_plot_test_colour_at (&img, c->rgb, px_end + 3, row_y,
          0));
  g_assert_nonnull (strstr (c->tag, "25 % of the roof"));
  g_assert_cmpfloat (bars->rule, ==, 200e9);
  /* the reasons under the chart */
  g_assert_cmpuint (p->notes->len, ==, 1);
  g_assert_nonnull (strstr (g_ptr_array_index (p->notes, 0), "150 GB/s"));
  cairo_surface_destroy (img.surface);

  g_assert_true (gp_plot_roofline (r, svg, &err));
  g_assert_no_error (err);
  gp_plot_test_assert_svg (p, svg);
  gp_plot_free (p);

  /* no memory roof: refused */
  r->bw_bytes_per_s = 0;
  g_assert_null (gp_plot_roofline_layout (r, &err));
  g_assert_error (err, GP_PLOT_ERROR, GP_PLOT_ERROR_EMPTY);
  g_clear_error (&err);
  gp_roofline_free (r);
  g_free (svg);
}

/* ------------------------------------------------------------------ */
/* tests: gstprof plot                                                  */
/* ------------------------------------------------------------------ */

static void
gp_plot_test_assert_png_file (const gchar * path)
{
  GpPlotTestImage img;

  gp_plot_test_image_load (&img, path);
  g_assert_cmpint (img.width, >, 0);
  g_assert_cmpfloat (gp_plot_test_inked (&img), >, GP_PLOT_TEST_INKED);
  cairo_surface_destroy (img.surface);
}

/* A tegrastats log, a session folder and its session.json, end to end:
 * exit 0, "wrote FILE", a PNG or an SVG. */
static void
test_plot_cli (void)
{
  gchar *log = gp_plot_test_fixture
      ("tegrastats_agx_orin64_r36.4.4_nvenc_active.txt");
  gchar *png = gp_plot_test_path ("cli.png");
  gchar *svg = gp_plot_test_path ("cli.SVG");
  gchar *json = g_build_filename (gp_plot_test_run_dir (), "session.json",
      NULL);
  GpSession *s = gp_plot_test_session ();
  GpPlot *p = gp_plot_machine_layout (NULL, s, NULL);
  GpTestRun r;

  if (log) {
    gp_test_run_gstprof (&r, gp_tmp, "plot", log, "-o", png, NULL);
    g_assert_cmpint (r.code, ==, 0);
    g_assert_nonnull (strstr (r.out, png));
    gp_test_run_clear (&r);
    gp_plot_test_assert_png_file (png);
  }
  gp_test_run_gstprof (&r, gp_tmp, "plot", gp_plot_test_run_dir (), "-o",
      svg, NULL);
  g_assert_cmpint (r.code, ==, 0);
  gp_test_run_clear (&r);
  gp_plot_test_assert_svg (p, svg);
  g_remove (png);
  gp_test_run_gstprof (&r, gp_tmp, "plot", json, "--output", png, NULL);
  g_assert_cmpint (r.code, ==, 0);
  gp_test_run_clear (&r);
  gp_plot_test_assert_png_file (png);

  gp_plot_free (p);
  gp_session_free (s);
  g_free (json);
  g_free (log);
  g_free (png);
  g_free (svg);
}

/* Refusals: exit 3, one line naming the argument or the file, no file
 * left behind. */
static void
test_plot_bad_input (void)
{
  gchar *png = gp_plot_test_path ("bad.png");
  gchar *text = gp_plot_test_path ("notes.txt");
  gchar *nowhere = gp_plot_test_path ("no/such/dir/x.png");
  gchar *identity = gp_plot_test_fixture
      ("nvidia_smi_query_h100sxm_8gpu_csv_with_header_units.txt");
  GError *err = NULL;
  GpTestRun r;

  g_assert_false (gp_plot_check_path ("curves.jpg", &err));
  g_assert_error (err, GP_PLOT_ERROR, GP_PLOT_ERROR_FORMAT);
  g_clear_error (&err);

  gp_test_run_gstprof (&r, gp_tmp, "plot", NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, "no input");
  gp_test_run_clear (&r);

  gp_test_run_gstprof (&r, gp_tmp, "plot", gp_plot_test_run_dir (), NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, "no output");
  gp_test_run_clear (&r);

  gp_test_run_gstprof (&r, gp_tmp, "plot", gp_plot_test_run_dir (), "-o",
      "curves.jpg", NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, "curves.jpg");
  gp_test_run_clear (&r);

  gp_test_run_gstprof (&r, gp_tmp, "plot", "/no/such/log", "-o", png, NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, "/no/such/log");
  gp_test_run_clear (&r);

  g_assert_true (g_file_set_contents (text, "a note, not a log\n", -1,
          NULL));
  gp_test_run_gstprof (&r, gp_tmp, "plot", text, "-o", png, NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, text);
  gp_test_run_clear (&r);

  gp_test_run_gstprof (&r, gp_tmp, "plot", gp_plot_test_run_dir (),
      "--interval", "fast", "-o", png, NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, "--interval");
  gp_test_run_clear (&r);

  gp_test_run_gstprof (&r, gp_tmp, "plot", gp_plot_test_run_dir (), "-o",
      nowhere, NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, nowhere);
  gp_test_run_clear (&r);

  /* the identity of eight GPUs and no sample: nothing to plot */
  if (identity) {
    gp_test_run_gstprof (&r, gp_tmp, "plot", identity, "-o", png, NULL);
    g_assert_cmpint (r.code, ==, 3);
    gp_test_assert_one_line (r.err, "nothing to plot");
    gp_test_run_clear (&r);
  }
  g_assert_false (g_file_test (png, G_FILE_TEST_EXISTS));

  gp_test_run_gstprof (&r, gp_tmp, "plot", "--help", NULL);
  g_assert_cmpint (r.code, ==, 0);
  g_assert_nonnull (strstr (r.out, "Exit codes"));
  gp_test_run_clear (&r);
  gp_test_run_gstprof (&r, gp_tmp, "--help", NULL);
  g_assert_nonnull (strstr (r.out, "plot INPUT"));
  gp_test_run_clear (&r);

  g_free (identity);
  g_free (nowhere);
  g_free (text);
  g_free (png);
}

/* gp_plot_xy, as ds sweep draws: fps of batches 1, 2, 4, 8 on a log x,
 * the plateau's line at 4, a gap where a batch was not measured; the
 * values read back from the pixels. */
static void
test_plot_xy (void)
{
  static const gdouble x[] = { 1, 2, 4, 8, 16 };
  static const gdouble agg[] = { 100, 200, 300, 300, NAN };
  static const gdouble per[] = { 50, 100, 150, 150, NAN };
  const gdouble *ys[] = { agg, per };
  const gchar *labels[] = { "aggregate fps", "per-stream fps" };
  GpPlotXY xy = { "gstprof ds sweep", "Throughput by batch size",
    "batch size", "frames per second", TRUE, 2, 5, labels, x, ys, 4,
    "plateau: batch 4", NULL
  };
  GError *err = NULL;
  GpPlotTestImage img;
  GpPlotPanel *panel;
  GpPlot *p = gp_plot_xy_layout (&xy, &err);

  g_assert_no_error (err);
  panel = gp_plot_find_panel (p, GP_PLOT_PANEL_XY);
  g_assert_nonnull (panel);
  g_assert_true (panel->frame.log_x);
  g_assert_cmpfloat (panel->rule, ==, 4);
  g_assert_true (panel->rule_vertical);
  g_assert_cmpfloat (panel->frame.x0, <, 1);
  g_assert_cmpfloat (panel->frame.x1, >, 16);
  gp_plot_test_png (p, "sweep.png", &img);
  gp_plot_test_assert_read (&img, p, GP_PLOT_PANEL_XY, "aggregate fps", 2,
      200);
  gp_plot_test_assert_read (&img, p, GP_PLOT_PANEL_XY, "per-stream fps", 8,
      150);
  cairo_surface_destroy (img.surface);
  gp_plot_free (p);

  xy.n_points = 0;
  g_assert_null (gp_plot_xy_layout (&xy, &err));
  g_assert_error (err, GP_PLOT_ERROR, GP_PLOT_ERROR_EMPTY);
  g_clear_error (&err);
}

int
main (int argc, char **argv)
{
  GError *err = NULL;
  gint ret;

  g_test_init (&argc, &argv, NULL);
  gp_tmp = g_dir_make_tmp ("gstprof-test-plot-XXXXXX", &err);
  g_assert_no_error (err);

  g_test_add_func ("/plot/tegrastats-all", test_plot_tegrastats_all);
  g_test_add_func ("/plot/tegrastats-values", test_plot_tegrastats_values);
  g_test_add_func ("/plot/nvsmi", test_plot_nvsmi);
  g_test_add_func ("/plot/svg", test_plot_svg);
  g_test_add_func ("/plot/session", test_plot_session);
  g_test_add_func ("/plot/roofline", test_plot_roofline);
  g_test_add_func ("/plot/xy", test_plot_xy);
  g_test_add_func ("/plot/cli", test_plot_cli);
  g_test_add_func ("/plot/bad-input", test_plot_bad_input);

  ret = g_test_run ();
  gp_test_remove_tree (gp_tmp);
  g_free (gp_tmp);
  return ret;
}
