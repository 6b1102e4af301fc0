/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-ingest-stream.c: the readers' input, opened once. A pipe or a FIFO
 * (`gstprof analyze <(zcat log.gz)`) cannot be read twice nor seeked, so
 * the format is told from a peek at the first bytes, held in a
 * GBufferedInputStream, and the same stream then goes on to the reader:
 * nothing is read twice, nothing seeked.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>

#include <glib/gstdio.h>
#include <gio/gunixinputstream.h>

#include "gp-ingest-private.h"
#include "core/gp-json.h"

/* The reads the readers make: large enough that a read is worth its
 * call, small enough to stay in the cache. */
#define GP_INGEST_STREAM_CHUNK (1 << 20)
/* The buffer behind the peek; a read larger than it bypasses it. */
#define GP_INGEST_STREAM_BUFFER (64 << 10)

/* Fills @b's buffer to @want bytes or the end; FALSE on a read error.
 * @eof: the end came first. */
static gboolean
gp_ingest_stream_fill (GBufferedInputStream * b, gsize want, gboolean * eof,
    GError ** error)
{
  *eof = FALSE;
  while (g_buffered_input_stream_get_available (b) < want) {
    gssize n = g_buffered_input_stream_fill (b,
        want - g_buffered_input_stream_get_available (b), NULL, error);

    if (n < 0)
      return FALSE;
    if (n == 0) {
      *eof = TRUE;
      break;
    }
  }
  return TRUE;
}

/* @raw as the stream: gzip or not by its first two bytes (the magic
 * 1f 8b), the head peeked. Takes @raw. */
static GpIngestStream *
gp_ingest_stream_new (GInputStream * raw, const gchar * origin,
    GError ** error)
{
  GpIngestStream *st = g_new0 (GpIngestStream, 1);
  GInputStream *b = g_buffered_input_stream_new_sized (raw,
      GP_INGEST_STREAM_BUFFER);
  GError *err = NULL;
  const guint8 *magic;
  gsize n;
  gboolean eof;

  g_object_unref (raw);
  st->origin = g_strdup (origin);
  if (!gp_ingest_stream_fill (G_BUFFERED_INPUT_STREAM (b), 2, &eof, &err))
    goto failed;
  magic = g_buffered_input_stream_peek_buffer (G_BUFFERED_INPUT_STREAM (b),
      &n);
  if (n >= 2 && magic[0] == 0x1f && magic[1] == 0x8b) {
    GConverter *z =
        G_CONVERTER (g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP));
    GInputStream *text = g_converter_input_stream_new (b, z);

    g_object_unref (z);
    g_object_unref (b);
    b = g_buffered_input_stream_new_sized (text, GP_INGEST_STREAM_BUFFER);
    g_object_unref (text);
    st->gzip = TRUE;
  }
  st->in = b;
  if (!gp_ingest_stream_fill (G_BUFFERED_INPUT_STREAM (b),
          GP_INGEST_HEAD_BYTES, &eof, &err))
    goto failed;
  st->head = g_buffered_input_stream_peek_buffer (G_BUFFERED_INPUT_STREAM (b),
      &st->n_head);
  st->n_head = MIN (st->n_head, GP_INGEST_HEAD_BYTES);
  st->whole = eof;
  return st;

failed:
  gp_json_error_line (error, GP_SESSION_ERROR_IO, "%s: %s", origin,
      err->message);
  g_error_free (err);
  st->in = b;
  gp_ingest_stream_free (st);
  return NULL;
}

GpIngestStream *
gp_ingest_stream_open (const gchar * path, GError ** error)
{
  int fd;

  g_return_val_if_fail (path != NULL, NULL);

  /* open () rather than g_file_read (): its errno gives a plain
   * "FILE: No such file or directory", without the name a second time */
  fd = g_open (path, O_RDONLY | O_CLOEXEC, 0);
  if (fd < 0) {
    int err = errno;

    gp_json_error_line (error, GP_SESSION_ERROR_IO, "%s: %s", path,
        g_strerror (err));
    return NULL;
  }
  return gp_ingest_stream_new (g_unix_input_stream_new (fd, TRUE), path,
      error);
}

GpIngestStream *
gp_ingest_stream_data (const gchar * data, gsize length,
    const gchar * origin, GError ** error)
{
  g_return_val_if_fail (data != NULL || length == 0, NULL);

  return gp_ingest_stream_new (g_memory_input_stream_new_from_data (data,
          length, NULL), origin ? origin : "<data>", error);
}

void
gp_ingest_stream_free (GpIngestStream * st)
{
  if (st == NULL)
    return;
  g_clear_object (&st->in);
  g_free (st->origin);
  g_free (st);
}

gboolean
gp_ingest_stream_lines (GpIngestStream * st, GpLines * lines,
    GError ** error)
{
  gchar *buf = g_malloc (GP_INGEST_STREAM_CHUNK);
  GError *err = NULL;
  gboolean ok = TRUE;

  g_return_val_if_fail (st != NULL && lines != NULL, FALSE);

  st->head = NULL;
  st->n_head = 0;
  for (;;) {
    gssize n = g_input_stream_read (st->in, buf, GP_INGEST_STREAM_CHUNK,
        NULL, &err);

    if (n < 0) {
      gp_json_error_line (error, GP_SESSION_ERROR_IO, "%s: %s", st->origin,
          err->message);
      g_error_free (err);
      ok = FALSE;
      break;
    }
    if (n == 0) {
      gp_lines_finish (lines);
      break;
    }
    if (!gp_lines_feed (lines, buf, n))
      break;
  }
  g_free (buf);
  return ok;
}

gchar *
gp_ingest_stream_slurp (GpIngestStream * st, gsize max, gsize * length,
    GError ** error)
{
  GString *text = g_string_new (NULL);
  gchar *buf = g_malloc (GP_INGEST_STREAM_BUFFER);
  GError *err = NULL;

  g_return_val_if_fail (st != NULL && length != NULL, NULL);

  st->head = NULL;
  st->n_head = 0;
  for (;;) {
    gssize n = g_input_stream_read (st->in, buf, GP_INGEST_STREAM_BUFFER,
        NULL, &err);

    if (n < 0) {
      gp_json_error_line (error, GP_SESSION_ERROR_IO, "%s: %s", st->origin,
          err->message);
      g_error_free (err);
      break;
    }
    if (n == 0) {
      g_free (buf);
      *length = text->len;
      return g_string_free (text, FALSE);
    }
    if (text->len + n > max) {
      gp_json_error_line (error, GP_SESSION_ERROR_IO,
          "%s: larger than %" G_GSIZE_FORMAT " MiB, not a session",
          st->origin, max >> 20);
      break;
    }
    g_string_append_len (text, buf, n);
  }
  g_free (buf);
  g_string_free (text, TRUE);
  return NULL;
}

gboolean
gp_ingest_stream_sniff (const gchar * path, GpIngestSniff sniff)
{
  GpIngestStream *st = gp_ingest_stream_open (path, NULL);
  gboolean yes;

  if (st == NULL)
    return FALSE;
  yes = sniff (st);
  gp_ingest_stream_free (st);
  return yes;
}
