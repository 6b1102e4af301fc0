/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * test-verdict-machine.c: the verdict's Machine section
 * (src/report/gp-verdict-machine.c) on machines made from the text the
 * tools print (gp-test-machine.h): what was sampled and what not, the
 * loads, clocks, engines, heat, power, cost, facts and the accelerator's
 * peaks read by hand from a real tegrastats line; the bound line naming a
 * machine rule's finding; no section at all without a machine.
 */
#include <string.h>
#include "core/gp-session.h"
#include "rules/gp-rules.h"
#include "report/gp-verdict.h"
#include "gp-test-util.h"
#include "gp-test-machine.h"
#include "gp-test-session.h"

/* A real AGX Orin line held for 10 samples: each row of the section, its
 * values read by hand; then a memory-bound machine: the bound line names
 * MEMBW's finding. */
static void
test_verdict_machine (void)
{
  GPtrArray *lines =
      gp_test_fixture_lines ("tegrastats_agx_orin64_r36.4.4_nvenc_active.txt",
      5);
  GpMachine *m;
  GpSession *s;
  gchar *v;

  if (lines == NULL)
    return;
  m = gp_test_machine_from_lines (lines, 1.0);
  gp_machine_source_set (m, "nvidia-smi", GP_MACHINE_ABSENT,
      "no nvidia-smi on PATH");
  m->cost_pct = 0.4;
  gp_machine_set_fact (m, "board", "AGX Orin 64GB");
  s = gp_test_machine_session (m);
  v = gp_verdict_format (s, NULL, GP_VERDICT_PLAIN);
  gp_test_message_text (v);
  g_assert_nonnull (strstr (v, "\nMachine (over the whole log)\n"));
  g_assert_nonnull (strstr (v, "  sampled:    tegrastats (10 samples every "
          "1 s)\n"));
  g_assert_nonnull (strstr (v, "  unsampled:  nvidia-smi (no "
          "nvidia-smi on PATH)\n"));
  /* the board told by its 12 CPUs; 16 SMs x 1.3 GHz x 4096 ops a clock
   * per SM (the datasheet's 85 TOPS dense), 2 x 3200 MHz x 256 bit */
  g_assert_nonnull (strstr (v, "  peaks:      Jetson AGX Orin 64GB: INT8 "
          "85.2 Top/s, FP16 42.6 Top/s, FP32 5.32\n"
          "                Top/s, memory 205 GB/s"));
  /* the fixture's values, read by hand: EMC 3 % at 2133 MHz; CPU cores'
   * mean 14.25 and 13.42 %, core 5 at 47 and 33 %; NVENC 79 and 78 %,
   * VIC 36 and 32 %; tj 52.562 and 52.343 C; the rails' sum 8.726 and
   * 8.626 W (AGX Orin has no input rail) */
  g_assert_nonnull (strstr (v, "  GPU 0:      load mean 0%, max 0%"));
  g_assert_nonnull (strstr (v, "  memory emc: load mean 3.0%, max 3.0%; "
          "clock mean 2133 MHz, top 2133 MHz\n"));
  g_assert_nonnull (strstr (v, "  CPU:        all 12 mean 14%, max 14%; "
          "busiest core 5 mean 40%, max 47%\n"));
  g_assert_nonnull (strstr (v, "  engines:    NVENC mean 78%, max 79%; "
          "VIC mean 34%, max 36%; 7 idle\n"));
  g_assert_nonnull (strstr (v, "  hottest:    tj max 52.6 C, no trip point "
          "known\n"));
  g_assert_nonnull (strstr (v, "  power:      board mean 8.7 W, max 8.7 W\n"));
  g_assert_nonnull (strstr (v, "  cost:       0.4% of one core\n"));
  g_assert_nonnull (strstr (v, "  facts:      board AGX Orin 64GB\n"));
  g_assert_nonnull (strstr (v, "  bound:      no wall hit: "));
  /* a machine alone: no pipeline section */
  g_assert_null (strstr (v, "\nRate"));
  g_free (v);
  gp_session_free (s);
  g_ptr_array_unref (lines);

  /* a wall hit: the bound names its finding */
  s = gp_test_machine_session (gp_test_pattern_memory ());
  v = gp_verdict_format (s, NULL, GP_VERDICT_PLAIN);
  gp_test_message_text (v);
  g_assert_nonnull (strstr (v, "  bound:      MEMBW: the memory bus "
          "(membw.load/emc) busy >= 80%"));
  g_assert_nonnull (strstr (v, "  GPU 0:      load mean 70%, max 71%; "
          "clock mean 1300 MHz, top 1300 MHz\n"));
  /* the evidence in its units */
  g_assert_nonnull (strstr (v, "clock top 3199 MHz"));
  g_free (v);
  gp_session_free (s);
}
/* A session without a machine: the verdict has no Machine section, and its
 * pipeline sections are there. */
static void
test_verdict_no_machine (void)
{
  GpSession *s = gp_test_encode_session ();
  gchar *v;

  g_assert_null (s->machine);
  gp_rules_run (s);
  v = gp_verdict_format (s, NULL, GP_VERDICT_PLAIN);
  g_assert_null (strstr (v, "\nMachine"));
  g_assert_nonnull (strstr (v, "\nRate"));
  g_free (v);
  gp_session_free (s);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/verdict/machine/section", test_verdict_machine);
  g_test_add_func ("/verdict/machine/none", test_verdict_no_machine);
  return g_test_run ();
}
