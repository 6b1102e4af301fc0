/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the machine samplers cost (bench/machine-cost.sh): every sampler
 * of telemetry/gp-sampler.h at the window asked for (default 250 ms, the
 * capture's), for SECONDS (default 10), this process being the one
 * profiled; then their CPU time as a % of one core two ways: what the
 * sampler itself says (its thread's CPU clock and its children's rusage:
 * GpMachine.cost_pct) and this process's own getrusage (self, every thread,
 * and its reaped children) over the same wall time, the main thread
 * asleep meanwhile. Not a test: it prints, it does not judge.
 *
 *   gp-bench-machine [SECONDS [WINDOW_MS]]
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

#include "telemetry/gp-sampler.h"

static double
bench_cpu_s (int who)
{
  struct rusage ru;

  getrusage (who, &ru);
  return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
      ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

int
main (int argc, char **argv)
{
  double seconds = argc > 1 ? atof (argv[1]) : 10;
  unsigned window = argc > 2 ? (unsigned) atoi (argv[2]) : 250;
  GpSamplerOptions o;
  GpMachine *m;
  GpSampler *s;
  GError *error = NULL;
  double self0, kids0, self1, kids1;
  gint64 t0, t1;
  guint i;

  if (seconds <= 0 || window < 10) {
    fprintf (stderr, "gp-bench-machine: SECONDS above 0, WINDOW_MS 10 or "
        "more\n");
    return 3;
  }
  gp_sampler_options_init (&o);
  o.window_ms = window;
  o.pid = getpid ();
  m = gp_machine_new ();
  self0 = bench_cpu_s (RUSAGE_SELF);
  kids0 = bench_cpu_s (RUSAGE_CHILDREN);
  t0 = g_get_monotonic_time ();
  s = gp_sampler_start (m, &o, &error);
  if (s == NULL) {
    fprintf (stderr, "gp-bench-machine: %s\n", error->message);
    return 2;
  }
  g_usleep ((gulong) (seconds * 1e6));
  gp_sampler_stop (s);
  t1 = g_get_monotonic_time ();
  self1 = bench_cpu_s (RUSAGE_SELF);
  kids1 = bench_cpu_s (RUSAGE_CHILDREN);
  for (i = 0; i < m->sources->len; i++) {
    GpMachineSource *src = g_ptr_array_index (m->sources, i);

    printf ("  %-10s %-7s %5" G_GUINT64_FORMAT " samples\n", src->name,
        src->state ? src->state : "-", src->samples);
  }
  printf ("  %u series over %.1f s at %u ms\n", m->series->len,
      (t1 - t0) / 1e6, window);
  printf ("cost_pct (sampler's own count): %.3f %% of one core\n",
      m->cost_pct);
  printf ("getrusage (process + children): %.3f %% of one core "
      "(self %.3f s, children %.3f s)\n",
      (self1 - self0 + kids1 - kids0) / ((t1 - t0) / 1e6) * 100,
      self1 - self0, kids1 - kids0);
  gp_machine_free (m);
  return 0;
}
