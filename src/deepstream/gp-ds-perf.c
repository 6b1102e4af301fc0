/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-ds-perf.c: DeepStream's **PERF and latency lines (gp-ds-perf.h).
 */
#include "gp-ds-perf.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gstdio.h>

#include "core/gp-lines.h"
#include "core/gp-stats.h"

G_DEFINE_QUARK (gp-ds-perf-error-quark, gp_ds_perf_error)

/* Longer lines are no perf monitor's: 64 sources of "9999.99 (9999.99)\t"
 * are 1.2 kB, a dict of them 1.5 kB. */
#define GP_DS_PERF_MAX_LINE 65536

/* More sources than any muxer batches (nvstreammux takes up to 1024 pads):
 * a line naming more is damaged. */
#define GP_DS_PERF_MAX_SOURCES 1024

/* A rate or latency above this is no measurement (a corrupted digit run):
 * 1e7 fps or ms. */
#define GP_DS_PERF_MAX_VALUE 1e7

/* The log is read this much at a time: memory holds a block and the
 * longest line, never the file. */
#define GP_DS_PERF_BLOCK 65536

typedef struct
{
  GpDsPerf *p;
  GHashTable *by_source;        /* name -> GpDsPerfSource* (borrowed) */
  GHashTable *by_comp;          /* name -> GpDsPerfLatency* (borrowed) */
  const gchar *origin;
  guint line;
  GpLines *lines;               /* the log cut into lines */
  GError *error;                /* a read's, or the binary test's */
} GpDsPerfParse;

static void
gp_ds_perf_source_free (gpointer data)
{
  GpDsPerfSource *s = data;

  g_free (s->name);
  g_array_unref (s->current);
  g_array_unref (s->average);
  g_free (s);
}

static void
gp_ds_perf_latency_free (gpointer data)
{
  GpDsPerfLatency *l = data;

  g_free (l->name);
  g_array_unref (l->ms);
  g_free (l);
}

void
gp_ds_perf_free (GpDsPerf * p)
{
  if (p == NULL)
    return;
  g_ptr_array_unref (p->sources);
  g_ptr_array_unref (p->latency);
  gp_lines_skips_clear (&p->damaged);
  g_free (p);
}

static gboolean
gp_ds_perf_fail (GpDsPerfParse * ps, GError ** error, const gchar * what)
{
  g_set_error (error, GP_DS_PERF_ERROR, GP_DS_PERF_ERROR_PARSE, "%s:%u: %s",
      ps->origin, ps->line, what);
  return FALSE;
}

/* A number at *@at (spaces before it skipped), finite, 0 to the bound
 * (@signed_ok: negative too, as a latency across two clocks may be). */
static gboolean
gp_ds_perf_number (const gchar ** at, gboolean signed_ok, gdouble * out)
{
  const gchar *s = *at;
  gchar *end;
  gdouble v;

  while (*s == ' ' || *s == '\t')
    s++;
  if (!(g_ascii_isdigit (*s) || *s == '.' || (signed_ok && *s == '-')))
    return FALSE;
  v = g_ascii_strtod (s, &end);
  if (end == s || !isfinite (v) || fabs (v) > GP_DS_PERF_MAX_VALUE ||
      (!signed_ok && v < 0))
    return FALSE;
  *out = v;
  *at = end;
  return TRUE;
}

static GpDsPerfSource *
gp_ds_perf_source (GpDsPerfParse * ps, const gchar * name)
{
  GpDsPerfSource *s = g_hash_table_lookup (ps->by_source, name);

  if (s == NULL) {
    s = g_new0 (GpDsPerfSource, 1);
    s->name = g_strdup (name);
    s->current = g_array_new (FALSE, FALSE, sizeof (gdouble));
    s->average = g_array_new (FALSE, FALSE, sizeof (gdouble));
    g_ptr_array_add (ps->p->sources, s);
    g_hash_table_insert (ps->by_source, s->name, s);
  }
  return s;
}

static void
gp_ds_perf_add_rate (GpDsPerfParse * ps, const gchar * name, gdouble cur,
    gdouble avg)
{
  GpDsPerfSource *s = gp_ds_perf_source (ps, name);

  g_array_append_val (s->current, cur);
  g_array_append_val (s->average, avg);
}

/* `{'stream0': 30.0, 'stream1': 29.9}` (quotes ' or "). */
static gboolean
gp_ds_perf_dict (GpDsPerfParse * ps, const gchar * s, const gchar * prefix,
    GError ** error)
{
  guint n = 0;

  s++;                          /* '{' */
  for (;;) {
    const gchar *name, *close;
    gchar quote, *key;
    gdouble v;

    while (*s == ' ' || *s == '\t')
      s++;
    if (*s == '}')
      break;
    if (*s != '\'' && *s != '"')
      return gp_ds_perf_fail (ps, error, "**PERF dict: a quoted source "
          "name expected");
    quote = *s++;
    name = s;
    close = strchr (name, quote);
    if (close == NULL || close == name)
      return gp_ds_perf_fail (ps, error, "**PERF dict: a source name "
          "not closed");
    s = close + 1;
    while (*s == ' ')
      s++;
    if (*s++ != ':')
      return gp_ds_perf_fail (ps, error, "**PERF dict: ':' expected after "
          "a source name");
    if (!gp_ds_perf_number (&s, FALSE, &v))
      return gp_ds_perf_fail (ps, error, "**PERF dict: a source's fps is "
          "not a number of 0 or more");
    if (++n > GP_DS_PERF_MAX_SOURCES)
      return gp_ds_perf_fail (ps, error, "**PERF: more sources than a "
          "muxer takes");
    key = g_strdup_printf ("%s%.*s", prefix, (gint) (close - name), name);
    gp_ds_perf_add_rate (ps, key, v, NAN);
    g_free (key);
    while (*s == ' ')
      s++;
    if (*s == ',')
      s++;
    else if (*s != '}')
      return gp_ds_perf_fail (ps, error, "**PERF dict: ',' or '}' expected");
  }
  /* `{}`: before any source was added, a report of nothing */
  if (n > 0)
    ps->p->reports++;
  return TRUE;
}

/* `30.01 (29.95)<TAB>29.98 (29.90)<TAB>`: source i is the i-th pair. */
static gboolean
gp_ds_perf_pairs (GpDsPerfParse * ps, const gchar * s, const gchar * prefix,
    GError ** error)
{
  guint i = 0;

  for (;;) {
    gdouble cur, avg;
    gchar *key;

    while (*s == ' ' || *s == '\t' || *s == '\r')
      s++;
    if (*s == '\0')
      break;
    if (!gp_ds_perf_number (&s, FALSE, &cur))
      return gp_ds_perf_fail (ps, error, "**PERF: a source's fps is not a "
          "number of 0 or more");
    while (*s == ' ')
      s++;
    if (*s++ != '(' || !gp_ds_perf_number (&s, FALSE, &avg) || *s++ != ')')
      return gp_ds_perf_fail (ps, error, "**PERF: '(average)' expected "
          "after a source's fps");
    if (i >= GP_DS_PERF_MAX_SOURCES)
      return gp_ds_perf_fail (ps, error, "**PERF: more sources than a "
          "muxer takes");
    key = g_strdup_printf ("%s%u", prefix, i++);
    gp_ds_perf_add_rate (ps, key, cur, avg);
    g_free (key);
  }
  if (i == 0)
    return gp_ds_perf_fail (ps, error, "**PERF: no source's fps");
  ps->p->reports++;
  return TRUE;
}

/* From just after "**PERF": ":" or "(<instance>):", then the header, the
 * dict or the pairs. */
static gboolean
gp_ds_perf_perf_line (GpDsPerfParse * ps, const gchar * s, GError ** error)
{
  gchar prefix[24] = "";

  if (*s == '(') {
    gchar *end;
    guint64 inst = g_ascii_strtoull (s + 1, &end, 10);

    if (end == s + 1 || *end != ')' || inst > G_MAXUINT)
      return gp_ds_perf_fail (ps, error, "**PERF(<instance>): the instance "
          "is not a number");
    g_snprintf (prefix, sizeof prefix, "%u:", (guint) inst);
    s = end + 1;
  }
  if (*s++ != ':')
    return gp_ds_perf_fail (ps, error, "**PERF: ':' expected");
  while (*s == ' ' || *s == '\t')
    s++;
  if (g_str_has_prefix (s, "FPS "))
    return TRUE;                /* the header the app repeats */
  if (*s == '{')
    return gp_ds_perf_dict (ps, s, prefix, error);
  return gp_ds_perf_pairs (ps, s, prefix, error);
}

static void
gp_ds_perf_add_latency (GpDsPerfParse * ps, const gchar * name, gdouble ms)
{
  GpDsPerfLatency *l = g_hash_table_lookup (ps->by_comp, name);

  if (l == NULL) {
    l = g_new0 (GpDsPerfLatency, 1);
    l->name = g_strdup (name);
    l->ms = g_array_new (FALSE, FALSE, sizeof (gdouble));
    g_ptr_array_add (ps->p->latency, l);
    g_hash_table_insert (ps->by_comp, l->name, l);
  }
  g_array_append_val (l->ms, ms);
}

/* The value after the last "latency" key of @s: "latency= 12.3",
 * "latency = 12.3". */
static gboolean
gp_ds_perf_latency_value (const gchar * s, gdouble * ms)
{
  const gchar *key = NULL, *at;

  for (at = strstr (s, "latency"); at; at = strstr (at + 1, "latency"))
    key = at;
  if (key == NULL)
    return FALSE;
  key += strlen ("latency");
  while (*key == ' ')
    key++;
  if (*key++ != '=')
    return FALSE;
  return gp_ds_perf_number (&key, TRUE, ms);
}

/* `Comp name = NAME ... latency= MS` */
static gboolean
gp_ds_perf_comp_line (GpDsPerfParse * ps, const gchar * s, GError ** error)
{
  const gchar *end;
  gchar *name;
  gdouble ms;

  s += strlen ("Comp name = ");
  for (end = s; *end && *end != ' ' && *end != '\t'; end++);
  if (end == s)
    return gp_ds_perf_fail (ps, error, "Comp name: no component name");
  if (!gp_ds_perf_latency_value (end, &ms))
    return gp_ds_perf_fail (ps, error, "Comp name: no 'latency= <ms>' "
        "that reads as a number");
  name = g_strndup (s, end - s);
  gp_ds_perf_add_latency (ps, name, ms);
  g_free (name);
  return TRUE;
}

/* `Source id = S Frame_num = N Frame latency = MS (ms)` */
static gboolean
gp_ds_perf_frame_line (GpDsPerfParse * ps, const gchar * s, GError ** error)
{
  gchar *end, *name;
  guint64 src;
  gdouble ms;

  s += strlen ("Source id = ");
  src = g_ascii_strtoull (s, &end, 10);
  if (end == s || src > G_MAXUINT)
    return gp_ds_perf_fail (ps, error, "Frame latency: the source id is "
        "not a number");
  if (!gp_ds_perf_latency_value (end, &ms))
    return gp_ds_perf_fail (ps, error, "Frame latency: no 'latency = <ms>' "
        "that reads as a number");
  name = g_strdup_printf ("frame (source %u)", (guint) src);
  gp_ds_perf_add_latency (ps, name, ms);
  g_free (name);
  return TRUE;
}

static gboolean
gp_ds_perf_line (GpDsPerfParse * ps, const gchar * line, GError ** error)
{
  const gchar *at;

  if ((at = strstr (line, "**PERF")) != NULL)
    return gp_ds_perf_perf_line (ps, at + strlen ("**PERF"), error);
  if ((at = strstr (line, "Comp name = ")) != NULL)
    return gp_ds_perf_comp_line (ps, at, error);
  if ((at = strstr (line, "Source id = ")) != NULL
      && strstr (at, "Frame latency") != NULL)
    return gp_ds_perf_frame_line (ps, at, error);
  return TRUE;
}

static void
gp_ds_perf_summarise (GpDsPerfLatency * l)
{
  GpSummary s;

  gp_summary_of (l->ms, &s);
  l->mean = s.mean;
  l->p50 = s.p50;
  l->p95 = s.p95;
  l->max = s.max;
}

/* One line of the log (gp-lines.h): a line too long for any monitor's is
 * skipped, a last line cut short that does not read is left out (both
 * counted in GpDsPerf.skipped), a damaged one skipped and counted in
 * GpDsPerf.damaged. */
static gboolean
gp_ds_perf_on_line (const gchar * text, gsize length, GpLineFlags flags,
    gpointer user_data)
{
  GpDsPerfParse *ps = user_data;
  GError *err = NULL;
  gchar *line;
  gboolean ok;

  ps->line++;
  if (flags & GP_LINE_LONG) {
    ps->p->skipped++;
    return TRUE;
  }
  /* a NUL past the binary test's reach ends the line's text there */
  line = g_strndup (text, length);
  ok = gp_ds_perf_line (ps, line, &err);
  g_free (line);
  if (!ok && (flags & GP_LINE_CUT))
    ps->p->skipped++;
  else if (!ok)
    gp_lines_skip (&ps->p->damaged, err->message);
  g_clear_error (&err);
  return TRUE;
}

static void
gp_ds_perf_begin (GpDsPerfParse * ps, const gchar * origin)
{
  ps->p = g_new0 (GpDsPerf, 1);
  ps->p->sources = g_ptr_array_new_with_free_func (gp_ds_perf_source_free);
  ps->p->latency = g_ptr_array_new_with_free_func (gp_ds_perf_latency_free);
  ps->by_source = g_hash_table_new (g_str_hash, g_str_equal);
  ps->by_comp = g_hash_table_new (g_str_hash, g_str_equal);
  ps->origin = origin;
  ps->lines = gp_lines_new (GP_DS_PERF_MAX_LINE, gp_ds_perf_on_line, ps);
}

/* The log ended (@ok: no error before): its summaries, or NULL with the
 * first error. */
static GpDsPerf *
gp_ds_perf_end (GpDsPerfParse * ps, gboolean ok, GError ** error)
{
  guint i;

  if (ok)
    gp_lines_finish (ps->lines);
  gp_lines_free (ps->lines);
  ps->p->lines = ps->line;
  ps->p->damaged.lines = ps->line;
  g_hash_table_unref (ps->by_source);
  g_hash_table_unref (ps->by_comp);
  if (ps->error != NULL) {
    g_propagate_error (error, ps->error);
    ok = FALSE;
  } else if (ok && ps->p->reports == 0 && ps->p->latency->len == 0 &&
      ps->p->damaged.first != NULL) {
    g_set_error (error, GP_DS_PERF_ERROR, GP_DS_PERF_ERROR_PARSE, "%s",
        ps->p->damaged.first);
    ok = FALSE;
  } else if (ok && ps->p->reports == 0 && ps->p->latency->len == 0) {
    g_set_error (error, GP_DS_PERF_ERROR, GP_DS_PERF_ERROR_PARSE,
        "%s: no **PERF or latency line among its %u lines", ps->origin,
        ps->p->lines);
    ok = FALSE;
  }
  if (!ok) {
    gp_ds_perf_free (ps->p);
    return NULL;
  }
  for (i = 0; i < ps->p->latency->len; i++)
    gp_ds_perf_summarise (g_ptr_array_index (ps->p->latency, i));
  return ps->p;
}

static gboolean
gp_ds_perf_binary (const gchar * data, gsize len, const gchar * origin,
    GError ** error)
{
  if (!gp_lines_binary (data, len))
    return FALSE;
  g_set_error (error, GP_DS_PERF_ERROR, GP_DS_PERF_ERROR_PARSE,
      "%s: binary data, not a DeepStream application's log", origin);
  return TRUE;
}

GpDsPerf *
gp_ds_perf_parse (const gchar * data, gsize len, const gchar * origin,
    GError ** error)
{
  GpDsPerfParse ps = { 0 };

  if (gp_ds_perf_binary (data, len, origin, error))
    return NULL;
  gp_ds_perf_begin (&ps, origin);
  gp_lines_feed (ps.lines, data, len);
  return gp_ds_perf_end (&ps, TRUE, error);
}

GpDsPerf *
gp_ds_perf_load (const gchar * path, GError ** error)
{
  GpDsPerfParse ps = { 0 };
  gchar *block;
  gsize n;
  gboolean first = TRUE, ok = TRUE;
  FILE *f;

  f = g_fopen (path, "rb");
  if (f == NULL) {
    int err = errno;

    g_set_error (error, GP_DS_PERF_ERROR, GP_DS_PERF_ERROR_IO,
        "%s: cannot read: %s", path, g_strerror (err));
    return NULL;
  }
  /* read a block at a time: the log is never held whole, whatever its
   * size (an application's log can run to gigabytes) */
  block = g_malloc (GP_DS_PERF_BLOCK);
  gp_ds_perf_begin (&ps, path);
  while (ok && (n = fread (block, 1, GP_DS_PERF_BLOCK, f)) > 0) {
    if (first && gp_ds_perf_binary (block, n, path, &ps.error))
      ok = FALSE;
    first = FALSE;
    ok = ok && gp_lines_feed (ps.lines, block, n);
  }
  if (ok && ferror (f)) {
    int err = errno ? errno : EIO;

    g_set_error (&ps.error, GP_DS_PERF_ERROR, GP_DS_PERF_ERROR_IO,
        "%s: cannot read: %s", path, g_strerror (err));
    ok = FALSE;
  }
  fclose (f);
  g_free (block);
  return gp_ds_perf_end (&ps, ok, error);
}

gdouble
gp_ds_perf_source_steady (const GpDsPerfSource * s)
{
  gdouble sum = 0;
  guint i, n = 0;
  gboolean started = FALSE;

  for (i = 0; i < s->current->len; i++) {
    gdouble v = g_array_index (s->current, gdouble, i);

    started = started || v > 0;
    if (started) {
      sum += v;
      n++;
    }
  }
  return n ? sum / n : NAN;
}

gchar *
gp_ds_perf_table (const GpDsPerf * p)
{
  GString *out = g_string_new (NULL);
  gdouble total = 0;
  guint i;
  gchar *damaged = gp_lines_skips_text (&p->damaged);

  if (damaged != NULL)
    g_string_append_printf (out, "%s\n", damaged);
  g_free (damaged);
  if (p->skipped > 0)
    g_string_append_printf (out, "%u of %u lines skipped (longer than %u "
        "bytes, or the last cut short and unreadable)\n", p->skipped,
        p->lines, GP_DS_PERF_MAX_LINE);
  if (p->sources->len > 0) {
    g_string_append_printf (out, "fps per source (%u reports)\n"
        "  %-16s %8s %8s %8s %8s %10s\n", p->reports, "source", "reports",
        "steady", "min", "max", "app avg");
    for (i = 0; i < p->sources->len; i++) {
      const GpDsPerfSource *s = g_ptr_array_index (p->sources, i);
      gdouble lo = INFINITY, hi = -INFINITY, steady, avg;
      guint k;

      for (k = 0; k < s->current->len; k++) {
        gdouble v = g_array_index (s->current, gdouble, k);

        lo = MIN (lo, v);
        hi = MAX (hi, v);
      }
      steady = gp_ds_perf_source_steady (s);
      avg = g_array_index (s->average, gdouble, s->average->len - 1);
      if (!isnan (steady))
        total += steady;
      g_string_append_printf (out, "  %-16s %8u %8.2f %8.2f %8.2f ", s->name,
          s->current->len, steady, lo, hi);
      if (isnan (avg))
        g_string_append_printf (out, "%10s\n", "-");
    else
        g_string_append_printf (out, "%10.2f\n", avg);
    }
    g_string_append_printf (out, "  %-16s %8s %8.2f\n", "all", "", total);
    g_string_append (out, "  steady: the mean after the first report "
        "above 0\n  app avg: the app's last running average\n");
  }
  if (p->latency->len > 0) {
    g_string_append_printf (out, "%slatency per component (ms)\n"
        "  %-28s %8s %9s %9s %9s %9s\n", p->sources->len ? "\n" : "",
        "component", "count", "mean", "p50", "p95", "max");
    for (i = 0; i < p->latency->len; i++) {
      const GpDsPerfLatency *l = g_ptr_array_index (p->latency, i);

      g_string_append_printf (out, "  %-28s %8u %9.3f %9.3f %9.3f %9.3f\n",
          l->name, l->ms->len, l->mean, l->p50, l->p95, l->max);
    }
  }
  return g_string_free (out, FALSE);
}
