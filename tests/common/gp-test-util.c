/* gstprof tests: gp-test-util.c, see gp-test-util.h */
#include "gp-test-util.h"
#include "gp-config.h"
#include "ingest/gp-ingest.h"

gboolean
gp_test_have_tracer (void)
{
  gchar *lib = g_build_filename (GP_BUILD_PLUGIN_DIR, "libgstprof.so", NULL);
  gboolean ok = g_file_test (lib, G_FILE_TEST_IS_REGULAR);

  if (!ok)
    g_test_skip ("libgstprof.so is not built in " GP_BUILD_PLUGIN_DIR);
  g_free (lib);
  return ok;
}

GpSession *
gp_test_capture (const GpCaptureOptions * base, const gchar * launch,
    gdouble duration_s, GpCaptureEnd * end)
{
  GpCaptureOptions opts = *base;
  GpCaptureEnd ignored;
  GError *error = NULL;
  GpSession *s;

  opts.launch = launch;
  opts.duration_s = duration_s;
  s = gp_capture_run (&opts, end ? end : &ignored, &error);
  g_assert_no_error (error);
  g_assert_nonnull (s);
  return s;
}

GpSession *
gp_test_load_fixture (const gchar * name)
{
  const gchar *dir = g_getenv ("GP_FIXTURES");
  GError *error = NULL;
  GpSession *s;
  gchar *path;

  g_assert_nonnull (dir);
  path = g_build_filename (dir, "gst-profile-sessions", name, NULL);
  s = gp_ingest_load_any (path, &error);
  g_assert_no_error (error);
  g_assert_nonnull (s);
  g_free (path);
  return s;
}

void
gp_test_message_text (const gchar * text)
{
  gchar **lines = g_strsplit (text ? text : "", "\n", -1);
  gchar **l;

  for (l = lines; *l; l++)
    if (**l || l[1])
      g_test_message ("%s", *l);
  g_strfreev (lines);
}
