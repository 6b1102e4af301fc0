/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * test-metrics.c: gp_metrics_text (src/serve/gp-metrics.h), the
 * Prometheus text of a session, read back by a parser of the test's own
 * that also holds it to the format (text exposition 0.0.4): every sample's
 * family has its TYPE before it, a family's lines are together, a series
 * is written once, counters end in _total, no series carries the labels
 * Prometheus gives a target (job, instance), a summary has its _sum and
 * _count, a histogram's buckets are cumulative with +Inf equal to _count.
 * Where promtool is on PATH (Debian's prometheus package), `promtool check
 * metrics` must find nothing to say either.
 *
 * - a real capture with `identity sleep-time=20000` planted: its self time
 *   (the summary's _sum / _count) within 10 % of the sleep as this machine
 *   gives it, the buffers and bytes the source was told to make, the
 *   planted element named as the limiting one;
 * - label escaping: elements named with a quote, a backslash and a line
 *   feed come back as they were named;
 * - cardinality: a session of more than GP_METRICS_MAX_SERIES elements
 *   keeps that many and folds the rest into "_other", counted in
 *   gstprof_series_folded;
 * - every family gp_metrics_names () lists is written by one of
 *   these sessions, and none other is (the dashboard and the alert rules
 *   are held to that list: test-dashboard).
 */
#include <gst/gst.h>
#include <math.h>
#include <string.h>

#include "capture/gp-capture.h"
#include "serve/gp-metrics.h"
#include "gp-test-clock.h"
#include "gp-test-util.h"

static GpCaptureOptions base_opts;

/* ------------------------------------------------------------------------ */
/* the parser                                                                */

typedef struct
{
  gchar *name;                  /* as written: x_sum, x_count, x */
  gchar *family;                /* its family: x */
  GHashTable *labels;           /* name -> value (unescaped) */
  gchar *key;                   /* the labels, sorted, as one string */
  gdouble value;
} GpMSample;

typedef struct
{
  GHashTable *types;            /* family -> type */
  GPtrArray *samples;           /* GpMSample* */
} GpMText;

static void
gp_msample_free (gpointer p)
{
  GpMSample *m = p;

  g_free (m->name);
  g_free (m->family);
  g_hash_table_unref (m->labels);
  g_free (m->key);
  g_free (m);
}

static void
gp_mtext_free (GpMText * t)
{
  g_hash_table_unref (t->types);
  g_ptr_array_unref (t->samples);
  g_free (t);
}

static gboolean
is_name_start (gchar c)
{
  return g_ascii_isalpha (c) || c == '_' || c == ':';
}

static gboolean
is_name_char (gchar c)
{
  return is_name_start (c) || g_ascii_isdigit (c);
}

static gboolean
valid_metric_name (const gchar * n)
{
  if (!is_name_start (*n))
    return FALSE;
  for (n++; *n; n++)
    if (!is_name_char (*n))
      return FALSE;
  return TRUE;
}

/* A value as Go's ParseFloat reads it (the format's floats). */
static gdouble
parse_value (const gchar * v)
{
  gchar *end;
  gdouble d;

  if (strcmp (v, "NaN") == 0)
    return NAN;
  if (strcmp (v, "+Inf") == 0)
    return INFINITY;
  if (strcmp (v, "-Inf") == 0)
    return -INFINITY;
  d = g_ascii_strtod (v, &end);
  if (end == v || *end != '\0')
    g_error ("not a value: '%s'", v);
  return d;
}

static gdouble *
dup_double (gdouble v)
{
  gdouble *d = g_new (gdouble, 1);

  *d = v;
  return d;
}

static gint
cmp_str (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const gchar * const *) a, *(const gchar * const *) b);
}

/* The labels of @labels but @skip, sorted, as one string. */
static gchar *
labels_key (GHashTable * labels, const gchar * skip)
{
  GPtrArray *names = g_ptr_array_new ();
  GString *k = g_string_new (NULL);
  GHashTableIter it;
  gpointer name;
  guint i;

  g_hash_table_iter_init (&it, labels);
  while (g_hash_table_iter_next (&it, &name, NULL))
    if (g_strcmp0 (name, skip) != 0)
      g_ptr_array_add (names, name);
  g_ptr_array_sort (names, cmp_str);
  for (i = 0; i < names->len; i++) {
    const gchar *n = g_ptr_array_index (names, i);

    g_string_append_printf (k, "%s=%s\x1f", n,
        (const gchar *) g_hash_table_lookup (labels, n));
  }
  g_ptr_array_unref (names);
  return g_string_free (k, FALSE);
}

/* The family a sample line belongs to: its own name when that has a TYPE,
 * else the name less _sum, _count or _bucket when that is a summary's or a
 * histogram's; NULL when none. */
static gchar *
sample_family (GHashTable * types, const gchar * name)
{
  const gchar *suffixes[] = { "_sum", "_count", "_bucket" };
  guint i;

  if (g_hash_table_contains (types, name))
    return g_strdup (name);
  for (i = 0; i < G_N_ELEMENTS (suffixes); i++) {
    if (g_str_has_suffix (name, suffixes[i])) {
      gchar *base = g_strndup (name, strlen (name) - strlen (suffixes[i]));
      const gchar *type = g_hash_table_lookup (types, base);

      if (type && (strcmp (type, "summary") == 0 ||
              (strcmp (type, "histogram") == 0)) &&
          (i < 2 || strcmp (type, "histogram") == 0))
        return base;
      g_free (base);
    }
  }
  return NULL;
}

/* Reads `{a="x",b="y"}` at *@p into @labels. */
static void
parse_labels (const gchar ** p, GHashTable * labels, const gchar * line)
{
  const gchar *c = *p + 1;

  while (*c != '}') {
    const gchar *n0 = c;
    gchar *name;
    GString *v = g_string_new (NULL);

    if (!is_name_start (*c) || *c == ':')
      g_error ("bad label name in: %s", line);
    while (is_name_char (*c) && *c != ':')
      c++;
    name = g_strndup (n0, c - n0);
    if (c[0] != '=' || c[1] != '"')
      g_error ("a label without =\" in: %s", line);
    c += 2;
    while (*c != '"') {
      if (*c == '\0' || *c == '\n')
        g_error ("a label value not closed in: %s", line);
      if (*c == '\\') {
        c++;
        if (*c == '\\')
          g_string_append_c (v, '\\');
        else if (*c == '"')
          g_string_append_c (v, '"');
        else if (*c == 'n')
          g_string_append_c (v, '\n');
        else
          g_error ("a bad escape \\%c in: %s", *c, line);
      } else
        g_string_append_c (v, *c);
      c++;
    }
    c++;
    if (!g_utf8_validate (v->str, -1, NULL))
      g_error ("a label value not UTF-8 in: %s", line);
    if (g_hash_table_contains (labels, name))
      g_error ("label %s twice in: %s", name, line);
    g_hash_table_insert (labels, name, g_string_free (v, FALSE));
    if (*c == ',')
      c++;
    else if (*c != '}')
      g_error ("labels not separated by ',' in: %s", line);
  }
  *p = c + 1;
}

/* Checks a family's histogram buckets and summary parts once it is read. */
static void
check_family_shape (GpMText * t, const gchar * family)
{
  const gchar *type = g_hash_table_lookup (t->types, family);
  gchar *sum_name = g_strconcat (family, "_sum", NULL);
  gchar *count_name = g_strconcat (family, "_count", NULL);
  gchar *bucket_name = g_strconcat (family, "_bucket", NULL);
  GHashTable *sums = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      NULL);
  GHashTable *counts = g_hash_table_new_full (g_str_hash, g_str_equal,
      g_free, g_free);
  GHashTable *sets = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      NULL);
  /* histogram: key -> last bucket's (le, count) */
  GHashTable *last_le = g_hash_table_new_full (g_str_hash, g_str_equal,
      g_free, g_free);
  GHashTable *inf = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      g_free);
  GHashTableIter it;
  gpointer k, v;
  guint i;

  for (i = 0; i < t->samples->len; i++) {
    GpMSample *m = g_ptr_array_index (t->samples, i);
    gchar *key;

    if (g_strcmp0 (m->family, family) != 0)
      continue;
    if (strcmp (type, "summary") == 0) {
      key = labels_key (m->labels, "quantile");
      g_hash_table_add (sets, g_strdup (key));
      if (strcmp (m->name, sum_name) == 0)
        g_hash_table_add (sums, g_strdup (key));
      else if (strcmp (m->name, count_name) == 0)
        g_hash_table_insert (counts, g_strdup (key), dup_double (m->value));
      else {
        const gchar *q = g_hash_table_lookup (m->labels, "quantile");
        gdouble qv;

        g_assert_nonnull (q);
        qv = parse_value (q);
        g_assert_cmpfloat (qv, >=, 0);
        g_assert_cmpfloat (qv, <=, 1);
      }
      g_free (key);
    } else if (strcmp (type, "histogram") == 0) {
      key = labels_key (m->labels, "le");
      g_hash_table_add (sets, g_strdup (key));
      if (strcmp (m->name, count_name) == 0)
        g_hash_table_insert (counts, g_strdup (key), dup_double (m->value));
      else if (strcmp (m->name, sum_name) == 0)
        g_hash_table_add (sums, g_strdup (key));
      else if (strcmp (m->name, bucket_name) == 0) {
        const gchar *le = g_hash_table_lookup (m->labels, "le");
        gdouble lev, *last;

        g_assert_nonnull (le);
        lev = parse_value (le);
        last = g_hash_table_lookup (last_le, key);
        if (last) {
          /* in order of le, each at least the one before */
          g_assert_cmpfloat (lev, >, last[0]);
          g_assert_cmpfloat (m->value, >=, last[1]);
        } else {
          last = g_new (gdouble, 2);
          g_hash_table_insert (last_le, g_strdup (key), last);
        }
        last[0] = lev;
        last[1] = m->value;
        if (isinf (lev) && lev > 0)
          g_hash_table_insert (inf, g_strdup (key), dup_double (m->value));
      }
      g_free (key);
    }
  }
  g_hash_table_iter_init (&it, sets);
  while (g_hash_table_iter_next (&it, &k, NULL)) {
    gdouble *count = g_hash_table_lookup (counts, k);

    if (count == NULL || !g_hash_table_contains (sums, k))
      g_error ("%s: a series without its _sum or _count", family);
    if (strcmp (type, "histogram") == 0) {
      gdouble *top = g_hash_table_lookup (inf, k);

      if (top == NULL)
        g_error ("%s: a histogram without its +Inf bucket", family);
      g_assert_cmpfloat (*top, ==, *count);
    }
  }
  (void) v;
  g_hash_table_unref (sums);
  g_hash_table_unref (counts);
  g_hash_table_unref (sets);
  g_hash_table_unref (last_le);
  g_hash_table_unref (inf);
  g_free (sum_name);
  g_free (count_name);
  g_free (bucket_name);
}

/* Parses @text, asserting the format as it goes. */
static GpMText *
parse_metrics (const gchar * text)
{
  GpMText *t = g_new0 (GpMText, 1);
  gchar **lines;
  GHashTable *helps = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      NULL);
  GHashTable *done = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      NULL);
  GHashTable *series = g_hash_table_new_full (g_str_hash, g_str_equal,
      g_free, NULL);
  gchar *current = NULL;
  guint i;

  t->types = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  t->samples = g_ptr_array_new_with_free_func (gp_msample_free);
  g_assert_true (g_str_has_suffix (text, "\n"));
  g_assert_true (g_utf8_validate (text, -1, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (i = 0; lines[i]; i++) {
    const gchar *line = lines[i];
    const gchar *p;
    GpMSample *m;
    gchar *id;

    if (*line == '\0') {
      g_assert_null (lines[i + 1]);     /* only the end */
      continue;
    }
    if (*line == '#') {
      gchar **w = g_strsplit (line, " ", 4);

      if (g_strv_length (w) >= 3 && (strcmp (w[1], "TYPE") == 0 ||
              strcmp (w[1], "HELP") == 0)) {
        g_assert_true (valid_metric_name (w[2]));
        /* a family's comments come before its samples and after the
         * samples of any other: a family once left is not taken up */
        if (g_hash_table_contains (done, w[2]) || g_strcmp0 (current,
                w[2]) == 0)
          g_error ("%s after its samples: %s", w[1], line);
        if (strcmp (w[1], "TYPE") == 0) {
          g_assert_cmpuint (g_strv_length (w), ==, 4);
          g_assert_false (g_hash_table_contains (t->types, w[2]));
          g_assert_true (strcmp (w[3], "gauge") == 0 ||
              strcmp (w[3], "counter") == 0 ||
              strcmp (w[3], "summary") == 0 ||
              strcmp (w[3], "histogram") == 0 ||
              strcmp (w[3], "untyped") == 0);
          if (strcmp (w[3], "counter") == 0)
            g_assert_true (g_str_has_suffix (w[2], "_total"));
          else
            g_assert_false (g_str_has_suffix (w[2], "_total"));
          g_hash_table_insert (t->types, g_strdup (w[2]), g_strdup (w[3]));
        } else {
          g_assert_cmpuint (g_strv_length (w), ==, 4);
          g_assert_false (g_hash_table_contains (helps, w[2]));
          g_hash_table_add (helps, g_strdup (w[2]));
        }
      }
      g_strfreev (w);
      continue;
    }
    m = g_new0 (GpMSample, 1);
    m->labels = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
        g_free);
    for (p = line; is_name_char (*p); p++);
    m->name = g_strndup (line, p - line);
    if (!valid_metric_name (m->name))
      g_error ("bad metric name: %s", line);
    if (*p == '{')
      parse_labels (&p, m->labels, line);
    if (*p != ' ')
      g_error ("no space before the value: %s", line);
    p++;
    /* no timestamp: a single value ends the line */
    g_assert_null (strchr (p, ' '));
    m->value = parse_value (p);
    m->family = sample_family (t->types, m->name);
    if (m->family == NULL)
      g_error ("a sample with no TYPE before it: %s", line);
    if (!g_hash_table_contains (helps, m->family))
      g_error ("a sample with no HELP before it: %s", line);
    if (g_strcmp0 (current, m->family) != 0) {
      if (g_hash_table_contains (done, m->family))
        g_error ("family %s's lines are not together: %s", m->family, line);
      if (current) {
        check_family_shape (t, current);
        g_hash_table_add (done, current);
      }
      current = g_strdup (m->family);
    }
    /* the labels Prometheus gives a target's series: a scraped one of
     * the same name would be renamed exported_job, exported_instance */
    if (g_hash_table_contains (m->labels, "job") ||
        g_hash_table_contains (m->labels, "instance"))
      g_error ("a label Prometheus sets itself: %s", line);
    if (g_hash_table_contains (m->labels, "quantile") &&
        g_strcmp0 (g_hash_table_lookup (t->types, m->family), "summary"))
      g_error ("quantile outside a summary: %s", line);
    if (g_hash_table_contains (m->labels, "le") &&
        g_strcmp0 (g_hash_table_lookup (t->types, m->family), "histogram"))
      g_error ("le outside a histogram: %s", line);
    m->key = labels_key (m->labels, NULL);
    id = g_strconcat (m->name, "\x1e", m->key, NULL);
    if (g_hash_table_contains (series, id))
      g_error ("a series written twice: %s", line);
    g_hash_table_add (series, id);
    g_ptr_array_add (t->samples, m);
  }
  if (current) {
    check_family_shape (t, current);
    g_hash_table_add (done, current);
  }
  g_strfreev (lines);
  g_hash_table_unref (helps);
  g_hash_table_unref (done);
  g_hash_table_unref (series);
  return t;
}

/* The one sample @name with label @label="@value" (@label NULL: the only
 * sample of that name); NULL when none, failing when several. */
static GpMSample *
find_sample (GpMText * t, const gchar * name, const gchar * label,
    const gchar * value)
{
  GpMSample *found = NULL;
  guint i;

  for (i = 0; i < t->samples->len; i++) {
    GpMSample *m = g_ptr_array_index (t->samples, i);

    if (strcmp (m->name, name) != 0)
      continue;
    if (label && g_strcmp0 (g_hash_table_lookup (m->labels, label),
            value) != 0)
      continue;
    if (found)
      g_error ("%s{%s=\"%s\"}: more than one", name, label, value);
    found = m;
  }
  return found;
}

static gdouble
sample_value (GpMText * t, const gchar * name, const gchar * label,
    const gchar * value)
{
  GpMSample *m = find_sample (t, name, label, value);

  if (m == NULL)
    g_error ("no %s{%s=\"%s\"}", name, label, value);
  return m->value;
}

/* The sample @name{@label="@value",@bound="@b"}: a summary's quantile or
 * a histogram's bucket. */
static gdouble
sample_bound (GpMText * t, const gchar * name, const gchar * label,
    const gchar * value, const gchar * bound, const gchar * b)
{
  guint i;

  for (i = 0; i < t->samples->len; i++) {
    GpMSample *m = g_ptr_array_index (t->samples, i);

    if (strcmp (m->name, name) == 0 &&
        g_strcmp0 (g_hash_table_lookup (m->labels, label), value) == 0 &&
        g_strcmp0 (g_hash_table_lookup (m->labels, bound), b) == 0)
      return m->value;
  }
  g_error ("no %s{%s=\"%s\",%s=\"%s\"}", name, label, value, bound, b);
  return NAN;
}

/* The quantile @q of summary @name{@label="@value"} */
static gdouble
sample_quantile (GpMText * t, const gchar * name, const gchar * label,
    const gchar * value, const gchar * q)
{
  return sample_bound (t, name, label, value, "quantile", q);
}

static guint
count_samples (GpMText * t, const gchar * name)
{
  guint i, n = 0;

  for (i = 0; i < t->samples->len; i++)
    if (strcmp (((GpMSample *) g_ptr_array_index (t->samples, i))->name,
            name) == 0)
      n++;
  return n;
}

/* `promtool check metrics` on @text, where promtool is installed: it must
 * exit 0 and say nothing. */
static void
promtool_check (const gchar * text)
{
  gchar *promtool = g_find_program_in_path ("promtool");
  GSubprocess *p;
  GError *error = NULL;
  gchar *out = NULL, *err = NULL;

  if (promtool == NULL) {
    g_test_message ("no promtool in PATH: the format is held by the test's "
        "own parser only");
    return;
  }
  p = g_subprocess_new (G_SUBPROCESS_FLAGS_STDIN_PIPE |
      G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE,
      &error, promtool, "check", "metrics", NULL);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (p, text, NULL, &out, &err, &error);
  g_assert_no_error (error);
  if (!g_subprocess_get_if_exited (p) || g_subprocess_get_exit_status (p)
      || (out && *out) || (err && *err)) {
    gp_test_message_text (out);
    gp_test_message_text (err);
    g_error ("promtool check metrics failed");
  }
  g_test_message ("promtool check metrics: clean");
  g_object_unref (p);
  g_free (out);
  g_free (err);
  g_free (promtool);
}

/* Parses and checks @s's text; adds its family names to @seen. */
static GpMText *
metrics_of (GpSession * s, const gchar * pipeline, gchar ** text_out,
    GHashTable * seen)
{
  gchar *text = gp_metrics_text (s, pipeline);
  GpMText *t = parse_metrics (text);

  promtool_check (text);
  if (seen) {
    guint i;

    for (i = 0; i < t->samples->len; i++)
      g_hash_table_add (seen, g_strdup (((GpMSample *)
                  g_ptr_array_index (t->samples, i))->name));
  }
  if (text_out)
    *text_out = text;
  else
    g_free (text);
  return t;
}

/* ------------------------------------------------------------------------ */
/* the planted capture                                                       */

/* The planted sleep, and what the source makes: 40 GRAY8 frames of 64x48
 * (3072 bytes each) at 30/1 */
#define PLANT_SLEEP_MS 20.0
#define PLANT_BUFFERS 40
#define PLANT_FRAME_BYTES (64 * 48)
/* The test's bound on a mean against the sleep as this machine gives it */
#define PLANT_TOLERANCE 0.10

#define PLANT_LAUNCH "videotestsrc name=src num-buffers=40 ! " \
  "video/x-raw,format=GRAY8,width=64,height=48,framerate=30/1 ! " \
  "queue name=q ! identity name=slow sleep-time=20000 ! fakesink name=sink"

static GpSession *planted;
/* the planted sleep as this machine gave it during the capture: mean and
 * median (gp_test_oversleep_begin ()) */
static gdouble planted_slept_mean, planted_slept_median;

static GpSession *
planted_session (void)
{
  GpCaptureEnd end;

  if (planted == NULL) {
    GpCaptureOptions opts = base_opts;
    GpTestOversleep *o = gp_test_oversleep_begin (PLANT_SLEEP_MS);
    gdouble mean, median;

    opts.machine = TRUE;
    planted = gp_test_capture (&opts, PLANT_LAUNCH, 0, &end);
    gp_test_oversleep_end (o, &mean, &median);
    planted_slept_mean = PLANT_SLEEP_MS + mean;
    planted_slept_median = PLANT_SLEEP_MS + median;
    g_assert_cmpint (end, ==, GP_CAPTURE_END_EOS);
  }
  return planted;
}

static void
test_planted (void)
{
  GpSession *s;
  GpMText *t;
  gchar *text;
  gdouble sum, count, mean_ms, slept, lat_ms;
  GpMSample *lim;

  if (!gp_test_have_tracer ())
    return;
  s = planted_session ();
  t = metrics_of (s, "planted", &text, NULL);
  if (g_test_verbose ())
    gp_test_message_text (text);

  g_assert_cmpfloat (sample_value (t, "gstprof_up", NULL, NULL), ==, 1);
  g_assert_cmpstr (g_hash_table_lookup (find_sample (t, "gstprof_up", NULL,
              NULL)->labels, "pipeline"), ==, "planted");

  /* the self time: the summary's mean against the sleep */
  sum = sample_value (t, "gstprof_element_self_seconds_sum", "element",
      "slow");
  count = sample_value (t, "gstprof_element_self_seconds_count", "element",
      "slow");
  g_assert_cmpfloat (count, ==, PLANT_BUFFERS);
  mean_ms = sum / count * 1000.0;
  /* the truth: the sleep as the machine gave it beside the capture */
  slept = planted_slept_mean;
  g_test_message ("slow: self time mean %.3f ms over %.0f buffers, slept "
      "%.3f ms (median %.3f) beside the run", mean_ms, count, slept,
      planted_slept_median);
  g_assert_cmpfloat (fabs (mean_ms - slept), <, PLANT_TOLERANCE * slept);
  /* its median too, as a quantile in seconds */
  g_assert_cmpfloat (fabs (sample_quantile (t,
              "gstprof_element_self_seconds", "element", "slow",
              "0.5") * 1000.0 - planted_slept_median), <,
      PLANT_TOLERANCE * planted_slept_median);
  g_assert_cmpfloat (sample_value (t, "gstprof_element_buffers_total",
          "element", "slow"), ==, PLANT_BUFFERS);
  /* the histogram at the tracer's octave edges: no sleep of 20 ms is
   * below 2^24 ns (16.8 ms); at most one in twenty is preempted past 2^25
   * ns (33.6 ms) on a loaded machine; its mean the summary's */
  g_assert_cmpfloat (sample_value (t,
          "gstprof_element_self_octaves_seconds_count", "element", "slow"),
      ==, PLANT_BUFFERS);
  g_assert_cmpfloat (sample_bound (t,
          "gstprof_element_self_octaves_seconds_bucket", "element", "slow",
          "le", "0.016777216"), ==, 0);
  g_assert_cmpfloat (sample_bound (t,
          "gstprof_element_self_octaves_seconds_bucket", "element", "slow",
          "le", "0.033554432"), >=, 0.95 * PLANT_BUFFERS);
  g_assert_cmpfloat (sample_value (t,
          "gstprof_element_self_octaves_seconds_sum", "element", "slow"),
      ==, sum);

  /* what the source was told to make, over its links */
  g_assert_cmpfloat (sample_value (t, "gstprof_link_buffers_total", "link",
          "q.src->slow.sink"), ==, PLANT_BUFFERS);
  g_assert_cmpfloat (fabs (sample_value (t, "gstprof_link_bytes_total",
              "link", "q.src->slow.sink") - PLANT_BUFFERS *
          PLANT_FRAME_BYTES), <=, 0.01 * PLANT_BUFFERS * PLANT_FRAME_BYTES);
  g_assert_cmpfloat (sample_value (t, "gstprof_sink_buffers_total",
          "element", "sink"), ==, PLANT_BUFFERS);
  g_assert_cmpfloat (fabs (sample_value (t,
              "gstprof_sink_target_buffers_per_second", "element", "sink") -
          30.0), <, 1e-9);
  g_assert_cmpfloat (fabs (sample_value (t, "gstprof_frame_period_seconds",
              NULL, NULL) - 1.0 / 30), <, 1e-9);

  /* the path from the source crosses the sleep: its latency is at least
   * the sleep (the queue before it holds buffers longer) */
  lat_ms = sample_value (t, "gstprof_path_latency_seconds_sum", "path",
      "src.src->sink") / sample_value (t,
      "gstprof_path_latency_seconds_count", "path", "src.src->sink") * 1000;
  g_test_message ("src.src->sink: latency mean %.3f ms", lat_ms);
  g_assert_cmpfloat (lat_ms, >, (1 - PLANT_TOLERANCE) * slept);

  /* the queue: its limits as GStreamer's queue has them by default */
  g_assert_cmpfloat (sample_value (t, "gstprof_queue_limit_buffers",
          "queue", "q"), ==, 200);
  g_assert_cmpfloat (sample_value (t, "gstprof_queue_limit_seconds",
          "queue", "q"), ==, 1.0);
  g_assert_cmpfloat (sample_value (t, "gstprof_queue_dropped_total",
          "queue", "q"), ==, 0);

  /* the sleep limits the run: its thread and element */
  lim = find_sample (t, "gstprof_limiting_info", NULL, NULL);
  g_assert_nonnull (lim);
  g_assert_cmpstr (g_hash_table_lookup (lim->labels, "element"), ==, "slow");
  /* on the queue's thread, which the pipeline's shape gives it */
  g_assert_true (g_str_has_prefix (g_hash_table_lookup (lim->labels,
              "thread"), "q:src"));
  /* the pipeline's two streaming threads, the source's and the queue's,
   * and no other thread of this process */
  g_assert_cmpuint (count_samples (t, "gstprof_thread_cpu_run_ratio"), ==, 2);

  /* the machine was sampled: the CPU's load is a ratio */
  if (find_sample (t, "gstprof_machine_cpu_load_ratio", "device", "all")) {
    gdouble load = sample_value (t, "gstprof_machine_cpu_load_ratio",
        "device", "all");

    g_assert_cmpfloat (load, >=, 0);
    g_assert_cmpfloat (load, <=, 1);
  }
  gp_mtext_free (t);
  g_free (text);
}

/* ------------------------------------------------------------------------ */
/* sessions built from JSON                                                  */

static GpSession *
load_json (const gchar * json)
{
  GError *error = NULL;
  GpSession *s = gp_session_load_data (json, -1, "test", &error);

  g_assert_no_error (error);
  g_assert_nonnull (s);
  return s;
}

static const gchar *const escape_names[] = {
  "q\"uote", "back\\slash", "both\\\"end\\", "line\nfeed"
};

static void
test_escape (void)
{
  GString *json = g_string_new ("{\"schema\": \"gstprof/1\", "
      "\"summary\": {\"elements\": {");
  GpSession *s;
  GpMText *t;
  gchar *text;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (escape_names); i++) {
    JsonNode *n = json_node_new (JSON_NODE_VALUE);
    gchar *quoted;

    json_node_set_string (n, escape_names[i]);
    quoted = json_to_string (n, FALSE);
    g_string_append_printf (json, "%s%s: {\"buffers\": %u, "
        "\"self_total_ms\": %u, \"self_ms\": {\"p50\": 1, \"p95\": 2, "
        "\"p99\": 3, \"max\": 4}}", i ? ", " : "", quoted, i + 1, i + 1);
    g_free (quoted);
    json_node_unref (n);
  }
  g_string_append (json, "}}}");
  s = load_json (json->str);
  t = metrics_of (s, "pipe \"1\"\\", &text, NULL);
  gp_test_message_text (text);
  /* written escaped: no raw quote inside a value, no line feed */
  gp_test_assert_has (text, "element=\"q\\\"uote\"");
  gp_test_assert_has (text, "element=\"back\\\\slash\"");
  gp_test_assert_has (text, "element=\"line\\nfeed\"");
  /* read back as named */
  for (i = 0; i < G_N_ELEMENTS (escape_names); i++)
    g_assert_cmpfloat (sample_value (t, "gstprof_element_buffers_total",
            "element", escape_names[i]), ==, i + 1);
  g_assert_cmpstr (g_hash_table_lookup (find_sample (t, "gstprof_up", NULL,
              NULL)->labels, "pipeline"), ==, "pipe \"1\"\\");
  gp_mtext_free (t);
  g_free (text);
  gp_session_free (s);
  g_string_free (json, TRUE);
}

/* More elements than a family may label */
#define MANY_ELEMENTS (GP_METRICS_MAX_SERIES + 44)

static GpSession *
many_session (void)
{
  GString *json = g_string_new ("{\"schema\": \"gstprof/1\", "
      "\"summary\": {\"elements\": {");
  GpSession *s;
  guint i;

  /* in the order of their self time, heaviest first, as the session keeps
   * them: element i has MANY_ELEMENTS - i buffers of 1 ms, p95 i ms */
  for (i = 0; i < MANY_ELEMENTS; i++)
    g_string_append_printf (json, "%s\"e%03u\": {\"buffers\": %u, "
        "\"self_total_ms\": %u, \"self_ms\": {\"p50\": 1, \"p95\": %u, "
        "\"p99\": %u, \"max\": %u}}", i ? ", " : "", i, MANY_ELEMENTS - i,
        MANY_ELEMENTS - i, i, i, i);
  g_string_append (json, "}}}");
  s = load_json (json->str);
  g_string_free (json, TRUE);
  return s;
}

static void
test_cardinality (void)
{
  GpSession *s = many_session ();
  GpMText *t = metrics_of (s, NULL, NULL, NULL);
  guint i, folded = MANY_ELEMENTS - GP_METRICS_MAX_SERIES;
  gdouble folded_buffers = 0;

  g_assert_cmpuint (count_samples (t, "gstprof_element_buffers_total"), ==,
      GP_METRICS_MAX_SERIES + 1);
  /* the first GP_METRICS_MAX_SERIES kept as they are */
  for (i = 0; i < GP_METRICS_MAX_SERIES; i += 17) {
    gchar *name = g_strdup_printf ("e%03u", i);

    g_assert_cmpfloat (sample_value (t, "gstprof_element_buffers_total",
            "element", name), ==, MANY_ELEMENTS - i);
    g_free (name);
  }
  g_assert_null (find_sample (t, "gstprof_element_buffers_total", "element",
          "e299"));
  /* the rest: counters added, quantiles their largest */
  for (i = GP_METRICS_MAX_SERIES; i < MANY_ELEMENTS; i++)
    folded_buffers += MANY_ELEMENTS - i;
  g_assert_cmpfloat (sample_value (t, "gstprof_element_buffers_total",
          "element", "_other"), ==, folded_buffers);
  g_assert_cmpfloat (sample_value (t, "gstprof_element_self_seconds_count",
          "element", "_other"), ==, folded_buffers);
  g_assert_cmpfloat (fabs (sample_value (t,
              "gstprof_element_self_seconds_sum", "element", "_other") -
          folded_buffers / 1000.0), <, 1e-9);
  g_assert_cmpfloat (fabs (sample_quantile (t,
              "gstprof_element_self_seconds", "element", "_other",
              "0.95") - (MANY_ELEMENTS - 1) / 1000.0), <, 1e-9);
  g_assert_cmpfloat (sample_value (t, "gstprof_series_folded", "family",
          "gstprof_element_buffers_total"), ==, folded);
  g_assert_cmpfloat (sample_value (t, "gstprof_series_folded", "family",
          "gstprof_element_self_seconds"), ==, folded);
  gp_mtext_free (t);
  gp_session_free (s);
}

/* Every quantity of gp-machine.h, with a limit where it has one */
static const struct
{
  const gchar *quantity, *instance, *unit;
  gdouble value, limit;
} machine_rows[] = {
  {GP_MACHINE_CPU_LOAD, "all", GP_UNIT_PCT, 50, NAN},
  {GP_MACHINE_CPU_FREQ, "0", GP_UNIT_MHZ, 1200, 2400},
  {GP_MACHINE_CPU_REF, "xorshift", GP_UNIT_NS, 150000, NAN},
  {GP_MACHINE_THREAD_CPU, "12 queue0:src", GP_UNIT_PCT, 10, NAN},
  {GP_MACHINE_MEM_USED, "ram", GP_UNIT_MIB, 1024, 8192},
  {GP_MACHINE_RSS, "12", GP_UNIT_MIB, 64, NAN},
  {GP_MACHINE_TEMP, "tj", GP_UNIT_C, 61.5, 95},
  {GP_MACHINE_GPU_LOAD, "0", GP_UNIT_PCT, 99, NAN},
  {GP_MACHINE_GPU_FREQ, "0", GP_UNIT_MHZ, 900, 1300},
  {GP_MACHINE_GPU_MEM, "0", GP_UNIT_MIB, 512, 16384},
  {GP_MACHINE_MEMBW_LOAD, "emc", GP_UNIT_PCT, 30, NAN},
  {GP_MACHINE_MEM_FREQ, "emc", GP_UNIT_MHZ, 1600, 3200},
  {GP_MACHINE_ENGINE_LOAD, "NVENC", GP_UNIT_PCT, 40, NAN},
  {GP_MACHINE_ENGINE_FREQ, "NVENC", GP_UNIT_MHZ, 700, 1000},
  {GP_MACHINE_POWER, "board", GP_UNIT_W, 12.5, 25},
  {GP_MACHINE_THROTTLE, "0", GP_UNIT_NONE, 1, NAN},
};

/* The machine's latest sample in base units, its limit; a finding */
static void
test_families (void)
{
  GHashTable *seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      NULL);
  const gchar *const *names = gp_metrics_names ();
  GpSession *s, *many;
  GpMachine *mc;
  GpFinding *fd;
  GpMText *t;
  guint i;

  if (!gp_test_have_tracer ())
    return;
  s = planted_session ();
  /* the machine as gp-machine.h has it, each quantity in its unit */
  mc = s->machine;
  if (mc == NULL)
    mc = s->machine = gp_machine_new ();
  for (i = 0; i < G_N_ELEMENTS (machine_rows); i++) {
    GpMachineSeries *ms = gp_machine_series (mc, machine_rows[i].quantity,
        machine_rows[i].instance, machine_rows[i].unit, "test");

    ms->limit = machine_rows[i].limit;
    /* a later sample with no value: the latest with one is written */
    gp_machine_series_append (mc, ms, 1000.0, machine_rows[i].value);
    gp_machine_series_append (mc, ms, 1001.0, NAN);
  }
  fd = gp_finding_new ("HOT", "high", "slow takes the time");
  gp_finding_add_target (fd, "slow");
  g_ptr_array_add (s->findings, fd);
  fd = gp_finding_new ("HOT", "high", "another");
  g_ptr_array_add (s->findings, fd);

  t = metrics_of (s, NULL, NULL, seen);
  g_assert_cmpfloat (fabs (sample_value (t,
              "gstprof_machine_cpu_frequency_hertz", "device", "0") -
          1.2e9), <, 1);
  g_assert_cmpfloat (fabs (sample_value (t,
              "gstprof_machine_cpu_frequency_limit_hertz", "device", "0") -
          2.4e9), <, 1);
  g_assert_cmpfloat (sample_value (t, "gstprof_machine_memory_used_bytes",
          "device", "ram"), ==, 1024.0 * 1048576);
  g_assert_cmpfloat (sample_value (t, "gstprof_machine_temperature_celsius",
          "device", "tj"), ==, 61.5);
  g_assert_cmpfloat (sample_value (t,
          "gstprof_machine_temperature_limit_celsius", "device", "tj"), ==,
      95);
  g_assert_cmpfloat (fabs (sample_value (t, "gstprof_machine_gpu_load_ratio",
              "device", "0") - 0.99), <, 1e-12);
  g_assert_cmpfloat (sample_value (t, "gstprof_machine_power_watts",
          "device", "board"), ==, 12.5);
  g_assert_cmpfloat (fabs (sample_value (t,
              "gstprof_machine_cpu_reference_seconds", "device",
              "xorshift") - 150e-6), <, 1e-15);
  g_assert_cmpfloat (sample_value (t, "gstprof_findings", "rule", "HOT"), ==,
      2);
  gp_mtext_free (t);

  many = many_session ();
  gp_mtext_free (metrics_of (many, NULL, NULL, seen));
  gp_session_free (many);

  for (i = 0; names[i]; i++) {
    if (!g_hash_table_contains (seen, names[i]))
      g_error ("%s is listed but no session here wrote it", names[i]);
  }
  {
    GHashTableIter it;
    gpointer k;

    g_hash_table_iter_init (&it, seen);
    while (g_hash_table_iter_next (&it, &k, NULL))
      if (!g_strv_contains (names, k))
        g_error ("%s is written but not listed", (const gchar *) k);
  }
  g_test_message ("%u metric names, each written", g_strv_length ((gchar **)
          names));
  g_hash_table_unref (seen);
}

int
main (int argc, char **argv)
{
  GError *error = NULL;
  gint ret;

  gp_capture_options_init (&base_opts);
  /* the tracer's parameters are set once, for the process: CPU time per
   * element (gstprof_element_cpu_seconds_total) */
  base_opts.cpu = TRUE;
  if (!gp_capture_prepare_env (&base_opts, &error))
    g_error ("%s", error->message);
  gst_init (&argc, &argv);
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/metrics/planted", test_planted);
  g_test_add_func ("/metrics/escape", test_escape);
  g_test_add_func ("/metrics/cardinality", test_cardinality);
  g_test_add_func ("/metrics/families", test_families);
  ret = g_test_run ();
  if (planted)
    gp_session_free (planted);
  return ret;
}
