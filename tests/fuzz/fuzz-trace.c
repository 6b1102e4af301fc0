/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof fuzz target: DIR/trace.bin, the pushes `run --trace` kept.
 *
 * libFuzzer feeds arbitrary bytes to gp_trace_load_data () and hands what
 * loads to the Perfetto export, whose nesting of a thread's pushes must
 * hold whatever their times. Besides "no crash, no leak, no undefined
 * behaviour" (the sanitizers) it checks:
 * - a refusal is one line that starts with the name given for the input;
 * - whatever loads is written back to the same bytes (save (load (x)) is
 *   x: the format has one spelling);
 * - the export of an empty session with that trace succeeds.
 * Build and run with tests/fuzz/run-fuzz.sh; not part of `meson test`.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "core/gp-session.h"
#include "core/gp-trace.h"
#include "core/gp-version.h"
#include "export/gp-export.h"
#include "gp-fuzz-checks.h"

#define ORIGIN "fuzz.bin"

/* the export names its generator; gp-version.c needs the build's config */
const gchar *
gp_version (void)
{
  return "fuzz";
}

static gchar *fuzz_dir;

int LLVMFuzzerTestOneInput (const guint8 * data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 * data, size_t size)
{
  GError *err = NULL;
  GpTrace *t;
  GpSession *s;
  gchar *path, *out, *back;
  gsize len;

  if (fuzz_dir == NULL)
    fuzz_dir = g_dir_make_tmp ("fuzz-trace-XXXXXX", NULL);
  t = gp_trace_load_data (data, size, ORIGIN, &err);
  if (t == NULL) {
    gp_fuzz_check_error (err, ORIGIN ": ", FALSE);
    g_error_free (err);
    return 0;
  }
  path = g_build_filename (fuzz_dir, "trace.bin", NULL);
  if (!gp_trace_save (t, path, NULL) ||
      !g_file_get_contents (path, &back, &len, NULL) || len != size ||
      memcmp (back, data, size) != 0) {
    g_printerr ("save (load (x)) != x\n");
    abort ();
  }
  g_free (back);
  s = gp_session_new ();
  out = g_build_filename (fuzz_dir, "out.json", NULL);
  if (!gp_export_perfetto (s, t, out, &err)) {
    g_printerr ("export failed: %s\n", err->message);
    abort ();
  }
  g_unlink (out);
  g_unlink (path);
  g_free (out);
  g_free (path);
  gp_session_free (s);
  gp_trace_free (t);
  return 0;
}
