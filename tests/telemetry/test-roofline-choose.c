/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * test-roofline-choose.c: what an accelerator's roofline is drawn for
 * (gp-roofline-choose.c): the peaks of a named part, of the part a real
 * nvidia-smi log shows, of the figures given alone, and the refusals;
 * the workload of a known network at a given rate (its point worked out
 * by hand from the models table), of given ops, of none; a session's
 * frame rate from its first video sink.
 */
#include <math.h>
#include <string.h>

#include "telemetry/gp-models.h"
#include "telemetry/gp-roofline-build.h"
#include "../common/gp-test-fixtures.h"

static void
gp_choose_ask_init (GpRooflineAsk * a)
{
  memset (a, 0, sizeof *a);
  a->peak_ops = a->peak_bw = a->sms = a->bus_bits = NAN;
  a->ops = a->bytes = a->fps = NAN;
}

/* a named part; the user's bandwidth over the table's; a name the table
 * does not know; neither a part nor telemetry */
static void
test_peaks_target (void)
{
  GpRooflineAsk a;
  GError *err = NULL;
  GpPeaks *p;

  gp_choose_ask_init (&a);
  a.target = "AGX Orin 64GB";
  p = gp_roofline_choose_peaks (&a, NULL, &err);
  g_assert_no_error (err);
  g_assert_cmpstr (p->row->name, ==, "Jetson AGX Orin 64GB");
  g_assert_cmpfloat (p->bw, >, 100e9);
  gp_peaks_free (p);

  a.peak_bw = 100e9;
  p = gp_roofline_choose_peaks (&a, NULL, &err);
  g_assert_no_error (err);
  g_assert_cmpfloat (p->bw, ==, 100e9);
  gp_peaks_free (p);

  a.target = "NVIDIA GeForce RTX 3090 Ti";
  g_assert_null (gp_roofline_choose_peaks (&a, NULL, &err));
  g_assert_nonnull (err);
  g_assert_true (g_str_has_prefix (err->message, "--target: "));
  g_clear_error (&err);

  a.target = NULL;
  g_assert_null (gp_roofline_choose_peaks (&a, NULL, &err));
  g_assert_error (err, GP_PEAKS_ERROR, GP_PEAKS_ERROR_MISSING);
  g_clear_error (&err);
}

/* the part a real nvidia-smi query shows; a log that names no part
 * (tegrastats of a board the CPU count does not tell, here a machine
 * with no facts) takes the peaks given, or refuses without them */
static void
test_peaks_machine (void)
{
  GpMachine *m = gp_test_fixture_machine
      ("nvidia_smi_query_l40s_2gpu_csv_with_header_units.txt");
  GpMachine *bare = gp_machine_new ();
  GpRooflineAsk a;
  GError *err = NULL;
  GpPeaks *p;

  g_assert_nonnull (m);
  gp_choose_ask_init (&a);
  p = gp_roofline_choose_peaks (&a, m, &err);
  g_assert_no_error (err);
  g_assert_cmpstr (p->row->name, ==, "L40S");
  gp_peaks_free (p);

  g_assert_null (gp_roofline_choose_peaks (&a, bare, &err));
  g_assert_nonnull (err);
  g_clear_error (&err);
  a.peak_ops = 85e12;
  a.peak_bw = 204.8e9;
  p = gp_roofline_choose_peaks (&a, bare, &err);
  g_assert_no_error (err);
  g_assert_cmpstr (p->target, ==, "given peaks");
  g_assert_cmpfloat (p->bw, ==, 204.8e9);
  gp_peaks_free (p);
  gp_machine_free (bare);
  gp_machine_free (m);
}

/* resnet50 at 40 fps on the Orin: one point at 40 x its ops a frame,
 * judged against the FP16 roof; no workload: the memory traffic alone,
 * and without telemetry no point at all */
static void
test_workload (void)
{
  const GpModel *model = gp_model_find ("resnet50");
  const GpRooflinePoint *pt;
  GpRooflineAsk a;
  GpRoofline *r;
  GpPeaks *p;
  gchar *work = NULL, *how = NULL;
  gint judged = -2;

  gp_choose_ask_init (&a);
  a.target = "AGX Orin 64GB";
  p = gp_roofline_choose_peaks (&a, NULL, NULL);
  a.model = "resnet50";
  a.fps = 40;
  r = gp_roofline_of_ask (&a, p, NULL, NAN, &work, &how, &judged);
  g_assert_nonnull (strstr (work, model->title));
  g_assert_nonnull (strstr (work, "at FP16, 40 fps"));
  g_assert_cmpint (judged, ==, gp_roofline_find_roof (r, "FP16"));
  g_assert_cmpint (judged, >=, 0);
  g_assert_cmpuint (r->points->len, ==, 1);
  pt = g_ptr_array_index (r->points, 0);
  g_assert_cmpfloat_with_epsilon (pt->ops_per_s, 40 * gp_model_ops (model),
      1);
  gp_roofline_free (r);
  g_clear_pointer (&work, g_free);
  g_clear_pointer (&how, g_free);

  /* the session's rate when none is given */
  a.fps = NAN;
  a.model = NULL;
  a.ops = 1e9;
  r = gp_roofline_of_ask (&a, p, NULL, 25, &work, NULL, &judged);
  g_assert_cmpstr (work, ==, "1e+09 op per frame, no bytes per frame, at "
      "25 fps");
  pt = g_ptr_array_index (r->points, 0);
  g_assert_cmpfloat_with_epsilon (pt->ops_per_s, 25e9, 1);
  gp_roofline_free (r);
  g_clear_pointer (&work, g_free);

  a.ops = NAN;
  r = gp_roofline_of_ask (&a, p, NULL, NAN, &work, &how, &judged);
  g_assert_true (g_str_has_prefix (work, "none given"));
  g_assert_cmpuint (r->points->len, ==, 0);
  g_assert_null (how);
  gp_roofline_free (r);
  g_free (work);
  gp_peaks_free (p);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/roofline-choose/peaks-target", test_peaks_target);
  g_test_add_func ("/roofline-choose/peaks-machine", test_peaks_machine);
  g_test_add_func ("/roofline-choose/workload", test_workload);
  return g_test_run ();
}
