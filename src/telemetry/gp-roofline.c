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
