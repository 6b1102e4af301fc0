/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-rule-caps.c: CAPS, conversions that do nothing or could be one:
 * (a) a converter in passthrough (the same caps in and out, its self time
 *     next to nothing): it can be removed;
 * (b) two converters back to back (capsfilters between them aside) of the
 *     same kind (both software, or the same device converter): one
 *     converter does both steps.
 * Thresholds and their reasons: docs/rules.md.
 */
#include "gp-rules-private.h"

#include <stdio.h>
#include <string.h>

/* A converter whose caps are the same on both sides but whose self time
 * p50 is above this does work anyway (a device converter copying between
 * surfaces): not passthrough, not reported as one. GstBaseTransform in
 * passthrough hands the buffer on in a few microseconds. */
#define GP_CAPS_PASSTHROUGH_MAX_P50_MS 0.2

static gboolean
gp_rule_caps_is_converter (GpElement * e)
{
  return e && (gp_factory_is_sw_converter (e->factory) ||
      gp_rules_is_device_converter (e->factory));
}

static gint
gp_rule_caps_cmp (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const gchar * const *) a, *(const gchar * const *) b);
}

/* A caps string in a canonical form: the structure name, then its fields
 * sorted, spaces and type annotations dropped. Read as text because rules
 * run on saved sessions without gst_init (). */
static gchar *
gp_rule_caps_canonical (const gchar * caps)
{
  gchar **parts = g_strsplit (caps, ",", -1);
  GPtrArray *fields = g_ptr_array_new_with_free_func (g_free);
  GString *out;
  guint i;

  for (i = 1; parts[i]; i++) {
    gchar *f = g_strstrip (parts[i]);
    gchar *eq = strchr (f, '=');
    gchar *v, *key;

    if (eq == NULL)
      continue;
    key = g_strndup (f, eq - f);
    g_strstrip (key);
    v = g_strstrip (eq + 1);
    if (*v == '(' && strchr (v, ')'))
      v = strchr (v, ')') + 1;
    g_ptr_array_add (fields, g_strdup_printf ("%s=%s", key, v));
    g_free (key);
  }
  g_ptr_array_sort (fields, (GCompareFunc) gp_rule_caps_cmp);
  out = g_string_new (g_strstrip (parts[0]));
  for (i = 0; i < fields->len; i++)
    g_string_append_printf (out, ",%s", (gchar *) g_ptr_array_index (fields,
            i));
  g_ptr_array_unref (fields);
  g_strfreev (parts);
  return g_string_free (out, FALSE);
}

static gboolean
gp_rule_caps_equal (const gchar * a, const gchar * b)
{
  gchar *ca, *cb;
  gboolean eq;

  if (a == NULL || b == NULL)
    return FALSE;
  ca = gp_rule_caps_canonical (a);
  cb = gp_rule_caps_canonical (b);
  eq = strcmp (ca, cb) == 0;
  g_free (ca);
  g_free (cb);
  return eq;
}

static gboolean
gp_rule_caps_is_passthrough (GpSession * s, GpElement * e, gdouble * p50)
{
  GpLink *in = gp_session_link_into (s, e->name);
  GpLink *out = gp_session_link_out_of (s, e->name);
  GpElementSummary *es = gp_session_find_elem_summary (s, e->name);

  *p50 = es ? es->self_ms.p50 : -1;
  if (in == NULL || out == NULL || !gp_rule_caps_equal (in->caps, out->caps) ||
      g_strcmp0 (in->memory, out->memory) != 0)
    return FALSE;
  /* Unknown self time (no buffers timed): the caps alone decide. */
  return *p50 < 0 || *p50 <= GP_CAPS_PASSTHROUGH_MAX_P50_MS;
}

static gdouble
gp_rule_caps_share (GpSession * s, const gchar * name)
{
  GpElementSummary *es = gp_session_find_elem_summary (s, name);
  gdouble total = gp_session_total_work_ms (s), w;

  if (es == NULL || total <= 0 || (w = gp_session_work_ms (s, es)) <= 0)
    return 0;
  return w / total * 100.0;
}

static void
gp_rule_caps_report_passthrough (GpSession * s, const GpRule * rule,
    GpElement * e, gdouble p50)
{
  GpLink *in = gp_session_link_into (s, e->name);
  GpFinding *f;
  gchar *title, *name;

  title = g_strdup_printf ("%s converts nothing: the same caps in and out",
      e->name);
  f = gp_rule_add_finding (s, rule, GP_SEVERITY_MEDIUM, title);
  g_free (title);
  /* bench/pairs/caps.pair verified back-to-back conversions; removing a
   * passthrough converter saves little and has no pair yet */
  gp_finding_mark_unverified (f);
  gp_finding_add_target (f, e->name);
  gp_finding_set_string (f, "kind", "passthrough");
  gp_finding_set_string (f, "factory", e->factory);
  gp_finding_set_string (f, "caps", in->caps);
  if (p50 >= 0)
    gp_finding_set_double (f, "self_p50_ms", p50);
  f->rank_value = gp_rule_caps_share (s, e->name);
  gp_finding_set_double (f, "share_pct", f->rank_value);

  g_free (f->why);
  f->why = g_strdup_printf ("The caps on both sides of %s are equal, so it "
      "passes buffers through: it does nothing now, but it adds a "
      "negotiation step and would silently start converting if the caps "
      "upstream changed.", e->name);
  g_free (f->fix);
  f->fix = g_strdup_printf ("Remove %s.", e->name);
  name = gp_session_launch_name (s, e->name);
  if (name) {
    GPtrArray *patch = gp_launch_patch_new ();

    g_ptr_array_add (patch, gp_launch_op_remove (name));
    gp_rules_attach_patch (s, f, patch);
  }
  g_free (name);
}

/* Version of the capture's GStreamer, major * 100 + minor; 0 unknown. */
static gint
gp_rule_caps_gst_version (GpSession * s)
{
  guint major = 0, minor = 0;

  if (s->gstreamer == NULL ||
      sscanf (s->gstreamer, "%u.%u", &major, &minor) != 2)
    return 0;
  return major * 100 + minor;
}

static void
gp_rule_caps_report_pair (GpSession * s, const GpRule * rule, GpElement * a,
    GpElement * b)
{
  GpLink *in = gp_session_link_into (s, a->name);
  GpLink *out = gp_session_link_out_of (s, b->name);
  GpFinding *f;
  gchar *title, *an, *bn, *fin, *fout;
  const gchar *merged = NULL;
  GPtrArray *patch = NULL;

  title = g_strdup_printf ("%s and %s convert back to back: one converter "
      "does both steps", a->name, b->name);
  f = gp_rule_add_finding (s, rule, GP_SEVERITY_MEDIUM, title);
  g_free (title);
  /* the pair verified two software converters; a device converter twice
   * (nvvidconv ! nvvidconv) has not been measured */
  if (gp_rules_is_hardware_factory (a->factory, NULL)
      || gp_rules_is_hardware_factory (b->factory, NULL))
    gp_finding_mark_unverified (f);
  gp_finding_add_target (f, a->name);
  gp_finding_add_target (f, b->name);
  gp_finding_set_string (f, "kind", "back-to-back");
  gp_finding_set_string (f, "first", a->factory);
  gp_finding_set_string (f, "second", b->factory);
  gp_finding_set_formats (f, in, out, &fin, &fout);
  f->rank_value = gp_rule_caps_share (s, a->name);
  gp_finding_set_double (f, "first_share_pct", f->rank_value);
  gp_finding_set_double (f, "second_share_pct", gp_rule_caps_share (s,
      b->name));

  /* Which converter does both: the same factory does; a software format
   * converter and a scaler are videoconvertscale since GStreamer 1.22. */
  if (g_strcmp0 (a->factory, b->factory) == 0 ||
      gp_rules_is_device_converter (b->factory) ||
      g_strcmp0 (b->factory, "videoconvertscale") == 0)
    merged = NULL;
  else if (gp_rule_caps_gst_version (s) >= 122)
    merged = "videoconvertscale";
  else
    merged = "";

  g_free (f->why);
  f->why = g_strdup_printf ("Each converter reads and writes every frame; "
      "%s's output only feeds %s, so the intermediate frame is written "
      "and read for nothing.", a->name, b->name);
  g_free (f->fix);
  if (merged && *merged == '\0') {
    f->fix = g_strdup_printf ("Convert once: before GStreamer 1.22 there is "
        "no single element for both, so drop the intermediate caps between "
        "%s and %s and ask for the final format and size at once.", a->name,
        b->name);
  } else {
    f->fix = g_strdup_printf ("Remove %s%s%s: %s converts %s%s%s at once.",
        a->name, merged ? " and replace the other with " : "",
        merged ? merged : "", merged ? merged : b->name,
        fin ? fin : "the input", fout ? " to " : "", fout ? fout : "");
    an = gp_session_launch_name (s, a->name);
    bn = gp_session_launch_name (s, b->name);
    if (an && bn) {
      patch = gp_launch_patch_new ();
      g_ptr_array_add (patch, gp_launch_op_remove (an));
      if (merged)
        g_ptr_array_add (patch, gp_launch_op_replace (bn, merged, FALSE));
      gp_rules_attach_patch (s, f, patch);
    }
    g_free (an);
    g_free (bn);
  }
  g_free (fin);
  g_free (fout);
}

/* TRUE when @e takes what a decodebin gives (queues between them do not
 * count): the converter there is the recommended safety net, since the
 * decoded format changes with the file. */
static gboolean
gp_rule_caps_after_autoplug (GpSession * s, GpElement * e)
{
  gchar *cur = g_strdup (e->name);
  gboolean after = FALSE;
  guint depth;

  for (depth = 0; cur && depth < 32 && !after; depth++) {
    GpLink *in = gp_session_link_into (s, cur);
    gchar *prev = in ? gp_pad_element (in->src) : NULL;

    g_free (cur);
    cur = NULL;
    if (prev == NULL)
      break;
    if (gp_session_in_autoplug_bin (s, prev))
      after = TRUE;
    else if (gp_session_is_queue (s, prev))
      cur = g_steal_pointer (&prev);
    g_free (prev);
  }
  g_free (cur);
  return after;
}

/* TRUE when @e feeds an encoder (capsfilters and queues skipped): the converter
 * there is what makes the encoder's format from whatever comes, the place
 * a pinned format (FORMAT) is made. */
static gboolean
gp_rule_caps_before_encoder (GpSession * s, GpElement * e)
{
  GpElement *n = gp_session_neighbour (s, e->name, TRUE);
  guint hops;

  /* queues between them aside: `videoconvert ! I420 ! queue ! x264enc` */
  for (hops = 0; n && hops < 8 && gp_session_is_queue (s, n->name); hops++)
    n = gp_session_neighbour (s, n->name, TRUE);
  return n && n->factory && g_str_has_suffix (n->factory, "enc");
}

void
gp_rule_caps (GpSession * s, const GpRule * rule)
{
  GHashTable *passthrough;
  guint i;
  gdouble p50;

  if (s->elements == NULL)
    return;
  passthrough = g_hash_table_new (g_str_hash, g_str_equal);
  for (i = 0; i < s->elements->len; i++) {
    GpElement *e = g_ptr_array_index (s->elements, i);

    /* a bin's own converters (playbin's) are not the user's to remove,
     * and one after a decodebin or before an encoder is there on purpose */
    if (gp_rule_caps_is_converter (e) && gp_rule_caps_is_passthrough (s, e,
        &p50)) {
      if (gp_session_is_users (s, e->name) && !gp_rule_caps_after_autoplug (s,
          e) &&
          !gp_rule_caps_before_encoder (s, e))
        gp_rule_caps_report_passthrough (s, rule, e, p50);
      g_hash_table_add (passthrough, e->name);
    }
  }
  for (i = 0; i < s->elements->len; i++) {
    GpElement *a = g_ptr_array_index (s->elements, i);
    GpElement *b;

    if (!gp_rule_caps_is_converter (a) ||
        g_hash_table_contains (passthrough, a->name))
      continue;
    b = gp_session_neighbour (s, a->name, TRUE);
    if (!gp_rule_caps_is_converter (b) ||
        g_hash_table_contains (passthrough, b->name) ||
        !gp_session_is_users (s, a->name) || !gp_session_is_users (s, b->name))
      continue;
    /* Same kind only: software with software, or the same device
     * converter twice. videoconvert before nvvidconv is how system memory
     * gets onto the device, not a wasted step. */
    if ((gp_factory_is_sw_converter (a->factory) &&
            gp_factory_is_sw_converter (b->factory)) ||
        (gp_rules_is_device_converter (a->factory) &&
            g_strcmp0 (a->factory, b->factory) == 0))
      gp_rule_caps_report_pair (s, rule, a, b);
  }
  g_hash_table_unref (passthrough);
}
