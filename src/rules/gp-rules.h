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
 * names end in their unit (the suffixes gp_verdict_evidence_item () knows,
 * listed in docs/rules.md, "Evidence": _ms, _pct, _fps, _s, _x, ...; none
 * for counts and names), in the order they should be read; the verdict
 * prints it generically ("self p50 24.1 ms, share 82%, ...").
 *
 * The room, src/rules: findings (docs/rules.md).
 * - gp-rules.c: the registry, one table: id, title, function, the machine a
 *   bench pair verified it on;
 * - gp-rule-<id>.c, one file per rule family: PREROLL, HOT, BUDGET, ZC, SW,
 *   CAPS, FORMAT, WASTE+UNUSED, QUEUE, CPU, STALL+STOPPED, QLEAK+QFULL,
 *   SYNC, LATE, ENC, MEM; gp-rule-machine.c: HW, MEMBW, THERMAL, CPUIO, which wall the
 *   work hits, from the machine's series alone over gp_session_machine_span;
 * - the questions a rule asks about the session are core's
 *   (core/gp-session-query.h); compare's matching of findings by the
 *   evidence keys the rules set is here, beside the rules that set them;
 * - gp-rules-patch.c: the one check every fix passes, whatever core's
 *   builders (core/gp-launch-op.h) made it of (a fix never deletes the
 *   user's caps or an element with work of its own, never edits what a bin
 *   made, never sets a value already set);
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
/* the questions a rule asks of the session (gp_session_work_ms (), ...) */
#include "core/gp-session-query.h"

G_BEGIN_DECLS

typedef struct _GpRule GpRule;

/* Adds zero or more findings for @rule to @s. */
typedef void (*GpRuleFunc) (GpSession * s, const GpRule * rule);

/* What a rule's fix is for, where `gstprof fix --apply` judges the fix by
 * its re-run: a change beyond noise the wrong way on it (latency or CPU or
 * memory up) makes the fix worse. Every fix is also held to the rate at
 * each sink: a fix never delivers less. A bench pair's METRIC is its
 * rule's measure (tests/rules/test-rules-registry.c holds them together). */
typedef enum
{
  GP_RULE_MEASURE_RATE = 0,     /* the rate at each sink, and nothing more */
  GP_RULE_MEASURE_LATENCY = 1 << 0,     /* each path's latency p50 */
  GP_RULE_MEASURE_CPU = 1 << 1, /* the process's CPU, mean */
  GP_RULE_MEASURE_MEMORY = 1 << 2,      /* the process's RSS, at its most */
} GpRuleMeasure;

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
  /* A symptom rule (what a user feels: a stream that stops, falls behind,
   * loses data): the test that holds its measurement to a truth that is
   * not gstprof's. Its finding says what happened, not that a fix helps,
   * so it may say high or medium without a bench pair. NULL for a rule
   * that names a cause. */
  const gchar *measured_by;
  /* what its fix is for, beside the rate (above) */
  GpRuleMeasure measure;
};

/* The rules by what their fix is for, as words: "latency for SYNC and
 * ENC; CPU for ...; memory for MEM" (`gstprof fix --help`, docs). */
gchar *gp_rules_measures_text (void);

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

/* The frames QoS dropped late while the pipeline played, over every
 * element that posted QoS (LATE's count, gp-rule-late.c); -1 when none
 * posted any. */
gint64 gp_rules_late_dropped (GpSession * s);

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

/* A finding's identity across two runs (gp-rules-match.c), for compare:
 * its rule, what it is about named so that renumbering does not change it
 * (gp_session_target_identity ()), and which of a rule's findings on one
 * target it is. Two findings of two runs are the same when their keys
 * are. Newly allocated. */
gchar *gp_rules_finding_key (GpSession * s, const GpFinding * f);

/* Platform knowledge (gp-rules-hw.c): TRUE when an element factory drives
 * hardware (a GPU, VPU or ISP codec or converter), by the table of
 * src/core/gp-hw-factories.h that the tracer uses too (without the klass,
 * which a session does not keep). @plugin, the factory's plugin name, may
 * be NULL. */
gboolean gp_rules_is_hardware_factory (const gchar * factory,
    const gchar * plugin);

/* The machine rules judge a series only with this many samples over the
 * span: fewer are a snapshot, not a steady state (5 s at tegrastats'
 * default interval). */
#define GP_RULES_MACHINE_MIN_SAMPLES 5

G_END_DECLS

#endif /* __GP_RULES_H__ */
