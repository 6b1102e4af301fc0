/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof fuzz target: tegrastats lines (src/telemetry, gp-tegrastats.c).
 *
 * libFuzzer's bytes are cut at newlines and each line (up to a NUL) goes
 * to gp_tegrastats_parse_line (). Seeded with the real lines of
 * tests/fixtures/telemetry/tegrastats_*.txt. Besides "no crash, no
 * leak, no undefined behaviour", it checks:
 * - a refusal is one line of printable ASCII in GP_TEGRASTATS_ERROR that
 *   starts with "tegrastats line";
 * - a sample has a RAM field, no more unknown tokens than tokens, every
 *   field a name, a unit, and a value finite or NAN, a CPU list within
 *   its bound, and what the accessors give agrees with the fields.
 *
 * Built and run by tests/fuzz/run-fuzz.sh (`make fuzz`).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "telemetry/gp-tegrastats.h"

static void
fuzz_tegra_die (const gchar * what, const gchar * detail)
{
  fprintf (stderr, "fuzz-tegrastats: %s: %s\n", what, detail);
  abort ();
}

static void
fuzz_tegra_check_error (const GError * error)
{
  if (error == NULL || error->domain != GP_TEGRASTATS_ERROR ||
      !g_str_has_prefix (error->message, "tegrastats line"))
    fuzz_tegra_die ("refusal without its error", error ? error->message :
        "(none)");
  for (const gchar * c = error->message; *c; c++)
    if (*c < 0x20 || *c > 0x7e)
      fuzz_tegra_die ("error not one line of printable ASCII",
          error->message);
}

static void
fuzz_tegra_check_sample (const GpTegraSample * s)
{
  gdouble load, freq;

  if (gp_tegra_sample_field (s, "RAM.used") == NULL)
    fuzz_tegra_die ("sample without RAM", "");
  if (s->n_unknown > s->n_tokens || s->n_unknown != s->unknown->len ||
      s->n_cpus > 256)
    fuzz_tegra_die ("counts out of bounds", "");
  for (guint k = 0; k < s->fields->len; k++) {
    const GpTegraField *f = &g_array_index (s->fields, GpTegraField, k);

    if (f->name == NULL || f->name[0] == '\0' || f->unit == NULL ||
        isinf (f->value))
      fuzz_tegra_die ("bad field", f->name ? f->name : "(null)");
  }
  for (guint c = 0; c < s->n_cpus; c++)
    if (gp_tegra_sample_cpu (s, c, &load, &freq) && isnan (load))
      fuzz_tegra_die ("an online CPU without its load", "");
  if (gp_tegra_sample_cpu (s, s->n_cpus, NULL, NULL))
    fuzz_tegra_die ("a CPU beyond the list", "");
  (void) gp_tegra_sample_gr3d_load (s);
  (void) gp_tegra_sample_engine (s, "GR3D", &load, &freq);
  (void) gp_tegra_sample_temp (s, "tj");
}

int
LLVMFuzzerTestOneInput (const guint8 * data, size_t size)
{
  gchar *text = g_strndup ((const gchar *) data, size);
  gchar **lines = g_strsplit (text, "\n", -1);

  for (guint k = 0; lines[k] != NULL; k++) {
    GError *error = NULL;
    GpTegraSample *s = gp_tegrastats_parse_line (lines[k], &error);

    if (s == NULL)
      fuzz_tegra_check_error (error);
    else if (error != NULL)
      fuzz_tegra_die ("a sample and an error", error->message);
    else
      fuzz_tegra_check_sample (s);
    g_clear_error (&error);
    gp_tegra_sample_free (s);
  }
  g_strfreev (lines);
  g_free (text);
  return 0;
}
