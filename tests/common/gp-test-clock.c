/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof tests: gp-test-clock.c, see gp-test-clock.h */
#include "gp-test-clock.h"

#include <stdlib.h>
#include <string.h>

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

gboolean
gp_test_emulated (void)
{
  static gint emulated = -1;
  const gchar *env;
  gchar *arch = NULL;

  if (emulated >= 0)
    return emulated;
  env = g_getenv ("GP_EMULATED");
  if (env != NULL && *env != '\0') {
    emulated = strcmp (env, "0") != 0;
    return emulated;
  }
  emulated = 0;
  /* only where the kernel's name for this program's architecture is
   * certain: an i386 or armhf program runs natively on a 64-bit kernel */
#if defined(__x86_64__) || defined(__aarch64__)
  if (g_file_get_contents ("/proc/sys/kernel/arch", &arch, NULL, NULL)) {
    g_strchomp (arch);
#if defined(__x86_64__)
    emulated = strcmp (arch, "x86_64") != 0;
#else
    emulated = strcmp (arch, "aarch64") != 0;
#endif
    g_free (arch);
  }
#endif
  return emulated;
}
