/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gp-sampler: the machine under the pipeline sampled live, while a capture
 * runs, into a GpMachine (core/gp-machine.h's vocabulary).
 *
 * One thread of its own, never the pipeline's: every window (the capture's
 * window, 250 ms by default) it reads the kernel's files, and between
 * ticks it reads the lines of the vendors' tools it started as they
 * arrive. Its sources (the names in GpMachineSource), each registered
 * also when absent, with what was looked for:
 *
 * - "proc": /proc/stat per core and all (cpu.load), the profiled
 *   process's threads (/proc/PID/task/TID: thread.cpu, % of one core, from
 *   schedstat's ns on the CPU, else utime + stime; at most
 *   GP_SAMPLER_THREADS_MAX threads kept), /proc/meminfo (mem.used/ram and
 *   /swap, limit the total) and the process's VmRSS (process.rss/PID);
 * - "thermal": /sys/class/thermal/thermal_zone* (temp/TYPE, lower case,
 *   limit the lowest passive or hot trip point);
 * - "cpufreq": /sys/devices/system/cpu/cpuN/cpufreq (cpu.freq/N, limit
 *   cpuinfo_max_freq; throttle/cpu: the policy's scaling_max_freq held
 *   below the hardware's);
 * - "devfreq": /sys/class/devfreq (a Jetson's GPU: gpu.freq/0; its EMC:
 *   mem.freq/emc; limit max_freq);
 * - "rails": a Jetson's INA3221 power monitors (hwmon or, JetPack 4, iio:
 *   power/RAIL in W and power/board);
 * - "tegrastats" and "nvidia-smi": one child each when the tool is in
 *   PATH, asked for one sample a window, its stdout read line by line
 *   (gp-telemetry's vocabulary), its stderr's end kept for the detail,
 *   stopped (SIGTERM, a bounded wait, SIGKILL) and reaped at the end. A
 *   field nvidia-smi refuses is dropped and the query asked again.
 *
 * The kernel's files are read under $GP_PROC_ROOT and $GP_SYSFS_ROOT
 * (default "/"), so that a stand-in tree can be read instead.
 * Times are s from @start_us; a rate (cpu.load, thread.cpu) is stamped at
 * the end of the window it covers.
 */
#ifndef __GP_SAMPLER_H__
#define __GP_SAMPLER_H__

#include <glib.h>

#include "core/gp-machine.h"

G_BEGIN_DECLS

/* Threads of the profiled process kept per run (the first seen): a
 * GStreamer pipeline has tens, a series each; more is a thread pool
 * whose members say little one by one. */
#define GP_SAMPLER_THREADS_MAX 64
/* Samples a series keeps: beyond it, neighbours are merged pairwise (a
 * day at 250 ms is 345 600 a series). */
#define GP_SAMPLER_SERIES_MAX 32768

typedef struct
{
  guint window_ms;              /* the tick; 0: 250 */
  gint64 start_us;              /* g_get_monotonic_time () at the
                                 * session's t = 0; 0: now */
  gint pid;                     /* the profiled process (threads, RSS);
                                 * 0: none */
  gboolean tools;               /* start tegrastats / nvidia-smi children
                                 * when they are in PATH */
} GpSamplerOptions;

typedef struct _GpSampler GpSampler;

void gp_sampler_options_init (GpSamplerOptions * opts);

/* Starts sampling into @m, which belongs to the sampler until
 * gp_sampler_stop () returns. NULL with @error when its thread cannot
 * be made. */
GpSampler *gp_sampler_start (GpMachine * m, const GpSamplerOptions * opts,
    GError ** error);
/* Stops, joins the thread, stops and reaps the children, records the cost
 * (m->cost_pct: the thread's CPU time and the children's, % of one core
 * over the sampler's life) and frees the sampler. */
void gp_sampler_stop (GpSampler * sampler);

/* While held, the sampler's thread does not write its machine, which a
 * live view may then read (a tick waits for it: hold it briefly). */
void gp_sampler_lock (GpSampler * sampler);
void gp_sampler_unlock (GpSampler * sampler);

G_END_DECLS
#endif /* __GP_SAMPLER_H__ */
