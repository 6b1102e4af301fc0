/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* tests of gp-gate: the judgement on runs made by hand (a regression needs
 * both its threshold and the rank test; the floor; too few runs; findings
 * new and cleared; a metric in one side only), the thresholds' option,
 * the baseline file written and read back and refused, the pipeline and
 * machine checks, and the JUnit and Markdown outputs read back by GLib's
 * XML parser and by their escapes. The real runs: tests/cli/test-gate.c.
 */
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "core/gp-session.h"
#include "report/gp-gate.h"

static gchar *gp_tmp;

/* @v in a new box */
static gdouble *
gp_test_box (gdouble v)
{
  gdouble *box = g_new (gdouble, 1);

  *box = v;
  return box;
}

/* A run holding @key = @v (and nothing else). */
static GpGateRun *
gp_test_gate_run (const gchar * key, gdouble v)
{
  GpGateRun *run = g_new0 (GpGateRun, 1);
  gdouble *box = g_new (gdouble, 1);

  run->metrics = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      g_free);
  run->findings = g_ptr_array_new_with_free_func (g_free);
  *box = v;
  g_hash_table_insert (run->metrics, g_strdup (key), box);
  return run;
}

/* A baseline of @n runs of @key, the values @v. */
static GpGateBaseline *
gp_test_gate_base (const gchar * key, const gdouble * v, guint n)
{
  GpGateBaseline *b = g_new0 (GpGateBaseline, 1);
  guint i;

  b->what = g_strdup ("launch");
  b->pipeline = g_strdup ("videotestsrc ! identity ! fakesink");
  b->elements = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (b->elements, g_strdup ("fakesink"));
  g_ptr_array_add (b->elements, g_strdup ("videotestsrc"));
  b->machine = g_strdup ("a CPU, 2 CPUs; generic");
  b->gstreamer = g_strdup ("1.22.0");
  b->recorded = g_strdup ("2026-12-06T07:00:00Z");
  b->runs = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gp_gate_run_free);
  for (i = 0; i < n; i++)
    g_ptr_array_add (b->runs, gp_test_gate_run (key, v[i]));
  return b;
}

/* The verdict of the only metric row of @a against @b. */
static GpGateRow
gp_test_gate_one (const gchar * key, const gdouble * a, guint na,
    const gdouble * b, guint nb, GpGateResult ** result)
{
  GpGateBaseline *base = gp_test_gate_base (key, a, na);
  GpGateBaseline *now = gp_test_gate_base (key, b, nb);
  GpGateThresholds t;
  GpGateResult *r;
  GpGateRow row;

  gp_gate_thresholds_init (&t);
  r = gp_gate_judge (base, now, &t);
  g_assert_cmpuint (r->rows->len, ==, 1);
  row = g_array_index (r->rows, GpGateRow, 0);
  row.metric = g_strdup (row.metric);
  if (result)
    *result = r;
  else
    gp_gate_result_free (r);
  gp_gate_baseline_free (base);
  gp_gate_baseline_free (now);
  return row;
}

static const gdouble gp_rate_base[] = { 100, 101, 99, 100, 102 };

/* 20 % fewer frames in every run: a regression, p = 1/252; 5 % fewer in
 * every run: under the 10 % threshold, so no regression however sure a
 * test would be; 20 % fewer at the median with runs all over: noise. */
static void
test_gate_threshold_and_noise (void)
{
  const gdouble slower[] = { 80, 81, 79, 80, 82 };
  const gdouble bit[] = { 95, 96, 94, 95, 97 };
  const gdouble spread[] = { 80, 120, 79, 101, 60 };
  GpGateResult *r;
  GpGateRow row;

  row = gp_test_gate_one ("rate fakesink", gp_rate_base, 5, slower, 5, &r);
  g_assert_cmpint (row.verdict, ==, GP_GATE_REGRESSION);
  g_assert_cmpint (row.kind, ==, GP_GATE_RATE);
  g_assert_cmpfloat_with_epsilon (row.base, 100, 1e-9);
  g_assert_cmpfloat_with_epsilon (row.now, 80, 1e-9);
  g_assert_cmpfloat_with_epsilon (row.change, -0.2, 1e-9);
  g_assert_cmpfloat_with_epsilon (row.p, 1.0 / 252, 1e-12);
  g_assert_cmpuint (r->regressions, ==, 1);
  g_assert_true (r->testable);
  gp_gate_result_free (r);
  g_free (row.metric);

  row = gp_test_gate_one ("rate fakesink", gp_rate_base, 5, bit, 5, NULL);
  g_assert_cmpint (row.verdict, ==, GP_GATE_SAME);
  /* (the test is not run where it decides nothing) */
  g_assert_true (isnan (row.p));
  g_free (row.metric);

  row = gp_test_gate_one ("rate fakesink", gp_rate_base, 5, spread, 5, NULL);
  g_assert_cmpint (row.verdict, ==, GP_GATE_NOISE);
  g_assert_cmpfloat (row.p, >=, 0.01);
  g_free (row.metric);
}

/* Faster is an improvement; for a latency (lower is better) higher is the
 * regression; a latency that moved 60 % but by 0.03 ms stays under the
 * 0.1 ms floor. */
static void
test_gate_directions_and_floor (void)
{
  const gdouble faster[] = { 130, 131, 129, 130, 132 };
  const gdouble lat[] = { 2.0, 2.1, 1.9, 2.0, 2.05 };
  const gdouble lat_up[] = { 3.0, 3.1, 2.9, 3.0, 3.05 };
  const gdouble tiny[] = { 0.05, 0.05, 0.05, 0.05, 0.05 };
  const gdouble tiny_up[] = { 0.08, 0.08, 0.08, 0.08, 0.08 };
  GpGateResult *r;
  GpGateRow row;

  row = gp_test_gate_one ("rate fakesink", gp_rate_base, 5, faster, 5, &r);
  g_assert_cmpint (row.verdict, ==, GP_GATE_IMPROVED);
  g_assert_cmpuint (r->improvements, ==, 1);
  g_assert_cmpuint (r->regressions, ==, 0);
  gp_gate_result_free (r);
  g_free (row.metric);

  row = gp_test_gate_one ("latency a.src>fakesink", lat, 5, lat_up, 5, NULL);
  g_assert_cmpint (row.verdict, ==, GP_GATE_REGRESSION);
  g_assert_cmpint (row.kind, ==, GP_GATE_LATENCY);
  g_free (row.metric);
  row = gp_test_gate_one ("latency a.src>fakesink", lat_up, 5, lat, 5, NULL);
  g_assert_cmpint (row.verdict, ==, GP_GATE_IMPROVED);
  g_free (row.metric);

  row = gp_test_gate_one ("latency a.src>fakesink", tiny, 5, tiny_up, 5,
      NULL);
  g_assert_cmpint (row.verdict, ==, GP_GATE_SAME);
  g_assert_cmpfloat_with_epsilon (row.change, 0.6, 1e-9);
  g_free (row.metric);
}

/* The machine 80 % slower for the new runs by its fixed work: an
 * element's self time 50 % longer in every run is the machine's, not a
 * regression; the same runs without the reference are one. A drift under
 * the threshold leaves it as it is. */
static void
test_gate_drift (void)
{
  const gdouble self[] = { 1.0, 1.01, 0.99, 1.0, 1.02 };
  const gdouble longer[] = { 1.5, 1.51, 1.49, 1.5, 1.52 };
  GpGateBaseline *base = gp_test_gate_base ("self identity", self, 5);
  GpGateBaseline *now = gp_test_gate_base ("self identity", longer, 5);
  GpGateThresholds t;
  GpGateResult *r;
  gchar *text;
  guint i;

  gp_gate_thresholds_init (&t);
  r = gp_gate_judge (base, now, &t);
  g_assert_true (isnan (r->drift));
  g_assert_cmpuint (r->regressions, ==, 1);
  gp_gate_result_free (r);
  for (i = 0; i < 5; i++) {
    ((GpGateRun *) g_ptr_array_index (base->runs, i))->reference_ns = 100;
    ((GpGateRun *) g_ptr_array_index (now->runs, i))->reference_ns = 180;
  }
  r = gp_gate_judge (base, now, &t);
  g_assert_cmpfloat_with_epsilon (r->drift, 0.8, 1e-9);
  g_assert_cmpuint (r->regressions, ==, 0);
  g_assert_cmpint (g_array_index (r->rows, GpGateRow, 0).verdict, ==,
      GP_GATE_SAME);
  text = gp_gate_format (r, "base.json");
  g_assert_nonnull (strstr (text, "machine: 80.0% slower"));
  g_free (text);
  gp_gate_result_free (r);
  for (i = 0; i < 5; i++)
    ((GpGateRun *) g_ptr_array_index (now->runs, i))->reference_ns = 105;
  r = gp_gate_judge (base, now, &t);
  g_assert_cmpuint (r->regressions, ==, 1);
  g_assert_cmpfloat_with_epsilon (g_array_index (r->rows, GpGateRow,
          0).threshold, 0.15, 1e-9);
  gp_gate_result_free (r);
  gp_gate_baseline_free (base);
  gp_gate_baseline_free (now);
}

/* Three runs a side cannot reach p < 0.01 (1/20 at best): the threshold
 * alone judges, no p is claimed, and the method line says so. */
static void
test_gate_too_few_runs (void)
{
  const gdouble slower[] = { 80, 81, 79 };
  GpGateResult *r;
  GpGateRow row = gp_test_gate_one ("rate fakesink", gp_rate_base, 3,
      slower, 3, &r);
  gchar *text;

  g_assert_false (r->testable);
  g_assert_cmpint (row.verdict, ==, GP_GATE_REGRESSION);
  g_assert_true (isnan (row.p));
  text = gp_gate_format (r, "base.json");
  g_assert_nonnull (strstr (text, "judged on the thresholds alone"));
  g_assert_nonnull (strstr (text, "FAIL: 1 regression"));
  g_free (text);
  gp_gate_result_free (r);
  g_free (row.metric);
}

/* A finding in 3 of 5 new runs and in no baseline run is new; in 2 of 5
 * it is not (it comes and goes); one in every baseline run and in no new
 * one is cleared. A metric in the new runs only is said, never judged. */
static void
test_gate_findings_and_unmatched (void)
{
  GpGateBaseline *base = gp_test_gate_base ("rate fakesink", gp_rate_base,
      5);
  GpGateBaseline *now = gp_test_gate_base ("rate fakesink", gp_rate_base,
      5);
  GpGateThresholds t;
  GpGateResult *r;
  guint i, seen = 0;

  for (i = 0; i < 5; i++) {
    GpGateRun *b = g_ptr_array_index (base->runs, i);
    GpGateRun *n = g_ptr_array_index (now->runs, i);
    gdouble *box = g_new (gdouble, 1);

    g_ptr_array_add (b->findings, g_strdup ("SYNC medium: fakesink"));
    if (i < 3)
      g_ptr_array_add (n->findings, g_strdup ("QUEUE medium: queue"));
    if (i < 2)
      g_ptr_array_add (n->findings, g_strdup ("HOT high: identity"));
    *box = 1.5;
    g_hash_table_insert (n->metrics, g_strdup ("self identity"), box);
  }
  gp_gate_thresholds_init (&t);
  r = gp_gate_judge (base, now, &t);
  for (i = 0; i < r->rows->len; i++) {
    GpGateRow *row = &g_array_index (r->rows, GpGateRow, i);

    if (strcmp (row->metric, "finding QUEUE medium: queue") == 0) {
      g_assert_cmpint (row->verdict, ==, GP_GATE_REGRESSION);
      g_assert_cmpuint (row->now_runs, ==, 3);
      seen |= 1;
    } else if (strcmp (row->metric, "finding HOT high: identity") == 0) {
      g_assert_cmpint (row->verdict, ==, GP_GATE_SAME);
      seen |= 2;
    } else if (strcmp (row->metric, "finding SYNC medium: fakesink") == 0) {
      g_assert_cmpint (row->verdict, ==, GP_GATE_IMPROVED);
      seen |= 4;
    } else if (strcmp (row->metric, "self identity") == 0) {
      g_assert_cmpint (row->verdict, ==, GP_GATE_UNMATCHED);
      g_assert_cmpuint (row->base_runs, ==, 0);
      seen |= 8;
    } else
      g_assert_cmpstr (row->metric, ==, "rate fakesink");
  }
  g_assert_cmpuint (seen, ==, 15);
  g_assert_cmpuint (r->regressions, ==, 1);
  gp_gate_result_free (r);
  gp_gate_baseline_free (base);
  gp_gate_baseline_free (now);
}

static void
test_gate_thresholds (void)
{
  GpGateThresholds t;
  GError *err = NULL;

  gp_gate_thresholds_init (&t);
  g_assert_cmpfloat_with_epsilon (t.max_regress[GP_GATE_RATE], 0.10, 1e-12);
  g_assert_true (gp_gate_thresholds_parse (&t, "cpu=10%, rate=2.5%", &err));
  g_assert_no_error (err);
  g_assert_cmpfloat_with_epsilon (t.max_regress[GP_GATE_CPU], 0.10, 1e-12);
  g_assert_cmpfloat_with_epsilon (t.max_regress[GP_GATE_RATE], 0.025,
      1e-12);
  g_assert_false (gp_gate_thresholds_parse (&t, "cpu=10", &err));
  g_assert_nonnull (strstr (err->message, "'10' for cpu"));
  g_clear_error (&err);
  g_assert_false (gp_gate_thresholds_parse (&t, "fps=10%", &err));
  g_assert_nonnull (strstr (err->message, "'fps' is not a metric"));
  g_clear_error (&err);
  g_assert_false (gp_gate_thresholds_parse (&t, "rate", &err));
  g_assert_null (strchr (err->message, '\n'));
  g_clear_error (&err);
}

/* Written, read back whole; bad files refused in one line naming them. */
static void
test_gate_baseline_file (void)
{
  const gdouble lat[] = { 2.0, 2.1, 1.9 };
  GpGateBaseline *b = gp_test_gate_base ("latency a.src>fakesink", lat, 3);
  gchar *path = g_build_filename (gp_tmp, "base.json", NULL);
  const gchar *bad[][2] = {
    {"not json", "base.json"},
    {"{\"gstprof_gate\": 2}", "format 1"},
    {"{\"gstprof_gate\": 1, \"what\": \"launch\", \"machine\": \"m\", "
          "\"gstreamer\": \"1\", \"runs\": [{\"metrics\": {\"speed x\": 1}}]}",
        "'speed x' is not a gate metric"},
    {"{\"gstprof_gate\": 1, \"what\": \"launch\", \"machine\": \"m\", "
          "\"gstreamer\": \"1\", \"runs\": [{\"metrics\": {\"rate x\": -1}}]}",
        "0 or more"},
    {"{\"gstprof_gate\": 1, \"what\": \"launch\", \"machine\": \"m\", "
          "\"gstreamer\": \"1\", \"runs\": []}", "1 to 64 runs"},
    {"{\"gstprof_gate\": 1, \"what\": \"elsewhere\", \"machine\": \"m\", "
          "\"gstreamer\": \"1\", \"runs\": [{}]}", "launch, program"},
    {"{\"gstprof_gate\": 1, \"what\": \"launch\", \"machine\": \"m\", "
          "\"gstreamer\": \"1\", \"runs\": [{\"units\": {\"rate x\": "
          "\"furlongs\"}}]}", "packets/s or buffers/s"},
    {"{\"gstprof_gate\": 1, \"what\": \"launch\", \"machine\": \"m\", "
          "\"gstreamer\": \"1\", \"runs\": [{\"units\": {\"self x\": "
          "\"packets/s\"}}]}", "expected a rate metric"},
    {"{\"gstprof_gate\": 1, \"what\": \"launch\", \"machine\": \"m\", "
          "\"gstreamer\": \"1\", \"runs\": [{\"buffer_ms\": {\"self x\": "
          "0}}]}", "a time above 0"},
  };
  GpGateBaseline *back;
  GpGateRun *run;
  GError *err = NULL;
  guint i;

  g_ptr_array_add (((GpGateRun *) g_ptr_array_index (b->runs, 0))->findings,
      g_strdup ("HOT high: identity"));
  ((GpGateRun *) g_ptr_array_index (b->runs, 0))->reference_ns = 1234.5;
  run = g_ptr_array_index (b->runs, 2);
  run->units = g_hash_table_new (g_str_hash, g_str_equal);
  g_hash_table_insert (run->units, (gpointer) "rate pay", (gpointer)
      "packets/s");
  run->buffer_ms = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
      g_free);
  g_hash_table_insert (run->buffer_ms, (gpointer) "self enc",
      gp_test_box (lat[0]));
  g_assert_true (gp_gate_baseline_save (b, path, &err));
  g_assert_no_error (err);
  back = gp_gate_baseline_load (path, &err);
  g_assert_no_error (err);
  g_assert_cmpstr (back->pipeline, ==, b->pipeline);
  g_assert_cmpstr (back->machine, ==, b->machine);
  g_assert_cmpstr (back->gstreamer, ==, "1.22.0");
  g_assert_cmpuint (back->elements->len, ==, 2);
  g_assert_cmpuint (back->runs->len, ==, 3);
  run = g_ptr_array_index (back->runs, 1);
  g_assert_cmpfloat_with_epsilon (*(gdouble *) g_hash_table_lookup
      (run->metrics, "latency a.src>fakesink"), 2.1, 1e-12);
  run = g_ptr_array_index (back->runs, 0);
  g_assert_cmpstr (g_ptr_array_index (run->findings, 0), ==,
      "HOT high: identity");
  g_assert_cmpfloat_with_epsilon (run->reference_ns, 1234.5, 1e-9);
  g_assert_true (isnan (((GpGateRun *) g_ptr_array_index (back->runs,
                  1))->reference_ns));
  run = g_ptr_array_index (back->runs, 2);
  g_assert_cmpstr (g_hash_table_lookup (run->units, "rate pay"), ==,
      "packets/s");
  g_assert_cmpfloat (*(gdouble *) g_hash_table_lookup (run->buffer_ms,
          "self enc"), ==, 2.0);
  gp_gate_baseline_free (back);

  for (i = 0; i < G_N_ELEMENTS (bad); i++) {
    g_assert_true (g_file_set_contents (path, bad[i][0], -1, NULL));
    back = gp_gate_baseline_load (path, &err);
    g_assert_null (back);
    g_test_message ("%s", err->message);
    g_assert_nonnull (strstr (err->message, "base.json"));
    g_assert_nonnull (strstr (err->message, bad[i][1]));
    g_assert_null (strchr (err->message, '\n'));
    g_clear_error (&err);
  }
  gp_gate_baseline_free (b);
  g_free (path);
}

/* Another pipeline (other elements), machine or version: refused with the
 * reason; --allow-other-machine takes the other machine. */
static void
test_gate_refusals (void)
{
  GpGateBaseline *b = gp_test_gate_base ("rate fakesink", gp_rate_base, 5);
  GPtrArray *other = g_ptr_array_new ();
  gchar *why = NULL;

  g_assert_true (gp_gate_same_pipeline (b, b->elements, &why));
  g_ptr_array_add (other, (gpointer) "fakesink");
  g_ptr_array_add (other, (gpointer) "videoconvert(videotestsrc>fakesink)");
  g_ptr_array_add (other, (gpointer) "videotestsrc");
  g_assert_false (gp_gate_same_pipeline (b, other, &why));
  g_assert_nonnull (strstr (why, "another pipeline"));
  g_assert_nonnull (strstr (why, "videoconvert"));
  g_clear_pointer (&why, g_free);
  g_assert_true (gp_gate_same_machine (b, b->machine, "1.22.0", FALSE,
          &why));
  g_assert_false (gp_gate_same_machine (b, "another CPU", "1.22.0", FALSE,
          &why));
  g_assert_nonnull (strstr (why, "another machine"));
  g_assert_nonnull (strstr (why, "--allow-other-machine"));
  g_clear_pointer (&why, g_free);
  g_assert_false (gp_gate_same_machine (b, b->machine, "1.26.0", FALSE,
          &why));
  g_assert_nonnull (strstr (why, "another GStreamer (1.22.0"));
  g_clear_pointer (&why, g_free);
  g_assert_true (gp_gate_same_machine (b, "another CPU", "1.26.0", TRUE,
          &why));
  g_ptr_array_unref (other);
  gp_gate_baseline_free (b);
}

typedef struct
{
  guint testcases, failures, errors;
} GpJunitCount;

static void
gp_test_junit_start (GMarkupParseContext * ctx, const gchar * name,
    const gchar ** attrs, const gchar ** values, gpointer data,
    GError ** error)
{
  GpJunitCount *c = data;

  c->testcases += strcmp (name, "testcase") == 0;
  c->failures += strcmp (name, "failure") == 0;
  c->errors += strcmp (name, "error") == 0;
}

/* @xml well-formed (GLib's parser), its elements counted */
static GpJunitCount
gp_test_junit_parse (const gchar * xml)
{
  GMarkupParser parser = { gp_test_junit_start, NULL, NULL, NULL, NULL };
  GpJunitCount c = { 0 };
  GMarkupParseContext *ctx = g_markup_parse_context_new (&parser, 0, &c,
      NULL);
  GError *err = NULL;

  g_assert_true (g_markup_parse_context_parse (ctx, xml, -1, &err));
  g_assert_true (g_markup_parse_context_end_parse (ctx, &err));
  g_assert_no_error (err);
  g_markup_parse_context_free (ctx);
  return c;
}

/* A regression is a <failure> in its <testcase>; a pipeline that failed is
 * one <error>; names with markup in them stay text; Markdown escapes the
 * table's pipes. */
static void
test_gate_outputs (void)
{
  const gdouble slower[] = { 80, 81, 79, 80, 82 };
  const gchar *key = "rate a<b>&\"c|d\001";
  GpGateBaseline *base = gp_test_gate_base (key, gp_rate_base, 5);
  GpGateBaseline *now = gp_test_gate_base (key, slower, 5);
  GpGateThresholds t;
  GpGateResult *r;
  GpJunitCount c;
  gchar *xml, *md;

  gp_gate_thresholds_init (&t);
  r = gp_gate_judge (base, now, &t);
  xml = gp_gate_junit (r, NULL);
  c = gp_test_junit_parse (xml);
  g_assert_cmpuint (c.testcases, ==, 1);
  g_assert_cmpuint (c.failures, ==, 1);
  g_assert_nonnull (strstr (xml, "a&lt;b&gt;&amp;&quot;c|d "));
  /* a control character XML 1.0 cannot carry, even as a reference */
  g_assert_null (strstr (xml, "&#x1;"));
  g_free (xml);
  xml = gp_gate_junit (NULL, "run 2 of 5: no element \"x<y\"");
  c = gp_test_junit_parse (xml);
  g_assert_cmpuint (c.errors, ==, 1);
  g_assert_cmpuint (c.failures, ==, 0);
  g_free (xml);
  md = gp_gate_markdown (r, "base.json", NULL);
  g_assert_true (g_str_has_prefix (md, "### gstprof gate: FAIL"));
  g_assert_nonnull (strstr (md, "c\\|d"));
  g_assert_nonnull (strstr (md, "**REGRESSION**"));
  /* the heading names the metric escaped too */
  g_assert_nonnull (strstr (md, "FAIL: 1 regression, 0 improvements (rate "
          "a\\<b>&\"c\\|d"));
  g_free (md);
  gp_gate_result_free (r);
  gp_gate_baseline_free (base);
  gp_gate_baseline_free (now);
}

/* From a session made by hand: a sink that stopped is a rate of 0 (not a
 * figure gone), a sink with no name is no figure (nor a key the file
 * would refuse), an element that works 2 % of the time is gated, a queue
 * is not. */
/* Runs of @key at @v ms a buffer, on buffers of @buffer_ms of media
 * (none when <= 0). */
static GpGateBaseline *
gp_test_gate_buffers (const gchar * key, const gdouble * v, guint n,
    gdouble buffer_ms)
{
  GpGateBaseline *b = gp_test_gate_base (key, v, n);
  guint i;

  for (i = 0; buffer_ms > 0 && i < n; i++) {
    GpGateRun *run = g_ptr_array_index (b->runs, i);

    run->buffer_ms = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
        g_free);
    g_hash_table_insert (run->buffer_ms, g_strdup (key),
        gp_test_box (buffer_ms));
  }
  return b;
}

/* A self time per buffer that fell because the buffers got 20 times
 * smaller is no improvement (issue 29: "a per-buffer self time 'improved'
 * when buffers got 20x smaller"): 1 ms on 20 ms buffers is 50 ms of work a
 * second of media, 0.1 ms on 1 ms buffers is 100: a regression, said per
 * second of media. Buffers of the same size stay judged per buffer. */
static void
test_gate_per_media (void)
{
  const gdouble big[] = { 1.00, 1.01, 0.99, 1.00, 1.02 };
  const gdouble small[] = { 0.100, 0.101, 0.099, 0.100, 0.102 };
  GpGateThresholds t;
  GpGateBaseline *a, *b;
  GpGateResult *r;
  GpGateRow *row;
  gchar *text, *md;

  gp_gate_thresholds_init (&t);
  /* no buffers' time known: per buffer, an improvement */
  a = gp_test_gate_buffers ("self enc", big, 5, 0);
  b = gp_test_gate_buffers ("self enc", small, 5, 0);
  r = gp_gate_judge (a, b, &t);
  row = &g_array_index (r->rows, GpGateRow, 0);
  g_assert_cmpint (row->verdict, ==, GP_GATE_IMPROVED);
  g_assert_cmpstr (row->unit, ==, "ms");
  gp_gate_result_free (r);
  gp_gate_baseline_free (a);
  gp_gate_baseline_free (b);

  a = gp_test_gate_buffers ("self enc", big, 5, 20);
  b = gp_test_gate_buffers ("self enc", small, 5, 1);
  r = gp_gate_judge (a, b, &t);
  row = &g_array_index (r->rows, GpGateRow, 0);
  g_assert_cmpint (row->verdict, ==, GP_GATE_REGRESSION);
  g_assert_cmpstr (row->unit, ==, "ms/s");
  g_assert_cmpfloat_with_epsilon (row->base, 50, 1e-9);
  g_assert_cmpfloat_with_epsilon (row->now, 100, 1e-9);
  g_assert_cmpfloat (row->base_buffer_ms, ==, 20);
  g_assert_cmpfloat (row->now_buffer_ms, ==, 1);
  text = gp_gate_format (r, "base.json");
  g_test_message ("%s", text);
  g_assert_nonnull (strstr (text, "50 ms/s"));
  g_assert_nonnull (strstr (text, "self enc: its buffers went from 20 to 1 "
          "ms of media, so it is judged per second of media (ms/s)"));
  md = gp_gate_markdown (r, "base.json", NULL);
  g_assert_nonnull (strstr (md, "its buffers went from 20 to 1 ms"));
  g_free (md);
  g_free (text);
  gp_gate_result_free (r);
  gp_gate_baseline_free (b);

  /* an audio sink's 50 buffers a second of 20 ms and 1000 of 1 ms are
   * both real time: the same rate, not 20 times it */
  {
    const gdouble r50[] = { 50, 50, 50, 50, 50 };
    const gdouble r1000[] = { 1000, 1000, 1000, 1000, 1000 };
    GpGateBaseline *ra = gp_test_gate_buffers ("rate pcm", r50, 5, 20);
    GpGateBaseline *rb = gp_test_gate_buffers ("rate pcm", r1000, 5, 1);
    GpGateResult *rr = gp_gate_judge (ra, rb, &t);
    GpGateRow *rrow = &g_array_index (rr->rows, GpGateRow, 0);

    g_assert_cmpint (rrow->verdict, ==, GP_GATE_SAME);
    g_assert_cmpstr (rrow->unit, ==, "x real time");
    g_assert_cmpfloat_with_epsilon (rrow->now, 1.0, 1e-9);
    gp_gate_result_free (rr);
    gp_gate_baseline_free (ra);
    gp_gate_baseline_free (rb);
  }

  /* the same buffers (within 10 %): per buffer, as before */
  b = gp_test_gate_buffers ("self enc", small, 5, 21);
  r = gp_gate_judge (a, b, &t);
  row = &g_array_index (r->rows, GpGateRow, 0);
  g_assert_cmpint (row->verdict, ==, GP_GATE_IMPROVED);
  g_assert_true (isnan (row->base_buffer_ms));
  gp_gate_result_free (r);
  gp_gate_baseline_free (a);
  gp_gate_baseline_free (b);
}

static void
test_gate_run_of_session (void)
{
  GpSession *s = gp_session_new ();
  GpSinkSummary *k;
  GpLinkSummary *ls;
  GpElementSummary *e;
  GpGateRun *run;
  gdouble *v;

  gp_session_add_element (s, "pipeline0", "pipeline", "", "bin");
  gp_session_add_element (s, "src", "videotestsrc", "pipeline0", "source");
  gp_session_add_element (s, "conv", "videoconvert", "pipeline0", "filter");
  gp_session_add_element (s, "q", "queue", "pipeline0", "queue");
  gp_session_add_element (s, "live", "fakesink", "pipeline0", "sink");
  gp_session_add_element (s, "stopped", "fakesink", "pipeline0", "sink");
  k = gp_session_add_sink (s, "live");
  k->fps = 30;
  k = gp_session_add_sink (s, "stopped");
  k->fps = -1;
  k = gp_session_add_sink (s, "");
  k->fps = 30;
  gp_session_add_element (s, "pay", "udpsink", "pipeline0", "sink");
  k = gp_session_add_sink (s, "pay");
  k->fps = 50;
  g_free (k->media);
  k->media = g_strdup ("rtp");
  gp_session_add_element (s, "pcm", "fakesink", "pipeline0", "sink");
  k = gp_session_add_sink (s, "pcm");
  k->fps = 100;
  k->media_per_s = 1.0;
  g_free (k->media);
  k->media = g_strdup ("audio");
  gp_session_add_link (s, "src.src", "conv.sink", "audio/x-raw, "
      "rate=(int)48000", NULL);
  ls = gp_session_add_link_summary (s, "src.src->conv.sink");
  ls->fps = 50;
  ls->media_per_s = 1.0;
  e = gp_session_add_elem_summary (s, "conv");
  e->share_pct = 2;
  e->self_ms.p50 = 0.5;
  e = gp_session_add_elem_summary (s, "q");
  e->share_pct = 50;
  e->self_ms.p50 = 4;
  run = gp_gate_run_of_session (s);
  v = g_hash_table_lookup (run->metrics, "rate stopped");
  g_assert_nonnull (v);
  g_assert_cmpfloat (*v, ==, 0);
  g_assert_nonnull (g_hash_table_lookup (run->metrics, "rate live"));
  g_assert_null (g_hash_table_lookup (run->metrics, "rate "));
  /* (named as the user named them: "conv", "q") */
  g_assert_nonnull (g_hash_table_lookup (run->metrics, "self conv"));
  g_assert_null (g_hash_table_lookup (run->metrics, "self q"));
  /* frames are fps; RTP packets and audio buffers are not frames
   * (issue 29: "50.0 fps" for RTP audio packets) */
  g_assert_null (g_hash_table_lookup (run->units, "rate live"));
  g_assert_cmpstr (g_hash_table_lookup (run->units, "rate pay"), ==,
      "packets/s");
  g_assert_cmpstr (g_hash_table_lookup (run->units, "rate pcm"), ==,
      "buffers/s");
  /* conv's input: 50 buffers a second carrying a second of media; the
   * audio sink's 100; frames have none (their size is the stream's) */
  g_assert_cmpfloat_with_epsilon (*(gdouble *) g_hash_table_lookup
      (run->buffer_ms, "self conv"), 20.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (*(gdouble *) g_hash_table_lookup
      (run->buffer_ms, "rate pcm"), 10.0, 1e-9);
  g_assert_null (g_hash_table_lookup (run->buffer_ms, "rate live"));
  /* nothing posted QoS: no frame dropped late */
  v = g_hash_table_lookup (run->metrics, "dropped late");
  g_assert_nonnull (v);
  g_assert_cmpfloat (*v, ==, 0);
  gp_gate_run_free (run);
  gp_session_free (s);
}

int
main (int argc, char **argv)
{
  gint ret;

  g_test_init (&argc, &argv, NULL);
  gp_tmp = g_dir_make_tmp ("gstprof-test-gate-XXXXXX", NULL);
  g_test_add_func ("/report/gate/threshold-and-noise",
      test_gate_threshold_and_noise);
  g_test_add_func ("/report/gate/directions-and-floor",
      test_gate_directions_and_floor);
  g_test_add_func ("/report/gate/too-few-runs", test_gate_too_few_runs);
  g_test_add_func ("/report/gate/drift", test_gate_drift);
  g_test_add_func ("/report/gate/findings-and-unmatched",
      test_gate_findings_and_unmatched);
  g_test_add_func ("/report/gate/thresholds", test_gate_thresholds);
  g_test_add_func ("/report/gate/baseline-file", test_gate_baseline_file);
  g_test_add_func ("/report/gate/refusals", test_gate_refusals);
  g_test_add_func ("/report/gate/outputs", test_gate_outputs);
  g_test_add_func ("/report/gate/run-of-session", test_gate_run_of_session);
  g_test_add_func ("/report/gate/per-media", test_gate_per_media);
  ret = g_test_run ();
  {
    gchar *path = g_build_filename (gp_tmp, "base.json", NULL);

    g_unlink (path);
    g_free (path);
  }
  g_rmdir (gp_tmp);
  g_free (gp_tmp);
  return ret;
}
