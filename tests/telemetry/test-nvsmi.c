/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests of src/telemetry/gp-nvsmi: every real nvidia-smi capture in
 * GP_FIXTURES/telemetry (nvidia_smi_*.txt) read whole, with cells checked
 * against the values printed in the files (read by hand), the retry after
 * the driver refuses a field, and bad input refused in one line. */
#include <math.h>
#include <string.h>

#include "telemetry/gp-nvsmi.h"
#include "../common/gp-test-fixtures.h"

/* the fields each headerless capture asked for (the file's SOURCES.md
 * gives the command line) */
static const gchar *const t4_units_fields[] = {
  "name", "compute_cap", "memory.total", NULL
};
static const gchar *const t4_nounits_fields[] = {
  "name", "compute_cap", "memory.total", "driver_version", NULL
};
static const gchar *const gb10_fields[] = {
  "name", "utilization.gpu", "memory.used", "memory.total", NULL
};

static const gchar *const *
fields_for (const gchar * name)
{
  if (strstr (name, "t4_noheader_units"))
    return t4_units_fields;
  if (strstr (name, "t4_noheader_nounits"))
    return t4_nounits_fields;
  if (strstr (name, "gb10"))
    return gb10_fields;
  return NULL;
}

static GpNvsmiTable *
load (const gchar * name)
{
  gchar *path = gp_test_fixture_path ("telemetry", name), *data;
  GError *error = NULL;
  GpNvsmiTable *t;
  gsize len;

  if (path == NULL)
    return NULL;
  g_assert_true (g_file_get_contents (path, &data, &len, &error));
  g_assert_no_error (error);
  if (g_str_has_prefix (name, "nvidia_smi_dmon"))
    t = gp_nvsmi_parse_dmon (data, len, name, &error);
  else
    t = gp_nvsmi_parse_query (data, len, fields_for (name), name, &error);
  g_assert_no_error (error);
  g_assert_nonnull (t);
  g_free (data);
  g_free (path);
  return t;
}

/* load () failed the test already when the fixture is not there */
#define RETURN_WITHOUT_FIXTURE(t) \
  if ((t) == NULL) \
    return

static void
assert_value (GpNvsmiTable * t, guint row, const gchar * name,
    gdouble expected, const gchar * unit)
{
  gdouble v = NAN;
  gint c = gp_nvsmi_table_column (t, name);

  g_assert_cmpint (c, >=, 0);
  g_assert_true (gp_nvsmi_table_value (t, row, name, &v));
  g_assert_cmpfloat_with_epsilon (v, expected, 1e-9);
  g_assert_cmpstr (t->columns[c].unit, ==, unit);
}

static void
assert_missing (GpNvsmiTable * t, guint row, const gchar * name)
{
  gdouble v = 0;

  g_assert_cmpint (gp_nvsmi_table_column (t, name), >=, 0);
  g_assert_false (gp_nvsmi_table_value (t, row, name, &v));
  g_assert_null (gp_nvsmi_table_text (t, row, name));
}

/* every file: as many rows as it has value lines, every cell a number, a
 * text or missing, every GPU index as printed */
static void
test_all_fixtures (void)
{
  gchar *dir = gp_test_fixture_path ("telemetry", NULL);
  GDir *d;
  const gchar *name;
  guint files = 0;

  RETURN_WITHOUT_FIXTURE (dir);
  d = g_dir_open (dir, 0, NULL);
  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d))) {
    GpNvsmiTable *t;
    gchar *path, *data, **lines;
    guint i, value_lines = 0;

    if (!g_str_has_prefix (name, "nvidia_smi_"))
      continue;
    path = g_build_filename (dir, name, NULL);
    g_assert_true (g_file_get_contents (path, &data, NULL, NULL));
    lines = g_strsplit (data, "\n", -1);
    for (i = 0; lines[i]; i++)
      if (*g_strstrip (lines[i]) && lines[i][0] != '#')
        value_lines++;
    if (!g_str_has_prefix (name, "nvidia_smi_dmon") && !fields_for (name))
      value_lines--;            /* the CSV header */
    t = load (name);
    g_test_message ("%s: %u columns, %u rows", name, t->n_columns,
        t->rows->len);
    g_assert_cmpuint (t->rows->len, ==, value_lines);
    for (i = 0; i < t->rows->len; i++) {
      GpNvsmiRow *r = g_ptr_array_index (t->rows, i);
      guint c;

      g_assert_cmpint (r->gpu, >=, 0);
      for (c = 0; c < t->n_columns; c++)
        if (r->text[c] == NULL)
          g_assert_true (isnan (r->value[c]));
    }
    gp_nvsmi_table_free (t);
    g_strfreev (lines);
    g_free (data);
    g_free (path);
    files++;
  }
  g_dir_close (d);
  g_assert_cmpuint (files, ==, 16);
  g_free (dir);
}

static void
test_query_h100 (void)
{
  GpNvsmiTable *t =
      load ("nvidia_smi_query_h100sxm_" "8gpu_csv_with_header_units.txt");

  RETURN_WITHOUT_FIXTURE (t);
  g_assert_cmpuint (t->rows->len, ==, 2);
  g_assert_cmpuint (t->n_columns, ==, 12);
  assert_value (t, 0, "clocks.max.sm", 1980, "MHz");
  assert_value (t, 0, "clocks.max.memory", 2619, "MHz");
  assert_value (t, 0, "memory.total", 81559, "MiB");
  assert_value (t, 1, "power.limit", 700, "W");
  g_assert_cmpstr (gp_nvsmi_table_text (t, 0, "memory.total"), ==, "81559");
  g_assert_cmpstr (gp_nvsmi_table_text (t, 1, "pci.bus_id"), ==,
      "00000000:18:00.0");
  g_assert_cmpstr (gp_nvsmi_table_text (t, 1, "uuid"), ==,
      "GPU-8a39f0ec-5884-45d9-f056-53ace5e57df8");
  g_assert_cmpstr (gp_nvsmi_table_text (t, 0, "ecc.mode.current"), ==,
      "Enabled");
  g_assert_cmpint (((GpNvsmiRow *) t->rows->pdata[1])->gpu, ==, 1);
  gp_nvsmi_table_free (t);
}

static void
test_query_l40s_4090_pro6000 (void)
{
  GpNvsmiTable *t =
      load ("nvidia_smi_query_l40s_" "2gpu_csv_with_header_units.txt");

  RETURN_WITHOUT_FIXTURE (t);
  assert_value (t, 1, "clocks.max.sm", 2520, "MHz");
  assert_value (t, 1, "clocks.max.memory", 9001, "MHz");
  assert_value (t, 0, "memory.total", 46068, "MiB");
  g_assert_cmpstr (gp_nvsmi_table_text (t, 1, "name"), ==, "NVIDIA L40S");
  g_assert_cmpstr (gp_nvsmi_table_text (t, 0, "driver_version"), ==,
      "575.51.03");
  gp_nvsmi_table_free (t);

  t = load ("nvidia_smi_query_rtx4090_compute_cap_csv_header.txt");
  assert_value (t, 0, "compute_cap", 8.9, "");
  assert_value (t, 0, "clocks.max.sm", 3165, "MHz");
  assert_value (t, 0, "clocks.max.memory", 10501, "MHz");
  assert_value (t, 0, "memory.total", 24564, "MiB");
  g_assert_cmpstr (gp_nvsmi_table_text (t, 0, "name"), ==,
      "NVIDIA GeForce RTX 4090");
  gp_nvsmi_table_free (t);

  t = load ("nvidia_smi_query_rtxpro6000_blackwell_csv_header.txt");
  assert_value (t, 0, "clocks.max.sm", 3090, "MHz");
  assert_value (t, 0, "clocks.max.memory", 14001, "MHz");
  assert_value (t, 0, "pcie.link.gen.current", 5, "");
  assert_value (t, 0, "pcie.link.width.current", 16, "");
  assert_value (t, 0, "temperature.gpu", 40, "C");
  assert_value (t, 0, "power.default_limit", 600, "W");
  assert_value (t, 0, "memory.total", 97887, "MiB");
  gp_nvsmi_table_free (t);
}

static void
test_query_3060ti_pcie (void)
{
  GpNvsmiTable *t =
      load ("nvidia_smi_query_rtx3060ti_" "3gpu_pcie_link_csv_header.txt");
  const gdouble gen_current[] = { 2, 1, 1 };
  guint i;

  RETURN_WITHOUT_FIXTURE (t);
  g_assert_cmpuint (t->rows->len, ==, 3);
  for (i = 0; i < 3; i++) {
    g_assert_cmpint (((GpNvsmiRow *) t->rows->pdata[i])->gpu, ==, i);
    assert_value (t, i, "pcie.link.gen.max", 3, "");
    assert_value (t, i, "pcie.link.gen.current", gen_current[i], "");
    assert_value (t, i, "pcie.link.width.current", 16, "");
    assert_value (t, i, "clocks.max.memory", 7001, "MHz");
    assert_value (t, i, "power.limit", 200, "W");
  }
  gp_nvsmi_table_free (t);
}

static void
test_query_noheader (void)
{
  GpNvsmiTable *t =
      load ("nvidia_smi_query_t4_" "noheader_units.txt");

  RETURN_WITHOUT_FIXTURE (t);
  assert_value (t, 0, "memory.total", 15360, "MiB");
  assert_value (t, 0, "compute_cap", 7.5, "");
  g_assert_cmpstr (gp_nvsmi_table_text (t, 0, "name"), ==, "Tesla T4");
  gp_nvsmi_table_free (t);

  t = load ("nvidia_smi_query_t4_noheader_nounits.txt");
  assert_value (t, 0, "memory.total", 15360, "MiB");
  g_assert_cmpstr (gp_nvsmi_table_text (t, 0, "driver_version"), ==,
      "615.71.09");
  {
    gdouble v;

    /* a version is text, not a number */
    g_assert_false (gp_nvsmi_table_value (t, 0, "driver_version", &v));
  }
  gp_nvsmi_table_free (t);

  t = load ("nvidia_smi_query_gb10_na_fields.txt");
  assert_value (t, 0, "utilization.gpu", 0, "%");
  assert_missing (t, 0, "memory.used");
  assert_missing (t, 0, "memory.total");
  g_assert_cmpstr (gp_nvsmi_table_text (t, 0, "name"), ==, "NVIDIA GB10");
  gp_nvsmi_table_free (t);
}

static void
test_query_legacy_throttle (void)
{
  GpNvsmiTable *t =
      load ("nvidia_smi_query_legacy_" "2017_throttle_reasons_timestamped.txt");

  RETURN_WITHOUT_FIXTURE (t);
  g_assert_cmpuint (t->rows->len, ==, 2);
  /* one name for both spellings */
  g_assert_cmpint (gp_nvsmi_table_column (t,
          "clocks_event_reasons.sw_power_cap"), ==, 6);
  g_assert_cmpint (gp_nvsmi_table_column (t,
          "clocks_throttle_reasons.sw_power_cap"), ==, 6);
  g_assert_cmpstr (t->columns[6].name, ==,
      "clocks_event_reasons.sw_power_cap");
  g_assert_cmpstr (gp_nvsmi_table_text (t, 0,
          "clocks_throttle_reasons.hw_slowdown"), ==, "Not Active");
  g_assert_cmpstr (gp_nvsmi_table_text (t, 1, "timestamp"), ==,
      "2017/03/20 19:58:44.615");
  assert_value (t, 0, "temperature.gpu", 67, "C");
  assert_value (t, 0, "utilization.gpu", 70, "%");
  assert_value (t, 1, "utilization.gpu", 68, "%");
  assert_value (t, 1, "clocks.current.memory", 4006, "MHz");
  assert_value (t, 1, "clocks.current.video", 122, "MHz");
  g_assert_cmpint (((GpNvsmiRow *) t->rows->pdata[1])->gpu, ==, 1);
  gp_nvsmi_table_free (t);
}

static void
test_dmon_default (void)
{
  GpNvsmiTable *t = load ("nvidia_smi_dmon_t4_default_drv535.txt");

  RETURN_WITHOUT_FIXTURE (t);
  g_assert_cmpuint (t->rows->len, ==, 3);
  g_assert_cmpuint (t->n_columns, ==, 12);
  assert_missing (t, 0, "mtemp");
  assert_value (t, 2, "gtemp", 40, "C");
  assert_value (t, 0, "pwr", 15, "W");
  assert_value (t, 1, "pclk", 300, "MHz");
  assert_value (t, 1, "sm", 0, "%");
  gp_nvsmi_table_free (t);

  /* two GPUs a sample, trailing spaces */
  t = load ("nvidia_smi_dmon_2gpu_geforce_default.txt");
  g_assert_cmpuint (t->rows->len, ==, 2);
  g_assert_cmpint (((GpNvsmiRow *) t->rows->pdata[1])->gpu, ==, 1);
  assert_value (t, 0, "pwr", 119, "W");
  assert_value (t, 1, "pwr", 159, "W");
  assert_value (t, 1, "mclk", 9251, "MHz");
  assert_value (t, 1, "pclk", 1695, "MHz");
  assert_value (t, 0, "sm", 100, "%");
  assert_missing (t, 1, "mtemp");
  gp_nvsmi_table_free (t);

  t = load ("nvidia_smi_dmon_rtx2080_default.txt");
  assert_value (t, 0, "sm", 12, "%");
  assert_value (t, 1, "sm", 25, "%");
  assert_value (t, 1, "mem", 17, "%");
  g_assert_cmpint (((GpNvsmiRow *) t->rows->pdata[1])->gpu, ==, 0);
  gp_nvsmi_table_free (t);
}

static void
test_dmon_groups (void)
{
  GpNvsmiTable *t = load ("nvidia_smi_dmon_all_groups_time_prefix.txt");

  RETURN_WITHOUT_FIXTURE (t);
  g_assert_cmpuint (t->n_columns, ==, 23);
  g_assert_cmpstr (t->columns[0].name, ==, "time");
  g_assert_cmpstr (gp_nvsmi_table_text (t, 1, "time"), ==, "04:12:45");
  assert_value (t, 0, "pwr", 130, "W");
  assert_value (t, 1, "pwr", 100, "W");
  assert_missing (t, 0, "jpg");
  assert_missing (t, 1, "ofa");
  assert_value (t, 1, "fb", 4201, "MiB");
  assert_value (t, 0, "rxpci", 248, "MiB/s");
  assert_value (t, 1, "txpci", 39, "MiB/s");
  assert_value (t, 0, "tviol", 0, "bool");
  assert_value (t, 0, "dbecc", 0, "count");
  assert_value (t, 0, "pclk", 1530, "MHz");
  gp_nvsmi_table_free (t);

  t = load ("nvidia_smi_dmon_s_pucm_fb_bar1_ccpm.txt");
  g_assert_cmpuint (t->rows->len, ==, 3);
  assert_value (t, 1, "pwr", 411, "W");
  assert_value (t, 2, "pclk", 2415, "MHz");
  assert_value (t, 0, "bar1", 725, "MiB");
  assert_value (t, 0, "ccpm", 0, "MiB");
  gp_nvsmi_table_free (t);

  t = load ("nvidia_smi_dmon_s_mu_FIXTURE_from_nvidia_skill_test.txt");
  g_assert_cmpint (gp_nvsmi_table_column (t, "pwr"), ==, -1);
  assert_value (t, 0, "fb", 100, "MiB");
  assert_value (t, 0, "dec", 20, "%");
  assert_value (t, 1, "dec", 100, "%");
  assert_value (t, 1, "sm", 82, "%");
  gp_nvsmi_table_free (t);

  t = load ("nvidia_smi_dmon_hopper_gpm_metrics_multigpu.txt");
  g_assert_cmpuint (t->n_columns, ==, 25);
  assert_missing (t, 0, "gract");
  assert_missing (t, 0, "nvltx");
  assert_value (t, 1, "gract", 0, "%");
  assert_value (t, 1, "pcitx", 0, "MiB/s");
  assert_value (t, 0, "mtemp", 28, "C");
  assert_value (t, 1, "mclk", 1593, "MHz");
  g_assert_cmpint (((GpNvsmiRow *) t->rows->pdata[1])->gpu, ==, 1);
  gp_nvsmi_table_free (t);
}

/* dmon's -o DT and a header block printed again */
static void
test_dmon_date_repeat (void)
{
  const gchar text[] =
      "#Date       Time        gpu    pwr     sm \n"
      "#YYYYMMDD   HH:MM:SS    Idx      W      % \n"
      " 20261201   18:00:01      0     70     12 \n"
      "#Date       Time        gpu    pwr     sm \n"
      "#YYYYMMDD   HH:MM:SS    Idx      W      % \n"
      " 20261201   18:00:02      0      -     13 \n";
  GError *error = NULL;
  GpNvsmiTable *t = gp_nvsmi_parse_dmon (text, strlen (text), "dt", &error);

  g_assert_no_error (error);
  g_assert_cmpuint (t->rows->len, ==, 2);
  g_assert_cmpstr (gp_nvsmi_table_text (t, 1, "date"), ==, "20261201");
  g_assert_cmpstr (gp_nvsmi_table_text (t, 1, "time"), ==, "18:00:02");
  assert_value (t, 0, "pwr", 70, "W");
  assert_missing (t, 1, "pwr");
  assert_value (t, 1, "sm", 13, "%");
  gp_nvsmi_table_free (t);
}

static void
test_unknown_field (void)
{
  GPtrArray *fields = g_ptr_array_new ();
  GError *error = NULL;
  gchar *dropped = NULL;

  g_ptr_array_add (fields, (gpointer) "name");
  g_ptr_array_add (fields, (gpointer) "clocks.applications.sm");
  g_ptr_array_add (fields, (gpointer) "clocks_throttle_reasons.hw_slowdown");
  g_ptr_array_add (fields, (gpointer) "memory.total");

  g_assert_true (gp_nvsmi_drop_unknown_field (fields,
          "Field \"clocks.applications.sm\" is not a valid field to query.\n"
          "\n", &dropped, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (dropped, ==, "clocks.applications.sm");
  g_free (dropped);
  g_assert_cmpuint (fields->len, ==, 3);
  g_assert_cmpstr (g_ptr_array_index (fields, 1), ==,
      "clocks_throttle_reasons.hw_slowdown");

  /* the driver names the new spelling of a field asked for by the old */
  g_assert_true (gp_nvsmi_drop_unknown_field (fields,
          "Field \"clocks_event_reasons.hw_slowdown\" is not a valid field"
          " to query.", NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (fields->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (fields, 1), ==, "memory.total");

  /* a field not asked for: no retry loop */
  g_assert_false (gp_nvsmi_drop_unknown_field (fields,
          "Field \"cuda_version\" is not a valid field to query.", NULL,
          &error));
  g_assert_error (error, GP_NVSMI_ERROR, 0);
  g_assert_null (strchr (error->message, '\n'));
  g_clear_error (&error);
  /* quotes that span lines are not the driver's one-field line */
  g_assert_false (gp_nvsmi_drop_unknown_field (fields,
          "Field \"memory\n.total\" is not a valid field to query.", NULL,
          &error));
  g_assert_error (error, GP_NVSMI_ERROR, 0);
  g_assert_null (strchr (error->message, '\n'));
  g_clear_error (&error);
  /* another failure */
  g_assert_false (gp_nvsmi_drop_unknown_field (fields,
          "NVIDIA-SMI has failed because it couldn't communicate with the"
          " NVIDIA driver.\nMake sure ...\n", NULL, &error));
  g_assert_error (error, GP_NVSMI_ERROR, 0);
  g_assert_null (strchr (error->message, '\n'));
  g_test_message ("%s", error->message);
  g_clear_error (&error);
  g_assert_cmpuint (fields->len, ==, 2);
  g_ptr_array_unref (fields);
}

static void
test_bad_input (void)
{
  static const struct
  {
    gboolean dmon;
    const gchar *text;
    const gchar *needle;
  } cases[] = {
    {FALSE, "", "no GPU rows"},
    {FALSE, "index, name\n", "no GPU rows"},
    {FALSE, "index, name\n0, a, b\n", ":2: 3 values for 2 columns"},
    {FALSE, "index, power.draw [W]\n0, 10 MHz\n", "power.draw is in W"},
    {FALSE, "index, index\n0, 0\n", "column index twice"},
    {FALSE, "index, name\nzero, a\n", "not a GPU index"},
    {FALSE, "a,,b\n", "column 2 has no name"},
    {TRUE, "", "no dmon header"},
    {TRUE, "    0    15\n", ":1: a value row before"},
    {TRUE, "# gpu pwr\n# Idx W C\n", ":2: 3 units for 2 columns"},
    {TRUE, "# gpu pwr\n# Idx W\n 0 1 2\n", ":3: 3 values"},
    {TRUE, "# pwr sm\n# W %\n 1 2\n", "without its gpu column"},
    {TRUE, "# gpu pwr\n# Idx W\n -1 2\n", "not a GPU index"},
    {TRUE, "# gpu\0pwr\n", "binary data"},
    /* the session reader's rule: finite, within 1e15 */
    {FALSE, "index, clocks.sm [MHz]\n0, 1e308 MHz\n",
        ":2: clocks.sm is '1e308', not a measurement"},
    {FALSE, "index, clocks.sm [MHz]\n0, 1e400 MHz\n",
        ":2: clocks.sm is '1e400', not a measurement"},
    {FALSE, "index, clocks.sm [MHz]\n0, nan MHz\n",
        ":2: clocks.sm is 'nan', not a measurement"},
    {FALSE, "index, clocks.sm\n0, 1500\n1, -inf\n",
        ":3: clocks.sm is '-inf', not a measurement"},
    {FALSE, "index, power.draw [W]\n0, Infinity W\n",
        ":2: power.draw is 'Infinity', not a measurement"},
    {TRUE, "# gpu pwr\n# Idx W\n 0 NaN\n", ":3: pwr is 'NaN'"},
    {TRUE, "# gpu pclk\n# Idx MHz\n 0 1e308\n", ":3: pclk is '1e308'"},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    GError *error = NULL;
    gsize len = strlen (cases[i].text);
    GpNvsmiTable *t;

    if (strstr (cases[i].needle, "binary"))
      len = 12;
    t = cases[i].dmon ?
        gp_nvsmi_parse_dmon (cases[i].text, len, "in.txt", &error) :
        gp_nvsmi_parse_query (cases[i].text, len, NULL, "in.txt", &error);
    g_assert_null (t);
    g_assert_error (error, GP_NVSMI_ERROR, 0);
    g_test_message ("%s", error->message);
    g_assert_true (g_str_has_prefix (error->message, "in.txt"));
    g_assert_nonnull (strstr (error->message, cases[i].needle));
    g_assert_null (strchr (error->message, '\n'));
    g_error_free (error);
  }
  {
    /* a line past the bound */
    gchar *big = g_strnfill (70000, 'x');
    GError *error = NULL;

    g_assert_null (gp_nvsmi_parse_query (big, strlen (big), NULL, "big",
            &error));
    g_assert_error (error, GP_NVSMI_ERROR, 0);
    g_assert_nonnull (strstr (error->message, "big:1: line longer"));
    g_error_free (error);
    g_free (big);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/telemetry/nvsmi/all-fixtures", test_all_fixtures);
  g_test_add_func ("/telemetry/nvsmi/query-h100", test_query_h100);
  g_test_add_func ("/telemetry/nvsmi/query-l40s-4090-pro6000",
      test_query_l40s_4090_pro6000);
  g_test_add_func ("/telemetry/nvsmi/query-3060ti-pcie",
      test_query_3060ti_pcie);
  g_test_add_func ("/telemetry/nvsmi/query-noheader", test_query_noheader);
  g_test_add_func ("/telemetry/nvsmi/query-legacy-throttle",
      test_query_legacy_throttle);
  g_test_add_func ("/telemetry/nvsmi/dmon-default", test_dmon_default);
  g_test_add_func ("/telemetry/nvsmi/dmon-groups", test_dmon_groups);
  g_test_add_func ("/telemetry/nvsmi/dmon-date-repeat",
      test_dmon_date_repeat);
  g_test_add_func ("/telemetry/nvsmi/unknown-field", test_unknown_field);
  g_test_add_func ("/telemetry/nvsmi/bad-input", test_bad_input);
  return g_test_run ();
}
