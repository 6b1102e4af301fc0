/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-density.c: the streams of a density step and what hit the wall
 * (gp-density.h).
 */
#include "gp-density.h"

#include <math.h>
#include <string.h>

#include "core/gp-session-query.h"
#include "rules/gp-rules.h"

gboolean
gp_density_is_template (const gchar * template_)
{
  return strstr (template_, "{n}") != NULL ||
      strstr (template_, "{each}") != NULL;
}

/* @text with {n} as @n and {k} as @k (k < 0: left as it is) */
static void
gp_density_put (GString * out, const gchar * text, gsize len, guint n,
    gint k)
{
  const gchar *at = text, *end = text + len;

  while (at < end) {
    if (end - at >= 3 && strncmp (at, "{n}", 3) == 0) {
      g_string_append_printf (out, "%u", n);
      at += 3;
    } else if (k >= 0 && end - at >= 3 && strncmp (at, "{k}", 3) == 0) {
      g_string_append_printf (out, "%d", k);
      at += 3;
    } else
      g_string_append_c (out, *at++);
  }
}

/* A placeholder density does not know: "{word}" in lower case (a caps
 * list, "{ I420, NV12 }", is none), other than {n}, {each}, {/each} and
 * {k}, which is only inside an {each}.  FALSE with @error naming it. */
static gboolean
gp_density_check_placeholders (const gchar * template_, GError ** error)
{
  const gchar *at = template_;
  gboolean inside = FALSE;

  while ((at = strchr (at, '{')) != NULL) {
    const gchar *end = at + 1;
    gchar *word;

    while (g_ascii_islower (*end) || *end == '/' || *end == '_')
      end++;
    if (*end != '}' || end == at + 1) {
      at++;
      continue;
    }
    word = g_strndup (at, end + 1 - at);
    if (strcmp (word, "{each}") == 0)
      inside = TRUE;
    else if (strcmp (word, "{/each}") == 0)
      inside = FALSE;
    else if (strcmp (word, "{n}") != 0 &&
        (strcmp (word, "{k}") != 0 || !inside)) {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
          "%s: %s", word, strcmp (word, "{k}") == 0 ?
          "{k} is the copy's number, only inside {each}...{/each}" :
          "not a placeholder (they are {n}, {each}...{/each} and {k} "
          "inside it)");
      g_free (word);
      return FALSE;
    }
    g_free (word);
    at = end + 1;
  }
  return TRUE;
}

gchar *
gp_density_launch (const gchar * template_, guint n, GError ** error)
{
  GString *out;
  const gchar *at = template_, *open, *close;
  guint k;

  if (!gp_density_check_placeholders (template_, error))
    return NULL;
  out = g_string_new (NULL);

  if (!gp_density_is_template (template_)) {
    for (k = 0; k < n; k++)
      g_string_append_printf (out, "%sbin.( name=s%u %s )", k ? " " : "",
          k, template_);
    return g_string_free (out, FALSE);
  }
  while ((open = strstr (at, "{each}")) != NULL) {
    close = strstr (open, "{/each}");
    if (g_strstr_len (at, open - at, "{/each}") != NULL) {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
          "a {/each} without its {each}");
      g_string_free (out, TRUE);
      return NULL;
    }
    if (close == NULL || g_strstr_len (open + 6, close - open - 6,
            "{each}") != NULL) {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
          "a {each} without its {/each} (or one inside another)");
      g_string_free (out, TRUE);
      return NULL;
    }
    gp_density_put (out, at, open - at, n, -1);
    for (k = 0; k < n; k++) {
      g_string_append_c (out, ' ');
      gp_density_put (out, open + 6, close - open - 6, n, (gint) k);
    }
    g_string_append_c (out, ' ');
    at = close + 7;
  }
  if (strstr (at, "{/each}") != NULL) {
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
        "a {/each} without its {each}");
    g_string_free (out, TRUE);
    return NULL;
  }
  gp_density_put (out, at, strlen (at), n, -1);
  return g_string_free (out, FALSE);
}

static gint
gp_density_dcmp (gconstpointer x, gconstpointer y)
{
  gdouble a = *(const gdouble *) x, b = *(const gdouble *) y;

  return a < b ? -1 : a > b;
}

/* The copy "sK" @name is in: K, or -1. */
static gint
gp_density_copy_of (GpSession * s, const gchar * name)
{
  GpElement *e = gp_session_find_element (s, name);
  guint depth;

  for (depth = 0; e && depth < 64; depth++) {
    const gchar *base = strrchr (e->name, '/');
    gchar *end;
    guint64 k;

    base = base ? base + 1 : e->name;
    if (base[0] == 's' && g_ascii_isdigit (base[1])) {
      k = g_ascii_strtoull (base + 1, &end, 10);
      if (*end == '\0' && e->is_bin && k < G_MAXINT)
        return (gint) k;
    }
    if (e->parent == NULL || *e->parent == '\0')
      break;
    e = gp_session_find_element (s, e->parent);
  }
  return -1;
}

/* copies: each bin's slowest sink */
static GArray *
gp_density_copies_fps (GpSession * s, guint n, GError ** error)
{
  GArray *fps = g_array_new (FALSE, FALSE, sizeof (gdouble));
  gdouble *slowest = g_new (gdouble, n);
  guint i;

  for (i = 0; i < n; i++)
    slowest[i] = INFINITY;
  for (i = 0; i < s->sinks->len; i++) {
    GpSinkSummary *k = g_ptr_array_index (s->sinks, i);
    gint copy = gp_density_copy_of (s, k->name);

    if (copy >= 0 && (guint) copy < n)
      slowest[copy] = MIN (slowest[copy], MAX (k->fps, 0));
  }
  for (i = 0; i < n; i++) {
    /* a copy whose sinks never had a steady rate held nothing */
    gdouble v = isinf (slowest[i]) ? 0 : slowest[i];

    g_array_append_val (fps, v);
  }
  g_free (slowest);
  g_array_sort (fps, gp_density_dcmp);
  return fps;
}

/* The links into @element's sink pads, or NULL. */
static GPtrArray *
gp_density_links_into (GpSession * s, const gchar * element)
{
  GPtrArray *in = g_ptr_array_new ();
  guint i;

  for (i = 0; i < s->links->len; i++) {
    GpLink *l = g_ptr_array_index (s->links, i);
    const gchar *dot = strrchr (l->sink, '.');

    if (dot && (gsize) (dot - l->sink) == strlen (element) &&
        strncmp (l->sink, element, dot - l->sink) == 0)
      g_ptr_array_add (in, l);
  }
  return in;
}

/* a template of fewer sinks: the @n inputs of the one element with n or
 * more */
static GArray *
gp_density_inputs_fps (GpSession * s, guint n, GError ** error)
{
  GArray *fps = NULL;
  guint i, j;

  for (i = 0; i < s->elements->len && fps == NULL; i++) {
    GpElement *e = g_ptr_array_index (s->elements, i);
    GPtrArray *in;

    if (e->is_bin)
      continue;
    in = gp_density_links_into (s, e->name);
    if (in->len >= n && n > 1) {
      fps = g_array_new (FALSE, FALSE, sizeof (gdouble));
      for (j = 0; j < in->len; j++) {
        GpLink *l = g_ptr_array_index (in, j);
        GpLinkSummary *ls = gp_session_find_link_summary (s, l->id);
        gdouble v = ls && ls->fps > 0 ? ls->fps : 0;

        g_array_append_val (fps, v);
      }
    }
    g_ptr_array_unref (in);
  }
  if (fps == NULL) {
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
        "the pipeline of %u streams has %u sinks and no element that "
        "takes %u inputs: its streams cannot be told apart", n,
        s->sinks->len, n);
    return NULL;
  }
  g_array_sort (fps, gp_density_dcmp);
  return fps;
}

GArray *
gp_density_stream_fps (GpSession * s, guint n, gboolean copies,
    GError ** error)
{
  GArray *fps;
  guint i;

  if (copies)
    return gp_density_copies_fps (s, n, error);
  if (s->sinks->len < n)
    return gp_density_inputs_fps (s, n, error);
  fps = g_array_new (FALSE, FALSE, sizeof (gdouble));
  for (i = 0; i < s->sinks->len; i++) {
    GpSinkSummary *k = g_ptr_array_index (s->sinks, i);
    gdouble v = MAX (k->fps, 0);

    g_array_append_val (fps, v);
  }
  g_array_sort (fps, gp_density_dcmp);
  return fps;
}

gdouble
gp_density_target_fps (GpSession * s)
{
  gdouble target = -1;
  guint i;

  for (i = 0; i < s->sinks->len; i++) {
    GpSinkSummary *k = g_ptr_array_index (s->sinks, i);
    gdouble t = gp_session_sink_target_fps (s, k->name);

    if (t > 0 && (target < 0 || t < target))
      target = t;
  }
  return target;
}

/* the machine's own rules and the saturated thread's (docs/rules.md) */
static gboolean
gp_density_wall_rule (const gchar * rule)
{
  static const gchar *const rules[] = {
    "CPU", "HW", "MEMBW", "THERMAL", "CPUIO", NULL
  };
  guint i;

  for (i = 0; rules[i]; i++)
    if (g_strcmp0 (rule, rules[i]) == 0)
      return TRUE;
  return FALSE;
}

gchar **
gp_density_wall (GpSession * s)
{
  GPtrArray *lines = g_ptr_array_new ();
  GpThreadSummary *t = gp_session_limiting_thread (s, NULL);
  gdouble busy = t ? gp_session_thread_busy_pct (s, t) : -1;
  GpPlayingSpan span;
  guint i;

  /* an element of one input takes its buffers one at a time on that
   * pad's stream lock, whatever threads bring them (a funnel's streams
   * after it): one working the whole run has no room for another stream */
  gp_session_playing_span (s, &span);
  for (i = 0; span.t1 > span.t0 && i < s->elem_summaries->len; i++) {
    GpElementSummary *e = g_ptr_array_index (s->elem_summaries, i);
    gdouble work = gp_session_work_ms (s, e);
    GPtrArray *in;
    gdouble pct = 100 * work / (1000 * (span.t1 - span.t0));

    if (pct < GP_DENSITY_THREAD_FULL_PCT || gp_session_is_queue (s,
            e->name))
      continue;
    in = gp_density_links_into (s, e->name);
    if (in->len <= 1)
      g_ptr_array_add (lines, g_strdup_printf ("an element is full: %s "
              "works %.0f%% of the run, one buffer at a time (self p50 "
              "%.2f ms a buffer)", e->name, MIN (pct, 100), e->self_ms.p50));
    g_ptr_array_unref (in);
  }
  if (busy >= GP_DENSITY_THREAD_FULL_PCT) {
    GpElementSummary *e = gp_session_hottest_on_thread (s, t);

    g_ptr_array_add (lines, e ? g_strdup_printf ("a streaming thread is "
            "full: %s busy %.0f%% of the run, most of it in %s (self p50 "
            "%.2f ms)", t->name, busy, e->name, e->self_ms.p50) :
        g_strdup_printf ("a streaming thread is full: %s busy %.0f%% of "
            "the run", t->name, busy));
  }
  if (s->process.measured && s->process.n_cpus > 0 &&
      s->process.cpu_pct_mean >= GP_DENSITY_CORES_FULL_SHARE * 100 *
      s->process.n_cpus)
    g_ptr_array_add (lines, g_strdup_printf ("every core is busy: the "
            "process used %.0f%% of %d cores", s->process.cpu_pct_mean,
            s->process.n_cpus));
  for (i = 0; i < s->findings->len; i++) {
    GpFinding *f = g_ptr_array_index (s->findings, i);

    if (gp_density_wall_rule (f->rule))
      g_ptr_array_add (lines, g_strdup_printf ("%s [%s]: %s", f->rule,
              f->severity, f->title));
  }
  if (lines->len == 0)
    g_ptr_array_add (lines, g_strdup ("nothing saturated was seen (no "
            "streaming thread full, cores free, no machine rule): look at "
            "the sources' and sinks' own pacing"));
  g_ptr_array_add (lines, NULL);
  return (gchar **) g_ptr_array_free (lines, FALSE);
}
