/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof tests
 *
 * gp-test-fixtures.h: where the real captures of other machines are
 * ($GP_FIXTURES, ../shared/fixtures beside the checkout). Header-only, so
 * that tests linking only the core library use it too.
 */
#ifndef __GP_TEST_FIXTURES_H__
#define __GP_TEST_FIXTURES_H__

#include <glib.h>

/* $GP_FIXTURES/@sub/@name (@name NULL: the folder itself), a new string;
 * NULL with the running test marked skipped when it is not there. */
static inline gchar *
gp_test_fixture_path (const gchar * sub, const gchar * name)
{
  const gchar *root = g_getenv ("GP_FIXTURES");
  gchar *path;

  if (root == NULL) {
    g_test_skip ("no GP_FIXTURES");
    return NULL;
  }
  path = g_build_filename (root, sub, name, NULL);
  if (!g_file_test (path, name ? G_FILE_TEST_IS_REGULAR :
          G_FILE_TEST_IS_DIR)) {
    g_test_skip ("fixture not there");
    g_free (path);
    return NULL;
  }
  return path;
}

#endif /* __GP_TEST_FIXTURES_H__ */
