/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-plot-curves.c: the layout of gp_plot_machine (): one table of the
 * panels, each built from the machine's series (src/core/gp-machine.h) or
 * the session's windows (series[], read through gp_session_window_*),
 * then the panels with data stacked on one time axis.
 */
#include "gp-plot-private.h"
#include "core/gp-series.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* What a panel is built from; TRUE when it got a curve. */
typedef void (*GpPlotCurvesBuild) (GpPlotPanel * panel, const GpMachine * m,
    const GpSession * s);

typedef struct
{
  const gchar *id;
  const gchar *title;
  const gchar *y_label;
  GpPlotCurvesBuild build;
  const gchar *absent;          /* what it would have been drawn from */
  gboolean from_session;        /* FALSE: from the machine */
} GpPlotCurvesPanel;

static void gp_plot_curves_util (GpPlotPanel * panel, const GpMachine * m,
    const GpSession * s);
static void gp_plot_curves_clocks (GpPlotPanel * panel, const GpMachine * m,
    const GpSession * s);
static void gp_plot_curves_temp (GpPlotPanel * panel, const GpMachine * m,
    const GpSession * s);
static void gp_plot_curves_power (GpPlotPanel * panel, const GpMachine * m,
    const GpSession * s);
static void gp_plot_curves_elements (GpPlotPanel * panel,
    const GpMachine * m, const GpSession * s);
static void gp_plot_curves_links (GpPlotPanel * panel, const GpMachine * m,
    const GpSession * s);

static const GpPlotCurvesPanel gp_plot_curves_panels[] = {
  {GP_PLOT_PANEL_UTIL, "Utilisation", "busy (%)", gp_plot_curves_util,
      "no gpu.load, membw.load, cpu.load or engine.load series", FALSE},
  {GP_PLOT_PANEL_CLOCKS, "Clocks (dashed: each clock's maximum)",
        "clock (MHz)", gp_plot_curves_clocks,
      "no gpu.freq, mem.freq or cpu.freq series", FALSE},
  {GP_PLOT_PANEL_TEMP, "Temperature (dashed: each sensor's trip point)",
      "temperature (C)", gp_plot_curves_temp, "no temp series", FALSE},
  {GP_PLOT_PANEL_POWER, "Power (dashed: each rail's or GPU's cap)",
      "power (W)", gp_plot_curves_power, "no power series", FALSE},
  {GP_PLOT_PANEL_ELEMENTS, "Element self time per buffer (mean per "
        "window; the elements with the most self time, queues left out)",
        "self time (ms/buffer)", gp_plot_curves_elements,
      "no windows with element self time", TRUE},
  {GP_PLOT_PANEL_LINKS, "Link rate (links at the same steady rate drawn "
        "once)", "rate (buffers/s)", gp_plot_curves_links,
      "no windows with link rates", TRUE},
};

/* The session's readers take it mutable; nothing here changes it. */
static GpSession *
gp_plot_curves_mutable (const GpSession * s)
{
  return (GpSession *) s;
}

/* ------------------------------------------------------------------ */
/* curves from the machine's series                                     */
/* ------------------------------------------------------------------ */

/* A new curve on @panel in the next palette colour, or NULL (counted as
 * left out) when the palette is used up. */
static GpPlotCurve *
gp_plot_curves_new (GpPlotPanel * panel, const gchar * what,
    const gchar * label)
{
  if (panel->curves->len >= GP_PLOT_PALETTE_N) {
    panel->n_left_out++;
    return NULL;
  }
  return gp_plot_add_curve (panel, what, label, panel->curves->len,
      GP_PLOT_LINE);
}

/* @s as a curve, its limit named @limit_name in the legend ("max",
 * "trip", "cap"; NULL: none drawn). Series without a value are left
 * out. */
static void
gp_plot_curves_series (GpPlotPanel * panel, const GpMachineSeries * s,
    const gchar * limit_name)
{
  GpPlotCurve *c;
  gchar *label;

  if (gp_machine_series_count (s, NAN, NAN) == 0)
    return;
  if (limit_name && isfinite (s->limit))
    label = g_strdup_printf ("%s (%s %.4g %s)", s->name, limit_name,
        s->limit, s->unit);
  else
    label = g_strdup (s->name);
  c = gp_plot_curves_new (panel, s->name, label);
  g_free (label);
  if (c == NULL)
    return;
  for (guint i = 0; i < gp_machine_series_len (s); i++)
    gp_plot_curve_append (c, gp_machine_series_t (s, i),
        gp_machine_series_v (s, i));
  if (limit_name)
    c->limit = s->limit;
}

/* Every series of @quantity, in the machine's order. */
static void
gp_plot_curves_quantity (GpPlotPanel * panel, const GpMachine * m,
    const gchar * quantity, const gchar * limit_name)
{
  GPtrArray *all = gp_machine_find_all (m, quantity);

  for (guint i = 0; i < all->len; i++)
    gp_plot_curves_series (panel, g_ptr_array_index (all, i), limit_name);
  g_ptr_array_unref (all);
}

/* A sample time's sum over the cores. */
typedef struct
{
  gdouble t, sum;
  guint n;
} GpPlotCurvesSum;

/* Where @t is (or goes) in @sums, sorted by time. */
static guint
gp_plot_curves_find_time (GArray * sums, gdouble t, gboolean * found)
{
  guint lo = 0, hi = sums->len;

  while (lo < hi) {
    guint mid = (lo + hi) / 2;
    gdouble mt = g_array_index (sums, GpPlotCurvesSum, mid).t;

    if (fabs (mt - t) < 1e-6) {
      *found = TRUE;
      return mid;
    }
    if (mt < t)
      lo = mid + 1;
    else
      hi = mid;
  }
  *found = FALSE;
  return lo;
}

/* The mean over the cores ("0", "1", ...) of @quantity, sample time by
 * sample time (a core off at a time is left out of that time's mean),
 * with the mean of their limits; nothing when the machine has no core
 * series. */
static void
gp_plot_curves_core_mean (GpPlotPanel * panel, const GpMachine * m,
    const gchar * quantity, const gchar * limit_name)
{
  GPtrArray *all = gp_machine_find_all (m, quantity);
  GArray *sums = g_array_new (FALSE, FALSE, sizeof (GpPlotCurvesSum));
  gdouble limit_sum = 0;
  guint n_cores = 0, n_limits = 0;
  GpPlotCurve *c;
  gchar *what, *label;

  for (guint i = 0; i < all->len; i++) {
    GpMachineSeries *s = g_ptr_array_index (all, i);
    const gchar *inst = gp_machine_series_instance (s);

    if (!g_ascii_isdigit (inst[0]) || gp_machine_series_count (s, NAN,
            NAN) == 0)
      continue;
    n_cores++;
    if (isfinite (s->limit)) {
      limit_sum += s->limit;
      n_limits++;
    }
    for (guint k = 0; k < gp_machine_series_len (s); k++) {
      gdouble t = gp_machine_series_t (s, k), v = gp_machine_series_v (s, k);
      gboolean found;
      guint at = gp_plot_curves_find_time (sums, t, &found);

      if (!found) {
        GpPlotCurvesSum fresh = { t, 0, 0 };

        g_array_insert_val (sums, at, fresh);
      }
      if (!isnan (v)) {
        g_array_index (sums, GpPlotCurvesSum, at).sum += v;
        g_array_index (sums, GpPlotCurvesSum, at).n++;
      }
    }
  }
  g_ptr_array_unref (all);
  if (n_cores == 0) {
    g_array_unref (sums);
    return;
  }
  what = g_strdup_printf ("%s mean", quantity);
  if (limit_name && n_limits > 0)
    label = g_strdup_printf ("%s, mean of %u cores (%s %.4g)", quantity,
        n_cores, limit_name, limit_sum / n_limits);
  else
    label = g_strdup_printf ("%s, mean of %u cores", quantity, n_cores);
  c = gp_plot_curves_new (panel, what, label);
  if (c) {
    for (guint i = 0; i < sums->len; i++) {
      GpPlotCurvesSum *sum = &g_array_index (sums, GpPlotCurvesSum, i);

      gp_plot_curve_append (c, sum->t, sum->n ? sum->sum / sum->n : NAN);
    }
    if (limit_name && n_limits > 0)
      c->limit = limit_sum / n_limits;
  }
  g_free (what);
  g_free (label);
  g_array_unref (sums);
}

/* The engines that did something: one at 0 % throughout (off, or idle)
 * is a flat line on the axis that takes a colour; the legend's last line
 * names them instead. */
static void
gp_plot_curves_engines (GpPlotPanel * panel, const GpMachine * m)
{
  GPtrArray *all = gp_machine_find_all (m, GP_MACHINE_ENGINE_LOAD);
  GString *idle = g_string_new (NULL);

  for (guint i = 0; i < all->len; i++) {
    GpMachineSeries *s = g_ptr_array_index (all, i);

    if (gp_machine_series_max (s, NAN, NAN) == 0)
      g_string_append_printf (idle, "%s%s", idle->len ? ", " : "",
          gp_machine_series_instance (s));
    else
      gp_plot_curves_series (panel, s, NULL);
  }
  if (idle->len > 0)
    panel->legend_note = g_strdup_printf ("engines at 0 %% throughout: %s",
        idle->str);
  g_string_free (idle, TRUE);
  g_ptr_array_unref (all);
}

static void
gp_plot_curves_util (GpPlotPanel * panel, const GpMachine * m,
    const GpSession * s)
{
  GpMachineSeries *all;

  if (m == NULL)
    return;
  gp_plot_curves_quantity (panel, m, GP_MACHINE_GPU_LOAD, NULL);
  gp_plot_curves_quantity (panel, m, GP_MACHINE_MEMBW_LOAD, NULL);
  all = gp_machine_find (m, GP_MACHINE_CPU_LOAD, "all");
  if (all && gp_machine_series_count (all, NAN, NAN) > 0)
    gp_plot_curves_series (panel, all, NULL);
  else
    gp_plot_curves_core_mean (panel, m, GP_MACHINE_CPU_LOAD, NULL);
  gp_plot_curves_engines (panel, m);
  panel->rule = GP_PLOT_SATURATION_PCT;
  panel->rule_label = g_strdup_printf ("saturated: %.0f %%",
      GP_PLOT_SATURATION_PCT);
}

static void
gp_plot_curves_clocks (GpPlotPanel * panel, const GpMachine * m,
    const GpSession * s)
{
  if (m == NULL)
    return;
  gp_plot_curves_quantity (panel, m, GP_MACHINE_GPU_FREQ, "max");
  gp_plot_curves_quantity (panel, m, GP_MACHINE_MEM_FREQ, "max");
  gp_plot_curves_core_mean (panel, m, GP_MACHINE_CPU_FREQ, "max");
}

static void
gp_plot_curves_temp (GpPlotPanel * panel, const GpMachine * m,
    const GpSession * s)
{
  if (m)
    gp_plot_curves_quantity (panel, m, GP_MACHINE_TEMP, "trip");
}

static void
gp_plot_curves_power (GpPlotPanel * panel, const GpMachine * m,
    const GpSession * s)
{
  if (m)
    gp_plot_curves_quantity (panel, m, GP_MACHINE_POWER, "cap");
}

/* ------------------------------------------------------------------ */
/* curves from the session's windows                                    */
/* ------------------------------------------------------------------ */

/* Element @name's self time in window @i and its buffers; FALSE when the
 * window has no sample of it. Sessions without self_ms (older ones,
 * imports) give buffers × the window's median. */
static gboolean
gp_plot_curves_self (GpSession * s, guint i, const gchar * name,
    gdouble * self_ms, gdouble * buffers)
{
  gdouble total = gp_session_window_value (s, i, GP_SERIES_ELEMENTS, name,
      GP_SE_SELF_MS);
  gdouble n = gp_session_window_value (s, i, GP_SERIES_ELEMENTS, name,
      GP_SE_BUFFERS);
  gdouble p50 = gp_session_window_value (s, i, GP_SERIES_ELEMENTS, name,
      GP_SE_SELF_MS_P50);

  if (n <= 0)
    return FALSE;
  if (total < 0 && p50 >= 0)
    total = p50 * n;
  if (total < 0)
    return FALSE;
  *self_ms = total;
  *buffers = n;
  return TRUE;
}

typedef struct
{
  const gchar *name;            /* borrowed from the windows */
  gdouble total;
} GpPlotCurvesRank;

static gint
gp_plot_curves_by_total (gconstpointer a, gconstpointer b)
{
  const GpPlotCurvesRank *x = a, *y = b;

  return (x->total < y->total) - (x->total > y->total);
}

/* The elements of the windows with their self time over them, most
 * first; queues and bins left out. */
static GArray *
gp_plot_curves_rank_elements (GpSession * s)
{
  GHashTable *totals = g_hash_table_new (g_str_hash, g_str_equal);
  GArray *ranks = g_array_new (FALSE, FALSE, sizeof (GpPlotCurvesRank));
  GHashTableIter it;
  gpointer key, value;

  for (guint i = 0; i < gp_session_n_windows (s); i++) {
    JsonObject *sec = gp_session_window_section (s, i, GP_SERIES_ELEMENTS);
    GList *names = sec ? json_object_get_members (sec) : NULL;

    for (GList * l = names; l; l = l->next) {
      gdouble self_ms, buffers, *sum;
      GpElement *e = gp_session_find_element (s, l->data);

      if (e && (e->is_bin || g_strcmp0 (e->kind, "queue") == 0))
        continue;
      if (!gp_plot_curves_self (s, i, l->data, &self_ms, &buffers))
        continue;
      sum = g_hash_table_lookup (totals, l->data);
      if (sum == NULL) {
        sum = g_new0 (gdouble, 1);
        g_hash_table_insert (totals, l->data, sum);
      }
      *sum += self_ms;
    }
    g_list_free (names);
  }
  g_hash_table_iter_init (&it, totals);
  while (g_hash_table_iter_next (&it, &key, &value)) {
    GpPlotCurvesRank r = { key, *(gdouble *) value };

    g_array_append_val (ranks, r);
    g_free (value);
  }
  g_hash_table_unref (totals);
  g_array_sort (ranks, gp_plot_curves_by_total);
  return ranks;
}

static void
gp_plot_curves_elements (GpPlotPanel * panel, const GpMachine * m,
    const GpSession * cs)
{
  GpSession *s = gp_plot_curves_mutable (cs);
  GArray *ranks;

  if (s == NULL)
    return;
  ranks = gp_plot_curves_rank_elements (s);
  for (guint r = 0; r < ranks->len; r++) {
    const gchar *name = g_array_index (ranks, GpPlotCurvesRank, r).name;
    GpElement *e = gp_session_find_element (s, name);
    gchar *what, *label;
    GpPlotCurve *c;

    if (r >= GP_PLOT_TOP_ELEMENTS) {
      panel->n_left_out++;
      continue;
    }
    what = g_strdup_printf ("element %s", name);
    label = e && e->factory && *e->factory ?
        g_strdup_printf ("%s (%s)", name, e->factory) : g_strdup (name);
    c = gp_plot_curves_new (panel, what, label);
    g_free (what);
    g_free (label);
    if (c == NULL)
      continue;
    for (guint i = 0; i < gp_session_n_windows (s); i++) {
      gdouble t0, t1, self_ms, buffers;

      gp_session_window_span (s, i, &t0, &t1);
      gp_plot_curve_append (c, (t0 + t1) / 2,
          gp_plot_curves_self (s, i, name, &self_ms, &buffers) ?
          self_ms / buffers : NAN);
    }
  }
  g_array_unref (ranks);
}

/* The links of the windows, first seen first. */
static GPtrArray *
gp_plot_curves_link_ids (GpSession * s)
{
  GPtrArray *ids = g_ptr_array_new ();
  GHashTable *seen = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < s->link_summaries->len; i++) {
    GpLinkSummary *ls = g_ptr_array_index (s->link_summaries, i);

    if (g_hash_table_add (seen, ls->id))
      g_ptr_array_add (ids, ls->id);
  }
  for (guint i = 0; i < gp_session_n_windows (s); i++) {
    JsonObject *sec = gp_session_window_section (s, i, GP_SERIES_LINKS);
    GList *names = sec ? json_object_get_members (sec) : NULL;

    for (GList * l = names; l; l = l->next)
      if (g_hash_table_add (seen, l->data))
        g_ptr_array_add (ids, l->data);
    g_list_free (names);
  }
  g_hash_table_unref (seen);
  return ids;
}

/* Link @id's steady rate: the summary's, else the mean of its windows;
 * NAN when no window has it. */
static gdouble
gp_plot_curves_link_rate (GpSession * s, const gchar * id)
{
  gdouble sum = 0;
  guint n = 0;

  for (guint i = 0; i < s->link_summaries->len; i++) {
    GpLinkSummary *ls = g_ptr_array_index (s->link_summaries, i);

    if (strcmp (ls->id, id) == 0 && ls->fps > 0)
      return ls->fps;
  }
  for (guint i = 0; i < gp_session_n_windows (s); i++) {
    gdouble fps = gp_session_window_value (s, i, GP_SERIES_LINKS, id,
        GP_SL_FPS);

    if (fps >= 0) {
      sum += fps;
      n++;
    }
  }
  return n ? sum / n : NAN;
}

typedef struct
{
  const gchar *id;              /* the first link of the rate */
  gdouble rate;
  guint n;                      /* links at that rate */
} GpPlotCurvesGroup;

static void
gp_plot_curves_links (GpPlotPanel * panel, const GpMachine * m,
    const GpSession * cs)
{
  GpSession *s = gp_plot_curves_mutable (cs);
  GArray *groups;
  GPtrArray *ids;

  if (s == NULL)
    return;
  ids = gp_plot_curves_link_ids (s);
  groups = g_array_new (FALSE, FALSE, sizeof (GpPlotCurvesGroup));
  for (guint i = 0; i < ids->len; i++) {
    const gchar *id = g_ptr_array_index (ids, i);
    gdouble rate = gp_plot_curves_link_rate (s, id);
    guint g;

    if (isnan (rate))
      continue;
    for (g = 0; g < groups->len; g++) {
      GpPlotCurvesGroup *grp = &g_array_index (groups, GpPlotCurvesGroup, g);

      if (fabs (grp->rate - rate) <= GP_PLOT_SAME_RATE * MAX (grp->rate,
              rate)) {
        grp->n++;
        break;
      }
    }
    if (g == groups->len) {
      GpPlotCurvesGroup grp = { id, rate, 1 };

      g_array_append_val (groups, grp);
    }
  }
  for (guint g = 0; g < groups->len; g++) {
    GpPlotCurvesGroup *grp = &g_array_index (groups, GpPlotCurvesGroup, g);
    gchar *what = g_strdup_printf ("link %s", grp->id);
    gchar *label = grp->n > 1 ?
        g_strdup_printf ("%.1f/s: %s (+%u links)", grp->rate, grp->id,
        grp->n - 1) : g_strdup_printf ("%.1f/s: %s", grp->rate, grp->id);
    GpPlotCurve *c = gp_plot_curves_new (panel, what, label);

    g_free (what);
    g_free (label);
    if (c == NULL)
      continue;
    for (guint i = 0; i < gp_session_n_windows (s); i++) {
      gdouble t0, t1, fps;

      gp_session_window_span (s, i, &t0, &t1);
      fps = gp_session_window_value (s, i, GP_SERIES_LINKS, grp->id, GP_SL_FPS);
      gp_plot_curve_append (c, (t0 + t1) / 2, fps >= 0 ? fps : NAN);
    }
  }
  g_array_unref (groups);
  g_ptr_array_unref (ids);
}

/* ------------------------------------------------------------------ */
/* the page                                                             */
/* ------------------------------------------------------------------ */

/* The title: the launch string, else what sampled the machine. */
static gchar *
gp_plot_curves_title (const GpMachine * m, const GpSession * s)
{
  GString *t = g_string_new ("gstprof: ");

  if (s && s->launch)
    g_string_append (t, s->launch);
  else if (s)
    g_string_append (t, "a session");
  if (m) {
    g_string_append (t, s ? "; the machine by " : "the machine by ");
    for (guint i = 0, n = 0; i < m->sources->len; i++) {
      GpMachineSource *src = g_ptr_array_index (m->sources, i);

      if (g_strcmp0 (src->state, GP_MACHINE_SAMPLED) != 0)
        continue;
      g_string_append_printf (t, "%s%s (%" G_GUINT64_FORMAT " samples)",
          n++ ? ", " : "", src->name, src->samples);
    }
  }
  return g_string_free (t, FALSE);
}

/* Every kept panel's frame: stacked from the top, one x range (0 to the
 * last time), each y from 0 to a round number above its values and
 * limits (utilisation 0 to 100 unless more). */
static void
gp_plot_curves_frames (GpPlot * p)
{
  gdouble t_max = 0;

  for (guint i = 0; i < p->panels->len; i++) {
    GpPlotPanel *panel = g_ptr_array_index (p->panels, i);

    for (guint k = 0; k < panel->curves->len; k++) {
      gdouble x = gp_plot_curve_max (g_ptr_array_index (panel->curves, k),
          TRUE);

      if (x > t_max)
        t_max = x;
    }
  }
  for (guint i = 0; i < p->panels->len; i++) {
    GpPlotPanel *panel = g_ptr_array_index (p->panels, i);
    gdouble y_max = 0;

    for (guint k = 0; k < panel->curves->len; k++) {
      GpPlotCurve *c = g_ptr_array_index (panel->curves, k);
      gdouble v = gp_plot_curve_max (c, FALSE);

      y_max = MAX (y_max, isnan (v) ? 0 : v);
      if (isfinite (c->limit))
        y_max = MAX (y_max, c->limit);
    }
    panel->frame.y = GP_PLOT_TITLE_H + GP_PLOT_PANEL_HEAD +
        i * (GP_PLOT_PANEL_HEAD + GP_PLOT_PANEL_H + GP_PLOT_PANEL_FOOT);
    panel->frame.x0 = 0;
    panel->frame.x1 = gp_plot_nice_top (t_max);
    panel->frame.y0 = 0;
    if (strcmp (panel->id, GP_PLOT_PANEL_UTIL) == 0 && y_max <= 100)
      panel->frame.y1 = 100;
    else
      panel->frame.y1 = gp_plot_nice_top (y_max * 1.05);
    g_free (panel->x_label);
    panel->x_label = i + 1 == p->panels->len ?
        g_strdup ("time since the start (s)") : NULL;
  }
}

GpPlot *
gp_plot_machine_layout (const GpMachine * m, const GpSession * s,
    GError ** error)
{
  GpPlot *p;
  gchar *title;

  if (m == NULL && s)
    m = s->machine;
  title = gp_plot_curves_title (m, s);
  p = gp_plot_new (title);
  g_free (title);
  if (m == NULL)
    gp_plot_add_note (p, "No machine data (%s): utilisation, clocks, "
        "temperature and power not drawn.", s ? "the session has no "
        "session.machine section" : "none given");
  if (s == NULL)
    gp_plot_add_note (p, "No session (a telemetry log alone): element self "
        "time and link rates not drawn.");
  for (guint i = 0; i < G_N_ELEMENTS (gp_plot_curves_panels); i++) {
    const GpPlotCurvesPanel *def = &gp_plot_curves_panels[i];
    GpPlotPanel *panel = gp_plot_add_panel (p, def->id, def->title,
        def->y_label, 0, GP_PLOT_PANEL_H);

    def->build (panel, m, s);
    if (panel->curves->len > 0)
      continue;
    /* a panel whose input is there but holds nothing for it is named;
     * one whose input is missing, the notes above already say */
    if (def->from_session ? s != NULL : m != NULL)
      gp_plot_add_note (p, "Not drawn: %s (%s).", def->id, def->absent);
    g_ptr_array_remove_index (p->panels, p->panels->len - 1);
  }
  if (p->panels->len == 0) {
    g_set_error (error, GP_PLOT_ERROR, GP_PLOT_ERROR_EMPTY,
        "nothing to plot: no utilisation, clock, temperature or power "
        "series with a value%s", s ? ", no windows with element or link "
        "rates" : "");
    gp_plot_free (p);
    return NULL;
  }
  if (m)
    for (guint i = 0; i < m->sources->len; i++) {
      GpMachineSource *src = g_ptr_array_index (m->sources, i);

      if (g_strcmp0 (src->state, GP_MACHINE_SAMPLED) != 0)
        gp_plot_add_note (p, "Source %s: %s%s%s.", src->name,
            src->state ? src->state : "not run", src->detail ? ": " : "",
            src->detail ? src->detail : "");
    }
  gp_plot_curves_frames (p);
  p->height = GP_PLOT_TITLE_H + p->panels->len * (GP_PLOT_PANEL_HEAD +
      GP_PLOT_PANEL_H + GP_PLOT_PANEL_FOOT) + 8 +
      p->notes->len * GP_PLOT_NOTE_LINE + 8;
  return p;
}
