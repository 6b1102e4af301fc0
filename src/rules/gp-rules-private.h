/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-rules-private.h: the rule families' entry points, listed in the table
 * in gp-rules.c, and the knowledge they share (platforms, the patch check).
 * The questions they ask of the session are core's
 * (core/gp-session-query.h), as the verdict and compare ask them too.
 */
#ifndef __GP_RULES_PRIVATE_H__
#define __GP_RULES_PRIVATE_H__

#include "gp-rules.h"
/* caps text (gp_caps_format (), ...), which ZC, SW, CAPS and FORMAT read */
#include "core/gp-caps.h"
#include "core/gp-launch-op.h"

G_BEGIN_DECLS

/* gp-rule-preroll.c: a pipeline that never reached PLAYING */
void gp_rule_preroll (GpSession * s, const GpRule * rule);
/* gp-rule-hot.c */
void gp_rule_hot (GpSession * s, const GpRule * rule);
/* gp-rule-budget.c: throughput and latency against the frame budget */
void gp_rule_budget (GpSession * s, const GpRule * rule);
/* gp-rule-behind.c: a live pipeline that falls behind real time; playback
 * that does (SLOW) */
void gp_rule_behind (GpSession * s, const GpRule * rule);
void gp_rule_slow (GpSession * s, const GpRule * rule);
void gp_rule_buffering (GpSession * s, const GpRule * rule);
/* One QoS poster's counts over the PLAYING span (events[] of type qos) */
typedef struct
{
  gchar *source;
  guint64 processed, dropped;   /* its largest running totals */
  guint64 base_processed, base_dropped; /* counted before it played */
  guint64 late;                 /* drops whose message said late */
  guint64 not_late;             /* drops whose message said early: not
                                 * lateness (a decoder's decode errors) */
  guint messages;               /* the messages of late drops */
  gdouble first_t, last_t;      /* the first and last of those */
} GpQosCount;
/* Each QoS poster's counts (GpQosCount*, in the order they first
 * posted). */
GPtrArray *gp_rules_qos_collect (GpSession * s);
/* The buffers @c's poster handled: those on the link into it, else its
 * QoS totals. */
guint64 gp_rules_qos_handled (GpSession * s, const GpQosCount * c);
/* Whether a BUFFERING finding at medium or above names an element that
 * feeds @sink: its pauses are why the sink got less than its rate (SLOW
 * and BUDGET step aside). */
gboolean gp_rule_buffered (GpSession * s, const gchar * sink);
/* The source among @up (not live) that waited for its data the longest,
 * when it waited GP_SLOW_SUPPLY_WAIT_PCT of the run or more, and the bytes
 * a second its output carried (steady): what supplies the playback, and
 * slower than the media needs. NULL when none. */
GpElementSummary *gp_rule_supplier (GpSession * s, GHashTable * up,
    gdouble * bytes_per_s, gdouble * wait_pct);
/* The fix text for a supply that is too slow, by what @supplier reads. */
gchar *gp_rule_supply_fix (GpSession * s, const GpElementSummary * supplier);

/* What limits the elements of @up (a set of names, gp_session_upstream_of):
 * the limiting thread among those running them, how busy it is, and its
 * hottest element with that element's share of all the processing; the
 * thread is saturated (the limit) when busy >= GP_BUDGET_SATURATED_PCT or
 * the element does >= GP_BUDGET_DOMINANT_PCT. BUDGET and BEHIND name the
 * limit the same way. */
typedef struct
{
  GpThreadSummary *thread;      /* NULL when none ran them */
  gdouble busy_pct;             /* < 0 unknown */
  GpElementSummary *hot;        /* NULL when none, or when app is */
  gdouble hot_share_pct;
  /* the application's work (pad probes, signal handlers) that took more
   * of the thread than its hottest element did; app.id NULL when none */
  GpAppWork app;
  gboolean saturated;
} GpRuleLimit;

void gp_rule_budget_limit (GpSession * s, GHashTable * up, GpRuleLimit * out);

/* gp-rule-queue.c, gp-rule-cpu.c, gp-rule-stall.c, gp-rule-qleak.c:
 * threads and flow */
void gp_rule_queue (GpSession * s, const GpRule * rule);
void gp_rule_cpu (GpSession * s, const GpRule * rule);
/* gp-rule-cpu.c: the machine's CPUs taken by other processes */
void gp_rule_crowd (GpSession * s, const GpRule * rule);
void gp_rule_stall (GpSession * s, const GpRule * rule);
void gp_rule_stopped (GpSession * s, const GpRule * rule);
void gp_rule_qleak (GpSession * s, const GpRule * rule);
/* A leaky queue's drops count (QLEAK, and LOSS's leaky part) from this
 * many, and this share of what entered it: one or two drops at start-up
 * (the sink prerolling) are not a pattern. */
#define GP_QLEAK_MIN_DROPPED 5
#define GP_QLEAK_MIN_DROP_PCT 1.0
void gp_rule_qfull (GpSession * s, const GpRule * rule);

/* gp-rule-sync.c, gp-rule-late.c, gp-rule-enc.c, gp-rule-mem.c: sink
 * properties, QoS drops, encoder settings, memory growth */
void gp_rule_sync (GpSession * s, const GpRule * rule);
void gp_rule_pace (GpSession * s, const GpRule * rule);
void gp_rule_late (GpSession * s, const GpRule * rule);
void gp_rule_enc (GpSession * s, const GpRule * rule);
void gp_rule_mem (GpSession * s, const GpRule * rule);
void gp_rule_loss (GpSession * s, const GpRule * rule);
void gp_rule_cut (GpSession * s, const GpRule * rule);
void gp_rule_chunk (GpSession * s, const GpRule * rule);
void gp_rule_twice (GpSession * s, const GpRule * rule);

/* gp-rule-waste.c: frames worked on and then dropped; streams decoded
 * for nobody */
void gp_rule_waste (GpSession * s, const GpRule * rule);
void gp_rule_unused (GpSession * s, const GpRule * rule);
/* gp-rule-format.c: a heavy raw format nobody asked for */
void gp_rule_format (GpSession * s, const GpRule * rule);

/* gp-rule-zc.c, gp-rule-sw.c, gp-rule-caps.c: memory, hardware, caps */
void gp_rule_zc (GpSession * s, const GpRule * rule);
void gp_rule_sw (GpSession * s, const GpRule * rule);
void gp_rule_caps (GpSession * s, const GpRule * rule);

/* gp-rule-machine.c: which wall the work hits, from the machine's
 * series (session.machine) */
void gp_rule_hw (GpSession * s, const GpRule * rule);
void gp_rule_membw (GpSession * s, const GpRule * rule);
void gp_rule_thermal (GpSession * s, const GpRule * rule);
void gp_rule_cpuio (GpSession * s, const GpRule * rule);

/* Platform knowledge (gp-rules-hw.c), for ZC, SW and CAPS. */
typedef struct
{
  const gchar *memory;          /* caps feature, "memory:NVMM" */
  const gchar *platform;        /* jetson|dgpu|gl|cuda|intel-va|v4l2|d3d11 */
  const gchar *converter;       /* converts without leaving that memory */
  const gchar *download;        /* pure mover out of it, or NULL */
  const gchar *upload;          /* pure mover into it, or NULL */
} GpHwMemory;

typedef struct
{
  const gchar *platform;
  const gchar *sw;              /* software factory */
  const gchar *hw;              /* hardware factory doing its job */
  const gchar *formats;         /* raw formats it takes/gives, NULL: any */
  const gchar *sink_memory;     /* it only takes this memory, NULL: system ok */
  const gchar *src_memory;      /* it only gives this memory, NULL: system ok */
} GpHwSwap;

const GpHwMemory *gp_rules_hw_memories (guint * n);
const GpHwSwap *gp_rules_hw_swaps (guint * n);
gboolean gp_rules_is_device_memory (const gchar * memory);
/* The element that does @factory's job on frames in @memory without
 * leaving it (videoflip -> glvideoflip in GLMemory), with the same
 * properties, or NULL when the platform has none. */
const gchar *gp_rules_hw_device_twin (const gchar * memory,
    const gchar * factory);
gboolean gp_rules_is_device_converter (const gchar * factory);
/* TRUE when @format is in the comma-separated @formats (or either is NULL). */
gboolean gp_rules_hw_format_ok (const gchar * formats, const gchar * format);

/* The formats of the links into and out of an element as a finding's
 * evidence "format_in" and "format_out" (gp-rules.c), each left out where
 * its link or format is missing; *@fin and *@fout get them, newly
 * allocated or NULL, for the finding's text. */
void gp_finding_set_formats (GpFinding * f, GpLink * in, GpLink * out,
    gchar ** fin, gchar ** fout);

/* The patch check (gp-rules-patch.c): every rule builds its fix_patch
 * with core's builders (core/gp-launch-op.h; names are launch names,
 * gp_session_launch_name ()) and attaches it with gp_rules_attach_patch (),
 * which refuses a patch that would change what the pipeline does (the
 * list is at the top of gp-rules-patch.c). Takes @patch (may be NULL).
 * Attaches it to @f and returns TRUE when it passes the check; else frees
 * it, leaves f->fix_patch as it was and returns FALSE. */
gboolean gp_rules_attach_patch (GpSession * s, GpFinding * f,
    GPtrArray * patch);

G_END_DECLS

#endif /* __GP_RULES_PRIVATE_H__ */
