/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-page-tables.c: the page's tables, as text cells both writers show
 * alike: the session's elements, links, queues, paths and threads (the
 * whole-run summary), and the machine: its series (mean, max, limit), its
 * samplers, the diagnosis (the machine rules' findings) and the roofline's
 * points. A number the session does not know is "-".
 */
#include "gp-page-private.h"
#include "core/gp-caps.h"

#include <math.h>
#include <string.h>

/* the machine rules, whose findings say which wall the work hit */
static const struct
{
  const gchar *rule;
  const gchar *bound;
} gp_page_walls[] = {
  {"HW", "compute-bound (an engine saturated)"},
  {"MEMBW", "memory-bound"},
  {"THERMAL", "thermal-bound"},
  {"CPUIO", "CPU- or IO-bound (the accelerator waits)"},
};

void
gp_page_table_free (gpointer data)
{
  GpPageTable *t = data;

  g_free (t->id);
  g_free (t->title);
  g_strfreev (t->columns);
  g_ptr_array_unref (t->rows);
  g_free (t->note);
  g_free (t);
}

GpPageTable *
gp_page_find_table (const GpPage * p, const gchar * id)
{
  guint i;

  for (i = 0; i < p->tables->len; i++) {
    GpPageTable *t = g_ptr_array_index (p->tables, i);

    if (strcmp (t->id, id) == 0)
      return t;
  }
  return NULL;
}

/* A new table of @p; @columns separated by '|'. */
static GpPageTable *
gp_page_table (GpPage * p, const gchar * id, const gchar * title,
    const gchar * columns)
{
  GpPageTable *t = g_new0 (GpPageTable, 1);

  t->id = g_strdup (id);
  t->title = g_strdup (title);
  t->columns = g_strsplit (columns, "|", -1);
  t->rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  g_ptr_array_add (p->tables, t);
  return t;
}

/* A row of cells, each a new string (taken). */
static void
gp_page_row (GpPageTable * t, ...)
{
  guint n = g_strv_length (t->columns), i;
  gchar **row = g_new0 (gchar *, n + 1);
  va_list ap;

  va_start (ap, t);
  for (i = 0; i < n; i++) {
    gchar *cell = va_arg (ap, gchar *);

    row[i] = cell ? cell : g_strdup ("");
  }
  va_end (ap);
  g_ptr_array_add (t->rows, row);
}

/* @v with @digits decimals, "-" when not known (negative or NAN) */
static gchar *
gp_page_num (gdouble v, gint digits)
{
  if (isnan (v) || v < 0)
    return g_strdup ("-");
  return g_strdup_printf ("%.*f", digits, v);
}

/* a machine's value, which may be below 0 (a temperature): "-" only when
 * NAN */
static gchar *
gp_page_value (gdouble v)
{
  return isnan (v) ? g_strdup ("-") : g_strdup_printf ("%.1f", v);
}

static gchar *
gp_page_count (guint64 v)
{
  return g_strdup_printf ("%" G_GUINT64_FORMAT, v);
}

static gchar *
gp_page_join (GPtrArray * names)
{
  GString *out = g_string_new (NULL);
  guint i;

  for (i = 0; names && i < names->len; i++)
    g_string_append_printf (out, "%s%s", i ? ", " : "",
        (const gchar *) g_ptr_array_index (names, i));
  return g_string_free (out, FALSE);
}

static void
gp_page_elements (GpPage * p)
{
  GpSession *s = p->s;
  GpPageTable *t;
  guint i;

  if (s->elem_summaries->len == 0)
    return;
  t = gp_page_table (p, "elements", "Elements (self time: work only, "
      "downstream and waiting excluded)", "element|factory|share %|"
      "self p50 ms|self p95 ms|self p99 ms|buffers|wait p50 ms|busy %|"
      "threads");
  for (i = 0; i < s->elem_summaries->len; i++) {
    GpElementSummary *es = g_ptr_array_index (s->elem_summaries, i);
    GpElement *e = gp_session_find_element (s, es->name);

    gp_page_row (t, g_strdup (es->name), g_strdup (e ? e->factory : ""),
        gp_page_num (es->share_pct, 1), gp_page_num (es->self_ms.p50, 3),
        gp_page_num (es->self_ms.p95, 3), gp_page_num (es->self_ms.p99, 3),
        gp_page_count (es->buffers), gp_page_num (es->wait_ms.p50, 3),
        gp_page_num (es->busy_pct, 1), gp_page_join (es->threads));
  }
}

static void
gp_page_links (GpPage * p)
{
  GpSession *s = p->s;
  GpPageTable *t;
  guint i;

  if (s->links->len == 0)
    return;
  t = gp_page_table (p, "links", "Links (steady state)", "link|caps|memory|"
      "buffers/s|MB/s|buffers");
  for (i = 0; i < s->links->len; i++) {
    GpLink *l = g_ptr_array_index (s->links, i);
    GpLinkSummary *ls = gp_session_find_link_summary (s, l->id);

    gp_page_row (t, g_strdup (l->id), l->caps ? gp_caps_brief (l->caps) :
        NULL, g_strdup (l->memory), gp_page_num (ls ? ls->fps : -1, 2),
        gp_page_num (ls ? ls->bytes_per_s / 1e6 : -1, 3),
        ls ? gp_page_count (ls->buffers) : g_strdup ("-"));
  }
}

static void
gp_page_queues (GpPage * p)
{
  GpSession *s = p->s;
  GpPageTable *t;
  guint i;

  if (s->queue_summaries->len == 0)
    return;
  t = gp_page_table (p, "queues", "Queues", "queue|residence p50 ms|"
      "residence p95 ms|level mean %|level max %|max buffers|dropped|leaky|"
      "upstream blocked ms");
  for (i = 0; i < s->queue_summaries->len; i++) {
    GpQueueSummary *q = g_ptr_array_index (s->queue_summaries, i);

    gp_page_row (t, g_strdup (q->name), gp_page_num (q->residence_ms.p50, 3),
        gp_page_num (q->residence_ms.p95, 3),
        gp_page_num (q->level_pct_mean, 1), gp_page_num (q->level_pct_max, 1),
        gp_page_count (q->level_buffers_max), gp_page_count (q->dropped),
        g_strdup (q->leaky), gp_page_num (q->blocked_ms, 1));
  }
}

static void
gp_page_paths (GpPage * p)
{
  GpSession *s = p->s;
  GpPageTable *t;
  GString *note;
  guint i;

  if (s->paths->len == 0)
    return;
  t = gp_page_table (p, "paths", "Latency paths (source to sink input)",
      "from|to|p50 ms|p95 ms|p99 ms|start-up max ms|matched|unmatched");
  note = g_string_new ("over the steady state, a path's first second (its "
      "start-up) and the drain left out; start-up max '-': over the whole "
      "run");
  if (s->frame_period_ms > 0)
    g_string_append_printf (note, "; the frame period: %.1f ms",
        s->frame_period_ms);
  t->note = g_string_free (note, FALSE);
  for (i = 0; i < s->paths->len; i++) {
    GpPath *path = g_ptr_array_index (s->paths, i);

    gp_page_row (t, g_strdup (path->source), g_strdup (path->sink),
        gp_page_num (path->latency_ms.p50, 2),
        gp_page_num (path->latency_ms.p95, 2),
        gp_page_num (path->latency_ms.p99, 2),
        gp_page_num (path->startup_max_ms, 2), gp_page_count (path->matched),
        gp_page_count (path->unmatched));
  }
}

static void
gp_page_threads (GpPage * p)
{
  GpSession *s = p->s;
  GpPageTable *t;
  guint i;

  if (s->threads->len == 0)
    return;
  t = gp_page_table (p, "threads", "Threads (CPU: % of one core)",
      "thread|kind|CPU mean %|CPU max %|elements|blocked in");
  for (i = 0; i < s->threads->len; i++) {
    GpThreadSummary *th = g_ptr_array_index (s->threads, i);

    gp_page_row (t, g_strdup (th->name), g_strdup (th->worker ? "worker" :
            "streaming"), gp_page_num (th->cpu_pct_mean, 1),
        gp_page_num (th->cpu_pct_max, 1), gp_page_join (th->elements),
        th->blocked_in ? g_strdup_printf ("%s (%.0f ms)", th->blocked_in,
            th->blocked_ms) : NULL);
  }
}

static void
gp_page_machine (GpPage * p)
{
  GpMachine *m = p->s->machine;
  GpPageTable *t;
  guint i, j;

  if (m == NULL)
    return;
  t = gp_page_table (p, "diagnosis", "Which wall the work hit (the "
      "machine rules)", "bound|finding|evidence");
  t->note = g_strdup ("none of compute, memory, heat or the CPU feeding "
      "the accelerator was found to limit the run");
  for (i = 0; i < p->findings->len; i++) {
    GpPageFinding *pf = g_ptr_array_index (p->findings, i);

    for (j = 0; j < G_N_ELEMENTS (gp_page_walls); j++)
      if (g_strcmp0 (pf->f->rule, gp_page_walls[j].rule) == 0) {
        gp_page_row (t, g_strdup (gp_page_walls[j].bound),
            g_strdup_printf ("[%s] %s: %s", pf->f->severity, pf->f->rule,
                pf->f->title), g_strdup (pf->evidence));
        g_clear_pointer (&t->note, g_free);
      }
  }
  t = gp_page_table (p, "machine", "The machine's series", "series|unit|"
      "mean|max|limit|samples|source");
  for (i = 0; i < m->series->len; i++) {
    GpMachineSeries *ms = g_ptr_array_index (m->series, i);

    gp_page_row (t, g_strdup (ms->name), g_strdup (ms->unit),
        gp_page_value (gp_machine_series_mean (ms, NAN, NAN)),
        gp_page_value (gp_machine_series_max (ms, NAN, NAN)),
        gp_page_value (ms->limit),
        gp_page_count (gp_machine_series_count (ms, NAN, NAN)),
        g_strdup (ms->source));
  }
  t = gp_page_table (p, "samplers", "What sampled it", "source|state|"
      "samples|detail");
  for (i = 0; i < m->sources->len; i++) {
    GpMachineSource *src = g_ptr_array_index (m->sources, i);

    gp_page_row (t, g_strdup (src->name), g_strdup (src->state),
        gp_page_count (src->samples), g_strdup (src->detail));
  }
}

void
gp_page_tables (GpPage * p)
{
  gp_page_elements (p);
  gp_page_links (p);
  gp_page_queues (p);
  gp_page_paths (p);
  gp_page_threads (p);
  gp_page_machine (p);
}

void
gp_page_roofline_table (GpPage * p, const GpRoofline * r)
{
  GpPageTable *t = gp_page_table (p, "roofline", "Roofline placement",
      "point|intensity op/B|achieved|bytes|bound|why");
  guint i;

  t->note = g_strdup_printf ("on %s", r->title);
  for (i = 0; i < r->points->len; i++) {
    const GpRooflinePoint *pt = g_ptr_array_index (r->points, i);

    gp_page_row (t, g_strdup (pt->label), isnan (pt->ai) ? g_strdup ("-") :
        g_strdup_printf ("%.3g", pt->ai), isnan (pt->ops_per_s) ?
        g_strdup ("-") : gp_roofline_format (pt->ops_per_s, "op/s"),
        gp_roofline_format (pt->bytes_per_s, "B/s"),
        g_strdup (pt->bound ? pt->bound : "-"), g_strdup (pt->reason));
  }
}
