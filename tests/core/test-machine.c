/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* tests of gp-machine: the machine's series, sources and facts, their
 * spans, and session.machine written and read back */
#include <math.h>
#include <string.h>

#include "core/gp-session.h"

static GpMachine *
build_machine (void)
{
  GpMachine *m = gp_machine_new ();
  GpMachineSeries *load = gp_machine_series (m, GP_MACHINE_GPU_LOAD, "0",
      GP_UNIT_PCT, "tegrastats");
  GpMachineSeries *temp = gp_machine_series (m, GP_MACHINE_TEMP, "tj",
      GP_UNIT_C, "thermal");
  guint i;

  temp->limit = 95.5;
  for (i = 0; i < 10; i++) {
    g_assert_true (gp_machine_series_append (m, load, i * 0.5, i * 10.0));
    g_assert_true (gp_machine_series_append (m, temp, i * 0.5,
            i == 3 ? NAN : 40.0 + i));
  }
  gp_machine_source (m, "tegrastats")->samples = 10;
  gp_machine_source (m, "tegrastats")->interval_s = 0.5;
  gp_machine_source_set (m, "nvidia-smi", GP_MACHINE_ABSENT,
      "no nvidia-smi in PATH");
  gp_machine_set_fact (m, "board", "NVIDIA Jetson AGX Orin");
  gp_machine_set_fact_double (m, "membw.cpu_gbps", 12.5);
  m->cost_pct = 0.25;
  return m;
}

static void
test_machine_spans (void)
{
  g_autoptr (GpMachine) m = build_machine ();
  GpMachineSeries *load = gp_machine_find (m, GP_MACHINE_GPU_LOAD, NULL);
  GpMachineSeries *temp = gp_machine_find (m, GP_MACHINE_TEMP, "tj");
  g_autoptr (GPtrArray) all = gp_machine_find_all (m, GP_MACHINE_TEMP);
  g_autofree gchar *q = gp_machine_series_quantity (temp);

  g_assert_nonnull (load);
  g_assert_cmpstr (load->name, ==, "gpu.load/0");
  g_assert_cmpstr (q, ==, "temp");
  g_assert_cmpstr (gp_machine_series_instance (temp), ==, "tj");
  g_assert_cmpuint (all->len, ==, 1);
  g_assert_null (gp_machine_find (m, "gpu", NULL));
  g_assert_null (gp_machine_find (m, GP_MACHINE_TEMP, "gpu"));
  /* 0..90 step 10 */
  g_assert_cmpfloat_with_epsilon (gp_machine_series_mean (load, NAN, NAN),
      45.0, 1e-9);
  /* t in [1, 2]: samples 2, 3, 4 */
  g_assert_cmpfloat_with_epsilon (gp_machine_series_mean (load, 1, 2), 30.0,
      1e-9);
  g_assert_cmpfloat (gp_machine_series_max (load, NAN, NAN), ==, 90.0);
  g_assert_cmpfloat (gp_machine_series_min (load, 1, NAN), ==, 20.0);
  g_assert_cmpfloat_with_epsilon (gp_machine_series_share_above (load, 50,
          NAN, NAN), 0.5, 1e-9);
  /* the missing sample is left out */
  g_assert_cmpuint (gp_machine_series_count (temp, NAN, NAN), ==, 9);
  g_assert_true (isnan (gp_machine_series_mean (temp, 1.5, 1.5)));
  /* times never go back */
  g_assert_false (gp_machine_series_append (m, load, 1.0, 5.0));
  g_assert_cmpuint (gp_machine_series_len (load), ==, 10);
  g_assert_cmpstr (gp_machine_find_source (m, "tegrastats")->state, ==,
      GP_MACHINE_SAMPLED);
  g_assert_cmpfloat (gp_machine_fact_double (m, "membw.cpu_gbps"), ==, 12.5);
  gp_machine_set_fact (m, "board", "other");
  g_assert_cmpstr (gp_machine_fact (m, "board"), ==, "other");
  g_assert_cmpuint (m->facts->len, ==, 4);
  g_assert_true (isnan (gp_machine_fact_double (m, "board")));
}

static void
test_machine_round_trip (void)
{
  GpSession *s = gp_session_new (), *back;
  GError *error = NULL;
  gchar *data;
  GpMachineSeries *temp;
  GpMachineSource *src;

  s->machine = build_machine ();
  data = gp_session_to_data (s, FALSE, NULL);
  back = gp_session_load_data (data, -1, "mem", &error);
  g_assert_no_error (error);
  g_assert_nonnull (back->machine);
  g_assert_cmpuint (back->machine->series->len, ==, 2);
  temp = gp_machine_find (back->machine, GP_MACHINE_TEMP, "tj");
  g_assert_cmpstr (temp->unit, ==, "C");
  g_assert_cmpstr (temp->source, ==, "thermal");
  g_assert_cmpfloat (temp->limit, ==, 95.5);
  g_assert_cmpuint (gp_machine_series_len (temp), ==, 10);
  g_assert_true (isnan (gp_machine_series_v (temp, 3)));
  g_assert_cmpfloat (gp_machine_series_v (temp, 9), ==, 49.0);
  g_assert_cmpfloat (gp_machine_series_t (temp, 9), ==, 4.5);
  g_assert_true (isnan (gp_machine_find (back->machine,
              GP_MACHINE_GPU_LOAD, "0")->limit));
  src = gp_machine_find_source (back->machine, "tegrastats");
  g_assert_cmpuint (src->samples, ==, 10);
  g_assert_cmpfloat (src->interval_s, ==, 0.5);
  src = gp_machine_find_source (back->machine, "nvidia-smi");
  g_assert_cmpstr (src->state, ==, GP_MACHINE_ABSENT);
  g_assert_cmpstr (src->detail, ==, "no nvidia-smi in PATH");
  g_assert_cmpstr (gp_machine_fact (back->machine, "board"), ==,
      "NVIDIA Jetson AGX Orin");
  g_assert_cmpfloat (back->machine->cost_pct, ==, 0.25);
  g_free (data);
  gp_session_free (back);

  /* no machine: no key, and none read back */
  gp_machine_free (s->machine);
  s->machine = NULL;
  data = gp_session_to_data (s, FALSE, NULL);
  g_assert_null (strstr (data, "\"machine\""));
  back = gp_session_load_data (data, -1, "mem", &error);
  g_assert_no_error (error);
  g_assert_null (back->machine);
  g_free (data);
  gp_session_free (back);
  gp_session_free (s);
}

/* A damaged machine section is one error line naming the key. */
static void
test_machine_refused (void)
{
  static const struct
  {
    const gchar *machine;
    const gchar *key;
  } cases[] = {
    {"{\"series\":[{\"name\":\"gpu.load\",\"t\":[],\"v\":[]}]}",
        "machine.series[0].name"},
    {"{\"series\":[{\"name\":\"gpu.load/0\",\"t\":[1,2],\"v\":[1]}]}",
        "machine.series[0].v"},
    {"{\"series\":[{\"name\":\"gpu.load/0\",\"t\":[2,1],\"v\":[1,2]}]}",
        "machine.series[0].t"},
    {"{\"series\":[{\"name\":\"gpu.load/0\",\"t\":[\"x\"],\"v\":[1]}]}",
        "machine.series[0].t[0]"},
    {"{\"series\":[{\"name\":\"a/0\",\"t\":[],\"v\":[]},"
          "{\"name\":\"a/0\",\"t\":[],\"v\":[]}]}", "machine.series[1]"},
    {"{\"sources\":[{\"state\":\"sampled\"}]}", "machine.sources[0].name"},
    {"{\"facts\":{\"board\":3}}", "machine.facts.board"},
    {"[]", "machine"},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    gchar *data = g_strdup_printf ("{\"schema\":\"gstprof/1\",\"session\":{},"
        "\"machine\":%s}", cases[i].machine);
    GError *error = NULL;
    GpSession *s = gp_session_load_data (data, -1, "bad.json", &error);
    gchar *want = g_strdup_printf ("bad.json: %s", cases[i].key);

    g_assert_null (s);
    g_assert_nonnull (error);
    if (!g_str_has_prefix (error->message, want))
      g_error ("case %u: \"%s\" does not start with \"%s\"", i,
          error->message, want);
    g_assert_null (strchr (error->message, '\n'));
    g_free (want);
    g_clear_error (&error);
    g_free (data);
  }
}

/* A series thinned to a bound: a copy of at most that many samples, its
 * mean, maximum, minimum and count those of every sample, its last time
 * the last sample's; the series itself untouched. session.json's bounded
 * form holds each series to the bound, the plain one keeps all, and a
 * session's copy keeps every sample as it is. */
static void
test_machine_thinned (void)
{
  GpSession *s = gp_session_new (), *copy;
  GpMachineSeries *ms, *thin, *cs;
  GError *err = NULL;
  JsonNode *node;
  JsonArray *t;
  guint i;

  s->machine = gp_machine_new ();
  ms = gp_machine_series (s->machine, "cpu.load", "all", "%", "proc");
  for (i = 0; i < 1000; i++)
    gp_machine_series_append (s->machine, ms, i * 0.02,
        i == 500 ? 99.0 : i == 700 ? 1.0 : 40.0 + (i % 7));
  thin = gp_machine_series_thinned (ms, 256);
  g_assert_cmpuint (gp_machine_series_len (thin), <=, 256);
  g_assert_cmpuint (gp_machine_series_len (thin), >, 128);
  g_assert_cmpuint (gp_machine_series_len (ms), ==, 1000);
  g_assert_cmpfloat_with_epsilon (gp_machine_series_mean (thin, NAN, NAN),
      gp_machine_series_mean (ms, NAN, NAN), 1e-9);
  g_assert_cmpfloat (gp_machine_series_max (thin, NAN, NAN), ==, 99.0);
  g_assert_cmpfloat (gp_machine_series_min (thin, NAN, NAN), ==, 1.0);
  g_assert_cmpuint (gp_machine_series_count (thin, NAN, NAN), ==, 1000);
  g_assert_cmpfloat (gp_machine_series_t (thin,
          gp_machine_series_len (thin) - 1), ==, 999 * 0.02);
  gp_machine_series_free (thin);

  node = gp_session_to_json_bounded (s, 256);
  t = json_object_get_array_member (json_array_get_object_element
      (json_object_get_array_member (json_object_get_object_member
              (json_node_get_object (node), "machine"), "series"), 0), "t");
  g_assert_cmpuint (json_array_get_length (t), <=, 256);
  json_node_unref (node);
  node = gp_session_to_json (s);
  t = json_object_get_array_member (json_array_get_object_element
      (json_object_get_array_member (json_object_get_object_member
              (json_node_get_object (node), "machine"), "series"), 0), "t");
  g_assert_cmpuint (json_array_get_length (t), ==, 1000);
  json_node_unref (node);

  /* a session's copy keeps every sample, merged ones with their counts */
  gp_machine_series_thin (ms);
  copy = gp_session_copy (s, &err);
  g_assert_no_error (err);
  cs = gp_machine_find (copy->machine, "cpu.load", "all");
  g_assert_nonnull (cs);
  g_assert_cmpuint (gp_machine_series_len (cs), ==, 500);
  g_assert_cmpuint (gp_machine_series_count (cs, NAN, NAN), ==, 1000);
  g_assert_cmpfloat (gp_machine_series_max (cs, NAN, NAN), ==, 99.0);
  g_assert_cmpfloat (gp_machine_series_min (cs, NAN, NAN), ==, 1.0);
  g_assert_cmpstr (gp_machine_find_source (copy->machine, "proc")->state,
      ==, gp_machine_find_source (s->machine, "proc")->state);
  gp_session_free (copy);
  gp_session_free (s);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/machine/spans", test_machine_spans);
  g_test_add_func ("/machine/round-trip", test_machine_round_trip);
  g_test_add_func ("/machine/refused", test_machine_refused);
  g_test_add_func ("/machine/thinned", test_machine_thinned);
  return g_test_run ();
}
