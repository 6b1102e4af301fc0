/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof tools
 *
 * gp-tsan-glib.c: what GLib's locks order, told to ThreadSanitizer, for
 * `make test-tsan` (tools/run-tsan.sh) only. GLib 2.74 locks a GMutex
 * with a futex of its own and makes GOnce, bit locks and GStreamer's
 * object locks from it, all inside a library TSan does not instrument: TSan
 * sees none of it, and reports every access two of those locks keep apart
 * as a race. Preloaded, this library stands in for the lock functions:
 * each calls GLib's own (dlsym RTLD_NEXT), and says "acquired" after a lock
 * and "released" before an unlock on the lock's address, which is what
 * TSan needs to see the order. Calls inside libglib itself do not come
 * here (it binds its own functions): tools/tsan/tsan.supp names those.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <dlfcn.h>
#include <glib.h>

void __tsan_acquire (void *addr);
void __tsan_release (void *addr);

/* GLib's function @name, found once. */
#define GP_REAL(type, name) \
  static __typeof__ (type) real; \
  if (real == NULL) \
    real = (__typeof__ (type)) dlsym (RTLD_NEXT, name)

void
g_mutex_lock (GMutex * m)
{
  GP_REAL (void (*)(GMutex *), "g_mutex_lock");
  real (m);
  __tsan_acquire (m);
}

gboolean
g_mutex_trylock (GMutex * m)
{
  gboolean got;
  GP_REAL (gboolean (*)(GMutex *), "g_mutex_trylock");
  got = real (m);
  if (got)
    __tsan_acquire (m);
  return got;
}

void
g_mutex_unlock (GMutex * m)
{
  GP_REAL (void (*)(GMutex *), "g_mutex_unlock");
  __tsan_release (m);
  real (m);
}

void
g_rec_mutex_lock (GRecMutex * m)
{
  GP_REAL (void (*)(GRecMutex *), "g_rec_mutex_lock");
  real (m);
  __tsan_acquire (m);
}

gboolean
g_rec_mutex_trylock (GRecMutex * m)
{
  gboolean got;
  GP_REAL (gboolean (*)(GRecMutex *), "g_rec_mutex_trylock");
  got = real (m);
  if (got)
    __tsan_acquire (m);
  return got;
}

void
g_rec_mutex_unlock (GRecMutex * m)
{
  GP_REAL (void (*)(GRecMutex *), "g_rec_mutex_unlock");
  __tsan_release (m);
  real (m);
}

void
g_rw_lock_writer_lock (GRWLock * l)
{
  GP_REAL (void (*)(GRWLock *), "g_rw_lock_writer_lock");
  real (l);
  __tsan_acquire (l);
}

void
g_rw_lock_writer_unlock (GRWLock * l)
{
  GP_REAL (void (*)(GRWLock *), "g_rw_lock_writer_unlock");
  __tsan_release (l);
  real (l);
}

void
g_rw_lock_reader_lock (GRWLock * l)
{
  GP_REAL (void (*)(GRWLock *), "g_rw_lock_reader_lock");
  real (l);
  __tsan_acquire (l);
}

void
g_rw_lock_reader_unlock (GRWLock * l)
{
  GP_REAL (void (*)(GRWLock *), "g_rw_lock_reader_unlock");
  __tsan_release (l);
  real (l);
}

void
g_cond_wait (GCond * c, GMutex * m)
{
  GP_REAL (void (*)(GCond *, GMutex *), "g_cond_wait");
  __tsan_release (m);
  real (c, m);
  __tsan_acquire (m);
}

gboolean
g_cond_wait_until (GCond * c, GMutex * m, gint64 end_time)
{
  gboolean woken;
  GP_REAL (gboolean (*)(GCond *, GMutex *, gint64), "g_cond_wait_until");
  __tsan_release (m);
  woken = real (c, m, end_time);
  __tsan_acquire (m);
  return woken;
}

void
g_bit_lock (volatile gint * address, gint lock_bit)
{
  GP_REAL (void (*)(volatile gint *, gint), "g_bit_lock");
  real (address, lock_bit);
  __tsan_acquire ((void *) address);
}

void
g_bit_unlock (volatile gint * address, gint lock_bit)
{
  GP_REAL (void (*)(volatile gint *, gint), "g_bit_unlock");
  __tsan_release ((void *) address);
  real (address, lock_bit);
}

void
(g_pointer_bit_lock) (volatile void *address, gint lock_bit)
{
  GP_REAL (void (*)(volatile void *, gint), "g_pointer_bit_lock");
  real (address, lock_bit);
  __tsan_acquire ((void *) address);
}

void
(g_pointer_bit_unlock) (volatile void *address, gint lock_bit)
{
  GP_REAL (void (*)(volatile void *, gint), "g_pointer_bit_unlock");
  __tsan_release ((void *) address);
  real (address, lock_bit);
}

/* GOnce: the value is published by a store inside libglib; readers test it
 * with an inline atomic load (acquire) in instrumented code. */
gboolean
(g_once_init_enter) (volatile void *location)
{
  gboolean first;
  GP_REAL (gboolean (*)(volatile void *), "g_once_init_enter");
  first = real (location);
  __tsan_acquire ((void *) location);
  return first;
}

void
(g_once_init_leave) (volatile void *location, gsize result)
{
  GP_REAL (void (*)(volatile void *, gsize), "g_once_init_leave");
  __tsan_release ((void *) location);
  real (location, result);
}
