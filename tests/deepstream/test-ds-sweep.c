/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof tests
 *
 * test-ds-sweep.c: `gstprof ds sweep` (src/deepstream/gp-ds-sweep) on CPU
 * pipelines whose plateau is known by construction, run in this process
 * under the gstprof tracer:
 *
 *   audiotestsrc is-live=true samplesperbuffer={batch}
 *     ! audio/x-raw,rate=300 ! identity sleep-time=10000 ! fakesink
 *
 * A "frame" is a sample and a batch is a buffer of {batch} of them. The
 * live source makes 300 frames/s whatever the batch; identity sleeps
 * 10 ms per buffer, so at most 100 buffers/s pass. The truth: aggregate =
 * min (100 x B, 300) frames/s: 100, 200, 300, 300 for B = 1, 2, 4, 8, so
 * the plateau is B = 4 (+50 % from 2 to 4, +0 % from 4 to 8). A sleep's
 * overshoot on a loaded machine lowers the 100 x B side: its truth is
 * 1000 / (10 ms + the oversleep of a 10 ms sleep timed here) x B
 * (sleep_truth). Sleeps, not CPU work: the result holds on a loaded 2-core
 * machine.
 */
#include <math.h>
#include <string.h>

#include <glib/gstdio.h>
#include <gst/gst.h>

#include "deepstream/gp-ds-sweep.h"
#include "gp-test-util.h"

/* Buffers per second through identity sleep-time=10000 on this machine
 * now: 1000 ms over the sleep as the machine gives it. */
static gdouble
sleep_truth (void)
{
  return 1000.0 / (10.0 + gp_test_oversleep_ms (10.0));
}

#define SWEEP_TEMPLATE "audiotestsrc is-live=true samplesperbuffer={batch} " \
  "! audio/x-raw,rate=300,channels=1 ! identity sleep-time=10000 " \
  "! fakesink sync=false"

static void
test_plateau (void)
{
  GArray *batches = gp_ds_sweep_parse_batches ("1,2,4,8", NULL);
  GError *err = NULL;
  GArray *rows;
  const GpDsSweepRow *r;
  static const gdouble nominal[] = { 100, 200, 300, 300 };
  gdouble per_buffer;
  guint i;

  if (!gp_test_have_tracer ())
    return;
  rows = gp_ds_sweep_run (SWEEP_TEMPLATE, batches, 0, 2.5, NULL, NULL,
      &err);
  g_assert_no_error (err);
  g_assert_cmpuint (rows->len, ==, 4);
  r = (const GpDsSweepRow *) rows->data;
  per_buffer = sleep_truth ();
  for (i = 0; i < rows->len; i++) {
    gdouble truth = MIN (per_buffer * r[i].batch, 300.0);

    g_test_message ("batch %u: %.1f fps (truth %.1f, %.0f nominal)",
        r[i].batch, r[i].aggregate_fps, truth, nominal[i]);
    g_assert_cmpint (r[i].state, ==, GP_DS_SWEEP_RAN);
    /* the sleep as timed here, not during the run: 10 % for the load's
     * moves between the two */
    g_assert_cmpfloat (r[i].aggregate_fps, >, truth * 0.90);
    g_assert_cmpfloat (r[i].aggregate_fps, <, nominal[i] * 1.03);
    g_assert_cmpfloat (r[i].per_stream_fps, ==, r[i].aggregate_fps);
  }
  g_assert_cmpint (gp_ds_sweep_plateau (r, rows->len, GP_DS_SWEEP_GAIN), ==,
      2);
  {
    gchar *table = gp_ds_sweep_table (r, rows->len, 0);

    g_assert_nonnull (strstr (table, "plateau batch: 4"));
    g_free (table);
  }
  gp_ds_sweep_rows_free (rows);
  g_array_unref (batches);
}

/* --streams 2: batch 4 skipped, per stream = aggregate / 2; a batch whose
 * pipeline fails (channels={batch} against channels=1: not negotiated for
 * B = 2) is a row, not the end of the sweep. */
static void
test_streams_failure (void)
{
  GArray *batches = gp_ds_sweep_parse_batches ("1,2,4", NULL);
  GError *err = NULL;
  GArray *rows;
  const GpDsSweepRow *r;

  if (!gp_test_have_tracer ())
    return;
  rows = gp_ds_sweep_run ("audiotestsrc is-live=true samplesperbuffer=3 "
      "! audio/x-raw,rate=300,channels={batch} ! identity sleep-time=10000 "
      "! audio/x-raw,channels=1 ! fakesink sync=false", batches, 2, 2.5,
      NULL, NULL, &err);
  g_assert_no_error (err);
  r = (const GpDsSweepRow *) rows->data;
  g_assert_cmpint (r[0].state, ==, GP_DS_SWEEP_RAN);
  /* 3 frames a buffer at 100 buffers/s: 300 frames/s is the source's
   * rate too, so 300 x batch 1 */
  g_assert_cmpfloat (r[0].aggregate_fps, >, sleep_truth () * 0.90);
  g_assert_cmpfloat_with_epsilon (r[0].per_stream_fps,
      r[0].aggregate_fps / 2, 1e-9);
  g_assert_cmpint (r[1].state, ==, GP_DS_SWEEP_FAILED);
  g_assert_nonnull (r[1].why);
  g_assert_cmpint (r[2].state, ==, GP_DS_SWEEP_SKIPPED);
  g_assert_nonnull (strstr (r[2].why, "above --streams 2"));
  g_assert_cmpint (gp_ds_sweep_plateau (r, rows->len, GP_DS_SWEEP_GAIN), ==,
      -1);
  gp_ds_sweep_rows_free (rows);
  g_array_unref (batches);
}

static void
test_pure (void)
{
  GError *err = NULL;
  gchar *s;
  GpDsSweepRow rows[4] = {
    {1, GP_DS_SWEEP_RAN, 100, 100, NULL},
    {2, GP_DS_SWEEP_FAILED, NAN, NAN, (gchar *) "x"},
    {4, GP_DS_SWEEP_RAN, 190, 190, NULL},
    {8, GP_DS_SWEEP_RAN, 199, 199, NULL},
  };

  s = gp_ds_sweep_substitute ("mux batch-size={batch} ! x n={streams} "
      "b={batch}", 8, 3, &err);
  g_assert_cmpstr (s, ==, "mux batch-size=8 ! x n=3 b=8");
  g_free (s);
  g_assert_null (gp_ds_sweep_substitute ("no batch", 1, 1, &err));
  g_assert_nonnull (strstr (err->message, "{batch}"));
  g_clear_error (&err);
  g_assert_null (gp_ds_sweep_parse_batches ("1,4,2", &err));
  g_assert_nonnull (strstr (err->message, "'2'"));
  g_clear_error (&err);
  g_assert_null (gp_ds_sweep_parse_batches ("1,x", &err));
  g_clear_error (&err);
  g_assert_null (gp_ds_sweep_parse_batches ("0", &err));
  g_clear_error (&err);
  /* 4 -> 8: +4.7 %, under 5 %: the plateau is 4 (a failed 2 passed over) */
  g_assert_cmpint (gp_ds_sweep_plateau (rows, 4, GP_DS_SWEEP_GAIN), ==, 2);
  /* the words CUDA, TensorRT and GLib fail with */
  g_assert_true (gp_ds_sweep_oom_text ("Cuda failure: status=2 "
          "cudaErrorMemoryAllocation"));
  g_assert_true (gp_ds_sweep_oom_text ("CUDA_ERROR_OUT_OF_MEMORY"));
  g_assert_true (gp_ds_sweep_oom_text ("[TRT]: Requested amount of GPU "
          "memory could not be allocated: out of memory"));
  g_assert_false (gp_ds_sweep_oom_text ("Internal data stream error."));
}

/* The GPU memory cap: the used memory of the last two measured batches
 * extrapolated. 2000 MiB at batch 1 and 3000 at 2 are 1000 a batch: batch
 * 4 needs 5000 of 8000 (under 90 %: 7200), batch 8 9000 (over). With one
 * measured batch, or none sampled, nothing is capped. */
static void
test_memory_cap (void)
{
  GpDsSweepRow rows[3] = {
    {1, GP_DS_SWEEP_RAN, 100, 100, NULL, 2000, 8000},
    {2, GP_DS_SWEEP_FAILED, NAN, NAN, (gchar *) "x", NAN, NAN},
    {2, GP_DS_SWEEP_RAN, 190, 190, NULL, 3000, 8000},
  };
  gchar *why = NULL;

  g_assert_true (gp_ds_sweep_memory_fits (rows, 3, 4, &why));
  g_assert_null (why);
  g_assert_false (gp_ds_sweep_memory_fits (rows, 3, 8, &why));
  g_assert_cmpstr (why, ==, "would need about 9000 MiB of the GPU's 8000 "
      "(1000 MiB a batch, from batches 1 and 2; over 90 %)");
  g_free (why);
  why = NULL;
  /* one measured batch: nothing to extrapolate */
  g_assert_true (gp_ds_sweep_memory_fits (rows, 2, 64, &why));
  /* no memory sampled (no nvidia-smi): nothing capped */
  rows[0].gpu_mem_mib = rows[2].gpu_mem_mib = NAN;
  g_assert_true (gp_ds_sweep_memory_fits (rows, 3, 64, &why));
  g_assert_null (why);
}

/* the binary's refusals: one line, exit 3, before anything runs */
static void
test_cli_usage (void)
{
  GpTestRun r;

  gp_test_run_gstprof (&r, NULL, "ds", "sweep", "fakesrc ! fakesink", NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, "no {batch}");
  gp_test_run_clear (&r);
  gp_test_run_gstprof (&r, NULL, "ds", "sweep", "--batches", "2,1",
      SWEEP_TEMPLATE, NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, "--batches: '1'");
  gp_test_run_clear (&r);
  gp_test_run_gstprof (&r, NULL, "ds", "sweep", "--duration", "x",
      SWEEP_TEMPLATE, NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, "--duration");
  gp_test_run_clear (&r);
  gp_test_run_gstprof (&r, NULL, "ds", "sweep", "-o", "sweep.jpg",
      SWEEP_TEMPLATE, NULL);
  g_assert_cmpint (r.code, ==, 3);
  gp_test_assert_one_line (r.err, "-o: ");
  gp_test_run_clear (&r);
}

/* -o: the table, then the chart as a PNG file (what it shows is
 * tests/plot's /plot/xy) */
static void
test_cli_chart (void)
{
  gchar *dir, *png, *data = NULL;
  gsize len = 0;
  GpTestRun r;

  if (!gp_test_have_tracer ())
    return;
  dir = g_dir_make_tmp ("gp-ds-sweep-XXXXXX", NULL);
  png = g_build_filename (dir, "sweep.png", NULL);
  gp_test_run_gstprof (&r, NULL, "ds", "sweep", "--batches", "1,2",
      "--duration", "1s", "-o", png, SWEEP_TEMPLATE, NULL);
  gp_test_message_text (r.out);
  g_assert_cmpint (r.code, ==, 0);
  g_assert_nonnull (strstr (r.out, "wrote "));
  g_assert_true (g_file_get_contents (png, &data, &len, NULL));
  g_assert_cmpuint (len, >, 1000);
  g_assert_cmpint (memcmp (data, "\x89PNG\r\n\x1a\n", 8), ==, 0);
  gp_test_run_clear (&r);
  g_unlink (png);
  g_rmdir (dir);
  g_free (data);
  g_free (png);
  g_free (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ds-sweep/pure", test_pure);
  g_test_add_func ("/ds-sweep/memory-cap", test_memory_cap);
  g_test_add_func ("/ds-sweep/cli-usage", test_cli_usage);
  g_test_add_func ("/ds-sweep/cli-chart", test_cli_chart);
  g_test_add_func ("/ds-sweep/plateau", test_plateau);
  g_test_add_func ("/ds-sweep/streams-failure", test_streams_failure);
  return g_test_run ();
}
