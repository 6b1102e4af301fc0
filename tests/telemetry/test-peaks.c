/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* tests of gp-peaks, gp-models and the roofline's classification: every
 * row's derived peaks against its datasheet figures, lookups by the real
 * names of tests/fixtures/telemetry and of Jetson device trees, the
 * known models against their published figures, and constructed points
 * on both sides of the ridge */
#include <math.h>
#include <string.h>

#include "telemetry/gp-models.h"
#include "telemetry/gp-peaks.h"
#include "telemetry/gp-roofline.h"
#include "telemetry/gp-roofline-build.h"
#include "telemetry/gp-telemetry.h"
#include "../common/gp-test-fixtures.h"

/* One derived figure against its datasheet one; a circular pair is
 * logged as such, not counted as a check. Returns whether it was held. */
static gboolean
check_figure (const GpPeaksRow * row, const gchar * what, gdouble derived,
    const gchar * figure, gboolean circular)
{
  gdouble ds = gp_peaks_datasheet (figure, NULL);

  if (figure == NULL)
    return FALSE;
  g_test_message ("%-28s %-5s derived %8.4g datasheet %8.4g (%s)%s",
      row->name, what, derived, ds, figure, circular ?
      " circular: the clock was worked back from it" : "");
  if (!gp_peaks_check (derived, figure))
    g_error ("%s %s: derived %.4g is not the datasheet's %s", row->name,
        what, derived, figure);
  return !circular;
}

static void
test_rows_against_datasheets (void)
{
  const GpPeaksRow *rows;
  guint n, i, checked = 0;

  rows = gp_peaks_rows (&n);
  g_assert_cmpuint (n, >=, 26);
  for (i = 0; i < n; i++) {
    const GpPeaksRow *r = &rows[i];
    g_autoptr (GpPeaks) p = gp_peaks_for_row (r, NAN, NAN);
    GpPeaksOps ops;
    guint here = 0;

    g_assert_true (gp_peaks_ops_per_clock (r->cc_major, r->cc_minor,
            r->geforce, &ops));
    g_assert_true (p->fp32 > 0);
    g_assert_true (p->bw > 0);
    here += check_figure (r, "FP32", p->fp32 / 1e12, r->ds_fp32, FALSE);
    here += check_figure (r, "FP16", p->fp16 / 1e12, r->ds_fp16,
        r->circular & GP_PEAKS_CIRCULAR_TENSOR);
    here += check_figure (r, "INT8", p->int8 / 1e12, r->ds_int8, FALSE);
    here += check_figure (r, "BW", p->bw / 1e9, r->ds_bw,
        r->circular & GP_PEAKS_CIRCULAR_BW);
    /* every row is held to at least one independent figure */
    g_assert_cmpuint (here, >=, 1);
    checked += here;
  }
  g_test_message ("%u independent datasheet figures held", checked);
  g_assert_cmpuint (checked, >=, 70);
}

/* The DeepStream guide's per-SM table (half-rate on Turing, A100, GA10x
 * and Orin) is what the check must catch. */
static void
test_wrong_table_caught (void)
{
  /* T4 at 512 FP16 per SM per clock: 32.6 TFLOPS against 65 */
  g_assert_false (gp_peaks_check (40 * 1590e6 * 512 / 1e12, "65"));
  /* A100 at 1024: 156 against 312 */
  g_assert_false (gp_peaks_check (108 * 1410e6 * 1024 / 1e12, "312"));
  /* AGX Orin INT8 at 1024: 21 against 85 dense (170 sparse) */
  g_assert_false (gp_peaks_check (16 * 1300e6 * 1024 / 1e12, "170 sparse"));
  /* and the figures as printed */
  g_assert_cmpfloat_with_epsilon (gp_peaks_datasheet ("170 sparse", NULL),
      85, 1e-9);
  g_assert_cmpfloat_with_epsilon (gp_peaks_datasheet ("2070 fp4 sparse",
          NULL), 517.5, 1e-9);
  g_assert_true (isnan (gp_peaks_datasheet (NULL, NULL)));
}

static const GpPeaksRow *
find (const gchar * name, gdouble mem)
{
  GError *err = NULL;
  const GpPeaksRow *r = gp_peaks_find (name, mem, &err);

  if (r == NULL)
    g_error ("'%s' (%.0f MiB): %s", name, mem, err->message);
  return r;
}

static void
assert_unknown (const gchar * name, gdouble mem, gint code)
{
  GError *err = NULL;

  g_assert_null (gp_peaks_find (name, mem, &err));
  g_assert_error (err, GP_PEAKS_ERROR, code);
  g_assert_null (strchr (err->message, '\n'));
  g_test_message ("%s: %s", name, err->message);
  g_error_free (err);
}

static void
test_find_names (void)
{
  /* nvidia-smi's names (the fixtures' and the reference's) */
  g_assert_cmpstr (find ("NVIDIA H100 80GB HBM3", -1)->name, ==, "H100 SXM");
  g_assert_cmpstr (find ("NVIDIA H100 PCIe", -1)->name, ==, "H100 PCIe");
  g_assert_cmpstr (find ("Tesla T4", -1)->name, ==, "T4");
  g_assert_cmpstr (find ("NVIDIA GeForce RTX 4090", -1)->name, ==,
      "RTX 4090");
  g_assert_cmpstr (find ("NVIDIA L40S", -1)->name, ==, "L40S");
  g_assert_cmpstr (find ("NVIDIA L4", -1)->name, ==, "L4");
  g_assert_cmpstr (find ("NVIDIA A10", -1)->name, ==, "A10");
  g_assert_cmpstr (find ("NVIDIA RTX PRO 6000 Blackwell Workstation Edition",
          -1)->name, ==, "RTX PRO 6000 Blackwell");
  g_assert_cmpstr (find ("NVIDIA A100-SXM4-80GB", -1)->name, ==, "A100 80GB");
  g_assert_cmpstr (find ("NVIDIA A100-PCIE-40GB", -1)->name, ==, "A100 40GB");
  g_assert_cmpstr (find ("NVIDIA A100 80GB PCIe", -1)->name, ==, "A100 80GB");
  g_assert_cmpstr (find ("NVIDIA A100", 40960)->name, ==, "A100 40GB");
  g_assert_cmpstr (find ("NVIDIA GeForce RTX 3060 Ti", -1)->name, ==,
      "RTX 3060 Ti");
  /* Jetson device trees, memory from the fixtures' RAM totals */
  g_assert_cmpstr (find ("NVIDIA Jetson AGX Orin Developer Kit", 62801)->name,
      ==, "Jetson AGX Orin 64GB");
  g_assert_cmpstr (find ("NVIDIA Jetson AGX Orin Developer Kit", 30697)->name,
      ==, "Jetson AGX Orin 32GB");
  g_assert_cmpstr (find ("NVIDIA Jetson Orin NX Engineering Reference "
          "Developer Kit", 15388)->name, ==, "Jetson Orin NX 16GB");
  g_assert_cmpstr (find ("NVIDIA Jetson Orin Nano Developer Kit", 7620)->name,
      ==, "Jetson Orin Nano 8GB");
  g_assert_cmpstr (find ("NVIDIA Jetson Orin Nano Engineering Reference "
          "Developer Kit Super", 7620)->name, ==, "Jetson Orin Nano 8GB Super");
  g_assert_cmpstr (find ("NVIDIA Jetson Nano Developer Kit", 3964)->name, ==,
      "Jetson Nano");
  g_assert_cmpstr (find ("Jetson-AGX", -1)->name, ==, "Jetson AGX Xavier");
  g_assert_cmpstr (find ("NVIDIA Jetson Xavier NX Developer Kit", -1)->name,
      ==, "Jetson Xavier NX");
  g_assert_cmpstr (find ("NVIDIA Jetson AGX Thor Developer Kit", -1)->name,
      ==, "Jetson AGX Thor");
  /* the table's own names, as --target takes them */
  g_assert_cmpstr (find ("AGX Orin 64GB", -1)->name, ==,
      "Jetson AGX Orin 64GB");
  g_assert_cmpstr (find ("jetson orin nano 4gb", -1)->name, ==,
      "Jetson Orin Nano 4GB");
  /* other parts than their prefix, and families without a size */
  assert_unknown ("NVIDIA GeForce RTX 3090 Ti", -1, GP_PEAKS_ERROR_UNKNOWN);
  assert_unknown ("NVIDIA GeForce RTX 4090 D", -1, GP_PEAKS_ERROR_UNKNOWN);
  assert_unknown ("NVIDIA H200 NVL", -1, GP_PEAKS_ERROR_UNKNOWN);
  assert_unknown ("NVIDIA GB10", -1, GP_PEAKS_ERROR_UNKNOWN);
  assert_unknown ("", -1, GP_PEAKS_ERROR_UNKNOWN);
  assert_unknown ("NVIDIA Jetson AGX Orin Developer Kit", -1,
      GP_PEAKS_ERROR_AMBIGUOUS);
  assert_unknown ("H100", 81559, GP_PEAKS_ERROR_AMBIGUOUS);
}

/* The peaks a real nvidia-smi capture leads to, through its facts. */
static void
test_from_nvsmi_fixtures (void)
{
  static const struct
  {
    const gchar *file, *row;
    gdouble sm_mhz, bw_gbs;     /* read by hand from the file, the
                                 * bandwidth by 2 x clocks.max.memory x bus */
  } cases[] = {
    /* clocks.max.sm 2520 MHz = the boost; 2 x 9001 x 48 B */
    {"nvidia_smi_query_l40s_2gpu_csv_with_header_units.txt", "L40S", 2520,
        864.1},
    /* clocks.max.sm 3165 above the 2520 boost: the boost is used */
    {"nvidia_smi_query_rtx4090_compute_cap_csv_header.txt", "RTX 4090", 2520,
        1008.1},
    /* 3090 above 2617 */
    {"nvidia_smi_query_rtxpro6000_blackwell_csv_header.txt",
        "RTX PRO 6000 Blackwell", 2617, 1792.1},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    g_autoptr (GpMachine) m = gp_test_fixture_machine (cases[i].file);
    g_autoptr (GpPeaks) p = NULL;
    GError *err = NULL;

    if (m == NULL)
      return;
    p = gp_roofline_machine_peaks (m, 0, 0, &err);
    g_assert_no_error (err);
    g_assert_nonnull (p->row);
    g_assert_cmpstr (p->row->name, ==, cases[i].row);
    g_assert_cmpfloat (p->sm_mhz, ==, cases[i].sm_mhz);
    g_assert_cmpfloat_with_epsilon (p->bw / 1e9, cases[i].bw_gbs, 0.1);
    g_test_message ("%s: %s", cases[i].file, p->how);
  }
}

static void
test_from_nvsmi_identity (void)
{
  g_autoptr (GpPeaks) h100 = NULL;
  g_autoptr (GpPeaks) t4 = NULL;
  g_autoptr (GpPeaks) rtx4080 = NULL;
  GpNvsmiTable *table;
  const gchar *fields[] = { "name", "compute_cap", "memory.total",
    "driver_version", NULL
  };
  gchar *path, *data;
  gsize len;
  GError *err = NULL;

  /* the H100 capture has no name column: the name nvidia-smi prints for
   * that part with the capture's clocks (1980 / 2619 MHz); the tensor
   * figures stay at the datasheet's 1830 MHz */
  h100 = gp_peaks_from_nvsmi ("NVIDIA H100 80GB HBM3", "9.0", 1980, 2619,
      81559, 0, 0, &err);
  g_assert_no_error (err);
  g_assert_true (gp_peaks_check (h100->fp16 / 1e12, "989"));
  g_assert_true (gp_peaks_check (h100->fp32 / 1e12, "67"));
  g_assert_cmpfloat_with_epsilon (h100->bw / 1e9, 3352.3, 0.1);

  /* the T4 capture without a header, by the caller's fields */
  path = gp_test_fixture_path ("telemetry",
      "nvidia_smi_query_t4_noheader_nounits.txt");
  if (path == NULL)
    return;
  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  table = gp_nvsmi_parse_query (data, len, fields, path, &err);
  g_assert_no_error (err);
  t4 = gp_peaks_from_nvsmi (gp_nvsmi_table_text (table, 0, "name"),
      gp_nvsmi_table_text (table, 0, "compute_cap"), NAN, NAN, 15360, 0, 0,
      &err);
  g_assert_no_error (err);
  g_assert_cmpstr (t4->row->name, ==, "T4");
  g_assert_true (gp_peaks_check (t4->fp16 / 1e12, "65"));
  gp_nvsmi_table_free (table);
  g_free (data);
  g_free (path);

  /* a part the table does not know: compute_cap, clocks, and the SM count
   * and bus width nvidia-smi does not print (RTX 4080: 76 SMs, 256 bit;
   * NVIDIA prints 48.7 TFLOPS FP32 and 716.8 GB/s) */
  rtx4080 = gp_peaks_from_nvsmi ("NVIDIA GeForce RTX 4080", "8.9", 2505,
      11201, 16376, 76, 256, &err);
  g_assert_no_error (err);
  g_assert_null (rtx4080->row);
  g_assert_true (gp_peaks_check (rtx4080->fp32 / 1e12, "48.7"));
  g_assert_true (gp_peaks_check (rtx4080->bw / 1e9, "716.8"));
  /* without them: which is missing, one line */
  g_assert_null (gp_peaks_from_nvsmi ("NVIDIA GB10", NULL, NAN, NAN, NAN, 0,
          0, &err));
  g_assert_error (err, GP_PEAKS_ERROR, GP_PEAKS_ERROR_MISSING);
  g_assert_nonnull (strstr (err->message, "SM count"));
  g_clear_error (&err);
}

/* Jetsons told from their tegrastats logs: only where one board has the
 * CPU count. */
static void
test_guess_jetson (void)
{
  static const struct
  {
    const gchar *file, *row;
  } cases[] = {
    {"tegrastats_agx_orin64_r36.4.4_nvenc_active.txt", "Jetson AGX Orin 64GB"},
    /* the first developer kit: 32 GB, 12 CPUs, the 64GB module's GPU */
    {"tegrastats_agx_orin32_r36_multispace_engines_off.txt",
        "Jetson AGX Orin 64GB"},
    {"tegrastats_nano_jp4.txt", "Jetson Nano"},
    {"tegrastats_agx_thor_r38.4.0.txt", "Jetson AGX Thor"},
    {"tegrastats_orin_nx16_jp5.txt", NULL},
    {"tegrastats_xavier_nx_jp4.txt", NULL},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    g_autoptr (GpMachine) m = gp_test_fixture_machine (cases[i].file);
    g_autoptr (GpPeaks) p = NULL;
    GError *err = NULL;

    if (m == NULL)
      return;
    p = gp_roofline_machine_peaks (m, 0, 0, &err);
    if (cases[i].row == NULL) {
      g_assert_null (p);
      g_assert_error (err, GP_PEAKS_ERROR, GP_PEAKS_ERROR_AMBIGUOUS);
      g_assert_nonnull (strstr (err->message, "--target"));
      g_clear_error (&err);
      continue;
    }
    g_assert_no_error (err);
    g_assert_cmpstr (p->row->name, ==, cases[i].row);
  }
}

static void
test_override (void)
{
  g_autoptr (GpPeaks) p = gp_peaks_for_row (find ("T4", -1), NAN, NAN);

  gp_peaks_override (p, 50e12, 0);
  g_assert_cmpfloat (p->int8, ==, 50e12);
  g_assert_cmpfloat (p->fp32, ==, 50e12);
  g_assert_cmpfloat_with_epsilon (p->bw, 2 * 5001e6 * 32, 1);
  gp_peaks_override (p, 0, 100e9);
  g_assert_cmpfloat (p->bw, ==, 100e9);
  g_assert_nonnull (strstr (p->how, "bandwidth given"));
  g_assert_cmpfloat (gp_peaks_ops (p, "INT8"), ==, 50e12);
  g_assert_true (isnan (gp_peaks_ops (p, "fp64")));
}

/* ../shared/reference/deepstream-roofline.md §5.4 */
static void
test_models (void)
{
  const GpModel *m;
  guint n;

  gp_models (&n);
  g_assert_cmpuint (n, ==, 8);
  m = gp_model_find ("ResNet-50");
  g_assert_nonnull (m);
  /* torchvision's 4.09 "GFLOPS" are GMACs: 8.18 GFLOPs */
  g_assert_cmpfloat_with_epsilon (gp_model_ops (m), 8.18e9, 1e6);
  g_assert_cmpuint (m->width, ==, 224);
  /* input 3 x 224 x 224 + 25.6 M weights, one byte each at INT8 */
  g_assert_cmpfloat_with_epsilon (gp_model_bytes_estimate (m, "int8"),
      150528 + 25.6e6, 1);
  g_assert_cmpfloat_with_epsilon (gp_model_bytes_estimate (m, "fp16"),
      2 * (150528 + 25.6e6), 1);
  g_assert_cmpfloat_with_epsilon (gp_model_ops (gp_model_find ("resnet18")),
      3.64e9, 1e6);
  g_assert_cmpfloat_with_epsilon (gp_model_ops (gp_model_find ("resnet34")),
      7.34e9, 1e6);
  g_assert_cmpfloat_with_epsilon (gp_model_ops (gp_model_find
          ("mobilenet_v2")), 0.6e9, 1e6);
  g_assert_cmpfloat_with_epsilon (gp_model_ops (gp_model_find
          ("MobileNet-v3-Large")), 0.44e9, 1e6);
  /* Ultralytics' FLOPs are FLOPs already */
  m = gp_model_find ("yolov8n");
  g_assert_cmpfloat_with_epsilon (gp_model_ops (m), 8.7e9, 1e6);
  g_assert_cmpuint (m->height, ==, 640);
  g_assert_cmpfloat_with_epsilon (gp_model_ops (gp_model_find ("YOLOv8s")),
      28.6e9, 1e6);
  g_assert_cmpfloat_with_epsilon (gp_model_ops (gp_model_find ("yolov8m")),
      78.9e9, 1e6);
  g_assert_null (gp_model_find ("yolov9"));
  g_assert_cmpuint (gp_precision_bytes ("fp32"), ==, 4);
  g_assert_cmpuint (gp_precision_bytes ("bf16"), ==, 0);
}

/* A roofline of 100 Top/s and 100 GB/s: the ridge at 1000 op/B. */
static void
test_classify (void)
{
  g_autoptr (GpRoofline) r = gp_roofline_new ("test", 100e9, "test bw");
  struct
  {
    gdouble ai, ops, bytes;
    const gchar *bound, *quote;
  } cases[] = {
    /* past the ridge, 80 % of the flat roof */
    {2000, 80e12, 40e9, "compute", "80 %"},
    /* before it, 80 GB/s: 80 % of the slanted roof */
    {100, 8e12, 80e9, "memory", "80 %"},
    /* exactly at the line */
    {100, 7e12, 70e9, "memory", "70 %"},
    /* just under it */
    {100, 6.9e12, 69e9, "neither", "69 %"},
    /* past the ridge but far below the flat roof */
    {2000, 30e12, 15e9, "neither", "30 %"},
    /* at the ridge and at the roof */
    {1000, 90e12, 90e9, "compute", "90 %"},
    /* above the roof: inputs wrong, said so */
    {2000, 150e12, 75e9, "compute", "above the roof"},
  };
  guint i;

  gp_roofline_add_roof (r, "FP16", 50e12);
  gp_roofline_add_roof (r, "INT8", 100e12);
  g_assert_cmpstr (g_array_index (r->roofs, GpRoof, 0).name, ==, "INT8");
  g_assert_cmpint (gp_roofline_find_roof (r, "int8"), ==, 0);
  g_assert_cmpint (gp_roofline_find_roof (r, "FP8"), ==, -1);
  g_assert_cmpfloat (gp_roofline_ridge (r, 0), ==, 1000);
  g_assert_cmpfloat (gp_roofline_ridge (r, 1), ==, 500);
  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    GpRooflinePoint *pt = gp_roofline_add_point (r, "p", cases[i].ai,
        cases[i].ops, cases[i].bytes);

    gp_roofline_classify (r, 0, pt);
    g_test_message ("%s: %s", pt->bound, pt->reason);
    g_assert_cmpstr (pt->bound, ==, cases[i].bound);
    g_assert_nonnull (strstr (pt->reason, cases[i].quote));
    g_assert_null (strchr (pt->reason, '\n'));
  }
  /* the same point against FP16 (ridge 500): AI 600 is past it */
  {
    GpRooflinePoint *pt = gp_roofline_add_point (r, "q", 600, 45e12, 75e9);

    g_assert_cmpstr (gp_roofline_classify (r, 1, pt), ==, "compute");
    /* below the INT8 ridge at 75 GB/s: 75 % of the bandwidth */
    g_assert_cmpstr (gp_roofline_classify (r, 0, pt), ==, "memory");
    g_assert_nonnull (strstr (pt->reason, "INT8 ridge 1000"));
  }
  /* bytes only: the memory roof alone */
  {
    GpRooflinePoint *pt = gp_roofline_add_point (r, "b", NAN, NAN, 90e9);

    g_assert_cmpstr (gp_roofline_classify (r, 0, pt), ==, "memory");
    g_assert_nonnull (strstr (pt->reason, "90 %"));
    pt->bytes_per_s = 10e9;
    g_assert_cmpstr (gp_roofline_classify (r, 0, pt), ==, "neither");
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/peaks/rows-against-datasheets",
      test_rows_against_datasheets);
  g_test_add_func ("/peaks/wrong-table-caught", test_wrong_table_caught);
  g_test_add_func ("/peaks/find-names", test_find_names);
  g_test_add_func ("/peaks/from-nvsmi-fixtures", test_from_nvsmi_fixtures);
  g_test_add_func ("/peaks/from-nvsmi-identity", test_from_nvsmi_identity);
  g_test_add_func ("/peaks/guess-jetson", test_guess_jetson);
  g_test_add_func ("/peaks/override", test_override);
  g_test_add_func ("/models/table", test_models);
  g_test_add_func ("/roofline/classify", test_classify);
  return g_test_run ();
}
