/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * test-rules-machine.c: the machine rules (HW, MEMBW, THERMAL, CPUIO) and
 * the verdict's Machine section. The machine comes in as text, the way the
 * tools print it: tegrastats lines through gp_tegrastats_parse_line () and
 * gp_telemetry_add_tegra (), nvidia-smi CSV through gp_telemetry_load_data
 * (), so the path from a printed line to a finding is what is tested.
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
#include "report/gp-verdict.h"
#include "rules/gp-rules.h"
#include "telemetry/gp-telemetry.h"
#include "gp-test-util.h"
#include "../common/gp-test-fixtures.h"

static const gchar *const machine_rules[] = {
  "HW", "MEMBW", "THERMAL", "CPUIO", NULL
};

static GpCaptureOptions base_opts;

/* ------------------------------------------------------------------ */
/* the machine from text                                                */
/* ------------------------------------------------------------------ */

/* Each line a tegrastats sample, @step_s apart from 0. */
static GpMachine *
machine_from_lines (GPtrArray * lines, gdouble step_s)
{
  GpMachine *m = gp_machine_new ();
  GpMachineSource *src = gp_machine_source (m, "tegrastats");
  guint i;

  src->interval_s = step_s;
  for (i = 0; i < lines->len; i++) {
    GError *error = NULL;
    GpTegraSample *sample =
        gp_tegrastats_parse_line (g_ptr_array_index (lines, i), &error);

    g_assert_no_error (error);
    gp_telemetry_add_tegra (m, "tegrastats", i * step_s, sample);
    src->samples++;
    gp_tegra_sample_free (sample);
  }
  return m;
}

/* A session of the machine alone, its rules run. */
static GpSession *
session_of (GpMachine * m)
{
  GpSession *s = gp_session_new ();

  s->machine = m;
  gp_rules_run (s);
  gp_test_print_findings (s);
  return s;
}

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

/* An AGX Orin 64GB line as R36 prints it: 8 cores (@core0, the rest at
 * @others), EMC, GR3D with its two GPCs' clock, the engines off, the
 * temperatures, the rails. */
static gchar *
orin_line (gdouble gr3d, gdouble gpu_mhz, gdouble emc, gint core0,
    gint others, gdouble tj)
{
  return g_strdup_printf ("RAM 6000/62841MB (lfb 466x4MB) SWAP 0/31420MB "
      "(cached 0MB) CPU [%d%%@2201,%d%%@2201,%d%%@2201,%d%%@2201,%d%%@2201,"
      "%d%%@2201,%d%%@2201,%d%%@2201] EMC_FREQ %.0f%%@3199 "
      "GR3D_FREQ %.0f%%@[%.0f,%.0f] NVENC off NVDEC off NVJPG off VIC off "
      "OFA off NVDLA0 off NVDLA1 off APE 174 cpu@%.1fC soc0@%.1fC "
      "gpu@%.1fC tj@%.1fC VDD_GPU_SOC 9000mW/9000mW VDD_CPU_CV 3000mW/3000mW "
      "VIN_SYS_5V0 4700mW/4700mW", core0, others, others, others, others,
      others, others, others, emc, gr3d, gpu_mhz, gpu_mhz, tj - 3, tj - 4,
      tj - 1, tj);
}

#define N_PATTERN 20

/* compute-bound: GR3D 97-99 % at its top clock all along, EMC 40 % */
static GpMachine *
pattern_compute (void)
{
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);
  GpMachine *m;
  guint i;

  for (i = 0; i < N_PATTERN; i++)
    g_ptr_array_add (lines, orin_line (97 + (i % 3), 1300, 40, 30, 20,
            60 + (i % 2)));
  m = machine_from_lines (lines, 1.0);
  g_ptr_array_unref (lines);
  return m;
}

/* memory-bound: EMC 89-91 % at its clock, GR3D 70 % at its top clock */
static GpMachine *
pattern_memory (void)
{
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);
  GpMachine *m;
  guint i;

  for (i = 0; i < N_PATTERN; i++)
    g_ptr_array_add (lines, orin_line (69 + (i % 3), 1300, 89 + (i % 3), 30,
            20, 62));
  m = machine_from_lines (lines, 1.0);
  g_ptr_array_unref (lines);
  return m;
}

/* thermal: GR3D 99 % all along; tj from 70 C up by 2 C a sample (108 C at
 * the end); the clock at its top 1300 MHz for the first 8 samples, then cut
 * step by step to 800 MHz as it heats */
static const gdouble thermal_clock[N_PATTERN] = {
  1300, 1300, 1300, 1300, 1300, 1300, 1300, 1300, 1100, 1000,
  950, 900, 850, 850, 800, 800, 800, 800, 800, 800
};

static GpMachine *
pattern_thermal (void)
{
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);
  GpMachine *m;
  guint i;

  for (i = 0; i < N_PATTERN; i++)
    g_ptr_array_add (lines, orin_line (99, thermal_clock[i], 30, 25, 20,
            70 + 2 * i));
  m = machine_from_lines (lines, 1.0);
  g_ptr_array_unref (lines);
  return m;
}

/* CPU/IO: GR3D in bursts (0, 40, 5, 35 ...: mean 20 %), core 0 at 100 %,
 * the others at 10 %, EMC 10 % */
static const gdouble cpuio_gr3d[4] = { 0, 40, 5, 35 };

static GpMachine *
pattern_cpuio (gdouble step_s)
{
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);
  GpMachine *m;
  guint i;

  for (i = 0; i < N_PATTERN; i++)
    g_ptr_array_add (lines, orin_line (cpuio_gr3d[i % 4], 1300, 10, 100, 10,
            55));
  m = machine_from_lines (lines, step_s);
  g_ptr_array_unref (lines);
  return m;
}

/* ------------------------------------------------------------------ */
/* the four patterns                                                    */
/* ------------------------------------------------------------------ */

static void
test_compute_bound (void)
{
  GpSession *s = session_of (pattern_compute ());
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
  GpSession *s = session_of (pattern_memory ());
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
  for (i = 0; i < N_PATTERN; i++)
    g_ptr_array_add (lines, orin_line (98, 1300, 90, 30, 20, 60));
  s = session_of (machine_from_lines (lines, 1.0));
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
  GpMachine *m = pattern_thermal ();
  GpSession *s = session_of (m);
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
  GpSession *s = session_of (pattern_cpuio (1.0));
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
    g_ptr_array_add (lines, orin_line (99, 1300, 90, 100, 100, 60));
  s = session_of (machine_from_lines (lines, 1.0));
  g_assert_cmpuint (count_machine_findings (s), ==, 0);
  gp_session_free (s);
  g_ptr_array_unref (lines);
}

/* ------------------------------------------------------------------ */
/* real lines                                                           */
/* ------------------------------------------------------------------ */

/* The lines of a fixture, each file's lines held for @repeat samples in
 * turn. */
static GPtrArray *
fixture_lines (const gchar * name, guint repeat)
{
  gchar *path = gp_test_fixture_path ("telemetry", name), *text;
  GPtrArray *lines;
  gchar **split;
  guint i, r;

  if (path == NULL)
    return NULL;
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  split = g_strsplit (text, "\n", -1);
  lines = g_ptr_array_new_with_free_func (g_free);
  for (r = 0; r < repeat; r++)
    for (i = 0; split[i]; i++)
      if (*g_strstrip (split[i]))
        g_ptr_array_add (lines, g_strdup (split[i]));
  g_strfreev (split);
  g_free (text);
  g_free (path);
  return lines;
}

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
    GPtrArray *lines = fixture_lines (files[i], 10);
    GpSession *s;

    if (lines == NULL)
      return;
    s = session_of (machine_from_lines (lines, 1.0));
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
      fixture_lines ("tegrastats_agx_orin32_r36_multispace_engines_off.txt",
      10);
  GpMachine *m;
  GpSession *s;

  if (lines == NULL)
    return;
  m = machine_from_lines (lines, 1.0);
  g_assert_cmpfloat (gp_machine_series_v (gp_machine_find (m,
              GP_MACHINE_CPU_LOAD, "5"), 0), ==, 100);
  g_assert_cmpfloat (gp_machine_series_v (gp_machine_find (m,
              GP_MACHINE_GPU_LOAD, "0"), 0), ==, 0);
  s = session_of (m);
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
      fixture_lines ("tegrastats_agx_orin64_r36.4.4_nvenc_active.txt", 5);
  GpSession *s;
  GpFinding *f;
  guint i;

  if (lines == NULL)
    return;
  s = session_of (machine_from_lines (lines, 1.0));
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
  s = session_of (machine_from_lines (lines, 1.0));
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
  return session_of (m);
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
/* the verdict's Machine section                                        */
/* ------------------------------------------------------------------ */

static void
test_verdict_machine (void)
{
  GPtrArray *lines =
      fixture_lines ("tegrastats_agx_orin64_r36.4.4_nvenc_active.txt", 5);
  GpMachine *m;
  GpSession *s;
  gchar *v;

  if (lines == NULL)
    return;
  m = machine_from_lines (lines, 1.0);
  gp_machine_source_set (m, "nvidia-smi", GP_MACHINE_ABSENT,
      "no nvidia-smi on PATH");
  m->cost_pct = 0.4;
  gp_machine_set_fact (m, "board", "AGX Orin 64GB");
  s = session_of (m);
  v = gp_verdict_format (s, NULL, GP_VERDICT_PLAIN);
  gp_test_message_text (v);
  g_assert_nonnull (strstr (v, "\nMachine (over the whole log)\n"));
  g_assert_nonnull (strstr (v, "  sampled:    tegrastats (10 samples every "
          "1 s)\n"));
  g_assert_nonnull (strstr (v, "  unsampled:  nvidia-smi (no "
          "nvidia-smi on PATH)\n"));
  /* the board told by its 12 CPUs; 16 SMs x 1.3 GHz x 4096 ops a clock
   * per SM (the datasheet's 85 TOPS dense), 2 x 3200 MHz x 256 bit */
  g_assert_nonnull (strstr (v, "  peaks:      Jetson AGX Orin 64GB: INT8 "
          "85.2 Top/s, FP16 42.6 Top/s, FP32 5.32\n"
          "                Top/s, memory 205 GB/s"));
  /* the fixture's values, read by hand: EMC 3 % at 2133 MHz; CPU cores'
   * mean 14.25 and 13.42 %, core 5 at 47 and 33 %; NVENC 79 and 78 %,
   * VIC 36 and 32 %; tj 52.562 and 52.343 C; the rails' sum 8.726 and
   * 8.626 W (AGX Orin has no input rail) */
  g_assert_nonnull (strstr (v, "  GPU 0:      load mean 0%, max 0%"));
  g_assert_nonnull (strstr (v, "  memory emc: load mean 3.0%, max 3.0%; "
          "clock mean 2133 MHz, top 2133 MHz\n"));
  g_assert_nonnull (strstr (v, "  CPU:        all 12 mean 14%, max 14%; "
          "busiest core 5 mean 40%, max 47%\n"));
  g_assert_nonnull (strstr (v, "  engines:    NVENC mean 78%, max 79%; "
          "VIC mean 34%, max 36%; 7 idle\n"));
  g_assert_nonnull (strstr (v, "  hottest:    tj max 52.6 C, no trip point "
          "known\n"));
  g_assert_nonnull (strstr (v, "  power:      board mean 8.7 W, max 8.7 W\n"));
  g_assert_nonnull (strstr (v, "  cost:       0.4% of one core\n"));
  g_assert_nonnull (strstr (v, "  facts:      board AGX Orin 64GB\n"));
  g_assert_nonnull (strstr (v, "  bound:      no wall hit: "));
  /* a machine alone: no pipeline section */
  g_assert_null (strstr (v, "\nRate"));
  g_free (v);
  gp_session_free (s);
  g_ptr_array_unref (lines);

  /* a wall hit: the bound names its finding */
  s = session_of (pattern_memory ());
  v = gp_verdict_format (s, NULL, GP_VERDICT_PLAIN);
  gp_test_message_text (v);
  g_assert_nonnull (strstr (v, "  bound:      MEMBW: the memory bus "
          "(membw.load/emc) busy >= 80%"));
  g_assert_nonnull (strstr (v, "  GPU 0:      load mean 70%, max 71%; "
          "clock mean 1300 MHz, top 1300 MHz\n"));
  /* the evidence in its units */
  g_assert_nonnull (strstr (v, "clock top 3199 MHz"));
  g_free (v);
  gp_session_free (s);
}

/* ------------------------------------------------------------------ */
/* real pipelines                                                       */
/* ------------------------------------------------------------------ */

/* A real capture: whatever the machine's samplers found here (this
 * machine has no GPU), no machine rule fires; without a machine, none
 * either, and the verdict has no Machine section. */
static void
test_capture_no_machine (void)
{
  GpSession *s;
  gchar *v;

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
  v = gp_verdict_format (s, NULL, GP_VERDICT_PLAIN);
  g_assert_null (strstr (v, "\nMachine"));
  g_assert_nonnull (strstr (v, "\nRate"));
  g_free (v);
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
  s->machine = pattern_cpuio (0.25);
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
  s->machine = pattern_cpuio (0.25);
  gp_rules_run (s);
  gp_test_print_findings (s);
  f = assert_only (s, "CPUIO");
  /* only the samples inside the PLAYING span count */
  g_assert_cmpint (gp_test_evidence_int (f, "samples"), <, N_PATTERN);
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

  for (i = 0; i < N_PATTERN; i++) {
    gchar *line = orin_line (98, 1300, 40, 30, 20, 60);

    g_string_append_printf (text, "%s\n", line);
    g_free (line);
  }
  s = gp_ingest_load_any_data (text->str, text->len, "t.log", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (s->import_schema, ==, GP_INGEST_SCHEMA_TEGRASTATS);
  g_assert_cmpstr (s->mode, ==, "analyze");
  g_assert_cmpstr (s->platform, ==, "jetson");
  g_assert_cmpfloat (s->duration_s, ==, N_PATTERN);
  gp_rules_run (s);
  f = assert_only (s, "HW");
  g_assert_cmpfloat (gp_test_evidence_int (f, "samples"), ==, N_PATTERN);
  gp_session_free (s);
  g_string_free (text, TRUE);

  /* a damaged line: the file and the line, one line */
  s = gp_ingest_load_any_data ("RAM 1/2MB CPU [1%@100] GR3D_FREQ 1%@1\n"
      "RAM x/3964MB CPU [\n", -1, "t.log", &error);
  g_assert_null (s);
  g_assert_error (error, GP_SESSION_ERROR, GP_SESSION_ERROR_PARSE);
  g_assert_true (g_str_has_prefix (error->message, "t.log:2: "));
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
  g_test_add_func ("/rules-machine/verdict", test_verdict_machine);
  g_test_add_func ("/rules-machine/ingest-log", test_ingest_log);
  g_test_add_func ("/rules-machine/capture-no-machine",
      test_capture_no_machine);
  g_test_add_func ("/rules-machine/capture-cpuio", test_capture_cpuio);
  return g_test_run ();
}
