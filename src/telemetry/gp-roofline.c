/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gp-roofline: the roofline's model (gp-roofline.h). */
#include "gp-roofline.h"

#include <math.h>

static void
gp_roofline_roof_clear (gpointer p)
{
  GpRoof *roof = p;

  g_free (roof->name);
}

static void
gp_roofline_point_free (gpointer p)
{
  GpRooflinePoint *pt = p;

  g_free (pt->label);
  g_free (pt->bound);
  g_free (pt->reason);
  g_free (pt);
}

GpRoofline *
gp_roofline_new (const gchar * title, gdouble bw_bytes_per_s,
    const gchar * bw_name)
{
  GpRoofline *r = g_new0 (GpRoofline, 1);

  r->title = g_strdup (title);
  r->bw_bytes_per_s = bw_bytes_per_s;
  r->bw_name = g_strdup (bw_name);
  r->roofs = g_array_new (FALSE, FALSE, sizeof (GpRoof));
  g_array_set_clear_func (r->roofs, gp_roofline_roof_clear);
  r->points = g_ptr_array_new_with_free_func (gp_roofline_point_free);
  return r;
}

void
gp_roofline_free (GpRoofline * r)
{
  if (r == NULL)
    return;
  g_free (r->title);
  g_free (r->bw_name);
  g_array_unref (r->roofs);
  g_ptr_array_unref (r->points);
  g_free (r);
}

void
gp_roofline_add_roof (GpRoofline * r, const gchar * name, gdouble ops_per_s)
{
  GpRoof roof = { g_strdup (name), ops_per_s };
  guint i = 0;

  /* highest first */
  while (i < r->roofs->len
      && g_array_index (r->roofs, GpRoof, i).ops_per_s >= ops_per_s)
    i++;
  g_array_insert_val (r->roofs, i, roof);
}

GpRooflinePoint *
gp_roofline_add_point (GpRoofline * r, const gchar * label, gdouble ai,
    gdouble ops_per_s, gdouble bytes_per_s)
{
  GpRooflinePoint *pt = g_new0 (GpRooflinePoint, 1);

  pt->label = g_strdup (label);
  pt->ai = ai;
  pt->ops_per_s = ops_per_s;
  pt->bytes_per_s = bytes_per_s;
  g_ptr_array_add (r->points, pt);
  return pt;
}

gdouble
gp_roofline_ridge (const GpRoofline * r, guint i)
{
  if (i >= r->roofs->len || !(r->bw_bytes_per_s > 0))
    return NAN;
  return g_array_index (r->roofs, GpRoof, i).ops_per_s / r->bw_bytes_per_s;
}

gdouble
gp_roofline_attainable (const GpRoofline * r, guint i, gdouble ai)
{
  if (i >= r->roofs->len || isnan (ai))
    return NAN;
  return MIN (g_array_index (r->roofs, GpRoof, i).ops_per_s,
      ai * r->bw_bytes_per_s);
}

gint
gp_roofline_find_roof (const GpRoofline * r, const gchar * name)
{
  guint i;

  for (i = 0; i < r->roofs->len; i++)
    if (g_ascii_strcasecmp (g_array_index (r->roofs, GpRoof, i).name,
            name) == 0)
      return (gint) i;
  return -1;
}

gchar *
gp_roofline_format (gdouble v, const gchar * unit)
{
  static const struct
  {
    gdouble scale;
    const gchar *prefix;
  } si[] = {
    {1e15, "P"}, {1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"},
  };
  guint i;

  if (isnan (v))
    return g_strdup ("-");
  for (i = 0; i < G_N_ELEMENTS (si); i++)
    if (fabs (v) >= si[i].scale)
      return g_strdup_printf ("%.3g %s%s", v / si[i].scale, si[i].prefix,
          unit);
  return g_strdup_printf ("%.3g %s", v, unit);
}

/* Whether roof @i is there to judge @pt's intensity against. */
static gboolean
gp_roofline_has_intensity (const GpRoofline * r, guint i,
    const GpRooflinePoint * pt)
{
  return i < r->roofs->len && !isnan (pt->ai) && pt->ai > 0;
}

gdouble
gp_roofline_point_attainable (const GpRoofline * r, guint i,
    const GpRooflinePoint * pt)
{
  if (gp_roofline_has_intensity (r, i, pt))
    return gp_roofline_attainable (r, i, pt->ai);
  return r->bw_bytes_per_s > 0 ? r->bw_bytes_per_s : NAN;
}

gdouble
gp_roofline_point_fraction (const GpRoofline * r, guint i,
    const GpRooflinePoint * pt)
{
  gdouble att = gp_roofline_point_attainable (r, i, pt);

  if (!(att > 0))
    return NAN;
  if (gp_roofline_has_intensity (r, i, pt))
    return pt->ops_per_s / att;
  return pt->bytes_per_s / att;
}

static void
gp_roofline_set (GpRooflinePoint * pt, const gchar * bound, gchar * reason)
{
  g_free (pt->bound);
  g_free (pt->reason);
  pt->bound = g_strdup (bound);
  pt->reason = reason;
}

const gchar *
gp_roofline_classify (GpRoofline * r, guint i, GpRooflinePoint * pt)
{
  gdouble frac = gp_roofline_point_fraction (r, i, pt);
  gchar *bw = gp_roofline_format (r->bw_bytes_per_s, "B/s");
  gchar *got = gp_roofline_format (pt->bytes_per_s, "B/s");
  const gchar *above = frac > GP_ROOFLINE_ABOVE ? "above the roof (check "
      "the peaks and the work per frame): " : "";

  if (isnan (frac)) {
    gp_roofline_set (pt, NULL, g_strdup ("no roof to judge it against"));
  } else if (!gp_roofline_has_intensity (r, i, pt)) {
    /* bytes only: the memory roof alone */
    gp_roofline_set (pt, frac >= GP_ROOFLINE_NEAR ? "memory" : "neither",
        g_strdup_printf ("%s%s is %.0f %% of the %s memory roof (%s "
            "%.0f %%)", above, got, 100 * frac, bw,
            frac >= GP_ROOFLINE_NEAR ? "at or past" : "far below",
            100 * GP_ROOFLINE_NEAR));
  } else {
    const GpRoof *roof = &g_array_index (r->roofs, GpRoof, i);
    gdouble ridge = gp_roofline_ridge (r, i);
    gchar *ops = gp_roofline_format (pt->ops_per_s, "op/s");
    gchar *peak = gp_roofline_format (roof->ops_per_s, "op/s");
    gchar *att = gp_roofline_format (gp_roofline_attainable (r, i, pt->ai),
        "op/s");
    gboolean near = frac >= GP_ROOFLINE_NEAR;

    if (pt->ai >= ridge && near)
      gp_roofline_set (pt, "compute", g_strdup_printf ("%sintensity %.4g "
              "op/B at or past the %s ridge %.4g: %s is %.0f %% of the %s "
              "roof", above, pt->ai, roof->name, ridge, ops, 100 * frac,
              peak));
    else if (pt->ai < ridge && near)
      gp_roofline_set (pt, "memory", g_strdup_printf ("%sintensity %.4g "
              "op/B below the %s ridge %.4g: %s is %.0f %% of the %s "
              "memory roof", above, pt->ai, roof->name, ridge, got,
              100 * frac, bw));
    else
      gp_roofline_set (pt, "neither", g_strdup_printf ("%s is %.0f %% of "
              "the %s attainable at %.4g op/B (%s ridge %.4g): far below "
              "both roofs, so latency, launches, the CPU or IO hold it",
              ops, 100 * frac, att, pt->ai, roof->name, ridge));
    g_free (att);
    g_free (ops);
    g_free (peak);
  }
  g_free (bw);
  g_free (got);
  return pt->bound;
}
