/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-gate.c: the performance gate's figures, baseline and judgement
 * (gp-gate.h, docs/ci.md).
 */
#include "gp-gate.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/gp-caps.h"
#include "core/gp-file.h"
#include "core/gp-json.h"
#include "core/gp-platform.h"
#include "core/gp-session-query.h"
#include "core/gp-stats.h"
#include "gp-compare.h"
#include "rules/gp-rules.h"

/* The baseline file's format, and the most it may weigh: 64 runs of a few
 * hundred metrics are well under a MiB. */
#define GP_GATE_SCHEMA 1
#define GP_GATE_MAX_FILE_BYTES (16 * 1024 * 1024)

/* What each kind is, and how far its median may move the wrong way
 * before the gate looks at the noise. */
typedef struct
{
  const gchar *name;
  const gchar *unit;
  gboolean higher_better;
  gdouble max_regress;          /* share of the baseline's median */
  gdouble floor;                /* the smallest move that counts, in @unit */
  gboolean drifts;              /* moved by the machine's speed */
} GpGateKindInfo;

static const GpGateKindInfo gp_gate_kinds[GP_GATE_N_KINDS] = {
  /* a live pipeline's rate is its source's, so any loss is frames lost;
   * a file's throughput moves a few % with the machine's load */
  {"rate", "fps", TRUE, 0.10, 0.5, TRUE},
  /* a path's median through queues moves with scheduling: 20 %, and
   * never under a tenth of a millisecond (the tracer's resolution is
   * finer, the scheduler's is not) */
  {"latency", "ms", FALSE, 0.20, 0.1, TRUE},
  {"latency-p95", "ms", FALSE, 0.25, 0.2, TRUE},
  /* CPU per frame from /proc's ticks: 20 %, and 0.1 ms a frame (a tick
   * is 10 ms: over a 10 s run at 30 fps, 0.03 ms a frame; and a small
   * pipeline's frames cost 0.05 ms more or less with the machine's
   * memory: below) */
  {"cpu", "ms", FALSE, 0.20, 0.1, TRUE},
  /* an element's own work: 15 %, and 0.1 ms: a small element's time moves
   * by half that with the machine's memory, not its CPU (measured: a
   * 160x120 videotestsrc at 0.063 ms a frame in one gate's runs, 0.112 to
   * 0.122 in every run of 6 gates of 20 after it, the process's CPU per
   * frame 0.05 to 0.066 ms up with it; CPU-bound fixed work moves under
   * 2 % between gates) */
  {"self", "ms", FALSE, 0.15, 0.1, TRUE},
  /* frames a leaky queue dropped: any more than 10 % and 5 frames */
  {"dropped", "buffers", FALSE, 0.10, 5, FALSE},
  /* a live sink's lateness p95: 25 %, and 2 ms (a clock tick's jitter) */
  {"late", "ms", FALSE, 0.25, 2, TRUE},
};

const gchar *
gp_gate_kind_name (GpGateKind kind)
{
  return kind < GP_GATE_N_KINDS ? gp_gate_kinds[kind].name : "finding";
}

void
gp_gate_thresholds_init (GpGateThresholds * t)
{
  guint k;

  for (k = 0; k < GP_GATE_N_KINDS; k++)
    t->max_regress[k] = gp_gate_kinds[k].max_regress;
}

gboolean
gp_gate_thresholds_parse (GpGateThresholds * t, const gchar * text,
    GError ** error)
{
  gchar **parts = g_strsplit (text, ",", -1);
  gboolean ok = TRUE;
  guint i, k;

  for (i = 0; parts[i] && ok; i++) {
    gchar *eq = strchr (parts[i], '='), *end;
    gdouble v;

    if (eq == NULL) {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
          "--max-regress: '%s' is not KIND=N%%", g_strstrip (parts[i]));
      ok = FALSE;
      break;
    }
    *eq = '\0';
    g_strstrip (parts[i]);
    for (k = 0; k < GP_GATE_N_KINDS &&
        strcmp (parts[i], gp_gate_kinds[k].name) != 0; k++);
    v = g_ascii_strtod (eq + 1, &end);
    if (k == GP_GATE_N_KINDS) {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
          "--max-regress: '%s' is not a metric (rate, latency, "
          "latency-p95, cpu, self, dropped, late)", parts[i]);
      ok = FALSE;
    } else if (end == eq + 1 || strcmp (end, "%") != 0 || !(v >= 0) ||
        v > 1000) {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
          "--max-regress: '%s' for %s is not a percentage from 0%% to "
          "1000%%", eq + 1, parts[i]);
      ok = FALSE;
    } else
      t->max_regress[k] = v / 100;
  }
  g_strfreev (parts);
  return ok;
}

/* ------------------------------------------------------------------ */
/* a run's figures                                                      */
/* ------------------------------------------------------------------ */

static void
gp_gate_put (GpGateRun * run, GpGateKind kind, const gchar * id, gdouble v)
{
  gdouble *box;

  /* (a name may be empty in a session from anywhere: "rate " is no key) */
  if (!isfinite (v) || v < 0 || id == NULL || *id == '\0')
    return;
  box = g_new (gdouble, 1);
  *box = v;
  g_hash_table_replace (run->metrics, g_strdup_printf ("%s %s",
          gp_gate_kinds[kind].name, id), box);
}

static GpGateRun *
gp_gate_run_new (void)
{
  GpGateRun *run = g_new0 (GpGateRun, 1);

  run->metrics = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      g_free);
  run->units = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  run->buffer_ms = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      g_free);
  run->findings = g_ptr_array_new_with_free_func (g_free);
  run->reference_ns = NAN;
  return run;
}

/* "element.pad" by the element's identity */
static gchar *
gp_gate_pad_identity (GpSession * s, const gchar * pad)
{
  const gchar *dot = strrchr (pad, '.');
  gchar *el = dot ? g_strndup (pad, dot - pad) : g_strdup (pad);
  gchar *id = gp_session_element_identity (s, el);
  gchar *out = g_strconcat (id, dot ? dot : "", NULL);

  g_free (el);
  g_free (id);
  return out;
}

/* Beside metric @kind of @id, the mean media time of the buffers it
 * counts, ms (@media_per_s over @fps), when they are not video frames
 * (their size is the pipeline's choice: gp_gate_judge judges the metric
 * per second of media when it changed) and carry a duration. */
static void
gp_gate_put_buffer_ms (GpGateRun * run, GpGateKind kind, const gchar * id,
    GpMediaKind media, gdouble fps, gdouble media_per_s)
{
  gdouble *box;

  if (media == GP_MEDIA_VIDEO || media == GP_MEDIA_UNKNOWN || !(fps > 0) ||
      !(media_per_s > 0) || id == NULL || *id == '\0')
    return;
  box = g_new (gdouble, 1);
  *box = 1000.0 * media_per_s / fps;
  g_hash_table_replace (run->buffer_ms, g_strdup_printf ("%s %s",
          gp_gate_kinds[kind].name, id), box);
}

/* The buffers an element works on: those of its first input link, or a
 * source's first output link. */
static void
gp_gate_put_element_buffer_ms (GpSession * s, GpGateRun * run,
    const gchar * name, const gchar * id)
{
  GpLink *l = gp_session_link_into (s, name);
  GpLinkSummary *ls;

  if (l == NULL)
    l = gp_session_link_out_of (s, name);
  ls = l ? gp_session_find_link_summary (s, l->id) : NULL;
  if (ls)
    gp_gate_put_buffer_ms (run, GP_GATE_SELF, id, gp_caps_media_kind
        (l->caps), ls->fps, ls->media_per_s);
}

/* The units a rate may be in besides fps (a baseline's "units" name one
 * of them). */
static const gchar *const gp_gate_rate_units[] = { "packets/s", "buffers/s",
  NULL
};

/* What a sink's buffers are: frames of video (or of a media not known),
 * RTP packets, or buffers of audio or a muxed stream, whose size the
 * pipeline chose. */
static const gchar *
gp_gate_rate_unit (const GpSinkSummary * k)
{
  switch (gp_media_kind_from_name (k->media)) {
    case GP_MEDIA_RTP:
      return gp_gate_rate_units[0];
    case GP_MEDIA_AUDIO:
    case GP_MEDIA_MUXED:
    case GP_MEDIA_OTHER:
      return gp_gate_rate_units[1];
    default:
      return "fps";
  }
}

static void
gp_gate_sinks (GpSession * s, GpGateRun * run)
{
  guint i;

  for (i = 0; i < s->sinks->len; i++) {
    GpSinkSummary *k = g_ptr_array_index (s->sinks, i);
    gchar *id;
    const gchar *unit = gp_gate_rate_unit (k);

    /* RTCP, a bin's NAT probe: no stream to hold to a rate */
    if (gp_session_sink_is_control (s, k->name, NULL))
      continue;
    id = gp_session_element_identity (s, k->name);

    /* a sink that stopped is a rate of 0, not a metric gone */
    gp_gate_put (run, GP_GATE_RATE, id, MAX (k->fps, 0));
    gp_gate_put_buffer_ms (run, GP_GATE_RATE, id, gp_media_kind_from_name
        (k->media), k->fps, k->media_per_s);
    if (strcmp (unit, "fps") != 0 && *id)
      g_hash_table_replace (run->units, g_strdup_printf ("%s %s",
              gp_gate_kinds[GP_GATE_RATE].name, id), (gpointer) unit);
    gp_gate_put (run, GP_GATE_LATE, id, k->late_ms.p95);
    g_free (id);
  }
}

static void
gp_gate_paths (GpSession * s, GpGateRun * run)
{
  guint i;

  for (i = 0; i < s->paths->len; i++) {
    GpPath *p = g_ptr_array_index (s->paths, i);
    gchar *src = gp_gate_pad_identity (s, p->source);
    gchar *sink = gp_session_element_identity (s, p->sink);
    gchar *id = g_strdup_printf ("%s>%s", src, sink);

    gp_gate_put (run, GP_GATE_LATENCY, id, p->latency_ms.p50);
    gp_gate_put (run, GP_GATE_LATENCY_P95, id, p->latency_ms.p95);
    g_free (id);
    g_free (sink);
    g_free (src);
  }
}

/* CPU per frame: the process's CPU time a second over the frames a second
 * through all its sinks */
static void
gp_gate_cpu (GpSession * s, GpGateRun * run)
{
  gdouble fps = gp_session_sinks_fps (s), media_per_s = 0;
  GpMediaKind media = GP_MEDIA_UNKNOWN;
  guint i;

  if (!(s->process.measured && s->process.cpu_pct_mean >= 0 && fps > 0))
    return;
  gp_gate_put (run, GP_GATE_CPU, "per-frame",
      s->process.cpu_pct_mean * 10.0 / fps);
  /* a buffer's media time over all the sinks, when none takes frames */
  for (i = 0; i < s->sinks->len; i++) {
    GpSinkSummary *k = g_ptr_array_index (s->sinks, i);
    GpMediaKind m = gp_media_kind_from_name (k->media);

    if (!(k->fps > 0))
      continue;
    if (m == GP_MEDIA_VIDEO || m == GP_MEDIA_UNKNOWN || !(k->media_per_s > 0))
      return;
    media = m;
    media_per_s += k->media_per_s;
  }
  gp_gate_put_buffer_ms (run, GP_GATE_CPU, "per-frame", media, fps,
      media_per_s);
}

static void
gp_gate_elements (GpSession * s, GpGateRun * run)
{
  guint64 dropped = 0;
  gboolean leaky = FALSE;
  guint i;

  for (i = 0; i < s->elem_summaries->len; i++) {
    GpElementSummary *e = g_ptr_array_index (s->elem_summaries, i);
    gchar *id;

    if (!(e->share_pct >= GP_GATE_SELF_SHARE_PCT) ||
        gp_session_is_queue (s, e->name))
      continue;
    id = gp_session_element_identity (s, e->name);
    gp_gate_put (run, GP_GATE_SELF, id, e->self_ms.p50);
    gp_gate_put_element_buffer_ms (s, run, e->name, id);
    g_free (id);
  }
  for (i = 0; i < s->queue_summaries->len; i++) {
    GpQueueSummary *q = g_ptr_array_index (s->queue_summaries, i);

    dropped += q->dropped;
    leaky = leaky || (q->leaky && strcmp (q->leaky, "no") != 0);
  }
  if (leaky)
    gp_gate_put (run, GP_GATE_DROPPED, "queues", (gdouble) dropped);
  /* frames the sinks dropped late (and decoders skipped on QoS), where
   * any element posted QoS */
  gp_gate_put (run, GP_GATE_DROPPED, "late", (gdouble)
      MAX (gp_rules_late_dropped (s), 0));
}

static void
gp_gate_findings (GpSession * s, GpGateRun * run)
{
  guint i, j;

  for (i = 0; i < s->findings->len; i++) {
    GpFinding *f = g_ptr_array_index (s->findings, i);
    GString *line;

    if (gp_severity_weight (f->severity) <
        gp_severity_weight (GP_SEVERITY_MEDIUM))
      continue;
    line = g_string_new (NULL);
    g_string_append_printf (line, "%s %s:", f->rule, f->severity);
    for (j = 0; f->targets && j < f->targets->len; j++) {
      gchar *id = gp_session_target_identity (s,
          g_ptr_array_index (f->targets, j));

      g_string_append_printf (line, "%s%s", j ? ", " : " ", id);
      g_free (id);
    }
    g_ptr_array_add (run->findings, g_string_free (line, FALSE));
  }
}

GpGateRun *
gp_gate_run_of_session (GpSession * s)
{
  GpGateRun *run = gp_gate_run_new ();

  gp_gate_sinks (s, run);
  gp_gate_paths (s, run);
  gp_gate_cpu (s, run);
  gp_gate_elements (s, run);
  gp_gate_findings (s, run);
  run->reference_ns = gp_compare_machine_reference (s);
  return run;
}

void
gp_gate_run_free (GpGateRun * run)
{
  if (run == NULL)
    return;
  g_hash_table_unref (run->metrics);
  if (run->units)
    g_hash_table_unref (run->units);
  if (run->buffer_ms)
    g_hash_table_unref (run->buffer_ms);
  g_ptr_array_unref (run->findings);
  g_free (run);
}

/* ------------------------------------------------------------------ */
/* the baseline                                                         */
/* ------------------------------------------------------------------ */

gchar *
gp_gate_machine (void)
{
  gchar *detail = NULL, *platform = gp_platform_detect (&detail);
  gchar *cpu = gp_platform_cpu ();
  gchar *out = g_strdup_printf ("%s; %s%s%s", cpu, platform,
      detail ? ", " : "", detail ? detail : "");

  g_free (cpu);
  g_free (platform);
  g_free (detail);
  return out;
}

static GpGateBaseline *
gp_gate_baseline_empty (void)
{
  GpGateBaseline *b = g_new0 (GpGateBaseline, 1);

  b->elements = g_ptr_array_new_with_free_func (g_free);
  b->runs = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gp_gate_run_free);
  return b;
}

static gint
gp_gate_strcmp (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const gchar * const *) a, *(const gchar * const *) b);
}

GPtrArray *
gp_gate_elements_of (GpSession * s)
{
  GPtrArray *ids = g_ptr_array_new_with_free_func (g_free);
  guint i;

  for (i = 0; i < s->elements->len; i++) {
    GpElement *e = g_ptr_array_index (s->elements, i);

    if (!e->is_bin)
      g_ptr_array_add (ids, gp_session_element_identity (s, e->name));
  }
  g_ptr_array_sort (ids, gp_gate_strcmp);
  return ids;
}

GpGateBaseline *
gp_gate_baseline_new (const gchar * what, const gchar * pipeline,
    GPtrArray * sessions)
{
  GpGateBaseline *b = gp_gate_baseline_empty ();
  GpSession *first = sessions->len ? g_ptr_array_index (sessions, 0) : NULL;
  GDateTime *now = g_date_time_new_now_utc ();
  guint i;

  b->what = g_strdup (what);
  b->pipeline = g_strdup (pipeline);
  b->machine = gp_gate_machine ();
  b->gstreamer = g_strdup (first && first->gstreamer ? first->gstreamer :
      "unknown");
  b->recorded = g_date_time_format (now, "%Y-%m-%dT%H:%M:%SZ");
  g_date_time_unref (now);
  if (first) {
    g_ptr_array_unref (b->elements);
    b->elements = gp_gate_elements_of (first);
  }
  for (i = 0; i < sessions->len; i++)
    g_ptr_array_add (b->runs, gp_gate_run_of_session (g_ptr_array_index
            (sessions, i)));
  return b;
}

void
gp_gate_baseline_free (GpGateBaseline * b)
{
  if (b == NULL)
    return;
  g_free (b->what);
  g_free (b->pipeline);
  g_ptr_array_unref (b->elements);
  g_free (b->machine);
  g_free (b->gstreamer);
  g_free (b->recorded);
  g_ptr_array_unref (b->runs);
  g_free (b);
}

/* @table's keys (borrowed), sorted by @cmp (GLib 2.66 has no
 * g_hash_table_get_keys_as_ptr_array) */
static GPtrArray *
gp_gate_sorted_keys (GHashTable * table, GCompareFunc cmp)
{
  GPtrArray *keys = g_ptr_array_new ();
  GHashTableIter it;
  gpointer key;

  g_hash_table_iter_init (&it, table);
  while (g_hash_table_iter_next (&it, &key, NULL))
    g_ptr_array_add (keys, key);
  g_ptr_array_sort (keys, cmp);
  return keys;
}

static void
gp_gate_add_strings (JsonBuilder * jb, const gchar * name, GPtrArray * list)
{
  guint i;

  json_builder_set_member_name (jb, name);
  json_builder_begin_array (jb);
  for (i = 0; i < list->len; i++)
    json_builder_add_string_value (jb, g_ptr_array_index (list, i));
  json_builder_end_array (jb);
}

/* @table (metric key -> a static string, or a gdouble* when @numbers) as
 * object @name, by key; nothing when it is empty. */
static void
gp_gate_add_table (JsonBuilder * jb, const gchar * name, GHashTable * table,
    gboolean numbers)
{
  GPtrArray *keys;
  guint i;

  if (table == NULL || g_hash_table_size (table) == 0)
    return;
  keys = gp_gate_sorted_keys (table, gp_gate_strcmp);
  json_builder_set_member_name (jb, name);
  json_builder_begin_object (jb);
  for (i = 0; i < keys->len; i++) {
    const gchar *k = g_ptr_array_index (keys, i);
    gpointer v = g_hash_table_lookup (table, k);

    json_builder_set_member_name (jb, k);
    if (numbers)
      json_builder_add_double_value (jb, *(gdouble *) v);
    else
      json_builder_add_string_value (jb, v);
  }
  json_builder_end_object (jb);
  g_ptr_array_unref (keys);
}

/* A run's metrics, by name so that the file is the same for the same
 * figures. */
static void
gp_gate_add_run (JsonBuilder * jb, const GpGateRun * run)
{
  GPtrArray *keys = gp_gate_sorted_keys (run->metrics, gp_gate_strcmp);
  guint i;

  json_builder_begin_object (jb);
  json_builder_set_member_name (jb, "metrics");
  json_builder_begin_object (jb);
  for (i = 0; i < keys->len; i++) {
    const gchar *k = g_ptr_array_index (keys, i);

    json_builder_set_member_name (jb, k);
    json_builder_add_double_value (jb, *(gdouble *)
        g_hash_table_lookup (run->metrics, k));
  }
  json_builder_end_object (jb);
  gp_gate_add_table (jb, "units", run->units, FALSE);
  gp_gate_add_table (jb, "buffer_ms", run->buffer_ms, TRUE);
  gp_gate_add_strings (jb, "findings", run->findings);
  if (run->reference_ns > 0) {
    json_builder_set_member_name (jb, "reference_ns");
    json_builder_add_double_value (jb, run->reference_ns);
  }
  json_builder_end_object (jb);
  g_ptr_array_unref (keys);
}

gboolean
gp_gate_baseline_save (const GpGateBaseline * b, const gchar * path,
    GError ** error)
{
  JsonBuilder *jb = json_builder_new ();
  JsonGenerator *gen = json_generator_new ();
  JsonNode *root;
  gchar *text;
  gboolean ok;
  guint i;

  json_builder_begin_object (jb);
  json_builder_set_member_name (jb, "gstprof_gate");
  json_builder_add_int_value (jb, GP_GATE_SCHEMA);
  json_builder_set_member_name (jb, "recorded");
  json_builder_add_string_value (jb, b->recorded);
  json_builder_set_member_name (jb, "what");
  json_builder_add_string_value (jb, b->what);
  json_builder_set_member_name (jb, "pipeline");
  if (b->pipeline)
    json_builder_add_string_value (jb, b->pipeline);
  else
    json_builder_add_null_value (jb);
  gp_gate_add_strings (jb, "elements", b->elements);
  json_builder_set_member_name (jb, "machine");
  json_builder_add_string_value (jb, b->machine);
  json_builder_set_member_name (jb, "gstreamer");
  json_builder_add_string_value (jb, b->gstreamer);
  json_builder_set_member_name (jb, "runs");
  json_builder_begin_array (jb);
  for (i = 0; i < b->runs->len; i++)
    gp_gate_add_run (jb, g_ptr_array_index (b->runs, i));
  json_builder_end_array (jb);
  json_builder_end_object (jb);
  root = json_builder_get_root (jb);
  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, TRUE);
  text = json_generator_to_data (gen, NULL);
  ok = gp_atomic_file_write (path, text, strlen (text), error);
  g_free (text);
  json_node_unref (root);
  g_object_unref (gen);
  g_object_unref (jb);
  return ok;
}

/* The kind a metric's key starts with ("rate fakesink0"), or
 * GP_GATE_N_KINDS. */
static GpGateKind
gp_gate_kind_of_key (const gchar * key)
{
  guint k;

  for (k = 0; k < GP_GATE_N_KINDS; k++) {
    gsize n = strlen (gp_gate_kinds[k].name);

    if (strncmp (key, gp_gate_kinds[k].name, n) == 0 && key[n] == ' ' &&
        key[n + 1] != '\0')
      return (GpGateKind) k;
  }
  return GP_GATE_N_KINDS;
}

/* The kinds a buffer's size scales: a rate in buffers, a time a buffer. */
static gboolean
gp_gate_kind_per_media (GpGateKind kind)
{
  return kind == GP_GATE_RATE || kind == GP_GATE_CPU || kind == GP_GATE_SELF;
}

/* A run's "units" (rate metric -> one of gp_gate_rate_units) and
 * "buffer_ms" (rate, cpu or self metric -> ms above 0), both optional. */
static gboolean
gp_gate_read_tables (GpJsonReader * r, JsonObject * o, const gchar * path,
    GpGateRun * run)
{
  JsonObject *units = NULL, *buffers = NULL;
  gchar *upath = gp_json_key_path (path, "units");
  gchar *bpath = gp_json_key_path (path, "buffer_ms");
  GList *members, *l;
  gboolean ok;

  ok = gp_json_read_object (r, o, path, "units", &units) &&
      gp_json_read_object (r, o, path, "buffer_ms", &buffers);
  members = units ? json_object_get_members (units) : NULL;
  for (l = members; l && ok; l = l->next) {
    const gchar *key = l->data, *v = NULL;
    guint i;

    if (!gp_json_read_string (r, units, upath, key, &v))
      ok = FALSE;
    for (i = 0; ok && v && gp_gate_rate_units[i] &&
        strcmp (v, gp_gate_rate_units[i]) != 0; i++);
    if (ok && (gp_gate_kind_of_key (key) != GP_GATE_RATE || v == NULL ||
            gp_gate_rate_units[i] == NULL))
      ok = gp_json_reader_fail (r, upath, "'%.80s': expected a rate metric "
          "and packets/s or buffers/s", key);
    if (ok)
      g_hash_table_replace (run->units, g_strdup (key),
          (gpointer) gp_gate_rate_units[i]);
  }
  g_list_free (members);
  members = buffers ? json_object_get_members (buffers) : NULL;
  for (l = members; l && ok; l = l->next) {
    const gchar *key = l->data;
    gdouble v = NAN;

    if (!gp_json_read_number (r, buffers, bpath, key, GP_JSON_MAX_MAGNITUDE,
            &v))
      ok = FALSE;
    else if (!gp_gate_kind_per_media (gp_gate_kind_of_key (key)) ||
        !(v > 0))
      ok = gp_json_reader_fail (r, bpath, "'%.80s': expected a rate, cpu or "
          "self metric and a time above 0", key);
    else {
      gdouble *box = g_new (gdouble, 1);

      *box = v;
      g_hash_table_replace (run->buffer_ms, g_strdup (key), box);
    }
  }
  g_list_free (members);
  g_free (upath);
  g_free (bpath);
  return ok;
}

static gboolean
gp_gate_read_run (GpJsonReader * r, JsonObject * o, const gchar * path,
    GpGateRun * run)
{
  JsonObject *metrics = NULL;
  GList *members, *l;
  gboolean ok;

  ok = gp_json_read_object (r, o, path, "metrics", &metrics) &&
      gp_json_read_string_array (r, o, path, "findings", run->findings) &&
      gp_json_read_number (r, o, path, "reference_ns", GP_JSON_MAX_MAGNITUDE,
      &run->reference_ns);
  if (ok && !isnan (run->reference_ns) && !(run->reference_ns > 0))
    ok = gp_json_reader_fail (r, path, "reference_ns: expected a time "
        "above 0");
  ok = ok && gp_gate_read_tables (r, o, path, run);
  if (!ok || metrics == NULL)
    return ok;
  members = json_object_get_members (metrics);
  for (l = members; l && ok; l = l->next) {
    const gchar *key = l->data;
    gchar *mpath = gp_json_key_path (path, "metrics");
    gdouble v = NAN;

    if (gp_gate_kind_of_key (key) == GP_GATE_N_KINDS)
      ok = gp_json_reader_fail (r, mpath, "'%.80s' is not a gate metric "
          "(KIND NAME, KIND one of rate, latency, latency-p95, cpu, self, "
          "dropped, late)", key);
    else if (gp_json_read_number (r, metrics, mpath, key,
            GP_JSON_MAX_MAGNITUDE, &v) && !(v >= 0))
      ok = gp_json_reader_fail (r, mpath, "'%.80s': expected a number, 0 "
          "or more", key);
    else if (gp_json_reader_ok (r)) {
      gdouble *box = g_new (gdouble, 1);

      *box = v;
      g_hash_table_replace (run->metrics, g_strdup (key), box);
    } else
      ok = FALSE;
    g_free (mpath);
  }
  g_list_free (members);
  return ok;
}

static gboolean
gp_gate_read_top (GpJsonReader * r, JsonObject * o, GpGateBaseline * b)
{
  const gchar *what = NULL, *pipeline = NULL, *machine = NULL, *gst = NULL,
      *recorded = NULL;
  JsonArray *runs = NULL;
  gint schema = 0;
  guint i;

  if (!gp_json_read_int (r, o, "", "gstprof_gate", 0, &schema))
    return FALSE;
  if (schema != GP_GATE_SCHEMA)
    return gp_json_reader_fail (r, "gstprof_gate", "not a gstprof gate "
        "baseline of format %d (gstprof gate --record writes one)",
        GP_GATE_SCHEMA);
  if (!gp_json_read_string (r, o, "", "what", &what) ||
      !gp_json_read_string (r, o, "", "pipeline", &pipeline) ||
      !gp_json_read_string (r, o, "", "machine", &machine) ||
      !gp_json_read_string (r, o, "", "gstreamer", &gst) ||
      !gp_json_read_string (r, o, "", "recorded", &recorded) ||
      !gp_json_read_string_array (r, o, "", "elements", b->elements) ||
      !gp_json_read_array (r, o, "", "runs", &runs))
    return FALSE;
  if (g_strcmp0 (what, "launch") != 0 && g_strcmp0 (what, "program") != 0
      && g_strcmp0 (what, "sessions") != 0)
    return gp_json_reader_fail (r, "what", "expected launch, program or "
        "sessions");
  if (machine == NULL || gst == NULL)
    return gp_json_reader_fail (r, machine ? "gstreamer" : "machine",
        "missing");
  if (runs == NULL || json_array_get_length (runs) == 0 ||
      json_array_get_length (runs) > GP_GATE_RUNS_MAX)
    return gp_json_reader_fail (r, "runs", "expected 1 to %d runs",
        GP_GATE_RUNS_MAX);
  b->what = g_strdup (what);
  b->pipeline = g_strdup (pipeline);
  b->machine = g_strdup (machine);
  b->gstreamer = g_strdup (gst);
  b->recorded = g_strdup (recorded ? recorded : "");
  for (i = 0; i < json_array_get_length (runs); i++) {
    JsonObject *ro = NULL;
    gchar *rpath = NULL;
    GpGateRun *run;

    if (!gp_json_read_element_object (r, runs, i, "runs", &ro, &rpath))
      return FALSE;
    run = gp_gate_run_new ();
    g_ptr_array_add (b->runs, run);
    if (!gp_gate_read_run (r, ro, rpath, run)) {
      g_free (rpath);
      return FALSE;
    }
    g_free (rpath);
  }
  return TRUE;
}

GpGateBaseline *
gp_gate_baseline_parse (const gchar * data, gsize len, const gchar * origin,
    GError ** error)
{
  JsonNode *root = gp_json_parse_strict (data, len, origin, error);
  GpGateBaseline *b;
  GpJsonReader r;

  if (root == NULL)
    return NULL;
  b = gp_gate_baseline_empty ();
  gp_json_reader_init (&r, origin);
  if (!JSON_NODE_HOLDS_OBJECT (root))
    gp_json_reader_fail (&r, "", "expected an object (a gstprof gate "
        "baseline)");
  else
    gp_gate_read_top (&r, json_node_get_object (root), b);
  json_node_unref (root);
  if (!gp_json_reader_finish (&r, error)) {
    gp_gate_baseline_free (b);
    return NULL;
  }
  return b;
}

GpGateBaseline *
gp_gate_baseline_load (const gchar * path, GError ** error)
{
  gsize len = 0;
  gchar *data = gp_file_read_capped (path, GP_GATE_MAX_FILE_BYTES,
      "a gate baseline", &len, error);
  GpGateBaseline *b;

  if (data == NULL)
    return NULL;
  b = gp_gate_baseline_parse (data, len, path, error);
  g_free (data);
  return b;
}

static gchar *
gp_gate_joined (GPtrArray * list)
{
  GString *out = g_string_new (NULL);
  guint i;

  for (i = 0; i < list->len; i++)
    g_string_append_printf (out, "%s%s", i ? " " : "",
        (const gchar *) g_ptr_array_index (list, i));
  return g_string_free (out, FALSE);
}

gboolean
gp_gate_same_pipeline (const GpGateBaseline * base, GPtrArray * elements,
    gchar ** why)
{
  gchar *a = gp_gate_joined (base->elements);
  gchar *b = gp_gate_joined (elements);
  gboolean same = strcmp (a, b) == 0;

  if (!same)
    *why = g_strdup_printf ("it is of another pipeline (its elements: "
        "%.160s; these: %.160s)", a, b);
  g_free (a);
  g_free (b);
  return same;
}

gboolean
gp_gate_same_machine (const GpGateBaseline * base, const gchar * machine,
    const gchar * gstreamer, gboolean other_machine, gchar ** why)
{
  if (other_machine)
    return TRUE;
  if (g_strcmp0 (base->machine, machine) != 0) {
    *why = g_strdup_printf ("it was recorded on another machine (%s; this "
        "one: %s); --allow-other-machine compares anyway", base->machine,
        machine);
    return FALSE;
  }
  if (g_strcmp0 (base->gstreamer, gstreamer) != 0) {
    *why = g_strdup_printf ("it was recorded with another GStreamer (%s; "
        "this one: %s); --allow-other-machine compares anyway",
        base->gstreamer, gstreamer);
    return FALSE;
  }
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* judging                                                              */
/* ------------------------------------------------------------------ */

static gint
gp_gate_dcmp (gconstpointer x, gconstpointer y)
{
  gdouble a = *(const gdouble *) x, b = *(const gdouble *) y;

  return a < b ? -1 : a > b;
}

/* A value per buffer of @ms of media, per second of media: a rate's in
 * real time (1.0: a second of media a second), a time's in ms a second
 * of media. */
static gdouble
gp_gate_per_media (GpGateKind kind, gdouble v, gdouble ms)
{
  return kind == GP_GATE_RATE ? v * ms / 1000.0 : v * 1000.0 / ms;
}

/* @key's values in @runs, sorted: as recorded, or with @per_media per
 * second of media (gp_gate_per_media; runs without their buffers' time
 * left out). */
static GArray *
gp_gate_values (GPtrArray * runs, const gchar * key, gboolean per_media)
{
  GArray *v = g_array_new (FALSE, FALSE, sizeof (gdouble));
  GpGateKind kind = gp_gate_kind_of_key (key);
  guint i;

  for (i = 0; i < runs->len; i++) {
    GpGateRun *run = g_ptr_array_index (runs, i);
    gdouble *x = g_hash_table_lookup (run->metrics, key);
    gdouble *ms = per_media && run->buffer_ms ?
        g_hash_table_lookup (run->buffer_ms, key) : NULL;
    gdouble value;

    if (x == NULL || (per_media && ms == NULL))
      continue;
    value = per_media ? gp_gate_per_media (kind, *x, *ms) : *x;
    g_array_append_val (v, value);
  }
  g_array_sort (v, gp_gate_dcmp);
  return v;
}

static gdouble
gp_gate_median (const GArray * v)
{
  const gdouble *x = (const gdouble *) v->data;

  return v->len % 2 ? x[v->len / 2] : (x[v->len / 2 - 1] + x[v->len / 2]) /
      2;
}

/* half the range over the median */
static gdouble
gp_gate_spread (const GArray * v, gdouble median)
{
  const gdouble *x = (const gdouble *) v->data;

  if (v->len < 2 || median == 0)
    return NAN;
  return (x[v->len - 1] - x[0]) / 2 / fabs (median);
}

/* The exact rank test of @hi's values above @lo's. */
static gdouble
gp_gate_above (const GArray * lo, const GArray * hi)
{
  return gp_rank_test_greater ((const gdouble *) lo->data, lo->len,
      (const gdouble *) hi->data, hi->len);
}

/* Whether @na and @nb runs can reach GP_GATE_ALPHA at all. */
static gboolean
gp_gate_testable (guint na, guint nb)
{
  return na > 0 && nb > 0 && na <= GP_RANK_TEST_MAX &&
      nb <= GP_RANK_TEST_MAX && gp_rank_test_min_p (na, nb) < GP_GATE_ALPHA;
}

/* The median of @runs' references, NAN when none has one. */
static gdouble
gp_gate_reference (GPtrArray * runs)
{
  GArray *v = g_array_new (FALSE, FALSE, sizeof (gdouble));
  gdouble median = NAN;
  guint i;

  for (i = 0; i < runs->len; i++) {
    GpGateRun *run = g_ptr_array_index (runs, i);

    if (run->reference_ns > 0)
      g_array_append_val (v, run->reference_ns);
  }
  if (v->len) {
    g_array_sort (v, gp_gate_dcmp);
    median = gp_gate_median (v);
  }
  g_array_unref (v);
  return median;
}

/* @row's metric judged on @a and @b (sorted), moves under @floor (in
 * their unit) counting for nothing. */
static void
gp_gate_judge_metric (GArray * a, GArray * b, const GpGateThresholds * t,
    gdouble drift, gdouble floor, GpGateRow * row)
{
  const GpGateKindInfo *k = &gp_gate_kinds[row->kind];
  gdouble move, sa, sb;
  gboolean worse, beyond, testable = gp_gate_testable (a->len, b->len);

  row->base = gp_gate_median (a);
  row->now = gp_gate_median (b);
  row->threshold = t->max_regress[row->kind];
  /* the machine slower or faster by more than the threshold: no move
   * within that is the pipeline's */
  if (k->drifts && !isnan (drift))
    row->threshold = MAX (row->threshold, fabs (drift));
  row->change = row->base != 0 ? (row->now - row->base) / fabs (row->base) :
      row->now == 0 ? 0 : NAN;
  sa = gp_gate_spread (a, row->base);
  sb = gp_gate_spread (b, row->now);
  row->noise = isnan (sa) ? sb : isnan (sb) ? sa : MAX (sa, sb);
  move = row->now - row->base;
  worse = k->higher_better ? move < 0 : move > 0;
  beyond = fabs (move) > MAX (row->threshold * fabs (row->base), floor);
  /* the rank test in the direction the medians moved: now's runs above
   * the baseline's when the median rose, below when it fell; only where
   * it decides something and can reach the level (per metric: a figure
   * some runs lack has fewer values) */
  row->p = !beyond || !testable ? NAN : move > 0 ? gp_gate_above (a, b) :
      gp_gate_above (b, a);
  if (!beyond)
    row->verdict = GP_GATE_SAME;
  else if (testable && !(row->p < GP_GATE_ALPHA))
    row->verdict = GP_GATE_NOISE;
  else
    row->verdict = worse ? GP_GATE_REGRESSION : GP_GATE_IMPROVED;
}

/* The median of @runs' buffer_ms of @key; NAN when no run has one. */
static gdouble
gp_gate_buffer_ms (GPtrArray * runs, const gchar * key)
{
  GArray *v = g_array_new (FALSE, FALSE, sizeof (gdouble));
  gdouble m = NAN;
  guint i;

  for (i = 0; i < runs->len; i++) {
    GpGateRun *run = g_ptr_array_index (runs, i);
    gdouble *x = run->buffer_ms ? g_hash_table_lookup (run->buffer_ms,
        key) : NULL;

    if (x)
      g_array_append_val (v, *x);
  }
  g_array_sort (v, gp_gate_dcmp);
  if (v->len > 0)
    m = gp_gate_median (v);
  g_array_unref (v);
  return m;
}

/* The unit @key's values are in: a rate's as any run of @now, else of
 * @base, says (fps when none does). */
static const gchar *
gp_gate_unit (const GpGateBaseline * base, const GpGateBaseline * now,
    const gchar * key)
{
  const GpGateBaseline *sides[] = { now, base };
  guint i, j;

  for (j = 0; j < G_N_ELEMENTS (sides); j++)
    for (i = 0; i < sides[j]->runs->len; i++) {
      GpGateRun *run = g_ptr_array_index (sides[j]->runs, i);
      const gchar *u = run->units ? g_hash_table_lookup (run->units, key) :
          NULL;

      if (u)
        return u;
    }
  return gp_gate_kinds[gp_gate_kind_of_key (key)].unit;
}

/* A metric's row: a rate, CPU or self time whose buffers changed size
 * (GP_GATE_BUFFER_CHANGE) is judged per second of media, its floor the
 * per-buffer floor at the baseline's buffers. */
static void
gp_gate_judge_key (const GpGateBaseline * base, const GpGateBaseline * now,
    const GpGateThresholds * t, gdouble drift, const gchar * key,
    GpGateRow * row)
{
  GArray *a, *b;
  gdouble floor;

  row->kind = gp_gate_kind_of_key (key);
  row->unit = gp_gate_unit (base, now, key);
  floor = gp_gate_kinds[row->kind].floor;
  row->base_buffer_ms = row->now_buffer_ms = NAN;
  if (gp_gate_kind_per_media (row->kind)) {
    gdouble ba = gp_gate_buffer_ms (base->runs, key);
    gdouble bb = gp_gate_buffer_ms (now->runs, key);

    if (ba > 0 && bb > 0 && fabs (bb / ba - 1) > GP_GATE_BUFFER_CHANGE) {
      row->base_buffer_ms = ba;
      row->now_buffer_ms = bb;
      row->unit = row->kind == GP_GATE_RATE ? "x real time" : "ms/s";
      floor = gp_gate_per_media (row->kind, floor, ba);
    }
  }
  a = gp_gate_values (base->runs, key, !isnan (row->base_buffer_ms));
  b = gp_gate_values (now->runs, key, !isnan (row->base_buffer_ms));
  row->base_runs = a->len;
  row->now_runs = b->len;
  /* in at least half the runs of each side, or it is not the same
   * metric there (a sink that came and went) */
  if (2 * a->len < base->runs->len || 2 * b->len < now->runs->len) {
    row->base = a->len ? gp_gate_median (a) : NAN;
    row->now = b->len ? gp_gate_median (b) : NAN;
    row->change = row->noise = row->p = NAN;
    row->threshold = t->max_regress[row->kind];
    row->verdict = GP_GATE_UNMATCHED;
  } else
    gp_gate_judge_metric (a, b, t, drift, floor, row);
  g_array_unref (a);
  g_array_unref (b);
}

/* A finding is a regression when in more than half the new runs and in
 * none of the baseline's; cleared when the reverse. */
static void
gp_gate_judge_finding (guint in_a, guint na, guint in_b, guint nb,
    GpGateRow * row)
{
  row->kind = GP_GATE_N_KINDS;
  row->base = in_a;
  row->now = in_b;
  row->change = row->noise = row->p = row->threshold = NAN;
  if (2 * in_b > nb && in_a == 0)
    row->verdict = GP_GATE_REGRESSION;
  else if (2 * in_a > na && in_b == 0)
    row->verdict = GP_GATE_IMPROVED;
  else
    row->verdict = GP_GATE_SAME;
}

/* every metric key of @runs into @keys, and every finding into @finds */
static void
gp_gate_collect (GPtrArray * runs, GHashTable * keys, GHashTable * finds)
{
  GHashTableIter it;
  gpointer key;
  guint i, j;

  for (i = 0; i < runs->len; i++) {
    GpGateRun *run = g_ptr_array_index (runs, i);

    g_hash_table_iter_init (&it, run->metrics);
    while (g_hash_table_iter_next (&it, &key, NULL))
      g_hash_table_add (keys, key);
    for (j = 0; j < run->findings->len; j++)
      g_hash_table_add (finds, g_ptr_array_index (run->findings, j));
  }
}

/* metrics by kind, then by name */
static gint
gp_gate_key_cmp (gconstpointer x, gconstpointer y)
{
  const gchar *a = *(const gchar * const *) x, *b = *(const gchar * const *) y;
  GpGateKind ka = gp_gate_kind_of_key (a), kb = gp_gate_kind_of_key (b);

  return ka != kb ? (gint) ka - (gint) kb : strcmp (a, b);
}

/* how many of @runs hold finding @f */
static guint
gp_gate_count_finding (GPtrArray * runs, const gchar * f)
{
  guint i, j, n = 0;

  for (i = 0; i < runs->len; i++) {
    GpGateRun *run = g_ptr_array_index (runs, i);

    for (j = 0; j < run->findings->len; j++)
      if (strcmp (g_ptr_array_index (run->findings, j), f) == 0) {
        n++;
        break;
      }
  }
  return n;
}

GpGateResult *
gp_gate_judge (const GpGateBaseline * base, const GpGateBaseline * now,
    const GpGateThresholds * t)
{
  GpGateResult *r = g_new0 (GpGateResult, 1);
  GHashTable *keys = g_hash_table_new (g_str_hash, g_str_equal);
  GHashTable *finds = g_hash_table_new (g_str_hash, g_str_equal);
  GPtrArray *list;
  guint i;

  r->rows = g_array_new (FALSE, TRUE, sizeof (GpGateRow));
  r->base_n = base->runs->len;
  r->now_n = now->runs->len;
  r->testable = gp_gate_testable (r->base_n, r->now_n);
  {
    gdouble ra = gp_gate_reference (base->runs);
    gdouble rb = gp_gate_reference (now->runs);

    r->drift = ra > 0 && rb > 0 ? rb / ra - 1 : NAN;
  }
  gp_gate_collect (base->runs, keys, finds);
  gp_gate_collect (now->runs, keys, finds);

  list = gp_gate_sorted_keys (keys, gp_gate_key_cmp);
  for (i = 0; i < list->len; i++) {
    const gchar *key = g_ptr_array_index (list, i);
    GpGateRow row = { 0 };

    if (gp_gate_kind_of_key (key) == GP_GATE_N_KINDS)
      continue;
    row.metric = g_strdup (key);
    gp_gate_judge_key (base, now, t, r->drift, key, &row);
    g_array_append_val (r->rows, row);
  }
  g_ptr_array_unref (list);

  list = gp_gate_sorted_keys (finds, gp_gate_strcmp);
  for (i = 0; i < list->len; i++) {
    const gchar *f = g_ptr_array_index (list, i);
    GpGateRow row = { 0 };

    row.metric = g_strdup_printf ("finding %s", f);
    row.base_buffer_ms = row.now_buffer_ms = NAN;
    row.base_runs = gp_gate_count_finding (base->runs, f);
    row.now_runs = gp_gate_count_finding (now->runs, f);
    gp_gate_judge_finding (row.base_runs, r->base_n, row.now_runs, r->now_n,
        &row);
    g_array_append_val (r->rows, row);
  }
  g_ptr_array_unref (list);
  g_hash_table_unref (keys);
  g_hash_table_unref (finds);

  for (i = 0; i < r->rows->len; i++) {
    GpGateRow *row = &g_array_index (r->rows, GpGateRow, i);

    r->regressions += row->verdict == GP_GATE_REGRESSION;
    r->improvements += row->verdict == GP_GATE_IMPROVED;
  }
  return r;
}

void
gp_gate_result_free (GpGateResult * r)
{
  guint i;

  if (r == NULL)
    return;
  for (i = 0; i < r->rows->len; i++)
    g_free (g_array_index (r->rows, GpGateRow, i).metric);
  g_array_unref (r->rows);
  g_free (r);
}

/* ------------------------------------------------------------------ */
/* output                                                               */
/* ------------------------------------------------------------------ */

static const gchar *
gp_gate_verdict_word (const GpGateRow * row)
{
  switch (row->verdict) {
    case GP_GATE_SAME:
      return "ok";
    case GP_GATE_NOISE:
      return "ok (noise)";
    case GP_GATE_IMPROVED:
      return row->kind == GP_GATE_N_KINDS ? "cleared" : "improved";
    case GP_GATE_REGRESSION:
      return row->kind == GP_GATE_N_KINDS ? "REGRESSION (new)" :
          "REGRESSION";
    case GP_GATE_UNMATCHED:
    default:
      return "not in both";
  }
}

/* a value in its kind's unit; "-" unknown */
static gchar *
gp_gate_value (const GpGateRow * row, gdouble v, guint runs, guint of)
{
  if (row->kind == GP_GATE_N_KINDS)
    return g_strdup_printf ("%u/%u runs", runs, of);
  if (isnan (v))
    return g_strdup ("-");
  if (g_str_has_prefix (row->unit, "ms"))
    return g_strdup_printf ("%.3g %s", v, row->unit);
  if (strcmp (row->unit, "x real time") == 0)
    return g_strdup_printf ("%.2fx real time", v);
  if (row->kind == GP_GATE_RATE)
    return g_strdup_printf ("%.1f %s", v, row->unit);
  return g_strdup_printf ("%.0f", v);
}

static gchar *
gp_gate_percent (gdouble share, gboolean plus_minus)
{
  if (isnan (share) || isinf (share))
    return g_strdup ("-");
  return g_strdup_printf (plus_minus ? "\302\261%.1f%%" : "%+.1f%%",
      100 * share);
}

static gchar *
gp_gate_p (const GpGateRow * row)
{
  return isnan (row->p) ? g_strdup ("-") : g_strdup_printf ("%.3f", row->p);
}

static const gchar *
gp_gate_result_word (const GpGateResult * r)
{
  return r->regressions ? "FAIL" : "PASS";
}

static gchar *gp_gate_md_cell (const gchar * text);

/* The result in a line; @md: the metrics' names escaped for Markdown. */
static void
gp_gate_summary_line (GString * out, const GpGateResult * r, gboolean md)
{
  guint i, n = 0;

  g_string_append_printf (out, "%s: %u regression%s, %u improvement%s",
      gp_gate_result_word (r), r->regressions, r->regressions == 1 ? "" :
      "s", r->improvements, r->improvements == 1 ? "" : "s");
  for (i = 0; i < r->rows->len; i++) {
    const GpGateRow *row = &g_array_index (r->rows, GpGateRow, i);

    gchar *name;

    if (row->verdict != GP_GATE_REGRESSION)
      continue;
    name = md ? gp_gate_md_cell (row->metric) : g_strdup (row->metric);
    g_string_append_printf (out, "%s%s", n++ ? ", " : " (", name);
    g_free (name);
  }
  g_string_append (out, n ? ")\n" : "\n");
}

/* A line under the table for each self time judged per second of media,
 * @md: its name escaped for Markdown. */
static void
gp_gate_say_per_media (GString * out, const GpGateResult * r, gboolean md)
{
  guint i;

  for (i = 0; i < r->rows->len; i++) {
    const GpGateRow *row = &g_array_index (r->rows, GpGateRow, i);
    gchar *name;

    if (isnan (row->base_buffer_ms))
      continue;
    name = md ? gp_gate_md_cell (row->metric) : g_strdup (row->metric);
    g_string_append_printf (out, "%s: its buffers went from %.3g to %.3g ms "
        "of media, so it is judged per second of media (%s), not per "
        "buffer\n", name, row->base_buffer_ms, row->now_buffer_ms,
        row->unit);
    g_free (name);
  }
}

static gchar *
gp_gate_method (const GpGateResult * r)
{
  if (r->testable)
    return g_strdup_printf ("a regression moved its median past its "
        "threshold and differs beyond the runs' noise: exact one-sided "
        "Wilcoxon-Mann-Whitney rank test, p < %.2f", GP_GATE_ALPHA);
  return g_strdup_printf ("judged on the thresholds alone: the rank test "
      "cannot reach p < %.2f with %u and %u runs (%d a side can)",
      GP_GATE_ALPHA, r->base_n, r->now_n, GP_GATE_RUNS_DEFAULT);
}

/* The machine's drift between the two sets, by its fixed work. */
static void
gp_gate_say_drift (GString * out, const GpGateResult * r)
{
  if (isnan (r->drift))
    g_string_append (out, "machine: its drift between the runs is not "
        "known (a side without the sampler's fixed work)\n");
  else
    g_string_append_printf (out, "machine: %.1f%% %s for the new runs by "
        "its fixed work; every threshold but dropped's at least that\n",
        100 * fabs (r->drift), r->drift >= 0 ? "slower" : "faster");
}

gchar *
gp_gate_format (const GpGateResult * r, const gchar * base_path)
{
  GString *out = g_string_new (NULL);
  gchar *method = gp_gate_method (r);
  gint w = 6;
  guint i;

  g_string_append_printf (out, "gstprof gate: %u run%s against %u in %s\n",
      r->now_n, r->now_n == 1 ? "" : "s", r->base_n, base_path);
  g_string_append_printf (out, "method: %s\n", method);
  g_free (method);
  gp_gate_say_drift (out, r);
  g_string_append_c (out, '\n');
  for (i = 0; i < r->rows->len; i++)
    w = MAX (w, (gint) MIN (strlen (g_array_index (r->rows, GpGateRow,
                    i).metric), 64));
  g_string_append_printf (out, "  %-*s %12s %12s %8s %8s %6s  %s\n", w,
      "metric", "baseline", "now", "change", "noise", "p", "verdict");
  for (i = 0; i < r->rows->len; i++) {
    const GpGateRow *row = &g_array_index (r->rows, GpGateRow, i);
    gchar *a = gp_gate_value (row, row->base, row->base_runs, r->base_n);
    gchar *b = gp_gate_value (row, row->now, row->now_runs, r->now_n);
    gchar *c = gp_gate_percent (row->change, FALSE);
    gchar *n = gp_gate_percent (row->noise, TRUE);
    gchar *p = gp_gate_p (row);

    g_string_append_printf (out, "  %-*.64s %12s %12s %8s %8s %6s  %s", w,
        row->metric, a, b, c, n, p, gp_gate_verdict_word (row));
    if (row->verdict == GP_GATE_REGRESSION && row->kind != GP_GATE_N_KINDS)
      g_string_append_printf (out, " (over %.0f%%)", 100 * row->threshold);
    g_string_append_c (out, '\n');
    g_free (a);
    g_free (b);
    g_free (c);
    g_free (n);
    g_free (p);
  }
  g_string_append_c (out, '\n');
  gp_gate_say_per_media (out, r, FALSE);
  gp_gate_summary_line (out, r, FALSE);
  return g_string_free (out, FALSE);
}

/* @value as an XML 1.0 attribute: valid UTF-8, every control character
 * (which XML 1.0 cannot carry, even as a reference) a space, then
 * escaped. */
static void
gp_gate_xml_attr (GString * out, const gchar * name, const gchar * value)
{
  gchar *valid = g_utf8_make_valid (value, -1), *c, *esc;

  for (c = valid; *c; c++)
    if ((guchar) * c < 0x20 || *c == 0x7f)
      *c = ' ';
  esc = g_markup_escape_text (valid, -1);
  g_free (valid);

  g_string_append_printf (out, " %s=\"%s\"", name, esc);
  g_free (esc);
}

gchar *
gp_gate_junit (const GpGateResult * r, const gchar * failed_why)
{
  GString *out = g_string_new ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
  guint tests = failed_why ? 1 : r->rows->len;
  guint failures = failed_why ? 0 : r->regressions, i;
  gchar *counts = g_strdup_printf (" tests=\"%u\" failures=\"%u\" "
      "errors=\"%u\"", tests, failures, failed_why ? 1 : 0);

  g_string_append_printf (out, "<testsuites name=\"gstprof gate\"%s>\n"
      "  <testsuite name=\"gstprof gate\"%s skipped=\"0\">\n", counts,
      counts);
  g_free (counts);
  if (failed_why) {
    g_string_append (out, "    <testcase classname=\"gstprof.gate\" "
        "name=\"the pipeline runs\">\n      <error");
    gp_gate_xml_attr (out, "message", failed_why);
    g_string_append (out, " type=\"pipeline\"/>\n    </testcase>\n");
  }
  for (i = 0; !failed_why && i < r->rows->len; i++) {
    const GpGateRow *row = &g_array_index (r->rows, GpGateRow, i);
    gchar *cls = g_strdup_printf ("gstprof.gate.%s",
        gp_gate_kind_name (row->kind));

    g_string_append (out, "    <testcase");
    gp_gate_xml_attr (out, "classname", cls);
    gp_gate_xml_attr (out, "name", row->metric);
    g_free (cls);
    if (row->verdict == GP_GATE_REGRESSION) {
      gchar *a = gp_gate_value (row, row->base, row->base_runs, r->base_n);
      gchar *b = gp_gate_value (row, row->now, row->now_runs, r->now_n);
      gchar *c = gp_gate_percent (row->change, FALSE);
      gchar *p = gp_gate_p (row);
      gchar *msg = g_strdup_printf ("%s: %s against %s in the baseline "
          "(%s, p = %s)", row->metric, b, a, c, p);

      g_string_append (out, ">\n      <failure type=\"regression\"");
      gp_gate_xml_attr (out, "message", msg);
      g_string_append (out, "/>\n    </testcase>\n");
      g_free (msg);
      g_free (a);
      g_free (b);
      g_free (c);
      g_free (p);
    } else
      g_string_append (out, "/>\n");
  }
  g_string_append (out, "  </testsuite>\n</testsuites>\n");
  return g_string_free (out, FALSE);
}

/* @text in a Markdown table cell: its pipes and backticks escaped */
static gchar *
gp_gate_md_cell (const gchar * text)
{
  GString *out = g_string_new (NULL);
  const gchar *c;

  for (c = text; *c; c++) {
    if (*c == '|' || *c == '`' || *c == '\\' || *c == '*' || *c == '_' ||
        *c == '<' || *c == '[')
      g_string_append_c (out, '\\');
    g_string_append_c (out, *c == '\n' || *c == '\r' ? ' ' : *c);
  }
  return g_string_free (out, FALSE);
}

gchar *
gp_gate_markdown (const GpGateResult * r, const gchar * base_path,
    const gchar * failed_why)
{
  GString *out = g_string_new (NULL), *notes;
  gchar *path = gp_gate_md_cell (base_path), *method;
  guint i;

  if (failed_why) {
    gchar *why = gp_gate_md_cell (failed_why);

    g_string_append_printf (out, "### gstprof gate: the pipeline failed\n\n"
        "%s\n", why);
    g_free (why);
    g_free (path);
    return g_string_free (out, FALSE);
  }
  method = gp_gate_method (r);
  g_string_append (out, "### gstprof gate: ");
  gp_gate_summary_line (out, r, TRUE);
  gp_gate_say_drift (out, r);
  g_string_append_printf (out, "\n%u runs against %u in %s; %s.\n\n"
      "| metric | baseline | now | change | noise | p | verdict |\n"
      "|---|---:|---:|---:|---:|---:|---|\n", r->now_n, r->base_n, path,
      method);
  g_free (method);
  g_free (path);
  for (i = 0; i < r->rows->len; i++) {
    const GpGateRow *row = &g_array_index (r->rows, GpGateRow, i);
    gchar *m = gp_gate_md_cell (row->metric);
    gchar *a = gp_gate_value (row, row->base, row->base_runs, r->base_n);
    gchar *b = gp_gate_value (row, row->now, row->now_runs, r->now_n);
    gchar *c = gp_gate_percent (row->change, FALSE);
    gchar *n = gp_gate_percent (row->noise, TRUE);
    gchar *p = gp_gate_p (row);

    g_string_append_printf (out, "| %s | %s | %s | %s | %s | %s | %s%s%s |\n",
        m, a, b, c, n, p, row->verdict == GP_GATE_REGRESSION ? "**" : "",
        gp_gate_verdict_word (row), row->verdict == GP_GATE_REGRESSION ?
        "**" : "");
    g_free (m);
    g_free (a);
    g_free (b);
    g_free (c);
    g_free (n);
    g_free (p);
  }
  notes = g_string_new (NULL);
  gp_gate_say_per_media (notes, r, TRUE);
  if (notes->len > 0)
    g_string_append_printf (out, "\n%s", notes->str);
  g_string_free (notes, TRUE);
  return g_string_free (out, FALSE);
}
