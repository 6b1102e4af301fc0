/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-records.c: a records file the tracer wrote by itself, read back line
 * by line into the aggregator (gp-records.h). The file streams: one line in
 * memory at a time, so its size does not matter here (the tracer bounds it,
 * GP_RECORDS_MAX_BYTES).
 */
#include "gp-records.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <glib/gstdio.h>
#include <gst/gst.h>

#include "gp-aggregate.h"
#include "core/gp-json.h"
#include "core/gp-launch.h"
#include "core/gp-lines.h"
#include "core/gp-platform.h"
#include "core/gp-record.h"

/* Lines that do not parse named by number in the session, the first few;
 * the rest only counted. */
#define GP_RECORDS_SHOWN_BAD 3
/* A streamed line longer than this is not the tracer's (it holds at most
 * 4 MiB of lines for a reader, GP_OUT_PENDING_MAX): counted as a line that
 * is not a record and skipped, not kept in memory. */
#define GP_RECORDS_MAX_LINE (16 * 1024 * 1024)

static gboolean
gp_records_is_name (const gchar * name)
{
  return g_str_has_prefix (name, GP_RECORDS_FILE_PREFIX) &&
      g_str_has_suffix (name, GP_RECORDS_FILE_SUFFIX);
}

/* The records files in @dir, sorted; a new array of new strings. Only
 * regular files: a link at a records file's name is someone else's (the
 * tracer never makes one, and never writes through one), not read. */
static GPtrArray *
gp_records_in_dir (const gchar * dir)
{
  GPtrArray *found = g_ptr_array_new_with_free_func (g_free);
  GDir *d = g_dir_open (dir, 0, NULL);
  const gchar *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL) {
    gchar *path;
    GStatBuf st;

    if (!gp_records_is_name (name))
      continue;
    path = g_build_filename (dir, name, NULL);
    if (g_lstat (path, &st) == 0 && S_ISREG (st.st_mode))
      g_ptr_array_add (found, path);
    else
      g_free (path);
  }
  if (d != NULL)
    g_dir_close (d);
  g_ptr_array_sort (found, (GCompareFunc) g_strcmp0);
  return found;
}

gchar *
gp_records_file_of (const gchar * dir, guint pid, gchar ** others)
{
  GPtrArray *found = gp_records_in_dir (dir);
  gchar *name = g_strdup_printf (GP_RECORDS_FILE_PREFIX "%u"
      GP_RECORDS_FILE_SUFFIX, pid);
  gchar *mine = g_build_filename (dir, name, NULL);
  GString *rest = g_string_new (NULL);
  gboolean present = FALSE;
  guint i;

  for (i = 0; i < found->len; i++) {
    const gchar *path = g_ptr_array_index (found, i);
    gchar *other = g_path_get_basename (path);

    if (strcmp (path, mine) == 0)
      present = TRUE;
    else
      g_string_append_printf (rest, "%s%.*s", rest->len ? ", " : "",
          (int) (strlen (other) - strlen (GP_RECORDS_FILE_PREFIX) -
              strlen (GP_RECORDS_FILE_SUFFIX)),
          other + strlen (GP_RECORDS_FILE_PREFIX));
    g_free (other);
  }
  g_ptr_array_unref (found);
  g_free (name);
  if (others)
    *others = rest->len ? g_string_free (rest, FALSE) :
        (g_string_free (rest, TRUE), NULL);
  else
    g_string_free (rest, TRUE);
  if (!present)
    g_clear_pointer (&mine, g_free);
  return mine;
}

gboolean
gp_records_present (const gchar * path)
{
  gboolean present = FALSE;

  if (g_file_test (path, G_FILE_TEST_IS_DIR)) {
    GPtrArray *found = gp_records_in_dir (path);

    present = found->len > 0;
    g_ptr_array_unref (found);
  } else {
    FILE *f = g_fopen (path, "r");
    gchar head[sizeof (GP_RECORD_FILE_HEADER) + 1] = { 0 };

    if (f != NULL) {
      present = fread (head, 1, sizeof head - 1, f) == sizeof head - 1 &&
          strcmp (head, GP_RECORD_FILE_HEADER ",") == 0;
      fclose (f);
    }
  }
  return present;
}

/* The one records file @path names. */
static gchar *
gp_records_file (const gchar * path, GError ** error)
{
  GPtrArray *found;
  gchar *file = NULL;

  if (!g_file_test (path, G_FILE_TEST_IS_DIR))
    return g_strdup (path);
  found = gp_records_in_dir (path);
  if (found->len == 1) {
    file = g_strdup (g_ptr_array_index (found, 0));
  } else if (found->len == 0) {
    gp_json_error_line (error, GP_SESSION_ERROR_IO, "%s: no session.json "
        "and no " GP_RECORDS_FILE_PREFIX "PID" GP_RECORDS_FILE_SUFFIX
        " in this folder", path);
  } else {
    GString *names = g_string_new (NULL);
    guint i;

    for (i = 0; i < found->len && i < 4; i++)
      g_string_append_printf (names, "%s%s", i ? ", " : "",
          (const gchar *) g_ptr_array_index (found, i) + strlen (path) + 1);
    gp_json_error_line (error, GP_SESSION_ERROR_IO, "%s: %u records files "
        "(%s%s), one per process: name the one to analyze", path,
        found->len, names->str, found->len > 4 ? ", ..." : "");
    g_string_free (names, TRUE);
  }
  g_ptr_array_unref (found);
  return file;
}

/* The text after "@field=(type)" in the header line @line, or NULL. */
static const gchar *
gp_records_peek_field (const gchar * line, const gchar * field)
{
  gchar *key = g_strdup_printf (", %s=(", field);
  const gchar *at = strstr (line, key);

  g_free (key);
  if (at == NULL || (at = strchr (at + 2, ')')) == NULL)
    return NULL;
  return at + 1;
}

gboolean
gp_records_peek_params (const gchar * path, guint * window_ms,
    gboolean * cpu)
{
  gchar *file = gp_records_file (path, NULL);
  gchar line[4096] = { 0 };
  const gchar *w, *c;
  gboolean ok = FALSE;
  FILE *f;

  if (file == NULL)
    return FALSE;
  f = g_fopen (file, "r");
  g_free (file);
  if (f == NULL)
    return FALSE;
  /* the header is the first line; the program's command line, its last
   * field, may be cut here: window_ms and cpu come before it */
  if (fgets (line, sizeof line, f) != NULL &&
      g_str_has_prefix (line, GP_RECORD_FILE_HEADER ",") &&
      (w = gp_records_peek_field (line, GP_FH_WINDOW_MS)) != NULL &&
      (c = gp_records_peek_field (line, GP_FH_CPU)) != NULL) {
    guint64 ms = g_ascii_strtoull (w, NULL, 10);

    ok = ms > 0 && ms <= G_MAXUINT;
    if (ok) {
      *window_ms = (guint) ms;
      *cpu = g_str_has_prefix (c, "true");
    }
  }
  fclose (f);
  return ok;
}

/* gst-launch-1.0's pipeline, from the command line the header keeps;
 * NULL for any other program. */
static gchar *
gp_records_launch (const GstStructure * header)
{
  const GValue *program = gst_structure_get_value (header, GP_FH_PROGRAM);
  GPtrArray *argv;
  gchar *launch;
  guint i, n;

  if (program == NULL || !GST_VALUE_HOLDS_LIST (program))
    return NULL;
  n = gst_value_list_get_size (program);
  argv = g_ptr_array_new ();
  for (i = 0; i < n; i++) {
    const GValue *v = gst_value_list_get_value (program, i);

    if (G_VALUE_HOLDS_STRING (v) && g_value_get_string (v) != NULL)
      g_ptr_array_add (argv, (gpointer) g_value_get_string (v));
  }
  g_ptr_array_add (argv, NULL);
  launch = gp_launch_from_gst_launch ((const gchar * const *) argv->pdata,
      NULL);
  g_ptr_array_unref (argv);
  if (launch != NULL && *launch == '\0')
    g_clear_pointer (&launch, g_free);
  return launch;
}

/* The highest state a top-level pipeline reached (the program's, when it
 * made several: the furthest any got), from their state events; NULL when
 * none was recorded. */
static const gchar *
gp_records_reached (GpSession * s)
{
  static const gchar *const states[] = { "NULL", "READY", "PAUSED",
    "PLAYING"
  };
  GHashTable *tops = g_hash_table_new (g_str_hash, g_str_equal);
  gint best = -1;
  guint i, k;

  for (i = 0; i < s->elements->len; i++) {
    GpElement *e = g_ptr_array_index (s->elements, i);

    if (e->is_bin && (e->parent == NULL || *e->parent == '\0'))
      g_hash_table_add (tops, e->name);
  }
  for (i = 0; i < s->events->len; i++) {
    GpEvent *ev = g_ptr_array_index (s->events, i);
    const gchar *state;

    if (g_strcmp0 (ev->type, "state") != 0 || ev->data == NULL ||
        (g_hash_table_size (tops) > 0 && (ev->source == NULL ||
                !g_hash_table_contains (tops, ev->source))) ||
        (state = gp_json_get_string (ev->data, "new")) == NULL)
      continue;
    for (k = 0; k < G_N_ELEMENTS (states); k++)
      if (strcmp (state, states[k]) == 0)
        best = MAX (best, (gint) k);
  }
  g_hash_table_unref (tops);
  return best >= 0 ? states[best] : NULL;
}

/* What the header says of the run, and what its events say of its end. */
static void
gp_records_fill_session (GpSession * s, const GstStructure * header,
    guint64 t0, guint64 t_end)
{
  const gchar *host = gst_structure_get_string (header, GP_FH_HOST);
  guint window_ms = 0;

  g_free (s->mode);
  s->mode = g_strdup ("wrap");
  g_free (s->launch);
  s->launch = gp_records_launch (header);
  g_free (s->started);
  s->started = g_strdup (gst_structure_get_string (header, GP_FH_STARTED));
  g_free (s->gstreamer);
  s->gstreamer = g_strdup (gst_structure_get_string (header,
          GP_FH_GSTREAMER));
  /* the platform probe asks this machine: only when it is the one that
   * ran the program */
  g_free (s->platform);
  s->platform = host && g_strcmp0 (host, g_get_host_name ()) == 0 ?
      gp_platform_detect (NULL) : g_strdup ("generic");
  if (gst_structure_get_uint (header, GP_FH_WINDOW_MS, &window_ms))
    s->window_s = window_ms / 1000.0;
  s->duration_s = t_end > t0 ? (t_end - t0) / 1e9 : 0;
  g_free (s->reached);
  s->reached = g_strdup (gp_records_reached (s));
  g_free (s->end);
  s->end = gp_session_find_event (s, "error") ? g_strdup ("error") :
      gp_session_find_event (s, "eos") ? g_strdup ("eos") : NULL;
}

struct _GpRecordsReader
{
  gchar *name;                  /* the file or stream, for notes */
  GstStructure *header;         /* NULL until the first line */
  GpSession *session;
  GpAggregator *agg;
  guint64 t0, t_end, line_no, bad, windows, last_index;
  gboolean ended, full, have_index;
  guint64 missing;              /* window indices never received */
  guint64 end_dropped;          /* the end line's count of windows left
                                 * out (a stream's tail leaves no gap) */
  GString *bad_lines;
  /* gp_records_reader_feed: its lines (core/gp-lines.h), the one given
   * (NUL-terminated), and whether the stream's first line was no header */
  GpLines *lines;
  GString *line;
  gboolean refused;
};

/* A line of gp_records_reader_feed; one past GP_RECORDS_MAX_LINE is not
 * the tracer's: counted as a line that is not a record (or, as the first,
 * as no header). */
static gboolean
gp_records_reader_on_line (const gchar * line, gsize len, GpLineFlags flags,
    gpointer user_data)
{
  GpRecordsReader *r = user_data;

  g_string_truncate (r->line, 0);
  if (!(flags & GP_LINE_LONG))
    g_string_append_len (r->line, line, len);
  if (!gp_records_reader_add_line (r, r->line->str, NULL))
    r->refused = TRUE;
  return !r->refused;
}

GpRecordsReader *
gp_records_reader_new (const gchar * name)
{
  GpRecordsReader *r = g_new0 (GpRecordsReader, 1);

  r->name = g_strdup (name);
  r->bad_lines = g_string_new (NULL);
  r->lines = gp_lines_new (GP_RECORDS_MAX_LINE, gp_records_reader_on_line,
      r);
  r->line = g_string_new (NULL);
  return r;
}

void
gp_records_reader_free (GpRecordsReader * r)
{
  if (r == NULL)
    return;
  if (r->agg != NULL)
    gp_aggregator_free (r->agg);
  if (r->session != NULL)
    gp_session_free (r->session);
  if (r->header != NULL)
    gst_structure_free (r->header);
  g_string_free (r->bad_lines, TRUE);
  gp_lines_free (r->lines);
  g_string_free (r->line, TRUE);
  g_free (r->name);
  g_free (r);
}

/* The header, the first line. */
static gboolean
gp_records_reader_header (GpRecordsReader * r, const gchar * line,
    GError ** error)
{
  guint version = 0;
  gchar *text = g_strchomp (g_strdup (line));

  r->header = g_str_has_prefix (text, GP_RECORD_FILE_HEADER ",") ?
      gst_structure_from_string (text, NULL) : NULL;
  g_free (text);
  if (r->header == NULL || !gst_structure_get_uint (r->header,
          GP_FH_VERSION, &version) || !gst_structure_get_uint64 (r->header,
          GP_FH_T0, &r->t0)) {
    gp_json_error_line (error, GP_SESSION_ERROR_SCHEMA, "%s:1: not a gstprof "
        "records file (no " GP_RECORD_FILE_HEADER " header)", r->name);
    g_clear_pointer (&r->header, gst_structure_free);
    return FALSE;
  }
  if (version > 1) {
    gp_json_error_line (error, GP_SESSION_ERROR_SCHEMA, "%s:1: records "
        "version %u, newer than this gstprof reads (1)", r->name, version);
    g_clear_pointer (&r->header, gst_structure_free);
    return FALSE;
  }
  r->session = gp_session_new ();
  r->agg = gp_aggregator_new (r->session, r->t0);
  return TRUE;
}

gboolean
gp_records_reader_add_line (GpRecordsReader * r, const gchar * line,
    GError ** error)
{
  GstStructure *rec;
  const gchar *name;

  g_return_val_if_fail (r != NULL && line != NULL, FALSE);

  r->line_no++;
  if (r->header == NULL) {
    if (r->line_no > 1)
      return FALSE;
    return gp_records_reader_header (r, line, error);
  }
  rec = gst_structure_from_string (line, NULL);
  name = rec ? gst_structure_get_name (rec) : "";
  if (strcmp (name, GP_RECORD_WINDOW) == 0) {
    guint64 end = 0, index = 0;

    gp_aggregator_add_window (r->agg, rec);
    r->windows++;
    if (gst_structure_get_uint64 (rec, GP_W_END, &end))
      r->t_end = MAX (r->t_end, end);
    /* windows left out for a slow reader leave a gap in the indices */
    if (gst_structure_get_uint64 (rec, GP_W_INDEX, &index)) {
      if (r->have_index && index > r->last_index + 1)
        r->missing += index - r->last_index - 1;
      r->last_index = MAX (r->last_index, index);
      r->have_index = TRUE;
    }
  } else if (strcmp (name, GP_RECORD_GRAPH) == 0) {
    gp_aggregator_add_graph (r->agg, rec);
  } else if (strcmp (name, GP_RECORD_FILE_END) == 0) {
    r->ended = TRUE;
    gst_structure_get_uint64 (rec, GP_FE_DROPPED, &r->end_dropped);
  } else if (strcmp (name, GP_RECORD_FILE_FULL) == 0) {
    r->full = TRUE;
  } else if (r->bad++ < GP_RECORDS_SHOWN_BAD) {
    g_string_append_printf (r->bad_lines, "%s%" G_GUINT64_FORMAT,
        r->bad_lines->len ? ", " : "", r->line_no);
  }
  if (rec != NULL)
    gst_structure_free (rec);
  return TRUE;
}

gboolean
gp_records_reader_feed (GpRecordsReader * r, const gchar * data, gsize len)
{
  g_return_val_if_fail (r != NULL, FALSE);

  if (r->refused)
    return FALSE;
  gp_lines_feed (r->lines, data, len);
  return !r->refused;
}

gboolean
gp_records_reader_cut (GpRecordsReader * r)
{
  return gp_lines_pending (r->lines);
}

const GstStructure *
gp_records_reader_get_header (GpRecordsReader * r)
{
  return r->header;
}

GpAggregator *
gp_records_reader_aggregator (GpRecordsReader * r)
{
  return r->agg;
}

guint64
gp_records_reader_windows (GpRecordsReader * r)
{
  return r->windows;
}

guint64
gp_records_reader_bad_lines (GpRecordsReader * r)
{
  return r->bad;
}

GpSession *
gp_records_reader_finish_running (GpRecordsReader * r, const gchar * note)
{
  GpSession *s;

  /* not an end the tracer wrote, but not a crash either */
  r->ended = TRUE;
  s = gp_records_reader_finish (r, FALSE);
  if (s != NULL && note != NULL)
    gp_session_add_event (s, s->duration_s, "warning", "gstprof", note);
  return s;
}

GpSession *
gp_records_reader_peek (GpRecordsReader * r)
{
  if (r->session == NULL || r->header == NULL)
    return NULL;
  gp_aggregator_finish (r->agg);
  gp_records_fill_session (r->session, r->header, r->t0, r->t_end);
  return r->session;
}

GpSession *
gp_records_reader_finish (GpRecordsReader * r, gboolean cut)
{
  GpSession *s = r->session;

  if (s == NULL)
    return NULL;
  gp_aggregator_finish (r->agg);
  gp_aggregator_free (r->agg);
  r->agg = NULL;
  r->session = NULL;
  gp_records_fill_session (s, r->header, r->t0, r->t_end);

  if (r->bad > 0) {
    gchar *text = g_strdup_printf ("%" G_GUINT64_FORMAT " line%s of %s are "
        "not records and were left out (line %s%s)", r->bad, r->bad == 1 ?
        "" : "s", r->name, r->bad_lines->str,
        r->bad > GP_RECORDS_SHOWN_BAD ? ", ..." : "");

    gp_session_add_event (s, s->duration_s, "warning", "gstprof", text);
    g_free (text);
  }
  /* windows left out at the end of a stream leave no gap: the end line
   * counts them all (past a file's size limit, the note below says it) */
  if (!r->full)
    r->missing = MAX (r->missing, r->end_dropped);
  if (r->missing > 0) {
    gchar *text = g_strdup_printf ("%" G_GUINT64_FORMAT " window%s of %s "
        "never arrived (the tracer leaves windows out rather than wait for "
        "a reader that falls behind)", r->missing, r->missing == 1 ? "" :
        "s", r->name);

    gp_session_add_event (s, s->duration_s, "warning", "gstprof", text);
    g_free (text);
  }
  if (r->full)
    gp_session_add_event (s, s->duration_s, "warning", "gstprof", "the "
        "records file reached its size limit; later windows are not in it");
  if (cut || !r->ended)
    gp_session_add_event (s, s->duration_s, "warning", "gstprof", "the "
        "program ended without letting the tracer finish its records "
        "(killed, or it crashed): the windows up to its last one are here");
  return s;
}

GpSession *
gp_records_read (FILE * f, const gchar * file, GError ** error)
{
  GpRecordsReader *r = gp_records_reader_new (file);
  GpSession *s = NULL;
  gchar *line = NULL;
  gsize cap = 0;
  gssize len;
  gboolean cut = FALSE;

  len = getline (&line, &cap, f);
  if (!gp_records_reader_add_line (r, len > 0 ? line : "", error))
    goto out;
  while ((len = getline (&line, &cap, f)) > 0) {
    if (line[len - 1] != '\n') {
      /* the program died while writing its last line */
      cut = TRUE;
      break;
    }
    line[len - 1] = '\0';
    gp_records_reader_add_line (r, line, NULL);
  }
  s = gp_records_reader_finish (r, cut);

out:
  gp_records_reader_free (r);
  g_free (line);
  return s;
}

GpSession *
gp_records_load (const gchar * path, GError ** error)
{
  gchar *file = gp_records_file (path, error);
  GpSession *s;
  FILE *f;

  if (file == NULL)
    return NULL;
  f = g_fopen (file, "r");
  if (f == NULL) {
    gp_json_error_line (error, GP_SESSION_ERROR_IO, "%s: %s", file,
        g_strerror (errno));
    g_free (file);
    return NULL;
  }
  s = gp_records_read (f, file, error);
  fclose (f);
  g_free (file);
  return s;
}
