/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof tracer
 *
 * gstproftrace.c: trace=SECONDS, every push kept.  Each streaming thread
 * writes, as each push (pull, serialized event) into an element returns,
 * one GpTraceSlice (src/core/gp-record.h) into a ring of its own
 * (gp_trace_record in gstproftracer.c, the hot path); this file sizes and
 * allocates the rings, names the elements, and reads the rings back for
 * the `collect-trace` action (slow path, any thread).
 *
 * The bound: a ring holds GP_TRACE_RATE_MAX x SECONDS entries, rounded up
 * to a power of two (131072, 3 MiB, for the default 10 s): the last
 * SECONDS of a thread making up to GP_TRACE_RATE_MAX pushes a second, the
 * last that many pushes (less time) of a busier one.  The collection keeps
 * only what started within SECONDS of the moment it runs.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstprofprivate.h"

#include <string.h>

#define GST_CAT_DEFAULT gst_prof_debug

/* Sizes the rings from the trace parameter, once, when the tracer starts
 * measuring (before any thread has a state). */
void
gp_trace_setup (GstProfTracer * self)
{
  guint64 want = (guint64) self->trace_s * GP_TRACE_RATE_MAX;
  guint slots = 1;

  if (self->trace_s == 0)
    return;
  while (slots < want)
    slots <<= 1;
  self->trace_slots = slots;
  self->trace_names = g_ptr_array_new_with_free_func (g_free);
  GST_INFO_OBJECT (self, "trace=%u s: %u entries (%" G_GSIZE_FORMAT
      " KiB) per streaming thread", self->trace_s, slots,
      slots * sizeof (GpTraceSlice) / 1024);
}

/* A thread's ring, made with its state (its first hook). Untouched pages
 * cost nothing until the thread pushes that much. */
GpTraceRing *
gp_trace_ring_new (GstProfTracer * self)
{
  GpTraceRing *r = g_malloc (sizeof (GpTraceRing) +
      (gsize) self->trace_slots * sizeof (GpTraceSlice));

  r->head = 0;
  r->mask = self->trace_slots - 1;
  return r;
}

/* A new element state (gp_state_lock held): its name gets an index. */
void
gp_trace_add_elem (GstProfTracer * self, GpElem * e)
{
  if (self->trace_names == NULL)
    return;
  e->trace_id = self->trace_names->len;
  g_ptr_array_add (self->trace_names, g_strdup (e->name ? e->name : ""));
}

/* The names of every element by trace_id, refreshed from the states still
 * alive (the timer renames them under emit_lock, held here). */
static void
gp_trace_add_names (GstProfTracer * self, GstStructure * s)
{
  GValue list = G_VALUE_INIT, v = G_VALUE_INIT;
  guint i;

  g_value_init (&list, GST_TYPE_LIST);
  g_mutex_lock (&self->state_lock);
  g_mutex_lock (&self->reg_lock);
  for (i = 0; i < self->elems->len; i++) {
    GpElem *e = g_ptr_array_index (self->elems, i);

    if (e->trace_id < self->trace_names->len && e->name
        && strcmp (e->name, g_ptr_array_index (self->trace_names,
                e->trace_id)) != 0) {
      g_free (g_ptr_array_index (self->trace_names, e->trace_id));
      g_ptr_array_index (self->trace_names, e->trace_id) = g_strdup (e->name);
    }
  }
  g_mutex_unlock (&self->reg_lock);
  for (i = 0; i < self->trace_names->len; i++) {
    g_value_init (&v, G_TYPE_STRING);
    g_value_set_string (&v, g_ptr_array_index (self->trace_names, i));
    gst_value_list_append_and_take_value (&list, &v);
  }
  g_mutex_unlock (&self->state_lock);
  gst_structure_take_value (s, GP_TR_ELEMENTS, &list);
}

/* The entries of @r that started at or after @since, oldest first; @lost:
 * the older ones the ring no longer held. */
static GBytes *
gp_trace_read_ring (GpTraceRing * r, guint64 since, guint64 * lost)
{
  guint64 slots = r->mask + 1;
  guint64 head = __atomic_load_n (&r->head, __ATOMIC_ACQUIRE);
  guint64 lo = head > slots ? head - slots : 0, valid, i;
  GpTraceSlice *copy;
  guint n = 0, skip;

  copy = g_new (GpTraceSlice, head - lo);
  for (i = lo; i < head; i++)
    copy[i - lo] = r->slots[i & r->mask];
  __atomic_thread_fence (__ATOMIC_ACQUIRE);
  /* what the writer wrote meanwhile may have replaced the oldest copied */
  valid = __atomic_load_n (&r->head, __ATOMIC_ACQUIRE);
  valid = valid > slots ? valid - slots : 0;
  skip = valid > lo ? (guint) MIN (valid - lo, head - lo) : 0;
  *lost = lo + skip;
  for (i = skip; i < head - lo; i++)
    if (copy[i].start >= since)
      copy[n++] = copy[i];
  return g_bytes_new_take (copy, n * sizeof (GpTraceSlice));
}

static void
gp_trace_thread_name (GpThread * t, gchar name[32])
{
  gchar path[64], *text = NULL;

  g_strlcpy (name, t->name, 32);
  g_snprintf (path, sizeof path, "/proc/self/task/%d/comm", t->tid);
  if (t->tid > 0 && !g_atomic_int_get (&t->exited)
      && g_file_get_contents (path, &text, NULL, NULL)) {
    g_strchomp (text);
    g_strlcpy (name, text, 32);
    g_free (text);
  }
}

/* The `collect-trace` action: every thread's ring, as the gstprof-trace
 * record of gp-record.h; NULL when trace is off. */
GstStructure *
gp_trace_collect (GstProfTracer * self)
{
  GstStructure *s;
  GPtrArray *threads;
  GValue list = G_VALUE_INIT;
  guint64 now, since;
  guint i;

  if (!self->active || self->trace_s == 0)
    return NULL;
  g_rec_mutex_lock (&self->emit_lock);
  now = gp_now (self);
  since = now > self->trace_s * GST_SECOND ? now - self->trace_s * GST_SECOND
      : 0;
  s = gst_structure_new (GP_RECORD_TRACE, GP_TR_SECONDS, G_TYPE_UINT,
      self->trace_s, GP_TR_SLOTS, G_TYPE_UINT, self->trace_slots,
      GP_TR_NOW, G_TYPE_UINT64, now, NULL);
  gp_trace_add_names (self, s);

  threads = g_ptr_array_new ();
  g_mutex_lock (&self->reg_lock);
  for (i = 0; i < self->threads->len; i++) {
    GpThread *t = g_ptr_array_index (self->threads, i);

    g_atomic_int_inc (&t->ref);
    g_ptr_array_add (threads, t);
  }
  g_mutex_unlock (&self->reg_lock);

  g_value_init (&list, GST_TYPE_LIST);
  for (i = 0; i < threads->len; i++) {
    GpThread *t = g_ptr_array_index (threads, i);
    GstStructure *ts;
    GBytes *bytes;
    guint64 lost = 0;
    gchar name[32];

    if (t->trace == NULL || __atomic_load_n (&t->trace->head,
            __ATOMIC_ACQUIRE) == 0)
      continue;
    bytes = gp_trace_read_ring (t->trace, since, &lost);
    gp_trace_thread_name (t, name);
    ts = gst_structure_new (GP_RECORD_TRACE_THREAD,
        GP_TT_TID, G_TYPE_UINT64, (guint64) MAX (t->tid, 0),
        GP_TT_NAME, G_TYPE_STRING, name,
        GP_TT_SLICES, G_TYPE_BYTES, bytes, GP_TT_LOST, G_TYPE_UINT64, lost,
        NULL);
    g_bytes_unref (bytes);
    gp_list_take_structure (&list, ts);
  }
  gst_structure_take_value (s, GP_TR_THREADS, &list);
  g_rec_mutex_unlock (&self->emit_lock);
  g_ptr_array_set_free_func (threads, (GDestroyNotify) gp_thread_unref);
  g_ptr_array_unref (threads);
  return s;
}
