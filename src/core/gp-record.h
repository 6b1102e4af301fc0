/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-record.h: the tracer's records, the contract between the tracer
 * (src/tracer, which writes them) and their readers (src/capture: the
 * aggregator, and the records file the tracer writes itself with `out`).  Each field is
 * declared once here, with its type, whether it is always present, and
 * what it means, the way GStreamer's own tracer records describe their
 * fields; both sides use the names declared here, never string literals.
 *
 * Header-only on purpose, like gp-histogram.h: the tracer plugin must not
 * link the analysis library.
 *
 * Conventions: times are nanoseconds (guint64) on the tracer hooks' time
 * base (gst_util_get_timestamp () minus gst_init's start, which the tracer
 * calibrates); counts and sums are for the window only (deltas), levels and
 * maxima are over the window; a histogram is a GstValueArray of guint64
 * pairs [bucket, count, bucket, count, ...] over the buckets of
 * gp-histogram.h, counts for this window only.  Elements are named as
 * below ("Names"), pads as "element.pad"; ghost and proxy pads are
 * transparent (links join real elements' pads).
 *
 * Names: every record names an element the same way (the graph's name and
 * parent, a window's elements, links and pads "element.pad", queues,
 * latency, threads' elements and blocked_in, events' source): by
 * GST_OBJECT_NAME while no other live element of the process has that
 * name, else by its path from its top-level bin, the names joined by "/"
 * ("pipeline1/queue0", "pipeline1/bin0/queue0"; a top-level pipeline's
 * path is its name). Once an element is named by its path it keeps it,
 * so windows before and after name it alike. GStreamer's own names
 * (queue0, queue1, ...) are unique in a process, so a single gst-launch
 * pipeline keeps the names its launch string uses; only names given twice
 * (name=queue0 in two pipelines, a bin's fixed names such as decodebin's
 * "typefind" in two decodebins) become paths. Top-level pipelines (and
 * bins) of one name alive at once are told apart by a number: the first
 * keeps its name, the next is "name#2" (the smallest number no other live
 * one of that name has), in the graph and at the head of its elements'
 * paths ("player#2/queue0"); each keeps its number while it lives.
 */
#ifndef __GP_RECORD_H__
#define __GP_RECORD_H__

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  GP_FIELD_U64,                 /* guint64 */
  GP_FIELD_INT64,               /* gint64 */
  GP_FIELD_UINT,                /* guint */
  GP_FIELD_DOUBLE,              /* gdouble */
  GP_FIELD_BOOL,                /* gboolean */
  GP_FIELD_STRING,              /* gchar * */
  GP_FIELD_HIST,                /* GstValueArray of guint64 pairs */
  GP_FIELD_LIST,                /* GstValueList of sub-records */
  GP_FIELD_STRINGS,             /* GstValueList of strings */
  GP_FIELD_STRUCT,              /* GstStructure */
  GP_FIELD_BYTES,               /* GBytes */
} GpFieldType;

typedef struct
{
  const gchar *name;
  GpFieldType type;
  gboolean optional;            /* may be absent (see its meaning) */
  const gchar *meaning;
} GpFieldSpec;

#define GP_FIELD_ALWAYS FALSE
#define GP_FIELD_OPTIONAL TRUE

/* F (C name, field name, type, presence, meaning) */
#define GP_RECORD_DECLARE_NAME(id, name, type, presence, meaning) \
  static const gchar id[] = name;
#define GP_RECORD_DECLARE_SPEC(id, name, type, presence, meaning) \
  { name, GP_FIELD_##type, GP_FIELD_##presence, meaning },

/* How an application finds the active tracer instance on any GStreamer
 * release (gst_tracing_get_active_tracers () needs 1.18): the instance
 * that measures is qdata of its own type,
 *   g_type_get_qdata (g_type_from_name (GP_TRACER_TYPE_NAME),
 *       g_quark_from_static_string (GP_TRACER_INSTANCE_QDATA))
 * set when it is made (at gst_init) and cleared when it goes (gst_deinit).
 * It talks through its signals: "window", "flush", "snapshot-graph". */
#define GP_TRACER_NAME "gstprof"
#define GP_TRACER_TYPE_NAME "GstProfTracer"
#define GP_TRACER_INSTANCE_QDATA "gstprof-active-instance"
/* The tracer's `out` and `socket` from the environment, taken when
 * GST_TRACERS does not give them: a path holding ';' or ')' cannot travel
 * in GST_TRACERS (GStreamer splits it on ';', ends the parameters at the
 * first ')'); gstprof wrap passes its folder and socket so. */
#define GP_TRACER_OUT_ENV "GSTPROF_TRACER_OUT"
#define GP_TRACER_SOCKET_ENV "GSTPROF_TRACER_SOCKET"

/* ------------------------------------------------------------------ */
/* gstprof-window: one per window, emitted by the "window" signal       */

#define GP_RECORD_WINDOW "gstprof-window"

#define GP_WINDOW_FIELDS(F) \
  F (GP_W_INDEX, "index", U64, ALWAYS, \
      "windows are numbered 0, 1, 2, ... as they close") \
  F (GP_W_START, "start", U64, ALWAYS, "when the window opened") \
  F (GP_W_END, "end", U64, ALWAYS, "when it closed") \
  F (GP_W_EVENTS_DROPPED, "events_dropped", U64, ALWAYS, \
      "events past the cap of GP_RECORD_MAX_EVENTS this window (QoS storms)") \
  F (GP_W_PROC_CPU_NS, "proc_cpu_ns", U64, OPTIONAL, \
      "CPU time of the whole process (every thread, exited ones included, " \
      "user + system); absent when it could not be read") \
  F (GP_W_PROC_RSS_BYTES, "proc_rss_bytes", U64, OPTIONAL, \
      "resident set size at the window's end; absent when unknown") \
  F (GP_W_N_CPUS, "n_cpus", UINT, OPTIONAL, \
      "CPUs the process may run on (affinity mask, else online CPUs)") \
  F (GP_W_ELEMENTS, "elements", LIST, ALWAYS, \
      "GP_RECORD_ELEMENT, one per element that worked, handled an event " \
      "or drove a thread this window; bins never appear") \
  F (GP_W_LINKS, "links", LIST, ALWAYS, \
      "GP_RECORD_LINK, one per src pad that has a peer") \
  F (GP_W_QUEUES, "queues", LIST, ALWAYS, \
      "GP_RECORD_QUEUE, one per queue, queue2 and multiqueue") \
  F (GP_W_LATENCY, "latency", LIST, ALWAYS, \
      "GP_RECORD_LATENCY, one per (origin pad, element) pair with lookups") \
  F (GP_W_THREADS, "threads", LIST, ALWAYS, \
      "GP_RECORD_THREAD, every thread of the process") \
  F (GP_W_EVENTS, "events", LIST, ALWAYS, "GP_RECORD_EVENT, in order")

/* events kept per window; more are counted in events_dropped */
#define GP_RECORD_MAX_EVENTS 256

#define GP_RECORD_ELEMENT "element"

#define GP_ELEMENT_FIELDS(F) \
  F (GP_E_NAME, "name", STRING, ALWAYS, "the element's name") \
  F (GP_E_FACTORY, "factory", STRING, ALWAYS, \
      "its factory (the type name when it has none)") \
  F (GP_E_KIND, "kind", STRING, ALWAYS, \
      "source|sink|queue|demux|mux|tee|filter") \
  F (GP_E_LIVE, "live", BOOL, OPTIONAL, "sources only: it is live") \
  F (GP_E_BUFFERS, "buffers", U64, ALWAYS, \
      "self-time samples (buffers; a list counts its buffers)") \
  F (GP_E_SELF_NS, "self_ns", U64, ALWAYS, \
      "sum of self time: work on buffers, downstream pushes excluded") \
  F (GP_E_SELF_MAX_NS, "self_max_ns", U64, ALWAYS, "largest sample") \
  F (GP_E_SELF_HIST, "self_hist", HIST, ALWAYS, "self time per buffer") \
  F (GP_E_CPU_BUFFERS, "cpu_buffers", U64, ALWAYS, \
      "samples that are the thread's CPU time, not wall time: the element " \
      "also waits (a sink for its clock, an aggregator's inputs, a source " \
      "between buffers), and CPU time is its work") \
  F (GP_E_WAIT_NS, "wait_ns", U64, ALWAYS, \
      "what those samples' wall time had on top of their CPU time: waiting " \
      "(for the clock, preroll, other inputs, the network, a device)") \
  F (GP_E_WAIT_HIST, "wait_hist", HIST, ALWAYS, "that wait per buffer") \
  F (GP_E_CPU_NS, "cpu_ns", U64, OPTIONAL, \
      "only with cpu=true: thread CPU time spent in the element itself") \
  F (GP_E_EVENT_NS, "event_ns", U64, ALWAYS, \
      "self time handling serialized events (caps, segment, EOS drain)") \
  F (GP_E_HANDLER_NS, "handler_ns", U64, OPTIONAL, \
      "the time an application's handlers of the element's streaming " \
      "signals (identity's and fakesink's handoff) took inside its work, " \
      "taken out of self_ns; the handler_* fields are absent on an " \
      "element whose handlers never ran") \
  F (GP_E_HANDLER_N, "handler_n", U64, OPTIONAL, \
      "the emissions whose handlers were timed") \
  F (GP_E_LEVEL_BYTES_MAX, "level_bytes_max", U64, OPTIONAL, \
      "an element with a queue of its own that is not a queue (appsrc: its " \
      "current-level-bytes, sampled with the queues' levels): the most " \
      "bytes it held this window; the level_* fields are absent on others") \
  F (GP_E_LEVEL_BYTES, "level_bytes", U64, OPTIONAL, \
      "what it held at the window's last sample") \
  F (GP_E_LEVEL_LIMIT_BYTES, "level_limit_bytes", U64, OPTIONAL, \
      "its max-bytes (0: none)") \
  F (GP_E_LEVEL_BLOCKS, "level_blocks", BOOL, OPTIONAL, \
      "whether a push waits when it holds max-bytes (appsrc block=true); " \
      "FALSE: the limit only asks the application to stop (enough-data)")

#define GP_RECORD_LINK "link"

#define GP_LINK_FIELDS(F) \
  F (GP_L_SRC, "src", STRING, ALWAYS, "src pad, element.pad") \
  F (GP_L_SINK, "sink", STRING, ALWAYS, "the real pad it feeds, element.pad") \
  F (GP_L_BUFFERS, "buffers", U64, ALWAYS, "buffers pushed (or pulled)") \
  F (GP_L_BYTES, "bytes", U64, ALWAYS, "their bytes") \
  F (GP_L_DURATION_NS, "duration_ns", U64, ALWAYS, \
      "the media time they carry: the sum of their durations") \
  F (GP_L_TIMED, "timed", U64, ALWAYS, "how many of them had a duration") \
  F (GP_L_NO_PTS, "no_pts", U64, OPTIONAL, \
      "how many of them had neither a PTS nor a DTS (a sink cannot sync " \
      "those to the clock); absent on a link that never pushed one") \
  F (GP_L_GAP, "gap", U64, OPTIONAL, \
      "how many of them were flagged GAP: a repeat or a filler, not new " \
      "content (intervideosrc's repeats of its stored frame); absent on a " \
      "link that never pushed one") \
  F (GP_L_LAST_TS, "last_ts", U64, OPTIONAL, \
      "when the last of them was pushed (the window's clock); absent when " \
      "none was: rates are the buffers between two such times") \
  F (GP_L_CAPS, "caps", STRING, OPTIONAL, "current caps; absent before caps") \
  F (GP_L_MEMORY, "memory", STRING, ALWAYS, \
      "the caps' memory feature, \"system\" when none") \
  F (GP_L_LATE_N, "late_n", U64, OPTIONAL, \
      "buffers whose lateness was measured: pushed once the process has " \
      "a live source, while the element had a clock, with a running time " \
      "(its PTS through the pad's segment); the late_* fields are absent " \
      "when none was") \
  F (GP_L_LATE_SUM_NS, "late_sum_ns", U64, OPTIONAL, \
      "the sum of their lateness: the clock's running time (clock time " \
      "less base time) when the buffer was pushed, less its running " \
      "time; a buffer ahead of the clock counts 0") \
  F (GP_L_LATE_MAX_NS, "late_max_ns", U64, OPTIONAL, "the latest") \
  F (GP_L_LATE_HIST, "late_hist", HIST, OPTIONAL, "lateness per buffer") \
  F (GP_L_RTP_EXPECTED, "rtp_expected", U64, OPTIONAL, \
      "links whose caps are application/x-rtp or x-srtp: the packets " \
      "their sequence " \
      "numbers say were sent (RFC 3550 A.3: how far the highest sequence " \
      "number advanced, a sender's first packet counting one); the rtp_* " \
      "fields are absent on a link that never carried an RTP packet") \
  F (GP_L_RTP_RECEIVED, "rtp_received", U64, OPTIONAL, \
      "the RTP packets pushed, late ones included (up to 63 behind the " \
      "highest), duplicates not: expected less received over the run is " \
      "what was lost before this link") \
  F (GP_L_RTP_RESTARTS, "rtp_restarts", U64, OPTIONAL, \
      "times the numbering started anew: another SSRC, or two packets in " \
      "a row far from the last one (a sender that restarted); a link " \
      "carrying several senders interleaved restarts at each switch") \
  F (GP_L_PROBE_NS, "probe_ns", U64, OPTIONAL, \
      "the time pad probes on the link (the src pad's, its peer's, a ghost " \
      "pad's on the way) took before the buffers reached the element, " \
      "less what they pushed themselves: an application's work, not in " \
      "the element's self time; the probe_* fields are absent on a link " \
      "whose pads never had a probe") \
  F (GP_L_PROBE_N, "probe_n", U64, OPTIONAL, \
      "the pushes whose probes were timed")

#define GP_RECORD_QUEUE "queue"

#define GP_QUEUE_FIELDS(F) \
  F (GP_Q_NAME, "name", STRING, ALWAYS, "the queue's name") \
  F (GP_Q_FACTORY, "factory", STRING, ALWAYS, "queue, queue2 or multiqueue") \
  F (GP_Q_PAD, "pad", STRING, OPTIONAL, \
      "multiqueue: the single queue's sink pad (one record per single " \
      "queue; its fill counts bytes and time, since multiqueue raises its " \
      "buffer limit itself when a queue is full and another empty)") \
  F (GP_Q_RESIDENCE_HIST, "residence_hist", HIST, ALWAYS, \
      "enqueue to dequeue of the same buffer") \
  F (GP_Q_RESIDENCE_MAX_NS, "residence_max_ns", U64, ALWAYS, "longest stay") \
  F (GP_Q_LEVEL_BUFFERS_MEAN, "level_buffers_mean", DOUBLE, ALWAYS, \
      "buffers held, mean of the samples (every 25 ms)") \
  F (GP_Q_LEVEL_BUFFERS_MAX, "level_buffers_max", U64, ALWAYS, "most held") \
  F (GP_Q_LEVEL_BYTES_MAX, "level_bytes_max", U64, ALWAYS, "most bytes held") \
  F (GP_Q_LEVEL_TIME_MAX_NS, "level_time_max_ns", U64, ALWAYS, \
      "most time held (queue and queue2)") \
  F (GP_Q_LEVEL_PCT_MEAN, "level_pct_mean", DOUBLE, ALWAYS, \
      "fill against the nearest limit, mean of the samples") \
  F (GP_Q_LEVEL_PCT_MAX, "level_pct_max", DOUBLE, ALWAYS, "fullest sample") \
  F (GP_Q_MAX_BUFFERS, "max_buffers", UINT, ALWAYS, "max-size-buffers") \
  F (GP_Q_MAX_BYTES, "max_bytes", UINT, ALWAYS, "max-size-bytes") \
  F (GP_Q_MAX_TIME_NS, "max_time_ns", U64, ALWAYS, "max-size-time") \
  F (GP_Q_LEAKY, "leaky", STRING, ALWAYS, "no|upstream|downstream") \
  F (GP_Q_DROPPED, "dropped", U64, ALWAYS, "buffers a leaky queue dropped") \
  F (GP_Q_BLOCKED_NS, "blocked_ns", U64, ALWAYS, \
      "upstream pushes blocked on a full queue")

#define GP_RECORD_LATENCY "latency"

#define GP_LATENCY_FIELDS(F) \
  F (GP_LAT_SOURCE, "source", STRING, ALWAYS, \
      "origin pad, element.pad: a source's pad, or one that turns untimed " \
      "input into timed output (a demuxer after filesrc)") \
  F (GP_LAT_ELEMENT, "element", STRING, ALWAYS, \
      "the element whose input was looked up") \
  F (GP_LAT_SINK, "sink", BOOL, ALWAYS, "the element is a sink") \
  F (GP_LAT_HIST, "hist", HIST, ALWAYS, "origin to the element's input") \
  F (GP_LAT_MAX_NS, "max_ns", U64, ALWAYS, "largest") \
  F (GP_LAT_SUM_NS, "sum_ns", U64, ALWAYS, "sum of the matched latencies") \
  F (GP_LAT_MATCHED, "matched", U64, ALWAYS, "buffers matched") \
  F (GP_LAT_EXACT, "exact", U64, ALWAYS, \
      "of matched: a buffer left the origin with the same running time; " \
      "the others matched the origin buffer whose running-time interval " \
      "holds it (content re-chunked, re-timestamped, mixed or repeated)") \
  F (GP_LAT_UNMATCHED, "unmatched", U64, ALWAYS, \
      "buffers whose running time no origin buffer covered")

#define GP_RECORD_THREAD "thread"

#define GP_THREAD_FIELDS(F) \
  F (GP_T_TID, "tid", U64, ALWAYS, "kernel thread id") \
  F (GP_T_NAME, "name", STRING, ALWAYS, "its /proc comm") \
  F (GP_T_CPU_NS, "cpu_ns", U64, ALWAYS, "CPU time this window") \
  F (GP_T_ELEMENTS, "elements", STRING, ALWAYS, \
      "comma-separated names of the elements whose self time ran on it") \
  F (GP_T_STREAMING, "streaming", BOOL, ALWAYS, \
      "it met a hook (a streaming thread); FALSE for the others: an " \
      "element's own workers, the application's, the tracer's timer") \
  F (GP_T_BLOCKED_IN, "blocked_in", STRING, OPTIONAL, \
      "streaming threads: the element whose push it has been inside since " \
      "before the window began (a sink holding its preroll, a full queue)") \
  F (GP_T_BLOCKED_NS, "blocked_ns", U64, OPTIONAL, "for how long, so far") \
  F (GP_T_RUN_DELAY_NS, "run_delay_ns", U64, OPTIONAL, \
      "streaming threads: how long it was ready to run this window but " \
      "waited for a CPU others had (the kernel's run-queue delay, the " \
      "second field of /proc/self/task/TID/schedstat); absent where the " \
      "kernel does not keep it")

#define GP_RECORD_EVENT "event"

#define GP_EVENT_FIELDS(F) \
  F (GP_EV_TS, "ts", U64, ALWAYS, "when the element posted it") \
  F (GP_EV_TYPE, "type", STRING, ALWAYS, \
      "error|warning|qos|eos|state|latency|buffering: a message the " \
      "element posted on its bus (buffering: only when its level falls " \
      "below full and when it is full again, not each step between); " \
      "flow: a push on GP_EV_LINK returned GP_EV_TEXT " \
      "(not-negotiated); caps-refused: its peer refused the caps event") \
  F (GP_EV_SOURCE, "source", STRING, ALWAYS, "the posting element") \
  F (GP_EV_TEXT, "text", STRING, ALWAYS, "the message, for people") \
  F (GP_EV_DEBUG, "debug", STRING, OPTIONAL, \
      "errors and warnings: the poster's details") \
  F (GP_EV_PROCESSED, "processed", U64, OPTIONAL, \
      "qos: buffers (or GP_EV_FORMAT units) the element processed so far") \
  F (GP_EV_DROPPED, "dropped", U64, OPTIONAL, "qos: dropped so far") \
  F (GP_EV_FORMAT, "format", STRING, OPTIONAL, \
      "qos: the unit of processed and dropped") \
  F (GP_EV_JITTER_NS, "jitter_ns", INT64, OPTIONAL, \
      "qos: how late the buffer was (negative: early)") \
  F (GP_EV_RUNNING_TIME, "running_time", U64, OPTIONAL, \
      "qos: the running time of the late buffer; absent when it had none") \
  F (GP_EV_LIVE, "live", BOOL, OPTIONAL, "qos: posted by a live element") \
  F (GP_EV_PERCENT, "percent", UINT, OPTIONAL, \
      "buffering: how full its buffer is, 0 to 100") \
  F (GP_EV_OLD, "old", STRING, OPTIONAL, "state: the state it left") \
  F (GP_EV_NEW, "new", STRING, OPTIONAL, "state: the state it reached") \
  F (GP_EV_PENDING, "pending", STRING, OPTIONAL, \
      "state: where it is going next (VOID_PENDING: nowhere)") \
  F (GP_EV_LINK, "link", STRING, OPTIONAL, \
      "flow, caps-refused: the src pad, element.pad") \
  F (GP_EV_PEER, "peer", STRING, OPTIONAL, \
      "flow, caps-refused: the real pad it feeds") \
  F (GP_EV_CAPS, "caps", STRING, OPTIONAL, \
      "flow, caps-refused: the caps offered on the link") \
  F (GP_EV_ACCEPTS, "accepts", STRING, OPTIONAL, \
      "flow, caps-refused: what the peer answers a caps query with")

/* ------------------------------------------------------------------ */
/* gstprof-graph: the "snapshot-graph" action's answer                 */

#define GP_RECORD_GRAPH "gstprof-graph"

#define GP_GRAPH_FIELDS(F) \
  F (GP_G_PIPELINE, "pipeline", STRING, ALWAYS, \
      "the first top-level pipeline, \"\" when none") \
  F (GP_G_STATE, "state", STRING, ALWAYS, "its current state") \
  F (GP_G_PIPELINES, "pipelines", STRINGS, ALWAYS, \
      "every top-level pipeline walked, in the order seen") \
  F (GP_G_ELEMENTS, "elements", LIST, ALWAYS, "GP_RECORD_GRAPH_ELEMENT") \
  F (GP_G_LINKS, "links", LIST, ALWAYS, \
      "GP_RECORD_LINK without the counters: gp_graph_link_spec") \
  F (GP_G_HW, "hw", STRINGS, ALWAYS, \
      "hardware element factories registered on this machine " \
      "(gp-hw-factories.h)")

#define GP_RECORD_GRAPH_ELEMENT "element"

#define GP_GRAPH_ELEMENT_FIELDS(F) \
  F (GP_GE_NAME, "name", STRING, ALWAYS, "the element's name (Names)") \
  F (GP_GE_FACTORY, "factory", STRING, ALWAYS, "its factory") \
  F (GP_GE_PARENT, "parent", STRING, ALWAYS, \
      "its bin's name, \"\" for a top-level pipeline") \
  F (GP_GE_KIND, "kind", STRING, ALWAYS, \
      "as GP_E_KIND, \"bin\" for pipelines and bins") \
  F (GP_GE_IS_BIN, "is_bin", BOOL, ALWAYS, "it is a bin") \
  F (GP_GE_PROPS, "props", STRUCT, ALWAYS, \
      "every readable property as its real GValue: enums as their nick, " \
      "flags as nicks joined by \"+\", caps as strings (\"NULL\" unset), " \
      "fractions as GstFraction; objects, pointers, other boxed left out")

/* ------------------------------------------------------------------ */
/* gstprof-trace: the "collect-trace" action's answer (trace=SECONDS)  */

/* With trace=SECONDS (off by default) every streaming thread keeps, for
 * each push, pull and serialized event it makes into an element, when it
 * entered and when it returned, in a ring of its own: the last SECONDS of
 * a thread making up to GP_TRACE_RATE_MAX of them a second; a busier
 * thread keeps its last GP_TRACE_RATE_MAX x SECONDS (rounded up to a power
 * of two), which is less time.  Written by the thread alone as each one
 * returns, so no lock and no allocation; the ring is allocated when the
 * thread first meets a hook.  Collected once, at the end of a run. */
#define GP_TRACE_RATE_MAX 10000
#define GP_TRACE_DEFAULT_S 10
/* a minute of rings is 24 MiB a thread at the rate bound */
#define GP_TRACE_MAX_S 60

/* One entry: 24 bytes, in the thread's native byte order in memory. */
typedef struct
{
  guint64 start;                /* push-pre (pull-range-pre, event-pre) */
  guint64 end;                  /* the matching post */
  guint32 element;              /* the element it entered: an index into
                                 * GP_TR_ELEMENTS */
  guint16 n;                    /* buffers (a list's length, at most 65535);
                                 * 0 for an event */
  guint8 depth;                 /* pushes around it on the thread; 0 at the
                                 * bottom */
  guint8 kind;                  /* GpTraceKind */
} GpTraceSlice;

G_STATIC_ASSERT (sizeof (GpTraceSlice) == 24);

typedef enum
{
  GP_TRACE_KIND_BUFFER = 0,     /* pad-push, pad-push-list */
  GP_TRACE_KIND_PULL = 1,       /* pad-pull-range: the element it pulled from */
  GP_TRACE_KIND_EVENT = 2,      /* a serialized downstream event */
} GpTraceKind;

#define GP_RECORD_TRACE "gstprof-trace"

#define GP_TRACE_FIELDS(F) \
  F (GP_TR_SECONDS, "seconds", UINT, ALWAYS, \
      "the trace parameter: the span the rings are sized for") \
  F (GP_TR_SLOTS, "slots", UINT, ALWAYS, \
      "entries each thread's ring holds") \
  F (GP_TR_NOW, "now", U64, ALWAYS, "when the rings were read (the span " \
      "ends at the newest slice's end)") \
  F (GP_TR_ELEMENTS, "elements", STRINGS, ALWAYS, \
      "element names; GpTraceSlice.element is an index into it") \
  F (GP_TR_THREADS, "threads", LIST, ALWAYS, \
      "GP_RECORD_TRACE_THREAD, one per thread that met a hook")

#define GP_RECORD_TRACE_THREAD "thread"

#define GP_TRACE_THREAD_FIELDS(F) \
  F (GP_TT_TID, "tid", U64, ALWAYS, "kernel thread id") \
  F (GP_TT_NAME, "name", STRING, ALWAYS, "its /proc comm") \
  F (GP_TT_SLICES, "slices", BYTES, ALWAYS, \
      "GpTraceSlice entries in the order they returned (a push after the " \
      "pushes nested in it), oldest first") \
  F (GP_TT_LOST, "lost", U64, ALWAYS, \
      "older entries not in slices: overwritten, before the span, or " \
      "caught mid-write")

/* ------------------------------------------------------------------ */
/* the records file: what the tracer writes by itself with `out`        */

/* GST_TRACERS="gstprof(out=DIR)": the tracer writes DIR/gstprof-PID.records
 * itself, with no gstprof command around the program. One record per
 * line, each as gst_structure_to_string () writes it: a header first, then
 * the graph whenever the topology changed and every window as it closes,
 * each line written whole by one append, so a reader of a killed
 * program's file has every window up to the last whole line. At most
 * GP_RECORDS_MAX_BYTES; past it, one GP_RECORD_FILE_FULL line and the
 * rest of the windows only counted. GP_RECORD_FILE_END ends a file whose
 * program let the tracer go (gst_deinit, or exit ()).
 *
 * GST_TRACERS="gstprof(socket=PATH)": the same lines, in the same order,
 * streamed to the Unix socket PATH (gstprof wrap's) as each window
 * closes, from the tracer's timer thread and never blocking it: lines the
 * reader has not taken wait in a bounded buffer, and past it whole lines
 * are left out (a window's index then skips; GP_FE_DROPPED counts them),
 * never cut. One connection per process; no size limit, no
 * GP_RECORD_FILE_FULL. With out=DIR as well, a socket that cannot be
 * reached falls back to the file. */
#define GP_RECORDS_FILE_PREFIX "gstprof-"
#define GP_RECORDS_FILE_SUFFIX ".records"
/* A day of windows of a twenty-element pipeline is a few hundred MiB
 * (about 10 KiB a window, four a second); a full disk is worse than a
 * cut-off record. */
#define GP_RECORDS_MAX_BYTES (G_GUINT64_CONSTANT (512) * 1024 * 1024)

#define GP_RECORD_FILE_HEADER "gstprof-records"

#define GP_FILE_HEADER_FIELDS(F) \
  F (GP_FH_VERSION, "version", UINT, ALWAYS, \
      "1; a reader refuses a newer one") \
  F (GP_FH_PID, "pid", UINT, ALWAYS, "the program's process id") \
  F (GP_FH_PROGRAM, "program", STRINGS, ALWAYS, \
      "its command line, one string per argument (/proc/self/cmdline)") \
  F (GP_FH_HOST, "host", STRING, ALWAYS, "the machine's host name") \
  F (GP_FH_STARTED, "started", STRING, ALWAYS, \
      "when the tracer started, UTC, ISO 8601") \
  F (GP_FH_T0, "t0", U64, ALWAYS, \
      "the time base of the records' times at that moment (ns)") \
  F (GP_FH_GSTREAMER, "gstreamer", STRING, ALWAYS, \
      "the GStreamer version the program ran") \
  F (GP_FH_WINDOW_MS, "window_ms", UINT, ALWAYS, "the window length") \
  F (GP_FH_CPU, "cpu", BOOL, ALWAYS, "the cpu parameter")

#define GP_RECORD_FILE_FULL "gstprof-records-full"
#define GP_RECORD_FILE_END "gstprof-records-end"

#define GP_FILE_END_FIELDS(F) \
  F (GP_FE_WINDOWS, "windows", U64, ALWAYS, "windows written") \
  F (GP_FE_DROPPED, "dropped", U64, ALWAYS, \
      "windows left out: past GP_RECORDS_MAX_BYTES (the file), or for a " \
      "reader that fell behind (the socket)")

/* the names, as static const strings */
GP_WINDOW_FIELDS (GP_RECORD_DECLARE_NAME)
GP_ELEMENT_FIELDS (GP_RECORD_DECLARE_NAME)
GP_LINK_FIELDS (GP_RECORD_DECLARE_NAME)
GP_QUEUE_FIELDS (GP_RECORD_DECLARE_NAME)
GP_LATENCY_FIELDS (GP_RECORD_DECLARE_NAME)
GP_THREAD_FIELDS (GP_RECORD_DECLARE_NAME)
GP_EVENT_FIELDS (GP_RECORD_DECLARE_NAME)
GP_GRAPH_FIELDS (GP_RECORD_DECLARE_NAME)
GP_GRAPH_ELEMENT_FIELDS (GP_RECORD_DECLARE_NAME)
GP_FILE_HEADER_FIELDS (GP_RECORD_DECLARE_NAME)
GP_FILE_END_FIELDS (GP_RECORD_DECLARE_NAME)
GP_TRACE_FIELDS (GP_RECORD_DECLARE_NAME)
GP_TRACE_THREAD_FIELDS (GP_RECORD_DECLARE_NAME)

/* the specs, for checking a record against the contract (tests) and for
 * documenting it */
static const GpFieldSpec gp_window_spec[] = {
  GP_WINDOW_FIELDS (GP_RECORD_DECLARE_SPEC)
};
static const GpFieldSpec gp_element_spec[] = {
  GP_ELEMENT_FIELDS (GP_RECORD_DECLARE_SPEC)
};
static const GpFieldSpec gp_link_spec[] = {
  GP_LINK_FIELDS (GP_RECORD_DECLARE_SPEC)
};
static const GpFieldSpec gp_queue_spec[] = {
  GP_QUEUE_FIELDS (GP_RECORD_DECLARE_SPEC)
};
static const GpFieldSpec gp_latency_spec[] = {
  GP_LATENCY_FIELDS (GP_RECORD_DECLARE_SPEC)
};
static const GpFieldSpec gp_thread_spec[] = {
  GP_THREAD_FIELDS (GP_RECORD_DECLARE_SPEC)
};
static const GpFieldSpec gp_event_spec[] = {
  GP_EVENT_FIELDS (GP_RECORD_DECLARE_SPEC)
};
static const GpFieldSpec gp_graph_spec[] = {
  GP_GRAPH_FIELDS (GP_RECORD_DECLARE_SPEC)
};
static const GpFieldSpec gp_graph_element_spec[] = {
  GP_GRAPH_ELEMENT_FIELDS (GP_RECORD_DECLARE_SPEC)
};
static const GpFieldSpec gp_file_header_spec[] = {
  GP_FILE_HEADER_FIELDS (GP_RECORD_DECLARE_SPEC)
};
static const GpFieldSpec gp_file_end_spec[] = {
  GP_FILE_END_FIELDS (GP_RECORD_DECLARE_SPEC)
};
static const GpFieldSpec gp_trace_spec[] = {
  GP_TRACE_FIELDS (GP_RECORD_DECLARE_SPEC)
};
static const GpFieldSpec gp_trace_thread_spec[] = {
  GP_TRACE_THREAD_FIELDS (GP_RECORD_DECLARE_SPEC)
};
/* a graph link is a window link without its counters */
static const GpFieldSpec gp_graph_link_spec[] = {
  {GP_L_SRC, GP_FIELD_STRING, GP_FIELD_ALWAYS, "src pad, element.pad"},
  {GP_L_SINK, GP_FIELD_STRING, GP_FIELD_ALWAYS, "the real pad it feeds"},
  {GP_L_CAPS, GP_FIELD_STRING, GP_FIELD_OPTIONAL, "current caps"},
  {GP_L_MEMORY, GP_FIELD_STRING, GP_FIELD_ALWAYS, "the memory feature"},
};

G_END_DECLS

#endif /* __GP_RECORD_H__ */
