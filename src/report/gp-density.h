/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-density.h: `gstprof density`, how many streams a machine holds
 * (docs/density.md). The search's steps (capture/gp-step.h) are run by the
 * command; here: the launch string of n streams (a template's {n}, or n
 * copies of one stream, each in a bin named s0, s1, ...), each stream's
 * steady rate in a step's session, and what hit the wall at the first
 * count that did not hold: an element working the whole run, a full
 * streaming thread and its element, every core busy, a machine rule (a GPU or decoder engine at its wall, the
 * memory bus, heat), the rules' own words.
 */
#ifndef __GP_DENSITY_H__
#define __GP_DENSITY_H__

#include <glib.h>
#include "core/gp-session.h"

G_BEGIN_DECLS

/* An element working this share of the run, or a streaming thread this
 * busy (its elements' work as % of the run), has no room for another
 * stream. */
#define GP_DENSITY_THREAD_FULL_PCT 90.0
/* The process using this share of every core it may run on leaves no
 * room either (the rest is the kernel's and the other programs'). */
#define GP_DENSITY_CORES_FULL_SHARE 0.9
/* The default floor: a stream holds when it keeps this share of its
 * caps' frame rate (the rate steps by whole frames in each window). */
#define GP_DENSITY_FLOOR_SHARE 0.95

/* The launch string of @n streams. A template takes the streams itself
 * (a compositor's, a funnel's or nvstreammux's inputs): its every {n} is
 * @n, and what lies between {each} and {/each} is written @n times, its
 * {k} the stream's number from 0 ("compositor name=c ! fakesink {each}
 * videotestsrc is-live=true ! c.sink_{k} {/each}"). Anything else is one
 * stream, and @n copies of it are made, each in its own bin "sK". A new
 * string, or NULL with a one-line @error for an {each} not closed. */
gchar *gp_density_launch (const gchar * template_, guint n,
    GError ** error);
/* Whether @template has a {n} or an {each}. */
gboolean gp_density_is_template (const gchar * template_);

/* The steady rate of each of the @n streams of @s, sorted from the
 * slowest (a GArray of gdouble): copies by their bin's sinks (a stream's
 * slowest), a template by its sinks when it has @n or more, else by the
 * @n links into the one element that takes them (a compositor's, a
 * muxer's inputs). NULL with a one-line @error when the streams cannot be
 * told apart. */
GArray *gp_density_stream_fps (GpSession * s, guint n, gboolean copies,
    GError ** error);

/* The frame rate a stream's caps ask for (its sinks' target), < 0
 * unknown. */
gdouble gp_density_target_fps (GpSession * s);

/* What hit the wall in @s (its rules run): one line each, strongest
 * first; a line saying nothing saturated was seen when none did. A
 * NULL-terminated array. */
gchar **gp_density_wall (GpSession * s);

G_END_DECLS
#endif /* __GP_DENSITY_H__ */
