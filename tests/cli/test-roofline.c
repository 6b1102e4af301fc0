/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * test-roofline.c: `gstprof roofline` end to end: --from on the real
 * Orin tegrastats and nvidia-smi fixtures (achieved bandwidth worked out
 * by hand from the lines), the CPU roofline of a real session, bad
 * arguments (one line naming the argument, exit 3), --list, the chart
 * (-o, drawn by src/plot).
 */
#include <fcntl.h>
#include <math.h>
#include <unistd.h>
#include <string.h>
#include <gst/gst.h>

#include "gp-test-util.h"
#include "../common/gp-test-fixtures.h"

static gchar *gp_tmp;

static void
run_from (GpTestRun * r, const gchar * fixture, ...) G_GNUC_NULL_TERMINATED;

/* gstprof roofline --from FIXTURE ARGS... */
static void
run_from (GpTestRun * r, const gchar * fixture, ...)
{
  GPtrArray *args = g_ptr_array_new ();
  gchar *path = gp_test_fixture_path ("telemetry", fixture);
  const gchar *a;
  va_list ap;

  g_ptr_array_add (args, (gpointer) "roofline");
  g_ptr_array_add (args, (gpointer) "--from");
  g_ptr_array_add (args, path ? path : (gpointer) "missing");
  va_start (ap, fixture);
  while ((a = va_arg (ap, const gchar *)))
    g_ptr_array_add (args, (gpointer) a);
  va_end (ap);
  g_ptr_array_add (args, NULL);
  gp_test_run_gstprof_argv (r, gp_tmp, (const gchar * const *) args->pdata);
  gp_test_message_text (r->out);
  g_ptr_array_unref (args);
  g_free (path);
}

/* AGX Orin 64GB, R36.4.4: EMC 3 %@2133 on both lines; the EMC's maximum
 * is 3200 MHz (LPDDR5 6400 MT/s, 256 bit: 204.8 GB/s), so 0.03 x 204.8
 * x 2133 / 3200 = 4.095 GB/s; ResNet-50 at 40 fps is 40 x 8.18 = 327.2
 * Gop/s; AI 79.9 op/B, far below the INT8 roof's 16.4 Top/s there. */
static void
test_from_orin64 (void)
{
  GpTestRun r;

  run_from (&r, "tegrastats_agx_orin64_r36.4.4_nvenc_active.txt",
      "--model", "resnet50", "--fps", "40", "--precision", "int8",
      "--target", "AGX Orin 64GB", NULL);
  g_assert_cmpint (r.code, ==, 0);
  gp_test_assert_has (r.out, "roofline: Jetson AGX Orin 64GB");
  gp_test_assert_has (r.out, "INT8         85.2 Top/s        416 op/B");
  gp_test_assert_has (r.out, "memory         205 GB/s");
  gp_test_assert_has (r.out, "mean of 2 samples (2 with a clock)");
  gp_test_assert_has (r.out, "resnet50 @ 40 fps");
  gp_test_assert_has (r.out, "79.9      327 Gop/s     4.1 GB/s");
  gp_test_assert_has (r.out, "neither");
  gp_test_assert_has (r.out, "16.4 Top/s attainable");
  gp_test_run_clear (&r);

  /* without --target: told from the log by its 12 CPUs */
  run_from (&r, "tegrastats_agx_orin64_r36.4.4_nvenc_active.txt",
      "--model", "resnet50", "--fps", "40", "--precision", "int8", NULL);
  g_assert_cmpint (r.code, ==, 0);
  gp_test_assert_has (r.out, "told from the log by its 12 CPUs");
  gp_test_assert_has (r.out, "4.1 GB/s");
  gp_test_run_clear (&r);

  /* a workload the board cannot run: 40 fps of YOLOv8m at FP32 is 3.16
   * Top/s of the 5.32 FP32 roof at AI 770: compute-bound */
  run_from (&r, "tegrastats_agx_orin64_r36.4.4_nvenc_active.txt",
      "--model", "yolov8m", "--fps", "40", "--precision", "fp32", NULL);
  g_assert_cmpint (r.code, ==, 0);
  gp_test_assert_has (r.out, "3.16 Top/s");
  gp_test_run_clear (&r);
}

/* AGX Orin 32GB, R36: EMC 1 %@2133: 0.01 x 204.8 x 2133 / 3200 = 1.365
 * GB/s. Orin NX 16GB: eight CPUs, several boards: --target is asked
 * for. */
static void
test_from_orin32_nx (void)
{
  GpTestRun r;

  run_from (&r, "tegrastats_agx_orin32_r36_multispace_engines_off.txt",
      "--model", "yolov8n", "--fps", "30", "--target", "AGX Orin 32GB", NULL);
  g_assert_cmpint (r.code, ==, 0);
  gp_test_assert_has (r.out, "roofline: Jetson AGX Orin 32GB");
  gp_test_assert_has (r.out, "1.37 GB/s");
  /* 30 x 8.7 Gop = 261 Gop/s */
  gp_test_assert_has (r.out, "261 Gop/s");
  gp_test_run_clear (&r);

  run_from (&r, "tegrastats_orin_nx16_jp5.txt", "--model", "resnet18",
      "--fps", "100", NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, "--target");
  gp_test_run_clear (&r);
  /* with it: EMC 0 %: no traffic measured, the estimate instead */
  run_from (&r, "tegrastats_orin_nx16_jp5.txt", "--model", "resnet18",
      "--fps", "100", "--target", "Orin NX 16GB", NULL);
  g_assert_cmpint (r.code, ==, 0);
  gp_test_assert_has (r.out, "memory load is 0");
  gp_test_run_clear (&r);
}

/* nvidia-smi: the L40S query names its GPU and its clocks (peaks from
 * them, bytes from the estimate: no memory load column); the T4 dmon
 * table has the memory load but no name. */
static void
test_from_nvsmi (void)
{
  GpTestRun r;

  run_from (&r, "nvidia_smi_query_l40s_2gpu_csv_with_header_units.txt",
      "--model", "yolov8m", "--fps", "1000", NULL);
  g_assert_cmpint (r.code, ==, 0);
  gp_test_assert_has (r.out, "roofline: L40S");
  gp_test_assert_has (r.out, "memory 2 x 9001 MHz x 384 bit");
  gp_test_assert_has (r.out, "no memory load in the telemetry");
  gp_test_run_clear (&r);

  run_from (&r, "nvidia_smi_dmon_t4_default_drv535.txt", "--model",
      "yolov8s", "--fps", "200", NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, "--target");
  gp_test_run_clear (&r);
  run_from (&r, "nvidia_smi_dmon_t4_default_drv535.txt", "--target",
      "Tesla T4", "--peak-bw", "300G", NULL);
  g_assert_cmpint (r.code, ==, 0);
  gp_test_assert_has (r.out, "bandwidth given");
  gp_test_assert_has (r.out, "memory         300 GB/s");
  gp_test_assert_has (r.out, "memory traffic");
  gp_test_run_clear (&r);
}

static void
test_bad_arguments (void)
{
  static const struct
  {
    const gchar *args[6];
    const gchar *names;
  } cases[] = {
    {{"roofline", NULL}, "no session"},
    {{"roofline", "--from", "/nonexistent.log", NULL}, "/nonexistent.log"},
    {{"roofline", "x.json", "--fps", "abc", NULL}, "--fps"},
    {{"roofline", "x.json", "--fps", "-3", NULL}, "--fps"},
    {{"roofline", "x.json", "--peak-ops", "1X", NULL}, "--peak-ops"},
    {{"roofline", "x.json", "--precision", "int4", NULL}, "--precision"},
    {{"roofline", "x.json", "--model", "yolov9", NULL}, "--model"},
    {{"roofline", "x.json", "-o", "chart.jpg", NULL}, "-o: chart.jpg"},
    {{"roofline", "--from", "a.log", "--model", "resnet50", NULL}, "--fps"},
    {{"roofline", "a.json", "b.json", NULL}, "b.json"},
    {{"roofline", "/nonexistent/session.json", NULL}, "/nonexistent"},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    GpTestRun r;

    gp_test_run_gstprof_argv (&r, gp_tmp, cases[i].args);
    g_assert_cmpint (r.code, ==, 3);
    gp_test_assert_one_line (r.err, cases[i].names);
    gp_test_run_clear (&r);
  }
  {
    GpTestRun r;

    run_from (&r, "tegrastats_nano_jp4.txt", "--target", "RTX 9999", NULL);
    g_assert_cmpint (r.code, ==, 3);
    gp_test_assert_one_line (r.err, "--target: 'RTX 9999'");
    gp_test_run_clear (&r);
  }
}

/* -o: the accelerator's roofline drawn by the plot room, PNG and SVG */
static void
test_chart (void)
{
  static const gchar *const names[] = { "roofline.png", "roofline.svg" };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (names); i++) {
    gchar *path = g_build_filename (gp_tmp, names[i], NULL);
    gchar *data = NULL;
    gsize len = 0;
    GpTestRun r;

    run_from (&r, "tegrastats_agx_orin64_r36.4.4_nvenc_active.txt",
        "--model", "resnet50", "--fps", "40", "-o", path, NULL);
    g_assert_cmpint (r.code, ==, 0);
    gp_test_assert_has (r.out, "wrote ");
    g_assert_true (g_file_get_contents (path, &data, &len, NULL));
    g_assert_cmpuint (len, >, 1000);
    if (i == 0)
      g_assert_true (memcmp (data, "\x89PNG\r\n\x1a\n", 8) == 0);
    else
      g_assert_nonnull (strstr (data, "<svg"));
    g_free (data);
    g_free (path);
    gp_test_run_clear (&r);
  }
}

static void
test_list_and_help (void)
{
  GpTestRun r;

  gp_test_run_gstprof (&r, gp_tmp, "roofline", "--list", NULL);
  g_assert_cmpint (r.code, ==, 0);
  gp_test_assert_has (r.out, "H100 SXM");
  gp_test_assert_has (r.out, "Jetson AGX Orin 64GB");
  gp_test_assert_has (r.out, "yolov8m");
  gp_test_run_clear (&r);
  gp_test_run_gstprof (&r, gp_tmp, "roofline", "--help", NULL);
  g_assert_cmpint (r.code, ==, 0);
  gp_test_assert_has (r.out, "--peak-bw");
  gp_test_run_clear (&r);
  gp_test_run_gstprof (&r, gp_tmp, "--help", NULL);
  gp_test_assert_has (r.out, "roofline SESSION");
  gp_test_run_clear (&r);
}

/* A session of a 4K videocrop (bandwidth-bound here, see
 * tests/telemetry/test-roofline-cpu.c) and its CPU roofline, the
 * bandwidth measured into a cache of the test's own. */
static void
test_session (void)
{
  gchar *dir = g_build_filename (gp_tmp, "crop", NULL);
  gchar *cache = g_build_filename (gp_tmp, "cache", NULL);
  GpTestRun r;

  g_setenv ("GSTPROF_CACHE_DIR", cache, TRUE);
  gp_test_run_gstprof (&r, gp_tmp, "run", "--duration", "2s", "--out", dir,
      "videotestsrc name=src pattern=black ! "
      "video/x-raw,format=BGRx,width=3840,height=2160 ! "
      "videocrop name=crop top=2 bottom=2 ! fakesink name=sink", NULL);
  g_assert_cmpint (r.code, <=, 1);
  gp_test_run_clear (&r);

  gp_test_run_gstprof (&r, gp_tmp, "roofline", dir, NULL);
  gp_test_message_text (r.out);
  g_assert_cmpint (r.code, ==, 0);
  gp_test_assert_has (r.out, "CPU roofline: this machine (CPU)");
  gp_test_assert_has (r.out, "measured now");
  {
    const gchar *at = strstr (r.out, "\n  crop ");
    gchar *line;

    g_assert_nonnull (at);
    line = g_strndup (at + 1, strcspn (at + 1, "\n"));
    g_assert_nonnull (strstr (line, "videocrop"));
    /* the bound is the row's last column */
    g_assert_true (g_str_has_suffix (line, "  memory"));
    g_free (line);
  }
  gp_test_run_clear (&r);
  /* a CPU roofline has no compute roof: the plot room says so */
  {
    gchar *png = g_build_filename (gp_tmp, "cpu.png", NULL);

    gp_test_run_gstprof (&r, gp_tmp, "roofline", dir, "-o", png, NULL);
    g_assert_cmpint (r.code, ==, 3);
    gp_test_assert_one_line (r.err, "no compute roof");
    gp_test_run_clear (&r);
    g_free (png);
  }
  /* again: the figures of this boot from the cache */
  gp_test_run_gstprof (&r, gp_tmp, "roofline", dir, NULL);
  g_assert_cmpint (r.code, ==, 0);
  gp_test_assert_has (r.out, "measured earlier this boot");
  gp_test_run_clear (&r);
  g_unsetenv ("GSTPROF_CACHE_DIR");
  g_free (cache);
  g_free (dir);
}

/* The telemetry readers stream a log (no size limit): a file past the
 * old 256 MiB limit (a sparse file, so no disk and no time) that is no
 * log is refused in one line from its first block, by roofline --from and
 * by plot, never held whole. */
static void
test_too_large (void)
{
  gchar *path = g_build_filename (gp_tmp, "huge.log", NULL);
  int fd = open (path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  GpTestRun r;

  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (ftruncate (fd, G_GINT64_CONSTANT (257) * 1024 * 1024),
      ==, 0);
  close (fd);
  gp_test_run_gstprof (&r, gp_tmp, "roofline", "--from", path, NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, "huge.log: binary, not a tegrastats log");
  gp_test_run_clear (&r);
  gp_test_run_gstprof (&r, gp_tmp, "plot", path, "-o", "huge.png", NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, "huge.log");
  gp_test_run_clear (&r);
  g_free (path);
}

/* A real log with a damaged line in its middle: read as far as it is
 * valid, the same roofline as the good lines alone give, and the text says
 * what was skipped and where. */
static void
test_from_damaged (void)
{
  gchar *fixture = gp_test_fixture_path ("telemetry",
      "tegrastats_agx_orin64_r36.4.4_nvenc_active.txt");
  gchar *path = g_build_filename (gp_tmp, "damaged.log", NULL);
  gchar *text, *first, *joined, *want, *good_out;
  const gchar *args[] = { "roofline", "--from", NULL, "--model", "resnet50",
    "--fps", "40", "--precision", "int8", "--target", "AGX Orin 64GB", NULL
  };
  GpTestRun r;

  g_assert_true (g_file_get_contents (fixture, &text, NULL, NULL));
  first = g_strndup (text, strcspn (text, "\n"));
  joined = g_strconcat (first, "\n", first, "\n", NULL);
  g_assert_true (g_file_set_contents (path, joined, -1, NULL));
  args[2] = path;
  gp_test_run_gstprof_argv (&r, gp_tmp, args);
  g_assert_cmpint (r.code, ==, 0);
  good_out = g_strdup (r.out);
  gp_test_run_clear (&r);

  g_free (joined);
  joined = g_strconcat (first, "\nRAM 6000/62841MB CPU [30%@2201] GR3D\n",
      first, "\n", NULL);
  g_assert_true (g_file_set_contents (path, joined, -1, NULL));
  gp_test_run_gstprof_argv (&r, gp_tmp, args);
  g_assert_cmpint (r.code, ==, 0);
  /* the roofline of the two good lines, then the note */
  g_assert_true (g_str_has_prefix (r.out, good_out));
  want = g_strdup_printf ("%s: 1 of 3 lines skipped, first at %s:2: ", path,
      path);
  gp_test_assert_has (r.out, want);
  gp_test_run_clear (&r);
  g_free (want);
  g_free (good_out);
  g_free (first);
  g_free (joined);
  g_free (text);
  g_free (path);
  g_free (fixture);
}

int
main (int argc, char **argv)
{
  gint ret;

  gst_init (&argc, &argv);
  g_test_init (&argc, &argv, NULL);
  gp_tmp = g_dir_make_tmp ("gp-roofline-XXXXXX", NULL);
  g_test_add_func ("/roofline/from-orin64", test_from_orin64);
  g_test_add_func ("/roofline/from-orin32-nx", test_from_orin32_nx);
  g_test_add_func ("/roofline/from-nvsmi", test_from_nvsmi);
  g_test_add_func ("/roofline/bad-arguments", test_bad_arguments);
  g_test_add_func ("/roofline/list-and-help", test_list_and_help);
  g_test_add_func ("/roofline/chart", test_chart);
  g_test_add_func ("/roofline/session", test_session);
  g_test_add_func ("/roofline/too-large", test_too_large);
  g_test_add_func ("/roofline/from-damaged", test_from_damaged);
  ret = g_test_run ();
  gp_test_remove_tree (gp_tmp);
  g_free (gp_tmp);
  return ret;
}
