/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-session-query.h: read-only questions about a session, asked by the
 * rules, the verdict, compare and whatever reads a session next (a panel,
 * a report, metrics): which element is a queue or a sink, how much of its
 * time is work, which thread limits the run, the hops of a latency path,
 * the PLAYING span, an element's identity across runs, the launch string's
 * name for an element. They read only the GpSession (never a live
 * pipeline) and change nothing in it but the parsed launch string they
 * share (gp_session_parsed_launch ()).
 *
 * Findings are not here: what is wrong with a run is the rules' to say
 * (src/rules/gp-rules.h).
 */
#ifndef __GP_SESSION_QUERY_H__
#define __GP_SESSION_QUERY_H__

#include <glib.h>
#include "gp-session.h"

G_BEGIN_DECLS

/* ------------------------------------------------------------------------ */
/* the graph                                                                 */

gboolean gp_session_is_capsfilter (GpSession * s, const gchar * name);
/* The element next to @name downstream (@down) or upstream, capsfilters
 * skipped; NULL at the end of the chain. */
GpElement *gp_session_neighbour (GpSession * s, const gchar * name,
    gboolean down);
gboolean gp_session_is_queue (GpSession * s, const gchar * name);
/* TRUE when @name is a queue or queue2 with no limit at all (its
 * max-size-buffers, -bytes and -time recorded as 0): its level as a share
 * of a limit means nothing, only its buffers do. */
gboolean gp_session_queue_unbounded (GpSession * s, const gchar * name);
gboolean gp_session_is_sink (GpSession * s, const gchar * name);

/* TRUE when @name is a sink whose wall self time includes waiting for the
 * clock (sync=true, or sync unknown: GstBaseSink's default is true). */
gboolean gp_session_sink_waits_on_clock (GpSession * s, const gchar * name);

/* TRUE when @name is a live source (is-live=true, or a factory that is
 * always live: cameras, network receivers). */
gboolean gp_session_is_live_source (GpSession * s, const gchar * name);
/* TRUE when one of @elements (a set of names, gp_session_upstream_of) is
 * a live source. */
gboolean gp_session_any_live (GpSession * s, GHashTable * elements);
/* TRUE when a live source is upstream of @element, or is @element: its
 * data comes at the rate of the world, and the time it takes to get there
 * is latency someone waits for. */
gboolean gp_session_fed_live (GpSession * s, const gchar * element);
/* TRUE when sources are upstream of @element, none live, and each one's
 * properties were recorded (an import's were not: its liveness is not
 * known): data read from a file, or made as fast as asked, runs ahead of
 * the clock, and what it waits on the way is no latency anyone sees. */
gboolean gp_session_read_ahead (GpSession * s, const gchar * element);

/* The first link into (or out of) @element, or NULL. */
GpLink *gp_session_link_into (GpSession * s, const gchar * element);
GpLink *gp_session_link_out_of (GpSession * s, const gchar * element);
/* Buffers that entered @element over the run: the sum over the links into
 * it (a queue's input, what a leaky one dropped from). */
guint64 gp_session_buffers_into (GpSession * s, const gchar * element);

/* Set (name -> name) of every element upstream of @element through the
 * graph's links, @element included. Free with g_hash_table_unref. */
GHashTable *gp_session_upstream_of (GpSession * s, const gchar * element);

/* TRUE when @up is upstream of @element (or is it). */
gboolean gp_session_feeds (GpSession * s, const gchar * up,
    const gchar * element);

/* TRUE when element @name and every bin it sits in are the user's:
 * written in the launch string (gp_session_launch_name ()), not made at run
 * time inside a bin (decodebin's parser, playbin's sinks, glupload's
 * helpers). Without a launch string (imports), where it sits decides. */
gboolean gp_session_is_users (GpSession * s, const gchar * name);
/* TRUE when sink @name carries control traffic, not a stream: RTCP
 * (application/x-rtcp, x-srtcp), or data without caps into a sink a bin
 * made for itself (rtspsrc's NAT probe: a fakesrc's few buffers into a
 * udpsink). *@what, when not NULL: a static word for it ("RTCP", "a
 * bin's own"). */
gboolean gp_session_sink_is_control (GpSession * s, const gchar * name,
    const gchar ** what);

/* TRUE when @name is, or sits inside, a bin that picks its elements at
 * run time (decodebin, uridecodebin, playbin, their 3s, parsebin). */
gboolean gp_session_in_autoplug_bin (GpSession * s, const gchar * name);

/* TRUE when every sink below @element writes a file (filesink,
 * splitmuxsink, ...): nobody sees the stream as it is made, so latency
 * costs nothing there, and dropping data loses part of the recording. */
gboolean gp_session_recording_only (GpSession * s, const gchar * element);

/* TRUE when @factory is a software converter of format and/or size
 * (videoconvert, videoscale, ...): the kind of element a fix adds, and
 * two in a row do one job twice. */
gboolean gp_factory_is_sw_converter (const gchar * factory);

/* ------------------------------------------------------------------------ */
/* time: work, threads, rates, latency                                       */

/* Working self time of an element over the run, in ms: its wall self time,
 * except for a sink that waits on the clock, whose wall time is mostly
 * waiting: its CPU self time then, or -1 when CPU was not measured. Queues
 * are never working time (-1). */
gdouble gp_session_work_ms (GpSession * s, const GpElementSummary * es);
/* How long @es held each buffer without working: its measured wait, or,
 * where no wait was measured apart (imports), its wall self time. */
const GpQuantiles *gp_session_held_ms (const GpElementSummary * es);

/* The element's working time as % of the run: its busy_pct (self time
 * over the PLAYING time, as the aggregator measured it) scaled by the part
 * of its self time that is work; -1 when it has no working time. */
gdouble gp_session_work_busy_pct (GpSession * s, const GpElementSummary * es);

/* What an element's time is in @s, in words for a reader: exclusive self
 * time (work only) for gstprof's own sessions; for an import without it,
 * the element's time from entry to exit, waiting included. Static. */
const gchar *gp_session_element_time_words (GpSession * s);

/* Sum of gp_session_work_ms() over every element that has working time
 * (bins left out): the denominator of a "share of the processing time". */
gdouble gp_session_total_work_ms (GpSession * s);

/* Wall busy share of a streaming thread: the working self time of the
 * elements that ran on it and the application's work among them
 * (gp_session_thread_app), as % of the run. -1 when it ran none. */
gdouble gp_session_thread_busy_pct (GpSession * s, const GpThreadSummary * t);

/* The application's own work on a streaming thread, apart from every
 * element's self time: the pad probes on a link into one of its elements,
 * or the handlers of an element's streaming signals (identity's handoff). */
typedef struct
{
  const gchar *id;              /* the link's id, or the element's name;
                                 * NULL: none */
  gboolean handlers;            /* an element's signal handlers (else a
                                 * link's pad probes) */
  gdouble busy_pct;             /* of the run, as the thread's busy share
                                 * counts it */
  gdouble mean_ms;              /* a push's probes, or an emission's
                                 * handlers */
} GpAppWork;

/* The application's work on @t's elements and the links into them: its
 * busy share of the run, summed (an element on several threads split
 * evenly), 0 when none; @most (may be NULL) the one that took the most,
 * its id NULL when none did. */
gdouble gp_session_thread_app (GpSession * s, const GpThreadSummary * t,
    GpAppWork * most);

/* "the pad probes on LINK" or "the signal handlers on ELEMENT" (the
 * application's), a new string. */
gchar *gp_app_work_words (const GpAppWork * w);

/* The thread whose element list names @element (the busiest one when
 * several do), or NULL. */
GpThreadSummary *gp_session_thread_of (GpSession * s, const gchar * element);

/* The streaming thread that limits the run: highest wall busy share, then
 * highest CPU; restricted to threads running an element in @only when
 * @only is not NULL. NULL when there are no threads. */
GpThreadSummary *gp_session_limiting_thread (GpSession * s, GHashTable * only);

/* The thread blocked longest inside an element at the end of the run (a
 * sink holding its preroll, a full queue), or NULL. */
const GpThreadSummary *gp_session_blocked_thread (GpSession * s);

/* The element with the most working time among @t's elements (queues and
 * clock-waiting sinks without CPU time left out), or NULL. */
GpElementSummary *gp_session_hottest_on_thread (GpSession * s,
    const GpThreadSummary * t);

/* Target frame rate for a sink: its own, else the session's; < 0 unknown. */
gdouble gp_session_sink_target_fps (GpSession * s, const gchar * sink);

/* The measured frame rate of the session's first video sink; NAN
 * without one. */
gdouble gp_session_video_fps (const GpSession * s);
/* The sinks' steady buffers/s, summed; 0 when none has a rate. */
gdouble gp_session_sinks_fps (const GpSession * s);

/* One element on a latency path and the time from its input to the next
 * element's input, from the mean latencies of summary.interlatency: its
 * work and its waiting (a queue's residence, a jitterbuffer's hold, a
 * muxer waiting for its other inputs). */
typedef struct
{
  gchar *element;
  gdouble at_ms;                /* mean latency at its input (0: the origin) */
  gdouble hop_ms;               /* until the next element's input, < 0 unknown */
  gdouble work_ms;              /* its mean self time per buffer, < 0 unknown */
  gboolean queue;               /* a queue: its hop is waiting */
  gboolean exact;               /* buffers matched it by the same running time */
} GpHop;

/* The hops of @path, origin first, sink left out (its latency is measured
 * at its input); NULL when the links do not lead from the sink back to the
 * origin. Free with g_ptr_array_unref. */
GPtrArray *gp_session_path_hops (GpSession * s, const GpPath * path);
/* The media time per second an audio sink must get: 1.0 (real time) when
 * it plays to the clock or a live source feeds it; < 0 otherwise (a file
 * decoded as fast as it goes has no target) and for other media. */
gdouble gp_session_sink_target_media_rate (GpSession * s, const gchar * sink);
/* The media time @sk gets a second: its own where its buffers carry
 * durations, else its rate over its caps' rate; < 0 unknown. */
gdouble gp_session_sink_media_x (GpSession * s, const GpSinkSummary * sk);

/* The interlatency entry of (@source "element.pad", @element): latency
 * from the origin to @element's input; NULL when not measured. */
GpPath *gp_session_interlatency (GpSession * s, const gchar * source,
    const gchar * element);

/* ------------------------------------------------------------------------ */
/* the run's spans                                                           */

/* The PLAYING part of the run, in s from its start: from the top-level
 * pipeline's PAUSED->PLAYING (else the first window) to its EOS, an
 * interrupt, an error, gstprof's stop (--duration, Ctrl-C: the EOS drain
 * after it is not playing) or the end of the run. */
typedef struct
{
  gdouble t0, t1;
} GpPlayingSpan;
void gp_session_playing_span (GpSession * s, GpPlayingSpan * span);
/* How long @sk's stream played: the PLAYING span after its first buffer,
 * in s (0 when it came after the span; < 0 unknown: no first buffer).  A
 * rate over less than GP_SESSION_RATE_MIN_PLAYED_S of it is a sink's
 * preroll and first frames, not a pace: a slow start-up (4.4 s to preroll
 * playbin with its decoder slowed by ASan, then 0.1 s played) read "0.11x
 * real time". */
gdouble gp_session_sink_played_s (GpSession * s, const GpSinkSummary * sk);
#define GP_SESSION_RATE_MIN_PLAYED_S 1.0
/* Whether @sk played less than @min_s (known only): its rate is no pace. */
gboolean gp_session_sink_played_briefly (GpSession * s,
    const GpSinkSummary * sk, gdouble min_s);
/* When the last top-level pipeline left PLAYING for good (s from the
 * session's start), each pipeline apart: a helper pipeline that ends while
 * another plays is not it, nor a pause to buffer that plays again; a
 * program that sets its pipeline to NULL without an EOS frees what its
 * queues held there (MEM leaves out what a window samples after it). < 0
 * when a pipeline still played at the end. */
gdouble gp_session_left_playing (GpSession * s);

/* The span the machine's series are judged over (s from the session's
 * start, as their times): the PLAYING span when the session measured a
 * pipeline, else (a telemetry log alone) the whole log, NAN bounds. */
void gp_session_machine_span (GpSession * s, GpPlayingSpan * span);

/* A buffering element's level below full while playing (its "buffering"
 * events, gp-record.h): from @t0 to @t1 (s from the session's start,
 * clipped to the PLAYING span), @source the element. */
typedef struct
{
  gdouble t0, t1;
  const gchar *source;
  gboolean paused;              /* the pipeline went PLAYING->PAUSED as
                                 * it began (gst-launch-1.0, gstprof run,
                                 * a player that handles buffering); FALSE:
                                 * it played on, starved */
} GpBufferingPause;

/* The pauses of @s after each buffering element was first full (the
 * start-up fill is not one), in time order, into @out (GpBufferingPause,
 * emptied first); the longest start-up fill, from an element's first
 * level below full to its first full, in @fill_s (-1: none was ever
 * full). */
void gp_session_buffering_pauses (GpSession * s, GArray * out,
    gdouble * fill_s);
/* A buffering element that went below full and was never full again by
 * the end of the run (the pipeline waited for its first fill and never
 * played, or it ran dry for good), NULL when none; how long, from its
 * first level below full to the run's stop (or end), in @waited_s. */
const gchar *gp_session_buffering_unfilled (GpSession * s,
    gdouble * waited_s);
/* The seconds between @t0 and @t1 that some buffering element was paused
 * (gp_session_buffering_pauses; overlapping pauses counted once). */
gdouble gp_session_buffering_within (GpSession * s, gdouble t0, gdouble t1);

/* The machine's CPUs over the machine span, each in % of all of them:
 * how busy they were (cpu.load/all), the part this process took (its CPU
 * over the windows), the part every other process took (the rest of the
 * busy part) and what stayed idle. */
typedef struct
{
  gdouble busy_pct, own_pct, others_pct, idle_pct;
  guint n_cpus;                 /* the machine's: its cpu.load/N series */
} GpMachineCpu;
/* FALSE when the machine's load (at least @min_samples over the span) or
 * the process's CPU was not measured. */
gboolean gp_session_machine_cpu (GpSession * s, guint min_samples,
    GpMachineCpu * out);

/* ------------------------------------------------------------------------ */
/* names: across runs, in the launch string                                  */

/* What names @name in a way a second run of the same pipeline, or of its
 * fixed twin, names the same: the user's name when it has one; its factory
 * when it is the only one of it (queues and converters aside); else its
 * factory between the nearest factories up and down the links (queues,
 * capsfilters and identity left out: a fix adds and removes those), with
 * a number only where that is not enough, and its bin's identity in
 * front. GStreamer's numbers (queue1 becoming queue2 once a queue is
 * inserted before it) play no part. Newly allocated. */
gchar *gp_session_element_identity (GpSession * s, const gchar * name);
/* The same for a finding's target: an element, a link id
 * ("a.src->b.sink"), a thread ("el:src", workers "el:s/TID") or a series
 * of the machine ("gpu.load/0", as it is). */
gchar *gp_session_target_identity (GpSession * s, const gchar * target);

/* s->launch parsed (gp_launch_parse ()), or NULL when the session has
 * none or it does not parse. Parsed the first time it is asked for after
 * s->launch changed, and kept with the session: every question about the
 * launch string (a rules run asks hundreds) shares the one parse. Owned by
 * the session, and valid until s->launch changes and the next call parses
 * again; a caller that edits it works on a gp_launch_copy (). */
const GpLaunch *gp_session_parsed_launch (GpSession * s);
/* The name that designates session element @element in s->launch (the
 * launch's predicted name, else the alias <factory><n>), or NULL when the
 * session has no launch string or it does not name that element. */
gchar *gp_session_launch_name (GpSession * s, const gchar * element);
/* The caps written right before (or after) session element @element in
 * s->launch ("a ! video/x-raw,width=640 ! b"), as the user wrote them,
 * newly allocated, with their launch name in @caps_name (may be NULL);
 * NULL when there are none. */
gchar *gp_session_launch_caps_beside (GpSession * s, const gchar * element,
    gboolean before, gchar ** caps_name);

G_END_DECLS

#endif /* __GP_SESSION_QUERY_H__ */
