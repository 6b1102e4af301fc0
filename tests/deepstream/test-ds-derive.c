/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof ds derive (src/deepstream/gp-ds-derive): R1-R7 on worked cases,
 * each value computed by hand in the comments from the rules of
 * docs/tuning.md ("Derive: R1-R7"); the two choices where the skill
 * contradicts itself; the real DeepStream configurations of the fixtures;
 * the binary's refusal of bad arguments. */
#include "deepstream/gp-ds-derive.h"
#include "gp-test-fixtures.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static GpDsDeriveInput
input (guint plateau, guint streams, const gchar * source, const gchar * model)
{
  GpDsDeriveInput in = { 0 };

  in.plateau = plateau;
  in.streams = streams;
  g_assert_true (gp_ds_derive_parse_source (source, &in.src_w, &in.src_h,
          &in.src_fps));
  g_assert_true (gp_ds_derive_parse_model (model, &in.model_c, &in.model_h,
          &in.model_w));
  in.gpu_mem_mib = in.plateau_fps = in.decode_fps = NAN;
  return in;
}

static const gchar *
value (const GpDsDerivation * d, GpDsElem elem, const gchar * key)
{
  const GpDsValue *v = gp_ds_derivation_find (d, elem, key);

  g_assert_nonnull (v);
  g_assert_nonnull (v->reason);
  g_assert_cmpuint (strlen (v->reason), >, 0);
  g_assert_null (strchr (v->reason, '\n'));
  return v->value;
}

/* The reference's worked case: plateau 4, 8 streams of 1080p30, a
 * 960x544 detector (infer-dims 3;544;960). */
static void
test_worked_1080p (void)
{
  GpDsDeriveInput in = input (4, 8, "1920x1080@30", "3x544x960");
  GpDsDerivation *d;

  in.tracker = TRUE;
  d = gp_ds_derive (&in);
  /* final_batch = min(4, 8) = 4 */
  g_assert_cmpuint (d->final_batch, ==, 4);
  /* R1: batch 4; the model fits inside the source on both axes, so the
   * muxer's size is the model's, 960x544; 1e6 / 30 = 33333.3 -> 33333 us */
  g_assert_cmpstr (value (d, GP_DS_ELEM_MUX, "batch-size"), ==, "4");
  g_assert_cmpstr (value (d, GP_DS_ELEM_MUX, "width"), ==, "960");
  g_assert_cmpstr (value (d, GP_DS_ELEM_MUX, "height"), ==, "544");
  g_assert_cmpstr (value (d, GP_DS_ELEM_MUX, "batched-push-timeout"), ==,
      "33333");
  g_assert_cmpstr (value (d, GP_DS_ELEM_MUX, "nvbuf-memory-type"), ==, "0");
  g_assert_cmpstr (value (d, GP_DS_ELEM_MUX, "live-source"), ==, "0");
  /* R2: batch equal to the muxer's; no calibration -> FP16 (2) */
  g_assert_cmpstr (value (d, GP_DS_ELEM_PGIE, "batch-size"), ==, "4");
  g_assert_cmpstr (value (d, GP_DS_ELEM_PGIE, "network-mode"), ==, "2");
  g_assert_null (gp_ds_derivation_find (d, GP_DS_ELEM_PGIE,
          "int8-calib-file"));
  g_assert_cmpstr (value (d, GP_DS_ELEM_PGIE, "infer-dims"), ==,
      "3;544;960");
  /* R4a: interval 0 until ID retention is measured */
  g_assert_cmpstr (value (d, GP_DS_ELEM_PGIE, "interval"), ==, "0");
  /* R3: min(4, 5) = 4 extra surfaces */
  g_assert_cmpstr (value (d, GP_DS_ELEM_DECODER, "num-extra-surfaces"), ==,
      "4");
  g_assert_cmpstr (value (d, GP_DS_ELEM_DECODER, "cudadec-memtype"), ==,
      "0");
  /* R4: width 480; 480 x 1080 / 1920 = 270, up to a multiple of 32:
   * ceil(270 / 32) = 9, 9 x 32 = 288 (the skill's 480x288) */
  g_assert_cmpstr (value (d, GP_DS_ELEM_TRACKER, "tracker-width"), ==,
      "480");
  g_assert_cmpstr (value (d, GP_DS_ELEM_TRACKER, "tracker-height"), ==,
      "288");
  g_assert_nonnull (strstr (value (d, GP_DS_ELEM_TRACKER, "ll-config-file"),
          "config_tracker_NvDCF_max_perf.yml"));
  /* never a property nvtracker does not have */
  g_assert_null (gp_ds_derivation_find (d, GP_DS_ELEM_TRACKER,
          "enable-batch-process"));
  /* R5: 4 x 2 = 8 (the choice of docs/tuning.md, not the x4's 16) */
  g_assert_cmpstr (value (d, GP_DS_ELEM_QUEUE, "max-size-buffers"), ==, "8");
  g_assert_cmpstr (value (d, GP_DS_ELEM_QUEUE, "max-size-bytes"), ==, "0");
  g_assert_cmpstr (value (d, GP_DS_ELEM_QUEUE, "max-size-time"), ==, "0");
  /* R7: no ceiling given: nothing claimed */
  g_assert_cmpstr (value (d, GP_DS_ELEM_CAPACITY, "max-streams"), ==, "?");
  g_assert_null (d->limit);
  gp_ds_derivation_free (d);
}

/* batch from the streams when fewer than the plateau; the surface cap */
static void
test_final_batch (void)
{
  GpDsDeriveInput in = input (8, 2, "1280x720@25", "3x368x640");
  GpDsDerivation *d = gp_ds_derive (&in);

  /* min(8, 2) = 2; min(2, 5) = 2 surfaces; 1e6 / 25 = 40000; queue 2 x 2 */
  g_assert_cmpuint (d->final_batch, ==, 2);
  g_assert_cmpstr (value (d, GP_DS_ELEM_MUX, "batch-size"), ==, "2");
  g_assert_cmpstr (value (d, GP_DS_ELEM_PGIE, "batch-size"), ==, "2");
  g_assert_cmpstr (value (d, GP_DS_ELEM_DECODER, "num-extra-surfaces"), ==,
      "2");
  g_assert_cmpstr (value (d, GP_DS_ELEM_MUX, "batched-push-timeout"), ==,
      "40000");
  g_assert_cmpstr (value (d, GP_DS_ELEM_QUEUE, "max-size-buffers"), ==, "4");
  /* no tracker: no R4 values, interval still 0 (no detection holes) */
  g_assert_null (gp_ds_derivation_find (d, GP_DS_ELEM_TRACKER,
          "tracker-width"));
  g_assert_cmpstr (value (d, GP_DS_ELEM_PGIE, "interval"), ==, "0");
  gp_ds_derivation_free (d);

  /* min(16, 32) = 16; surfaces min(16, 5) = 5; 29.97 fps:
   * 1e6 x 1001 / 30000 = 33366.7 -> 33367 */
  in = input (16, 32, "1920x1080@30000/1001", "3x544x960");
  d = gp_ds_derive (&in);
  g_assert_cmpuint (d->final_batch, ==, 16);
  g_assert_cmpstr (value (d, GP_DS_ELEM_DECODER, "num-extra-surfaces"), ==,
      "5");
  g_assert_cmpstr (value (d, GP_DS_ELEM_MUX, "batched-push-timeout"), ==,
      "33367");
  gp_ds_derivation_free (d);
}

/* The muxer's size when the source is smaller than the model on an axis:
 * the skill says the model's size (Stage 0) or min(source, model) per axis
 * (R1).  Chosen: the model's aspect inside both. */
static void
test_mux_size_choice (void)
{
  GpDsDeriveInput in = input (4, 4, "640x480@30", "3x544x960");
  GpDsDerivation *d = gp_ds_derive (&in);

  /* f = min(1, 640/960, 480/544) = min(1, 0.667, 0.882) = 0.667:
   * 960 x 0.667 = 640, 544 x 0.667 = 362.7 -> 362 (even).  Per axis the
   * skill's R1 would give 640x480 (aspect 1.33 against the model's 1.76),
   * Stage 0 960x544 (an upscale) */
  g_assert_cmpstr (value (d, GP_DS_ELEM_MUX, "width"), ==, "640");
  g_assert_cmpstr (value (d, GP_DS_ELEM_MUX, "height"), ==, "362");
  gp_ds_derivation_free (d);

  /* a source larger on both axes: the model's size, as both rules say */
  in = input (4, 4, "3840x2160@30", "3x544x960");
  d = gp_ds_derive (&in);
  g_assert_cmpstr (value (d, GP_DS_ELEM_MUX, "width"), ==, "960");
  g_assert_cmpstr (value (d, GP_DS_ELEM_MUX, "height"), ==, "544");
  gp_ds_derivation_free (d);
  in = input (4, 4, "640x480@30", "3x544x960");
  in.tracker = TRUE;
  d = gp_ds_derive (&in);
  /* 480 x 480 / 640 = 360, ceil(360 / 32) = 12 -> 384 */
  g_assert_cmpstr (value (d, GP_DS_ELEM_TRACKER, "tracker-height"), ==,
      "384");
  gp_ds_derivation_free (d);
}

/* USE_NEW_NVSTREAMMUX=yes: the new muxer has no width, height, memory
 * type, padding or live-source (its config file sizes the output) */
static void
test_new_mux (void)
{
  GpDsDeriveInput in = input (4, 8, "1920x1080@30", "3x544x960");
  GpDsDerivation *d;

  in.new_mux = TRUE;
  d = gp_ds_derive (&in);
  g_assert_cmpstr (value (d, GP_DS_ELEM_MUX, "batch-size"), ==, "4");
  g_assert_cmpstr (value (d, GP_DS_ELEM_MUX, "batched-push-timeout"), ==,
      "33333");
  g_assert_null (gp_ds_derivation_find (d, GP_DS_ELEM_MUX, "width"));
  g_assert_null (gp_ds_derivation_find (d, GP_DS_ELEM_MUX, "height"));
  g_assert_null (gp_ds_derivation_find (d, GP_DS_ELEM_MUX,
          "nvbuf-memory-type"));
  g_assert_null (gp_ds_derivation_find (d, GP_DS_ELEM_MUX, "live-source"));
  gp_ds_derivation_free (d);
}

/* INT8 only with a calibration file that is there */
static void
test_precision (void)
{
  gchar *calib = NULL;
  gint fd = g_file_open_tmp ("gstprof-calib-XXXXXX.bin", &calib, NULL);
  GpDsDeriveInput in = input (4, 4, "1920x1080@30", "3x544x960");
  GpDsDerivation *d;

  g_assert_cmpint (fd, >=, 0);
  close (fd);
  in.int8_calib = calib;
  in.int8_calib_exists = TRUE;
  d = gp_ds_derive (&in);
  g_assert_cmpstr (value (d, GP_DS_ELEM_PGIE, "network-mode"), ==, "1");
  g_assert_cmpstr (value (d, GP_DS_ELEM_PGIE, "int8-calib-file"), ==, calib);
  gp_ds_derivation_free (d);
  in.int8_calib_exists = FALSE;
  d = gp_ds_derive (&in);
  g_assert_cmpstr (value (d, GP_DS_ELEM_PGIE, "network-mode"), ==, "2");
  g_assert_nonnull (strstr (gp_ds_derivation_find (d, GP_DS_ELEM_PGIE,
              "network-mode")->reason, calib));
  gp_ds_derivation_free (d);
  g_unlink (calib);
  g_free (calib);
}

/* R7: each ceiling, and the smallest one named */
static void
test_capacity (void)
{
  GpDsDeriveInput in = input (4, 8, "1920x1080@30", "3x544x960");
  GpDsDerivation *d;

  in.plateau_fps = 600;
  in.decode_fps = 480;
  in.gpu_mem_mib = 8000;
  d = gp_ds_derive (&in);
  /* compute 600 / 30 = 20; decode 480 / 30 = 16; memory: a stream holds
   * (16 + 4) x 1.5 x 1920 x 1080 = 62 208 000 B of decoder surfaces and
   * 4 x 1.5 x 960 x 544 = 3 133 440 B of the muxer's, 65 341 440 B =
   * 62.31 MiB; 8000 / 62.31 = 128.4 -> 128.  The least is decode's 16 */
  g_assert_cmpuint (d->ceil_compute, ==, 20);
  g_assert_cmpuint (d->ceil_decode, ==, 16);
  g_assert_cmpuint (d->ceil_memory, ==, 128);
  g_assert_cmpuint (d->max_streams, ==, 16);
  g_assert_cmpstr (d->limit, ==, "decode");
  gp_ds_derivation_free (d);
  /* 500 MiB: 500 / 62.31 = 8.02 -> 8 streams, memory caps */
  in.gpu_mem_mib = 500;
  d = gp_ds_derive (&in);
  g_assert_cmpuint (d->ceil_memory, ==, 8);
  g_assert_cmpstr (d->limit, ==, "memory");
  gp_ds_derivation_free (d);
  /* compute alone: 300 / 30 = 10 */
  in.gpu_mem_mib = in.decode_fps = NAN;
  in.plateau_fps = 300;
  d = gp_ds_derive (&in);
  g_assert_cmpuint (d->max_streams, ==, 10);
  g_assert_cmpstr (d->limit, ==, "compute");
  gp_ds_derivation_free (d);
}

static void
test_parse (void)
{
  guint a, b, c;
  gdouble f;

  g_assert_true (gp_ds_derive_parse_source ("1280x720@60", &a, &b, &f));
  g_assert_cmpuint (a, ==, 1280);
  g_assert_cmpuint (b, ==, 720);
  g_assert_cmpfloat (f, ==, 60);
  g_assert_false (gp_ds_derive_parse_source ("1280x720", &a, &b, &f));
  g_assert_false (gp_ds_derive_parse_source ("0x720@30", &a, &b, &f));
  g_assert_false (gp_ds_derive_parse_source ("1280x720@30/0", &a, &b, &f));
  g_assert_false (gp_ds_derive_parse_source ("1280x720@30fps", &a, &b, &f));
  g_assert_false (gp_ds_derive_parse_source ("-1x720@30", &a, &b, &f));
  g_assert_true (gp_ds_derive_parse_model ("3x544x960", &a, &b, &c));
  g_assert_cmpuint (b, ==, 544);
  g_assert_cmpuint (c, ==, 960);
  g_assert_false (gp_ds_derive_parse_model ("3;544;960", &a, &b, &c));
  g_assert_false (gp_ds_derive_parse_model ("544x960", &a, &b, &c));
}

static const GpDsChange *
change (GPtrArray * changes, const gchar * file_end, const gchar * group,
    const gchar * key)
{
  guint i;

  for (i = 0; i < changes->len; i++) {
    const GpDsChange *ch = g_ptr_array_index (changes, i);

    if (g_str_has_suffix (ch->file, file_end) && !strcmp (ch->group, group)
        && !strcmp (ch->key, key))
      return ch;
  }
  return NULL;
}

static void
check_change (GPtrArray * changes, const gchar * file_end,
    const gchar * group, const gchar * key, const gchar * old,
    const gchar * value)
{
  const GpDsChange *ch = change (changes, file_end, group, key);

  if (!ch)
    g_error ("no change of [%s] %s in %s", group, key, file_end);
  g_assert_cmpstr (ch->old, ==, old);
  g_assert_cmpstr (ch->value, ==, value);
  g_assert_true (ch->write);
}

static void
free_changes (GPtrArray * changes)
{
  guint i;

  for (i = 0; i < changes->len; i++)
    gp_ds_change_free (g_ptr_array_index (changes, i));
  g_ptr_array_unref (changes);
}

/* The real test5 deepstream-app configuration (2 RTSP sources, a tracker)
 * and dstest1's nvinfer file, read for what derive would change. */
static void
test_fixtures (void)
{
  gchar *app = gp_test_fixture_path ("telemetry",
      "deepstream_app_config_ds9_test5_dec_infer_tracker_sgie.txt");
  gchar *infer = app ? gp_test_fixture_path ("telemetry",
      "deepstream_nvinfer_pgie_config_ds9_dstest1.txt") : NULL;
  gchar *paths[3] = { app, infer, NULL };
  GpDsDeriveInput in = input (4, 8, "1920x1080@30", "3x544x960");
  GError *error = NULL;
  GpDsConfigs *c;
  GpDsDerivation *d;
  GPtrArray *ch;

  if (!infer) {
    g_free (app);
    return;
  }
  c = gp_ds_configs_load (paths, &error);
  g_assert_no_error (error);
  gp_ds_derive_scan (c, &in);
  /* [tracker] enable=1; [source0] type=4 (RTSP) */
  g_assert_true (in.tracker);
  g_assert_true (in.live);
  /* the nvinfer file names /opt/.../cal_trt.bin, not on this machine */
  g_assert_nonnull (in.int8_calib);
  d = gp_ds_derive (&in);
  ch = gp_ds_derive_changes (d, c);
  check_change (ch, "test5_dec_infer_tracker_sgie.txt", "streammux",
      "batch-size", "2", "4");
  check_change (ch, "test5_dec_infer_tracker_sgie.txt", "streammux",
      "width", "1920", "960");
  check_change (ch, "test5_dec_infer_tracker_sgie.txt", "streammux",
      "height", "1080", "544");
  check_change (ch, "test5_dec_infer_tracker_sgie.txt", "streammux",
      "batched-push-timeout", "40000", "33333");
  check_change (ch, "test5_dec_infer_tracker_sgie.txt", "streammux",
      "live-source", "0", "1");
  check_change (ch, "test5_dec_infer_tracker_sgie.txt", "primary-gie",
      "batch-size", "2", "4");
  check_change (ch, "test5_dec_infer_tracker_sgie.txt", "primary-gie",
      "model-engine-file", "/opt/nvidia/deepstream/deepstream/samples/"
      "models/Primary_Detector/resnet18_trafficcamnet_pruned.onnx_b2_gpu0_"
      "fp16.engine", "/opt/nvidia/deepstream/deepstream/samples/models/"
      "Primary_Detector/resnet18_trafficcamnet_pruned.onnx_b4_gpu0_fp16."
      "engine");
  check_change (ch, "test5_dec_infer_tracker_sgie.txt", "source0",
      "num-extra-surfaces", NULL, "4");
  check_change (ch, "test5_dec_infer_tracker_sgie.txt", "source1",
      "num-extra-surfaces", NULL, "4");
  check_change (ch, "test5_dec_infer_tracker_sgie.txt", "tracker",
      "tracker-width", "960", "480");
  check_change (ch, "test5_dec_infer_tracker_sgie.txt", "tracker",
      "tracker-height", "544", "288");
  /* the secondary's batch is its own: untouched */
  g_assert_null (change (ch, "test5_dec_infer_tracker_sgie.txt",
          "secondary-gie0", "batch-size"));
  check_change (ch, "dstest1.txt", "property", "batch-size", "1", "4");
  check_change (ch, "dstest1.txt", "property", "network-mode", "2", "2");
  check_change (ch, "dstest1.txt", "property", "infer-dims", NULL,
      "3;544;960");
  free_changes (ch);
  gp_ds_derivation_free (d);
  gp_ds_configs_free (c);
  g_free (app);
  g_free (infer);
}

/* enable-batch-process in a [tracker]: shown as ignored, never written */
static void
test_tracker_ignored (void)
{
  gchar *path = NULL;
  gint fd = g_file_open_tmp ("gstprof-app-XXXXXX.txt", &path, NULL);
  gchar *paths[2] = { path, NULL };
  const gchar *text = "[streammux]\nbatch-size=1\n[source0]\nenable=1\n"
      "type=3\n[source1]\nenable=0\ntype=4\n[tracker]\nenable=1\n"
      "tracker-width=640\nenable-batch-process=1\n";
  GpDsDeriveInput in = input (2, 2, "1280x720@30", "3x544x960");
  GpDsConfigs *c;
  GpDsDerivation *d;
  GPtrArray *ch;
  const GpDsChange *ebp;

  g_assert_cmpint (fd, >=, 0);
  close (fd);
  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  c = gp_ds_configs_load (paths, NULL);
  g_assert_nonnull (c);
  gp_ds_derive_scan (c, &in);
  /* source1 (RTSP) is disabled: not live */
  g_assert_false (in.live);
  g_assert_true (in.tracker);
  d = gp_ds_derive (&in);
  ch = gp_ds_derive_changes (d, c);
  ebp = change (ch, "", "tracker", "enable-batch-process");
  g_assert_nonnull (ebp);
  g_assert_false (ebp->write);
  g_assert_cmpstr (ebp->old, ==, "1");
  g_assert_nonnull (strstr (ebp->reason, "not an nvtracker property"));
  g_assert_null (change (ch, "", "source1", "num-extra-surfaces"));
  check_change (ch, "", "source0", "num-extra-surfaces", NULL, "2");
  check_change (ch, "", "tracker", "tracker-width", "640", "480");
  free_changes (ch);
  gp_ds_derivation_free (d);
  gp_ds_configs_free (c);
  g_unlink (path);
  g_free (path);
}

/* The real YAML files: a test app's streammux, a tracker group holding
 * enable-batch-process, an nvinfer YAML */
static void
test_fixtures_yaml (void)
{
  gchar *app = gp_test_fixture_path ("telemetry",
      "deepstream_testapp_pipeline_config_ds9_dstest3.yml");
  gchar *trk = app ? gp_test_fixture_path ("telemetry",
      "deepstream_parallel_infer_tracker0_enable_batch_process.yml") : NULL;
  gchar *infer = trk ? gp_test_fixture_path ("telemetry",
      "deepstream_nvinfer_pgie_config_ds9_dstest1.yml") : NULL;
  gchar *paths[4] = { app, trk, infer, NULL };
  GpDsDeriveInput in = input (4, 8, "1920x1080@30", "3x544x960");
  GError *error = NULL;
  const GpDsChange *ebp;
  GpDsConfigs *c;
  GpDsDerivation *d;
  GPtrArray *ch;

  if (!infer) {
    g_free (app);
    g_free (trk);
    return;
  }
  c = gp_ds_configs_load (paths, &error);
  g_assert_no_error (error);
  gp_ds_derive_scan (c, &in);
  g_assert_true (in.tracker);
  d = gp_ds_derive (&in);
  ch = gp_ds_derive_changes (d, c);
  check_change (ch, "dstest3.yml", "streammux", "batch-size", "1", "4");
  check_change (ch, "dstest3.yml", "streammux", "width", "1920", "960");
  check_change (ch, "dstest3.yml", "streammux", "batched-push-timeout",
      "40000", "33333");
  check_change (ch, "enable_batch_process.yml", "tracker", "tracker-width",
      "640", "480");
  check_change (ch, "enable_batch_process.yml", "tracker",
      "tracker-height", "384", "288");
  ebp = change (ch, "enable_batch_process.yml", "tracker",
      "enable-batch-process");
  g_assert_nonnull (ebp);
  g_assert_false (ebp->write);
  check_change (ch, "dstest1.yml", "property", "batch-size", "1", "4");
  check_change (ch, "dstest1.yml", "property", "model-engine-file",
      "/opt/nvidia/deepstream/deepstream/samples/models/Primary_Detector/"
      "resnet18_trafficcamnet_pruned.onnx_b1_gpu0_fp16.engine",
      "/opt/nvidia/deepstream/deepstream/samples/models/Primary_Detector/"
      "resnet18_trafficcamnet_pruned.onnx_b4_gpu0_fp16.engine");
  free_changes (ch);
  gp_ds_derivation_free (d);
  gp_ds_configs_free (c);
  g_free (app);
  g_free (trk);
  g_free (infer);
}

static gchar *
run_derive (const gchar * args, gint * status)
{
  gchar *cmd = g_strdup_printf ("%s ds derive --plateau 4 --streams 8 "
      "--source 1920x1080@30 --model 3x544x960 %s", g_getenv ("GSTPROF_BIN"),
      args);
  gchar *out = NULL;

  g_assert_true (g_spawn_command_line_sync (cmd, &out, NULL, status, NULL));
  g_free (cmd);
  return out;
}

/* Every line of @before is in @after unless it holds one of @keys. */
static void
check_only_keys (const gchar * before, const gchar * after,
    const gchar * const *keys)
{
  gchar **a = g_strsplit (before, "\n", -1), **b = g_strsplit (after, "\n",
      -1);
  guint i, k;

  for (i = 0; a[i]; i++) {
    gboolean keyed = FALSE;

    if (g_strv_contains ((const gchar * const *) b, a[i]))
      continue;
    for (k = 0; keys[k]; k++)
      keyed |= strstr (a[i], keys[k]) != NULL;
    if (!keyed)
      g_error ("line '%s' changed", a[i]);
  }
  g_strfreev (a);
  g_strfreev (b);
}

/* --write on copies of the fixtures: the derived values in place, a
 * backup of each file as it was, nothing else changed, enable-batch-process
 * left; a second --write writes nothing */
static void
test_write (void)
{
  static const gchar *const names[] = {
    "deepstream_app_config_ds9_test5_dec_infer_tracker_sgie.txt",
    "deepstream_nvinfer_pgie_config_ds9_dstest1.yml",
    "deepstream_parallel_infer_tracker0_enable_batch_process.yml",
  };
  static const gchar *const keys[] = { "batch-size", "width", "height",
    "batched-push-timeout", "live-source", "model-engine-file",
    "ll-config-file", "infer-dims", "enable-padding", "cudadec-memtype",
    "num-extra-surfaces", NULL
  };
  gchar *dir = g_dir_make_tmp ("gstprof-derive-XXXXXX", NULL);
  gchar *copies[G_N_ELEMENTS (names) + 1] = { NULL };
  gchar *orig[G_N_ELEMENTS (names)] = { NULL };
  GString *args = g_string_new ("--write");
  GpDsDeriveInput in = input (4, 8, "1920x1080@30", "3x544x960");
  GpDsConfigs *c;
  GpDsDerivation *d;
  GPtrArray *ch;
  gchar *out, *text, *bak;
  gint status = 0;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (names); i++) {
    gchar *src = gp_test_fixture_path ("telemetry", names[i]);

    if (!src)
      goto done;
    g_assert_true (g_file_get_contents (src, &orig[i], NULL, NULL));
    copies[i] = g_build_filename (dir, names[i], NULL);
    g_assert_true (g_file_set_contents (copies[i], orig[i], -1, NULL));
    g_string_append_printf (args, " %s", copies[i]);
    g_free (src);
  }
  out = run_derive (args->str, &status);
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
  for (i = 0; i < G_N_ELEMENTS (names); i++) {
    g_assert_nonnull (strstr (out, copies[i]));
    bak = g_strconcat (copies[i], ".bak", NULL);
    g_assert_true (g_file_get_contents (bak, &text, NULL, NULL));
    g_assert_cmpstr (text, ==, orig[i]);
    g_free (text);
    g_free (bak);
    g_assert_true (g_file_get_contents (copies[i], &text, NULL, NULL));
    check_only_keys (orig[i], text, keys);
    g_free (text);
  }
  g_free (out);
  /* read back: every writable value is the derived one */
  c = gp_ds_configs_load (copies, NULL);
  g_assert_nonnull (c);
  gp_ds_derive_scan (c, &in);
  d = gp_ds_derive (&in);
  ch = gp_ds_derive_changes (d, c);
  for (i = 0; i < ch->len; i++) {
    const GpDsChange *x = g_ptr_array_index (ch, i);

    if (x->write)
      g_assert_cmpstr (x->old, ==, x->value);
    else
      g_assert_cmpstr (x->old, ==, "1");        /* enable-batch-process */
  }
  free_changes (ch);
  gp_ds_derivation_free (d);
  gp_ds_configs_free (c);
  /* twice: nothing to write, the backups still the originals */
  out = run_derive (args->str, &status);
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
  g_assert_nonnull (strstr (out, "nothing to write"));
  g_free (out);
  for (i = 0; i < G_N_ELEMENTS (names); i++) {
    bak = g_strconcat (copies[i], ".bak", NULL);
    g_assert_true (g_file_get_contents (bak, &text, NULL, NULL));
    g_assert_cmpstr (text, ==, orig[i]);
    g_unlink (bak);
    g_free (text);
    g_free (bak);
  }

done:
  for (i = 0; i < G_N_ELEMENTS (names); i++) {
    if (copies[i])
      g_unlink (copies[i]);
    g_free (copies[i]);
    g_free (orig[i]);
  }
  g_rmdir (dir);
  g_free (dir);
  g_string_free (args, TRUE);
}

/* the binary: one line naming the argument, exit 3 */
static void
check_refused (const gchar * args, const gchar * line)
{
  const gchar *bin = g_getenv ("GSTPROF_BIN");
  gchar *cmd, *out = NULL, *err = NULL;
  gint status = 0;

  g_assert_nonnull (bin);
  cmd = g_strdup_printf ("%s ds derive %s", bin, args);
  g_assert_true (g_spawn_command_line_sync (cmd, &out, &err, &status, NULL));
  g_test_message ("%s: %s", cmd, err);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 3);
  g_assert_cmpstr (out, ==, "");
  g_assert_true (g_str_has_prefix (err, "gstprof ds derive: "));
  g_assert_nonnull (strstr (err, line));
  /* one line */
  g_assert_cmpint (strchr (err, '\n') - err, ==, strlen (err) - 1);
  g_free (out);
  g_free (err);
  g_free (cmd);
}

static void
test_refused (void)
{
  const gchar *ok = "--streams 8 --source 1920x1080@30 --model 3x544x960";

  check_refused (ok, "--plateau is needed");
  check_refused ("--plateau 0 --streams 8 --source 1920x1080@30 "
      "--model 3x544x960", "--plateau: '0' is not a whole number");
  check_refused ("--plateau 4 --streams many --source 1920x1080@30 "
      "--model 3x544x960", "--streams: 'many' is not a whole number");
  check_refused ("--plateau 4 --streams 8 --source 1080p "
      "--model 3x544x960", "--source: '1080p' is not WIDTHxHEIGHT@FPS");
  check_refused ("--plateau 4 --streams 8 --source 1920x1080@30 "
      "--model 960x544", "--model: '960x544' is not CxHxW");
  check_refused ("--plateau 4 --streams 8 --source 1920x1080@30 "
      "--model 3x544x960 --gpu-mem -5", "--gpu-mem: '-5' is not a number");
  check_refused ("--plateau 4 --streams 8 --source 1920x1080@30 "
      "--model 3x544x960 /nonexistent/app.txt", "/nonexistent/app.txt");
  check_refused ("--plateau 4 --streams 8 --source 1920x1080@30 "
      "--model 3x544x960 --write", "--write: no configuration file given");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ds/derive/worked-1080p", test_worked_1080p);
  g_test_add_func ("/ds/derive/final-batch", test_final_batch);
  g_test_add_func ("/ds/derive/mux-size-choice", test_mux_size_choice);
  g_test_add_func ("/ds/derive/new-mux", test_new_mux);
  g_test_add_func ("/ds/derive/precision", test_precision);
  g_test_add_func ("/ds/derive/capacity", test_capacity);
  g_test_add_func ("/ds/derive/parse", test_parse);
  g_test_add_func ("/ds/derive/fixtures", test_fixtures);
  g_test_add_func ("/ds/derive/fixtures-yaml", test_fixtures_yaml);
  g_test_add_func ("/ds/derive/tracker-ignored", test_tracker_ignored);
  g_test_add_func ("/ds/derive/write", test_write);
  g_test_add_func ("/ds/derive/refused", test_refused);
  return g_test_run ();
}
