/* gstprof
 *
 * gp-ingest-load.c: open a saved file, find out what it is, hand it to the
 * reader for its schema.
 *
 * The text is checked before json-glib sees it, for the same reasons as in
 * gp-session-json.c: json-glib reports invalid UTF-8 without a position, and
 * its parser recurses once per nesting level, so a file of a million '['
 * would overflow the stack. The same pass also requires one JSON object and
 * nothing after it: json-glib 1.6 leaks the values it has built when a
 * second top-level value follows the first ('{"a":"x"} {"b":"y"}', found
 * by fuzzing), and a session is an object anyway.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <glib/gstdio.h>

#include "gp-ingest-private.h"

/* Far deeper than any session (gst-profile nests 5 levels, gstprof about
 * 6 plus what a property or an evidence object holds), far shallower than
 * what overflows json-glib's recursive parser. */
#define GP_INGEST_MAX_DEPTH 256
/* A 4-hour gst-profile capture is about 60 MB; this only stops us from
 * reading /dev/zero or a video file into memory. */
#define GP_INGEST_MAX_BYTES (256 * 1024 * 1024)

void
gp_ingest_set_error (GError ** error, gint code, const gchar * format, ...)
{
  va_list args;
  gchar *msg, *valid, *p;

  va_start (args, format);
  msg = g_strdup_vprintf (format, args);
  va_end (args);

  valid = g_utf8_make_valid (msg, -1);
  g_free (msg);
  for (p = valid; *p != '\0'; p++)
    if ((guchar) * p < 0x20 || *p == 0x7f)
      *p = ' ';
  if (g_utf8_strlen (valid, -1) > 500) {
    gchar *end = g_utf8_offset_to_pointer (valid, 497);

    strcpy (end, "...");
  }
  g_set_error_literal (error, GP_SESSION_ERROR, code, valid);
  g_free (valid);
}

static gboolean
gp_ingest_precheck (const gchar * data, gsize len, const gchar * origin,
    GError ** error)
{
  const gchar *bad = NULL;
  guint line = 1, depth = 0;
  gsize i, line_start = 0;
  gboolean in_string = FALSE, escaped = FALSE, started = FALSE, ended = FALSE;

  /* g_utf8_validate () sets @bad to the end of the valid text even when
   * all of it is valid: only its result says whether anything is wrong */
  if (g_utf8_validate (data, (gssize) len, &bad))
    bad = NULL;
  else if (bad != NULL)
    len = (gsize) (bad - data);

  for (i = 0; i < len; i++) {
    gchar c = data[i];

    if (c == '\n') {
      line++;
      line_start = i + 1;
    }
    if (in_string) {
      if (escaped)
        escaped = FALSE;
      else if (c == '\\')
        escaped = TRUE;
      else if (c == '"')
        in_string = FALSE;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
      continue;
    if (ended || (!started && c != '{')) {
      gp_ingest_set_error (error, GP_SESSION_ERROR_PARSE,
          "%s:%u:%u: %s", origin, line,
          (guint) g_utf8_strlen (data + line_start,
              (gssize) (i - line_start)) + 1, ended ?
          "text after the end of the session's JSON object" :
          "not a session file (the top level is not a JSON object)");
      return FALSE;
    }
    started = TRUE;
    if (c == '"') {
      in_string = TRUE;
    } else if (c == '[' || c == '{') {
      if (++depth > GP_INGEST_MAX_DEPTH) {
        gp_ingest_set_error (error, GP_SESSION_ERROR_PARSE,
            "%s:%u:%u: nested deeper than %d levels", origin, line,
            (guint) g_utf8_strlen (data + line_start,
                (gssize) (i - line_start)) + 1, GP_INGEST_MAX_DEPTH);
        return FALSE;
      }
    } else if ((c == ']' || c == '}') && depth > 0) {
      if (--depth == 0)
        ended = TRUE;
    }
  }

  if (bad != NULL) {
    gp_ingest_set_error (error, GP_SESSION_ERROR_PARSE,
        "%s:%u:%u: not UTF-8 text (byte 0x%02x)", origin, line,
        (guint) g_utf8_strlen (data + line_start,
            (gssize) (len - line_start)) + 1, (guint) (guchar) * bad);
    return FALSE;
  }
  return TRUE;
}

/* Picks the reader from the top-level "schema". */
static GpSession *
gp_ingest_dispatch (JsonNode * root, const gchar * origin, GError ** error)
{
  JsonObject *o;
  JsonNode *schema;
  const gchar *name;
  gchar *shown, *escaped;

  if (!JSON_NODE_HOLDS_OBJECT (root)) {
    gp_ingest_set_error (error, GP_SESSION_ERROR_SCHEMA,
        "%s: not a session file (the top level is not a JSON object)",
        origin);
    return NULL;
  }
  o = json_node_get_object (root);
  schema = json_object_get_member (o, "schema");
  if (schema == NULL || JSON_NODE_HOLDS_NULL (schema)) {
    gp_ingest_set_error (error, GP_SESSION_ERROR_SCHEMA,
        "%s: no \"schema\" key: not a gstprof or gst-profile session",
        origin);
    return NULL;
  }
  if (!JSON_NODE_HOLDS_VALUE (schema) ||
      json_node_get_value_type (schema) != G_TYPE_STRING) {
    gp_ingest_set_error (error, GP_SESSION_ERROR_SCHEMA,
        "%s: schema: expected a string", origin);
    return NULL;
  }
  name = json_node_get_string (schema);
  if (g_strcmp0 (name, GP_SESSION_SCHEMA) == 0)
    return gp_session_from_json (root, origin, error);
  if (g_strcmp0 (name, GP_INGEST_SCHEMA_GSTPROFILE) == 0)
    return gp_ingest_gstprofile (root, origin, error);

  shown = g_strndup (name, 64);
  escaped = g_strescape (shown, NULL);
  gp_ingest_set_error (error, GP_SESSION_ERROR_SCHEMA,
      "%s: unknown schema \"%s\" (gstprof reads \"%s\" and \"%s\")", origin,
      escaped, GP_SESSION_SCHEMA, GP_INGEST_SCHEMA_GSTPROFILE);
  g_free (escaped);
  g_free (shown);
  return NULL;
}

GpSession *
gp_ingest_load_any_data (const gchar * data, gssize length,
    const gchar * origin, GError ** error)
{
  JsonParser *parser;
  GError *perr = NULL;
  GpSession *s;
  gsize len;

  g_return_val_if_fail (data != NULL || length == 0, NULL);

  if (origin == NULL)
    origin = "<data>";
  len = length < 0 ? strlen (data) : (gsize) length;
  if (len == 0) {
    gp_ingest_set_error (error, GP_SESSION_ERROR_PARSE,
        "%s: empty file, not a session", origin);
    return NULL;
  }
  if (!gp_ingest_precheck (data, len, origin, error))
    return NULL;

  parser = json_parser_new ();
  if (!json_parser_load_from_data (parser, data, (gssize) len, &perr)) {
    /* json-glib prefixes "<data>:LINE:COL: " for text it did not read from
     * a file; put the real name there. */
    if (g_str_has_prefix (perr->message, "<data>:"))
      gp_ingest_set_error (error, GP_SESSION_ERROR_PARSE, "%s:%s", origin,
          perr->message + strlen ("<data>:"));
    else
      gp_ingest_set_error (error, GP_SESSION_ERROR_PARSE, "%s: %s", origin,
          perr->message);
    g_error_free (perr);
    g_object_unref (parser);
    return NULL;
  }
  if (json_parser_get_root (parser) == NULL) {
    gp_ingest_set_error (error, GP_SESSION_ERROR_PARSE,
        "%s: empty file, not a session", origin);
    g_object_unref (parser);
    return NULL;
  }
  s = gp_ingest_dispatch (json_parser_get_root (parser), origin, error);
  g_object_unref (parser);
  return s;
}

GpSession *
gp_ingest_load_any (const gchar * path, GError ** error)
{
  FILE *f;
  GString *buf;
  gchar chunk[65536];
  GpSession *s;
  size_t n;

  g_return_val_if_fail (path != NULL, NULL);

  /* stdio rather than g_file_get_contents: errno gives a plain
   * "FILE: No such file or directory" without the name quoted twice, and
   * the size cap holds for pipes and devices too. */
  f = g_fopen (path, "rb");
  if (f == NULL) {
    int err = errno;

    gp_ingest_set_error (error, GP_SESSION_ERROR_IO, "%s: %s", path,
        g_strerror (err));
    return NULL;
  }
  buf = g_string_new (NULL);
  while ((n = fread (chunk, 1, sizeof (chunk), f)) > 0) {
    if (buf->len + n > GP_INGEST_MAX_BYTES) {
      gp_ingest_set_error (error, GP_SESSION_ERROR_IO,
          "%s: larger than %d MiB, not a session", path,
          GP_INGEST_MAX_BYTES / (1024 * 1024));
      fclose (f);
      g_string_free (buf, TRUE);
      return NULL;
    }
    g_string_append_len (buf, chunk, (gssize) n);
  }
  if (ferror (f)) {
    int err = errno;

    gp_ingest_set_error (error, GP_SESSION_ERROR_IO, "%s: %s", path,
        g_strerror (err));
    fclose (f);
    g_string_free (buf, TRUE);
    return NULL;
  }
  fclose (f);

  s = gp_ingest_load_any_data (buf->str, (gssize) buf->len, path, error);
  g_string_free (buf, TRUE);
  return s;
}
