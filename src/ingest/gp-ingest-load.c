/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-ingest-load.c: open a saved file, find out what it is, hand it to the
 * reader for its schema.
 *
 * The text goes through gp_json_parse_strict () (src/core/gp-json.c), the
 * same strict entry as session.json: json-glib 1.6 reports invalid UTF-8
 * without a position, recurses once per nesting level (a file of a million
 * '[' would overflow the stack), takes comments, and leaks the values it
 * has built when a second top-level value follows the first
 * ('{"a":"x"} {"b":"y"}', found by fuzzing).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <glib/gstdio.h>

#include "gp-ingest.h"
#include "gp-ingest-private.h"
#include "capture/gp-records.h"
#include "core/gp-json.h"
#include "telemetry/gp-telemetry.h"

#include <gst/gst.h>


/* Picks the reader from the top-level "schema". */
static GpSession *
gp_ingest_dispatch (JsonNode * root, GpJsonLazy * lazy, const gchar * origin,
    GError ** error)
{
  JsonObject *o;
  JsonNode *schema;
  const gchar *name;
  gchar *shown;

  if (!JSON_NODE_HOLDS_OBJECT (root)) {
    gp_json_error_line (error, GP_SESSION_ERROR_SCHEMA,
        "%s: not a session file (the top level is not a JSON object)",
        origin);
    return NULL;
  }
  o = json_node_get_object (root);
  schema = json_object_get_member (o, "schema");
  if (schema == NULL || JSON_NODE_HOLDS_NULL (schema)) {
    gp_json_error_line (error, GP_SESSION_ERROR_SCHEMA,
        "%s: no \"schema\" key: not a gstprof or gst-profile session",
        origin);
    return NULL;
  }
  if (!JSON_NODE_HOLDS_VALUE (schema) ||
      json_node_get_value_type (schema) != G_TYPE_STRING) {
    gp_json_error_line (error, GP_SESSION_ERROR_SCHEMA,
        "%s: schema: expected a string", origin);
    return NULL;
  }
  name = json_node_get_string (schema);
  if (g_strcmp0 (name, GP_SESSION_SCHEMA) == 0)
    return gp_session_from_json_lazy (root, lazy, origin, error);
  if (g_strcmp0 (name, GP_INGEST_SCHEMA_GSTPROFILE) == 0)
    return gp_ingest_gstprofile (root, origin, error);

  shown = gp_json_excerpt (name);
  gp_json_error_line (error, GP_SESSION_ERROR_SCHEMA,
      "%s: unknown schema \"%s\" (gstprof reads \"%s\" and \"%s\")", origin,
      shown, GP_SESSION_SCHEMA, GP_INGEST_SCHEMA_GSTPROFILE);
  g_free (shown);
  return NULL;
}

GpSession *
gp_ingest_load_any_data (const gchar * data, gssize length,
    const gchar * origin, GError ** error)
{
  gsize len = length < 0 ? strlen (data) : (gsize) length;

  /* a machine log alone; anything else is JSON */
  if (gp_telemetry_sniff (data, len) != GP_TELEMETRY_NONE)
    return gp_ingest_telemetry_data (data, len, origin, error);
  return gp_json_load_session_data (data, length, origin, gp_ingest_dispatch,
      error);
}

/* The session, log or CSV @st holds, told from its head. */
static GpSession *
gp_ingest_load_stream (GpIngestStream * st, GError ** error)
{
  GpSession *s;
  gchar *data;
  gsize len;

  if (gp_ingest_queuelevels_sniff_stream (st))
    return gp_ingest_queuelevels_read (st, NULL, error);
  /* before the tracer logs, which take any text that is not JSON */
  if (gp_telemetry_sniff (st->head, st->n_head) != GP_TELEMETRY_NONE)
    return gp_ingest_telemetry_read (st, error);
  if (gp_ingest_tracerlog_sniff_stream (st))
    return gp_ingest_tracerlog_read (st, error);
  data = gp_ingest_stream_slurp (st, GP_JSON_MAX_FILE_BYTES, &len, error);
  if (data == NULL)
    return NULL;
  s = gp_json_load_session_data (data, (gssize) len, st->origin,
      gp_ingest_dispatch, error);
  g_free (data);
  return s;
}

/* A folder `gstprof run --out` wrote: its session.json; NULL with the
 * error when it holds none. */
static GpSession *
gp_ingest_load_run_dir (const gchar * path, GError ** error)
{
  gchar *file = g_build_filename (path, "session.json", NULL);
  GpSession *s = NULL;

  if (!g_file_test (file, G_FILE_TEST_EXISTS))
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT, "%s: a folder "
        "without a session.json (give the file, or the folder gstprof run "
        "--out wrote) and no records were written here (for "
        "GST_TRACERS=gstprof(out=DIR): see the program's warning, and "
        "gstprof check)", path);
  else
    s = gp_json_load_session_file (file, gp_ingest_dispatch, error);
  g_free (file);
  return s;
}

/* A pipe or a FIFO is not looked at here, where its first bytes would be
 * consumed. */
gboolean
gp_ingest_is_records (const gchar * path)
{
  gchar *file;
  gboolean run_dir;

  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR) &&
      !g_file_test (path, G_FILE_TEST_IS_DIR))
    return FALSE;
  if (!gp_records_present (path))
    return FALSE;
  file = g_build_filename (path, "session.json", NULL);
  run_dir = g_file_test (path, G_FILE_TEST_IS_DIR) &&
      g_file_test (file, G_FILE_TEST_EXISTS);
  g_free (file);
  return !run_dir;
}

/* The tracer's records folded into a session (src/capture/gp-records.h):
 * they are GstStructures, read by this process's GStreamer. Read here,
 * they are what the tracer wrote by itself (GST_TRACERS="gstprof(out=DIR)"),
 * not a wrap's: mode "records". */
static GpSession *
gp_ingest_load_records (const gchar * path, GError ** error)
{
  GpSession *s;

  if (!gst_init_check (NULL, NULL, error)) {
    g_prefix_error (error, "cannot initialise GStreamer: ");
    return NULL;
  }
  s = gp_records_load (path, error);
  if (s != NULL) {
    g_free (s->mode);
    s->mode = g_strdup ("records");
  }
  return s;
}

/* A name that does not exist and has no dot in it is most often the
 * folder GST_TRACERS="gstprof(out=DIR)" was to make, and GStreamer says
 * nothing of a tracer it cannot find: @error (the open's) says what to
 * do. */
static void
gp_ingest_missing_folder (const gchar * path, GError ** error)
{
  gchar *base, *text;

  if (error == NULL || *error == NULL ||
      g_file_test (path, G_FILE_TEST_EXISTS))
    return;
  base = g_path_get_basename (path);
  if (strchr (base, '.') == NULL) {
    text = g_strdup_printf ("%s; if GST_TRACERS=\"gstprof(out=%s)\" was to "
        "write it, the tracer did not load (GStreamer skips a tracer it "
        "cannot find, without a word): set GST_PLUGIN_PATH to the folder of "
        "libgstprof.so, or make install (gstprof check says whether "
        "GST_TRACERS=gstprof alone finds it)", (*error)->message, path);
    g_free ((*error)->message);
    (*error)->message = text;
  }
  g_free (base);
}

GpSession *
gp_ingest_load_any (const gchar * path, GError ** error)
{
  GpIngestStream *st;
  GpSession *s;

  g_return_val_if_fail (path != NULL, NULL);

  if (gp_ingest_is_records (path))
    return gp_ingest_load_records (path, error);
  /* `run --out DIR` is what the user typed: DIR means its session */
  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    return gp_ingest_load_run_dir (path, error);
  /* opened once: a pipe or a FIFO cannot be read twice */
  st = gp_ingest_stream_open (path, error);
  if (st == NULL) {
    gp_ingest_missing_folder (path, error);
    return NULL;
  }
  s = gp_ingest_load_stream (st, error);
  gp_ingest_stream_free (st);
  return s;
}

/* @path opened for the pair (a folder is neither a log nor a CSV: no
 * stream, no error); FALSE with the open's error. */
static gboolean
gp_ingest_pair_open (const gchar * path, GpIngestStream ** st,
    gboolean * csv, GError ** error)
{
  *st = NULL;
  *csv = FALSE;
  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    return TRUE;
  *st = gp_ingest_stream_open (path, error);
  if (*st == NULL)
    return FALSE;
  *csv = gp_ingest_queuelevels_sniff_stream (*st);
  return TRUE;
}

GpSession *
gp_ingest_load_pair (const gchar * a, const gchar * b, GError ** error)
{
  GpIngestStream *sa = NULL, *sb = NULL, *log, *csv;
  gboolean a_csv, b_csv;
  GpSession *s = NULL;

  g_return_val_if_fail (a != NULL && b != NULL, NULL);

  if (!gp_ingest_pair_open (a, &sa, &a_csv, error) ||
      !gp_ingest_pair_open (b, &sb, &b_csv, error))
    goto done;
  if (a_csv == b_csv) {
    gp_json_error_line (error, GP_SESSION_ERROR_SCHEMA, "%s: %s", b, a_csv ?
        "a second queue-levels CSV (give one, beside a tracer log of the "
        "same run)" : "not a queue-levels CSV (a second file can only be "
        "one, beside a tracer log of the same run)");
    goto done;
  }
  log = a_csv ? sb : sa;
  csv = a_csv ? sa : sb;
  if (log == NULL || !gp_ingest_tracerlog_sniff_stream (log)) {
    gp_json_error_line (error, GP_SESSION_ERROR_SCHEMA, "%s: not a "
        "GStreamer tracer log (a queue-levels CSV goes beside one of the "
        "same run)", a_csv ? b : a);
    goto done;
  }
  s = gp_ingest_tracerlog_read (log, error);
  if (s != NULL && gp_ingest_queuelevels_read (csv, s, error) == NULL)
    g_clear_pointer (&s, gp_session_free);

done:
  gp_ingest_stream_free (sa);
  gp_ingest_stream_free (sb);
  return s;
}

/* ------------------------------------------------------------------ */
/* what an import lacks, for the verdict                                */
/* ------------------------------------------------------------------ */

const gchar *
gp_ingest_missing_label (guint flag)
{
  switch (flag) {
    case GP_IMPORT_MISSING_SELF_TIME:
      return "self time (element times include waits)";
    case GP_IMPORT_MISSING_HISTOGRAMS:
      return "p99/max";
    case GP_IMPORT_MISSING_ELEMENT_THREADS:
      return "thread map";
    case GP_IMPORT_MISSING_PROP_DEFAULTS:
      return "property defaults";
    case GP_IMPORT_MISSING_ELEMENT_CPU:
      return "element CPU";
    case GP_IMPORT_MISSING_THREAD_CPU_RUN:
      return "run-long thread CPU";
    case GP_IMPORT_MISSING_QUEUE_LEVELS:
      return "queue levels";
    case GP_IMPORT_MISSING_HW_REGISTRY:
      return "hw registry";
    case GP_IMPORT_MISSING_PATH_LATENCY:
      return "per-path latency";
    case GP_IMPORT_MISSING_QOS:
      return "QoS";
    case GP_IMPORT_MISSING_ELEMENT_TIME:
      return "any element time";
    case GP_IMPORT_MISSING_LINKS:
      return "links and rates";
    case GP_IMPORT_MISSING_THREAD_CPU:
      return "thread and process CPU";
    case GP_IMPORT_MISSING_INTERLATENCY:
      return "latency to each element";
    case GP_IMPORT_MISSING_LATENCY:
      return "source-to-sink latency";
    case GP_IMPORT_MISSING_QUEUE_FLOW:
      return "queue drops, leakiness and blocking";
    default:
      return NULL;
  }
}

/* Appends @text word-wrapped to @width columns, continuation lines
 * indented by two spaces, and a newline. A word longer than the line
 * stands on its own line rather than being cut. */
static void
gp_ingest_wrap (GString * out, const gchar * text, guint width)
{
  gchar **words = g_strsplit (text, " ", -1);
  guint col = 0, i;

  for (i = 0; words[i] != NULL; i++) {
    glong len = g_utf8_strlen (words[i], -1);

    if (len == 0)
      continue;
    if (col > 0 && col + 1 + (guint) len > width) {
      g_string_append (out, "\n  ");
      col = 2;
    } else if (col > 0) {
      g_string_append_c (out, ' ');
      col++;
    }
    g_string_append (out, words[i]);
    col += (guint) len;
  }
  g_string_append_c (out, '\n');
  g_strfreev (words);
}

gchar *
gp_ingest_import_note (const GpSession * s, guint width)
{
  GString *out, *line;
  guint bit, n = 0;

  g_return_val_if_fail (s != NULL, NULL);

  if (s->import_schema == NULL)
    return NULL;

  line = g_string_new (NULL);
  g_string_append_printf (line, "imported from %s", s->import_schema);
  if (s->import_mode != NULL)
    g_string_append_printf (line, " (its mode: %s)", s->import_mode);
  for (bit = 0; bit < 32; bit++) {
    const gchar *label =
        gp_ingest_missing_label (s->import_missing & (1u << bit));

    if (label == NULL)
      continue;
    g_string_append_printf (line, "%s %s", n > 0 ? "," : "; not in it:",
        label);
    n++;
  }
  g_string_append_c (line, '.');
  if (s->import_detail != NULL)
    g_string_append_printf (line, " %s", s->import_detail);
  out = g_string_new (NULL);
  gp_ingest_wrap (out, line->str, MAX (width, 20));
  g_string_free (line, TRUE);
  return g_string_free (out, FALSE);
}
