/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof tests: gp-test-clock.c, see gp-test-clock.h */
#include "gp-test-clock.h"

#include <stdlib.h>

gint
gp_test_cmp_double (gconstpointer a, gconstpointer b)
{
  gdouble x = *(const gdouble *) a, y = *(const gdouble *) b;

  return x < y ? -1 : x > y;
}

gdouble
gp_test_oversleep_ms (gdouble ms)
{
  gdouble over[21];
  guint i;

  for (i = 0; i < G_N_ELEMENTS (over); i++) {
    gint64 t0 = g_get_monotonic_time ();

    g_usleep ((gulong) (ms * 1000));
    over[i] = (g_get_monotonic_time () - t0) / 1000.0 - ms;
  }
  qsort (over, G_N_ELEMENTS (over), sizeof over[0], gp_test_cmp_double);
  return over[G_N_ELEMENTS (over) / 2];
}

gboolean
gp_test_sanitized (void)
{
  const gchar *s = g_getenv ("GP_SANITIZER");

  return s != NULL && *s != '\0';
}
