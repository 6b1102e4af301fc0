/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof tracer
 *
 * gstprofgraph.c: the `snapshot-graph` action: every top-level pipeline the
 * tracer has seen, with each element's real property values (read from the
 * objects now, defaults included, not guessed from a launch string), the
 * links between real elements (through ghost pads) with their current caps,
 * and the hardware element factories this machine has.  Runs on the caller's
 * thread; may lock objects, never under a tracer lock.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstprofprivate.h"
#include "core/gp-hw-factories.h"

/* Which factories are hardware: the one table of src/core/gp-hw-factories.h,
 * asked with all the registry knows (plugin, klass). */
static gboolean
gp_is_hw_factory (GstElementFactory * f)
{
  return gp_hw_factory_is_hardware (GST_OBJECT_NAME (f),
      gst_plugin_feature_get_plugin_name (GST_PLUGIN_FEATURE (f)),
      gst_element_factory_get_metadata (f, GST_ELEMENT_METADATA_KLASS));
}

/* the registry does not change under a running process: computed once */
static void
gp_hw_list (GstProfTracer * self, GValue * out)
{
  g_rec_mutex_lock (&self->emit_lock);
  if (!self->hw_done) {
    GList *features, *l;

    g_value_init (&self->hw, GST_TYPE_LIST);
    features = gst_registry_get_feature_list (gst_registry_get (),
        GST_TYPE_ELEMENT_FACTORY);
    for (l = features; l; l = l->next) {
      if (gp_is_hw_factory (l->data)) {
        GValue v = G_VALUE_INIT;

        g_value_init (&v, G_TYPE_STRING);
        g_value_set_string (&v, GST_OBJECT_NAME (l->data));
        gst_value_list_append_and_take_value (&self->hw, &v);
      }
    }
    gst_plugin_feature_list_free (features);
    self->hw_done = TRUE;
  }
  g_value_init (out, GST_TYPE_LIST);
  g_value_copy (&self->hw, out);
  g_rec_mutex_unlock (&self->emit_lock);
}

static gchar *
gp_flags_nicks (GType type, guint flags)
{
  GFlagsClass *fc = g_type_class_ref (type);
  GString *s = g_string_new (NULL);
  guint i;

  for (i = 0; i < fc->n_values; i++) {
    GFlagsValue *fv = &fc->values[i];

    if (fv->value == 0) {
      if (flags == 0)
        g_string_append (s, fv->value_nick);
      continue;
    }
    if ((flags & fv->value) == fv->value) {
      g_string_append_printf (s, "%s%s", s->len ? "+" : "", fv->value_nick);
      flags &= ~fv->value;
    }
  }
  if (flags)
    g_string_append_printf (s, "%s0x%x", s->len ? "+" : "", flags);
  g_type_class_unref (fc);
  return g_string_free (s, FALSE);
}

/* Every readable property with its current value.  The type is checked
 * before the getter runs, so objects, pointers and boxed values other than
 * caps are never even read (some getters build samples or statistics). */
static GstStructure *
gp_props (GObject * obj)
{
  GstStructure *props = gst_structure_new_empty ("props");
  GParamSpec **specs;
  guint n, i;

  specs = g_object_class_list_properties (G_OBJECT_GET_CLASS (obj), &n);
  for (i = 0; i < n; i++) {
    GParamSpec *p = specs[i];
    GType vt = G_PARAM_SPEC_VALUE_TYPE (p);
    GType fund = G_TYPE_FUNDAMENTAL (vt);
    GValue v = G_VALUE_INIT, out = G_VALUE_INIT;

    if (!(p->flags & G_PARAM_READABLE))
      continue;
    if (vt == GST_TYPE_CAPS) {
      GstCaps *caps = NULL;

      g_object_get (obj, p->name, &caps, NULL);
      g_value_init (&out, G_TYPE_STRING);
      if (caps) {
        g_value_take_string (&out, gst_caps_to_string (caps));
        gst_caps_unref (caps);
      } else {
        g_value_set_string (&out, "NULL");
      }
      gst_structure_take_value (props, p->name, &out);
      continue;
    }
    switch (fund) {
      case G_TYPE_BOOLEAN:
      case G_TYPE_CHAR:
      case G_TYPE_UCHAR:
      case G_TYPE_INT:
      case G_TYPE_UINT:
      case G_TYPE_LONG:
      case G_TYPE_ULONG:
      case G_TYPE_INT64:
      case G_TYPE_UINT64:
      case G_TYPE_FLOAT:
      case G_TYPE_DOUBLE:
      case G_TYPE_STRING:
        g_value_init (&v, vt);
        g_object_get_property (obj, p->name, &v);
        gst_structure_take_value (props, p->name, &v);
        break;
      case G_TYPE_ENUM:{
        GEnumClass *ec;
        GEnumValue *ev;

        g_value_init (&v, vt);
        g_object_get_property (obj, p->name, &v);
        ec = g_type_class_ref (vt);
        ev = g_enum_get_value (ec, g_value_get_enum (&v));
        g_value_init (&out, G_TYPE_STRING);
        if (ev)
          g_value_set_string (&out, ev->value_nick);
        else
          g_value_take_string (&out, g_strdup_printf ("%d",
                  g_value_get_enum (&v)));
        g_type_class_unref (ec);
        g_value_unset (&v);
        gst_structure_take_value (props, p->name, &out);
        break;
      }
      case G_TYPE_FLAGS:
        g_value_init (&v, vt);
        g_object_get_property (obj, p->name, &v);
        g_value_init (&out, G_TYPE_STRING);
        g_value_take_string (&out, gp_flags_nicks (vt, g_value_get_flags (&v)));
        g_value_unset (&v);
        gst_structure_take_value (props, p->name, &out);
        break;
      default:
        if (vt == GST_TYPE_FRACTION) {
          g_value_init (&v, vt);
          g_object_get_property (obj, p->name, &v);
          gst_structure_take_value (props, p->name, &v);
        }
        /* objects, pointers, boxed, arrays: left out */
        break;
    }
  }
  g_free (specs);
  return props;
}

/* Every element of @el's tree gets its state, so that the record names
 * (gp_names_refresh) know of them all before any is written. */
static void
gp_graph_ensure_states (GstProfTracer * self, GstElement * el, guint depth)
{
  GList *children = NULL, *l;

  gp_elem_get (self, el);
  if (!GST_IS_BIN (el) || depth >= 64)
    return;
  GST_OBJECT_LOCK (el);
  for (l = GST_BIN_CHILDREN (el); l; l = l->next)
    children = g_list_prepend (children, gst_object_ref (l->data));
  GST_OBJECT_UNLOCK (el);
  for (l = children; l; l = l->next)
    gp_graph_ensure_states (self, l->data, depth + 1);
  g_list_free_full (children, gst_object_unref);
}

static void
gp_graph_add_element (GstProfTracer * self, GstElement * el,
    const gchar * parent, GValue * elements, GPtrArray * reals, guint depth)
{
  GstElementFactory *f = gst_element_get_factory (el);
  GpQueueType qt;
  gchar *name = gp_elem_dup_name (self, el);
  GstStructure *s;

  s = gst_structure_new (GP_RECORD_GRAPH_ELEMENT,
      GP_GE_NAME, G_TYPE_STRING, name,
      GP_GE_FACTORY, G_TYPE_STRING,
      f ? GST_OBJECT_NAME (f) : G_OBJECT_TYPE_NAME (el),
      GP_GE_PARENT, G_TYPE_STRING, parent,
      GP_GE_KIND, G_TYPE_STRING, gp_kind_name (gp_kind_of (el, &qt)),
      GP_GE_IS_BIN, G_TYPE_BOOLEAN, GST_IS_BIN (el), NULL);
  {
    GValue pv = G_VALUE_INIT;

    g_value_init (&pv, GST_TYPE_STRUCTURE);
    g_value_take_boxed (&pv, gp_props (G_OBJECT (el)));
    gst_structure_take_value (s, GP_GE_PROPS, &pv);
  }
  gp_list_take_structure (elements, s);

  if (GST_IS_BIN (el) && depth < 64) {
    GList *children = NULL, *l;

    GST_OBJECT_LOCK (el);
    for (l = GST_BIN_CHILDREN (el); l; l = l->next)
      children = g_list_prepend (children, gst_object_ref (l->data));
    GST_OBJECT_UNLOCK (el);
    /* GST_BIN_CHILDREN is newest first: prepending restores the add order */
    for (l = children; l; l = l->next)
      gp_graph_add_element (self, l->data, name, elements, reals,
          depth + 1);
    g_list_free_full (children, gst_object_unref);
  } else {
    g_ptr_array_add (reals, gst_object_ref (el));
  }
  g_free (name);
}

static void
gp_graph_add_links (GstProfTracer * self, GstElement * el, GValue * links)
{
  GList *pads = NULL, *l;

  GST_OBJECT_LOCK (el);
  for (l = el->srcpads; l; l = l->next)
    pads = g_list_prepend (pads, gst_object_ref (l->data));
  GST_OBJECT_UNLOCK (el);

  for (l = pads; l; l = l->next) {
    GstPad *src = l->data;
    GstPad *sink = gp_pad_downstream_real (src);
    GstCaps *caps;
    gchar *sname, *dname, *cstr = NULL, *mem = NULL;
    GstStructure *s;

    if (!sink)
      continue;
    sname = gp_pad_full_name (self, src);
    dname = gp_pad_full_name (self, sink);
    s = gst_structure_new (GP_RECORD_LINK, GP_L_SRC, G_TYPE_STRING, sname,
        GP_L_SINK, G_TYPE_STRING, dname, NULL);
    caps = gst_pad_get_current_caps (src);
    if (caps) {
      gp_caps_describe (caps, &cstr, &mem);
      gst_structure_set (s, GP_L_CAPS, G_TYPE_STRING, cstr, NULL);
      gst_caps_unref (caps);
    }
    gst_structure_set (s, GP_L_MEMORY, G_TYPE_STRING, mem ? mem : "system",
        NULL);
    gp_list_take_structure (links, s);
    g_free (sname);
    g_free (dname);
    g_free (cstr);
    g_free (mem);
    gst_object_unref (sink);
  }
  g_list_free_full (pads, gst_object_unref);
}

GstStructure *
gp_graph_snapshot (GstProfTracer * self)
{
  GPtrArray *pipes = g_ptr_array_new_with_free_func (gst_object_unref);
  GPtrArray *reals = g_ptr_array_new_with_free_func (gst_object_unref);
  GValue elements = G_VALUE_INIT, links = G_VALUE_INIT, names = G_VALUE_INIT;
  GValue hw = G_VALUE_INIT;
  GstStructure *g;
  gchar *first = NULL;
  const gchar *state = "VOID_PENDING";
  guint i;

  g_mutex_lock (&self->reg_lock);
  for (i = 0; i < self->pipelines->len; i++) {
    GstElement *p = g_weak_ref_get (g_ptr_array_index (self->pipelines, i));

    if (p)
      g_ptr_array_add (pipes, p);
  }
  g_mutex_unlock (&self->reg_lock);

  /* names unique by path: decided over every element first, under the
   * lock the windows are built under, so both name an element alike */
  g_rec_mutex_lock (&self->emit_lock);
  for (i = 0; i < pipes->len; i++)
    gp_graph_ensure_states (self, g_ptr_array_index (pipes, i), 0);
  gp_names_refresh (self);

  g_value_init (&elements, GST_TYPE_LIST);
  g_value_init (&links, GST_TYPE_LIST);
  g_value_init (&names, GST_TYPE_LIST);
  for (i = 0; i < pipes->len; i++) {
    GstElement *p = g_ptr_array_index (pipes, i);
    GstObject *parent = gst_object_get_parent (GST_OBJECT (p));
    GValue nv = G_VALUE_INIT;

    /* a pipeline inside another one is walked as part of the outer one */
    if (parent) {
      gst_object_unref (parent);
      continue;
    }
    g_value_init (&nv, G_TYPE_STRING);
    g_value_take_string (&nv, gp_elem_dup_name (self, p));
    if (!first) {
      first = g_value_dup_string (&nv);
      state = gst_element_state_get_name (GST_STATE (p));
    }
    gst_value_list_append_and_take_value (&names, &nv);
    gp_graph_add_element (self, p, "", &elements, reals, 0);
  }
  for (i = 0; i < reals->len; i++)
    gp_graph_add_links (self, g_ptr_array_index (reals, i), &links);
  g_rec_mutex_unlock (&self->emit_lock);

  g = gst_structure_new (GP_RECORD_GRAPH,
      GP_G_PIPELINE, G_TYPE_STRING, first ? first : "",
      GP_G_STATE, G_TYPE_STRING, state, NULL);
  gst_structure_take_value (g, GP_G_ELEMENTS, &elements);
  gst_structure_take_value (g, GP_G_LINKS, &links);
  gp_hw_list (self, &hw);
  gst_structure_take_value (g, GP_G_HW, &hw);
  gst_structure_take_value (g, GP_G_PIPELINES, &names);

  g_free (first);
  g_ptr_array_unref (reals);
  g_ptr_array_unref (pipes);
  return g;
}
