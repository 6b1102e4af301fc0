/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gp-machine: the machine under the pipeline, as a session keeps it.
 *
 * Whatever sampled the machine (the /proc and sysfs samplers, a tegrastats
 * child or log, an nvidia-smi loop or CSV) hands its values over in one
 * vocabulary, so that what reads them (the verdict's Machine section, the
 * THERMAL, HW, MEMBW and CPUIO rules, `gstprof plot`, `gstprof roofline`)
 * never asks which tool printed them:
 *
 * - a series is one quantity of one instance over time: its name is
 *   "QUANTITY/INSTANCE" (`gpu.load/0`, `temp/tj`, `cpu.load/all`), with the
 *   quantity one of the GP_MACHINE_* names below and its unit the one that
 *   quantity is always kept in (GP_UNIT_*): a tegrastats rail in mW and an
 *   nvidia-smi power.draw in W both land in W;
 * - its times are seconds from the session's start (the capture's or the
 *   log's first sample), its values NAN where the tool printed the field
 *   but had no value (`[N/A]`, `-256C`);
 * - its limit is the line the value is held against: a clock's maximum, a
 *   thermal zone's first passive or hot trip point, a power cap, a memory's
 *   total; NAN when there is none;
 * - a source says whether it ran: every sampler registers itself, also when
 *   its device, file or tool is absent, so a report can say what was not
 *   looked at and why;
 * - facts are what does not change during the run (identity, core counts,
 *   clocks' maxima, the machine's measured bandwidth) as short strings.
 *
 * Plain GLib, no GStreamer: src/telemetry fills it, the session keeps it
 * (GpSession.machine) and gp-session-write / gp-session-read carry it as
 * session.machine (docs/session-schema.md).
 */
#ifndef __GP_MACHINE_H__
#define __GP_MACHINE_H__

#include <glib.h>

G_BEGIN_DECLS

/* The units, one per quantity. */
#define GP_UNIT_PCT "%"
#define GP_UNIT_MHZ "MHz"
#define GP_UNIT_C "C"
#define GP_UNIT_W "W"
#define GP_UNIT_MIB "MiB"
#define GP_UNIT_GBPS "GB/s"
#define GP_UNIT_NS "ns"
#define GP_UNIT_NONE ""

/* The quantities (the part of a series' name before the '/'), with their
 * unit and what the instance names. */
#define GP_MACHINE_CPU_LOAD "cpu.load"  /* %: "all", or the core "0".. */
#define GP_MACHINE_CPU_FREQ "cpu.freq"  /* MHz, limit its max: core "0".. */
#define GP_MACHINE_CPU_REF "cpu.ref"    /* ns of CPU time a round of a fixed
                                         * piece of work took on the
                                         * sampler's thread: "xorshift";
                                         * what the machine gave a thread
                                         * then, against another run's
                                         * (`compare`) */
#define GP_MACHINE_THREAD_CPU "thread.cpu"      /* % of one core: "TID name" */
#define GP_MACHINE_MEM_USED "mem.used"  /* MiB, limit the total: "ram",
                                         * "swap" */
#define GP_MACHINE_RSS "process.rss"    /* MiB: the process, "PID" */
#define GP_MACHINE_TEMP "temp"  /* C, limit its trip point: the zone or
                                 * sensor, lower case ("tj", "gpu", "cpu") */
#define GP_MACHINE_GPU_LOAD "gpu.load"  /* %: the GPU's index ("0"); GR3D on
                                         * a Jetson is "0" */
#define GP_MACHINE_GPU_FREQ "gpu.freq"  /* MHz, limit its max: GPU index */
#define GP_MACHINE_GPU_MEM "gpu.mem"    /* MiB, limit the total: GPU index */
#define GP_MACHINE_MEMBW_LOAD "membw.load"      /* %: the memory's busy share,
                                                 * EMC% on a Jetson ("emc"),
                                                 * dmon `mem` / utilization.memory
                                                 * per GPU index */
#define GP_MACHINE_MEM_FREQ "mem.freq"  /* MHz, limit its max: "emc", or the
                                         * GPU index */
#define GP_MACHINE_ENGINE_LOAD "engine.load"    /* %: "NVDEC", "NVENC1",
                                                 * "VIC", "NVJPG", "DLA0";
                                                 * an engine printed with a
                                                 * clock and no load is not
                                                 * a load series */
#define GP_MACHINE_ENGINE_FREQ "engine.freq"    /* MHz: the same names */
#define GP_MACHINE_POWER "power"        /* W, limit the cap: a rail
                                         * ("VDD_IN"), "board" (the input
                                         * rail or the rails' sum), or the
                                         * GPU index */
#define GP_MACHINE_THROTTLE "throttle"  /* GP_UNIT_NONE: a GpMachineThrottle
                                         * bit set per sample (GPU index,
                                         * or "cpu" from cpufreq) */

/* Why clocks were held down, the same bits whichever tool said so. */
typedef enum
{
  GP_MACHINE_THROTTLE_THERMAL = 1 << 0, /* hw or sw thermal slowdown, a
                                         * zone past its trip */
  GP_MACHINE_THROTTLE_POWER = 1 << 1,   /* power cap, hw power brake */
  GP_MACHINE_THROTTLE_OTHER = 1 << 2,   /* sync boost, app clocks, ... */
} GpMachineThrottle;

/* The states of a source. */
#define GP_MACHINE_SAMPLED "sampled"    /* gave at least one sample */
#define GP_MACHINE_ABSENT "absent"      /* not on this machine: detail says
                                         * what was looked for */
#define GP_MACHINE_FAILED "failed"      /* there, but it failed: detail says
                                         * how (a child's stderr, cut) */

typedef struct
{
  gchar *name;                  /* "QUANTITY/INSTANCE" */
  gchar *unit;                  /* GP_UNIT_* of the quantity */
  gchar *source;                /* the GpMachineSource that filled it */
  gdouble limit;                /* NAN: none */
  GArray *t;                    /* gdouble: s from the session's start */
  GArray *v;                    /* gdouble: NAN missing; a merged sample's
                                 * the mean of the values it holds */
  /* NULL until gp_machine_series_thin () first merged neighbours: then
   * one GpMachineMerged per sample, so that the maximum, the minimum and
   * the mean stay those of every sample appended (in memory only:
   * session.json keeps t and v) */
  GArray *merged;
} GpMachineSeries;

typedef struct
{
  guint64 n;                    /* values merged into the sample (0: missing) */
  gdouble max;
  gdouble min;
} GpMachineMerged;

typedef struct
{
  gchar *name;                  /* "proc", "thermal", "cpufreq", "devfreq",
                                 * "rails", "tegrastats", "nvidia-smi", or
                                 * a log's file name */
  gchar *state;                 /* GP_MACHINE_SAMPLED / ABSENT / FAILED */
  gchar *detail;                /* may be NULL */
  guint64 samples;              /* ticks: one tegrastats line, one query */
  gdouble interval_s;           /* what it was asked for; < 0 unknown */
} GpMachineSource;

typedef struct
{
  GPtrArray *sources;           /* GpMachineSource*, in registration order */
  GPtrArray *series;            /* GpMachineSeries*, in creation order */
  GPtrArray *facts;             /* gchar* pairs: key, value, key, value */
  /* the samplers' own CPU time over the run, in % of one core; < 0 when
   * not measured */
  gdouble cost_pct;
} GpMachine;

GpMachine *gp_machine_new (void);
void gp_machine_free (GpMachine * m);
/* A deep copy: every sample as it is, merged ones with their counts. */
GpMachine *gp_machine_copy (const GpMachine * m);

/* The source @name, added (state NULL, samples 0) when it is not there. */
GpMachineSource *gp_machine_source (GpMachine * m, const gchar * name);
GpMachineSource *gp_machine_find_source (const GpMachine * m,
    const gchar * name);
/* Sets @name's state and detail (copied; @detail may be NULL). */
void gp_machine_source_set (GpMachine * m, const gchar * name,
    const gchar * state, const gchar * detail);

/* The series @quantity/@instance, added with @unit, @source and no limit
 * when it is not there. */
GpMachineSeries *gp_machine_series (GpMachine * m, const gchar * quantity,
    const gchar * instance, const gchar * unit, const gchar * source);
/* Appends one sample (times must not go back: an earlier one is dropped
 * and FALSE returned; a value beyond any measurement, GP_JSON_MAX_MAGNITUDE,
 * is kept missing); the source becomes sampled if it had no state. A
 * sampler counts its own samples (one tick, many series) in the source. */
gboolean gp_machine_series_append (GpMachine * m, GpMachineSeries * s,
    gdouble t, gdouble v);
/* Halves @s: each pair of neighbours becomes one sample at the later
 * time, its value the mean of the pair's values weighted by how many each
 * holds, its maximum and minimum kept (the last sample alone when the
 * count is odd). Readers that append without end call it past a bound
 * of their own, so memory stays bounded whatever the length. */
void gp_machine_series_thin (GpMachineSeries * s);
/* A copy of @s halved by gp_machine_series_thin () until it holds at most
 * @max samples (@max >= 1); free with gp_machine_series_free (). */
GpMachineSeries *gp_machine_series_thinned (const GpMachineSeries * s,
    guint max);
void gp_machine_series_free (GpMachineSeries * s);

/* The series @quantity/@instance, or with @instance NULL the first series
 * of @quantity; NULL when none. */
GpMachineSeries *gp_machine_find (const GpMachine * m,
    const gchar * quantity, const gchar * instance);
/* Every series of @quantity, in creation order (a new array of borrowed
 * pointers). */
GPtrArray *gp_machine_find_all (const GpMachine * m, const gchar * quantity);
/* The quantity and the instance of a series' name: borrowed / new string. */
gchar *gp_machine_series_quantity (const GpMachineSeries * s);
const gchar *gp_machine_series_instance (const GpMachineSeries * s);

/* Every time less @dt s (a machine sampled from another start than its
 * session's), the samples that fall before 0 left out. */
void gp_machine_shift (GpMachine * m, gdouble dt);

guint gp_machine_series_len (const GpMachineSeries * s);
gdouble gp_machine_series_t (const GpMachineSeries * s, guint i);
gdouble gp_machine_series_v (const GpMachineSeries * s, guint i);
/* Over the samples with @t0 <= t <= @t1 (NAN bounds: all), missing values
 * left out: their mean, maximum, minimum, the share of them at or above
 * @threshold (0..1), and how many there were. NAN when none. A merged
 * sample counts as the samples it holds, its maximum and minimum its
 * own; for the share, all of them are above when its minimum is, none
 * when its maximum is not, else as its mean is. */
gdouble gp_machine_series_mean (const GpMachineSeries * s, gdouble t0,
    gdouble t1);
gdouble gp_machine_series_max (const GpMachineSeries * s, gdouble t0,
    gdouble t1);
gdouble gp_machine_series_min (const GpMachineSeries * s, gdouble t0,
    gdouble t1);
gdouble gp_machine_series_share_above (const GpMachineSeries * s,
    gdouble threshold, gdouble t0, gdouble t1);
guint gp_machine_series_count (const GpMachineSeries * s, gdouble t0,
    gdouble t1);

/* Facts: set (replacing) and read; NULL when unknown. */
void gp_machine_set_fact (GpMachine * m, const gchar * key,
    const gchar * value);
void gp_machine_set_fact_double (GpMachine * m, const gchar * key,
    gdouble value);
const gchar *gp_machine_fact (const GpMachine * m, const gchar * key);
gdouble gp_machine_fact_double (const GpMachine * m, const gchar * key);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GpMachine, gp_machine_free)

G_END_DECLS
#endif /* __GP_MACHINE_H__ */
