/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-fix.h: from findings to a verified fix: the plan of the launch-string
 * edits the findings carry, and the run of the patched pipeline measured
 * the way the original was (`gstprof fix`, and later the panel).
 *
 * The room, src/fix: gp-fix, the plan of the findings' launch-string edits
 * (core's typed patch ops) in rank order, conflicts left out with their
 * reason, and the patched pipeline run the way the original was measured
 * (through capture).
 *
 * May depend on: core, capture, rules.
 */
#ifndef __GP_FIX_H__
#define __GP_FIX_H__

#include <glib.h>

#include "capture/gp-capture.h"
#include "core/gp-session.h"

G_BEGIN_DECLS

/* Whether a launch string builds and links here. */
typedef enum
{
  GP_FIX_LINKS_OK,              /* parses, and links */
  GP_FIX_LINKS_REFUSED,         /* a link GStreamer would refuse */
  GP_FIX_LINKS_UNKNOWN,         /* cannot be built here (no such element) */
} GpFixLinks;

/* Builds @launch with GStreamer's own parser and the real factories,
 * without running it: the parser links each pair of pads only when their
 * caps (templates, capsfilters, what each element says it takes through,
 * asked with the links made before it) intersect; pads that appear while
 * running (a demuxer's) are not there to link. @why: what refused, or why
 * nothing could be built. The elements made use up this process's element
 * numbers: `gstprof check LAUNCH` asks it in a process of its own. */
GpFixLinks gp_fix_links_here (const gchar * launch, gchar ** why);

/* `gstprof check LAUNCH`'s one line of output, which the plan reads back:
 * the prefix, then the reason. */
#define GP_FIX_LINKS_SAID_YES "links: yes"
#define GP_FIX_LINKS_SAID_NO "links: no: "
#define GP_FIX_LINKS_SAID_UNKNOWN "links: not known here: "

/* The findings' launch-string edits gathered in rank order and applied to
 * s->launch. An edit whose patched string does not build and link (asked
 * of @checker, a gstprof program, as `CHECKER check LAUNCH`: a process of
 * its own) is skipped with the reason; with @checker NULL, or when the
 * original does not build there either, the patch is not checked and its
 * text says so. NULL with @error when the session has no launch string or
 * it does not parse. @s must outlive the plan. */
typedef struct _GpFixPlan GpFixPlan;
GpFixPlan *gp_fix_plan_new (GpSession * s, const gchar * checker,
    GError ** error);
void gp_fix_plan_free (GpFixPlan * p);
/* The patched launch string (the original when no edit applied). */
const gchar *gp_fix_plan_get_launch (GpFixPlan * p);
guint gp_fix_plan_get_n_edits (GpFixPlan * p);
/* What the applied edits are for: their findings' rules' measures
 * (GpRuleMeasure flags, gp-rules.h), where the re-run judges the fix. */
guint gp_fix_plan_get_measures (GpFixPlan * p);
/* The patched string, the diff, each edit with its findings, the skipped
 * findings with their reason, the findings without an edit. */
gchar *gp_fix_plan_format (GpFixPlan * p);
/* The original run's duration (the one asked for, not the one measured),
 * window and CPU option into @opts, so that the two sessions measure the
 * same way. */
void gp_fix_capture_options (GpSession * before, GpCaptureOptions * opts);
/* Runs @launch in-process (GStreamer initialised after
 * gp_capture_prepare_env) for @before's duration, window and CPU option;
 * NULL with @error when it cannot run at all. @pipeline_failed: it posted
 * an error. Rules not yet run on the result. */
GpSession *gp_fix_apply (GpSession * before, const gchar * launch,
    gboolean progress, gboolean * pipeline_failed, GError ** error);

/* What each of @before's sinks received that @after's sink of the same
 * name did not: what the stream is, in words (core's
 * gp_caps_stream_words: media type, profile, format, chroma, bit depth,
 * size, rates, channels, memory; not a muxer's stream headers, which two
 * runs of one pipeline already differ in), one line a sink ("NAME:
 * BEFORE -> AFTER", or "received nothing" when it is gone), or NULL when
 * every sink received the same: a fix that changes them is not a pure
 * speed-up, whatever its rate. */
gchar *gp_fix_delivery_changes (GpSession * before, GpSession * after);

G_END_DECLS

#endif /* __GP_FIX_H__ */
