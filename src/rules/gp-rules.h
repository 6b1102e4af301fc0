/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-rules.h: the rule registry. A rule reads only the GpSession (graph,
 * summary, series, events) and adds findings to it, so a saved session gives
 * the same verdict as a live run. gp_rules_run() clears the findings, runs
 * every registered rule and ranks what they found.
 *
 * Adding a rule family: write src/rules/gp-rule-<family>.c with one
 * GpRuleFunc per rule, declare it in gp-rules-private.h, add one line to the
 * table in gp-rules.c, the file to src/rules/meson.build and one section to
 * docs/rules.md. Nothing else (the tracer, the verdict, the JSON) needs to
 * change.
 *
 * Evidence convention: a finding's evidence is a flat JsonObject whose member
 * names end in their unit (_ms, _pct, _fps, _s, no suffix for counts and
 * names), in the order they should be read; the verdict prints it generically
 * ("self p50 24.1 ms, share 82%, ...").
 *
 * The room, src/rules: findings (docs/rules.md).
 * - gp-rules.c: the registry, one table: id, title, function, the machine a
 *   bench pair verified it on;
 * - gp-rule-<id>.c, one file per rule family: PREROLL, HOT, BUDGET, ZC, SW,
 *   CAPS, FORMAT, WASTE+UNUSED, QUEUE, CPU, STALL, QLEAK+QFULL, SYNC, LATE,
 *   ENC, MEM; gp-rule-machine.c: HW, MEMBW, THERMAL, CPUIO, which wall the
 *   work hits, from the machine's series alone over gp_rules_machine_span;
 * - the questions a rule asks about the session are core's
 *   (core/gp-session-query.h); compare's matching of findings by the
 *   evidence keys the rules set is here, beside the rules that set them;
 * - gp-rules-patch.c: the patch kit and the one check every fix passes (a
 *   fix never deletes the user's caps or an element with work of its own,
 *   never edits what a bin made, never sets a value already set);
 * - gp-rules-hw.c: platform knowledge (device memories and their
 *   converters, software-to-hardware swaps per platform, device twins of
 *   software elements; which factories are hardware it asks
 *   core/gp-hw-factories.h, as the tracer does).
 *
 * May depend on: core.
 */
#ifndef __GP_RULES_H__
#define __GP_RULES_H__

#include <glib.h>
#include "core/gp-session.h"

G_BEGIN_DECLS

typedef struct _GpRule GpRule;

/* Adds zero or more findings for @rule to @s. */
typedef void (*GpRuleFunc) (GpSession * s, const GpRule * rule);

struct _GpRule
{
  const gchar *id;              /* "HOT", "BUDGET", ...: finding.rule */
  const gchar *title;           /* one line, for --help and docs */
  GpRuleFunc func;
  /* Name of the machine the rule's high/medium severity was verified on
   * with a bench pair (bad pipeline fires, good twin stays silent), or NULL:
   * an unverified rule may only report "info" and its findings are marked
   * heuristic. */
  const gchar *verified_on;
};

/* Severities, strongest first. */
#define GP_SEVERITY_HIGH "high"
#define GP_SEVERITY_MEDIUM "medium"
#define GP_SEVERITY_INFO "info"

/* The registered rules, in evaluation order; @n_rules receives the count. */
const GpRule *gp_rules_get (guint * n_rules);
const GpRule *gp_rules_find (const gchar * id);

/* Clears s->findings, runs every rule, ranks the findings. */
void gp_rules_run (GpSession * s);

/* Orders s->findings: severity (high > medium > info), then rank_value
 * (descending), then rule id and title so the order is deterministic. */
void gp_rules_rank (GpSession * s);

/* 1 when any finding is high or medium, else 0 (the CLI's exit code). */
gint gp_rules_exit_code (GpSession * s);

/* 3 high, 2 medium, 1 info, 0 unknown. */
gint gp_severity_weight (const gchar * severity);

/* Helpers for rule implementations. gp_rule_add_finding() creates a finding
 * for @rule with the severity clamped to "info" when the rule is not
 * verified (heuristic = TRUE, verified_on = NULL in that case). Targets go
 * in with gp_finding_add_target() (gp-session.h); evidence members with the
 * setters below. */
GpFinding *gp_rule_add_finding (GpSession * s, const GpRule * rule,
    const gchar * severity, const gchar * title);
/* For a case of a verified rule that its bench pair did not cover: back to
 * info, heuristic, no verified_on. */
void gp_finding_mark_unverified (GpFinding * f);
void gp_finding_set_double (GpFinding * f, const gchar * key, gdouble v);
void gp_finding_set_int (GpFinding * f, const gchar * key, gint64 v);
void gp_finding_set_string (GpFinding * f, const gchar * key,
    const gchar * v);

/* Platform knowledge (gp-rules-hw.c): TRUE when an element factory drives
 * hardware (a GPU, VPU or ISP codec or converter), by the table of
 * src/core/gp-hw-factories.h that the tracer uses too (without the klass,
 * which a session does not keep). @plugin, the factory's plugin name, may
 * be NULL. */
gboolean gp_rules_is_hardware_factory (const gchar * factory,
    const gchar * plugin);

/* Queries on the session shared by the rules and the verdict
 * (gp-rules-query.c). They read only the session. */

gboolean gp_rules_is_capsfilter (GpSession * s, const gchar * name);
/* The element next to @name downstream (@down) or upstream, capsfilters
 * skipped; NULL at the end of the chain. */
GpElement *gp_rules_neighbour (GpSession * s, const gchar * name,
    gboolean down);
gboolean gp_rules_is_queue (GpSession * s, const gchar * name);
gboolean gp_rules_is_sink (GpSession * s, const gchar * name);

/* TRUE when @name is a sink whose wall self time includes waiting for the
 * clock (sync=true, or sync unknown: GstBaseSink's default is true). */
gboolean gp_rules_sink_waits_on_clock (GpSession * s, const gchar * name);

/* TRUE when @name is a live source (is-live=true, or a factory that is
 * always live: cameras, network receivers). */
gboolean gp_rules_is_live_source (GpSession * s, const gchar * name);

/* Working self time of an element over the run, in ms: its wall self time,
 * except for a sink that waits on the clock, whose wall time is mostly
 * waiting: its CPU self time then, or -1 when CPU was not measured. Queues
 * are never working time (-1). */
gdouble gp_rules_work_ms (GpSession * s, const GpElementSummary * es);
/* How long @es held each buffer without working: its measured wait, or,
 * where no wait was measured apart (imports), its wall self time. */
const GpQuantiles *gp_rules_held_ms (const GpElementSummary * es);

/* The element's working time as % of the run: its busy_pct (self time
 * over the PLAYING time, as the aggregator measured it) scaled by the part
 * of its self time that is work; -1 when it has no working time. */
gdouble gp_rules_work_busy_pct (GpSession * s, const GpElementSummary * es);

/* What an element's time is in @s, in words for a reader: exclusive self
 * time (work only) for gstprof's own sessions; for an import without it,
 * the element's time from entry to exit, waiting included. Static. */
const gchar *gp_rules_element_time_words (GpSession * s);

/* Sum of gp_rules_work_ms() over every element that has working time
 * (bins left out): the denominator of a "share of the processing time". */
gdouble gp_rules_total_work_ms (GpSession * s);

/* Set (name -> name) of every element upstream of @element through the
 * graph's links, @element included. Free with g_hash_table_unref. */
GHashTable *gp_rules_upstream_of (GpSession * s, const gchar * element);

/* Wall busy share of a streaming thread: the working self time of the
 * elements that ran on it, as % of the run. -1 when it ran none. */
gdouble gp_rules_thread_busy_pct (GpSession * s, const GpThreadSummary * t);

/* The thread whose element list names @element (the busiest one when
 * several do), or NULL. */
GpThreadSummary *gp_rules_thread_of (GpSession * s, const gchar * element);

/* The streaming thread that limits the run: highest wall busy share, then
 * highest CPU; restricted to threads running an element in @only when
 * @only is not NULL. NULL when there are no threads. */
GpThreadSummary *gp_rules_limiting_thread (GpSession * s, GHashTable * only);

/* The thread blocked longest inside an element at the end of the run (a
 * sink holding its preroll, a full queue), or NULL. */
const GpThreadSummary *gp_rules_blocked_thread (GpSession * s);

/* The element with the most working time among @t's elements (queues and
 * clock-waiting sinks without CPU time left out), or NULL. */
GpElementSummary *gp_rules_hottest_on_thread (GpSession * s,
    const GpThreadSummary * t);

/* Target frame rate for a sink: its own, else the session's; < 0 unknown. */
gdouble gp_rules_sink_target_fps (GpSession * s, const gchar * sink);

/* One element on a latency path and the time from its input to the next
 * element's input, from the mean latencies of summary.interlatency: its
 * work and its waiting (a queue's residence, a jitterbuffer's hold, a
 * muxer waiting for its other inputs). */
typedef struct
{
  gchar *element;
  gdouble at_ms;                /* mean latency at its input (0: the origin) */
  gdouble hop_ms;               /* until the next element's input, < 0 unknown */
  gdouble work_ms;              /* its mean self time per buffer, < 0 unknown */
  gboolean queue;               /* a queue: its hop is waiting */
  gboolean exact;               /* buffers matched it by the same running time */
} GpHop;

/* The hops of @path, origin first, sink left out (its latency is measured
 * at its input); NULL when the links do not lead from the sink back to the
 * origin. Free with g_ptr_array_unref. */
GPtrArray *gp_rules_path_hops (GpSession * s, const GpPath * path);
/* The media time per second an audio sink must get: 1.0 (real time) when
 * it plays to the clock or a live source feeds it; < 0 otherwise (a file
 * decoded as fast as it goes has no target) and for other media. */
gdouble gp_rules_sink_target_media_rate (GpSession * s, const gchar * sink);

/* TRUE when element @name and every bin it sits in are the user's:
 * written in the launch string (gp_rules_launch_name ()), not made at run
 * time inside a bin (decodebin's parser, playbin's sinks, glupload's
 * helpers). Without a launch string (imports), where it sits decides. */
gboolean gp_rules_is_users (GpSession * s, const gchar * name);

/* TRUE when @name is, or sits inside, a bin that picks its elements at
 * run time (decodebin, uridecodebin, playbin, their 3s, parsebin). */
gboolean gp_rules_in_autoplug_bin (GpSession * s, const gchar * name);

/* TRUE when every sink below @element writes a file (filesink,
 * splitmuxsink, ...): nobody sees the stream as it is made, so latency
 * costs nothing there, and dropping data loses part of the recording. */
gboolean gp_rules_recording_only (GpSession * s, const gchar * element);

/* The interlatency entry of (@source "element.pad", @element): latency
 * from the origin to @element's input; NULL when not measured. */
GpPath *gp_rules_interlatency (GpSession * s, const gchar * source,
    const gchar * element);

/* What names @name in a way a second run of the same pipeline, or of its
 * fixed twin, names the same: the user's name when it has one; its factory
 * when it is the only one of it (queues and converters aside); else its
 * factory between the nearest factories up and down the links (queues,
 * capsfilters and identity left out: a fix adds and removes those), with a number only where that is not enough, and its bin's
 * identity in front. GStreamer's numbers (queue1 becoming queue2 once a queue is
 * inserted before it) play no part. Newly allocated. */
gchar *gp_rules_element_identity (GpSession * s, const gchar * name);
/* The same for a finding's target: an element, a link id
 * ("a.src->b.sink"), a thread ("el:src", workers "el:s/TID") or a series
 * of the machine ("gpu.load/0", as it is). */
gchar *gp_rules_target_identity (GpSession * s, const gchar * target);

/* The PLAYING part of the run, in s from its start: from the top-level
 * pipeline's PAUSED->PLAYING (else the first window) to its EOS, an
 * interrupt, an error, gstprof's stop (--duration, Ctrl-C: the EOS drain
 * after it is not playing) or the end of the run. */
typedef struct
{
  gdouble t0, t1;
} GpPlayingSpan;
void gp_rules_playing_span (GpSession * s, GpPlayingSpan * span);
/* The span the machine's series are judged over (s from the session's
 * start, as their times): the PLAYING span when the session measured a
 * pipeline, else (a telemetry log alone) the whole log, NAN bounds. */
void gp_rules_machine_span (GpSession * s, GpPlayingSpan * span);
/* The machine rules judge a series only with this many samples over the
 * span: fewer are a snapshot, not a steady state (5 s at tegrastats'
 * default interval). */
#define GP_RULES_MACHINE_MIN_SAMPLES 5

G_END_DECLS

#endif /* __GP_RULES_H__ */
