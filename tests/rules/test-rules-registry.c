/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * test-rules-registry.c: the rule registry, HOT and BUDGET, ranking, the
 * exit code and the verdict text, on sessions made by hand so the truth is
 * known exactly.
 */
#include <string.h>
#include "core/gp-session.h"
#include "rules/gp-rules.h"
#include "report/gp-compare.h"
#include "report/gp-verdict.h"
#include "gp-test-util.h"

/* session builders */

static GpSession *
make_session (gdouble duration_s)
{
  GpSession *s = gp_session_new ();

  g_free (s->mode);
  s->mode = g_strdup ("run");
  s->duration_s = duration_s;
  g_free (s->gstreamer);
  s->gstreamer = g_strdup ("1.22.0");
  g_free (s->platform);
  s->platform = g_strdup ("generic");
  return s;
}

static GpElement *
add_element (GpSession * s, const gchar * name, const gchar * factory,
    const gchar * kind)
{
  return gp_session_add_element (s, name, factory, "", kind);
}

static void
set_prop_bool (GpElement * e, const gchar * prop, gboolean v)
{
  if (e->props == NULL)
    e->props = json_object_new ();
  json_object_set_boolean_member (e->props, prop, v);
}

/* An element summary: @total_ms of self time over the run, @p50/@p95 per
 * buffer, on thread @thread. */
static GpElementSummary *
add_summary (GpSession * s, const gchar * name, gdouble total_ms,
    gdouble p50, gdouble p95, guint64 buffers, const gchar * thread)
{
  GpElementSummary *es = gp_session_add_elem_summary (s, name);

  es->self_total_ms = total_ms;
  es->self_ms.p50 = p50;
  es->self_ms.p95 = p95;
  es->self_ms.p99 = p95;
  es->self_ms.max = p95;
  es->buffers = buffers;
  es->busy_pct = total_ms / (s->duration_s * 1000.0) * 100.0;
  if (thread)
    g_ptr_array_add (es->threads, g_strdup (thread));
  return es;
}

static GpThreadSummary *
add_thread (GpSession * s, guint64 tid, const gchar * name, gdouble cpu,
    const gchar * const *elements)
{
  GpThreadSummary *t = gp_session_add_thread (s, tid, name);
  guint i;

  t->cpu_pct_mean = cpu;
  t->cpu_pct_max = cpu;
  for (i = 0; elements && elements[i]; i++)
    g_ptr_array_add (t->elements, g_strdup (elements[i]));
  return t;
}

static void
link_pads (GpSession * s, const gchar * src, const gchar * sink)
{
  gchar *a = g_strconcat (src, ".src", NULL);
  gchar *b = g_strconcat (sink, ".sink", NULL);

  gp_session_add_link (s, a, b, "video/x-raw, framerate=(fraction)30/1",
      "system");
  g_free (a);
  g_free (b);
}

/* A single-thread encode pipeline, 10 s: src 1000 ms, enc 7000 ms, conv
 * 1500 ms, fakesink (sync=false) 500 ms: enc has 70 % of the work. */
static GpSession *
make_encode_session (void)
{
  GpSession *s = make_session (10.0);
  const gchar *const els[] = { "src", "conv", "enc", "sink", NULL };
  GpElement *e;
  GpSinkSummary *sk;

  e = add_element (s, "src", "videotestsrc", "source");
  set_prop_bool (e, "is-live", FALSE);
  add_element (s, "conv", "videoconvert", "filter");
  add_element (s, "enc", "x264enc", "filter");
  e = add_element (s, "sink", "fakesink", "sink");
  set_prop_bool (e, "sync", FALSE);
  link_pads (s, "src", "conv");
  link_pads (s, "conv", "enc");
  link_pads (s, "enc", "sink");
  add_summary (s, "enc", 7000, 23.0, 30.0, 300, "src:src");
  add_summary (s, "conv", 1500, 5.0, 6.0, 300, "src:src");
  add_summary (s, "src", 1000, 3.3, 4.0, 300, "src:src");
  add_summary (s, "sink", 500, 1.6, 2.0, 300, "src:src");
  add_thread (s, 100, "src:src", 95.0, els);
  sk = gp_session_add_sink (s, "sink");
  sk->fps = 30.0;
  sk->target_fps = 30.0;
  sk->buffers = 300;
  s->target_fps = 30.0;
  s->frame_period_ms = 1000.0 / 30.0;
  return s;
}



/* compare on renumbered elements */

static void
add_named_finding (GpSession * s, const gchar * rule, const gchar * target)
{
  GpFinding *f = gp_session_add_finding (s, rule, "info", target);

  if (f->targets == NULL)
    f->targets = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (f->targets, g_strdup (target));
  if (f->evidence == NULL)
    f->evidence = json_object_new ();
}

/* The same finding on a queue that a fix renumbered (queue1 became
 * queue2) remains. */
static void
test_identity (void)
{
  GpSession *a = gp_test_chain_session (FALSE),
      *b = gp_test_chain_session (TRUE);
  gchar *out;

  add_named_finding (a, "QFULL", "queue1");
  add_named_finding (b, "QFULL", "queue2");
  out = gp_compare_format (a, b, "A", "B");
  g_assert_nonnull (strstr (out, "0 cleared, 1 remaining, 0 new"));
  g_assert_null (strstr (out, "different pipelines"));
  g_free (out);
  gp_session_free (a);
  gp_session_free (b);
}

/* A finding about an element a bin made says how to reach it. */
static void
test_made_by_bin (void)
{
  GpSession *s = make_session (10.0);
  const gchar *const els[] = { "filesrc0", "avdec_h264-0", "fakesink0", NULL };
  GpElement *e;
  GpFinding *f;

  s->launch = g_strdup ("filesrc location=a.mp4 ! decodebin name=d ! "
      "fakesink");
  gp_session_add_element (s, "pipeline0", "pipeline", "", "bin");
  gp_session_add_element (s, "filesrc0", "filesrc", "pipeline0", "source");
  e = gp_session_add_element (s, "d", "decodebin", "pipeline0", "bin");
  e->is_bin = TRUE;
  gp_session_add_element (s, "avdec_h264-0", "avdec_h264", "d", "filter");
  e = gp_session_add_element (s, "fakesink0", "fakesink", "pipeline0",
      "sink");
  set_prop_bool (e, "sync", FALSE);
  link_pads (s, "filesrc0", "avdec_h264-0");
  link_pads (s, "avdec_h264-0", "fakesink0");
  add_summary (s, "avdec_h264-0", 7000, 23.0, 30.0, 300, "d:sink");
  add_summary (s, "fakesink0", 500, 1.6, 2.0, 300, "d:sink");
  add_thread (s, 100, "d:sink", 75.0, els);
  gp_rules_run (s);
  f = gp_session_find_finding (s, "HOT", NULL);
  g_assert_nonnull (f);
  g_assert_cmpstr (g_ptr_array_index (f->targets, 0), ==, "avdec_h264-0");
  g_assert_null (f->fix_patch);
  g_assert_nonnull (strstr (f->fix, "avdec_h264-0 (avdec_h264) is made by d "
          "at run time"));
  g_assert_nonnull (strstr (f->fix, "demuxer, parser and decoder"));
  gp_session_free (s);
}

/* registry */

static void
test_registry (void)
{
  guint n, i;
  const GpRule *rules = gp_rules_get (&n);
  JsonParser *parser;
  JsonObject *verified;
  gchar *path;

  g_assert_cmpuint (n, >=, 2);
  g_assert_nonnull (gp_rules_find ("HOT"));
  g_assert_nonnull (gp_rules_find ("BUDGET"));
  g_assert_null (gp_rules_find ("NOPE"));
  /* Exactly the rules whose bench pair passed name the machine, with the
   * string `make pairs` wrote in bench/pairs/results.json; the others may
   * only report info. */
  path = g_build_filename (g_getenv ("GP_SOURCE_ROOT"), "bench", "pairs",
      "results.json", NULL);
  parser = json_parser_new ();
  g_assert_true (json_parser_load_from_file (parser, path, NULL));
  verified = json_object_get_object_member (json_node_get_object
      (json_parser_get_root (parser)), "rules");
  for (i = 0; i < n; i++) {
    JsonNode *v = json_object_get_member (verified, rules[i].id);

    g_assert_nonnull (rules[i].func);
    g_assert_true (rules[i].title && *rules[i].title);
    if (v && !JSON_NODE_HOLDS_NULL (v)) {
      g_assert_cmpstr (rules[i].verified_on, ==, json_node_get_string (v));
      g_assert_nonnull (strstr (rules[i].verified_on, "bench/pairs/"));
    } else {
      g_assert_null (rules[i].verified_on);
    }
  }
  g_object_unref (parser);
  g_free (path);
}

/* HOT */

static void
test_hot_fires (void)
{
  GpSession *s = make_encode_session ();
  GpFinding *f;

  gp_rules_run (s);
  g_assert_cmpuint (gp_session_count_findings (s, "HOT"), ==, 1);
  f = gp_session_find_finding (s, "HOT", NULL);
  g_assert_cmpstr (f->severity, ==, "info");
  g_assert_true (f->heuristic);
  g_assert_null (f->verified_on);
  g_assert_cmpuint (f->targets->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (f->targets, 0), ==, "enc");
  g_assert_cmpfloat_with_epsilon (gp_test_evidence_double (f, "share_pct"),
      70.0,
      0.01);
  g_assert_cmpfloat_with_epsilon (gp_test_evidence_double (f, "self_p50_ms"),
      23.0,
      0.01);
  g_assert_cmpfloat_with_epsilon (gp_test_evidence_double (f, "busy_pct"), 70.0,
      0.01);
  g_assert_cmpstr (json_object_get_string_member (f->evidence, "thread"), ==,
      "src:src");
  g_assert_cmpfloat_with_epsilon (f->rank_value, 70.0, 0.01);
  /* The fix names the element's own knobs and the queue to split. */
  g_assert_nonnull (strstr (f->fix, "speed-preset"));
  g_assert_nonnull (strstr (f->fix, "queue"));
  g_assert_cmpint (gp_rules_exit_code (s), ==, 0);
  gp_session_free (s);
}

static void
test_hot_silent_when_even (void)
{
  GpSession *s = make_session (10.0);

  add_element (s, "a", "identity", "filter");
  add_element (s, "b", "identity", "filter");
  add_element (s, "c", "identity", "filter");
  add_element (s, "d", "identity", "filter");
  add_summary (s, "a", 2000, 2, 2, 1000, "t");
  add_summary (s, "b", 2000, 2, 2, 1000, "t");
  add_summary (s, "c", 2000, 2, 2, 1000, "t");
  add_summary (s, "d", 1900, 1.9, 1.9, 1000, "t");
  gp_rules_run (s);
  /* 25 % each: no element dominates. */
  g_assert_cmpuint (gp_session_count_findings (s, "HOT"), ==, 0);
  gp_session_free (s);
}

static void
test_hot_silent_when_idle (void)
{
  GpSession *s = make_session (10.0);

  add_element (s, "conv", "videoconvert", "filter");
  add_element (s, "src", "videotestsrc", "source");
  /* 90 % of the work, but only 3 % of the run: 1 ms a frame at 30 fps. */
  add_summary (s, "conv", 300, 1.0, 1.1, 300, "t");
  add_summary (s, "src", 33, 0.1, 0.1, 300, "t");
  gp_rules_run (s);
  g_assert_cmpuint (gp_session_count_findings (s, "HOT"), ==, 0);
  gp_session_free (s);
}

static void
test_hot_boundary (void)
{
  GpSession *s = make_session (10.0);

  add_element (s, "a", "identity", "filter");
  add_element (s, "b", "identity", "filter");
  /* 60.1 %: fires */
  add_summary (s, "a", 3990, 4, 4, 1000, "t");
  add_summary (s, "b", 6010, 6, 6, 1000, "t");
  gp_rules_run (s);
  g_assert_cmpuint (gp_session_count_findings (s, "HOT"), ==, 1);
  g_assert_cmpstr (g_ptr_array_index (gp_session_find_finding (s, "HOT",
              NULL)->targets, 0), ==, "b");
  /* the runner-up is above 25 %: named in the evidence */
  g_assert_cmpstr (json_object_get_string_member (gp_session_find_finding (s,
              "HOT", NULL)->evidence, "next"), ==, "a");
  gp_session_free (s);

  s = make_session (10.0);
  add_element (s, "a", "identity", "filter");
  add_element (s, "b", "identity", "filter");
  add_element (s, "c", "identity", "filter");
  /* 39.9 % is below the 40 % threshold: silent */
  add_summary (s, "a", 3990, 4, 4, 1000, "t");
  add_summary (s, "b", 3005, 3, 3, 1000, "t");
  add_summary (s, "c", 3005, 3, 3, 1000, "t");
  gp_rules_run (s);
  g_assert_cmpuint (gp_session_count_findings (s, "HOT"), ==, 0);
  gp_session_free (s);
}

/* Queues and clock-waiting sinks are not processing time: a queue's or a
 * sync=true sink's wall time must neither be named HOT nor dilute the
 * share of the element that does the work. */
static void
test_hot_excludes_waiting (void)
{
  GpSession *s = make_session (10.0);
  GpElement *e;
  GpFinding *f;

  add_element (s, "src", "videotestsrc", "source");
  add_element (s, "q", "queue", "queue");
  add_element (s, "work", "identity", "filter");
  e = add_element (s, "sink", "autovideosink", "sink");
  set_prop_bool (e, "sync", TRUE);
  gp_session_add_queue_summary (s, "q");
  add_summary (s, "sink", 9000, 30, 33, 300, "q:src");
  add_summary (s, "q", 8000, 25, 30, 300, "q:src");
  add_summary (s, "work", 1500, 5, 5.5, 300, "q:src");
  add_summary (s, "src", 500, 1.6, 1.7, 300, "src:src");
  gp_rules_run (s);
  f = gp_session_find_finding (s, "HOT", NULL);
  g_assert_nonnull (f);
  g_assert_cmpstr (g_ptr_array_index (f->targets, 0), ==, "work");
  /* 1500 of 2000 ms of work */
  g_assert_cmpfloat_with_epsilon (gp_test_evidence_double (f, "share_pct"),
      75.0,
      0.01);
  /* nothing else works on its thread: no queue to suggest */
  g_assert_null (strstr (f->fix, "queue before"));
  gp_session_free (s);
}

/* BUDGET, throughput */

static void
test_budget_throughput_fires (void)
{
  GpSession *s = make_encode_session ();
  GpSinkSummary *sk = gp_session_find_sink (s, "sink");
  GpFinding *f;

  sk->fps = 20.0;
  gp_rules_run (s);
  g_assert_cmpuint (gp_session_count_findings (s, "BUDGET"), ==, 1);
  f = gp_session_find_finding (s, "BUDGET", NULL);
  g_assert_cmpstr (f->severity, ==, "info");
  g_assert_true (f->heuristic);
  g_assert_cmpstr (g_ptr_array_index (f->targets, 0), ==, "sink");
  g_assert_cmpfloat_with_epsilon (gp_test_evidence_double (f, "achieved_fps"),
      20.0,
      0.001);
  g_assert_cmpfloat_with_epsilon (gp_test_evidence_double (f, "target_fps"),
      30.0,
      0.001);
  g_assert_cmpfloat_with_epsilon (gp_test_evidence_double (f, "deficit_pct"),
      100.0 / 3, 0.01);
  g_assert_cmpstr (json_object_get_string_member (f->evidence, "thread"), ==,
      "src:src");
  g_assert_cmpstr (json_object_get_string_member (f->evidence, "hottest"), ==,
      "enc");
  /* the thread's wall busy share: all four elements' work */
  g_assert_cmpfloat_with_epsilon (gp_test_evidence_double (f,
      "thread_busy_pct"),
      100.0, 0.01);
  g_assert_cmpstr (json_object_get_string_member (f->evidence, "source"), ==,
      "not live");
  g_assert_nonnull (strstr (f->fix, "most of it in enc"));
  g_assert_cmpint (gp_rules_exit_code (s), ==, 0);
  gp_session_free (s);
}

/* Slow, but no thread is the limit: the fix looks elsewhere. */
static void
test_budget_throughput_unsaturated (void)
{
  GpSession *s = make_session (10.0);
  const gchar *const els[] = { "a", "b", "c", "sink", NULL };
  GpSinkSummary *sk;
  GpElement *e;
  GpFinding *f;

  add_element (s, "a", "identity", "filter");
  add_element (s, "b", "identity", "filter");
  add_element (s, "c", "identity", "filter");
  e = add_element (s, "sink", "fakesink", "sink");
  set_prop_bool (e, "sync", FALSE);
  link_pads (s, "a", "b");
  link_pads (s, "b", "c");
  link_pads (s, "c", "sink");
  add_summary (s, "a", 300, 1, 1, 150, "t");
  add_summary (s, "b", 300, 1, 1, 150, "t");
  add_summary (s, "c", 300, 1, 1, 150, "t");
  add_summary (s, "sink", 300, 1, 1, 150, "t");
  add_thread (s, 1, "t", 12.0, els);
  sk = gp_session_add_sink (s, "sink");
  sk->fps = 15;
  sk->target_fps = 30;
  gp_rules_run (s);
  f = gp_session_find_finding (s, "BUDGET", NULL);
  g_assert_nonnull (f);
  g_assert_cmpfloat_with_epsilon (gp_test_evidence_double (f,
      "thread_busy_pct"),
      12.0, 0.01);
  g_assert_nonnull (strstr (f->fix, "No streaming thread looks saturated"));
  gp_session_free (s);
}

static void
test_budget_throughput_silent (void)
{
  GpSession *s = make_encode_session ();
  GpSinkSummary *sk = gp_session_find_sink (s, "sink");

  /* within 5 % of the target */
  sk->fps = 28.6;
  gp_rules_run (s);
  g_assert_cmpuint (gp_session_count_findings (s, "BUDGET"), ==, 0);

  /* just outside */
  sk->fps = 28.4;
  gp_rules_run (s);
  g_assert_cmpuint (gp_session_count_findings (s, "BUDGET"), ==, 1);

  /* no target from the caps: nothing to compare with */
  sk->target_fps = -1;
  s->target_fps = -1;
  s->frame_period_ms = -1;
  gp_rules_run (s);
  g_assert_cmpuint (gp_session_count_findings (s, "BUDGET"), ==, 0);
  gp_session_free (s);

  /* too short to judge: 0.2 s is 6 frames at 30 fps */
  s = make_encode_session ();
  s->duration_s = 0.2;
  gp_session_find_sink (s, "sink")->fps = 10;
  gp_rules_run (s);
  g_assert_cmpuint (gp_session_count_findings (s, "BUDGET"), ==, 0);
  gp_session_free (s);
}

/* BUDGET, latency */

static GpSession *
make_live_latency_session (gboolean live, gdouble p95)
{
  GpSession *s = make_encode_session ();
  GpElement *e = gp_session_find_element (s, "src");
  GpPath *p;

  set_prop_bool (e, "is-live", live);
  p = gp_session_add_path (s, "src.src", "sink");
  p->latency_ms.p50 = p95 - 5;
  p->latency_ms.p95 = p95;
  p->latency_ms.p99 = p95 + 2;
  p->latency_ms.max = p95 + 3;
  p->matched = 300;
  return s;
}

static void
test_budget_latency (void)
{
  GpSession *s;
  GpFinding *f;

  s = make_live_latency_session (TRUE, 50.0);
  gp_rules_run (s);
  g_assert_cmpuint (gp_session_count_findings (s, "BUDGET"), ==, 1);
  f = gp_session_find_finding (s, "BUDGET", NULL);
  g_assert_cmpfloat_with_epsilon (gp_test_evidence_double (f,
      "latency_p95_ms"), 50.0,
      0.001);
  g_assert_cmpfloat_with_epsilon (gp_test_evidence_double (f,
      "frame_period_ms"),
      33.333, 0.001);
  /* 50 / 33.3 - 1 = 50 % over budget */
  g_assert_cmpfloat_with_epsilon (f->rank_value, 50.0, 0.01);
  gp_session_free (s);

  /* within the frame period */
  s = make_live_latency_session (TRUE, 30.0);
  gp_rules_run (s);
  g_assert_cmpuint (gp_session_count_findings (s, "BUDGET"), ==, 0);
  gp_session_free (s);

  /* not live: latency is not a budget */
  s = make_live_latency_session (FALSE, 50.0);
  gp_rules_run (s);
  g_assert_cmpuint (gp_session_count_findings (s, "BUDGET"), ==, 0);
  gp_session_free (s);
}

/* ranking and exit code */

static void
test_ranking (void)
{
  GpSession *s = make_session (10.0);
  const gchar *expect[] = { "H", "M", "I90", "Ia50", "Ib50" };
  GpFinding *f;
  guint i;

  f = gp_session_add_finding (s, "X", "info", "Ib50");
  f->rank_value = 50;
  f = gp_session_add_finding (s, "X", "medium", "M");
  f->rank_value = 10;
  f = gp_session_add_finding (s, "X", "info", "I90");
  f->rank_value = 90;
  f = gp_session_add_finding (s, "X", "high", "H");
  f->rank_value = 5;
  f = gp_session_add_finding (s, "X", "info", "Ia50");
  f->rank_value = 50;
  gp_rules_rank (s);
  for (i = 0; i < G_N_ELEMENTS (expect); i++)
    g_assert_cmpstr (((GpFinding *) g_ptr_array_index (s->findings,
                i))->title, ==, expect[i]);
  gp_session_free (s);
}

static void
test_exit_code (void)
{
  GpSession *s = make_session (10.0);

  g_assert_cmpint (gp_rules_exit_code (s), ==, 0);
  gp_session_add_finding (s, "HOT", "info", "only info");
  g_assert_cmpint (gp_rules_exit_code (s), ==, 0);
  gp_session_add_finding (s, "TEST", "medium", "a medium finding");
  g_assert_cmpint (gp_rules_exit_code (s), ==, 1);
  g_ptr_array_set_size (s->findings, 0);
  gp_session_add_finding (s, "TEST", "high", "a high finding");
  g_assert_cmpint (gp_rules_exit_code (s), ==, 1);
  gp_session_free (s);
}

static void
test_verification_gate (void)
{
  GpSession *s = make_session (10.0);
  const GpRule verified = { "TEST", "a verified test rule", NULL, "bench-x" };
  GpFinding *f;

  /* An unverified rule asking for "high" gets "info". */
  f = gp_rule_add_finding (s, gp_rules_find ("HOT"), "high", "t");
  g_assert_cmpstr (f->severity, ==, "info");
  g_assert_true (f->heuristic);
  g_assert_cmpint (gp_rules_exit_code (s), ==, 0);
  /* A verified one keeps it, and the exit code follows. */
  f = gp_rule_add_finding (s, &verified, "medium", "t");
  g_assert_cmpstr (f->severity, ==, "medium");
  g_assert_false (f->heuristic);
  g_assert_cmpstr (f->verified_on, ==, "bench-x");
  g_assert_cmpint (gp_rules_exit_code (s), ==, 1);
  gp_session_free (s);
}

static void
test_run_clears_findings (void)
{
  GpSession *s = make_session (10.0);

  /* A stale finding from a saved session is not trusted. */
  gp_session_add_finding (s, "TEST", "high", "stale");
  gp_rules_run (s);
  g_assert_cmpuint (s->findings->len, ==, 0);
  g_assert_cmpint (gp_rules_exit_code (s), ==, 0);
  gp_session_free (s);
}

/* verdict */

static void
assert_fits_80 (const gchar * text)
{
  gchar **lines = g_strsplit (text, "\n", -1);
  guint i;

  for (i = 0; lines[i]; i++) {
    if (g_utf8_strlen (lines[i], -1) > GP_VERDICT_WIDTH)
      g_error ("line %u is %ld columns: '%s'", i + 1,
          g_utf8_strlen (lines[i], -1), lines[i]);
    g_assert_false (g_str_has_suffix (lines[i], " "));
  }
  g_strfreev (lines);
}

static void
test_verdict_text (void)
{
  GpSession *s = make_live_latency_session (TRUE, 50.0);
  GpQueueSummary *q;
  gchar *text, *colored, *findings;

  g_free (s->launch);
  s->launch = g_strdup ("videotestsrc is-live=true ! videoconvert ! x264enc "
      "speed-preset=medium ! queue max-size-buffers=3 ! fakesink sync=false "
      "a-very-long-property-name-to-wrap=a-very-long-value-to-wrap-again");
  gp_session_find_sink (s, "sink")->fps = 20.0;
  q = gp_session_add_queue_summary (s, "queue-with-a-rather-long-name0");
  q->residence_ms.p50 = 12.5;
  q->residence_ms.p95 = 20.25;
  q->level_pct_mean = 40;
  q->level_pct_max = 100;
  q->dropped = 7;
  gp_rules_run (s);

  text = gp_verdict_format (s, NULL, GP_VERDICT_PLAIN);
  if (g_test_verbose ())
    g_printerr ("%s", text);
  assert_fits_80 (text);
  g_assert_null (strchr (text, '\033'));
  /* header: rate against the caps' target, latency against the period */
  g_assert_nonnull (strstr (text, "20.0 fps of 30.0 fps"));
  g_assert_nonnull (strstr (text, "45.0 / 50.0 / 52.0 ms"));
  g_assert_nonnull (strstr (text, "52.0 ms  over 33.3 ms"));
  g_assert_nonnull (strstr (text, "limiting: src:src"));
  /* where the time goes: enc first, 70 % */
  g_assert_nonnull (strstr (text, "  enc                      70%"));
  g_assert_nonnull (strstr (text, "queue-with-a-rather~"));
  /* findings, ranked: the verified QUEUE (medium: the source has measured
   * work of its own on enc's thread) first, then the info ones by rank value:
   * CPU (95 % of a core) > HOT (70) > BUDGET latency (50) > throughput (33) */
  findings = gp_verdict_format_findings (s, GP_VERDICT_PLAIN);
  g_assert_true (g_str_has_prefix (findings, "Findings (5)"));
  g_assert_true (g_str_has_suffix (text, findings));
  g_assert_nonnull (strstr (findings, " 1. [medium] QUEUE: live source src"));
  g_assert_nonnull (strstr (findings, " 2. [info] CPU: thread src:src"));
  g_assert_nonnull (strstr (findings, " 3. [info] HOT: enc takes 70%"));
  g_assert_nonnull (strstr (findings, " 4. [info] BUDGET: src to sink"));
  g_assert_nonnull (strstr (findings, " 5. [info] BUDGET: sink gets 20.0"));
  g_assert_nonnull (strstr (findings, "evidence: factory x264enc, self p50 "
          "23.0 ms"));
  g_assert_nonnull (strstr (findings, "heuristic: not yet verified"));

  colored = gp_verdict_format (s, NULL, GP_VERDICT_COLOR);
  g_assert_nonnull (strchr (colored, '\033'));

  g_free (text);
  g_free (colored);
  g_free (findings);
  gp_session_free (s);
}

static void
test_verdict_not_measured (void)
{
  GpSession *s = make_session (0);
  gchar *text;

  gp_rules_run (s);
  text = gp_verdict_format (s, NULL, GP_VERDICT_PLAIN);
  if (g_test_verbose ())
    g_printerr ("%s", text);
  assert_fits_80 (text);
  g_assert_nonnull (strstr (text, "run, duration not measured"));
  g_assert_nonnull (strstr (text, "Rate (steady state at each sink, in its "
          "own media)\n  not measured"));
  g_assert_nonnull (strstr (text, "frame period)\n  not measured (no "
          "buffer was matched"));
  g_assert_nonnull (strstr (text, "Threads\n  not measured"));
  g_assert_nonnull (strstr (text, "Findings: none\n  rules run: PREROLL, "
          "HOT, BUDGET"));
  g_free (text);
  gp_session_free (s);
}

/* The encode session with x264's own threads: @n_workers threads named
 * after the streaming thread (as threads inherit their creator's name), at
 * @each % of a core, and the process at @proc_pct of 2 cores. */
static GpSession *
make_worker_session (guint n_workers, gdouble each, gdouble proc_pct)
{
  GpSession *s = make_encode_session ();
  guint i;

  for (i = 0; i < n_workers; i++) {
    gchar *name = g_strdup_printf ("src:src/%u", 101 + i);
    GpThreadSummary *t = add_thread (s, 101 + i, name, each, NULL);

    t->worker = TRUE;
    g_free (name);
  }
  /* gstprof's own timer, idle */
  add_thread (s, 99, "gstprof-timer", 0.4, NULL)->worker = TRUE;
  s->process.measured = TRUE;
  s->process.cpu_pct_mean = proc_pct;
  s->process.cpu_pct_max = proc_pct + 5;
  s->process.n_cpus = 2;
  s->process.rss_mb_start = 60;
  s->process.rss_mb_max = 180;
  s->process.rss_mb_end = 175;
  gp_session_sort_summaries (s);
  return s;
}

/* Workers saturate both cores: the verdict says the process is CPU-bound
 * and names the workers, and claims no streaming thread as the limit. */
static void
test_verdict_cpu_bound (void)
{
  GpSession *s = make_worker_session (3, 32.0, 191.0);
  gchar *text;

  gp_rules_run (s);
  text = gp_verdict_format (s, NULL, GP_VERDICT_PLAIN);
  if (g_test_verbose ())
    g_printerr ("%s", text);
  assert_fits_80 (text);
  g_assert_nonnull (strstr (text, "Threads\n  process: 191% CPU of 200% "
          "available (2 cores), peak 196%; RSS 60 MiB at start,\n    175 MiB "
          "at the end (max 180 MiB)\n"));
  g_assert_nonnull (strstr (text, "  CPU-bound: all 2 cores are busy (191% "
          "of 200%), 96% of it on worker"));
  g_assert_nonnull (strstr (text, "  worker threads: 4 threads outside "
          "GStreamer's streaming threads, 96% CPU"));
  g_assert_nonnull (strstr (text, "    src:src: 3 threads, 96% CPU; named "
          "after the streaming thread"));
  g_assert_nonnull (strstr (text, "heaviest element is enc"));
  g_assert_nonnull (strstr (text, "    1 more thread, 0.4% CPU\n"));
  g_assert_nonnull (strstr (text, "  busiest streaming: src:src: busy"));
  g_assert_null (strstr (text, "limiting:"));
  g_assert_null (strstr (text, "most CPU:"));
  g_free (text);
  gp_session_free (s);
}

/* Workers with spare cores: the streaming thread is still the limit, and
 * the workers are shown; below 20 % of a core they are not. */
static void
test_verdict_workers (void)
{
  GpSession *s = make_worker_session (2, 30.0, 155.0);
  gchar *text;

  gp_rules_run (s);
  text = gp_verdict_format (s, NULL, GP_VERDICT_PLAIN);
  if (g_test_verbose ())
    g_printerr ("%s", text);
  assert_fits_80 (text);
  g_assert_nonnull (strstr (text, "  process: 155% CPU of 200% available"));
  g_assert_null (strstr (text, "CPU-bound"));
  g_assert_nonnull (strstr (text, "    src:src: 2 threads, 60% CPU"));
  g_assert_nonnull (strstr (text, "  limiting: src:src: busy"));
  gp_session_free (s);
  g_free (text);

  s = make_worker_session (2, 5.0, 106.0);
  gp_rules_run (s);
  text = gp_verdict_format (s, NULL, GP_VERDICT_PLAIN);
  g_assert_nonnull (strstr (text, "  process: 106% CPU"));
  g_assert_null (strstr (text, "worker threads"));
  g_assert_nonnull (strstr (text, "  limiting: src:src: busy"));
  g_free (text);
  gp_session_free (s);
}

/* A pipeline stuck in preroll: the header says so first, names the sink
 * that never prerolled, the one holding the only buffer and the blocked
 * thread, and no rate or latency is claimed. */
static void
test_verdict_never_played (void)
{
  GpSession *s = make_session (5.0);
  GpThreadSummary *t;
  gchar *text;

  g_free (s->reached);
  s->reached = g_strdup ("PAUSED");
  g_ptr_array_add (s->preroll, gp_preroll_sink_new ("vsink", "PAUSED",
          "VOID_PENDING", TRUE));
  g_ptr_array_add (s->preroll, gp_preroll_sink_new ("asink", "READY",
          "PAUSED", FALSE));
  t = add_thread (s, 100, "demux:sink", 0.5, NULL);
  t->blocked_in = g_strdup ("vsink");
  t->blocked_ms = 4900;
  gp_rules_run (s);
  text = gp_verdict_format (s, NULL, GP_VERDICT_PLAIN);
  if (g_test_verbose ())
    g_printerr ("%s", text);
  assert_fits_80 (text);
  g_assert_true (g_str_has_prefix (text, "gstprof verdict: the pipeline "
          "never reached PLAYING\n"));
  g_assert_nonnull (strstr (text, "\nNEVER PLAYED: it got to PAUSED; never "
          "prerolled: asink; holding the only buffer\n  (prerolled): vsink, "
          "which blocks thread demux:sink. No rate, latency or stall\n"));
  g_assert_nonnull (strstr (text, "Threads\n  blocked: demux:sink: in vsink "
          "for 4.9 s\n"));
  g_assert_null (strstr (text, "limiting:"));
  g_assert_nonnull (strstr (text, "Rate (steady state at each sink, in its "
          "own media)\n  not measured (the pipeline never played)"));
  g_assert_cmpuint (gp_session_count_findings (s, "PREROLL"), >=, 1);
  g_free (text);

  /* a pipeline that errors before PLAYING says why itself */
  g_free (s->end);
  s->end = g_strdup ("error");
  gp_session_add_event (s, 0.2, "error", "asink", "Internal data stream "
      "error.");
  gp_rules_run (s);
  text = gp_verdict_format (s, NULL, GP_VERDICT_PLAIN);
  g_assert_true (g_str_has_prefix (text, "gstprof verdict\n"));
  g_assert_null (strstr (text, "NEVER PLAYED"));
  g_assert_nonnull (strstr (text, "ended: on an error (below)"));
  g_assert_nonnull (strstr (text, "error at 0.2 s: asink: Internal data "
          "stream error."));
  g_free (text);
  gp_session_free (s);
}

/* How the run ended, with the EOS drain, and dropped events. */
static void
test_verdict_ended (void)
{
  GpSession *s = make_encode_session ();
  gchar *text;

  g_free (s->reached);
  s->reached = g_strdup ("PLAYING");
  g_free (s->end);
  s->end = g_strdup ("duration");
  s->stop_s = 10.0;
  s->drain_s = 0.25;
  s->events_dropped = 12;
  gp_rules_run (s);
  text = gp_verdict_format (s, NULL, GP_VERDICT_PLAIN);
  if (g_test_verbose ())
    g_printerr ("%s", text);
  assert_fits_80 (text);
  g_assert_true (g_str_has_prefix (text, "gstprof verdict\n"));
  g_assert_nonnull (strstr (text, "\nended: --duration reached at 10.0 s; "
          "EOS drained in 0.25 s\n"));
  g_assert_nonnull (strstr (text, "\nevents: 12 were dropped (too many at "
          "once, a QoS storm): the timeline has gaps\n"));
  g_free (text);

  /* the EOS never came back: the stopped event says how long was waited */
  s->drain_s = -1;
  s->events_dropped = 0;
  gp_session_add_event (s, 13.0, "stopped", "", "EOS did not reach the "
      "sinks in time; pipeline stopped");
  text = gp_verdict_format (s, NULL, GP_VERDICT_PLAIN);
  g_assert_nonnull (strstr (text, "\nended: --duration reached at 10.0 s; "
          "EOS did not reach the sinks in time;\n  pipeline stopped\n"));
  g_assert_null (strstr (text, "were dropped"));
  g_free (text);
  gp_session_free (s);
}

/* Each sink in its own media: audio in real time, RTP in bits and
 * packets, video against the caps' framerate. */
static void
test_verdict_rates (void)
{
  GpSession *s = make_encode_session ();
  GpSinkSummary *sk;
  gchar *text;

  sk = gp_session_find_sink (s, "sink");
  g_free (sk->media);
  sk->media = g_strdup ("video");
  sk->fps = 24.0;
  sk = gp_session_add_sink (s, "asink");
  g_free (sk->media);
  sk->media = g_strdup ("audio");
  sk->fps = 50.0;
  sk->media_per_s = 1.0;
  sk = gp_session_add_sink (s, "udpsink0");
  g_free (sk->media);
  sk->media = g_strdup ("rtp");
  sk->fps = 50.0;
  sk->bytes_per_s = 8625;
  sk->first_s = 4.0;
  s->window_s = 1.0;
  gp_rules_run (s);
  text = gp_verdict_format (s, NULL, GP_VERDICT_PLAIN);
  if (g_test_verbose ())
    g_printerr ("%s", text);
  assert_fits_80 (text);
  g_assert_nonnull (strstr (text, "\n  sink                     24.0 fps of "
          "30.0 fps (caps)  20% below\n"));
  g_assert_nonnull (strstr (text, "\n  asink                  1.00x real "
          "time (audio)  ok\n"));
  g_assert_nonnull (strstr (text, "\n  udpsink0              69 kbit/s, "
          "50.0 packets/s (rtp)\n    first buffer after 4.0 s; the rate is "
          "the steady state after it\n"));
  g_free (text);
  gp_session_free (s);
}

/* Under not-negotiated: the link, what it offered and what the peer
 * accepts, from the event's data. */
static void
test_verdict_negotiation (void)
{
  GpSession *s = make_session (0.5);
  GpEvent *ev;
  gchar *text;

  g_free (s->reached);
  s->reached = g_strdup ("PAUSED");
  g_free (s->end);
  s->end = g_strdup ("error");
  ev = gp_session_add_event (s, 0.1, "error", "src", "Internal data stream "
      "error. (not-negotiated)");
  ev->data = json_object_new ();
  json_object_set_string_member (ev->data, "link", "src.src");
  json_object_set_string_member (ev->data, "peer", "sink.sink");
  json_object_set_string_member (ev->data, "caps", "video/x-raw, "
      "format=(string)I420, width=(int)320, height=(int)240, "
      "framerate=(fraction)30/1");
  json_object_set_string_member (ev->data, "accepts", "audio/x-raw");
  gp_rules_run (s);
  text = gp_verdict_format (s, NULL, GP_VERDICT_PLAIN);
  if (g_test_verbose ())
    g_printerr ("%s", text);
  assert_fits_80 (text);
  g_assert_nonnull (strstr (text, "error at 0.1 s: src: Internal data "
          "stream error. (not-negotiated)\n  at the link src.src > "
          "sink.sink:"));
  g_assert_nonnull (strstr (text, "sink.sink accepts"));
  g_assert_nonnull (strstr (text, "audio/x-raw"));
  g_free (text);
  gp_session_free (s);
}

/* With --cpu, an element mostly off the CPU is said to wait; one that
 * works, or whose total is too small to judge, is not. */
static void
test_verdict_off_cpu (void)
{
  GpSession *s = make_encode_session ();
  gchar *text;

  gp_session_find_elem_summary (s, "enc")->cpu_ms = 6800;
  gp_session_find_elem_summary (s, "conv")->cpu_ms = 30;
  gp_session_find_elem_summary (s, "sink")->cpu_ms = 400;
  gp_rules_run (s);
  text = gp_verdict_format (s, NULL, GP_VERDICT_PLAIN);
  if (g_test_verbose ())
    g_printerr ("%s", text);
  assert_fits_80 (text);
  g_assert_nonnull (strstr (text, "\n  conv was on the CPU for 2.0% of its "
          "self time (--cpu): the rest it spent off\n  it, sleeping"));
  g_assert_null (strstr (text, "enc was on the CPU"));
  g_assert_null (strstr (text, "sink was on the CPU"));
  g_free (text);
  gp_session_free (s);
}

/* A saved session gives the same verdict: the whole text, through the
 * JSON and back. */
static void
test_verdict_round_trip (void)
{
  GpSession *s = make_live_latency_session (TRUE, 50.0), *back;
  GError *err = NULL;
  gchar *data, *a, *b;
  gsize len;

  gp_session_find_sink (s, "sink")->fps = 20.0;
  gp_rules_run (s);
  a = gp_verdict_format (s, NULL, GP_VERDICT_PLAIN);
  data = gp_session_to_data (s, TRUE, &len);
  back = gp_session_load_data (data, len, "round-trip", &err);
  g_assert_no_error (err);
  gp_rules_run (back);
  b = gp_verdict_format (back, NULL, GP_VERDICT_PLAIN);
  g_assert_cmpstr (a, ==, b);
  g_free (a);
  g_free (b);
  g_free (data);
  gp_session_free (s);
  gp_session_free (back);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/rules/registry", test_registry);
  g_test_add_func ("/rules/identity", test_identity);
  g_test_add_func ("/rules/made-by-bin", test_made_by_bin);
  g_test_add_func ("/rules/hot/fires", test_hot_fires);
  g_test_add_func ("/rules/hot/silent-when-even", test_hot_silent_when_even);
  g_test_add_func ("/rules/hot/silent-when-idle", test_hot_silent_when_idle);
  g_test_add_func ("/rules/hot/boundary", test_hot_boundary);
  g_test_add_func ("/rules/hot/excludes-waiting", test_hot_excludes_waiting);
  g_test_add_func ("/rules/budget/throughput-fires",
      test_budget_throughput_fires);
  g_test_add_func ("/rules/budget/throughput-unsaturated",
      test_budget_throughput_unsaturated);
  g_test_add_func ("/rules/budget/throughput-silent",
      test_budget_throughput_silent);
  g_test_add_func ("/rules/budget/latency", test_budget_latency);
  g_test_add_func ("/rules/ranking", test_ranking);
  g_test_add_func ("/rules/exit-code", test_exit_code);
  g_test_add_func ("/rules/verification-gate", test_verification_gate);
  g_test_add_func ("/rules/run-clears-findings", test_run_clears_findings);
  g_test_add_func ("/verdict/text", test_verdict_text);
  g_test_add_func ("/verdict/not-measured", test_verdict_not_measured);
  g_test_add_func ("/verdict/round-trip", test_verdict_round_trip);
  g_test_add_func ("/verdict/cpu-bound", test_verdict_cpu_bound);
  g_test_add_func ("/verdict/workers", test_verdict_workers);
  g_test_add_func ("/verdict/never-played", test_verdict_never_played);
  g_test_add_func ("/verdict/ended", test_verdict_ended);
  g_test_add_func ("/verdict/rates", test_verdict_rates);
  g_test_add_func ("/verdict/negotiation", test_verdict_negotiation);
  g_test_add_func ("/verdict/off-cpu", test_verdict_off_cpu);

  return g_test_run ();
}
