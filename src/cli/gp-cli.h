/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-cli.h: what the subcommands share: exit codes, the one-line error
 * report, duration arguments, the roofline's work options.
 *
 * The room, src/cli: the gstprof binary, argument parsing and printing
 * only; the work is done in the rooms' libraries.  main.c holds the one
 * command table (name, usage, one line, function) from which the help, the
 * dispatch and the unknown-command list all come; gp-cmd-ds.c the same for
 * `gstprof ds`.  One file per command: gp-cmd-run.c, gp-cmd-wrap.c (the
 * supervision is capture's gp_wrap_run), gp-cmd-analyze.c, gp-cmd-check.c,
 * gp-cmd-fix.c, gp-cmd-compare.c, gp-cmd-export.c (its outputs one table,
 * option to export), gp-cmd-plot.c (a session or a telemetry log, told
 * apart by what the file is), gp-cmd-report.c (one HTML or Markdown file
 * of a session or a log, src/page, redacted by src/report's gp-redact),
 * gp-cmd-roofline.c (the CPU roofline of a
 * session, an accelerator's from --from LOG, -o drawn by the plot room's
 * gp_plot_roofline), and gp-cmd-ds-NAME.c per ds subcommand; every session
 * argument is read by ingest's gp_ingest_load_any.  The commands:
 * docs/commands.md.
 *
 * May depend on: everything (core, telemetry, capture, ingest, rules,
 * report, fix, deepstream, export, plot, page).
 */
#ifndef __GP_CLI_H__
#define __GP_CLI_H__

#include <glib.h>
#include "core/gp-session.h"
#include "telemetry/gp-roofline-build.h"
#include "serve/gp-serve.h"

G_BEGIN_DECLS

/* The exit codes every subcommand keeps (docs: gstprof --help). */
enum
{
  GP_EXIT_CLEAN = 0,            /* no finding, or info-only findings */
  GP_EXIT_FINDINGS = 1,         /* a high or medium finding */
  GP_EXIT_PIPELINE = 2,         /* the pipeline failed on its own */
  GP_EXIT_USAGE = 3,            /* bad usage or bad input */
  GP_EXIT_STUCK = 4,            /* run: the pipeline did not stop when told
                                 * to; the session holds what was measured */
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

/* Option --@name of command @cmd: @text (may be NULL: not given, NAN in
 * @out) as a finite number above 0. FALSE with the one-line report made
 * and its exit code in @code otherwise. */
gboolean gp_cli_positive_option (const gchar * cmd, const gchar * name,
    const gchar * text, gdouble * out, gint * code);

/* A number of the command line: digits with one dot, an optional
 * exponent, an optional SI prefix (k M G T P): "85T", "204.8e9", "40".
 * FALSE for anything else, negative values included. */
gboolean gp_cli_parse_si (const gchar * text, gdouble * out);

/* Option --@name of command @cmd: @text (may be NULL: not given, NAN in
 * @out) as a number of gp_cli_parse_si above 0. FALSE with the one-line
 * report made and its exit code in @code otherwise. */
gboolean gp_cli_si_option (const gchar * cmd, const gchar * name,
    const gchar * text, gdouble * out, gint * code);

/* The roofline's work options as given, `gstprof roofline` and `gstprof
 * report` alike: --model, --ops, --bytes, --fps, --precision, --target. */
typedef struct
{
  gchar *model, *ops, *bytes, *fps, *precision, *target;
} GpCliRooflineWork;

/* Appends the rows of @w's options to @ctx's main entries, after those
 * added before. */
void gp_cli_roofline_work_entries (GOptionContext * ctx,
    GpCliRooflineWork * w);

/* @w's values read and checked into @ask (the peaks' figures NAN), the
 * strings borrowed from @w. FALSE with the one-line report of command
 * @cmd naming the option made and its exit code in @code. */
gboolean gp_cli_roofline_work_ask (const gchar * cmd,
    const GpCliRooflineWork * w, GpRooflineAsk * ask, gint * code);

/* Frees @w's strings. */
void gp_cli_roofline_work_clear (GpCliRooflineWork * w);

/* What the panel's Stop and Mark do to a capture's @run (gp_capture_stop
 * and gp_capture_mark, gp_wrap_stop and gp_wrap_mark): FALSE when there
 * is nothing to act on yet. */
typedef gboolean (*GpCliServeAct) (gpointer run, const gchar * text);

/* The live panel's options, `run`, `wrap` and `serve` alike: --serve (not
 * for `serve`), --host, --port, --hold, --no-redact; the server they
 * start, and the capture its buttons act on (gp-cli-serve.c). */
typedef struct
{
  gboolean serve, no_redact;
  gchar *host, *hold;
  gint port;
  gdouble hold_s;
  GpServer *srv;
  gpointer run;                 /* the capture's, while it runs */
  GpCliServeAct stop, mark;
} GpCliServe;

/* Appends @sv's options to @ctx's main entries; with @flag, --serve and
 * --hold too (a capture's: `serve` always serves and holds). */
void gp_cli_serve_entries (GOptionContext * ctx, GpCliServe * sv,
    gboolean flag);
/* Checks @sv's values and, when serving, starts the server on the
 * default main context, printing its address on stderr (and, off
 * loopback, that anyone who reaches the port sees the pipeline and may
 * stop it). @stop and @mark (NULL: a replay, no buttons) act on the run
 * gp_cli_serve_live () was last given. FALSE with the one-line report of
 * @cmd made and its exit code in @code. */
gboolean gp_cli_serve_start (const gchar * cmd, GpCliServe * sv,
    GpCliServeAct stop, GpCliServeAct mark, gint * code);
/* A capture's live hook: @run is the one the buttons act on (NULL: it
 * ended), @so_far (NULL: none yet) goes to the server. */
void gp_cli_serve_live (GpCliServe * sv, gpointer run, GpSession * so_far);
/* Keeps serving for --hold's seconds (`serve`: until Ctrl-C or SIGTERM)
 * on the default main context; at once when not serving. */
void gp_cli_serve_hold (const gchar * cmd, GpCliServe * sv, gboolean forever);
/* Stops the server, frees @sv's strings. */
void gp_cli_serve_clear (GpCliServe * sv);

gint gp_cmd_run (gint argc, gchar ** argv);
gint gp_cmd_serve (gint argc, gchar ** argv);
gint gp_cmd_analyze (gint argc, gchar ** argv);
gint gp_cmd_check (gint argc, gchar ** argv);
gint gp_cmd_fix (gint argc, gchar ** argv);
gint gp_cmd_compare (gint argc, gchar ** argv);
gint gp_cmd_gate (gint argc, gchar ** argv);
gint gp_cmd_density (gint argc, gchar ** argv);
gint gp_cmd_wrap (gint argc, gchar ** argv);
gint gp_cmd_export (gint argc, gchar ** argv);
gint gp_cmd_plot (gint argc, gchar ** argv);
gint gp_cmd_report (gint argc, gchar ** argv);
gint gp_cmd_roofline (gint argc, gchar ** argv);
gint gp_cmd_ds (gint argc, gchar ** argv);
gint gp_cmd_ds_derive (gint argc, gchar ** argv);
gint gp_cmd_ds_perf (gint argc, gchar ** argv);
gint gp_cmd_ds_sweep (gint argc, gchar ** argv);
gint gp_cmd_ds_hw (gint argc, gchar ** argv);
gint gp_cmd_ds_coverage (gint argc, gchar ** argv);
gint gp_cmd_ds_profile (gint argc, gchar ** argv);
gint gp_cmd_ds_preset (gint argc, gchar ** argv);

G_END_DECLS

#endif /* __GP_CLI_H__ */
