/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-trace.c: DIR/trace.bin, the pushes `gstprof run --trace` kept.
 *
 * The file, every integer little-endian:
 *
 *   "GPTRACE1"                       8 bytes
 *   u32 version (1)  u32 seconds     the ring's span
 *   u64 t0           u64 now         the session's t = 0, the collection
 *   u32 n_elements   u32 n_threads
 *   n_elements x { u32 length, that many bytes of UTF-8 }   element names
 *                     (at most 4096 bytes, cut at a character's start)
 *   n_threads x {
 *     u64 tid  u32 length, the name's UTF-8  u64 lost  u64 n_slices
 *     n_slices x { u64 start  u64 end  u32 element  u16 n  u8 depth
 *                  u8 kind }                                 24 bytes
 *   }
 *
 * Binary, not JSON: a minute of a busy pipeline is millions of slices,
 * which a JSON tree would hold at a hundred bytes a number. The reader
 * checks every length against what is left, every slice's element against
 * the names, end >= start, times below 2^62 ns and the kind, and names the
 * offset of the first thing wrong.
 */
#include "gp-trace.h"
#include "gp-session.h"
#include "gp-file.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

#define GP_TRACE_MAGIC "GPTRACE1"
#define GP_TRACE_VERSION 1
/* no element or thread name is longer: a bigger length is a broken file */
#define GP_TRACE_NAME_MAX 4096
#define GP_TRACE_SLICE_BYTES 24
/* the least a name takes: its u32 length */
#define GP_TRACE_NAME_MIN_BYTES 4
/* the least a thread takes: tid, its name's length, lost, n_slices */
#define GP_TRACE_THREAD_MIN_BYTES (8 + 4 + 8 + 8)
/* times are ns since the traced program's gst_init: 2^62 is 146 years,
 * and keeps every difference and sum of them within a gint64 */
#define GP_TRACE_MAX_NS (G_GUINT64_CONSTANT (1) << 62)
/* 60 s of rings at the rate bound is 24 MiB a thread: this is 80 such
 * threads; more is not a file gstprof wrote */
#define GP_TRACE_MAX_FILE_BYTES (2000u * 1024 * 1024)

static void
gp_trace_thread_free (GpTraceThread * th)
{
  g_free (th->name);
  g_array_unref (th->slices);
  g_free (th);
}

GpTrace *
gp_trace_new (void)
{
  GpTrace *t = g_new0 (GpTrace, 1);

  t->elements = g_ptr_array_new_with_free_func (g_free);
  t->threads = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gp_trace_thread_free);
  return t;
}

void
gp_trace_free (GpTrace * t)
{
  if (t == NULL)
    return;
  g_ptr_array_unref (t->elements);
  g_ptr_array_unref (t->threads);
  g_free (t);
}

GpTraceThread *
gp_trace_add_thread (GpTrace * t, guint64 tid, const gchar * name, guint64 lost)
{
  GpTraceThread *th = g_new0 (GpTraceThread, 1);

  th->tid = tid;
  th->name = g_strdup (name ? name : "");
  th->lost = lost;
  th->slices = g_array_new (FALSE, FALSE, sizeof (GpTraceSlice));
  g_ptr_array_add (t->threads, th);
  return th;
}

guint64
gp_trace_n_slices (const GpTrace * t)
{
  guint64 n = 0;
  guint i;

  for (i = 0; i < t->threads->len; i++)
    n += ((GpTraceThread *) g_ptr_array_index (t->threads, i))->slices->len;
  return n;
}

/* ------------------------------------------------------------------ */
/* writing                                                             */

static void
gp_trace_put_u8 (GByteArray * b, guint8 v)
{
  g_byte_array_append (b, &v, 1);
}

static void
gp_trace_put_u16 (GByteArray * b, guint16 v)
{
  guint8 x[2] = { v & 0xff, v >> 8 };

  g_byte_array_append (b, x, 2);
}

static void
gp_trace_put_u32 (GByteArray * b, guint32 v)
{
  guint8 x[4];
  guint i;

  for (i = 0; i < 4; i++)
    x[i] = (v >> (8 * i)) & 0xff;
  g_byte_array_append (b, x, 4);
}

static void
gp_trace_put_u64 (GByteArray * b, guint64 v)
{
  guint8 x[8];
  guint i;

  for (i = 0; i < 8; i++)
    x[i] = (v >> (8 * i)) & 0xff;
  g_byte_array_append (b, x, 8);
}

/* A name as the reader takes it: UTF-8 (invalid bytes become U+FFFD),
 * cut to GP_TRACE_NAME_MAX bytes at a character's start. */
static void
gp_trace_put_string (GByteArray * b, const gchar * s)
{
  gchar *valid = g_utf8_make_valid (s, -1);
  gsize len = strlen (valid);

  if (len > GP_TRACE_NAME_MAX) {
    len = GP_TRACE_NAME_MAX;
    /* back to the first byte of the character the cut falls in */
    while (len > 0 && ((guchar) valid[len] & 0xc0) == 0x80)
      len--;
  }
  gp_trace_put_u32 (b, (guint32) len);
  g_byte_array_append (b, (const guint8 *) valid, len);
  g_free (valid);
}

gboolean
gp_trace_save (const GpTrace * t, const gchar * path, GError ** error)
{
  GByteArray *b = g_byte_array_new ();
  gboolean ok;
  guint i, j;

  g_byte_array_append (b, (const guint8 *) GP_TRACE_MAGIC, 8);
  gp_trace_put_u32 (b, GP_TRACE_VERSION);
  gp_trace_put_u32 (b, t->seconds);
  gp_trace_put_u64 (b, t->t0);
  gp_trace_put_u64 (b, t->now);
  gp_trace_put_u32 (b, t->elements->len);
  gp_trace_put_u32 (b, t->threads->len);
  for (i = 0; i < t->elements->len; i++)
    gp_trace_put_string (b, g_ptr_array_index (t->elements, i));
  for (i = 0; i < t->threads->len; i++) {
    GpTraceThread *th = g_ptr_array_index (t->threads, i);

    gp_trace_put_u64 (b, th->tid);
    gp_trace_put_string (b, th->name);
    gp_trace_put_u64 (b, th->lost);
    gp_trace_put_u64 (b, th->slices->len);
    for (j = 0; j < th->slices->len; j++) {
      const GpTraceSlice *s = &g_array_index (th->slices, GpTraceSlice, j);

      gp_trace_put_u64 (b, s->start);
      gp_trace_put_u64 (b, s->end);
      gp_trace_put_u32 (b, s->element);
      gp_trace_put_u16 (b, s->n);
      gp_trace_put_u8 (b, s->depth);
      gp_trace_put_u8 (b, s->kind);
    }
  }
  ok = gp_atomic_file_write (path, b->data, b->len, error);
  g_byte_array_unref (b);
  return ok;
}

/* ------------------------------------------------------------------ */
/* reading                                                             */

typedef struct
{
  const guint8 *data;
  gsize len;
  gsize pos;
  const gchar *origin;
  GError **error;
  gboolean failed;
} GpTraceReader;

static gboolean
gp_trace_fail (GpTraceReader * r, const gchar * what)
{
  if (!r->failed)
    g_set_error (r->error, GP_SESSION_ERROR, GP_SESSION_ERROR_PARSE,
        "%s: byte %" G_GSIZE_FORMAT ": %s", r->origin, r->pos, what);
  r->failed = TRUE;
  return FALSE;
}

static gboolean
gp_trace_need (GpTraceReader * r, gsize n)
{
  if (r->failed)
    return FALSE;
  if (r->len - r->pos < n)
    return gp_trace_fail (r, "the file ends early (cut off?)");
  return TRUE;
}

static guint64
gp_trace_get (GpTraceReader * r, guint bytes)
{
  guint64 v = 0;
  guint i;

  if (!gp_trace_need (r, bytes))
    return 0;
  for (i = 0; i < bytes; i++)
    v |= (guint64) r->data[r->pos + i] << (8 * i);
  r->pos += bytes;
  return v;
}

static gchar *
gp_trace_get_string (GpTraceReader * r)
{
  guint64 len = gp_trace_get (r, 4);
  gchar *s;

  if (r->failed)
    return NULL;
  if (len > GP_TRACE_NAME_MAX) {
    r->pos -= 4;
    gp_trace_fail (r, "a name longer than 4096 bytes");
    return NULL;
  }
  if (!gp_trace_need (r, len))
    return NULL;
  if (!g_utf8_validate ((const gchar *) r->data + r->pos, len, NULL)
      || memchr (r->data + r->pos, 0, len) != NULL) {
    gp_trace_fail (r, "a name that is not UTF-8 text");
    return NULL;
  }
  s = g_strndup ((const gchar *) r->data + r->pos, len);
  r->pos += len;
  return s;
}

static gboolean
gp_trace_read_thread (GpTraceReader * r, GpTrace * t)
{
  guint64 tid = gp_trace_get (r, 8), lost, n, i;
  gchar *name = gp_trace_get_string (r);
  GpTraceThread *th;

  lost = gp_trace_get (r, 8);
  n = gp_trace_get (r, 8);
  if (r->failed) {
    g_free (name);
    return FALSE;
  }
  if (n > (r->len - r->pos) / GP_TRACE_SLICE_BYTES) {
    g_free (name);
    r->pos -= 8;
    return gp_trace_fail (r, "more slices than the file holds");
  }
  th = gp_trace_add_thread (t, tid, name, lost);
  g_free (name);
  g_array_set_size (th->slices, n);
  for (i = 0; i < n; i++) {
    GpTraceSlice *s = &g_array_index (th->slices, GpTraceSlice, i);
    gsize at = r->pos;

    s->start = gp_trace_get (r, 8);
    s->end = gp_trace_get (r, 8);
    s->element = gp_trace_get (r, 4);
    s->n = gp_trace_get (r, 2);
    s->depth = gp_trace_get (r, 1);
    s->kind = gp_trace_get (r, 1);
    r->pos = at;
    if (s->element >= t->elements->len)
      return gp_trace_fail (r, "a slice names an element that is not in "
          "the file");
    if (s->end < s->start)
      return gp_trace_fail (r, "a slice ends before it starts");
    if (s->end >= GP_TRACE_MAX_NS)
      return gp_trace_fail (r, "a slice ends past 2^62 ns (146 years)");
    if (s->kind > GP_TRACE_KIND_EVENT)
      return gp_trace_fail (r, "a slice of an unknown kind");
    r->pos = at + GP_TRACE_SLICE_BYTES;
  }
  return TRUE;
}

GpTrace *
gp_trace_load_data (const guint8 * data, gsize len, const gchar * origin,
    GError ** error)
{
  GpTraceReader r = { data, len, 0, origin ? origin : "<data>", error,
    FALSE
  };
  GpTrace *t;
  guint64 version, n_elements, n_threads, i;

  if (len < 8 || memcmp (data, GP_TRACE_MAGIC, 8) != 0) {
    g_set_error (error, GP_SESSION_ERROR, GP_SESSION_ERROR_PARSE,
        "%s: not a gstprof trace (it does not start with " GP_TRACE_MAGIC
        ")", r.origin);
    return NULL;
  }
  r.pos = 8;
  version = gp_trace_get (&r, 4);
  if (!r.failed && version != GP_TRACE_VERSION) {
    r.pos -= 4;
    gp_trace_fail (&r, "a trace version this gstprof does not read");
    return NULL;
  }
  t = gp_trace_new ();
  t->seconds = gp_trace_get (&r, 4);
  t->t0 = gp_trace_get (&r, 8);
  t->now = gp_trace_get (&r, 8);
  if (!r.failed && (t->t0 >= GP_TRACE_MAX_NS || t->now >= GP_TRACE_MAX_NS)) {
    r.pos -= 16;
    gp_trace_fail (&r, "a time past 2^62 ns (146 years)");
  }
  n_elements = gp_trace_get (&r, 4);
  n_threads = gp_trace_get (&r, 4);
  if (!r.failed && (n_elements > (len - r.pos) / GP_TRACE_NAME_MIN_BYTES
          || n_threads > (len - r.pos) / GP_TRACE_THREAD_MIN_BYTES)) {
    r.pos -= 8;
    gp_trace_fail (&r, "more elements or threads than the file holds");
  }
  for (i = 0; i < n_elements && !r.failed; i++) {
    gchar *name = gp_trace_get_string (&r);

    if (name)
      g_ptr_array_add (t->elements, name);
  }
  for (i = 0; i < n_threads && !r.failed; i++)
    gp_trace_read_thread (&r, t);
  if (!r.failed && r.pos != len)
    gp_trace_fail (&r, "more data after the last thread");
  if (r.failed) {
    gp_trace_free (t);
    return NULL;
  }
  return t;
}

GpTrace *
gp_trace_load (const gchar * path, GError ** error)
{
  GByteArray *buf;
  guint8 chunk[65536];
  GpTrace *t;
  FILE *f;
  size_t n;

  /* stdio, as gp_json_read_file: "FILE: No such file or directory" */
  f = g_fopen (path, "rb");
  if (f == NULL) {
    int err = errno;

    g_set_error (error, GP_SESSION_ERROR, GP_SESSION_ERROR_IO, "%s: %s",
        path, g_strerror (err));
    return NULL;
  }
  buf = g_byte_array_new ();
  while ((n = fread (chunk, 1, sizeof (chunk), f)) > 0) {
    if (buf->len + n > GP_TRACE_MAX_FILE_BYTES) {
      g_set_error (error, GP_SESSION_ERROR, GP_SESSION_ERROR_IO,
          "%s: larger than %u MiB, not a trace", path,
          GP_TRACE_MAX_FILE_BYTES / (1024 * 1024));
      fclose (f);
      g_byte_array_unref (buf);
      return NULL;
    }
    g_byte_array_append (buf, chunk, n);
  }
  if (ferror (f)) {
    int err = errno;

    g_set_error (error, GP_SESSION_ERROR, GP_SESSION_ERROR_IO, "%s: %s",
        path, g_strerror (err));
    fclose (f);
    g_byte_array_unref (buf);
    return NULL;
  }
  fclose (f);
  t = gp_trace_load_data (buf->data, buf->len, path, error);
  g_byte_array_unref (buf);
  return t;
}
