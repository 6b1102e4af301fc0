/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof fuzz target: the exports on whatever session loads.
 *
 * libFuzzer feeds arbitrary bytes to gp_session_load_data (); whatever
 * loads is exported as gstprof export would (src/export: the graph as dot
 * text and SVG through graphviz, the CSV files) into a private folder.
 * Besides "no crash, no leak, no undefined behaviour" (the sanitizers), it
 * checks what readers of the files rely on:
 * - every export succeeds on a session that loaded, and leaves no
 *   temporary file behind;
 * - every CSV file is rectangular under RFC 4180 (each record as many
 *   cells as its header, CRLF ends, quotes paired) and its first cells are
 *   t0_s,t1_s;
 * - the dot text reads back with graphviz, every element that is not a bin
 *   a node of it, and as many edges as the session has links.
 * Build and run with tests/fuzz/run-fuzz.sh; not part of `meson test`.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <graphviz/cgraph.h>

#include "core/gp-session.h"
#include "export/gp-export.h"

#define ORIGIN "fuzz.json"

static gchar *fuzz_dir;

static void
fuzz_fail (const gchar * what, const gchar * detail)
{
  g_printerr ("%s: %s\n", what, detail ? detail : "");
  abort ();
}

/* The cells of each record, when @data is RFC 4180 with @n_header cells
 * in every record; the number of records, -1 when it is not. */
static gint
fuzz_csv_records (const gchar * data, gsize len, guint * n_header)
{
  guint cells = 1, records = 0;
  gboolean quoted = FALSE, at_start = TRUE;
  gsize i;

  for (i = 0; i < len; i++) {
    gchar c = data[i];

    if (quoted) {
      if (c == '"' && i + 1 < len && data[i + 1] == '"')
        i++;
      else if (c == '"')
        quoted = FALSE;
      continue;
    }
    if (c == '"') {
      if (!at_start)
        return -1;
      quoted = TRUE;
    } else if (c == ',') {
      cells++;
      at_start = TRUE;
      continue;
    } else if (c == '\r') {
      if (i + 1 >= len || data[i + 1] != '\n')
        return -1;
      i++;
      if (records == 0)
        *n_header = cells;
      else if (cells != *n_header)
        return -1;
      records++;
      cells = 1;
      at_start = TRUE;
      continue;
    } else if (c == '\n') {
      return -1;
    }
    at_start = FALSE;
  }
  /* the last record ended too */
  return quoted || !at_start || cells != 1 ? -1 : (gint) records;
}

static void
fuzz_check_csv (void)
{
  const gchar *const *name;

  for (name = gp_export_csv_files (); *name; name++) {
    gchar *path = g_build_filename (fuzz_dir, "csv", *name, NULL);
    gchar *data = NULL;
    gsize len;
    guint n_header = 0;

    if (!g_file_get_contents (path, &data, &len, NULL))
      fuzz_fail ("CSV file missing", path);
    if (fuzz_csv_records (data, len, &n_header) < 1)
      fuzz_fail ("CSV file not rectangular RFC 4180", path);
    if (strcmp (*name, "summary-elements.csv") != 0 &&
        !g_str_has_prefix (data, "t0_s,t1_s"))
      fuzz_fail ("CSV header does not start with t0_s,t1_s", path);
    g_free (data);
    g_free (path);
  }
}

static void
fuzz_check_dot (GpSession * s, const gchar * path)
{
  FILE *fp = fopen (path, "r");
  Agraph_t *g;
  Agnode_t *n;
  Agedge_t *e;
  guint i, n_edges = 0;

  if (fp == NULL)
    fuzz_fail ("no dot file", path);
  g = agread (fp, NULL);
  fclose (fp);
  if (g == NULL)
    fuzz_fail ("dot text does not read back", path);
  for (i = 0; i < s->elements->len; i++) {
    GpElement *el = g_ptr_array_index (s->elements, i);

    if (!el->is_bin && agnode (g, el->name, 0) == NULL)
      fuzz_fail ("element is no node", el->name);
  }
  for (n = agfstnode (g); n; n = agnxtnode (g, n))
    for (e = agfstout (g, n); e; e = agnxtout (g, e))
      n_edges++;
  if (n_edges != s->links->len)
    fuzz_fail ("edges are not the links", path);
  agclose (g);
}

/* Only the files the exports write, none of their temporary ones. */
static void
fuzz_check_no_tmp (const gchar * dir)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  const gchar *name;

  while (d && (name = g_dir_read_name (d)) != NULL)
    if (strstr (name, ".tmp-"))
      fuzz_fail ("temporary file left", name);
  if (d)
    g_dir_close (d);
}

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const guint8 * data, size_t size);

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  fuzz_dir = g_dir_make_tmp ("gstprof-fuzz-export-XXXXXX", NULL);
  if (fuzz_dir == NULL)
    fuzz_fail ("no temporary folder", NULL);
  return 0;
}

int
LLVMFuzzerTestOneInput (const guint8 * data, size_t size)
{
  GError *err = NULL;
  GpSession *s;
  gchar *dot, *svg, *csv;

  s = gp_session_load_data ((const gchar *) data, (gssize) size, ORIGIN, &err);
  if (s == NULL) {
    g_error_free (err);
    return 0;
  }
  dot = g_build_filename (fuzz_dir, "g.dot", NULL);
  svg = g_build_filename (fuzz_dir, "g.svg", NULL);
  csv = g_build_filename (fuzz_dir, "csv", NULL);

  if (!gp_export_graph (s, GP_EXPORT_GRAPH_DOT, dot, &err))
    fuzz_fail ("dot export failed", err->message);
  if (!gp_export_graph (s, GP_EXPORT_GRAPH_SVG, svg, &err))
    fuzz_fail ("SVG export failed", err->message);
  if (!gp_export_csv (s, csv, &err))
    fuzz_fail ("CSV export failed", err->message);
  fuzz_check_dot (s, dot);
  fuzz_check_csv ();
  fuzz_check_no_tmp (fuzz_dir);
  fuzz_check_no_tmp (csv);

  g_free (dot);
  g_free (svg);
  g_free (csv);
  gp_session_free (s);
  return 0;
}
