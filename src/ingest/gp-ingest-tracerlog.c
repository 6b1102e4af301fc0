/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-ingest-tracerlog.c: logs of GStreamer's own tracers read into the
 * GpSession model, so that `gstprof analyze` gives its verdict on the logs
 * people already captured with
 *
 *   GST_DEBUG=GST_TRACER:7 \
 *   GST_TRACERS="latency(flags=pipeline+element+reported);stats;rusage;leaks"
 *
 * (any subset of those tracers), plain or gzip-compressed, from GStreamer
 * 1.16 to 1.26.
 *
 * Finding the record in a line. People's logs carry every kind of prefix:
 * the debug header ("0:00:00.1 12345 0x55d0c0 TRACE GST_TRACER :0:: "),
 * with colour escapes, a container or pod name before it, Android logcat's
 * "I/GStreamer+GST_TRACER( 1234): ", or none (the line starts at the
 * record). Whatever comes before, a record is "name, key=(type)value, ...;"
 * so the first "=(" of the line, walked back over its key, ", " and the
 * record name, finds it. A name preceded by '.' is a record class
 * ("latency.class, ..." in the tracers' registration lines) and a value
 * that starts with '%' a format string ("new format string: latency,
 * ...=(guint64)%lu"): neither is a record. Every other line (gst-launch's
 * own "Setting pipeline to PAUSED ...", other categories) is not a record
 * and is only counted.
 *
 * Parsing. A hand-written scanner of "key=(type)value" fields, exact to
 * gst_structure_from_string () for what these records hold (bare tokens,
 * quoted strings with backslash and octal escapes; tests/ingest holds it
 * against GStreamer's parser on real logs), a few hundred nanoseconds a
 * line where GStreamer's parser takes microseconds; the log streams
 * through a fixed buffer one line at a time, so memory depends on the
 * pipeline (its elements, links, threads) and never on the log's length.
 * A record gstprof reads whose fields do not parse is a malformed line:
 * counted, the first few named by line number in the import note, never
 * trusted. A last line cut short (the program was killed) is said apart.
 *
 * Records and what they become (the fields per version are those of
 * gst/tracers/gstlatency.c, gststats.c, gstrusage.c and gstleaks.c):
 *  - stats' new-element and new-pad (index, name, GType, parent index,
 *    bin, ghost): the graph's elements; a factory is the GType's name
 *    without "Gst", lower-cased, as the GType of most elements is named.
 *    Its buffer records (thread, pad and element indices of both sides,
 *    size, PTS, duration): links with buffers, bytes, media time and rates
 *    (steady state: the link's first second left out when a second more
 *    follows, as the aggregator does), and the thread map (the thread
 *    that pushes runs the pushing element and its peer). Its accept-caps
 *    query records: the link's caps (the last ones its sink pad accepted).
 *    Its message records: events (error, warning, eos, qos, and the
 *    pipeline's state changes, which give `reached`).
 *  - latency's latency records (1.18 on: src-element, src, sink-element,
 *    sink; 1.16: "element_pad" names joined by '_', split at a known
 *    element's name): summary.paths, one histogram per source pad and
 *    sink, exact p50 to max. element-latency records: per element the
 *    wall time from a buffer leaving its upstream peer to it leaving the
 *    element, the closest these logs come to an element's time, but
 *    inclusive (waits inside the element count, sources and sinks have
 *    none): GP_IMPORT_MISSING_SELF_TIME; a queue's is its residence.
 *    element-reported-latency records: counted; GStreamer computes them as
 *    a signed difference printed unsigned, so a negative one reads 2^64 -
 *    33333333 ns (gst-stats prints 5124095:34:33.676218283): refused and
 *    counted, as is any time above 2^63 ns in a latency record.
 *  - rusage's thread-rusage and proc-rusage: CPU per thread and for the
 *    process from the cumulative CPU time they carry (mean over each one's
 *    span, and per window); thread names are not in the log: a thread is
 *    named by the GThread address the stats and rusage records carry.
 *  - leaks' object-alive records: counted and the first named in the note.
 * What a log does not have is said, never guessed: no rusage records, no
 * CPU (GP_IMPORT_MISSING_THREAD_CPU; gst-stats prints "Number of Threads:
 * 1" then); no stats records, no links, rates or thread map; no latency
 * element records, no element times; never a latency from a source to each
 * element, p99 of windows, queue levels, per-element CPU or properties.
 *
 * Series: windows of GP_TL_WINDOW_NS on the records' own timestamps
 * (ns since gst_init); past GP_TL_MAX_WINDOWS neighbours merge pairwise
 * (the window doubles), so memory stays bounded on any log length.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <gio/gio.h>

#include "gp-ingest.h"
#include "gp-ingest-private.h"
#include "core/gp-caps.h"
#include "core/gp-json.h"
#include "core/gp-series.h"
#include "core/gp-stats.h"
#include "core/gp-hw-factories.h"

/* The series' first window: the tracer's own default. */
#define GP_TL_WINDOW_NS (250 * G_GUINT64_CONSTANT (1000000))
/* Windows kept before neighbours merge: over two hours at 250 ms
 * before the first merge would be 28800; 512 keep the session small. */
#define GP_TL_MAX_WINDOWS 512
/* Malformed lines named by number in the note; the rest are counted. */
#define GP_TL_SHOWN_BAD 3
/* Lines longer than this (a caps query can list every format GStreamer
 * knows, tens of KiB) are skipped and counted. */
#define GP_TL_MAX_LINE (4 << 20)
/* A file that shows no record in its first lines is not a tracer log:
 * its reader gives up there rather than reading gigabytes. */
#define GP_TL_SNIFF_LINES 20000
/* Indices in stats records beyond this are not a real pipeline's (and
 * would make the index tables huge). */
#define GP_TL_MAX_IX 65536
/* Distinct names (elements, paths, threads) kept; a log with more is not
 * one pipeline and the rest is counted as refused. */
#define GP_TL_MAX_KEYS 4096
/* The stats tracer's "no index" (G_MAXUINT). */
#define GP_TL_NO_IX G_MAXUINT32
/* Steady state of a link: its first second left out when a second more
 * follows (as the aggregator's rates). */
#define GP_TL_STARTUP_NS (1000 * G_GUINT64_CONSTANT (1000000))
/* A latency above this is a negative difference printed unsigned. */
#define GP_TL_MAX_TIME_NS G_GUINT64_CONSTANT (0x7fffffffffffffff)
#define GP_TL_MAX_FIELDS 32
/* Events kept, as the aggregator's bound: a log of QoS storms or of many
 * runs would hold them without end; the rest is counted in
 * events_dropped (errors and warnings are always kept). */
#define GP_TL_MAX_EVENTS 4096
/* What a rate or a CPU share can be (src/core/gp-json.h's bounds, less a
 * margin for sums): a log showing more is not a measurement. A thread is
 * on one core at most. */
#define GP_TL_MAX_RATE (GP_JSON_MAX_MAGNITUDE / 1e4)
#define GP_TL_MAX_PCT (GP_JSON_MAX_SHARE / 10)
#define GP_TL_MAX_THREAD_PCT 101.0

/* ------------------------------------------------------------------ */
/* the scanner                                                          */
/* ------------------------------------------------------------------ */

typedef struct
{
  const gchar *key, *type, *val;        /* val: inside the quotes */
  guint klen, tlen, vlen;
  gboolean quoted;
} GpTlField;

typedef struct
{
  const gchar *name;
  guint nlen;
  guint n;
  GpTlField f[GP_TL_MAX_FIELDS];
} GpTlRec;

typedef enum
{
  GP_TL_SCAN_NONE,              /* no record in the line */
  GP_TL_SCAN_OK,
  GP_TL_SCAN_BROKEN,            /* a record whose fields do not parse */
  GP_TL_SCAN_FORMAT,            /* a registration line (class, format) */
} GpTlScan;

static inline gboolean
gp_tl_name_char (gchar c)
{
  return g_ascii_isalnum (c) || c == '-' || c == '_';
}

/* The fields from @p on: "key=(type)value, key=(type)value;". */
static gboolean
gp_tl_scan_fields (const gchar * p, const gchar * end, GpTlRec * rec)
{
  rec->n = 0;
  for (;;) {
    GpTlField *f;
    const gchar *q = p;

    if (rec->n == GP_TL_MAX_FIELDS)
      return FALSE;
    f = &rec->f[rec->n];
    while (q < end && gp_tl_name_char (*q))
      q++;
    if (q == p || end - q < 2 || q[0] != '=' || q[1] != '(')
      return FALSE;
    f->key = p;
    f->klen = q - p;
    q += 2;
    p = q;
    while (q < end && *q != ')') {
      if (!gp_tl_name_char (*q))
        return FALSE;
      q++;
    }
    if (q == end || q == p)
      return FALSE;
    f->type = p;
    f->tlen = q - p;
    p = ++q;
    if (q < end && *q == '"') {
      q++;
      while (q < end && *q != '"') {
        if (*q == '\\' && ++q == end)
          return FALSE;
        q++;
      }
      if (q == end)
        return FALSE;
      f->val = p + 1;
      f->vlen = q - (p + 1);
      f->quoted = TRUE;
      q++;
    } else {
      while (q < end && *q != ',' && *q != ';' && *q != ' ')
        q++;
      f->val = p;
      f->vlen = q - p;
      f->quoted = FALSE;
    }
    rec->n++;
    if (q == end)
      return FALSE;             /* no ';': the line was cut */
    if (*q == ';')
      return TRUE;
    if (*q != ',' || end - q < 2 || q[1] != ' ')
      return FALSE;
    p = q + 2;
  }
}

/* The record in @line, behind any prefix (see the top of the file). */
static GpTlScan
gp_tl_scan (const gchar * line, gsize len, GpTlRec * rec)
{
  const gchar *end = line + len, *p = line;
  guint tries = 0;

  while (tries < 4 && p < end && (p = memchr (p, '=', end - p)) != NULL) {
    const gchar *k, *n, *ne;

    if (p + 1 == end || p[1] != '(') {
      p++;
      continue;
    }
    tries++;
    for (k = p; k > line && gp_tl_name_char (k[-1]); k--);
    if (k < p && k - line >= 3 && k[-1] == ' ' && k[-2] == ',') {
      ne = k - 2;
      for (n = ne; n > line && gp_tl_name_char (n[-1]); n--);
      if (n < ne && g_ascii_isalpha (*n)) {
        if (n > line && n[-1] == '.')
          return GP_TL_SCAN_FORMAT;
        if (ne - n >= 6 && memcmp (ne - 6, ".class", 6) == 0)
          return GP_TL_SCAN_FORMAT;
        rec->name = n;
        rec->nlen = ne - n;
        if (!gp_tl_scan_fields (k, end, rec))
          return GP_TL_SCAN_BROKEN;
        if (rec->n > 0 && !rec->f[0].quoted && rec->f[0].vlen > 0 &&
            rec->f[0].val[0] == '%')
          return GP_TL_SCAN_FORMAT;
        return GP_TL_SCAN_OK;
      }
    }
    p++;
  }
  return GP_TL_SCAN_NONE;
}

static const GpTlField *
gp_tl_get (const GpTlRec * rec, const gchar * key, guint klen)
{
  guint i;

  for (i = 0; i < rec->n; i++)
    if (rec->f[i].klen == klen && memcmp (rec->f[i].key, key, klen) == 0)
      return &rec->f[i];
  return NULL;
}

#define GP_TL_GET(rec, key) gp_tl_get ((rec), key, sizeof (key) - 1)
#define GP_TL_IS(rec, lit) ((rec)->nlen == sizeof (lit) - 1 && \
    memcmp ((rec)->name, lit, sizeof (lit) - 1) == 0)

static gboolean
gp_tl_u64 (const GpTlField * f, guint64 * out)
{
  guint64 v = 0;
  guint i;

  if (f == NULL || f->quoted || f->vlen == 0)
    return FALSE;
  for (i = 0; i < f->vlen; i++) {
    guint d = (guchar) f->val[i] - '0';

    if (d > 9 || v > (G_MAXUINT64 - d) / 10)
      return FALSE;
    v = v * 10 + d;
  }
  *out = v;
  return TRUE;
}

static gboolean
gp_tl_bool (const GpTlField * f, gboolean * out)
{
  if (f == NULL || f->quoted)
    return FALSE;
  if ((f->vlen == 1 && f->val[0] == '1') ||
      (f->vlen == 4 && g_ascii_strncasecmp (f->val, "true", 4) == 0)) {
    *out = TRUE;
    return TRUE;
  }
  if ((f->vlen == 1 && f->val[0] == '0') ||
      (f->vlen == 5 && g_ascii_strncasecmp (f->val, "false", 5) == 0)) {
    *out = FALSE;
    return TRUE;
  }
  return FALSE;
}

/* A string value into @buf (unquoted and unescaped: "\c" is c, "\NNN" the
 * octal byte, as GStreamer wraps what is not a plain character). */
static const gchar *
gp_tl_str (const GpTlField * f, GString * buf)
{
  guint i;

  if (f == NULL)
    return NULL;
  g_string_truncate (buf, 0);
  if (!f->quoted) {
    g_string_append_len (buf, f->val, f->vlen);
    return buf->str;
  }
  for (i = 0; i < f->vlen; i++) {
    gchar c = f->val[i];

    if (c == '\\' && i + 1 < f->vlen) {
      c = f->val[++i];
      if (c >= '0' && c <= '3' && i + 2 < f->vlen &&
          f->val[i + 1] >= '0' && f->val[i + 1] <= '7' &&
          f->val[i + 2] >= '0' && f->val[i + 2] <= '7') {
        c = (gchar) (((c - '0') << 6) | ((f->val[i + 1] - '0') << 3) |
            (f->val[i + 2] - '0'));
        i += 2;
      }
    }
    g_string_append_c (buf, c);
  }
  return buf->str;
}

gboolean
gp_ingest_tracerlog_scan (const gchar * line, gsize length, gchar ** name,
    GPtrArray * keys, GPtrArray * types, GPtrArray * values)
{
  GpTlRec rec;
  GString *buf;
  guint i;

  g_return_val_if_fail (line != NULL, FALSE);

  if (gp_tl_scan (line, length, &rec) != GP_TL_SCAN_OK)
    return FALSE;
  buf = g_string_new (NULL);
  if (name)
    *name = g_strndup (rec.name, rec.nlen);
  for (i = 0; i < rec.n; i++) {
    if (keys)
      g_ptr_array_add (keys, g_strndup (rec.f[i].key, rec.f[i].klen));
    if (types)
      g_ptr_array_add (types, g_strndup (rec.f[i].type, rec.f[i].tlen));
    if (values)
      g_ptr_array_add (values, g_strdup (gp_tl_str (&rec.f[i], buf)));
  }
  g_string_free (buf, TRUE);
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* what the log tells, as it streams                                    */
/* ------------------------------------------------------------------ */

typedef struct
{
  gchar *name;
  gchar *factory;
  gboolean is_bin;
  gboolean pipeline;            /* a GstPipeline: its state is the run's */
  guint n_out, n_in;            /* links seen */
  gboolean lat_src, lat_sink;   /* a latency record's source / sink */
  GpHist *hist;                 /* element-latency, NULL when none */
  GpHist *whist;                /* the same in the current window */
  GPtrArray *threads;           /* GpTlThread* it ran on */
} GpTlElement;

typedef struct
{
  gchar *name;
  GpTlElement *parent;          /* may be NULL */
} GpTlPad;

typedef struct
{
  guint32 src_pad, sink_pad;    /* stats' pad indices */
  GpTlElement *src_el, *sink_el;
  guint64 buffers, bytes, timed, media_ns;
  guint64 first_ts, last_ts;
  /* after the start-up second */
  guint64 st_buffers, st_bytes, st_timed, st_media_ns, st_first_ts;
  guint64 w_buffers, w_bytes;   /* current window */
  gchar *caps;                  /* the last accepted at its sink pad */
  const gchar *id;              /* its GpLink's, once built */
} GpTlLink;

typedef struct
{
  gchar *source;                /* "element.pad" */
  gchar *sink;                  /* element */
  GpHist hist, whist;
  guint64 invalid, w_invalid;
  guint key;
} GpTlPath;

typedef struct
{
  guint64 tid;
  gchar *name;
  gboolean rusage;
  guint64 first_ts, first_cpu, last_ts, last_cpu;
  guint64 w_cpu;                /* CPU in the current window */
  gboolean w_seen;
  gdouble max_pct;
  GPtrArray *elements;          /* GpTlElement* it ran */
  guint key;
} GpTlThread;

typedef enum
{
  GP_TL_CELL_ELEMENT,           /* a: samples, b: p50, c: p95 (ms) */
  GP_TL_CELL_QUEUE,             /* the same, residence */
  GP_TL_CELL_LINK,              /* a: buffers, b: bytes */
  GP_TL_CELL_PATH,              /* a: matched, b: p50, c: p95, d: refused */
  GP_TL_CELL_THREAD,            /* a: CPU ns */
  GP_TL_CELL_PROCESS,           /* a: CPU ns */
} GpTlCellKind;

typedef struct
{
  guint kind, key;
  gdouble a, b, c, d;
} GpTlCell;

typedef struct
{
  guint64 t0, t1;               /* ns */
  GArray *cells;                /* GpTlCell */
} GpTlWindow;

typedef struct
{
  const gchar *origin;
  GpSession *s;

  /* what was seen */
  guint64 lines, records, other_lines, format_lines;
  guint64 n_latency, n_element_latency, n_reported, n_buffer, n_elements,
      n_rusage, n_proc, n_leaks, n_messages;
  guint64 bad, long_lines, refused_latency, refused_reported, refused_keys;
  guint64 refused_values;
  guint64 bad_at[GP_TL_SHOWN_BAD];
  gchar *bad_why[GP_TL_SHOWN_BAD];
  gboolean cut_last;
  gboolean old_format;          /* 1.16's joined element_pad names */
  gchar *first_leak;

  /* the graph */
  GPtrArray *elements;          /* GpTlElement*, in order of appearance */
  GHashTable *by_name;          /* name -> GpTlElement* */
  GPtrArray *by_ix;             /* stats' element index -> GpTlElement* */
  GPtrArray *pads;              /* stats' pad index -> GpTlPad* */
  GHashTable *links;            /* (src pad << 32 | sink pad) -> GpTlLink* */
  GPtrArray *link_order;        /* GpTlLink* */
  GHashTable *paths;            /* "source\nsink" -> GpTlPath* */
  GPtrArray *path_order;
  GHashTable *threads;          /* tid -> GpTlThread* */
  GPtrArray *thread_order;

  /* the process */
  gboolean proc;
  guint64 pid, proc_first_ts, proc_first_cpu, proc_last_ts, proc_last_cpu;
  guint64 proc_w_cpu;
  gboolean proc_w_seen;
  gdouble proc_max_pct;

  /* series */
  GArray *windows;              /* GpTlWindow */
  guint64 window_ns;
  guint64 cur_t0;
  gboolean started;
  guint64 min_ts, max_ts;

  /* events */
  gchar *reached;
  gboolean eos;

  GString *s1, *s2, *s3, *s4;   /* scratch strings */
} GpTl;

static void
gp_tl_element_free (GpTlElement * e)
{
  g_free (e->name);
  g_free (e->factory);
  g_free (e->hist);
  g_free (e->whist);
  g_ptr_array_unref (e->threads);
  g_free (e);
}

static void
gp_tl_pad_free (GpTlPad * p)
{
  if (p == NULL)
    return;
  g_free (p->name);
  g_free (p);
}

static void
gp_tl_link_free (GpTlLink * l)
{
  g_free (l->caps);
  g_free (l);
}

static void
gp_tl_path_free (GpTlPath * p)
{
  g_free (p->source);
  g_free (p->sink);
  g_free (p);
}

static void
gp_tl_thread_free (GpTlThread * t)
{
  g_free (t->name);
  g_ptr_array_unref (t->elements);
  g_free (t);
}

static void
gp_tl_bad (GpTl * tl, const gchar * why)
{
  if (tl->bad < GP_TL_SHOWN_BAD) {
    tl->bad_at[tl->bad] = tl->lines;
    tl->bad_why[tl->bad] = g_strdup (why);
  }
  tl->bad++;
}

/* The element called @name, made when it is new (NULL past
 * GP_TL_MAX_KEYS). */
/* Until stats says its GType: the factory a default name says, or NULL.
 * GStreamer names an element its type's name and a count, with a '-'
 * between when the type's name ends in a digit ("x264enc0",
 * "avdec_h264-0"); a name of any other shape was given by someone
 * ("queue_sink_66" is splitmuxsink's, "muxer" a user's) and says nothing
 * of its factory. */
static gchar *
gp_tl_factory_of_name (const gchar * name)
{
  const gchar *p;
  gsize n;

  for (p = name + strlen (name); p > name && g_ascii_isdigit (p[-1]); p--);
  n = p - name;
  if (*p == '\0' || n == 0)
    return NULL;
  if (name[n - 1] == '-')
    return n >= 2 && g_ascii_isdigit (name[n - 2]) ?
        g_strndup (name, n - 1) : NULL;
  return g_ascii_isalpha (name[n - 1]) ? g_strndup (name, n) : NULL;
}

static GpTlElement *
gp_tl_element (GpTl * tl, const gchar * name)
{
  GpTlElement *e = g_hash_table_lookup (tl->by_name, name);

  if (e != NULL)
    return e;
  if (tl->elements->len >= GP_TL_MAX_KEYS) {
    tl->refused_keys++;
    return NULL;
  }
  e = g_new0 (GpTlElement, 1);
  e->name = g_strdup (name);
  e->factory = gp_tl_factory_of_name (name);
  e->threads = g_ptr_array_new ();
  g_ptr_array_add (tl->elements, e);
  g_hash_table_insert (tl->by_name, e->name, e);
  return e;
}

static GpTlElement *
gp_tl_element_ix (GpTl * tl, guint64 ix)
{
  if (ix >= tl->by_ix->len)
    return NULL;
  return g_ptr_array_index (tl->by_ix, ix);
}

static void
gp_tl_set_ix (GPtrArray * table, guint64 ix, gpointer v)
{
  if (ix >= table->len)
    g_ptr_array_set_size (table, ix + 1);
  table->pdata[ix] = v;
}

static GpTlThread *
gp_tl_thread (GpTl * tl, guint64 tid)
{
  GpTlThread *t = g_hash_table_lookup (tl->threads, &tid);

  if (t != NULL)
    return t;
  if (tl->thread_order->len >= GP_TL_MAX_KEYS) {
    tl->refused_keys++;
    return NULL;
  }
  t = g_new0 (GpTlThread, 1);
  t->tid = tid;
  t->name = g_strdup_printf ("0x%" G_GINT64_MODIFIER "x", tid);
  t->elements = g_ptr_array_new ();
  t->key = tl->thread_order->len;
  g_ptr_array_add (tl->thread_order, t);
  g_hash_table_insert (tl->threads, &t->tid, t);
  return t;
}

static void
gp_tl_ran (GpTlThread * t, GpTlElement * e)
{
  if (t == NULL || e == NULL)
    return;
  /* a handful each: a linear look is the fastest */
  if (!g_ptr_array_find (t->elements, e, NULL))
    g_ptr_array_add (t->elements, e);
  if (!g_ptr_array_find (e->threads, t, NULL))
    g_ptr_array_add (e->threads, t);
}

/* ------------------------------------------------------------------ */
/* windows                                                              */
/* ------------------------------------------------------------------ */

static void
gp_tl_cell (GpTlWindow * w, guint kind, guint key, gdouble a, gdouble b,
    gdouble c, gdouble d)
{
  GpTlCell cell = { kind, key, a, b, c, d };

  g_array_append_val (w->cells, cell);
}

static gdouble
gp_tl_q_ms (const GpHist * h, gdouble q)
{
  return gp_hist_quantile_ns (h, q) / 1e6;
}

/* Closes the current window into the series. */
static void
gp_tl_close_window (GpTl * tl, guint64 t1)
{
  GpTlWindow w;
  guint i;

  w.t0 = tl->cur_t0;
  w.t1 = t1;
  w.cells = g_array_new (FALSE, FALSE, sizeof (GpTlCell));
  for (i = 0; i < tl->elements->len; i++) {
    GpTlElement *e = g_ptr_array_index (tl->elements, i);

    if (e->whist == NULL || e->whist->total == 0)
      continue;
    gp_tl_cell (&w, GP_TL_CELL_ELEMENT, i, e->whist->total,
        gp_tl_q_ms (e->whist, 0.5), gp_tl_q_ms (e->whist, 0.95), 0);
    gp_hist_clear (e->whist);
  }
  for (i = 0; i < tl->link_order->len; i++) {
    GpTlLink *l = g_ptr_array_index (tl->link_order, i);

    /* from its first buffer on, a window without one is a 0 */
    if (l->buffers == 0)
      continue;
    gp_tl_cell (&w, GP_TL_CELL_LINK, i, l->w_buffers, l->w_bytes, 0, 0);
    l->w_buffers = l->w_bytes = 0;
  }
  for (i = 0; i < tl->path_order->len; i++) {
    GpTlPath *p = g_ptr_array_index (tl->path_order, i);

    if (p->whist.total == 0 && p->w_invalid == 0)
      continue;
    gp_tl_cell (&w, GP_TL_CELL_PATH, i, p->whist.total,
        p->whist.total ? gp_tl_q_ms (&p->whist, 0.5) : -1,
        p->whist.total ? gp_tl_q_ms (&p->whist, 0.95) : -1, p->w_invalid);
    gp_hist_clear (&p->whist);
    p->w_invalid = 0;
  }
  for (i = 0; i < tl->thread_order->len; i++) {
    GpTlThread *t = g_ptr_array_index (tl->thread_order, i);

    if (!t->w_seen)
      continue;
    gp_tl_cell (&w, GP_TL_CELL_THREAD, i, t->w_cpu, 0, 0, 0);
    if (t1 > w.t0)
      t->max_pct = MAX (t->max_pct, 100.0 * t->w_cpu / (t1 - w.t0));
    t->w_cpu = 0;
    t->w_seen = FALSE;
  }
  if (tl->proc_w_seen) {
    gp_tl_cell (&w, GP_TL_CELL_PROCESS, 0, tl->proc_w_cpu, 0, 0, 0);
    if (t1 > w.t0)
      tl->proc_max_pct = MAX (tl->proc_max_pct,
          100.0 * tl->proc_w_cpu / (t1 - w.t0));
    tl->proc_w_cpu = 0;
    tl->proc_w_seen = FALSE;
  }
  g_array_append_val (tl->windows, w);
  tl->cur_t0 = t1;
}

/* Two neighbouring windows as one: counts add, a p50 is the mean of the
 * two weighted by their samples, a p95 the larger one (an upper bound). */
static void
gp_tl_merge_into (GpTlWindow * a, GpTlWindow * b)
{
  guint i, k;

  a->t1 = b->t1;
  for (i = 0; i < b->cells->len; i++) {
    GpTlCell *cb = &g_array_index (b->cells, GpTlCell, i);
    GpTlCell *ca = NULL;

    for (k = 0; k < a->cells->len; k++) {
      GpTlCell *c = &g_array_index (a->cells, GpTlCell, k);

      if (c->kind == cb->kind && c->key == cb->key) {
        ca = c;
        break;
      }
    }
    if (ca == NULL) {
      g_array_append_val (a->cells, *cb);
      continue;
    }
    if (cb->kind == GP_TL_CELL_ELEMENT || cb->kind == GP_TL_CELL_PATH) {
      gdouble n = ca->a + cb->a;

      if (cb->a > 0 && ca->a > 0) {
        ca->b = (ca->b * ca->a + cb->b * cb->a) / n;
        ca->c = MAX (ca->c, cb->c);
      } else if (cb->a > 0) {
        ca->b = cb->b;
        ca->c = cb->c;
      }
      ca->a = n;
      ca->d += cb->d;
    } else {
      ca->a += cb->a;
      ca->b += cb->b;
    }
  }
  g_array_unref (b->cells);
}

static void
gp_tl_halve_windows (GpTl * tl)
{
  guint i, n = 0;

  for (i = 0; i + 1 < tl->windows->len; i += 2) {
    GpTlWindow a = g_array_index (tl->windows, GpTlWindow, i);
    GpTlWindow b = g_array_index (tl->windows, GpTlWindow, i + 1);

    gp_tl_merge_into (&a, &b);
    g_array_index (tl->windows, GpTlWindow, n++) = a;
  }
  if (i < tl->windows->len)
    g_array_index (tl->windows, GpTlWindow, n++) =
        g_array_index (tl->windows, GpTlWindow, i);
  g_array_set_size (tl->windows, n);
  tl->window_ns *= 2;
}

/* Moves the current window on to the one that holds @ts. A record a
 * little older than the current window (another thread's, logged later)
 * counts in the current one. */
static void
gp_tl_advance (GpTl * tl, guint64 ts)
{
  if (!tl->started) {
    tl->started = TRUE;
    tl->min_ts = ts;
    tl->cur_t0 = ts - ts % tl->window_ns;
  }
  tl->max_ts = MAX (tl->max_ts, ts);
  while (ts >= tl->cur_t0 + tl->window_ns) {
    guint64 next = tl->cur_t0 + tl->window_ns;

    /* a long silence is one window, not thousands of empty ones */
    if (ts - next > tl->window_ns * GP_TL_MAX_WINDOWS) {
      gp_tl_close_window (tl, next);
      next = ts - ts % tl->window_ns;
    }
    gp_tl_close_window (tl, next);
    if (tl->windows->len >= GP_TL_MAX_WINDOWS) {
      gp_tl_halve_windows (tl);
      tl->cur_t0 -= tl->cur_t0 % tl->window_ns;
      if (tl->windows->len > 0) {
        GpTlWindow *last = &g_array_index (tl->windows, GpTlWindow,
            tl->windows->len - 1);

        /* the current window starts where the series ends */
        tl->cur_t0 = MAX (tl->cur_t0, last->t1);
      }
    }
  }
}

/* ------------------------------------------------------------------ */
/* records                                                              */
/* ------------------------------------------------------------------ */

/* 1.16's "element_pad": split where a known element's name ends, else at
 * the last '_' (before a numbered pad's "_N"). */
static void
gp_tl_split_joined (GpTl * tl, const gchar * joined, GString * el,
    GString * pad)
{
  const gchar *u, *cut = NULL;

  for (u = strrchr (joined, '_'); u != NULL && u > joined;
      u = g_strrstr_len (joined, u - joined, "_")) {
    g_string_assign (el, "");
    g_string_append_len (el, joined, u - joined);
    if (g_hash_table_contains (tl->by_name, el->str)) {
      cut = u;
      break;
    }
  }
  if (cut == NULL) {
    cut = strrchr (joined, '_');
    if (cut != NULL && cut[1] != '\0' && strspn (cut + 1,
            "0123456789") == strlen (cut + 1) && cut > joined) {
      const gchar *before = g_strrstr_len (joined, cut - joined, "_");

      if (before != NULL && before > joined)
        cut = before;
    }
  }
  g_string_assign (el, "");
  g_string_assign (pad, "");
  if (cut == NULL || cut == joined) {
    g_string_append (el, joined);
    return;
  }
  g_string_append_len (el, joined, cut - joined);
  g_string_append (pad, cut + 1);
}

static gboolean
gp_tl_latency (GpTl * tl, const GpTlRec * r)
{
  const GpTlField *se = GP_TL_GET (r, "src-element");
  const gchar *src_el, *src_pad, *sink_el;
  guint64 time, ts;
  GpTlElement *a, *b;
  GpTlPath *p;
  gchar *key;

  if (!gp_tl_u64 (GP_TL_GET (r, "time"), &time) ||
      !gp_tl_u64 (GP_TL_GET (r, "ts"), &ts))
    return FALSE;
  if (se != NULL) {
    src_el = gp_tl_str (se, tl->s1);
    src_pad = gp_tl_str (GP_TL_GET (r, "src"), tl->s2);
    sink_el = gp_tl_str (GP_TL_GET (r, "sink-element"), tl->s3);
  } else {
    const gchar *src = gp_tl_str (GP_TL_GET (r, "src"), tl->s4);
    GString *sink_pad = g_string_new (NULL);

    if (src == NULL || GP_TL_GET (r, "sink") == NULL) {
      g_string_free (sink_pad, TRUE);
      return FALSE;
    }
    tl->old_format = TRUE;
    gp_tl_split_joined (tl, src, tl->s1, tl->s2);
    src = gp_tl_str (GP_TL_GET (r, "sink"), tl->s4);
    gp_tl_split_joined (tl, src, tl->s3, sink_pad);
    g_string_free (sink_pad, TRUE);
    src_el = tl->s1->str;
    src_pad = tl->s2->str;
    sink_el = tl->s3->str;
  }
  if (src_el == NULL || src_pad == NULL || sink_el == NULL || !*src_el ||
      !*sink_el)
    return FALSE;
  gp_tl_advance (tl, ts);
  tl->n_latency++;
  if ((a = gp_tl_element (tl, src_el)) != NULL)
    a->lat_src = TRUE;
  if ((b = gp_tl_element (tl, sink_el)) != NULL)
    b->lat_sink = TRUE;

  key = g_strconcat (src_el, ".", src_pad, "\n", sink_el, NULL);
  p = g_hash_table_lookup (tl->paths, key);
  if (p == NULL) {
    if (tl->path_order->len >= GP_TL_MAX_KEYS) {
      tl->refused_keys++;
      g_free (key);
      return TRUE;
    }
    p = g_new0 (GpTlPath, 1);
    p->source = g_strconcat (src_el, ".", src_pad, NULL);
    p->sink = g_strdup (sink_el);
    p->key = tl->path_order->len;
    g_ptr_array_add (tl->path_order, p);
    g_hash_table_insert (tl->paths, key, p);
  } else {
    g_free (key);
  }
  if (time > GP_TL_MAX_TIME_NS) {
    tl->refused_latency++;
    p->invalid++;
    p->w_invalid++;
    return TRUE;
  }
  gp_hist_add_value (&p->hist, time);
  gp_hist_add_value (&p->whist, time);
  return TRUE;
}

static gboolean
gp_tl_element_latency (GpTl * tl, const GpTlRec * r)
{
  const GpTlField *ef = GP_TL_GET (r, "element");
  const gchar *name;
  guint64 time, ts;
  GpTlElement *e;

  if (!gp_tl_u64 (GP_TL_GET (r, "time"), &time) ||
      !gp_tl_u64 (GP_TL_GET (r, "ts"), &ts))
    return FALSE;
  if (ef != NULL) {
    name = gp_tl_str (ef, tl->s1);
  } else {
    const gchar *src = gp_tl_str (GP_TL_GET (r, "src"), tl->s3);

    if (src == NULL)
      return FALSE;
    tl->old_format = TRUE;
    gp_tl_split_joined (tl, src, tl->s1, tl->s2);
    name = tl->s1->str;
  }
  if (name == NULL || *name == '\0')
    return FALSE;
  gp_tl_advance (tl, ts);
  tl->n_element_latency++;
  if ((e = gp_tl_element (tl, name)) == NULL)
    return TRUE;
  if (time > GP_TL_MAX_TIME_NS) {
    tl->refused_latency++;
    return TRUE;
  }
  if (e->hist == NULL) {
    e->hist = g_new0 (GpHist, 1);
    e->whist = g_new0 (GpHist, 1);
  }
  gp_hist_add_value (e->hist, time);
  gp_hist_add_value (e->whist, time);
  return TRUE;
}

static gboolean
gp_tl_reported (GpTl * tl, const GpTlRec * r)
{
  guint64 min, max, ts;
  gboolean live;
  const gchar *name = gp_tl_str (GP_TL_GET (r, "element"), tl->s1);

  if (name == NULL || !gp_tl_u64 (GP_TL_GET (r, "min"), &min) ||
      !gp_tl_u64 (GP_TL_GET (r, "max"), &max) ||
      !gp_tl_u64 (GP_TL_GET (r, "ts"), &ts) ||
      !gp_tl_bool (GP_TL_GET (r, "live"), &live))
    return FALSE;
  gp_tl_advance (tl, ts);
  tl->n_reported++;
  gp_tl_element (tl, name);
  /* a maximum of G_MAXUINT64 is "unlimited" (GST_CLOCK_TIME_NONE); any
   * other value past 2^63 is a negative difference */
  if (min > GP_TL_MAX_TIME_NS ||
      (max > GP_TL_MAX_TIME_NS && max != G_MAXUINT64))
    tl->refused_reported++;
  return TRUE;
}

/* A GType name as the factory's: "GstVideoTestSrc" -> "videotestsrc". */
static gchar *
gp_tl_factory_of (const gchar * type)
{
  return g_ascii_strdown (g_str_has_prefix (type, "Gst") ? type + 3 : type,
      -1);
}

static gboolean
gp_tl_new_element (GpTl * tl, const GpTlRec * r)
{
  guint64 ix;
  gboolean is_bin = FALSE;
  const gchar *name = gp_tl_str (GP_TL_GET (r, "name"), tl->s1);
  const gchar *type = gp_tl_str (GP_TL_GET (r, "type"), tl->s2);
  GpTlElement *e;

  if (name == NULL || *name == '\0' || type == NULL ||
      !gp_tl_u64 (GP_TL_GET (r, "ix"), &ix) ||
      (GP_TL_GET (r, "is-bin") != NULL &&
          !gp_tl_bool (GP_TL_GET (r, "is-bin"), &is_bin)))
    return FALSE;
  tl->n_elements++;
  if (ix >= GP_TL_MAX_IX) {
    tl->refused_keys++;
    return TRUE;
  }
  if ((e = gp_tl_element (tl, name)) == NULL)
    return TRUE;
  g_free (e->factory);
  e->factory = gp_tl_factory_of (type);
  e->is_bin = is_bin;
  e->pipeline = strcmp (type, "GstPipeline") == 0;
  gp_tl_set_ix (tl->by_ix, ix, e);
  return TRUE;
}

static gboolean
gp_tl_new_pad (GpTl * tl, const GpTlRec * r)
{
  guint64 ix, parent;
  const gchar *name = gp_tl_str (GP_TL_GET (r, "name"), tl->s1);
  GpTlPad *p;

  if (name == NULL || !gp_tl_u64 (GP_TL_GET (r, "ix"), &ix) ||
      !gp_tl_u64 (GP_TL_GET (r, "parent-ix"), &parent))
    return FALSE;
  if (ix >= GP_TL_MAX_IX) {
    tl->refused_keys++;
    return TRUE;
  }
  p = g_new0 (GpTlPad, 1);
  p->name = g_strdup (name);
  p->parent = gp_tl_element_ix (tl, parent);
  if (ix < tl->pads->len)
    gp_tl_pad_free (g_ptr_array_index (tl->pads, ix));
  gp_tl_set_ix (tl->pads, ix, p);
  return TRUE;
}

static GpTlLink *
gp_tl_link (GpTl * tl, guint64 src_pad, guint64 sink_pad)
{
  guint64 key = (src_pad << 32) | sink_pad;
  GpTlLink *l = g_hash_table_lookup (tl->links, &key);

  if (l != NULL)
    return l;
  if (tl->link_order->len >= GP_TL_MAX_KEYS) {
    tl->refused_keys++;
    return NULL;
  }
  l = g_new0 (GpTlLink, 1);
  l->src_pad = (guint32) src_pad;
  l->sink_pad = (guint32) sink_pad;
  g_ptr_array_add (tl->link_order, l);
  /* the key lives in the link: the pads' indices, rebuilt */
  {
    guint64 *k = g_new (guint64, 1);

    *k = key;
    g_hash_table_insert (tl->links, k, l);
  }
  return l;
}

static gboolean
gp_tl_buffer (GpTl * tl, const GpTlRec * r)
{
  guint64 tid, ts, pad, el, peer_pad, peer_el, size, dur = 0;
  gboolean have_dur = FALSE;
  GpTlLink *l;
  GpTlThread *t;

  if (!gp_tl_u64 (GP_TL_GET (r, "thread-id"), &tid) ||
      !gp_tl_u64 (GP_TL_GET (r, "ts"), &ts) ||
      !gp_tl_u64 (GP_TL_GET (r, "pad-ix"), &pad) ||
      !gp_tl_u64 (GP_TL_GET (r, "element-ix"), &el) ||
      !gp_tl_u64 (GP_TL_GET (r, "peer-pad-ix"), &peer_pad) ||
      !gp_tl_u64 (GP_TL_GET (r, "peer-element-ix"), &peer_el) ||
      !gp_tl_u64 (GP_TL_GET (r, "buffer-size"), &size))
    return FALSE;
  if (GP_TL_GET (r, "have-buffer-duration") != NULL &&
      (!gp_tl_bool (GP_TL_GET (r, "have-buffer-duration"), &have_dur) ||
          !gp_tl_u64 (GP_TL_GET (r, "buffer-duration"), &dur)))
    return FALSE;
  if (pad > G_MAXUINT32 || peer_pad > G_MAXUINT32)
    return FALSE;
  gp_tl_advance (tl, ts);
  tl->n_buffer++;
  if ((l = gp_tl_link (tl, pad, peer_pad)) == NULL)
    return TRUE;
  if (l->buffers == 0) {
    l->first_ts = ts;
    l->src_el = gp_tl_element_ix (tl, el);
    l->sink_el = gp_tl_element_ix (tl, peer_el);
    /* n_out and n_in count the links that carried data */
    if (l->src_el)
      l->src_el->n_out++;
    if (l->sink_el)
      l->sink_el->n_in++;
  }
  l->buffers++;
  l->bytes += size;
  l->last_ts = MAX (l->last_ts, ts);
  if (have_dur && dur <= GP_TL_MAX_TIME_NS) {
    l->timed++;
    l->media_ns += dur;
  }
  if (ts >= l->first_ts + GP_TL_STARTUP_NS) {
    if (l->st_buffers == 0)
      l->st_first_ts = ts;
    l->st_buffers++;
    l->st_bytes += size;
    if (have_dur && dur <= GP_TL_MAX_TIME_NS) {
      l->st_timed++;
      l->st_media_ns += dur;
    }
  }
  l->w_buffers++;
  l->w_bytes += size;
  if ((t = gp_tl_thread (tl, tid)) != NULL) {
    gp_tl_ran (t, l->src_el);
    gp_tl_ran (t, l->sink_el);
  }
  return TRUE;
}

/* An accept-caps query that its pad accepted: the caps of the link into
 * that pad. */
static gboolean
gp_tl_query (GpTl * tl, const GpTlRec * r)
{
  const GpTlField *nf = GP_TL_GET (r, "name");
  const gchar *inner, *caps;
  guint64 pad, peer, el, peer_el;
  GpTlRec q;
  gboolean result = FALSE;
  GpTlLink *l;
  guint64 key;

  if (nf == NULL || nf->vlen != 11 || memcmp (nf->val, "accept-caps", 11))
    return TRUE;
  if (!gp_tl_u64 (GP_TL_GET (r, "pad-ix"), &pad) ||
      !gp_tl_u64 (GP_TL_GET (r, "peer-pad-ix"), &peer))
    return FALSE;
  inner = gp_tl_str (GP_TL_GET (r, "structure"), tl->s1);
  if (inner == NULL)
    return FALSE;
  if (gp_tl_scan (inner, tl->s1->len, &q) != GP_TL_SCAN_OK)
    return FALSE;
  if (!gp_tl_bool (GP_TL_GET (&q, "result"), &result))
    return FALSE;
  key = (peer << 32) | pad;
  if (!result || peer > G_MAXUINT32 || pad > G_MAXUINT32)
    return TRUE;
  caps = gp_tl_str (GP_TL_GET (&q, "caps"), tl->s2);
  if (caps == NULL)
    return FALSE;
  /* the link may carry no buffer yet: made now, it gets its ends then */
  l = g_hash_table_lookup (tl->links, &key);
  if (l == NULL && (l = gp_tl_link (tl, peer, pad)) == NULL)
    return TRUE;
  if (l->buffers == 0 && gp_tl_u64 (GP_TL_GET (r, "element-ix"), &el) &&
      gp_tl_u64 (GP_TL_GET (r, "peer-element-ix"), &peer_el)) {
    l->src_el = gp_tl_element_ix (tl, peer_el);
    l->sink_el = gp_tl_element_ix (tl, el);
  }
  g_free (l->caps);
  l->caps = g_strdup (caps);
  return TRUE;
}

static gboolean
gp_tl_rusage (GpTl * tl, const GpTlRec * r, gboolean process)
{
  guint64 id, ts, cpu;

  if (!gp_tl_u64 (process ? GP_TL_GET (r, "process-id") :
          GP_TL_GET (r, "thread-id"), &id) ||
      !gp_tl_u64 (GP_TL_GET (r, "ts"), &ts) ||
      !gp_tl_u64 (GP_TL_GET (r, "time"), &cpu))
    return FALSE;
  gp_tl_advance (tl, ts);
  if (process) {
    tl->n_proc++;
    if (!tl->proc) {
      tl->proc = TRUE;
      tl->pid = id;
      tl->proc_first_ts = ts;
      tl->proc_first_cpu = tl->proc_last_cpu = cpu;
    }
    if (cpu > tl->proc_last_cpu)
      tl->proc_w_cpu += cpu - tl->proc_last_cpu;
    tl->proc_w_seen = TRUE;
    tl->proc_last_cpu = MAX (tl->proc_last_cpu, cpu);
    tl->proc_last_ts = MAX (tl->proc_last_ts, ts);
  } else {
    GpTlThread *t = gp_tl_thread (tl, id);

    tl->n_rusage++;
    if (t == NULL)
      return TRUE;
    if (!t->rusage) {
      t->rusage = TRUE;
      t->first_ts = ts;
      t->first_cpu = t->last_cpu = cpu;
    }
    if (cpu > t->last_cpu)
      t->w_cpu += cpu - t->last_cpu;
    t->w_seen = TRUE;
    t->last_cpu = MAX (t->last_cpu, cpu);
    t->last_ts = MAX (t->last_ts, ts);
  }
  return TRUE;
}

/* "GST_STATE_PLAYING" or "playing" as "PLAYING". */
static const gchar *
gp_tl_state (const gchar * v)
{
  static const gchar *const states[] = { "VOID_PENDING", "NULL", "READY",
    "PAUSED", "PLAYING"
  };
  guint i;

  if (v == NULL)
    return NULL;
  if (g_str_has_prefix (v, "GST_STATE_"))
    v += strlen ("GST_STATE_");
  for (i = 0; i < G_N_ELEMENTS (states); i++)
    if (g_ascii_strcasecmp (v, states[i]) == 0)
      return states[i];
  return NULL;
}

static gint
gp_tl_state_rank (const gchar * state)
{
  return g_strcmp0 (state, "PLAYING") == 0 ? 3 : g_strcmp0 (state,
      "PAUSED") == 0 ? 2 : g_strcmp0 (state, "READY") == 0 ? 1 : 0;
}

static void
gp_tl_event_number (JsonObject * data, const GpTlRec * q, const gchar * key,
    const gchar * as)
{
  const GpTlField *f = gp_tl_get (q, key, strlen (key));
  guint64 v;
  gchar *end;
  gint64 sv;
  gchar buf[32];

  if (f == NULL || f->quoted || f->vlen == 0 || f->vlen >= sizeof (buf))
    return;
  if (gp_tl_u64 (f, &v)) {
    /* GST_CLOCK_TIME_NONE: not there */
    if (v != G_MAXUINT64)
      json_object_set_int_member (data, as, (gint64) MIN (v, G_MAXINT64));
    return;
  }
  memcpy (buf, f->val, f->vlen);
  buf[f->vlen] = '\0';
  sv = g_ascii_strtoll (buf, &end, 10);
  if (*end == '\0' && end != buf)
    json_object_set_int_member (data, as, sv);
}

static gboolean
gp_tl_message (GpTl * tl, const GpTlRec * r)
{
  const gchar *name = gp_tl_str (GP_TL_GET (r, "name"), tl->s1);
  const gchar *inner;
  guint64 ts, ix;
  GpTlElement *e;
  GpTlRec q;
  gdouble t;
  gboolean is_state, is_err, is_warn, is_eos, is_qos;

  if (name == NULL || !gp_tl_u64 (GP_TL_GET (r, "ts"), &ts) ||
      !gp_tl_u64 (GP_TL_GET (r, "element-ix"), &ix))
    return FALSE;
  tl->n_messages++;
  is_state = strcmp (name, "state-changed") == 0;
  is_err = strcmp (name, "error") == 0;
  is_warn = strcmp (name, "warning") == 0;
  is_eos = strcmp (name, "eos") == 0;
  is_qos = strcmp (name, "qos") == 0;
  if (!is_state && !is_err && !is_warn && !is_eos && !is_qos)
    return TRUE;
  e = gp_tl_element_ix (tl, ix);
  if (is_state && (e == NULL || !e->pipeline))
    return TRUE;
  if (tl->s->events->len >= GP_TL_MAX_EVENTS && !is_err && !is_warn) {
    tl->s->events_dropped++;
    if (is_eos && e != NULL && e->pipeline)
      tl->eos = TRUE;
    return TRUE;
  }
  gp_tl_advance (tl, ts);
  t = ts / 1e9;
  inner = gp_tl_str (GP_TL_GET (r, "structure"), tl->s2);
  if (inner == NULL || gp_tl_scan (inner, tl->s2->len, &q) != GP_TL_SCAN_OK)
    q.n = 0;
  if (is_eos) {
    if (e != NULL && e->pipeline)
      tl->eos = TRUE;
    gp_session_add_event (tl->s, t, "eos", e ? e->name : "", "EOS");
  } else if (is_state) {
    const gchar *old = gp_tl_state (gp_tl_str (GP_TL_GET (&q, "old-state"),
            tl->s3));
    const gchar *new = gp_tl_state (gp_tl_str (GP_TL_GET (&q, "new-state"),
            tl->s3));
    const gchar *pending =
        gp_tl_state (gp_tl_str (GP_TL_GET (&q, "pending-state"), tl->s3));
    gchar *text;
    GpEvent *ev;

    if (old == NULL || new == NULL)
      return TRUE;
    text = g_strdup_printf ("%s->%s", old, new);
    ev = gp_session_add_event (tl->s, t, "state", e->name, text);
    g_free (text);
    ev->data = json_object_new ();
    json_object_set_string_member (ev->data, "old", old);
    json_object_set_string_member (ev->data, "new", new);
    json_object_set_string_member (ev->data, "pending",
        pending ? pending : "VOID_PENDING");
    if (gp_tl_state_rank (new) > gp_tl_state_rank (tl->reached) ||
        tl->reached == NULL) {
      g_free (tl->reached);
      tl->reached = g_strdup (new);
    }
  } else if (is_qos) {
    GpEvent *ev;
    JsonObject *d = json_object_new ();
    gint64 processed, dropped;
    gchar *text;

    gp_tl_event_number (d, &q, "processed", "processed");
    gp_tl_event_number (d, &q, "dropped", "dropped");
    gp_tl_event_number (d, &q, "jitter", "jitter_ns");
    gp_tl_event_number (d, &q, "running-time", "running_time");
    processed = json_object_has_member (d, "processed") ?
        json_object_get_int_member (d, "processed") : 0;
    dropped = json_object_has_member (d, "dropped") ?
        json_object_get_int_member (d, "dropped") : 0;
    text = g_strdup_printf ("processed %" G_GINT64_FORMAT ", dropped %"
        G_GINT64_FORMAT, processed, dropped);
    ev = gp_session_add_event (tl->s, t, "qos", e ? e->name : "", text);
    g_free (text);
    ev->data = d;
  } else {
    /* the GError is not in the record (it prints as NULL): its debug
     * text is what there is */
    const gchar *debug = gp_tl_str (GP_TL_GET (&q, "debug"), tl->s3);

    gp_session_add_event (tl->s, t, is_err ? "error" : "warning",
        e ? e->name : "", debug && *debug ? debug : (is_err ? "error" :
            "warning"));
  }
  return TRUE;
}

static gboolean
gp_tl_leak (GpTl * tl, const GpTlRec * r)
{
  const gchar *type = gp_tl_str (GP_TL_GET (r, "type-name"), tl->s1);
  const gchar *desc = gp_tl_str (GP_TL_GET (r, "description"), tl->s2);

  if (type == NULL)
    return FALSE;
  if (tl->n_leaks++ == 0)
    tl->first_leak = g_strdup_printf ("%s %s", type, desc ? desc : "");
  return TRUE;
}

/* One record: handled when gstprof reads it; FALSE when its fields are
 * not what that record has. */
static gboolean
gp_tl_record (GpTl * tl, const GpTlRec * r)
{
  if (GP_TL_IS (r, "thread-rusage"))
    return gp_tl_rusage (tl, r, FALSE);
  if (GP_TL_IS (r, "proc-rusage"))
    return gp_tl_rusage (tl, r, TRUE);
  if (GP_TL_IS (r, "buffer"))
    return gp_tl_buffer (tl, r);
  if (GP_TL_IS (r, "element-latency"))
    return gp_tl_element_latency (tl, r);
  if (GP_TL_IS (r, "latency"))
    return gp_tl_latency (tl, r);
  if (GP_TL_IS (r, "element-reported-latency"))
    return gp_tl_reported (tl, r);
  if (GP_TL_IS (r, "new-element"))
    return gp_tl_new_element (tl, r);
  if (GP_TL_IS (r, "new-pad"))
    return gp_tl_new_pad (tl, r);
  if (GP_TL_IS (r, "query"))
    return gp_tl_query (tl, r);
  if (GP_TL_IS (r, "message"))
    return gp_tl_message (tl, r);
  if (GP_TL_IS (r, "object-alive"))
    return gp_tl_leak (tl, r);
  /* the stats tracer's event and element-query records, the leaks
   * tracer's others: records, not read */
  return TRUE;
}

static gboolean
gp_tl_known (const GpTlRec * r)
{
  return GP_TL_IS (r, "thread-rusage") || GP_TL_IS (r, "proc-rusage") ||
      GP_TL_IS (r, "buffer") || GP_TL_IS (r, "element-latency") ||
      GP_TL_IS (r, "latency") || GP_TL_IS (r, "element-reported-latency") ||
      GP_TL_IS (r, "new-element") || GP_TL_IS (r, "new-pad") ||
      GP_TL_IS (r, "query") || GP_TL_IS (r, "message") ||
      GP_TL_IS (r, "event") || GP_TL_IS (r, "element-query") ||
      GP_TL_IS (r, "object-alive") || GP_TL_IS (r, "object-refings") ||
      GP_TL_IS (r, "object-added") || GP_TL_IS (r, "object-removed");
}

/* One line (without its newline). @last: the file's last line, which a
 * killed program may have cut. */
static void
gp_tl_line (GpTl * tl, const gchar * line, gsize len, gboolean last)
{
  GpTlRec r;

  tl->lines++;
  if (len > 0 && line[len - 1] == '\r')
    len--;
  switch (gp_tl_scan (line, len, &r)) {
    case GP_TL_SCAN_NONE:
      tl->other_lines++;
      return;
    case GP_TL_SCAN_FORMAT:
      tl->format_lines++;
      return;
    case GP_TL_SCAN_BROKEN:
      if (!gp_tl_known (&r)) {
        tl->other_lines++;
        return;
      }
      if (last) {
        tl->cut_last = TRUE;
        return;
      }
      gp_tl_bad (tl, "a record whose fields do not parse");
      return;
    case GP_TL_SCAN_OK:
      break;
  }
  if (!gp_tl_known (&r)) {
    tl->other_lines++;
    return;
  }
  tl->records++;
  if (!gp_tl_record (tl, &r)) {
    gchar *why = g_strdup_printf ("a %.*s record without the fields it "
        "needs", (int) MIN (r.nlen, 40), r.name);

    gp_tl_bad (tl, why);
    g_free (why);
  }
}

/* ------------------------------------------------------------------ */
/* the session                                                          */
/* ------------------------------------------------------------------ */

/* A figure the log's numbers gave, or @unknown when no measurement gives
 * it (a thread on more than one core, a rate over a nanosecond): such a
 * log's numbers are refused, counted, never printed. */
static gdouble
gp_tl_bound (GpTl * tl, gdouble v, gdouble max, gdouble unknown)
{
  if (isfinite (v) && v <= max)
    return v;
  tl->refused_values++;
  return unknown;
}

static const gchar *
gp_tl_kind (const GpTlElement * e)
{
  const gchar *f = e->factory;

  if (e->is_bin)
    return "bin";
  if (g_strcmp0 (f, "queue") == 0 || g_strcmp0 (f, "queue2") == 0 ||
      g_strcmp0 (f, "multiqueue") == 0)
    return "queue";
  if (g_strcmp0 (f, "tee") == 0)
    return "tee";
  if (e->n_out + e->n_in > 0) {
    if (e->n_in == 0)
      return "source";
    if (e->n_out == 0)
      return "sink";
    return "filter";
  }
  /* no stats: what the latency tracer says of it */
  if (e->lat_src && !e->lat_sink)
    return "source";
  if (e->lat_sink && !e->lat_src)
    return "sink";
  return "filter";
}

static gchar *
gp_tl_pad_name (GpTl * tl, guint32 ix, const GpTlElement * el)
{
  GpTlPad *p = ix < tl->pads->len ? g_ptr_array_index (tl->pads, ix) : NULL;

  return g_strdup_printf ("%s.%s", el ? el->name : "?",
      p ? p->name : "?");
}

static void
gp_tl_build_graph (GpTl * tl)
{
  GpSession *s = tl->s;
  guint i;

  for (i = 0; i < tl->elements->len; i++) {
    GpTlElement *e = g_ptr_array_index (tl->elements, i);
    GpElement *ge = gp_session_add_element (s, e->name, e->factory, "",
        gp_tl_kind (e));

    ge->is_bin = e->is_bin;
    if (!e->is_bin && gp_hw_factory_is_hardware (e->factory, NULL, NULL) &&
        !g_ptr_array_find_with_equal_func (s->hw_elements, e->factory,
            g_str_equal, NULL))
      g_ptr_array_add (s->hw_elements, g_strdup (e->factory));
  }
  for (i = 0; i < tl->link_order->len; i++) {
    GpTlLink *l = g_ptr_array_index (tl->link_order, i);
    gchar *src, *sink, *mem;
    GpLink *gl;
    GpLinkSummary *ls;
    guint64 n, span, first, bytes, timed, media;

    /* a pad pair only an accept-caps query named, never linked */
    if (l->buffers == 0)
      continue;
    src = gp_tl_pad_name (tl, l->src_pad, l->src_el);
    sink = gp_tl_pad_name (tl, l->sink_pad, l->sink_el);
    gl = gp_link_new (src, sink, NULL, NULL);
    /* two pad pairs of the same names (pads the log never named) */
    if (gp_session_find_link (s, gl->id) != NULL) {
      gp_link_free (gl);
      g_free (src);
      g_free (sink);
      continue;
    }
    gp_link_free (gl);
    mem = gp_caps_memory_feature (l->caps);
    gl = gp_session_add_link (s, src, sink, l->caps, mem);
    ls = gp_session_add_link_summary (s, gl->id);
    l->id = gl->id;

    /* steady state when a second more follows the start-up one */
    if (l->st_buffers >= 2 && l->last_ts > l->st_first_ts &&
        l->last_ts - l->first_ts >= 2 * GP_TL_STARTUP_NS) {
      n = l->st_buffers;
      first = l->st_first_ts;
      bytes = l->st_bytes;
      timed = l->st_timed;
      media = l->st_media_ns;
    } else {
      n = l->buffers;
      first = l->first_ts;
      bytes = l->bytes;
      timed = l->timed;
      media = l->media_ns;
    }
    span = l->last_ts > first ? l->last_ts - first : 0;
    /* n buffers over the span between the first and the last: n - 1
     * intervals */
    ls->fps = gp_tl_bound (tl, n >= 2 && span > 0 ? (n - 1) * 1e9 / span :
        0, GP_TL_MAX_RATE, 0);
    ls->bytes_per_s = gp_tl_bound (tl, n >= 1 ? ls->fps * ((gdouble) bytes /
            n) : 0, GP_TL_MAX_RATE, 0);
    ls->media_per_s = gp_tl_bound (tl, timed > 0 && n >= 1 ?
        ls->fps * ((gdouble) media / timed) / 1e9 : -1, GP_TL_MAX_RATE, -1);
    ls->first_s = l->buffers > 0 ? l->first_ts / 1e9 : -1;
    ls->buffers = l->buffers;
    g_free (src);
    g_free (sink);
    g_free (mem);
  }
}

static void
gp_tl_build_elements (GpTl * tl)
{
  GpSession *s = tl->s;
  gdouble work = 0, span_s;
  guint i, k;

  span_s = tl->max_ts / 1e9;
  for (i = 0; i < tl->elements->len; i++) {
    GpTlElement *e = g_ptr_array_index (tl->elements, i);
    gboolean queue = strcmp (gp_tl_kind (e), "queue") == 0;
    GpElementSummary *es;
    GpQuantiles q;

    if (e->hist == NULL || e->hist->total == 0)
      continue;
    gp_hist_quantiles_ms (e->hist, &q);
    if (queue) {
      GpQueueSummary *qs = gp_session_add_queue_summary (s, e->name);

      qs->residence_ms = q;
      /* nor blocking: unknown, not none */
      qs->blocked_ms = -1;
      g_free (qs->leaky);
      qs->leaky = g_strdup ("unknown");
      continue;
    }
    es = gp_session_add_elem_summary (s, e->name);
    es->self_ms = q;
    es->buffers = e->hist->total;
    es->self_total_ms = e->hist->sum_ns / 1e6;
    es->busy_pct = span_s > 0 ? MIN (100.0, es->self_total_ms /
        (span_s * 10.0 * MAX (e->threads->len, 1))) : 0;
    for (k = 0; k < e->threads->len; k++)
      g_ptr_array_add (es->threads, g_strdup (((GpTlThread *)
                  g_ptr_array_index (e->threads, k))->name));
    work += es->self_total_ms;
  }
  for (i = 0; i < s->elem_summaries->len; i++) {
    GpElementSummary *es = g_ptr_array_index (s->elem_summaries, i);

    es->share_pct = work > 0 ? 100.0 * es->self_total_ms / work : 0;
  }
}

static void
gp_tl_build_paths (GpTl * tl)
{
  guint i;

  for (i = 0; i < tl->path_order->len; i++) {
    GpTlPath *p = g_ptr_array_index (tl->path_order, i);
    GpPath *gp = gp_session_add_path (tl->s, p->source, p->sink);

    gp_hist_quantiles_ms (&p->hist, &gp->latency_ms);
    gp->mean_ms = p->hist.total ? gp_hist_mean_ns (&p->hist) / 1e6 : -1;
    gp->matched = p->hist.total;
    gp->exact = p->hist.total;
    gp->unmatched = p->invalid;
  }
}

static void
gp_tl_build_threads (GpTl * tl)
{
  GpSession *s = tl->s;
  guint i, k;

  for (i = 0; i < tl->thread_order->len; i++) {
    GpTlThread *t = g_ptr_array_index (tl->thread_order, i);
    GpThreadSummary *ts = gp_session_add_thread (s, t->tid, t->name);

    /* over the run: from the log's first record to its last (a thread's
     * own few records may span a millisecond) */
    if (t->rusage && tl->max_ts > tl->min_ts) {
      ts->cpu_pct_mean = gp_tl_bound (tl, 100.0 * (t->last_cpu -
              t->first_cpu) / (tl->max_ts - tl->min_ts),
          GP_TL_MAX_THREAD_PCT, -1);
      ts->cpu_pct_max = ts->cpu_pct_mean < 0 ? -1 : MIN (100.0,
          gp_tl_bound (tl, MAX (t->max_pct, ts->cpu_pct_mean),
              GP_TL_MAX_PCT, -1));
    } else {
      ts->cpu_pct_mean = -1;
      ts->cpu_pct_max = -1;
    }
    for (k = 0; k < t->elements->len; k++)
      g_ptr_array_add (ts->elements, g_strdup (((GpTlElement *)
                  g_ptr_array_index (t->elements, k))->name));
  }
  s->process.measured = tl->proc;
  s->process.cpu_pct_mean = tl->proc && tl->proc_last_ts > tl->proc_first_ts ?
      gp_tl_bound (tl, 100.0 * (tl->proc_last_cpu - tl->proc_first_cpu) /
      (tl->proc_last_ts - tl->proc_first_ts), GP_TL_MAX_PCT, -1) : -1;
  s->process.cpu_pct_max = tl->proc ? gp_tl_bound (tl, MAX (tl->proc_max_pct,
          s->process.cpu_pct_mean), GP_TL_MAX_PCT, -1) : -1;
  s->process.n_cpus = -1;
  s->process.rss_mb_start = s->process.rss_mb_max = s->process.rss_mb_end =
      -1;
}

static void
gp_tl_build_sinks (GpTl * tl)
{
  GpSession *s = tl->s;
  guint i, k;

  for (i = 0; i < s->elements->len; i++) {
    GpElement *e = g_ptr_array_index (s->elements, i);
    GpSinkSummary *ss;

    /* without the stats tracer no rate is known: no sink is judged */
    if (g_strcmp0 (e->kind, "sink") != 0 || tl->n_buffer == 0)
      continue;
    ss = gp_session_add_sink (s, e->name);
    for (k = 0; k < s->links->len; k++) {
      GpLink *l = g_ptr_array_index (s->links, k);
      GpLinkSummary *ls = g_ptr_array_index (s->link_summaries, k);
      gchar *el = gp_pad_element (l->sink);

      if (g_strcmp0 (el, e->name) == 0) {
        ss->fps += ls->fps;
        ss->bytes_per_s += ls->bytes_per_s;
        ss->buffers += ls->buffers;
        if (ls->media_per_s >= 0)
          ss->media_per_s = MAX (ss->media_per_s, 0) + ls->media_per_s;
        if (ss->first_s < 0 || (ls->first_s >= 0 && ls->first_s < ss->first_s))
          ss->first_s = ls->first_s;
        if (ss->target_fps <= 0)
          ss->target_fps = gp_caps_framerate (l->caps);
        if (l->caps != NULL) {
          g_free (ss->media);
          ss->media = g_strdup (gp_media_kind_name (gp_caps_media_kind
                  (l->caps)));
        }
      }
      g_free (el);
    }
    if (ss->target_fps <= 0)
      ss->target_fps = -1;
    ss->fps = gp_tl_bound (tl, ss->fps, GP_JSON_MAX_MAGNITUDE, 0);
    ss->bytes_per_s = gp_tl_bound (tl, ss->bytes_per_s, GP_JSON_MAX_MAGNITUDE,
        0);
    ss->media_per_s = gp_tl_bound (tl, ss->media_per_s, GP_JSON_MAX_MAGNITUDE,
        -1);
  }
  /* the session's rate: what a source was asked to produce */
  for (i = 0; s->target_fps <= 0 && i < s->links->len; i++) {
    GpLink *l = g_ptr_array_index (s->links, i);
    gchar *el = gp_pad_element (l->src);
    GpElement *e = gp_session_find_element (s, el);

    if (e != NULL && g_strcmp0 (e->kind, "source") == 0)
      s->target_fps = gp_caps_framerate (l->caps);
    g_free (el);
  }
  for (i = 0; s->target_fps <= 0 && i < s->links->len; i++)
    s->target_fps =
        gp_caps_framerate (((GpLink *) g_ptr_array_index (s->links, i))->caps);
  if (s->target_fps <= 0)
    s->target_fps = -1;
  s->frame_period_ms = s->target_fps > 0 ? 1000.0 / s->target_fps : -1;
}

static void
gp_tl_build_series (GpTl * tl)
{
  GpSession *s = tl->s;
  guint i, k;

  for (i = 0; i < tl->windows->len; i++) {
    GpTlWindow *w = &g_array_index (tl->windows, GpTlWindow, i);
    gdouble span = (w->t1 - w->t0) / 1e9;
    JsonObject *o = gp_series_window_new (w->t0 / 1e9, w->t1 / 1e9);
    JsonObject *process = gp_series_entry (o, GP_SERIES_PROCESS, NULL);
    gdouble proc_cpu = -1;

    for (k = 0; k < w->cells->len; k++) {
      GpTlCell *c = &g_array_index (w->cells, GpTlCell, k);
      JsonObject *e;

      switch (c->kind) {
        case GP_TL_CELL_ELEMENT:{
          GpTlElement *el = g_ptr_array_index (tl->elements, c->key);

          if (strcmp (gp_tl_kind (el), "queue") == 0) {
            e = gp_series_entry (o, GP_SERIES_QUEUES, el->name);
            gp_series_set (e, GP_SQ_RESIDENCE_MS_P50, c->b);
            gp_series_set (e, GP_SQ_RESIDENCE_MS_P95, c->c);
          } else {
            e = gp_series_entry (o, GP_SERIES_ELEMENTS, el->name);
            gp_series_set_count (e, GP_SE_BUFFERS, (guint64) c->a);
            gp_series_set (e, GP_SE_SELF_MS_P50, c->b);
            gp_series_set (e, GP_SE_SELF_MS_P95, c->c);
          }
          break;
        }
        case GP_TL_CELL_LINK:{
          GpTlLink *l = g_ptr_array_index (tl->link_order, c->key);

          if (l->id == NULL)
            break;
          e = gp_series_entry (o, GP_SERIES_LINKS, l->id);
          gp_series_set (e, GP_SL_FPS, gp_tl_bound (tl, span > 0 ? c->a / span :
                  0, GP_TL_MAX_RATE, -1));
          gp_series_set (e, GP_SL_BYTES_PER_S, gp_tl_bound (tl, span > 0 ?
                  c->b / span : 0, GP_TL_MAX_RATE, -1));
          break;
        }
        case GP_TL_CELL_PATH:{
          GpTlPath *p = g_ptr_array_index (tl->path_order, c->key);
          gchar *key = g_strconcat (p->source, "->", p->sink, NULL);

          e = gp_series_entry (o, GP_SERIES_PATHS, key);
          gp_series_set (e, GP_SP_LATENCY_MS_P50, c->b);
          gp_series_set (e, GP_SP_LATENCY_MS_P95, c->c);
          gp_series_set_count (e, GP_SP_MATCHED, (guint64) c->a);
          gp_series_set_count (e, GP_SP_UNMATCHED, (guint64) c->d);
          g_free (key);
          break;
        }
        case GP_TL_CELL_THREAD:{
          GpTlThread *t = g_ptr_array_index (tl->thread_order, c->key);

          e = gp_series_entry (o, GP_SERIES_THREADS, t->name);
          /* the CPU between two records counts in the later one's window,
           * which can put a little over one core into it */
          gp_series_set (e, GP_ST_CPU_PCT, MIN (100.0, gp_tl_bound (tl,
                      span > 0 ? c->a / 1e7 / span : -1, GP_TL_MAX_PCT,
                      -1)));
          break;
        }
        case GP_TL_CELL_PROCESS:
          proc_cpu = gp_tl_bound (tl, span > 0 ? c->a / 1e7 / span : -1,
              GP_TL_MAX_PCT, -1);
          break;
        default:
          break;
      }
    }
    gp_series_set_or_null (process, GP_SPR_CPU_PCT, proc_cpu);
    gp_series_set_or_null (process, GP_SPR_RSS_MB, -1);
    gp_session_add_window (s, o);
    json_object_unref (o);
  }
}

/* What the note says beyond the flags. */
static gchar *
gp_tl_detail (GpTl * tl)
{
  GString *d = g_string_new (NULL);
  GPtrArray *found = g_ptr_array_new ();
  guint i;

  if (tl->n_latency + tl->n_element_latency + tl->n_reported > 0)
    g_ptr_array_add (found, (gpointer) "latency");
  if (tl->n_buffer + tl->n_elements > 0)
    g_ptr_array_add (found, (gpointer) "stats");
  if (tl->n_rusage + tl->n_proc > 0)
    g_ptr_array_add (found, (gpointer) "rusage");
  if (tl->n_leaks > 0)
    g_ptr_array_add (found, (gpointer) "leaks");
  g_string_append (d, "Tracers in the log:");
  for (i = 0; i < found->len; i++)
    g_string_append_printf (d, "%s %s", i ? "," : "",
        (const gchar *) g_ptr_array_index (found, i));
  if (found->len == 0)
    g_string_append (d, " none gstprof reads");
  g_string_append_printf (d, " (%" G_GUINT64_FORMAT " records in %"
      G_GUINT64_FORMAT " lines%s).", tl->records, tl->lines,
      tl->old_format ? ", GStreamer 1.16's latency format" : "");
  g_ptr_array_unref (found);
  if (tl->refused_reported > 0)
    g_string_append_printf (d, " %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT
        " reported latencies refused: negative, wrapped as unsigned.",
        tl->refused_reported, tl->n_reported);
  if (tl->refused_latency > 0)
    g_string_append_printf (d, " %" G_GUINT64_FORMAT " latency times "
        "refused: above 2^63 ns, negative wrapped as unsigned.",
        tl->refused_latency);
  if (tl->n_leaks > 0)
    g_string_append_printf (d, " Leaks: %" G_GUINT64_FORMAT " object%s alive "
        "at exit (first: %s).", tl->n_leaks, tl->n_leaks == 1 ? "" : "s",
        tl->first_leak);
  if (tl->bad > 0) {
    g_string_append_printf (d, " %" G_GUINT64_FORMAT " malformed line%s, "
        "not trusted:", tl->bad, tl->bad == 1 ? "" : "s");
    for (i = 0; i < MIN (tl->bad, GP_TL_SHOWN_BAD); i++)
      g_string_append_printf (d, "%s line %" G_GUINT64_FORMAT " (%s)",
          i ? "," : "", tl->bad_at[i], tl->bad_why[i]);
    g_string_append (d, tl->bad > GP_TL_SHOWN_BAD ? ", ..." : ".");
  }
  if (tl->refused_values > 0)
    g_string_append_printf (d, " %" G_GUINT64_FORMAT " figures refused: "
        "beyond what a measurement gives (a thread above one core, a rate "
        "over a nanosecond).", tl->refused_values);
  if (tl->long_lines > 0)
    g_string_append_printf (d, " %" G_GUINT64_FORMAT " lines longer than "
        "%u MiB skipped.", tl->long_lines, GP_TL_MAX_LINE >> 20);
  if (tl->refused_keys > 0)
    g_string_append_printf (d, " %" G_GUINT64_FORMAT " records past %u "
        "elements, links, paths or threads not kept.", tl->refused_keys,
        GP_TL_MAX_KEYS);
  if (tl->cut_last)
    g_string_append (d, " Its last line is cut short (the program was "
        "killed while writing it).");
  return g_string_free (d, FALSE);
}

static guint
gp_tl_missing (GpTl * tl)
{
  guint m = GP_IMPORT_MISSING_PROP_DEFAULTS | GP_IMPORT_MISSING_ELEMENT_CPU |
      GP_IMPORT_MISSING_QUEUE_LEVELS | GP_IMPORT_MISSING_HW_REGISTRY |
      GP_IMPORT_MISSING_INTERLATENCY;

  if (tl->n_element_latency > 0)
    m |= GP_IMPORT_MISSING_SELF_TIME;
  else
    m |= GP_IMPORT_MISSING_ELEMENT_TIME;
  if (tl->n_latency == 0)
    m |= GP_IMPORT_MISSING_LATENCY;
  if (tl->n_buffer == 0)
    m |= GP_IMPORT_MISSING_LINKS | GP_IMPORT_MISSING_ELEMENT_THREADS;
  if (tl->n_rusage + tl->n_proc == 0)
    m |= GP_IMPORT_MISSING_THREAD_CPU;
  /* QoS messages come with the stats tracer's message records */
  if (tl->n_messages == 0)
    m |= GP_IMPORT_MISSING_QOS;
  return m;
}

static void
gp_tl_finish (GpTl * tl)
{
  GpSession *s = tl->s;

  if (tl->started)
    gp_tl_close_window (tl, MAX (tl->max_ts + 1, tl->cur_t0 + 1));
  g_free (s->mode);
  s->mode = g_strdup ("analyze");
  s->import_schema = GP_INGEST_SCHEMA_TRACERLOG;
  s->import_mode = NULL;
  s->import_missing = gp_tl_missing (tl);
  g_free (s->started);
  s->started = g_strdup ("");
  g_free (s->gstreamer);
  s->gstreamer = g_strdup (tl->old_format ? "1.16" : "");
  g_free (s->platform);
  s->platform = g_strdup ("generic");
  s->duration_s = tl->max_ts / 1e9;
  s->window_s = GP_TL_WINDOW_NS / 1e9;
  s->reached = g_strdup (tl->reached);
  if (tl->eos)
    s->end = g_strdup ("eos");
  else if (gp_session_find_event (s, "error") != NULL)
    s->end = g_strdup ("error");

  gp_tl_build_graph (tl);
  gp_tl_build_elements (tl);
  gp_tl_build_paths (tl);
  gp_tl_build_threads (tl);
  gp_tl_build_sinks (tl);
  gp_tl_build_series (tl);
  gp_session_sort_summaries (s);
  s->import_detail = gp_tl_detail (tl);
}

/* ------------------------------------------------------------------ */
/* reading                                                              */
/* ------------------------------------------------------------------ */

static void
gp_tl_init (GpTl * tl, const gchar * origin)
{
  memset (tl, 0, sizeof (*tl));
  tl->origin = origin;
  tl->s = gp_session_new ();
  tl->elements = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gp_tl_element_free);
  tl->by_name = g_hash_table_new (g_str_hash, g_str_equal);
  tl->by_ix = g_ptr_array_new ();
  tl->pads = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gp_tl_pad_free);
  tl->links = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free,
      NULL);
  tl->link_order = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gp_tl_link_free);
  tl->paths = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  tl->path_order = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gp_tl_path_free);
  tl->threads = g_hash_table_new (g_int64_hash, g_int64_equal);
  tl->thread_order = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gp_tl_thread_free);
  tl->windows = g_array_new (FALSE, FALSE, sizeof (GpTlWindow));
  tl->window_ns = GP_TL_WINDOW_NS;
  tl->s1 = g_string_new (NULL);
  tl->s2 = g_string_new (NULL);
  tl->s3 = g_string_new (NULL);
  tl->s4 = g_string_new (NULL);
}

static void
gp_tl_clear (GpTl * tl)
{
  guint i;

  for (i = 0; i < tl->windows->len; i++)
    g_array_unref (g_array_index (tl->windows, GpTlWindow, i).cells);
  g_array_unref (tl->windows);
  g_hash_table_unref (tl->threads);
  g_ptr_array_unref (tl->thread_order);
  g_hash_table_unref (tl->paths);
  g_ptr_array_unref (tl->path_order);
  g_hash_table_unref (tl->links);
  g_ptr_array_unref (tl->link_order);
  g_ptr_array_unref (tl->pads);
  g_ptr_array_unref (tl->by_ix);
  g_hash_table_unref (tl->by_name);
  g_ptr_array_unref (tl->elements);
  for (i = 0; i < MIN (tl->bad, GP_TL_SHOWN_BAD); i++)
    g_free (tl->bad_why[i]);
  g_free (tl->first_leak);
  g_free (tl->reached);
  g_string_free (tl->s1, TRUE);
  g_string_free (tl->s2, TRUE);
  g_string_free (tl->s3, TRUE);
  g_string_free (tl->s4, TRUE);
}

/* Whether what was read so far shows that this is no tracer log. */
static gboolean
gp_tl_hopeless (GpTl * tl)
{
  return tl->records == 0 && tl->lines >= GP_TL_SNIFF_LINES;
}

/* One line from the splitter; FALSE once the log shows it is none. */
static gboolean
gp_tl_on_line (const gchar * line, gsize len, GpLineFlags flags,
    gpointer user_data)
{
  GpTl *tl = user_data;

  if (flags & GP_LINE_LONG) {
    /* one line longer than any record gstprof reads */
    tl->lines++;
    tl->long_lines++;
  } else {
    gp_tl_line (tl, line, len, (flags & GP_LINE_CUT) != 0);
  }
  return !gp_tl_hopeless (tl);
}

static GpSession *
gp_tl_result (GpTl * tl, gboolean binary, GError ** error)
{
  GpSession *s = NULL;

  if (binary || tl->records == 0) {
    gp_json_error_line (error, GP_SESSION_ERROR_SCHEMA, "%s: not a GStreamer "
        "tracer log nor a session file: %s", tl->origin, binary ?
        "it holds binary data" : tl->lines == 0 ? "it is empty" :
        "no tracer record (latency, stats, rusage, leaks) in it");
  } else {
    gp_tl_finish (tl);
    s = g_steal_pointer (&tl->s);
  }
  gp_session_free (tl->s);
  tl->s = NULL;
  gp_tl_clear (tl);
  return s;
}

GpSession *
gp_ingest_tracerlog_read (GpIngestStream * st, GError ** error)
{
  GpTl tl;
  GpLines *lines;
  gboolean binary;

  g_return_val_if_fail (st != NULL, NULL);

  gp_tl_init (&tl, st->origin);
  binary = gp_lines_binary (st->head, st->n_head);
  if (!binary) {
    lines = gp_lines_new (GP_TL_MAX_LINE, gp_tl_on_line, &tl);
    if (!gp_ingest_stream_lines (st, lines, error)) {
      gp_lines_free (lines);
      gp_session_free (tl.s);
      gp_tl_clear (&tl);
      return NULL;
    }
    gp_lines_free (lines);
  }
  return gp_tl_result (&tl, binary, error);
}

gboolean
gp_ingest_tracerlog_sniff_stream (const GpIngestStream * st)
{
  gsize i;

  if (st->gzip)
    return TRUE;
  for (i = 0; i < st->n_head; i++) {
    guchar c = st->head[i];

    if (g_ascii_isspace (c))
      continue;
    /* a UTF-8 byte order mark before JSON */
    if (c == 0xef)
      return FALSE;
    return c != '{' && c != '[';
  }
  return FALSE;
}

gboolean
gp_ingest_tracerlog_sniff (const gchar * path)
{
  return gp_ingest_stream_sniff (path, gp_ingest_tracerlog_sniff_stream);
}

GpSession *
gp_ingest_tracerlog_load (const gchar * path, GError ** error)
{
  GpIngestStream *st;
  GpSession *s;

  g_return_val_if_fail (path != NULL, NULL);

  st = gp_ingest_stream_open (path, error);
  if (st == NULL)
    return NULL;
  s = gp_ingest_tracerlog_read (st, error);
  gp_ingest_stream_free (st);
  return s;
}

GpSession *
gp_ingest_tracerlog_data (const gchar * data, gsize length,
    const gchar * origin, GError ** error)
{
  GpIngestStream *st;
  GpSession *s;

  g_return_val_if_fail (data != NULL || length == 0, NULL);

  st = gp_ingest_stream_data (data, length, origin, error);
  if (st == NULL)
    return NULL;
  s = gp_ingest_tracerlog_read (st, error);
  gp_ingest_stream_free (st);
  return s;
}
