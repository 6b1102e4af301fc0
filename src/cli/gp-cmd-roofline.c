/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-cmd-roofline.c: `gstprof roofline SESSION` and `gstprof roofline
 * --from LOG --model NAME --fps N`: the CPU roofline of a session's
 * elements against this machine's measured bandwidth, and an
 * accelerator's roofline of a workload from its telemetry (src/telemetry:
 * gp-roofline-build, the peaks and the workload chosen from the options by
 * gp-roofline-choose, gp-peaks, gp-models, gp-membw); -o draws the
 * accelerator's roofline, else the CPU one (src/plot). Option parsing and
 * printing only.
 */
#include "gp-cli.h"
#include "core/gp-session-query.h"
#include "ingest/gp-ingest.h"
#include "plot/gp-plot.h"
#include "telemetry/gp-membw.h"
#include "telemetry/gp-models.h"
#include "telemetry/gp-peaks.h"
#include "telemetry/gp-roofline-build.h"
#include "telemetry/gp-telemetry.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct
{
  gchar *from, *out;
  GpCliRooflineWork work;
  gchar *peak_ops, *peak_bw, *interval, *sms, *bus;
  gboolean refresh, list;
  gchar **files;
  /* the numbers, once read */
  GpRooflineAsk ask;
  gdouble v_interval;
} GpCmdRoofline;

static void
gp_cmd_roofline_list (void)
{
  const GpPeaksRow *rows;
  const GpModel *models;
  guint n, i;

  rows = gp_peaks_rows (&n);
  printf ("%-28s %5s %5s %8s %10s %10s %10s %10s\n", "target", "cc", "SMs",
      "MHz", "FP32", "FP16", "INT8", "memory");
  for (i = 0; i < n; i++) {
    GpPeaks *p = gp_peaks_for_row (&rows[i], NAN, NAN);
    gchar *f32 = gp_roofline_format (p->fp32, "op/s");
    gchar *f16 = gp_roofline_format (p->fp16, "op/s");
    gchar *i8 = gp_roofline_format (p->int8, "op/s");
    gchar *bw = gp_roofline_format (p->bw, "B/s");
    gchar *cc = g_strdup_printf ("%u.%u", rows[i].cc_major,
        rows[i].cc_minor);

    printf ("%-28s %5s %5u %8.0f %10s %10s %10s %10s\n", rows[i].name, cc,
        rows[i].sms, rows[i].boost_mhz, f32, f16, i8, bw);
    g_free (cc);
    g_free (f32);
    g_free (f16);
    g_free (i8);
    g_free (bw);
    gp_peaks_free (p);
  }
  models = gp_models (&n);
  printf ("\n%-18s %-32s %9s %10s %10s\n", "model", "", "input", "Gop/frame",
      "params");
  for (i = 0; i < n; i++) {
    gchar *input = g_strdup_printf ("%ux%u", models[i].width,
        models[i].height);

    printf ("%-18s %-32s %9s %10.3g %9.3gM\n", models[i].name,
        models[i].title, input, models[i].gflops, models[i].params_m);
    g_free (input);
  }
}

/* The memory roof's line and the CPU roofline's table; the roofline. */
static GpRoofline *
gp_cmd_roofline_print_cpu (GpSession * s, const GpMembw * bw)
{
  GPtrArray *els = NULL;
  GpRoofline *r = gp_roofline_cpu (s, bw, &els);
  gchar *c1 = gp_roofline_format (bw->copy_1, "B/s");
  gchar *t1 = gp_roofline_format (bw->triad_1, "B/s");
  gchar *ca = gp_roofline_format (bw->copy_all, "B/s");
  gchar *ta = gp_roofline_format (bw->triad_all, "B/s");
  guint i;

  printf ("CPU roofline: %s\n", r->title);
  printf ("  memory roof: copy %s on one thread, %s on %u; triad %s and %s "
      "(%s, %" G_GUINT64_FORMAT " MiB arrays%s)\n", c1, ca, bw->threads, t1,
      ta, bw->cached ? "measured earlier this boot" : "measured now",
      bw->array_bytes >> 20, bw->below_llc ? ", less than 4 x the "
      "last-level cache" : "");
  if (els->len == 0)
    printf ("  no software element moved bytes on its links\n");
  else
    printf ("  %-24s %-16s %10s %10s %7s %11s %7s  %s\n", "element",
        "factory", "in", "out", "busy", "while busy", "of 1 thr", "bound");
  for (i = 0; i < els->len; i++) {
    GpCpuElementBw *e = g_ptr_array_index (els, i);
    gchar *in = gp_roofline_format (e->in_bytes_per_s, "B/s");
    gchar *out = gp_roofline_format (e->out_bytes_per_s, "B/s");
    gchar *busy = gp_roofline_format (e->busy_bytes_per_s, "B/s");

    printf ("  %-24s %-16s %10s %10s %6.1f%% %11s %6.0f%%  %s\n", e->name,
        e->factory ? e->factory : "", in, out, e->busy_pct, busy,
        isnan (e->share) ? 0.0 : 100 * e->share, e->point->bound);
    printf ("      %s\n", e->point->reason);
    g_free (in);
    g_free (out);
    g_free (busy);
  }
  g_free (c1);
  g_free (t1);
  g_free (ca);
  g_free (ta);
  g_ptr_array_unref (els);
  return r;
}

/* The accelerator's roofline; its points judged against roof @judged. */
static void
gp_cmd_roofline_print_accel (GpRoofline * r, const GpPeaks * p,
    gint judged, const gchar * work, const gchar * how)
{
  gchar *bw = gp_roofline_format (r->bw_bytes_per_s, "B/s");
  guint i;

  printf ("roofline: %s\n", r->title);
  printf ("  peaks: %s\n", p->how ? p->how : "given");
  printf ("  %-8s %14s %14s\n", "roof", "peak", "ridge");
  for (i = 0; i < r->roofs->len; i++) {
    const GpRoof *roof = &g_array_index (r->roofs, GpRoof, i);
    gchar *peak = gp_roofline_format (roof->ops_per_s, "op/s");

    printf ("  %-8s %14s %10.3g op/B\n", roof->name, peak,
        gp_roofline_ridge (r, i));
    g_free (peak);
  }
  printf ("  %-8s %14s\n", "memory", bw);
  printf ("  workload: %s\n", work);
  printf ("  bytes: %s\n", how);
  printf ("  %-26s %10s %14s %12s %9s  %s\n", "point", "AI (op/B)",
      "achieved", "bytes", "of roof", "bound");
  for (i = 0; i < r->points->len; i++) {
    const GpRooflinePoint *pt = g_ptr_array_index (r->points, i);
    gchar *ops = gp_roofline_format (pt->ops_per_s, "op/s");
    gchar *bytes = gp_roofline_format (pt->bytes_per_s, "B/s");
    gdouble frac = gp_roofline_point_fraction (r, judged < 0 ? G_MAXUINT :
        (guint) judged, pt);

    printf ("  %-26s %10.3g %14s %12s %8.0f%%  %s\n", pt->label, pt->ai, ops,
        bytes, 100 * frac, pt->bound ? pt->bound : "-");
    printf ("      %s\n", pt->reason ? pt->reason : "");
    g_free (ops);
    g_free (bytes);
  }
  g_free (bw);
}

static const gchar gp_cmd_roofline_description[] =
    "SESSION is what gstprof analyze reads. Its CPU roofline places every\n"
    "software element at the bytes its links carried (in + out) per second\n"
    "of its busy time, against the bandwidth one thread of this machine\n"
    "copies (a STREAM-style probe, under a second, kept per boot in\n"
    "$XDG_CACHE_HOME/gstprof): memory-bound at 50 % of it or more. With\n"
    "machine series in the session, or --target, the accelerator's roofline\n"
    "follows.\n"
    "\n"
    "--from reads a tegrastats log or nvidia-smi output (--query-gpu CSV\n"
    "with its header, or dmon) without any session. The work per frame\n"
    "comes from --model (gstprof roofline --list) or --ops and --bytes;\n"
    "achieved op/s = fps x ops per frame; achieved bytes/s from the log:\n"
    "EMC % x peak bandwidth x EMC clock / its maximum on a Jetson, memory\n"
    "busy % x peak bandwidth on a GPU. A point is compute-bound at 70 % of\n"
    "the flat roof past the ridge, memory-bound at 70 % of the slanted\n"
    "roof before it, and neither (latency, CPU, IO) far below both.\n"
    "\n"
    "Peaks come from one table (--list): SMs x clock x ops per clock per\n"
    "SM of the architecture, memory 2 x clock x bus width. --target names\n"
    "the part (\"AGX Orin 64GB\", \"NVIDIA H100 80GB HBM3\", \"Tesla T4\");\n"
    "without it, the log's GPU name, or a Jetson whose CPU count only one\n"
    "board has. --peak-ops and --peak-bw override (op/s and bytes/s; 85T,\n"
    "204.8G).\n"
    "\n"
    "Exit codes:\n"
    "  0  the rooflines printed\n"
    "  3  bad usage or bad input (the reason, one line naming it)\n";

/* Every option's value read and checked; FALSE with the report made. */
static gboolean
gp_cmd_roofline_check (GpCmdRoofline * o, gint * code)
{
  if (!gp_cli_roofline_work_ask ("roofline", &o->work, &o->ask, code)
      || !gp_cli_si_option ("roofline", "peak-ops", o->peak_ops,
          &o->ask.peak_ops, code)
      || !gp_cli_si_option ("roofline", "peak-bw", o->peak_bw,
          &o->ask.peak_bw, code)
      || !gp_cli_si_option ("roofline", "interval", o->interval,
          &o->v_interval, code)
      || !gp_cli_si_option ("roofline", "sms", o->sms, &o->ask.sms, code)
      || !gp_cli_si_option ("roofline", "bus-bits", o->bus, &o->ask.bus_bits,
          code))
    return FALSE;
  if (o->work.model && o->work.ops) {
    *code = gp_cli_fail ("roofline", "--ops: give --model or --ops, not "
        "both");
    return FALSE;
  }
  if (o->out) {
    GError *err = NULL;

    if (!gp_plot_check_path (o->out, &err)) {
      *code = gp_cli_fail ("roofline", "-o: %s", err->message);
      g_error_free (err);
      return FALSE;
    }
  }
  if (o->files && o->files[0] && o->from) {
    *code = gp_cli_fail ("roofline", "--from: give a SESSION or --from "
        "LOG, not both ('%s')", o->files[0]);
    return FALSE;
  }
  if (o->files && o->files[0] && o->files[1]) {
    *code = gp_cli_fail ("roofline", "one session at a time ('%s' is "
        "extra)", o->files[1]);
    return FALSE;
  }
  if (!(o->files && o->files[0]) && !o->from) {
    *code = gp_cli_fail ("roofline", "no session and no --from LOG "
        "(gstprof roofline DIR/session.json, or --from tegrastats.log "
        "--model resnet50 --fps 40)");
    return FALSE;
  }
  if ((o->work.model || o->work.ops) && isnan (o->ask.fps) && o->from) {
    *code = gp_cli_fail ("roofline", "--fps: the work per frame needs the "
        "frames per second (--fps N)");
    return FALSE;
  }
  return TRUE;
}

/* The accelerator's part: its roofline printed, and handed to @chart.
 * FALSE with the report made. */
static gboolean
gp_cmd_roofline_accel (GpCmdRoofline * o, const GpMachine * m,
    gdouble session_fps, GpRoofline ** chart, gint * code)
{
  GError *err = NULL;
  GpPeaks *p;
  gchar *how = NULL, *work = NULL;
  gint judged;

  p = gp_roofline_choose_peaks (&o->ask, m, &err);
  if (p == NULL) {
    *code = gp_cli_fail ("roofline", "%s", err->message);
    g_error_free (err);
    return FALSE;
  }
  *chart = gp_roofline_of_ask (&o->ask, p, m, session_fps, &work, &how,
      &judged);
  gp_cmd_roofline_print_accel (*chart, p, judged, work,
      how ? how : "no telemetry of the memory");
  gp_peaks_free (p);
  g_free (how);
  g_free (work);
  return TRUE;
}

gint
gp_cmd_roofline (gint argc, gchar ** argv)
{
  GpCmdRoofline o = { 0 };
  GOptionEntry from_entry[] = {
    {"from", 0, 0, G_OPTION_ARG_FILENAME, &o.from,
        "a tegrastats log or nvidia-smi output, instead of a session", "LOG"},
    {NULL}
  };
  GOptionEntry entries[] = {
    {"peak-ops", 0, 0, G_OPTION_ARG_STRING, &o.peak_ops,
        "the compute peak, op/s (85T)", "OPS"},
    {"peak-bw", 0, 0, G_OPTION_ARG_STRING, &o.peak_bw,
        "the memory bandwidth peak, bytes/s (204.8G)", "BYTES"},
    {"sms", 0, 0, G_OPTION_ARG_STRING, &o.sms,
        "SM count of a GPU the table does not know", "N"},
    {"bus-bits", 0, 0, G_OPTION_ARG_STRING, &o.bus,
        "memory bus width of a GPU the table does not know", "N"},
    {"interval", 0, 0, G_OPTION_ARG_STRING, &o.interval,
        "seconds between a log's samples when they carry no time "
        "(default 1)", "S"},
    {"refresh", 0, 0, G_OPTION_ARG_NONE, &o.refresh,
        "measure this machine's bandwidth again", NULL},
    {"list", 0, 0, G_OPTION_ARG_NONE, &o.list,
        "the peaks table and the known models", NULL},
    {"output", 'o', 0, G_OPTION_ARG_FILENAME, &o.out,
        "the chart, PNG or SVG", "FILE"},
    {G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &o.files, NULL,
        NULL},
    {NULL}
  };
  GOptionContext *ctx;
  GError *err = NULL;
  GpSession *s = NULL;
  GpMachine *from_m = NULL;
  GpMembw *bw = NULL;
  GpRoofline *cpu = NULL, *accel = NULL;
  gint code = GP_EXIT_CLEAN;

  ctx = g_option_context_new ("[SESSION]");
  g_option_context_set_summary (ctx, "Places the work on a roofline and "
      "says which wall it hits: the CPU\nroofline of a session's elements, "
      "an accelerator's of a network's frames.");
  g_option_context_set_description (ctx, gp_cmd_roofline_description);
  g_option_context_add_main_entries (ctx, from_entry, NULL);
  gp_cli_roofline_work_entries (ctx, &o.work);
  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &err)) {
    code = gp_cli_fail ("roofline", "%s", err->message);
    goto out;
  }
  if (o.list) {
    gp_cmd_roofline_list ();
    goto out;
  }
  if (!gp_cmd_roofline_check (&o, &code))
    goto out;

  if (o.from) {
    from_m = gp_telemetry_load_file (o.from, isnan (o.v_interval) ? 1.0 :
        o.v_interval, &err);
    if (from_m == NULL) {
      code = gp_cli_fail ("roofline", "%s", err->message);
      goto out;
    }
    if (!gp_cmd_roofline_accel (&o, from_m, NAN, &accel, &code))
      goto out;
    if (gp_telemetry_read_detail (from_m) != NULL)
      printf ("\n%s: %s\n", o.from, gp_telemetry_read_detail (from_m));
  } else {
    s = gp_ingest_load_any (o.files[0], &err);
    if (s == NULL) {
      code = gp_cli_fail ("roofline", "%s", err ? err->message : o.files[0]);
      goto out;
    }
    bw = gp_membw_get (o.refresh, &err);
    if (bw == NULL) {
      code = gp_cli_fail ("roofline", "%s", err->message);
      goto out;
    }
    cpu = gp_cmd_roofline_print_cpu (s, bw);
    if ((s->machine && gp_machine_find (s->machine, GP_MACHINE_MEMBW_LOAD,
                NULL)) || o.work.target || o.work.model || o.work.ops) {
      printf ("\n");
      if (!gp_cmd_roofline_accel (&o, s->machine, o.ask.fps > 0 ? o.ask.fps :
              gp_session_video_fps (s), &accel, &code))
        goto out;
    }
  }
  if (o.out) {
    if (!gp_plot_roofline (accel ? accel : cpu, o.out, &err)) {
      code = gp_cli_fail ("roofline", "%s", err->message);
      goto out;
    }
    printf ("\nwrote %s\n", o.out);
  }

out:
  gp_roofline_free (cpu);
  gp_roofline_free (accel);
  if (s)
    gp_session_free (s);
  gp_machine_free (from_m);
  gp_membw_free (bw);
  g_clear_error (&err);
  g_free (o.from);
  gp_cli_roofline_work_clear (&o.work);
  g_free (o.out);
  g_free (o.peak_ops);
  g_free (o.peak_bw);
  g_free (o.interval);
  g_free (o.sms);
  g_free (o.bus);
  g_strfreev (o.files);
  g_option_context_free (ctx);
  return code;
}
