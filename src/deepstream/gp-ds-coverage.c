/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-ds-coverage.c: NVTX coverage of a DeepStream pipeline (gp-ds-
 * coverage.h). The table is what a grep of DeepStream 9's open plugin
 * sources finds; where the skill says otherwise, the row says so.
 */
#include "gp-ds-coverage.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/gp-launch.h"
#include "gp-ds-config.h"

typedef struct
{
  const gchar *factory;
  gboolean covered;
  const gchar *domain;          /* the NVTX domain, "" the default one */
  const gchar *ranges;          /* the range text, N a counter */
  const gchar *skill;           /* the skill's differing word, or NULL */
} GpDsCoverRow;

/* DeepStream 9 open sources (src/gst-plugins), grep of their NVTX calls */
static const GpDsCoverRow gp_ds_cover_table[] = {
  {"nvinfer", TRUE, "GstNvInfer: UID=<id>", "queueInput, convert_buf, "
        "buffer_process, dequeueOutputAndAttachMeta batch_num=N", NULL},
  {"nvinferserver", TRUE, "GstNvInferServer: UID=<id>",
      "buffer_process batch_num=N", NULL},
  {"nvdspreprocess", TRUE, "GstNvDsPreProcess: UID=<id>",
        "convert_buf, buffer_process, dequeueOutputAndAttachMeta "
        "batch_num=N", "the skill: not verified"},
  {"nvdspostprocess", TRUE, "GstNvDsPostProcess ", "(domain only)", NULL},
  {"nvdsvideotemplate", TRUE, "GstNvDsVideoTemplate ", "(domain only)",
      NULL},
  {"dsexample", TRUE, "GstNvDsExample: UID=<id>", "as nvinfer", NULL},
  {"nvdsosd", TRUE, "", "<name>_(Frame=N)", NULL},
  {"nvtracker", TRUE, "", "<name>_nvtracker_convert_buffer(Frame=N), "
        "<name>_nvtracker_process(Batch=N)",
      "the skill: sometimes / not verified"},
  {"nvdewarper", TRUE, "", "<name>_(Frame=N)_Scale", NULL},
  {"nvstreammux", FALSE, NULL, "range names only in the closed library",
      "the skill: often (its verified run: not emitted)"},
  {"nvdsanalytics", FALSE, NULL, "no NVTX call in the source",
      "the skill: often visible"},
  {"nvmsgconv", FALSE, NULL, "no NVTX call in the source",
      "the skill: often visible"},
  {"nvmsgbroker", FALSE, NULL, "no NVTX call in the source",
      "the skill: often visible"},
  {"nvurisrcbin", FALSE, NULL, "no NVTX call in the source", NULL},
  {"nvmultiurisrcbin", FALSE, NULL, "no NVTX call in the source", NULL},
  {"nvv4l2decoder", FALSE, NULL, "none", NULL},
  {"nvvideoconvert", FALSE, NULL, "none", NULL},
  {"nvmultistreamtiler", FALSE, NULL, "none found",
      "the skill: sometimes"},
};

/* the domains that name a factory (the UID the instance) */
static const gchar *const gp_ds_domains[][2] = {
  {"GstNvInferServer", "nvinferserver"},
  {"GstNvInfer", "nvinfer"},
  {"GstNvDsPreProcess", "nvdspreprocess"},
  {"GstNvDsPostProcess", "nvdspostprocess"},
  {"GstNvDsVideoTemplate", "nvdsvideotemplate"},
  {"GstNvDsExample", "dsexample"},
};

static void
gp_ds_element_free (gpointer p)
{
  GpDsElement *e = p;

  g_free (e->name);
  g_free (e->factory);
  g_free (e->evidence);
  g_free (e);
}

static GpDsElement *
gp_ds_add (GPtrArray * els, const gchar * name, const gchar * factory,
    gint uid)
{
  GpDsElement *e = g_new0 (GpDsElement, 1);

  e->name = g_strdup (name);
  e->factory = g_strdup (factory);
  e->uid = uid;
  e->nvtx_ns = e->self_ms = e->busy_pct = NAN;
  g_ptr_array_add (els, e);
  return e;
}

static GPtrArray *
gp_ds_elements_new (void)
{
  return g_ptr_array_new_with_free_func (gp_ds_element_free);
}

GPtrArray *
gp_ds_elements_from_launch (const gchar * launch, GError ** error)
{
  g_autoptr (GpLaunch) l = gp_launch_parse (launch, error);
  GPtrArray *els;
  guint i;

  if (l == NULL)
    return NULL;
  els = gp_ds_elements_new ();
  for (i = 0; i < gp_launch_get_n_elements (l); i++) {
    const GpLaunchElement *le = gp_launch_get_element (l, i);
    JsonObject *props;
    gint uid = -1;

    if (le->kind == GP_LAUNCH_CAPS || le->factory == NULL)
      continue;
    props = gp_launch_element_props (l, (gint) i);
    if (props && json_object_has_member (props, "unique-id")) {
      gchar *v = gp_launch_value_text (json_object_get_member (props,
              "unique-id"));

      uid = v ? atoi (v) : -1;
      g_free (v);
    }
    if (props)
      json_object_unref (props);
    gp_ds_add (els, le->name ? le->name : le->factory, le->factory, uid);
  }
  return els;
}

GPtrArray *
gp_ds_elements_from_session (GpSession * s)
{
  GPtrArray *els = gp_ds_elements_new ();
  guint i;

  for (i = 0; i < s->elements->len; i++) {
    GpElement *e = g_ptr_array_index (s->elements, i);
    gint64 uid = -1;

    if (e->is_bin || e->factory == NULL)
      continue;
    if (!gp_element_get_prop_int (e, "unique-id", &uid))
      uid = -1;
    gp_ds_add (els, e->name, e->factory, (gint) uid);
  }
  return els;
}

static const gchar *const gp_ds_groups[] = {
  "application", "streammux", "primary-gie", "tracker", "osd",
  "tiled-display", NULL
};

/* @path's INI in a GKeyFile, read through gp-ds-config first: bounded in
 * size, and a NUL byte, bad UTF-8 or a line GKeyFile would take another
 * way refused with its line (GKeyFile alone reads up to a NUL and takes
 * the rest as gone). */
static GKeyFile *
gp_ds_coverage_key_file (const gchar * path, GError ** error)
{
  g_autoptr (GpDsConfig) c = gp_ds_config_load (path, error);
  GKeyFile *kf;
  const gchar *text;
  gsize len;
  GError *err = NULL;

  if (c == NULL)
    return NULL;
  text = gp_ds_config_text (c, &len);
  kf = g_key_file_new ();
  if (!g_key_file_load_from_data (kf, text, len, G_KEY_FILE_NONE, &err)) {
    g_set_error (error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_PARSE,
        "%s: not a deepstream-app config: %s", path, err->message);
    g_error_free (err);
    g_key_file_free (kf);
    return NULL;
  }
  return kf;
}

gboolean
gp_ds_is_app_config (const gchar * path)
{
  g_autoptr (GKeyFile) kf = NULL;
  g_autoptr (GpDsConfig) c = NULL;
  GError *err = NULL;
  guint i;

  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
    return FALSE;
  if (gp_ds_config_format_for (path) == GP_DS_CONFIG_YAML) {
    c = gp_ds_config_load (path, NULL);
    return c != NULL && gp_ds_config_kind (c) == GP_DS_KIND_TESTAPP;
  }
  kf = gp_ds_coverage_key_file (path, &err);
  if (kf == NULL) {
    /* a file the config reader refuses (a NUL, a bad line, too large):
     * taken as one, so that its error, with the line, is what is said */
    gboolean refused = err->domain == GP_DS_CONFIG_ERROR;

    g_error_free (err);
    return refused;
  }
  for (i = 0; gp_ds_groups[i]; i++)
    if (g_key_file_has_group (kf, gp_ds_groups[i]))
      return TRUE;
  return FALSE;
}

static gboolean
gp_ds_enabled (GKeyFile * kf, const gchar * group)
{
  GError *err = NULL;
  gint v = g_key_file_get_integer (kf, group, "enable", &err);

  if (err != NULL) {
    g_error_free (err);
    return FALSE;
  }
  return v != 0;
}

static gint
gp_ds_int (GKeyFile * kf, const gchar * group, const gchar * key, gint dflt)
{
  GError *err = NULL;
  gint v = g_key_file_get_integer (kf, group, key, &err);

  if (err != NULL) {
    g_error_free (err);
    return dflt;
  }
  return v;
}

/* a deepstream-app [sinkN] type (NvDsSinkType) into its elements */
static void
gp_ds_add_sink (GPtrArray * els, const gchar * group, gint type)
{
  gchar *enc = g_strdup_printf ("%s-encoder", group);

  switch (type) {
    case 1:
      gp_ds_add (els, group, "fakesink", -1);
      break;
    case 2:
      gp_ds_add (els, group, "nveglglessink", -1);
      break;
    case 3:
      gp_ds_add (els, enc, "nvv4l2h264enc", -1);
      gp_ds_add (els, group, "filesink", -1);
      break;
    case 4:
      gp_ds_add (els, enc, "nvv4l2h264enc", -1);
      gp_ds_add (els, group, "udpsink", -1);
      break;
    case 5:
      gp_ds_add (els, group, "nvdrmvideosink", -1);
      break;
    case 6:
      gp_ds_add (els, enc, "nvmsgconv", -1);
      gp_ds_add (els, group, "nvmsgbroker", -1);
      break;
    default:
      gp_ds_add (els, group, "sink", -1);
      break;
  }
  g_free (enc);
}

static gint
gp_ds_group_order (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(const gchar * const *) a, *(const gchar * const *) b);
}

/* a test app's YAML groups: what DeepStream's sample apps make of each
 * (deepstream-test1: filesrc, h264parse and the decoder for `source`;
 * deepstream-test3: a uridecodebin and its decoder per `source-list` URI;
 * their sink an EGL one) */
static GPtrArray *
gp_ds_elements_from_testapp (const gchar * path, GError ** error)
{
  static const gchar *const after[][2] = {
    {"tracker", "nvtracker"}, {"nvdsanalytics", "nvdsanalytics"},
    {"analytics", "nvdsanalytics"}, {"tiler", "nvmultistreamtiler"},
    {"osd", "nvdsosd"}, {"msgconv", "nvmsgconv"},
    {"msgbroker", "nvmsgbroker"}, {"sink", "nveglglessink"},
  };
  g_autoptr (GpDsConfig) c = gp_ds_config_load (path, error);
  GPtrArray *els;
  gchar **sources, **groups;
  guint i;

  if (c == NULL)
    return NULL;
  if (gp_ds_config_kind (c) != GP_DS_KIND_TESTAPP) {
    g_set_error (error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_GROUP_NOT_FOUND,
        "%s: not a test-app config (no source, source-list, streammux or "
        "primary-gie group)", path);
    return NULL;
  }
  els = gp_ds_elements_new ();
  sources = gp_ds_config_testapp_sources (c);
  if (gp_ds_config_has_group (c, "source-list")) {
    for (i = 0; sources[i]; i++) {
      gchar *src = g_strdup_printf ("source%u", i);
      gchar *dec = g_strdup_printf ("source%u-decoder", i);

      gp_ds_add (els, src, "uridecodebin", -1);
      gp_ds_add (els, dec, "nvv4l2decoder", -1);
      g_free (src);
      g_free (dec);
    }
  } else if (gp_ds_config_has_group (c, "source")) {
    gp_ds_add (els, "source", "filesrc", -1);
    gp_ds_add (els, "source-parser", "h264parse", -1);
    gp_ds_add (els, "source-decoder", "nvv4l2decoder", -1);
  }
  g_strfreev (sources);
  if (gp_ds_config_has_group (c, "streammux"))
    gp_ds_add (els, "streammux", "nvstreammux", -1);
  if (gp_ds_config_has_group (c, "preprocess"))
    gp_ds_add (els, "preprocess", "nvdspreprocess", -1);
  if (gp_ds_config_has_group (c, "primary-gie")) {
    gchar *type = gp_ds_config_get (c, "primary-gie", "plugin-type");

    gp_ds_add (els, "primary-gie", type && atoi (type) == 1 ?
        "nvinferserver" : "nvinfer", -1);
    g_free (type);
  }
  groups = gp_ds_config_groups (c);
  for (i = 0; groups[i]; i++)
    if (g_str_has_prefix (groups[i], "secondary-gie"))
      gp_ds_add (els, groups[i], "nvinfer", -1);
  g_strfreev (groups);
  for (i = 0; i < G_N_ELEMENTS (after); i++)
    if (gp_ds_config_has_group (c, after[i][0]))
      gp_ds_add (els, after[i][0], after[i][1], -1);
  return els;
}

GPtrArray *
gp_ds_elements_from_config (const gchar * path, GError ** error)
{
  g_autoptr (GKeyFile) kf = NULL;
  GPtrArray *els, *groups;
  gchar **all;
  guint i;

  if (gp_ds_config_format_for (path) == GP_DS_CONFIG_YAML)
    return gp_ds_elements_from_testapp (path, error);
  if ((kf = gp_ds_coverage_key_file (path, error)) == NULL)
    return NULL;
  els = gp_ds_elements_new ();
  all = g_key_file_get_groups (kf, NULL);
  groups = g_ptr_array_new ();
  for (i = 0; all[i]; i++)
    g_ptr_array_add (groups, all[i]);
  g_ptr_array_sort (groups, gp_ds_group_order);
  /* the pipeline's order: sources, mux, inference, tracker, ... */
  for (i = 0; i < groups->len; i++) {
    const gchar *g = g_ptr_array_index (groups, i);

    if (g_str_has_prefix (g, "source") && gp_ds_enabled (kf, g)) {
      gint type = gp_ds_int (kf, g, "type", 2);
      gchar *dec = g_strdup_printf ("%s-decoder", g);

      gp_ds_add (els, g, type == 1 ? "v4l2src" : type == 5 ?
          "nvarguscamerasrc" : "nvurisrcbin", -1);
      if (type != 1 && type != 5)
        gp_ds_add (els, dec, "nvv4l2decoder", -1);
      g_free (dec);
    }
  }
  if (g_key_file_has_group (kf, "streammux"))
    gp_ds_add (els, "streammux", "nvstreammux", -1);
  if (gp_ds_enabled (kf, "pre-process"))
    gp_ds_add (els, "pre-process", "nvdspreprocess", -1);
  if (gp_ds_enabled (kf, "primary-gie"))
    gp_ds_add (els, "primary-gie", gp_ds_int (kf, "primary-gie",
            "plugin-type", 0) == 1 ? "nvinferserver" : "nvinfer",
        gp_ds_int (kf, "primary-gie", "gie-unique-id", -1));
  if (gp_ds_enabled (kf, "tracker"))
    gp_ds_add (els, "tracker", "nvtracker", -1);
  for (i = 0; i < groups->len; i++) {
    const gchar *g = g_ptr_array_index (groups, i);

    if (g_str_has_prefix (g, "secondary-gie") && gp_ds_enabled (kf, g))
      gp_ds_add (els, g, gp_ds_int (kf, g, "plugin-type", 0) == 1 ?
          "nvinferserver" : "nvinfer", gp_ds_int (kf, g, "gie-unique-id",
              -1));
  }
  if (gp_ds_enabled (kf, "nvds-analytics"))
    gp_ds_add (els, "nvds-analytics", "nvdsanalytics", -1);
  if (gp_ds_enabled (kf, "tiled-display"))
    gp_ds_add (els, "tiled-display", "nvmultistreamtiler", -1);
  if (gp_ds_enabled (kf, "osd"))
    gp_ds_add (els, "osd", "nvdsosd", -1);
  for (i = 0; i < groups->len; i++) {
    const gchar *g = g_ptr_array_index (groups, i);

    if (g_str_has_prefix (g, "sink") && gp_ds_enabled (kf, g))
      gp_ds_add_sink (els, g, gp_ds_int (kf, g, "type", 1));
  }
  g_ptr_array_unref (groups);
  g_strfreev (all);
  if (els->len == 0) {
    g_set_error (error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_GROUP_NOT_FOUND,
        "%s: no deepstream-app group (source*, streammux, primary-gie, "
        "tracker, secondary-gie*, tiled-display, osd, sink*)", path);
    g_ptr_array_unref (els);
    return NULL;
  }
  return els;
}

static const GpDsCoverRow *
gp_ds_cover_row (const gchar * factory)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (gp_ds_cover_table); i++)
    if (strcmp (gp_ds_cover_table[i].factory, factory) == 0)
      return &gp_ds_cover_table[i];
  return NULL;
}

void
gp_ds_coverage_from_table (GPtrArray * els)
{
  guint i;

  for (i = 0; i < els->len; i++) {
    GpDsElement *e = g_ptr_array_index (els, i);
    const GpDsCoverRow *r = gp_ds_cover_row (e->factory);

    e->measured = FALSE;
    e->covered = r != NULL && r->covered;
    g_free (e->evidence);
    if (r == NULL)
      e->evidence = g_strdup (g_str_has_prefix (e->factory, "nv") ?
          "a DeepStream element the table does not list" :
          "not DeepStream: no DeepStream NVTX");
    else if (r->covered)
      e->evidence = g_strdup_printf ("%s%s%s", r->domain[0] ? r->domain :
          "default domain", ": ", r->ranges);
    else
      e->evidence = g_strdup (r->ranges);
    e->skill = r ? r->skill : NULL;
  }
}

/* "GstNvInfer: UID=4" -> 4; -1 without */
static gint
gp_ds_domain_uid (const gchar * domain)
{
  const gchar *u = strstr (domain, "UID=");

  return u && g_ascii_isdigit (u[4]) ? atoi (u + 4) : -1;
}

GpDsElement *
gp_ds_coverage_owner (GPtrArray * els, const gchar * domain,
    const gchar * message)
{
  const gchar *factory = NULL;
  guint i, k;

  for (k = 0; k < G_N_ELEMENTS (gp_ds_domains) && !factory; k++) {
    gsize l = strlen (gp_ds_domains[k][0]);

    if (strncmp (domain, gp_ds_domains[k][0], l) == 0
        && !g_ascii_isalnum (domain[l]))
      factory = gp_ds_domains[k][1];
  }
  for (i = 0; i < els->len; i++) {
    GpDsElement *e = g_ptr_array_index (els, i);
    gsize nl = strlen (e->name);

    if (factory != NULL) {
      gint uid = gp_ds_domain_uid (domain);

      if (strcmp (e->factory, factory) == 0
          && (e->uid < 0 || uid < 0 || e->uid == uid))
        return e;
    } else if (strcmp (domain, e->name) == 0
        || (strncmp (message, e->name, nl) == 0
            && (message[nl] == '\0' || message[nl] == '_'
                || message[nl] == '(' || message[nl] == ' '
                || message[nl] == ':'))) {
      return e;
    }
  }
  return NULL;
}

void
gp_ds_coverage_from_nvtx (GPtrArray * els, const GpNsysTable * nvtx)
{
  g_autoptr (GpNsysTable) agg = gp_nsys_nvtx_aggregate (nvtx, 0);
  guint i;

  gp_ds_coverage_from_table (els);
  for (i = 0; i < els->len; i++) {
    GpDsElement *e = g_ptr_array_index (els, i);

    e->measured = TRUE;
    e->covered = FALSE;
    e->nvtx_ns = NAN;
    g_clear_pointer (&e->evidence, g_free);
  }
  for (i = 0; i < agg->rows->len; i++) {
    const GpNsysRow *r = g_ptr_array_index (agg->rows, i);
    gchar *d, *m, *n;
    GpDsElement *e;

    if (!(r->total > 0))
      continue;
    n = gp_nsys_nvtx_normalise (r->name, 0, &d, &m);
    e = gp_ds_coverage_owner (els, d, m);
    if (e != NULL) {
      e->covered = TRUE;
      e->nvtx_ns = (isnan (e->nvtx_ns) ? 0 : e->nvtx_ns) + r->total;
      if (e->evidence == NULL)
        e->evidence = g_strdup (n);
      else if (strlen (e->evidence) < 160) {
        gchar *more = g_strdup_printf ("%s; %s", e->evidence, n);

        g_free (e->evidence);
        e->evidence = more;
      }
    }
    g_free (n);
    g_free (d);
    g_free (m);
  }
  for (i = 0; i < els->len; i++) {
    GpDsElement *e = g_ptr_array_index (els, i);

    if (e->evidence == NULL)
      e->evidence = g_strdup ("no range names it");
  }
}

void
gp_ds_coverage_add_session (GPtrArray * els, GpSession * s)
{
  GHashTable *used = g_hash_table_new (g_str_hash, g_str_equal);
  guint i, j;

  for (i = 0; i < els->len; i++) {
    GpDsElement *e = g_ptr_array_index (els, i);
    GpElementSummary *es = gp_session_find_elem_summary (s, e->name);

    for (j = 0; es == NULL && j < s->elements->len; j++) {
      GpElement *se = g_ptr_array_index (s->elements, j);

      if (g_strcmp0 (se->factory, e->factory) == 0
          && !g_hash_table_contains (used, se->name)
          && gp_session_find_elem_summary (s, se->name) != NULL)
        es = gp_session_find_elem_summary (s, se->name);
    }
    if (es != NULL) {
      g_hash_table_add (used, es->name);
      e->self_ms = es->self_total_ms;
      e->busy_pct = es->busy_pct;
    }
  }
  g_hash_table_destroy (used);
}

gchar *
gp_ds_coverage_markdown (GPtrArray * els)
{
  GString *o = g_string_new (NULL);
  gboolean measured = FALSE, session = FALSE, skill = FALSE;
  guint i, n_cov = 0;

  for (i = 0; i < els->len; i++) {
    GpDsElement *e = g_ptr_array_index (els, i);

    measured |= e->measured;
    session |= !isnan (e->self_ms);
    skill |= e->skill != NULL;
    n_cov += e->covered;
  }
  g_string_append_printf (o, "| element | factory | NVTX | %s |%s\n"
      "|---|---|---|---|%s\n", measured ? "ranges measured (nvtx_sum)" :
      "ranges (DeepStream 9 sources)", session ? " self time (gstprof) |" :
      "", session ? "---|" : "");
  for (i = 0; i < els->len; i++) {
    GpDsElement *e = g_ptr_array_index (els, i);

    g_string_append_printf (o, "| %s | %s | %s | %s%s%s%s |", e->name,
        e->factory, e->covered ? "COVERED" : "UNINSTRUMENTED", e->evidence,
        !measured && e->skill ? " (" : "", !measured && e->skill ?
        e->skill : "", !measured && e->skill ? ")" : "");
    if (session) {
      if (isnan (e->self_ms))
        g_string_append (o, " not in the session |");
      else
        g_string_append_printf (o, " %.1f ms (busy %.0f %%) |", e->self_ms,
            e->busy_pct);
    }
    g_string_append_c (o, '\n');
  }
  g_string_append_printf (o, "\n%u of %u elements covered (%s).\n", n_cov,
      els->len, measured ? "measured: a range names it" :
      "DeepStream 9's open sources; --nsys-report to measure this build");
  if (!measured && skill)
    g_string_append (o, "Where the skill's table says otherwise, the row "
        "says so: this table follows the sources.\n");
  if (!session)
    g_string_append (o, "gstprof's tracer times every element, covered or "
        "not: --session DIR gives each one's self time.\n");
  return g_string_free (o, FALSE);
}
