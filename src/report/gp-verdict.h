/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-verdict.h: the verdict, as plain text for a terminal: what the run
 * achieved against its budget (rate, latency, the limiting thread), where
 * the time goes, and the ranked findings with evidence, why and fix. Reads
 * only the session, so `gstprof analyze` prints what `gstprof run` printed.
 *
 * The room, src/report: what people read.
 * - the verdict (gp-verdict; an import's note comes in as a parameter), in
 *   three parts: the run's own sections, its Machine section when the
 *   session has a machine (what was sampled and what not, GPU, memory, CPU
 *   and engine loads with clocks against their maxima, the hottest zone
 *   against its trip point, power, the samplers' cost, the facts, the
 *   accelerator's peaks from the one table, and the bound the machine rules
 *   found), and the findings; a machine log alone gets only the Machine
 *   section and the findings;
 * - gp-compare: the before/after table of `fix --apply` and `compare`;
 * - gp-check: the machine probes behind `gstprof check`, including what this
 *   GStreamer cannot measure, and where a program given only
 *   GST_TRACERS=gstprof finds the tracer (GStreamer's own search order,
 *   without the folder gstprof adds for `run`).
 *
 * May depend on: core, rules (findings, severities), telemetry (the peaks).
 */
#ifndef __GP_VERDICT_H__
#define __GP_VERDICT_H__

#include <glib.h>
#include "core/gp-session.h"

G_BEGIN_DECLS

/* Worker threads are shown when together they take this much of a core;
 * kinds of workers below it are summed up, past the first few. */
#define GP_VERDICT_WORKER_MIN_PCT 20.0

typedef enum
{
  GP_VERDICT_PLAIN = 0,
  GP_VERDICT_COLOR = 1 << 0,    /* ANSI colours for severities and headings */
} GpVerdictFlags;

/* The line that opens the findings part; everything from it on depends only
 * on the findings (tests compare that part between run and analyze). */
#define GP_VERDICT_FINDINGS_HEADING "Findings"

/* Text width the verdict is laid out for. */
#define GP_VERDICT_WIDTH 80

/* The whole verdict. @note (may be NULL): text that says what the
 * session's source could not measure (an import's gp_ingest_import_note ()),
 * laid out to GP_VERDICT_WIDTH; it ends the header. */
gchar *gp_verdict_format (GpSession * s, const gchar * note,
    GpVerdictFlags flags);

/* Only the findings part (starts with GP_VERDICT_FINDINGS_HEADING). */
gchar *gp_verdict_format_findings (GpSession * s, GpVerdictFlags flags);

/* One member of a finding's evidence as the verdict says it: "label
 * value unit", the unit from the name's suffix (gp-rules.h). */
gchar *gp_verdict_evidence_item (const gchar * key, JsonNode * node);

/* Colour when @fd is a terminal and NO_COLOR is unset or empty
 * (https://no-color.org) and TERM is not "dumb". */
gboolean gp_verdict_want_color (gint fd);

G_END_DECLS

#endif /* __GP_VERDICT_H__ */
