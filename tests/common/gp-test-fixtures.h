/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof tests
 *
 * gp-test-fixtures.h: where the real captures of other machines are
 * ($GP_FIXTURES, tests/fixtures of the checkout), and the machine of a
 * telemetry one. A fixture that is not there fails the test: the
 * repository holds them all. Header-only, so that tests linking only the core
 * library use it too.
 */
#ifndef __GP_TEST_FIXTURES_H__
#define __GP_TEST_FIXTURES_H__

#include <glib.h>

#include "telemetry/gp-telemetry.h"

/* $GP_FIXTURES/@sub/@name (@name NULL: the folder itself), a new string;
 * NULL with the running test failed when it is not there. */
static inline gchar *
gp_test_fixture_path (const gchar * sub, const gchar * name)
{
  const gchar *root = g_getenv ("GP_FIXTURES");
  gchar *path;

  if (root == NULL) {
    g_test_message ("GP_FIXTURES is not set (tests/meson.build sets it)");
    g_test_fail ();
    return NULL;
  }
  path = g_build_filename (root, sub, name, NULL);
  if (!g_file_test (path, name ? G_FILE_TEST_IS_REGULAR :
          G_FILE_TEST_IS_DIR)) {
    g_test_message ("fixture missing: %s", path);
    g_test_fail ();
    g_free (path);
    return NULL;
  }
  return path;
}

/* The machine of a saved tegrastats log or nvidia-smi output among the
 * telemetry fixtures, read at one sample a second; it must load. NULL
 * with the test failed when the fixture is not there. */
static inline GpMachine *
gp_test_fixture_machine (const gchar * name)
{
  gchar *path = gp_test_fixture_path ("telemetry", name);
  GError *error = NULL;
  GpMachine *m;

  if (path == NULL)
    return NULL;
  m = gp_telemetry_load_file (path, 1.0, &error);
  g_assert_no_error (error);
  g_assert_nonnull (m);
  g_free (path);
  return m;
}

#endif /* __GP_TEST_FIXTURES_H__ */
