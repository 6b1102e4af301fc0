/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof tracer
 *
 * gstproftracer.c: the "gstprof" tracer: hooks and accumulators.
 */
/**
 * SECTION:tracer-gstprof
 * @short_description: per-window pipeline profile: exclusive time per
 * element, link rates, queues, latency, threads and events
 *
 * The gstprof tracer measures where a pipeline's time goes and hands the
 * result to the application, one record per window, through the `window`
 * signal.  It never formats or logs records itself: the application (the
 * `gstprof` command, or your own program) folds the windows.
 *
 * |[
 * GST_PLUGIN_PATH=<dir of libgstprof.so> \
 * GST_TRACERS="gstprof(window=250,cpu=false)" ./my-app
 * ]|
 *
 * Properties (given in the parentheses of GST_TRACERS; `gst-inspect-1.0
 * gstprof` lists them from GStreamer 1.26):
 *
 * - `window` (guint): window length in ms (default 250, from 10 to
 *   3600000, an hour).
 * - `cpu` (gboolean): also read the thread CPU clock around every push
 *   (and pull and serialized event) and report `cpu_ns` per element
 *   (default false; costs a system call at each one's start and end).
 * - `out` (string): a folder the tracer writes its records into by
 *   itself, DIR/gstprof-PID.records, one line per record as each window
 *   closes (gstprofout.c; the format in src/core/gp-record.h), for
 *   `gstprof analyze DIR` where only an environment variable reaches the
 *   program: GST_TRACERS="gstprof(out=/var/tmp/prof)" ./my-app.
 *   Default none: the records go to the `window` signal only.
 * - `trace` (guint, s): keep every push's enter and exit, per streaming
 *   thread, in a ring sized for the last SECONDS (gstproftrace.c; the
 *   bound is GP_TRACE_RATE_MAX pushes a second per thread, in
 *   src/core/gp-record.h), read back with the `collect-trace` action.
 *   Default 0, off: the hot path then pays one branch.  `trace=true`
 *   means the default span, 10 s; at most 60.
 * - `nvtx` (gboolean): an NVTX range per element per buffer, named by the
 *   element, in the domain "gstprof", and each streaming thread named,
 *   for an Nsight Systems timeline of every element (gstprofnvtx.c).
 *   libnvToolsExt is loaded at run time; without it the parameter is
 *   refused with one warning and the tracer measures on.  Default false:
 *   the hot path then pays one branch in each push hook.
 *
 * All are construct-only: the tracer reads them once, when it starts
 * measuring; g_object_get() reads the values in use, and GLib refuses a
 * g_object_set() after that.
 *
 * GST_TRACERS hands them over as the tracer's `params` text on every
 * GStreamer release, and the tracer parses it itself.  GStreamer 1.26 could
 * set them as properties instead, for a class that asks for it
 * (gst_tracer_class_set_use_structure_params ()), but then it creates no
 * tracer at all for an unknown key or a value it does not convert (1.26.2
 * refuses `window=100`, an int, wanting `window=(uint)100`, and
 * `window=250ms`), and GLib drops an out-of-range window with a critical,
 * keeping 250.  Parsing `params` keeps one behaviour on every release: a
 * warning naming the bad value, and the tracer measuring with the default,
 * the nearest bound, or without the unknown key.
 *
 * Signals:
 *
 * - `window` (`void (*) (GstTracer *, const GstStructure *)`): one
 *   `gstprof-window` record, emitted on the tracer's own timer thread every
 *   window, whether or not data flows and whether or not the application
 *   runs a main loop.  The structure is only valid during the emission.
 * - `flush` (action, `void (*) (GstTracer *)`): closes the current window
 *   now and emits it from the calling thread before returning.
 * - `snapshot-graph` (action, `GstStructure * (*) (GstTracer *)`): the
 *   `gstprof-graph` record of every top-level pipeline seen, built now.
 * - `collect-trace` (action, `GstStructure * (*) (GstTracer *)`): with
 *   trace=SECONDS, the `gstprof-trace` record of every thread's ring, read
 *   now (NULL when trace is off).
 *
 * The records are specified in docs/records.md ("The window record").
 * What is measured, in short:
 *
 * - Exclusive (self) time per element and buffer: each streaming thread keeps
 *   a stack of open pushes; `pad-push-pre` opens a frame for the element that
 *   receives the buffer, `pad-push-post` closes it, and the frame's time
 *   minus the pushes nested inside it is that element's self time.  Pulls
 *   open a frame for the element that produces the data; serialized events
 *   open one whose time is reported apart (`event_ns`).  Ghost and proxy
 *   pads are transparent.  The time between two pushes at the bottom of a
 *   thread goes to the pushing element only when it works there: a non-live
 *   source producing, or a pull-mode driver such as a demuxer's loop.
 *   The application's pad probes on a link are timed apart (`probe_ns`:
 *   a marker probe of the tracer's own runs after them) and are no
 *   element's self time.
 * - Queue residence, from the enqueue (push into the queue) to the dequeue
 *   (push out of it) of the same buffer; levels sampled from the timer.
 * - Latency from each origin (sources, and elements that turn untimed input
 *   into timed output such as demuxers) to the input of every element
 *   downstream, matched by PTS in a small table per origin: nothing is
 *   injected into the pipeline.
 * - Buffers and bytes per link, caps and memory feature per link, CPU per
 *   streaming thread (read by the timer from the kernel's per-thread clock),
 *   and errors, warnings, QoS, EOS, latency and pipeline state changes.
 *
 * The hot path (buffer pushes) takes no lock, allocates nothing and logs
 * nothing: state is created the first time an object is seen, kept as qdata,
 * and all counters are relaxed atomics or single-writer counters.
 *
 * GST_DEBUG=gstprof:5 logs the tracer's own decisions (hooks registered,
 * states created, origins found).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE             /* dladdr */
#endif
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstprofprivate.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

GST_DEBUG_CATEGORY (gst_prof_debug);
#define GST_CAT_DEFAULT gst_prof_debug

enum
{
  SIGNAL_WINDOW,
  SIGNAL_FLUSH,
  SIGNAL_SNAPSHOT_GRAPH,
  SIGNAL_COLLECT_TRACE,
  N_SIGNALS
};

static guint gst_prof_signals[N_SIGNALS];

enum
{
  PROP_0,
  PROP_WINDOW,
  PROP_CPU,
  PROP_OUT,
  PROP_SOCKET,
  PROP_TRACE,
  PROP_NVTX,
  N_PROPS
};

static GParamSpec *gst_prof_props[N_PROPS];

#define GP_WINDOW_DEFAULT_MS 250
#define GP_WINDOW_MIN_MS 10
/* an hour, the clamp GST_TRACERS always had: a window reaches the
 * application only when it closes, with at most GP_RECORD_MAX_EVENTS events */
#define GP_WINDOW_MAX_MS (3600 * 1000)
#define GP_CPU_DEFAULT FALSE
#define GP_TRACE_OFF 0

/* one instance per process: the per-thread state (GPrivate) is global */
static gint gst_prof_instances;

#define _do_init \
    GST_DEBUG_CATEGORY_INIT (gst_prof_debug, "gstprof", 0, "gstprof tracer");
#define gst_prof_tracer_parent_class parent_class
G_DEFINE_TYPE_WITH_CODE (GstProfTracer, gst_prof_tracer, GST_TYPE_TRACER,
    _do_init);

/* data helpers (hot path: inline, no locks, no allocation) */

static inline guint
gp_pts_hash (guint64 pts)
{
  /* a full 64-bit mix (murmur3's finalizer): PTS are near-multiples of
   * round numbers (10^9 / 30), which defeat a single multiplication */
  pts ^= pts >> 33;
  pts *= G_GUINT64_CONSTANT (0xff51afd7ed558ccd);
  pts ^= pts >> 33;
  pts *= G_GUINT64_CONSTANT (0xc4ceb9fe1a85ec53);
  pts ^= pts >> 33;
  return (guint) pts;
}

/* seqlock writer: one writer per table.  The same running time again
 * replaces its entry; otherwise the oldest way goes.
 * Ordering (gp_time_find is the reader): the odd seq is stored, then a
 * release fence, then the entry; a reader whose relaxed loads of rt/ts
 * saw any of the new entry has its acquire fence synchronise with this
 * release fence, so its second load of seq sees the odd value (or later)
 * and drops the entry.  The final seq + 2 is a release store: a reader
 * whose first load (acquire) sees it also sees the whole entry. */
static inline void
gp_time_record (GpTimeSlot * set, guint64 rt, guint64 ts)
{
  GpTimeSlot *s = &set[0];
  guint64 seq;
  guint w;

  for (w = 0; w < GP_ORIGIN_WAYS; w++) {
    if (gp_load (&set[w].rt) == rt || gp_load (&set[w].seq) == 0) {
      s = &set[w];
      break;
    }
    if (gp_load (&set[w].ts) < gp_load (&s->ts))
      s = &set[w];
  }
  seq = gp_load (&s->seq);
  gp_store (&s->seq, seq + 1);
  __atomic_thread_fence (__ATOMIC_RELEASE);
  gp_store (&s->rt, rt);
  gp_store (&s->ts, ts);
  __atomic_store_n (&s->seq, seq + 2, __ATOMIC_RELEASE);
}

/* seqlock reader: a torn or foreign entry is a miss, never a guess.
 * seq is loaded with acquire (pairs with the writer's release store of the
 * even seq: the entry it closed is visible), rt/ts relaxed, then an acquire
 * fence (pairs with the writer's release fence after the odd seq) keeps
 * the second seq load after them: an entry being rewritten shows as a seq
 * that moved. */
static inline gboolean
gp_time_find (const GpTimeSlot * set, guint64 rt, guint64 * ts)
{
  guint w;

  for (w = 0; w < GP_ORIGIN_WAYS; w++) {
    const GpTimeSlot *s = &set[w];
    guint64 s1 = __atomic_load_n (&s->seq, __ATOMIC_ACQUIRE);
    guint64 r, t;

    if (s1 == 0 || (s1 & 1))
      continue;
    r = gp_load (&s->rt);
    t = gp_load (&s->ts);
    __atomic_thread_fence (__ATOMIC_ACQUIRE);
    if (r == rt && gp_load (&s->seq) == s1) {
      *ts = t;
      return TRUE;
    }
  }
  return FALSE;
}

/* One buffer left an origin pad (its streaming thread is the only
 * writer): its running time goes into the exact sets, and into the run
 * (gstprofprivate.h) when it is the newest yet, or starts a new timeline
 * there when it went back by a seek's worth. */
static inline void
gp_origin_record (GpOrigin * o, guint64 pts, guint64 ts)
{
  guint64 head;

  gp_time_record (o->sets[gp_pts_hash (pts) & (GP_ORIGIN_SETS - 1)], pts,
      ts);

  head = gp_load (&o->run_head);
  if (head != gp_load (&o->run_base) && pts <= o->run_last) {
    if (pts + GP_ORIGIN_REWIND_NS >= o->run_last)
      return;                   /* reordered, or the same running time */
    /* release: pairs with gp_origin_run_before's acquire load of run_base;
     * every entry before @head is published already (run_head) */
    __atomic_store_n (&o->run_base, head, __ATOMIC_RELEASE);
  }
  /* Ordering of the run, a ring the writer laps (its readers,
   * gp_origin_run_read and gp_lat_lookup, check afterwards that it did
   * not): this slot last held entry head - GP_ORIGIN_RUN.  The release
   * fence orders the run_head stores made so far before the stores that
   * overwrite the slot: a reader whose relaxed loads saw an overwriting
   * store has its acquire fence synchronise with this fence, so its
   * second load of run_head sees @head or later and drops the entry.  A
   * release *store* of run_head orders only what came before it, so
   * without this fence arm64 may make the new rt/ts visible before the
   * run_head that says the slot is being reused (x86 never reorders two
   * stores: there the fence costs nothing; on arm64 one barrier a
   * buffer, as in gp_time_record). */
  __atomic_thread_fence (__ATOMIC_RELEASE);
  gp_store (&o->run[head % GP_ORIGIN_RUN].rt, pts);
  gp_store (&o->run[head % GP_ORIGIN_RUN].ts, ts);
  o->run_last = pts;
  /* release: the entry is whole before a reader's acquire load of
   * run_head (gp_lat_lookup) counts it */
  __atomic_store_n (&o->run_head, head + 1, __ATOMIC_RELEASE);
}

/* The newest run entry with a running time below @rt_end: its index, or
 * G_MAXUINT64 when the run holds none.  @lo_out: the oldest index that was
 * searched (entries before it may be gone). */
static inline guint64
gp_origin_run_before (GpOrigin * o, guint64 head, guint64 rt_end,
    guint64 * lo_out)
{
  guint64 base = __atomic_load_n (&o->run_base, __ATOMIC_ACQUIRE);
  guint64 lo = head > GP_ORIGIN_RUN - GP_ORIGIN_RUN_MARGIN ?
      head - (GP_ORIGIN_RUN - GP_ORIGIN_RUN_MARGIN) : 0;
  guint64 hi;

  lo = MAX (lo, base);
  *lo_out = lo;
  if (lo >= head || gp_load (&o->run[lo % GP_ORIGIN_RUN].rt) >= rt_end)
    return G_MAXUINT64;
  hi = head - 1;
  /* most lookups are for the newest buffers */
  if (gp_load (&o->run[hi % GP_ORIGIN_RUN].rt) < rt_end)
    return hi;
  while (lo < hi) {
    guint64 mid = lo + (hi - lo + 1) / 2;

    if (gp_load (&o->run[mid % GP_ORIGIN_RUN].rt) < rt_end)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

static inline void
gp_lat_add (GpLat * l, guint64 t0, guint64 ts, gboolean exact)
{
  guint64 lat = ts > t0 ? ts - t0 : 0;

  gp_add (&l->hist[gp_hist_bucket (lat)], 1);
  gp_add (&l->matched, 1);
  if (exact)
    gp_add (&l->exact, 1);
  gp_add (&l->sum_ns, lat);
  gp_atomic_max (&l->max_ns, lat);
}

/* The run entry at @i, read under the writer's progress check: relaxed
 * loads of the entry, then an acquire fence (pairs with the release fence
 * gp_origin_record puts before it overwrites a slot) before run_head is
 * read again.  Entry @i lies within GP_ORIGIN_RUN - GP_ORIGIN_RUN_MARGIN
 * of @head (gp_origin_run_before), so its slot is rewritten only by entry
 * @i + GP_ORIGIN_RUN >= @head + GP_ORIGIN_RUN_MARGIN: a run_head found
 * less than the margin past @head proves the entry read intact. */
static inline gboolean
gp_origin_run_read (GpOrigin * o, guint64 head, guint64 i, guint64 * rt,
    guint64 * ts)
{
  *rt = gp_load (&o->run[i % GP_ORIGIN_RUN].rt);
  *ts = gp_load (&o->run[i % GP_ORIGIN_RUN].ts);
  __atomic_thread_fence (__ATOMIC_ACQUIRE);
  return __atomic_load_n (&o->run_head, __ATOMIC_ACQUIRE) - head
      < GP_ORIGIN_RUN_MARGIN;
}

/* How long the origin buffer at run index @i lasts: to the next one, or
 * for the newest, as long as the one before it; 0 when not known. */
static inline guint64
gp_origin_run_span (GpOrigin * o, guint64 head, guint64 lo, guint64 i)
{
  guint64 rt = gp_load (&o->run[i % GP_ORIGIN_RUN].rt);

  if (i + 1 < head)
    return gp_load (&o->run[(i + 1) % GP_ORIGIN_RUN].rt) - rt;
  if (i > lo)
    return rt - gp_load (&o->run[(i - 1) % GP_ORIGIN_RUN].rt);
  return 0;
}

/* The buffer entering an element covers running times [@rt, @rt_end)
 * (@rt_end = @rt + 1 without a duration).  Its latency from origin @o is
 * counted from:
 *  - the newest origin buffer that starts inside that slot, when the slot
 *    is as long as that buffer or longer: a mixer's output holds the
 *    inputs of its slot, videorate's the frames it dropped (the convention
 *    of GStreamer's latency tracer, whose probe travels with the newest
 *    input);
 *  - else the origin buffer with the same running time (a filter, an
 *    encoder, a decoder that reorders);
 *  - else the origin buffer whose interval holds @rt: a buffer cut from
 *    longer ones (an audio encoder's frame) carries its oldest input's
 *    samples first, a re-timestamped one (rtpjitterbuffer) the content of
 *    its time; only if the run shows the next origin buffer begins after
 *    @rt, or the one found is the newest and @rt lies within one spacing.
 * Anything else is unmatched, never guessed.  Exact entries are read under
 * their seqlock; run entries are checked against the writer's progress. */
static inline void
gp_lat_lookup (GpLat * l, GpOrigin * o, guint64 rt, guint64 rt_end,
    guint64 ts)
{
  guint64 head = __atomic_load_n (&o->run_head, __ATOMIC_ACQUIRE);
  guint64 i, lo = 0, rt_i = 0, run_ts = 0, t0, span;

  i = gp_origin_run_before (o, head, rt_end, &lo);
  if (i != G_MAXUINT64 && gp_origin_run_read (o, head, i, &rt_i, &run_ts)
      && rt_i > rt) {
    span = gp_origin_run_span (o, head, lo, i);
    /* (1 % for the rounding of durations: 33333333 and 33333334) */
    if (span > 0 && (rt_end - rt) + (rt_end - rt) / 100 >= span) {
      gp_lat_add (l, run_ts, ts, FALSE);
      return;
    }
    /* a piece of a longer buffer: what covers its start */
    i = gp_origin_run_before (o, head, rt + 1, &lo);
    if (i == G_MAXUINT64 || !gp_origin_run_read (o, head, i, &rt_i,
            &run_ts)) {
      gp_add (&l->unmatched, 1);
      return;
    }
  }
  if (gp_time_find (o->sets[gp_pts_hash (rt) & (GP_ORIGIN_SETS - 1)], rt,
          &t0)) {
    gp_lat_add (l, t0, ts, TRUE);
    return;
  }
  /* rt_i and run_ts passed gp_origin_run_read's check; the span's loads
   * only choose whether the rule applies */
  if (i != G_MAXUINT64 && rt_i <= rt && (i + 1 < head ||
          (i > lo && rt - rt_i <= gp_origin_run_span (o, head, lo, i)))
      && __atomic_load_n (&o->run_head, __ATOMIC_ACQUIRE) - head
      < GP_ORIGIN_RUN_MARGIN) {
    gp_lat_add (l, run_ts, ts, FALSE);
    return;
  }
  gp_add (&l->unmatched, 1);
}

/* A list is one frame: @n buffers share its self time evenly, and each
 * counts as a sample so that `buffers` stays the histogram's total. */
static inline void
gp_elem_sample (GpElem * e, guint64 self_ns, guint n)
{
  guint64 v;

  if (G_UNLIKELY (n == 0))
    return;
  v = n > 1 ? self_ns / n : self_ns;
  gp_add (&e->hist[gp_hist_bucket (v)], n);
  gp_add (&e->buffers, n);
  gp_add (&e->self_ns, self_ns);
  gp_atomic_max (&e->self_max, v);
}

/* The state of @pad, from the thread's cache when it was found in this
 * topology generation (gstprofprivate.h). */
static inline GpPad *
gp_pad_lookup (GstProfTracer * self, GpThread * t, GstPad * pad)
{
  GpPadCacheSlot *c = &t->pad_cache[((guintptr) pad >> 6) % GP_PAD_CACHE];
  gint gen = g_atomic_int_get (&self->topo_gen);

  if (G_LIKELY (c->pad == pad && c->gen == gen))
    return c->state;
  c->state = gp_pad_get (self, pad);
  c->pad = pad;
  c->gen = gen;
  return c->state;
}

static inline void
gp_thread_mark (GstProfTracer * self, GpThread * t, GpElem * e)
{
  GpThreadElem *s = &t->elems[((guintptr) e >> 6) % GP_THREAD_ELEMS];

  if (G_LIKELY (s->elem == e)) {
    guint64 win = gp_load (&self->win_index);

    if (s->win != win)
      gp_store (&s->win, win);
    return;
  }
  gp_thread_add_elem (self, t, e);
}

/* The thread CPU clock is read around a push when the frame or one around
 * it must be measured by CPU: always with cpu=true; inside a frame that is
 * measured (its own CPU must leave out what runs nested in it); at the
 * bottom of a thread whose driver's gap is measured; for a push into an
 * element that waits while it is measured so (gp_wait_mode). */
static inline gboolean
gp_wants_cpu (GstProfTracer * self, GpThread * t, GpElem * recv)
{
  return self->cpu || t->cpu_frames > 0 || (t->depth == 0 && t->gap_cpu)
      || (recv && recv->split && gp_load (&recv->frame_wait.cpu));
}

/* Whether the next frames or gaps are measured by CPU: a long wall-timed one
 * may hide waiting, so measuring starts again; a long run of short
 * CPU-timed ones shows the element does not wait, so the clock reads stop.
 * Races between the threads that push into one element only move it
 * between the two modes a little early or late. */
static inline void
gp_wait_mode_update (GpWaitMode * m, gboolean measured, guint64 wall)
{
  if (!measured) {
    if (G_UNLIKELY (wall > GP_WAIT_LONG_NS)) {
      gp_store (&m->fast, 0);
      gp_store (&m->cpu, 1);
    }
  } else if (wall >= GP_WAIT_FAST_NS) {
    gp_store (&m->fast, 0);
  } else if (gp_load (&m->fast) + 1 >= GP_WAIT_FAST_RUN) {
    gp_store (&m->fast, 0);
    gp_store (&m->cpu, 0);
  } else {
    gp_store (&m->fast, gp_load (&m->fast) + 1);
  }
}

/* One sample of work that was measured by CPU, and the wait around it:
 * the rest of its wall time. */
static inline void
gp_elem_sample_split (GpElem * e, guint64 wall_ns, guint64 cpu_ns, guint n)
{
  guint64 wait = wall_ns > cpu_ns ? wall_ns - cpu_ns : 0;

  if (G_UNLIKELY (n == 0))
    return;
  gp_elem_sample (e, MIN (cpu_ns, wall_ns), n);
  gp_add (&e->cpu_samples, n);
  gp_add (&e->wait_ns, wait);
  gp_add (&e->wait_hist[gp_hist_bucket (n > 1 ? wait / n : wait)], n);
}

/* @measure: read the thread's CPU clock now (or take @cpu_now, already
 * read, when it is not NULL) and at the close. */
static inline GpFrame *
gp_frame_open (GpThread * t, GstPad * pad, GpElem * elem, GpElem * drv,
    GpFrameKind kind, guint n, guint64 ts, gboolean measure,
    const guint64 * cpu_now)
{
  GpFrame *f;

  if (G_UNLIKELY (t->depth >= GP_STACK_DEPTH)) {
    /* counted, so that the matching post still pops the right level */
    gp_store (&t->depth, t->depth + 1);
    t->overflows++;
    return NULL;
  }
  f = &t->stack[t->depth];
  f->pad = pad;
  /* elem, start and kind are read by the timer (gp_thread_blocked) while
   * this thread may be rewriting the slot: atomic on both sides, so that
   * neither reads a torn value.  A new frame shows by the release store of
   * depth below (paired with the timer's acquire load of depth).  A slot
   * closed and reused under the timer's read: start and kind are stored
   * before elem, elem with release, and the timer loads elem with acquire
   * before start and kind, so an elem it sees comes with its own frame's
   * start (or a newer one, a frame too young to count), never the start
   * of the frame before (relaxed, arm64 could show the new elem with the
   * old start, and even x86 could when the timer read elem first) */
  gp_store (&f->start, ts);
  gp_store (&f->kind, (guint8) kind);
  __atomic_store_n (&f->elem, elem, __ATOMIC_RELEASE);
  f->drv = drv;
  f->link = NULL;
  f->slot = NULL;
  f->queue = NULL;
  f->caps = FALSE;
  f->child = 0;
  f->cpu_child = 0;
  f->n = n;
  f->probe = GP_PROBE_NONE;
  f->probe_ns = 0;
  f->probe_cpu = 0;
  f->hnd_open = FALSE;
  f->hnd_ns = 0;
  f->hnd_cpu = 0;
  f->hnd_n = 0;
  f->cpu = measure;
  if (measure) {
    t->cpu_frames++;
    f->cpu_start = cpu_now ? *cpu_now : gp_thread_cpu_now ();
  }
  /* the timer reads the open frames (gp_thread_blocked): the frame is
   * whole before it shows (release; the timer's acquire load of depth) */
  __atomic_store_n (&t->depth, t->depth + 1, __ATOMIC_RELEASE);
  return f;
}

static inline GpFrame *
gp_frame_top (GpThread * t)
{
  if (t->depth == 0 || t->depth > GP_STACK_DEPTH)
    return NULL;
  return &t->stack[t->depth - 1];
}

/* trace=SECONDS: the push that returns now goes into the thread's ring
 * (gstproftrace.c); the thread is its only writer.  A seqlock's order: the
 * head the last call published is visible before this slot changes (the
 * release fence below, paired with the acquire fence in
 * gp_pushes_read_ring: a reader whose copy saw any of the new slot sees
 * that head on its second load, and drops the entry this slot held), and
 * this slot before the head that publishes it (the release store of head,
 * paired with the reader's first, acquire, load of head).  On x86 both
 * cost nothing; on arm64 one barrier a push. */
static inline void
gp_pushes_record (GpTraceRing * r, const GpFrame * f, guint64 ts,
    guint depth)
{
  guint64 head = r->head;
  GpTraceSlice *s = &r->slots[head & r->mask];

  __atomic_thread_fence (__ATOMIC_RELEASE);
  s->start = f->start;
  s->end = ts;
  s->element = f->elem->trace_id;
  s->n = (guint16) MIN (f->n, G_MAXUINT16);
  s->depth = (guint8) MIN (depth, G_MAXUINT8);
  s->kind = f->kind == GP_FRAME_PULL ? GP_TRACE_KIND_PULL :
      f->kind == GP_FRAME_EVENT ? GP_TRACE_KIND_EVENT : GP_TRACE_KIND_BUFFER;
  __atomic_store_n (&r->head, head + 1, __ATOMIC_RELEASE);
}

static void gp_probe_close (GpThread * t, GpFrame * f, guint64 * self_ns,
    guint64 * cpu_self);
static void gp_handlers_close (GpFrame * f, guint64 * self_ns,
    guint64 * cpu_self);

/* Pre and post of one push always run on the same thread, so the stack
 * needs no lock.  Every pre hook opens exactly one frame and every post hook
 * closes one, which keeps the pairing exact even for frames we do not
 * charge to anybody (elem == NULL: ghost/proxy pads, upstream events). */
static inline void
gp_frame_close (GstProfTracer * self, GpThread * t, guint64 ts)
{
  GpFrame *f;
  guint64 dur, self_ns, cpu = 0, cpu_dur = 0, cpu_self = 0;

  if (G_UNLIKELY (t->depth == 0))
    return;
  gp_store (&t->depth, t->depth - 1);
  if (G_UNLIKELY (t->depth >= GP_STACK_DEPTH))
    return;
  f = &t->stack[t->depth];
  dur = ts > f->start ? ts - f->start : 0;
  self_ns = dur > f->child ? dur - f->child : 0;
  /* off (the default): this one branch on a NULL pointer */
  if (G_UNLIKELY (t->trace != NULL) && f->elem)
    gp_pushes_record (t->trace, f, ts, t->depth);
  if (f->cpu) {
    cpu = gp_thread_cpu_now ();
    cpu_dur = cpu > f->cpu_start ? cpu - f->cpu_start : 0;
    cpu_self = cpu_dur > f->cpu_child ? cpu_dur - f->cpu_child : 0;
    t->cpu_frames--;
  }
  if (G_UNLIKELY (f->probe != GP_PROBE_NONE))
    gp_probe_close (t, f, &self_ns, &cpu_self);
  if (G_UNLIKELY (f->hnd_n != 0) && f->elem)
    gp_handlers_close (f, &self_ns, &cpu_self);

  if (f->elem) {
    GpElem *e = f->elem;

    if (f->kind == GP_FRAME_EVENT) {
      gp_add (&e->event_ns, self_ns);
    } else {
      if (e->split) {
        if (f->cpu)
          gp_elem_sample_split (e, self_ns, cpu_self, f->n);
        else
          gp_elem_sample (e, self_ns, f->n);
        gp_wait_mode_update (&e->frame_wait, f->cpu, self_ns);
      } else {
        gp_elem_sample (e, self_ns, f->n);
      }
      if (self->cpu)
        gp_add (&e->cpu_ns, cpu_self);
      gp_thread_mark (self, t, e);
      /* a push into a queue only takes this long when the queue is full
       * and the chain waits for room: that is backpressure, not work.  The
       * buffer entered the queue only now, so its residence starts now. */
      if (G_UNLIKELY (f->queue != NULL && f->kind == GP_FRAME_BUFFER
              && self_ns > GP_QUEUE_BLOCK_NS)) {
        gp_add (&f->queue->blocked_ns, dur);
        if (f->slot)
          gp_store (&((GpRingSlot *) f->slot)->ts, ts);
      }
    }
  }

  if (t->depth > 0) {
    GpFrame *parent = &t->stack[t->depth - 1];

    if (f->elem) {
      parent->child += dur;
      parent->cpu_child += cpu_dur;
    } else {
      /* transparent: what ran inside passes straight to the parent, and
       * the probes on the ghost pad are nobody's work */
      parent->child += f->child + f->probe_ns;
      parent->cpu_child += f->cpu_child + f->probe_cpu;
    }
  } else if (f->kind == GP_FRAME_BUFFER) {
    GpElem *drv = f->drv;

    /* a root push ended: the driver's next gap starts now.  A queue's gap
     * is its wait for data (residence covers it); any other driver's gap
     * is measured by CPU while it may wait there (gp_root_push) */
    t->gap_valid = TRUE;
    t->gap_start = ts;
    t->gap_child = 0;
    t->gap_cpu_child = 0;
    t->gap_driver = drv;
    t->gap_cpu = self->cpu || (drv && drv->qtype == GP_QUEUE_NONE
        && gp_load (&drv->gap_wait.cpu));
    if (t->gap_cpu)
      t->gap_cpu_start = f->cpu ? cpu : gp_thread_cpu_now ();
  } else {
    /* pulls and events at the bottom of a thread are not the driver's
     * own work: take them out of its gap */
    t->gap_child += dur;
    t->gap_cpu_child += cpu_dur;
    if (f->kind == GP_FRAME_PULL)
      t->gap_pulled = f->drv;
  }
}

/* A push at the bottom of a thread: the time since the driver's previous
 * root push ended (less the pulls and events in between) is the driver's
 * own: a source creating or filling its next buffer, a demuxer's loop, an
 * aggregator mixing or muxing, a jitterbuffer's task.  Most of them also
 * wait there (a live source for its clock, udpsrc in poll, an aggregator
 * for its inputs), so while the gap is measured by CPU its CPU time is the
 * driver's work and the rest its wait; once its gaps prove short, the wall
 * time is the work.  A queue's gap is its wait for data: not its work.
 * @cpu: the thread's CPU clock now, read when t->gap_cpu. */
/* A live source marks its pipeline: from then on that pipeline's links
 * measure lateness (gp_link_late); a pipeline with no live source has no
 * real time to fall behind, and pays nothing for it, whatever else runs
 * in the process. */
static inline void
gp_note_live (GstProfTracer * self, GpElem * e, GstElement * element)
{
  if (g_atomic_int_get (&e->live) == 1)
    gp_mark_live_top (self, element);
}

/* Whether @ps's pipeline is live, reread when a pipeline became live or
 * the topology changed since the pad last looked (only the thread that
 * pushes on it does). */
static inline gboolean
gp_pad_late_on (GstProfTracer * self, GpPad * ps, GstPad * pad)
{
  gint gen = g_atomic_int_get (&self->live_gen) +
      g_atomic_int_get (&self->topo_gen);

  if (G_UNLIKELY (ps->late_gen != gen)) {
    gint live = gp_pad_in_live_top (self, pad);

    if (live >= 0) {
      ps->late_on = live;
      ps->late_gen = gen;
    }
  }
  return ps->late_on;
}

static inline void
gp_root_push (GstProfTracer * self, GpThread * t, GpElem * drv, GstPad * pad,
    guint n, guint64 ts, guint64 cpu)
{
  if (G_UNLIKELY (drv == NULL))
    return;
  if (!g_atomic_int_get (&drv->seen))
    g_atomic_int_set (&drv->seen, 1);
  if (G_UNLIKELY (drv->is_source && g_atomic_int_get (&drv->live) < 0)) {
    GstObject *parent = GST_OBJECT_PARENT (pad);

    if (parent && GST_IS_ELEMENT (parent)) {
      gp_elem_read_live (drv, GST_ELEMENT (parent));
      gp_note_live (self, drv, GST_ELEMENT (parent));
    }
  }
  if (t->gap_valid && t->gap_driver == drv && drv->qtype == GP_QUEUE_NONE) {
    guint64 gap = ts > t->gap_start ? ts - t->gap_start : 0;
    guint64 wall = gap > t->gap_child ? gap - t->gap_child : 0;

    if (t->gap_cpu) {
      guint64 c = cpu > t->gap_cpu_start ? cpu - t->gap_cpu_start : 0;

      c = c > t->gap_cpu_child ? c - t->gap_cpu_child : 0;
      gp_elem_sample_split (drv, wall, c, n);
      if (self->cpu)
        gp_add (&drv->cpu_ns, c);
    } else {
      gp_elem_sample (drv, wall, n);
    }
    gp_wait_mode_update (&drv->gap_wait, t->gap_cpu, wall);
    gp_thread_mark (self, t, drv);
  }
  t->gap_pulled = NULL;
  t->gap_child = 0;
  t->gap_cpu_child = 0;
  t->gap_cpu = FALSE;
}

/* enqueue: the upstream thread, at push-pre into the queue's sink pad.
 * Returns the entry, whose ts moves to push-post if the push blocked. */
static inline GpRingSlot *
gp_ring_push (GpRing * r, gconstpointer buf, guint64 pts, guint64 ts,
    guint64 size)
{
  guint64 head, tail;
  GpRingSlot *s;

  if (G_UNLIKELY (g_atomic_int_get (&r->broken)))
    return NULL;
  head = gp_load (&r->head);
  tail = __atomic_load_n (&r->tail, __ATOMIC_ACQUIRE);
  if (G_UNLIKELY (head - tail >= GP_RING_SLOTS))
    return NULL;                /* not recorded: its dequeue will not match */
  /* the acquire load of tail above pairs with gp_queue_dequeue's release
   * stores of tail: the consumer's reads of the slot we now reuse are done
   * before our stores to it */
  s = &r->slots[head % GP_RING_SLOTS];
  s->buf = buf;
  s->pts = pts;
  gp_store (&s->ts, ts);
  s->size = size;
  /* release: the slot is whole before the consumer's acquire load of head
   * counts it (ts alone may change later, on both sides atomic) */
  __atomic_store_n (&r->head, head + 1, __ATOMIC_RELEASE);
  gp_bump (&r->bytes_in, size);
  return s;
}

/* The ring entry in [@tail, @head) of @buf with @pts, else the first
 * with @pts alone (a valid one); @head when none. */
static inline guint64
gp_queue_find (GpRing * r, guint64 tail, guint64 head, gconstpointer buf,
    guint64 pts)
{
  guint64 i, by_pts = head;

  for (i = tail; i < head; i++) {
    const GpRingSlot *s = &r->slots[i % GP_RING_SLOTS];

    if (s->pts != pts)
      continue;
    if (s->buf == buf)
      return i;
    if (by_pts == head && GST_CLOCK_TIME_IS_VALID (pts))
      by_pts = i;
  }
  return by_pts;
}

/* dequeue: the queue's thread, at push-pre on the queue's src pad.  Queues
 * are FIFO, so the match is the oldest record with the same buffer and PTS
 * (or, for a buffer the queue copied, the same PTS); the records skipped on
 * the way were dropped (leaky queues).  A buffer with no record is not
 * guessed. */
static void
gp_queue_dequeue (GstProfTracer * self, GpPad * ps, GstPad * pad,
    gconstpointer buf, guint64 pts, guint64 ts)
{
  GpQueueAcc *q;
  GpRing *r;
  guint64 tail, head, fl, i, match, bytes = 0, flushed = 0;

  if (G_UNLIKELY (!ps->deq_resolved))
    gp_pad_resolve_deq (self, ps, pad);
  if (!ps->deq || !(r = ps->deq->ring) || g_atomic_int_get (&r->broken))
    return;
  q = ps->deq->q ? ps->deq->q : ps->elem->q;
  if (!q)
    return;

  /* tail: this thread's own.  head, acquire: pairs with gp_ring_push's
   * release store, the slots below it are whole.  flushed_upto is relaxed:
   * it only says how far to skip, clamped to that head, and the slots read
   * are those the acquire made visible. */
  tail = gp_load (&r->tail);
  head = __atomic_load_n (&r->head, __ATOMIC_ACQUIRE);
  fl = gp_load (&r->flushed_upto);
  if (G_UNLIKELY (fl > tail)) {
    /* a flush emptied the queue: those records are neither drops nor
     * residence */
    fl = MIN (fl, head);
    for (i = tail; i < fl; i++)
      flushed += r->slots[i % GP_RING_SLOTS].size;
    tail = fl;
    gp_bump (&r->bytes_out, flushed);
    /* release: our reads of those slots are done before the producer
     * (its acquire load of tail) may reuse them */
    __atomic_store_n (&r->tail, tail, __ATOMIC_RELEASE);
  }
  /* the buffer as it entered; else the first with its PTS: a leaky queue
   * marks the buffer after a drop DISCONT, a copy when the buffer is
   * shared (a tee's other branch still holds it) */
  match = gp_queue_find (r, tail, head, buf, pts);
  if (match < head) {
    GpRingSlot *s = &r->slots[match % GP_RING_SLOTS];
    guint64 t0 = gp_load (&s->ts);
    guint64 res = ts > t0 ? ts - t0 : 0;

    for (i = tail; i <= match; i++)
      bytes += r->slots[i % GP_RING_SLOTS].size;
    gp_add (&q->res_hist[gp_hist_bucket (res)], 1);
    gp_atomic_max (&q->res_max, res);
    if (match > tail)
      gp_add (&q->dropped, match - tail);
    gp_bump (&r->bytes_out, bytes);
    /* release, as above: slots up to @match are read */
    __atomic_store_n (&r->tail, match + 1, __ATOMIC_RELEASE);
    r->misses = 0;
    return;
  }
  if (++r->misses > GP_RING_MAX_MISSES) {
    GST_DEBUG_OBJECT (self, "queue %s:%s rewrites buffers, residence not "
        "tracked", GST_DEBUG_PAD_NAME (pad));
    g_atomic_int_set (&r->broken, 1);
  }
}

/* The running time of @pts in the segment last pushed on @ps: latency
 * matches running times, not raw PTS, because elements may shift both PTS
 * and segment (x264enc adds 1000 hours to keep DTS positive).  Sticky
 * segments re-sent when a pad is linked pass no event hook before 1.24,
 * so a pad that has not seen one looks its sticky segment up once. */
static inline guint64
gp_pad_running_time (GpPad * ps, GstPad * pad, guint64 pts)
{
  if (G_UNLIKELY (!ps->have_segment && !ps->segment_checked)) {
    GstEvent *ev = gst_pad_get_sticky_event (pad, GST_EVENT_SEGMENT, 0);

    ps->segment_checked = TRUE;
    if (ev) {
      gst_event_copy_segment (ev, &ps->segment);
      ps->have_segment = TRUE;
      gst_event_unref (ev);
    }
  }
  if (!ps->have_segment || ps->segment.format != GST_FORMAT_TIME)
    return pts;
  return gst_segment_to_running_time (&ps->segment, GST_FORMAT_TIME, pts);
}

/* Whether the muxer whose input table is @tab re-bases its output. */
static inline gboolean
gp_merge_shifted (const GpMergeTab * tab)
{
  return tab && g_atomic_int_get (&tab->shift_known);
}

/* The running time a muxed buffer had entering the muxer whose input
 * table is @tab: @rt less the muxer's shift once known; FALSE when that
 * would be negative. */
static inline gboolean
gp_merge_unshift (const GpMergeTab * tab, guint64 rt, guint64 * out)
{
  gint64 shift = gp_merge_shifted (tab) ? gp_load (&tab->shift) : 0;

  if (shift > 0 && rt < (guint64) shift)
    return FALSE;
  *out = rt - shift;
  return TRUE;
}

/* An output of the muxer whose input table is @tab, at running time @rt,
 * that no input saw: try a shift, and keep one that GP_MERGE_SHIFT_HITS
 * outputs of distinct running times were found in the input with.
 * mpegtsmux stamps its first output at its segment's start and every
 * later one by the same offset: the first try is the first output against
 * the first input; then each miss tries the newest input (not first: an
 * input that comes in a burst, a GOP let out of splitmuxsink's queue, is
 * often newer than the output).  Only the muxer's output thread calls
 * it. */
static inline void
gp_merge_learn (GpMergeTab * tab, guint64 rt)
{
  guint64 in = gp_load (&tab->last_rt), first = gp_load (&tab->first_rt), t;
  gint64 r = (gint64) rt - tab->cand;

  if (g_atomic_int_get (&tab->shift_known) || rt + 1 == tab->cand_rt)
    return;
  if (tab->cand != 0 && r >= 0 && gp_time_find (tab->sets[gp_pts_hash (r) &
              (GP_MERGE_SETS - 1)], r, &t)) {
    tab->cand_rt = rt + 1;
    if (++tab->hits >= GP_MERGE_SHIFT_HITS) {
      /* shift first, then the flag: g_atomic_int_set is sequentially
       * consistent (at least a release) and pairs with the
       * g_atomic_int_get (at least an acquire) in gp_merge_shifted, so a
       * reader that sees the flag sees the shift */
      gp_store (&tab->shift, tab->cand);
      g_atomic_int_set (&tab->shift_known, 1);
    }
    return;
  }
  if (!tab->tried_first && first) {
    tab->tried_first = TRUE;
    in = first;
  }
  tab->cand = in ? (gint64) rt - (gint64) (in - 1) : 0;
  tab->cand_rt = rt + 1;
  tab->hits = 0;
}

/* A buffer with running time @rt enters the element of sink pad @rs from
 * @ps: one lookup per origin upstream.  Where the way to an origin passes
 * an element that merges streams, the buffer is that origin's only if it
 * came in by that element's input on the way; one that came in by no
 * input is a mixer's output, everybody's, or a muxer's own header,
 * nobody's.  Origins past the 64th are looked up without that test. */
static inline void
gp_lat_lookups (GpPad * rs, GpPad * ps, GstPad * pad, GstBuffer * buf,
    guint64 pts, guint64 rt, guint64 ts)
{
  guint64 dur = GST_BUFFER_DURATION (buf), rt_end = rt + 1, t;
  guint64 via = 0, other = 0, none = 0;
  guint i, n = rs->n_lat;

  /* the slot the buffer covers: [rt, the end of its duration) */
  if (GST_CLOCK_TIME_IS_VALID (dur) && dur > 0) {
    guint64 e = gp_pad_running_time (ps, pad, pts + dur);

    if (GST_CLOCK_TIME_IS_VALID (e) && e > rt)
      rt_end = e;
  }
  for (i = 0; i < MIN (n, 64); i++) {
    GpPad *m = rs->lat_merge[i];
    GpMergeTab *tab = m ? g_atomic_pointer_get (&m->merge) : NULL;
    guint64 r;

    if (!tab)
      continue;
    if (gp_merge_unshift (tab, rt, &r) && gp_time_find (tab->sets[gp_pts_hash
                (r) & (GP_MERGE_SETS - 1)], r, &t)) {
      via |= G_GUINT64_CONSTANT (1) << i;
    } else if (tab->packs) {
      none |= G_GUINT64_CONSTANT (1) << i;
      if (ps->elem && ps->elem == m->elem)
        gp_merge_learn (tab, rt);
    } else {
      other |= G_GUINT64_CONSTANT (1) << i;
    }
  }
  for (i = 0; i < n; i++) {
    GpPad *m = rs->lat_merge[i];
    guint64 r = rt;

    if (i < 64 && ((none & (G_GUINT64_CONSTANT (1) << i)) ||
            (via && (other & (G_GUINT64_CONSTANT (1) << i)))))
      continue;
    if (m) {
      GpMergeTab *tab = g_atomic_pointer_get (&m->merge);

      if (!gp_merge_unshift (tab, rt, &r))
        continue;
      /* a muxer may stamp every packet it sends until the next frame of
       * its timing stream with that frame's time (mpegtsmux: the rest of
       * the frame, the other streams' packets; on GStreamer 1.18 without
       * re-basing its output): the first is the frame's arrival */
      if (tab) {
        if (gp_load (&rs->lat[i]->last_rt) == r + 1)
          continue;
        gp_store (&rs->lat[i]->last_rt, r + 1);
      }
    }
    gp_lat_lookup (rs->lat[i], rs->lat_tab[i], r, rt_end - (rt - r), ts);
  }
}

/* How late a buffer of running time @rt is, pushed on @pad now: the
 * clock's running time (its time less the element's base time) less @rt,
 * as basesink judges a buffer against the clock, 0 when it is ahead.
 * Only while the element has a clock (PAUSED and up); the clock is taken
 * with a ref under the element's lock (tried, never waited for), since it
 * may be replaced while the stream runs.  The segment is the pad's cached one
 * (gp_pad_running_time), never looked up per buffer. */
static inline void
gp_link_late (GpPad * ps, GstPad * pad, guint64 rt)
{
  GstElement *e = GST_PAD_PARENT (pad);
  GstClock *clock;
  GstClockTime base, now;
  guint64 late;

  if (G_UNLIKELY (e == NULL) || GST_ELEMENT_CLOCK (e) == NULL)
    return;
  /* never wait: an element that pushed with its lock held would deadlock
   * here; that buffer goes unmeasured instead */
  if (!g_mutex_trylock (GST_OBJECT_GET_LOCK (e)))
    return;
  clock = GST_ELEMENT_CLOCK (e) ? gst_object_ref (GST_ELEMENT_CLOCK (e)) :
      NULL;
  base = GST_ELEMENT_CAST (e)->base_time;
  GST_OBJECT_UNLOCK (e);
  if (clock == NULL)
    return;
  now = gst_clock_get_time (clock);
  gst_object_unref (clock);
  if (!GST_CLOCK_TIME_IS_VALID (now) || now < base)
    return;
  now -= base;
  late = now > rt ? now - rt : 0;
  gp_add (&ps->late_n, 1);
  gp_add (&ps->late_sum, late);
  gp_atomic_max (&ps->late_max, late);
  gp_add (&ps->late_hist[gp_hist_bucket (late)], 1);
}

/* The bytes of an RTP header read per packet: version, sequence number,
 * SSRC. */
#define GP_RTP_HEADER_LEN 12
/* RFC 3550 A.1's bounds: a sequence number at most this far ahead of the
 * highest is packets lost on the way (farther, a stray or a restart) ... */
#define GP_RTP_MAX_DROPOUT 3000
/* ... and less than this far behind a late or duplicate packet (RFC 3550
 * says 100; 64 is what the mask of packets received tells apart). */
#define GP_RTP_MAX_MISORDER 64
/* RTCP multiplexed on the RTP port (RFC 5761) has its packet type where
 * RTP's marker and payload type are: 200-204 read as 72-76; RTP keeps off
 * 64-95, so those are not RTP packets. */
#define GP_RTP_IS_RTCP(pt) ((pt) >= 64 && (pt) <= 95)
#define GP_RTP_NO_PROBATION G_MAXUINT32

/* Whether @caps are RTP's (application/x-rtp, or SRTP's, whose headers
 * are in the clear). */
static gboolean
gp_caps_are_rtp (const GstCaps * caps)
{
  const GstStructure *st;

  if (caps == NULL || gst_caps_get_size (caps) == 0)
    return FALSE;
  st = gst_caps_get_structure (caps, 0);
  return gst_structure_has_name (st, "application/x-rtp")
      || gst_structure_has_name (st, "application/x-srtp");
}

/* One RTP packet pushed on @ps (gp-record.h GP_L_RTP_*): received
 * unless it is a duplicate of one of the last 64, and the sequence
 * numbers it moves the highest past expected. A late packet fills its
 * hole; one far from the highest is a stray, counted nowhere, until the
 * next packet follows it, when the numbering starts anew there (RFC 3550
 * A.1's probation). */
static void
gp_rtp_packet (GpPad * ps, GstBuffer * buf)
{
  guint8 h[GP_RTP_HEADER_LEN];
  guint16 seq, ahead, behind;
  guint32 ssrc;
  guint64 mask = 1;

  if (gst_buffer_extract (buf, 0, h, sizeof h) != sizeof h || (h[0] >> 6) != 2
      || GP_RTP_IS_RTCP (h[1] & 0x7f))
    return;
  seq = GST_READ_UINT16_BE (h + 2);
  ssrc = GST_READ_UINT32_BE (h + 8);
  if (ps->rtp_seen && ssrc == ps->rtp_ssrc) {
    ahead = (guint16) (seq - ps->rtp_max_seq);
    behind = (guint16) (ps->rtp_max_seq - seq);
    if (ahead == 0 || behind < GP_RTP_MAX_MISORDER) {
      /* late, or a duplicate: the mask knows */
      if (ps->rtp_mask & (G_GUINT64_CONSTANT (1) << behind))
        return;
      ps->rtp_mask |= G_GUINT64_CONSTANT (1) << behind;
      gp_bump (&ps->rtp_received, 1);
      return;
    }
    if (ahead < GP_RTP_MAX_DROPOUT) {
      gp_bump (&ps->rtp_received, 1);
      gp_bump (&ps->rtp_expected, ahead);
      ps->rtp_max_seq = seq;
      ps->rtp_mask = ahead < GP_RTP_MAX_MISORDER ?
          (ps->rtp_mask << ahead) | 1 : 1;
      return;
    }
    /* a stray counts nowhere until the next packet follows it */
    if (seq != ps->rtp_probation) {
      ps->rtp_probation = (guint16) (seq + 1);
      return;
    }
    /* it did: the stray and this one begin the new numbering */
    gp_bump (&ps->rtp_received, 1);
    gp_bump (&ps->rtp_expected, 1);
    mask = 3;
  }
  gp_bump (&ps->rtp_received, 1);
  if (ps->rtp_seen)
    gp_bump (&ps->rtp_restarts, 1);
  ps->rtp_ssrc = ssrc;
  ps->rtp_max_seq = seq;
  ps->rtp_mask = mask;
  ps->rtp_probation = GP_RTP_NO_PROBATION;
  gp_bump (&ps->rtp_expected, 1);
  g_atomic_int_set (&ps->rtp_seen, TRUE);
}

/* The RTP packets of a push on @pad: its caps are looked at once, at the
 * first push (a pad linked after its caps went by passes no CAPS event
 * hook before GStreamer 1.24), and at each CAPS event after. */
static inline void
gp_rtp_count (GpPad * ps, GstPad * pad, GstBuffer * buf, GstBufferList * list,
    guint n)
{
  guint i;

  if (G_UNLIKELY (!ps->rtp_checked)) {
    GstCaps *caps = gst_pad_get_current_caps (pad);

    ps->rtp_checked = TRUE;
    ps->rtp = gp_caps_are_rtp (caps);
    if (caps)
      gst_caps_unref (caps);
  }
  if (G_LIKELY (!ps->rtp))
    return;
  if (list == NULL) {
    if (buf)
      gp_rtp_packet (ps, buf);
    return;
  }
  for (i = 0; i < n; i++)
    gp_rtp_packet (ps, gst_buffer_list_get (list, i));
}

/* ------------------------------------------------------------------ */
/* Pad probes: an application's probe is not the element's work          */

/* No hook fires between a pad's probes and the chain function they guard
 * (pad-chain-pre, GStreamer 1.22 on, fires before the sink pad's probes),
 * so the tracer places a probe of its own, the marker, behind them: a
 * pad's non-blocking probes run in the order they were added (after the
 * blocking ones), the pushing pad's before its peer's, so a marker added
 * last on the peer runs after every probe of the push.  The time from the
 * push to the marker is the probes', not the receiving element's.  Only
 * links with somebody else's probes carry a marker; the rest pay one
 * integer read a push.  A buffer list into an element without a chain
 * list function runs the peer's probes once per buffer: the first run is
 * measured, the rest stay in the element's time. */

/* The marker: on the thread whose top frame is the push into @pad, the
 * probes' time so far. */
static GstPadProbeReturn
gp_probe_marker (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  GstProfTracer *self = user_data;
  GpThread *t = gp_thread_current (self);
  GpFrame *f = gp_frame_top (t);
  guint64 now, ran;

  /* only the marker the pushing pad placed: another, left on this pad by a
   * pad that died or was relinked, runs before the probes added since */
  if (f == NULL || f->probe != GP_PROBE_PENDING || f->kind != GP_FRAME_BUFFER
      || f->link == NULL || f->link->probe_raw != pad
      || f->link->probe_id != info->id)
    return GST_PAD_PROBE_OK;
  now = gp_now (self);
  ran = now > f->start ? now - f->start : 0;
  f->probe_ns = ran > f->child ? ran - f->child : 0;
  if (f->cpu) {
    guint64 cpu = gp_thread_cpu_now ();

    ran = cpu > f->cpu_start ? cpu - f->cpu_start : 0;
    f->probe_cpu = ran > f->cpu_child ? ran - f->cpu_child : 0;
  }
  f->probe = GP_PROBE_DONE;
  return GST_PAD_PROBE_OK;
}

static void
gp_probe_marker_remove (GpPad * ps)
{
  GstPad *on = g_weak_ref_get (&ps->probe_pad);

  if (on) {
    gst_pad_remove_probe (on, ps->probe_id);
    gst_object_unref (on);
  }
  g_weak_ref_set (&ps->probe_pad, NULL);
  ps->probe_raw = NULL;
  ps->probe_id = 0;
}

/* Whether the probe callback @func is GStreamer's own: in a library named
 * libgst* (the core, a plugin: decodebin's, splitmuxsink's probes are
 * their elements' work; the marker, in libgstprof, too).  An application's
 * is in its program or its own libraries, or (a Python probe) in a closure
 * no library holds. */
static gboolean
gp_probe_is_gstreamers (gpointer func)
{
  Dl_info info;
  const gchar *base;

  if (func == NULL || dladdr (func, &info) == 0 || info.dli_fname == NULL)
    return FALSE;
  base = strrchr (info.dli_fname, '/');
  return g_str_has_prefix (base ? base + 1 : info.dli_fname, "libgst");
}

/* Whether @pad has a probe that runs on buffers and is not GStreamer's.
 * The probe list is the pad's, under its object lock. */
static gboolean
gp_pad_has_app_probe (GstPad * pad)
{
  gboolean app = FALSE;
  GHook *h;

  GST_OBJECT_LOCK (pad);
  for (h = pad->probes.hooks; h && !app; h = h->next)
    app = G_HOOK_IS_VALID (h) && ((h->flags >> G_HOOK_FLAG_USER_SHIFT) &
        (GST_PAD_PROBE_TYPE_BUFFER | GST_PAD_PROBE_TYPE_BUFFER_LIST)) &&
        !gp_probe_is_gstreamers (h->func);
  GST_OBJECT_UNLOCK (pad);
  return app;
}

/* The probes on @pad and @peer changed since they were last looked at:
 * the marker goes (back) last on @peer where an application's probe is
 * among them, and away where none is. */
static void
gp_probe_recheck (GstProfTracer * self, GpPad * ps, GstPad * pad,
    GstPad * peer)
{
  gboolean app = gp_pad_has_app_probe (pad) || gp_pad_has_app_probe (peer);

  if (ps->probe_raw)
    gp_probe_marker_remove (ps);
  if (app) {
    ps->probe_id = gst_pad_add_probe (peer, GST_PAD_PROBE_TYPE_BUFFER |
        GST_PAD_PROBE_TYPE_BUFFER_LIST, gp_probe_marker, self, NULL);
    app = ps->probe_id != 0;
  }
  if (app) {
    g_weak_ref_set (&ps->probe_pad, peer);
    ps->probe_raw = peer;
    GST_DEBUG_OBJECT (self, "marker probe after the probes on %s:%s",
        GST_DEBUG_PAD_NAME (peer));
  }
  ps->probe_app = app;
  ps->probe_peer = peer;
  ps->probe_seen_src = pad->num_probes;
  ps->probe_seen_peer = peer->num_probes;
}

/* A push on @pad into @peer: whether an application's probes will run
 * (the marker behind them).  GstPad.num_probes is read unlocked, as
 * gst_pad_push reads it; the probes are looked at again only when the
 * counts or the peer changed. */
static inline gboolean
gp_probe_prepare (GstProfTracer * self, GpPad * ps, GstPad * pad,
    GstPad * peer)
{
  gint gen;

  if (G_LIKELY (pad->num_probes == 0 && (peer == NULL
              || peer->num_probes == 0)))
    return FALSE;
  if (peer == NULL)
    return FALSE;
  gen = g_atomic_int_get (&self->topo_gen);
  if (G_UNLIKELY (peer != ps->probe_peer || gen != ps->probe_gen
          || pad->num_probes != ps->probe_seen_src
          || peer->num_probes != ps->probe_seen_peer)) {
    /* one thread at a time (a pad that several threads push on: a
     * funnel's, rtpmux's); the others do not time this push */
    if (!g_atomic_int_compare_and_exchange (&ps->probe_busy, 0, 1))
      return FALSE;
    gp_probe_recheck (self, ps, pad, peer);
    ps->probe_gen = gen;
    g_atomic_int_set (&ps->probe_busy, 0);
  }
  return ps->probe_app;
}

/* A push with probes closes: their time leaves the frame's self time (a
 * push that never reached the marker, a probe having dropped the buffer,
 * was all probes) and goes to the link below it that is a real one (a
 * push out of a ghost pad's inside is part of the push into the ghost). */
static void
gp_probe_close (GpThread * t, GpFrame * f, guint64 * self_ns,
    guint64 * cpu_self)
{
  guint d;

  if (f->probe == GP_PROBE_PENDING) {
    f->probe_ns = *self_ns;
    f->probe_cpu = *cpu_self;
  }
  f->probe_ns = MIN (f->probe_ns, *self_ns);
  f->probe_cpu = MIN (f->probe_cpu, *cpu_self);
  *self_ns -= f->probe_ns;
  *cpu_self -= f->probe_cpu;
  for (d = t->depth + 1; d-- > 0;) {
    GpPad *l = t->stack[d].link;

    if (t->stack[d].kind != GP_FRAME_BUFFER || l == NULL)
      break;
    if (!l->is_proxy) {
      gp_add (&l->probe_ns, f->probe_ns);
      gp_add (&l->probe_n, 1);
      break;
    }
  }
}

/* ------------------------------------------------------------------ */
/* Signal handlers: an application's handler is not the element's work   */

/* Some elements emit a signal for every buffer on the streaming thread,
 * inside their own work: identity's and fakesink's handoff.  An
 * application's handler on it (a Python callback inspecting each frame)
 * runs in the element's push.  GLib runs a signal's emission hooks before
 * its handlers and the handlers connected after last, so the tracer adds an
 * emission hook on the signal (the opening bracket) and a handler of its
 * own connected after the application's on the element (the closing one):
 * what ran between them is the handlers', taken out of the element's self
 * time.  A handler the application connects after ours, or one it
 * connects after the element reached PAUSED, stays in the element's
 * time; so does a C callback set by other means than a signal (appsink's
 * gst_app_sink_set_callbacks). */
static const gchar *const GP_HANDLER_SIGNALS[] = { "handoff" };

typedef struct
{
  guint signal_id;
  gulong hook_id;
} GpHandlerHook;

/* The opening bracket: on the thread whose top frame is the element's
 * own work, the handlers start now. */
static gboolean
gp_handler_begin (GSignalInvocationHint * hint, guint n_values,
    const GValue * values, gpointer user_data)
{
  GpThread *t = gp_thread_peek ();
  GpFrame *f = t ? gp_frame_top (t) : NULL;

  if (f && f->elem && f->elem->handlers && n_values > 0
      && f->elem->raw == g_value_peek_pointer (&values[0])) {
    f->hnd_open = TRUE;
    f->hnd_start = gp_now (user_data);
    f->hnd_child = f->child;
    if (f->cpu) {
      f->hnd_cpu_start = gp_thread_cpu_now ();
      f->hnd_cpu_child = f->cpu_child;
    }
  }
  return TRUE;                  /* stay */
}

/* The closing bracket, the last handler of the emission: whatever the
 * signal's arguments (a marshaller of its own). */
static void
gp_handler_end (GClosure * closure, GValue * ret, guint n_values,
    const GValue * values, gpointer hint, gpointer marshal_data)
{
  GpThread *t = gp_thread_peek ();
  GpFrame *f = t ? gp_frame_top (t) : NULL;
  guint64 ran, pushed;

  if (f == NULL || !f->hnd_open || n_values == 0 || f->elem == NULL
      || f->elem->raw != g_value_peek_pointer (&values[0]))
    return;
  f->hnd_open = FALSE;
  f->hnd_n++;
  ran = gp_now (closure->data) - f->hnd_start;
  pushed = f->child - f->hnd_child;
  f->hnd_ns += ran > pushed ? ran - pushed : 0;
  if (f->cpu) {
    ran = gp_thread_cpu_now () - f->hnd_cpu_start;
    pushed = f->cpu_child - f->hnd_cpu_child;
    f->hnd_cpu += ran > pushed ? ran - pushed : 0;
  }
}

/* At a state change: where the application has connected a handler to
 * one of @element's streaming signals, the brackets go around it (once). */
static void
gp_handlers_watch (GstProfTracer * self, GpElem * e, GstElement * element)
{
  guint i, k;

  if (e->handlers || e->is_bin)
    return;
  for (i = 0; i < G_N_ELEMENTS (GP_HANDLER_SIGNALS); i++) {
    guint id = g_signal_lookup (GP_HANDLER_SIGNALS[i],
        G_OBJECT_TYPE (element));
    GSignalQuery q;
    GClosure *end;

    if (id == 0 || !g_signal_has_handler_pending (element, id, 0, FALSE))
      continue;
    g_signal_query (id, &q);
    if (q.signal_flags & G_SIGNAL_NO_HOOKS)
      continue;
    g_mutex_lock (&self->state_lock);
    for (k = 0; k < self->handler_hooks->len; k++)
      if (g_array_index (self->handler_hooks, GpHandlerHook, k).signal_id
          == id)
        break;
    if (k == self->handler_hooks->len) {
      GpHandlerHook h = { id, g_signal_add_emission_hook (id, 0,
            gp_handler_begin, self, NULL)
      };
      g_array_append_val (self->handler_hooks, h);
    }
    g_mutex_unlock (&self->state_lock);
    end = g_closure_new_simple (sizeof (GClosure), self);
    g_closure_set_marshal (end, gp_handler_end);
    g_signal_connect_closure_by_id (element, id, 0, end, TRUE);
    e->handlers = TRUE;
    GST_DEBUG_OBJECT (self, "timing the handlers of %s::%s",
        GST_OBJECT_NAME (element), GP_HANDLER_SIGNALS[i]);
  }
}

/* A frame with handlers closes: their time leaves the element's self time
 * and is counted on the element. */
static void
gp_handlers_close (GpFrame * f, guint64 * self_ns, guint64 * cpu_self)
{
  guint64 ns = MIN (f->hnd_ns, *self_ns), cpu = MIN (f->hnd_cpu, *cpu_self);

  *self_ns -= ns;
  *cpu_self -= cpu;
  gp_add (&f->elem->handler_ns, ns);
  gp_add (&f->elem->handler_n, f->hnd_n);
}

/* The common part of pad-push-pre and pad-push-list-pre.  @buf is the
 * first buffer (NULL for an empty list). */
static inline void
gp_push_pre (GstProfTracer * self, guint64 ts, GstPad * pad, GstBuffer * buf,
    GstBufferList * list, guint n, guint64 bytes)
{
  GpThread *t = gp_thread_current (self);
  GpPad *ps = gp_pad_lookup (self, t, pad);
  GstPad *peer = GST_PAD_PEER (pad);
  GpPad *rs;
  GpElem *recv = NULL;
  GpRingSlot *slot = NULL;
  GpFrame *f;
  guint64 cpu = 0;
  gboolean measure;
  guint64 pts = buf ? GST_BUFFER_PTS (buf) : GST_CLOCK_TIME_NONE;

  if (G_UNLIKELY (peer != ps->peer))
    gp_pad_refresh_peer (self, ps, peer);
  rs = ps->peer_state;

  if (!ps->is_proxy && ps->elem) {
    GpElem *pe = ps->elem;

    /* the link: one writer, the thread holding this pad's stream lock */
    gp_bump (&ps->buffers, n);
    gp_bump (&ps->bytes, bytes);
    if (buf && GST_BUFFER_DURATION_IS_VALID (buf)) {
      /* a list's first buffer stands for all of them */
      gp_bump (&ps->duration, GST_BUFFER_DURATION (buf) * n);
      gp_bump (&ps->timed, n);
    }
    /* a sink syncs on the DTS, else the PTS */
    if (G_UNLIKELY (buf && !GST_CLOCK_TIME_IS_VALID (pts)
            && !GST_BUFFER_DTS_IS_VALID (buf)))
      gp_bump (&ps->no_pts, n);
    /* a repeat or a filler (a list's first buffer stands for all) */
    if (G_UNLIKELY (buf && GST_BUFFER_FLAG_IS_SET (buf, GST_BUFFER_FLAG_GAP)))
      gp_bump (&ps->gap, n);
    gp_store (&ps->last_push_ts, ts);
    gp_rtp_count (ps, pad, buf, list, n);

    if (GST_CLOCK_TIME_IS_VALID (pts)) {
      GpOrigin *o = ps->origin;

      if (G_LIKELY (o && ps->origin_active)) {
        if (G_UNLIKELY (!pe->is_source
                && gp_load (&pe->timed_in) > gp_load (&pe->untimed_in))) {
          /* mostly timed input after all (a few untimed headers made it
           * look like a demuxer): not an origin */
          g_atomic_int_set (&ps->origin_active, 0);
          gp_topology_changed (self);
          o = NULL;
        }
      } else if (!o && (pe->is_source
              || gp_load (&pe->untimed_in) > gp_load (&pe->timed_in))) {
        gp_pad_make_origin (self, ps);
        o = ps->origin;
      } else {
        o = NULL;
      }
      if (o) {
        if (list) {
          guint i;

          for (i = 0; i < n; i++) {
            GstBuffer *b = gst_buffer_list_get (list, i);

            guint64 rt = GST_BUFFER_PTS_IS_VALID (b) ?
                gp_pad_running_time (ps, pad, GST_BUFFER_PTS (b)) :
                GST_CLOCK_TIME_NONE;

            if (GST_CLOCK_TIME_IS_VALID (rt))
              gp_origin_record (o, rt, ts);
          }
        } else {
          guint64 rt = gp_pad_running_time (ps, pad, pts);

          if (GST_CLOCK_TIME_IS_VALID (rt))
            gp_origin_record (o, rt, ts);
        }
      }
    }
    if (G_UNLIKELY (pe->qtype != GP_QUEUE_NONE) && buf)
      gp_queue_dequeue (self, ps, pad, buf, pts, ts);
  }

  if (rs && (recv = rs->elem) != NULL && buf) {
    if (GST_CLOCK_TIME_IS_VALID (pts)) {
      gint gen = g_atomic_int_get (&self->topo_gen);
      guint64 rt = gp_pad_running_time (ps, pad, pts);

      gp_bump (&recv->timed_in, 1);
      if (G_UNLIKELY (rs->lat_gen != gen))
        gp_pad_update_lat (self, rs, gen);
      if (GST_CLOCK_TIME_IS_VALID (rt) && rs->n_lat > 0)
        gp_lat_lookups (rs, ps, pad, buf, pts, rt, ts);
      if (G_UNLIKELY (g_atomic_int_get (&self->live_gen))
          && GST_CLOCK_TIME_IS_VALID (rt) && !ps->is_proxy
          && gp_pad_late_on (self, ps, pad))
        gp_link_late (ps, pad, rt);
      /* a muxer's inputs are remembered from its first: it may hold a
       * whole GOP before the first output reaches a lookup (hlssink2) */
      if (G_UNLIKELY (recv->is_muxer && rs->merge == NULL))
        gp_pad_merge_tab (rs);
      if (G_UNLIKELY (rs->merge != NULL) && GST_CLOCK_TIME_IS_VALID (rt)) {
        gp_time_record (rs->merge->sets[gp_pts_hash (rt) &
                (GP_MERGE_SETS - 1)], rt, ts);
        if (!rs->merge->first_rt)
          gp_store (&rs->merge->first_rt, rt + 1);
        gp_store (&rs->merge->last_rt, rt + 1);
      }
    } else {
      gp_bump (&recv->untimed_in, 1);
    }
    if (G_UNLIKELY (rs->ring != NULL))
      slot = gp_ring_push (rs->ring, buf, pts, ts, bytes);
  }

  /* one clock read serves the end of the driver's gap and the frame */
  measure = gp_wants_cpu (self, t, recv);
  if (measure)
    cpu = gp_thread_cpu_now ();
  if (t->depth == 0)
    gp_root_push (self, t, ps->elem, pad, n, ts, cpu);
  f = gp_frame_open (t, pad, recv, ps->elem, GP_FRAME_BUFFER, n, ts, measure,
      measure ? &cpu : NULL);
  if (f) {
    f->link = ps;
    if (G_UNLIKELY (gp_probe_prepare (self, ps, pad, peer)))
      f->probe = GP_PROBE_PENDING;
  }
  if (G_UNLIKELY (recv != NULL && recv->qtype != GP_QUEUE_NONE) && f) {
    f->slot = slot;
    f->queue = rs->q ? rs->q : recv->q;
  }
  /* off (the default): this one branch on a NULL pointer */
  if (G_UNLIKELY (self->nvtx != NULL) && f)
    gp_nvtx_range_open (self, t, f, pad);
}

/* A push or a caps event that a link refused: once per pad, the first (and
 * so the innermost: nested pushes return first) names the link where
 * negotiation failed, with the caps offered on it. */
static void
gp_link_failed (GstProfTracer * self, guint64 ts, GstPad * pad,
    const gchar * type, const gchar * what)
{
  GpPad *ps = g_object_get_qdata ((GObject *) pad, self->q_pad);
  GstPad *peer;
  GstStructure *ev;
  GstObject *parent;
  gchar *src, *pname, *caps = NULL;

  if (!ps || g_atomic_int_get (&ps->failed)
      || !g_atomic_int_compare_and_exchange (&ps->failed, 0, 1))
    return;
  parent = gst_pad_get_parent (pad);
  src = gp_pad_full_name (self, pad);
  pname = parent && GST_IS_ELEMENT (parent) ?
      gp_elem_dup_name (self, GST_ELEMENT (parent)) : g_strdup ("");
  ev = gst_structure_new (GP_RECORD_EVENT, GP_EV_TS, G_TYPE_UINT64, ts,
      GP_EV_TYPE, G_TYPE_STRING, type,
      GP_EV_SOURCE, G_TYPE_STRING, pname,
      GP_EV_TEXT, G_TYPE_STRING, what, GP_EV_LINK, G_TYPE_STRING, src, NULL);
  g_free (pname);
  peer = gp_pad_downstream_real (pad);
  if (peer) {
    gchar *sink = gp_pad_full_name (self, peer);
    /* what it would have taken: the same query the element that refused
     * answers during negotiation, from the same thread */
    GstCaps *accepts = gst_pad_query_caps (peer, NULL);

    gst_structure_set (ev, GP_EV_PEER, G_TYPE_STRING, sink, NULL);
    if (accepts) {
      gchar *str = gst_caps_to_string (accepts);

      gst_structure_set (ev, GP_EV_ACCEPTS, G_TYPE_STRING, str, NULL);
      g_free (str);
      gst_caps_unref (accepts);
    }
    g_free (sink);
    gst_object_unref (peer);
  }
  g_mutex_lock (&ps->lock);
  caps = g_strdup (ps->caps);
  g_mutex_unlock (&ps->lock);
  if (caps)
    gst_structure_set (ev, GP_EV_CAPS, G_TYPE_STRING, caps, NULL);
  g_free (caps);
  g_free (src);
  if (parent)
    gst_object_unref (parent);
  gp_window_add_event (self, ev);
}

/* hooks */

/* Buffer pushes: pre opens the receiver's frame.  Using push (not chain)
 * hooks keeps the tracer working on GStreamer 1.16, and push-pre also is
 * the moment the buffer enters the next element: the latency lookup and
 * the queue enqueue happen here, so a sink's own render time is excluded
 * from its latency, like the core latency tracer. */
static void
do_push_buffer_pre (GstProfTracer * self, guint64 ts, GstPad * pad,
    GstBuffer * buffer)
{
  gp_push_pre (self, ts, pad, buffer, NULL, 1, gst_buffer_get_size (buffer));
}

/* A caps refusal kept back (GpThread.refused), reported from a hook that
 * runs without pad locks: the push around it returning, or the thread
 * posting a message (the element's not-negotiated error when it gives up
 * without pushing). */
static void
gp_report_refused (GstProfTracer * self, GpThread * t)
{
  GstPad *refused = t->refused;

  t->refused = NULL;
  gp_link_failed (self, t->refused_ts, refused, "caps-refused",
      "caps refused");
  gst_object_unref (refused);
}

/* After a push: a caps refusal inside it first, then the push's own
 * not-negotiated. */
static inline void
gp_push_failures (GstProfTracer * self, GpThread * t, guint64 ts,
    GstPad * pad, GstFlowReturn res)
{
  if (G_UNLIKELY (t->refused != NULL))
    gp_report_refused (self, t);
  if (G_UNLIKELY (res == GST_FLOW_NOT_NEGOTIATED))
    gp_link_failed (self, ts, pad, "flow", "not-negotiated");
}

/* After a push of a buffer or of a list (pad-push-post and
 * pad-push-list-post): the frame it opened closes. */
static void
do_push_post (GstProfTracer * self, guint64 ts, GstPad * pad,
    GstFlowReturn res)
{
  GpThread *t = gp_thread_current (self);

  if (G_UNLIKELY (self->nvtx != NULL))
    gp_nvtx_range_close (self, t);
  gp_frame_close (self, t, ts);
  gp_push_failures (self, t, ts, pad, res);
}

static void
do_push_list_pre (GstProfTracer * self, guint64 ts, GstPad * pad,
    GstBufferList * list)
{
  guint n = gst_buffer_list_length (list);

  gp_push_pre (self, ts, pad, n ? gst_buffer_list_get (list, 0) : NULL,
      list, n, gst_buffer_list_calculate_size (list));
}

/* Pulls: @pad is the puller's sink pad; the frame belongs to the upstream
 * element that produces the data (its getrange runs inside the pull). */
static void
do_pull_range_pre (GstProfTracer * self, guint64 ts, GstPad * pad,
    guint64 offset, guint size)
{
  GpThread *t = gp_thread_current (self);
  GpPad *ps = gp_pad_lookup (self, t, pad);
  GstPad *peer = GST_PAD_PEER (pad);
  GpPad *up;
  GpFrame *f;

  if (G_UNLIKELY (peer != ps->peer))
    gp_pad_refresh_peer (self, ps, peer);
  up = ps->peer_state;
  f = gp_frame_open (t, pad, up ? up->elem : NULL, ps->elem, GP_FRAME_PULL,
      1, ts, gp_wants_cpu (self, t, NULL), NULL);
  if (f && up && !up->is_proxy)
    f->link = up;
  if (G_UNLIKELY (self->nvtx != NULL) && f)
    gp_nvtx_range_open (self, t, f, pad);
}

static void
do_pull_range_post (GstProfTracer * self, guint64 ts, GstPad * pad,
    GstBuffer * buffer, GstFlowReturn res)
{
  GpThread *t = gp_thread_current (self);
  GpFrame *f = gp_frame_top (t);

  if (f && f->kind == GP_FRAME_PULL && buffer) {
    /* the link's writer is the puller: pulls on a pad are serialised */
    if (f->link) {
      gp_bump (&f->link->buffers, 1);
      gp_bump (&f->link->bytes, gst_buffer_get_size (buffer));
      gp_store (&f->link->last_push_ts, ts);
    }
    /* a demuxer fed untimed bytes is a latency origin for its outputs */
    if (f->drv) {
      if (GST_BUFFER_PTS_IS_VALID (buffer))
        gp_bump (&f->drv->timed_in, 1);
      else
        gp_bump (&f->drv->untimed_in, 1);
    }
  }
  if (G_UNLIKELY (self->nvtx != NULL))
    gp_nvtx_range_close (self, t);
  gp_frame_close (self, t, ts);
}

/* Events: serialized downstream events open a frame for the receiver whose
 * self time goes to event_ns (caps negotiation, encoder setup, EOS drain),
 * not into the buffer histogram.  Other events open a transparent frame so
 * that pre and post stay paired.  The caps of a link are captured here;
 * allocation is fine, caps events are rare. */
static void
do_push_event_pre (GstProfTracer * self, guint64 ts, GstPad * pad,
    GstEvent * event)
{
  GpThread *t = gp_thread_current (self);
  GpElem *recv = NULL;
  GpFrame *f;

  /* a pad not yet added to its element (demuxers push stream-start first)
   * gets its state when it is linked or pushes a buffer */
  if (GST_PAD_IS_SRC (pad) && GST_EVENT_IS_SERIALIZED (event)
      && GST_EVENT_IS_DOWNSTREAM (event) && GST_OBJECT_PARENT (pad)) {
    GpPad *ps = gp_pad_lookup (self, t, pad);
    GstPad *peer = GST_PAD_PEER (pad);

    if (G_UNLIKELY (peer != ps->peer))
      gp_pad_refresh_peer (self, ps, peer);
    if (ps->peer_state)
      recv = ps->peer_state->elem;

    switch (GST_EVENT_TYPE (event)) {
      case GST_EVENT_CAPS:
        if (!ps->is_proxy) {
          GstCaps *caps;
          gchar *str, *mem, *old_str, *old_mem;

          gst_event_parse_caps (event, &caps);
          gp_caps_describe (caps, &str, &mem);
          ps->rtp = gp_caps_are_rtp (caps);
          ps->rtp_checked = TRUE;
          /* the timer reads these under the same leaf lock */
          g_mutex_lock (&ps->lock);
          old_str = ps->caps;
          old_mem = ps->memory;
          ps->caps = str;
          ps->memory = mem;
          g_mutex_unlock (&ps->lock);
          g_free (old_str);
          g_free (old_mem);
        }
        break;
      case GST_EVENT_SEGMENT:
        gst_event_copy_segment (event, &ps->segment);
        ps->have_segment = TRUE;
        break;
      case GST_EVENT_FLUSH_STOP:
        if (ps->peer_state && ps->peer_state->ring) {
          GpRing *r = ps->peer_state->ring;

          gp_store (&r->flushed_upto, gp_load (&r->head));
        }
        break;
      default:
        break;
    }
  }
  f = gp_frame_open (t, pad, recv, NULL, GP_FRAME_EVENT, 0, ts,
      gp_wants_cpu (self, t, NULL), NULL);
  if (f)
    f->caps = GST_EVENT_TYPE (event) == GST_EVENT_CAPS;
}

static void
do_push_event_post (GstProfTracer * self, guint64 ts, GstPad * pad,
    gboolean res)
{
  GpThread *t = gp_thread_current (self);
  GpFrame *f = gp_frame_top (t);
  gboolean caps = f && f->kind == GP_FRAME_EVENT && f->caps && f->pad == pad;

  gp_frame_close (self, t, ts);
  /* (an unlinked pad refuses every event: that is not negotiation) */
  if (G_UNLIKELY (caps && !res && GST_PAD_PEER (pad) != NULL
          && t->refused == NULL)) {
    t->refused = gst_object_ref (pad);
    t->refused_ts = ts;
  }
}

/* Messages become timeline events.  Bins re-post their children's messages
 * through gst_element_post_message too: only the poster's own call counts.
 * An element without a bus posts into the void (autovideosink probes its
 * candidates before it adopts one): nobody receives that, so it is not an
 * event of the pipeline either. */
static void
do_post_message_pre (GstProfTracer * self, guint64 ts, GstElement * element,
    GstMessage * msg)
{
  GstStructure *ev;
  const gchar *type;
  gchar *text = NULL, *debug = NULL, *source;
  GpThread *t = gp_thread_peek ();

  if (G_UNLIKELY (t != NULL && t->refused != NULL))
    gp_report_refused (self, t);
  if (GST_MESSAGE_SRC (msg) != GST_OBJECT_CAST (element)
      || GST_ELEMENT_BUS (element) == NULL)
    return;

  source = gp_elem_dup_name (self, element);
  ev = gst_structure_new (GP_RECORD_EVENT, GP_EV_TS, G_TYPE_UINT64, ts,
      GP_EV_SOURCE, G_TYPE_STRING, source, NULL);
  g_free (source);
  switch (GST_MESSAGE_TYPE (msg)) {
    case GST_MESSAGE_ERROR:
    case GST_MESSAGE_WARNING:{
      GError *err = NULL;

      if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
        type = "error";
        gst_message_parse_error (msg, &err, &debug);
      } else {
        type = "warning";
        gst_message_parse_warning (msg, &err, &debug);
      }
      text = g_strdup (err ? err->message : "");
      if (debug)
        gst_structure_set (ev, GP_EV_DEBUG, G_TYPE_STRING, debug, NULL);
      g_clear_error (&err);
      break;
    }
    case GST_MESSAGE_EOS:
      type = "eos";
      break;
    case GST_MESSAGE_QOS:{
      GstFormat fmt;
      guint64 processed, dropped, running_time, stream_time, timestamp, dur;
      gint64 jitter;
      gdouble proportion;
      gint quality;
      gboolean live;

      type = "qos";
      gst_message_parse_qos (msg, &live, &running_time, &stream_time,
          &timestamp, &dur);
      gst_message_parse_qos_values (msg, &jitter, &proportion, &quality);
      gst_message_parse_qos_stats (msg, &fmt, &processed, &dropped);
      text = g_strdup_printf ("processed %" G_GUINT64_FORMAT ", dropped %"
          G_GUINT64_FORMAT " (%s)", processed, dropped,
          gst_format_get_name (fmt));
      gst_structure_set (ev, GP_EV_PROCESSED, G_TYPE_UINT64, processed,
          GP_EV_DROPPED, G_TYPE_UINT64, dropped,
          GP_EV_FORMAT, G_TYPE_STRING, gst_format_get_name (fmt),
          GP_EV_JITTER_NS, G_TYPE_INT64, jitter,
          GP_EV_LIVE, G_TYPE_BOOLEAN, live, NULL);
      if (GST_CLOCK_TIME_IS_VALID (running_time))
        gst_structure_set (ev, GP_EV_RUNNING_TIME, G_TYPE_UINT64,
            running_time, NULL);
      break;
    }
    case GST_MESSAGE_LATENCY:
      type = "latency";
      break;
    case GST_MESSAGE_BUFFERING:{
      GpElem *e = gp_elem_get (self, element);
      gint pct, turn, was;

      /* one event a turn: when the level falls below 100 % and when it is
       * back at 100 %, not each percent in between */
      gst_message_parse_buffering (msg, &pct);
      turn = pct < 100 ? 1 : 2;
      was = g_atomic_int_get (&e->buffering);
      if (was == turn
          || !g_atomic_int_compare_and_exchange (&e->buffering, was, turn)) {
        gst_structure_free (ev);
        return;
      }
      type = "buffering";
      text = g_strdup_printf ("%d%%", pct);
      gst_structure_set (ev, GP_EV_PERCENT, G_TYPE_UINT, (guint) pct, NULL);
      break;
    }
    case GST_MESSAGE_STATE_CHANGED:{
      GstState old_s, new_s, pending;

      /* children's state changes would drown the timeline */
      if (!GST_IS_PIPELINE (element) || GST_OBJECT_PARENT (element)) {
        gst_structure_free (ev);
        return;
      }
      type = "state";
      gst_message_parse_state_changed (msg, &old_s, &new_s, &pending);
      text = g_strdup_printf ("%s->%s", gst_element_state_get_name (old_s),
          gst_element_state_get_name (new_s));
      gst_structure_set (ev,
          GP_EV_OLD, G_TYPE_STRING, gst_element_state_get_name (old_s),
          GP_EV_NEW, G_TYPE_STRING, gst_element_state_get_name (new_s),
          GP_EV_PENDING, G_TYPE_STRING, gst_element_state_get_name (pending),
          NULL);
      gp_calibrate (self, ts);
      break;
    }
    default:
      gst_structure_free (ev);
      return;
  }

  gst_structure_set (ev, GP_EV_TYPE, G_TYPE_STRING, type,
      GP_EV_TEXT, G_TYPE_STRING, text ? text : "", NULL);
  g_free (text);
  g_free (debug);
  gp_window_add_event (self, ev);
}

static void
gp_remember_pipeline (GstProfTracer * self, GstElement * element)
{
  guint i;
  GWeakRef *ref;

  g_mutex_lock (&self->reg_lock);
  for (i = 0; i < self->pipelines->len; i++) {
    GObject *o = g_weak_ref_get (g_ptr_array_index (self->pipelines, i));

    if (o) {
      g_object_unref (o);
      if (o == (GObject *) element) {
        g_mutex_unlock (&self->reg_lock);
        return;
      }
    }
  }
  ref = g_new0 (GWeakRef, 1);
  g_weak_ref_init (ref, element);
  g_ptr_array_add (self->pipelines, ref);
  g_mutex_unlock (&self->reg_lock);
}

static void
do_element_new (GstProfTracer * self, guint64 ts, GstElement * element)
{
  gp_calibrate (self, ts);
  if (GST_IS_PIPELINE (element))
    gp_remember_pipeline (self, element);
}

/* Post, because READY->PAUSED is where sources have their final "is-live"
 * and the pads they will push on; reading properties is safe here. */
static void
do_element_change_state_post (GstProfTracer * self, guint64 ts,
    GstElement * element, GstStateChange transition,
    GstStateChangeReturn result)
{
  gp_calibrate (self, ts);
  if (transition == GST_STATE_CHANGE_READY_TO_PAUSED
      || transition == GST_STATE_CHANGE_NULL_TO_READY) {
    GpElem *e = gp_elem_get (self, element);

    gp_elem_read_live (e, element);
    gp_note_live (self, e, element);
    gp_elem_read_split (e, element);
    gp_handlers_watch (self, e, element);
    if (GST_IS_PIPELINE (element))
      gp_remember_pipeline (self, element);
  }
}

/* Topology: any change invalidates the cached upstream-origin sets; they
 * are recomputed lazily by the next buffer that enters each pad. */
static void
do_element_add_pad (GstProfTracer * self, guint64 ts, GstElement * element,
    GstPad * pad)
{
  gp_topology_changed (self);
}

static void
do_element_remove_pad (GstProfTracer * self, guint64 ts, GstElement * element,
    GstPad * pad)
{
  gp_topology_changed (self);
}

static void
do_bin_add_post (GstProfTracer * self, guint64 ts, GstBin * bin,
    GstElement * element, gboolean result)
{
  gp_topology_changed (self);
}

static void
do_bin_remove_post (GstProfTracer * self, guint64 ts, GstBin * bin,
    gboolean result)
{
  gp_topology_changed (self);
}

/* A link gets its state now so that it is reported even if nothing ever
 * flows through it (a stall is a link at 0 buffers/s). */
static void
do_pad_link_post (GstProfTracer * self, guint64 ts, GstPad * srcpad,
    GstPad * sinkpad, GstPadLinkReturn result)
{
  gp_calibrate (self, ts);
  gp_topology_changed (self);
  if (result == GST_PAD_LINK_OK && !GST_IS_PROXY_PAD (srcpad))
    gp_pad_get (self, srcpad);
}

static void
do_pad_unlink_post (GstProfTracer * self, guint64 ts, GstPad * srcpad,
    GstPad * sinkpad, gboolean result)
{
  gp_topology_changed (self);
}

/* tracer class */

static const struct
{
  const gchar *name;
  GCallback func;
} gst_prof_hooks[] = {
  {"pad-push-pre", G_CALLBACK (do_push_buffer_pre)},
  {"pad-push-post", G_CALLBACK (do_push_post)},
  {"pad-push-list-pre", G_CALLBACK (do_push_list_pre)},
  {"pad-push-list-post", G_CALLBACK (do_push_post)},
  {"pad-pull-range-pre", G_CALLBACK (do_pull_range_pre)},
  {"pad-pull-range-post", G_CALLBACK (do_pull_range_post)},
  {"pad-push-event-pre", G_CALLBACK (do_push_event_pre)},
  {"pad-push-event-post", G_CALLBACK (do_push_event_post)},
  {"element-post-message-pre", G_CALLBACK (do_post_message_pre)},
  {"element-new", G_CALLBACK (do_element_new)},
  {"element-change-state-post", G_CALLBACK (do_element_change_state_post)},
  {"element-add-pad", G_CALLBACK (do_element_add_pad)},
  {"element-remove-pad", G_CALLBACK (do_element_remove_pad)},
  {"bin-add-post", G_CALLBACK (do_bin_add_post)},
  {"bin-remove-post", G_CALLBACK (do_bin_remove_post)},
  {"pad-link-post", G_CALLBACK (do_pad_link_post)},
  {"pad-unlink-post", G_CALLBACK (do_pad_unlink_post)},
};

void
gst_prof_tracer_emit_window (GstProfTracer * self, const GstStructure * w)
{
  g_signal_emit (self, gst_prof_signals[SIGNAL_WINDOW], 0, w);
  gp_out_window (self, w);
}

static void
gst_prof_tracer_flush (GstProfTracer * self)
{
  if (self->active)
    gp_window_flush (self);
}

static GstStructure *
gst_prof_tracer_snapshot_graph (GstProfTracer * self)
{
  return gp_graph_snapshot (self);
}

static GstStructure *
gst_prof_tracer_collect_trace (GstProfTracer * self)
{
  return gp_pushes_collect (self);
}

/* trace=SECONDS (an int, or "10s"), or trace=true for the default span,
 * trace=false or 0 for none; above GP_TRACE_MAX_S, that. */
static void
gst_prof_tracer_parse_trace (GstProfTracer * self, const GValue * v,
    const gchar * params)
{
  gint64 sec = -1;

  if (G_VALUE_HOLDS_BOOLEAN (v))
    sec = g_value_get_boolean (v) ? GP_TRACE_DEFAULT_S : 0;
  else if (G_VALUE_HOLDS_INT (v))
    sec = g_value_get_int (v);
  else if (G_VALUE_HOLDS_UINT (v))
    sec = g_value_get_uint (v);
  else if (G_VALUE_HOLDS_STRING (v)) {
    const gchar *str = g_value_get_string (v);
    gchar *end = NULL;

    sec = g_ascii_strtoll (str, &end, 10);
    if (end == str || (*end && strcmp (end, "s") != 0))
      sec = -1;
  }
  if (sec < 0) {
    g_warning ("gstprof: GST_TRACERS: trace: '%s' is not a number of "
        "seconds or true/false; trace off", params);
    self->trace_s = GP_TRACE_OFF;
  } else if (sec > GP_TRACE_MAX_S) {
    g_warning ("gstprof: GST_TRACERS: trace=%" G_GINT64_FORMAT
        " is above the maximum of %u s; using %u", sec, GP_TRACE_MAX_S,
        GP_TRACE_MAX_S);
    self->trace_s = GP_TRACE_MAX_S;
  } else {
    self->trace_s = (guint) sec;
  }
}

/* GST_TRACERS' parameters arrive as the raw text between its parentheses,
 * the `params` property, on every release (the class does not ask 1.26 for
 * structure parameters: see the top of this file).  Each value ends in the
 * fields the `window`, `cpu`, `out`, `socket` and `trace` properties set,
 * in range: a bad one is named in a warning and left at its default or
 * clamped to the nearest bound, an unknown key is named and ignored.
 * Parsed once, in constructed (), after every construct property: params
 * win over properties given to g_object_new (). */
static void
gst_prof_tracer_parse_params (GstProfTracer * self)
{
  gchar *params = NULL, *text;
  GstStructure *s;
  guint i;

  g_object_get (self, "params", &params, NULL);
  if (!params || !*params) {
    g_free (params);
    return;
  }
  text = g_strdup_printf ("gstprof,%s", params);
  s = gst_structure_from_string (text, NULL);
  g_free (text);
  if (!s) {
    g_warning ("gstprof: GST_TRACERS: cannot parse parameters '%s' "
        "(expected e.g. gstprof(window=250,cpu=true))", params);
    g_free (params);
    return;
  }
  for (i = 0; i < (guint) gst_structure_n_fields (s); i++) {
    const gchar *key = gst_structure_nth_field_name (s, i);
    const GValue *v = gst_structure_get_value (s, key);

    if (!strcmp (key, "window")) {
      gint64 ms = -1;

      if (G_VALUE_HOLDS_INT (v))
        ms = g_value_get_int (v);
      else if (G_VALUE_HOLDS_UINT (v))
        ms = g_value_get_uint (v);
      else if (G_VALUE_HOLDS_STRING (v)) {
        const gchar *str = g_value_get_string (v);
        gchar *end = NULL;

        ms = g_ascii_strtoll (str, &end, 10);
        if (end == str || (*end && strcmp (end, "ms") != 0))
          ms = -1;
      }
      if (ms < 0) {
        g_warning ("gstprof: GST_TRACERS: window: '%s' is not a number of "
            "ms; using %u", params, self->window_ms);
      } else if (ms < GP_WINDOW_MIN_MS) {
        g_warning ("gstprof: GST_TRACERS: window=%" G_GINT64_FORMAT
            " is below the minimum of %u ms; using %u", ms,
            GP_WINDOW_MIN_MS, GP_WINDOW_MIN_MS);
        self->window_ms = GP_WINDOW_MIN_MS;
      } else if (ms > GP_WINDOW_MAX_MS) {
        g_warning ("gstprof: GST_TRACERS: window=%" G_GINT64_FORMAT
            " is above the maximum of %u ms (an hour); using %u", ms,
            GP_WINDOW_MAX_MS, GP_WINDOW_MAX_MS);
        self->window_ms = GP_WINDOW_MAX_MS;
      } else {
        self->window_ms = (guint) ms;
      }
    } else if (!strcmp (key, "cpu")) {
      gboolean b;

      if (gst_structure_get_boolean (s, key, &b))
        self->cpu = b;
      else
        g_warning ("gstprof: GST_TRACERS: cpu: expected true or false in "
            "'%s'", params);
    } else if (!strcmp (key, "out")) {
      if (G_VALUE_HOLDS_STRING (v) && *g_value_get_string (v)) {
        g_free (self->out_dir);
        self->out_dir = g_value_dup_string (v);
      } else {
        g_warning ("gstprof: GST_TRACERS: out: expected a folder in '%s'",
            params);
      }
    } else if (!strcmp (key, "socket")) {
      if (G_VALUE_HOLDS_STRING (v) && *g_value_get_string (v)) {
        g_free (self->socket_path);
        self->socket_path = g_value_dup_string (v);
      } else {
        g_warning ("gstprof: GST_TRACERS: socket: expected a path in '%s'",
            params);
      }
    } else if (!strcmp (key, "trace")) {
      gst_prof_tracer_parse_trace (self, v, params);
    } else if (!strcmp (key, "nvtx")) {
      gboolean b;

      if (gst_structure_get_boolean (s, key, &b))
        self->nvtx_wanted = b;
      else
        g_warning ("gstprof: GST_TRACERS: nvtx: expected true or false in "
            "'%s'", params);
    } else {
      g_warning ("gstprof: GST_TRACERS: unknown parameter '%s' in '%s' "
          "(known: window, cpu, out, socket, trace, nvtx)", key, params);
    }
  }
  gst_structure_free (s);
  g_free (params);
}

/* `out` and `socket` from the environment when GST_TRACERS does not give
 * them (GP_TRACER_OUT_ENV, GP_TRACER_SOCKET_ENV): GStreamer splits
 * GST_TRACERS on ';' and ends the parameters at the first ')', whatever
 * the quotes, so a path holding either (a TMPDIR) cannot travel there. */
static void
gst_prof_tracer_env_params (GstProfTracer * self)
{
  const gchar *out = g_getenv (GP_TRACER_OUT_ENV);
  const gchar *socket = g_getenv (GP_TRACER_SOCKET_ENV);

  if (self->out_dir == NULL && out != NULL && *out != '\0')
    self->out_dir = g_strdup (out);
  if (self->socket_path == NULL && socket != NULL && *socket != '\0')
    self->socket_path = g_strdup (socket);
}

static void
gst_prof_tracer_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstProfTracer *self = GST_PROF_TRACER (object);

  /* construct-only: GLib calls this only while the object is being built,
   * with a value it checked against the range */
  switch (prop_id) {
    case PROP_WINDOW:
      self->window_ms = g_value_get_uint (value);
      break;
    case PROP_CPU:
      self->cpu = g_value_get_boolean (value);
      break;
    case PROP_OUT:
      g_free (self->out_dir);
      self->out_dir = g_value_dup_string (value);
      break;
    case PROP_SOCKET:
      g_free (self->socket_path);
      self->socket_path = g_value_dup_string (value);
      break;
    case PROP_TRACE:
      self->trace_s = g_value_get_uint (value);
      break;
    case PROP_NVTX:
      self->nvtx_wanted = g_value_get_boolean (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_prof_tracer_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstProfTracer *self = GST_PROF_TRACER (object);

  switch (prop_id) {
    case PROP_WINDOW:
      g_value_set_uint (value, self->window_ms);
      break;
    case PROP_CPU:
      g_value_set_boolean (value, self->cpu);
      break;
    case PROP_OUT:
      g_value_set_string (value, self->out_dir);
      break;
    case PROP_SOCKET:
      g_value_set_string (value, self->socket_path);
      break;
    case PROP_TRACE:
      g_value_set_uint (value, self->trace_s);
      break;
    case PROP_NVTX:
      /* in use: FALSE when the library was refused */
      g_value_set_boolean (value, self->nvtx != NULL);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

/* The instance that writes `out` records, for the exit handler; cleared
 * when it goes (gst_deinit). */
static GstProfTracer *gst_prof_exiting;
static gboolean gst_prof_atexit_done;

static void
gst_prof_tracer_atexit (void)
{
  GstProfTracer *self = gst_prof_exiting;

  if (self == NULL)
    return;
  gst_prof_exiting = NULL;
  g_rec_mutex_lock (&self->emit_lock);
  gp_window_flush (self);
  gp_out_close (self);
  g_rec_mutex_unlock (&self->emit_lock);
}

static void
gst_prof_tracer_constructed (GObject * object)
{
  GstProfTracer *self = GST_PROF_TRACER (object);
  GstTracer *tracer = GST_TRACER (object);
  GString *names;
  guint i;

  G_OBJECT_CLASS (parent_class)->constructed (object);

  if (g_atomic_int_add (&gst_prof_instances, 1) > 0) {
    g_warning ("gstprof: GST_TRACERS lists gstprof more than once; only the "
        "first instance measures");
    return;
  }
  self->active = TRUE;
  g_type_set_qdata (GST_TYPE_PROF_TRACER,
      g_quark_from_static_string (GP_TRACER_INSTANCE_QDATA), self);
  gst_prof_tracer_parse_params (self);
  gst_prof_tracer_env_params (self);
  gp_pushes_setup (self);
  if (self->nvtx_wanted)
    gp_nvtx_setup (self);

  names = g_string_new (NULL);
  for (i = 0; i < G_N_ELEMENTS (gst_prof_hooks); i++) {
    gst_tracing_register_hook (tracer, gst_prof_hooks[i].name,
        gst_prof_hooks[i].func);
    g_string_append_printf (names, "%s%s", i ? "+" : "",
        gst_prof_hooks[i].name);
  }
  GST_INFO_OBJECT (self, "window=%u ms cpu=%d trace=%u s nvtx=%d, "
      "registered hooks: %s", self->window_ms, self->cpu, self->trace_s,
      self->nvtx != NULL, names->str);
  g_string_free (names, TRUE);

  gp_out_open (self);
  if (self->out_fd >= 0) {
    /* a program that never calls gst_deinit () still gets its last
     * window and the end of the file */
    gst_prof_exiting = self;
    if (!gst_prof_atexit_done) {
      gst_prof_atexit_done = TRUE;
      atexit (gst_prof_tracer_atexit);
    }
  }
  gp_window_start (self);
}

static void
gp_free_weak (gpointer data)
{
  g_weak_ref_clear (data);
  g_free (data);
}

static void
gst_prof_tracer_finalize (GObject * object)
{
  GstProfTracer *self = GST_PROF_TRACER (object);
  guint i;

  if (self->active) {
    g_type_set_qdata (GST_TYPE_PROF_TRACER,
        g_quark_from_static_string (GP_TRACER_INSTANCE_QDATA), NULL);
    if (gst_prof_exiting == self)
      gst_prof_exiting = NULL;
    /* the last, partial window goes to the file too */
    if (self->out_fd >= 0)
      gp_window_flush (self);
    gp_window_stop (self);
    gp_out_close (self);
    g_atomic_int_add (&gst_prof_instances, -1);
  }
  /* no hook runs any more (gst_deinit disabled them first): the links
   * between states go, which breaks their cycles, then the registry's refs.
   * States still in qdata keep their own ref and go with their object. */
  for (i = 0; i < self->pads->len; i++)
    gp_pad_release_links (g_ptr_array_index (self->pads, i));
  for (i = 0; i < self->elems->len; i++)
    gp_elem_release_links (g_ptr_array_index (self->elems, i));
  g_ptr_array_set_free_func (self->pads, (GDestroyNotify) gp_pad_unref);
  g_ptr_array_set_free_func (self->elems, (GDestroyNotify) gp_elem_unref);
  g_ptr_array_set_free_func (self->threads, (GDestroyNotify) gp_thread_unref);
  g_ptr_array_unref (self->pads);
  g_ptr_array_unref (self->elems);
  g_ptr_array_unref (self->threads);
  g_ptr_array_unref (self->pipelines);
  g_ptr_array_unref (self->events);
  for (i = 0; i < self->handler_hooks->len; i++) {
    GpHandlerHook *h = &g_array_index (self->handler_hooks, GpHandlerHook, i);

    g_signal_remove_emission_hook (h->signal_id, h->hook_id);
  }
  g_array_unref (self->handler_hooks);
  if (G_IS_VALUE (&self->hw))
    g_value_unset (&self->hw);
  g_mutex_clear (&self->reg_lock);
  g_mutex_clear (&self->state_lock);
  g_mutex_clear (&self->ev_lock);
  g_mutex_clear (&self->names_lock);
  g_rec_mutex_clear (&self->emit_lock);
  g_free (self->out_dir);
  g_free (self->socket_path);
  gp_nvtx_free (self);
  if (self->trace_names)
    g_ptr_array_unref (self->trace_names);
  if (self->trace_retired)
    g_ptr_array_unref (self->trace_retired);

  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_prof_tracer_class_init (GstProfTracerClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);

  gobject_class->set_property = gst_prof_tracer_set_property;
  gobject_class->get_property = gst_prof_tracer_get_property;
  gobject_class->constructed = gst_prof_tracer_constructed;
  gobject_class->finalize = gst_prof_tracer_finalize;

  /**
   * GstProfTracer:window:
   *
   * Length of a window in ms: how often the tracer closes the current
   * window and emits its record (the `window` signal), whether or not data
   * flows.  Read once when the tracer starts measuring.
   */
  gst_prof_props[PROP_WINDOW] = g_param_spec_uint ("window", "Window (ms)",
      "Length of a measurement window in ms: the tracer emits one record "
      "(the window signal) per window, whether or not data flows",
      GP_WINDOW_MIN_MS, GP_WINDOW_MAX_MS, GP_WINDOW_DEFAULT_MS,
      G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  /**
   * GstProfTracer:cpu:
   *
   * Also read the thread's CPU clock at the start and end of every push
   * (and pull and serialized event), to report each element's CPU self time
   * (`cpu_ns`).  Costs a system call each time.  Read once when the tracer
   * starts measuring.
   */
  gst_prof_props[PROP_CPU] = g_param_spec_boolean ("cpu", "CPU self time",
      "Read the thread CPU clock around every push, pull and serialized "
      "event to report each element's CPU self time (cpu_ns); costs a "
      "system call at each one's start and end",
      GP_CPU_DEFAULT,
      G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  /**
   * GstProfTracer:out:
   *
   * A folder the tracer writes its records into by itself, as
   * gstprof-PID.records (one record per line, appended as each window
   * closes), for `gstprof analyze FOLDER`; none: records go to the
   * `window` signal only.  Read once when the tracer starts measuring.
   */
  gst_prof_props[PROP_OUT] = g_param_spec_string ("out", "Records folder",
      "A folder the tracer writes its records into by itself "
      "(gstprof-PID.records, for gstprof analyze); none: the window signal "
      "only", NULL,
      G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  /**
   * GstProfTracer:socket:
   *
   * A Unix socket (gstprof wrap's) the tracer streams its records to, the
   * lines of `out`'s file, each as its window closes; a reader that falls
   * behind gets whole lines left out, never a stalled pipeline.  With
   * `out` too, the file is written when the socket cannot be reached.
   * Read once when the tracer starts measuring.
   */
  gst_prof_props[PROP_SOCKET] = g_param_spec_string ("socket",
      "Records socket", "A Unix socket the tracer streams its records to "
      "as windows close (gstprof wrap's); none: not streamed", NULL,
      G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  /**
   * GstProfTracer:trace:
   *
   * Seconds of pushes to keep: every push's (pull's, serialized event's)
   * enter and exit and element, per streaming thread, in a ring sized for
   * that span at up to GP_TRACE_RATE_MAX pushes a second per thread, read
   * with the `collect-trace` action.  0: off.  Read once when the tracer
   * starts measuring.
   */
  gst_prof_props[PROP_TRACE] = g_param_spec_uint ("trace", "Trace (s)",
      "Seconds of pushes to keep per streaming thread (enter, exit, "
      "element; the collect-trace action reads them); 0: off",
      0, GP_TRACE_MAX_S, GP_TRACE_OFF,
      G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  /**
   * GstProfTracer:nvtx:
   *
   * Open an NVTX range per element per buffer (domain "gstprof", named by
   * the element) and name the streaming threads, for Nsight Systems,
   * through libnvToolsExt loaded at run time (gstprofnvtx.c).  Without the
   * library it is refused with a warning and reads FALSE.  Read once when
   * the tracer starts measuring.
   */
  gst_prof_props[PROP_NVTX] = g_param_spec_boolean ("nvtx", "NVTX ranges",
      "Open an NVTX range per element per buffer (domain gstprof) and name "
      "streaming threads, through libnvToolsExt loaded at run time; "
      "refused when the library is absent", FALSE,
      G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (gobject_class, N_PROPS, gst_prof_props);

  /**
   * GstProfTracer::window:
   * @tracer: the tracer
   * @window: (transfer none): the `gstprof-window` record
   *
   * Emitted on the tracer's timer thread once per window (and from the
   * caller's thread on `flush`).  Copy what you keep.
   */
  gst_prof_signals[SIGNAL_WINDOW] = g_signal_new ("window",
      G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
      G_TYPE_NONE, 1, GST_TYPE_STRUCTURE | G_SIGNAL_TYPE_STATIC_SCOPE);

  /**
   * GstProfTracer::flush:
   * @tracer: the tracer
   *
   * Closes the current window and emits it before returning.
   */
  gst_prof_signals[SIGNAL_FLUSH] = g_signal_new_class_handler ("flush",
      G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST | G_SIGNAL_ACTION,
      G_CALLBACK (gst_prof_tracer_flush), NULL, NULL, NULL, G_TYPE_NONE, 0);

  /**
   * GstProfTracer::snapshot-graph:
   * @tracer: the tracer
   *
   * Returns: (transfer full): the `gstprof-graph` record, built now.
   */
  gst_prof_signals[SIGNAL_SNAPSHOT_GRAPH] =
      g_signal_new_class_handler ("snapshot-graph", G_TYPE_FROM_CLASS (klass),
      G_SIGNAL_RUN_LAST | G_SIGNAL_ACTION,
      G_CALLBACK (gst_prof_tracer_snapshot_graph), NULL, NULL, NULL,
      GST_TYPE_STRUCTURE, 0);

  /**
   * GstProfTracer::collect-trace:
   * @tracer: the tracer
   *
   * Returns: (transfer full) (nullable): the `gstprof-trace` record of
   * every thread's ring, read now; NULL when trace is off.
   */
  gst_prof_signals[SIGNAL_COLLECT_TRACE] =
      g_signal_new_class_handler ("collect-trace", G_TYPE_FROM_CLASS (klass),
      G_SIGNAL_RUN_LAST | G_SIGNAL_ACTION,
      G_CALLBACK (gst_prof_tracer_collect_trace), NULL, NULL, NULL,
      GST_TYPE_STRUCTURE, 0);
}

static void
gst_prof_tracer_init (GstProfTracer * self)
{
  self->window_ms = GP_WINDOW_DEFAULT_MS;
  self->cpu = GP_CPU_DEFAULT;
  self->out_fd = -1;
  self->q_pad = g_quark_from_static_string ("gstprof:pad");
  self->q_elem = g_quark_from_static_string ("gstprof:element");
  self->q_live = g_quark_from_static_string ("gstprof:live");
  g_mutex_init (&self->reg_lock);
  g_mutex_init (&self->state_lock);
  g_mutex_init (&self->names_lock);
  g_mutex_init (&self->ev_lock);
  g_rec_mutex_init (&self->emit_lock);
  self->elems = g_ptr_array_new ();
  self->pads = g_ptr_array_new ();
  self->threads = g_ptr_array_new ();
  self->pipelines = g_ptr_array_new_with_free_func (gp_free_weak);
  self->events = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_structure_free);
  self->handler_hooks = g_array_new (FALSE, FALSE, sizeof (GpHandlerHook));
  /* an upper bound of gst_init's start time until a hook refines it */
  self->ts_offset = gst_util_get_timestamp ();
}
