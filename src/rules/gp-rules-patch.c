/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-rules-patch.c: the one kit every rule builds its fix_patch with, and
 * the one check every patch passes before it is attached to a finding.
 *
 * A fix must never change what the pipeline does. gp_rules_attach_patch()
 * refuses, whatever rule asked:
 *  - a patch that does not apply to the launch string (a session without
 *    one, an import, keeps the edit as advice, checked for the rest);
 *  - an edit that names an element the user did not write (one inside
 *    playbin, decodebin, autovideosink, or made by glupload): the bin's own
 *    properties are the user's lever there, in the fix text;
 *  - removing an element that is not a pure mover: only converters that
 *    were found to convert nothing, uploads and downloads, queues and
 *    identity may go, never an element that changes the picture or sound
 *    (videoflip, videobalance, overlays, encoders), unless the same patch
 *    inserts one of its kind elsewhere (a move);
 *  - deleting caps the user wrote (adding a field to them keeps them),
 *    unless the element they fed converts by itself (the caps only chose
 *    what a removed converter made for it) or goes too;
 *  - setting a property to the value it already has;
 *  - a queue where a queue already is.
 */
#include "gp-rules-private.h"
#include "core/gp-launch.h"

#include <string.h>

/* builders */

JsonNode *
gp_patch_new (void)
{
  JsonNode *patch = json_node_new (JSON_NODE_ARRAY);

  json_node_take_array (patch, json_array_new ());
  return patch;
}

static JsonObject *
gp_patch_add (JsonNode * patch, const gchar * op)
{
  JsonObject *o = json_object_new ();

  json_object_set_string_member (o, "op", op);
  json_array_add_object_element (json_node_get_array (patch), o);
  return o;
}

void
gp_patch_add_set (JsonNode * patch, const gchar * target, const gchar * prop,
    JsonNode * value)
{
  JsonObject *o = gp_patch_add (patch, "set");

  json_object_set_string_member (o, "target", target);
  json_object_set_string_member (o, "prop", prop);
  json_object_set_member (o, "value", value);
}

void
gp_patch_add_set_int (JsonNode * patch, const gchar * target,
    const gchar * prop, gint64 value)
{
  gp_patch_add_set (patch, target, prop, json_node_init_int (json_node_alloc
          (), value));
}

void
gp_patch_add_set_bool (JsonNode * patch, const gchar * target,
    const gchar * prop, gboolean value)
{
  gp_patch_add_set (patch, target, prop,
      json_node_init_boolean (json_node_alloc (), value));
}

void
gp_patch_add_set_string (JsonNode * patch, const gchar * target,
    const gchar * prop, const gchar * value)
{
  gp_patch_add_set (patch, target, prop,
      json_node_init_string (json_node_alloc (), value));
}

JsonObject *
gp_patch_add_insert (JsonNode * patch, const gchar * where,
    const gchar * element, const gchar * factory)
{
  JsonObject *o = gp_patch_add (patch, "insert");
  JsonObject *props = json_object_new ();

  json_object_set_string_member (o, where, element);
  json_object_set_string_member (o, "element", factory);
  json_object_set_object_member (o, "props", props);
  return props;
}

void
gp_patch_add_remove (JsonNode * patch, const gchar * target)
{
  json_object_set_string_member (gp_patch_add (patch, "remove"), "target",
      target);
}

JsonObject *
gp_patch_add_replace (JsonNode * patch, const gchar * target,
    const gchar * factory, gboolean keep_props)
{
  JsonObject *o = gp_patch_add (patch, "replace");
  JsonObject *props = json_object_new ();

  json_object_set_string_member (o, "target", target);
  json_object_set_string_member (o, "element", factory);
  if (keep_props)
    json_object_set_boolean_member (o, "keep_props", TRUE);
  json_object_set_object_member (o, "props", props);
  return props;
}

void
gp_patch_add_caps (JsonNode * patch, const gchar * where,
    const gchar * element, const gchar * caps)
{
  JsonObject *o = gp_patch_add (patch, "caps");

  json_object_set_string_member (o, where, element);
  json_object_set_string_member (o, "caps", caps);
}

/* the check */

/* Elements a fix may take out: they move or convert buffers and change
 * nothing a viewer or listener gets when the rule found them idle. */
static const gchar *const gp_patch_removable[] = {
  "queue", "queue2", "identity", "audioconvert", "audioresample",
  "glupload", "gldownload", "cudaupload", "cudadownload", "d3d11upload",
  "d3d11download", NULL
};

static gboolean
gp_patch_is_removable (const gchar * factory)
{
  return factory && (g_strv_contains (gp_patch_removable, factory) ||
      gp_factory_is_sw_converter (factory) ||
      gp_rules_is_device_converter (factory));
}

/* The session element a launch name designates: the element of that name,
 * else the one whose alias (<factory><n>) it is. */
static GpElement *
gp_patch_session_element (GpSession * s, const gchar * launch_name)
{
  guint i;
  GpElement *e = gp_session_find_element (s, launch_name);

  if (e)
    return e;
  for (i = 0; s->elements && i < s->elements->len; i++) {
    gchar *ln;

    e = g_ptr_array_index (s->elements, i);
    ln = gp_session_launch_name (s, e->name);
    if (g_strcmp0 (ln, launch_name) == 0) {
      g_free (ln);
      return e;
    }
    g_free (ln);
  }
  return NULL;
}

/* The recorded value of @prop on @e as text, or NULL. */
static gchar *
gp_patch_current (GpElement * e, const gchar * prop)
{
  if (e == NULL || e->props == NULL || !json_object_has_member (e->props,
          prop))
    return NULL;
  return gp_launch_value_text (json_object_get_member (e->props, prop));
}

/* NULL when every caps element of @before is still in @after, or fed an
 * element that converts by itself or that the patch removes too (caps
 * inside a stretch that goes as a whole); else the caps text that would
 * go. @removed: the indices in @before of the elements the patch
 * removes. */
static gchar *
gp_patch_lost_caps (const GpLaunch * before, GpLaunch * after,
    GHashTable * removed)
{
  guint i, j, n = gp_launch_get_n_elements (before);
  gchar *text = gp_launch_to_string (after), *lost = NULL;
  gchar *orig = gp_launch_to_string (before);

  for (i = 0; i < n && lost == NULL; i++) {
    const GpLaunchElement *c = gp_launch_get_element (before, i);
    const GpLaunchElement *fed;
    gchar *caps;
    gboolean kept = FALSE;
    gint f;

    if (c->kind != GP_LAUNCH_CAPS)
      continue;
    caps = g_strndup (orig + c->offset, c->length);
    for (j = 0; j < gp_launch_get_n_elements (after) && !kept; j++) {
      const GpLaunchElement *d = gp_launch_get_element (after, j);

      /* the same caps, or the same with a field added after them */
      kept = d->kind == GP_LAUNCH_CAPS && d->length >= c->length &&
          strncmp (text + d->offset, caps, c->length) == 0 &&
          (d->length == c->length || text[d->offset + c->length] == ',');
    }
    f = gp_launch_caps_feeds (before, i);
    fed = f >= 0 ? gp_launch_get_element (before, f) : NULL;
    if (!kept && !(fed && (gp_factory_is_sw_converter (fed->factory) ||
                gp_rules_is_device_converter (fed->factory) ||
                g_hash_table_contains (removed, GINT_TO_POINTER (f + 1)))))
      lost = caps;
    else
      g_free (caps);
  }
  g_free (text);
  g_free (orig);
  return lost;
}

static const gchar *
gp_patch_member (JsonObject * o, const gchar * key)
{
  JsonNode *n = json_object_get_member (o, key);

  return n && JSON_NODE_HOLDS_VALUE (n) &&
      json_node_get_value_type (n) == G_TYPE_STRING ?
      json_node_get_string (n) : NULL;
}

/* NULL when @op keeps what the pipeline does; else why not. @inserted:
 * the factories the patch inserts (a removed element of one of them is
 * moved, not dropped). */
static gchar *
gp_patch_check_op (GpSession * s, JsonObject * op, GHashTable * inserted)
{
  const gchar *kind = gp_patch_member (op, "op");
  const gchar *keys[] = { "target", "before", "after" };
  const gchar *name = NULL;
  GpElement *e = NULL;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (keys) && name == NULL; i++)
    name = gp_patch_member (op, keys[i]);
  if (kind == NULL || name == NULL)
    return g_strdup ("an edit without an op or an element");
  e = gp_patch_session_element (s, name);
  /* caps the patch itself refers to are checked by what is lost */
  if (e && g_strcmp0 (e->factory, "capsfilter") != 0 &&
      !gp_session_is_users (s, e->name))
    return g_strdup_printf ("%s is not an element of the launch string",
        name);
  if (strcmp (kind, "remove") == 0 && e &&
      g_strcmp0 (e->factory, "capsfilter") != 0 &&
      !gp_patch_is_removable (e->factory) &&
      !(e->factory && g_hash_table_contains (inserted, e->factory)))
    return g_strdup_printf ("%s (%s) does work of its own", name, e->factory);
  if (strcmp (kind, "set") == 0) {
    const gchar *prop = gp_patch_member (op, "prop");
    gchar *cur = prop ? gp_patch_current (e, prop) : NULL;
    gchar *want = gp_launch_value_text (json_object_get_member (op, "value"));
    gchar *why = NULL;

    if (cur && want && g_ascii_strcasecmp (cur, want) == 0)
      why = g_strdup_printf ("%s already has %s=%s", name, prop, want);
    g_free (cur);
    g_free (want);
    if (why)
      return why;
  }
  if (strcmp (kind, "insert") == 0 && g_strcmp0 (gp_patch_member (op,
              "element"), "queue") == 0 && e) {
    gboolean before = json_object_has_member (op, "before");
    GpLink *l = before ? gp_session_link_into (s, e->name) :
        gp_session_link_out_of (s, e->name);
    gchar *other = NULL;

    if (gp_session_is_queue (s, e->name))
      return g_strdup_printf ("%s is a queue already", name);
    if (l)
      other = gp_pad_element (before ? l->src : l->sink);
    if (other && gp_session_is_queue (s, other)) {
      gchar *why = g_strdup_printf ("a queue (%s) is there already", other);

      g_free (other);
      return why;
    }
    g_free (other);
  }
  return NULL;
}

gboolean
gp_rules_attach_patch (GpSession * s, GpFinding * f, JsonNode * patch)
{
  const GpLaunch *before = NULL;
  GpLaunch *after = NULL;
  GList *ops = NULL, *o;
  GHashTable *removed = g_hash_table_new (NULL, NULL);
  GHashTable *inserted = g_hash_table_new (g_str_hash, g_str_equal);
  gchar *why = NULL;
  GError *err = NULL;

  if (patch == NULL)
    return FALSE;
  if (JSON_NODE_HOLDS_OBJECT (patch))
    ops = g_list_append (NULL, json_node_get_object (patch));
  else if (JSON_NODE_HOLDS_ARRAY (patch))
    ops = json_array_get_elements (json_node_get_array (patch));
  if (ops == NULL)
    why = g_strdup ("no edit");
  else if (s->launch && (before = gp_session_parsed_launch (s)) == NULL)
    why = g_strdup ("the launch string does not parse");
  for (o = ops; o; o = o->next) {
    JsonObject *op = JSON_NODE_HOLDS_OBJECT (patch) ? o->data :
        json_node_get_object (o->data);

    if (op && g_strcmp0 (gp_patch_member (op, "op"), "insert") == 0 &&
        gp_patch_member (op, "element"))
      g_hash_table_add (inserted, (gpointer) gp_patch_member (op,
              "element"));
  }
  for (o = ops; why == NULL && o; o = o->next) {
    JsonObject *op = JSON_NODE_HOLDS_OBJECT (patch) ? o->data :
        json_node_get_object (o->data);

    why = op ? gp_patch_check_op (s, op, inserted) : g_strdup ("an edit "
        "that is not an object");
    if (why == NULL && before &&
        g_strcmp0 (gp_patch_member (op, "op"), "remove") == 0) {
      gint el = gp_launch_find_element (before, gp_patch_member (op,
              "target"));

      if (el >= 0)
        g_hash_table_add (removed, GINT_TO_POINTER (el + 1));
    }
  }
  g_list_free (ops);
  /* an import without a launch string: the edit is advice to read, and
   * `gstprof fix` says it has nothing to apply it to */
  if (why == NULL && before) {
    after = gp_launch_copy (before);
    if (!gp_launch_apply_patch (after, patch, &err)) {
      why = g_strdup (err->message);
      g_clear_error (&err);
    } else {
      gchar *lost = gp_patch_lost_caps (before, after, removed);

      if (lost)
        why = g_strdup_printf ("it would delete the caps %s", lost);
      g_free (lost);
    }
  }
  g_clear_pointer (&after, gp_launch_free);
  g_hash_table_unref (removed);
  g_hash_table_unref (inserted);
  if (why) {
    g_debug ("%s: no fix_patch: %s", f->rule, why);
    g_free (why);
    json_node_unref (patch);
    return FALSE;
  }
  if (f->fix_patch)
    json_node_unref (f->fix_patch);
  f->fix_patch = patch;
  return TRUE;
}
