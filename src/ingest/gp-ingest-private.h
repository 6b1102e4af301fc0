/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-ingest-private.h: helpers shared by the readers in src/ingest.
 */
#ifndef __GP_INGEST_PRIVATE_H__
#define __GP_INGEST_PRIVATE_H__

#include "gp-ingest.h"

G_BEGIN_DECLS

/* Sets @error (GP_SESSION_ERROR, @code) to one line: control characters
 * become spaces and an overlong message is cut, whatever the file name or
 * the keys quoted in it contain. */
void gp_ingest_set_error (GError ** error, gint code, const gchar * format,
    ...) G_GNUC_PRINTF (3, 4);

G_END_DECLS

#endif /* __GP_INGEST_PRIVATE_H__ */
