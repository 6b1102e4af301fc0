/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* tests of gp-telemetry: the real tegrastats and nvidia-smi outputs of
 * tests/fixtures/telemetry into the machine's vocabulary, checked
 * against values read by hand from the files, and damaged logs refused
 * with the file and line */
#include <math.h>
#include <string.h>

#include "telemetry/gp-telemetry.h"
#include "../common/gp-test-fixtures.h"

static gdouble
value (GpMachine * m, const gchar * q, const gchar * inst, guint i)
{
  GpMachineSeries *s = gp_machine_find (m, q, inst);

  if (s == NULL)
    g_error ("no series %s/%s", q, inst ? inst : "*");
  return gp_machine_series_v (s, i);
}

/* Nano, JetPack 4: no timestamp (times from the interval), POM rails in
 * mW without a unit, PMIC's placeholder left out. */
static void
test_tegra_nano (void)
{
  g_autoptr (GpMachine) m = gp_test_fixture_machine ("tegrastats_nano_jp4.txt");
  GpMachineSeries *ram;

  if (m == NULL)
    return;
  g_assert_cmpuint (gp_machine_find_source (m, "tegrastats")->samples, ==,
      2);
  ram = gp_machine_find (m, GP_MACHINE_MEM_USED, "ram");
  g_assert_cmpfloat (gp_machine_series_v (ram, 0), ==, 1923);
  g_assert_cmpfloat (ram->limit, ==, 3964);
  g_assert_cmpfloat (gp_machine_series_t (ram, 1), ==, 1.0);
  g_assert_cmpstr (ram->unit, ==, GP_UNIT_MIB);
  g_assert_cmpfloat (value (m, GP_MACHINE_CPU_LOAD, "3", 0), ==, 6);
  g_assert_cmpfloat_with_epsilon (value (m, GP_MACHINE_CPU_LOAD, "all", 0),
      (5 + 4 + 3 + 6) / 4.0, 1e-9);
  g_assert_cmpfloat (value (m, GP_MACHINE_CPU_FREQ, "0", 1), ==, 204);
  g_assert_cmpfloat (value (m, GP_MACHINE_MEMBW_LOAD, "emc", 0), ==, 0);
  g_assert_cmpfloat (value (m, GP_MACHINE_MEM_FREQ, "emc", 0), ==, 1600);
  g_assert_cmpfloat (value (m, GP_MACHINE_GPU_FREQ, "0", 0), ==, 76);
  g_assert_cmpfloat (value (m, GP_MACHINE_TEMP, "cpu", 1), ==, 36.5);
  g_assert_null (gp_machine_find (m, GP_MACHINE_TEMP, "pmic"));
  g_assert_cmpfloat_with_epsilon (value (m, GP_MACHINE_POWER, "POM_5V_IN",
          0), 1.750, 1e-9);
  /* the input rail is the board's power */
  g_assert_cmpfloat_with_epsilon (value (m, GP_MACHINE_POWER, "board", 1),
      1.022, 1e-9);
  g_assert_null (gp_machine_find (m, GP_MACHINE_ENGINE_LOAD, "APE"));
}

/* AGX Orin 64 GB R36.4.4: NVENC busy with a %, NVDEC off, GR3D per GPC,
 * no input rail (the board's power is the rails' sum). */
static void
test_tegra_orin_nvenc (void)
{
  g_autoptr (GpMachine) m =
      gp_test_fixture_machine ("tegrastats_agx_orin64_r36.4.4_"
          "nvenc_active.txt");

  if (m == NULL)
    return;
  g_assert_cmpfloat (value (m, GP_MACHINE_ENGINE_LOAD, "NVENC", 0), ==, 79);
  g_assert_cmpfloat (value (m, GP_MACHINE_ENGINE_FREQ, "NVENC", 0), ==, 166);
  g_assert_cmpfloat (value (m, GP_MACHINE_ENGINE_LOAD, "NVDEC", 0), ==, 0);
  g_assert_cmpfloat (value (m, GP_MACHINE_ENGINE_LOAD, "VIC", 0), ==, 36);
  g_assert_cmpfloat (value (m, GP_MACHINE_CPU_LOAD, "11", 0), ==, 10);
  g_assert_cmpfloat_with_epsilon (value (m, GP_MACHINE_TEMP, "tj", 0),
      52.562, 1e-9);
  g_assert_cmpfloat_with_epsilon (value (m, GP_MACHINE_POWER, "board", 0),
      2.412 + 1.607 + 4.707, 1e-9);
  g_assert_cmpfloat (value (m, GP_MACHINE_MEM_USED, "swap", 0), ==, 86);
}

/* Xavier NX JetPack 5.1.2: the leading timestamp gives the times; CPUs
 * mean over 6 */
static void
test_tegra_timestamp (void)
{
  g_autoptr (GpMachine) m =
      gp_test_fixture_machine ("tegrastats_xavier_nx_jp512_timestamp_mW.txt");

  if (m == NULL)
    return;
  g_assert_cmpfloat (gp_machine_series_t (gp_machine_find (m,
              GP_MACHINE_GPU_LOAD, "0"), 0), ==, 0);
  g_assert_cmpfloat (value (m, GP_MACHINE_GPU_FREQ, "0", 0), ==, 114);
  g_assert_cmpfloat_with_epsilon (value (m, GP_MACHINE_POWER, "VDD_IN", 0),
      2.763, 1e-9);
}

/* Orin NX JetPack 5: four CPUs off are missing, not 0 %, and the mean is
 * over the four that are on. */
static void
test_tegra_cpus_off (void)
{
  g_autoptr (GpMachine) m =
      gp_test_fixture_machine ("tegrastats_orin_nx16_jp5.txt");

  if (m == NULL)
    return;
  g_assert_true (isnan (value (m, GP_MACHINE_CPU_LOAD, "7", 0)));
  g_assert_cmpfloat_with_epsilon (value (m, GP_MACHINE_CPU_LOAD, "all", 0),
      (6 + 9 + 5 + 16) / 4.0, 1e-9);
  /* VIC_FREQ 729: a clock alone, the load missing */
  g_assert_true (isnan (value (m, GP_MACHINE_ENGINE_LOAD, "VIC", 0)));
  g_assert_cmpfloat (value (m, GP_MACHINE_ENGINE_FREQ, "VIC", 0), ==, 729);
}

/* Every tegrastats fixture loads whole, with a GPU series and the board's
 * power; all but one (an excerpt without EMC) with the EMC's. */
static void
test_tegra_all (void)
{
  gchar *dir = gp_test_fixture_path ("telemetry", NULL);
  GDir *d;
  const gchar *name;
  guint n = 0;

  if (dir == NULL)
    return;
  d = g_dir_open (dir, 0, NULL);
  while ((name = g_dir_read_name (d)) != NULL) {
    GpMachine *m;

    if (!g_str_has_prefix (name, "tegrastats_"))
      continue;
    m = gp_test_fixture_machine (name);
    g_assert_nonnull (gp_machine_find (m, GP_MACHINE_GPU_LOAD, "0"));
    if (strcmp (name, "tegrastats_agx_orin64_gr3d_pct_only.txt") != 0)
      g_assert_nonnull (gp_machine_find (m, GP_MACHINE_MEMBW_LOAD, "emc"));
    g_assert_nonnull (gp_machine_find (m, GP_MACHINE_POWER, "board"));
    g_assert_null (gp_machine_find_source (m, "tegrastats")->detail);
    gp_machine_free (m);
    n++;
  }
  g_dir_close (d);
  g_free (dir);
  g_assert_cmpuint (n, ==, 14);
}

/* An nvidia-smi query with its own timestamps and the old throttle names */
static void
test_nvsmi_query_legacy (void)
{
  g_autoptr (GpMachine) m =
      gp_test_fixture_machine
      ("nvidia_smi_query_legacy_2017_throttle_reasons_timestamped.txt");
  GpMachineSeries *load;

  if (m == NULL)
    return;
  load = gp_machine_find (m, GP_MACHINE_GPU_LOAD, "0");
  g_assert_cmpfloat (gp_machine_series_v (load, 0), ==, 70);
  g_assert_cmpfloat (gp_machine_series_v (load, 1), ==, 68);
  /* 19:58:43.613 to 19:58:44.615 */
  g_assert_cmpfloat_with_epsilon (gp_machine_series_t (load, 1), 1.002,
      1e-6);
  g_assert_cmpfloat (value (m, GP_MACHINE_MEMBW_LOAD, "0", 0), ==, 32);
  g_assert_cmpfloat (value (m, GP_MACHINE_TEMP, "gpu0", 0), ==, 67);
  /* every reason "Not Active" */
  g_assert_cmpfloat (value (m, GP_MACHINE_THROTTLE, "0", 0), ==, 0);
}

/* dmon of two GeForce GPUs: two rows, one sample, one series per GPU */
static void
test_nvsmi_dmon_two (void)
{
  g_autoptr (GpMachine) m =
      gp_test_fixture_machine ("nvidia_smi_dmon_2gpu_geforce_default.txt");
  GpMachineSeries *a, *b;

  if (m == NULL)
    return;
  a = gp_machine_find (m, GP_MACHINE_GPU_LOAD, "0");
  b = gp_machine_find (m, GP_MACHINE_GPU_LOAD, "1");
  g_assert_nonnull (a);
  g_assert_nonnull (b);
  g_assert_cmpuint (gp_machine_series_len (a), ==, 1);
  g_assert_cmpuint (gp_machine_series_len (b), ==, 1);
  g_assert_cmpuint (gp_machine_find_source (m, "nvidia-smi")->samples, ==,
      1);
  g_assert_cmpfloat (gp_machine_series_v (b, 0), ==, 100);
  g_assert_cmpfloat (value (m, GP_MACHINE_MEM_FREQ, "1", 0), ==, 9251);
  g_assert_cmpfloat (value (m, GP_MACHINE_POWER, "1", 0), ==, 159);
}

/* dmon with -o T: the times from its Time column; T4's mtemp `-` missing */
static void
test_nvsmi_dmon_time (void)
{
  g_autoptr (GpMachine) m =
      gp_test_fixture_machine ("nvidia_smi_dmon_all_groups_time_prefix.txt");
  g_autoptr (GpMachine) t4 =
      gp_test_fixture_machine ("nvidia_smi_dmon_t4_default_drv535.txt");

  if (m == NULL)
    return;
  g_assert_cmpfloat (value (m, GP_MACHINE_GPU_LOAD, "0", 1), ==, 65);
  g_assert_cmpfloat (gp_machine_series_t (gp_machine_find (m,
              GP_MACHINE_GPU_LOAD, "0"), 1), ==, 1.0);
  g_assert_cmpfloat (value (m, GP_MACHINE_POWER, "0", 0), ==, 130);
  g_assert_cmpfloat (value (m, GP_MACHINE_GPU_FREQ, "0", 0), ==, 1530);
  g_assert_true (isnan (value (m, GP_MACHINE_ENGINE_LOAD, "NVJPG@gpu0", 0)));
  g_assert_true (isnan (value (t4, GP_MACHINE_TEMP, "mem0", 0)));
  g_assert_cmpfloat (value (t4, GP_MACHINE_TEMP, "gpu0", 0), ==, 41);
}

/* A query of identities: facts per GPU, limits on the clocks */
static void
test_nvsmi_identity (void)
{
  g_autoptr (GpMachine) m =
      gp_test_fixture_machine ("nvidia_smi_query_l40s_2gpu_csv_"
          "with_header_units.txt");

  if (m == NULL)
    return;
  g_assert_cmpstr (gp_machine_fact (m, "gpu1.name"), ==, "NVIDIA L40S");
  g_assert_cmpfloat (gp_machine_fact_double (m, "gpu0.clocks.max.memory"),
      ==, 9001);
  g_assert_cmpfloat (gp_machine_fact_double (m, "gpu0.memory.total"), ==,
      46068);
}

/* Damaged logs: the file and the line; a last line cut short is left out
 * and said. */
static void
test_damaged (void)
{
  static const gchar good[] =
      "RAM 1923/3964MB (lfb 2x2MB) CPU [5%@1224,4%@1224] EMC_FREQ 0%@1600 "
      "GR3D_FREQ 0%@76\n";
  GError *error = NULL;
  gchar *text;
  GpMachine *m;

  text = g_strconcat (good, good, "RAM 1923/", NULL);
  m = gp_telemetry_load_data (text, strlen (text), "t.log", 1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (gp_machine_find_source (m, "tegrastats")->samples, ==,
      2);
  g_assert_nonnull (strstr (gp_machine_find_source (m,
              "tegrastats")->detail, "cut short"));
  gp_machine_free (m);
  g_free (text);

  /* a damaged line in the middle: skipped, counted, the first named */
  text = g_strconcat (good, "RAM x/3964MB\n", good, NULL);
  m = gp_telemetry_load_data (text, strlen (text), "t.log", 1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (gp_machine_find_source (m, "tegrastats")->samples, ==,
      2);
  g_assert_true (g_str_has_prefix (gp_telemetry_read_detail (m),
          "1 of 3 lines skipped, first at t.log:2: "));
  gp_machine_free (m);
  g_free (text);

  /* no valid line at all: refused, naming the first */
  text = g_strconcat ("RAM 1923/3964MB CPU [x%@1224]\n", "RAM x/3964MB\n",
      NULL);
  m = gp_telemetry_load_data (text, strlen (text), "t.log", 1, &error);
  g_assert_null (m);
  g_assert_error (error, GP_TELEMETRY_ERROR, GP_TELEMETRY_ERROR_PARSE);
  g_assert_true (g_str_has_prefix (error->message, "t.log:1: "));
  g_assert_null (strchr (error->message, '\n'));
  g_clear_error (&error);
  g_free (text);

  m = gp_telemetry_load_data ("hello world\n", 12, "w.txt", 1, &error);
  g_assert_null (m);
  g_assert_cmpstr (error->message, ==, "w.txt:1: not a tegrastats log or "
      "nvidia-smi output (\"hello world\")");
  g_clear_error (&error);

  m = gp_telemetry_load_file ("/nonexistent/x.log", 1, &error);
  g_assert_null (m);
  g_assert_error (error, GP_TELEMETRY_ERROR, GP_TELEMETRY_ERROR_IO);
  g_assert_nonnull (strstr (error->message, "/nonexistent/x.log"));
  g_clear_error (&error);
}

/* Damaged lines among the good ones of each log: a cut line, garbage, a
 * value out of range, nan; the good lines' values are the truth (the GPU
 * loads written), the bad ones counted. */
static void
test_partly_damaged (void)
{
  static const struct
  {
    const gchar *name;
    const gchar *head;          /* the header lines */
    const gchar *row;           /* printf: the GPU load, one row */
    const gchar *bad[4];
    const gchar *series;
  } logs[] = {
    {"tegrastats", "", "RAM 1923/3964MB CPU [5%%@1224] EMC_FREQ 0%%@1600 "
          "GR3D_FREQ %u%%@76\n",
          {"RAM 1923/3964MB CPU [5%@1224] GR3D_FR\n", "\x01garbage\n",
              "RAM 1923/3964MB CPU [5%@1224] GR3D_FREQ 1e308%@76\n",
            "RAM 1923/3964MB CPU [nan%@1224] GR3D_FREQ 5%@76\n"},
        "gpu.load/0"},
    {"dmon", "# gpu   pwr gtemp    sm\n# Idx     W     C     %\n",
          "    0    15    41    %u\n",
          {"    0    15\n", "garbage\n", "    0    15    41    1e308\n",
            "    0    nan    41    5\n"},
        "gpu.load/0"},
    {"query", "index, utilization.gpu [%]\n", "0, %u %%\n",
          {"0\n", "garbage, garbage, garbage\n", "0, 1e308 %\n",
            "0, nan %\n"},
        "gpu.load/0"},
  };
  guint i, k;

  for (i = 0; i < G_N_ELEMENTS (logs); i++) {
    GString *text = g_string_new (logs[i].head);
    guint n_head = 0, sum = 0;
    GError *error = NULL;
    GpMachine *m;
    GpMachineSeries *sr;
    gchar *want;

    for (k = 0; logs[i].head[k]; k++)
      n_head += logs[i].head[k] == '\n';
    for (k = 0; k < 8; k++) {
      g_string_append_printf (text, logs[i].row, 10 * k);
      sum += 10 * k;
      if (k % 2 == 1)
        g_string_append (text, logs[i].bad[k / 2]);
    }
    m = gp_telemetry_load_data (text->str, text->len, logs[i].name, 1,
        &error);
    g_assert_no_error (error);
    sr = gp_machine_find (m, "gpu.load", "0");
    g_assert_nonnull (sr);
    g_assert_cmpuint (gp_machine_series_count (sr, NAN, NAN), ==, 8);
    g_assert_cmpfloat_with_epsilon (gp_machine_series_mean (sr, NAN, NAN),
        sum / 8.0, 1e-9);
    g_assert_cmpfloat (gp_machine_series_max (sr, NAN, NAN), ==, 70);
    /* the first bad line follows the second row */
    want = g_strdup_printf ("4 of %u lines skipped, first at %s:%u: ",
        n_head + 12, logs[i].name, n_head + 3);
    if (!g_str_has_prefix (gp_telemetry_read_detail (m), want))
      g_error ("%s: '%s', not '%s...'", logs[i].name,
          gp_telemetry_read_detail (m), want);
    g_free (want);
    gp_machine_free (m);
    g_string_free (text, TRUE);
  }
}

/* A log far past the series' bound is read in bounded memory: every
 * series under GP_TELEMETRY_SERIES_MAX samples, its mean, maximum and
 * minimum those of the loads written (the truth), its count the lines. */
static void
test_bounded (void)
{
  const guint n = 5 * GP_TELEMETRY_SERIES_MAX + 3;
  GString *text = g_string_new (NULL);
  GError *error = NULL;
  gdouble sum = 0;
  GpMachineSeries *sr;
  GpMachine *m;
  guint i;

  for (i = 0; i < n; i++) {
    guint load = (i * 7919) % 97;

    /* one spike, alone among its neighbours */
    if (i == n / 3)
      load = 99;
    sum += load;
    g_string_append_printf (text, "RAM 1923/3964MB CPU [5%%@1224] GR3D_FREQ "
        "%u%%@76\n", load);
  }
  m = gp_telemetry_load_data (text->str, text->len, "long.log", 1, &error);
  g_assert_no_error (error);
  for (i = 0; i < m->series->len; i++)
    g_assert_cmpuint (gp_machine_series_len (g_ptr_array_index (m->series,
                i)), <, GP_TELEMETRY_SERIES_MAX);
  sr = gp_machine_find (m, "gpu.load", "0");
  g_assert_cmpuint (gp_machine_series_count (sr, NAN, NAN), ==, n);
  g_assert_cmpfloat_with_epsilon (gp_machine_series_mean (sr, NAN, NAN),
      sum / n, 1e-9);
  g_assert_cmpfloat (gp_machine_series_max (sr, NAN, NAN), ==, 99);
  g_assert_cmpfloat (gp_machine_series_min (sr, NAN, NAN), ==, 0);
  g_assert_cmpfloat (gp_machine_series_t (sr, gp_machine_series_len (sr) -
          1), ==, n - 1);
  gp_machine_free (m);
  g_string_free (text, TRUE);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/telemetry/load/tegra-nano", test_tegra_nano);
  g_test_add_func ("/telemetry/load/tegra-orin-nvenc", test_tegra_orin_nvenc);
  g_test_add_func ("/telemetry/load/tegra-timestamp", test_tegra_timestamp);
  g_test_add_func ("/telemetry/load/tegra-cpus-off", test_tegra_cpus_off);
  g_test_add_func ("/telemetry/load/tegra-all", test_tegra_all);
  g_test_add_func ("/telemetry/load/nvsmi-query-legacy",
      test_nvsmi_query_legacy);
  g_test_add_func ("/telemetry/load/nvsmi-dmon-two", test_nvsmi_dmon_two);
  g_test_add_func ("/telemetry/load/partly-damaged", test_partly_damaged);
  g_test_add_func ("/telemetry/load/bounded", test_bounded);
  g_test_add_func ("/telemetry/load/nvsmi-dmon-time", test_nvsmi_dmon_time);
  g_test_add_func ("/telemetry/load/nvsmi-identity", test_nvsmi_identity);
  g_test_add_func ("/telemetry/load/damaged", test_damaged);
  return g_test_run ();
}
