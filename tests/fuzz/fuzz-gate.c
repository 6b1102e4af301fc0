/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof fuzz target: the gate's baseline file (src/report/gp-gate.c).
 *
 * libFuzzer's bytes go to gp_gate_baseline_parse () as a baseline named
 * fuzz.json. Besides "no crash, no leak, no undefined behaviour", it
 * checks:
 * - a refusal is one line that starts with the input's name;
 * - what was taken is written (to a file, atomically) and read back to
 *   the same file again, so a baseline gstprof wrote once stays readable;
 * - judged against itself, a baseline has no regression and no
 *   improvement (every metric's medians are the same), and its JUnit is
 *   XML that GLib's parser takes whole.
 * Built and run by tests/fuzz/run-fuzz.sh (`make fuzz`).
 */
#include <glib/gstdio.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/gp-gate.h"
#include "gp-fuzz-checks.h"

#define ORIGIN "fuzz.json"

static void
fuzz_gate_die (const gchar * what)
{
  fprintf (stderr, "fuzz-gate: %s\n", what);
  abort ();
}

/* The file @b saves to, as text (a new string). */
static gchar *
fuzz_gate_saved (const GpGateBaseline * b, const gchar * path)
{
  GError *err = NULL;
  gchar *text = NULL;

  if (!gp_gate_baseline_save (b, path, &err))
    fuzz_gate_die (err->message);
  if (!g_file_get_contents (path, &text, NULL, NULL))
    fuzz_gate_die ("the saved baseline cannot be read");
  return text;
}

static void
fuzz_gate_judge_self (const GpGateBaseline * b)
{
  GMarkupParser parser = { NULL };
  GMarkupParseContext *ctx;
  GpGateThresholds t;
  GpGateResult *r;
  gchar *text;

  gp_gate_thresholds_init (&t);
  r = gp_gate_judge (b, b, &t);
  if (r->regressions != 0 || r->improvements != 0)
    fuzz_gate_die ("a baseline judged against itself moved");
  g_free (gp_gate_format (r, ORIGIN));
  g_free (gp_gate_markdown (r, ORIGIN, NULL));
  text = gp_gate_junit (r, NULL);
  ctx = g_markup_parse_context_new (&parser, 0, NULL, NULL);
  if (!g_markup_parse_context_parse (ctx, text, -1, NULL) ||
      !g_markup_parse_context_end_parse (ctx, NULL))
    fuzz_gate_die ("the JUnit is not well-formed XML");
  g_markup_parse_context_free (ctx);
  g_free (text);
  gp_gate_result_free (r);
}

int LLVMFuzzerTestOneInput (const guint8 * data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 * data, size_t size)
{
  static gchar *path;
  GError *err = NULL;
  GpGateBaseline *b, *again;
  gchar *one, *two;

  if (path == NULL)
    path = g_strdup_printf ("%s/fuzz-gate-%d.json", g_get_tmp_dir (),
        (int) getpid ());
  b = gp_gate_baseline_parse ((const gchar *) data, size, ORIGIN, &err);
  if (b == NULL) {
    gp_fuzz_check_error (err, ORIGIN, TRUE);
    g_error_free (err);
    return 0;
  }
  one = fuzz_gate_saved (b, path);
  again = gp_gate_baseline_load (path, &err);
  if (again == NULL)
    fuzz_gate_die (err->message);
  two = fuzz_gate_saved (again, path);
  if (strcmp (one, two) != 0)
    fuzz_gate_die ("a saved baseline read back saves to another file");
  fuzz_gate_judge_self (b);
  g_unlink (path);
  g_free (one);
  g_free (two);
  gp_gate_baseline_free (again);
  gp_gate_baseline_free (b);
  return 0;
}
