/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof tracer
 *
 * gstprofprivate.h: the tracer's internal state, shared by the hook file
 * (gstproftracer.c), the state helpers (gstprofstate.c), the window emitter
 * (gstprofwindow.c) and the graph snapshot (gstprofgraph.c).
 *
 * Ownership rules, in one place:
 *
 *  - GpElem / GpPad live in qdata on their GstElement / GstPad (one ref) and
 *    in the tracer's registry (one ref).  The qdata destroy notify marks the
 *    state dead and drops the refs the state holds on *other* states; the
 *    state's own memory goes when its last ref goes.  The timer drops the
 *    registry ref only after it has reported the dead state once, which also
 *    gives a hot path that raced with the object's death a full window of
 *    grace before the memory is reused.
 *  - The hot path never takes a lock and never allocates once a state
 *    exists; creation and topology changes go through gp_state_lock.
 *  - With trace=SECONDS each thread also keeps a ring of its pushes
 *    (GpTraceRing, gp-record.h's GpTraceSlice): written by the thread alone
 *    as each push returns, allocated with the thread's state; off, the
 *    hot path pays one branch on a NULL pointer.
 *  - Fields are marked by who writes them: (hot, atomic) many streaming
 *    threads, relaxed atomics; (hot, 1 writer) serialised by a stream lock,
 *    plain relaxed stores, read by the timer as monotonic counters; (timer)
 *    only the timer thread; (create) written once under gp_state_lock.
 */
#ifndef __GST_PROF_PRIVATE_H__
#define __GST_PROF_PRIVATE_H__

#include <gst/gst.h>
#include "core/gp-histogram.h"
#include "core/gp-record.h"
#include "gstproftracer.h"

G_BEGIN_DECLS

GST_DEBUG_CATEGORY_EXTERN (gst_prof_debug);

/* depth of the per-thread push stack; deeper nesting is counted, not kept */
#define GP_STACK_DEPTH 64
/* PTS -> ts entries per origin pad: 512 sets of 4 ways, the oldest entry
 * of a set is replaced, so entries still travelling through deep queues
 * survive PTS that happen to hash together */
#define GP_ORIGIN_SET_BITS 9
#define GP_ORIGIN_SETS (1 << GP_ORIGIN_SET_BITS)
#define GP_ORIGIN_WAYS 4
/* ... and the last GP_ORIGIN_RUN of them in push order; a reader keeps
 * GP_ORIGIN_RUN_MARGIN slots away from the writer */
#define GP_ORIGIN_RUN (1 << 10)
#define GP_ORIGIN_RUN_MARGIN 64
/* a running time this far below the newest starts a new timeline (a seek
 * or flush); less is reordering (B-frames pushed in decode order) */
#define GP_ORIGIN_REWIND_NS (1 * GST_SECOND)
/* enqueue records per queue (per sink/src pair for multiqueue) */
#define GP_RING_SLOTS 512
/* a ring that failed this many dequeue matches in a row stops recording:
 * the queue rewrites buffers (queue2 download mode) and matching is moot */
#define GP_RING_MAX_MISSES 64
/* elements remembered per thread for the "elements" field */
#define GP_THREAD_ELEMS 128
/* a thread's name: its /proc comm is at most 15 bytes (TASK_COMM_LEN), the
 * name GStreamer gave it ("videotestsrc0:src") a little longer */
#define GP_THREAD_NAME_BYTES 32
/* pad states a thread finds without the pad's qdata (a locked list walk,
 * the hot path's costliest step): a direct-mapped cache per thread, valid
 * for one topology generation (a pad goes only after element-remove-pad,
 * which starts a new one) */
#define GP_PAD_CACHE 64
/* a push into a queue longer than this waited for room: backpressure */
#define GP_QUEUE_BLOCK_NS (100 * GST_USECOND)
/* Waiting apart from work (gp_wait_mode): a frame or gap timed by the wall
 * clock that is longer than this may hide a wait, so the thread's CPU clock
 * is read again (two reads, about 0.4 us, under 1 % of it) ... */
#define GP_WAIT_LONG_NS (50 * GST_USECOND)
/* ... and this many CPU-timed ones in a row, each shorter than
 * GP_WAIT_FAST_NS of wall time, show that the element does not wait: the
 * reads stop, since they would cost more than a few per cent of its time */
#define GP_WAIT_FAST_NS (20 * GST_USECOND)
#define GP_WAIT_FAST_RUN 256

/* relaxed atomics on 64-bit counters; the builtins exist on every compiler
 * GStreamer supports on Linux, and GLib has no 64-bit add */
#define gp_load(p) __atomic_load_n ((p), __ATOMIC_RELAXED)
#define gp_store(p, v) __atomic_store_n ((p), (v), __ATOMIC_RELAXED)
#define gp_add(p, v) __atomic_fetch_add ((p), (v), __ATOMIC_RELAXED)
#define gp_xchg(p, v) __atomic_exchange_n ((p), (v), __ATOMIC_RELAXED)

static inline void
gp_atomic_max (guint64 * p, guint64 v)
{
  guint64 cur = gp_load (p);

  while (v > cur && !__atomic_compare_exchange_n (p, &cur, v, TRUE,
          __ATOMIC_RELAXED, __ATOMIC_RELAXED));
}

/* single-writer increment: no lock prefix, the reader takes deltas */
#define gp_bump(p, v) gp_store ((p), gp_load (p) + (v))

typedef enum
{
  GP_KIND_FILTER,
  GP_KIND_SOURCE,
  GP_KIND_SINK,
  GP_KIND_QUEUE,
  GP_KIND_TEE,
  GP_KIND_MUX,
  GP_KIND_DEMUX,
  GP_KIND_BIN,
} GpKind;

typedef enum
{
  GP_QUEUE_NONE,
  GP_QUEUE_QUEUE,
  GP_QUEUE_QUEUE2,
  GP_QUEUE_MULTI,
} GpQueueType;

/* Whether an element's frames (or a driver's gaps) are measured by the
 * thread's CPU clock now, so that its waiting is kept apart from its work;
 * (hot, relaxed): the threads pushing into it all write it */
typedef struct
{
  gint cpu;                     /* measured by CPU now (starts so) */
  guint fast;                   /* CPU-measured ones in a row that were short */
} GpWaitMode;

/* A queue's accumulators: one per queue or queue2 (in its element's
 * state), one per single queue of a multiqueue (in its sink pad's). */
typedef struct
{
  /* (hot, atomic) */
  guint64 res_hist[GP_HIST_N_BUCKETS];
  guint64 res_max;
  guint64 dropped;
  guint64 blocked_ns;

  /* level samples (timer) */
  guint n_level;
  gdouble level_buffers_sum;
  guint64 level_buffers_max;
  guint64 level_bytes_max;
  guint64 level_time_max;
  gdouble level_pct_sum;
  gdouble level_pct_max;
  guint max_buffers;
  guint max_bytes;
  guint64 max_time;
} GpQueueAcc;

typedef struct _GpElem GpElem;
typedef struct _GpPad GpPad;
typedef struct _GpThread GpThread;
typedef struct _GpNvtx GpNvtx;

/* (running time -> ts) tables: sets of GP_ORIGIN_WAYS slots, a seqlock
 * per slot, one writer (the thread pushing on the pad that owns the
 * table), readers anywhere downstream */
typedef struct
{
  guint64 seq;
  guint64 rt;
  guint64 ts;
} GpTimeSlot;

typedef GpTimeSlot GpTimeSet[GP_ORIGIN_WAYS];

/* A sink pad of an element that merges streams (a muxer, a mixer, funnel)
 * remembers the running times of the buffers that entered by it, so that
 * downstream a muxed buffer is matched with the origins of the input it
 * came from only (a muxed audio packet is not a late video frame); a
 * buffer no input saw with its running time (a mixer's output) is matched
 * with them all.  Only as long as the buffers it must cover: the merging
 * element's own queue and what lies between it and the lookups. */
#define GP_MERGE_SETS (1 << 7)

typedef struct
{
  /* (create) the element packs its inputs (a muxer): a buffer that came in
   * by none of them is its own (headers, index, padding), nobody's content,
   * where a mixer's output is everybody's */
  gboolean packs;
  GpTimeSet sets[GP_MERGE_SETS];
  /* a muxer that re-bases its output (mpegtsmux, and hlssink2's inside:
   * its first output at its segment's start): output running time =
   * input's + shift.  Learnt by the muxer's output thread from outputs no
   * input saw (gp_merge_learn); read by every lookup below the muxer once
   * shift_known.  first_rt, last_rt: the first and the newest input's,
   * + 1 (the pad's writer). */
  guint64 first_rt, last_rt;
  gint64 shift;
  gint shift_known;
  gint64 cand;                  /* (learner) the shift being tried */
  gboolean tried_first;         /* (learner) first output - first input */
  guint64 cand_rt;              /* (learner) the output it last held
                                 * for, + 1 */
  guint hits;                   /* (learner) distinct outputs it held for */
} GpMergeTab;

/* a shift is kept once this many outputs of distinct running times were
 * found in the input with it (one output and its PES packets share one) */
#define GP_MERGE_SHIFT_HITS 3

/* The same entries in push order with running times strictly increasing
 * (reordered ones are left out: they are in the sets), for the lookups
 * that miss the exact running time: elements that re-chunk (audio
 * encoders, depayloaders), re-timestamp (rtpjitterbuffer), aggregate
 * (compositor, audiomixer, muxers) or drop and repeat (videorate) keep
 * the running time of their content, not of each input buffer.  One
 * writer; readers check afterwards that the writer did not lap them. */
typedef struct
{
  guint64 rt;
  guint64 ts;
} GpRunSlot;

typedef struct
{
  GpTimeSet sets[GP_ORIGIN_SETS];
  guint64 run_head;             /* next slot to write, published (release) */
  guint64 run_base;             /* first slot of the current timeline */
  guint64 run_last;             /* (writer) newest running time appended */
  GpRunSlot run[GP_ORIGIN_RUN];
} GpOrigin;

/* enqueue records of one queue (or one multiqueue sink/src pair): single
 * producer (upstream thread, at push-pre into the sink pad), single consumer
 * (the queue's thread, at push-pre on the src pad) */
typedef struct
{
  gconstpointer buf;
  guint64 pts;
  guint64 ts;
  guint64 size;
} GpRingSlot;

typedef struct
{
  guint64 head;                 /* (producer) next slot to write */
  guint64 tail;                 /* (consumer) oldest unmatched slot */
  guint64 flushed_upto;         /* head at the last FLUSH_STOP */
  guint64 bytes_in;             /* (producer) */
  guint64 bytes_out;            /* (consumer) */
  guint misses;                 /* (consumer) consecutive failed matches */
  gint broken;                  /* set once matching proved pointless */
  GpRingSlot slots[GP_RING_SLOTS];
} GpRing;

/* latency accumulator of one (origin pad, element) pair; owned by the
 * element, pointed to by its sink pads' lookup lists */
typedef struct
{
  gint ref;
  GpPad *origin;                /* (create) ref */
  guint64 matched;              /* (hot, atomic) */
  guint64 exact;                /* (hot, atomic) of matched: same
                                 * running time */
  guint64 unmatched;            /* (hot, atomic) */
  guint64 sum_ns;               /* (hot, atomic) */
  guint64 max_ns;               /* (hot, atomic) */
  guint64 hist[GP_HIST_N_BUCKETS];      /* (hot, atomic) */
  guint64 last_rt;              /* (hot, atomic) below a re-basing muxer:
                                 * the last running time looked up + 1 */
} GpLat;

struct _GpElem
{
  gint ref;
  GWeakRef obj;
  gpointer raw;                 /* identity only, never dereferenced */

  /* (create) */
  GpKind kind;
  GpQueueType qtype;
  gboolean is_source;
  gboolean is_sink;
  gboolean is_bin;
  gboolean is_muxer;            /* klass "Muxer": packs its inputs */
  gchar *factory;
  gchar *nvtx_name;             /* nvtx: its range's name, else NULL */
  guint trace_id;               /* its index in trace_names (trace only) */

  /* -1 unknown, 0 not live (or not a source), 1 live; read from "is-live"
   * outside the hot path */
  gint live;

  /* (hot, atomic) self time of buffers; events apart */
  guint64 buffers;
  guint64 self_ns;
  guint64 self_max;
  guint64 cpu_ns;
  guint64 event_ns;
  guint64 handler_ns;           /* its signals' handlers (GP_E_HANDLER_*) */
  guint64 handler_n;
  guint64 hist[GP_HIST_N_BUCKETS];
  gint seen;                    /* drove a thread this window */

  /* Waiting apart from work.  split (create, or the state change to
   * PAUSED for clock-synced filters): pushes into it may wait rather than
   * work (sinks: clock and preroll; aggregators and muxers: their inputs
   * wait for the output thread or the other inputs; identity sync=true).
   * Its frames, and every driver's gaps, are measured by the thread's CPU
   * clock while frame_wait / gap_wait say so: the CPU time is the sample,
   * the rest of the wall time is wait_ns and wait_hist. */
  gboolean split;
  GpWaitMode frame_wait;
  GpWaitMode gap_wait;          /* (hot, 1 writer: the thread it drives) */
  guint64 cpu_samples;          /* (hot, atomic) samples timed by CPU */
  guint64 wait_ns;              /* (hot, atomic) */
  guint64 wait_hist[GP_HIST_N_BUCKETS]; /* (hot, atomic) wait per buffer */

  /* (hot, 1 writer) timed vs untimed input, for origin detection */
  guint64 timed_in;
  guint64 untimed_in;

  /* queue and queue2 (allocated for them only) */
  GpQueueAcc *q;
  const gchar *leaky;           /* (timer) */
  /* an element with a queue of its own that is not a queue (appsrc), its
   * level sampled with the queues' (gp-record.h GP_E_LEVEL_*): own_level
   * (create); the rest (timer) */
  gboolean own_level;
  guint level_n;
  guint64 level_bytes_max;
  guint64 level_bytes;
  guint64 level_limit;
  gboolean level_blocks;

  /* latency pairs, appended under lat_lock, read by the timer under it */
  GMutex lat_lock;
  GPtrArray *lat;               /* GpLat*, ref */

  /* the record name (gp-record.h, "Names"): written by gp_names_refresh
   * under emit_lock and names_lock, read under either */
  gchar *name;
  gboolean pathed;              /* (emit_lock) named by its path, for good */
  guint top_n;                  /* (emit_lock) a top-level bin's number
                                 * among the live ones of its name: 0 not
                                 * yet given, 1 its name, N "name#N" */
  gchar *top_name;              /* (emit_lock) the name top_n was given
                                 * for: a bin renamed since is numbered
                                 * again among those of its new name */
  /* an application's handler on one of its streaming signals
   * (GP_HANDLER_SIGNALS): set once, at a state change, with the tracer's
   * closing handler connected after it */
  gboolean handlers;

  /* (atomic) a buffering element (queue2, multiqueue with use-buffering):
   * 0 never posted, 1 below 100 %, 2 at 100 % */
  gint buffering;

  /* (timer) */
  gint dead;                    /* set by the destroy notify */
  gboolean reported_dead;
};

struct _GpPad
{
  gint ref;
  GWeakRef obj;
  GstPad *raw;                  /* identity only */

  /* (create) */
  GpElem *elem;                 /* real parent element, ref; NULL if none */
  gboolean is_src;
  gboolean is_proxy;

  /* push side (or pull side for sink pads in pull mode), refreshed by the
   * thread that pushes on this pad when GST_PAD_PEER changes */
  GstPad *peer;                 /* raw, compared with GST_PAD_PEER */
  GpPad *peer_state;            /* ref; NULL when the peer is a proxy */
  gboolean peer_pass;           /* peer is a ghost/proxy pad */

  /* link counters (hot, 1 writer) */
  guint64 buffers;
  guint64 bytes;
  guint64 duration;             /* sum of the buffers' durations */
  guint64 timed;                /* buffers that had a duration */
  guint64 no_pts;               /* buffers that had no PTS */
  guint64 gap;                  /* buffers flagged GAP */
  guint64 last_push_ts;         /* the hook ts of the latest push */

  /* lateness against the pipeline clock (gp-record.h GP_L_LATE_*): how
   * long after its running time each buffer was pushed; (hot, atomic) so
   * the timer can take and reset them */
  guint64 late_n;
  guint64 late_sum;
  guint64 late_max;
  guint64 late_hist[GP_HIST_N_BUCKETS];
  /* (hot, 1 writer) whether the pad's pipeline has a live source (only
   * its links measure lateness), as of live_gen + topo_gen == late_gen */
  gint late_gen;
  gboolean late_on;

  /* RTP sequence numbers (gp-record.h GP_L_RTP_*) on a link whose caps are
   * application/x-rtp: rtp is set by the pushing thread at a CAPS event or
   * at its first push (rtp_checked); the rest (hot, 1 writer), the timer
   * reads the counts */
  gboolean rtp;
  gboolean rtp_checked;
  gboolean rtp_seen;            /* a packet was counted */
  guint32 rtp_ssrc;
  guint16 rtp_max_seq;          /* the highest sequence number so far */
  guint64 rtp_mask;             /* bit i: rtp_max_seq - i was received */
  guint32 rtp_probation;        /* the sequence number that confirms a
                                 * restart (the last stray's + 1), or
                                 * G_MAXUINT32 */
  guint64 rtp_expected;
  guint64 rtp_received;
  guint64 rtp_restarts;

  /* an application's pad probes on this link (gp-record.h GP_L_PROBE_*):
   * while this pad or its peer has one, the tracer keeps a marker probe of
   * its own last on the peer (gp_probe_prepare); the time from the push to
   * the marker ran those probes.  probe_peer and the two pads' probe counts
   * when they were last looked at (probe_seen_*), whether an application's
   * probe was among them (probe_app), and the marker's pad (probe_raw) and
   * id: (hot, 1 writer: the pushing thread); probe_pad (weak: the pad the
   * marker is on); probe_ns and probe_n (hot, atomic: a proxy pad's pushes
   * add into the real link below them), the timer reads them */
  GstPad *probe_peer;
  gint probe_gen;               /* topo_gen when last looked at (a new peer
                                 * at a freed one's address) */
  gint probe_busy;              /* (atomic) a recheck is under way */
  gint probe_seen_src;
  gint probe_seen_peer;
  gboolean probe_app;
  GstPad *probe_raw;
  GWeakRef probe_pad;
  gulong probe_id;
  guint64 probe_ns;
  guint64 probe_n;

  /* caps from CAPS events, and the name; lock is a leaf lock */
  GMutex lock;
  gchar *caps;
  gchar *memory;
  gchar *name;                  /* "element.pad" */

  /* the segment of the buffers pushed on this pad, so latency matches
   * running times (an encoder that offsets PTS by 1000 hours and its
   * segment by the same amount still matches); written by the pushing
   * thread at SEGMENT events, read by the same thread at buffer pushes */
  GstSegment segment;
  gboolean have_segment;
  gboolean segment_checked;     /* sticky segment looked up once */

  /* origin of latency: table allocated at the first timed push */
  GpOrigin *origin;             /* atomic pointer */
  gint origin_active;

  /* sink side: origins upstream, recomputed when the topology changes;
   * only the thread pushing into this pad touches them.  lat_merge: the
   * sink pad (ref) of the nearest merging element on the way to that
   * origin, whose table tells the inputs apart, or NULL when the way
   * merges nothing (GpMergeTab) */
  gint lat_gen;
  guint n_lat;
  GpLat **lat;                  /* refs */
  GpOrigin **lat_tab;
  GpPad **lat_merge;

  /* sink pads of merging elements: allocated by the first topology walk
   * that finds the merge (atomic pointer), written by the thread pushing
   * into the pad, freed with the pad */
  GpMergeTab *merge;

  /* queue family: ring on the sink pad, the src pad points at it; a
   * multiqueue's sink pad also holds its single queue's accumulators */
  GpRing *ring;
  GpQueueAcc *q;
  GpPad *deq;                   /* ref; src pads of queues */
  gboolean deq_resolved;

  gint failed;                  /* (hot, once) a refused push or caps
                                 * reported */

  /* (timer) */
  guint64 last_buffers;
  guint64 last_bytes;
  guint64 last_duration;
  guint64 last_timed;
  guint64 last_no_pts;
  guint64 last_gap;
  guint64 last_rtp_expected;
  guint64 last_rtp_received;
  guint64 last_rtp_restarts;
  guint64 last_probe_ns;
  guint64 last_probe_n;
  gchar *link_sink;             /* the real pad it fed when last reported
                                 * ("element.pad"): where the counts of a
                                 * pad that died or was unlinked since go */
  gint dead;
  gboolean reported_dead;
};

typedef enum
{
  GP_FRAME_BUFFER,              /* pad-push(-list): a root push ends a gap */
  GP_FRAME_PULL,
  GP_FRAME_EVENT,
} GpFrameKind;

typedef struct
{
  GstPad *pad;                  /* identity for sanity checks */
  /* elem, start and kind: stored with gp_store, the timer reads them
   * (gp_thread_blocked) */
  GpElem *elem;                 /* charged element; NULL: pass-through */
  GpElem *drv;                  /* pushing (or pulling) element */
  GpPad *link;                  /* pull frames: the upstream src pad;
                                 * pushes: the pushing pad */
  gpointer slot;                /* pushes into a queue: its ring entry */
  GpQueueAcc *queue;            /* pushes into a queue: its accumulators */
  guint64 start;
  guint64 child;
  guint64 cpu_start;            /* when cpu */
  guint64 cpu_child;
  guint n;
  guint8 kind;
  gboolean cpu;                 /* the thread's CPU clock was read at open */
  gboolean caps;                /* an event frame: a CAPS event */
  gboolean nvtx;                /* nvtx: a range is open for it */
  /* pushes on a link with pad probes (GpPad.probe_*): GP_PROBE_PENDING
   * until the marker runs, then GP_PROBE_DONE with the time (and CPU, when
   * cpu) the probes took, less what was pushed inside them */
  guint8 probe;
  guint64 probe_ns;
  guint64 probe_cpu;
  /* an application's handlers of the element's streaming signals that ran
   * inside this frame (GpElem.handlers): hnd_open from the emission hook
   * to the closing handler, at hnd_start (and hnd_cpu_start) with
   * hnd_child already pushed inside; hnd_ns and hnd_cpu their total */
  gboolean hnd_open;
  guint64 hnd_start;
  guint64 hnd_cpu_start;
  guint64 hnd_child;
  guint64 hnd_cpu_child;
  guint64 hnd_ns;
  guint64 hnd_cpu;
  guint hnd_n;                  /* emissions closed */
} GpFrame;

enum
{
  GP_PROBE_NONE,
  GP_PROBE_PENDING,
  GP_PROBE_DONE,
};

typedef struct
{
  GpElem *elem;                 /* ref */
  guint64 win;                  /* window index it last ran in */
} GpThreadElem;

typedef struct
{
  GstPad *pad;                  /* identity only */
  GpPad *state;                 /* borrowed: the pad's qdata holds it */
  gint gen;                     /* topology generation it was found in */
} GpPadCacheSlot;

/* The pushes a thread made (trace=SECONDS): one writer, the thread, which
 * stores a slot, then head (release), and fences before the next slot; the
 * collector reads head (acquire), copies, and reads head again to drop
 * what the writer may have been overwriting meanwhile (gstproftrace.c). */
typedef struct
{
  guint64 head;                 /* entries written, published (release) */
  guint64 mask;                 /* (create) slots - 1, slots a power of 2 */
  GpTraceSlice slots[];
} GpTraceRing;

struct _GpThread
{
  gint ref;
  gint tid;
  gint exited;
  guint64 cpu_at_exit;
  /* its run-queue wait (gp-record.h GP_T_RUN_DELAY_NS): when it met its
   * first hook and when it exited (owner, before exited is set), the last
   * window's (timer); the flags FALSE where the kernel did not say */
  gboolean run_delay_known;
  gboolean run_delay_exit_known;
  guint64 run_delay_at_exit;
  guint64 run_delay_last;

  /* owner thread only */
  guint depth;
  guint64 overflows;
  GpFrame stack[GP_STACK_DEPTH];
  gboolean gap_valid;
  guint64 gap_start;
  guint64 gap_child;
  gboolean gap_cpu;             /* this gap is measured by CPU */
  guint64 gap_cpu_start;
  guint64 gap_cpu_child;
  guint cpu_frames;             /* open frames measured by CPU */
  GpElem *gap_driver;
  GpElem *gap_pulled;

  /* owner thread only */
  GpPadCacheSlot pad_cache[GP_PAD_CACHE];
  /* a caps event a linked pad refused, reported when the push around it
   * returns: the event hooks may run under the pad's object lock (sticky
   * events pushed by a buffer push), where naming the pad and asking its
   * peer's caps would take that lock again (owner thread only, a ref) */
  GstPad *refused;
  guint64 refused_ts;

  /* written by the owner, read by the timer */
  GpThreadElem elems[GP_THREAD_ELEMS];
  /* (create) trace=SECONDS: its pushes; NULL when off */
  GpTraceRing *trace;
  gboolean nvtx_named;          /* (owner) nvtx: its name was given */

  /* (timer) */
  guint64 cpu_last;
  gchar name[GP_THREAD_NAME_BYTES];
  gboolean reported_exit;
};

struct _GstProfTracer
{
  GstTracer parent;

  /*< private >*/
  guint window_ms;
  gboolean cpu;
  gchar *out_dir;               /* the `out` folder, NULL: signal only */
  gchar *socket_path;           /* `socket`: stream the records there */
  gboolean active;              /* FALSE for a refused second instance */
  guint trace_s;                /* trace=SECONDS, 0: off */
  guint trace_slots;            /* (create) entries per thread's ring */
  gboolean nvtx_wanted;         /* nvtx=true asked for */
  GpNvtx *nvtx;                 /* (create) the loaded library; NULL: off,
                                 * the hot path's one branch */
  /* (under state_lock) every element's name by trace_id, trace only */
  GPtrArray *trace_names;
  /* (timer, under emit_lock) GpPushesRetired: the rings of threads that
   * exited, while their pushes are within the span; trace only */
  GPtrArray *trace_retired;

  /* (timer, under emit_lock) the records file of `out` (gstprofout.c) */
  gint out_fd;                  /* -1 when none */
  guint64 out_bytes;
  guint64 out_windows;
  guint64 out_dropped;          /* windows left out: past
                                 * GP_RECORDS_MAX_BYTES (file), or for a
                                 * reader that fell behind (socket) */
  gint out_topo_gen;            /* generation of the last graph written */
  gboolean out_is_socket;       /* out_fd is the `socket` connection */
  gint out_pid;                 /* the process that opened out_fd */
  GString *out_pending;         /* socket: whole lines the reader has not
                                 * taken yet, at most out_pending_max (the
                                 * header and the end line past it);
                                 * past it lines are left out */
  gsize out_pending_off;        /* bytes at its front the reader took */
  gsize out_pending_max;        /* GP_OUT_PENDING_MAX, lower in a test */

  /* leaf lock of the element record names (GpElem.name) */
  GMutex names_lock;

  GQuark q_pad;
  GQuark q_elem;
  GQuark q_live;                /* on a top-level bin: a live source in it */

  /* registry: add under reg_lock, the timer copies it under reg_lock */
  GMutex reg_lock;
  GPtrArray *elems;
  GPtrArray *pads;
  GPtrArray *threads;
  GPtrArray *pipelines;         /* GWeakRef* */

  /* (state_lock) the emission hooks on streaming signals
   * (GP_HANDLER_SIGNALS), {signal id, hook id} pairs: added at the first
   * element with an application's handler on that signal, removed at
   * finalize */
  GArray *handler_hooks;

  /* creation and peer refresh (slow path) */
  GMutex state_lock;
  gint topo_gen;
  /* bumped each time a top-level bin gets its first live source
   * (gp_mark_live_top): 0 while no pipeline in the process is live, the
   * hot path's quick test; a pad rereads its own pipeline's when it
   * changes (GpPad.late_gen) */
  gint live_gen;

  /* hooks' ts = gst_util_get_timestamp () - ts_offset */
  guint64 ts_offset;

  /* window emission, recursive so that a handler may call flush */
  GRecMutex emit_lock;
  guint64 win_index;            /* read by the hot path */
  guint64 win_start;
  guint64 win_deadline;
  guint64 sample_deadline;
  guint64 sample_ns;

  GMutex ev_lock;
  GPtrArray *events;            /* GstStructure* */
  guint64 events_dropped;

  GThread *thread;
  GMainContext *ctx;
  GMainLoop *loop;
  GSource *tick;

  GValue hw;                    /* GST_TYPE_LIST of factory names, cached */
  gboolean hw_done;

  /* (timer, under emit_lock) the whole process: its CPU clock at the last
   * window, the CPUs it may run on, and the threads no hook has seen (an
   * element's own workers, the application's, ours), tid -> GpOther */
  guint64 proc_cpu_last;
  gboolean have_proc_cpu;
  guint n_cpus;
  GHashTable *others;
  guint64 others_scan;
};

/* gstprofstate.c */
GpElem *gp_elem_get (GstProfTracer * self, GstElement * element);
GpPad *gp_pad_get (GstProfTracer * self, GstPad * pad);
GpMergeTab *gp_pad_merge_tab (GpPad * p);
GpElem *gp_elem_ref (GpElem * e);
void gp_elem_unref (GpElem * e);
void gp_elem_release_links (GpElem * e);
GpPad *gp_pad_ref (GpPad * p);
void gp_pad_unref (GpPad * p);
void gp_pad_release_links (GpPad * p);
gchar *gp_pad_dup_name (GpPad * p);
GpThread *gp_thread_new (GstProfTracer * self);
void gp_thread_unref (GpThread * t);
GpThread *gp_thread_current (GstProfTracer * self);
/* The calling thread's state, NULL when no hook has run on it yet. */
GpThread *gp_thread_peek (void);
void gp_thread_add_elem (GstProfTracer * self, GpThread * t, GpElem * e);
void gp_pad_refresh_peer (GstProfTracer * self, GpPad * ps, GstPad * peer);
void gp_pad_resolve_deq (GstProfTracer * self, GpPad * ps, GstPad * srcpad);
void gp_pad_update_lat (GstProfTracer * self, GpPad * sink, gint gen);
void gp_pad_make_origin (GstProfTracer * self, GpPad * ps);
void gp_elem_read_live (GpElem * e, GstElement * element);
void gp_mark_live_top (GstProfTracer * self, GstElement * element);
gint gp_pad_in_live_top (GstProfTracer * self, GstPad * pad);
void gp_elem_read_split (GpElem * e, GstElement * element);
GstElement *gp_pad_real_parent (GstPad * pad);
GstPad *gp_pad_downstream_real (GstPad * srcpad);
GstPad *gp_pad_upstream_real (GstPad * sinkpad);
gchar *gp_pad_full_name (GstProfTracer * self, GstPad * pad);
/* Names unique by path (gp-record.h, "Names"): brings every element's
 * record name up to date; emit_lock held. */
void gp_names_refresh (GstProfTracer * self);
/* @element's record name, a new string; any thread, no object lock
 * taken. */
gchar *gp_elem_dup_name (GstProfTracer * self, GstElement * element);
void gp_caps_describe (GstCaps * caps, gchar ** caps_str, gchar ** memory);
const gchar *gp_kind_name (GpKind kind);
GpKind gp_kind_of (GstElement * element, GpQueueType * qtype);
guint64 gp_now (GstProfTracer * self);
void gp_calibrate (GstProfTracer * self, guint64 ts);
guint64 gp_thread_cpu_now (void);
guint64 gp_tid_cpu (gint tid, gboolean * alive);
gboolean gp_read_small (const gchar * path, gchar * buf, gsize size);
gboolean gp_tid_run_delay (gint tid, guint64 * run_delay);
void gp_topology_changed (GstProfTracer * self);

/* gstprofwindow.c */
void gp_window_start (GstProfTracer * self);
void gp_window_stop (GstProfTracer * self);
void gp_window_flush (GstProfTracer * self);
void gp_window_add_event (GstProfTracer * self, GstStructure * ev);
/* Appends @s to the GST_TYPE_LIST @list, taking it (records' sub-lists). */
void gp_list_take_structure (GValue * list, GstStructure * s);

/* gstprofout.c: `out`, the records written by the tracer itself */
void gp_out_open (GstProfTracer * self);
void gp_out_window (GstProfTracer * self, const GstStructure * w);
void gp_out_close (GstProfTracer * self);

/* gstproftrace.c: trace=SECONDS, the rings of pushes */
typedef struct _GpPushesRetired GpPushesRetired;
void gp_pushes_setup (GstProfTracer * self);
GpTraceRing *gp_pushes_ring_new (GstProfTracer * self);
void gp_pushes_add_elem (GstProfTracer * self, GpElem * e);
void gp_pushes_retire (GstProfTracer * self, GpThread * t, guint64 now);
void gp_pushes_retired_free (GpPushesRetired * d);
GstStructure *gp_pushes_collect (GstProfTracer * self);

/* gstprofnvtx.c: nvtx=true, NVTX ranges through libnvToolsExt */
gboolean gp_nvtx_setup (GstProfTracer * self);
void gp_nvtx_free (GstProfTracer * self);
void gp_nvtx_range_open (GstProfTracer * self, GpThread * t, GpFrame * f,
    GstPad * pad);
void gp_nvtx_range_close (GstProfTracer * self, GpThread * t);

/* gstprofgraph.c */
GstStructure *gp_graph_snapshot (GstProfTracer * self);

/* gstproftracer.c */
void gst_prof_tracer_emit_window (GstProfTracer * self, const GstStructure * w);

G_END_DECLS

#endif /* __GST_PROF_PRIVATE_H__ */
