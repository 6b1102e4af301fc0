/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-json.c: the strict JSON entry point shared by every reader of saved
 * files (gp-json.h says what json-glib gets wrong and why it matters), and
 * the typed member reads with a sticky error they all use.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <glib/gstdio.h>
#include <string.h>

#include "gp-json.h"
#include "gp-session.h"

static void
gp_json_error_line_valist (GError ** error, gint code, const gchar * format,
    va_list args)
{
  gchar *msg, *valid, *p;

  msg = g_strdup_vprintf (format, args);
  valid = g_utf8_make_valid (msg, -1);
  g_free (msg);
  for (p = valid; *p != '\0'; p++)
    if ((guchar) * p < 0x20 || *p == 0x7f)
      *p = ' ';
  /* a key or a file name can be any length; the line stays readable */
  if (g_utf8_strlen (valid, -1) > 500) {
    gchar *end = g_utf8_offset_to_pointer (valid, 497);

    strcpy (end, "...");
  }
  g_set_error_literal (error, GP_SESSION_ERROR, code, valid);
  g_free (valid);
}

void
gp_json_error_line (GError ** error, gint code, const gchar * format, ...)
{
  va_list args;

  va_start (args, format);
  gp_json_error_line_valist (error, code, format, args);
  va_end (args);
}

/* Before json-glib sees the text, what it gets wrong:
 * - it wants UTF-8 but says so without a position: we give line and column;
 * - its parser recurses once per nesting level and overflows the stack on
 *   deep input ([[[[... a few MB long): refused past GP_JSON_MAX_DEPTH;
 * - it accepts a second value after the first ("1 {...}") and then leaks
 *   the tree it built: refused, JSON has one value per document;
 * - its scanner also takes C comments and single-quoted strings, in which
 *   brackets would not be seen here the way the parser sees them: refused,
 *   they are not JSON (and no tool we read writes them).
 * Brackets inside strings do not count, so the scan follows strings and
 * their escapes; nothing else of the grammar is checked here. */
/* The four hex digits of "\\uXXXX" at @data[*i + 1]; -1 when they are not
 * there. */
static gint
gp_json_hex4 (const gchar * data, gsize len, gsize at)
{
  gint v = 0;
  gsize k;

  if (at + 4 > len)
    return -1;
  for (k = at; k < at + 4; k++) {
    if (!g_ascii_isxdigit (data[k]))
      return -1;
    v = v * 16 + g_ascii_xdigit_value (data[k]);
  }
  return v;
}

/* A "\\u" escape whose 'u' is at @data[*i]: NULL when it is four hex digits
 * that make a character (a UTF-16 surrogate pair written as two escapes
 * too), moving *i to its last digit; else what is wrong with it. json-glib
 * leaks the string it was building on a short or half-pair escape (found
 * by fuzzing), and no writer of JSON means one. */
static const gchar *
gp_json_unicode_escape_problem (const gchar * data, gsize len, gsize * i)
{
  gint v = gp_json_hex4 (data, len, *i + 1), low;

  if (v < 0)
    return "a \\u escape without four hex digits";
  *i += 4;
  if (v >= 0xdc00 && v <= 0xdfff)
    return "a \\u escape that is the second half of a UTF-16 pair alone";
  if (v < 0xd800 || v > 0xdbff)
    return NULL;
  if (*i + 2 >= len || data[*i + 1] != '\\' || data[*i + 2] != 'u' ||
      (low = gp_json_hex4 (data, len, *i + 3)) < 0xdc00 || low > 0xdfff)
    return "a \\u escape that is the first half of a UTF-16 pair alone";
  *i += 6;
  return NULL;
}

/* Refuses what json-glib would get wrong (see gp-json.h); counts in
 * @values the values the text holds: one, and one more for each '[', '{'
 * and ',' outside strings (a bound, not an exact count: "[]" counts two). */
static gboolean
gp_json_precheck (const gchar * data, gsize len, const gchar * origin,
    guint64 * values, GError ** error)
{
  const gchar *bad = NULL, *problem = NULL;
  guint64 n_values = 1;
  guint line = 1, depth = 0;
  gsize i, line_start = 0;
  gboolean in_string = FALSE, escaped = FALSE;
  gboolean top_done = FALSE;    /* one whole top-level value seen */
  gboolean top_word = FALSE;    /* inside a top-level number or word */

  if (len == 0) {
    gp_json_error_line (error, GP_SESSION_ERROR_PARSE,
        "%s: empty file, not a session", origin);
    return FALSE;
  }

  /* g_utf8_validate sets @bad to the end on success too. */
  if (g_utf8_validate (data, (gssize) len, &bad))
    bad = NULL;
  else
    len = (gsize) (bad - data);

  for (i = 0; i < len && problem == NULL; i++) {
    gchar c = data[i];

    if (in_string) {
      if (escaped) {
        escaped = FALSE;
        if (c == 'u')
          problem = gp_json_unicode_escape_problem (data, len, &i);
        else if (strchr ("\"\\/bfnrt", c) == NULL || c == '\0')
          problem = "an unknown escape in a string";
      } else if (c == '\\')
        escaped = TRUE;
      else if (c == '"') {
        in_string = FALSE;
        top_done = depth == 0;
      }
    } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      if (depth == 0 && top_word) {
        top_word = FALSE;
        top_done = TRUE;
      }
    } else if (c == '\'' || c == '/') {
      problem = c == '/' ? "a comment or '/' outside a string" :
          "a single quote outside a string";
    } else if (depth == 0 && (top_done || (top_word && (c == '"' ||
                    c == '[' || c == '{')))) {
      problem = "more data after the end of the JSON value";
    } else if (c == '"') {
      in_string = TRUE;
    } else if (c == ',') {
      n_values++;
    } else if (c == '[' || c == '{') {
      n_values++;
      if (++depth > GP_JSON_MAX_DEPTH)
        problem = "nested deeper than " G_STRINGIFY (GP_JSON_MAX_DEPTH)
            " levels";
    } else if (c == ']' || c == '}') {
      if (depth > 0 && --depth == 0)
        top_done = TRUE;
    } else if (depth == 0) {
      top_word = TRUE;
    }

    if (problem == NULL && c == '\n') {
      line++;
      line_start = i + 1;
    }
  }

  if (problem != NULL) {
    i--;
    gp_json_error_line (error, GP_SESSION_ERROR_PARSE, "%s:%u:%u: %s",
        origin, line, (guint) g_utf8_strlen (data + line_start,
            (gssize) (i - line_start)) + 1, problem);
    return FALSE;
  }
  if (bad != NULL) {
    gp_json_error_line (error, GP_SESSION_ERROR_PARSE,
        "%s:%u:%u: not UTF-8 text (byte 0x%02x)", origin, line,
        (guint) g_utf8_strlen (data + line_start,
            (gssize) (len - line_start)) + 1, (guint) (guchar) * bad);
    return FALSE;
  }
  *values = n_values;
  return TRUE;
}

static gboolean
gp_json_within_budget (guint64 values, const gchar * origin, GError ** error)
{
  if (values <= GP_JSON_MAX_VALUES)
    return TRUE;
  gp_json_error_line (error, GP_SESSION_ERROR_PARSE,
      "%s: %" G_GUINT64_FORMAT " values, more than the %d gstprof reads "
      "(its machine series aside): not a session it wrote", origin, values,
      GP_JSON_MAX_VALUES);
  return FALSE;
}

/* json-glib's parse of text gp_json_precheck () passed; @line and @col
 * (1-based) are where @data stands in the text @origin names, for the
 * position of an error. */
static JsonNode *
gp_json_parse_checked (const gchar * data, gsize len, const gchar * origin,
    guint line, guint col, GError ** error)
{
  JsonParser *parser = json_parser_new ();
  JsonNode *root;
  GError *perr = NULL;

  if (!json_parser_load_from_data (parser, data, (gssize) len, &perr)) {
    guint l, c;
    gint end = 0;

    /* json-glib prefixes "<data>:LINE:COL: " for text it did not read from
     * a file; put the real name there, and the place in the whole text. */
    if (sscanf (perr->message, "<data>:%u:%u: %n", &l, &c, &end) == 2 &&
        end > 0)
      gp_json_error_line (error, GP_SESSION_ERROR_PARSE, "%s:%u:%u: %s",
          origin, line + l - 1, l == 1 ? col + c - 1 : c,
          perr->message + end);
    else if (g_str_has_prefix (perr->message, "<data>:"))
      gp_json_error_line (error, GP_SESSION_ERROR_PARSE, "%s:%s", origin,
          perr->message + strlen ("<data>:"));
    else
      gp_json_error_line (error, GP_SESSION_ERROR_PARSE, "%s: %s", origin,
          perr->message);
    g_error_free (perr);
    g_object_unref (parser);
    return NULL;
  }
  root = json_parser_get_root (parser);
  if (root == NULL) {
    /* only blanks */
    gp_json_error_line (error, GP_SESSION_ERROR_PARSE,
        "%s: empty file, not a session", origin);
    g_object_unref (parser);
    return NULL;
  }
  root = json_node_ref (root);
  g_object_unref (parser);
  return root;
}

JsonNode *
gp_json_parse_strict (const gchar * data, gsize len, const gchar * origin,
    GError ** error)
{
  guint64 values;

  g_return_val_if_fail (data != NULL || len == 0, NULL);

  if (origin == NULL)
    origin = "<data>";
  if (!gp_json_precheck (data, len, origin, &values, error) ||
      !gp_json_within_budget (values, origin, error))
    return NULL;
  return gp_json_parse_checked (data, len, origin, 1, 1, error);
}

/* ------------------------------------------------------------------ */
/* machine series left out of the tree                                  */
/* ------------------------------------------------------------------ */

typedef struct
{
  gsize start, end;
} GpJsonRange;

struct _GpJsonLazy
{
  const gchar *data;            /* the whole text (borrowed) */
  GpJsonRange array;            /* machine.series's bytes */
  GArray *items;                /* GpJsonRange: its elements' */
  guint64 values;               /* the values in them, as counted by
                                 * gp_json_precheck () */
  guint64 most;                 /* ... in the largest of them, which is
                                 * parsed whole: within the budget too */
};

/* A cursor over text gp_json_precheck () passed (strings and escapes
 * whole): enough of the grammar to find where a value ends. */
typedef struct
{
  const gchar *t;
  gsize len, i;
} GpJsonScan;

static void
gp_json_scan_blanks (GpJsonScan * s)
{
  while (s->i < s->len && (s->t[s->i] == ' ' || s->t[s->i] == '\t' ||
          s->t[s->i] == '\n' || s->t[s->i] == '\r'))
    s->i++;
}

static gboolean
gp_json_scan_char (GpJsonScan * s, gchar c)
{
  gp_json_scan_blanks (s);
  if (s->i >= s->len || s->t[s->i] != c)
    return FALSE;
  s->i++;
  return TRUE;
}

/* Past the string at the cursor; its text (no escapes in it) in @out. */
static gboolean
gp_json_scan_string (GpJsonScan * s, GpJsonRange * out, gboolean * escaped)
{
  gp_json_scan_blanks (s);
  if (s->i >= s->len || s->t[s->i] != '"')
    return FALSE;
  out->start = ++s->i;
  *escaped = FALSE;
  for (; s->i < s->len; s->i++) {
    if (s->t[s->i] == '\\') {
      *escaped = TRUE;
      s->i++;
    } else if (s->t[s->i] == '"') {
      out->end = s->i++;
      return TRUE;
    }
  }
  return FALSE;
}

/* Past the value at the cursor, its bytes in @out. */
static gboolean
gp_json_scan_value (GpJsonScan * s, GpJsonRange * out)
{
  guint depth = 0;

  gp_json_scan_blanks (s);
  out->start = s->i;
  while (s->i < s->len) {
    gchar c = s->t[s->i];

    if (c == '"') {
      GpJsonRange str;
      gboolean escaped;

      if (!gp_json_scan_string (s, &str, &escaped))
        return FALSE;
      if (depth == 0)
        break;
      continue;
    }
    if (c == '[' || c == '{') {
      depth++;
    } else if (c == ']' || c == '}') {
      if (depth == 0)
        break;
      if (--depth == 0) {
        s->i++;
        break;
      }
    } else if (depth == 0 && (c == ',' || c == ' ' || c == '\t' ||
            c == '\n' || c == '\r')) {
      break;
    }
    s->i++;
  }
  out->end = s->i;
  return depth == 0 && out->end > out->start;
}

/* The value of the last member @key of the object at @obj (json-glib keeps
 * the last of a repeated key); FALSE when the object does not scan, has a
 * key with escapes (it could be @key written otherwise) or lacks @key. */
static gboolean
gp_json_scan_member (const gchar * t, gsize len, const GpJsonRange * obj,
    const gchar * key, GpJsonRange * out)
{
  GpJsonScan s = { t, obj->end, obj->start };
  gboolean found = FALSE;

  if (!gp_json_scan_char (&s, '{'))
    return FALSE;
  if (gp_json_scan_char (&s, '}'))
    return FALSE;
  do {
    GpJsonRange k, v;
    gboolean escaped;

    if (!gp_json_scan_string (&s, &k, &escaped) || escaped ||
        !gp_json_scan_char (&s, ':') || !gp_json_scan_value (&s, &v))
      return FALSE;
    if (k.end - k.start == strlen (key) &&
        memcmp (t + k.start, key, k.end - k.start) == 0) {
      *out = v;
      found = TRUE;
    }
  } while (gp_json_scan_char (&s, ','));
  return gp_json_scan_char (&s, '}') && found;
}

/* The elements of the array @array in @t, each a range, into @items. */
static gboolean
gp_json_scan_elements (const gchar * t, const GpJsonRange * array,
    GArray * items)
{
  GpJsonScan s = { t, array->end, array->start };

  if (!gp_json_scan_char (&s, '['))
    return FALSE;
  if (gp_json_scan_char (&s, ']'))
    return TRUE;
  do {
    GpJsonRange v;

    if (!gp_json_scan_value (&s, &v))
      return FALSE;
    g_array_append_val (items, v);
  } while (gp_json_scan_char (&s, ','));
  return gp_json_scan_char (&s, ']');
}

static void
gp_json_lazy_free (GpJsonLazy * lazy)
{
  if (lazy == NULL)
    return;
  g_array_unref (lazy->items);
  g_free (lazy);
}

/* Where @data's "machine.series" array and its elements are, and how many
 * values they hold; NULL when there is none, or the text around it does
 * not scan. */
static GpJsonLazy *
gp_json_lazy_split (const gchar * data, gsize len)
{
  GpJsonRange top, machine, series;
  GpJsonScan s = { data, len, 0 };
  GpJsonLazy *lazy;
  guint i;

  if (!gp_json_scan_value (&s, &top) ||
      !gp_json_scan_member (data, len, &top, "machine", &machine) ||
      !gp_json_scan_member (data, len, &machine, "series", &series))
    return NULL;
  lazy = g_new0 (GpJsonLazy, 1);
  lazy->data = data;
  lazy->array = series;
  lazy->items = g_array_new (FALSE, FALSE, sizeof (GpJsonRange));
  if (!gp_json_scan_elements (data, &series, lazy->items)) {
    gp_json_lazy_free (lazy);
    return NULL;
  }
  /* what the tree no longer holds, counted as gp_json_precheck () counts
   * (the array's own '[' and the commas between its elements too) */
  lazy->values = lazy->items->len;
  for (i = 0; i < lazy->items->len; i++) {
    const GpJsonRange *it = &g_array_index (lazy->items, GpJsonRange, i);
    GpJsonScan in = { data, it->end, it->start };
    guint64 n = 1;

    while (in.i < in.len) {
      GpJsonRange str;
      gboolean escaped;
      gchar c = data[in.i];

      if (c == '"' && gp_json_scan_string (&in, &str, &escaped))
        continue;
      n += c == ',' || c == '[' || c == '{';
      in.i++;
    }
    lazy->values += n;
    lazy->most = MAX (lazy->most, n);
  }
  return lazy;
}

/* @data (@len bytes) with "[]" in place of @lazy's array, for json-glib:
 * its line breaks kept, so that positions hold (the columns after it on
 * its last line too, when it spans lines). */
static gchar *
gp_json_lazy_skeleton (const GpJsonLazy * lazy, gsize len, gsize * out_len)
{
  const GpJsonRange *a = &lazy->array;
  GString *sk = g_string_sized_new (len - (a->end - a->start) + 2);
  gsize i, last_nl = a->start;

  g_string_append_len (sk, lazy->data, (gssize) a->start + 1);
  for (i = a->start + 1; i + 1 < a->end; i++)
    if (lazy->data[i] == '\n') {
      g_string_append_c (sk, '\n');
      last_nl = i;
    }
  if (last_nl > a->start)
    for (i = last_nl + 1; i + 1 < a->end; i++)
      g_string_append_c (sk, ' ');
  g_string_append_len (sk, lazy->data + a->end - 1,
      (gssize) (len - a->end + 1));
  *out_len = sk->len;
  return g_string_free (sk, FALSE);
}

guint
gp_json_lazy_length (GpJsonReader * r, const gchar * path)
{
  if (r->lazy == NULL || g_strcmp0 (path, "machine.series") != 0)
    return 0;
  return r->lazy->items->len;
}

static gboolean
gp_json_element_object (GpJsonReader * r, JsonNode * node, guint i,
    const gchar * path, JsonObject ** out, gchar ** ipath)
{
  gchar *here;

  *out = NULL;
  if (ipath)
    *ipath = NULL;
  if (r->error)
    return FALSE;
  here = gp_json_index_path (path, i);
  if (!JSON_NODE_HOLDS_OBJECT (node))
    gp_json_reader_fail (r, here, "expected an object");
  else
    *out = json_node_get_object (node);
  if (ipath)
    *ipath = here;
  else
    g_free (here);
  return r->error == NULL;
}

gboolean
gp_json_read_lazy_object (GpJsonReader * r, const gchar * path, guint i,
    JsonNode ** node, JsonObject ** out, gchar ** ipath)
{
  const GpJsonRange *it;
  guint line = 1, col = 1;
  const gchar *p, *t;

  *node = NULL;
  *out = NULL;
  if (ipath)
    *ipath = NULL;
  if (r->error)
    return FALSE;
  g_return_val_if_fail (i < gp_json_lazy_length (r, path), FALSE);
  it = &g_array_index (r->lazy->items, GpJsonRange, i);
  t = r->lazy->data;
  /* where it stands, for an error's position: counted only then */
  *node = gp_json_parse_checked (t + it->start, it->end - it->start,
      r->origin, 1, 1, NULL);
  if (*node == NULL) {
    for (p = t; p < t + it->start; p++)
      if (*p == '\n') {
        line++;
        col = 1;
      } else {
        col++;
      }
    gp_json_parse_checked (t + it->start, it->end - it->start, r->origin,
        line, col, &r->error);
    return FALSE;
  }
  return gp_json_element_object (r, *node, i, path, out, ipath);
}

gchar *
gp_json_read_file (const gchar * path, gsize * len, GError ** error)
{
  FILE *f;
  GString *buf;
  gchar chunk[65536];
  size_t n;

  g_return_val_if_fail (path != NULL, NULL);

  /* stdio rather than g_file_get_contents: its errno gives a plain
   * "FILE: No such file or directory" instead of a message quoting the
   * name a second time, and the size cap holds for pipes too. */
  f = g_fopen (path, "rb");
  if (f == NULL) {
    int err = errno;

    gp_json_error_line (error, GP_SESSION_ERROR_IO, "%s: %s", path,
        g_strerror (err));
    return NULL;
  }
  buf = g_string_new (NULL);
  while ((n = fread (chunk, 1, sizeof (chunk), f)) > 0) {
    if (buf->len + n > GP_JSON_MAX_FILE_BYTES) {
      gp_json_error_line (error, GP_SESSION_ERROR_IO,
          "%s: larger than %d MiB, not a session", path,
          GP_JSON_MAX_FILE_BYTES / (1024 * 1024));
      fclose (f);
      g_string_free (buf, TRUE);
      return NULL;
    }
    g_string_append_len (buf, chunk, (gssize) n);
  }
  if (ferror (f)) {
    int err = errno;

    gp_json_error_line (error, GP_SESSION_ERROR_IO, "%s: %s", path,
        g_strerror (err));
    fclose (f);
    g_string_free (buf, TRUE);
    return NULL;
  }
  fclose (f);
  *len = buf->len;
  return g_string_free (buf, FALSE);
}

GpSession *
gp_json_load_session_data (const gchar * data, gssize length,
    const gchar * origin, GpJsonSessionReader reader, GError ** error)
{
  return gp_json_load_session_data_split (data, length, origin, reader,
      GP_JSON_MAX_VALUES, error);
}

GpSession *
gp_json_load_session_data_split (const gchar * data, gssize length,
    const gchar * origin, GpJsonSessionReader reader, guint64 split_above,
    GError ** error)
{
  JsonNode *root;
  GpJsonLazy *lazy = NULL;
  gchar *skeleton = NULL;
  guint64 values;
  GpSession *s;
  gsize len;

  g_return_val_if_fail (data != NULL || length == 0, NULL);
  g_return_val_if_fail (reader != NULL, NULL);

  if (origin == NULL)
    origin = "<data>";
  len = length < 0 ? strlen (data) : (gsize) length;
  /* refuse what json-glib would get wrong (deep nesting, a second value,
   * comments, bad UTF-8) before it parses */
  if (!gp_json_precheck (data, len, origin, &values, error))
    return NULL;
  if (values > split_above)
    lazy = gp_json_lazy_split (data, len);
  if (!gp_json_within_budget (values - (lazy ? MIN (lazy->values,
                  values - 1) : 0), origin, error) ||
      (lazy && !gp_json_within_budget (lazy->most, origin, error))) {
    gp_json_lazy_free (lazy);
    return NULL;
  }
  if (lazy != NULL)
    skeleton = gp_json_lazy_skeleton (lazy, len, &len);
  root = gp_json_parse_checked (skeleton ? skeleton : data, len, origin, 1,
      1, error);
  g_free (skeleton);
  if (root == NULL) {
    gp_json_lazy_free (lazy);
    return NULL;
  }
  s = reader (root, lazy, origin, error);
  json_node_unref (root);
  gp_json_lazy_free (lazy);
  return s;
}

GpSession *
gp_json_load_session_file (const gchar * path, GpJsonSessionReader reader,
    GError ** error)
{
  GpSession *s;
  gchar *data;
  gsize len;

  g_return_val_if_fail (path != NULL, NULL);

  data = gp_json_read_file (path, &len, error);
  if (data == NULL)
    return NULL;
  s = gp_json_load_session_data (data, (gssize) len, path, reader, error);
  g_free (data);
  return s;
}

gdouble
gp_json_get_double (JsonObject * o, const gchar * name, gdouble fallback)
{
  JsonNode *n = o ? json_object_get_member (o, name) : NULL;

  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n))
    return fallback;
  switch (json_node_get_value_type (n)) {
    case G_TYPE_INT64:
    case G_TYPE_DOUBLE:
      return json_node_get_double (n);
    default:
      return fallback;
  }
}

gchar *
gp_json_excerpt (const gchar * text)
{
  gchar *shown = g_strndup (text ? text : "", 64);
  gchar *escaped = g_strescape (shown, NULL);

  g_free (shown);
  return escaped;
}

const gchar *
gp_json_get_string (JsonObject * o, const gchar * name)
{
  JsonNode *n = o ? json_object_get_member (o, name) : NULL;

  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n) ||
      json_node_get_value_type (n) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (n);
}

/* ------------------------------------------------------------------ */
/* typed member reads with a sticky error                               */
/* ------------------------------------------------------------------ */

void
gp_json_reader_init (GpJsonReader * r, const gchar * origin)
{
  r->origin = origin ? origin : "<data>";
  r->error = NULL;
  r->lazy = NULL;
}

gboolean
gp_json_reader_ok (const GpJsonReader * r)
{
  return r->error == NULL;
}

gboolean
gp_json_reader_finish (GpJsonReader * r, GError ** error)
{
  if (r->error == NULL)
    return TRUE;
  g_propagate_error (error, r->error);
  r->error = NULL;
  return FALSE;
}

gboolean
gp_json_reader_fail (GpJsonReader * r, const gchar * path,
    const gchar * format, ...)
{
  va_list args;
  gchar *msg;

  if (r->error != NULL)
    return FALSE;
  va_start (args, format);
  msg = g_strdup_vprintf (format, args);
  va_end (args);
  gp_json_error_line (&r->error, GP_SESSION_ERROR_SCHEMA, "%s: %s: %s",
      r->origin, path && *path ? path : "(top level)", msg);
  g_free (msg);
  return FALSE;
}

gchar *
gp_json_key_path (const gchar * path, const gchar * key)
{
  gchar *k = g_strndup (key, 80);
  gchar *res;

  if (path == NULL || path[0] == '\0')
    res = g_strdup (k);
  else if (key[0] == '[')
    res = g_strconcat (path, k, NULL);
  else
    res = g_strconcat (path, ".", k, NULL);
  g_free (k);
  return res;
}

gchar *
gp_json_index_path (const gchar * path, guint i)
{
  return g_strdup_printf ("%s[%u]", path ? path : "", i);
}

gboolean
gp_json_reader_expected (GpJsonReader * r, const gchar * path,
    const gchar * key, const gchar * what)
{
  gchar *full = gp_json_key_path (path, key);

  gp_json_reader_fail (r, full, "expected %s", what);
  g_free (full);
  return FALSE;
}

JsonNode *
gp_json_member (JsonObject * o, const gchar * key)
{
  JsonNode *node;

  if (o == NULL)
    return NULL;
  node = json_object_get_member (o, key);
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return NULL;
  return node;
}

gboolean
gp_json_node_number (JsonNode * node, gdouble * out)
{
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  switch (json_node_get_value_type (node)) {
    case G_TYPE_INT64:
      *out = (gdouble) json_node_get_int (node);
      return TRUE;
    case G_TYPE_DOUBLE:
      *out = json_node_get_double (node);
      return TRUE;
    default:
      return FALSE;
  }
}

static gboolean
gp_json_holds (JsonNode * node, GType type)
{
  return JSON_NODE_HOLDS_VALUE (node) &&
      json_node_get_value_type (node) == type;
}

gboolean
gp_json_read_object (GpJsonReader * r, JsonObject * o, const gchar * path,
    const gchar * key, JsonObject ** out)
{
  JsonNode *node;

  if (r->error)
    return FALSE;
  node = gp_json_member (o, key);
  *out = NULL;
  if (node == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    return gp_json_reader_expected (r, path, key, "an object");
  *out = json_node_get_object (node);
  return TRUE;
}

gboolean
gp_json_read_array (GpJsonReader * r, JsonObject * o, const gchar * path,
    const gchar * key, JsonArray ** out)
{
  JsonNode *node;

  if (r->error)
    return FALSE;
  node = gp_json_member (o, key);
  *out = NULL;
  if (node == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    return gp_json_reader_expected (r, path, key, "an array");
  *out = json_node_get_array (node);
  return TRUE;
}

gboolean
gp_json_read_element_object (GpJsonReader * r, JsonArray * a, guint i,
    const gchar * path, JsonObject ** out, gchar ** ipath)
{
  return gp_json_element_object (r, json_array_get_element (a, i), i, path,
      out, ipath);
}

gboolean
gp_json_read_string (GpJsonReader * r, JsonObject * o, const gchar * path,
    const gchar * key, const gchar ** out)
{
  JsonNode *node;

  if (r->error)
    return FALSE;
  node = gp_json_member (o, key);
  *out = NULL;
  if (node == NULL)
    return TRUE;
  if (!gp_json_holds (node, G_TYPE_STRING))
    return gp_json_reader_expected (r, path, key, "a string");
  *out = json_node_get_string (node);
  return TRUE;
}

gboolean
gp_json_read_bool (GpJsonReader * r, JsonObject * o, const gchar * path,
    const gchar * key, gboolean * out)
{
  JsonNode *node;

  if (r->error)
    return FALSE;
  node = gp_json_member (o, key);
  *out = FALSE;
  if (node == NULL)
    return TRUE;
  if (!gp_json_holds (node, G_TYPE_BOOLEAN))
    return gp_json_reader_expected (r, path, key, "true or false");
  *out = json_node_get_boolean (node);
  return TRUE;
}

gboolean
gp_json_read_number (GpJsonReader * r, JsonObject * o, const gchar * path,
    const gchar * key, gdouble max, gdouble * out)
{
  JsonNode *node;
  gdouble v;

  if (r->error)
    return FALSE;
  node = gp_json_member (o, key);
  *out = NAN;
  if (node == NULL)
    return TRUE;
  if (!gp_json_node_number (node, &v))
    return gp_json_reader_expected (r, path, key, "a number");
  if (!isfinite (v))
    return TRUE;
  if (fabs (v) > max) {
    gchar *full = gp_json_key_path (path, key);

    gp_json_reader_fail (r, full, "%g cannot be (a measurement stays "
        "within %g)", v, max);
    g_free (full);
    return FALSE;
  }
  *out = v;
  return TRUE;
}

gboolean
gp_json_read_int (GpJsonReader * r, JsonObject * o, const gchar * path,
    const gchar * key, gint dflt, gint * out)
{
  JsonNode *node;
  gint64 v;

  if (r->error)
    return FALSE;
  node = gp_json_member (o, key);
  if (node == NULL) {
    *out = dflt;
    return TRUE;
  }
  if (!gp_json_holds (node, G_TYPE_INT64) ||
      (v = json_node_get_int (node)) < G_MININT || v > G_MAXINT)
    return gp_json_reader_expected (r, path, key, "an integer");
  *out = (gint) v;
  return TRUE;
}

gboolean
gp_json_read_count (GpJsonReader * r, JsonObject * o, const gchar * path,
    const gchar * key, guint64 * out)
{
  JsonNode *node;
  gdouble v;

  if (r->error)
    return FALSE;
  node = gp_json_member (o, key);
  if (node == NULL) {
    *out = 0;
    return TRUE;
  }
  if (gp_json_holds (node, G_TYPE_INT64)) {
    gint64 i = json_node_get_int (node);

    if (i >= 0) {
      *out = (guint64) i;
      return TRUE;
    }
  } else if (gp_json_node_number (node, &v) && isfinite (v) && v >= 0) {
    *out = v >= 9.2e18 ? (guint64) G_MAXINT64 : (guint64) v;
    return TRUE;
  }
  return gp_json_reader_expected (r, path, key, "a non-negative integer");
}

gboolean
gp_json_read_string_array (GpJsonReader * r, JsonObject * o,
    const gchar * path, const gchar * key, GPtrArray * dst)
{
  JsonArray *a;
  gchar *apath;
  guint i, n;

  if (!gp_json_read_array (r, o, path, key, &a))
    return FALSE;
  n = a != NULL ? json_array_get_length (a) : 0;
  apath = gp_json_key_path (path, key);
  for (i = 0; i < n; i++) {
    JsonNode *node = json_array_get_element (a, i);

    if (!gp_json_holds (node, G_TYPE_STRING)) {
      gchar *here = gp_json_index_path (apath, i);

      gp_json_reader_fail (r, here, "expected a string");
      g_free (here);
      break;
    }
    g_ptr_array_add (dst, g_strdup (json_node_get_string (node)));
  }
  g_free (apath);
  return r->error == NULL;
}
