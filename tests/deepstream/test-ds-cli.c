/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof tests: `gstprof ds coverage` on a DeepStream-like launch string,
 * on the fixture deepstream-app config and measured from an nvtx_sum;
 * `gstprof ds profile` section by section from --from-stats (the real
 * nsys outputs of the fixtures) and live with the stand-in nsys of
 * tests/deepstream/stand-in, which replays a fixture's csv. */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "gp-test-fixtures.h"
#include "gp-test-util.h"

static gchar *gp_tmp;

static void
test_coverage_launch (void)
{
  GpTestRun r;

  gp_test_run_gstprof (&r, gp_tmp, "ds", "coverage",
      "uridecodebin uri=file:///x.mp4 ! nvstreammux name=m batch-size=1 ! "
      "nvinfer config-file-path=p.txt unique-id=1 ! nvtracker ! "
      "nvdsosd name=osd ! fakesink", NULL);
  g_assert_cmpint (r.code, ==, 0);
  gp_test_assert_has (r.out, "| m | nvstreammux | UNINSTRUMENTED |");
  gp_test_assert_has (r.out,
      "| nvinfer0 | nvinfer | COVERED | GstNvInfer: UID=<id>");
  gp_test_assert_has (r.out, "| nvtracker0 | nvtracker | COVERED |");
  gp_test_assert_has (r.out, "(the skill: sometimes / not verified) |");
  gp_test_assert_has (r.out, "| osd | nvdsosd | COVERED |");
  gp_test_assert_has (r.out, "| fakesink0 | fakesink | UNINSTRUMENTED |");
  gp_test_assert_has (r.out, "3 of 6 elements covered");
  gp_test_run_clear (&r);
}

static void
test_coverage_config (void)
{
  gchar *cfg = gp_test_fixture_path ("telemetry",
      "deepstream_app_config_ds9_test5_dec_infer_tracker_sgie.txt");
  GpTestRun r;

  if (cfg == NULL)
    return;
  gp_test_run_gstprof (&r, gp_tmp, "ds", "coverage", cfg, NULL);
  g_assert_cmpint (r.code, ==, 0);
  /* two enabled RTSP sources, pgie, tracker, two sgies, tiler, osd, an
   * EGL sink and a message-broker sink; sink2 is disabled */
  gp_test_assert_has (r.out,
      "| source1-decoder | nvv4l2decoder | UNINSTRUMENTED |");
  gp_test_assert_has (r.out, "| primary-gie | nvinfer | COVERED |");
  gp_test_assert_has (r.out, "| secondary-gie1 | nvinfer | COVERED |");
  gp_test_assert_has (r.out,
      "| tiled-display | nvmultistreamtiler | UNINSTRUMENTED |");
  gp_test_assert_has (r.out,
      "| sink1 | nvmsgbroker | UNINSTRUMENTED | no NVTX call in the "
      "source (the skill: often visible) |");
  g_assert_null (strstr (r.out, "sink2"));
  gp_test_assert_has (r.out, "5 of 14 elements covered");
  gp_test_run_clear (&r);
  g_free (cfg);
}

/* a test app's YAML: what the sample apps make of its groups */
static void
test_coverage_testapp (void)
{
  gchar *one = gp_test_fixture_path ("telemetry",
      "deepstream_testapp_pipeline_config_ds9_dstest1.yml");
  gchar *three = gp_test_fixture_path ("telemetry",
      "deepstream_testapp_pipeline_config_ds9_dstest3.yml");
  gchar *infer = gp_test_fixture_path ("telemetry",
      "deepstream_nvinfer_pgie_config_ds9_dstest1.yml");
  gchar *bad = g_build_filename (gp_tmp, "bad.yml", NULL);
  GpTestRun r;

  if (one == NULL || three == NULL || infer == NULL)
    return;
  /* deepstream-test1: an H.264 file through filesrc, h264parse and the
   * decoder */
  gp_test_run_gstprof (&r, gp_tmp, "ds", "coverage", one, NULL);
  g_assert_cmpint (r.code, ==, 0);
  gp_test_assert_has (r.out, "| source | filesrc | UNINSTRUMENTED |");
  gp_test_assert_has (r.out, "| source-parser | h264parse | UNINSTRUMENTED");
  gp_test_assert_has (r.out,
      "| source-decoder | nvv4l2decoder | UNINSTRUMENTED |");
  gp_test_assert_has (r.out, "| primary-gie | nvinfer | COVERED |");
  gp_test_assert_has (r.out, "1 of 5 elements covered");
  gp_test_assert_has (r.out, "the elements its code adds besides");
  gp_test_run_clear (&r);
  /* deepstream-test3: one URI in source-list, tiler, osd and sink */
  gp_test_run_gstprof (&r, gp_tmp, "ds", "coverage", three, NULL);
  g_assert_cmpint (r.code, ==, 0);
  gp_test_assert_has (r.out, "| source0 | uridecodebin | UNINSTRUMENTED |");
  g_assert_null (strstr (r.out, "| source1 |"));
  gp_test_assert_has (r.out, "| tiler | nvmultistreamtiler | UNINSTRUMENTED");
  gp_test_assert_has (r.out, "| osd | nvdsosd | COVERED |");
  gp_test_assert_has (r.out, "| sink | nveglglessink | UNINSTRUMENTED |");
  gp_test_assert_has (r.out, "2 of 7 elements covered");
  gp_test_run_clear (&r);
  /* an nvinfer YAML is no pipeline; a YAML that does not read says where */
  gp_test_run_gstprof (&r, gp_tmp, "ds", "coverage", infer, NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, "not a test-app config");
  gp_test_run_clear (&r);
  g_assert_true (g_file_set_contents (bad, "streammux:\n\tbatch-size: 1\n",
          -1, NULL));
  gp_test_run_gstprof (&r, gp_tmp, "ds", "coverage", bad, NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, "bad.yml:2");
  gp_test_run_clear (&r);
  g_free (bad);
  g_free (one);
  g_free (three);
  g_free (infer);
}

/* measured: an nvtx_sum whose ranges name nvinfer (UID 1 only) and osd */
static void
test_coverage_measured (void)
{
  static const gchar csv[] =
      "Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),"
      "Max (ns),StdDev (ns),Style,Range\n"
      "50.0,5000,5,1000.0,1000.0,900,1100,10.0,PushPop,"
      "GstNvInfer: UID=1:buffer_process batch_num=1\n"
      "30.0,3000,3,1000.0,1000.0,900,1100,10.0,PushPop,"
      "GstNvInfer: UID=1:buffer_process batch_num=2\n"
      "20.0,2000,2,1000.0,1000.0,900,1100,10.0,PushPop,:osd_(Frame=3)\n";
  gchar *f = g_build_filename (gp_tmp, "nvtx.csv", NULL);
  GpTestRun r;

  g_assert_true (g_file_set_contents (f, csv, -1, NULL));
  gp_test_run_gstprof (&r, gp_tmp, "ds", "coverage", "--nsys-report", f,
      "nvstreammux name=m ! nvinfer unique-id=1 ! nvinfer unique-id=2 ! "
      "nvdsosd name=osd ! fakesink", NULL);
  g_assert_cmpint (r.code, ==, 0);
  gp_test_assert_has (r.out,
      "| nvinfer0 | nvinfer | COVERED | GstNvInfer: UID=1:"
      "buffer_process batch_num=N |");
  gp_test_assert_has (r.out,
      "| nvinfer1 | nvinfer | UNINSTRUMENTED | no range names it |");
  gp_test_assert_has (r.out, "| osd | nvdsosd | COVERED | osd_(Frame=N) |");
  gp_test_assert_has (r.out, "2 of 5 elements covered (measured");
  gp_test_run_clear (&r);
  gp_test_run_gstprof (&r, gp_tmp, "ds", "coverage", "--nsys-report",
      "/nonexistent.csv", "fakesink", NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, "gstprof ds coverage: --nsys-report:");
  gp_test_run_clear (&r);
  g_free (f);
}

static gchar *
stats_dir (void)
{
  gchar *a = gp_test_fixture_path ("telemetry",
      "nsys_stats_column_2023.1.2_osrt_cudaapi_kern_mem.txt");
  gchar *b = gp_test_fixture_path ("telemetry",
      "nsys_stats_csv_2024.1.1_nvtx_sum.txt");
  gchar *dir = NULL, *text, *to;

  if (a && b) {
    dir = g_build_filename (gp_tmp, "stats", NULL);
    g_mkdir_with_parents (dir, 0755);
    g_assert_true (g_file_get_contents (a, &text, NULL, NULL));
    to = g_build_filename (dir, "all.txt", NULL);
    g_file_set_contents (to, text, -1, NULL);
    g_free (to);
    g_free (text);
    g_assert_true (g_file_get_contents (b, &text, NULL, NULL));
    to = g_build_filename (dir, "run_nvtx_sum.csv", NULL);
    g_file_set_contents (to, text, -1, NULL);
    g_free (to);
    g_free (text);
  }
  g_free (a);
  g_free (b);
  return dir;
}

static void
test_profile_from_stats (void)
{
  gchar *dir = stats_dir ();
  GpTestRun r;

  if (dir == NULL)
    return;
  gp_test_run_gstprof (&r, gp_tmp, "ds", "profile", "--from-stats", dir,
      "--duration", "1s", "--fps", "20", "--plateau", "100", NULL);
  g_assert_cmpint (r.code, ==, 0);
  gp_test_assert_has (r.out, "## Hardware and ceilings\n\nNot measured");
  gp_test_assert_has (r.out, "the pipeline reaches 20 % of it");
  /* nvtx_sum from the csv file, not the one 2023.1.2 skipped */
  gp_test_assert_has (r.out, "| data_load | - | 50 | 1135.904 | 22.718 |");
  /* 2,097,125 ns of HtoD in 1 s: 0.21 %; 21.218 MB */
  gp_test_assert_has (r.out,
      "| [CUDA memcpy Host-to-Device] | 5 | 2.097 | 0.21 % | "
      "21.218 |");
  gp_test_assert_has (r.out,
      "| mult_square_matrix(int *, int *, int *, int) | 1 | 24.472");
  gp_test_assert_has (r.out, "| cudaMalloc | 5 | 356.993 |");
  gp_test_assert_has (r.out, "| poll | 58 | 4706.608 |");
  gp_test_assert_has (r.out,
      "`gpu_metric_gpu_util_sum` is not an nsys stats report");
  /* kernels 24.8 ms of 1 s, and 20 % of the plateau: two CPU signals */
  gp_test_assert_has (r.out, "**CPU** (2 agreeing signals)");
  gp_test_assert_has (r.out, "kernels run 2.5 % of the capture, under 30 %");
  gp_test_run_clear (&r);
  /* the hardware as `ds hw` reads it, from a saved query: L40S, 3 NVDEC
   * at the Ada midpoint (3 x 1300 fps H.265 1080p) */
  {
    gchar *smi = gp_test_fixture_path ("telemetry",
        "nvidia_smi_query_l40s_2gpu_csv_with_header_units.txt");

    if (smi != NULL) {
      gp_test_run_gstprof (&r, gp_tmp, "ds", "profile", "--from-stats", dir,
          "--nvsmi", smi, NULL);
      g_assert_cmpint (r.code, ==, 0);
      gp_test_assert_has (r.out,
          "## Hardware and ceilings\n\n```\nGPU 0: NVIDIA L40S");
      gp_test_assert_has (r.out, "H.265 1080p   3900 fps");
      /* the first GPU only */
      g_assert_null (strstr (r.out, "GPU 1:"));
      gp_test_run_clear (&r);
      g_free (smi);
    }
  }
  gp_test_run_gstprof (&r, gp_tmp, "ds", "profile", "--from-stats", dir,
      "--nvsmi", "/nonexistent.csv", NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, "gstprof ds profile: --nvsmi: ");
  gp_test_run_clear (&r);
  gp_test_run_gstprof (&r, gp_tmp, "ds", "profile", "--from-stats", dir,
      "--fps", "abc", NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, "gstprof ds profile: --fps: 'abc'");
  gp_test_run_clear (&r);
  g_free (dir);
}

/* --session: the tracer's self time beside NVTX, for the elements
 * DeepStream does not instrument. A real capture with a planted cost:
 * 60 buffers through identity sleep-time=5000 are 300 ms of its time as
 * asked, 60 times the sleep as this machine gives it as slept
 * (gp_test_oversleep_ms ()), within 15 % of that. */
static void
test_profile_session (void)
{
  gchar *dir = stats_dir (), *session, *row, *end;
  const gchar *launch = "videotestsrc num-buffers=60 ! identity name=slow "
      "sleep-time=5000 ! fakesink";
  gdouble ms, slept;
  GpTestRun r;

  if (dir == NULL || !gp_test_have_tracer ()) {
    g_free (dir);
    return;
  }
  session = g_build_filename (gp_tmp, "slow-session", NULL);
  gp_test_run_gstprof (&r, gp_tmp, "run", "-q", "--no-machine", "--out",
      session, launch, NULL);
  g_assert_cmpint (r.code, <=, 1);
  gp_test_run_clear (&r);

  gp_test_run_gstprof (&r, gp_tmp, "ds", "profile", "--from-stats", dir,
      "--session", session, NULL);
  gp_test_message_text (r.out);
  g_assert_cmpint (r.code, ==, 0);
  row = strstr (r.out, "| slow | identity | - | ");
  g_assert_nonnull (row);
  ms = g_ascii_strtod (row + strlen ("| slow | identity | - | "), &end);
  slept = 60 * (5.0 + gp_test_oversleep_ms (5.0));
  g_test_message ("slow: %.1f ms measured, %.1f ms slept here", ms, slept);
  g_assert_cmpfloat (ms, >=, 300.0);
  g_assert_cmpfloat (ms, <=, slept * 1.15);
  gp_test_assert_has (r.out, "- slow (identity): no NVTX; gstprof self time ");
  gp_test_run_clear (&r);

  gp_test_run_gstprof (&r, gp_tmp, "ds", "coverage", "--session", session,
      launch, NULL);
  g_assert_cmpint (r.code, ==, 0);
  gp_test_assert_has (r.out, "| slow | identity | UNINSTRUMENTED | ");
  row = strstr (r.out, "| slow | identity | UNINSTRUMENTED | ");
  g_assert_nonnull (strstr (row, " ms (busy "));
  gp_test_run_clear (&r);
  g_free (session);
  g_free (dir);
}

/* the live path: nsys profile + nsys stats, the stand-in replaying the
 * 2024.1.1 csv for nvtx_sum and SKIPPED for the others */
static void
test_profile_live (void)
{
  gchar *fix = gp_test_fixture_path ("telemetry",
      "nsys_stats_csv_2024.1.1_nvtx_sum.txt");
  gchar *replay, *out, *path, *text, *args, *old_path;
  GpTestRun r;

  if (fix == NULL)
    return;
  replay = g_build_filename (gp_tmp, "replay", NULL);
  out = g_build_filename (gp_tmp, "live", NULL);
  g_mkdir_with_parents (replay, 0755);
  g_assert_true (g_file_get_contents (fix, &text, NULL, NULL));
  path = g_build_filename (replay, "nvtx_sum.csv", NULL);
  g_file_set_contents (path, text, -1, NULL);
  g_free (path);
  g_free (text);
  g_setenv ("GP_STANDIN_NSYS_DIR", replay, TRUE);
  path = g_build_filename (g_getenv ("GP_SOURCE_ROOT"), "tests",
      "deepstream", "stand-in", NULL);
  old_path = gp_test_path_prepend (path);
  g_free (path);
  gp_test_run_gstprof (&r, gp_tmp, "ds", "profile", "--duration", "2s",
      "--out", out, "--", "gst-launch-1.0", "-q", "videotestsrc",
      "num-buffers=5", "!", "fakesink", NULL);
  g_assert_cmpint (r.code, ==, 0);
  gp_test_assert_has (r.out, "nsys profile of `gst-launch-1.0` (2 s)");
  gp_test_assert_has (r.out, "| step_0 | - | 1 | 1631.356 |");
  gp_test_assert_has (r.out, "Not measured: nsys skipped cuda_gpu_kern_sum");
  path = g_build_filename (out, "report.args", NULL);
  g_assert_true (g_file_get_contents (path, &args, NULL, NULL));
  gp_test_assert_has (args, "gst-launch-1.0 -q videotestsrc");
  g_free (args);
  g_free (path);
  path = g_build_filename (out, "cuda_api_sum.csv", NULL);
  g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
  g_free (path);
  gp_test_run_clear (&r);
  gp_test_path_restore (old_path);
  g_unsetenv ("GP_STANDIN_NSYS_DIR");
  g_free (replay);
  g_free (out);
  g_free (fix);
}

/* @name in gp_tmp: @len bytes of @text (NULs included). */
static gchar *
write_bytes (const gchar * name, const gchar * text, gssize len)
{
  gchar *path = g_build_filename (gp_tmp, name, NULL);

  g_assert_true (g_file_set_contents (path, text, len, NULL));
  return path;
}

/* @name in gp_tmp, @size bytes long and holding none (a sparse file):
 * larger than a reader's limit without the disk or the time. */
static gchar *
write_sparse (const gchar * name, gint64 size)
{
  gchar *path = g_build_filename (gp_tmp, name, NULL);
  int fd = g_open (path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (ftruncate (fd, size), ==, 0);
  close (fd);
  return path;
}

/* Bad files, each one line naming the file (and its line), exit 3: an INI
 * with a NUL byte (GKeyFile read up to it and took the rest as gone), an
 * empty config for ds preset (it preset a pipeline of one source), and
 * files past each reader's limit (refused unread, instead of held whole). */
static void
test_bad_files (void)
{
  static const gchar ini[] = "[application]\nenable-perf-measurement=1\n"
      "[streammux]\nbatch-size=1\0\n[primary-gie]\nenable=1\n";
  gchar *nul = write_bytes ("nul.txt", ini, sizeof ini - 1);
  gchar *empty = write_bytes ("empty.txt", "", 0);
  gchar *comments = write_bytes ("comments.txt", "# nothing\n\n", -1);
  gchar *big_cfg = write_sparse ("big.txt", 16 * 1024 * 1024 + 1);
  gchar *big_log = write_sparse ("big.log", G_GINT64_CONSTANT (257) * 1024
      * 1024);
  GpTestRun r;

  gp_test_run_gstprof (&r, gp_tmp, "ds", "coverage", nul, NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, "nul.txt:4: not UTF-8 text");
  gp_test_run_clear (&r);
  gp_test_run_gstprof (&r, gp_tmp, "ds", "preset", nul, NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, "nul.txt:4: not UTF-8 text");
  gp_test_run_clear (&r);
  gp_test_run_gstprof (&r, gp_tmp, "ds", "preset", empty, NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, "empty.txt: no group in it");
  g_assert_cmpstr (r.out, ==, "");
  gp_test_run_clear (&r);
  gp_test_run_gstprof (&r, gp_tmp, "ds", "preset", comments, NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, "comments.txt: no group in it");
  gp_test_run_clear (&r);
  gp_test_run_gstprof (&r, gp_tmp, "ds", "preset", big_cfg, NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, "big.txt: larger than 16 MiB");
  gp_test_run_clear (&r);
  gp_test_run_gstprof (&r, gp_tmp, "ds", "coverage", big_cfg, NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, "big.txt: larger than 16 MiB");
  gp_test_run_clear (&r);
  /* a tegrastats log is streamed (no limit): this one is told no log by
   * its first block, unread past it */
  gp_test_run_gstprof (&r, gp_tmp, "ds", "hw", "--from", big_log, NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, "big.log: not an nvidia-smi --query-gpu");
  gp_test_run_clear (&r);
  gp_test_run_gstprof (&r, gp_tmp, "ds", "coverage", "--nsys-report",
      big_log, "nvstreammux ! fakesink", NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, "big.log: larger than 64 MiB");
  gp_test_run_clear (&r);
  /* ds profile's folder of reports: a 2 GiB one refused unread (it was
   * read whole: 4.2 GB, 10-15 s) */
  {
    gchar *stats = g_build_filename (gp_tmp, "big-stats", NULL);
    gchar *big;

    g_assert_cmpint (g_mkdir_with_parents (stats, 0755), ==, 0);
    big = write_sparse ("big-stats/cuda_gpu_kern_sum.csv",
        G_GINT64_CONSTANT (2) * 1024 * 1024 * 1024);
    gp_test_run_gstprof (&r, gp_tmp, "ds", "profile", "--from-stats", stats,
        NULL);
    g_assert_cmpint (r.code, ==, 3);
    gp_test_assert_one_line (r.err,
        "cuda_gpu_kern_sum.csv: larger than 64 MiB");
    g_assert_cmpfloat (r.wall_s, <, 2.0);
    gp_test_run_clear (&r);
    g_free (big);
    g_free (stats);
  }
  g_free (nul);
  g_free (empty);
  g_free (comments);
  g_free (big_cfg);
  g_free (big_log);
}

int
main (int argc, char **argv)
{
  gint code;

  g_test_init (&argc, &argv, NULL);
  gp_tmp = g_dir_make_tmp ("gp-ds-cli-XXXXXX", NULL);
  g_test_add_func ("/ds/coverage/launch", test_coverage_launch);
  g_test_add_func ("/ds/coverage/config", test_coverage_config);
  g_test_add_func ("/ds/coverage/measured", test_coverage_measured);
  g_test_add_func ("/ds/coverage/testapp", test_coverage_testapp);
  g_test_add_func ("/ds/bad-files", test_bad_files);
  g_test_add_func ("/ds/profile/from-stats", test_profile_from_stats);
  g_test_add_func ("/ds/profile/live", test_profile_live);
  g_test_add_func ("/ds/profile/session", test_profile_session);
  code = g_test_run ();
  gp_test_remove_tree (gp_tmp);
  g_free (gp_tmp);
  return code;
}
