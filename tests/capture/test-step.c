/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* tests of gp-step's density search: the counts it asks for, one step at
 * a time, against machines whose answer is known (a truth K: every count
 * up to K holds, every one above does not), and its answer; a count that
 * holds above one that did not (a noisy step) does not move the answer
 * past the failure. The measured step itself is run by ds sweep's, gate's
 * and density's tests on real pipelines. */
#include <string.h>

#include "capture/gp-step.h"

/* The counts asked for, in order, on a machine that holds @truth streams,
 * as "1 2 4 8 6 5"; the answer in @answer. */
static gchar *
gp_test_search (guint truth, guint max, guint * answer)
{
  gint *held = g_new0 (gint, max + 1);
  GString *asked = g_string_new (NULL);
  guint n;

  while ((n = gp_step_density_next (held, max)) > 0) {
    g_assert_cmpuint (n, <=, max);
    g_assert_cmpint (held[n], ==, 0);
    held[n] = n <= truth ? 1 : -1;
    g_string_append_printf (asked, "%s%u", asked->len ? " " : "", n);
  }
  *answer = gp_step_density_answer (held, max);
  g_free (held);
  return g_string_free (asked, FALSE);
}

static void
test_step_search (void)
{
  const struct
  {
    guint truth, max;
    const gchar *asked;
  } cases[] = {
    {5, 16, "1 2 4 8 6 5"},
    {4, 16, "1 2 4 8 6 5"},
    {3, 8, "1 2 4 3"},
    {0, 16, "1"},
    {1, 16, "1 2"},
    {16, 16, "1 2 4 8 16"},
    /* the maximum is asked when doubling passes it */
    {20, 12, "1 2 4 8 12"},
    {10, 12, "1 2 4 8 12 10 11"},
    {7, 7, "1 2 4 7"},
  };
  guint i, answer;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    gchar *asked = gp_test_search (cases[i].truth, cases[i].max, &answer);

    g_test_message ("truth %u of %u: %s -> %u", cases[i].truth,
        cases[i].max, asked, answer);
    g_assert_cmpstr (asked, ==, cases[i].asked);
    g_assert_cmpuint (answer, ==, MIN (cases[i].truth, cases[i].max));
    g_free (asked);
  }
}

/* 4 failed, then 6 held by chance: the answer stays below the failure. */
static void
test_step_search_noisy (void)
{
  gint held[9] = { 0 };

  held[1] = held[2] = 1;
  held[4] = -1;
  held[6] = 1;
  g_assert_cmpuint (gp_step_density_next (held, 8), ==, 3);
  held[3] = 1;
  g_assert_cmpuint (gp_step_density_next (held, 8), ==, 0);
  g_assert_cmpuint (gp_step_density_answer (held, 8), ==, 3);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/capture/step/search", test_step_search);
  g_test_add_func ("/capture/step/search-noisy", test_step_search_noisy);
  return g_test_run ();
}
