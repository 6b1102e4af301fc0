/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-ingest-gstprofile.c: sessions saved by gst-profile (ProventusNova
 * pn-tools, schema "gst-profile/1") read into the GpSession model, so that
 * `gstprof analyze` gives its verdict on captures made with that tool, e.g.
 * on Jetson boards where gstprof did not run.
 *
 * What the file holds (../shared/reference/gst-profile.md, sections 2.5 and
 * 4): a graph from dot dumps and the core tracers' records, a columnar
 * series of 250 ms windows (per element the p50/p95 of the core latency
 * tracer's element-latency, per link fps and bytes/s, pipeline latency
 * p50/p95), a map of thread CPU, events and the tool's own findings.
 *
 * How it maps:
 *  - session: mode "analyze" (the file's own mode is kept in import_mode,
 *    its schema in import_schema); launch, started, duration_s; gstreamer
 *    and platform from "target"; window_s from series.window_ms; exit_code
 *    from the last "child-exit" event.
 *  - graph: element "id" is the name, "bin" the parent ("" when null).
 *    The kind comes from the pads the dot dump listed (only src pads:
 *    source, only sink pads: sink), else from the links; queue, queue2 and
 *    multiqueue are queues, tee is tee, bins are bins, the rest filters.
 *    gst-profile guesses factories from GType names, which is wrong for a
 *    few elements (JetPack 6's nvvidconv has GType "Gstnvvconv"): those
 *    are corrected from a table of known GTypes. "props" are kept as the
 *    strings the dot dump showed. Pads are "element.pad" as in our graph
 *    (theirs are "element:pad"). Link memory: nvmm -> "memory:NVMM",
 *    dmabuf -> "memory:DMABuf", sysmem -> "system", unknown -> the caps
 *    feature when the caps name one, else NULL. Caps in dot's pretty form
 *    ("video/x-raw  format: NV12  width: 1920 ...") become a caps string
 *    ("video/x-raw, format=NV12, width=1920"); fields the dot dump cut
 *    short ("...") are left out rather than passed on truncated. A link
 *    with no caps text but a media type gets caps from media, memory and
 *    format, which the file records separately.
 *  - hw_elements: the file has no list of the machine's registered
 *    factories ("target.sources_present" lists data sources: tracer-log,
 *    dot, procstat, tegrastats). What it does prove is that every factory
 *    the pipeline instantiated was registered, so the hardware ones among
 *    them are listed, and GP_IMPORT_MISSING_HW_REGISTRY says the list is
 *    partial.
 *  - summary.elements: per element, its per-window p50/p95 are merged over
 *    the run (gp_mixture_quantile, src/core/gp-stats.h: a buffer-weighted
 *    mixture of the windows, exact when the windows agree, and not a p95
 *    of p95s, which one warm-up window drags up); buffers are summed. A queue's
 *    element-latency is its residence (the buffer waits in the queue), so
 *    it goes to summary.queues as residence_ms, never to self time.
 *  - summary.links: fps and bytes/s are the mean over the windows where
 *    the link carried data, without the first and the last such window
 *    when at least three have data (the capture started and stopped inside
 *    them), like gp-aggregate.h's steady-state rates. A file does not say
 *    how many buffers a link carried; buffers = sum of fps x window.
 *  - summary.paths: the pipeline latency p50/p95 series is one path, from
 *    the source's src pad to the sink when the graph has exactly one of
 *    each (else both names are ""), merged like element times with the
 *    sink's buffers per window as weights; matched is that estimate of the
 *    buffer count. The same path is in summary.interlatency.
 *  - summary.threads: from the "threads" map ("tid:comm" -> % of one core,
 *    the last sample the tool took), as cpu_pct_mean; cpu_pct_max unknown.
 *  - summary.sinks and target_fps / frame_period_ms: achieved fps of the
 *    sink's input links; target rate from the caps framerate on the
 *    links (the sink's input for the sink, the source's output for the
 *    session).
 *  - series: one window object per column index, in the shape of our
 *    series (t0, t1, elements.*.self_ms_p50/p95 and buffers, links.*.fps
 *    and bytes_per_s, paths); a queue's times go to queues.*.residence_ms_*.
 *  - events: kept ("state-changed" becomes "state"; error, eos, warning
 *    and the rest keep their kind), with no source element (the file has
 *    none). Their findings are ignored: our rules recompute everything.
 *
 * What is missing on import (GpSession.import_missing, all of
 * GP_INGEST_GSTPROFILE_MISSING; docs/rules.md says which rules cannot run
 * on imports because of it):
 *  - no exclusive self time: element-latency is wall time inside the
 *    element, including waits inside elements that run their own thread
 *    (hardware encoders), and sources and sinks have none at all;
 *  - no per-buffer histograms: only per-window p50/p95, so p99 and max are
 *    unknown and self_total_ms is an estimate (sum of buffers x median);
 *  - no thread map per element (which thread ran which element), no CPU
 *    time per element (their per-element cpu_pct is the owning thread's
 *    CPU copied to every element downstream of it, so it is not read), and
 *    thread CPU is one sample, not a mean;
 *  - no real property values: only the non-default ones, as strings, some
 *    truncated; an absent property is unknown, not its default;
 *  - no queue levels, drops, leakiness or blocked time (the file's
 *    queue_level column is always null); leaky is "unknown" unless the
 *    dot dump recorded it;
 *  - no registry of hardware factories (see hw_elements above);
 *  - latency is one series for the whole pipeline (paths mixed), without
 *    unmatched counts or interlatency to each element;
 *  - no QoS events or drops; system load (CPU per core, GPU/VIC/NVENC from
 *    tegrastats) has no place in the model yet and is not imported.
 *
 * Input is untrusted: a value of the wrong type, a number that is not
 * finite or is out of range, a series column whose length differs from
 * series.t, a duplicate element: each is one error line naming the file and
 * the key path. Absent or null keys take their defaults.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gp-ingest.h"
#include "core/gp-json.h"
#include "core/gp-stats.h"
#include "core/gp-caps.h"
#include "core/gp-series.h"
#include "core/gp-hw-factories.h"

/* gst-profile's default when series.window_ms is absent. */
#define GP_IMP_DEFAULT_WINDOW_MS 250.0

/* ------------------------------------------------------------------ */
/* state and errors                                                     */
/* ------------------------------------------------------------------ */

typedef struct
{
  GpElement *e;                 /* owned by the session */
  guint n_src_pads, n_sink_pads;
  guint n_links_out, n_links_in;
} GpImpElement;

typedef struct
{
  gchar *name;                  /* element name */
  gdouble *p50, *p95, *buffers; /* n values each, NAN = null */
} GpImpElemCols;

typedef struct
{
  gchar *id;                    /* our link id */
  gchar *src_el, *sink_el;      /* element names */
  gdouble *fps, *bytes;
} GpImpLinkCols;

typedef struct
{
  GpJsonReader r;               /* the document's reads, its first error */
  GpSession *s;

  GHashTable *elements;         /* name -> GpImpElement* */
  GPtrArray *element_order;     /* GpImpElement*, as in the file */
  GHashTable *links;            /* their link id -> GpLink* (owned by s) */

  guint n;                      /* windows */
  gdouble *t;                   /* window starts, s */
  GPtrArray *elem_cols;         /* GpImpElemCols* */
  GPtrArray *link_cols;         /* GpImpLinkCols* */
  gdouble *lat_p50, *lat_p95;
} GpImport;

static void
gp_imp_elem_cols_free (GpImpElemCols * c)
{
  g_free (c->name);
  g_free (c->p50);
  g_free (c->p95);
  g_free (c->buffers);
  g_free (c);
}

static void
gp_imp_link_cols_free (GpImpLinkCols * c)
{
  g_free (c->id);
  g_free (c->src_el);
  g_free (c->sink_el);
  g_free (c->fps);
  g_free (c->bytes);
  g_free (c);
}

/* ------------------------------------------------------------------ */
/* typed access: absent and null both mean "not recorded"               */
/* ------------------------------------------------------------------ */

/* A number within GP_JSON_MAX_MAGNITUDE, and >= 0 when @non_negative;
 * absent or null leaves NAN in @out. */
static gboolean
gp_imp_number (GpImport * imp, JsonObject * o, const gchar * path,
    const gchar * key, gboolean non_negative, gdouble * out)
{
  if (!gp_json_read_number (&imp->r, o, path, key, GP_JSON_MAX_MAGNITUDE, out))
    return FALSE;
  if (non_negative && *out < 0)
    return gp_json_reader_expected (&imp->r, path, key,
        "a non-negative number");
  return TRUE;
}

typedef enum
{
  GP_IMP_COL_NUMBER,            /* numbers >= 0 or null */
  GP_IMP_COL_BOOL,              /* true/false or null */
  GP_IMP_COL_ARRAY,             /* arrays (of anything) or null */
} GpImpColType;

/* A series column: an array exactly as long as series.t, whose values are
 * of @type or null. Absent or null: every window unknown. For numbers,
 * @out (may be NULL) receives a new array of imp->n values, NAN for null;
 * it stays NULL when the column is absent. */
static gboolean
gp_imp_column (GpImport * imp, JsonObject * o, const gchar * path,
    const gchar * key, GpImpColType type, gdouble ** out)
{
  JsonArray *a;
  gdouble *vals = NULL;
  gchar *full;
  guint i, len;

  if (out)
    *out = NULL;
  if (!gp_json_read_array (&imp->r, o, path, key, &a))
    return FALSE;
  if (a == NULL)
    return TRUE;
  full = gp_json_key_path (path, key);
  len = json_array_get_length (a);
  if (len != imp->n) {
    gp_json_reader_fail (&imp->r, full, "has %u value%s but series.t has %u",
        len,
        len == 1 ? "" : "s", imp->n);
    g_free (full);
    return FALSE;
  }
  if (out && type == GP_IMP_COL_NUMBER)
    vals = g_new (gdouble, MAX (len, 1));
  for (i = 0; i < len; i++) {
    JsonNode *node = json_array_get_element (a, i);
    gdouble v = NAN;
    const gchar *bad = NULL;

    if (JSON_NODE_HOLDS_NULL (node)) {
      /* unknown in this window */
    } else if (type == GP_IMP_COL_NUMBER) {
      if (!gp_json_node_number (node, &v))
        bad = "a number or null";
      else if (!isfinite (v) || v < 0 || v > GP_JSON_MAX_MAGNITUDE)
        bad = "a non-negative number in range";
    } else if (type == GP_IMP_COL_BOOL) {
      if (!JSON_NODE_HOLDS_VALUE (node) ||
          json_node_get_value_type (node) != G_TYPE_BOOLEAN)
        bad = "true, false or null";
    } else if (!JSON_NODE_HOLDS_ARRAY (node)) {
      bad = "an array or null";
    }
    if (bad != NULL) {
      gp_json_reader_fail (&imp->r, full, "value %u: expected %s", i, bad);
      g_free (full);
      g_free (vals);
      return FALSE;
    }
    if (vals)
      vals[i] = v;
  }
  g_free (full);
  if (out)
    *out = vals;
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* small conversions                                                    */
/* ------------------------------------------------------------------ */

static guint64
gp_imp_to_count (gdouble v)
{
  if (!(v > 0))
    return 0;
  if (v >= 1.8e19)
    return G_MAXUINT64;
  return (guint64) (v + 0.5);
}

/* "element:pad" -> "element.pad": our graph's pad names. Element names
 * may hold ':' themselves, pad names do not, so the last one separates. */
static gchar *
gp_imp_pad_name (const gchar * pad)
{
  gchar *res = g_strdup (pad);
  gchar *colon = strrchr (res, ':');

  if (colon != NULL)
    *colon = '.';
  return res;
}

/* The element part of their "element:pad". */
static gchar *
gp_imp_pad_element (const gchar * pad)
{
  const gchar *colon = strrchr (pad, ':');

  return colon ? g_strndup (pad, colon - pad) : g_strdup (pad);
}

/* Element factories whose GType name is not "Gst" + the factory name, so
 * gst-profile's guess (strip "Gst", lower-case) names a factory that does
 * not exist. */
static const struct
{
  const gchar *gtype;
  const gchar *factory;
} gp_imp_gtype_factories[] = {
  {"Gstnvvconv", "nvvidconv"},
  {"GstEglGlesSink", "nveglglessink"},
  {"GstGLUploadElement", "glupload"},
  {"GstGLDownloadElement", "gldownload"},
  {"GstGLColorConvertElement", "glcolorconvert"},
  {"GstGLImageSinkBin", "glimagesink"},
  {"GstVaapiEncodeH264", "vaapih264enc"},
  {"GstVaapiEncodeH265", "vaapih265enc"},
};

static const gchar *
gp_imp_fix_factory (const gchar * factory, const gchar * gtype)
{
  guint i;

  if (gtype == NULL)
    return factory;
  for (i = 0; i < G_N_ELEMENTS (gp_imp_gtype_factories); i++) {
    if (strcmp (gtype, gp_imp_gtype_factories[i].gtype) == 0) {
      gchar *guess = g_ascii_strdown (g_str_has_prefix (gtype, "Gst") ?
          gtype + 3 : gtype, -1);
      gboolean guessed = factory == NULL || *factory == '\0' ||
          strcmp (factory, guess) == 0;

      g_free (guess);
      /* only a name that is their guess is replaced: anything else came
       * from somewhere that knew better */
      return guessed ? gp_imp_gtype_factories[i].factory : factory;
    }
  }
  return factory;
}

/* Their memory domain in our vocabulary (the caps feature). */
static gchar *
gp_imp_memory (const gchar * memory, const gchar * caps)
{
  if (g_strcmp0 (memory, "nvmm") == 0)
    return g_strdup ("memory:NVMM");
  if (g_strcmp0 (memory, "dmabuf") == 0)
    return g_strdup ("memory:DMABuf");
  if (g_strcmp0 (memory, "sysmem") == 0)
    return g_strdup ("system");
  /* "unknown" is what gst-profile says for any feature it has no name for
   * (CUDAMemory, GLMemory, ...): the caps still say which */
  return gp_caps_memory_feature (caps);
}


/* Window @i of a column, NAN when the column is absent. */
static inline gdouble
gp_imp_col (const gdouble * col, guint i)
{
  return col ? col[i] : NAN;
}

/* ------------------------------------------------------------------ */
/* session, target                                                      */
/* ------------------------------------------------------------------ */

static const gchar *
gp_imp_static_mode (const gchar * mode)
{
  static const gchar *const modes[] = { "run", "wrap", "analyze" };
  guint i;

  if (mode == NULL)
    return NULL;
  for (i = 0; i < G_N_ELEMENTS (modes); i++)
    if (strcmp (mode, modes[i]) == 0)
      return modes[i];
  return "other";
}

static gboolean
gp_imp_session_info (GpImport * imp, JsonObject * root)
{
  GpSession *s = imp->s;
  JsonObject *so, *to;
  const gchar *started, *mode, *launch, *gst, *platform;
  JsonArray *a;
  gdouble duration;

  if (!gp_json_read_object (&imp->r, root, "", "session", &so) ||
      !gp_json_read_string (&imp->r, so, "session", "started", &started) ||
      !gp_json_read_string (&imp->r, so, "session", "mode", &mode) ||
      !gp_json_read_string (&imp->r, so, "session", "launch", &launch) ||
      !gp_imp_number (imp, so, "session", "duration_s", TRUE, &duration))
    return FALSE;
  if (!gp_json_read_object (&imp->r, root, "", "target", &to) ||
      !gp_json_read_string (&imp->r, to, "target", "gstreamer", &gst) ||
      !gp_json_read_string (&imp->r, to, "target", "platform", &platform) ||
      !gp_json_read_array (&imp->r, to, "target", "sources_present", &a))
    return FALSE;

  g_free (s->mode);
  s->mode = g_strdup ("analyze");
  s->import_schema = GP_INGEST_SCHEMA_GSTPROFILE;
  s->import_mode = gp_imp_static_mode (mode);
  s->import_missing = GP_INGEST_GSTPROFILE_MISSING;
  g_free (s->launch);
  s->launch = g_strdup (launch);
  g_free (s->started);
  s->started = g_strdup (started ? started : "");
  s->duration_s = isnan (duration) ? -1 : duration;
  g_free (s->gstreamer);
  s->gstreamer = g_strdup (gst ? gst : "");
  g_free (s->platform);
  s->platform = g_strdup (platform && *platform ? platform : "generic");
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* graph                                                                */
/* ------------------------------------------------------------------ */

static gboolean
gp_imp_element (GpImport * imp, JsonArray * a, guint i)
{
  JsonNode *node = json_array_get_element (a, i);
  gchar *path = gp_json_index_path ("graph.elements", i);
  JsonObject *eo, *props, *pads;
  const gchar *id, *factory, *gtype, *klass, *bin;
  gboolean is_bin, ok = FALSE;
  GpImpElement *ie;
  GList *members, *l;

  if (!JSON_NODE_HOLDS_OBJECT (node)) {
    gp_json_reader_fail (&imp->r, path, "expected an object");
    goto out;
  }
  eo = json_node_get_object (node);
  if (!gp_json_read_string (&imp->r, eo, path, "id", &id) ||
      !gp_json_read_string (&imp->r, eo, path, "factory", &factory) ||
      !gp_json_read_string (&imp->r, eo, path, "gtype", &gtype) ||
      !gp_json_read_string (&imp->r, eo, path, "klass", &klass) ||
      !gp_json_read_string (&imp->r, eo, path, "bin", &bin) ||
      !gp_json_read_bool (&imp->r, eo, path, "is_bin", &is_bin) ||
      !gp_json_read_object (&imp->r, eo, path, "props", &props) ||
      !gp_json_read_object (&imp->r, eo, path, "pads", &pads))
    goto out;
  if (id == NULL || *id == '\0') {
    gp_json_reader_fail (&imp->r, path, "an element needs an \"id\"");
    goto out;
  }
  if (g_hash_table_contains (imp->elements, id)) {
    gchar *shown = g_strndup (id, 80);

    gp_json_reader_fail (&imp->r, path, "element \"%s\" is listed twice",
        shown);
    g_free (shown);
    goto out;
  }

  ie = g_new0 (GpImpElement, 1);
  ie->e = gp_element_new (id, gp_imp_fix_factory (factory, gtype), bin,
      NULL);
  ie->e->is_bin = is_bin;
  g_ptr_array_add (imp->s->elements, ie->e);
  g_hash_table_insert (imp->elements, ie->e->name, ie);
  g_ptr_array_add (imp->element_order, ie);

  /* only the non-default values a dot dump showed, as strings; an absent
   * property stays absent (unknown), never filled in with a default */
  ie->e->props = json_object_new ();
  members = props ? json_object_get_members (props) : NULL;
  for (l = members; l != NULL; l = l->next) {
    gchar *ppath = gp_json_key_path (path, "props");
    const gchar *v;
    gboolean good = gp_json_read_string (&imp->r, props, ppath, l->data, &v);

    g_free (ppath);
    if (!good) {
      g_list_free (members);
      goto out;
    }
    if (v != NULL)
      json_object_set_string_member (ie->e->props, l->data, v);
  }
  g_list_free (members);

  members = pads ? json_object_get_members (pads) : NULL;
  for (l = members; l != NULL; l = l->next) {
    gchar *ppath = gp_json_key_path (path, "pads");
    const gchar *dir;
    gboolean good = gp_json_read_string (&imp->r, pads, ppath, l->data, &dir);

    g_free (ppath);
    if (!good) {
      g_list_free (members);
      goto out;
    }
    if (g_strcmp0 (dir, "src") == 0)
      ie->n_src_pads++;
    else if (g_strcmp0 (dir, "sink") == 0)
      ie->n_sink_pads++;
  }
  g_list_free (members);
  ok = TRUE;
out:
  g_free (path);
  return ok;
}

static gboolean
gp_imp_link (GpImport * imp, JsonArray * a, guint i)
{
  JsonNode *node = json_array_get_element (a, i);
  gchar *path = gp_json_index_path ("graph.links", i);
  JsonObject *lo;
  const gchar *id, *src, *sink, *caps, *memory, *format, *media;
  gchar *our_src = NULL, *our_sink = NULL, *our_caps = NULL, *our_mem = NULL;
  gchar *their_id = NULL, *el;
  GpImpElement *ie;
  GpLink *link;
  gboolean ok = FALSE;

  if (!JSON_NODE_HOLDS_OBJECT (node)) {
    gp_json_reader_fail (&imp->r, path, "expected an object");
    goto out;
  }
  lo = json_node_get_object (node);
  if (!gp_json_read_string (&imp->r, lo, path, "id", &id) ||
      !gp_json_read_string (&imp->r, lo, path, "src", &src) ||
      !gp_json_read_string (&imp->r, lo, path, "sink", &sink) ||
      !gp_json_read_string (&imp->r, lo, path, "caps", &caps) ||
      !gp_json_read_string (&imp->r, lo, path, "memory", &memory) ||
      !gp_json_read_string (&imp->r, lo, path, "format", &format) ||
      !gp_json_read_string (&imp->r, lo, path, "media", &media))
    goto out;
  if (src == NULL || *src == '\0' || sink == NULL || *sink == '\0') {
    gp_json_reader_fail (&imp->r, path, "a link needs \"src\" and \"sink\"");
    goto out;
  }

  their_id = g_strconcat (src, "->", sink, NULL);
  if (g_hash_table_contains (imp->links, their_id) ||
      (id && g_hash_table_contains (imp->links, id))) {
    /* the same pad pair twice says nothing new */
    ok = TRUE;
    goto out;
  }

  our_src = gp_imp_pad_name (src);
  our_sink = gp_imp_pad_name (sink);
  if (caps != NULL && *caps != '\0') {
    our_caps = gp_caps_from_dot (caps);
  } else if (media != NULL && *media != '\0') {
    /* no caps text (a link seen only in the tracer's records), but the
     * file recorded its media type, memory and format apart */
    GString *c = g_string_new (media);

    if (g_strcmp0 (memory, "nvmm") == 0)
      g_string_append (c, "(memory:NVMM)");
    else if (g_strcmp0 (memory, "dmabuf") == 0)
      g_string_append (c, "(memory:DMABuf)");
    if (format != NULL && *format != '\0') {
      g_string_append (c, ", format=");
      gp_caps_append_value (c, format);
    }
    our_caps = g_string_free (c, FALSE);
  }
  our_mem = gp_imp_memory (memory, our_caps);

  link = gp_link_new (our_src, our_sink, our_caps, NULL);
  /* gp_link_new () says "system" for no feature; "unknown" must stay
   * unknown */
  g_free (link->memory);
  link->memory = g_steal_pointer (&our_mem);
  g_ptr_array_add (imp->s->links, link);
  g_hash_table_insert (imp->links, g_steal_pointer (&their_id), link);
  if (id && !g_hash_table_contains (imp->links, id))
    g_hash_table_insert (imp->links, g_strdup (id), link);

  el = gp_imp_pad_element (src);
  if ((ie = g_hash_table_lookup (imp->elements, el)) != NULL)
    ie->n_links_out++;
  g_free (el);
  el = gp_imp_pad_element (sink);
  if ((ie = g_hash_table_lookup (imp->elements, el)) != NULL)
    ie->n_links_in++;
  g_free (el);
  ok = TRUE;
out:
  g_free (their_id);
  g_free (our_src);
  g_free (our_sink);
  g_free (our_caps);
  g_free (our_mem);
  g_free (path);
  return ok;
}

static const gchar *
gp_imp_kind (const GpImpElement * ie)
{
  const gchar *f = ie->e->factory;
  gboolean src, sink;

  if (ie->e->is_bin)
    return "bin";
  if (g_strcmp0 (f, "queue") == 0 || g_strcmp0 (f, "queue2") == 0 ||
      g_strcmp0 (f, "multiqueue") == 0)
    return "queue";
  if (g_strcmp0 (f, "tee") == 0)
    return "tee";
  /* the pads the dot dump showed, else the links the pipeline used */
  if (ie->n_src_pads + ie->n_sink_pads > 0) {
    src = ie->n_src_pads > 0;
    sink = ie->n_sink_pads > 0;
  } else {
    src = ie->n_links_out > 0;
    sink = ie->n_links_in > 0;
  }
  if (src && !sink)
    return "source";
  if (sink && !src)
    return "sink";
  return "filter";
}

static gboolean
gp_imp_graph (GpImport * imp, JsonObject * root)
{
  JsonObject *go;
  JsonArray *elements, *links;
  guint i;

  if (!gp_json_read_object (&imp->r, root, "", "graph", &go) ||
      !gp_json_read_array (&imp->r, go, "graph", "elements", &elements) ||
      !gp_json_read_array (&imp->r, go, "graph", "links", &links))
    return FALSE;
  for (i = 0; elements && i < json_array_get_length (elements); i++)
    if (!gp_imp_element (imp, elements, i))
      return FALSE;
  for (i = 0; links && i < json_array_get_length (links); i++)
    if (!gp_imp_link (imp, links, i))
      return FALSE;

  for (i = 0; i < imp->element_order->len; i++) {
    GpImpElement *ie = g_ptr_array_index (imp->element_order, i);

    g_free (ie->e->kind);
    ie->e->kind = g_strdup (gp_imp_kind (ie));
    /* every factory the pipeline instantiated was registered there */
    if (!ie->e->is_bin && gp_hw_factory_is_hardware (ie->e->factory, NULL, NULL)
        && !g_ptr_array_find_with_equal_func (imp->s->hw_elements,
            ie->e->factory, g_str_equal, NULL))
      g_ptr_array_add (imp->s->hw_elements, g_strdup (ie->e->factory));
  }
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* series                                                               */
/* ------------------------------------------------------------------ */

/* A series link key ("a:src->b:sink") as our link id. */
static gchar *
gp_imp_series_link_id (GpImport * imp, const gchar * key, gchar ** src_el,
    gchar ** sink_el)
{
  GpLink *link = g_hash_table_lookup (imp->links, key);
  const gchar *arrow;
  gchar *src, *sink, *our_src, *our_sink, *id;

  if (link != NULL) {
    *src_el = gp_pad_element (link->src);
    *sink_el = gp_pad_element (link->sink);
    return g_strdup (link->id);
  }
  /* a link the graph does not list: its key still names both pads */
  arrow = strstr (key, "->");
  if (arrow == NULL) {
    *src_el = g_strdup ("");
    *sink_el = g_strdup ("");
    return g_strdup (key);
  }
  src = g_strndup (key, arrow - key);
  sink = g_strdup (arrow + 2);
  *src_el = gp_imp_pad_element (src);
  *sink_el = gp_imp_pad_element (sink);
  our_src = gp_imp_pad_name (src);
  our_sink = gp_imp_pad_name (sink);
  id = g_strconcat (our_src, "->", our_sink, NULL);
  g_free (our_src);
  g_free (our_sink);
  g_free (src);
  g_free (sink);
  return id;
}

static gboolean
gp_imp_series (GpImport * imp, JsonObject * root)
{
  JsonObject *so, *eo, *lo, *po, *sys;
  JsonArray *t;
  GList *members, *l;
  gdouble window_ms;
  guint i;

  if (!gp_json_read_object (&imp->r, root, "", "series", &so))
    return FALSE;
  if (so == NULL)
    return TRUE;
  if (!gp_imp_number (imp, so, "series", "window_ms", FALSE, &window_ms) ||
      !gp_json_read_array (&imp->r, so, "series", "t", &t))
    return FALSE;
  if (!isnan (window_ms) && !(window_ms > 0))
    return gp_json_reader_expected (&imp->r, "series", "window_ms",
        "a positive number");
  imp->s->window_s = (isnan (window_ms) ? GP_IMP_DEFAULT_WINDOW_MS :
      window_ms) / 1000.0;

  imp->n = t ? json_array_get_length (t) : 0;
  imp->t = g_new (gdouble, MAX (imp->n, 1));
  for (i = 0; i < imp->n; i++) {
    if (!gp_json_node_number (json_array_get_element (t, i), &imp->t[i]) ||
        !isfinite (imp->t[i]) || fabs (imp->t[i]) > GP_JSON_MAX_MAGNITUDE)
      return gp_json_reader_fail (&imp->r, "series.t",
          "value %u: expected a number", i);
  }

  if (!gp_json_read_object (&imp->r, so, "series", "elements", &eo) ||
      !gp_json_read_object (&imp->r, so, "series", "links", &lo) ||
      !gp_json_read_object (&imp->r, so, "series", "pipeline", &po) ||
      !gp_json_read_object (&imp->r, so, "series", "system", &sys))
    return FALSE;
  if (t == NULL && (eo || lo || po || sys))
    return gp_json_reader_fail (&imp->r, "series", "columns without \"t\"");

  members = eo ? json_object_get_members (eo) : NULL;
  for (l = members; l != NULL; l = l->next) {
    gchar *path = gp_json_key_path ("series.elements", l->data);
    JsonObject *co;
    GpImpElemCols *c = g_new0 (GpImpElemCols, 1);
    gboolean ok;

    c->name = g_strdup (l->data);
    g_ptr_array_add (imp->elem_cols, c);
    ok = gp_json_read_object (&imp->r, eo, "series.elements", l->data, &co) &&
        gp_imp_column (imp, co, path, "proc_ms_p50", GP_IMP_COL_NUMBER,
        &c->p50) &&
        gp_imp_column (imp, co, path, "proc_ms_p95", GP_IMP_COL_NUMBER,
        &c->p95) &&
        gp_imp_column (imp, co, path, "buffers", GP_IMP_COL_NUMBER,
        &c->buffers) &&
        gp_imp_column (imp, co, path, "cpu_pct", GP_IMP_COL_NUMBER, NULL) &&
        gp_imp_column (imp, co, path, "queue_level", GP_IMP_COL_NUMBER, NULL);
    g_free (path);
    if (!ok) {
      g_list_free (members);
      return FALSE;
    }
  }
  g_list_free (members);

  members = lo ? json_object_get_members (lo) : NULL;
  for (l = members; l != NULL; l = l->next) {
    gchar *path = gp_json_key_path ("series.links", l->data);
    JsonObject *co;
    GpImpLinkCols *c = g_new0 (GpImpLinkCols, 1);
    gboolean ok;

    c->id = gp_imp_series_link_id (imp, l->data, &c->src_el, &c->sink_el);
    g_ptr_array_add (imp->link_cols, c);
    ok = gp_json_read_object (&imp->r, lo, "series.links", l->data, &co) &&
        gp_imp_column (imp, co, path, "fps", GP_IMP_COL_NUMBER, &c->fps) &&
        gp_imp_column (imp, co, path, "bytes_s", GP_IMP_COL_NUMBER,
        &c->bytes) &&
        gp_imp_column (imp, co, path, "stalled", GP_IMP_COL_BOOL, NULL);
    g_free (path);
    if (!ok) {
      g_list_free (members);
      return FALSE;
    }
  }
  g_list_free (members);

  if (!gp_imp_column (imp, po, "series.pipeline", "latency_ms_p50",
          GP_IMP_COL_NUMBER, &imp->lat_p50) ||
      !gp_imp_column (imp, po, "series.pipeline", "latency_ms_p95",
          GP_IMP_COL_NUMBER, &imp->lat_p95) ||
      !gp_imp_column (imp, po, "series.pipeline", "reported_latency_ms",
          GP_IMP_COL_NUMBER, NULL))
    return FALSE;

  /* not imported (no place in the model yet), but a column of the wrong
   * length still means a damaged file */
  members = sys ? json_object_get_members (sys) : NULL;
  for (l = members; l != NULL; l = l->next) {
    gboolean ok = strcmp (l->data, "cpu_pct_per_core") == 0 ?
        gp_imp_column (imp, sys, "series.system", l->data, GP_IMP_COL_ARRAY,
        NULL) :
        gp_imp_column (imp, sys, "series.system", l->data, GP_IMP_COL_NUMBER,
        NULL);

    if (!ok) {
      g_list_free (members);
      return FALSE;
    }
  }
  g_list_free (members);
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* summary                                                              */
/* ------------------------------------------------------------------ */

static gboolean
gp_imp_is_queue (GpImport * imp, const gchar * name)
{
  GpImpElement *ie = g_hash_table_lookup (imp->elements, name);

  return ie && g_strcmp0 (ie->e->kind, "queue") == 0;
}

static void
gp_imp_elements_summary (GpImport * imp)
{
  GpSession *s = imp->s;
  GArray *wq = gp_mixture_new ();
  gdouble work_ms = 0;
  guint i, k;

  for (k = 0; k < imp->elem_cols->len; k++) {
    GpImpElemCols *c = g_ptr_array_index (imp->elem_cols, k);
    gboolean queue = gp_imp_is_queue (imp, c->name);
    gdouble buffers = 0, total = 0;
    GpElementSummary *es;
    GpQuantiles q;

    g_array_set_size (wq, 0);
    for (i = 0; i < imp->n; i++) {
      gdouble b = c->buffers ? c->buffers[i] : NAN;

      if (!isnan (b))
        buffers += b;
      /* a window without a count still tells its percentiles; it weighs
       * one sample, the least a window with a percentile can have had */
      gp_mixture_add (wq, isnan (b) ? 1 : b, gp_imp_col (c->p50, i),
          gp_imp_col (c->p95, i));
      if (!isnan (b) && c->p50 && !isnan (c->p50[i]))
        total += b * c->p50[i];
    }
    gp_quantiles_set_unknown (&q);
    if (wq->len > 0) {
      q.p50 = gp_mixture_quantile (wq, 0.50);
      q.p95 = gp_mixture_quantile (wq, 0.95);
    }

    es = gp_session_add_elem_summary (s, c->name);
    es->buffers = gp_imp_to_count (buffers);
    if (queue) {
      /* element-latency of a queue is the time buffers wait in it */
      GpQueueSummary *qs = gp_session_add_queue_summary (s, c->name);
      GpImpElement *ie = g_hash_table_lookup (imp->elements, c->name);
      const gchar *leaky = gp_element_get_prop_string (ie->e, "leaky");

      qs->residence_ms = q;
      g_free (qs->leaky);
      if (leaky == NULL)
        qs->leaky = g_strdup ("unknown");
      else if (strcmp (leaky, "0") == 0 || g_ascii_strcasecmp (leaky,
              "no") == 0)
        qs->leaky = g_strdup ("no");
      else if (strcmp (leaky, "1") == 0 || g_ascii_strcasecmp (leaky,
              "upstream") == 0)
        qs->leaky = g_strdup ("upstream");
      else if (strcmp (leaky, "2") == 0 || g_ascii_strcasecmp (leaky,
              "downstream") == 0)
        qs->leaky = g_strdup ("downstream");
      else
        qs->leaky = g_strdup ("unknown");
      continue;
    }
    es->self_ms = q;
    es->self_total_ms = total;
    es->busy_pct = s->duration_s > 0 ? total / (s->duration_s * 10.0) : 0;
    work_ms += total;
  }
  for (k = 0; k < s->elem_summaries->len; k++) {
    GpElementSummary *es = g_ptr_array_index (s->elem_summaries, k);

    es->share_pct = work_ms > 0 && !gp_imp_is_queue (imp, es->name) ?
        100.0 * es->self_total_ms / work_ms : 0;
  }
  g_array_unref (wq);
}

/* The windows whose rates describe the steady state of a column: those
 * with data, less the first and the last when at least three have data. */
static void
gp_imp_data_span (GpImport * imp, const gdouble * fps, guint * first,
    guint * last, guint * n_data)
{
  guint i;

  *first = imp->n;
  *last = 0;
  *n_data = 0;
  for (i = 0; fps && i < imp->n; i++) {
    if (fps[i] > 0) {
      if (*first == imp->n)
        *first = i;
      *last = i;
      (*n_data)++;
    }
  }
}

static void
gp_imp_links_summary (GpImport * imp)
{
  guint k, i;

  for (k = 0; k < imp->link_cols->len; k++) {
    GpImpLinkCols *c = g_ptr_array_index (imp->link_cols, k);
    GpLinkSummary *ls = gp_session_add_link_summary (imp->s, c->id);
    gdouble fps_sum = 0, bytes_sum = 0, buffers = 0;
    guint first, last, n_data, n_used = 0;
    gboolean trim;

    gp_imp_data_span (imp, c->fps, &first, &last, &n_data);
    trim = n_data >= 3;
    for (i = 0; c->fps && i < imp->n; i++) {
      if (!(c->fps[i] > 0))
        continue;
      buffers += c->fps[i] * imp->s->window_s;
      if (trim && (i == first || i == last))
        continue;
      fps_sum += c->fps[i];
      if (c->bytes && !isnan (c->bytes[i]))
        bytes_sum += c->bytes[i];
      n_used++;
    }
    ls->fps = n_used ? fps_sum / n_used : 0;
    ls->bytes_per_s = n_used ? bytes_sum / n_used : 0;
    ls->buffers = gp_imp_to_count (buffers);
  }
}

static GpImpLinkCols *
gp_imp_link_cols_into (GpImport * imp, const gchar * element)
{
  guint k;

  for (k = 0; k < imp->link_cols->len; k++) {
    GpImpLinkCols *c = g_ptr_array_index (imp->link_cols, k);

    if (g_strcmp0 (c->sink_el, element) == 0)
      return c;
  }
  return NULL;
}

/* The single element of @kind (bins left out), or NULL when there are
 * none or several. */
static GpImpElement *
gp_imp_single (GpImport * imp, const gchar * kind)
{
  GpImpElement *found = NULL;
  guint i;

  for (i = 0; i < imp->element_order->len; i++) {
    GpImpElement *ie = g_ptr_array_index (imp->element_order, i);

    if (g_strcmp0 (ie->e->kind, kind) != 0)
      continue;
    if (found != NULL)
      return NULL;
    found = ie;
  }
  return found;
}

/* The first link out of @element, or NULL. */
static GpLink *
gp_imp_link_from (GpImport * imp, const gchar * element)
{
  guint i;

  for (i = 0; i < imp->s->links->len; i++) {
    GpLink *l = g_ptr_array_index (imp->s->links, i);
    gchar *el = gp_pad_element (l->src);
    gboolean match = g_strcmp0 (el, element) == 0;

    g_free (el);
    if (match)
      return l;
  }
  return NULL;
}

static void
gp_imp_latency_summary (GpImport * imp, gchar ** key_out)
{
  GpSession *s = imp->s;
  GpImpElement *src = gp_imp_single (imp, "source");
  GpImpElement *sink = gp_imp_single (imp, "sink");
  GpLink *out = src ? gp_imp_link_from (imp, src->e->name) : NULL;
  GpImpLinkCols *in = sink ? gp_imp_link_cols_into (imp, sink->e->name) : NULL;
  GArray *wq = gp_mixture_new ();
  const gchar *source_pad, *sink_name;
  gdouble matched = 0;
  GpPath *p, *il;
  guint i;

  *key_out = NULL;
  for (i = 0; i < imp->n; i++) {
    /* one latency sample per buffer reaching the sink */
    gdouble w = in && in->fps ? in->fps[i] * s->window_s : 1;

    if (imp->lat_p50 && imp->lat_p95 && !isnan (imp->lat_p50[i]) &&
        !isnan (imp->lat_p95[i]) && in && in->fps && w > 0)
      matched += w;
    gp_mixture_add (wq, w, gp_imp_col (imp->lat_p50, i),
        gp_imp_col (imp->lat_p95, i));
  }
  if (wq->len == 0) {
    g_array_unref (wq);
    return;
  }
  source_pad = out ? out->src : "";
  sink_name = sink ? sink->e->name : "";
  p = gp_session_add_path (s, source_pad, sink_name);
  p->latency_ms.p50 = gp_mixture_quantile (wq, 0.50);
  p->latency_ms.p95 = gp_mixture_quantile (wq, 0.95);
  p->matched = gp_imp_to_count (matched);
  il = gp_session_add_interlatency (s, source_pad, sink_name);
  il->latency_ms = p->latency_ms;
  il->matched = p->matched;
  *key_out = g_strconcat (source_pad, "->", sink_name, NULL);
  g_array_unref (wq);
}

static void
gp_imp_rates_summary (GpImport * imp)
{
  GpSession *s = imp->s;
  GpImpElement *src = gp_imp_single (imp, "source");
  guint i, k;

  /* the session's target rate: what the source was asked to produce, else
   * the first link whose caps name a rate */
  if (src != NULL) {
    GpLink *out = gp_imp_link_from (imp, src->e->name);

    if (out)
      s->target_fps = gp_caps_framerate (out->caps);
  }
  for (i = 0; s->target_fps <= 0 && i < s->links->len; i++)
    s->target_fps =
        gp_caps_framerate (((GpLink *) g_ptr_array_index (s->links, i))->caps);
  if (s->target_fps <= 0)
    s->target_fps = -1;
  s->frame_period_ms = s->target_fps > 0 ? 1000.0 / s->target_fps : -1;

  for (i = 0; i < imp->element_order->len; i++) {
    GpImpElement *ie = g_ptr_array_index (imp->element_order, i);
    GpSinkSummary *ss;

    if (g_strcmp0 (ie->e->kind, "sink") != 0)
      continue;
    ss = gp_session_add_sink (s, ie->e->name);
    for (k = 0; k < s->links->len; k++) {
      GpLink *l = g_ptr_array_index (s->links, k);
      gchar *el = gp_pad_element (l->sink);
      GpLinkSummary *ls;

      if (g_strcmp0 (el, ie->e->name) == 0) {
        if ((ls = gp_session_find_link_summary (s, l->id)) != NULL) {
          ss->fps += ls->fps;
          ss->buffers += ls->buffers;
        }
        if (ss->target_fps <= 0)
          ss->target_fps = gp_caps_framerate (l->caps);
      }
      g_free (el);
    }
  }
}

static void
gp_imp_threads_summary (GpImport * imp, JsonObject * threads)
{
  GList *members = threads ? json_object_get_members (threads) : NULL, *l;

  for (l = members; l != NULL; l = l->next) {
    const gchar *key = l->data, *colon = strchr (key, ':');
    JsonNode *node = json_object_get_member (threads, key);
    guint64 tid = 0;
    const gchar *name = key;
    GpThreadSummary *ts;
    gdouble v;

    /* "tid:comm"; a key in another form keeps its whole text as name */
    if (colon != NULL && colon > key) {
      gchar *end;
      guint64 parsed = g_ascii_strtoull (key, &end, 10);

      if (end == colon) {
        tid = parsed;
        name = colon + 1;
      }
    }
    ts = gp_session_add_thread (imp->s, tid, name);
    /* a number past a double's range (1e999) reads as infinite: unknown,
     * as gp_imp_check_threads let it through */
    if (gp_json_node_number (node, &v) && isfinite (v))
      ts->cpu_pct_mean = v;
  }
  g_list_free (members);
}

/* Checked before anything is built, so that a bad value is an error and
 * never half a session. */
static gboolean
gp_imp_check_threads (GpImport * imp, JsonObject * root, JsonObject ** out)
{
  GList *members, *l;

  if (!gp_json_read_object (&imp->r, root, "", "threads", out))
    return FALSE;
  members = *out ? json_object_get_members (*out) : NULL;
  for (l = members; l != NULL; l = l->next) {
    gdouble v;

    if (!gp_imp_number (imp, *out, "threads", l->data, TRUE, &v)) {
      g_list_free (members);
      return FALSE;
    }
  }
  g_list_free (members);
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* series in our shape                                                  */
/* ------------------------------------------------------------------ */

static void
gp_imp_build_series (GpImport * imp, const gchar * path_key)
{
  GpSession *s = imp->s;
  guint i, k;

  for (i = 0; i < imp->n; i++) {
    /* no thread CPU nor process per window in the file */
    JsonObject *w = gp_series_window_new (imp->t[i], imp->t[i] +
        s->window_s);
    JsonObject *process = gp_series_entry (w, GP_SERIES_PROCESS, NULL);

    gp_series_set_or_null (process, GP_SPR_CPU_PCT, -1);
    gp_series_set_or_null (process, GP_SPR_RSS_MB, -1);

    for (k = 0; k < imp->elem_cols->len; k++) {
      GpImpElemCols *c = g_ptr_array_index (imp->elem_cols, k);
      gdouble b = gp_imp_col (c->buffers, i);
      JsonObject *eo;

      if (isnan (gp_imp_col (c->p50, i)) && !(b > 0))
        continue;
      if (gp_imp_is_queue (imp, c->name)) {
        eo = gp_series_entry (w, GP_SERIES_QUEUES, c->name);
        gp_series_set (eo, GP_SQ_RESIDENCE_MS_P50, gp_imp_col (c->p50, i));
        gp_series_set (eo, GP_SQ_RESIDENCE_MS_P95, gp_imp_col (c->p95, i));
      } else {
        eo = gp_series_entry (w, GP_SERIES_ELEMENTS, c->name);
        gp_series_set_count (eo, GP_SE_BUFFERS, gp_imp_to_count (b));
        gp_series_set (eo, GP_SE_SELF_MS_P50, gp_imp_col (c->p50, i));
        gp_series_set (eo, GP_SE_SELF_MS_P95, gp_imp_col (c->p95, i));
      }
    }
    for (k = 0; k < imp->link_cols->len; k++) {
      GpImpLinkCols *c = g_ptr_array_index (imp->link_cols, k);
      JsonObject *lo;

      if (isnan (gp_imp_col (c->fps, i)))
        continue;
      lo = gp_series_entry (w, GP_SERIES_LINKS, c->id);
      gp_series_set (lo, GP_SL_FPS, c->fps[i]);
      gp_series_set (lo, GP_SL_BYTES_PER_S, gp_imp_col (c->bytes, i));
    }
    if (path_key && !isnan (gp_imp_col (imp->lat_p50, i))) {
      JsonObject *po = gp_series_entry (w, GP_SERIES_PATHS, path_key);

      gp_series_set (po, GP_SP_LATENCY_MS_P50, imp->lat_p50[i]);
      gp_series_set (po, GP_SP_LATENCY_MS_P95, gp_imp_col (imp->lat_p95, i));
    }
    gp_session_add_window (s, w);
    json_object_unref (w);
  }
}

/* ------------------------------------------------------------------ */
/* events                                                               */
/* ------------------------------------------------------------------ */

static gboolean
gp_imp_events (GpImport * imp, JsonObject * root)
{
  JsonArray *a;
  guint i;

  if (!gp_json_read_array (&imp->r, root, "", "events", &a))
    return FALSE;
  for (i = 0; a && i < json_array_get_length (a); i++) {
    JsonNode *node = json_array_get_element (a, i);
    gchar *path = gp_json_index_path ("events", i);
    const gchar *kind, *text;
    JsonObject *eo;
    gdouble t;
    gboolean ok;

    if (!JSON_NODE_HOLDS_OBJECT (node)) {
      gp_json_reader_fail (&imp->r, path, "expected an object");
      g_free (path);
      return FALSE;
    }
    eo = json_node_get_object (node);
    ok = gp_imp_number (imp, eo, path, "t", FALSE, &t) &&
        gp_json_read_string (&imp->r, eo, path, "kind", &kind) &&
        gp_json_read_string (&imp->r, eo, path, "text", &text);
    g_free (path);
    if (!ok)
      return FALSE;
    if (g_strcmp0 (kind, "state-changed") == 0)
      kind = "state";
    gp_session_add_event (imp->s, isnan (t) ? 0 : t, kind ? kind : "", "",
        text);
    if (g_strcmp0 (kind, "child-exit") == 0 && text &&
        g_str_has_prefix (text, "exit code ")) {
      gchar *end;
      const gchar *num = text + strlen ("exit code ");
      gint64 code = g_ascii_strtoll (num, &end, 10);

      if (end != num && code >= G_MININT && code <= G_MAXINT)
        imp->s->exit_code = (gint) code;
    }
  }
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* entry points                                                         */
/* ------------------------------------------------------------------ */

const gchar *
gp_ingest_missing_describe (guint flag)
{
  switch (flag) {
    case GP_IMPORT_MISSING_SELF_TIME:
      return "element times are wall time inside each element (the "
          "latency tracer's element-latency), not exclusive self time; "
          "sources and sinks have none";
    case GP_IMPORT_MISSING_HISTOGRAMS:
      return "no per-buffer histograms: run quantiles are merged from "
          "per-window p50/p95, p99 and max are unknown";
    case GP_IMPORT_MISSING_ELEMENT_THREADS:
      return "no thread map: which thread ran which element is unknown";
    case GP_IMPORT_MISSING_PROP_DEFAULTS:
      return "properties are only the non-default values of a dot dump, "
          "as text; defaults are unknown";
    case GP_IMPORT_MISSING_ELEMENT_CPU:
      return "no CPU time per element";
    case GP_IMPORT_MISSING_THREAD_CPU_RUN:
      return "thread CPU is one sample, not a mean over the run";
    case GP_IMPORT_MISSING_QUEUE_LEVELS:
      return "no queue levels, drops or blocking";
    case GP_IMPORT_MISSING_HW_REGISTRY:
      return "hardware elements: only those the pipeline used, not the "
          "machine's registry";
    case GP_IMPORT_MISSING_PATH_LATENCY:
      return "one latency series for the whole pipeline, no unmatched "
          "counts, no latency to each element";
    case GP_IMPORT_MISSING_QOS:
      return "no QoS events or drops";
    case GP_IMPORT_MISSING_ELEMENT_TIME:
      return "no time per element at all";
    case GP_IMPORT_MISSING_LINKS:
      return "no links: no buffer counts, rates or caps per link";
    case GP_IMPORT_MISSING_THREAD_CPU:
      return "no CPU time, per thread or for the process";
    case GP_IMPORT_MISSING_INTERLATENCY:
      return "latency only from sources to sinks, none to each element";
    case GP_IMPORT_MISSING_LATENCY:
      return "no latency from sources to sinks";
    case GP_IMPORT_MISSING_QUEUE_FLOW:
      return "queue levels only: no drops, leakiness, upstream blocking or "
          "residence per queue";
    default:
      return NULL;
  }
}

GpSession *
gp_ingest_gstprofile (JsonNode * root, const gchar * origin, GError ** error)
{
  GpImport imp = { 0 };
  JsonObject *ro, *threads;
  const gchar *schema;
  gchar *path_key = NULL;
  gboolean ok;

  g_return_val_if_fail (root != NULL, NULL);

  gp_json_reader_init (&imp.r, origin);
  if (!JSON_NODE_HOLDS_OBJECT (root)) {
    gp_json_error_line (error, GP_SESSION_ERROR_SCHEMA,
        "%s: not a gst-profile session (the top level is not an object)",
        imp.r.origin);
    return NULL;
  }
  ro = json_node_get_object (root);
  if (!gp_json_read_string (&imp.r, ro, "", "schema", &schema)) {
    gp_json_reader_finish (&imp.r, error);
    return NULL;
  }
  if (g_strcmp0 (schema, GP_INGEST_SCHEMA_GSTPROFILE) != 0) {
    gchar *shown = gp_json_excerpt (schema);

    gp_json_error_line (error, GP_SESSION_ERROR_SCHEMA,
        "%s: not a gst-profile session (schema \"%s\")", imp.r.origin,
        shown);
    g_free (shown);
    return NULL;
  }

  imp.s = gp_session_new ();
  imp.elements = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
      g_free);
  imp.element_order = g_ptr_array_new ();
  imp.links = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  imp.elem_cols = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gp_imp_elem_cols_free);
  imp.link_cols = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gp_imp_link_cols_free);

  ok = gp_imp_session_info (&imp, ro) && gp_imp_graph (&imp, ro) &&
      gp_imp_series (&imp, ro) && gp_imp_check_threads (&imp, ro, &threads)
      && gp_imp_events (&imp, ro);
  if (ok) {
    gp_imp_elements_summary (&imp);
    gp_imp_links_summary (&imp);
    gp_imp_latency_summary (&imp, &path_key);
    gp_imp_rates_summary (&imp);
    gp_imp_threads_summary (&imp, threads);
    gp_imp_build_series (&imp, path_key);
    gp_session_sort_summaries (imp.s);
  }

  g_free (path_key);
  g_hash_table_unref (imp.elements);
  g_ptr_array_unref (imp.element_order);
  g_hash_table_unref (imp.links);
  g_ptr_array_unref (imp.elem_cols);
  g_ptr_array_unref (imp.link_cols);
  g_free (imp.t);
  g_free (imp.lat_p50);
  g_free (imp.lat_p95);
  if (!ok) {
    gp_json_reader_finish (&imp.r, error);
    gp_session_free (imp.s);
    return NULL;
  }
  return imp.s;
}
