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

/* Most values (numbers, strings, arrays, objects...) a document may hold in
 * json-glib's tree at once: a value there costs about 250 bytes, so at most
 * about 500 MB. A session gstprof writes holds far fewer besides its
 * machine series (240 windows of a 300-element pipeline and 4,096 events
 * are under a million); its machine series (hundreds of threads times
 * thousands of samples) are read one at a time (GpJsonLazy), so they do not
 * count. */
#define GP_JSON_MAX_VALUES 2000000

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

/* The elements of an array a document held that were left out of its tree
 * and are parsed one at a time: a session's machine series when the whole
 * would hold more than GP_JSON_MAX_VALUES values. Only the loader makes
 * one; a reader is given it with the tree (GpJsonReader.lazy). */
typedef struct _GpJsonLazy GpJsonLazy;

/* Sets @error (GP_SESSION_ERROR, @code) to one line: the message is made
 * valid UTF-8, control characters become spaces and an overlong message is
 * cut, whatever the file name or the keys quoted in it contain. */
void gp_json_error_line (GError ** error, gint code, const gchar * format,
    ...) G_GNUC_PRINTF (3, 4);

/* Largest file a reader takes: far above any session (a day of windows is
 * a few MiB), small enough to refuse a wrong file quickly. */
#define GP_JSON_MAX_FILE_BYTES (256 * 1024 * 1024)

/* Reads all of @path (at most GP_JSON_MAX_FILE_BYTES; pipes and devices
 * too) into a new buffer, NUL-terminated, its length in @len. On failure
 * sets @error (GP_SESSION_ERROR_IO) to one line naming the file. */
gchar *gp_json_read_file (const gchar * path, gsize * len, GError ** error);

/* Turns a parsed document into a session (gp_session_from_json_lazy, or
 * an importer); sets @error to one line naming @origin when it cannot.
 * @lazy (may be NULL) holds the elements of "machine.series" left out of
 * @root, whose machine.series is then empty. */
typedef GpSession *(*GpJsonSessionReader) (JsonNode * root,
    GpJsonLazy * lazy, const gchar * origin, GError ** error);

/* The whole path from bytes to a session: strict parse, then @reader.
 * @length < 0: @data is NUL-terminated. @origin names the input in errors
 * (NULL: "<data>"). A document over GP_JSON_MAX_VALUES is read with its
 * machine series left out of the tree (GpJsonLazy) when that brings it
 * under; otherwise it is refused: "ORIGIN: N values, more than ...". */
GpSession *gp_json_load_session_data (const gchar * data,
    gssize length, const gchar * origin, GpJsonSessionReader reader,
    GError ** error);
/* The same, its machine series left out of the tree when it holds more
 * than @split_above values (gp_json_load_session_data (): the budget, so
 * only when it must; the fuzzer: 0, so that every session is read both
 * ways). */
GpSession *gp_json_load_session_data_split (const gchar * data,
    gssize length, const gchar * origin, GpJsonSessionReader reader,
    guint64 split_above, GError ** error);
/* The same from a file (gp_json_read_file), naming @path in errors. */
GpSession *gp_json_load_session_file (const gchar * path,
    GpJsonSessionReader reader, GError ** error);

/* Member @name of @o as a number, @fallback when it is absent or not a
 * number (json_object_get_double_member_with_default needs json-glib 1.6). */
gdouble gp_json_get_double (JsonObject * o, const gchar * name,
    gdouble fallback);
/* A value taken from a file, to quote in an error line: its first 64
 * characters, escaped (a newline shows as \n). A new string. */
gchar *gp_json_excerpt (const gchar * text);

/* Member @name of @o (which may be NULL) as a string (borrowed), NULL when
 * it is absent or not a string. */
const gchar *gp_json_get_string (JsonObject * o, const gchar * name);

/* ------------------------------------------------------------------ */
/* typed member reads with a sticky error                               */
/* ------------------------------------------------------------------ */

/* One reader of one parsed document, for the session loader and every
 * importer. Each gp_json_read_* () checks a member's type; when it is
 * wrong the reader records one error line "ORIGIN: key.path: expected a
 * string" (GP_SESSION_ERROR_SCHEMA) and the read fails. As json-glib's
 * JsonReader keeps its error state, the first error stays and every later
 * read fails at once without touching its output, so a reader may chain
 * reads with && or look once at gp_json_reader_ok () after several.
 * Absent and null members both mean "not recorded": the read succeeds and
 * leaves the default it documents. Key paths ("graph.elements[2].props")
 * name members in errors; keys taken from the file are cut so that an
 * error stays one readable line. */
typedef struct
{
  const gchar *origin;          /* the input's name in errors */
  GError *error;                /* the first error (owned), NULL until then */
  GpJsonLazy *lazy;             /* elements left out of the tree, or NULL */
} GpJsonReader;

/* Magnitudes no measurement reaches, so a file holding one was not written
 * by one (and sums over millions of windows stay finite): a share in
 * percent above a thousand cores, anything else above 1e15 (ms in thirty
 * thousand years, bytes in a petabyte). */
#define GP_JSON_MAX_SHARE 1e5
#define GP_JSON_MAX_MAGNITUDE 1e15

void gp_json_reader_init (GpJsonReader * r, const gchar * origin);
gboolean gp_json_reader_ok (const GpJsonReader * r);
/* Hands the reader's error, if any, to @error (which may be NULL) and
 * returns whether there was none. */
gboolean gp_json_reader_finish (GpJsonReader * r, GError ** error);
/* Records "ORIGIN: PATH: MESSAGE" unless an error is already kept; always
 * FALSE, so that a reader can return it. */
gboolean gp_json_reader_fail (GpJsonReader * r, const gchar * path,
    const gchar * format, ...) G_GNUC_PRINTF (3, 4);
/* gp_json_reader_fail () at PATH.KEY: "expected WHAT" ("a string"). */
gboolean gp_json_reader_expected (GpJsonReader * r, const gchar * path,
    const gchar * key, const gchar * what);

/* "a.b" + "c" -> "a.b.c"; "a.b" + "[2]" -> "a.b[2]"; the key is cut to
 * 80 characters. */
gchar *gp_json_key_path (const gchar * path, const gchar * key);
gchar *gp_json_index_path (const gchar * path, guint i);

/* Member @key of @o (which may be NULL), NULL when absent or null. */
JsonNode *gp_json_member (JsonObject * o, const gchar * key);
/* An integer or real node's value; FALSE (no error) for anything else. */
gboolean gp_json_node_number (JsonNode * node, gdouble * out);

/* Borrowed from the tree; NULL when absent. */
gboolean gp_json_read_object (GpJsonReader * r, JsonObject * o,
    const gchar * path, const gchar * key, JsonObject ** out);
gboolean gp_json_read_array (GpJsonReader * r, JsonObject * o,
    const gchar * path, const gchar * key, JsonArray ** out);
/* Element @i of @a, which must be an object; @ipath (may be NULL) gets a
 * new "PATH[i]" for the reads inside it. */
gboolean gp_json_read_element_object (GpJsonReader * r, JsonArray * a,
    guint i, const gchar * path, JsonObject ** out, gchar ** ipath);
/* How many elements of the array at @path (as "machine.series") the
 * reader's GpJsonLazy holds: 0 without one. */
guint gp_json_lazy_length (GpJsonReader * r, const gchar * path);
/* Element @i of them, parsed now, which must be an object: as
 * gp_json_read_element_object (), and @node gets the element's tree (a new
 * reference: json_node_unref () it when done with @out). A parse error is
 * the reader's error, with its line and column in the whole text. */
gboolean gp_json_read_lazy_object (GpJsonReader * r, const gchar * path,
    guint i, JsonNode ** node, JsonObject ** out, gchar ** ipath);
/* Borrowed from the tree; NULL when absent. */
gboolean gp_json_read_string (GpJsonReader * r, JsonObject * o,
    const gchar * path, const gchar * key, const gchar ** out);
/* FALSE when absent. */
gboolean gp_json_read_bool (GpJsonReader * r, JsonObject * o,
    const gchar * path, const gchar * key, gboolean * out);
/* An integer or a real of magnitude at most @max; NAN when absent, null,
 * or beyond what a double holds (1e999: no writer means that). Above @max
 * it fails: "V cannot be (a measurement stays within MAX)". */
gboolean gp_json_read_number (GpJsonReader * r, JsonObject * o,
    const gchar * path, const gchar * key, gdouble max, gdouble * out);
/* An integer that fits a gint; @dflt when absent. */
gboolean gp_json_read_int (GpJsonReader * r, JsonObject * o,
    const gchar * path, const gchar * key, gint dflt, gint * out);
/* A non-negative integer (a real such as 12.0 too: some writers print
 * every number so); 0 when absent. */
gboolean gp_json_read_count (GpJsonReader * r, JsonObject * o,
    const gchar * path, const gchar * key, guint64 * out);
/* An array of strings, each appended to @dst as a new string. */
gboolean gp_json_read_string_array (GpJsonReader * r, JsonObject * o,
    const gchar * path, const gchar * key, GPtrArray * dst);

G_END_DECLS

#endif /* __GP_JSON_H__ */
