/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-rules-patch.c: the one check every fix_patch passes before it is
 * attached to a finding (the rules build their patches with core's
 * builders, core/gp-launch-op.h).
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
 *    unless the element they fed can change every field they pin (the
 *    caps only chose what a removed converter made for it: a format before
 *    videoconvert, a size before videoscale, but not a format before
 *    videoscale, which the sink would then no longer get) or goes too;
 *  - setting a property to the value it already has;
 *  - a queue where a queue already is.
 */
#include "gp-rules-private.h"
#include "core/gp-launch.h"

#include <string.h>

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

/* The caps fields each software converter changes: caps that pin any
 * other field before it still decide what comes out of it. */
#define GP_PATCH_VIDEO_FORMAT "format", "colorimetry", "chroma-site"
#define GP_PATCH_VIDEO_SIZE "width", "height", "pixel-aspect-ratio"
static const struct
{
  const gchar *factory;
  const gchar *const fields[8];
} gp_patch_converts[] = {
  {"videoconvert", {GP_PATCH_VIDEO_FORMAT, NULL}},
  {"videoscale", {GP_PATCH_VIDEO_SIZE, NULL}},
  {"videoconvertscale", {GP_PATCH_VIDEO_FORMAT, GP_PATCH_VIDEO_SIZE, NULL}},
  {"autovideoconvert", {GP_PATCH_VIDEO_FORMAT, GP_PATCH_VIDEO_SIZE, NULL}},
  {"audioconvert", {"format", "channels", "layout", "channel-mask", NULL}},
  {"audioresample", {"rate", NULL}},
};

/* TRUE when an element of @factory can make whatever the caps text @caps
 * pins: a device converter anything, a software one only its fields
 * (gp_patch_converts) in system memory. */
static gboolean
gp_patch_converts_all (const gchar * factory, const gchar * caps)
{
  const gchar *const *fields = NULL;
  gchar **parts;
  gboolean all;
  guint i;

  if (factory == NULL)
    return FALSE;
  if (gp_rules_is_device_converter (factory))
    return TRUE;
  for (i = 0; i < G_N_ELEMENTS (gp_patch_converts); i++)
    if (strcmp (gp_patch_converts[i].factory, factory) == 0)
      fields = gp_patch_converts[i].fields;
  if (fields == NULL)
    return FALSE;
  /* a list's commas split it too: its pieces after the first have no '=' */
  parts = g_strsplit (caps, ",", -1);
  all = strchr (parts[0], '(') == NULL;         /* a memory feature */
  for (i = 1; parts[i] && all; i++) {
    gchar *eq = strchr (parts[i], '='), *key;

    if (eq == NULL)
      continue;
    key = g_strstrip (g_strndup (parts[i], eq - parts[i]));
    all = g_strv_contains (fields, key);
    g_free (key);
  }
  g_strfreev (parts);
  return all;
}

/* NULL when every caps element of @before is still in @after, or fed an
 * element that can change every field it pins or that the patch removes
 * too (caps
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
    if (!kept && !(fed && (gp_patch_converts_all (fed->factory, caps) ||
                g_hash_table_contains (removed, GINT_TO_POINTER (f + 1)))))
      lost = caps;
    else
      g_free (caps);
  }
  g_free (text);
  g_free (orig);
  return lost;
}

/* NULL when @op keeps what the pipeline does; else why not. @inserted:
 * the factories the patch inserts (a removed element of one of them is
 * moved, not dropped). */
static gchar *
gp_patch_check_op (GpSession * s, const GpLaunchOp * op,
    GHashTable * inserted)
{
  const gchar *name = op->name;
  GpElement *e = NULL;

  if (name == NULL)
    return g_strdup ("an edit without an element");
  e = gp_patch_session_element (s, name);
  /* caps the patch itself refers to are checked by what is lost */
  if (e && g_strcmp0 (e->factory, "capsfilter") != 0 &&
      !gp_session_is_users (s, e->name))
    return g_strdup_printf ("%s is not an element of the launch string",
        name);
  if (op->kind == GP_LAUNCH_OP_REMOVE && e &&
      g_strcmp0 (e->factory, "capsfilter") != 0 &&
      !gp_patch_is_removable (e->factory) &&
      !(e->factory && g_hash_table_contains (inserted, e->factory)))
    return g_strdup_printf ("%s (%s) does work of its own", name, e->factory);
  if (op->kind == GP_LAUNCH_OP_SET) {
    const gchar *prop = op->prop;
    gchar *cur = prop ? gp_patch_current (e, prop) : NULL;
    gchar *want = gp_launch_scalar_text (&op->value);
    gchar *why = NULL;

    if (cur && want && g_ascii_strcasecmp (cur, want) == 0)
      why = g_strdup_printf ("%s already has %s=%s", name, prop, want);
    g_free (cur);
    g_free (want);
    if (why)
      return why;
  }
  if (op->kind == GP_LAUNCH_OP_INSERT && g_strcmp0 (op->factory,
          "queue") == 0 && e) {
    gboolean before = op->at == GP_LAUNCH_AT_BEFORE;
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
gp_rules_attach_patch (GpSession * s, GpFinding * f, GPtrArray * patch)
{
  const GpLaunch *before = NULL;
  GpLaunch *after = NULL;
  GHashTable *removed = g_hash_table_new (NULL, NULL);
  GHashTable *inserted = g_hash_table_new (g_str_hash, g_str_equal);
  gchar *why = NULL;
  GError *err = NULL;
  guint i;

  if (patch == NULL)
    return FALSE;
  if (patch->len == 0)
    why = g_strdup ("no edit");
  else if (s->launch && (before = gp_session_parsed_launch (s)) == NULL)
    why = g_strdup ("the launch string does not parse");
  for (i = 0; i < patch->len; i++) {
    const GpLaunchOp *op = g_ptr_array_index (patch, i);

    if (op->kind == GP_LAUNCH_OP_INSERT && op->factory)
      g_hash_table_add (inserted, op->factory);
  }
  for (i = 0; why == NULL && i < patch->len; i++) {
    const GpLaunchOp *op = g_ptr_array_index (patch, i);

    why = gp_patch_check_op (s, op, inserted);
    if (why == NULL && before && op->kind == GP_LAUNCH_OP_REMOVE) {
      gint el = gp_launch_find_element (before, op->name);

      if (el >= 0)
        g_hash_table_add (removed, GINT_TO_POINTER (el + 1));
    }
  }
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
    g_ptr_array_unref (patch);
    return FALSE;
  }
  if (f->fix_patch)
    g_ptr_array_unref (f->fix_patch);
  f->fix_patch = patch;
  return TRUE;
}
