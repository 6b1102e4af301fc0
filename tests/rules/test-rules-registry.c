/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * test-rules-registry.c: the rule registry, HOT and BUDGET, ranking and
 * the exit code, on sessions made by hand (gp-test-session.h) so the truth
 * is known exactly (the verdict text: tests/report/test-verdict.c).
 */
#include <string.h>
#include "core/gp-session.h"
#include "rules/gp-rules.h"
#include "report/gp-compare.h"
#include "gp-test-util.h"
#include "gp-test-session.h"

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
  GpSession *s = gp_test_session_new (10.0);
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
  gp_test_set_prop_bool (e, "sync", FALSE);
  gp_test_link_pads (s, "filesrc0", "avdec_h264-0");
  gp_test_link_pads (s, "avdec_h264-0", "fakesink0");
  gp_test_add_summary (s, "avdec_h264-0", 7000, 23.0, 30.0, 300, "d:sink");
  gp_test_add_summary (s, "fakesink0", 500, 1.6, 2.0, 300, "d:sink");
  gp_test_add_thread (s, 100, "d:sink", 75.0, els);
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

/* A rule's measure (what gstprof fix --apply holds its fix to) is what its
 * bench pairs measure: a pair of CPU or latency belongs to a rule whose
 * measure has it (a rate or a drop count is every fix's); and the words
 * docs/commands.md gives are the registry's. */
static void
test_measures (void)
{
  gchar *path = g_build_filename (g_getenv ("GP_SOURCE_ROOT"), "bench",
      "pairs", "results.json", NULL);
  gchar *doc = g_build_filename (g_getenv ("GP_SOURCE_ROOT"), "docs",
      "commands.md", NULL);
  JsonParser *parser = json_parser_new ();
  JsonArray *results;
  GRegex *ws = g_regex_new ("\\s+", 0, 0, NULL);
  gchar *text, *flat, *words;
  guint i;

  g_assert_true (json_parser_load_from_file (parser, path, NULL));
  results = json_object_get_array_member (json_node_get_object
      (json_parser_get_root (parser)), "results");
  for (i = 0; i < json_array_get_length (results); i++) {
    JsonObject *r = json_array_get_object_element (results, i);
    const gchar *metric = json_object_get_string_member (r, "metric");
    const GpRule *rule = gp_rules_find (json_object_get_string_member (r,
            "rule"));
    guint need = g_str_has_prefix (metric, "latency") ?
        GP_RULE_MEASURE_LATENCY : g_str_equal (metric, "cpu_pct") ?
        GP_RULE_MEASURE_CPU : GP_RULE_MEASURE_RATE;

    g_assert_nonnull (rule);
    if ((rule->measure & need) != need)
      g_error ("%s's pair %s measures %s, not in the rule's measure", rule->id,
          json_object_get_string_member (r, "pair"), metric);
  }
  g_assert_true (g_file_get_contents (doc, &text, NULL, NULL));
  flat = g_regex_replace_literal (ws, text, -1, 0, " ", 0, NULL);
  words = gp_rules_measures_text ();
  if (strstr (flat, words) == NULL)
    g_error ("docs/commands.md does not say \"%s\"", words);
  g_free (words);
  g_free (flat);
  g_free (text);
  g_regex_unref (ws);
  g_object_unref (parser);
  g_free (doc);
  g_free (path);
}

/* HOT */

static void
test_hot_fires (void)
{
  GpSession *s = gp_test_encode_session ();
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
  GpSession *s = gp_test_session_new (10.0);

  gp_test_add_element (s, "a", "identity", "filter");
  gp_test_add_element (s, "b", "identity", "filter");
  gp_test_add_element (s, "c", "identity", "filter");
  gp_test_add_element (s, "d", "identity", "filter");
  gp_test_add_summary (s, "a", 2000, 2, 2, 1000, "t");
  gp_test_add_summary (s, "b", 2000, 2, 2, 1000, "t");
  gp_test_add_summary (s, "c", 2000, 2, 2, 1000, "t");
  gp_test_add_summary (s, "d", 1900, 1.9, 1.9, 1000, "t");
  gp_rules_run (s);
  /* 25 % each: no element dominates. */
  g_assert_cmpuint (gp_session_count_findings (s, "HOT"), ==, 0);
  gp_session_free (s);
}

static void
test_hot_silent_when_idle (void)
{
  GpSession *s = gp_test_session_new (10.0);

  gp_test_add_element (s, "conv", "videoconvert", "filter");
  gp_test_add_element (s, "src", "videotestsrc", "source");
  /* 90 % of the work, but only 3 % of the run: 1 ms a frame at 30 fps. */
  gp_test_add_summary (s, "conv", 300, 1.0, 1.1, 300, "t");
  gp_test_add_summary (s, "src", 33, 0.1, 0.1, 300, "t");
  gp_rules_run (s);
  g_assert_cmpuint (gp_session_count_findings (s, "HOT"), ==, 0);
  gp_session_free (s);
}

static void
test_hot_boundary (void)
{
  GpSession *s = gp_test_session_new (10.0);

  gp_test_add_element (s, "a", "identity", "filter");
  gp_test_add_element (s, "b", "identity", "filter");
  /* 60.1 %: fires */
  gp_test_add_summary (s, "a", 3990, 4, 4, 1000, "t");
  gp_test_add_summary (s, "b", 6010, 6, 6, 1000, "t");
  gp_rules_run (s);
  g_assert_cmpuint (gp_session_count_findings (s, "HOT"), ==, 1);
  g_assert_cmpstr (g_ptr_array_index (gp_session_find_finding (s, "HOT",
              NULL)->targets, 0), ==, "b");
  /* the runner-up is above 25 %: named in the evidence */
  g_assert_cmpstr (json_object_get_string_member (gp_session_find_finding (s,
              "HOT", NULL)->evidence, "next"), ==, "a");
  gp_session_free (s);

  s = gp_test_session_new (10.0);
  gp_test_add_element (s, "a", "identity", "filter");
  gp_test_add_element (s, "b", "identity", "filter");
  gp_test_add_element (s, "c", "identity", "filter");
  /* 39.9 % is below the 40 % threshold: silent */
  gp_test_add_summary (s, "a", 3990, 4, 4, 1000, "t");
  gp_test_add_summary (s, "b", 3005, 3, 3, 1000, "t");
  gp_test_add_summary (s, "c", 3005, 3, 3, 1000, "t");
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
  GpSession *s = gp_test_session_new (10.0);
  GpElement *e;
  GpFinding *f;

  gp_test_add_element (s, "src", "videotestsrc", "source");
  gp_test_add_element (s, "q", "queue", "queue");
  gp_test_add_element (s, "work", "identity", "filter");
  e = gp_test_add_element (s, "sink", "autovideosink", "sink");
  gp_test_set_prop_bool (e, "sync", TRUE);
  gp_session_add_queue_summary (s, "q");
  gp_test_add_summary (s, "sink", 9000, 30, 33, 300, "q:src");
  gp_test_add_summary (s, "q", 8000, 25, 30, 300, "q:src");
  gp_test_add_summary (s, "work", 1500, 5, 5.5, 300, "q:src");
  gp_test_add_summary (s, "src", 500, 1.6, 1.7, 300, "src:src");
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
  GpSession *s = gp_test_encode_session ();
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
  GpSession *s = gp_test_session_new (10.0);
  const gchar *const els[] = { "a", "b", "c", "sink", NULL };
  GpSinkSummary *sk;
  GpElement *e;
  GpFinding *f;

  gp_test_add_element (s, "a", "identity", "filter");
  gp_test_add_element (s, "b", "identity", "filter");
  gp_test_add_element (s, "c", "identity", "filter");
  e = gp_test_add_element (s, "sink", "fakesink", "sink");
  gp_test_set_prop_bool (e, "sync", FALSE);
  gp_test_link_pads (s, "a", "b");
  gp_test_link_pads (s, "b", "c");
  gp_test_link_pads (s, "c", "sink");
  gp_test_add_summary (s, "a", 300, 1, 1, 150, "t");
  gp_test_add_summary (s, "b", 300, 1, 1, 150, "t");
  gp_test_add_summary (s, "c", 300, 1, 1, 150, "t");
  gp_test_add_summary (s, "sink", 300, 1, 1, 150, "t");
  gp_test_add_thread (s, 1, "t", 12.0, els);
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
  GpSession *s = gp_test_encode_session ();
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
  s = gp_test_encode_session ();
  s->duration_s = 0.2;
  gp_session_find_sink (s, "sink")->fps = 10;
  gp_rules_run (s);
  g_assert_cmpuint (gp_session_count_findings (s, "BUDGET"), ==, 0);
  gp_session_free (s);
}

/* BUDGET, latency */

static void
test_budget_latency (void)
{
  GpSession *s;
  GpFinding *f;

  s = gp_test_live_latency_session (TRUE, 50.0);
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
  s = gp_test_live_latency_session (TRUE, 30.0);
  gp_rules_run (s);
  g_assert_cmpuint (gp_session_count_findings (s, "BUDGET"), ==, 0);
  gp_session_free (s);

  /* not live: latency is not a budget */
  s = gp_test_live_latency_session (FALSE, 50.0);
  gp_rules_run (s);
  g_assert_cmpuint (gp_session_count_findings (s, "BUDGET"), ==, 0);
  gp_session_free (s);
}

/* ranking and exit code */

static void
test_ranking (void)
{
  GpSession *s = gp_test_session_new (10.0);
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
  GpSession *s = gp_test_session_new (10.0);

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
  GpSession *s = gp_test_session_new (10.0);
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
  GpSession *s = gp_test_session_new (10.0);

  /* A stale finding from a saved session is not trusted. */
  gp_session_add_finding (s, "TEST", "high", "stale");
  gp_rules_run (s);
  g_assert_cmpuint (s->findings->len, ==, 0);
  g_assert_cmpint (gp_rules_exit_code (s), ==, 0);
  gp_session_free (s);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/rules/registry", test_registry);
  g_test_add_func ("/rules/measures", test_measures);
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

  return g_test_run ();
}
