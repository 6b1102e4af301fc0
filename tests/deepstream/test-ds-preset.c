/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof tests
 *
 * test-ds-preset.c: `gstprof ds preset` (the binary) on copies of every
 * DeepStream config of GP_FIXTURES/telemetry and on a DeepStream-like
 * launch string: what changes, what does not, the diff's text, --write
 * with its backup and benchmark variant, a second --write changing
 * nothing, and bad input refused with one line and exit 3.
 */
#include <string.h>
#include <glib/gstdio.h>

#include "deepstream/gp-ds-config.h"
#include "gp-test-fixtures.h"
#include "gp-test-util.h"

/* the fixture @name copied into a fresh folder as @as; NULL (skipped)
 * without fixtures */
static gchar *
copy_fixture (const gchar * name, const gchar * dir, const gchar * as)
{
  gchar *src = gp_test_fixture_path ("telemetry", name), *to, *text;
  gsize len;

  if (src == NULL)
    return NULL;
  to = g_build_filename (dir, as ? as : name, NULL);
  g_assert_true (g_file_get_contents (src, &text, &len, NULL));
  g_assert_true (g_file_set_contents (to, text, len, NULL));
  g_free (text);
  g_free (src);
  return to;
}

static gchar *
value_of (const gchar * path, const gchar * group, const gchar * key)
{
  GError *err = NULL;
  GpDsConfig *c = gp_ds_config_load (path, &err);
  gchar *v;

  g_assert_no_error (err);
  v = gp_ds_config_get (c, group, key);
  gp_ds_config_free (c);
  return v;
}

#define ASSERT_VALUE(path, group, key, want) G_STMT_START { \
  gchar *v_ = value_of (path, group, key); \
  g_assert_cmpstr (v_, ==, want); \
  g_free (v_); } G_STMT_END

static void
test_app_ini (void)
{
  gchar *tmp = g_dir_make_tmp ("gp-dsp-XXXXXX", NULL), *bench, *bak;
  gchar *path = copy_fixture
      ("deepstream_app_config_ds9_test5_dec_infer_tracker_sgie.txt", tmp,
      "app.txt"), *orig, *now;
  GpTestRun r;
  gsize len;

  if (path == NULL)
    return;
  g_assert_true (g_file_get_contents (path, &orig, &len, NULL));
  gp_test_run_gstprof (&r, tmp, "ds", "preset", "--fps", "25", path, NULL);
  g_assert_cmpint (r.code, ==, 0);
  gp_test_assert_has (r.out,
      "2 sources, batch 2, 25 fps; display or recording: "
      "two variants (visible, benchmark)");
  gp_test_assert_has (r.out, "[streammux] batch-size: min(2 sources, 16)");
  gp_test_assert_has (r.out, "(already)");
  gp_test_assert_has (r.out, "[source0] num-extra-surfaces: min(batch 2, 5)\n"
      "+num-extra-surfaces=2\n");
  gp_test_assert_has (r.out,
      "[tracker] tracker-width: max-perf working width (a "
      "multiple of 32)\n-tracker-width=960\n+tracker-width=480\n");
  gp_test_assert_has (r.out,
      "+ll-config-file=/opt/nvidia/deepstream/deepstream/"
      "samples/configs/deepstream-app/config_tracker_NvDCF_max_perf.yml\n");
  gp_test_assert_has (r.out, "variant benchmark\n");
  gp_test_assert_has (r.out, "[sink0] type: benchmark: fakesink, no display or "
      "recording\n-type=2\n+type=1\n");
  gp_test_assert_has (r.out, "[osd] enable: benchmark: no OSD\n-enable=1\n"
      "+enable=0\n");
  gp_test_assert_has (r.out, "[primary-gie] names /opt/nvidia/deepstream/");
  g_assert_null (strstr (r.out, "enable-batch-process"));
  /* 40000 was the muxer's timeout: 1e6 / 25 is 40000, already */
  gp_test_assert_has (r.out,
      "[streammux] batched-push-timeout: one frame time, "
      "1e6 / 25 fps (already)");
  /* printing changed nothing */
  g_assert_true (g_file_get_contents (path, &now, &len, NULL));
  g_assert_cmpstr (now, ==, orig);
  g_free (now);
  gp_test_run_clear (&r);

  gp_test_run_gstprof (&r, tmp, "ds", "preset", "--write", path, NULL);
  g_assert_cmpint (r.code, ==, 0);
  bench = g_build_filename (tmp, "app.benchmark.txt", NULL);
  bak = g_strconcat (path, ".bak", NULL);
  gp_test_assert_has (r.out, "wrote ");
  /* in place: the visible variant, display kept */
  ASSERT_VALUE (path, "streammux", "batched-push-timeout", "33333");
  ASSERT_VALUE (path, "sink0", "type", "2");
  ASSERT_VALUE (path, "osd", "enable", "1");
  ASSERT_VALUE (path, "tracker", "tracker-height", "288");
  ASSERT_VALUE (path, "source1", "cudadec-memtype", "0");
  ASSERT_VALUE (path, "sink2", "type", "3");
  /* beside it, the benchmark */
  ASSERT_VALUE (bench, "sink0", "type", "1");
  ASSERT_VALUE (bench, "sink0", "sync", "0");
  ASSERT_VALUE (bench, "osd", "enable", "0");
  ASSERT_VALUE (bench, "tiled-display", "enable", "0");
  ASSERT_VALUE (bench, "sink1", "type", "6");
  ASSERT_VALUE (bench, "tracker", "tracker-width", "480");
  /* disabled sinks are left alone */
  ASSERT_VALUE (bench, "sink2", "type", "3");
  g_assert_true (g_file_get_contents (bak, &now, &len, NULL));
  g_assert_cmpstr (now, ==, orig);
  g_free (now);
  g_free (orig);
  g_assert_true (g_file_get_contents (path, &orig, &len, NULL));
  gp_test_run_clear (&r);
  /* twice: nothing more */
  gp_test_run_gstprof (&r, tmp, "ds", "preset", "--write", path, NULL);
  g_assert_cmpint (r.code, ==, 0);
  gp_test_assert_has (r.out, "unchanged: ");
  /* the visible variant has nothing left to change; the benchmark one
   * differs from it only by its sinks, OSD and tiler */
  {
    const gchar *vis = strstr (r.out, "variant visible");
    const gchar *ben = strstr (r.out, "variant benchmark");
    gchar *part;

    g_assert_nonnull (vis);
    g_assert_nonnull (ben);
    part = g_strndup (vis, ben - vis);
    g_assert_null (strstr (part, "\n@@ "));
    g_free (part);
  }
  g_assert_true (g_file_get_contents (path, &now, &len, NULL));
  g_assert_cmpstr (now, ==, orig);
  g_free (now);
  gp_test_run_clear (&r);
  gp_test_remove_tree (tmp);
  g_free (orig);
  g_free (bench);
  g_free (bak);
  g_free (path);
  g_free (tmp);
}

/* nvinfer: INT8 when the calibration file is there, the prebuilt engine
 * when there, FP32 only when asked; INI and YAML alike */
static void
test_nvinfer (void)
{
  static const gchar *const names[] = {
    "deepstream_nvinfer_pgie_config_ds9_dstest1.txt",
    "deepstream_nvinfer_pgie_config_ds9_dstest1.yml",
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (names); i++) {
    gchar *tmp = g_dir_make_tmp ("gp-dsp-XXXXXX", NULL);
    const gchar *ext = g_str_has_suffix (names[i], ".yml") ? "yml" : "txt";
    gchar *as = g_strdup_printf ("pgie.%s", ext);
    gchar *path = copy_fixture (names[i], tmp, as), *p, *cal, *engine;
    GpDsConfig *c;
    GpTestRun r;

    if (path == NULL) {
      g_free (as);
      g_free (tmp);
      return;
    }
    /* the fixture's model and calibration, moved beside the copy */
    c = gp_ds_config_load (path, NULL);
    g_assert_true (gp_ds_config_set (c, "property", "onnx-file", "m.onnx",
            NULL, NULL));
    g_assert_true (gp_ds_config_set (c, "property", "int8-calib-file",
            "cal.bin", NULL, NULL));
    g_assert_true (gp_ds_config_save_as (c, path, NULL));
    gp_ds_config_free (c);

    gp_test_run_gstprof (&r, tmp, "ds", "preset", path, NULL);
    g_assert_cmpint (r.code, ==, 0);
    gp_test_assert_has (r.out, "network-mode: FP16: the int8-calib-file is not "
        "there");
    gp_test_assert_has (r.out, "(already)");
    gp_test_assert_has (r.out, "no prebuilt engine ");
    gp_test_assert_has (r.out, "m.onnx_b1_gpu0_fp16.engine");
    gp_test_assert_has (r.out, "the model's input is not known");
    gp_test_run_clear (&r);

    cal = g_build_filename (tmp, "cal.bin", NULL);
    engine = g_build_filename (tmp, "m.onnx_b1_gpu0_int8.engine", NULL);
    g_assert_true (g_file_set_contents (cal, "calib", -1, NULL));
    g_assert_true (g_file_set_contents (engine, "engine", -1, NULL));
    gp_test_run_gstprof (&r, tmp, "ds", "preset", "--model", "3x544x960",
        "--write", path, NULL);
    g_assert_cmpint (r.code, ==, 0);
    gp_test_assert_has (r.out,
        "network-mode: INT8: its calibration file is there");
    gp_test_assert_has (r.out, g_str_has_suffix (path, "yml") ?
        "+  network-mode: 1\n" : "+network-mode=1\n");
    gp_test_assert_has (r.out, g_str_has_suffix (path, "yml") ?
        "+  infer-dims: 3;544;960\n" : "+infer-dims=3;544;960\n");
    ASSERT_VALUE (path, "property", "network-mode", "1");
    ASSERT_VALUE (path, "property", "model-engine-file", engine);
    ASSERT_VALUE (path, "property", "infer-dims", "3;544;960");
    /* keys not in the presets stay */
    ASSERT_VALUE (path, "property", "net-scale-factor",
        "0.00392156862745098");
    ASSERT_VALUE (path, "class-attrs-all", "topk", "20");
    /* the added key went after the group's last key line */
    p = value_of (path, "property", "cluster-mode");
    g_assert_cmpstr (p, ==, "2");
    g_free (p);
    c = gp_ds_config_load (path, NULL);
    g_assert_cmpuint (gp_ds_config_line (c, "property", "infer-dims"), ==,
        gp_ds_config_line (c, "property", "cluster-mode") + 1);
    gp_ds_config_free (c);
    gp_test_run_clear (&r);

    gp_test_run_gstprof (&r, tmp, "ds", "preset", "--precision", "fp32",
        path, NULL);
    g_assert_cmpint (r.code, ==, 0);
    gp_test_assert_has (r.out,
        "network-mode: FP32 as asked (--precision fp32)");
    gp_test_run_clear (&r);
    gp_test_remove_tree (tmp);
    g_free (cal);
    g_free (engine);
    g_free (path);
    g_free (as);
    g_free (tmp);
  }
}

/* the test app's YAML with its nvinfer config beside it; the tracker's
 * YAML, whose enable-batch-process is never written */
static void
test_yaml_apps (void)
{
  gchar *tmp = g_dir_make_tmp ("gp-dsp-XXXXXX", NULL);
  gchar *app = copy_fixture ("deepstream_testapp_pipeline_config_ds9_"
      "dstest3.yml", tmp, "app.yml");
  gchar *pgie = copy_fixture ("deepstream_nvinfer_pgie_config_ds9_"
      "dstest1.yml", tmp, "dstest3_pgie_config.yml");
  gchar *trk = copy_fixture ("deepstream_parallel_infer_tracker0_enable_"
      "batch_process.yml", tmp, "tracker0.yml"), *orig, *now;
  GpTestRun r;
  gsize len;

  if (app == NULL || pgie == NULL || trk == NULL) {
    g_free (app);
    g_free (pgie);
    g_free (trk);
    g_free (tmp);
    return;
  }
  gp_test_run_gstprof (&r, tmp, "ds", "preset", "--model", "544x960",
      "--write", app, NULL);
  g_assert_cmpint (r.code, ==, 0);
  gp_test_assert_has (r.out, "test-app config, 1 sources, batch 1");
  gp_test_assert_has (r.out, "[streammux] width: the model's input (--model)\n"
      "-  width: 1920\n+  width: 960\n");
  gp_test_assert_has (r.out, "makes its OSD, tiler and sink in code");
  ASSERT_VALUE (app, "streammux", "height", "544");
  ASSERT_VALUE (app, "tiler", "width", "1280");
  ASSERT_VALUE (pgie, "property", "batch-size", "1");
  ASSERT_VALUE (pgie, "property", "infer-dims", "3;544;960");
  gp_test_run_clear (&r);

  g_assert_true (g_file_get_contents (trk, &orig, &len, NULL));
  gp_test_run_gstprof (&r, tmp, "ds", "preset", "--write", trk, NULL);
  g_assert_cmpint (r.code, ==, 0);
  gp_test_assert_has (r.out, "tracker0.yml:27: enable-batch-process is not an "
      "nvtracker property");
  ASSERT_VALUE (trk, "tracker", "tracker-width", "480");
  ASSERT_VALUE (trk, "tracker", "enable-batch-process", "1");
  /* the comments in the group stay, byte for byte */
  g_assert_true (g_file_get_contents (trk, &now, &len, NULL));
  gp_test_assert_has (now,
      "  # ll-config-file=config_tracker_NvDCF_accuracy.yml\n");
  gp_test_assert_has (now, "  # For NvDCF and DeepSORT tracker, tracker-width");
  /* 640 -> 480, 384 -> 288: as long; NvDCF_perf -> NvDCF_max_perf */
  g_assert_cmpuint (strlen (now) - strlen (orig), ==, strlen ("max_"));
  g_free (now);
  g_free (orig);
  gp_test_run_clear (&r);
  gp_test_remove_tree (tmp);
  g_free (app);
  g_free (pgie);
  g_free (trk);
  g_free (tmp);
}

#define DS_LAUNCH "nvstreammux name=m batch-size=1 width=1920 height=1080 " \
  "! queue ! nvinfer config-file-path=none.txt ! nvtracker ! " \
  "tee name=t ! queue ! nvmultistreamtiler ! nvdsosd ! nveglglessink " \
  "t. ! queue ! nvmsgconv ! nvmsgbroker " \
  "filesrc location=a.h264 ! h264parse ! nvv4l2decoder ! m.sink_0 " \
  "filesrc location=b.h264 ! h264parse ! nvv4l2decoder ! m.sink_1 " \
  "filesrc location=c.h264 ! h264parse ! nvv4l2decoder ! m.sink_2"

static void
test_launch (void)
{
  GpTestRun r;
  gchar *bench, *visible, **lines;
  guint i;

  gp_test_run_gstprof (&r, NULL, "ds", "preset", DS_LAUNCH, NULL);
  g_assert_cmpint (r.code, ==, 0);
  gp_test_assert_has (r.out,
      "launch string: 3 sources, batch 3, 30 fps assumed; "
      "display or recording: two variants");
  gp_test_assert_has (r.out, "+ m batch-size=3: min(3 sources, 16)");
  gp_test_assert_has (r.out, "+ queue0 max-size-buffers=6: into the primary "
      "inference: batch 3 x 2\n");
  gp_test_assert_has (r.out,
      "+ queue2 leaky=2: drops the oldest (downstream)\n");
  gp_test_assert_has (r.out, "- removed nvdsosd0 (nvdsosd)");
  gp_test_assert_has (r.out, "~ fakesink sync=false for nveglglessink0");
  gp_test_assert_has (r.out, "note: nvinfer0 names none.txt, not there");
  lines = g_strsplit (r.out, "\n", -1);
  bench = visible = NULL;
  for (i = 0; lines[i] != NULL; i++) {
    if (g_str_has_prefix (lines[i], "benchmark: "))
      bench = lines[i] + strlen ("benchmark: ");
    if (g_str_has_prefix (lines[i], "visible: "))
      visible = lines[i] + strlen ("visible: ");
  }
  g_assert_nonnull (bench);
  g_assert_nonnull (visible);
  gp_test_assert_has (bench,
      "! fakesink sync=false t. ! queue max-size-buffers=2 "
      "leaky=2 ! nvmsgconv");
  g_assert_null (strstr (bench, "nvdsosd"));
  g_assert_null (strstr (bench, "nvmultistreamtiler"));
  gp_test_assert_has (visible, "nvmultistreamtiler ! nvdsosd ! nveglglessink");
  gp_test_assert_has (visible, "nvv4l2decoder num-extra-surfaces=3 "
      "cudadec-memtype=0 ! m.sink_2");
  gp_test_assert_has (visible,
      "nvtracker tracker-width=480 tracker-height=288 ");
  g_assert_null (strstr (r.out, "enable-batch-process"));
  g_strfreev (lines);
  gp_test_run_clear (&r);
}

static void
test_bad (void)
{
  gchar *tmp = g_dir_make_tmp ("gp-dsp-XXXXXX", NULL);
  gchar *bad = g_build_filename (tmp, "bad.yml", NULL);
  GpTestRun r;

  g_assert_true (g_file_set_contents (bad, "streammux:\n  batch-size: &a 1"
          "\n", -1, NULL));
  gp_test_run_gstprof (&r, tmp, "ds", "preset", bad, NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, "bad.yml:2: an anchor, alias or tag");
  g_assert_cmpstr (r.out, ==, "");
  gp_test_run_clear (&r);
  gp_test_run_gstprof (&r, tmp, "ds", "preset", "missing.txt", NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, "missing.txt: cannot read");
  gp_test_run_clear (&r);
  gp_test_run_gstprof (&r, tmp, "ds", "preset", "--precision", "int4",
      bad, NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, "--precision 'int4'");
  gp_test_run_clear (&r);
  gp_test_run_gstprof (&r, tmp, "ds", "preset", "a ! ! b", NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, "gstprof ds preset: ");
  gp_test_run_clear (&r);
  gp_test_remove_tree (tmp);
  g_free (bad);
  g_free (tmp);
}

/* The app fixture with its [source0] group repeated until it has @n
 * source groups, written to @dir as app-N.txt. */
static gchar *
many_sources (const gchar * dir, guint n)
{
  gchar *src = copy_fixture
      ("deepstream_app_config_ds9_test5_dec_infer_tracker_sgie.txt", dir,
      "base.txt"), *text, *to, *name;
  const gchar *g0, *g1;
  GString *out;
  guint i;

  if (src == NULL)
    return NULL;
  g_assert_true (g_file_get_contents (src, &text, NULL, NULL));
  g0 = strstr (text, "[source0]\n");
  g_assert_nonnull (g0);
  g1 = strstr (g0 + 1, "\n[");
  g_assert_nonnull (g1);
  g1++;
  out = g_string_new_len (text, g1 - text);
  for (i = 2; i < n; i++) {
    g_string_append_printf (out, "[source%u]", i);
    g_string_append_len (out, g0 + strlen ("[source0]"),
        g1 - g0 - strlen ("[source0]"));
  }
  g_string_append (out, g1);
  name = g_strdup_printf ("app-%u.txt", n);
  to = g_build_filename (dir, name, NULL);
  g_assert_true (g_file_set_contents (to, out->str, out->len, NULL));
  g_string_free (out, TRUE);
  g_free (name);
  g_free (text);
  g_free (src);
  return to;
}

/* Each edit used to move the whole text below it and the index of every
 * line below it: 8 times the groups took 50 times the CPU (16,000 groups:
 * 8.5 s). Now the edits' cost is their own size and how far apart they
 * are: 8 times the groups take about 6 times the CPU. The ratio of CPU
 * times, not a wall time; and a wide bound, since a busy machine's caches
 * slow the large run more (Debian 11 beside a running suite: 4 times the
 * groups, 7.8 times the CPU). */
#define SCALE_GROUPS 2000
#define SCALE_BY 8
#define SCALE_MOST 20.0         /* linear is 8, quadratic 64 */

static void
test_scaling (void)
{
  gchar *tmp = g_dir_make_tmp ("gp-dsp-XXXXXX", NULL), *small, *big;
  GpTestRun r;
  gdouble cpu[2];
  guint k;

  small = many_sources (tmp, SCALE_GROUPS);
  big = many_sources (tmp, SCALE_GROUPS * SCALE_BY);
  if (small == NULL) {
    g_test_skip ("no fixtures");
    g_free (tmp);
    return;
  }
  for (k = 0; k < 2; k++) {
    gdouble best = G_MAXDOUBLE;
    guint rep;

    /* the least of three: what the work costs, less what the machine
     * added */
    for (rep = 0; rep < 3; rep++) {
      gp_test_run_gstprof (&r, tmp, "ds", "preset", k ? big : small, NULL);
      g_assert_cmpint (r.code, ==, 0);
      gp_test_assert_has (r.out, k ? "[source15999] num-extra-surfaces" :
          "[source1999] num-extra-surfaces");
      best = MIN (best, r.cpu_s);
      gp_test_run_clear (&r);
    }
    cpu[k] = best;
  }
  gp_test_message_lines ("%u groups: %.3f s of CPU; %u: %.3f s (x%.1f)",
      SCALE_GROUPS, cpu[0], SCALE_GROUPS * SCALE_BY, cpu[1],
      cpu[1] / MAX (cpu[0], 1e-3));
  g_assert_cmpfloat (cpu[1], <=, SCALE_MOST * MAX (cpu[0], 0.01));
  gp_test_remove_tree (tmp);
  g_free (small);
  g_free (big);
  g_free (tmp);
}

gint
main (gint argc, gchar ** argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ds-preset/app-ini", test_app_ini);
  g_test_add_func ("/ds-preset/nvinfer", test_nvinfer);
  g_test_add_func ("/ds-preset/yaml-apps", test_yaml_apps);
  g_test_add_func ("/ds-preset/launch", test_launch);
  g_test_add_func ("/ds-preset/bad", test_bad);
  g_test_add_func ("/ds-preset/scaling", test_scaling);
  return g_test_run ();
}
