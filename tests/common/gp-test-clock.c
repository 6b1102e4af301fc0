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

struct _GpTestOversleep
{
  gdouble ms;
  gint stop;                    /* atomic */
  GArray *over;                 /* gdouble, the sampling thread's */
  GThread *thread;
};

static gpointer
gp_test_oversleep_loop (gpointer data)
{
  GpTestOversleep *o = data;

  while (!g_atomic_int_get (&o->stop)) {
    gint64 t0 = g_get_monotonic_time ();
    gdouble over;

    g_usleep ((gulong) (o->ms * 1000));
    over = (g_get_monotonic_time () - t0) / 1000.0 - o->ms;
    g_array_append_val (o->over, over);
  }
  return NULL;
}

GpTestOversleep *
gp_test_oversleep_begin (gdouble ms)
{
  GpTestOversleep *o = g_new0 (GpTestOversleep, 1);

  o->ms = ms;
  o->over = g_array_new (FALSE, FALSE, sizeof (gdouble));
  o->thread = g_thread_new ("oversleep", gp_test_oversleep_loop, o);
  return o;
}

void
gp_test_oversleep_end (GpTestOversleep * o, gdouble * mean_ms,
    gdouble * median_ms)
{
  gdouble sum = 0;
  guint i;

  g_atomic_int_set (&o->stop, 1);
  g_thread_join (o->thread);
  g_array_sort (o->over, gp_test_cmp_double);
  for (i = 0; i < o->over->len; i++)
    sum += g_array_index (o->over, gdouble, i);
  if (mean_ms)
    *mean_ms = o->over->len ? sum / o->over->len : 0;
  if (median_ms)
    *median_ms = o->over->len ? g_array_index (o->over, gdouble,
        o->over->len / 2) : 0;
  g_array_unref (o->over);
  g_free (o);
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
