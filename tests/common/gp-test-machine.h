/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof tests
 *
 * gp-test-machine.h: machines made from the text the tools print:
 * tegrastats lines through gp_tegrastats_parse_line () and
 * gp_telemetry_add_tegra (), an AGX Orin line with chosen loads, the four
 * patterns of a Jetson (compute-bound, memory-bound, thermal, CPU/IO) and
 * the lines of a telemetry fixture; a session of such a machine alone.
 * Header-only; the machine rules' and the verdict's tests share it.
 */
#ifndef __GP_TEST_MACHINE_H__
#define __GP_TEST_MACHINE_H__

#include "core/gp-session.h"
#include "rules/gp-rules.h"
#include "telemetry/gp-telemetry.h"
#include "gp-test-util.h"
#include "gp-test-fixtures.h"

/* Each line a tegrastats sample, @step_s apart from 0. */
static inline GpMachine *
gp_test_machine_from_lines (GPtrArray * lines, gdouble step_s)
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
static inline GpSession *
gp_test_machine_session (GpMachine * m)
{
  GpSession *s = gp_session_new ();

  s->machine = m;
  gp_rules_run (s);
  gp_test_print_findings (s);
  return s;
}

/* An AGX Orin 64GB line as R36 prints it: 8 cores (@core0, the rest at
 * @others), EMC, GR3D with its two GPCs' clock, the engines off, the
 * temperatures, the rails. */
static inline gchar *
gp_test_orin_line (gdouble gr3d, gdouble gpu_mhz, gdouble emc, gint core0,
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

#define GP_TEST_N_PATTERN 20

/* compute-bound: GR3D 97-99 % at its top clock all along, EMC 40 % */
static inline GpMachine *
gp_test_pattern_compute (void)
{
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);
  GpMachine *m;
  guint i;

  for (i = 0; i < GP_TEST_N_PATTERN; i++)
    g_ptr_array_add (lines, gp_test_orin_line (97 + (i % 3), 1300, 40, 30,
            20, 60 + (i % 2)));
  m = gp_test_machine_from_lines (lines, 1.0);
  g_ptr_array_unref (lines);
  return m;
}

/* memory-bound: EMC 89-91 % at its clock, GR3D 70 % at its top clock */
static inline GpMachine *
gp_test_pattern_memory (void)
{
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);
  GpMachine *m;
  guint i;

  for (i = 0; i < GP_TEST_N_PATTERN; i++)
    g_ptr_array_add (lines, gp_test_orin_line (69 + (i % 3), 1300,
            89 + (i % 3), 30, 20, 62));
  m = gp_test_machine_from_lines (lines, 1.0);
  g_ptr_array_unref (lines);
  return m;
}

/* thermal: GR3D 99 % all along; tj from 70 C up by 2 C a sample (108 C at
 * the end); the clock at its top 1300 MHz for the first 8 samples, then cut
 * step by step to 800 MHz as it heats */
static inline GpMachine *
gp_test_pattern_thermal (void)
{
  static const gdouble clock[GP_TEST_N_PATTERN] = {
    1300, 1300, 1300, 1300, 1300, 1300, 1300, 1300, 1100, 1000,
    950, 900, 850, 850, 800, 800, 800, 800, 800, 800
  };
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);
  GpMachine *m;
  guint i;

  for (i = 0; i < GP_TEST_N_PATTERN; i++)
    g_ptr_array_add (lines, gp_test_orin_line (99, clock[i], 30, 25, 20,
            70 + 2 * i));
  m = gp_test_machine_from_lines (lines, 1.0);
  g_ptr_array_unref (lines);
  return m;
}

/* CPU/IO: GR3D in bursts (0, 40, 5, 35 ...: mean 20 %), core 0 at 100 %,
 * the others at 10 %, EMC 10 % */
static inline GpMachine *
gp_test_pattern_cpuio (gdouble step_s)
{
  static const gdouble gr3d[4] = { 0, 40, 5, 35 };
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);
  GpMachine *m;
  guint i;

  for (i = 0; i < GP_TEST_N_PATTERN; i++)
    g_ptr_array_add (lines, gp_test_orin_line (gr3d[i % 4], 1300, 10, 100,
            10, 55));
  m = gp_test_machine_from_lines (lines, step_s);
  g_ptr_array_unref (lines);
  return m;
}

/* The lines of a fixture, each file's lines held for @repeat samples in
 * turn. */
static inline GPtrArray *
gp_test_fixture_lines (const gchar * name, guint repeat)
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

#endif /* __GP_TEST_MACHINE_H__ */
