/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gp-membw: the STREAM-style bandwidth probe and its per-boot cache
 * (gp-membw.h). */
#include "gp-membw.h"
#include "core/gp-file.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define GP_MEMBW_GROUP "membw"

typedef enum
{
  GP_MEMBW_INIT,
  GP_MEMBW_COPY,
  GP_MEMBW_TRIAD,
} GpMembwKernel;

typedef struct
{
  gdouble *a, *b, *c;
  gsize from, to;
  GpMembwKernel kernel;
} GpMembwSlice;

static gdouble
gp_membw_now (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void
gp_membw_run_slice (GpMembwSlice * s)
{
  gdouble *restrict a = s->a, *restrict b = s->b, *restrict c = s->c;
  const gdouble scalar = 3.0;
  gsize i;

  if (s->kernel == GP_MEMBW_INIT) {
    for (i = s->from; i < s->to; i++) {
      a[i] = 1.0;
      b[i] = 2.0;
      c[i] = 0.0;
    }
  } else if (s->kernel == GP_MEMBW_COPY) {
    for (i = s->from; i < s->to; i++)
      c[i] = a[i];
  } else {
    for (i = s->from; i < s->to; i++)
      a[i] = b[i] + scalar * c[i];
  }
}

static gpointer
gp_membw_thread (gpointer data)
{
  gp_membw_run_slice (data);
  return NULL;
}

/* One pass of @kernel over @n elements on @threads threads: its wall
 * time in s. */
static gdouble
gp_membw_pass (GpMembwKernel kernel, gdouble * a, gdouble * b, gdouble * c,
    gsize n, guint threads)
{
  GpMembwSlice slices[64];
  GThread *th[64];
  gdouble t0;
  guint k;

  threads = CLAMP (threads, 1, G_N_ELEMENTS (slices));
  for (k = 0; k < threads; k++) {
    slices[k].a = a;
    slices[k].b = b;
    slices[k].c = c;
    slices[k].from = n * k / threads;
    slices[k].to = n * (k + 1) / threads;
    slices[k].kernel = kernel;
  }
  t0 = gp_membw_now ();
  if (threads == 1) {
    gp_membw_run_slice (&slices[0]);
  } else {
    for (k = 0; k < threads; k++)
      th[k] = g_thread_new ("gp-membw", gp_membw_thread, &slices[k]);
    for (k = 0; k < threads; k++)
      g_thread_join (th[k]);
  }
  return gp_membw_now () - t0;
}

/* Best of @reps passes of copy and triad on @threads threads, as bytes/s
 * counted STREAM's way. */
static void
gp_membw_measure (gdouble * a, gdouble * b, gdouble * c, gsize n,
    guint reps, guint threads, gdouble * copy, gdouble * triad)
{
  gdouble best_copy = INFINITY, best_triad = INFINITY;
  guint r;

  for (r = 0; r < reps; r++) {
    best_copy = MIN (best_copy,
        gp_membw_pass (GP_MEMBW_COPY, a, b, c, n, threads));
    best_triad = MIN (best_triad,
        gp_membw_pass (GP_MEMBW_TRIAD, a, b, c, n, threads));
  }
  *copy = 2.0 * sizeof (gdouble) * n / best_copy;
  *triad = 3.0 * sizeof (gdouble) * n / best_triad;
}

/* cpu0's cache @index: its size (0 when not listed) and level. */
static guint64
gp_membw_sysfs_cache (guint index, guint * level, gboolean * instruction)
{
  gchar *dir = g_strdup_printf ("/sys/devices/system/cpu/cpu0/cache/"
      "index%u", index);
  gchar *path, *text = NULL, *end = NULL;
  guint64 v = 0;

  *level = 0;
  *instruction = FALSE;
  path = g_build_filename (dir, "size", NULL);
  if (g_file_get_contents (path, &text, NULL, NULL)) {
    v = g_ascii_strtoull (text, &end, 10);
    if (end && (*end == 'K' || *end == 'k'))
      v <<= 10;
    else if (end && *end == 'M')
      v <<= 20;
  }
  g_free (text);
  g_free (path);
  path = g_build_filename (dir, "level", NULL);
  if (g_file_get_contents (path, &text, NULL, NULL))
    *level = (guint) g_ascii_strtoull (text, NULL, 10);
  g_free (text);
  g_free (path);
  path = g_build_filename (dir, "type", NULL);
  if (g_file_get_contents (path, &text, NULL, NULL))
    *instruction = g_str_has_prefix (text, "Instruction");
  g_free (text);
  g_free (path);
  g_free (dir);
  return v;
}

guint64
gp_membw_llc_bytes (void)
{
  guint64 best = 0;
  gboolean insn;
  guint i, level;

  for (i = 0; i < 16; i++)
    best = MAX (best, gp_membw_sysfs_cache (i, &level, &insn));
  return best;
}

guint64
gp_membw_cache_bytes (guint want)
{
  gboolean insn;
  guint i, level;

  for (i = 0; i < 16; i++) {
    guint64 v = gp_membw_sysfs_cache (i, &level, &insn);

    if (v > 0 && level == want && !insn)
      return v;
  }
  return 0;
}

guint64
gp_membw_array_bytes (guint64 llc_bytes)
{
  return CLAMP (4 * llc_bytes, GP_MEMBW_ARRAY_MIN, GP_MEMBW_ARRAY_MAX);
}

GpMembw *
gp_membw_probe (guint64 array_bytes, guint reps, guint threads,
    GError ** error)
{
  GpMembw *m;
  gdouble *a, *b, *c, t0;
  gsize n;

  m = g_new0 (GpMembw, 1);
  m->llc_bytes = gp_membw_llc_bytes ();
  m->l2_bytes = gp_membw_cache_bytes (2);
  m->array_bytes = array_bytes ? array_bytes :
      gp_membw_array_bytes (m->llc_bytes);
  m->below_llc = m->array_bytes < 4 * m->llc_bytes;
  m->reps = reps ? reps : GP_MEMBW_REPS;
  m->threads = threads ? threads : g_get_num_processors ();
  m->boot_id = gp_membw_boot_id ();
  n = m->array_bytes / sizeof (gdouble);
  t0 = gp_membw_now ();
  a = g_try_malloc (n * sizeof (gdouble));
  b = g_try_malloc (n * sizeof (gdouble));
  c = g_try_malloc (n * sizeof (gdouble));
  if (a == NULL || b == NULL || c == NULL) {
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOMEM,
        "the bandwidth probe needs 3 x %" G_GUINT64_FORMAT " MiB of memory",
        m->array_bytes >> 20);
    g_free (a);
    g_free (b);
    g_free (c);
    gp_membw_free (m);
    return NULL;
  }
  /* touched before timing, page faults are no bandwidth; on every CPU,
   * as they cost more than the passes */
  gp_membw_pass (GP_MEMBW_INIT, a, b, c, n, m->threads);
  gp_membw_measure (a, b, c, n, m->reps, 1, &m->copy_1, &m->triad_1);
  m->copy_all = m->triad_all = NAN;
  if (m->threads > 1)
    gp_membw_measure (a, b, c, n, m->reps, m->threads, &m->copy_all,
        &m->triad_all);
  /* the arrays' values are read, so no pass is optimised away */
  if (!isfinite (a[n / 2] + c[n / 3]))
    m->copy_1 = NAN;
  g_free (a);
  g_free (b);
  g_free (c);
  m->probe_s = gp_membw_now () - t0;
  return m;
}

gchar *
gp_membw_boot_id (void)
{
  gchar *text = NULL;

  if (!g_file_get_contents ("/proc/sys/kernel/random/boot_id", &text, NULL,
          NULL))
    return NULL;
  g_strstrip (text);
  if (*text == '\0') {
    g_free (text);
    return NULL;
  }
  return text;
}

gchar *
gp_membw_cache_path (void)
{
  const gchar *dir = g_getenv ("GSTPROF_CACHE_DIR");
  const gchar *xdg = g_getenv ("XDG_CACHE_HOME");

  if (dir && *dir)
    return g_build_filename (dir, "membw.ini", NULL);
  /* read now, not GLib's copy from the first call */
  if (xdg && g_path_is_absolute (xdg))
    return g_build_filename (xdg, "gstprof", "membw.ini", NULL);
  return g_build_filename (g_get_home_dir (), ".cache", "gstprof",
      "membw.ini", NULL);
}

static gdouble
gp_membw_key_double (GKeyFile * kf, const gchar * key)
{
  GError *err = NULL;
  gdouble v = g_key_file_get_double (kf, GP_MEMBW_GROUP, key, &err);

  if (err) {
    g_error_free (err);
    return NAN;
  }
  return v;
}

/* This boot's figures from the cache at @path, NULL when it holds none
 * (absent, another boot's, or not readable as figures). */
static GpMembw *
gp_membw_read_cache (const gchar * path, const gchar * boot_id)
{
  GKeyFile *kf = g_key_file_new ();
  GpMembw *m = NULL;
  gchar *boot = NULL;

  if (boot_id == NULL
      || !g_key_file_load_from_file (kf, path, G_KEY_FILE_NONE, NULL))
    goto out;
  boot = g_key_file_get_string (kf, GP_MEMBW_GROUP, "boot_id", NULL);
  if (boot == NULL || strcmp (boot, boot_id) != 0)
    goto out;
  m = g_new0 (GpMembw, 1);
  m->boot_id = g_strdup (boot);
  m->copy_1 = gp_membw_key_double (kf, "copy_1");
  m->triad_1 = gp_membw_key_double (kf, "triad_1");
  m->copy_all = gp_membw_key_double (kf, "copy_all");
  m->triad_all = gp_membw_key_double (kf, "triad_all");
  m->threads = g_key_file_get_integer (kf, GP_MEMBW_GROUP, "threads", NULL);
  m->array_bytes = g_key_file_get_uint64 (kf, GP_MEMBW_GROUP, "array_bytes",
      NULL);
  m->llc_bytes = g_key_file_get_uint64 (kf, GP_MEMBW_GROUP, "llc_bytes",
      NULL);
  m->below_llc = m->array_bytes < 4 * m->llc_bytes;
  m->l2_bytes = gp_membw_cache_bytes (2);
  m->reps = g_key_file_get_integer (kf, GP_MEMBW_GROUP, "reps", NULL);
  m->probe_s = gp_membw_key_double (kf, "probe_s");
  m->cached = TRUE;
  /* a damaged file is measured again */
  if (!(m->copy_1 > 0) || !(m->triad_1 > 0)) {
    gp_membw_free (m);
    m = NULL;
  }
out:
  g_free (boot);
  g_key_file_free (kf);
  return m;
}

static gboolean
gp_membw_write_cache (const gchar * path, const GpMembw * m, GError ** error)
{
  GKeyFile *kf = g_key_file_new ();
  gchar *dir = g_path_get_dirname (path), *data;
  gsize len;
  gboolean ok;

  g_key_file_set_string (kf, GP_MEMBW_GROUP, "boot_id", m->boot_id);
  g_key_file_set_double (kf, GP_MEMBW_GROUP, "copy_1", m->copy_1);
  g_key_file_set_double (kf, GP_MEMBW_GROUP, "triad_1", m->triad_1);
  if (!isnan (m->copy_all)) {
    g_key_file_set_double (kf, GP_MEMBW_GROUP, "copy_all", m->copy_all);
    g_key_file_set_double (kf, GP_MEMBW_GROUP, "triad_all", m->triad_all);
  }
  g_key_file_set_integer (kf, GP_MEMBW_GROUP, "threads", m->threads);
  g_key_file_set_uint64 (kf, GP_MEMBW_GROUP, "array_bytes", m->array_bytes);
  g_key_file_set_uint64 (kf, GP_MEMBW_GROUP, "llc_bytes", m->llc_bytes);
  g_key_file_set_integer (kf, GP_MEMBW_GROUP, "reps", m->reps);
  g_key_file_set_double (kf, GP_MEMBW_GROUP, "probe_s", m->probe_s);
  data = g_key_file_to_data (kf, &len, NULL);
  ok = g_mkdir_with_parents (dir, 0700) == 0
      && gp_atomic_file_write (path, data, len, error);
  g_free (data);
  g_free (dir);
  g_key_file_free (kf);
  return ok;
}

GpMembw *
gp_membw_get (gboolean refresh, GError ** error)
{
  gchar *path = gp_membw_cache_path ();
  gchar *boot = gp_membw_boot_id ();
  GpMembw *m = NULL;

  if (!refresh)
    m = gp_membw_read_cache (path, boot);
  if (m == NULL) {
    m = gp_membw_probe (0, 0, 0, error);
    /* without a boot id there is nothing to key the cache by */
    if (m != NULL && m->boot_id != NULL)
      gp_membw_write_cache (path, m, NULL);
  }
  g_free (boot);
  g_free (path);
  return m;
}

void
gp_membw_free (GpMembw * m)
{
  if (m == NULL)
    return;
  g_free (m->boot_id);
  g_free (m);
}
