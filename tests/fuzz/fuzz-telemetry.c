/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof fuzz target: saved tegrastats logs and nvidia-smi outputs read
 * whole into the machine's series (src/telemetry, gp-telemetry.c), and the
 * machine through session.machine and back (src/core).
 *
 * libFuzzer feeds arbitrary bytes to gp_telemetry_load_data (). Seeded with
 * every GP_FIXTURES/telemetry tegrastats and nvidia-smi file. Besides "no
 * crash, no leak, no undefined behaviour", it checks:
 * - a refusal is one line that starts with the name given for the input;
 * - every series is named QUANTITY/INSTANCE, its unit one of the
 *   vocabulary's, its times finite and never going back, its values finite
 *   or missing;
 * - a session holding the machine is written and read back with the same
 *   series, lengths and values.
 *
 * Built and run by tests/fuzz/run-fuzz.sh (`make fuzz`).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/gp-session.h"
#include "telemetry/gp-telemetry.h"
#include "gp-fuzz-checks.h"

#define ORIGIN "fuzz.log"

static const gchar *const fuzz_units[] = {
  GP_UNIT_PCT, GP_UNIT_MHZ, GP_UNIT_C, GP_UNIT_W, GP_UNIT_MIB, GP_UNIT_GBPS,
  GP_UNIT_NONE,
};

static void
check_series (const GpMachineSeries * s)
{
  gboolean unit_known = FALSE;
  guint i;

  if (strchr (s->name, '/') == NULL || s->name[0] == '/')
    abort ();
  for (i = 0; i < G_N_ELEMENTS (fuzz_units); i++)
    unit_known = unit_known || strcmp (s->unit, fuzz_units[i]) == 0;
  if (!unit_known) {
    g_printerr ("series %s: unit '%s'\n", s->name, s->unit);
    abort ();
  }
  for (i = 0; i < gp_machine_series_len (s); i++) {
    gdouble t = gp_machine_series_t (s, i), v = gp_machine_series_v (s, i);

    if (!isfinite (t) || (i > 0 && t < gp_machine_series_t (s, i - 1)))
      abort ();
    if (!isnan (v))
      gp_fuzz_check_number (s->name, v);
  }
}

static void
check_round_trip (GpMachine * m)
{
  GpSession *s = gp_session_new (), *back;
  GError *err = NULL;
  gchar *data;
  guint i, j;

  s->machine = m;
  data = gp_session_to_data (s, FALSE, NULL);
  back = gp_session_load_data (data, -1, "fuzz.json", &err);
  if (back == NULL) {
    g_printerr ("written machine refused: %s\n", err->message);
    abort ();
  }
  if (back->machine->series->len != m->series->len)
    abort ();
  for (i = 0; i < m->series->len; i++) {
    GpMachineSeries *a = g_ptr_array_index (m->series, i);
    GpMachineSeries *b = g_ptr_array_index (back->machine->series, i);

    if (strcmp (a->name, b->name) != 0 || a->t->len != b->t->len)
      abort ();
    for (j = 0; j < a->t->len; j++) {
      gdouble va = gp_machine_series_v (a, j), vb = gp_machine_series_v (b, j);

      if (isnan (va) != isnan (vb) || (!isnan (va)
              && fabs (va - vb) > 1e-6 * MAX (1.0, fabs (va))))
        abort ();
    }
  }
  g_free (data);
  gp_session_free (back);
  gp_session_free (s);
}

int LLVMFuzzerTestOneInput (const guint8 * data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 * data, size_t size)
{
  GError *err = NULL;
  GpMachine *m;
  guint i;

  m = gp_telemetry_load_data ((const gchar *) data, size, ORIGIN, 1.0, &err);
  if (m == NULL) {
    gp_fuzz_check_error (err, ORIGIN, FALSE);
    g_error_free (err);
    return 0;
  }
  for (i = 0; i < m->series->len; i++)
    check_series (g_ptr_array_index (m->series, i));
  check_round_trip (m);
  return 0;
}
