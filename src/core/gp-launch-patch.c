/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-launch-patch.c: the rewriter. gp_launch_apply_patch () turns each
 * op (gp-launch-op.h) into byte edits of the text as written,
 * leaving every other byte as it was, and keeps the result only when it
 * parses again.
 */
#include "gp-launch-private.h"

#include <stdarg.h>
#include <string.h>

#include <gst/gst.h>

/* ------------------------------------------------------------------------ */
/* patches                                                                   */

typedef struct
{
  gsize off, del;
  gchar *ins;
} GpLaunchEdit;

static void
gp_launch_edit_clear (gpointer data)
{
  g_free (((GpLaunchEdit *) data)->ins);
}

static void
gp_launch_add_edit (GArray * edits, gsize off, gsize del, gchar * ins)
{
  GpLaunchEdit e = { off, del, ins };

  g_array_append_val (edits, e);
}

static gint
gp_launch_compare_edits (gconstpointer a, gconstpointer b)
{
  const GpLaunchEdit *ea = a, *eb = b;

  if (ea->off != eb->off)
    return ea->off < eb->off ? -1 : 1;
  /* an insertion before a deletion at the same place */
  return (ea->del > 0) - (eb->del > 0);
}

static gchar *
gp_launch_apply_edits (const gchar * text, GArray * edits)
{
  GString *out = g_string_new (NULL);
  gsize at = 0;
  guint i;

  g_array_sort (edits, gp_launch_compare_edits);
  for (i = 0; i < edits->len; i++) {
    GpLaunchEdit *e = &g_array_index (edits, GpLaunchEdit, i);

    g_assert (e->off >= at);
    g_string_append_len (out, text + at, e->off - at);
    g_string_append (out, e->ins != NULL ? e->ins : "");
    at = e->off + e->del;
  }
  g_string_append (out, text + at);
  return g_string_free (out, FALSE);
}

/* Where an offset of the old text is in the new one; FALSE if deleted. A
 * replacement that starts at the offset keeps it (a renamed factory is the
 * same element), a deletion that starts there removes it, an insertion
 * there pushes it right. */
static gboolean
gp_launch_map_offset (GArray * edits, gsize o, gsize * out)
{
  gssize delta = 0;
  guint i;

  for (i = 0; i < edits->len; i++) {
    GpLaunchEdit *e = &g_array_index (edits, GpLaunchEdit, i);
    gsize ins = e->ins != NULL ? strlen (e->ins) : 0;

    if (e->off > o)
      break;
    if (e->off == o && e->del > 0) {
      if (ins > 0)
        break;
      return FALSE;
    }
    if (e->off + e->del > o)
      return FALSE;
    delta += (gssize) ins - (gssize) e->del;
  }
  *out = o + delta;
  return TRUE;
}

static gboolean
gp_launch_patch_fail (GError ** error, guint index, const gchar * fmt, ...)
    G_GNUC_PRINTF (3, 4);

static gboolean
gp_launch_patch_fail (GError ** error, guint index, const gchar * fmt, ...)
{
  va_list args;
  gchar *msg;

  va_start (args, fmt);
  msg = gp_launch_one_line_vprintf (fmt, args);
  va_end (args);
  g_set_error (error, GP_LAUNCH_ERROR, GP_LAUNCH_ERROR_PATCH,
      "patch %u: %s", index, msg);
  g_free (msg);
  return FALSE;
}

/* A value as GStreamer should receive it, written so the lexer and
 * gst_parse_split_assignment () give it back: bare when that is safe,
 * else double-quoted with '"' and '\' escaped. */
static gchar *
gp_launch_quote_value (const gchar * v)
{
  GString *q;
  const gchar *c;
  gboolean bare = *v != '\0';

  for (c = v; *c != '\0' && bare; c++)
    bare = g_ascii_isalnum (*c) || strchr ("_-+.:/,@%", *c) != NULL;
  if (bare)
    return g_strdup (v);
  q = g_string_new ("\"");
  for (c = v; *c != '\0'; c++) {
    if (*c == '"' || *c == '\\')
      g_string_append_c (q, '\\');
    g_string_append_c (q, *c);
  }
  g_string_append_c (q, '"');
  return g_string_free (q, FALSE);
}

gchar *
gp_launch_value_text (JsonNode * node)
{
  GValue v = G_VALUE_INIT;
  gchar *text;

  if (node == NULL || JSON_NODE_TYPE (node) != JSON_NODE_VALUE)
    return NULL;
  json_node_get_value (node, &v);
  text = gp_launch_scalar_text (&v);
  g_value_unset (&v);
  return text;
}

/* " key=value" for each property of the new element, checked; out may be
 * NULL */
static gboolean
gp_launch_props_text (const GpLaunchOp * op, guint index, GString * out,
    GError ** error)
{
  gboolean ok = TRUE;
  guint i;

  for (i = 0; op->props != NULL && i < op->props->len && ok; i++) {
    GpLaunchProp *p = &g_array_index (op->props, GpLaunchProp, i);
    const gchar *key = p->key;
    gchar *v = gp_launch_scalar_text (&p->value), *q;

    if (!gp_launch_is_identifier (key)) {
      ok = gp_launch_patch_fail (error, index,
          "property name \"%s\" is not valid", key);
    } else if (v == NULL) {
      ok = gp_launch_patch_fail (error, index,
          "property \"%s\" needs a string, number or boolean value", key);
    } else if (out != NULL) {
      q = gp_launch_quote_value (v);
      g_string_append_printf (out, " %s=%s", key, q);
      g_free (q);
    }
    g_free (v);
  }
  return ok;
}

static gboolean
gp_launch_props_check (const GpLaunchOp * op, guint index, GError ** error)
{
  return gp_launch_props_text (op, index, NULL, error);
}

/* the element a batch calls name, or -1 */
static gint
gp_launch_resolve (GpLaunch * l, const gchar * name)
{
  guint i;

  for (i = 0; i < l->elements->len; i++)
    if (ELEM (l, i)->ref_name != NULL &&
        strcmp (ELEM (l, i)->ref_name, name) == 0)
      return i;
  for (i = 0; i < l->elements->len; i++)
    if (ELEM (l, i)->ref_alias != NULL &&
        strcmp (ELEM (l, i)->ref_alias, name) == 0)
      return i;
  return -1;
}

static gint
gp_launch_resolve_member (GpLaunch * l, const GpLaunchOp * op, guint index,
    GError ** error)
{
  const gchar *name = op->name;
  gint el;

  if (name == NULL) {
    gp_launch_patch_fail (error, index, "\"%s\" must name an element",
        gp_launch_at_name (op->at));
    return -1;
  }
  el = gp_launch_resolve (l, name);
  if (el < 0)
    gp_launch_patch_fail (error, index,
        "no element \"%s\" in the launch string", name);
  return el;
}

static const gchar *
gp_launch_label (GpLaunch * l, gint el)
{
  return ELEM (l, el)->ref_name != NULL ? ELEM (l, el)->ref_name :
      ELEM (l, el)->pub.factory;
}

/* the chain item (element, bin or URL) of a non-caps element */
static GpLaunchItem *
gp_launch_item_of (GpLaunch * l, gint el)
{
  return ELEM (l, el)->item >= 0 ? ITEM (l, ELEM (l, el)->item) : NULL;
}

/* where " key=value" goes at the end of an element's (or bin opener's)
 * properties */
static gsize
gp_launch_props_end (GpLaunch * l, gint el)
{
  return gp_launch_seg_end (l, ELEM (l, el)->props_last_seg);
}

static gboolean
gp_launch_keys_equal (const gchar * a, const gchar * b)
{
  for (; *a != '\0' && *b != '\0'; a++, b++) {
    gchar ca = *a == '_' ? '-' : *a, cb = *b == '_' ? '-' : *b;

    if (ca != cb)
      return FALSE;
  }
  return *a == *b;
}

/* the last property segment of el with this key, or -1 */
static gint
gp_launch_find_prop (GpLaunch * l, gint el, const gchar * key)
{
  GpLaunchElementPriv *e = ELEM (l, el);
  gint found = -1;
  guint i;

  for (i = e->first_seg; i <= e->props_last_seg; i++) {
    GpLaunchSegment *seg = SEG (l, i);
    gchar *k;

    if (seg->kind != GP_LAUNCH_SEG_PROPERTY)
      continue;
    k = gp_launch_prop_key (seg->text);
    if (gp_launch_keys_equal (k, key))
      found = i;
    g_free (k);
  }
  return found;
}

/* offset of the value in a property segment */
static gsize
gp_launch_prop_value_offset (GpLaunchSegment * seg)
{
  const gchar *eq = strchr (seg->text, '=');
  gsize v = eq - seg->text + 1;

  while (gp_launch_is_space (seg->text[v]))
    v++;
  return seg->offset + v;
}

static gboolean
gp_launch_patch_insert (GpLaunch * l, const GpLaunchOp * op, guint index,
    GArray * edits, gsize * expect_at, GError ** error)
{
  const gchar *factory = op->factory;
  gboolean after = op->at == GP_LAUNCH_AT_AFTER;
  gint el;
  GString *desc;
  gsize at;

  if (op->at == GP_LAUNCH_AT_TARGET)
    return gp_launch_patch_fail (error, index,
        "insert needs one of \"after\" or \"before\"");
  if (factory == NULL || !gp_launch_is_identifier (factory))
    return gp_launch_patch_fail (error, index,
        "insert needs \"element\": a factory name");
  el = gp_launch_resolve_member (l, op, index, error);
  if (el < 0)
    return FALSE;
  desc = g_string_new (factory);
  if (!gp_launch_props_text (op, index, desc, error)) {
    g_string_free (desc, TRUE);
    return FALSE;
  }
  if (ELEM (l, el)->pub.kind == GP_LAUNCH_CAPS) {
    /* after caps = before the element they feed, and the other way round */
    GpLaunchLink *lk = LINK (l, ELEM (l, el)->link);

    after = !after;
    at = after ? ITEM (l, lk->src)->end : ITEM (l, lk->sink)->start;
  } else {
    GpLaunchItem *it = gp_launch_item_of (l, el);

    if (after && it->link_out < 0) {
      g_string_free (desc, TRUE);
      return gp_launch_patch_fail (error, index,
          "\"%s\" has no link after it in its chain",
          gp_launch_label (l, el));
    }
    if (!after && it->link_in < 0) {
      g_string_free (desc, TRUE);
      return gp_launch_patch_fail (error, index,
          "\"%s\" has no link before it in its chain",
          gp_launch_label (l, el));
    }
    at = after ? it->end : it->start;
  }
  if (after) {
    *expect_at = at + 3;
    g_string_prepend (desc, " ! ");
  } else {
    *expect_at = at;
    g_string_append (desc, " ! ");
  }
  gp_launch_add_edit (edits, at, 0, g_string_free (desc, FALSE));
  return TRUE;
}

/* edits that set key=value on el: the value of its last key= replaced, or
 * " key=value" added at the end of its properties */
static void
gp_launch_set_edit (GpLaunch * l, gint el, const gchar * key,
    const gchar * value, GArray * edits)
{
  gint seg = gp_launch_find_prop (l, el, key);
  gchar *q = gp_launch_quote_value (value);

  if (seg >= 0) {
    gsize v = gp_launch_prop_value_offset (SEG (l, seg));

    gp_launch_add_edit (edits, v, gp_launch_seg_end (l, seg) - v, q);
  } else {
    gp_launch_add_edit (edits, gp_launch_props_end (l, el), 0,
        g_strdup_printf (" %s=%s", key, q));
    g_free (q);
  }
}

static gboolean
gp_launch_patch_replace (GpLaunch * l, const GpLaunchOp * op, guint index,
    GArray * edits, GError ** error)
{
  const gchar *factory = op->factory;
  gboolean keep = op->keep_props;
  gint el;
  GpLaunchElementPriv *e;
  GString *extra;
  guint i, j;

  if (factory == NULL || !gp_launch_is_identifier (factory))
    return gp_launch_patch_fail (error, index,
        "replace needs \"element\": a factory name");
  el = gp_launch_resolve_member (l, op, index, error);
  if (el < 0)
    return FALSE;
  e = ELEM (l, el);
  if (e->pub.kind != GP_LAUNCH_ELEMENT)
    return gp_launch_patch_fail (error, index,
        "\"%s\" is not an element with a factory (use \"caps\" for caps)",
        gp_launch_label (l, el));
  extra = g_string_new (NULL);
  if (!gp_launch_props_check (op, index, error)) {
    g_string_free (extra, TRUE);
    return FALSE;
  }
  gp_launch_add_edit (edits, e->pub.offset,
      strlen (SEG (l, e->first_seg)->text), g_strdup (factory));
  for (j = 0; op->props != NULL && j < op->props->len; j++) {
    GpLaunchProp *p = &g_array_index (op->props, GpLaunchProp, j);
    const gchar *key = p->key;
    gchar *v = gp_launch_scalar_text (&p->value);
    gint seg = gp_launch_find_prop (l, el, key);

    /* a property already there gets the new value (and is not dropped
     * below), others are added */
    if (seg >= 0) {
      gsize at = gp_launch_prop_value_offset (SEG (l, seg));

      gp_launch_add_edit (edits, at, gp_launch_seg_end (l, seg) - at,
          gp_launch_quote_value (v));
    } else {
      gchar *q = gp_launch_quote_value (v);

      g_string_append_printf (extra, " %s=%s", key, q);
      g_free (q);
    }
    g_free (v);
  }
  for (i = e->first_seg + 1; i <= e->props_last_seg; i++) {
    GpLaunchSegment *seg = SEG (l, i);
    gchar *k;
    gboolean drop;

    if (seg->kind != GP_LAUNCH_SEG_PROPERTY && seg->kind !=
        GP_LAUNCH_SEG_PRESET)
      continue;
    k = gp_launch_prop_key (seg->text);
    /* name= stays: references and findings use it; a property given in
     * "props" is replaced, not dropped */
    drop = !keep && !(seg->kind == GP_LAUNCH_SEG_PROPERTY &&
        strcmp (k, "name") == 0);
    for (j = 0; drop && seg->kind == GP_LAUNCH_SEG_PROPERTY &&
        op->props != NULL && j < op->props->len; j++)
      if (gp_launch_keys_equal (g_array_index (op->props, GpLaunchProp,
                  j).key, k) && (gint) i == gp_launch_find_prop (l, el, k))
        drop = FALSE;
    g_free (k);
    if (drop) {
      /* with the whitespace before it */
      gsize from = SEG (l, i - 1)->kind == GP_LAUNCH_SEG_SPACE ?
          SEG (l, i - 1)->offset : seg->offset;

      gp_launch_add_edit (edits, from, gp_launch_seg_end (l, i) - from, NULL);
    }
  }
  if (extra->len > 0)
    gp_launch_add_edit (edits, gp_launch_props_end (l, el), 0,
        g_strdup (extra->str));
  g_string_free (extra, TRUE);
  return TRUE;
}

static gboolean
gp_launch_patch_set (GpLaunch * l, const GpLaunchOp * op, guint index,
    GArray * edits, GError ** error)
{
  const gchar *key = op->prop;
  gchar *value;
  gint el;

  if (key == NULL || !gp_launch_is_identifier (key))
    return gp_launch_patch_fail (error, index,
        "set needs \"prop\": a property name");
  value = gp_launch_scalar_text (&op->value);
  if (value == NULL)
    return gp_launch_patch_fail (error, index,
        "set needs \"value\": a string, number or boolean");
  el = gp_launch_resolve_member (l, op, index, error);
  if (el >= 0 && ELEM (l, el)->pub.kind != GP_LAUNCH_ELEMENT &&
      ELEM (l, el)->pub.kind != GP_LAUNCH_BIN) {
    gp_launch_patch_fail (error, index, "\"%s\" has no properties to set",
        gp_launch_label (l, el));
    el = -1;
  }
  if (el >= 0)
    gp_launch_set_edit (l, el, key, value, edits);
  g_free (value);
  return el >= 0;
}

static gboolean
gp_launch_patch_caps (GpLaunch * l, const GpLaunchOp * op, guint index,
    GArray * edits, GError ** error)
{
  const gchar *caps_in = op->caps;
  gchar *caps;
  gint el, target = -1;
  GpLaunchItem *it;
  GpLaunchLink *lk;
  gboolean after = op->at == GP_LAUNCH_AT_AFTER;
  gboolean before = op->at == GP_LAUNCH_AT_BEFORE;
  gboolean ok = TRUE;

  if (caps_in == NULL)
    return gp_launch_patch_fail (error, index,
        "caps needs \"caps\": a caps string");
  caps = g_strstrip (g_strdup (caps_in));
  if (*caps == '\0') {
    g_free (caps);
    return gp_launch_patch_fail (error, index, "empty caps");
  }
  if (gst_is_initialized ()) {
    GstCaps *c = gst_caps_from_string (caps);

    if (c == NULL)
      ok = gp_launch_patch_fail (error, index, "\"%s\" is not a caps string",
          caps);
    else
      gst_caps_unref (c);
  }
  if (!ok) {
    g_free (caps);
    return FALSE;
  }
  el = gp_launch_resolve_member (l, op, index, error);
  if (el < 0) {
    g_free (caps);
    return FALSE;
  }
  if (ELEM (l, el)->pub.kind == GP_LAUNCH_CAPS) {
    if (!after && !before)
      target = el;
    else
      ok = gp_launch_patch_fail (error, index, "\"%s\" is caps: give it as "
          "\"target\"", gp_launch_label (l, el));
  } else if (!after && !before) {
    ok = gp_launch_patch_fail (error, index,
        "\"%s\" is not caps: use \"after\" or \"before\"",
        gp_launch_label (l, el));
  } else {
    it = gp_launch_item_of (l, el);
    if ((after ? it->link_out : it->link_in) < 0) {
      ok = gp_launch_patch_fail (error, index,
          "\"%s\" has no link %s it in its chain", gp_launch_label (l, el),
          after ? "after" : "before");
    } else {
      lk = LINK (l, after ? it->link_out : it->link_in);
      if (lk->caps >= 0)
        target = lk->caps;
      else if (after)
        gp_launch_add_edit (edits, it->end, 0, g_strdup_printf (" ! %s", caps));
      else
        gp_launch_add_edit (edits, it->start, 0,
            g_strdup_printf ("%s ! ", caps));
    }
  }
  if (ok && target >= 0)
    gp_launch_add_edit (edits, ELEM (l, target)->pub.offset,
        ELEM (l, target)->pub.length, g_strdup (caps));
  g_free (caps);
  return ok;
}

static gboolean
gp_launch_patch_remove (GpLaunch * l, const GpLaunchOp * op, guint index,
    GArray * edits, GError ** error)
{
  gint el = gp_launch_resolve_member (l, op, index, error);
  GpLaunchElementPriv *e;
  GpLaunchItem *it;
  guint i;

  if (el < 0)
    return FALSE;
  e = ELEM (l, el);
  if (e->pub.kind == GP_LAUNCH_CAPS) {
    /* "a ! caps ! b" -> "a ! b": the link keeps its opening character and
     * the space after it, and the kind of link it was */
    GpLaunchLink *lk = LINK (l, e->link);
    gsize ws = e->pub.offset - (lk->start + 1);

    gp_launch_add_edit (edits, lk->start, ITEM (l, lk->sink)->start - lk->start,
        g_strdup_printf ("%c%.*s", lk->all ? ':' : '!', (int) ws,
            l->text + lk->start + 1));
    return TRUE;
  }
  /* a reference to it would dangle */
  for (i = 0; e->pub.name != NULL && i < l->items->len; i++) {
    gchar *tmp = NULL;

    if (ITEM (l, i)->element < 0 &&
        strcmp (gp_launch_ref_name_of (l, i, &tmp), e->pub.name) == 0) {
      g_free (tmp);
      return gp_launch_patch_fail (error, index,
          "\"%s\" is referenced by name at column %" G_GSIZE_FORMAT,
          gp_launch_label (l, el), ITEM (l, i)->start + 1);
    }
    g_free (tmp);
  }
  it = gp_launch_item_of (l, el);
  if (it->link_out >= 0) {
    GpLaunchItem *next = ITEM (l, LINK (l, it->link_out)->sink);

    gp_launch_add_edit (edits, it->start, next->start - it->start, NULL);
  } else if (it->link_in >= 0) {
    GpLaunchItem *prev = ITEM (l, LINK (l, it->link_in)->src);

    gp_launch_add_edit (edits, prev->end, it->end - prev->end, NULL);
  } else {
    return gp_launch_patch_fail (error, index, "\"%s\" is alone in its chain; "
        "removing it would leave nothing to link", gp_launch_label (l, el));
  }
  return TRUE;
}

static void
gp_launch_set_batch_names (GpLaunch * l)
{
  guint i;

  for (i = 0; i < l->elements->len; i++) {
    GpLaunchElementPriv *e = ELEM (l, i);

    g_free (e->ref_name);
    g_free (e->ref_alias);
    e->ref_name = g_strdup (e->pub.name);
    e->ref_alias = e->pub.factory != NULL ?
        g_strdup_printf ("%s%u", e->pub.factory, e->alias_n) : NULL;
  }
}

/* batch names follow the elements through the edit */
static void
gp_launch_carry_batch_names (GpLaunch * from, GpLaunch * to, GArray * edits)
{
  guint i, j;

  for (i = 0; i < from->elements->len; i++) {
    GpLaunchElementPriv *e = ELEM (from, i);
    gsize at;

    if (!gp_launch_map_offset (edits, e->pub.offset, &at))
      continue;
    for (j = 0; j < to->elements->len; j++) {
      GpLaunchElementPriv *t = ELEM (to, j);

      if (t->pub.offset == at && t->pub.kind == e->pub.kind) {
        g_free (t->ref_name);
        g_free (t->ref_alias);
        t->ref_name = g_strdup (e->ref_name);
        t->ref_alias = g_strdup (e->ref_alias);
        break;
      }
    }
  }
}

static gboolean
gp_launch_apply_one (GpLaunch ** cur, const GpLaunchOp * op, guint index,
    GError ** error)
{
  GpLaunch *l = *cur, *nl;
  const gchar *kind = gp_launch_op_kind_name (op->kind);
  GArray *edits;
  gboolean ok = FALSE;
  gsize expect_at = 0;
  gchar *text;
  GError *perr = NULL;

  edits = g_array_new (FALSE, TRUE, sizeof (GpLaunchEdit));
  g_array_set_clear_func (edits, gp_launch_edit_clear);
  switch (op->kind) {
    case GP_LAUNCH_OP_INSERT:
      ok = gp_launch_patch_insert (l, op, index, edits, &expect_at, error);
      break;
    case GP_LAUNCH_OP_REPLACE:
      ok = gp_launch_patch_replace (l, op, index, edits, error);
      break;
    case GP_LAUNCH_OP_SET:
      ok = gp_launch_patch_set (l, op, index, edits, error);
      break;
    case GP_LAUNCH_OP_CAPS:
      ok = gp_launch_patch_caps (l, op, index, edits, error);
      break;
    case GP_LAUNCH_OP_REMOVE:
      ok = gp_launch_patch_remove (l, op, index, edits, error);
      break;
    default:
      ok = gp_launch_patch_fail (error, index, "an edit of no known kind");
      break;
  }
  if (!ok) {
    g_array_unref (edits);
    return FALSE;
  }

  text = gp_launch_apply_edits (l->text, edits);
  nl = gp_launch_parse (text, &perr);
  if (nl == NULL) {
    gp_launch_patch_fail (error, index, "%s would not parse: %s", kind,
        perr->message);
    g_clear_error (&perr);
    g_free (text);
    g_array_unref (edits);
    return FALSE;
  }
  gp_launch_carry_batch_names (l, nl, edits);
  if (op->kind == GP_LAUNCH_OP_INSERT) {
    /* the new element must be what was asked for, where it was put */
    const gchar *factory = op->factory;
    gboolean found = FALSE;
    guint j;

    for (j = 0; j < nl->elements->len; j++)
      if (ELEM (nl, j)->pub.offset == expect_at &&
          ELEM (nl, j)->pub.kind == GP_LAUNCH_ELEMENT &&
          strcmp (ELEM (nl, j)->pub.factory, factory) == 0)
        found = TRUE;
    if (!found) {
      gp_launch_patch_fail (error, index,
          "inserting \"%s\" does not give an element there", factory);
      gp_launch_free (nl);
      g_free (text);
      g_array_unref (edits);
      return FALSE;
    }
  }
  g_free (text);
  g_array_unref (edits);
  gp_launch_free (l);
  *cur = nl;
  return TRUE;
}

gboolean
gp_launch_apply_patch (GpLaunch * l, GPtrArray * patch, GError ** error)
{
  GpLaunch *cur, tmp;
  gboolean ok = TRUE;
  guint i;

  g_return_val_if_fail (l != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (patch == NULL)
    return gp_launch_patch_fail (error, 0, "no patch");
  cur = gp_launch_copy (l);
  if (cur == NULL)
    return gp_launch_patch_fail (error, 0, "the launch string does not parse");
  gp_launch_set_batch_names (cur);
  for (i = 0; ok && i < patch->len; i++)
    ok = gp_launch_apply_one (&cur, g_ptr_array_index (patch, i), i, error);
  if (!ok) {
    gp_launch_free (cur);
    return FALSE;
  }
  /* swap the new contents in */
  tmp = *l;
  *l = *cur;
  *cur = tmp;
  for (i = 0; i < l->elements->len; i++) {
    g_clear_pointer (&ELEM (l, i)->ref_name, g_free);
    g_clear_pointer (&ELEM (l, i)->ref_alias, g_free);
  }
  gp_launch_free (cur);
  return TRUE;
}
