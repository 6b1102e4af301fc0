/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof fuzz target: nvidia-smi's --query-gpu CSV and dmon tables
 * (src/telemetry, gp-nvsmi.c).
 *
 * libFuzzer feeds arbitrary bytes to gp_nvsmi_parse_query () with the header
 * in the data and with a field list of the caller's, to gp_nvsmi_parse_dmon
 * () and, as the driver's message, to gp_nvsmi_drop_unknown_field ().
 * Seeded with GP_FIXTURES/telemetry/nvidia_smi_*.txt. Besides "no crash, no
 * leak, no undefined behaviour", it checks:
 * - a refusal is one line that starts with the name given for the input;
 * - every cell is missing (no text, NAN) or has its text, and a number is
 *   finite; every row has a GPU index of at least 0;
 * - every column is found again by its own name, and none is there twice;
 * - the retry helper removes exactly one field, or none with its error.
 *
 * Built and run by tests/fuzz/run-fuzz.sh (`make fuzz`).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "telemetry/gp-nvsmi.h"
#include "gp-fuzz-checks.h"

#define ORIGIN "fuzz.csv"

static const gchar *const fuzz_fields[] = {
  "index", "name", "memory.total", "clocks_throttle_reasons.active",
  "temperature.gpu", NULL
};

static void
check_table (GpNvsmiTable * t)
{
  guint r, c;

  if (t->n_columns == 0 || (t->rows->len == 0 && t->kind == GP_NVSMI_QUERY))
    abort ();
  for (c = 0; c < t->n_columns; c++)
    if (gp_nvsmi_table_column (t, t->columns[c].name) != (gint) c ||
        t->columns[c].unit == NULL) {
      g_printerr ("column %u '%s' not found by its name\n", c,
          t->columns[c].name);
      abort ();
    }
  for (r = 0; r < t->rows->len; r++) {
    GpNvsmiRow *row = g_ptr_array_index (t->rows, r);

    if (row->gpu < 0)
      abort ();
    for (c = 0; c < t->n_columns; c++) {
      if (row->text[c] == NULL && !isnan (row->value[c])) {
        g_printerr ("row %u column %u: a number without its text\n", r, c);
        abort ();
      }
      if (!isnan (row->value[c]))
        gp_fuzz_check_number (t->columns[c].name, row->value[c]);
    }
  }
}

static void
parse (GpNvsmiTable * t, GError * err)
{
  if (t == NULL) {
    gp_fuzz_check_error (err, ORIGIN, FALSE);
    g_error_free (err);
  } else {
    check_table (t);
    gp_nvsmi_table_free (t);
  }
}

int LLVMFuzzerTestOneInput (const guint8 * data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 * data, size_t size)
{
  GError *err = NULL;
  GPtrArray *fields;
  gchar *message, *dropped = NULL;
  guint i;

  parse (gp_nvsmi_parse_query ((const gchar *) data, size, NULL, ORIGIN,
          &err), err);
  err = NULL;
  parse (gp_nvsmi_parse_query ((const gchar *) data, size, fuzz_fields,
          ORIGIN, &err), err);
  err = NULL;
  parse (gp_nvsmi_parse_dmon ((const gchar *) data, size, ORIGIN, &err),
      err);
  err = NULL;

  fields = g_ptr_array_new ();
  for (i = 0; fuzz_fields[i]; i++)
    g_ptr_array_add (fields, (gpointer) fuzz_fields[i]);
  message = g_strndup ((const gchar *) data, size);
  if (gp_nvsmi_drop_unknown_field (fields, message, &dropped, &err)) {
    if (fields->len != i - 1 || dropped == NULL)
      abort ();
  } else {
    gp_fuzz_check_error (err, "nvidia-smi", FALSE);
    if (fields->len != i || dropped != NULL)
      abort ();
    g_error_free (err);
  }
  g_free (dropped);
  g_free (message);
  g_ptr_array_unref (fields);
  return 0;
}
