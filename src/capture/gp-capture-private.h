/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-capture-private.h: what run's capture (gp-capture.c) and wrap's
 * supervision (gp-wrap.c) share inside src/capture.
 */
#ifndef __GP_CAPTURE_PRIVATE_H__
#define __GP_CAPTURE_PRIVATE_H__

#include <glib.h>

#include "core/gp-session.h"

G_BEGIN_DECLS

/* A checkpoint: @s (exit_code set to -1: no findings yet) saved to @path
 * atomically, its folder made first. A failure is said once on stderr
 * (*@said set; an open progress line, *@progress_open, ended first) and
 * tried again next time; the session's own save at the end says again
 * why, if it still cannot be written. */
void gp_capture_checkpoint_save (GpSession * s, const gchar * path,
    gboolean * said, gboolean * progress_open);

/* The live progress line on stderr, @t_s seconds into the run: on a
 * terminal (@tty) one line rewritten in place (TRUE: it is left open,
 * a newline ends it), in a log one line each (FALSE). */
gboolean gp_capture_progress_line (gdouble t_s, const gchar * rates,
    gboolean tty);

G_END_DECLS

#endif /* __GP_CAPTURE_PRIVATE_H__ */
