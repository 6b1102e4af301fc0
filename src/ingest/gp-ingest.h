/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-ingest.h: readers that turn saved files into a GpSession, so that
 * `gstprof analyze` gives a verdict on more than our own session.json.
 *
 * Every reader rejects bad input with one GError line in the
 * GP_SESSION_ERROR domain that names the file (and the line and column for
 * syntax errors, the key path for a value of the wrong type); none of them
 * crashes on any input (they are fuzzed: tests/fuzz/).
 *
 * The room, src/ingest: every file a command takes, into the model.
 * - gp-ingest-load: the one entry, gp_ingest_load_any, that picks the reader
 *   by schema or by content: a session.json, the folder `gstprof run --out`
 *   wrote, the records folder the tracer wrote by itself with out= (read by
 *   capture/gp-records); every command that takes a session takes what it
 *   takes;
 * - gp-ingest-gstprofile: gst-profile/1 sessions;
 * - gp-ingest-tracerlog: logs of GStreamer's own tracers (latency, stats,
 *   rusage and leaks records of 1.16 to 1.26 behind any line prefix, plain
 *   or gzip, streamed line by line through a hand-written field scanner held
 *   to gst_structure_from_string in its tests);
 * - gp-ingest-queuelevels: the CSV of gst-plugins-rs' queue-levels tracer
 *   (per queue, and per single queue of a multiqueue, its level against its
 *   tightest limit as a step function weighted by time, alone or merged into
 *   a tracer log's session and windows of the same run:
 *   gp_ingest_load_pair);
 * - gp-ingest-telemetry: a tegrastats log or nvidia-smi output alone as a
 *   session of the machine (read by src/telemetry, picked by its
 *   gp_telemetry_sniff);
 * - what the readers share (gp-ingest-private.h, gp-ingest-stream: a file,
 *   a pipe or a FIFO opened once, or a text, as a stream, gunzipped when it
 *   is gzip, its format told from a peek at its first bytes that does not
 *   consume them).
 *
 * May depend on: core, telemetry, capture.
 */
#ifndef __GP_INGEST_H__
#define __GP_INGEST_H__

#include <glib.h>
#include <json-glib/json-glib.h>

#include "core/gp-session.h"

G_BEGIN_DECLS

#define GP_INGEST_SCHEMA_GSTPROFILE "gst-profile/1"
/* Logs of GStreamer's own tracers (GST_DEBUG=GST_TRACER:7), any version
 * from 1.16; not a schema of the file, the name the import goes by. */
#define GP_INGEST_SCHEMA_TRACERLOG "gst-tracer-log"

/* What an import could not carry: the GpImportMissing flags, in the
 * model (core/gp-session.h), as rules and the verdict read them too. */

/* What gp_ingest_gstprofile () always sets. */
#define GP_INGEST_GSTPROFILE_MISSING \
  (GP_IMPORT_MISSING_SELF_TIME | GP_IMPORT_MISSING_HISTOGRAMS | \
   GP_IMPORT_MISSING_ELEMENT_THREADS | GP_IMPORT_MISSING_PROP_DEFAULTS | \
   GP_IMPORT_MISSING_ELEMENT_CPU | GP_IMPORT_MISSING_THREAD_CPU_RUN | \
   GP_IMPORT_MISSING_QUEUE_LEVELS | GP_IMPORT_MISSING_HW_REGISTRY | \
   GP_IMPORT_MISSING_PATH_LATENCY | GP_IMPORT_MISSING_QOS)

/* One line saying what @flag (a single GpImportMissing bit) means for the
 * verdict, or NULL for an unknown bit. Static string. */
const gchar *gp_ingest_missing_describe (guint flag);

/* A few words naming what @flag (one GpImportMissing bit) stands for
 * ("thread map", "QoS"), or NULL for an unknown bit. Static string. */
const gchar *gp_ingest_missing_label (guint flag);

/* What the verdict of an imported session says about its origin: NULL for
 * gstprof's own sessions (import_schema NULL), else one sentence naming the
 * schema and mode it came from and the label of every missing flag (the
 * meaning of each is gp_ingest_missing_describe ()), word-wrapped to @width
 * columns with continuation lines indented by two: three lines at 80
 * columns for a gst-profile import. Ends in a newline; g_free () it. */
gchar *gp_ingest_import_note (const GpSession * s, guint width);

/* A gst-profile session (schema "gst-profile/1", the ProventusNova
 * gst-profile tool) already parsed into @root. @origin names the file in
 * errors. The session's mode is "analyze"; import_schema and import_mode
 * say where it came from. */
GpSession *gp_ingest_gstprofile (JsonNode * root, const gchar * origin,
    GError ** error);

/* A saved session, as every command that reads one takes it: the
 * records the tracer wrote by itself with out= (a folder or one file,
 * folded by src/capture/gp-records.h; rules not run), else @path opened
 * once (a pipe or a FIFO as well; a folder: its session.json, as
 * `gstprof run --out` wrote it), its schema detected ("gstprof/1":
 * gp_session_from_json (); "gst-profile/1": gp_ingest_gstprofile ()) or
 * its content (a queue-levels CSV, a tegrastats log or nvidia-smi output:
 * the machine alone, a tracer log). Any other content is a one-line error
 * naming the file. */
GpSession *gp_ingest_load_any (const gchar * path, GError ** error);

/* TRUE when gp_ingest_load_any () reads @path as the records the tracer
 * wrote by itself with out= (a folder or one file), unless the folder also
 * holds the session.json of a run. Loading them starts GStreamer. */
gboolean gp_ingest_is_records (const gchar * path);

/* The same on text already in memory (@origin names it; NULL: "<data>"). */
GpSession *gp_ingest_load_any_data (const gchar * data, gssize length,
    const gchar * origin, GError ** error);

/* ---- logs of GStreamer's own tracers (gp-ingest-tracerlog.c) ---- */

/* Whether @path should be read as a tracer log rather than as JSON: it is
 * gzip-compressed, or its first non-blank byte opens no JSON value. */
gboolean gp_ingest_tracerlog_sniff (const gchar * path);

/* A log of GStreamer's core tracers (latency, stats, rusage, leaks) as
 * GST_DEBUG=GST_TRACER:7 writes it, plain or gzip-compressed, streamed
 * line by line (memory does not grow with the log). Mode "analyze",
 * import_schema GP_INGEST_SCHEMA_TRACERLOG, import_missing what its
 * tracers did not record, import_detail the tracers found, the lines it
 * could not read (counted, the first few by number) and the values it
 * refused. A file with no tracer record at all is a one-line error
 * (GP_SESSION_ERROR_SCHEMA) naming it. */
GpSession *gp_ingest_tracerlog_load (const gchar * path, GError ** error);

/* The same on a log already in memory (@origin names it in errors). */
GpSession *gp_ingest_tracerlog_data (const gchar * data, gsize length,
    const gchar * origin, GError ** error);

/* The tracer record in one log line, found behind whatever prefix the line
 * has: its name and its fields, values unquoted and unescaped as
 * gst_structure_from_string () reads them (@keys, @types and @values
 * receive new strings). FALSE when the line holds no record or a broken
 * one. For tests that hold the scanner against GStreamer's own parser. */
gboolean gp_ingest_tracerlog_scan (const gchar * line, gsize length,
    gchar ** name, GPtrArray * keys, GPtrArray * types, GPtrArray * values);

/* ---- a machine log alone (gp-ingest-telemetry.c) ---- */

/* A saved tegrastats log or nvidia-smi output (src/telemetry reads it) as
 * a session of the machine alone: mode "analyze", import_schema one of
 * these, platform "jetson" or "dgpu", duration the last sample's time and
 * one interval, no pipeline; import_detail says so. A log that does not
 * parse is a one-line GP_SESSION_ERROR naming the file and the line. */
#define GP_INGEST_SCHEMA_TEGRASTATS "tegrastats"
#define GP_INGEST_SCHEMA_NVSMI "nvidia-smi"
GpSession *gp_ingest_telemetry_data (const gchar * data, gsize length,
    const gchar * origin, GError ** error);

/* ---- the queue-levels tracer's CSV (gp-ingest-queuelevels.c) ---- */

/* gst-plugins-rs' queue-levels tracer
 * (GST_TRACERS='queue-levels(file="/tmp/queue_levels.log")'): its CSV
 * alone, and beside a tracer log of the same run. */
#define GP_INGEST_SCHEMA_QUEUELEVELS "queue-levels"
#define GP_INGEST_SCHEMA_TRACERLOG_QUEUELEVELS "gst-tracer-log+queue-levels"

/* What a queue-levels CSV alone does not have: everything but the levels
 * of its queues against their limits. */
#define GP_INGEST_QUEUELEVELS_MISSING \
  (GP_IMPORT_MISSING_ELEMENT_TIME | GP_IMPORT_MISSING_ELEMENT_THREADS | \
   GP_IMPORT_MISSING_PROP_DEFAULTS | GP_IMPORT_MISSING_ELEMENT_CPU | \
   GP_IMPORT_MISSING_QUEUE_FLOW | GP_IMPORT_MISSING_HW_REGISTRY | \
   GP_IMPORT_MISSING_QOS | GP_IMPORT_MISSING_LINKS | \
   GP_IMPORT_MISSING_THREAD_CPU | GP_IMPORT_MISSING_INTERLATENCY | \
   GP_IMPORT_MISSING_LATENCY)

/* Whether @path (plain or gzip) is a queue-levels CSV: one of its first
 * non-empty lines is the header its documentation gives or a row of the
 * shape the tracer writes. */
gboolean gp_ingest_queuelevels_sniff (const gchar * path);

/* The CSV as a session: mode "analyze", import_schema
 * GP_INGEST_SCHEMA_QUEUELEVELS, import_missing
 * GP_INGEST_QUEUELEVELS_MISSING; per queue (a multiqueue's single queues
 * apart, "multiqueue0.sink_0") its level against its tightest limit,
 * weighted by time, and the series of it per window; import_detail the
 * rows read, the queues, and the lines it could not read (counted, the
 * first few by number). A file without one row of the format is a
 * one-line error (GP_SESSION_ERROR_SCHEMA) naming it. */
GpSession *gp_ingest_queuelevels_load (const gchar * path, GError ** error);

/* The same on a text in memory (@origin names it in errors). */
GpSession *gp_ingest_queuelevels_data (const gchar * data, gsize length,
    const gchar * origin, GError ** error);

/* Adds the queue levels of the CSV @path to @s, a tracer log's session of
 * the same run (both count time from gst_init): summaries and series of
 * its queues in @s's own windows; import_schema becomes
 * GP_INGEST_SCHEMA_TRACERLOG_QUEUELEVELS, import_missing loses
 * GP_IMPORT_MISSING_QUEUE_LEVELS and gains GP_IMPORT_MISSING_QUEUE_FLOW,
 * import_detail says what the CSV held. FALSE, @s unchanged, with a
 * one-line error naming @path when it holds no row. */
gboolean gp_ingest_queuelevels_merge (GpSession * s, const gchar * path,
    GError ** error);
gboolean gp_ingest_queuelevels_merge_data (GpSession * s,
    const gchar * data, gsize length, const gchar * origin, GError ** error);

/* `gstprof analyze LOG CSV`: a tracer log and a queue-levels CSV of the
 * same run, in either order, as one session; any other pair is a one-line
 * error naming the file that does not fit. */
GpSession *gp_ingest_load_pair (const gchar * a, const gchar * b,
    GError ** error);

G_END_DECLS

#endif /* __GP_INGEST_H__ */
