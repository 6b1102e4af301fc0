/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gp-machine: the machine under the pipeline (gp-machine.h). */
#include "gp-machine.h"

#include <math.h>
#include <string.h>

#include "gp-json.h"

static void
gp_machine_source_free (gpointer p)
{
  GpMachineSource *src = p;

  g_free (src->name);
  g_free (src->state);
  g_free (src->detail);
  g_free (src);
}

void
gp_machine_series_free (GpMachineSeries * s)
{
  if (s == NULL)
    return;
  g_free (s->name);
  g_free (s->unit);
  g_free (s->source);
  g_array_unref (s->t);
  g_array_unref (s->v);
  if (s->merged)
    g_array_unref (s->merged);
  g_free (s);
}

GpMachine *
gp_machine_new (void)
{
  GpMachine *m = g_new0 (GpMachine, 1);

  m->sources = g_ptr_array_new_with_free_func (gp_machine_source_free);
  m->series = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gp_machine_series_free);
  m->facts = g_ptr_array_new_with_free_func (g_free);
  m->cost_pct = -1;
  return m;
}

void
gp_machine_free (GpMachine * m)
{
  if (m == NULL)
    return;
  g_ptr_array_unref (m->sources);
  g_ptr_array_unref (m->series);
  g_ptr_array_unref (m->facts);
  g_free (m);
}

/* ------------------------------------------------------------------ */
/* sources                                                              */
/* ------------------------------------------------------------------ */

GpMachineSource *
gp_machine_find_source (const GpMachine * m, const gchar * name)
{
  guint i;

  for (i = 0; i < m->sources->len; i++) {
    GpMachineSource *src = g_ptr_array_index (m->sources, i);

    if (strcmp (src->name, name) == 0)
      return src;
  }
  return NULL;
}

GpMachineSource *
gp_machine_source (GpMachine * m, const gchar * name)
{
  GpMachineSource *src = gp_machine_find_source (m, name);

  if (src != NULL)
    return src;
  src = g_new0 (GpMachineSource, 1);
  src->name = g_strdup (name);
  src->interval_s = -1;
  g_ptr_array_add (m->sources, src);
  return src;
}

void
gp_machine_source_set (GpMachine * m, const gchar * name,
    const gchar * state, const gchar * detail)
{
  GpMachineSource *src = gp_machine_source (m, name);

  g_free (src->state);
  src->state = g_strdup (state);
  g_free (src->detail);
  src->detail = g_strdup (detail);
}

/* ------------------------------------------------------------------ */
/* series                                                               */
/* ------------------------------------------------------------------ */

GpMachineSeries *
gp_machine_find (const GpMachine * m, const gchar * quantity,
    const gchar * instance)
{
  gsize qlen = strlen (quantity);
  guint i;

  for (i = 0; i < m->series->len; i++) {
    GpMachineSeries *s = g_ptr_array_index (m->series, i);

    if (strncmp (s->name, quantity, qlen) != 0 || s->name[qlen] != '/')
      continue;
    if (instance == NULL || strcmp (s->name + qlen + 1, instance) == 0)
      return s;
  }
  return NULL;
}

GPtrArray *
gp_machine_find_all (const GpMachine * m, const gchar * quantity)
{
  GPtrArray *all = g_ptr_array_new ();
  gsize qlen = strlen (quantity);
  guint i;

  for (i = 0; i < m->series->len; i++) {
    GpMachineSeries *s = g_ptr_array_index (m->series, i);

    if (strncmp (s->name, quantity, qlen) == 0 && s->name[qlen] == '/')
      g_ptr_array_add (all, s);
  }
  return all;
}

GpMachineSeries *
gp_machine_series (GpMachine * m, const gchar * quantity,
    const gchar * instance, const gchar * unit, const gchar * source)
{
  GpMachineSeries *s = gp_machine_find (m, quantity, instance);

  if (s != NULL)
    return s;
  s = g_new0 (GpMachineSeries, 1);
  s->name = g_strdup_printf ("%s/%s", quantity, instance);
  s->unit = g_strdup (unit);
  s->source = g_strdup (source);
  s->limit = NAN;
  s->t = g_array_new (FALSE, FALSE, sizeof (gdouble));
  s->v = g_array_new (FALSE, FALSE, sizeof (gdouble));
  g_ptr_array_add (m->series, s);
  gp_machine_source (m, source);
  return s;
}

gboolean
gp_machine_series_append (GpMachine * m, GpMachineSeries * s, gdouble t,
    gdouble v)
{
  GpMachineSource *src;

  if (!isfinite (t) || fabs (t) > GP_JSON_MAX_MAGNITUDE || (s->t->len > 0
          && t < g_array_index (s->t, gdouble, s->t->len - 1)))
    return FALSE;
  /* beyond what any measurement reaches (and session.json keeps) */
  if (!isfinite (v) || fabs (v) > GP_JSON_MAX_MAGNITUDE)
    v = NAN;
  g_array_append_val (s->t, t);
  g_array_append_val (s->v, v);
  if (s->merged) {
    GpMachineMerged one = { isnan (v) ? 0 : 1, v, v };

    g_array_append_val (s->merged, one);
  }
  src = gp_machine_source (m, s->source);
  if (src->state == NULL)
    src->state = g_strdup (GP_MACHINE_SAMPLED);
  return TRUE;
}

/* Sample @i of @s as merged: one value where nothing was merged yet. */
static GpMachineMerged
gp_machine_merged (const GpMachineSeries * s, guint i)
{
  gdouble v = g_array_index (s->v, gdouble, i);
  GpMachineMerged one = { isnan (v) ? 0 : 1, v, v };

  return s->merged ? g_array_index (s->merged, GpMachineMerged, i) : one;
}

void
gp_machine_series_thin (GpMachineSeries * s)
{
  guint i, k, len = s->t->len;

  if (s->merged == NULL) {
    GArray *merged = g_array_sized_new (FALSE, FALSE,
        sizeof (GpMachineMerged), len);

    for (i = 0; i < len; i++) {
      GpMachineMerged one = gp_machine_merged (s, i);

      g_array_append_val (merged, one);
    }
    s->merged = merged;
  }
  for (i = k = 0; i < len; i += 2, k++) {
    GpMachineMerged a = gp_machine_merged (s, i), b = a, ab;
    gdouble va = g_array_index (s->v, gdouble, i), vb = va;

    if (i + 1 < len) {
      b = gp_machine_merged (s, i + 1);
      vb = g_array_index (s->v, gdouble, i + 1);
    } else {
      b.n = 0;
    }
    ab.n = a.n + b.n;
    ab.max = a.n == 0 ? b.max : b.n == 0 ? a.max : MAX (a.max, b.max);
    ab.min = a.n == 0 ? b.min : b.n == 0 ? a.min : MIN (a.min, b.min);
    g_array_index (s->t, gdouble, k) =
        g_array_index (s->t, gdouble, MIN (i + 1, len - 1));
    g_array_index (s->v, gdouble, k) = ab.n == 0 ? NAN :
        ((a.n ? va * a.n : 0) + (b.n ? vb * b.n : 0)) / ab.n;
    g_array_index (s->merged, GpMachineMerged, k) = ab;
  }
  g_array_set_size (s->t, k);
  g_array_set_size (s->v, k);
  g_array_set_size (s->merged, k);
}

static GpMachineSeries *
gp_machine_series_copy (const GpMachineSeries * s)
{
  GpMachineSeries *c = g_new0 (GpMachineSeries, 1);

  c->name = g_strdup (s->name);
  c->unit = g_strdup (s->unit);
  c->source = g_strdup (s->source);
  c->limit = s->limit;
  c->t = g_array_copy (s->t);
  c->v = g_array_copy (s->v);
  c->merged = s->merged ? g_array_copy (s->merged) : NULL;
  return c;
}

GpMachineSeries *
gp_machine_series_thinned (const GpMachineSeries * s, guint max)
{
  GpMachineSeries *c = gp_machine_series_copy (s);

  while (c->t->len > MAX (max, 1))
    gp_machine_series_thin (c);
  return c;
}

GpMachine *
gp_machine_copy (const GpMachine * m)
{
  GpMachine *c = gp_machine_new ();
  guint i;

  for (i = 0; i < m->sources->len; i++) {
    const GpMachineSource *src = g_ptr_array_index (m->sources, i);
    GpMachineSource *d = gp_machine_source (c, src->name);

    d->state = g_strdup (src->state);
    d->detail = g_strdup (src->detail);
    d->samples = src->samples;
    d->interval_s = src->interval_s;
  }
  for (i = 0; i < m->series->len; i++)
    g_ptr_array_add (c->series,
        gp_machine_series_copy (g_ptr_array_index (m->series, i)));
  for (i = 0; i < m->facts->len; i++)
    g_ptr_array_add (c->facts, g_strdup (g_ptr_array_index (m->facts, i)));
  c->cost_pct = m->cost_pct;
  return c;
}

gchar *
gp_machine_series_quantity (const GpMachineSeries * s)
{
  const gchar *slash = strchr (s->name, '/');

  return slash ? g_strndup (s->name, slash - s->name) : g_strdup (s->name);
}

const gchar *
gp_machine_series_instance (const GpMachineSeries * s)
{
  const gchar *slash = strchr (s->name, '/');

  return slash ? slash + 1 : "";
}

void
gp_machine_shift (GpMachine * m, gdouble dt)
{
  guint i, j, k;

  for (i = 0; i < m->series->len; i++) {
    GpMachineSeries *s = g_ptr_array_index (m->series, i);

    for (j = k = 0; j < s->t->len; j++) {
      gdouble t = g_array_index (s->t, gdouble, j) - dt;

      if (t < 0)
        continue;
      g_array_index (s->t, gdouble, k) = t;
      g_array_index (s->v, gdouble, k) = g_array_index (s->v, gdouble, j);
      if (s->merged)
        g_array_index (s->merged, GpMachineMerged, k) =
            g_array_index (s->merged, GpMachineMerged, j);
      k++;
    }
    g_array_set_size (s->t, k);
    g_array_set_size (s->v, k);
    if (s->merged)
      g_array_set_size (s->merged, k);
  }
}

guint
gp_machine_series_len (const GpMachineSeries * s)
{
  return s->t->len;
}

gdouble
gp_machine_series_t (const GpMachineSeries * s, guint i)
{
  return i < s->t->len ? g_array_index (s->t, gdouble, i) : NAN;
}

gdouble
gp_machine_series_v (const GpMachineSeries * s, guint i)
{
  return i < s->v->len ? g_array_index (s->v, gdouble, i) : NAN;
}

typedef struct
{
  guint64 n;
  guint64 above;
  gdouble sum;
  gdouble max;
  gdouble min;
} GpMachineSpan;

/* The values of @s in [@t0, @t1] (NAN bounds: open), missing left out. */
static GpMachineSpan
gp_machine_span (const GpMachineSeries * s, gdouble t0, gdouble t1,
    gdouble threshold)
{
  GpMachineSpan span = { 0, 0, 0, -INFINITY, INFINITY };
  guint i;

  for (i = 0; i < s->t->len; i++) {
    gdouble t = g_array_index (s->t, gdouble, i);
    gdouble v = g_array_index (s->v, gdouble, i);
    GpMachineMerged mg;

    if (isnan (v) || (!isnan (t0) && t < t0) || (!isnan (t1) && t > t1))
      continue;
    mg = gp_machine_merged (s, i);
    span.n += mg.n;
    span.sum += v * mg.n;
    span.max = MAX (span.max, mg.max);
    span.min = MIN (span.min, mg.min);
    if (mg.min >= threshold || (mg.max >= threshold && v >= threshold))
      span.above += mg.n;
  }
  return span;
}

gdouble
gp_machine_series_mean (const GpMachineSeries * s, gdouble t0, gdouble t1)
{
  GpMachineSpan span = gp_machine_span (s, t0, t1, INFINITY);

  return span.n ? span.sum / span.n : NAN;
}

gdouble
gp_machine_series_max (const GpMachineSeries * s, gdouble t0, gdouble t1)
{
  GpMachineSpan span = gp_machine_span (s, t0, t1, INFINITY);

  return span.n ? span.max : NAN;
}

gdouble
gp_machine_series_min (const GpMachineSeries * s, gdouble t0, gdouble t1)
{
  GpMachineSpan span = gp_machine_span (s, t0, t1, INFINITY);

  return span.n ? span.min : NAN;
}

gdouble
gp_machine_series_share_above (const GpMachineSeries * s,
    gdouble threshold, gdouble t0, gdouble t1)
{
  GpMachineSpan span = gp_machine_span (s, t0, t1, threshold);

  return span.n ? (gdouble) span.above / span.n : NAN;
}

guint
gp_machine_series_count (const GpMachineSeries * s, gdouble t0, gdouble t1)
{
  return (guint) MIN (gp_machine_span (s, t0, t1, INFINITY).n, G_MAXUINT);
}

/* ------------------------------------------------------------------ */
/* facts                                                                */
/* ------------------------------------------------------------------ */

void
gp_machine_set_fact (GpMachine * m, const gchar * key, const gchar * value)
{
  guint i;

  for (i = 0; i + 1 < m->facts->len; i += 2)
    if (strcmp (g_ptr_array_index (m->facts, i), key) == 0) {
      g_free (m->facts->pdata[i + 1]);
      m->facts->pdata[i + 1] = g_strdup (value);
      return;
    }
  g_ptr_array_add (m->facts, g_strdup (key));
  g_ptr_array_add (m->facts, g_strdup (value));
}

void
gp_machine_set_fact_double (GpMachine * m, const gchar * key, gdouble value)
{
  gchar buf[G_ASCII_DTOSTR_BUF_SIZE];

  gp_machine_set_fact (m, key, g_ascii_dtostr (buf, sizeof buf, value));
}

const gchar *
gp_machine_fact (const GpMachine * m, const gchar * key)
{
  guint i;

  for (i = 0; i + 1 < m->facts->len; i += 2)
    if (strcmp (g_ptr_array_index (m->facts, i), key) == 0)
      return g_ptr_array_index (m->facts, i + 1);
  return NULL;
}

gdouble
gp_machine_fact_double (const GpMachine * m, const gchar * key)
{
  const gchar *v = gp_machine_fact (m, key);
  gchar *end;
  gdouble d;

  if (v == NULL)
    return NAN;
  d = g_ascii_strtod (v, &end);
  return (end != v && *end == '\0') ? d : NAN;
}
