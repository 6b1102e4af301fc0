/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-export.c: what every export shares: its error domain and the atomic
 * write of one file (a temporary file in the target's folder, renamed over
 * the target once it is flushed and synced).
 */
#include "gp-export.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

G_DEFINE_QUARK (gp-export-error-quark, gp_export_error);

static void
gp_export_file_set_error (GError ** error, const gchar * path, int err)
{
  g_set_error (error, GP_EXPORT_ERROR, GP_EXPORT_ERROR_IO,
      "%s: cannot write: %s", path, g_strerror (err));
}

static void
gp_export_file_free (GpExportFile * f)
{
  g_free (f->path);
  g_free (f->tmp);
  g_free (f);
}

GpExportFile *
gp_export_file_open (const gchar * path, GError ** error)
{
  GpExportFile *f;
  int fd, err;

  g_return_val_if_fail (path != NULL, NULL);

  f = g_new0 (GpExportFile, 1);
  f->path = g_strdup (path);
  /* Same folder as the target, so the rename never crosses a file system
   * and is atomic; 0666 less the umask, like any new file. */
  f->tmp = g_strconcat (path, ".tmp-XXXXXX", NULL);
  fd = g_mkstemp_full (f->tmp, O_WRONLY, 0666);
  if (fd < 0) {
    gp_export_file_set_error (error, path, errno);
    gp_export_file_free (f);
    return NULL;
  }
  f->fp = fdopen (fd, "w");
  if (f->fp == NULL) {
    err = errno;
    close (fd);
    g_unlink (f->tmp);
    gp_export_file_set_error (error, path, err);
    gp_export_file_free (f);
    return NULL;
  }
  return f;
}

gboolean
gp_export_file_commit (GpExportFile * f, GError ** error)
{
  gboolean ok = TRUE;
  int err = 0;

  g_return_val_if_fail (f != NULL, FALSE);

  if (fflush (f->fp) != 0 || ferror (f->fp)) {
    err = errno ? errno : EIO;
    ok = FALSE;
  }
  /* the rename must not land before the data */
  if (ok && fsync (fileno (f->fp)) != 0 && errno != EINVAL && errno != EROFS) {
    err = errno;
    ok = FALSE;
  }
  if (fclose (f->fp) != 0 && ok) {
    err = errno;
    ok = FALSE;
  }
  if (ok && g_rename (f->tmp, f->path) != 0) {
    err = errno;
    ok = FALSE;
  }
  if (!ok) {
    g_unlink (f->tmp);
    gp_export_file_set_error (error, f->path, err);
  }
  gp_export_file_free (f);
  return ok;
}

void
gp_export_file_abort (GpExportFile * f)
{
  if (f == NULL)
    return;
  fclose (f->fp);
  g_unlink (f->tmp);
  gp_export_file_free (f);
}
