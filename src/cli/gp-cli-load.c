/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-cli-load.c: a saved session as the subcommands that read one take it
 * (gp_cli_load_session): a session.json (gstprof's own or another tool's,
 * through src/ingest), the folder `gstprof run --out` wrote, or the records
 * the tracer wrote by itself with out= (src/capture/gp-records.h).
 */
#include "gp-cli.h"
#include "capture/gp-records.h"
#include "ingest/gp-ingest.h"

#include <gst/gst.h>

/* A folder `gstprof run --out` wrote. */
static gboolean
gp_cli_load_has_session (const gchar * path)
{
  gchar *file = g_build_filename (path, "session.json", NULL);
  gboolean has = g_file_test (path, G_FILE_TEST_IS_DIR) &&
      g_file_test (file, G_FILE_TEST_EXISTS);

  g_free (file);
  return has;
}

GpSession *
gp_cli_load_session (const gchar * path, GError ** error)
{
  g_return_val_if_fail (path != NULL, NULL);

  /* a folder (or file) the tracer wrote by itself with out=, unless it
   * also holds the session.json of a run; a pipe or a FIFO is not looked
   * at here, where its first bytes would be consumed: it goes to
   * src/ingest, which opens it once */
  if ((g_file_test (path, G_FILE_TEST_IS_REGULAR) ||
          g_file_test (path, G_FILE_TEST_IS_DIR)) &&
      gp_records_present (path) && !gp_cli_load_has_session (path)) {
    if (!gst_init_check (NULL, NULL, error)) {
      g_prefix_error (error, "cannot initialise GStreamer: ");
      return NULL;
    }
    return gp_records_load (path, error);
  }
  return gp_ingest_load_any (path, error);
}
