/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof tests: what this machine's timing gives a test that holds a
 * measured time against a planted one. GLib only, so that test programs
 * that load the tracer as any application does (tests/tracer) use it
 * without gstprof's core. */
#ifndef __GP_TEST_CLOCK_H__
#define __GP_TEST_CLOCK_H__

#include <glib.h>

G_BEGIN_DECLS

/* How much longer than @ms a sleep of @ms takes on this machine now: the
 * median of 21 g_usleep ()s timed by the monotonic clock, in ms. The truth
 * of an `identity sleep-time` is the sleep as the kernel gives it, which
 * is this much over what was asked on a loaded or virtual machine. */
gdouble gp_test_oversleep_ms (gdouble ms);

/* The same, sampled beside a run rather than before or after it: a
 * thread sleeps @ms again and again from gp_test_oversleep_begin () until
 * gp_test_oversleep_end (), which gives its samples' mean and median
 * oversleep in ms (either may be NULL). An identity that sleeps during the
 * run meets that run's load: on a machine busy with 4 test programs on 2
 * cores, a 20 ms sleep took 23.6 ms during a capture and 20.1 ms after. */
typedef struct _GpTestOversleep GpTestOversleep;
GpTestOversleep *gp_test_oversleep_begin (gdouble ms);
void gp_test_oversleep_end (GpTestOversleep * o, gdouble * mean_ms,
    gdouble * median_ms);

/* Orders two gdoubles (g_array_sort, qsort). */
gint gp_test_cmp_double (gconstpointer a, gconstpointer b);

/* Under a sanitizer (tools/run-asan.sh sets GP_SANITIZER): every program
 * runs several times slower, and a test that holds a wall-clock bound
 * widens that bound only, saying why. */
gboolean gp_test_sanitized (void);

/* Under emulation: this program was built for another architecture than
 * the kernel's and runs through qemu-user (a foreign root run by
 * binfmt_misc, as ../shared/tools/fresh-machine-check ARCH=arm64 does).
 * qemu-user answers uname () with the guest's machine, but not
 * /proc/sys/kernel/arch (Linux 6.1 and later), which is the kernel's own;
 * GP_EMULATED=1 (or 0) says it where that file is missing.  Every
 * instruction is translated there, floating point through software
 * helpers, and timers fire late: a test that holds a time or a rate
 * against a bound widens that bound only, saying by how much it measured
 * the emulation to cost. */
gboolean gp_test_emulated (void);

G_END_DECLS

#endif /* __GP_TEST_CLOCK_H__ */
