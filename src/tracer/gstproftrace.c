/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof tracer
 *
 * gstproftrace.c: trace=SECONDS, every push kept.  Each streaming thread
 * writes, as each push (pull, serialized event) into an element returns,
 * one GpTraceSlice (src/core/gp-record.h) into a ring of its own
 * (gp_pushes_record in gstproftracer.c, the hot path); this file sizes and
 * allocates the rings, names the elements, keeps the rings of threads that
 * exited, and reads the rings back for the `collect-trace` action (slow
 * path, any thread).  (Core's gp_trace_* is the file those records become,
 * src/core/gp-trace.c; this file's functions are gp_pushes_*.)
 *
 * The bound: a ring holds GP_TRACE_RATE_MAX x SECONDS entries, rounded up
 * to a power of two (131072, 3 MiB, for the default 10 s): the last
 * SECONDS of a thread making up to GP_TRACE_RATE_MAX pushes a second, the
 * last that many pushes (less time) of a busier one.  The collection keeps
 * what started within SECONDS of the newest push's return, over all
 * threads: `gstprof run` collects after the pipeline stopped, and the span
 * is the last SECONDS of data flow, not of the wall clock.
 *
 * The rings are seqlocks without a lock: the writer publishes head after
 * the slot, and orders the previous head before the next slot's stores;
 * the reader copies, then drops every entry the writer may have been
 * overwriting meanwhile, and any slice still inconsistent after that.
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
gp_pushes_setup (GstProfTracer * self)
{
  guint64 want = (guint64) self->trace_s * GP_TRACE_RATE_MAX;
  guint slots = 1;

  if (self->trace_s == 0)
    return;
  while (slots < want)
    slots <<= 1;
  self->trace_slots = slots;
  self->trace_names = g_ptr_array_new_with_free_func (g_free);
  self->trace_retired = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gp_pushes_retired_free);
  GST_INFO_OBJECT (self, "trace=%u s: %u entries (%" G_GSIZE_FORMAT
      " KiB) per streaming thread", self->trace_s, slots,
      slots * sizeof (GpTraceSlice) / 1024);
}

/* A thread's ring, made with its state (its first hook). Untouched pages
 * cost nothing until the thread pushes that much. */
GpTraceRing *
gp_pushes_ring_new (GstProfTracer * self)
{
  GpTraceRing *r = g_malloc (sizeof (GpTraceRing) +
      (gsize) self->trace_slots * sizeof (GpTraceSlice));

  r->head = 0;
  r->mask = self->trace_slots - 1;
  return r;
}

/* A new element state (gp_state_lock held): its name gets an index. */
void
gp_pushes_add_elem (GstProfTracer * self, GpElem * e)
{
  if (self->trace_names == NULL)
    return;
  e->trace_id = self->trace_names->len;
  g_ptr_array_add (self->trace_names, g_strdup (e->name ? e->name : ""));
}

/* The names of every element by trace_id, refreshed from the states still
 * alive (the timer renames them under emit_lock, held here); how many.
 * Read after the rings: every slice read names an element made before. */
static guint
gp_pushes_add_names (GstProfTracer * self, GstStructure * s)
{
  GValue list = G_VALUE_INIT, v = G_VALUE_INIT;
  guint i, n;

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
  n = self->trace_names->len;
  g_mutex_unlock (&self->state_lock);
  gst_structure_take_value (s, GP_TR_ELEMENTS, &list);
  return n;
}

/* A thread that exited: its tid, name and ring, kept past its state
 * (gp_pushes_retire) until its newest push is older than the span. */
struct _GpPushesRetired
{
  guint64 tid;
  gchar name[GP_THREAD_NAME_BYTES];
  GpTraceRing *ring;
};

void
gp_pushes_retired_free (GpPushesRetired * d)
{
  g_free (d->ring);
  g_free (d);
}

/* The newest entry's return, on a ring nobody writes any more. */
static guint64
gp_pushes_ring_newest (const GpTraceRing * r)
{
  return r->head ? r->slots[(r->head - 1) & r->mask].end : 0;
}

/* The timer retires @t (it exited and was reported; emit_lock held): its
 * ring stays for the collection while its pushes are within the span of
 * @now; older retired rings go. */
void
gp_pushes_retire (GstProfTracer * self, GpThread * t, guint64 now)
{
  guint64 span = (guint64) self->trace_s * GST_SECOND;
  guint i;

  if (self->trace_retired == NULL)
    return;
  for (i = self->trace_retired->len; i > 0; i--) {
    GpPushesRetired *d = g_ptr_array_index (self->trace_retired, i - 1);

    if (gp_pushes_ring_newest (d->ring) + span < now)
      g_ptr_array_remove_index_fast (self->trace_retired, i - 1);
  }
  if (t->trace != NULL && t->trace->head > 0
      && gp_pushes_ring_newest (t->trace) + span >= now) {
    GpPushesRetired *d = g_new0 (GpPushesRetired, 1);

    d->tid = (guint64) MAX (t->tid, 0);
    g_strlcpy (d->name, t->name, sizeof d->name);
    d->ring = t->trace;
    t->trace = NULL;
    g_ptr_array_add (self->trace_retired, d);
  }
}

/* One ring as the collection read it: the entries it still held intact,
 * oldest first, before the span is applied. */
typedef struct
{
  guint64 tid;
  gchar name[GP_THREAD_NAME_BYTES];
  GpTraceSlice *copy;
  guint64 n;
  guint64 written;              /* every entry the thread wrote */
} GpPushesRead;

/* Copies @r's entries into @out: head first (acquire), the slots, then
 * head again; an entry the writer may have been overwriting meanwhile
 * (the one at the second head, whose slot held the entry a ring's length
 * before) goes.  Ordering (gp_pushes_record is the writer): the first
 * acquire load of head pairs with the writer's release store of head, so
 * the slots below it are whole; the acquire fence after the copy pairs
 * with the release fence the writer puts before it rewrites a slot, so a
 * copy that saw any store of entry h' (overwriting entry h' - slots) is
 * followed by a second head load of at least h', and the entries from
 * h' - slots on that the copy may hold torn are dropped. */
static void
gp_pushes_read_ring (GpTraceRing * r, GpPushesRead * out)
{
  guint64 slots = r->mask + 1;
  guint64 head = __atomic_load_n (&r->head, __ATOMIC_ACQUIRE);
  guint64 lo = head > slots ? head - slots : 0, valid, i, skip;
  GpTraceSlice *copy;

  copy = g_new (GpTraceSlice, head - lo);
  for (i = lo; i < head; i++)
    copy[i - lo] = r->slots[i & r->mask];
  __atomic_thread_fence (__ATOMIC_ACQUIRE);
  valid = __atomic_load_n (&r->head, __ATOMIC_ACQUIRE) + 1;
  valid = valid > slots ? valid - slots : 0;
  skip = valid > lo ? MIN (valid - lo, head - lo) : 0;
  memmove (copy, copy + skip, (head - lo - skip) * sizeof (GpTraceSlice));
  out->copy = copy;
  out->n = head - lo - skip;
  out->written = head;
}

/* Keeps the slices of @rd that started at or after @since and are whole
 * (ends after its start, an element with a name, a kind); the rest counts
 * as lost.  The slices' bytes, for the record. */
static GBytes *
gp_pushes_keep (GpPushesRead * rd, guint64 since, guint n_names,
    guint64 * lost)
{
  guint64 i, n = 0;

  for (i = 0; i < rd->n; i++) {
    const GpTraceSlice *s = &rd->copy[i];

    if (s->start >= since && s->end >= s->start && s->element < n_names
        && s->kind <= GP_TRACE_KIND_EVENT)
      rd->copy[n++] = *s;
  }
  *lost = rd->written - n;
  rd->n = 0;
  return g_bytes_new_take (g_steal_pointer (&rd->copy),
      n * sizeof (GpTraceSlice));
}

static void
gp_pushes_thread_name (GpThread * t, gchar name[GP_THREAD_NAME_BYTES])
{
  gchar path[64], *text = NULL;

  g_strlcpy (name, t->name, GP_THREAD_NAME_BYTES);
  g_snprintf (path, sizeof path, "/proc/self/task/%d/comm", t->tid);
  if (t->tid > 0 && !g_atomic_int_get (&t->exited)
      && g_file_get_contents (path, &text, NULL, NULL)) {
    g_strchomp (text);
    g_strlcpy (name, text, GP_THREAD_NAME_BYTES);
    g_free (text);
  }
}

/* Every ring, live threads' and retired ones', read into @reads. */
static void
gp_pushes_read_all (GstProfTracer * self, GArray * reads)
{
  GPtrArray *threads = g_ptr_array_new ();
  guint i;

  g_mutex_lock (&self->reg_lock);
  for (i = 0; i < self->threads->len; i++) {
    GpThread *t = g_ptr_array_index (self->threads, i);

    g_atomic_int_inc (&t->ref);
    g_ptr_array_add (threads, t);
  }
  g_mutex_unlock (&self->reg_lock);

  for (i = 0; i < threads->len; i++) {
    GpThread *t = g_ptr_array_index (threads, i);
    GpPushesRead rd = { 0, };

    if (t->trace == NULL || __atomic_load_n (&t->trace->head,
            __ATOMIC_ACQUIRE) == 0)
      continue;
    rd.tid = (guint64) MAX (t->tid, 0);
    gp_pushes_thread_name (t, rd.name);
    gp_pushes_read_ring (t->trace, &rd);
    g_array_append_val (reads, rd);
  }
  for (i = 0; i < self->trace_retired->len; i++) {
    GpPushesRetired *d = g_ptr_array_index (self->trace_retired, i);
    GpPushesRead rd = { 0, };

    rd.tid = d->tid;
    g_strlcpy (rd.name, d->name, sizeof rd.name);
    gp_pushes_read_ring (d->ring, &rd);
    g_array_append_val (reads, rd);
  }
  g_ptr_array_set_free_func (threads, (GDestroyNotify) gp_thread_unref);
  g_ptr_array_unref (threads);
}

/* The span's end: the newest return over every ring (each ring's entries
 * are in the order they returned). */
static guint64
gp_pushes_newest (GArray * reads)
{
  guint64 newest = 0;
  guint i;

  for (i = 0; i < reads->len; i++) {
    const GpPushesRead *rd = &g_array_index (reads, GpPushesRead, i);

    if (rd->n > 0)
      newest = MAX (newest, rd->copy[rd->n - 1].end);
  }
  return newest;
}

/* The `collect-trace` action: every thread's ring, as the gstprof-trace
 * record of gp-record.h; NULL when trace is off.  The rings first, the
 * names second, the span from the newest push. */
GstStructure *
gp_pushes_collect (GstProfTracer * self)
{
  GstStructure *s;
  GArray *reads;
  GValue list = G_VALUE_INIT;
  guint64 now, newest, since, span;
  guint i, n_names;

  if (!self->active || self->trace_s == 0)
    return NULL;
  g_rec_mutex_lock (&self->emit_lock);
  now = gp_now (self);
  reads = g_array_new (FALSE, TRUE, sizeof (GpPushesRead));
  gp_pushes_read_all (self, reads);
  s = gst_structure_new (GP_RECORD_TRACE, GP_TR_SECONDS, G_TYPE_UINT,
      self->trace_s, GP_TR_SLOTS, G_TYPE_UINT, self->trace_slots,
      GP_TR_NOW, G_TYPE_UINT64, now, NULL);
  n_names = gp_pushes_add_names (self, s);
  newest = gp_pushes_newest (reads);
  span = (guint64) self->trace_s * GST_SECOND;
  since = newest > span ? newest - span : 0;

  g_value_init (&list, GST_TYPE_LIST);
  for (i = 0; i < reads->len; i++) {
    GpPushesRead *rd = &g_array_index (reads, GpPushesRead, i);
    GstStructure *ts;
    GBytes *bytes;
    guint64 lost = 0;

    bytes = gp_pushes_keep (rd, since, n_names, &lost);
    ts = gst_structure_new (GP_RECORD_TRACE_THREAD,
        GP_TT_TID, G_TYPE_UINT64, rd->tid,
        GP_TT_NAME, G_TYPE_STRING, rd->name,
        GP_TT_SLICES, G_TYPE_BYTES, bytes, GP_TT_LOST, G_TYPE_UINT64, lost,
        NULL);
    g_bytes_unref (bytes);
    gp_list_take_structure (&list, ts);
  }
  gst_structure_take_value (s, GP_TR_THREADS, &list);
  g_rec_mutex_unlock (&self->emit_lock);
  g_array_unref (reads);
  return s;
}
