/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-file.c: a file written whole or not at all, and one read whole up
 * to a bound (gp-file.h).
 */
#include "gp-file.h"
#include "gp-session.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
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

/* A regular file's size, 0 for anything else (a pipe, a device). */
static guint64
gp_file_regular_size (FILE * f)
{
  struct stat st;

  return fstat (fileno (f), &st) == 0 && S_ISREG (st.st_mode) ?
      (guint64) st.st_size : 0;
}

gchar *
gp_file_read_capped (const gchar * path, gsize limit, const gchar * what,
    gsize * len, GError ** error)
{
  GString *buf;
  gchar chunk[65536];
  gsize n = 0;
  gboolean over;
  int err = 0;
  FILE *f;

  g_return_val_if_fail (path != NULL && len != NULL, NULL);

  *len = 0;
  f = g_fopen (path, "rb");
  if (f == NULL) {
    err = errno;
    g_set_error (error, GP_SESSION_ERROR, GP_SESSION_ERROR_IO,
        "%s: cannot read: %s", path, g_strerror (err));
    return NULL;
  }
  buf = g_string_new (NULL);
  /* a regular file says its size: one too large is refused unread */
  over = gp_file_regular_size (f) > limit;
  while (!over && (n = fread (chunk, 1, sizeof chunk, f)) > 0) {
    over = buf->len + n > limit;
    if (!over)
      g_string_append_len (buf, chunk, (gssize) n);
  }
  if (!over && ferror (f))
    err = errno ? errno : EIO;
  fclose (f);
  if (over)
    g_set_error (error, GP_SESSION_ERROR, GP_SESSION_ERROR_IO,
        "%s: larger than %" G_GSIZE_FORMAT " MiB, the most %s takes",
        path, limit / (1024 * 1024), what);
  else if (err != 0)
    g_set_error (error, GP_SESSION_ERROR, GP_SESSION_ERROR_IO,
        "%s: cannot read: %s", path, g_strerror (err));
  if (over || err != 0) {
    g_string_free (buf, TRUE);
    return NULL;
  }
  *len = buf->len;
  return g_string_free (buf, FALSE);
}
