/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-step.h: one measured step of a repeated run, the core that `ds
 * sweep` (a batch size a step), `density` (a stream count a step) and
 * `gate` (a run a step) share: a launch string run in this process under
 * the tracer, the machine sampled, for a duration or to its end, and its
 * steady state read from the session (each sink's and link's rate over
 * its own windows, the start-up second and the final flush left out:
 * docs/session-schema.md). A pipeline that fails is a step that failed,
 * with the reason in one line; only a launch string that cannot be run at
 * all is an error.
 *
 * And the density search (docs/density.md): the stream counts to try, as
 * Intel's density test steps them: doubling from one until a count does
 * not hold the floor (or the maximum is reached), then bisecting between
 * the largest that held and the smallest that did not.
 */
#ifndef __GP_STEP_H__
#define __GP_STEP_H__

#include "gp-capture.h"

G_BEGIN_DECLS

typedef struct
{
  gboolean ran;                 /* measured; FALSE: failed (@why) */
  gchar *why;                   /* FALSE: one line; else NULL */
  GpCaptureEnd end;
  GpSession *session;           /* the run's (rules not run); NULL when it
                                 * could not start */
} GpStep;

/* Runs @launch for @duration_s (<= 0: to its end) with the machine
 * sampled, into @step. FALSE with @error only when nothing could run: the
 * tracer, or a launch string that does not parse when @first (a later
 * step's, whose parameter its elements refuse, is a step that failed). A
 * step whose pipeline posted an error, or whose sinks have no steady rate,
 * failed, with its session kept. */
gboolean gp_step_run (const gchar * launch, gdouble duration_s,
    gboolean first, GpStep * step, GError ** error);
void gp_step_clear (GpStep * step);

/* The density search. @held[k] for k = 1..@max: 1 held the floor, -1 did
 * not, 0 not tried. The next count to try, or 0 when the search is done:
 * the answer is then gp_step_density_answer (). */
guint gp_step_density_next (const gint * held, guint max);
/* The largest count that held with every smaller one tried holding or
 * untried below it; 0 when even one stream did not hold. */
guint gp_step_density_answer (const gint * held, guint max);

G_END_DECLS
#endif /* __GP_STEP_H__ */
