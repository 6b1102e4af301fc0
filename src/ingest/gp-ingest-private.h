/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-ingest-private.h: what the readers of src/ingest share and nobody
 * else uses: a file (a pipe or a FIFO as well) or a text in memory opened
 * once as a stream, decompressed when it starts with gzip's magic, its
 * first bytes peeked without being consumed so that the format is told
 * from them and the same stream then goes to its reader
 * (gp-ingest-stream.c); and the readers' entries on such a stream.
 */
#ifndef __GP_INGEST_PRIVATE_H__
#define __GP_INGEST_PRIVATE_H__

#include <gio/gio.h>

#include "core/gp-lines.h"
#include "core/gp-session.h"

G_BEGIN_DECLS

/* Bytes of a file peeked to tell its format (and whether it is binary,
 * gp_lines_binary ()). */
#define GP_INGEST_HEAD_BYTES GP_LINES_BINARY_BYTES

typedef struct
{
  /* the text (gunzipped when gzip), buffered; read it with
   * g_input_stream_read () or gp_ingest_stream_lines () */
  GInputStream *in;
  gchar *origin;                /* names it in errors */
  gboolean gzip;                /* the file is gzip-compressed */
  /* its first n_head bytes (at most GP_INGEST_HEAD_BYTES), not consumed;
   * valid until the first read */
  const gchar *head;
  gsize n_head;
  gboolean whole;               /* head is all the text there is */
} GpIngestStream;

/* @path opened once for reading (a pipe or a FIFO as well), gunzipped
 * when it is gzip, its head peeked; NULL with a one-line
 * GP_SESSION_ERROR_IO naming @path when it cannot be opened or read. */
GpIngestStream *gp_ingest_stream_open (const gchar * path, GError ** error);

/* @data (not copied: it must outlive the stream) as a stream, the same
 * way; @origin names it in errors. */
GpIngestStream *gp_ingest_stream_data (const gchar * data, gsize length,
    const gchar * origin, GError ** error);

void gp_ingest_stream_free (GpIngestStream * st);

/* Whether @sniff says yes to the file at @path (FALSE when it cannot be
 * opened): the path form of a reader's sniff. */
typedef gboolean (*GpIngestSniff) (const GpIngestStream * st);
gboolean gp_ingest_stream_sniff (const gchar * path, GpIngestSniff sniff);

/* Reads the rest of @st through @lines, gp_lines_finish () at its end;
 * stops early, with TRUE, when the line function stops @lines. FALSE with
 * a one-line GP_SESSION_ERROR_IO naming the stream on a read error. */
gboolean gp_ingest_stream_lines (GpIngestStream * st, GpLines * lines,
    GError ** error);

/* The rest of @st in memory (NUL-terminated, @length without it), at
 * most @max bytes: a longer text is a one-line GP_SESSION_ERROR_IO. */
gchar *gp_ingest_stream_slurp (GpIngestStream * st, gsize max,
    gsize * length, GError ** error);

/* Whether the stream's head is a tracer log's / a queue-levels CSV's. */
gboolean gp_ingest_tracerlog_sniff_stream (const GpIngestStream * st);
gboolean gp_ingest_queuelevels_sniff_stream (const GpIngestStream * st);

/* The readers on an opened stream (it is read to its end or to where the
 * reader gives up); @into as gp_ingest_queuelevels_merge ()'s @s, NULL for
 * a session of the CSV alone. */
GpSession *gp_ingest_tracerlog_read (GpIngestStream * st, GError ** error);
/* a tegrastats log or nvidia-smi output (gp_telemetry_sniff () said so) */
GpSession *gp_ingest_telemetry_read (GpIngestStream * st, GError ** error);
GpSession *gp_ingest_queuelevels_read (GpIngestStream * st,
    GpSession * into, GError ** error);

G_END_DECLS

#endif /* __GP_INGEST_PRIVATE_H__ */
