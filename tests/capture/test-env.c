/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * test-env.c: gp_capture_prepare_env, which must run before gst_init (so
 * this binary calls gst_init only after the checks that need it not to have
 * run): the plugin directory goes first in the plugin path GStreamer will
 * read, and GST_TRACERS keeps the user's tracers and holds exactly one
 * gstprof entry with the run's parameters.
 */
#include <glib/gstdio.h>
#include <gst/gst.h>
#include <string.h>

#include "capture/gp-capture.h"
#include "gp-config.h"

static void
test_env (void)
{
  GpCaptureOptions opts;
  GError *error = NULL;
  gchar *dir;
  const gchar *path;

  /* an explicit directory wins and goes first; the user's path is kept */
  dir = g_dir_make_tmp ("gstprof-env-XXXXXX", &error);
  g_assert_no_error (error);
  g_setenv ("GSTPROF_PLUGIN_DIR", dir, TRUE);
  g_setenv ("GST_PLUGIN_PATH", "/user/plugins", TRUE);
  g_unsetenv ("GST_PLUGIN_PATH_1_0");
  g_setenv ("GST_TRACERS", "latency(flags=pipeline);gstprof(window=999); "
      "leaks", TRUE);

  gp_capture_options_init (&opts);
  opts.window_ms = 100;
  opts.cpu = TRUE;
  g_assert_true (gp_capture_prepare_env (&opts, &error));
  g_assert_no_error (error);

  path = g_getenv ("GST_PLUGIN_PATH");
  g_assert_true (g_str_has_prefix (path, dir));
  g_assert_nonnull (strstr (path, "/user/plugins"));
  g_assert_cmpstr (g_getenv ("GST_TRACERS"), ==,
      "latency(flags=pipeline);leaks;gstprof(window=100,cpu=true)");

  /* twice: still one entry, no second copy of the directory */
  opts.window_ms = 5;
  opts.cpu = FALSE;
  g_assert_true (gp_capture_prepare_env (&opts, &error));
  g_assert_cmpstr (g_getenv ("GST_TRACERS"), ==,
      "latency(flags=pipeline);leaks;gstprof(window=10,cpu=false)");
  g_assert_cmpstr (g_getenv ("GST_PLUGIN_PATH"), ==, path);

  /* GStreamer reads GST_PLUGIN_PATH_1_0 first when it is set */
  g_setenv ("GST_PLUGIN_PATH_1_0", "/versioned", TRUE);
  g_assert_true (gp_capture_prepare_env (&opts, &error));
  g_assert_true (g_str_has_prefix (g_getenv ("GST_PLUGIN_PATH_1_0"), dir));

  /* without an explicit directory the build tree's plugin is found */
  g_unsetenv ("GSTPROF_PLUGIN_DIR");
  g_unsetenv ("GST_PLUGIN_PATH_1_0");
  g_setenv ("GST_PLUGIN_PATH", "", TRUE);
  g_unsetenv ("GST_TRACERS");
  gp_capture_options_init (&opts);
  g_assert_true (gp_capture_prepare_env (&opts, &error));
  g_assert_cmpstr (g_getenv ("GST_TRACERS"), ==,
      "gstprof(window=250,cpu=false)");
  if (g_file_test (GP_BUILD_PLUGIN_DIR "/libgstprof.so", G_FILE_TEST_EXISTS))
    g_assert_cmpstr (g_getenv ("GST_PLUGIN_PATH"), ==, GP_BUILD_PLUGIN_DIR);

  /* after gst_init it is too late, and it says so */
  gst_init (NULL, NULL);
  g_assert_false (gp_capture_prepare_env (&opts, &error));
  g_assert_error (error, GP_CAPTURE_ERROR, GP_CAPTURE_ERROR_TRACER);
  g_clear_error (&error);

  g_rmdir (dir);
  g_free (dir);
}

int
main (int argc, char **argv)
{
  /* no gst_init here: the test is about what happens before it */
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/capture/prepare-env", test_env);
  return g_test_run ();
}
