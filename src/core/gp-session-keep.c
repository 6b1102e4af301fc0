/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-session-keep.c: the earlier session of a folder kept beside the new
 * one (gp_session_keep_earlier): session.N.json, and the trace it names
 * as trace.N.bin with its name in the kept session changed to match.
 */
#include "gp-session-keep.h"

#include <errno.h>
#include <string.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

/* The one-line error of a move that failed. */
static void
gp_session_keep_fail (GError ** error, const gchar * from, const gchar * to,
    const gchar * why)
{
  g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED,
      "cannot keep the earlier %s as %s: %s", from, to, why);
}

/* The file the session at @path names in session.trace.file (a plain name
 * in @dir that exists), NULL when it names none; @trace: that object in
 * @parser's tree. */
static gchar *
gp_session_keep_old_trace (const gchar * dir, const gchar * path,
    JsonParser * parser, JsonObject ** trace)
{
  JsonNode *root;
  JsonObject *o;
  const gchar *file;
  gchar *full;

  if (!json_parser_load_from_file (parser, path, NULL))
    return NULL;
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return NULL;
  o = json_node_get_object (root);
  if (!json_object_has_member (o, "session")
      || !JSON_NODE_HOLDS_OBJECT (json_object_get_member (o, "session")))
    return NULL;
  o = json_object_get_object_member (o, "session");
  if (!json_object_has_member (o, "trace")
      || !JSON_NODE_HOLDS_OBJECT (json_object_get_member (o, "trace")))
    return NULL;
  o = json_object_get_object_member (o, "trace");
  if (!json_object_has_member (o, "file")
      || !JSON_NODE_HOLDS_VALUE (json_object_get_member (o, "file"))
      || json_node_get_value_type (json_object_get_member (o, "file"))
      != G_TYPE_STRING)
    return NULL;
  file = json_object_get_string_member (o, "file");
  if (*file == '\0' || strchr (file, '/') || strcmp (file, "..") == 0)
    return NULL;
  full = g_build_filename (dir, file, NULL);
  if (!g_file_test (full, G_FILE_TEST_IS_REGULAR)) {
    g_free (full);
    return NULL;
  }
  *trace = o;
  return full;
}

/* The earlier session's trace goes with it: DIR/trace.N.bin, named in the
 * kept session.N.json, so that the new run's trace.bin replaces nothing a
 * kept session points at. */
static gboolean
gp_session_keep_trace (const gchar * dir, const gchar * path,
    const gchar * kept, guint n, GError ** error)
{
  JsonParser *parser = json_parser_new ();
  JsonObject *trace = NULL;
  JsonGenerator *gen;
  gchar *old = gp_session_keep_old_trace (dir, path, parser, &trace);
  gchar *name, *to, *text;
  GError *err = NULL;
  gboolean ok = TRUE;

  if (old == NULL) {
    g_object_unref (parser);
    return TRUE;
  }
  name = g_strdup_printf ("trace.%u.bin", n);
  to = g_build_filename (dir, name, NULL);
  json_object_set_string_member (trace, "file", name);
  gen = json_generator_new ();
  json_generator_set_pretty (gen, TRUE);
  json_generator_set_indent (gen, 2);
  json_generator_set_root (gen, json_parser_get_root (parser));
  text = json_generator_to_data (gen, NULL);
  if (g_rename (old, to) != 0) {
    gp_session_keep_fail (error, old, to, g_strerror (errno));
    ok = FALSE;
  } else if (!g_file_set_contents (kept, text, -1, &err)) {
    gp_session_keep_fail (error, path, kept, err->message);
    g_clear_error (&err);
    ok = FALSE;
  } else if (g_unlink (path) != 0) {
    gp_session_keep_fail (error, path, kept, g_strerror (errno));
    ok = FALSE;
  }
  g_free (text);
  g_object_unref (gen);
  g_free (to);
  g_free (name);
  g_free (old);
  g_object_unref (parser);
  return ok;
}

gboolean
gp_session_keep_earlier (const gchar * dir, const gchar * path,
    gchar ** kept_out, GError ** error)
{
  gchar *kept = NULL, *trace = NULL;
  guint n;

  g_return_val_if_fail (dir != NULL && path != NULL, FALSE);

  if (kept_out != NULL)
    *kept_out = NULL;
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    return TRUE;
  for (n = 1; kept == NULL || g_file_test (kept, G_FILE_TEST_EXISTS)
      || g_file_test (trace, G_FILE_TEST_EXISTS); n++) {
    gchar *name = g_strdup_printf ("session.%u.json", n);
    gchar *tname = g_strdup_printf ("trace.%u.bin", n);

    g_free (kept);
    g_free (trace);
    kept = g_build_filename (dir, name, NULL);
    trace = g_build_filename (dir, tname, NULL);
    g_free (name);
    g_free (tname);
  }
  g_free (trace);
  n--;
  if (!gp_session_keep_trace (dir, path, kept, n, error)) {
    g_free (kept);
    return FALSE;
  }
  if (g_file_test (path, G_FILE_TEST_EXISTS) && g_rename (path, kept) != 0) {
    gp_session_keep_fail (error, path, kept, g_strerror (errno));
    g_free (kept);
    return FALSE;
  }
  if (kept_out != NULL)
    *kept_out = kept;
  else
    g_free (kept);
  return TRUE;
}
