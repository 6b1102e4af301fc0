/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-gate.h: `gstprof gate`, a performance gate for CI (docs/ci.md).
 *
 * Each run of a pipeline (a session, the rules run) comes down to its
 * figures (GpGateRun): each sink's steady rate (0 for one that stopped),
 * each path's latency p50 and p95, the process's CPU per frame, the self
 * time p50 of the elements that work, the buffers leaky queues dropped and the frames QoS dropped
 * late, each live sink's lateness p95, and the findings at medium or
 * above. Every figure is keyed by what names its element the same in any
 * run of the same pipeline (gp_session_element_identity: GStreamer's
 * numbers, identity0 in one run and identity1 in the next, play no part).
 *
 * A baseline (GpGateBaseline, a JSON file) holds the figures of N runs,
 * what ran (the launch string or the program, and its elements), the
 * machine and the GStreamer version. Judging N new runs against it, a
 * metric is a regression only when both hold:
 * - its median moved the wrong way by more than its threshold (a share of
 *   the baseline's median, and never less than the measurement's
 *   resolution: GpGateKind; nor than the machine's own drift between the
 *   two sets, by the fixed work the sampler times each tick, as compare
 *   widens its bands), and
 * - the two sets of runs differ beyond their noise: the exact one-sided
 *   Wilcoxon-Mann-Whitney rank test (core/gp-stats.h) gives p below
 *   GP_GATE_ALPHA. With too few runs for the test to reach that (every
 *   arrangement, 1 / C(na + nb, nb), must be under it: 5 and 5 can, 4 and
 *   5 too, 4 and 4 cannot), the threshold alone judges, and the output
 *   says so; per metric, as a figure some runs lack has fewer values.
 * A finding at medium or above is a regression when it is in more than
 * half of the new runs and in none of the baseline's.
 */
#ifndef __GP_GATE_H__
#define __GP_GATE_H__

#include <glib.h>
#include "core/gp-session.h"

G_BEGIN_DECLS

/* A regression must be this unlikely to be noise: one metric in a hundred
 * of an unchanged pipeline could pass it by chance, and the threshold
 * must be crossed as well. */
#define GP_GATE_ALPHA 0.01
/* The runs a side a gate makes by default: with 5 and 5 the rank test can
 * reach GP_GATE_ALPHA (every new run worse than every baseline run is p =
 * 1/252). */
#define GP_GATE_RUNS_DEFAULT 5
/* The runs a gate takes at most (the rank test's own bound). */
#define GP_GATE_RUNS_MAX 64
/* An element's self time is gated when it had this share of all the
 * elements' self time: every element that does work, whatever its share
 * (one that grows from 8 % to 25 % is the regression), but not those the
 * tracer sees only pass buffers on (their time is its own resolution;
 * the self kind's floor keeps their moves from counting too). */
#define GP_GATE_SELF_SHARE_PCT 1.0

typedef enum
{
  GP_GATE_RATE,                 /* a sink's steady rate, fps */
  GP_GATE_LATENCY,              /* a path's latency p50, ms */
  GP_GATE_LATENCY_P95,          /* a path's latency p95, ms */
  GP_GATE_CPU,                  /* the process's CPU per frame, ms */
  GP_GATE_SELF,                 /* a heavy element's self time p50, ms */
  GP_GATE_DROPPED,              /* buffers the leaky queues dropped, and
                                 * frames dropped late on QoS */
  GP_GATE_LATE,                 /* a live sink's lateness p95, ms */
  GP_GATE_N_KINDS
} GpGateKind;

/* The kinds' names (as --max-regress takes them), in GpGateKind order. */
const gchar *gp_gate_kind_name (GpGateKind kind);

/* The threshold of each kind, as a share of the baseline (0.10: 10 %). */
typedef struct
{
  gdouble max_regress[GP_GATE_N_KINDS];
} GpGateThresholds;

/* The defaults (docs/ci.md gives each one's reason). */
void gp_gate_thresholds_init (GpGateThresholds * t);
/* "cpu=10%" or "rate=5%,latency=20%": the named kinds' thresholds set;
 * FALSE with a one-line @error naming the bad part. */
gboolean gp_gate_thresholds_parse (GpGateThresholds * t, const gchar * text,
    GError ** error);

/* A rate's unit when it is not frames (the sink's media: an RTP sink
 * counts packets, an audio or muxed one buffers); a self time's element's
 * buffers, in media time (the gate judges a self time per second of media
 * when they changed size by more than this share: 0.5 ms of work on 1 ms
 * buffers is more work than 1 ms on 20 ms buffers). */
#define GP_GATE_BUFFER_CHANGE 0.10

/* One run's figures. */
typedef struct
{
  GHashTable *metrics;          /* "KIND IDENTITY" -> gdouble* */
  GHashTable *units;            /* "rate IDENTITY" -> a static unit, when
                                 * not "fps"; may be NULL */
  GHashTable *buffer_ms;        /* "self IDENTITY" -> gdouble*: the mean
                                 * media time of the buffers into that
                                 * element, ms; may be NULL */
  GPtrArray *findings;          /* gchar*: "RULE severity: targets" */
  gdouble reference_ns;         /* the machine's fixed work, ns a round
                                 * (gp_compare_machine_reference); NAN
                                 * unknown */
} GpGateRun;

/* @s's figures (its rules run already). */
GpGateRun *gp_gate_run_of_session (GpSession * s);
void gp_gate_run_free (GpGateRun * run);

typedef struct
{
  gchar *what;                  /* "launch", "program" or "sessions" */
  gchar *pipeline;              /* the launch string or the program's
                                 * command line (said, not compared); NULL
                                 * for sessions without a launch string */
  GPtrArray *elements;          /* gchar*: the elements' identities, sorted */
  gchar *machine;               /* gp_gate_machine () where it ran */
  gchar *gstreamer;             /* its version */
  gchar *recorded;              /* ISO 8601 UTC */
  GPtrArray *runs;              /* GpGateRun* */
} GpGateBaseline;

/* A new baseline of @what (ran as @pipeline) from @sessions (GpSession*,
 * rules run): their figures, the first one's elements and GStreamer
 * version, this machine. */
GpGateBaseline *gp_gate_baseline_new (const gchar * what,
    const gchar * pipeline, GPtrArray * sessions);
void gp_gate_baseline_free (GpGateBaseline * b);

/* Written atomically as JSON (docs/ci.md); FALSE with @error naming
 * @path. */
gboolean gp_gate_baseline_save (const GpGateBaseline * b,
    const gchar * path, GError ** error);
/* Read back; NULL with a one-line @error naming @path and what is wrong
 * (GP_SESSION_ERROR). */
GpGateBaseline *gp_gate_baseline_load (const gchar * path, GError ** error);
/* The same from @len bytes of @data, @origin naming them in errors. */
GpGateBaseline *gp_gate_baseline_parse (const gchar * data, gsize len,
    const gchar * origin, GError ** error);

/* This machine, as a gate tells machines apart: the CPU's model, how many
 * CPUs, and the platform (the GPU or the Jetson model). A new string. */
gchar *gp_gate_machine (void);

/* The identities of @s's elements (bins left out), sorted: what a gate
 * calls the pipeline, whatever its properties and caps (a property or a
 * caps change is what a gate is for). */
GPtrArray *gp_gate_elements_of (GpSession * s);

/* Whether runs with @elements are of @base's pipeline; FALSE with the
 * reason in @why (a new one-line string). */
gboolean gp_gate_same_pipeline (const GpGateBaseline * base,
    GPtrArray * elements, gchar ** why);
/* Whether runs here (@machine, GStreamer @gstreamer) may be judged against
 * @base: the same machine and version, or @other_machine; FALSE with the
 * reason in @why. */
gboolean gp_gate_same_machine (const GpGateBaseline * base,
    const gchar * machine, const gchar * gstreamer, gboolean other_machine,
    gchar ** why);

typedef enum
{
  GP_GATE_SAME,                 /* within the threshold */
  GP_GATE_NOISE,                /* beyond the threshold, within the noise */
  GP_GATE_IMPROVED,
  GP_GATE_REGRESSION,
  GP_GATE_UNMATCHED,            /* in under half the runs of one side */
} GpGateVerdict;

typedef struct
{
  gchar *metric;                /* "KIND IDENTITY", or "finding RULE ..." */
  GpGateKind kind;              /* GP_GATE_N_KINDS for a finding */
  gdouble base, now;            /* medians; findings: runs with it */
  guint base_runs, now_runs;    /* runs that had it */
  gdouble change;               /* (now - base) / |base|; NAN unknown */
  gdouble noise;                /* the runs' half-range over their median,
                                 * the larger side's; NAN unknown */
  gdouble p;                    /* the rank test's, in the worse or better
                                 * direction the medians moved; NAN when it
                                 * could not reach GP_GATE_ALPHA */
  gdouble threshold;            /* the share the metric had to move */
  GpGateVerdict verdict;
  const gchar *unit;            /* the values' unit (static) */
  /* a self time judged per second of media (ms of work a second), for
   * its buffers changed size: their median media time a side (ms); NAN
   * when judged per buffer */
  gdouble base_buffer_ms, now_buffer_ms;
} GpGateRow;

typedef struct
{
  GArray *rows;                 /* GpGateRow, in the metrics' order */
  /* how much slower (> 0) or faster the machine was for the new runs:
   * their reference work's median over the baseline's, less 1; NAN
   * unknown. A kind the machine's speed moves (all but dropped) has its
   * threshold at least this wide. */
  gdouble drift;
  guint regressions, improvements;
  guint base_n, now_n;          /* runs a side */
  gboolean testable;            /* the rank test can reach GP_GATE_ALPHA */
} GpGateResult;

/* @now's runs against @base's, each metric by @t. */
GpGateResult *gp_gate_judge (const GpGateBaseline * base,
    const GpGateBaseline * now, const GpGateThresholds * t);
void gp_gate_result_free (GpGateResult * r);

/* The table: metric, baseline, now, change, noise, p, verdict; a method
 * line above it and a result line below. */
gchar *gp_gate_format (const GpGateResult * r, const gchar * base_path);
/* JUnit XML: one test case a metric, a failure for each regression (as
 * GitLab and GitHub show test reports). */
gchar *gp_gate_junit (const GpGateResult * r, const gchar * failed_why);
/* A Markdown summary for a merge request's comment. */
gchar *gp_gate_markdown (const GpGateResult * r, const gchar * base_path,
    const gchar * failed_why);

G_END_DECLS
#endif /* __GP_GATE_H__ */
