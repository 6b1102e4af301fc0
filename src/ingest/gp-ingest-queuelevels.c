/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-ingest-queuelevels.c: the CSV file of gst-plugins-rs' queue-levels
 * tracer read into the GpSession model, alone or beside a log of
 * GStreamer's core tracers from the same run:
 *
 *   GST_TRACERS='queue-levels(file="/tmp/queue_levels.log")' ./app
 *   gstprof analyze /tmp/queue_levels.log
 *
 * The format (utils/tracers/src/queue_levels/imp.rs of gst-plugins-rs):
 *  - no header line: the tracer's documentation gives the columns as
 *      timestamp,queue name,queue pointer,cur-level-bytes,cur-level-time,
 *      cur-level-buffers,max-size-bytes,max-size-time,max-size-buffers
 *    (one line), which people add by hand; it is taken where it stands;
 *  - a row: the tracer hook's timestamp (ns since gst_init, the clock of
 *    the core tracers' ts fields); the element's name (GST_OBJECT_NAME,
 *    not unique by path), for a multiqueue "name:N", N the index of the
 *    single queue's sink_N / src_N pad; "0x" and the element's address in
 *    at least 8 hex digits; its current level in bytes, time (ns) and
 *    buffers; its max-size-bytes, max-size-time (ns) and max-size-buffers
 *    (0: no limit). Numbers are unsigned decimals (the limits u32 in the
 *    first versions, u64 later). The name is the only free text and may
 *    hold commas, so the row is cut at its first comma and its last seven;
 *  - when: after a buffer or a list entered the queue (the chain function's
 *    return on its sink pad; built for GStreamer before 1.22, the upstream
 *    push's return), before one leaves it (the push on its src pad), at a
 *    flush-stop, and when it goes to NULL (then one row per single queue
 *    of a multiqueue). Every change of a level is followed by a row, so
 *    the rows are a step function of each queue's level;
 *  - which elements: queue, queue2 and multiqueue (include-filter and
 *    exclude-filter choose by name); newer versions also appsrc and
 *    appsink, with their max-bytes, max-time and max-buffers. The file
 *    does not say an element's type: a name GStreamer gives appsrc or
 *    appsink by default (appsrc0), or, beside a tracer log, an element the
 *    log names with another factory, is left out and counted (an app
 *    element's buffer is not a queue for the rules); one the user named
 *    otherwise cannot be told from a queue;
 *  - the rows are written at once when the tracer is disposed (gst_deinit),
 *    in the order the levels were read under its lock; newer versions also
 *    on its "write-log" action signal, appended. A killed program leaves
 *    no file, or the rows of the last write-log.
 *
 * What becomes of it. One queue per name and address (two pipelines'
 * queue0 are two queues: the second is "queue0@0xADDR"), a multiqueue's
 * single queues apart as "multiqueue0.sink_0" (as gstprof's own sessions
 * key them; beside a log that has an element called "cam:1", that name is
 * a queue's, not a multiqueue's). Each row's level against the queue's
 * tightest limit (src/tracer's rule: the largest of level/limit over the
 * limits that are set; a multiqueue's buffer limit does not count, as
 * multiqueue raises it itself); the level holds from its row to the
 * queue's next row (a row logged a little earlier than the one before it,
 * on another thread, counts at the earlier one's time), the last one to
 * the file's last timestamp. Per queue: the mean weighted by time, the
 * highest row, the most buffers held, its limits as the element's
 * properties. Per window (GP_QL_WINDOW_NS on the rows' own timestamps,
 * neighbours merged pairwise past GP_QL_MAX_WINDOWS; beside a log, the
 * log's own windows): the mean and the highest level in it. What the file
 * does not have is said, never guessed: no drops, leakiness, upstream
 * blocking or residence (GP_IMPORT_MISSING_QUEUE_FLOW: a full queue's
 * upstream may be blocked or busy, the file cannot tell), no element
 * times, links, threads, CPU, latency or QoS.
 *
 * Lines: empty ones skipped; a row that does not parse is a malformed
 * line, counted, the first few named by line number in the import note,
 * never trusted; a last line cut short is said apart. The file streams
 * through a fixed buffer (memory depends on the queues, not the length).
 */
#include <math.h>
#include <string.h>

#include <gio/gio.h>

#include "gp-ingest.h"
#include "gp-ingest-private.h"
#include "core/gp-json.h"
#include "core/gp-series.h"

/* The series' first window: the tracer's own default, as the tracer
 * log's. */
#define GP_QL_WINDOW_NS (250 * G_GUINT64_CONSTANT (1000000))
/* Windows kept before neighbours merge (as the tracer log's reader). */
#define GP_QL_MAX_WINDOWS 512
/* Malformed lines named by number in the note; the rest are counted. */
#define GP_QL_SHOWN_BAD 3
/* A row is a name and eight numbers: a longer line is not one (skipped
 * and counted). */
#define GP_QL_MAX_LINE (64 << 10)
/* A file with no row in its first lines is not this format: the reader
 * gives up there; the sniff looks at this many non-empty lines. */
#define GP_QL_HOPELESS_LINES 1000
#define GP_QL_SNIFF_LINES 16
/* Queues kept (64 camera streams with three queues each fit); rows of
 * more are counted as refused: the per-window cells and the session grow
 * with them. */
#define GP_QL_MAX_QUEUES 256
/* A level above this many % of its limit is not a measurement (a queue
 * may go over a limit by one buffer, not by a hundred times). */
#define GP_QL_MAX_PCT (GP_JSON_MAX_SHARE / 10)
#define GP_QL_N_FIELDS 9

static const gchar gp_ql_header[] = "timestamp,queue name,queue pointer,"
    "cur-level-bytes,cur-level-time,cur-level-buffers,max-size-bytes,"
    "max-size-time,max-size-buffers";

/* ------------------------------------------------------------------ */
/* one row                                                              */
/* ------------------------------------------------------------------ */

enum
{
  GP_QL_CUR_BYTES, GP_QL_CUR_TIME, GP_QL_CUR_BUFFERS,
  GP_QL_MAX_BYTES, GP_QL_MAX_TIME, GP_QL_MAX_BUFFERS, GP_QL_N_VALUES
};

typedef struct
{
  guint64 ts;
  const gchar *name;            /* the whole name field, ":N" included */
  gsize nlen;
  gsize base_len;               /* without ":N" when multi */
  gboolean multi;
  guint64 idx;
  guint64 ptr;
  guint64 v[GP_QL_N_VALUES];
} GpQlRow;

static gboolean
gp_ql_u64 (const gchar * p, const gchar * end, guint64 * out)
{
  guint64 v = 0;

  if (p == end)
    return FALSE;
  for (; p < end; p++) {
    guint d = (guchar) * p - '0';

    if (d > 9 || v > (G_MAXUINT64 - d) / 10)
      return FALSE;
    v = v * 10 + d;
  }
  *out = v;
  return TRUE;
}

static gboolean
gp_ql_hex (const gchar * p, const gchar * end, guint64 * out)
{
  guint64 v = 0;

  if (end - p < 3 || p[0] != '0' || p[1] != 'x' || end - p > 18)
    return FALSE;
  for (p += 2; p < end; p++) {
    gint d = g_ascii_xdigit_value (*p);

    if (d < 0)
      return FALSE;
    v = (v << 4) | (guint) d;
  }
  *out = v;
  return TRUE;
}

/* A multiqueue's single queue: "name:N". */
static void
gp_ql_split_index (GpQlRow * row)
{
  const gchar *colon = NULL, *p;

  row->multi = FALSE;
  row->base_len = row->nlen;
  for (p = row->name + row->nlen; p > row->name; p--)
    if (p[-1] == ':') {
      colon = p - 1;
      break;
    }
  if (colon == NULL || colon == row->name ||
      row->name + row->nlen - (colon + 1) > 9 ||
      !gp_ql_u64 (colon + 1, row->name + row->nlen, &row->idx))
    return;
  row->multi = TRUE;
  row->base_len = colon - row->name;
}

/* The row in @line; NULL when it is one, else why not. */
static const gchar *
gp_ql_parse (const gchar * line, gsize len, GpQlRow * row)
{
  const gchar *end = line + len, *first, *cut[GP_QL_N_FIELDS - 2];
  const gchar *p;
  guint n = 0, i;

  first = memchr (line, ',', len);
  if (first == NULL)
    return "not the queue-levels tracer's 9 comma-separated fields";
  /* the last seven commas: pointer and six numbers after the name */
  for (p = end; p > first + 1 && n < G_N_ELEMENTS (cut); p--)
    if (p[-1] == ',')
      cut[n++] = p - 1;
  if (n < G_N_ELEMENTS (cut))
    return "not the queue-levels tracer's 9 comma-separated fields";
  if (!gp_ql_u64 (line, first, &row->ts))
    return "a timestamp that is not a number of ns";
  row->name = first + 1;
  row->nlen = cut[n - 1] - row->name;
  if (row->nlen == 0)
    return "an empty queue name";
  if (!g_utf8_validate (row->name, row->nlen, NULL))
    return "a queue name that is not UTF-8";
  if (!gp_ql_hex (cut[n - 1] + 1, cut[n - 2], &row->ptr))
    return "a queue pointer that is not 0x and hex digits";
  for (i = 0; i < GP_QL_N_VALUES; i++) {
    const gchar *a = cut[n - 2 - i] + 1;
    const gchar *b = i + 1 < GP_QL_N_VALUES ? cut[n - 3 - i] : end;

    if (!gp_ql_u64 (a, b, &row->v[i]))
      return "a level or limit that is not an unsigned number";
  }
  gp_ql_split_index (row);
  return NULL;
}

static gboolean
gp_ql_is_header (const gchar * line, gsize len)
{
  while (len > 0 && (line[len - 1] == ' ' || line[len - 1] == '\t'))
    len--;
  return len == sizeof (gp_ql_header) - 1 &&
      memcmp (line, gp_ql_header, len) == 0;
}

/* ------------------------------------------------------------------ */
/* what the file tells, as it streams                                   */
/* ------------------------------------------------------------------ */

typedef struct
{
  gdouble wsum, wns;            /* level x ns, ns with a level */
  gdouble max;                  /* < 0: no level in the window */
} GpQlCell;

typedef struct
{
  guint64 t0, t1;               /* ns */
  GArray *cells;                /* GpQlCell, by queue index */
} GpQlWindow;

typedef struct
{
  gchar *key;                   /* summary key: name, name.sink_N */
  gchar *element;               /* its element: name (or name@0xADDR) */
  gboolean multi;
  gboolean left_out;            /* an app element, not a queue */
  gboolean in_log;              /* beside a log: its element is there */
  guint index;
  guint64 rows;
  gboolean started;
  guint64 last_t;
  gdouble last_pct;             /* < 0: no limit set, no level */
  gdouble wsum, wns, pct_sum, pct_max;
  guint64 n_pct;
  guint64 buffers_max;
  guint64 limit[3];             /* the last row's bytes, time, buffers */
} GpQlQueue;

typedef struct
{
  const gchar *origin;
  GpSession *into;              /* a tracer log's session, or NULL */

  guint64 lines, rows, headers, bad, refused_rows, refused_pct, left_rows;
  guint64 outside_rows;         /* beside a log: outside its windows */
  guint64 long_lines;
  guint64 bad_at[GP_QL_SHOWN_BAD];
  const gchar *bad_why[GP_QL_SHOWN_BAD];
  gboolean cut_last;

  GHashTable *by_id;            /* "name\nptr" -> GpQlQueue* */
  GHashTable *by_key;           /* key -> GpQlQueue* */
  GHashTable *elements;         /* "name\nptr" -> element name */
  GHashTable *names;            /* element names taken (owned there) */
  GPtrArray *queues;            /* GpQlQueue*, in order of appearance */

  GArray *windows;              /* GpQlWindow, sorted */
  gboolean fixed;               /* the log's windows, else our own */
  guint64 base, width;          /* our own: uniform from base */
  gboolean started;
  guint64 min_ts, max_ts;
  GString *s1;
} GpQl;

static void
gp_ql_queue_free (GpQlQueue * q)
{
  g_free (q->key);
  g_free (q->element);
  g_free (q);
}

static void
gp_ql_bad (GpQl * ql, const gchar * why)
{
  if (ql->bad < GP_QL_SHOWN_BAD) {
    ql->bad_at[ql->bad] = ql->lines;
    ql->bad_why[ql->bad] = why;
  }
  ql->bad++;
}

/* The element of @name: not a queue when the log beside says so, or,
 * alone, when it is a name GStreamer gives appsrc or appsink. */
static gboolean
gp_ql_app_element (GpQl * ql, const gchar * name)
{
  const gchar *p;

  if (ql->into != NULL) {
    GpElement *e = gp_session_find_element (ql->into, name);

    if (e != NULL && e->factory != NULL && *e->factory != '\0')
      return strcmp (e->factory, "queue") != 0 &&
          strcmp (e->factory, "queue2") != 0 &&
          strcmp (e->factory, "multiqueue") != 0;
  }
  if (g_str_has_prefix (name, "appsrc"))
    p = name + 6;
  else if (g_str_has_prefix (name, "appsink"))
    p = name + 7;
  else
    return FALSE;
  if (*p == '\0')
    return FALSE;
  for (; *p != '\0'; p++)
    if (!g_ascii_isdigit (*p))
      return FALSE;
  return TRUE;
}

/* The element of @base at @ptr: its name, made when it is new; another
 * element of the same name (another pipeline's, or one made anew) is told
 * by its address. Borrowed. */
static const gchar *
gp_ql_element_name (GpQl * ql, const gchar * base, guint64 ptr)
{
  gchar *id = g_strdup_printf ("%s\n%" G_GINT64_MODIFIER "x", base, ptr);
  gchar *name = g_hash_table_lookup (ql->elements, id);

  if (name != NULL) {
    g_free (id);
    return name;
  }
  if (g_hash_table_contains (ql->names, base))
    name = g_strdup_printf ("%s@0x%" G_GINT64_MODIFIER "x", base, ptr);
  else
    name = g_strdup (base);
  g_hash_table_add (ql->names, name);
  g_hash_table_insert (ql->elements, id, name);
  return name;
}

/* The queue of @row, made when it is new (NULL past GP_QL_MAX_QUEUES). */
static GpQlQueue *
gp_ql_queue (GpQl * ql, const GpQlRow * row)
{
  GpQlQueue *q;
  gchar *base;
  gboolean multi = row->multi;

  g_string_printf (ql->s1, "%.*s\n%" G_GINT64_MODIFIER "x", (int) row->nlen,
      row->name, row->ptr);
  q = g_hash_table_lookup (ql->by_id, ql->s1->str);
  if (q != NULL)
    return q;
  if (ql->queues->len >= GP_QL_MAX_QUEUES)
    return NULL;
  /* beside a log that has an element of the whole name: a queue's */
  if (multi && ql->into != NULL) {
    gchar *whole = g_strndup (row->name, row->nlen);

    if (gp_session_find_element (ql->into, whole) != NULL)
      multi = FALSE;
    g_free (whole);
  }
  base = g_strndup (row->name, multi ? row->base_len : row->nlen);
  q = g_new0 (GpQlQueue, 1);
  q->multi = multi;
  q->index = ql->queues->len;
  q->pct_max = -1;
  q->last_pct = -1;
  q->element = g_strdup (gp_ql_element_name (ql, base, row->ptr));
  if (multi)
    q->key = g_strdup_printf ("%s.sink_%" G_GUINT64_FORMAT, q->element,
        row->idx);
  else
    q->key = g_strdup (q->element);
  if (g_hash_table_contains (ql->by_key, q->key)) {
    /* "a:0" of a multiqueue beside a queue the user called "a.sink_0" */
    gchar *k = g_strdup_printf ("%s#%u", q->key, q->index);

    g_free (q->key);
    q->key = k;
  }
  q->left_out = gp_ql_app_element (ql, q->element);
  q->in_log = ql->into != NULL &&
      gp_session_find_element (ql->into, q->element) != NULL;
  g_hash_table_insert (ql->by_id, g_strdup (ql->s1->str), q);
  g_hash_table_insert (ql->by_key, q->key, q);
  g_ptr_array_add (ql->queues, q);
  g_free (base);
  return q;
}

/* ---- windows ---- */

/* The first window that ends after @t (windows->len when none). */
static guint
gp_ql_window_after (GpQl * ql, guint64 t)
{
  guint lo = 0, hi = ql->windows->len;

  while (lo < hi) {
    guint mid = lo + (hi - lo) / 2;

    if (g_array_index (ql->windows, GpQlWindow, mid).t1 <= t)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

static GpQlCell *
gp_ql_cell (GpQlWindow * w, guint index)
{
  if (w->cells->len <= index) {
    guint from = w->cells->len, i;

    g_array_set_size (w->cells, index + 1);
    for (i = from; i <= index; i++)
      g_array_index (w->cells, GpQlCell, i).max = -1;
  }
  return &g_array_index (w->cells, GpQlCell, index);
}

static guint64
gp_ql_span_end (guint64 t0, guint64 width)
{
  return t0 > G_MAXUINT64 - width ? G_MAXUINT64 : t0 + width;
}

static void
gp_ql_window_append (GpQl * ql, guint64 t0, guint64 t1)
{
  GpQlWindow w;

  w.t0 = t0;
  w.t1 = t1;
  w.cells = g_array_new (FALSE, TRUE, sizeof (GpQlCell));
  g_array_append_val (ql->windows, w);
}

/* Our own windows, two neighbours as one: the window doubles. */
static void
gp_ql_halve_windows (GpQl * ql)
{
  guint i, k, n = 0;

  for (i = 0; i < ql->windows->len; i += 2) {
    GpQlWindow a = g_array_index (ql->windows, GpQlWindow, i);

    if (i + 1 < ql->windows->len) {
      GpQlWindow *b = &g_array_index (ql->windows, GpQlWindow, i + 1);

      for (k = 0; k < b->cells->len; k++) {
        GpQlCell *cb = &g_array_index (b->cells, GpQlCell, k);
        GpQlCell *ca = gp_ql_cell (&a, k);

        ca->wsum += cb->wsum;
        ca->wns += cb->wns;
        ca->max = MAX (ca->max, cb->max);
      }
      a.t1 = b->t1;
      g_array_unref (b->cells);
    }
    g_array_index (ql->windows, GpQlWindow, n++) = a;
  }
  g_array_set_size (ql->windows, n);
  ql->width = ql->width > G_MAXUINT64 / 2 ? G_MAXUINT64 : ql->width * 2;
  /* a last window left alone grows to the new width too */
  for (i = 0; i < n; i++) {
    GpQlWindow *w = &g_array_index (ql->windows, GpQlWindow, i);

    w->t1 = gp_ql_span_end (w->t0, ql->width);
  }
}

/* Our own windows reach @t. */
static void
gp_ql_windows_reach (GpQl * ql, guint64 t)
{
  guint64 need;

  if (ql->fixed)
    return;
  if (ql->windows->len == 0) {
    ql->base = t - t % ql->width;
    gp_ql_window_append (ql, ql->base, gp_ql_span_end (ql->base,
            ql->width));
  }
  need = (t - ql->base) / ql->width + 1;
  while (need > GP_QL_MAX_WINDOWS) {
    gp_ql_halve_windows (ql);
    need = (t - ql->base) / ql->width + 1;
  }
  while (ql->windows->len < need) {
    guint64 t0 = ql->base + ql->windows->len * ql->width;

    gp_ql_window_append (ql, t0, gp_ql_span_end (t0, ql->width));
  }
}

/* The level @pct held over [@ta, @tb). */
static void
gp_ql_step (GpQl * ql, GpQlQueue * q, guint64 ta, guint64 tb, gdouble pct)
{
  guint i;

  if (pct < 0 || tb <= ta)
    return;
  q->wsum += pct * (gdouble) (tb - ta);
  q->wns += (gdouble) (tb - ta);
  for (i = gp_ql_window_after (ql, ta); i < ql->windows->len; i++) {
    GpQlWindow *w = &g_array_index (ql->windows, GpQlWindow, i);
    guint64 a = MAX (ta, w->t0), b = MIN (tb, w->t1);
    GpQlCell *c;

    if (w->t0 >= tb)
      break;
    if (b <= a)
      continue;
    c = gp_ql_cell (w, q->index);
    c->wsum += pct * (gdouble) (b - a);
    c->wns += (gdouble) (b - a);
    c->max = MAX (c->max, pct);
  }
}

/* A row's level at @t, in its window. */
static void
gp_ql_sample (GpQl * ql, GpQlQueue * q, guint64 t, gdouble pct)
{
  guint i = gp_ql_window_after (ql, t);

  if (pct < 0)
    return;
  q->pct_sum += pct;
  q->n_pct++;
  q->pct_max = MAX (q->pct_max, pct);
  if (i < ql->windows->len &&
      g_array_index (ql->windows, GpQlWindow, i).t0 <= t) {
    GpQlCell *c = gp_ql_cell (&g_array_index (ql->windows, GpQlWindow, i),
        q->index);

    c->max = MAX (c->max, pct);
  } else {
    ql->outside_rows++;
  }
}

/* The row's level against the queue's tightest limit, -1 when it has
 * none (or a level no measurement gives). */
static gdouble
gp_ql_pct (GpQl * ql, const GpQlQueue * q, const GpQlRow * row)
{
  gdouble pct = -1;

  if (row->v[GP_QL_MAX_BYTES] > 0)
    pct = MAX (pct, 100.0 * row->v[GP_QL_CUR_BYTES] /
        row->v[GP_QL_MAX_BYTES]);
  if (row->v[GP_QL_MAX_TIME] > 0)
    pct = MAX (pct, 100.0 * row->v[GP_QL_CUR_TIME] /
        row->v[GP_QL_MAX_TIME]);
  /* multiqueue raises its buffer limit itself */
  if (!q->multi && row->v[GP_QL_MAX_BUFFERS] > 0)
    pct = MAX (pct, 100.0 * row->v[GP_QL_CUR_BUFFERS] /
        row->v[GP_QL_MAX_BUFFERS]);
  if (pct > GP_QL_MAX_PCT) {
    ql->refused_pct++;
    return -1;
  }
  return pct;
}

static void
gp_ql_row (GpQl * ql, const GpQlRow * row)
{
  GpQlQueue *q = gp_ql_queue (ql, row);
  guint64 t = row->ts;
  gdouble pct;

  if (q == NULL) {
    ql->refused_rows++;
    return;
  }
  q->rows++;
  if (q->left_out) {
    ql->left_rows++;
    return;
  }
  if (!ql->started) {
    ql->started = TRUE;
    ql->min_ts = t;
  }
  ql->min_ts = MIN (ql->min_ts, t);
  ql->max_ts = MAX (ql->max_ts, t);
  if (!ql->fixed && ql->windows->len > 0)
    t = MAX (t, ql->base);
  /* the rows are in the order of the levels: one stamped a little before
   * the one ahead of it (another thread) counts at that one's time */
  if (q->started)
    t = MAX (t, q->last_t);
  gp_ql_windows_reach (ql, t);
  pct = gp_ql_pct (ql, q, row);
  if (q->started)
    gp_ql_step (ql, q, q->last_t, t, q->last_pct);
  gp_ql_sample (ql, q, t, pct);
  q->started = TRUE;
  q->last_t = t;
  q->last_pct = pct;
  q->buffers_max = MAX (q->buffers_max, row->v[GP_QL_CUR_BUFFERS]);
  q->limit[0] = row->v[GP_QL_MAX_BYTES];
  q->limit[1] = row->v[GP_QL_MAX_TIME];
  q->limit[2] = row->v[GP_QL_MAX_BUFFERS];
}

/* One line (without its newline). @last: the file's last line, without
 * a newline, which a killed program may have cut. */
static void
gp_ql_line (GpQl * ql, const gchar * line, gsize len, gboolean last)
{
  GpQlRow row;
  const gchar *why;

  ql->lines++;
  if (len > 0 && line[len - 1] == '\r')
    len--;
  /* a byte order mark, when the file was edited */
  if (ql->lines == 1 && len >= 3 && memcmp (line, "\xef\xbb\xbf", 3) == 0) {
    line += 3;
    len -= 3;
  }
  if (len == 0)
    return;
  if (gp_ql_is_header (line, len)) {
    ql->headers++;
    return;
  }
  why = gp_ql_parse (line, len, &row);
  if (why != NULL) {
    if (last && ql->rows > 0)
      ql->cut_last = TRUE;
    else
      gp_ql_bad (ql, why);
    return;
  }
  ql->rows++;
  gp_ql_row (ql, &row);
}

/* ------------------------------------------------------------------ */
/* the session                                                          */
/* ------------------------------------------------------------------ */

/* A limit as the element's property, unless the model has it already. */
static void
gp_ql_set_prop (GpElement * e, const gchar * prop, guint64 v)
{
  if (e->props == NULL)
    e->props = json_object_new ();
  if (!json_object_has_member (e->props, prop) && v <= G_MAXINT64)
    json_object_set_int_member (e->props, prop, (gint64) v);
}

/* The factory of a queue the file names: a multiqueue's, or the names
 * GStreamer gives queue and queue2 (queue0, queue2-0; "@0x..." is ours);
 * "" when the name does not say. */
static const gchar *
gp_ql_factory (const GpQlQueue * q)
{
  const gchar *p = q->element, *at = strstr (q->element, "@0x");
  const gchar *end = at ? at : q->element + strlen (q->element);
  gboolean two = g_str_has_prefix (p, "queue2-");

  if (q->multi)
    return "multiqueue";
  if (two)
    p += 7;
  else if (g_str_has_prefix (p, "queue"))
    p += 5;
  else
    return "";
  if (p == end)
    return "";
  for (; p < end; p++)
    if (!g_ascii_isdigit (*p))
      return "";
  return two ? "queue2" : "queue";
}

static void
gp_ql_build_queues (GpQl * ql, GpSession * s)
{
  guint i;

  for (i = 0; i < ql->queues->len; i++) {
    GpQlQueue *q = g_ptr_array_index (ql->queues, i);
    GpElement *e;
    GpQueueSummary *qs;

    if (q->left_out || q->rows == 0)
      continue;
    /* the last level holds to the file's end */
    gp_ql_step (ql, q, q->last_t, MAX (ql->max_ts, q->last_t), q->last_pct);
    e = gp_session_find_element (s, q->element);
    if (e == NULL)
      e = gp_session_add_element (s, q->element, gp_ql_factory (q), "",
          "queue");
    gp_ql_set_prop (e, "max-size-bytes", q->limit[0]);
    gp_ql_set_prop (e, "max-size-time", q->limit[1]);
    gp_ql_set_prop (e, "max-size-buffers", q->limit[2]);
    qs = gp_session_find_queue_summary (s, q->key);
    if (qs == NULL) {
      qs = gp_session_add_queue_summary (s, q->key);
      g_free (qs->leaky);
      qs->leaky = g_strdup ("unknown");
    }
    if (q->wns > 0)
      qs->level_pct_mean = q->wsum / q->wns;
    else
      qs->level_pct_mean = q->n_pct > 0 ? q->pct_sum / q->n_pct : -1;
    qs->level_pct_max = q->pct_max;
    qs->level_buffers_max = q->buffers_max;
    qs->blocked_ms = -1;
  }
}

/* The series: into the log's windows, or our own as new ones. */
static void
gp_ql_build_series (GpQl * ql, GpSession * s)
{
  guint i, k;

  for (i = 0; i < ql->windows->len; i++) {
    GpQlWindow *w = &g_array_index (ql->windows, GpQlWindow, i);
    JsonObject *o;

    if (ql->fixed) {
      o = g_ptr_array_index (s->series, i);
    } else {
      guint64 t1 = w->t1;

      /* the last window ends with the file */
      if (i + 1 == ql->windows->len && ql->max_ts < G_MAXUINT64)
        t1 = MAX (w->t0 + 1, MIN (t1, ql->max_ts + 1));
      o = gp_series_window_new (w->t0 / 1e9, t1 / 1e9);
    }
    for (k = 0; k < w->cells->len; k++) {
      GpQlCell *c = &g_array_index (w->cells, GpQlCell, k);
      GpQlQueue *q = g_ptr_array_index (ql->queues, k);
      JsonObject *e;

      if (c->max < 0 || q->left_out)
        continue;
      e = gp_series_entry (o, GP_SERIES_QUEUES, q->key);
      gp_series_set (e, GP_SQ_LEVEL_PCT_MEAN, c->wns > 0 ? c->wsum / c->wns :
          c->max);
      gp_series_set (e, GP_SQ_LEVEL_PCT_MAX, c->max);
    }
    if (!ql->fixed) {
      gp_series_set_or_null (gp_series_entry (o, GP_SERIES_PROCESS, NULL),
          GP_SPR_CPU_PCT, -1);
      gp_series_set_or_null (gp_series_entry (o, GP_SERIES_PROCESS, NULL),
          GP_SPR_RSS_MB, -1);
      gp_session_add_window (s, o);
      json_object_unref (o);
    }
  }
}

/* What the note says of the file beyond the flags. */
static gchar *
gp_ql_detail (GpQl * ql)
{
  GString *d = g_string_new (NULL);
  guint i, n = 0, n_multi = 0, n_left = 0, n_new = 0;

  for (i = 0; i < ql->queues->len; i++) {
    GpQlQueue *q = g_ptr_array_index (ql->queues, i);

    if (q->left_out)
      n_left++;
    else if (q->rows > 0) {
      n++;
      n_multi += q->multi;
      n_new += !q->in_log;
    }
  }
  g_string_append_printf (d, "Queue levels (queue-levels tracer%s%s): %u "
      "queue%s", ql->into ? ", " : "", ql->into ? ql->origin : "", n,
      n == 1 ? "" : "s");
  if (n_multi > 0)
    g_string_append_printf (d, " (%u single queue%s of multiqueues)",
        n_multi, n_multi == 1 ? "" : "s");
  g_string_append_printf (d, " in %" G_GUINT64_FORMAT " rows of %"
      G_GUINT64_FORMAT " lines, levels against their tightest limit, "
      "weighted by time.", ql->rows, ql->lines);
  if (n_left > 0)
    g_string_append_printf (d, " %u app element%s (appsrc, appsink) left "
        "out: not queues.", n_left, n_left == 1 ? "" : "s");
  if (ql->into && ql->into->elements->len > 0 && n_new > 0)
    g_string_append_printf (d, " %u of its queues not in the log.", n_new);
  if (ql->into && ql->outside_rows > 0)
    g_string_append_printf (d, " %" G_GUINT64_FORMAT " of its rows lie "
        "outside the log's windows (not the same run?).", ql->outside_rows);
  if (ql->bad > 0) {
    g_string_append_printf (d, " %" G_GUINT64_FORMAT " malformed line%s, "
        "not trusted:", ql->bad, ql->bad == 1 ? "" : "s");
    for (i = 0; i < MIN (ql->bad, GP_QL_SHOWN_BAD); i++)
      g_string_append_printf (d, "%s line %" G_GUINT64_FORMAT " (%s)",
          i ? "," : "", ql->bad_at[i], ql->bad_why[i]);
    if (ql->bad > GP_QL_SHOWN_BAD)
      g_string_append_printf (d, ", and %" G_GUINT64_FORMAT " more",
          ql->bad - GP_QL_SHOWN_BAD);
    g_string_append_c (d, '.');
  }
  if (ql->long_lines > 0)
    g_string_append_printf (d, " %" G_GUINT64_FORMAT " lines longer than "
        "%u KiB skipped.", ql->long_lines, GP_QL_MAX_LINE >> 10);
  if (ql->refused_rows > 0)
    g_string_append_printf (d, " %" G_GUINT64_FORMAT " rows past %u queues "
        "not kept.", ql->refused_rows, GP_QL_MAX_QUEUES);
  if (ql->refused_pct > 0)
    g_string_append_printf (d, " %" G_GUINT64_FORMAT " levels refused: above "
        "%.0f%% of their limit.", ql->refused_pct, GP_QL_MAX_PCT);
  if (ql->cut_last)
    g_string_append (d, " Its last line is cut short.");
  return g_string_free (d, FALSE);
}

/* ------------------------------------------------------------------ */
/* reading                                                              */
/* ------------------------------------------------------------------ */

static void
gp_ql_init (GpQl * ql, const gchar * origin, GpSession * into)
{
  guint i;

  memset (ql, 0, sizeof (*ql));
  ql->origin = origin;
  ql->into = into;
  ql->by_id = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  ql->by_key = g_hash_table_new (g_str_hash, g_str_equal);
  ql->elements = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      g_free);
  ql->names = g_hash_table_new (g_str_hash, g_str_equal);
  ql->queues = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gp_ql_queue_free);
  ql->windows = g_array_new (FALSE, FALSE, sizeof (GpQlWindow));
  ql->width = GP_QL_WINDOW_NS;
  ql->s1 = g_string_new (NULL);
  /* beside a log with windows: its windows are the series' */
  for (i = 0; into != NULL && i < gp_session_n_windows (into); i++) {
    gdouble t0, t1;

    gp_session_window_span (into, i, &t0, &t1);
    if (!(t0 >= 0 && t1 > t0 && t1 < 1.8e10))
      t0 = t1 = 0;
    gp_ql_window_append (ql, (guint64) llround (t0 * 1e9),
        (guint64) llround (t1 * 1e9));
    ql->fixed = TRUE;
  }
}

static void
gp_ql_clear (GpQl * ql)
{
  guint i;

  for (i = 0; i < ql->windows->len; i++)
    g_array_unref (g_array_index (ql->windows, GpQlWindow, i).cells);
  g_array_unref (ql->windows);
  g_hash_table_unref (ql->by_key);
  g_hash_table_unref (ql->by_id);
  g_hash_table_unref (ql->names);
  g_hash_table_unref (ql->elements);
  g_ptr_array_unref (ql->queues);
  g_string_free (ql->s1, TRUE);
}

/* One line from the splitter; FALSE once the file shows it is none. */
static gboolean
gp_ql_on_line (const gchar * line, gsize len, GpLineFlags flags,
    gpointer user_data)
{
  GpQl *ql = user_data;

  if (flags & GP_LINE_LONG) {
    /* a line longer than any row: counted, skipped */
    ql->lines++;
    ql->long_lines++;
  } else {
    gp_ql_line (ql, line, len, (flags & GP_LINE_CUT) != 0);
  }
  return !(ql->rows == 0 && ql->lines >= GP_QL_HOPELESS_LINES);
}

/* Why the file is no queue-levels CSV, or NULL when it is one. */
static const gchar *
gp_ql_refusal (GpQl * ql, gboolean binary)
{
  if (binary)
    return "it holds binary data";
  if (ql->lines == 0)
    return "it is empty";
  if (ql->rows == 0 && ql->headers > 0)
    return "a queue-levels CSV without a row (the tracer writes them "
        "when the program ends)";
  if (ql->rows == 0)
    return "no row of the queue-levels tracer's CSV in it";
  return NULL;
}

static void
gp_ql_finish_alone (GpQl * ql, GpSession * s)
{
  g_free (s->mode);
  s->mode = g_strdup ("analyze");
  s->import_schema = GP_INGEST_SCHEMA_QUEUELEVELS;
  s->import_mode = NULL;
  s->import_missing = GP_INGEST_QUEUELEVELS_MISSING;
  g_free (s->started);
  s->started = g_strdup ("");
  g_free (s->gstreamer);
  s->gstreamer = g_strdup ("");
  g_free (s->platform);
  s->platform = g_strdup ("generic");
  s->duration_s = ql->max_ts / 1e9;
  s->window_s = GP_QL_WINDOW_NS / 1e9;
  gp_ql_build_queues (ql, s);
  gp_ql_build_series (ql, s);
  s->import_detail = gp_ql_detail (ql);
}

static void
gp_ql_finish_into (GpQl * ql, GpSession * s)
{
  gchar *detail = gp_ql_detail (ql);
  guint i, n_windows = gp_session_n_windows (s);

  gp_ql_build_queues (ql, s);
  if (n_windows > 0 && ql->fixed)
    gp_ql_build_series (ql, s);
  else if (n_windows == 0)
    gp_ql_build_series (ql, s);
  s->import_schema = GP_INGEST_SCHEMA_TRACERLOG_QUEUELEVELS;
  s->import_missing &= ~GP_IMPORT_MISSING_QUEUE_LEVELS;
  s->import_missing |= GP_IMPORT_MISSING_QUEUE_FLOW;
  /* a queue the log timed (its residence) keeps it, the rest is unknown */
  for (i = 0; i < s->queue_summaries->len; i++) {
    GpQueueSummary *qs = g_ptr_array_index (s->queue_summaries, i);

    qs->blocked_ms = -1;
  }
  if (s->import_detail != NULL) {
    gchar *both = g_strconcat (s->import_detail, " ", detail, NULL);

    g_free (s->import_detail);
    s->import_detail = both;
    g_free (detail);
  } else {
    s->import_detail = detail;
  }
}

GpSession *
gp_ingest_queuelevels_read (GpIngestStream * st, GpSession * into,
    GError ** error)
{
  GpQl ql;
  GpSession *s = NULL;
  gboolean binary;
  const gchar *why;

  g_return_val_if_fail (st != NULL, NULL);

  gp_ql_init (&ql, st->origin, into);
  binary = gp_lines_binary (st->head, st->n_head);
  if (!binary) {
    GpLines *lines = gp_lines_new (GP_QL_MAX_LINE, gp_ql_on_line, &ql);
    gboolean ok = gp_ingest_stream_lines (st, lines, error);

    gp_lines_free (lines);
    if (!ok) {
      gp_ql_clear (&ql);
      return NULL;
    }
  }
  why = gp_ql_refusal (&ql, binary);
  if (why != NULL) {
    gp_json_error_line (error, GP_SESSION_ERROR_SCHEMA, "%s: %s%s",
        st->origin, into || ql.headers > 0 ? "" : "not a session, a "
        "GStreamer tracer log or a queue-levels CSV: ", why);
  } else if (into != NULL) {
    gp_ql_finish_into (&ql, into);
    s = into;
  } else {
    s = gp_session_new ();
    gp_ql_finish_alone (&ql, s);
  }
  gp_ql_clear (&ql);
  return s;
}

/* @st, opened by the caller, read and freed. */
static GpSession *
gp_ql_read_opened (GpIngestStream * st, GpSession * into, GError ** error)
{
  GpSession *s;

  if (st == NULL)
    return NULL;
  s = gp_ingest_queuelevels_read (st, into, error);
  gp_ingest_stream_free (st);
  return s;
}

GpSession *
gp_ingest_queuelevels_load (const gchar * path, GError ** error)
{
  g_return_val_if_fail (path != NULL, NULL);

  return gp_ql_read_opened (gp_ingest_stream_open (path, error), NULL,
      error);
}

GpSession *
gp_ingest_queuelevels_data (const gchar * data, gsize length,
    const gchar * origin, GError ** error)
{
  g_return_val_if_fail (data != NULL || length == 0, NULL);

  return gp_ql_read_opened (gp_ingest_stream_data (data, length, origin,
          error), NULL, error);
}

gboolean
gp_ingest_queuelevels_merge (GpSession * s, const gchar * path,
    GError ** error)
{
  g_return_val_if_fail (s != NULL && path != NULL, FALSE);

  return gp_ql_read_opened (gp_ingest_stream_open (path, error), s,
      error) != NULL;
}

gboolean
gp_ingest_queuelevels_merge_data (GpSession * s, const gchar * data,
    gsize length, const gchar * origin, GError ** error)
{
  g_return_val_if_fail (s != NULL && (data != NULL || length == 0), FALSE);

  return gp_ql_read_opened (gp_ingest_stream_data (data, length, origin,
          error), s, error) != NULL;
}

gboolean
gp_ingest_queuelevels_sniff_stream (const GpIngestStream * st)
{
  const gchar *p = st->head, *end = st->head + st->n_head;
  gsize n_lines = 0;
  gboolean found = FALSE;

  if (gp_lines_binary (st->head, st->n_head))
    return FALSE;
  if (end - p >= 3 && memcmp (p, "\xef\xbb\xbf", 3) == 0)
    p += 3;
  while (p < end && !found && n_lines < GP_QL_SNIFF_LINES) {
    const gchar *nl = memchr (p, '\n', end - p);
    gsize len;
    GpQlRow row;

    /* a line the peek cut counts only when it is the file's end */
    if (nl == NULL && !st->whole)
      break;
    len = (nl ? nl : end) - p;
    if (len > 0 && p[len - 1] == '\r')
      len--;
    if (len > 0) {
      n_lines++;
      found = gp_ql_is_header (p, len) || gp_ql_parse (p, len, &row) == NULL;
    }
    p = nl ? nl + 1 : end;
  }
  return found;
}

gboolean
gp_ingest_queuelevels_sniff (const gchar * path)
{
  return gp_ingest_stream_sniff (path, gp_ingest_queuelevels_sniff_stream);
}
