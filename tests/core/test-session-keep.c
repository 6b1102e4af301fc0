/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * test-session-keep.c: gp_session_keep_earlier on real session files: a
 * folder without a session (nothing to keep), one with a session that
 * names its trace (both kept under the first N free for either, the name
 * in the kept session changed), one whose session names a trace that is
 * not there or a path outside the folder (the session kept, nothing else
 * touched).
 */
#include <string.h>

#include <glib/gstdio.h>

#include "core/gp-session.h"
#include "core/gp-session-keep.h"
#include "core/gp-trace.h"
#include "gp-test-util.h"

static gchar *gp_tmp;

/* DIR/NAME with @text in it */
static gchar *
gp_keep_write (const gchar * dir, const gchar * name, const gchar * text)
{
  gchar *path = g_build_filename (dir, name, NULL);

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  return path;
}

/* A saved session naming @trace_file (NULL: none) as its trace. */
static gchar *
gp_keep_session (const gchar * dir, const gchar * launch,
    const gchar * trace_file)
{
  GpSession *s = gp_session_new ();
  gchar *path = g_build_filename (dir, "session.json", NULL);
  GError *err = NULL;

  g_free (s->launch);
  s->launch = g_strdup (launch);
  s->trace_file = g_strdup (trace_file);
  g_assert_true (gp_session_save (s, path, &err));
  g_assert_no_error (err);
  gp_session_free (s);
  return path;
}

static void
test_nothing_to_keep (void)
{
  gchar *dir = g_build_filename (gp_tmp, "empty", NULL);
  gchar *path = g_build_filename (dir, "session.json", NULL);
  gchar *kept = (gchar *) "unset";
  GError *err = NULL;

  g_mkdir_with_parents (dir, 0755);
  g_assert_true (gp_session_keep_earlier (dir, path, &kept, &err));
  g_assert_no_error (err);
  g_assert_null (kept);
  g_free (path);
  g_free (dir);
}

/* session.1.json is taken, trace.2.bin too: N is 3 for both; the kept
 * session names trace.3.bin and reads back with its launch string. */
static void
test_keep_with_trace (void)
{
  gchar *dir = g_build_filename (gp_tmp, "traced", NULL);
  gchar *path, *kept = NULL, *text, *want;
  GError *err = NULL;
  GpSession *back;

  g_mkdir_with_parents (dir, 0755);
  path = gp_keep_session (dir, "videotestsrc ! fakesink", GP_TRACE_FILE);
  g_free (gp_keep_write (dir, GP_TRACE_FILE, "the pushes"));
  g_free (gp_keep_write (dir, "session.1.json", "{}"));
  g_free (gp_keep_write (dir, "trace.2.bin", "older"));
  g_assert_true (gp_session_keep_earlier (dir, path, &kept, &err));
  g_assert_no_error (err);
  want = g_build_filename (dir, "session.3.json", NULL);
  g_assert_cmpstr (kept, ==, want);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  text = gp_test_read_file (dir, GP_TRACE_FILE);
  g_assert_null (text);
  text = gp_test_read_file (dir, "trace.3.bin");
  g_assert_cmpstr (text, ==, "the pushes");
  g_free (text);
  text = gp_test_read_file (dir, "trace.2.bin");
  g_assert_cmpstr (text, ==, "older");
  g_free (text);
  back = gp_session_load (kept, &err);
  g_assert_no_error (err);
  g_assert_cmpstr (back->launch, ==, "videotestsrc ! fakesink");
  g_assert_cmpstr (back->trace_file, ==, "trace.3.bin");
  gp_session_free (back);
  g_free (want);
  g_free (kept);
  g_free (path);
  g_free (dir);
}

/* A trace named but not there, and one named outside the folder: only
 * the session moves. */
static void
test_keep_without_trace (void)
{
  const gchar *names[] = { GP_TRACE_FILE, "../outside.bin" };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (names); i++) {
    gchar *sub = g_strdup_printf ("untraced%u", i);
    gchar *dir = g_build_filename (gp_tmp, sub, NULL);
    gchar *outside = g_build_filename (gp_tmp, "outside.bin", NULL);
    gchar *path, *kept = NULL, *text;
    GError *err = NULL;

    g_mkdir_with_parents (dir, 0755);
    g_file_set_contents (outside, "not ours", -1, NULL);
    path = gp_keep_session (dir, "videotestsrc ! fakesink", names[i]);
    g_assert_true (gp_session_keep_earlier (dir, path, &kept, &err));
    g_assert_no_error (err);
    g_assert_true (g_str_has_suffix (kept, "session.1.json"));
    g_assert_true (g_file_test (kept, G_FILE_TEST_IS_REGULAR));
    g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
    text = gp_test_read_file (gp_tmp, "outside.bin");
    g_assert_cmpstr (text, ==, "not ours");
    g_free (text);
    text = gp_test_read_file (dir, "trace.1.bin");
    g_assert_null (text);
    g_free (kept);
    g_free (path);
    g_free (outside);
    g_free (dir);
    g_free (sub);
  }
}

int
main (int argc, char **argv)
{
  gint ret;

  g_test_init (&argc, &argv, NULL);
  gp_tmp = g_dir_make_tmp ("gp-session-keep-XXXXXX", NULL);
  g_test_add_func ("/session-keep/nothing", test_nothing_to_keep);
  g_test_add_func ("/session-keep/with-trace", test_keep_with_trace);
  g_test_add_func ("/session-keep/without-trace", test_keep_without_trace);
  ret = g_test_run ();
  gp_test_remove_tree (gp_tmp);
  g_free (gp_tmp);
  return ret;
}
