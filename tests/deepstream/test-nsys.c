/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof tests: src/deepstream/gp-nsys.c against every nsys stats fixture
 * of tests/fixtures/telemetry (values read by hand from the files),
 * the NVTX names' normalisation and the rows added up again, bad input. */
#include <math.h>
#include <string.h>

#include "deepstream/gp-nsys.h"
#include "gp-test-fixtures.h"

static GpNsysStats *
load (const gchar * name, const gchar * hint)
{
  gchar *path = gp_test_fixture_path ("telemetry", name), *text;
  GError *err = NULL;
  GpNsysStats *s;
  gsize len;

  if (path == NULL)
    return NULL;
  g_assert_true (g_file_get_contents (path, &text, &len, NULL));
  s = gp_nsys_parse (text, len, hint, name, &err);
  g_assert_no_error (err);
  g_assert_nonnull (s);
  g_free (text);
  g_free (path);
  return s;
}

static const GpNsysRow *
row (const GpNsysTable * t, guint i)
{
  g_assert_cmpuint (i, <, t->rows->len);
  return g_ptr_array_index (t->rows, i);
}

/* nsys 2022.4.1, old name nvtxsum, alignment lost (single spaces) */
static void
test_nvtxsum_2022 (void)
{
  g_autoptr (GpNsysStats) s =
      load ("nsys_stats_2022.4.1_nvtxsum_tensorrt_ranges.txt", NULL);
  const GpNsysTable *t;

  if (s == NULL)
    return;
  g_assert_cmpuint (s->tables->len, ==, 1);
  t = gp_nsys_stats_find (s, "nvtx_sum");
  g_assert_nonnull (t);
  g_assert_cmpstr (t->printed, ==, "nvtxsum");
  g_assert_cmpint (t->form, ==, GP_NSYS_FORM_COLUMN);
  g_assert_cmpuint (t->n_columns, ==, 10);
  g_assert_cmpstr (t->columns[1], ==, "Total Time (ns)");
  g_assert_cmpstr (t->columns[8], ==, "Style");
  g_assert_cmpint (gp_nsys_table_column (t, "Range"), ==, 9);
  g_assert_cmpuint (t->rows->len, ==, 6);
  g_assert_cmpstr (row (t, 0)->name, ==, "ENC:run");
  g_assert_cmpstr (row (t, 0)->style, ==, "StartEnd");
  g_assert_cmpfloat (row (t, 0)->total, ==, 443864089899.0);
  g_assert_cmpfloat (row (t, 0)->count, ==, 29272);
  g_assert_cmpfloat (row (t, 0)->share_pct, ==, 16.6);
  g_assert_cmpstr (row (t, 1)->name, ==, "TensorRT:ExecutionContext::enqueue");
  g_assert_cmpfloat (row (t, 1)->min, ==, 5190);
  g_assert_cmpstr (row (t, 4)->name, ==, "DEC: run");
  g_assert_cmpfloat (row (t, 4)->total, ==, 320069221511.0);
  g_assert_cmpfloat (row (t, 5)->stddev, ==, 909296.1);
}

/* nsys 2023.1.2 console output: SKIPPED nvtx, osrt, api, kernels, memops
 * by time (old op names) and size, SKIPPED openmp */
static void
test_column_2023 (void)
{
  g_autoptr (GpNsysStats) s =
      load ("nsys_stats_column_2023.1.2_osrt_cudaapi_kern_mem.txt", NULL);
  const GpNsysTable *t;

  if (s == NULL)
    return;
  g_assert_cmpuint (s->tables->len, ==, 7);
  t = gp_nsys_stats_find (s, "nvtx_sum");
  g_assert_nonnull (t->skipped);
  g_assert_true (strstr (t->skipped, "NV Tools Extension") != NULL);
  g_assert_cmpuint (t->rows->len, ==, 0);
  t = gp_nsys_stats_find (s, "osrt_sum");
  g_assert_cmpuint (t->rows->len, ==, 6);
  g_assert_cmpstr (row (t, 0)->name, ==, "poll");
  g_assert_cmpfloat (row (t, 0)->total, ==, 4706607597.0);
  g_assert_cmpfloat (row (t, 0)->count, ==, 58);
  g_assert_cmpfloat (row (t, 0)->avg, ==, 81148406.8);
  g_assert_cmpstr (row (t, 5)->name, ==, "pthread_create");
  t = gp_nsys_stats_find (s, "cuda_api_sum");
  g_assert_cmpuint (t->rows->len, ==, 6);
  g_assert_cmpstr (row (t, 1)->name, ==, "cudaMemcpy");
  g_assert_cmpfloat (row (t, 1)->total, ==, 29416070);
  g_assert_cmpfloat (row (t, 1)->count, ==, 8);
  t = gp_nsys_stats_find (s, "cuda_gpu_kern_sum");
  g_assert_cmpuint (t->rows->len, ==, 2);
  g_assert_cmpstr (row (t, 0)->name, ==,
      "mult_square_matrix(int *, int *, int *, int)");
  g_assert_cmpfloat (row (t, 0)->total, ==, 24472143);
  g_assert_cmpfloat (row (t, 1)->count, ==, 2);
  g_assert_cmpfloat (row (t, 1)->stddev, ==, 293.4);
  t = gp_nsys_stats_find (s, "cuda_gpu_mem_time_sum");
  g_assert_cmpuint (t->rows->len, ==, 2);
  g_assert_cmpstr (row (t, 0)->name, ==, "[CUDA memcpy Host-to-Device]");
  g_assert_cmpstr (row (t, 0)->cells[8], ==, "[CUDA memcpy HtoD]");
  g_assert_cmpfloat (row (t, 0)->total, ==, 2097125);
  g_assert_cmpfloat (row (t, 0)->count, ==, 5);
  g_assert_cmpstr (row (t, 1)->name, ==, "[CUDA memcpy Device-to-Host]");
  t = gp_nsys_stats_find (s, "cuda_gpu_mem_size_sum");
  g_assert_cmpuint (t->rows->len, ==, 2);
  g_assert_cmpfloat (row (t, 0)->total, ==, 21.218);
  g_assert_cmpfloat (row (t, 1)->total, ==, 12.731);
  g_assert_cmpstr (row (t, 1)->name, ==, "[CUDA memcpy Device-to-Host]");
  g_assert_nonnull (gp_nsys_stats_find (s, "openmp_sum")->skipped);
}

/* nsys 2025.3.2: ':'-prefixed default-domain ranges, a kernel name cut
 * with '…', new op names */
static void
test_column_2025 (void)
{
  g_autoptr (GpNsysStats) s =
      load ("nsys_stats_column_2025.3.2_nvtx_cudaapi_kern_mem.txt", NULL);
  const GpNsysTable *t;
  gchar *d = NULL, *m = NULL, *n;

  if (s == NULL)
    return;
  t = gp_nsys_stats_find (s, "nvtx_sum");
  g_assert_null (t->skipped);
  g_assert_cmpuint (t->rows->len, ==, 5);
  g_assert_cmpstr (row (t, 0)->name, ==, ":sample_actions_iter_0_num_steps_10");
  g_assert_cmpstr (row (t, 0)->style, ==, "PushPop");
  g_assert_cmpfloat (row (t, 0)->total, ==, 23518204);
  g_assert_cmpfloat (row (t, 4)->total, ==, 21805076);
  n = gp_nsys_nvtx_normalise (row (t, 0)->name, 0, &d, &m);
  g_assert_cmpstr (n, ==, "sample_actions_iter_0_num_steps_10");
  g_assert_cmpstr (d, ==, "");
  g_free (n);
  g_free (d);
  g_free (m);
  g_assert_nonnull (gp_nsys_stats_find (s, "osrt_sum")->skipped);
  t = gp_nsys_stats_find (s, "cuda_api_sum");
  g_assert_cmpuint (t->rows->len, ==, 7);
  g_assert_cmpstr (row (t, 0)->name, ==, "cudaStreamSynchronize");
  g_assert_cmpfloat (row (t, 0)->total, ==, 93250733);
  g_assert_cmpfloat (row (t, 2)->count, ==, 105);
  t = gp_nsys_stats_find (s, "cuda_gpu_kern_sum");
  g_assert_cmpuint (t->rows->len, ==, 1);
  g_assert_true (row (t, 0)->truncated);
  g_assert_true (g_str_has_prefix (row (t, 0)->name,
          "void at::native::<unnamed>::multi_tensor_apply_kernel<"));
  g_assert_cmpfloat (row (t, 0)->total, ==, 82112);
  g_assert_cmpfloat (row (t, 0)->count, ==, 45);
  t = gp_nsys_stats_find (s, "cuda_gpu_mem_time_sum");
  g_assert_cmpstr (row (t, 0)->name, ==, "[CUDA memcpy Device-to-Device]");
  g_assert_cmpfloat (row (t, 0)->total, ==, 76064);
  g_assert_cmpfloat (row (t, 1)->count, ==, 55);
  t = gp_nsys_stats_find (s, "cuda_gpu_mem_size_sum");
  g_assert_cmpfloat (row (t, 0)->total, ==, 9.067);
  g_assert_cmpfloat (row (t, 0)->max, ==, 0.602);
}

/* nsys 2024.1.1 --format csv: preamble lines, unquoted */
static void
test_csv_2024 (void)
{
  g_autoptr (GpNsysStats) s = load ("nsys_stats_csv_2024.1.1_nvtx_sum.txt",
      NULL);
  const GpNsysTable *t;

  if (s == NULL)
    return;
  g_assert_cmpuint (s->tables->len, ==, 1);
  t = gp_nsys_stats_find (s, "nvtx_sum");
  g_assert_cmpint (t->form, ==, GP_NSYS_FORM_CSV);
  g_assert_cmpuint (t->rows->len, ==, 8);
  g_assert_cmpstr (row (t, 0)->name, ==, "step_0");
  g_assert_cmpfloat (row (t, 0)->total, ==, 1631355508);
  g_assert_cmpstr (row (t, 1)->name, ==, "data_load");
  g_assert_cmpfloat (row (t, 1)->count, ==, 50);
  g_assert_cmpfloat (row (t, 1)->med, ==, 22240097.0);
  g_assert_cmpstr (row (t, 7)->name, ==, "step_2");
  g_assert_cmpfloat (row (t, 7)->total, ==, 33315513);
}

/* nsys 2025.1.1 --format table, nvtx_pushpop_sum (no Style), NOTICE */
static void
test_table_2025 (void)
{
  g_autoptr (GpNsysStats) s =
      load ("nsys_stats_table_2025.1.1_nvtx_pushpop_sum.txt", NULL);
  const GpNsysTable *t;

  if (s == NULL)
    return;
  g_assert_cmpuint (s->tables->len, ==, 1);
  t = gp_nsys_stats_find (s, "nvtx_sum");
  g_assert_cmpstr (t->report, ==, "nvtx_pushpop_sum");
  g_assert_cmpint (t->form, ==, GP_NSYS_FORM_TABLE);
  g_assert_cmpuint (t->n_columns, ==, 9);
  g_assert_cmpuint (t->rows->len, ==, 1);
  g_assert_cmpstr (row (t, 0)->name, ==, "NCCL:ncclAllGather");
  g_assert_null (row (t, 0)->style);
  g_assert_cmpfloat (row (t, 0)->total, ==, 281774344);
  g_assert_cmpfloat (row (t, 0)->count, ==, 8392);
  g_assert_cmpfloat (row (t, 0)->max, ==, 151701);
}

static void
test_normalise (void)
{
  static const gchar *const cases[][4] = {
    /* label, normalised (UID kept), domain, message */
    {"GstNvInfer: UID=1:buffer_process batch_num=123",
        "GstNvInfer: UID=1:buffer_process batch_num=N", "GstNvInfer: UID=1",
        "buffer_process batch_num=N"},
    {":nvdsosd0_(Frame=77)", "nvdsosd0_(Frame=N)", "", "nvdsosd0_(Frame=N)"},
    {"nvdsosd0_(Frame=77)", "nvdsosd0_(Frame=N)", "", "nvdsosd0_(Frame=N)"},
    {":tracker_nvtracker_process(SubBatchId=2 Frame=9)",
        "tracker_nvtracker_process(SubBatchId=N Frame=N)", "",
        "tracker_nvtracker_process(SubBatchId=N Frame=N)"},
    {"TensorRT:ExecutionContext::enqueue",
        "TensorRT:ExecutionContext::enqueue", "TensorRT",
        "ExecutionContext::enqueue"},
    {"Dali::WaitForFreeBufIndexes", "Dali::WaitForFreeBufIndexes", "",
        "Dali::WaitForFreeBufIndexes"},
    {"m_collectingBuffers(Batch=12)", "m_collectingBuffers(Batch=N)", "",
        "m_collectingBuffers(Batch=N)"},
    {"GstNvDsPreProcess: UID=15:convert_buf batch_num=4",
        "GstNvDsPreProcess: UID=15:convert_buf batch_num=N",
        "GstNvDsPreProcess: UID=15", "convert_buf batch_num=N"},
  };
  guint i;
  gchar *n, *d, *m;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    n = gp_nsys_nvtx_normalise (cases[i][0], 0, &d, &m);
    g_assert_cmpstr (n, ==, cases[i][1]);
    g_assert_cmpstr (d, ==, cases[i][2]);
    g_assert_cmpstr (m, ==, cases[i][3]);
    g_free (n);
    g_free (d);
    g_free (m);
  }
  n = gp_nsys_nvtx_normalise ("GstNvInfer: UID=4:queueInput batch_num=7",
      GP_NSYS_NORM_UID, NULL, NULL);
  g_assert_cmpstr (n, ==, "GstNvInfer: UID=N:queueInput batch_num=N");
  g_free (n);
  /* a counter is a whole key: no "XFrame=" */
  n = gp_nsys_nvtx_normalise ("myFrame=3", 0, NULL, NULL);
  g_assert_cmpstr (n, ==, "myFrame=3");
  g_free (n);
}

/* several batch_num rows of two instances into one each, the sums kept */
static void
test_aggregate (void)
{
  static const gchar csv[] =
      "Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),"
      "Max (ns),StdDev (ns),Style,Range\n"
      "30.0,3000,3,1000.0,1000.0,900,1100,10.0,PushPop,"
      "GstNvInfer: UID=1:buffer_process batch_num=1\n"
      "20.0,2000,1,2000.0,2000.0,2000,2000,0.0,PushPop,"
      "GstNvInfer: UID=1:buffer_process batch_num=2\n"
      "10.0,1000,2,500.0,500.0,400,600,5.0,PushPop,"
      "GstNvInfer: UID=1:buffer_process batch_num=3\n"
      "25.0,2500,5,500.0,500.0,100,700,5.0,PushPop,"
      "GstNvInfer: UID=4:buffer_process batch_num=3\n"
      "15.0,1500,1,1500.0,1500.0,1500,1500,0.0,PushPop,:osd_(Frame=1)\n";
  GError *err = NULL;
  g_autoptr (GpNsysStats) s = gp_nsys_parse (csv, strlen (csv), "nvtx_sum",
      "agg.csv", &err);
  g_autoptr (GpNsysTable) a = NULL;
  g_autoptr (GpNsysTable) u = NULL;
  const GpNsysTable *t;

  g_assert_no_error (err);
  t = gp_nsys_stats_find (s, "nvtx_sum");
  g_assert_cmpuint (t->rows->len, ==, 5);
  a = gp_nsys_nvtx_aggregate (t, 0);
  g_assert_cmpuint (a->rows->len, ==, 3);
  g_assert_cmpstr (row (a, 0)->name, ==,
      "GstNvInfer: UID=1:buffer_process batch_num=N");
  g_assert_cmpfloat (row (a, 0)->total, ==, 6000);
  g_assert_cmpfloat (row (a, 0)->count, ==, 6);
  g_assert_cmpfloat (row (a, 0)->avg, ==, 1000);
  g_assert_cmpfloat (row (a, 0)->min, ==, 400);
  g_assert_cmpfloat (row (a, 0)->max, ==, 2000);
  g_assert_true (isnan (row (a, 0)->med));
  g_assert_cmpfloat (fabs (row (a, 0)->share_pct - 60.0), <, 1e-9);
  g_assert_cmpstr (row (a, 1)->name, ==,
      "GstNvInfer: UID=4:buffer_process batch_num=N");
  g_assert_cmpfloat (row (a, 1)->med, ==, 500);
  g_assert_cmpstr (row (a, 2)->name, ==, "osd_(Frame=N)");
  u = gp_nsys_nvtx_aggregate (t, GP_NSYS_NORM_UID);
  g_assert_cmpuint (u->rows->len, ==, 2);
  g_assert_cmpfloat (row (u, 0)->total, ==, 8500);
  g_assert_cmpfloat (row (u, 0)->count, ==, 11);
  g_assert_cmpfloat (row (u, 0)->min, ==, 100);
}

static void
test_bad (void)
{
  static const gchar *const bad[][2] = {
    {"hello\nworld\n", "bad.txt: no nsys stats report"},
    {"Processing [x.sqlite] with [/r/nvtx_sum.py]...\n"
          "Time (%),Total Time (ns),Instances,Range\n"
          "1.0,abc,1,foo\n", "bad.txt:3: nvtx_sum: 'abc' in column"},
    {"Time (%),Total Time (ns),Instances,Range\n1.0,2\n",
        "bad.txt:2: nvtx_sum: 2 cells"},
    {" ** CUDA API Summary (cuda_api_sum):\n\n"
          " Time (%)  Total Time (ns)  Num Calls  Name\n"
          " --------  ---------------  ---------  ----\n"
          "   1.0  12\n", "bad.txt:5: cuda_api_sum: a row of fewer"},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (bad); i++) {
    GError *err = NULL;
    GpNsysStats *s = gp_nsys_parse (bad[i][0], strlen (bad[i][0]),
        "nvtx_sum", "bad.txt", &err);

    g_assert_null (s);
    g_assert_error (err, GP_NSYS_ERROR, GP_NSYS_ERROR_PARSE);
    if (!g_str_has_prefix (err->message, bad[i][1]))
      g_error ("case %u: '%s'", i, err->message);
    g_assert_null (strchr (err->message, '\n'));
    g_error_free (err);
  }
}

/* A damaged row among good ones, in each form: the good rows read (their
 * figures as printed), the damaged counted and named. */
static void
test_partly_bad (void)
{
  static const gchar *const texts[][2] = {
    {"Time (%),Total Time (ns),Instances,Range\n"
          "60.0,600,6,a\n1.0,2\n40.0,400,4,b\n",
        "1 of 5 lines skipped, first at part.txt:3: nvtx_sum: 2 cells"},
    {" ** CUDA API Summary (cuda_api_sum):\n\n"
          " Time (%)  Total Time (ns)  Num Calls  Name\n"
          " --------  ---------------  ---------  ----\n"
          "     60.0              600          6  a\n"
          "   1.0  12\n"
          "     40.0              400          4  b\n",
        "1 of 8 lines skipped, first at part.txt:6: cuda_api_sum: a row of"},
  };
  /* a header naming Style twice: the first one is the row's, the second
   * not kept over it (it leaked: found by fuzz-nsys) */
  static const gchar twice[] = "Time (%),Total Time (ns),Instances,Style,"
      "Style,Range\n60.0,600,6,PushPop,StartEnd,a\n";
  GpNsysStats *st = gp_nsys_parse (twice, strlen (twice), "nvtx_sum",
      "twice.txt", NULL);
  guint i;

  g_assert_nonnull (st);
  g_assert_cmpstr (row (g_ptr_array_index (st->tables, 0), 0)->style, ==,
      "PushPop");
  gp_nsys_stats_free (st);
  for (i = 0; i < G_N_ELEMENTS (texts); i++) {
    GError *err = NULL;
    GpNsysStats *s = gp_nsys_parse (texts[i][0], strlen (texts[i][0]),
        "nvtx_sum", "part.txt", &err);
    const GpNsysTable *t;
    gchar *said;

    g_assert_no_error (err);
    t = g_ptr_array_index (s->tables, 0);
    g_assert_cmpuint (t->rows->len, ==, 2);
    g_assert_cmpfloat (row (t, 0)->total, ==, 600);
    g_assert_cmpfloat (row (t, 1)->total, ==, 400);
    said = gp_lines_skips_text (&s->rows_skipped);
    if (!g_str_has_prefix (said, texts[i][1]))
      g_error ("case %u: '%s'", i, said);
    g_free (said);
    gp_nsys_stats_free (s);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/nsys/nvtxsum-2022.4", test_nvtxsum_2022);
  g_test_add_func ("/nsys/column-2023.1", test_column_2023);
  g_test_add_func ("/nsys/column-2025.3", test_column_2025);
  g_test_add_func ("/nsys/csv-2024.1", test_csv_2024);
  g_test_add_func ("/nsys/table-2025.1", test_table_2025);
  g_test_add_func ("/nsys/normalise", test_normalise);
  g_test_add_func ("/nsys/aggregate", test_aggregate);
  g_test_add_func ("/nsys/bad", test_bad);
  g_test_add_func ("/nsys/partly-bad", test_partly_bad);
  return g_test_run ();
}
