/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * test-rules-match.c: which finding of one run is which of another
 * (gp_rules_finding_key ()), on two hand-made runs of one chain where the
 * second has one more queue at the front, as a fix inserts one, so that
 * every queue after it is renumbered.
 */
#include "rules/gp-rules.h"
#include "gp-test-session.h"
#include "gp-test-util.h"

/* A finding of @rule on @target, with one evidence string @key=@value
 * when @key is not NULL. */
static GpFinding *
add_finding (GpSession * s, const gchar * rule, const gchar * target,
    const gchar * key, const gchar * value)
{
  GpFinding *f = gp_session_add_finding (s, rule, GP_SEVERITY_INFO, rule);

  gp_finding_add_target (f, target);
  if (key)
    gp_finding_set_string (f, key, value);
  return f;
}

/* TRUE when @fa of @a and @fb of @b are the same finding. */
static gboolean
same_finding (GpSession * a, GpFinding * fa, GpSession * b, GpFinding * fb)
{
  gchar *ka = gp_rules_finding_key (a, fa), *kb = gp_rules_finding_key (b,
      fb);
  gboolean same = g_strcmp0 (ka, kb) == 0;

  g_free (ka);
  g_free (kb);
  return same;
}

/* The same queue under its new number is the same finding; the other
 * state of that queue, or another rule on it, is not. */
static void
test_renumbered (void)
{
  GpSession *a = gp_test_chain_session (FALSE),
      *b = gp_test_chain_session (TRUE);
  GpFinding *full = add_finding (a, "QFULL", "queue1", "state", "full");

  g_assert_true (same_finding (a, full, b, add_finding (b, "QFULL",
              "queue2", "state", "full")));
  g_assert_false (same_finding (a, full, b, add_finding (b, "QFULL",
              "queue2", "state", "empty")));
  g_assert_false (same_finding (a, full, b, add_finding (b, "QLEAK",
              "queue2", "state", "full")));
  /* queue1 of the second run is the one before the converter */
  g_assert_false (same_finding (a, full, b, add_finding (b, "QFULL",
              "queue1", "state", "full")));
  gp_session_free (a);
  gp_session_free (b);
}

/* BUDGET says two things of a sink: a rate below its target (with the
 * rate it achieved) and a latency above the frame period. */
static void
test_rate_and_latency (void)
{
  GpSession *a = gp_test_chain_session (FALSE),
      *b = gp_test_chain_session (TRUE);
  GpFinding *rate = add_finding (a, "BUDGET", "fakesink0", NULL, NULL);
  GpFinding *rate_b = add_finding (b, "BUDGET", "fakesink0", NULL, NULL);

  gp_finding_set_double (rate, "achieved_fps", 12.0);
  gp_finding_set_double (rate_b, "achieved_fps", 25.0);
  g_assert_true (same_finding (a, rate, b, rate_b));
  g_assert_false (same_finding (a, rate, b, add_finding (b, "BUDGET",
              "fakesink0", NULL, NULL)));
  gp_session_free (a);
  gp_session_free (b);
}

/* CPU targets every element its thread ran, a list that differs between
 * runs: its thread says what it is about. */
static void
test_cpu_by_thread (void)
{
  GpSession *a = gp_test_chain_session (FALSE),
      *b = gp_test_chain_session (TRUE);
  GpFinding *fa = add_finding (a, "CPU", "x264enc0", "thread",
      "queue1:src");
  GpFinding *fb = add_finding (b, "CPU", "queue2", "thread", "queue2:src");

  g_assert_true (same_finding (a, fa, b, fb));
  g_assert_false (same_finding (a, fa, b, add_finding (b, "CPU",
              "x264enc0", "thread", "queue1:src")));
  gp_session_free (a);
  gp_session_free (b);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/rules/match/renumbered", test_renumbered);
  g_test_add_func ("/rules/match/rate-and-latency", test_rate_and_latency);
  g_test_add_func ("/rules/match/cpu-by-thread", test_cpu_by_thread);
  return g_test_run ();
}
