/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-verdict-private.h: what the verdict's files share: the text being
 * written, its styles and helpers (gp-verdict.c), and the parts the other
 * files write.
 *
 *   gp-verdict.c           the text helpers below, the header and the
 *                          pipeline sections, and gp_verdict_format, which
 *                          calls the parts in the order they print
 *   gp-verdict-rate.c      the Rate section (per sink, per stream)
 *   gp-verdict-machine.c   the Machine section (session.machine)
 *   gp-verdict-findings.c  the findings part (gp_verdict_format_findings)
 */
#ifndef __GP_VERDICT_PRIVATE_H__
#define __GP_VERDICT_PRIVATE_H__

#include "gp-verdict.h"

G_BEGIN_DECLS

/* The verdict being written: its text so far and how it is styled. */
typedef struct
{
  GString *out;                 /* every part appends */
  gboolean color;               /* set by the caller's flags */
  gboolean dash_used;           /* a table printed "-" for "not measured" */
} GpVerdictText;

/* ANSI styles, used only when colour is on. */
#define GP_VERDICT_STYLE_BOLD "\033[1m"
#define GP_VERDICT_STYLE_RED "\033[31m"
#define GP_VERDICT_STYLE_YELLOW "\033[33m"
#define GP_VERDICT_STYLE_CYAN "\033[36m"
#define GP_VERDICT_STYLE_RESET "\033[0m"

/* ------------------------------------------------------------------ */
/* text helpers (gp-verdict.c)                                         */
/* ------------------------------------------------------------------ */

/* @text in @style when colour is on, plain otherwise. */
void gp_verdict_styled (GpVerdictText * vt, const gchar * style,
    const gchar * text);

/* A blank line, then @text in bold. */
void gp_verdict_heading (GpVerdictText * vt, const gchar * text);

/* @text padded (or cut, ending in "~") to @width display columns: for
 * figures, which fit. */
void gp_verdict_cell (GString * out, const gchar * text, guint width,
    gboolean right);

/* @name padded to @width display columns, or whole with the row going on
 * under it on the next line: names are never cut. */
void gp_verdict_name_cell (GString * out, const gchar * name, guint width);

/* @text word-wrapped to GP_VERDICT_WIDTH: @first before the first line,
 * @indent before the others. */
void gp_verdict_wrap (GString * out, const gchar * first,
    const gchar * indent, const gchar * text);

/* Milliseconds and percentages with the precision the measurement
 * supports, into @buf; "-" for a value not measured. */
const gchar *gp_verdict_ms (gchar buf[32], gdouble v);
const gchar *gp_verdict_pct (gchar buf[32], gdouble v);

/* ------------------------------------------------------------------ */
/* the Rate section (gp-verdict-rate.c)                                */
/* ------------------------------------------------------------------ */

/* The steady-state rate at each sink, in its own media, against its
 * target; a muxed sink's streams, lateness, videorate's repeats. */
void gp_verdict_rate (GpVerdictText * vt, GpSession * s);

/* ------------------------------------------------------------------ */
/* the Machine section (gp-verdict-machine.c)                          */
/* ------------------------------------------------------------------ */

/* What the machine did under the pipeline; nothing without
 * session.machine. */
void gp_verdict_machine (GpVerdictText * vt, GpSession * s);

/* Whether @s is of the machine alone (a telemetry log), so that no
 * pipeline section has anything to say. */
gboolean gp_verdict_machine_only (GpSession * s);

G_END_DECLS

#endif /* __GP_VERDICT_PRIVATE_H__ */
