/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* tests of gp-ds-hw and `gstprof ds hw`: the GPUs of the real nvidia-smi
 * queries and a Jetson's tegrastats log, their ceilings worked out by
 * hand; the live path with the nvidia-smi stand-in first in PATH (a field
 * refused and asked again), a Jetson named by its device-tree model, and
 * a machine with neither */
#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "deepstream/gp-ds-hw.h"
#include "../common/gp-test-util.h"
#include "../common/gp-test-fixtures.h"

static GPtrArray *
load (const gchar * name)
{
  gchar *path = gp_test_fixture_path ("telemetry", name);
  GError *error = NULL;
  GPtrArray *gpus;

  if (path == NULL)
    return NULL;
  gpus = gp_ds_hw_load (path, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (gpus);
  g_free (path);
  return gpus;
}

static GpDsGpu *
gpu (GPtrArray * gpus, guint i)
{
  g_assert_cmpuint (i, <, gpus->len);
  return g_ptr_array_index (gpus, i);
}

/* L40S: 3 NVDEC at the skill's Ada midpoints (1300 fps H.265 1080p, 340
 * at 4K each); its compute capability comes from its row when the query
 * did not ask for it. */
static void
test_l40s (void)
{
  GPtrArray *gpus = load ("nvidia_smi_query_l40s_2gpu_csv_with_header_units"
      ".txt");
  GpDsGpu *g;

  if (gpus == NULL)
    return;
  g_assert_cmpuint (gpus->len, ==, 2);
  g = gpu (gpus, 1);
  g_assert_cmpint (g->index, ==, 1);
  g_assert_cmpstr (g->name, ==, "NVIDIA L40S");
  g_assert_cmpuint (g->sms, ==, 142);
  g_assert_cmpuint (g->nvdec, ==, 3);
  g_assert_cmpfloat (gp_ds_hw_decode_fps (g, GP_DS_CODEC_H265, 1920, 1080,
          NULL), ==, 3 * 1300);
  g_assert_cmpfloat (gp_ds_hw_decode_fps (g, GP_DS_CODEC_H264, 3840, 2160,
          NULL), ==, 3 * 350);
  /* 720p scales from 1080p by pixels: 2.25 x */
  g_assert_cmpfloat_with_epsilon (gp_ds_hw_decode_fps (g, GP_DS_CODEC_H264,
          1280, 720, NULL), 3 * 1400 * 2.25, 1e-6);
  /* 864 GB/s: 2 x 9001 MHz x 48 bytes */
  g_assert_cmpfloat_with_epsilon (g->peaks->bw, 2 * 9001e6 * 48, 1e3);
  g_ptr_array_unref (gpus);
}

/* RTX 3060 Ti: no name in the query, so no peaks; its links Gen3 x16 at
 * their maximum (0.985 GB/s a lane), trained down to Gen2 and Gen1. */
static void
test_pcie (void)
{
  GPtrArray *gpus =
      load ("nvidia_smi_query_rtx3060ti_3gpu_pcie_link_csv_header.txt");
  gchar *report;

  if (gpus == NULL)
    return;
  g_assert_cmpuint (gpus->len, ==, 3);
  g_assert_cmpint (gpu (gpus, 0)->pcie_gen_max, ==, 3);
  g_assert_cmpint (gpu (gpus, 0)->pcie_gen, ==, 2);
  g_assert_cmpint (gpu (gpus, 1)->pcie_gen, ==, 1);
  g_assert_cmpint (gpu (gpus, 2)->pcie_width_max, ==, 16);
  g_assert_null (gpu (gpus, 0)->peaks);
  g_assert_cmpfloat_with_epsilon (gp_ds_hw_pcie_gbps (3, 16), 15.76, 1e-9);
  g_assert_cmpfloat_with_epsilon (gp_ds_hw_pcie_gbps (4, 16), 31.52, 1e-9);
  g_assert_true (isnan (gp_ds_hw_pcie_gbps (6, 16)));
  g_assert_true (isnan (gp_ds_hw_pcie_gbps (-1, -1)));
  report = gp_ds_hw_report (gpus);
  gp_test_message_text (report);
  g_assert_nonnull (strstr (report, "  PCIe:     Gen3 x16: 15.8 GB/s each "
          "way, about 12.6 in copies; now Gen1 x16 (a link trains down at "
          "idle"));
  g_assert_nonnull (strstr (report, "  peaks:    nvidia-smi printed no name "
          "for GPU 2\n"));
  g_free (report);
  g_ptr_array_unref (gpus);
}

/* AGX Orin 64 GB from its tegrastats log: one NVDEC (not the skill's
 * two), 22 x 1080p30 H.265 streams = 660 fps; no H.264 figure published;
 * no PCIe. */
static void
test_jetson_log (void)
{
  GPtrArray *gpus = load ("tegrastats_agx_orin64_r36.4.4_nvenc_active.txt");
  GpDsGpu *g;
  gchar *report;

  if (gpus == NULL)
    return;
  g = gpu (gpus, 0);
  g_assert_true (g->jetson);
  g_assert_cmpstr (g->name, ==, "Jetson AGX Orin 64GB");
  g_assert_cmpuint (g->nvdec, ==, 1);
  g_assert_cmpfloat (gp_ds_hw_decode_fps (g, GP_DS_CODEC_H265, 1920, 1080,
          NULL), ==, 660);
  g_assert_true (isnan (gp_ds_hw_decode_fps (g, GP_DS_CODEC_H264, 1920,
              1080, NULL)));
  report = gp_ds_hw_report (gpus);
  g_assert_nonnull (strstr (report, "PCIe:     none"));
  g_assert_nonnull (strstr (report, "INT8 85.2 Top/s"));
  g_free (report);
  g_ptr_array_unref (gpus);
}

static gchar *old_path;

static gboolean
standin_path (const gchar * fixture)
{
  const gchar *dir = g_getenv ("GP_STANDIN_DIR");
  gchar *path = gp_test_fixture_path ("telemetry", fixture);

  if (dir == NULL || path == NULL) {
    g_test_message ("no stand-in folder (GP_STANDIN_DIR) or fixture");
    g_test_fail ();
    g_free (path);
    return FALSE;
  }
  g_setenv ("GP_STANDIN_NVSMI", path, TRUE);
  old_path = gp_test_path_prepend (dir);
  g_free (path);
  return TRUE;
}

static void
standin_done (void)
{
  gp_test_path_restore (g_steal_pointer (&old_path));
  g_unsetenv ("GP_STANDIN_NVSMI");
  g_unsetenv ("GP_STANDIN_NVSMI_REFUSE");
}

/* The live query through the stand-in, with a field the driver refuses:
 * asked again without it. */
static void
test_live (void)
{
  GpTestRun r;

  if (!standin_path ("nvidia_smi_query_rtx4090_compute_cap_csv_header.txt"))
    return;
  g_setenv ("GP_STANDIN_NVSMI_REFUSE", "pcie.link.gen.current", TRUE);
  gp_test_run_gstprof (&r, NULL, "ds", "hw", NULL);
  gp_test_message_text (r.out);
  g_assert_cmpint (r.code, ==, 0);
  g_assert_nonnull (strstr (r.out, "GPU 0: NVIDIA GeForce RTX 4090 (cc 8.9)"));
  g_assert_nonnull (strstr (r.out, "  decode:   1 NVDEC"));
  g_assert_nonnull (strstr (r.out, "H.265 1080p   1300 fps"));
  gp_test_run_clear (&r);
  gp_test_run_gstprof (&r, NULL, "ds", "hw", "--gpu", "3", NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, "--gpu: no GPU 3");
  gp_test_run_clear (&r);
  standin_done ();
}

/* No nvidia-smi: a Jetson told by its device-tree model and RAM; neither:
 * one line, exit 3. */
static void
test_jetson_model_and_none (void)
{
  gchar *root = g_dir_make_tmp ("gp-ds-hw-XXXXXX", NULL);
  gchar *dt = g_build_filename (root, "proc", "device-tree", NULL);
  gchar *model = g_build_filename (dt, "model", NULL);
  gchar *meminfo = g_build_filename (root, "proc", "meminfo", NULL);
  gchar *path_env = g_strdup (g_getenv ("PATH"));
  GpTestRun r;

  g_assert_cmpint (g_mkdir_with_parents (dt, 0755), ==, 0);
  /* the device tree's string ends in a NUL */
  g_assert_true (g_file_set_contents (model, "NVIDIA Jetson AGX Orin "
          "Developer Kit\0", 38, NULL));
  g_assert_true (g_file_set_contents (meminfo, "MemTotal:       32210656 kB\n"
          "MemFree:         1000 kB\n", -1, NULL));
  g_setenv ("GP_PROC_ROOT", root, TRUE);
  /* a PATH without nvidia-smi */
  g_setenv ("PATH", "/usr/bin:/bin", TRUE);
  gp_test_run_gstprof (&r, NULL, "ds", "hw", NULL);
  gp_test_message_text (r.out);
  g_assert_cmpint (r.code, ==, 0);
  g_assert_nonnull (strstr (r.out, "GPU 0: Jetson AGX Orin 32GB (cc 8.7)"));
  g_assert_nonnull (strstr (r.out, "H.265 1080p    540 fps"));
  gp_test_run_clear (&r);

  g_unlink (model);
  gp_test_run_gstprof (&r, NULL, "ds", "hw", NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, "no NVIDIA GPU here");
  gp_test_run_clear (&r);
  gp_test_run_gstprof (&r, NULL, "ds", "hw", "--from", meminfo, NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, "not an nvidia-smi --query-gpu output");
  gp_test_run_clear (&r);
  {
    /* a tegrastats log with a damaged line between two good ones: the
     * board told from the good lines, the damaged one said */
    gchar *fixture = gp_test_fixture_path ("telemetry",
        "tegrastats_agx_orin64_r36.4.4_nvenc_active.txt");
    gchar *log = g_build_filename (root, "damaged.log", NULL);
    gchar *text, *first, *joined, *want;

    g_assert_true (g_file_get_contents (fixture, &text, NULL, NULL));
    first = g_strndup (text, strcspn (text, "\n"));
    joined = g_strconcat (first, "\nRAM 6000/62841MB CPU [30%@2201] GR3D\n",
        first, "\n", NULL);
    g_assert_true (g_file_set_contents (log, joined, -1, NULL));
    gp_test_run_gstprof (&r, NULL, "ds", "hw", "--from", log, NULL);
    g_assert_cmpint (r.code, ==, 0);
    g_assert_nonnull (strstr (r.out, "Jetson AGX Orin 64GB"));
    want = g_strdup_printf ("%s: 1 of 3 lines skipped, first at %s:2: ",
        log, log);
    gp_test_assert_has (r.out, want);
    gp_test_run_clear (&r);
    g_unlink (log);
    g_free (want);
    g_free (joined);
    g_free (first);
    g_free (text);
    g_free (log);
    g_free (fixture);
  }

  g_setenv ("PATH", path_env, TRUE);
  g_unsetenv ("GP_PROC_ROOT");
  g_unlink (meminfo);
  g_rmdir (dt);
  g_free (dt);
  dt = g_build_filename (root, "proc", NULL);
  g_rmdir (dt);
  g_rmdir (root);
  g_free (dt);
  g_free (root);
  g_free (model);
  g_free (meminfo);
  g_free (path_env);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ds/hw/l40s", test_l40s);
  g_test_add_func ("/ds/hw/pcie", test_pcie);
  g_test_add_func ("/ds/hw/jetson-log", test_jetson_log);
  g_test_add_func ("/ds/hw/live", test_live);
  g_test_add_func ("/ds/hw/jetson-model-and-none",
      test_jetson_model_and_none);
  return g_test_run ();
}
