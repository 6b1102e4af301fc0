/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-launch-names.c: the name every element of a launch string will get
 * in a fresh process, and the lookup of an element by that name.
 *
 * Names: GStreamer names an unnamed object after its GType ("GstFooBar" ->
 * "foobar<N>", "foo2" -> "foo2-<N>") with one counter per type for the whole
 * process. gst_parse_launch () makes elements in the order bison reduces
 * them (an element when its properties end, a bin at its ')', the
 * top-level pipeline last), then performs the links in the order they were
 * reduced, and each link with caps makes one capsfilter per pad pair
 * (gst_element_link_pads_filtered ()). A link from an element with only
 * "sometimes" source pads fails first (its capsfilter is made and thrown
 * away) and is linked again when the pad appears, at run time.
 * GStreamer 1.22 passes the properties to the constructor, so "name=x"
 * uses up no number of the type's counter (checked by the tests). The API
 * for that came in 1.20; before, the element was made with a default name
 * and renamed, so there a named element does use up a number.
 */
#include "gp-launch-private.h"

#include <string.h>

#include <gst/gst.h>

/* ------------------------------------------------------------------------ */
/* names                                                                     */

/* Factories whose GType name is not their factory name and that are not
 * registered here, as seen in real captures (Jetson Orin NX, JetPack 6:
 * nvvidconv's type is "Gstnvvconv", so its elements are "nvvconv0"...). */
static const struct
{
  const gchar *factory, *type;
} known_types[] = {
  {"nvvidconv", "Gstnvvconv"},
};

typedef struct
{
  GHashTable *counters;         /* type name -> next number */
  GHashTable *types;            /* factory -> type name (or "") */
  gboolean registry;
} GpLaunchNamer;

static const gchar *
gp_launch_type_name_for (GpLaunchNamer * nm, const gchar * factory)
{
  const gchar *type;
  gchar *found = NULL;
  guint i;

  type = g_hash_table_lookup (nm->types, factory);
  if (type != NULL)
    return type;
  if (nm->registry) {
    GstElementFactory *f = gst_element_factory_find (factory);

    if (f != NULL) {
      GstPluginFeature *loaded = gst_plugin_feature_load (GST_PLUGIN_FEATURE
          (f));

      if (loaded != NULL) {
        GType t = gst_element_factory_get_element_type (GST_ELEMENT_FACTORY
            (loaded));

        if (t != G_TYPE_INVALID)
          found = g_strdup (g_type_name (t));
        gst_object_unref (loaded);
      }
      gst_object_unref (f);
    }
  }
  for (i = 0; found == NULL && i < G_N_ELEMENTS (known_types); i++)
    if (strcmp (known_types[i].factory, factory) == 0)
      found = g_strdup (known_types[i].type);
  if (found == NULL)
    found = g_strdup (factory);
  g_hash_table_insert (nm->types, g_strdup (factory), found);
  return found;
}

/* gst_object_set_name_default (): "GstFooBar" -> "foobar<N>", a type
 * name ending in a digit gets a '-' ("queue2-0") */
static gchar *
gp_launch_next_default_name (GpLaunchNamer * nm, const gchar * type)
{
  guint count = GPOINTER_TO_UINT (g_hash_table_lookup (nm->counters, type));
  const gchar *base = g_str_has_prefix (type, "Gst") ? type + 3 : type;
  gsize bl = strlen (base);
  gchar *name, *lower;

  g_hash_table_insert (nm->counters, g_strdup (type),
      GUINT_TO_POINTER (count + 1));
  if (bl > 0 && g_ascii_isdigit (base[bl - 1]))
    name = g_strdup_printf ("%s-%u", base, count);
  else
    name = g_strdup_printf ("%s%u", base, count);
  lower = g_ascii_strdown (name, -1);
  g_free (name);
  return lower;
}

/* the factory gst_element_make_from_uri () would pick: the highest rank
 * among URI handlers of that direction and protocol */
static gchar *
gp_launch_url_factory (GpLaunchNamer * nm, const gchar * uri, gboolean sink)
{
  GList *list, *walk;
  gchar *proto, *best = NULL;
  guint best_rank = 0;

  if (!nm->registry)
    return NULL;
  /* GStreamer before 1.20 asserts on a URI it cannot read */
  proto = gst_uri_is_valid (uri) ? gst_uri_get_protocol (uri) : NULL;
  if (proto == NULL)
    return NULL;
  list = gst_registry_get_feature_list (gst_registry_get (),
      GST_TYPE_ELEMENT_FACTORY);
  for (walk = list; walk != NULL; walk = walk->next) {
    GstElementFactory *f = walk->data;
    const gchar *const *protos;
    guint rank = gst_plugin_feature_get_rank (GST_PLUGIN_FEATURE (f));

    if (gst_element_factory_get_uri_type (f) !=
        (sink ? GST_URI_SINK : GST_URI_SRC))
      continue;
    protos = gst_element_factory_get_uri_protocols (f);
    for (; protos != NULL && *protos != NULL; protos++) {
      /* gst_plugin_feature_rank_compare_func (): rank, then name */
      if (g_ascii_strcasecmp (*protos, proto) == 0 &&
          (best == NULL || rank > best_rank || (rank == best_rank &&
                  strcmp (GST_OBJECT_NAME (f), best) < 0))) {
        g_free (best);
        best = g_strdup (GST_OBJECT_NAME (f));
        best_rank = rank;
      }
    }
  }
  gst_plugin_feature_list_free (list);
  g_free (proto);
  return best;
}

/* TRUE when linking from this element must wait for a pad that appears at
 * run time: its factory has "sometimes" source pads and no others. */
static gboolean
gp_launch_links_later (GpLaunchNamer * nm, const gchar * factory)
{
  GstElementFactory *f;
  const GList *walk;
  gboolean sometimes = FALSE, other = FALSE;

  if (!nm->registry || factory == NULL)
    return FALSE;
  f = gst_element_factory_find (factory);
  if (f == NULL)
    return FALSE;
  for (walk = gst_element_factory_get_static_pad_templates (f); walk;
      walk = walk->next) {
    GstStaticPadTemplate *tmpl = walk->data;

    if (tmpl->direction != GST_PAD_SRC)
      continue;
    if (tmpl->presence == GST_PAD_SOMETIMES)
      sometimes = TRUE;
    else
      other = TRUE;
  }
  gst_object_unref (f);
  return sometimes && !other;
}

static gint
gp_launch_compare_create_at (gconstpointer a, gconstpointer b,
    gpointer user_data)
{
  GpLaunch *l = user_data;
  gsize ca = ELEM (l, *(const gint *) a)->create_at;
  gsize cb = ELEM (l, *(const gint *) b)->create_at;

  return ca < cb ? -1 : ca > cb ? 1 : 0;
}

static gint
gp_launch_compare_link_order (gconstpointer a, gconstpointer b,
    gpointer user_data)
{
  GpLaunch *l = user_data;
  gsize ea = ITEM (l, LINK (l, *(const gint *) a)->sink)->end;
  gsize eb = ITEM (l, LINK (l, *(const gint *) b)->sink)->end;

  return ea < eb ? -1 : ea > eb ? 1 : 0;
}

const gchar *
gp_launch_ref_name_of (GpLaunch * l, gint item, gchar ** tmp)
{
  const gchar *text = SEG (l, ITEM (l, item)->ref_seg)->text;
  const gchar *dot = strchr (text, '.');

  *tmp = g_strndup (text, dot - text);
  return *tmp;
}

static gint
gp_launch_element_by_name (GpLaunch * l, const gchar * name)
{
  guint i;

  for (i = 0; i < l->elements->len; i++)
    if (ELEM (l, i)->pub.name != NULL &&
        strcmp (ELEM (l, i)->pub.name, name) == 0)
      return i;
  return -1;
}

void
gp_launch_predict_names (GpLaunch * l)
{
  GpLaunchNamer nm;
  GArray *order;
  GPtrArray *later;
  GHashTable *alias_counts;
  const gchar *caps_type;
  gboolean named_keeps_counter;
  guint i, n_top = 0;

  nm.registry = gst_is_initialized ();
  nm.counters = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  nm.types = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  /* GStreamer before 1.20 made the element first and renamed it after */
  named_keeps_counter = TRUE;
  if (nm.registry) {
    guint major, minor, micro, nano;

    gst_version (&major, &minor, &micro, &nano);
    named_keeps_counter = major > 1 || minor >= 20;
  }

  alias_counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      NULL);
  order = g_array_new (FALSE, FALSE, sizeof (gint));
  for (i = 0; i < l->elements->len; i++) {
    GpLaunchElementPriv *e = ELEM (l, i);
    const gchar *key = e->pub.factory != NULL ? e->pub.factory : "";
    guint n = GPOINTER_TO_UINT (g_hash_table_lookup (alias_counts, key));

    e->alias_n = n;
    g_hash_table_insert (alias_counts, g_strdup (key),
        GUINT_TO_POINTER (n + 1));
    if (e->pub.kind != GP_LAUNCH_CAPS) {
      gint idx = i;

      g_array_append_val (order, idx);
      if (e->pub.parent < 0)
        n_top++;
    }
  }
  g_hash_table_unref (alias_counts);

  /* 1. elements, in the order bison makes them */
  g_array_sort_with_data (order, gp_launch_compare_create_at, l);
  for (i = 0; i < order->len; i++) {
    GpLaunchElementPriv *e = ELEM (l, g_array_index (order, gint, i));

    if (e->pub.kind == GP_LAUNCH_URL) {
      gboolean sink = ITEM (l, e->item)->link_in >= 0;

      g_free (e->pub.factory);
      e->pub.factory =
          gp_launch_url_factory (&nm, SEG (l, e->first_seg)->text, sink);
      if (e->pub.factory == NULL)
        continue;
    }
    if (e->pub.kind == GP_LAUNCH_ELEMENT && e->explicit_name != NULL &&
        named_keeps_counter) {
      e->pub.name = g_strdup (e->explicit_name);
    } else {
      e->pub.name = gp_launch_next_default_name (&nm,
          gp_launch_type_name_for (&nm, e->pub.factory));
      if (e->explicit_name != NULL) {
        g_free (e->pub.name);
        e->pub.name = g_strdup (e->explicit_name);
      } else if (e->name_assigned && !named_keeps_counter) {
        /* setting the name to NULL afterwards names it anew */
        g_free (e->pub.name);
        e->pub.name = gp_launch_next_default_name (&nm,
            gp_launch_type_name_for (&nm, e->pub.factory));
      }
    }
    e->pub.name_certain = TRUE;
  }
  g_array_unref (order);
  if (n_top > 1)
    l->toplevel = gp_launch_next_default_name (&nm,
        gp_launch_type_name_for (&nm, "pipeline"));

  /* 2. links, in the order bison reduced them; a link with caps makes a
   * capsfilter per pad pair, thrown away when the link has to wait */
  caps_type = gp_launch_type_name_for (&nm, "capsfilter");
  order = g_array_new (FALSE, FALSE, sizeof (gint));
  for (i = 0; i < l->links->len; i++) {
    gint idx = i;

    if (LINK (l, i)->sink >= 0)
      g_array_append_val (order, idx);
  }
  g_array_sort_with_data (order, gp_launch_compare_link_order, l);
  later = g_ptr_array_new ();
  for (i = 0; i < order->len; i++) {
    GpLaunchLink *lk = LINK (l, g_array_index (order, gint, i));
    GpLaunchItem *src = ITEM (l, lk->src), *sink = ITEM (l, lk->sink);
    GpLaunchElementPriv *caps, *from = NULL;
    guint calls, k;

    if (lk->caps < 0)
      continue;
    caps = ELEM (l, lk->caps);
    if (src->element >= 0) {
      from = ELEM (l, src->element);
    } else {
      gchar *tmp = NULL;
      gint found = gp_launch_element_by_name (l,
          gp_launch_ref_name_of (l, lk->src, &tmp));

      from = found >= 0 ? ELEM (l, found) : NULL;
      g_free (tmp);
    }
    if (src->n_pads_out > 0 && sink->n_pads_in > 0) {
      /* pad lists of different lengths fail before any capsfilter */
      calls = src->n_pads_out == sink->n_pads_in ? src->n_pads_out : 0;
    } else {
      calls = 1;
    }
    if (calls == 0)
      continue;
    if (from != NULL && from->pub.kind == GP_LAUNCH_ELEMENT &&
        gp_launch_links_later (&nm, from->pub.factory)) {
      for (k = 0; k < calls; k++)
        g_free (gp_launch_next_default_name (&nm, caps_type));
      g_ptr_array_add (later, caps);
      continue;
    }
    caps->pub.name = gp_launch_next_default_name (&nm, caps_type);
    caps->pub.name_certain = calls == 1 && !lk->all;
    for (k = 1; k < calls; k++)
      g_free (gp_launch_next_default_name (&nm, caps_type));
  }
  /* 3. the waiting links, when their pads appear: order unknown */
  for (i = 0; i < later->len; i++) {
    GpLaunchElementPriv *caps = g_ptr_array_index (later, i);

    caps->pub.name = gp_launch_next_default_name (&nm, caps_type);
    caps->pub.name_certain = FALSE;
  }
  g_ptr_array_unref (later);
  g_array_unref (order);
  g_hash_table_unref (nm.counters);
  g_hash_table_unref (nm.types);
}

/* ------------------------------------------------------------------------ */
/* public: find by name                                                      */

const gchar *
gp_launch_get_toplevel_name (const GpLaunch * l)
{
  return l->toplevel;
}

static gboolean
gp_launch_alias_matches (const gchar * factory, guint n, const gchar * name)
{
  gsize fl;
  gchar *end = NULL;
  guint64 v;

  if (factory == NULL || !g_str_has_prefix (name, factory))
    return FALSE;
  fl = strlen (factory);
  if (!g_ascii_isdigit (name[fl]))
    return FALSE;
  v = g_ascii_strtoull (name + fl, &end, 10);
  return *end == '\0' && v == n;
}

gint
gp_launch_find_element (const GpLaunch * l, const gchar * name)
{
  guint i;

  g_return_val_if_fail (l != NULL && name != NULL, -1);
  for (i = 0; i < l->elements->len; i++)
    if (ELEM (l, i)->pub.name != NULL &&
        strcmp (ELEM (l, i)->pub.name, name) == 0)
      return i;
  for (i = 0; i < l->elements->len; i++)
    if (gp_launch_alias_matches (ELEM (l, i)->pub.factory,
            ELEM (l, i)->alias_n, name))
      return i;
  return -1;
}
