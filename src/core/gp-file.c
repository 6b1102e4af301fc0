/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-file.c: a file written whole or not at all (gp-file.h).
 */
#include "gp-file.h"
#include "gp-session.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

static void
gp_atomic_file_set_error (GError ** error, const gchar * path, int err)
{
  g_set_error (error, GP_SESSION_ERROR, GP_SESSION_ERROR_IO,
      "%s: cannot write: %s", path, g_strerror (err));
}

static void
gp_atomic_file_free (GpAtomicFile * f)
{
  g_free (f->path);
  g_free (f->tmp);
  g_free (f);
}

GpAtomicFile *
gp_atomic_file_open (const gchar * path, GError ** error)
{
  GpAtomicFile *f;
  int fd, err;

  g_return_val_if_fail (path != NULL, NULL);

  f = g_new0 (GpAtomicFile, 1);
  f->path = g_strdup (path);
  /* Same folder as the target, so the rename never crosses a file system
   * and is atomic; 0666 less the umask, like any new file. */
  f->tmp = g_strconcat (path, ".tmp-XXXXXX", NULL);
  fd = g_mkstemp_full (f->tmp, O_WRONLY, 0666);
  if (fd < 0) {
    gp_atomic_file_set_error (error, path, errno);
    gp_atomic_file_free (f);
    return NULL;
  }
  f->fp = fdopen (fd, "w");
  if (f->fp == NULL) {
    err = errno;
    close (fd);
    g_unlink (f->tmp);
    gp_atomic_file_set_error (error, path, err);
    gp_atomic_file_free (f);
    return NULL;
  }
  return f;
}

gboolean
gp_atomic_file_commit (GpAtomicFile * f, GError ** error)
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
    gp_atomic_file_set_error (error, f->path, err);
  }
  gp_atomic_file_free (f);
  return ok;
}

void
gp_atomic_file_abort (GpAtomicFile * f)
{
  if (f == NULL)
    return;
  fclose (f->fp);
  g_unlink (f->tmp);
  gp_atomic_file_free (f);
}

gboolean
gp_atomic_file_write (const gchar * path, gconstpointer data, gsize len,
    GError ** error)
{
  GpAtomicFile *f = gp_atomic_file_open (path, error);

  if (f == NULL)
    return FALSE;
  if (len > 0 && fwrite (data, 1, len, f->fp) != len) {
    int err = errno ? errno : EIO;

    gp_atomic_file_abort (f);
    gp_atomic_file_set_error (error, path, err);
    return FALSE;
  }
  return gp_atomic_file_commit (f, error);
}
