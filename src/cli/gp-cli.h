/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-cli.h: what the subcommands share: exit codes, the one-line error
 * report, duration arguments. Argument parsing only; the work is done in
 * the libraries (capture, rules, report).
 */
#ifndef __GP_CLI_H__
#define __GP_CLI_H__

#include <glib.h>
#include "gp-session.h"

G_BEGIN_DECLS

/* The exit codes every subcommand keeps (docs: gstprof --help). */
enum
{
  GP_EXIT_CLEAN = 0,            /* no finding, or info-only findings */
  GP_EXIT_FINDINGS = 1,         /* a high or medium finding */
  GP_EXIT_PIPELINE = 2,         /* the pipeline failed on its own */
  GP_EXIT_USAGE = 3,            /* bad usage or bad input */
};

/* Prints "gstprof <cmd>: <message>" as exactly one line on stderr (line
 * breaks in the message become spaces) and returns GP_EXIT_USAGE. */
gint gp_cli_fail (const gchar * cmd, const gchar * format, ...)
    G_GNUC_PRINTF (2, 3);

/* "10s", "500ms", "2m", "1h", "1.5" (seconds): seconds in @out. FALSE with
 * a one-line @error (not naming the argument) for anything else, negative
 * values included. */
gboolean gp_cli_parse_duration (const gchar * text, gdouble * out,
    GError ** error);

gint gp_cmd_run (gint argc, gchar ** argv);
gint gp_cmd_analyze (gint argc, gchar ** argv);
gint gp_cmd_check (gint argc, gchar ** argv);
gint gp_cmd_fix (gint argc, gchar ** argv);
gint gp_cmd_compare (gint argc, gchar ** argv);

/* gstprof fix (gp-cmd-fix.c): the findings' launch-string edits gathered
 * in rank order and applied to s->launch. NULL with @error when the
 * session has no launch string or it does not parse. @s must outlive the
 * plan. */
typedef struct _GpFixPlan GpFixPlan;
GpFixPlan *gp_fix_plan_new (GpSession * s, GError ** error);
void gp_fix_plan_free (GpFixPlan * p);
/* The patched launch string (the original when no edit applied). */
const gchar *gp_fix_plan_get_launch (GpFixPlan * p);
guint gp_fix_plan_get_n_edits (GpFixPlan * p);
/* The patched string, the diff, each edit with its findings, the skipped
 * findings with their reason, the findings without an edit. */
gchar *gp_fix_plan_format (GpFixPlan * p);
/* Runs @launch in-process (GStreamer initialised after
 * gp_capture_prepare_env) for @before's duration, window and CPU option;
 * NULL with @error when it cannot run at all. @pipeline_failed: it posted
 * an error. Rules not yet run on the result. */
GpSession *gp_fix_apply (GpSession * before, const gchar * launch,
    gboolean progress, gboolean * pipeline_failed, GError ** error);

G_END_DECLS

#endif /* __GP_CLI_H__ */
