/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * test-rules-machine.c: the machine rules (HW, MEMBW, THERMAL, CPUIO). The
 * machine comes in as text, the way the tools print it: tegrastats lines
 * (gp-test-machine.h), nvidia-smi CSV through gp_telemetry_load_data (), so
 * the path from a printed line to a finding is what is tested (the
 * verdict's Machine section: tests/report/test-verdict-machine.c).
 *
 * - the real lines of every board in tests/fixtures/telemetry, each
 *   file held for 10 samples (a board sitting in that state): idle boards,
 *   AGX Orin's two cores at 100 % with the GPU idle, the NVENC at 79 %:
 *   nothing fires; the same NVENC line with the encoder at 99 %: HW;
 * - the four patterns of a Jetson (compute-bound: GR3D 98 % at its top
 *   clock, EMC 40 %; memory-bound: EMC 90 %, GR3D 70 %; thermal: tj
 *   rising past its trip with the GR3D clock cut from its top; CPU/IO:
 *   GR3D 20 % in bursts, one core at 100 %): each fires its rule and the
 *   other three stay silent;
 * - nvidia-smi: the power cap and the thermal slowdown reasons, a
 *   compute-bound dGPU;
 * - real pipelines captured here: with no machine, no machine rule fires;
 *   with the CPU/IO machine beside a live pipeline that keeps its rate,
 *   CPUIO stays silent (the source paces it), beside one that misses its
 *   rate it fires.
 */
#include <gst/gst.h>
#include <math.h>
#include <string.h>

#include "capture/gp-capture.h"
#include "ingest/gp-ingest.h"
#include "rules/gp-rules.h"
#include "telemetry/gp-telemetry.h"
#include "gp-test-util.h"
#include "../common/gp-test-fixtures.h"
#include "gp-test-machine.h"

static const gchar *const machine_rules[] = {
  "HW", "MEMBW", "THERMAL", "CPUIO", NULL
};

static GpCaptureOptions base_opts;

static guint
count_machine_findings (GpSession * s)
{
  guint i, n = 0;

  for (i = 0; machine_rules[i]; i++)
    n += gp_session_count_findings (s, machine_rules[i]);
  return n;
}

/* @rule fired (once), every other machine rule is silent; the finding. */
static GpFinding *
assert_only (GpSession * s, const gchar * rule)
{
  GpFinding *f = NULL;
  guint i;

  for (i = 0; machine_rules[i]; i++) {
    guint n = gp_session_count_findings (s, machine_rules[i]);

    if (g_strcmp0 (machine_rules[i], rule) == 0)
      g_assert_cmpuint (n, ==, 1);
    else if (n != 0)
      g_error ("%s fired where only %s should", machine_rules[i], rule);
  }
  f = gp_session_find_finding (s, rule, NULL);
  g_assert_nonnull (f);
  /* unverified: info, heuristic, whatever the rule asked for */
  g_assert_cmpstr (f->severity, ==, GP_SEVERITY_INFO);
  g_assert_true (f->heuristic);
  g_assert_cmpuint (f->targets->len, >, 0);
  g_assert_true (f->why && *f->why);
  g_assert_true (f->fix && *f->fix);
  g_assert_null (f->fix_patch);
  g_assert_cmpfloat (f->rank_value, >=, 0);
  g_assert_cmpfloat (f->rank_value, <=, 100);
  return f;
}

/* ------------------------------------------------------------------ */
/* the four patterns                                                    */
/* ------------------------------------------------------------------ */

static void
test_compute_bound (void)
{
  GpSession *s = gp_test_machine_session (gp_test_pattern_compute ());
  GpFinding *f = assert_only (s, "HW");

  g_assert_cmpstr (g_ptr_array_index (f->targets, 0), ==, "gpu.load/0");
  g_assert_cmpfloat (gp_test_evidence_double (f, "busy_share_pct"), ==, 100);
  g_assert_cmpfloat_with_epsilon (gp_test_evidence_double (f,
          "load_mean_pct"), 98, 0.5);
  g_assert_cmpfloat (gp_test_evidence_double (f, "clock_top_mhz"), ==, 1300);
  g_assert_cmpfloat_with_epsilon (gp_test_evidence_double (f,
          "memory_load_mean_pct"), 40, 1e-9);
  g_assert_nonnull (strstr (f->title, "GPU 0"));
  g_assert_nonnull (strstr (f->fix, "INT8"));
  /* compare matches it by the series, the same on every run */
  {
    gchar *id = gp_session_target_identity (s, "gpu.load/0");

    g_assert_cmpstr (id, ==, "gpu.load/0");
    g_free (id);
  }
  gp_session_free (s);
}

static void
test_memory_bound (void)
{
  GpSession *s = gp_test_machine_session (gp_test_pattern_memory ());
  GpFinding *f = assert_only (s, "MEMBW");

  g_assert_cmpstr (g_ptr_array_index (f->targets, 0), ==, "membw.load/emc");
  g_assert_cmpfloat (gp_test_evidence_double (f, "busy_share_pct"), ==, 100);
  g_assert_cmpfloat_with_epsilon (gp_test_evidence_double (f,
          "load_mean_pct"), 90, 0.5);
  g_assert_cmpfloat_with_epsilon (gp_test_evidence_double (f,
          "gpu_load_mean_pct"), 70, 0.5);
  g_assert_cmpfloat (gp_test_evidence_double (f, "clock_top_mhz"), ==, 3199);
  /* the stalls counted as busy are said */
  g_assert_nonnull (strstr (f->why, "stalls"));
  gp_session_free (s);
}

static void
test_memory_and_compute (void)
{
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);
  GpSession *s;
  GpFinding *f;
  guint i;

  /* both saturated: the GPU's wall (HW), with the memory's load beside it;
   * MEMBW is for a GPU that is not at its own */
  for (i = 0; i < GP_TEST_N_PATTERN; i++)
    g_ptr_array_add (lines, gp_test_orin_line (98, 1300, 90, 30, 20, 60));
  s = gp_test_machine_session (gp_test_machine_from_lines (lines, 1.0));
  f = assert_only (s, "HW");
  g_assert_cmpfloat_with_epsilon (gp_test_evidence_double (f,
          "memory_load_mean_pct"), 90, 1e-9);
  g_assert_nonnull (strstr (f->why, "memory"));
  gp_session_free (s);
  g_ptr_array_unref (lines);
}

static void
test_thermal (void)
{
  GpMachine *m = gp_test_pattern_thermal ();
  GpSession *s = gp_test_machine_session (m);
  GpMachineSeries *tj;
  GpFinding *f;

  /* no trip point in a tegrastats line: the clock cut as the board
   * heated, 28 C hotter than while at its top */
  f = assert_only (s, "THERMAL");
  g_assert_cmpstr (g_ptr_array_index (f->targets, 0), ==, "gpu.freq/0");
  g_assert_cmpstr (gp_test_evidence_string (f, "zone"), ==, "temp/tj");
  g_assert_cmpfloat (gp_test_evidence_double (f, "temp_max_c"), ==, 108);
  g_assert_cmpfloat (gp_test_evidence_double (f, "clock_top_mhz"), ==, 1300);
  g_assert_cmpfloat (gp_test_evidence_double (f, "clock_lowest_mhz"), ==,
      800);
  /* 12 of the 20 loaded samples below 85 % of 1300 MHz */
  g_assert_cmpfloat_with_epsilon (gp_test_evidence_double (f,
          "cut_share_pct"), 60, 1e-9);
  /* mean tj: samples 8..19 at 86..108 C, 0..7 at 70..84 C */
  g_assert_cmpfloat_with_epsilon (gp_test_evidence_double (f,
          "temp_when_cut_c"), 97, 1e-9);
  g_assert_cmpfloat_with_epsilon (gp_test_evidence_double (f,
          "temp_when_not_c"), 77, 1e-9);
  g_assert_nonnull (strstr (f->fix, "jetson_clocks"));

  /* the thermal sampler's trip point (95 C): past it */
  tj = gp_machine_find (m, GP_MACHINE_TEMP, "tj");
  tj->limit = 95;
  gp_rules_run (s);
  f = assert_only (s, "THERMAL");
  g_assert_cmpstr (g_ptr_array_index (f->targets, 0), ==, "temp/tj");
  g_assert_nonnull (strstr (f->title, "past its trip point of 95.0 C"));
  g_assert_cmpfloat (gp_test_evidence_double (f, "trip_c"), ==, 95);
  /* samples 13..19 (96..108 C) of 20 */
  g_assert_cmpfloat_with_epsilon (gp_test_evidence_double (f,
          "past_trip_pct"), 35, 1e-9);
  g_assert_cmpfloat_with_epsilon (f->rank_value, 35, 1e-9);

  /* far from a trip point of 150 C and the cut not following the heat
   * (the same temperature all along): no finding */
  tj->limit = 150;
  {
    guint i;

    for (i = 0; i < tj->v->len; i++)
      g_array_index (tj->v, gdouble, i) = 60;
  }
  gp_rules_run (s);
  g_assert_cmpuint (count_machine_findings (s), ==, 0);
  gp_session_free (s);
}

static void
test_cpuio (void)
{
  GpSession *s = gp_test_machine_session (gp_test_pattern_cpuio (1.0));
  GpFinding *f = assert_only (s, "CPUIO");

  g_assert_cmpstr (g_ptr_array_index (f->targets, 0), ==, "gpu.load/0");
  g_assert_cmpfloat_with_epsilon (gp_test_evidence_double (f,
          "gpu_load_mean_pct"), 20, 1e-9);
  g_assert_cmpstr (gp_test_evidence_string (f, "busiest_core"), ==,
      "cpu.load/0");
  g_assert_cmpfloat (gp_test_evidence_double (f, "core_saturated_pct"), ==,
      100);
  /* the bursts: sd 17.0 over a mean of 20 */
  g_assert_cmpfloat (gp_test_evidence_double (f, "gpu_load_variation"), >,
      0.8);
  g_assert_nonnull (strstr (f->title, "core 0"));
  gp_session_free (s);
}

/* The same lines with too few samples say nothing: a snapshot is not a
 * steady state. */
static void
test_snapshot (void)
{
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);
  GpSession *s;
  guint i;

  for (i = 0; i < GP_RULES_MACHINE_MIN_SAMPLES - 1; i++)
    g_ptr_array_add (lines, gp_test_orin_line (99, 1300, 90, 100, 100, 60));
  s = gp_test_machine_session (gp_test_machine_from_lines (lines, 1.0));
  g_assert_cmpuint (count_machine_findings (s), ==, 0);
  gp_session_free (s);
  g_ptr_array_unref (lines);
}

/* ------------------------------------------------------------------ */
/* real lines                                                           */
/* ------------------------------------------------------------------ */

static void
test_fixtures_silent (void)
{
  static const gchar *const files[] = {
    "tegrastats_agx_orin32_r36_multispace_engines_off.txt",
    "tegrastats_agx_orin64_2025_sensor_-256C_nc_rails.txt",
    "tegrastats_agx_orin64_gr3d_pct_only.txt",
    "tegrastats_agx_orin64_r36.4.4_nvenc_active.txt",
    "tegrastats_agx_thor_r38.4.0.txt",
    "tegrastats_agx_xavier_jp4_short_rails.txt",
    "tegrastats_nano_jp4.txt",
    "tegrastats_orin_nx16_jp5.txt",
    "tegrastats_tx1_l4t28-32.txt",
    "tegrastats_tx2_jp4_busy_mts.txt",
    "tegrastats_tx2_jp4_idle.txt",
    "tegrastats_tx2_jp4_no_freq_fields.txt",
    "tegrastats_xavier_nx_jp512_timestamp_mW.txt",
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (files); i++) {
    GPtrArray *lines = gp_test_fixture_lines (files[i], 10);
    GpSession *s;

    if (lines == NULL)
      return;
    s = gp_test_machine_session (gp_test_machine_from_lines (lines, 1.0));
    if (count_machine_findings (s) != 0)
      g_error ("%s: a machine rule fired on a board that hits no wall",
          files[i]);
    gp_session_free (s);
    g_ptr_array_unref (lines);
  }
}

/* AGX Orin with two cores at 100 % and the GPU at 0 %: nothing feeds the
 * GPU, so its idling is nobody's bound. */
static void
test_fixture_cores_gpu_idle (void)
{
  GPtrArray *lines =
      gp_test_fixture_lines
      ("tegrastats_agx_orin32_r36_multispace_engines_off.txt", 10);
  GpMachine *m;
  GpSession *s;

  if (lines == NULL)
    return;
  m = gp_test_machine_from_lines (lines, 1.0);
  g_assert_cmpfloat (gp_machine_series_v (gp_machine_find (m,
              GP_MACHINE_CPU_LOAD, "5"), 0), ==, 100);
  g_assert_cmpfloat (gp_machine_series_v (gp_machine_find (m,
              GP_MACHINE_GPU_LOAD, "0"), 0), ==, 0);
  s = gp_test_machine_session (m);
  g_assert_cmpuint (gp_session_count_findings (s, "CPUIO"), ==, 0);
  gp_session_free (s);
  g_ptr_array_unref (lines);
}

/* The NVENC line: at 79 % no wall; the same line with the encoder at
 * 99 %: HW on the encoder, VIC (36 %) silent. */
static void
test_fixture_nvenc (void)
{
  GPtrArray *lines =
      gp_test_fixture_lines ("tegrastats_agx_orin64_r36.4.4_nvenc_active.txt",
      5);
  GpSession *s;
  GpFinding *f;
  guint i;

  if (lines == NULL)
    return;
  s = gp_test_machine_session (gp_test_machine_from_lines (lines, 1.0));
  g_assert_cmpuint (count_machine_findings (s), ==, 0);
  g_assert_cmpfloat_with_epsilon (gp_machine_series_mean (gp_machine_find
          (s->machine, GP_MACHINE_ENGINE_LOAD, "NVENC"), NAN, NAN), 78.5,
      1e-9);
  gp_session_free (s);

  for (i = 0; i < lines->len; i++) {
    gchar **parts = g_regex_split_simple ("NVENC 7[89]%", lines->pdata[i], 0,
        0);

    g_assert_cmpuint (g_strv_length (parts), ==, 2);
    g_free (lines->pdata[i]);
    lines->pdata[i] = g_strjoinv ("NVENC 99%", parts);
    g_strfreev (parts);
  }
  s = gp_test_machine_session (gp_test_machine_from_lines (lines, 1.0));
  f = assert_only (s, "HW");
  g_assert_cmpstr (g_ptr_array_index (f->targets, 0), ==,
      "engine.load/NVENC");
  g_assert_cmpfloat (gp_test_evidence_double (f, "busy_share_pct"), ==, 100);
  g_assert_nonnull (strstr (f->title, "video encoder"));
  g_assert_nonnull (strstr (f->fix, "Encode less"));
  gp_session_free (s);
  g_ptr_array_unref (lines);
}

/* ------------------------------------------------------------------ */
/* nvidia-smi                                                           */
/* ------------------------------------------------------------------ */

#define NVSMI_HEADER "timestamp, index, name, utilization.gpu [%], " \
  "utilization.memory [%], clocks.sm [MHz], clocks.max.sm [MHz], " \
  "temperature.gpu, power.draw [W], power.limit [W], " \
  "clocks_event_reasons.sw_power_cap, " \
  "clocks_event_reasons.hw_thermal_slowdown, " \
  "clocks_event_reasons.sw_thermal_slowdown\n"

/* @n rows of an L40S, one a second, each the same. */
static GpSession *
nvsmi_session (guint n, const gchar * util, const gchar * clock,
    const gchar * temp, const gchar * power, const gchar * power_cap,
    const gchar * thermal)
{
  GString *text = g_string_new (NVSMI_HEADER);
  GError *error = NULL;
  GpMachine *m;
  guint i;

  for (i = 0; i < n; i++)
    g_string_append_printf (text, "2025/05/01 10:00:%02u.000, 0, NVIDIA "
        "L40S, %s %%, 40 %%, %s MHz, 2520 MHz, %s, %s W, 350.00 W, %s, "
        "Not Active, %s\n", i, util, clock, temp, power, power_cap, thermal);
  m = gp_telemetry_load_data (text->str, text->len, "l40s.csv", 1.0, &error);
  g_assert_no_error (error);
  g_string_free (text, TRUE);
  return gp_test_machine_session (m);
}

static void
test_nvsmi (void)
{
  GpSession *s;
  GpFinding *f;

  /* power-capped: 348.5 W of 350 W, sw_power_cap active, the clock held
   * at 1800 of 2520 MHz: THERMAL on power; HW silent (the clock is held
   * down: busy at a lower clock is not the compute wall) */
  s = nvsmi_session (10, "100", "1800", "70", "348.50", "Active",
      "Not Active");
  f = assert_only (s, "THERMAL");
  g_assert_cmpstr (g_ptr_array_index (f->targets, 0), ==, "power/0");
  g_assert_nonnull (strstr (f->title, "power-capped"));
  g_assert_cmpfloat (gp_test_evidence_double (f, "power_cap_w"), ==, 350);
  g_assert_cmpfloat (gp_test_evidence_double (f, "at_cap_pct"), ==, 100);
  g_assert_cmpfloat (gp_test_evidence_double (f, "power_reason_pct"), ==,
      100);
  g_assert_nonnull (strstr (f->fix, "nvidia-smi -pl"));
  gp_session_free (s);

  /* the thermal slowdown reason set, 250 W of 350: THERMAL on heat */
  s = nvsmi_session (10, "100", "1500", "89", "250.00", "Not Active",
      "Active");
  f = assert_only (s, "THERMAL");
  g_assert_cmpstr (g_ptr_array_index (f->targets, 0), ==, "throttle/0");
  g_assert_cmpfloat (gp_test_evidence_double (f, "thermal_reason_pct"), ==,
      100);
  g_assert_cmpstr (gp_test_evidence_string (f, "zone"), ==, "temp/gpu0");
  gp_session_free (s);

  /* compute-bound: 99 % at 2400 of 2520 MHz, 300 W of 350, no reason */
  s = nvsmi_session (10, "99", "2400", "65", "300.00", "Not Active",
      "Not Active");
  f = assert_only (s, "HW");
  g_assert_cmpstr (g_ptr_array_index (f->targets, 0), ==, "gpu.load/0");
  g_assert_cmpfloat (gp_test_evidence_double (f, "clock_top_mhz"), ==, 2520);
  gp_session_free (s);

  /* idle: nothing */
  s = nvsmi_session (10, "3", "210", "35", "30.00", "Not Active",
      "Not Active");
  g_assert_cmpuint (count_machine_findings (s), ==, 0);
  gp_session_free (s);
}

/* ------------------------------------------------------------------ */
/* real pipelines                                                       */
/* ------------------------------------------------------------------ */

/* A real capture: whatever the machine's samplers found here (this
 * machine has no GPU), no machine rule fires; without a machine, none
 * either. */
static void
test_capture_no_machine (void)
{
  GpSession *s;

  if (!gp_test_have_tracer ())
    return;
  s = gp_test_capture (&base_opts, "videotestsrc name=src num-buffers=90 ! "
      "video/x-raw,width=320,height=240,framerate=30/1 ! "
      "videoconvert name=conv ! fakesink name=sink sync=false", 5.0, NULL);
  gp_rules_run (s);
  gp_test_print_findings (s);
  g_assert_cmpuint (count_machine_findings (s), ==, 0);
  g_clear_pointer (&s->machine, gp_machine_free);
  gp_rules_run (s);
  g_assert_cmpuint (count_machine_findings (s), ==, 0);
  gp_session_free (s);
}

/* The CPU/IO machine beside a live pipeline at 30 fps: one that keeps its
 * rate is paced by its source (CPUIO silent); one whose identity sleeps
 * 50 ms a frame makes 20 fps of 30 (CPUIO fires, over the PLAYING
 * span). */
static void
test_capture_cpuio (void)
{
  GpSession *s;
  GpSinkSummary *sk;
  GpFinding *f;

  if (!gp_test_have_tracer ())
    return;
  s = gp_test_capture (&base_opts, "videotestsrc name=src is-live=true ! "
      "video/x-raw,width=160,height=120,framerate=30/1 ! "
      "fakesink name=sink", 2.5, NULL);
  sk = gp_session_find_sink (s, "sink");
  g_assert_nonnull (sk);
  g_assert_cmpfloat (fabs (sk->fps - 30), <, 1.5);
  gp_machine_free (s->machine);
  /* 20 samples 0.25 s apart: 5 s, the PLAYING span inside */
  s->machine = gp_test_pattern_cpuio (0.25);
  gp_rules_run (s);
  gp_test_print_findings (s);
  g_assert_cmpuint (count_machine_findings (s), ==, 0);
  gp_session_free (s);

  s = gp_test_capture (&base_opts, "videotestsrc name=src is-live=true ! "
      "video/x-raw,width=160,height=120,framerate=30/1 ! "
      "identity name=slow sleep-time=50000 ! fakesink name=sink", 2.5, NULL);
  sk = gp_session_find_sink (s, "sink");
  g_assert_nonnull (sk);
  g_assert_cmpfloat (sk->fps, <, 25);
  gp_machine_free (s->machine);
  s->machine = gp_test_pattern_cpuio (0.25);
  gp_rules_run (s);
  gp_test_print_findings (s);
  f = assert_only (s, "CPUIO");
  /* only the samples inside the PLAYING span count */
  g_assert_cmpint (gp_test_evidence_int (f, "samples"), <, GP_TEST_N_PATTERN);
  g_assert_cmpint (gp_test_evidence_int (f, "samples"), >=,
      GP_RULES_MACHINE_MIN_SAMPLES);
  gp_session_free (s);
}

/* `gstprof analyze` on a log alone: src/ingest picks it by content. */
static void
test_ingest_log (void)
{
  GString *text = g_string_new (NULL);
  GError *error = NULL;
  GpSession *s;
  GpFinding *f;
  guint i;

  for (i = 0; i < GP_TEST_N_PATTERN; i++) {
    gchar *line = gp_test_orin_line (98, 1300, 40, 30, 20, 60);

    g_string_append_printf (text, "%s\n", line);
    g_free (line);
  }
  s = gp_ingest_load_any_data (text->str, text->len, "t.log", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (s->import_schema, ==, GP_INGEST_SCHEMA_TEGRASTATS);
  g_assert_cmpstr (s->mode, ==, "analyze");
  g_assert_cmpstr (s->platform, ==, "jetson");
  g_assert_cmpfloat (s->duration_s, ==, GP_TEST_N_PATTERN);
  gp_rules_run (s);
  f = assert_only (s, "HW");
  g_assert_cmpfloat (gp_test_evidence_int (f, "samples"), ==,
      GP_TEST_N_PATTERN);
  gp_session_free (s);
  g_string_free (text, TRUE);

  /* a damaged line after a good one: read as far as it is valid, the
   * Machine section's source says what was skipped */
  s = gp_ingest_load_any_data ("RAM 1/2MB CPU [1%@100] GR3D_FREQ 1%@1\n"
      "RAM x/3964MB CPU [\n", -1, "t.log", &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_prefix (gp_machine_find_source (s->machine,
              "tegrastats")->detail, "1 of 2 lines skipped, first at "
          "t.log:2: "));
  gp_session_free (s);
  /* only damaged lines: the file and the first line, one line */
  s = gp_ingest_load_any_data ("RAM 1/2MB CPU [1%@100] GR3D_FREQ\n"
      "RAM x/3964MB CPU [\n", -1, "t.log", &error);
  g_assert_null (s);
  g_assert_error (error, GP_SESSION_ERROR, GP_SESSION_ERROR_PARSE);
  g_assert_true (g_str_has_prefix (error->message, "t.log:1: "));
  g_assert_null (strchr (error->message, '\n'));
  g_clear_error (&error);
}

int
main (int argc, char **argv)
{
  GError *error = NULL;

  gp_capture_options_init (&base_opts);
  if (!gp_capture_prepare_env (&base_opts, &error))
    g_error ("%s", error->message);
  gst_init (&argc, &argv);
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/rules-machine/compute-bound", test_compute_bound);
  g_test_add_func ("/rules-machine/memory-bound", test_memory_bound);
  g_test_add_func ("/rules-machine/memory-and-compute",
      test_memory_and_compute);
  g_test_add_func ("/rules-machine/thermal", test_thermal);
  g_test_add_func ("/rules-machine/cpuio", test_cpuio);
  g_test_add_func ("/rules-machine/snapshot", test_snapshot);
  g_test_add_func ("/rules-machine/fixtures-silent", test_fixtures_silent);
  g_test_add_func ("/rules-machine/fixture-cores-gpu-idle",
      test_fixture_cores_gpu_idle);
  g_test_add_func ("/rules-machine/fixture-nvenc", test_fixture_nvenc);
  g_test_add_func ("/rules-machine/nvsmi", test_nvsmi);
  g_test_add_func ("/rules-machine/ingest-log", test_ingest_log);
  g_test_add_func ("/rules-machine/capture-no-machine",
      test_capture_no_machine);
  g_test_add_func ("/rules-machine/capture-cpuio", test_capture_cpuio);
  return g_test_run ();
}
