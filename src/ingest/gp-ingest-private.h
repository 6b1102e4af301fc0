/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-ingest-private.h: what the readers of src/ingest share and nobody
 * else uses: a file or a text in memory as a stream, decompressed when it
 * starts with gzip's magic (gp-ingest-tracerlog.c holds them).
 */
#ifndef __GP_INGEST_PRIVATE_H__
#define __GP_INGEST_PRIVATE_H__

#include <gio/gio.h>

G_BEGIN_DECLS

/* @path opened for reading, gunzipped when it is gzip; NULL with a
 * one-line GP_SESSION_ERROR_IO naming @path when it cannot be opened. */
GInputStream *gp_ingest_open_stream (const gchar * path, GError ** error);

/* @data (not copied: it must outlive the stream) as a stream, gunzipped
 * when it is gzip. */
GInputStream *gp_ingest_data_stream (const gchar * data, gsize length);

G_END_DECLS

#endif /* __GP_INGEST_PRIVATE_H__ */
