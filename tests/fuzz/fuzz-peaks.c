/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof fuzz target: GPU and board names into the peaks table
 * (src/telemetry, gp-peaks.c).
 *
 * libFuzzer's bytes are cut at newlines; each line (up to a NUL) is a
 * name as nvidia-smi, a device tree or --target gives it, looked up with
 * and without a memory size, and handed to the nvidia-smi derivation as
 * a compute capability too. Seeded with the table's names, the
 * fixtures' nvidia-smi names and Jetson model strings. Besides "no
 * crash, no leak, no undefined behaviour", it checks:
 * - a refusal has its error in GP_PEAKS_ERROR, one line of printable
 *   ASCII;
 * - a row found is found again by its own name;
 * - peaks are positive or NAN, never infinite or negative.
 *
 * Built and run by tests/fuzz/run-fuzz.sh (`make fuzz`).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "telemetry/gp-peaks.h"

static void
fuzz_peaks_die (const gchar * what, const gchar * detail)
{
  fprintf (stderr, "fuzz-peaks: %s: %s\n", what, detail);
  abort ();
}

static void
fuzz_peaks_check_value (gdouble v, const gchar * what)
{
  if (isinf (v) || v <= 0)
    fuzz_peaks_die ("peak out of bounds", what);
}

static void
fuzz_peaks_one (const gchar * name, gdouble mem)
{
  GError *err = NULL;
  const GpPeaksRow *row = gp_peaks_find (name, mem, &err);
  GpPeaks *p;

  if (row == NULL) {
    if (err == NULL || err->domain != GP_PEAKS_ERROR)
      fuzz_peaks_die ("refusal without its error", name);
    for (const gchar * c = err->message; *c; c++)
      if (*c < 0x20 || *c > 0x7e)
        fuzz_peaks_die ("error not one line of printable ASCII",
            err->message);
    g_clear_error (&err);
  } else {
    const GpPeaksRow *again = gp_peaks_find (row->name, row->mem_gib * 1024.0,
        NULL);

    if (err != NULL)
      fuzz_peaks_die ("a row and an error", name);
    if (again != row)
      fuzz_peaks_die ("a row not found by its own name", row->name);
  }
  p = gp_peaks_from_nvsmi (name, name, 1000, 1000, mem, 16, 256, &err);
  if (p == NULL) {
    if (err == NULL || err->domain != GP_PEAKS_ERROR)
      fuzz_peaks_die ("derivation refused without its error", name);
    g_clear_error (&err);
    return;
  }
  if (!isnan (p->fp32))
    fuzz_peaks_check_value (p->fp32, "fp32");
  if (!isnan (p->bw))
    fuzz_peaks_check_value (p->bw, "bw");
  gp_peaks_free (p);
  g_free (gp_peaks_normalise (name));
  gp_peaks_datasheet (name, NULL);
}

int LLVMFuzzerTestOneInput (const guint8 * data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 * data, size_t size)
{
  gchar *text = g_strndup ((const gchar *) data, size);
  gchar **lines = g_strsplit (text, "\n", -1);
  guint i;

  for (i = 0; lines[i] && i < 64; i++) {
    fuzz_peaks_one (lines[i], -1);
    fuzz_peaks_one (lines[i], (gdouble) (size * 1024));
  }
  g_strfreev (lines);
  g_free (text);
  return 0;
}
