/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof tracer
 *
 * gstprofstate.c: creation, lifetime and topology of the tracer's per-object
 * state (see gstprofprivate.h for the ownership rules).  Everything here runs
 * off the hot path: the first time an object is seen, when a link changes,
 * or on the timer thread.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstprofprivate.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#ifdef __linux__
#include <errno.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

/* walks through bins never go deeper than this (a loop in a broken graph
 * must not hang a streaming thread) */
#define GP_MAX_WALK 64

static void gp_thread_exit_notify (gpointer data);
static GPrivate gp_thread_key = G_PRIVATE_INIT (gp_thread_exit_notify);

/* time */

guint64
gp_now (GstProfTracer * self)
{
  return gst_util_get_timestamp () - gp_load (&self->ts_offset);
}

/* The hooks' ts counts from gst_init's private start time, which GStreamer
 * does not export.  now - ts, read right after a hook fired, is that start
 * time plus the few hundred ns since the hook read the clock; the smallest
 * value seen is the best estimate, so the offset only ever shrinks (and the
 * timer's clock only ever moves forward). */
void
gp_calibrate (GstProfTracer * self, guint64 ts)
{
  guint64 off = gst_util_get_timestamp () - ts;
  guint64 cur = gp_load (&self->ts_offset);

  while (off < cur && !__atomic_compare_exchange_n (&self->ts_offset, &cur,
          off, TRUE, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
}

guint64
gp_thread_cpu_now (void)
{
  struct timespec t;

  if (clock_gettime (CLOCK_THREAD_CPUTIME_ID, &t) != 0)
    return 0;
  return (guint64) t.tv_sec * GST_SECOND + (guint64) t.tv_nsec;
}

/* CPU time of another thread of this process, read through the kernel's
 * per-thread CPU clock (what pthread_getcpuclockid () builds): no cost for
 * the measured thread. */
guint64
gp_tid_cpu (gint tid, gboolean * alive)
{
#ifdef __linux__
  struct timespec t;
  clockid_t cid = (clockid_t) ((gint) (~(guint) tid << 3) | 6);

  if (tid > 0 && clock_gettime (cid, &t) == 0) {
    *alive = TRUE;
    return (guint64) t.tv_sec * GST_SECOND + (guint64) t.tv_nsec;
  }
#endif
  *alive = FALSE;
  return 0;
}

#ifdef __linux__
/* Reads a small /proc file into @buf (NUL-terminated) without allocating;
 * FALSE when it cannot be read. */
gboolean
gp_read_small (const gchar * path, gchar * buf, gsize size)
{
  gssize n;
  gint fd;

  do
    fd = open (path, O_RDONLY | O_CLOEXEC);
  while (fd < 0 && errno == EINTR);
  if (fd < 0)
    return FALSE;
  do
    n = read (fd, buf, size - 1);
  while (n < 0 && errno == EINTR);
  close (fd);
  if (n <= 0)
    return FALSE;
  buf[n] = '\0';
  return TRUE;
}
#endif

/* How long thread @tid of this process has waited on a run queue, ready
 * to run while others had the CPU (the second field of its schedstat, ns);
 * FALSE where the kernel does not say (no CONFIG_SCHED_INFO, the thread
 * gone). */
gboolean
gp_tid_run_delay (gint tid, guint64 * run_delay)
{
#ifdef __linux__
  gchar path[64], buf[96];
  unsigned long long on_cpu, waited;

  if (tid <= 0)
    return FALSE;
  g_snprintf (path, sizeof path, "/proc/self/task/%d/schedstat", tid);
  if (gp_read_small (path, buf, sizeof buf)
      && sscanf (buf, "%llu %llu", &on_cpu, &waited) == 2) {
    *run_delay = waited;
    return TRUE;
  }
#endif
  return FALSE;
}

void
gp_topology_changed (GstProfTracer * self)
{
  g_atomic_int_inc (&self->topo_gen);
}

/* Whether @element has a property @name of type guint64. */
static gboolean
gp_has_u64_property (GstElement * element, const gchar * name)
{
  GParamSpec *spec = g_object_class_find_property (G_OBJECT_GET_CLASS
      (element), name);

  return spec != NULL && spec->value_type == G_TYPE_UINT64;
}

/* element kinds */

static gboolean
gp_type_is (GType type, const gchar * name)
{
  GType want = g_type_from_name (name);

  return want != 0 && g_type_is_a (type, want);
}

GpKind
gp_kind_of (GstElement * element, GpQueueType * qtype)
{
  GType type = G_OBJECT_TYPE (element);
  const gchar *klass;

  *qtype = GP_QUEUE_NONE;
  /* bins first: a bin carries the SOURCE/SINK flags of its children */
  if (GST_IS_BIN (element))
    return GP_KIND_BIN;
  /* by type name, not factory: subclasses and renamed factories count */
  if (gp_type_is (type, "GstQueue")) {
    *qtype = GP_QUEUE_QUEUE;
    return GP_KIND_QUEUE;
  }
  if (gp_type_is (type, "GstQueue2")) {
    *qtype = GP_QUEUE_QUEUE2;
    return GP_KIND_QUEUE;
  }
  if (gp_type_is (type, "GstMultiQueue")) {
    *qtype = GP_QUEUE_MULTI;
    return GP_KIND_QUEUE;
  }
  if (GST_OBJECT_FLAG_IS_SET (element, GST_ELEMENT_FLAG_SOURCE))
    return GP_KIND_SOURCE;
  if (GST_OBJECT_FLAG_IS_SET (element, GST_ELEMENT_FLAG_SINK))
    return GP_KIND_SINK;
  if (gp_type_is (type, "GstTee"))
    return GP_KIND_TEE;
  klass = gst_element_class_get_metadata (GST_ELEMENT_GET_CLASS (element),
      GST_ELEMENT_METADATA_KLASS);
  if (gp_type_is (type, "GstAggregator") || (klass
          && strstr (klass, "Muxer")))
    return GP_KIND_MUX;
  if (klass && strstr (klass, "Demux"))
    return GP_KIND_DEMUX;
  return GP_KIND_FILTER;
}

const gchar *
gp_kind_name (GpKind kind)
{
  static const gchar *names[] = { "filter", "source", "sink", "queue", "tee",
    "mux", "demux", "bin"
  };

  return names[kind];
}

/* A readable boolean property, FALSE with @has FALSE when there is none. */
static gboolean
gp_read_bool_prop (GstElement * element, const gchar * name, gboolean * has)
{
  GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS
      (element), name);
  gboolean v = FALSE;

  *has = pspec && (pspec->flags & G_PARAM_READABLE)
      && G_PARAM_SPEC_VALUE_TYPE (pspec) == G_TYPE_BOOLEAN;
  if (*has)
    g_object_get (element, name, &v, NULL);
  return v;
}

/* "is-live" is read here, never on the hot path: basesrc's getter takes the
 * object lock.  Called from element-change-state-post and from the first
 * root push of a source, where GStreamer holds no object lock.  Sources
 * without the property (udpsrc, v4l2src) answer a latency query with
 * whether they are live. */
void
gp_elem_read_live (GpElem * e, GstElement * element)
{
  gboolean has, live = FALSE;

  if (!e->is_source) {
    g_atomic_int_set (&e->live, 0);
    return;
  }
  live = gp_read_bool_prop (element, "is-live", &has);
  if (!has) {
    GstQuery *q = gst_query_new_latency ();

    if (gst_element_query (element, q))
      gst_query_parse_latency (q, &live, NULL, NULL);
    gst_query_unref (q);
  }
  g_atomic_int_set (&e->live, live ? 1 : 0);
}

/* The top-level bin above @o, or @o when it has no parent (a ref). */
static GstObject *
gp_top_of (GstObject * o)
{
  GstObject *cur = gst_object_ref (o), *up;
  guint i;

  for (i = 0; i < GP_MAX_WALK && (up = gst_object_get_parent (cur)); i++) {
    gst_object_unref (cur);
    cur = up;
  }
  return cur;
}

/* A live source, @element, marks the top-level bin it is in: that
 * pipeline's links measure lateness against its clock (gp_link_late); a
 * pipeline beside it with no live source has no real time to fall behind.
 * The first mark of a bin bumps live_gen, so that its pads look again. */
void
gp_mark_live_top (GstProfTracer * self, GstElement * element)
{
  GstObject *top = gp_top_of (GST_OBJECT (element));

  g_mutex_lock (&self->state_lock);
  if (g_object_get_qdata ((GObject *) top, self->q_live) == NULL) {
    g_object_set_qdata ((GObject *) top, self->q_live, GINT_TO_POINTER (1));
    g_atomic_int_inc (&self->live_gen);
  }
  g_mutex_unlock (&self->state_lock);
  gst_object_unref (top);
}

/* Whether the top-level bin above @pad was marked live: 1 or 0, -1 when
 * an object on the way was locked.  Called by the thread that pushes on
 * @pad, which may hold its element's lock: each lock is tried, never
 * waited for (as gp_link_late), and the pad asks again at its next
 * buffer. */
gint
gp_pad_in_live_top (GstProfTracer * self, GstPad * pad)
{
  GstObject *cur = gst_object_ref (GST_OBJECT (pad)), *up = NULL;
  gint live = -1;
  guint i;

  for (i = 0; i < GP_MAX_WALK; i++) {
    if (!g_mutex_trylock (GST_OBJECT_GET_LOCK (cur)))
      break;
    up = GST_OBJECT_PARENT (cur) ? gst_object_ref (GST_OBJECT_PARENT (cur)) :
        NULL;
    GST_OBJECT_UNLOCK (cur);
    if (up == NULL) {
      live = g_object_get_qdata ((GObject *) cur, self->q_live) != NULL;
      break;
    }
    gst_object_unref (cur);
    cur = up;
  }
  gst_object_unref (cur);
  return live;
}

/* A filter that syncs buffers to the clock (identity sync=true) waits in
 * its chain like a sink: read when it goes to PAUSED. */
void
gp_elem_read_split (GpElem * e, GstElement * element)
{
  gboolean has, sync;

  if (e->kind != GP_KIND_FILTER)
    return;
  sync = gp_read_bool_prop (element, "sync", &has);
  if (has)
    e->split = sync;
}

/* refcounting */

GpElem *
gp_elem_ref (GpElem * e)
{
  g_atomic_int_inc (&e->ref);
  return e;
}

static void
gp_lat_unref (GpLat * l)
{
  if (g_atomic_int_dec_and_test (&l->ref)) {
    gp_pad_unref (l->origin);
    g_free (l);
  }
}

/* drops the latency pairs (and through them the origin pads) */
void
gp_elem_release_links (GpElem * e)
{
  GPtrArray *old;
  guint i;

  g_mutex_lock (&e->lat_lock);
  old = e->lat;
  e->lat = g_ptr_array_new ();
  g_mutex_unlock (&e->lat_lock);
  for (i = 0; i < old->len; i++)
    gp_lat_unref (g_ptr_array_index (old, i));
  g_ptr_array_unref (old);
}

void
gp_elem_unref (GpElem * e)
{
  if (!g_atomic_int_dec_and_test (&e->ref))
    return;
  g_weak_ref_clear (&e->obj);
  gp_elem_release_links (e);
  g_ptr_array_unref (e->lat);
  g_mutex_clear (&e->lat_lock);
  g_free (e->q);
  g_free (e->factory);
  g_free (e->name);
  g_free (e->top_name);
  g_free (e->nvtx_name);
  g_free (e);
}

GpPad *
gp_pad_ref (GpPad * p)
{
  g_atomic_int_inc (&p->ref);
  return p;
}

void
gp_pad_release_links (GpPad * p)
{
  guint i;

  if (p->peer_state)
    gp_pad_unref (p->peer_state);
  p->peer_state = NULL;
  p->peer = NULL;
  if (p->deq)
    gp_pad_unref (p->deq);
  p->deq = NULL;
  for (i = 0; i < p->n_lat; i++) {
    gp_lat_unref (p->lat[i]);
    if (p->lat_merge[i])
      gp_pad_unref (p->lat_merge[i]);
  }
  g_free (p->lat);
  g_free (p->lat_tab);
  g_free (p->lat_merge);
  p->lat = NULL;
  p->lat_tab = NULL;
  p->lat_merge = NULL;
  p->n_lat = 0;
}

void
gp_pad_unref (GpPad * p)
{
  if (!g_atomic_int_dec_and_test (&p->ref))
    return;
  gp_pad_release_links (p);
  /* a marker left on the peer (gp_probe_recheck) stays: the timer takes
   * no pad's lock under its own, and the marker does nothing for a push
   * that is not this pad's */
  g_weak_ref_clear (&p->probe_pad);
  g_weak_ref_clear (&p->obj);
  if (p->elem)
    gp_elem_unref (p->elem);
  g_mutex_clear (&p->lock);
  g_free (p->caps);
  g_free (p->memory);
  g_free (p->origin);
  g_free (p->merge);
  g_free (p->ring);
  g_free (p->q);
  g_free (p->name);
  g_free (p->link_sink);
  g_free (p);
}

/* The destroy notifies run when the object is finalized: nothing can push
 * through it any more.  They only mark the state; the timer reports it a last
 * time and then drops the registry's ref (gp_state_retire). */
static void
gp_elem_dead_notify (gpointer data)
{
  GpElem *e = data;

  g_atomic_int_set (&e->dead, 1);
  gp_elem_unref (e);
}

static void
gp_pad_dead_notify (gpointer data)
{
  GpPad *p = data;

  g_atomic_int_set (&p->dead, 1);
  gp_pad_unref (p);
}

/* "element.pad", the element by its record name (@e: its state, or NULL
 * for a pad of none or of a bin). Unlocked reads of the object names, as
 * the core tracers do. */
static gchar *
gp_pad_name_of (GstProfTracer * self, GpElem * e, GstObject * parent,
    GstPad * pad)
{
  gchar *ename, *name;

  if (e == NULL && parent != NULL && GST_IS_ELEMENT (parent))
    ename = gp_elem_dup_name (self, GST_ELEMENT (parent));
  else if (e != NULL) {
    g_mutex_lock (&self->names_lock);
    ename = g_strdup (e->name ? e->name : "");
    g_mutex_unlock (&self->names_lock);
  } else
    ename = g_strdup ("");
  name = g_strdup_printf ("%s.%s", ename, GST_OBJECT_NAME (pad));
  g_free (ename);
  return name;
}

/* creation (state_lock held) */

static GpElem *
gp_elem_get_locked (GstProfTracer * self, GstElement * element)
{
  GpElem *e = g_object_get_qdata ((GObject *) element, self->q_elem);
  GstElementFactory *factory;

  if (e)
    return e;

  e = g_new0 (GpElem, 1);
  e->ref = 2;                   /* qdata + registry */
  g_weak_ref_init (&e->obj, element);
  e->raw = element;
  e->kind = gp_kind_of (element, &e->qtype);
  /* a queue of its own, told by its properties (appsrc) */
  e->own_level = e->qtype == GP_QUEUE_NONE &&
      gp_has_u64_property (element, "current-level-bytes") &&
      gp_has_u64_property (element, "max-bytes");
  e->is_bin = GST_IS_BIN (element);
  e->is_source = e->kind == GP_KIND_SOURCE;
  e->is_sink = e->kind == GP_KIND_SINK;
  {
    const gchar *klass = gst_element_class_get_metadata
        (GST_ELEMENT_GET_CLASS (element), GST_ELEMENT_METADATA_KLASS);

    e->is_muxer = klass && strstr (klass, "Muxer");
  }
  e->live = e->is_source ? -1 : 0;
  factory = gst_element_get_factory (element);
  e->factory = g_strdup (factory ? GST_OBJECT_NAME (factory) :
      G_OBJECT_TYPE_NAME (element));
  /* unlocked read, as the core tracers do: elements are not renamed while
   * data flows, and the timer refreshes it under the lock */
  e->name = g_strdup (GST_OBJECT_NAME (element));
  if (self->nvtx)
    e->nvtx_name = g_strdup (GST_OBJECT_NAME (element));
  e->leaky = "no";
  /* sinks wait for their clock and their preroll, aggregators' and muxers'
   * inputs for the output thread or the other inputs */
  e->split = e->kind == GP_KIND_SINK || e->kind == GP_KIND_MUX;
  e->frame_wait.cpu = 1;
  e->gap_wait.cpu = 1;
  if (e->qtype == GP_QUEUE_QUEUE || e->qtype == GP_QUEUE_QUEUE2)
    e->q = g_new0 (GpQueueAcc, 1);
  g_mutex_init (&e->lat_lock);
  e->lat = g_ptr_array_new ();
  gp_pushes_add_elem (self, e);
  g_object_set_qdata_full ((GObject *) element, self->q_elem, e,
      gp_elem_dead_notify);

  g_mutex_lock (&self->reg_lock);
  g_ptr_array_add (self->elems, e);
  g_mutex_unlock (&self->reg_lock);

  GST_DEBUG_OBJECT (self, "new element state for %s (%s, %s)", e->name,
      e->factory, gp_kind_name (e->kind));
  return e;
}

static GpPad *
gp_pad_get_locked (GstProfTracer * self, GstPad * pad)
{
  GpPad *p = g_object_get_qdata ((GObject *) pad, self->q_pad);
  GstObject *parent;

  if (p)
    return p;

  p = g_new0 (GpPad, 1);
  p->ref = 2;                   /* qdata + registry */
  g_weak_ref_init (&p->obj, pad);
  g_weak_ref_init (&p->probe_pad, NULL);
  p->raw = pad;
  p->is_src = GST_PAD_IS_SRC (pad);
  p->is_proxy = GST_IS_PROXY_PAD (pad);
  g_mutex_init (&p->lock);
  p->lat_gen = -1;
  parent = GST_OBJECT_PARENT (pad);
  if (!p->is_proxy && parent && GST_IS_ELEMENT (parent)) {
    p->elem = gp_elem_ref (gp_elem_get_locked (self, GST_ELEMENT (parent)));
    if (!p->is_src && p->elem->qtype != GP_QUEUE_NONE)
      p->ring = g_new0 (GpRing, 1);
    if (!p->is_src && p->elem->qtype == GP_QUEUE_MULTI)
      p->q = g_new0 (GpQueueAcc, 1);
  }
  /* named now (unlocked, as the core tracers do), so that a pad that dies
   * before the next window is still reported by name; the timer refreshes
   * it while the pad lives */
  p->name = gp_pad_name_of (self, p->elem, parent, pad);
  g_object_set_qdata_full ((GObject *) pad, self->q_pad, p,
      gp_pad_dead_notify);

  g_mutex_lock (&self->reg_lock);
  g_ptr_array_add (self->pads, p);
  g_mutex_unlock (&self->reg_lock);
  return p;
}

GpElem *
gp_elem_get (GstProfTracer * self, GstElement * element)
{
  GpElem *e = g_object_get_qdata ((GObject *) element, self->q_elem);

  if (G_LIKELY (e))
    return e;
  g_mutex_lock (&self->state_lock);
  e = gp_elem_get_locked (self, element);
  g_mutex_unlock (&self->state_lock);
  return e;
}

GpPad *
gp_pad_get (GstProfTracer * self, GstPad * pad)
{
  GpPad *p = g_object_get_qdata ((GObject *) pad, self->q_pad);

  if (G_LIKELY (p))
    return p;
  g_mutex_lock (&self->state_lock);
  p = gp_pad_get_locked (self, pad);
  g_mutex_unlock (&self->state_lock);
  return p;
}

/* Called by the thread pushing on (or pulling through) ps's pad when
 * GST_PAD_PEER no longer matches the cached peer.  Only that thread reads
 * the cache, so publishing without a lock is fine; the old peer's state stays
 * alive through the registry's ref for at least a window. */
void
gp_pad_refresh_peer (GstProfTracer * self, GpPad * ps, GstPad * peer)
{
  GpPad *old, *nstate = NULL;
  gboolean pass = FALSE;

  g_mutex_lock (&self->state_lock);
  old = ps->peer_state;
  if (peer) {
    if (GST_IS_PROXY_PAD (peer))
      pass = TRUE;
    else
      nstate = gp_pad_ref (gp_pad_get_locked (self, peer));
  }
  /* a pad created before it had a parent learns it now */
  if (!ps->elem && !ps->is_proxy && GST_OBJECT_PARENT (ps->raw)
      && GST_IS_ELEMENT (GST_OBJECT_PARENT (ps->raw))) {
    GstObject *parent = GST_OBJECT_PARENT (ps->raw);
    gchar *name;

    ps->elem = gp_elem_ref (gp_elem_get_locked (self, GST_ELEMENT (parent)));
    name = gp_pad_name_of (self, ps->elem, parent, ps->raw);
    g_mutex_lock (&ps->lock);
    g_free (ps->name);
    ps->name = name;
    g_mutex_unlock (&ps->lock);
  }
  ps->peer_state = nstate;
  ps->peer_pass = pass;
  ps->peer = peer;
  g_mutex_unlock (&self->state_lock);
  if (old)
    gp_pad_unref (old);
}

/* The src pad of a queue drains the ring of its sink pad: "sink" for queue
 * and queue2, "sink_N" for multiqueue's "src_N".  Runs once per src pad, on
 * the queue's own thread, which holds no object lock here. */
void
gp_pad_resolve_deq (GstProfTracer * self, GpPad * ps, GstPad * srcpad)
{
  GstObject *parent = GST_OBJECT_PARENT (srcpad);
  GstPad *sinkpad = NULL;

  ps->deq_resolved = TRUE;
  if (!parent || !GST_IS_ELEMENT (parent) || !ps->elem)
    return;
  if (ps->elem->qtype == GP_QUEUE_MULTI) {
    const gchar *name = GST_OBJECT_NAME (srcpad);

    if (name && g_str_has_prefix (name, "src_")) {
      gchar *sname = g_strconcat ("sink_", name + 4, NULL);

      sinkpad = gst_element_get_static_pad (GST_ELEMENT (parent), sname);
      g_free (sname);
    }
  } else {
    sinkpad = gst_element_get_static_pad (GST_ELEMENT (parent), "sink");
  }
  if (!sinkpad)
    return;
  ps->deq = gp_pad_ref (gp_pad_get (self, sinkpad));
  gst_object_unref (sinkpad);
}

void
gp_pad_make_origin (GstProfTracer * self, GpPad * ps)
{
  GpOrigin *o = g_atomic_pointer_get (&ps->origin);

  if (!o) {
    o = g_new0 (GpOrigin, 1);
    /* published by a sequentially consistent CAS (a release), read by
     * g_atomic_pointer_get (an acquire): a thread that finds the pointer
     * finds the zeroed table */
    if (!g_atomic_pointer_compare_and_exchange (&ps->origin, NULL, o)) {
      g_free (o);
    }
  }
  g_atomic_int_set (&ps->origin_active, 1);
  /* downstream elements must learn about the new origin */
  gp_topology_changed (self);
  GST_DEBUG_OBJECT (self, "new latency origin %s:%s",
      GST_DEBUG_PAD_NAME (ps->raw));
}

/* topology walks (may lock pads and elements: never called from a hook that
 * GStreamer may call with an object lock held) */

/* The real element pad linked to @pad, through ghost and proxy pads, in
 * either direction: a ghost pad leads to its target inside the bin, the
 * internal pad of a ghost pad leads out of the bin to the ghost's peer.
 * Returns a ref or NULL. */
static GstPad *
gp_pad_peer_real (GstPad * pad)
{
  GstPad *p = gst_pad_get_peer (pad);
  guint i;

  for (i = 0; p && GST_IS_PROXY_PAD (p) && i < GP_MAX_WALK; i++) {
    GstPad *next;

    if (GST_IS_GHOST_PAD (p)) {
      next = gst_ghost_pad_get_target (GST_GHOST_PAD (p));
    } else {
      GstProxyPad *ghost = gst_proxy_pad_get_internal (GST_PROXY_PAD (p));

      next = ghost ? gst_pad_get_peer (GST_PAD (ghost)) : NULL;
      if (ghost)
        gst_object_unref (ghost);
    }
    gst_object_unref (p);
    p = next;
  }
  if (p && GST_IS_PROXY_PAD (p)) {
    gst_object_unref (p);
    p = NULL;
  }
  return p;
}

/* The real element pad feeding @sinkpad. Returns a ref or NULL. */
GstPad *
gp_pad_upstream_real (GstPad * sinkpad)
{
  return gp_pad_peer_real (sinkpad);
}

/* The real element pad that receives what @srcpad pushes. Returns a ref or
 * NULL. */
GstPad *
gp_pad_downstream_real (GstPad * srcpad)
{
  return gp_pad_peer_real (srcpad);
}

gchar *
gp_pad_dup_name (GpPad * p)
{
  gchar *name;

  g_mutex_lock (&p->lock);
  name = g_strdup (p->name ? p->name : "");
  g_mutex_unlock (&p->lock);
  return name;
}

GstElement *
gp_pad_real_parent (GstPad * pad)
{
  GstObject *parent = gst_pad_get_parent (pad);

  if (parent && !GST_IS_ELEMENT (parent)) {
    gst_object_unref (parent);
    return NULL;
  }
  return (GstElement *) parent;
}

gchar *
gp_elem_dup_name (GstProfTracer * self, GstElement * element)
{
  GpElem *e = g_object_get_qdata ((GObject *) element, self->q_elem);
  gchar *name = NULL;

  if (e != NULL) {
    g_mutex_lock (&self->names_lock);
    name = g_strdup (e->name);
    g_mutex_unlock (&self->names_lock);
  }
  return name ? name : g_strdup (GST_OBJECT_NAME (element));
}

/* The name of the top-level bin @o in records: its own, or "name#N" when
 * it was the Nth live top-level bin of that name (gp_names_number). */
static gchar *
gp_names_top (GstProfTracer * self, GstObject * o)
{
  GpElem *e = g_object_get_qdata ((GObject *) o, self->q_elem);
  gchar *name = gst_object_get_name (o), *numbered;

  if (e == NULL || e->top_n <= 1 || name == NULL)
    return name;
  numbered = g_strdup_printf ("%s#%u", name, e->top_n);
  g_free (name);
  return numbered;
}

/* "top/bin/name", from the top-level bin down. */
static gchar *
gp_elem_path (GstProfTracer * self, GstObject * o)
{
  GPtrArray *parts = g_ptr_array_new_with_free_func (g_free);
  GstObject *cur = gst_object_ref (o);
  GString *path = g_string_new (NULL);
  guint i;

  for (i = 0; cur != NULL && i < GP_MAX_WALK; i++) {
    GstObject *up = gst_object_get_parent (cur);

    g_ptr_array_add (parts, up ? gst_object_get_name (cur) :
        gp_names_top (self, cur));
    gst_object_unref (cur);
    cur = up;
  }
  if (cur != NULL)
    gst_object_unref (cur);
  for (i = parts->len; i > 0; i--)
    g_string_append_printf (path, "%s%s", path->len ? "/" : "",
        (const gchar *) g_ptr_array_index (parts, i - 1));
  g_ptr_array_unref (parts);
  return g_string_free (path, FALSE);
}

static gboolean
gp_names_taken (GPtrArray * group, guint n)
{
  guint i;

  for (i = 0; i < group->len; i++)
    if (((GpElem *) g_ptr_array_index (group, i))->top_n == n)
      return TRUE;
  return FALSE;
}

/* Top-level bins that share a name (two gst_pipeline_new ("player")):
 * each keeps the number it was given while it keeps its name, and one not
 * numbered yet (or renamed since: gst_parse_launch's "pipeline0" named
 * "player" by the program) takes the smallest that no other live one of
 * its name has, in the order they were registered: the first "player",
 * the next "player#2". @objs and @plain are the live objects of @elems and
 * their names. */
static void
gp_names_number (GPtrArray * elems, GPtrArray * objs, gchar ** plain)
{
  GHashTable *groups = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
      (GDestroyNotify) g_ptr_array_unref);
  GHashTableIter it;
  GPtrArray *group;
  guint i;

  for (i = 0; i < elems->len; i++) {
    GstObject *o = g_ptr_array_index (objs, i);
    GstObject *parent;
    GpElem *e;

    if (o == NULL || plain[i] == NULL || !GST_IS_BIN (o))
      continue;
    parent = gst_object_get_parent (o);
    if (parent != NULL) {
      gst_object_unref (parent);
      continue;
    }
    e = g_ptr_array_index (elems, i);
    if (g_strcmp0 (e->top_name, plain[i]) != 0) {
      e->top_n = 0;
      g_free (e->top_name);
      e->top_name = g_strdup (plain[i]);
    }
    group = g_hash_table_lookup (groups, plain[i]);
    if (group == NULL) {
      group = g_ptr_array_new ();
      g_hash_table_insert (groups, plain[i], group);
    }
    g_ptr_array_add (group, e);
  }
  g_hash_table_iter_init (&it, groups);
  while (g_hash_table_iter_next (&it, NULL, (gpointer *) & group)) {
    for (i = 0; i < group->len; i++) {
      GpElem *e = g_ptr_array_index (group, i);
      guint n = 1;

      if (e->top_n != 0)
        continue;
      while (gp_names_taken (group, n))
        n++;
      e->top_n = n;
    }
  }
  g_hash_table_unref (groups);
}

void
gp_names_refresh (GstProfTracer * self)
{
  GHashTable *count = g_hash_table_new (g_str_hash, g_str_equal);
  GPtrArray *elems, *objs;
  gchar **plain;
  guint i;

  g_mutex_lock (&self->reg_lock);
  elems = g_ptr_array_new_full (self->elems->len,
      (GDestroyNotify) gp_elem_unref);
  for (i = 0; i < self->elems->len; i++)
    g_ptr_array_add (elems, gp_elem_ref (g_ptr_array_index (self->elems, i)));
  g_mutex_unlock (&self->reg_lock);

  /* the plain names of the live elements, and how many have each */
  objs = g_ptr_array_new_full (elems->len, NULL);
  plain = g_new0 (gchar *, elems->len + 1);
  for (i = 0; i < elems->len; i++) {
    GpElem *e = g_ptr_array_index (elems, i);
    GstObject *o = g_weak_ref_get (&e->obj);

    g_ptr_array_add (objs, o);
    if (o == NULL) {
      g_atomic_int_set (&e->dead, 1);
      continue;
    }
    plain[i] = gst_object_get_name (o);
    if (plain[i] != NULL)
      g_hash_table_insert (count, plain[i], GUINT_TO_POINTER
          (GPOINTER_TO_UINT (g_hash_table_lookup (count, plain[i])) + 1));
  }
  gp_names_number (elems, objs, plain);
  for (i = 0; i < elems->len; i++) {
    GpElem *e = g_ptr_array_index (elems, i);
    GstObject *o = g_ptr_array_index (objs, i);
    gchar *name;

    if (o == NULL || plain[i] == NULL)
      continue;
    if (GPOINTER_TO_UINT (g_hash_table_lookup (count, plain[i])) > 1)
      e->pathed = TRUE;
    name = e->pathed || e->top_n > 1 ? gp_elem_path (self, o) :
        g_strdup (plain[i]);
    if (g_strcmp0 (name, e->name) != 0) {
      gchar *old;

      g_mutex_lock (&self->names_lock);
      old = e->name;
      e->name = name;
      name = old;
      g_mutex_unlock (&self->names_lock);
    }
    g_free (name);
  }
  g_hash_table_unref (count);
  for (i = 0; i < objs->len; i++)
    if (g_ptr_array_index (objs, i) != NULL)
      gst_object_unref (g_ptr_array_index (objs, i));
  /* not g_strfreev: a dead element's name is a NULL hole in @plain, and
   * the names after it would leak */
  for (i = 0; i < elems->len; i++)
    g_free (plain[i]);
  g_free (plain);
  g_ptr_array_unref (objs);
  g_ptr_array_unref (elems);
}

gchar *
gp_pad_full_name (GstProfTracer * self, GstPad * pad)
{
  GstObject *parent = gst_object_get_parent (GST_OBJECT (pad));
  gchar *pname = gst_object_get_name (GST_OBJECT (pad));
  gchar *ename = parent == NULL ? NULL : GST_IS_ELEMENT (parent) ?
      gp_elem_dup_name (self, GST_ELEMENT (parent)) :
      gst_object_get_name (parent);
  gchar *full = g_strdup_printf ("%s.%s", ename ? ename : "", pname ?
      pname : "");

  if (parent)
    gst_object_unref (parent);
  g_free (pname);
  g_free (ename);
  return full;
}

/* The sink pads whose data leaves by @src, stream by stream: the
 * element's internal links (multiqueue's src_N is fed by sink_N only,
 * input-selector's src by its active pad), which by default are all its
 * sink pads (an aggregator mixes them all).  A list of refs. */
static GList *
gp_pad_internal_sinks (GstPad * src)
{
  GstIterator *it = gst_pad_iterate_internal_links (src);
  GValue v = G_VALUE_INIT;
  GList *sinks = NULL;
  gboolean done = FALSE;

  while (it && !done) {
    switch (gst_iterator_next (it, &v)) {
      case GST_ITERATOR_OK:
        sinks = g_list_prepend (sinks, g_value_dup_object (&v));
        g_value_reset (&v);
        break;
      case GST_ITERATOR_RESYNC:
        g_list_free_full (sinks, gst_object_unref);
        sinks = NULL;
        gst_iterator_resync (it);
        break;
      default:
        done = TRUE;
        break;
    }
  }
  g_value_unset (&v);
  if (it)
    gst_iterator_free (it);
  return sinks;
}

/* An origin found upstream of a sink pad, and the sink pad of the nearest
 * merging element on the way (NULL: none). */
typedef struct
{
  GpPad *origin;                /* ref */
  GpPad *merge;                 /* ref or NULL */
} GpOriginWay;

/* The input table of a merging element's sink pad, made at the first
 * need (a topology walk, or a muxer's first input). */
GpMergeTab *
gp_pad_merge_tab (GpPad * p)
{
  GpMergeTab *t = g_atomic_pointer_get (&p->merge);

  if (!t) {
    t = g_new0 (GpMergeTab, 1);
    t->packs = p->elem && p->elem->is_muxer;
    /* as the origin table: the CAS publishes (release) what was set
     * above to whoever finds the pointer by g_atomic_pointer_get
     * (acquire) */
    if (!g_atomic_pointer_compare_and_exchange (&p->merge, NULL, t)) {
      g_free (t);
      t = g_atomic_pointer_get (&p->merge);
    }
  }
  return t;
}

static void
gp_collect_origins (GstProfTracer * self, GstPad * sinkpad, GArray * out,
    GHashTable * visited, GpPad * merge, guint depth)
{
  GstPad *src;
  GpPad *ps;
  GstElement *el;
  GList *sinks = NULL, *l;

  if (depth > GP_MAX_WALK)
    return;
  src = gp_pad_upstream_real (sinkpad);
  if (!src)
    return;
  if (g_hash_table_contains (visited, src)) {
    gst_object_unref (src);
    return;
  }
  g_hash_table_add (visited, src);

  ps = g_object_get_qdata ((GObject *) src, self->q_pad);
  if (ps && g_atomic_pointer_get (&ps->origin)
      && g_atomic_int_get (&ps->origin_active)) {
    GpOriginWay way = { gp_pad_ref (ps), merge ? gp_pad_ref (merge) : NULL };

    g_array_append_val (out, way);
  }

  el = gp_pad_real_parent (src);
  if (el) {
    sinks = gp_pad_internal_sinks (src);
    for (l = sinks; l; l = l->next) {
      GpPad *m = merge;

      /* the nearest element where streams merge: its inputs tell which
       * stream a buffer below it belongs to; a muxer of one stream too
       * (its own headers are nobody's, its output may be re-based) */
      if (!merge && (sinks->next || (ps && ps->elem && ps->elem->is_muxer))) {
        m = gp_pad_get (self, l->data);
        gp_pad_merge_tab (m);
      }
      gp_collect_origins (self, l->data, out, visited, m, depth + 1);
    }
    g_list_free_full (sinks, gst_object_unref);
    gst_object_unref (el);
  }
  /* visited keeps pointers only for identity; the pad may go now */
  gst_object_unref (src);
}

/* Recomputes the origins upstream of a sink pad and the (origin, element)
 * accumulators its buffers feed.  Runs on the thread that pushes into the
 * pad, when the topology generation moved; allocation is fine here. */
void
gp_pad_update_lat (GstProfTracer * self, GpPad * sink, gint gen)
{
  GArray *ways = g_array_new (FALSE, FALSE, sizeof (GpOriginWay));
  GHashTable *visited = g_hash_table_new (NULL, NULL);
  GpLat **nlat = NULL;
  GpOrigin **ntab = NULL;
  GpPad **nmerge = NULL;
  guint i, j, n = 0;
  GpElem *e = sink->elem;

  if (e && !sink->is_src)
    gp_collect_origins (self, sink->raw, ways, visited, NULL, 0);
  g_hash_table_unref (visited);

  if (ways->len) {
    nlat = g_new0 (GpLat *, ways->len);
    ntab = g_new0 (GpOrigin *, ways->len);
    nmerge = g_new0 (GpPad *, ways->len);
  }
  for (i = 0; i < ways->len; i++) {
    GpOriginWay *way = &g_array_index (ways, GpOriginWay, i);
    GpPad *o = way->origin;
    GpLat *l = NULL;

    /* an element never measures its own output */
    if (o->elem != e) {
      g_mutex_lock (&e->lat_lock);
      for (j = 0; j < e->lat->len; j++) {
        GpLat *c = g_ptr_array_index (e->lat, j);

        if (c->origin == o) {
          l = c;
          break;
        }
      }
      if (!l) {
        l = g_new0 (GpLat, 1);
        l->ref = 1;
        l->origin = gp_pad_ref (o);
        g_ptr_array_add (e->lat, l);
      }
      g_atomic_int_inc (&l->ref);
      g_mutex_unlock (&e->lat_lock);
      nlat[n] = l;
      ntab[n] = g_atomic_pointer_get (&o->origin);
      /* a ref: the merging pad's table lives as long as its state */
      nmerge[n] = way->merge ? gp_pad_ref (way->merge) : NULL;
      n++;
    }
    gp_pad_unref (o);
    if (way->merge)
      gp_pad_unref (way->merge);
  }
  g_array_unref (ways);

  for (i = 0; i < sink->n_lat; i++) {
    gp_lat_unref (sink->lat[i]);
    if (sink->lat_merge[i])
      gp_pad_unref (sink->lat_merge[i]);
  }
  g_free (sink->lat);
  g_free (sink->lat_tab);
  g_free (sink->lat_merge);
  sink->lat = nlat;
  sink->lat_tab = ntab;
  sink->lat_merge = nmerge;
  sink->n_lat = n;
  sink->lat_gen = gen;
}

/* caps */

void
gp_caps_describe (GstCaps * caps, gchar ** caps_str, gchar ** memory)
{
  const gchar *mem = "system";
  GstCapsFeatures *f;
  guint i;

  *caps_str = gst_caps_to_string (caps);
  if (gst_caps_get_size (caps) > 0) {
    f = gst_caps_get_features (caps, 0);
    if (f && !gst_caps_features_is_any (f)) {
      for (i = 0; i < gst_caps_features_get_size (f); i++) {
        const gchar *n = gst_caps_features_get_nth (f, i);

        if (g_str_has_prefix (n, "memory:")
            && strcmp (n, GST_CAPS_FEATURE_MEMORY_SYSTEM_MEMORY) != 0) {
          mem = n;
          break;
        }
      }
    }
  }
  *memory = g_strdup (mem);
}

/* threads */

GpThread *
gp_thread_new (GstProfTracer * self)
{
  GpThread *t = g_new0 (GpThread, 1);

  t->ref = 2;                   /* GPrivate + registry */
#ifdef __linux__
  t->tid = (gint) syscall (SYS_gettid);
#endif
  /* the timer's first delta starts from here, so CPU the thread spent
   * before it first met a hook is not charged to the first window */
  t->cpu_last = gp_thread_cpu_now ();
  t->run_delay_known = gp_tid_run_delay (t->tid, &t->run_delay_last);
  if (self->trace_s > 0)
    t->trace = gp_pushes_ring_new (self);
  g_private_set (&gp_thread_key, t);

  g_mutex_lock (&self->reg_lock);
  g_ptr_array_add (self->threads, t);
  g_mutex_unlock (&self->reg_lock);
  return t;
}

GpThread *
gp_thread_peek (void)
{
  return g_private_get (&gp_thread_key);
}

GpThread *
gp_thread_current (GstProfTracer * self)
{
  GpThread *t = g_private_get (&gp_thread_key);

  if (G_UNLIKELY (t == NULL))
    t = gp_thread_new (self);
  return t;
}

void
gp_thread_unref (GpThread * t)
{
  guint i;

  if (!g_atomic_int_dec_and_test (&t->ref))
    return;
  for (i = 0; i < GP_THREAD_ELEMS; i++)
    if (t->elems[i].elem)
      gp_elem_unref (t->elems[i].elem);
  if (t->refused)
    gst_object_unref (t->refused);
  g_free (t->trace);
  g_free (t);
}

/* runs on the exiting thread itself: the last chance to read its clock */
static void
gp_thread_exit_notify (gpointer data)
{
  GpThread *t = data;

  t->cpu_at_exit = gp_thread_cpu_now ();
  t->run_delay_exit_known = t->run_delay_known &&
      gp_tid_run_delay (t->tid, &t->run_delay_at_exit);
  g_atomic_int_set (&t->exited, 1);
  gp_thread_unref (t);
}

/* First time @e ran on @t (the inline fast path missed): find or claim a
 * slot.  The timer reads slots concurrently: the window is stored before
 * the element pointer is published. */
void
gp_thread_add_elem (GstProfTracer * self, GpThread * t, GpElem * e)
{
  guint h = (guint) (((guintptr) e >> 6) % GP_THREAD_ELEMS);
  guint64 win = gp_load (&self->win_index);
  guint i;

  for (i = 0; i < GP_THREAD_ELEMS; i++) {
    GpThreadElem *s = &t->elems[(h + i) % GP_THREAD_ELEMS];

    if (s->elem == e) {
      gp_store (&s->win, win);
      return;
    }
    if (s->elem == NULL) {
      gp_store (&s->win, win);
      /* release: the slot's win and the element's state (made under
       * gp_state_lock in another thread, seen here through the hot path)
       * are visible to the timer's acquire load in gp_add_threads */
      __atomic_store_n (&s->elem, gp_elem_ref (e), __ATOMIC_RELEASE);
      return;
    }
  }
  /* full: this thread ran more distinct elements than we keep */
}
