/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-json.h: reading JSON text safely with json-glib, for every reader of
 * saved files (session.json in src/core, foreign sessions in src/ingest).
 *
 * json-glib 1.6 gets some input wrong in ways a reader of untrusted files
 * cannot accept: it leaks the tree it built when a second top-level value
 * follows the first, it takes C comments and single-quoted strings, it
 * reports invalid UTF-8 without a position, and its parser recurses once per
 * nesting level, so deep input overflows the stack. gp_json_parse_strict ()
 * refuses all of that before json-glib sees the text.
 */
#ifndef __GP_JSON_H__
#define __GP_JSON_H__

#include <glib.h>
#include <json-glib/json-glib.h>

#include "gp-session.h"

G_BEGIN_DECLS

/* Far deeper than any session (gstprof nests about 6 levels plus what a
 * property or a finding's evidence holds, gst-profile 5), far shallower
 * than what overflows json-glib's recursive parser. */
#define GP_JSON_MAX_DEPTH 256

/* Parses @len bytes of @data as one JSON document and returns its root
 * (a new reference; json_node_unref () it), or NULL with @error set to one
 * line in GP_SESSION_ERROR / GP_SESSION_ERROR_PARSE that starts with
 * @origin (NULL: "<data>"), then ":LINE:COLUMN:" where there is a position:
 * empty or blank text, invalid UTF-8, nesting past GP_JSON_MAX_DEPTH, a
 * second value after the first, comments, single quotes, and whatever
 * json-glib itself rejects. Any top-level value is accepted; callers check
 * that it is the object they want. */
JsonNode *gp_json_parse_strict (const gchar * data, gsize len,
    const gchar * origin, GError ** error);

/* Sets @error (GP_SESSION_ERROR, @code) to one line: the message is made
 * valid UTF-8, control characters become spaces and an overlong message is
 * cut, whatever the file name or the keys quoted in it contain. */
void gp_json_error_line (GError ** error, gint code, const gchar * format,
    ...) G_GNUC_PRINTF (3, 4);
void gp_json_error_line_valist (GError ** error, gint code,
    const gchar * format, va_list args) G_GNUC_PRINTF (3, 0);

/* Largest file a reader takes: far above any session (a day of windows is
 * a few MiB), small enough to refuse a wrong file quickly. */
#define GP_JSON_MAX_FILE_BYTES (256 * 1024 * 1024)

/* Reads all of @path (at most GP_JSON_MAX_FILE_BYTES; pipes and devices
 * too) into a new buffer, NUL-terminated, its length in @len. On failure
 * sets @error (GP_SESSION_ERROR_IO) to one line naming the file. */
gchar *gp_json_read_file (const gchar * path, gsize * len, GError ** error);

/* Turns a parsed document into a session (gp_session_from_json, or an
 * importer); sets @error to one line naming @origin when it cannot. */
typedef GpSession *(*GpJsonSessionReader) (JsonNode * root,
    const gchar * origin, GError ** error);

/* The whole path from bytes to a session: strict parse, then @reader.
 * @length < 0: @data is NUL-terminated. @origin names the input in errors
 * (NULL: "<data>"). */
GpSession *gp_json_load_session_data (const gchar * data,
    gssize length, const gchar * origin, GpJsonSessionReader reader,
    GError ** error);
/* The same from a file (gp_json_read_file), naming @path in errors. */
GpSession *gp_json_load_session_file (const gchar * path,
    GpJsonSessionReader reader, GError ** error);

/* Member @name of @o as a number, @fallback when it is absent or not a
 * number (json_object_get_double_member_with_default needs json-glib 1.6). */
gdouble gp_json_get_double (JsonObject * o, const gchar * name,
    gdouble fallback);

G_END_DECLS

#endif /* __GP_JSON_H__ */
