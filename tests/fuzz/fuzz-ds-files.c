/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof fuzz target: the files `ds preset` and `ds coverage` read
 * (src/deepstream, gp-ds-preset.c and gp-ds-coverage.c).
 *
 * The first byte picks the command (bit 0: preset or coverage) and the
 * format (bit 1: INI or YAML); the rest is the file, written to a
 * temporary folder under the name the command is given. Seeded with the
 * DeepStream configs of GP_FIXTURES/telemetry. Besides "no crash, no leak,
 * no undefined behaviour", it checks:
 * - a refusal is one line that starts with the file's name;
 * - ds preset's report (without writing) names the file on its first
 *   line, and the file on disk is left as it was;
 * - ds coverage's elements each have a name and a factory.
 *
 * Built and run by tests/fuzz/run-fuzz.sh (`make fuzz`).
 */
#include <stdlib.h>
#include <string.h>
#include <glib/gstdio.h>

#include "deepstream/gp-ds-coverage.h"
#include "deepstream/gp-ds-preset.h"
#include "gp-fuzz-checks.h"

static gchar *gp_fuzz_dir;

static void
check_preset (const gchar * path, const guint8 * data, gsize size)
{
  GpDsPresetOptions o;
  GError *err = NULL;
  gchar *report = NULL, *back = NULL;
  gsize back_len = 0;

  gp_ds_preset_options_init (&o);
  o.jetson = FALSE;
  if (!gp_ds_preset_file (path, &o, FALSE, &report, &err)) {
    gp_fuzz_check_error (err, path, FALSE);
    g_error_free (err);
  } else if (report == NULL || !g_str_has_prefix (report, path)) {
    g_printerr ("preset report does not start with the file\n");
    abort ();
  }
  g_free (report);
  if (!g_file_get_contents (path, &back, &back_len, NULL) ||
      back_len != size || memcmp (back, data, size) != 0) {
    g_printerr ("preset without --write changed the file\n");
    abort ();
  }
  g_free (back);
}

static void
check_coverage (const gchar * path)
{
  GError *err = NULL;
  GPtrArray *els = gp_ds_elements_from_config (path, &err);

  if (els == NULL) {
    gp_fuzz_check_error (err, path, FALSE);
    g_error_free (err);
    return;
  }
  g_ptr_array_unref (els);
}

int LLVMFuzzerTestOneInput (const guint8 * data, gsize size);

int
LLVMFuzzerTestOneInput (const guint8 * data, gsize size)
{
  gchar *path;

  if (size < 1)
    return 0;
  if (gp_fuzz_dir == NULL)
    gp_fuzz_dir = g_dir_make_tmp ("gp-fuzz-ds-XXXXXX", NULL);
  if (gp_fuzz_dir == NULL)
    abort ();
  path = g_build_filename (gp_fuzz_dir, data[0] & 2 ? "in.yml" : "in.txt",
      NULL);
  if (!g_file_set_contents (path, (const gchar *) data + 1, size - 1, NULL))
    abort ();
  if (data[0] & 1)
    check_coverage (path);
  else
    check_preset (path, data + 1, size - 1);
  g_unlink (path);
  g_free (path);
  return 0;
}
