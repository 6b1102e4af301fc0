/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gp-membw: this machine's own memory bandwidth, the memory roof of the
 * CPU roofline.
 *
 * A short STREAM-style probe: three arrays of doubles, each at least
 * GP_MEMBW_ARRAY_MIN and four times the last-level cache (sysfs
 * cpu0/cache/index*), at most GP_MEMBW_ARRAY_MAX; copy (c = a) and triad
 * (a = b + s × c), best of GP_MEMBW_REPS, bytes counted as STREAM counts
 * them (copy 2 × 8 bytes per element, triad 3 × 8: the stores' write-
 * allocate reads are not counted). Once on one thread, once on every CPU
 * (each its own slice). Well under a second.
 *
 * Kept per boot: the figures of this boot (/proc/sys/kernel/random/
 * boot_id) are read back from $GSTPROF_CACHE_DIR (tests), else
 * $XDG_CACHE_HOME/gstprof, else ~/.cache/gstprof, file membw.ini, written
 * whole or not at all.
 */
#ifndef __GP_MEMBW_H__
#define __GP_MEMBW_H__

#include <glib.h>

G_BEGIN_DECLS

/* Big enough that no cache of a 2024 desktop holds it. */
#define GP_MEMBW_ARRAY_MIN (64u << 20)
/* Where four times the reported last-level cache is more (a VM told of
 * its host's whole L3), the time budget wins: the figure is then noted
 * as possibly helped by the cache (GpMembw.below_llc). */
#define GP_MEMBW_ARRAY_MAX (128u << 20)
/* Best of 3: the first pass can still pay for page faults elsewhere, and
 * a shared machine's noise only ever slows a pass down. */
#define GP_MEMBW_REPS 3

typedef struct
{
  gdouble copy_1, triad_1;      /* bytes/s, one thread */
  gdouble copy_all, triad_all;  /* bytes/s, every CPU; NAN with one CPU */
  guint threads;                /* how many "all" used */
  guint64 array_bytes;          /* each of the three arrays */
  guint64 llc_bytes;            /* the last-level cache, 0 unknown */
  guint64 l2_bytes;             /* the level-2 cache, 0 unknown */
  gboolean below_llc;           /* array_bytes < 4 × llc_bytes */
  guint reps;
  gdouble probe_s;              /* how long the probe took (when it ran) */
  gboolean cached;              /* read back, not measured now */
  gchar *boot_id;               /* the boot it was measured in */
} GpMembw;

/* The largest cache of cpu0 in sysfs, in bytes; 0 when none is listed. */
guint64 gp_membw_llc_bytes (void);
/* cpu0's data or unified cache of @level, in bytes; 0 when not listed. */
guint64 gp_membw_cache_bytes (guint level);
/* The size of each array for a last-level cache of @llc_bytes. */
guint64 gp_membw_array_bytes (guint64 llc_bytes);
/* Measures now, with @array_bytes per array (0: the default size),
 * @reps passes (0: GP_MEMBW_REPS) and @threads for "all" (0: every CPU;
 * 1: no all-CPU figures). NULL with @error when the arrays cannot be
 * had. */
GpMembw *gp_membw_probe (guint64 array_bytes, guint reps, guint threads,
    GError ** error);
/* This boot's figures: from the cache when it holds this boot's, else
 * measured and cached (a cache that cannot be written is no error: the
 * figures are returned all the same). @refresh measures in any case. */
GpMembw *gp_membw_get (gboolean refresh, GError ** error);
/* The cache file's path (a new string). */
gchar *gp_membw_cache_path (void);
/* This boot's id, NULL when the kernel does not say. */
gchar *gp_membw_boot_id (void);
void gp_membw_free (GpMembw * m);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GpMembw, gp_membw_free)

G_END_DECLS
#endif /* __GP_MEMBW_H__ */
