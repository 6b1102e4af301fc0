/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * fuzz-records.c: libFuzzer target for the records file the tracer writes
 * by itself with out= (src/capture/gp-records.c). For any input:
 * - gp_records_read () returns a session or a one-line error that names
 *   the file, never both, and never crashes, hangs or leaks;
 * - what it read folds into a session whose numbers are finite, and that
 *   session saves as a gstprof session that loads again;
 * - fed as a socket's stream would be (gp_records_reader_feed, in chunks
 *   whose sizes the input's bytes pick), it gives a session exactly when
 *   the file does (a first line without its newline aside: a file may
 *   end there, a stream has not sent it yet).
 *
 * Built and run by tests/fuzz/run-fuzz.sh (`make fuzz`), with the tracer's
 * own records of a real pipeline as seeds.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gst/gst.h>

#include "capture/gp-records.h"
#include "gp-fuzz-checks.h"

#define ORIGIN "fuzz.records"

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const guint8 * data, size_t size);
static void check_stream (const guint8 * data, size_t size,
    gboolean is_records);

/* GStreamer and GLib make their caches and classes when first used (a
 * value type's table, a quark): read one small file first, so that the
 * first input is not blamed for them. */
static const gchar gp_fuzz_warm_up[] =
    "gstprof-records, version=(uint)1, pid=(uint)1, host=(string)h, "
    "started=(string)x, t0=(guint64)0, gstreamer=(string)1.22.0, "
    "window_ms=(uint)250, cpu=(boolean)false, program=(string){ a, b };\n"
    "gstprof-graph, pipeline=(string)p, state=(string)PLAYING, "
    "pipelines=(string){ p }, elements=(structure){ \"element\\,\\ "
    "name\\=\\(string\\)p\\,\\ factory\\=\\(string\\)pipeline\\,\\ "
    "parent\\=\\(string\\)\\\"\\\"\\,\\ kind\\=\\(string\\)bin\\,\\ "
    "is_bin\\=\\(boolean\\)true\\,\\ "
    "props\\=\\(structure\\)\\\"props\\\\\\;\\\"\\;\" }, "
    "links=(structure){ }, hw=(string){ };\n"
    "gstprof-window, index=(guint64)0, start=(guint64)0, "
    "end=(guint64)250000000;\n"
    "not a record\n";

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  FILE *f;

  gst_init (NULL, NULL);
  f = fmemopen ((void *) gp_fuzz_warm_up, sizeof gp_fuzz_warm_up - 1, "r");
  if (f != NULL) {
    GpSession *s = gp_records_read (f, ORIGIN, NULL);

    if (s != NULL)
      gp_session_free (s);
    fclose (f);
  }
  return 0;
}

int
LLVMFuzzerTestOneInput (const guint8 * data, size_t size)
{
  GError *err = NULL;
  GpSession *s, *again;
  FILE *f;
  gchar *text;
  gsize len;
  guint i;

  if (size == 0)
    return 0;
  f = fmemopen ((void *) data, size, "r");
  if (f == NULL)
    return 0;
  s = gp_records_read (f, ORIGIN, &err);
  fclose (f);
  check_stream (data, size, s != NULL);
  if (s == NULL) {
    gp_fuzz_check_error (err, ORIGIN, TRUE);
    g_error_free (err);
    return 0;
  }
  if (err != NULL)
    abort ();
  gp_fuzz_check_number ("duration_s", s->duration_s);
  for (i = 0; i < s->elem_summaries->len; i++) {
    GpElementSummary *es = g_ptr_array_index (s->elem_summaries, i);

    gp_fuzz_check_number (es->name, es->self_ms.p50);
    gp_fuzz_check_number (es->name, es->busy_pct);
  }
  text = gp_session_to_data (s, FALSE, &len);
  again = gp_session_load_data (text, (gssize) len, ORIGIN, &err);
  if (again == NULL) {
    g_printerr ("records, once saved, do not load: %s\n", err->message);
    abort ();
  }
  g_free (text);
  gp_session_free (again);
  gp_session_free (s);
  return 0;
}

/* The same bytes as a stream, in chunks of 1 to 256 bytes. */
static void
check_stream (const guint8 * data, size_t size, gboolean is_records)
{
  GpRecordsReader *r = gp_records_reader_new (ORIGIN);
  GpSession *s;
  size_t at = 0;

  while (at < size) {
    size_t n = MIN (size - at, (size_t) data[at] + 1);

    gp_records_reader_feed (r, (const gchar *) data + at, n);
    at += n;
  }
  s = gp_records_reader_finish (r, gp_records_reader_cut (r));
  if (memchr (data, '\n', size) != NULL && (s != NULL) != is_records) {
    g_printerr ("the stream %s a session, the file %s\n", s ? "gives" :
        "does not give", is_records ? "does" : "does not");
    abort ();
  }
  if (s != NULL)
    gp_session_free (s);
  gp_records_reader_free (r);
}
