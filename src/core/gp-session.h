/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-session.h: the session model. Everything gstprof knows about one
 * capture: what ran, the graph, the whole-run summary, the per-window series,
 * the events and the findings. Written to and read from session.json
 * (schema "gstprof/1", docs/session-schema.md). Rules and reports read only
 * this model, so a saved session gives the same verdict as a live one.
 *
 * The room, src/core: the session model and its vocabulary, with nothing
 * about any one tool.
 * - gp-session (the model, its lookups, the series' one builder and one
 *   accessor; the series fields declared once, with section, name, unit and
 *   meaning, in the header-only gp-series.h); gp-session-write and
 *   gp-session-read (session.json with json-glib's generator and parser,
 *   apart); gp-session-keep (an earlier session.json in a folder kept as
 *   session.N.json, its trace.bin as trace.N.bin, before a run writes
 *   there);
 * - gp-session-query: the read-only questions about a session the verdict,
 *   the rules, compare, wrap and roofline ask (work and waiting per
 *   element, threads, sink targets per media, a latency path's hops, the
 *   PLAYING span, whose element it is (the user's, or a bin's), recordings,
 *   links and launch names, element identities that survive renumbering);
 * - gp-json (the strict parse every reader uses and the typed member reads
 *   with a sticky error, GpJsonReader); gp-lines (the one line splitter of
 *   the line-based readers, tracer logs, the queue-levels CSV and the
 *   tracer's records: whole lines, each at most a bound long, longer ones
 *   skipped and counted, a last line without a newline said to be cut; and
 *   the one binary test); gp-file (a file written whole or not at all: a
 *   temporary file beside it, synced and renamed; session.json, trace.bin
 *   and every export);
 * - gp-stats (histograms, quantiles, a run's quantiles from its windows'
 *   p50 and p95); gp-caps (media kind, frame rate, memory feature, caps from
 *   a dot dump, brief caps for people; plain strings, no GStreamer needed);
 * - launch strings (gp-launch.h; the parsed form in gp-launch-private.h;
 *   gp-launch-parse the lexer and parser, gp-launch-names the names
 *   GStreamer will give the elements (the registry), gp-launch-op the
 *   typed patch op (set, insert, caps, replace, remove) with its builders,
 *   description and conflict key (JSON only in session.json's reader and
 *   writer), gp-launch-patch the rewriter that applies a patch,
 *   gp-launch-diff the before/after diff);
 * - gp-platform (the platform probe and the bounded way vendor tools are
 *   asked: jetson, dgpu, generic); gp-trace (the pushes `run --trace` kept:
 *   the model and DIR/trace.bin, a checked little-endian binary, written and
 *   read); gp-machine (the machine under the pipeline as the session keeps
 *   it: series by quantity and instance, each in its quantity's one unit,
 *   with its limit; the sources that were tried, sampled or not and why;
 *   the facts; spans' mean, max, share above a threshold);
 * - the header-only contracts with the tracer: gp-histogram.h its buckets,
 *   gp-record.h its records, gp-hw-factories.h which element factories
 *   drive hardware.
 *
 * May depend on: GLib, gio, json-glib, GStreamer.
 */
#ifndef __GP_SESSION_H__
#define __GP_SESSION_H__

#include <glib.h>
#include <json-glib/json-glib.h>
#include "gp-launch.h"
#include "gp-launch-op.h"
#include "gp-machine.h"
#include "gp-series.h"
#include "gp-trace.h"

G_BEGIN_DECLS

#define GP_SESSION_SCHEMA "gstprof/1"

/* Quantiles in milliseconds; a negative value means "not measured". */
typedef struct
{
  gdouble p50, p95, p99, max;
} GpQuantiles;

/* A histogram cut at the tracer's octave edges: every power of two of
 * nanoseconds is an edge of its buckets (gp-histogram.h), so each count is
 * exact, not interpolated. below[i] values were below
 * 2^(GP_OCTAVE_FIRST + i) ns (cumulative, as a Prometheus histogram's
 * buckets are); count is all of them. count 0: none kept (nothing
 * measured, an import, an older session). */
#define GP_OCTAVE_FIRST 10      /* 1.024 us */
#define GP_OCTAVE_N 21          /* to 2^30 ns, 1.07 s */
typedef struct
{
  guint64 below[GP_OCTAVE_N];
  guint64 count;
} GpOctaves;

/* The edge of below[@i], in ms. */
#define GP_OCTAVE_EDGE_MS(i) ((gdouble) (G_GUINT64_CONSTANT (1) << \
        (GP_OCTAVE_FIRST + (i))) / 1e6)

typedef struct
{
  gchar *name;
  gchar *factory;
  gchar *parent;                /* "" for a top-level pipeline */
  gchar *kind;                  /* source|sink|queue|demux|mux|tee|filter|bin */
  gboolean is_bin;
  JsonObject *props;            /* real values at PLAYING, may be NULL */
} GpElement;

typedef struct
{
  gchar *id;                    /* "src_el.pad->sink_el.pad" */
  gchar *src;                   /* "element.pad" */
  gchar *sink;                  /* "element.pad" */
  gchar *caps;                  /* may be NULL */
  gchar *memory;                /* caps feature, "system" when none */
} GpLink;

/* The element of a pad named "element.pad" (a link's src or sink): a new
 * string, "" for NULL. Pad names carry no dot, element names may, so the
 * last dot separates. */
gchar *gp_pad_element (const gchar * pad);

/* summary.elements.<name> */
typedef struct
{
  gchar *name;
  GpQuantiles self_ms;
  GpOctaves self_octaves;       /* the same self times, counted */
  guint64 buffers;
  gdouble self_total_ms;        /* sum of self time over the run */
  /* samples of self_ms that are the thread's CPU time: the element also
   * waits (a sink for its clock and preroll, an aggregator's or muxer's
   * inputs, a source between buffers), and only its CPU time is work.
   * 0 for sessions from before it was measured and for imports. */
  guint64 cpu_buffers;
  GpQuantiles wait_ms;          /* the rest of those samples' wall time */
  gdouble wait_total_ms;        /* its sum, < 0 unknown */
  gdouble cpu_ms;               /* CPU self time, < 0 when not measured */
  /* an element with a queue of its own that is not a queue (appsrc): the
   * most it held and what it held at the end (MiB; < 0: it has none or
   * it was not measured), its max-bytes (0 none), and whether a push waits
   * at that limit (appsrc block=true) */
  gdouble queued_mb_max, queued_mb_end;
  guint64 queued_limit_bytes;
  gboolean queued_blocks;
  /* an application's handlers of its streaming signals (gp-record.h
   * GP_E_HANDLER_*), taken out of its self time: their time (< 0: none
   * ran or not measured), the emissions timed, and that time over the
   * PLAYING time as busy_pct (< 0: none), as a link's probe_busy_pct */
  gdouble handler_ms;
  guint64 handler_calls;
  gdouble handler_busy_pct;
  gdouble busy_pct;             /* self_total over the PLAYING time and the
                                 * threads it ran on, % (never above 100) */
  gdouble share_pct;            /* of all elements' self time,
      queues excluded */
  GPtrArray *threads;           /* gchar*: names of the threads it ran on */
} GpElementSummary;

/* summary.queues.<name> */
typedef struct
{
  gchar *name;
  GpQuantiles residence_ms;
  gdouble level_pct_mean, level_pct_max;
  guint64 level_buffers_max;
  guint64 dropped;
  gchar *leaky;                 /* no|upstream|downstream */
  gdouble blocked_ms;           /* upstream time blocked on a full queue */
} GpQueueSummary;

/* summary.links.<id> */
typedef struct
{
  gchar *id;
  /* steady state: over the link's own data windows before gstprof asked
   * the pipeline to stop, its start-up (first second) and last (partial)
   * window left out (docs/session-schema.md) */
  gdouble fps;                  /* buffers/s (frames/s for video) */
  gdouble bytes_per_s;
  gdouble media_per_s;          /* media time per second of wall time (1.0 is
                                 * real time), < 0 when buffers had no
                                 * duration */
  gdouble first_s;              /* its first buffer,
      s from the start; < 0 none */
  guint64 buffers;
  guint64 no_pts;               /* of them, without a PTS */
  guint64 gap;                  /* of them, flagged GAP (a repeat, a
                                 * filler); 0 too where not counted */
  /* RTP packets over the whole run (gp-record.h GP_L_RTP_*): what the
   * sequence numbers say was sent, what came, how often the numbering
   * started anew; rtp FALSE: the link carried none (or the session does
   * not say) */
  gboolean rtp;
  guint64 rtp_expected, rtp_received, rtp_restarts;
  /* pad probes on the link (gp-record.h GP_L_PROBE_*) over the whole run:
   * the time they took (ms, < 0: the link had none) and the pushes whose
   * probes were timed */
  gdouble probe_ms;
  guint64 probe_pushes;
  gdouble probe_busy_pct;       /* probe_ms over the PLAYING time, as an
                                 * element's busy_pct; < 0 unknown */
} GpLinkSummary;

/* summary.paths[] (to sinks) and summary.interlatency[] (to any element) */
typedef struct
{
  gchar *source;                /* origin "element.pad" */
  gchar *sink;                  /* element name */
  GpQuantiles latency_ms;
  GpOctaves latency_octaves;    /* the same latencies, counted */
  gdouble mean_ms;              /* exact mean of the matched, < 0 unknown */
  guint64 matched, unmatched;
  /* of matched: a buffer left the origin with the same running time; the
   * rest matched by running-time interval (content re-chunked,
   * re-timestamped, mixed or repeated on the way) */
  guint64 exact;
  /* steady: latency_ms, latency_octaves and mean_ms are over the steady
   * state, as the rates are (the path's first second of matches and the
   * drain after the stop left out), and startup_max_ms is the longest of
   * that first second; else they are over the whole run (too little
   * steady state, older sessions) and startup_max_ms is < 0 */
  gboolean steady;
  gdouble startup_max_ms;
} GpPath;

/* summary.threads[] */
typedef struct
{
  guint64 tid;
  gchar *name;
  /* at the end of the run: the element whose push it had been inside for
   * blocked_ms (a sink holding its preroll, a full queue); NULL when
   * none */
  gchar *blocked_in;
  gdouble blocked_ms;
  gdouble cpu_pct_mean;         /* % of one core, over the run */
  gdouble cpu_pct_max;          /* busiest window */
  /* ready to run but waiting for a CPU others had (the kernel's run-queue
   * wait), % of its life; < 0 unknown */
  gdouble run_delay_pct;
  GPtrArray *elements;          /* gchar* */
  /* Never seen in a tracer hook: not a GStreamer streaming thread but an
   * element's own worker (x264's encoder threads), the application's, or
   * gstprof's timer; its elements are empty. session.json writes the
   * negation, summary.threads[].streaming. FALSE by default, so threads
   * made without this knowledge count as streaming threads. */
  gboolean worker;
} GpThreadSummary;

/* summary.process: the whole process, whatever thread burnt the CPU. */
typedef struct
{
  /* FALSE when the session has no process figures (an older session, or
   * another tool's): every field below is then unknown, whatever it
   * holds. */
  gboolean measured;
  gdouble cpu_pct_mean;         /* % of one core (can exceed 100),
      < 0 unknown */
  gdouble cpu_pct_max;          /* busiest window, < 0 unknown */
  gint n_cpus;                  /* CPUs it may run on, <= 0 unknown */
  gdouble rss_mb_start;         /* first window, MiB; < 0 unknown */
  gdouble rss_mb_max;
  gdouble rss_mb_end;           /* last window */
} GpProcessSummary;

/* summary.sinks.<name> */
typedef struct
{
  gchar *name;
  /* what it receives, from the caps at its input (gp-caps.h): a video sink
   * is judged in frames/s, an audio sink by the media time it gets per
   * second (real time is 1.0), RTP and muxed outputs by bits and packets
   * or buffers per second */
  gchar *media;                 /* video|audio|rtp|muxed|other|unknown */
  gdouble fps;                  /* buffers/s, steady state (its input link's) */
  gdouble target_fps;           /* from the caps at its input, < 0 unknown */
  gdouble media_per_s;          /* < 0 unknown */
  gdouble bytes_per_s;
  gdouble first_s;              /* its first buffer,
      s from the start; < 0 none */
  guint64 buffers;
  /* Lateness against the pipeline clock of the buffers into it (gp-record.h
   * GP_L_LATE_*): the clock's running time when each was pushed less its
   * own running time, 0 when ahead; over the run, and its trend: the
   * least-squares slope of the windows' medians against their time, in ms
   * per s (a pipeline that falls behind real time by a frame's excess each
   * frame grows by that excess times the rate).  Unknown (-1, NAN) when no
   * buffer was measured (no clock, an import, an older session). */
  GpQuantiles late_ms;
  gdouble late_trend_ms_per_s;  /* NAN unknown (fewer than
                                 * GP_LATE_TREND_MIN_WINDOWS windows) */
  guint64 late_windows;         /* windows the trend was fitted to */
} GpSinkSummary;

/* A trend needs this many windows (a second at the default 250 ms): fewer
 * is start-up, not a trend */
#define GP_LATE_TREND_MIN_WINDOWS 4

/* events[] */
typedef struct
{
  gdouble t;                    /* seconds since the session started */
  /* the tracer's (src/core/gp-record.h: error|warning|qos|eos|state|
   * latency|flow|caps-refused) and gstprof's own: interrupt (Ctrl-C),
   * duration (the end of --duration), stopped (the wait for EOS ran out) */
  gchar *type;
  gchar *source;                /* element name or "" */
  gchar *text;
  /* the numbers and names behind the text (qos: processed, dropped,
   * jitter_ns, running_time; state: old, new, pending; flow: link, peer,
   * caps; errors: debug), NULL when none; the record's field names */
  JsonObject *data;
} GpEvent;

/* session.preroll[]: a sink of a pipeline that never reached PLAYING */
typedef struct
{
  gchar *name;
  gchar *state;                 /* its state at the end (READY, PAUSED) */
  gchar *pending;               /* where it was going (PAUSED), VOID_PENDING */
  gboolean prerolled;           /* it got its first buffer and holds it */
} GpPrerollSink;

/* findings[] */
typedef struct
{
  gchar *rule;                  /* HOT, BUDGET, ... */
  gchar *severity;              /* high|medium|info */
  gchar *title;
  GPtrArray *targets;           /* gchar*: element or link names */
  JsonObject *evidence;         /* rule-specific numbers */
  gchar *why;
  gchar *fix;
  GPtrArray *fix_patch;         /* GpLaunchOp*: the launch-string edit
                                 * (gp-launch-op.h), or NULL */
  gboolean heuristic;
  gchar *verified_on;           /* NULL when not bench-verified */
  gdouble rank_value;           /* estimated gain (ms or fps) or share,
      for ordering */
} GpFinding;

/* What an imported session could not carry (src/ingest sets them), as
 * flags in GpSession.import_missing. Rules that need one of these must not
 * run on a session that has the flag (docs/rules.md says which); the
 * verdict can print gp_ingest_missing_describe () for each flag set. */
typedef enum
{
  /* Element time is the core latency tracer's element-latency (wall time
   * from a buffer entering the element to it leaving, downstream excluded
   * but waiting inside the element included), not exclusive self time;
   * a queue's is its residence. */
  GP_IMPORT_MISSING_SELF_TIME = 1 << 0,
  /* No per-buffer histograms: quantiles over the run are merged from
   * per-window p50/p95 only, so p99 and max are unknown and self_total_ms
   * is an estimate (buffers x window median). */
  GP_IMPORT_MISSING_HISTOGRAMS = 1 << 1,
  /* No thread map: which thread ran which element is unknown
   * (GpElementSummary.threads and GpThreadSummary.elements are empty). */
  GP_IMPORT_MISSING_ELEMENT_THREADS = 1 << 2,
  /* Properties are only the non-default ones the other tool saw in a dot
   * dump, as strings (some truncated); an absent property is unknown, not
   * its default. */
  GP_IMPORT_MISSING_PROP_DEFAULTS = 1 << 3,
  /* No CPU time per element (cpu_ms is -1). */
  GP_IMPORT_MISSING_ELEMENT_CPU = 1 << 4,
  /* Thread CPU is one sample (the last), not a mean over the run;
   * cpu_pct_max is unknown. */
  GP_IMPORT_MISSING_THREAD_CPU_RUN = 1 << 5,
  /* No queue levels, drops, leakiness or blocking. */
  GP_IMPORT_MISSING_QUEUE_LEVELS = 1 << 6,
  /* hw_elements lists only the hardware factories the captured pipeline
   * instantiated, not the machine's whole registry. */
  GP_IMPORT_MISSING_HW_REGISTRY = 1 << 7,
  /* Latency: one pipeline-wide series (all paths mixed); matched counts
   * are estimated from the sink's buffers, unmatched are unknown, and
   * there is no interlatency to each element. */
  GP_IMPORT_MISSING_PATH_LATENCY = 1 << 8,
  /* No QoS events or drop counts at sinks. */
  GP_IMPORT_MISSING_QOS = 1 << 9,
  /* No element times at all (a tracer log without the latency tracer's
   * element-latency records: its "element" flag was off). */
  GP_IMPORT_MISSING_ELEMENT_TIME = 1 << 10,
  /* No links: no buffer counts, bytes, rates or caps per link, and no
   * graph beyond the element names other records carry (a tracer log
   * without the stats tracer). */
  GP_IMPORT_MISSING_LINKS = 1 << 11,
  /* No CPU time at all, per thread or for the process (cpu_pct_mean -1;
   * a tracer log without the rusage tracer). */
  GP_IMPORT_MISSING_THREAD_CPU = 1 << 12,
  /* Latency only from sources to sinks: none from a source to each
   * element on the way (summary.interlatency is empty). */
  GP_IMPORT_MISSING_INTERLATENCY = 1 << 13,
  /* No latency from sources to sinks at all (a tracer log without the
   * latency tracer's pipeline records). */
  GP_IMPORT_MISSING_LATENCY = 1 << 14,
  /* Queue levels only (gst-plugins-rs' queue-levels tracer): no drops,
   * leakiness, upstream blocking or residence per queue (dropped is 0,
   * leaky "unknown", blocked_ms and residence_ms unknown). */
  GP_IMPORT_MISSING_QUEUE_FLOW = 1 << 15,
} GpImportMissing;

typedef struct
{
  gchar *schema;                /* GP_SESSION_SCHEMA */
  /* session */
  gchar *mode;                  /* run|wrap|analyze */
  gchar *launch;                /* may be NULL */
  gchar *started;               /* ISO 8601 UTC */
  gdouble duration_s;
  gchar *gstreamer;             /* version string */
  gchar *platform;              /* jetson|dgpu|generic */
  gdouble window_s;
  gint exit_code;               /* what the run exited with */
  /* how the run went: the highest state the pipeline reached (NULL when
   * not known: older sessions, imports); how it ended (eos, duration,
   * interrupt, error; NULL unknown); when gstprof asked it to stop and how
   * long the EOS took to come back (< 0: not asked, or it never came) */
  gchar *reached;
  gchar *end;
  gdouble stop_s;
  gdouble drain_s;
  GPtrArray *preroll;           /* GpPrerollSink*, when it never played */
  guint64 events_dropped;       /* events the tracer or the capture had to
                                 * drop (QoS storms) */
  /* run --trace: the file of the pushes kept, beside session.json (its
   * name in the session's folder, GP_TRACE_FILE; NULL: none), the span
   * its rings were sized for (s) and the slices it holds
   * (session.trace) */
  gchar *trace_file;
  guint trace_s;
  guint64 trace_slices;
  /* (capture) the pushes themselves, from the capture until the run saves
   * them as trace_file; NULL in a session read back */
  GpTrace *trace;
  /* the machine under the pipeline, as its samplers or a telemetry log
   * saw it (session.machine); NULL when nothing sampled it */
  GpMachine *machine;

  /* graph */
  GPtrArray *elements;          /* GpElement* */
  GPtrArray *links;             /* GpLink* */
  GPtrArray *hw_elements;       /* gchar*: hardware factories registered */

  /* summary; the arrays own their entries, and their order is the order
   * written to session.json (keyed sections as objects in this order) */
  GPtrArray *elem_summaries;    /* GpElementSummary*, by self_total desc */
  GPtrArray *queue_summaries;   /* GpQueueSummary* */
  GPtrArray *link_summaries;    /* GpLinkSummary* */
  GPtrArray *paths;             /* GpPath*, to sinks */
  GPtrArray *interlatency;      /* GpPath*, to every element */
  GPtrArray *threads;           /* GpThreadSummary*, by cpu_pct_mean desc */
  GPtrArray *sinks;             /* GpSinkSummary* */
  gdouble target_fps;           /* < 0 unknown */
  gdouble frame_period_ms;      /* < 0 unknown */
  GpProcessSummary process;

  /* series: one JsonObject per window, oldest first (docs/session-schema.md) */
  GPtrArray *series;            /* JsonObject* */

  GPtrArray *events;            /* GpEvent* */
  GPtrArray *findings;          /* GpFinding*, ranked */

  /* Sessions read from another tool's file (src/ingest): where it came
   * from and what it could not carry. NULL / 0 for gstprof's own. The two
   * strings are static (never freed). */
  const gchar *import_schema;   /* e.g. "gst-profile/1" */
  const gchar *import_mode;     /* the other tool's mode: run|wrap|analyze|other */
  guint import_missing;         /* GpImportMissing flags (above) */
  /* what the importer has to say about this file beyond the flags (lines
   * it could not read, values it refused), printed in the verdict's import
   * note; owned, NULL when none. Not written to session.json. */
  gchar *import_detail;

  /* launch parsed once for every question about it (written by
   * gp_session_parsed_launch (), gp-session-query.h, the first time one
   * is asked after launch changed): the parsed form, NULL when launch
   * does not parse, and the text it was parsed from. Not in session.json. */
  GpLaunch *launch_parsed;
  gchar *launch_parsed_of;

  /* name -> position indexes of elements and elem_summaries, built on the
   * first lookup and kept up with appends (gp-session.c); not in
   * session.json */
  struct _GpNameIndex *element_index;
  struct _GpNameIndex *elem_summary_index;
} GpSession;

/* session.imported_from.missing in session.json names each import_missing
 * flag (one GpImportMissing bit): "self_time", "histograms", ... (see
 * docs/session-schema.md). NULL for 0, several bits or an unknown bit. */
const gchar *gp_session_import_missing_name (guint flag);
/* The flag a name stands for, 0 when this build does not know it. */
guint gp_session_import_missing_from_name (const gchar * name);

GpSession *gp_session_new (void);
void gp_session_free (GpSession * s);

GpElement *gp_session_add_element (GpSession * s, const gchar * name,
    const gchar * factory, const gchar * parent, const gchar * kind);
GpLink *gp_session_add_link (GpSession * s, const gchar * src,
    const gchar * sink, const gchar * caps, const gchar * memory);
GpEvent *gp_session_add_event (GpSession * s, gdouble t, const gchar * type,
    const gchar * source, const gchar * text);
GpFinding *gp_session_add_finding (GpSession * s, const gchar * rule,
    const gchar * severity, const gchar * title);

/* Lookups by name go through an index built once and kept up with
 * entries appended to the arrays; code that empties, sorts or renames
 * entries in place calls gp_session_reindex () before the next lookup. */
GpElement *gp_session_find_element (GpSession * s, const gchar * name);
/* Forgets the name indexes: the next lookup builds them again. */
void gp_session_reindex (GpSession * s);
/* The first finding of @rule (NULL: any rule) that names @target among
 * its targets (NULL: whatever it names), or NULL. */
GpFinding *gp_session_find_finding (GpSession * s, const gchar * rule,
    const gchar * target);
/* The first event of @type ("error", "eos", ...), or NULL. */
GpEvent *gp_session_find_event (GpSession * s, const gchar * type);
/* How many findings of @rule there are. */
guint gp_session_count_findings (GpSession * s, const gchar * rule);
GpElementSummary *gp_session_find_elem_summary (GpSession * s,
    const gchar * name);
GpQueueSummary *gp_session_find_queue_summary (GpSession * s,
    const gchar * name);

/* Getters for element properties as recorded at PLAYING. */
gboolean gp_element_get_prop_bool (GpElement * e, const gchar * prop,
    gboolean * out);
const gchar *gp_element_get_prop_string (GpElement * e, const gchar * prop);
/* Integer properties (a whole-valued double also counts); FALSE when the
 * property is absent or not a number. */
gboolean gp_element_get_prop_int (GpElement * e, const gchar * prop,
    gint64 * out);
/* Any numeric property as a double. */
gboolean gp_element_get_prop_double (GpElement * e, const gchar * prop,
    gdouble * out);

/* Ownership: every struct above is made by its gp_*_new () and freed by its
 * gp_*_free (); strings are copied. The session's arrays own their entries
 * (their free functions are set), so g_ptr_array_add (s->x, gp_x_new (...))
 * hands an entry over and g_ptr_array_set_size (s->x, 0) frees them all
 * (e.g. before gp_aggregator_finish () rebuilds the summary). Numbers that
 * can be unknown start at -1, counts at 0. */
void gp_quantiles_set_unknown (GpQuantiles * q);

GpElement *gp_element_new (const gchar * name, const gchar * factory,
    const gchar * parent, const gchar * kind);
void gp_element_free (GpElement * e);
/* The id is "src->sink". */
GpLink *gp_link_new (const gchar * src, const gchar * sink,
    const gchar * caps, const gchar * memory);
void gp_link_free (GpLink * l);
GpElementSummary *gp_element_summary_new (const gchar * name);
void gp_element_summary_free (GpElementSummary * es);
GpQueueSummary *gp_queue_summary_new (const gchar * name);
void gp_queue_summary_free (GpQueueSummary * qs);
GpLinkSummary *gp_link_summary_new (const gchar * id);
void gp_link_summary_free (GpLinkSummary * ls);
GpPath *gp_path_new (const gchar * source, const gchar * sink);
void gp_path_free (GpPath * p);
GpThreadSummary *gp_thread_summary_new (guint64 tid, const gchar * name);
void gp_thread_summary_free (GpThreadSummary * ts);
GpSinkSummary *gp_sink_summary_new (const gchar * name);
void gp_sink_summary_free (GpSinkSummary * ss);
GpEvent *gp_event_new (gdouble t, const gchar * type, const gchar * source,
    const gchar * text);
void gp_event_free (GpEvent * ev);
GpPrerollSink *gp_preroll_sink_new (const gchar * name, const gchar * state,
    const gchar * pending, gboolean prerolled);
void gp_preroll_sink_free (GpPrerollSink * p);
/* Whether the run is known to have never reached PLAYING. */
gboolean gp_session_never_played (GpSession * s);
GpFinding *gp_finding_new (const gchar * rule, const gchar * severity,
    const gchar * title);
void gp_finding_free (GpFinding * f);
void gp_finding_add_target (GpFinding * f, const gchar * target);

/* Append a new entry and return it (owned by the session). */
GpElementSummary *gp_session_add_elem_summary (GpSession * s,
    const gchar * name);
GpQueueSummary *gp_session_add_queue_summary (GpSession * s,
    const gchar * name);
GpLinkSummary *gp_session_add_link_summary (GpSession * s, const gchar * id);
GpPath *gp_session_add_path (GpSession * s, const gchar * source,
    const gchar * sink);
GpPath *gp_session_add_interlatency (GpSession * s, const gchar * source,
    const gchar * element);
GpThreadSummary *gp_session_add_thread (GpSession * s, guint64 tid,
    const gchar * name);
GpSinkSummary *gp_session_add_sink (GpSession * s, const gchar * name);
/* Appends one series window; takes a reference on @window. */
void gp_session_add_window (GpSession * s, JsonObject * window);

GpLink *gp_session_find_link (GpSession * s, const gchar * id);
GpLinkSummary *gp_session_find_link_summary (GpSession * s, const gchar * id);
GpSinkSummary *gp_session_find_sink (GpSession * s, const gchar * name);
GpThreadSummary *gp_session_find_thread (GpSession * s, guint64 tid);
GpPath *gp_session_find_path (GpSession * s, const gchar * source,
    const gchar * sink);

/* Orders elem_summaries by self_total_ms and threads by cpu_pct_mean, both
 * descending; ties keep their current order. */
void gp_session_sort_summaries (GpSession * s);

/* session.json: write atomically (temp file + rename); read with a one-line
 * error naming the file (and line:column for syntax errors). */
gboolean gp_session_save (GpSession * s, const gchar * path, GError ** error);
GpSession *gp_session_load (const gchar * path, GError ** error);
JsonNode *gp_session_to_json (GpSession * s);
/* The same with each machine series at most @machine_max samples (a copy
 * halved by gp_machine_series_thin (): neighbours merged, their mean
 * kept); 0: every sample. The live view's state: bounded whatever the
 * run's length. */
JsonNode *gp_session_to_json_bounded (GpSession * s, guint machine_max);
/* A deep copy of @s: its machine copied as it is (gp_machine_copy ()),
 * the rest through session.json's model (what a session file keeps).
 * NULL with @error when @s holds what session.json refuses. */
GpSession *gp_session_copy (GpSession * s, GError ** error);
/* What a live view needs after each window (src/serve), written as
 * session.json writes it: {"summary", "series": the entries that end after
 * @series_after, "machine": {name: {unit, limit, t, v}} for each machine
 * series with samples after the time @machine_after holds for its name
 * (gdouble*, by name; NULL or absent: all of them)}. */
JsonObject *gp_session_live_json (GpSession * s, gdouble series_after,
    GHashTable * machine_after);
GpSession *gp_session_from_json (JsonNode * root, const gchar * origin,
    GError ** error);
/* The same with the machine series @root left out in @lazy (may be NULL;
 * gp-json.h, GpJsonSessionReader). */
struct _GpJsonLazy;
GpSession *gp_session_from_json_lazy (JsonNode * root,
    struct _GpJsonLazy *lazy, const gchar * origin, GError ** error);
/* A finding's fix_patch as session.json holds it: an array with one
 * object per op (the forms are in gp-launch-op.h). */
JsonNode *gp_session_patch_to_json (GPtrArray * patch);
/* The way back: one op (an object) or an array of them. NULL and a
 * one-line error "ORIGIN: fix_patch[1].op: ..." (GP_SESSION_ERROR_SCHEMA)
 * on a malformed one; @origin names the input (NULL: "<data>"). */
GPtrArray *gp_session_patch_from_json (JsonNode * node, const gchar * origin,
    GError ** error);
/* session.json text (pretty: indented by 2, ending in a newline). */
gchar *gp_session_to_data (GpSession * s, gboolean pretty, gsize * length);
/* Parses session.json text; @origin names it in errors (a path, or NULL for
 * "<data>"). gp_session_load () is this on the file's contents. */
GpSession *gp_session_load_data (const gchar * data, gssize length,
    const gchar * origin, GError ** error);

#define GP_SESSION_ERROR (gp_session_error_quark ())
GQuark gp_session_error_quark (void);
typedef enum
{
  GP_SESSION_ERROR_IO,
  GP_SESSION_ERROR_PARSE,
  GP_SESSION_ERROR_SCHEMA,
} GpSessionError;

/* ------------------------------------------------------------------ */
/* series: one JsonObject per window (docs/session-schema.md, series[])  */
/* ------------------------------------------------------------------ */

/* The sections and fields of a window are declared in gp-series.h. */

/* Building (the aggregator and every importer): a new window with every
 * section present and empty, its span in s since the session started. */
JsonObject *gp_series_window_new (gdouble t0, gdouble t1);
/* The entry @key of @section in @window, made when absent (@key NULL:
 * the section itself, for the process). Borrowed. */
JsonObject *gp_series_entry (JsonObject * window, const gchar * section,
    const gchar * key);
/* A measured number; NAN or negative is written as -1, which the schema
 * reads as "no sample in this window". */
void gp_series_set (JsonObject * entry, const gchar * field, gdouble v);
void gp_series_set_count (JsonObject * entry, const gchar * field,
    guint64 v);
/* A number that may be unknown: null when NAN or negative. */
void gp_series_set_or_null (JsonObject * entry, const gchar * field,
    gdouble v);

/* Reading (rules, compare): the number of windows, oldest first. */
guint gp_session_n_windows (GpSession * s);
/* Window @i's span in s since the session started. */
void gp_session_window_span (GpSession * s, guint i, gdouble * t0,
    gdouble * t1);
/* Window @i's @section (borrowed), NULL when the window has none. */
JsonObject *gp_session_window_section (GpSession * s, guint i,
    const gchar * section);
/* series[i].<section>.<key>.<field> (@key NULL: series[i].<section>.<field>)
 * as a number, -1 when it is absent, null or not a number: no sample, or
 * not measured, in that window. */
gdouble gp_session_window_value (GpSession * s, guint i,
    const gchar * section, const gchar * key, const gchar * field);

G_END_DECLS

#endif /* __GP_SESSION_H__ */
