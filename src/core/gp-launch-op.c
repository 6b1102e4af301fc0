/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-launch-op.c: the typed launch-string edit (gp-launch-op.h): its
 * builders, its one-line description and the key by which fix tells two
 * edits of the same place apart. Applying it is gp-launch-patch.c's.
 */
#include "gp-launch-op.h"

#include <string.h>

static const gchar *const gp_launch_op_kind_names[] = {
  [GP_LAUNCH_OP_SET] = "set",
  [GP_LAUNCH_OP_INSERT] = "insert",
  [GP_LAUNCH_OP_CAPS] = "caps",
  [GP_LAUNCH_OP_REPLACE] = "replace",
  [GP_LAUNCH_OP_REMOVE] = "remove",
};

static const gchar *const gp_launch_at_names[] = {
  [GP_LAUNCH_AT_TARGET] = "target",
  [GP_LAUNCH_AT_AFTER] = "after",
  [GP_LAUNCH_AT_BEFORE] = "before",
};

const gchar *
gp_launch_op_kind_name (GpLaunchOpKind kind)
{
  return gp_launch_op_kind_names[kind];
}

gboolean
gp_launch_op_kind_from_name (const gchar * name, GpLaunchOpKind * kind)
{
  guint i;

  for (i = 0; name != NULL && i < G_N_ELEMENTS (gp_launch_op_kind_names);
      i++) {
    if (strcmp (name, gp_launch_op_kind_names[i]) == 0) {
      *kind = i;
      return TRUE;
    }
  }
  return FALSE;
}

const gchar *
gp_launch_at_name (GpLaunchAt at)
{
  return gp_launch_at_names[at];
}

/* ------------------------------------------------------------------------ */
/* builders                                                                  */

static GpLaunchOp *
gp_launch_op_new (GpLaunchOpKind kind, GpLaunchAt at, const gchar * name)
{
  GpLaunchOp *op = g_new0 (GpLaunchOp, 1);

  op->kind = kind;
  op->at = at;
  op->name = g_strdup (name);
  return op;
}

static void
gp_launch_op_prop_clear (gpointer data)
{
  GpLaunchProp *p = data;

  g_free (p->key);
  g_value_unset (&p->value);
}

static GArray *
gp_launch_op_props_new (void)
{
  GArray *props = g_array_new (FALSE, TRUE, sizeof (GpLaunchProp));

  g_array_set_clear_func (props, gp_launch_op_prop_clear);
  return props;
}

/* A set op whose value is of @type, still to be given. */
static GpLaunchOp *
gp_launch_op_set_new (const gchar * target, const gchar * prop, GType type)
{
  GpLaunchOp *op = gp_launch_op_new (GP_LAUNCH_OP_SET, GP_LAUNCH_AT_TARGET,
      target);

  op->prop = g_strdup (prop);
  g_value_init (&op->value, type);
  return op;
}

GpLaunchOp *
gp_launch_op_set (const gchar * target, const gchar * prop,
    const GValue * value)
{
  GpLaunchOp *op = gp_launch_op_set_new (target, prop, G_VALUE_TYPE (value));

  g_value_copy (value, &op->value);
  return op;
}

GpLaunchOp *
gp_launch_op_set_int (const gchar * target, const gchar * prop, gint64 value)
{
  GpLaunchOp *op = gp_launch_op_set_new (target, prop, G_TYPE_INT64);

  g_value_set_int64 (&op->value, value);
  return op;
}

GpLaunchOp *
gp_launch_op_set_bool (const gchar * target, const gchar * prop,
    gboolean value)
{
  GpLaunchOp *op = gp_launch_op_set_new (target, prop, G_TYPE_BOOLEAN);

  g_value_set_boolean (&op->value, value);
  return op;
}

GpLaunchOp *
gp_launch_op_set_string (const gchar * target, const gchar * prop,
    const gchar * value)
{
  GpLaunchOp *op = gp_launch_op_set_new (target, prop, G_TYPE_STRING);

  g_value_set_string (&op->value, value);
  return op;
}

GpLaunchOp *
gp_launch_op_insert (GpLaunchAt at, const gchar * name, const gchar * factory)
{
  GpLaunchOp *op = gp_launch_op_new (GP_LAUNCH_OP_INSERT, at, name);

  g_return_val_if_fail (at != GP_LAUNCH_AT_TARGET, op);
  op->factory = g_strdup (factory);
  op->props = gp_launch_op_props_new ();
  return op;
}

GpLaunchOp *
gp_launch_op_caps (GpLaunchAt at, const gchar * name, const gchar * caps)
{
  GpLaunchOp *op = gp_launch_op_new (GP_LAUNCH_OP_CAPS, at, name);

  op->caps = g_strdup (caps);
  return op;
}

GpLaunchOp *
gp_launch_op_replace (const gchar * target, const gchar * factory,
    gboolean keep_props)
{
  GpLaunchOp *op = gp_launch_op_new (GP_LAUNCH_OP_REPLACE,
      GP_LAUNCH_AT_TARGET, target);

  op->factory = g_strdup (factory);
  op->keep_props = keep_props;
  op->props = gp_launch_op_props_new ();
  return op;
}

GpLaunchOp *
gp_launch_op_remove (const gchar * target)
{
  return gp_launch_op_new (GP_LAUNCH_OP_REMOVE, GP_LAUNCH_AT_TARGET, target);
}

/* A new property of @op, its value of @type still to be given. */
static GValue *
gp_launch_op_new_prop (GpLaunchOp * op, const gchar * key, GType type)
{
  GpLaunchProp p = { g_strdup (key), G_VALUE_INIT };

  g_value_init (&p.value, type);
  if (op->props == NULL)
    op->props = gp_launch_op_props_new ();
  g_array_append_val (op->props, p);
  return &g_array_index (op->props, GpLaunchProp, op->props->len - 1).value;
}

void
gp_launch_op_add_prop (GpLaunchOp * op, const gchar * key,
    const GValue * value)
{
  g_value_copy (value, gp_launch_op_new_prop (op, key, G_VALUE_TYPE (value)));
}

void
gp_launch_op_add_prop_int (GpLaunchOp * op, const gchar * key, gint64 value)
{
  g_value_set_int64 (gp_launch_op_new_prop (op, key, G_TYPE_INT64), value);
}

void
gp_launch_op_add_prop_string (GpLaunchOp * op, const gchar * key,
    const gchar * value)
{
  g_value_set_string (gp_launch_op_new_prop (op, key, G_TYPE_STRING), value);
}

void
gp_launch_op_add_prop_bool (GpLaunchOp * op, const gchar * key,
    gboolean value)
{
  g_value_set_boolean (gp_launch_op_new_prop (op, key, G_TYPE_BOOLEAN),
      value);
}

GpLaunchOp *
gp_launch_op_copy (const GpLaunchOp * op)
{
  GpLaunchOp *c = gp_launch_op_new (op->kind, op->at, op->name);
  guint i;

  c->prop = g_strdup (op->prop);
  if (G_IS_VALUE (&op->value)) {
    g_value_init (&c->value, G_VALUE_TYPE (&op->value));
    g_value_copy (&op->value, &c->value);
  }
  c->factory = g_strdup (op->factory);
  if (op->props != NULL)
    c->props = gp_launch_op_props_new ();
  for (i = 0; op->props != NULL && i < op->props->len; i++) {
    GpLaunchProp *p = &g_array_index (op->props, GpLaunchProp, i);

    gp_launch_op_add_prop (c, p->key, &p->value);
  }
  c->keep_props = op->keep_props;
  c->caps = g_strdup (op->caps);
  return c;
}

void
gp_launch_op_free (GpLaunchOp * op)
{
  if (op == NULL)
    return;
  g_free (op->name);
  g_free (op->prop);
  if (G_IS_VALUE (&op->value))
    g_value_unset (&op->value);
  g_free (op->factory);
  if (op->props != NULL)
    g_array_unref (op->props);
  g_free (op->caps);
  g_free (op);
}

GPtrArray *
gp_launch_patch_new (void)
{
  return g_ptr_array_new_with_free_func ((GDestroyNotify) gp_launch_op_free);
}

GPtrArray *
gp_launch_patch_copy (GPtrArray * patch)
{
  GPtrArray *c = gp_launch_patch_new ();
  guint i;

  for (i = 0; i < patch->len; i++)
    g_ptr_array_add (c, gp_launch_op_copy (g_ptr_array_index (patch, i)));
  return c;
}

/* ------------------------------------------------------------------------ */
/* text                                                                      */

gchar *
gp_launch_scalar_text (const GValue * value)
{
  gchar buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (value == NULL || !G_IS_VALUE (value))
    return NULL;
  switch (G_VALUE_TYPE (value)) {
    case G_TYPE_STRING:
      return g_value_dup_string (value);
    case G_TYPE_BOOLEAN:
      return g_strdup (g_value_get_boolean (value) ? "true" : "false");
    case G_TYPE_INT64:
      return g_strdup_printf ("%" G_GINT64_FORMAT, g_value_get_int64 (value));
    case G_TYPE_DOUBLE:
      return g_strdup (g_ascii_dtostr (buf, sizeof buf,
              g_value_get_double (value)));
    default:
      return NULL;
  }
}

/* " key=value" for each property, the values as property text */
static gchar *
gp_launch_op_props_text (const GpLaunchOp * op)
{
  GString *t = g_string_new (NULL);
  guint i;

  for (i = 0; op->props != NULL && i < op->props->len; i++) {
    GpLaunchProp *p = &g_array_index (op->props, GpLaunchProp, i);
    gchar *v = gp_launch_scalar_text (&p->value);

    g_string_append_printf (t, " %s=%s", p->key, v ? v : "");
    g_free (v);
  }
  return g_string_free (t, FALSE);
}

gchar *
gp_launch_op_describe (const GpLaunchOp * op)
{
  gchar *props = gp_launch_op_props_text (op), *v, *d = NULL;
  const gchar *at = gp_launch_at_name (op->at);

  switch (op->kind) {
    case GP_LAUNCH_OP_SET:
      v = gp_launch_scalar_text (&op->value);
      d = g_strdup_printf ("set %s %s=%s", op->name, op->prop, v);
      g_free (v);
      break;
    case GP_LAUNCH_OP_INSERT:
      d = g_strdup_printf ("insert %s%s %s %s", op->factory, props, at,
          op->name);
      break;
    case GP_LAUNCH_OP_REPLACE:
      d = g_strdup_printf ("replace %s with %s%s", op->name, op->factory,
          props);
      break;
    case GP_LAUNCH_OP_REMOVE:
      d = g_strdup_printf ("remove %s", op->name);
      break;
    case GP_LAUNCH_OP_CAPS:
      d = op->at == GP_LAUNCH_AT_TARGET ?
          g_strdup_printf ("caps %s on %s", op->caps, op->name) :
          g_strdup_printf ("caps %s %s %s", op->caps, at, op->name);
      break;
  }
  g_free (props);
  return d;
}

gchar *
gp_launch_op_conflict_key (const GpLaunchOp * op)
{
  switch (op->kind) {
    case GP_LAUNCH_OP_SET:
      return g_strdup_printf ("set\t%s\t%s", op->name, op->prop);
    case GP_LAUNCH_OP_INSERT:
    case GP_LAUNCH_OP_CAPS:
      return g_strdup_printf ("%s\t%s\t%s", gp_launch_op_kind_name (op->kind),
          gp_launch_at_name (op->at), op->name);
    case GP_LAUNCH_OP_REPLACE:
    case GP_LAUNCH_OP_REMOVE:
    default:
      return g_strdup_printf ("element\t%s", op->name);
  }
}

/* What the op changes its place to: two ops with the same key and the
 * same change are one edit. */
static gchar *
gp_launch_op_change (const GpLaunchOp * op)
{
  gchar *props = gp_launch_op_props_text (op), *c;

  switch (op->kind) {
    case GP_LAUNCH_OP_SET:
      c = gp_launch_scalar_text (&op->value);
      break;
    case GP_LAUNCH_OP_INSERT:
      c = g_strdup_printf ("%s%s", op->factory, props);
      break;
    case GP_LAUNCH_OP_CAPS:
      c = g_strdup (op->caps);
      break;
    default:
      c = g_strdup_printf ("%s %s%s", gp_launch_op_kind_name (op->kind),
          op->factory ? op->factory : "", props);
      break;
  }
  g_free (props);
  return c;
}

/* replaces or removes the element it names */
static gboolean
gp_launch_op_is_whole (const GpLaunchOp * op)
{
  return op->kind == GP_LAUNCH_OP_REPLACE || op->kind == GP_LAUNCH_OP_REMOVE;
}

GpLaunchOpClash
gp_launch_op_clash (const GpLaunchOp * earlier, const GpLaunchOp * op)
{
  gchar *ka = gp_launch_op_conflict_key (earlier);
  gchar *kb = gp_launch_op_conflict_key (op);
  GpLaunchOpClash clash = GP_LAUNCH_OP_APART;

  if (strcmp (ka, kb) == 0) {
    gchar *ca = gp_launch_op_change (earlier), *cb = gp_launch_op_change (op);

    clash = g_strcmp0 (ca, cb) == 0 ? GP_LAUNCH_OP_SAME :
        GP_LAUNCH_OP_CONFLICT;
    g_free (ca);
    g_free (cb);
  } else if ((gp_launch_op_is_whole (earlier) || gp_launch_op_is_whole (op))
      && strcmp (earlier->name, op->name) == 0) {
    clash = GP_LAUNCH_OP_CONFLICT;
  }
  g_free (ka);
  g_free (kb);
  return clash;
}
