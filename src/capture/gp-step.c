/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-step.c: one measured step, and the density search (gp-step.h).
 */
#include "gp-step.h"

#include <string.h>

#include "core/gp-session-query.h"

/* The text of the session's first error event, else NULL. */
static const gchar *
gp_step_error_text (const GpSession * s)
{
  guint i;

  for (i = 0; i < s->events->len; i++) {
    const GpEvent *e = g_ptr_array_index (s->events, i);

    if (g_strcmp0 (e->type, "error") == 0)
      return e->text;
  }
  return NULL;
}

gboolean
gp_step_run (const gchar * launch, gdouble duration_s, gboolean first,
    GpStep * step, GError ** error)
{
  GpCaptureOptions opts;
  GError *err = NULL;

  memset (step, 0, sizeof *step);
  gp_capture_options_init (&opts);
  opts.launch = launch;
  opts.duration_s = duration_s;
  opts.machine = TRUE;
  step->end = GP_CAPTURE_END_EOS;
  step->session = gp_capture_run (&opts, &step->end, &err);
  if (step->session == NULL) {
    if (err->domain == GP_CAPTURE_ERROR &&
        (err->code == GP_CAPTURE_ERROR_STATE ||
            (err->code == GP_CAPTURE_ERROR_LAUNCH && !first))) {
      step->why = g_strdup (err->message);
      g_error_free (err);
      return TRUE;
    }
    g_propagate_error (error, err);
    return FALSE;
  }
  if (step->end == GP_CAPTURE_END_ERROR) {
    const gchar *text = gp_step_error_text (step->session);

    step->why = g_strdup (text ? text : "the pipeline failed");
  } else if (gp_session_find_event (step->session,
          GP_CAPTURE_STUCK_EVENT) != NULL) {
    step->why = g_strdup ("the pipeline did not stop when told to");
  } else if (!(gp_session_sinks_fps (step->session) > 0)) {
    step->why = g_strdup ("no steady rate at a sink (too short a run, or "
        "nothing reached one)");
  } else
    step->ran = TRUE;
  return TRUE;
}

void
gp_step_clear (GpStep * step)
{
  if (step->session)
    gp_session_free (step->session);
  g_free (step->why);
  memset (step, 0, sizeof *step);
}

/* The smallest count tried that failed, or @max + 1; and the largest below
 * it that held, or 0. */
static void
gp_step_density_bounds (const gint * held, guint max, guint * lo, guint * hi)
{
  guint k;

  *hi = max + 1;
  for (k = 1; k <= max && *hi > max; k++)
    if (held[k] < 0)
      *hi = k;
  *lo = 0;
  for (k = 1; k < *hi; k++)
    if (held[k] > 0)
      *lo = k;
}

guint
gp_step_density_next (const gint * held, guint max)
{
  guint lo, hi;

  gp_step_density_bounds (held, max, &lo, &hi);
  if (hi > max) {
    /* doubling: 1, 2, 4, ... and the maximum last */
    if (lo == 0)
      return max >= 1 && held[1] == 0 ? 1 : 0;
    if (lo >= max)
      return 0;
    return MIN (2 * lo, max);
  }
  /* bisecting between what held and what did not */
  return hi - lo <= 1 ? 0 : lo + (hi - lo) / 2;
}

guint
gp_step_density_answer (const gint * held, guint max)
{
  guint lo, hi;

  gp_step_density_bounds (held, max, &lo, &hi);
  return lo;
}
