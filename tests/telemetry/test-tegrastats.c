/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof tests: tegrastats lines (src/telemetry/gp-tegrastats.c).
 *
 * Every line of every tests/fixtures/telemetry/tegrastats_*.txt (real
 * output of TX1 to Thor) parses with no unknown token; one line of each
 * board against its values read by hand from the fixture; the legacy
 * TK1/TX1 spelling; damaged lines refused with one line of error.
 */
#include <math.h>
#include <string.h>

#include "telemetry/gp-tegrastats.h"
#include "../common/gp-test-fixtures.h"

#define FIXTURE_DIR "telemetry"

/* Line @n (from 0) of fixture @name, or NULL (the test failed) when the
 * fixtures are not there. */
static gchar *
fixture_line (const gchar * name, guint n)
{
  gchar *dir = gp_test_fixture_path (FIXTURE_DIR, NULL), *path, *text, **lines, *line;
  GError *error = NULL;

  if (dir == NULL)
    return NULL;
  path = g_build_filename (dir, name, NULL);
  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  lines = g_strsplit (text, "\n", -1);
  g_assert_cmpuint (n, <, g_strv_length (lines));
  line = g_strdup (lines[n]);
  g_strfreev (lines);
  g_free (text);
  g_free (path);
  g_free (dir);
  return line;
}

static GpTegraSample *
parse_ok (const gchar * line)
{
  GError *error = NULL;
  GpTegraSample *s = gp_tegrastats_parse_line (line, &error);

  g_assert_no_error (error);
  g_assert_nonnull (s);
  for (guint k = 0; k < s->unknown->len; k++)
    g_test_message ("unknown token '%s'",
        (gchar *) g_ptr_array_index (s->unknown, k));
  g_assert_cmpuint (s->n_unknown, ==, 0);
  return s;
}

static GpTegraSample *
fixture_sample (const gchar * name, guint n)
{
  gchar *line = fixture_line (name, n);
  GpTegraSample *s;

  if (line == NULL)
    return NULL;
  s = parse_ok (line);
  g_free (line);
  return s;
}

static void
assert_value (GpTegraSample * s, const gchar * name, gdouble want,
    const gchar * unit)
{
  const GpTegraField *f = gp_tegra_sample_field (s, name);

  if (f == NULL)
    g_error ("no field %s", name);
  g_assert_cmpstr (f->unit, ==, unit);
  if (isnan (want))
    g_assert_true (isnan (f->value));
  else
    g_assert_cmpfloat_with_epsilon (f->value, want, 1e-9);
}

static void
assert_rail (GpTegraSample * s, const gchar * name, gdouble cur,
    gdouble avg)
{
  gdouble c, a, m;

  g_assert_true (gp_tegra_sample_rail (s, name, &c, &a, &m));
  g_assert_cmpfloat (c, ==, cur);
  g_assert_cmpfloat (a, ==, avg);
  g_assert_true (isnan (m));
}

static void
assert_cpu (GpTegraSample * s, guint i, gdouble load, gdouble freq)
{
  gdouble l, f;

  g_assert_true (gp_tegra_sample_cpu (s, i, &l, &f));
  g_assert_cmpfloat (l, ==, load);
  if (isnan (freq))
    g_assert_true (isnan (f));
  else
    g_assert_cmpfloat (f, ==, freq);
}

static void
assert_engine (GpTegraSample * s, const gchar * name,
    GpTegraEngineState state, gdouble load, gdouble freq)
{
  gdouble l, f;

  g_assert_cmpint (gp_tegra_sample_engine (s, name, &l, &f), ==, state);
  if (isnan (load))
    g_assert_true (isnan (l));
  else
    g_assert_cmpfloat (l, ==, load);
  if (isnan (freq))
    g_assert_true (isnan (f));
  else
    g_assert_cmpfloat (f, ==, freq);
}

/* Every line of every tegrastats fixture: no unknown token, a RAM field,
 * a CPU list. */
static void
test_all_lines (void)
{
  gchar *dir_path = gp_test_fixture_path (FIXTURE_DIR, NULL);
  GDir *dir;
  const gchar *name;
  guint files = 0, total = 0;

  if (dir_path == NULL)
    return;
  dir = g_dir_open (dir_path, 0, NULL);
  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL) {
    gchar *path, *text, **lines;
    guint parsed = 0;

    if (!g_str_has_prefix (name, "tegrastats_") ||
        !g_str_has_suffix (name, ".txt"))
      continue;
    path = g_build_filename (dir_path, name, NULL);
    g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
    lines = g_strsplit (text, "\n", -1);
    for (guint k = 0; lines[k] != NULL; k++) {
      GpTegraSample *s;

      if (lines[k][0] == '\0')
        continue;
      s = parse_ok (lines[k]);
      g_assert_nonnull (gp_tegra_sample_field (s, "RAM.total"));
      g_assert_cmpuint (s->n_cpus, >=, 4);
      g_assert_cmpuint (s->fields->len, >, 20);
      gp_tegra_sample_free (s);
      parsed++;
    }
    g_test_message ("%s: %u lines, 0 unknown tokens", name, parsed);
    g_assert_cmpuint (parsed, >, 0);
    total += parsed;
    files++;
    g_strfreev (lines);
    g_free (text);
    g_free (path);
  }
  g_dir_close (dir);
  g_free (dir_path);
  g_test_message ("%u files, %u lines", files, total);
  g_assert_cmpuint (files, >=, 14);
  g_assert_cmpuint (total, >=, 18);
}

/* TX1 (L4T 28-32): IRAM, no SWAP, rails without unit. */
static void
test_tx1 (void)
{
  g_autoptr (GpTegraSample) s =
      fixture_sample ("tegrastats_tx1_l4t28-32.txt", 0);

  if (s == NULL)
    return;
  g_assert_false (s->has_timestamp);
  assert_value (s, "RAM.used", 1179, "MiB");
  assert_value (s, "RAM.total", 3983, "MiB");
  assert_value (s, "RAM.lfb.blocks", 120, "");
  assert_value (s, "RAM.lfb.size", 4, "MiB");
  g_assert_null (gp_tegra_sample_field (s, "SWAP.used"));
  assert_value (s, "IRAM.used", 0, "MiB");
  assert_value (s, "IRAM.total", 252 / 1024.0, "MiB");
  assert_value (s, "IRAM.lfb", 252 / 1024.0, "MiB");
  g_assert_cmpuint (s->n_cpus, ==, 4);
  assert_cpu (s, 1, 4, 102);
  g_assert_cmpfloat (gp_tegra_sample_emc_load (s), ==, 7);
  assert_value (s, "EMC.freq", 408, "MHz");
  assert_engine (s, "GR3D", GP_TEGRA_ENGINE_ON, 0, 76);
  assert_engine (s, "APE", GP_TEGRA_ENGINE_ON, NAN, 25);
  g_assert_cmpfloat (gp_tegra_sample_temp (s, "Tdiode"), ==, 42.75);
  g_assert_cmpfloat (gp_tegra_sample_temp (s, "thermal"), ==, 38.5);
  assert_rail (s, "VDD_IN", 2532, 2698);
  assert_rail (s, "VDD_CPU", 76, 178);
  assert_rail (s, "VDD_GPU", 19, 19);
}

/* TX2: MTS, six CPUs, an `off` CPU, no EMC/GR3D clock. */
static void
test_tx2 (void)
{
  g_autoptr (GpTegraSample) busy =
      fixture_sample ("tegrastats_tx2_jp4_busy_mts.txt", 0);
  g_autoptr (GpTegraSample) idle =
      fixture_sample ("tegrastats_tx2_jp4_idle.txt", 0);
  g_autoptr (GpTegraSample) nofreq =
      fixture_sample ("tegrastats_tx2_jp4_no_freq_fields.txt", 0);

  if (busy == NULL)
    return;
  assert_value (busy, "SWAP.cached", 181, "MiB");
  assert_cpu (busy, 2, 67, 2034);
  assert_value (busy, "MTS.fg", 1, "%");
  assert_value (busy, "MTS.bg", 1, "%");
  g_assert_cmpfloat (gp_tegra_sample_temp (busy, "BCPU"), ==, 42.5);
  assert_rail (busy, "VDD_SYS_DDR", 1241, 1241);

  g_assert_cmpuint (idle->n_cpus, ==, 6);
  g_assert_false (gp_tegra_sample_cpu (idle, 1, NULL, NULL));
  g_assert_false (gp_tegra_sample_cpu (idle, 2, NULL, NULL));
  assert_value (idle, "CPU1.state", 0, "");
  assert_value (idle, "CPU1.load", NAN, "%");
  assert_cpu (idle, 5, 2, 345);
  assert_engine (idle, "GR3D", GP_TEGRA_ENGINE_ON, 0, 624);

  g_assert_cmpfloat (gp_tegra_sample_emc_load (nofreq), ==, 0);
  assert_value (nofreq, "EMC.freq", NAN, "MHz");
  assert_engine (nofreq, "GR3D", GP_TEGRA_ENGINE_ON, 0, NAN);
  g_assert_cmpint (gp_tegra_sample_engine (nofreq, "APE", NULL, NULL), ==,
      GP_TEGRA_ENGINE_ABSENT);
}

/* Nano: IRAM, POM rails without unit, the PMIC placeholder. */
static void
test_nano (void)
{
  g_autoptr (GpTegraSample) s = fixture_sample ("tegrastats_nano_jp4.txt",
      0);

  if (s == NULL)
    return;
  assert_value (s, "RAM.lfb.size", 2, "MiB");
  assert_value (s, "SWAP.used", 191, "MiB");
  assert_value (s, "SWAP.total", 1982, "MiB");
  assert_value (s, "SWAP.cached", 6, "MiB");
  assert_cpu (s, 3, 6, 1224);
  assert_value (s, "EMC.freq", 1600, "MHz");
  g_assert_cmpfloat (gp_tegra_sample_gr3d_load (s), ==, 0);
  g_assert_cmpfloat (gp_tegra_sample_temp (s, "PMIC"), ==, 50);
  g_assert_cmpfloat (gp_tegra_sample_temp (s, "AO"), ==, 45);
  assert_rail (s, "POM_5V_IN", 1750, 1628);
  assert_rail (s, "POM_5V_CPU", 366, 406);
}

/* AGX Xavier: off CPUs, rails named GPU and CPU (not the CPU list). */
static void
test_xavier (void)
{
  g_autoptr (GpTegraSample) s =
      fixture_sample ("tegrastats_agx_xavier_jp4_short_rails.txt", 0);

  if (s == NULL)
    return;
  g_assert_cmpuint (s->n_cpus, ==, 8);
  assert_cpu (s, 0, 2, 1190);
  for (guint c = 4; c < 8; c++)
    g_assert_false (gp_tegra_sample_cpu (s, c, NULL, NULL));
  assert_engine (s, "GR3D", GP_TEGRA_ENGINE_ON, 0, 318);
  g_assert_cmpfloat (gp_tegra_sample_temp (s, "thermal"), ==, 36.9);
  assert_rail (s, "GPU", 0, 0);
  assert_rail (s, "CPU", 311, 311);
  assert_rail (s, "SYS5V", 1482, 1482);
}

/* Xavier NX: JetPack 4 without units, JetPack 5.1.2 with a timestamp,
 * one GPC in brackets, mW rails, VIC_FREQ as a clock alone. */
static void
test_xavier_nx (void)
{
  g_autoptr (GpTegraSample) jp4 =
      fixture_sample ("tegrastats_xavier_nx_jp4.txt", 0);
  g_autoptr (GpTegraSample) jp5 =
      fixture_sample ("tegrastats_xavier_nx_jp512_timestamp_mW.txt", 0);

  if (jp4 == NULL)
    return;
  g_assert_false (jp4->has_timestamp);
  assert_engine (jp4, "GR3D", GP_TEGRA_ENGINE_ON, 62, 306);
  g_assert_cmpfloat (gp_tegra_sample_emc_load (jp4), ==, 10);
  assert_rail (jp4, "VDD_IN", 4067, 4067);

  g_assert_true (jp5->has_timestamp);
  /* 07-09-2024 13:31:31 as UTC (date -u -d "2024-07-09 13:31:31" +%s) */
  g_assert_cmpint (jp5->timestamp_s, ==, G_GINT64_CONSTANT (1720531891));
  assert_engine (jp5, "GR3D", GP_TEGRA_ENGINE_ON, 0, 114);
  assert_value (jp5, "GR3D.gpc0.freq", 114, "MHz");
  g_assert_null (gp_tegra_sample_field (jp5, "GR3D.gpc1.freq"));
  assert_engine (jp5, "VIC", GP_TEGRA_ENGINE_ON, NAN, 115);
  assert_cpu (jp5, 0, 23, 1397);
  assert_rail (jp5, "VDD_IN", 2763, 2846);
  assert_rail (jp5, "VDD_SOC", 650, 711);
  g_assert_cmpfloat (gp_tegra_sample_temp (jp5, "gpu"), ==, 45.5);
}

/* Orin NX 16GB (JetPack 5): CV sensors, GR3D without brackets. */
static void
test_orin_nx (void)
{
  g_autoptr (GpTegraSample) s =
      fixture_sample ("tegrastats_orin_nx16_jp5.txt", 0);

  if (s == NULL)
    return;
  assert_value (s, "RAM.lfb.blocks", 1770, "");
  assert_cpu (s, 3, 16, 729);
  g_assert_false (gp_tegra_sample_cpu (s, 4, NULL, NULL));
  assert_engine (s, "GR3D", GP_TEGRA_ENGINE_ON, 0, 611);
  assert_value (s, "EMC.freq", 2133, "MHz");
  g_assert_cmpfloat (gp_tegra_sample_temp (s, "tj"), ==, 48.875);
  g_assert_cmpfloat (gp_tegra_sample_temp (s, "CV2"), ==, 45.75);
  assert_rail (s, "VDD_CPU_GPU_CV", 773, 773);
}

/* AGX Orin 32GB R36: runs of spaces, engines off, two GPCs. */
static void
test_agx_orin32 (void)
{
  g_autoptr (GpTegraSample) s =
      fixture_sample ("tegrastats_agx_orin32_r36_multispace_engines_off.txt",
      0);
  const gchar *off[] = { "NVENC", "NVDEC", "NVJPG", "NVJPG1", "VIC", "OFA",
    "NVDLA0", "NVDLA1", "PVA0"
  };

  if (s == NULL)
    return;
  g_assert_cmpuint (s->n_cpus, ==, 12);
  assert_cpu (s, 5, 100, 2201);
  assert_engine (s, "GR3D", GP_TEGRA_ENGINE_ON, 0, 305);
  assert_value (s, "GR3D.gpc1.freq", 305, "MHz");
  for (guint k = 0; k < G_N_ELEMENTS (off); k++)
    assert_engine (s, off[k], GP_TEGRA_ENGINE_OFF, NAN, NAN);
  assert_engine (s, "APE", GP_TEGRA_ENGINE_ON, NAN, 174);
  g_assert_cmpfloat (gp_tegra_sample_temp (s, "soc1"), ==, 48.968);
  assert_rail (s, "VIN_SYS_5V0", 4767, 4767);
}

/* AGX Orin 64GB: -256C sensors, NC rails twice, a GR3D % alone, NVENC
 * busy with its clock. */
static void
test_agx_orin64 (void)
{
  g_autoptr (GpTegraSample) s256 =
      fixture_sample ("tegrastats_agx_orin64_2025_sensor_-256C_nc_rails.txt",
      0);
  g_autoptr (GpTegraSample) pct =
      fixture_sample ("tegrastats_agx_orin64_gr3d_pct_only.txt", 0);
  g_autoptr (GpTegraSample) enc =
      fixture_sample ("tegrastats_agx_orin64_r36.4.4_nvenc_active.txt", 1);

  if (s256 == NULL)
    return;
  g_assert_true (s256->has_timestamp);
  assert_value (s256, "temp.CV0", NAN, "C");
  assert_value (s256, "temp.GPU", NAN, "C");
  g_assert_true (isnan (gp_tegra_sample_temp (s256, "gpu")));
  g_assert_cmpfloat (gp_tegra_sample_temp (s256, "tj"), ==, 44.343);
  assert_engine (s256, "GR3D", GP_TEGRA_ENGINE_ON, 0, 0);
  assert_rail (s256, "NC", 0, 0);
  assert_rail (s256, "NC#2", 0, 0);
  assert_rail (s256, "VDDQ_VDD2_1V8AO", 301, 301);

  assert_engine (pct, "GR3D", GP_TEGRA_ENGINE_ON, 0, NAN);
  g_assert_true (isnan (gp_tegra_sample_emc_load (pct)));
  g_assert_cmpfloat (gp_tegra_sample_temp (pct, "cpu"), ==, 42);

  assert_engine (enc, "NVENC", GP_TEGRA_ENGINE_ON, 78, 166);
  assert_engine (enc, "VIC", GP_TEGRA_ENGINE_ON, 32, 115);
  assert_engine (enc, "NVDEC", GP_TEGRA_ENGINE_OFF, NAN, NAN);
  assert_cpu (enc, 11, 2, 1190);
  assert_rail (enc, "VIN_SYS_5V0", 4607, 4657);
  g_assert_cmpfloat (gp_tegra_sample_emc_load (enc), ==, 3);
}

/* Thor R38: GR3D with no %, three GPCs, engines `@0`, 14 CPUs. */
static void
test_thor (void)
{
  g_autoptr (GpTegraSample) s =
      fixture_sample ("tegrastats_agx_thor_r38.4.0.txt", 1);

  if (s == NULL)
    return;
  /* 05-17-2026 10:00:33 as UTC (date -u -d "2026-05-17 10:00:33" +%s) */
  g_assert_cmpint (s->timestamp_s, ==, G_GINT64_CONSTANT (1779012033));
  g_assert_cmpuint (s->n_cpus, ==, 14);
  assert_cpu (s, 9, 17, 2601);
  g_assert_true (isnan (gp_tegra_sample_gr3d_load (s)));
  assert_engine (s, "GR3D", GP_TEGRA_ENGINE_ON, NAN, 0);
  assert_value (s, "GR3D.gpc2.freq", 0, "MHz");
  assert_engine (s, "NVENC1", GP_TEGRA_ENGINE_ON, NAN, 0);
  assert_engine (s, "NVDEC0", GP_TEGRA_ENGINE_ON, NAN, 0);
  assert_engine (s, "PVA0", GP_TEGRA_ENGINE_OFF, NAN, NAN);
  assert_engine (s, "APE", GP_TEGRA_ENGINE_ON, NAN, 300);
  g_assert_cmpfloat (gp_tegra_sample_temp (s, "soc012"), ==, 36.062);
  assert_rail (s, "VDD_CPU_SOC_MSS", 4923, 4544);
  assert_rail (s, "VDD_GPU", 0, 0);
}

/* The legacy TK1/TX1 spelling (`cpu [..]@MHz`, EMC and GR3D without
 * _FREQ), the documented form, as no fixture has it; rails with a max;
 * a rail with its current alone. */
static void
test_legacy_and_rail_forms (void)
{
  g_autoptr (GpTegraSample) s =
      parse_ok ("RAM 1179/3983MB (lfb 120x4MB) cpu [1%,4%,off,off]@408 "
      "EMC 1%@408 AVP 2%@80 VDE 0 GR3D 3%@76 VDD_IN 6140/5510/7000 "
      "VDD_SOC 5765mW");
  gdouble c, a, m;

  g_assert_cmpuint (s->n_cpus, ==, 4);
  assert_cpu (s, 1, 4, 408);
  g_assert_false (gp_tegra_sample_cpu (s, 2, NULL, NULL));
  g_assert_cmpfloat (gp_tegra_sample_emc_load (s), ==, 1);
  assert_value (s, "EMC.freq", 408, "MHz");
  assert_engine (s, "GR3D", GP_TEGRA_ENGINE_ON, 3, 76);
  assert_engine (s, "VDE", GP_TEGRA_ENGINE_ON, NAN, 0);
  g_assert_true (gp_tegra_sample_rail (s, "VDD_IN", &c, &a, &m));
  g_assert_cmpfloat (m, ==, 7000);
  g_assert_true (gp_tegra_sample_rail (s, "VDD_SOC", &c, &a, &m));
  g_assert_cmpfloat (c, ==, 5765);
  g_assert_true (isnan (a));
}

/* Tokens no field takes are counted, not dropped. */
static void
test_unknown_counted (void)
{
  GError *error = NULL;
  g_autoptr (GpTegraSample) s =
      gp_tegrastats_parse_line ("RAM 1/2MB hello NEWENG ?? CPU [1%@2]",
      &error);

  g_assert_no_error (error);
  g_assert_cmpuint (s->n_tokens, ==, 7);
  g_assert_cmpuint (s->n_unknown, ==, 3);
  g_assert_cmpstr (g_ptr_array_index (s->unknown, 0), ==, "hello");
  g_assert_cmpstr (g_ptr_array_index (s->unknown, 1), ==, "NEWENG");
  g_assert_cmpstr (g_ptr_array_index (s->unknown, 2), ==, "??");
}

/* Damaged lines: one line of error naming the problem. */
static void
test_bad_lines (void)
{
  const struct
  {
    const gchar *line;
    const gchar *want;
  } bad[] = {
    {"", "empty line"},
    {"hello world", "no RAM field"},
    {"garbage\x01\xff", "no RAM field"},
    {"RAM 1923/39", "RAM is not"},
    {"RAM", "RAM has no value"},
    {"RAM 1/2MB (lfb 2x", "lfb is not"},
    {"RAM 1/2MB CPU [5%@1224,4%", "no closing ']'"},
    {"RAM 1/2MB CPU [5%@1224,x]", "CPU entry 1"},
    {"RAM 1/2MB CPU [5%]@", "CPU list ends in"},
    {"RAM 1/2MB EMC_FREQ", "EMC_FREQ has no value"},
    {"RAM 1/2MB GR3D_FREQ 0%@[1,", "GR3D_FREQ is not"},
    {"RAM 1/2MB VDD_IN 1750/", "rail VDD_IN"},
    {"RAM 1/2MB SWAP 1/2MB (cached", "cached has no value"},
    {"RAM 1/2MB IRAM 0/252kB(lfb", "lfb has no value"},
    {"RAM 1/2MB MTS fg 0%", "MTS is not"},
    {"SWAP 1/2MB CPU [1%@2]", "no RAM field"},
  };

  for (guint k = 0; k < G_N_ELEMENTS (bad); k++) {
    GError *error = NULL;
    GpTegraSample *s = gp_tegrastats_parse_line (bad[k].line, &error);
    gchar *escaped;

    g_assert_null (s);
    g_assert_error (error, GP_TEGRASTATS_ERROR, GP_TEGRASTATS_ERROR_PARSE);
    /* escaped: GLib's TAP would mark raw bytes "[Invalid UTF-8]" before
     * the '#', which breaks the stream */
    escaped = g_strescape (bad[k].line, NULL);
    g_test_message ("'%s': %s", escaped, error->message);
    g_free (escaped);
    g_assert_nonnull (strstr (error->message, bad[k].want));
    g_assert_null (strchr (error->message, '\n'));
    g_assert_true (g_str_has_prefix (error->message, "tegrastats line"));
    g_clear_error (&error);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/telemetry/tegrastats/all-lines", test_all_lines);
  g_test_add_func ("/telemetry/tegrastats/tx1", test_tx1);
  g_test_add_func ("/telemetry/tegrastats/tx2", test_tx2);
  g_test_add_func ("/telemetry/tegrastats/nano", test_nano);
  g_test_add_func ("/telemetry/tegrastats/xavier", test_xavier);
  g_test_add_func ("/telemetry/tegrastats/xavier-nx", test_xavier_nx);
  g_test_add_func ("/telemetry/tegrastats/orin-nx", test_orin_nx);
  g_test_add_func ("/telemetry/tegrastats/agx-orin32", test_agx_orin32);
  g_test_add_func ("/telemetry/tegrastats/agx-orin64", test_agx_orin64);
  g_test_add_func ("/telemetry/tegrastats/thor", test_thor);
  g_test_add_func ("/telemetry/tegrastats/legacy", test_legacy_and_rail_forms);
  g_test_add_func ("/telemetry/tegrastats/unknown", test_unknown_counted);
  g_test_add_func ("/telemetry/tegrastats/bad-lines", test_bad_lines);
  return g_test_run ();
}
