/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-export-dot.c: the pipeline graph for graphviz (gp_export_graph).
 * Built with cgraph, laid out by gvc's "dot" engine and rendered by gvc
 * (dot text with positions, or SVG), all in-process:
 *
 * - every bin is a cluster ("cluster_" and its name) inside its parent's,
 *   labelled with its children's part of the self time;
 * - every other element is a node in its bin, filled by its share of the
 *   self time (summary.elements.share_pct): white for none, the deepest
 *   red for the session's largest share, the saturation in proportion in
 *   between; queues grey, as their time is waiting (their residence is in
 *   the label);
 * - every link is an edge labelled with its steady-state rate, the stream
 *   in a few words (gp_caps_stream_words) and the memory it travels in
 *   when not system memory, its pads at its ends when they are not plain
 *   "src" and "sink"; its tooltip holds its whole caps;
 * - laid out left to right, or top to bottom when a row would be wider
 *   than a page and the column is narrower (GP_EXPORT_DOT_FIT_PT).
 *
 * Nodes and edges carry their gstprof names as their "id" (an SVG element
 * id), and a tooltip with the numbers behind the colour.
 */
#include "gp-export.h"
#include "core/gp-caps.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

/* caps text longer than this on one line of an edge label is broken at
 * the next blank (after a field's comma): caps run to hundreds of
 * characters and would make every edge as wide as the page */
#define GP_EXPORT_DOT_CAPS_LINE 36

/* the same for the launch string in the graph's title */
#define GP_EXPORT_DOT_TITLE_LINE 100

/* Sibling branches alike (the same factories in the same order, out of
 * one element or into one) from this many on are drawn once, with a
 * count: a tee into 8 encoders, a muxer fed by 16 source bins. */
#define GP_EXPORT_DOT_FOLD_MIN 3

/* A graph laid out left to right wider than this (points) is laid out
 * again top to bottom, and kept so when that is narrower: a page 1280 px
 * wide holds about 900 pt, and the panel shrinks a graph to 0.6 of its
 * size at most, so a long chain (40 elements: 8,000 pt in a row) scrolls
 * down, not sideways. */
#define GP_EXPORT_DOT_FIT_PT 1000.0

/* the deepest fill (the largest share) is this saturated red: full
 * saturation would hide black text */
#define GP_EXPORT_DOT_MAX_SATURATION 0.85

/* bins nested deeper than this are drawn at the top level: a parent chain
 * that long is a loop in a broken session, not a pipeline */
#define GP_EXPORT_DOT_MAX_DEPTH 64

#define GP_EXPORT_DOT_QUEUE_FILL "#e0e0e0"
#define GP_EXPORT_DOT_FONT "Helvetica,Arial,sans-serif"

typedef struct
{
  GpSession *s;
  Agraph_t *root;
  GHashTable *clusters;         /* bin name -> Agraph_t* */
  GHashTable *bin_share;        /* bin name -> gdouble* (its children's) */
  gdouble max_share;            /* largest share_pct of a non-queue */
  const gchar *hottest;         /* its element */
  GHashTable *folded;           /* element names drawn in another's place */
  GHashTable *fold_notes;       /* link id -> gchar*: its branch's twins */
} GpExportDot;

static void gp_export_dot_build (GpExportDot * d);
static void gp_export_dot_set (void *obj, const gchar * name,
    const gchar * value);
static GBytes *gp_export_dot_render (GVC_t * gvc, Agraph_t * g,
    GpExportGraphFormat format, const gchar * what, GError ** error);

/* graphviz's messages while gstprof works with it: kept here (the first
 * error names what failed), never printed */
static GString *gp_export_dot_messages;

static int
gp_export_dot_collect (char *message)
{
  if (gp_export_dot_messages && gp_export_dot_messages->len == 0)
    g_string_append (gp_export_dot_messages, message);
  return 0;
}

/* One graphviz context for the process, made on first use and never
 * freed: graphviz 2.42's pango text layout keeps the last font name it
 * measured across contexts, and reads it freed in the next context after
 * gvFreeContext () (AddressSanitizer, --dot and --svg in one run). */
static GVC_t *
gp_export_dot_context (void)
{
  static GVC_t *gvc;

  if (gvc == NULL)
    gvc = gvContext ();
  return gvc;
}

/* The width of @g's layout in points (its bounding box, which the
 * layout sets; the "bb" attribute is written only when rendered). */
static gdouble
gp_export_dot_width (Agraph_t * g)
{
  return GD_bb (g).UR.x - GD_bb (g).LL.x;
}

/* Laid out left to right, or top to bottom when that is narrower and the
 * first is wider than GP_EXPORT_DOT_FIT_PT; gvLayout's result. */
static gint
gp_export_dot_layout (GVC_t * gvc, Agraph_t * g)
{
  gdouble lr, tb;
  gint rc = gvLayout (gvc, g, "dot");

  if (rc != 0 || (lr = gp_export_dot_width (g)) <= GP_EXPORT_DOT_FIT_PT)
    return rc;
  gvFreeLayout (gvc, g);
  gp_export_dot_set (g, "rankdir", "TB");
  /* side by side, the links' labels need the room between the boxes */
  gp_export_dot_set (g, "nodesep", "0.6");
  rc = gvLayout (gvc, g, "dot");
  if (rc != 0 || (tb = gp_export_dot_width (g)) < lr)
    return rc;
  gvFreeLayout (gvc, g);
  gp_export_dot_set (g, "rankdir", "LR");
  gp_export_dot_set (g, "nodesep", "0.25");
  return gvLayout (gvc, g, "dot");
}

GBytes *
gp_export_graph_data (GpSession * s, GpExportGraphFormat format,
    const gchar * what, GError ** error)
{
  GpExportDot d = { s, NULL, NULL, NULL, 0.0, NULL, NULL, NULL };
  agusererrf old_errf;
  agerrlevel_t old_level;
  GVC_t *gvc;
  GBytes *bytes = NULL;

  g_return_val_if_fail (s != NULL && what != NULL, NULL);

  gp_export_dot_messages = g_string_new (NULL);
  old_errf = agseterrf (gp_export_dot_collect);
  old_level = agseterr (AGERR);

  gvc = gp_export_dot_context ();
  d.clusters = g_hash_table_new (g_str_hash, g_str_equal);
  d.bin_share = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  d.folded = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  d.fold_notes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      g_free);
  gp_export_dot_build (&d);
  if (gp_export_dot_layout (gvc, d.root) != 0) {
    g_strstrip (gp_export_dot_messages->str);
    g_set_error (error, GP_EXPORT_ERROR, GP_EXPORT_ERROR_GRAPHVIZ,
        "%s: graphviz could not lay the graph out (%s)", what,
        gp_export_dot_messages->len ? gp_export_dot_messages->str :
        "no \"dot\" layout: are its plugins configured? "
        "libgvc6-config-update -c");
  } else {
    bytes = gp_export_dot_render (gvc, d.root, format, what, error);
    gvFreeLayout (gvc, d.root);
  }

  agclose (d.root);
  g_hash_table_unref (d.clusters);
  g_hash_table_unref (d.bin_share);
  g_hash_table_unref (d.folded);
  g_hash_table_unref (d.fold_notes);
  agseterr (old_level);
  agseterrf (old_errf);
  g_string_free (gp_export_dot_messages, TRUE);
  gp_export_dot_messages = NULL;
  return bytes;
}

gboolean
gp_export_graph (GpSession * s, GpExportGraphFormat format,
    const gchar * path, GError ** error)
{
  GBytes *bytes;
  gboolean ok;

  g_return_val_if_fail (path != NULL, FALSE);
  bytes = gp_export_graph_data (s, format, path, error);
  if (bytes == NULL)
    return FALSE;
  ok = gp_atomic_file_write (path, g_bytes_get_data (bytes, NULL),
      g_bytes_get_size (bytes), error);
  g_bytes_unref (bytes);
  return ok;
}

/* ------------------------------------------------------------------ */
/* graphviz attributes                                                  */
/* ------------------------------------------------------------------ */

/* cgraph takes char *, and copies */
static void
gp_export_dot_set (void *obj, const gchar * name, const gchar * value)
{
  agsafeset (obj, (char *) name, (char *) value, (char *) "");
}

/* One character of label text: graphviz reads backslash sequences in
 * labels (\N, \G, \n, \l), so a name's own backslashes are doubled, and
 * its line breaks are spaces. */
static void
gp_export_dot_append_char (GString * label, gchar c)
{
  if (c == '\\')
    g_string_append (label, "\\\\");
  else if (c == '\n' || c == '\r')
    g_string_append_c (label, ' ');
  else
    g_string_append_c (label, c);
}

static void
gp_export_dot_append_text (GString * label, const gchar * text)
{
  for (; text && *text; text++)
    gp_export_dot_append_char (label, *text);
}

/* ------------------------------------------------------------------ */
/* the graph                                                            */
/* ------------------------------------------------------------------ */

static void gp_export_dot_shares (GpExportDot * d);
static void gp_export_dot_fold (GpExportDot * d);
static Agraph_t *gp_export_dot_graph_of (GpExportDot * d,
    const gchar * bin, guint depth);
static void gp_export_dot_element (GpExportDot * d, GpElement * e);
static void gp_export_dot_link (GpExportDot * d, GpLink * l);
static void gp_export_dot_title (GpExportDot * d);

static void
gp_export_dot_build (GpExportDot * d)
{
  GpSession *s = d->s;
  guint i;

  d->root = agopen ((char *) "gstprof", Agdirected, NULL);
  gp_export_dot_set (d->root, "rankdir", "LR");
  gp_export_dot_set (d->root, "fontname", GP_EXPORT_DOT_FONT);
  agattr (d->root, AGNODE, (char *) "shape", (char *) "box");
  agattr (d->root, AGNODE, (char *) "style", (char *) "filled,rounded");
  agattr (d->root, AGNODE, (char *) "fillcolor", (char *) "#ffffff");
  agattr (d->root, AGNODE, (char *) "fontname", (char *) GP_EXPORT_DOT_FONT);
  agattr (d->root, AGEDGE, (char *) "fontname", (char *) GP_EXPORT_DOT_FONT);
  agattr (d->root, AGEDGE, (char *) "fontsize", (char *) "10");

  gp_export_dot_shares (d);
  gp_export_dot_fold (d);
  /* every bin first, so that an element listed before its bin still lands
   * in its cluster */
  for (i = 0; i < s->elements->len; i++) {
    GpElement *e = g_ptr_array_index (s->elements, i);

    if (e->is_bin)
      gp_export_dot_graph_of (d, e->name, 0);
  }
  for (i = 0; i < s->elements->len; i++) {
    GpElement *e = g_ptr_array_index (s->elements, i);

    if (!e->is_bin && !g_hash_table_contains (d->folded, e->name))
      gp_export_dot_element (d, e);
  }
  for (i = 0; i < s->links->len; i++) {
    GpLink *l = g_ptr_array_index (s->links, i);
    gchar *src = gp_pad_element (l->src), *sink = gp_pad_element (l->sink);

    if (!g_hash_table_contains (d->folded, src) &&
        !g_hash_table_contains (d->folded, sink))
      gp_export_dot_link (d, l);
    g_free (src);
    g_free (sink);
  }
  gp_export_dot_title (d);
}

/* ------------------------------------------------------------------ */
/* repeated branches                                                    */
/* ------------------------------------------------------------------ */

/* The links out of (@down) or into each element: name -> GPtrArray of
 * GpLink*, in the session's order. */
static GHashTable *
gp_export_dot_adjacency (GpSession * s, gboolean down)
{
  GHashTable *adj = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      (GDestroyNotify) g_ptr_array_unref);
  guint i;

  for (i = 0; i < s->links->len; i++) {
    GpLink *l = g_ptr_array_index (s->links, i);
    gchar *name = gp_pad_element (down ? l->src : l->sink);
    GPtrArray *list = g_hash_table_lookup (adj, name);

    if (list == NULL) {
      list = g_ptr_array_new ();
      g_hash_table_insert (adj, name, list);
    } else {
      g_free (name);
    }
    g_ptr_array_add (list, l);
  }
  return adj;
}

static guint
gp_export_dot_degree (GHashTable * adj, const gchar * name)
{
  GPtrArray *list = g_hash_table_lookup (adj, name);

  return list ? list->len : 0;
}

/* The branch that @l starts, away from the element it leaves (@down: the
 * link's sink side, downstream; else its source side, upstream): its
 * elements into @members, its factories joined as the return; NULL when
 * it is no plain chain (it splits or joins again before its end). */
static gchar *
gp_export_dot_branch (GpExportDot * d, GpLink * l, gboolean down,
    GHashTable * ahead, GHashTable * behind, GPtrArray * members)
{
  GString *sig = g_string_new (NULL);
  gchar *cur = gp_pad_element (down ? l->sink : l->src);
  guint steps;

  for (steps = 0; cur && steps < 64; steps++) {
    GpElement *e = gp_session_find_element (d->s, cur);
    GPtrArray *next = g_hash_table_lookup (ahead, cur);

    if (gp_export_dot_degree (behind, cur) != 1 || (next && next->len > 1)) {
      g_free (cur);
      g_ptr_array_set_size (members, 0);
      return g_string_free (sig, TRUE), NULL;
    }
    g_string_append_printf (sig, "%s!", e && e->factory ? e->factory : "?");
    g_ptr_array_add (members, cur);
    cur = next ? gp_pad_element (down ? ((GpLink *) next->pdata[0])->sink :
        ((GpLink *) next->pdata[0])->src) : NULL;
  }
  if (cur) {
    /* longer than any pipeline: not a chain to fold */
    g_free (cur);
    g_ptr_array_set_size (members, 0);
    return g_string_free (sig, TRUE), NULL;
  }
  return g_string_free (sig, FALSE);
}

/* One branch out of or into a fan point: the link that starts it and its
 * elements' names. */
typedef struct
{
  GpLink *link;
  GPtrArray *members;           /* gchar*, owned */
} GpExportDotBranch;

static void
gp_export_dot_branch_free (gpointer p)
{
  GpExportDotBranch *b = p;

  g_ptr_array_unref (b->members);
  g_free (b);
}

/* In the order of their links' ids (t.src_0's first). */
static gint
gp_export_dot_branch_cmp (gconstpointer a, gconstpointer b)
{
  const GpExportDotBranch *x = *(GpExportDotBranch * const *) a;
  const GpExportDotBranch *y = *(GpExportDotBranch * const *) b;

  return g_strcmp0 (x->link->id, y->link->id);
}

/* The branches out of (@down) or into @name, alike from
 * GP_EXPORT_DOT_FOLD_MIN on: the first drawn, the others folded into it. */
static void
gp_export_dot_fold_at (GpExportDot * d, const gchar * name, gboolean down,
    GHashTable * ahead, GHashTable * behind)
{
  GPtrArray *links = g_hash_table_lookup (down ? ahead : behind, name);
  /* signature -> GPtrArray of GpExportDotBranch*, in first-seen order */
  GHashTable *groups = g_hash_table_new_full (g_str_hash, g_str_equal,
      g_free, (GDestroyNotify) g_ptr_array_unref);
  GPtrArray *order = g_ptr_array_new ();
  guint i, k;

  for (i = 0; links && i < links->len; i++) {
    GpExportDotBranch *b = g_new0 (GpExportDotBranch, 1);
    gchar *sig;
    GPtrArray *group;

    b->link = links->pdata[i];
    b->members = g_ptr_array_new_with_free_func (g_free);
    sig = gp_export_dot_branch (d, b->link, down, down ? ahead : behind,
        down ? behind : ahead, b->members);
    if (sig == NULL) {
      gp_export_dot_branch_free (b);
      continue;
    }
    group = g_hash_table_lookup (groups, sig);
    if (group == NULL) {
      group = g_ptr_array_new_with_free_func (gp_export_dot_branch_free);
      g_hash_table_insert (groups, sig, group);
      g_ptr_array_add (order, group);
    } else {
      g_free (sig);
    }
    g_ptr_array_add (group, b);
  }
  for (k = 0; k < order->len; k++) {
    GPtrArray *group = order->pdata[k];
    GString *note;

    if (group->len < GP_EXPORT_DOT_FOLD_MIN)
      continue;
    g_ptr_array_sort (group, gp_export_dot_branch_cmp);
    note = g_string_new (NULL);
    g_string_append_printf (note, "\u00d7%u branches alike, %u folded:",
        group->len, group->len - 1);
    for (i = 1; i < group->len; i++) {
      GpExportDotBranch *b = group->pdata[i];
      guint m;

      for (m = 0; m < b->members->len; m++)
        g_hash_table_add (d->folded, g_strdup (b->members->pdata[m]));
      g_string_append_printf (note, " %s", (gchar *) b->members->pdata[0]);
    }
    g_hash_table_insert (d->fold_notes, g_strdup (((GpExportDotBranch *)
                group->pdata[0])->link->id), g_string_free (note, FALSE));
  }
  g_ptr_array_unref (order);
  g_hash_table_unref (groups);
}

/* Repeated branches folded (GP_EXPORT_DOT_FOLD_MIN), out of and into
 * each element that several links leave or reach. */
static void
gp_export_dot_fold (GpExportDot * d)
{
  GHashTable *out = gp_export_dot_adjacency (d->s, TRUE);
  GHashTable *in = gp_export_dot_adjacency (d->s, FALSE);
  GHashTableIter it;
  gpointer key, value;

  g_hash_table_iter_init (&it, out);
  while (g_hash_table_iter_next (&it, &key, &value))
    if (((GPtrArray *) value)->len >= GP_EXPORT_DOT_FOLD_MIN)
      gp_export_dot_fold_at (d, key, TRUE, out, in);
  g_hash_table_iter_init (&it, in);
  while (g_hash_table_iter_next (&it, &key, &value))
    if (((GPtrArray *) value)->len >= GP_EXPORT_DOT_FOLD_MIN)
      gp_export_dot_fold_at (d, key, FALSE, out, in);
  g_hash_table_unref (out);
  g_hash_table_unref (in);
}

static gboolean
gp_export_dot_is_queue (GpElement * e)
{
  return e && g_strcmp0 (e->kind, "queue") == 0;
}

/* The largest share (the deepest fill) and each bin's children's part. */
static void
gp_export_dot_shares (GpExportDot * d)
{
  GpSession *s = d->s;
  /* the bins one element's walk up has passed: each counts it once */
  GHashTable *seen = g_hash_table_new (g_str_hash, g_str_equal);
  guint i, depth;

  for (i = 0; i < s->elem_summaries->len; i++) {
    GpElementSummary *es = g_ptr_array_index (s->elem_summaries, i);
    GpElement *e = gp_session_find_element (s, es->name);
    const gchar *parent;

    if (gp_export_dot_is_queue (e) || !(es->share_pct > 0))
      continue;
    if (es->share_pct > d->max_share) {
      d->max_share = es->share_pct;
      d->hottest = es->name;
    }
    g_hash_table_remove_all (seen);
    for (depth = 0, parent = e ? e->parent : NULL;
        parent && *parent && depth < GP_EXPORT_DOT_MAX_DEPTH &&
        g_hash_table_add (seen, (gpointer) parent); depth++) {
      GpElement *bin = gp_session_find_element (s, parent);
      gdouble *sum = g_hash_table_lookup (d->bin_share, parent);

      if (sum == NULL) {
        sum = g_new0 (gdouble, 1);
        g_hash_table_insert (d->bin_share, (gpointer) parent, sum);
      }
      *sum += es->share_pct;
      parent = bin ? bin->parent : NULL;
    }
  }
  g_hash_table_unref (seen);
}

/* The (sub)graph that holds the children of @bin: its cluster, made with
 * its parents' when first asked; the root for "" and unknown bins. */
static Agraph_t *
gp_export_dot_graph_of (GpExportDot * d, const gchar * bin, guint depth)
{
  GpElement *e;
  Agraph_t *parent, *sub;
  GString *label;
  gchar *name;
  gdouble *share;

  if (bin == NULL || *bin == '\0' || depth >= GP_EXPORT_DOT_MAX_DEPTH)
    return d->root;
  sub = g_hash_table_lookup (d->clusters, bin);
  if (sub)
    return sub;
  e = gp_session_find_element (d->s, bin);
  if (e == NULL || !e->is_bin)
    return d->root;

  /* a parent chain that comes back to this bin (a broken session) ends
   * at the root */
  g_hash_table_insert (d->clusters, e->name, d->root);
  parent = gp_export_dot_graph_of (d, e->parent, depth + 1);
  name = g_strconcat ("cluster_", e->name, NULL);
  sub = agsubg (parent, name, 1);
  g_free (name);
  g_hash_table_insert (d->clusters, e->name, sub);

  label = g_string_new (NULL);
  gp_export_dot_append_text (label, e->name);
  if (e->factory && *e->factory && g_strcmp0 (e->factory, e->name) != 0) {
    g_string_append (label, " (");
    gp_export_dot_append_text (label, e->factory);
    g_string_append_c (label, ')');
  }
  share = g_hash_table_lookup (d->bin_share, e->name);
  g_string_append_printf (label, "\\n%.1f%% of the self time",
      share ? *share : 0.0);
  gp_export_dot_set (sub, "label", label->str);
  gp_export_dot_set (sub, "style", "rounded");
  gp_export_dot_set (sub, "color", "#808080");
  gp_export_dot_set (sub, "fontname", GP_EXPORT_DOT_FONT);
  gp_export_dot_set (sub, "labeljust", "l");
  g_string_free (label, TRUE);
  return sub;
}

/* White (no share) to GP_EXPORT_DOT_MAX_SATURATION red (@t = 1: the
 * largest share), the saturation in proportion. */
static gchar *
gp_export_dot_heat_color (gdouble t)
{
  guint gb;

  t = CLAMP (t, 0.0, 1.0);
  gb = (guint) lround (255.0 * (1.0 - GP_EXPORT_DOT_MAX_SATURATION * t));
  return g_strdup_printf ("#ff%02x%02x", gb, gb);
}

static void
gp_export_dot_element (GpExportDot * d, GpElement * e)
{
  GpElementSummary *es = gp_session_find_elem_summary (d->s, e->name);
  GpQueueSummary *qs = gp_session_find_queue_summary (d->s, e->name);
  Agraph_t *g = gp_export_dot_graph_of (d, e->parent, 0);
  Agnode_t *n = agnode (g, e->name, 1);
  GString *label = g_string_new (NULL), *tip = g_string_new (NULL);
  gchar *fill = NULL;

  gp_export_dot_append_text (label, e->name);
  if (e->factory && *e->factory) {
    g_string_append (label, "\\n");
    gp_export_dot_append_text (label, e->factory);
  }
  gp_export_dot_append_text (tip, e->name);
  g_string_append_printf (tip, " (%s)", e->factory ? e->factory : "");

  if (gp_export_dot_is_queue (e)) {
    fill = g_strdup (GP_EXPORT_DOT_QUEUE_FILL);
    if (qs && qs->residence_ms.p50 >= 0)
      g_string_append_printf (label, "\\nwait p50 %.2f ms",
          qs->residence_ms.p50);
    if (qs && qs->level_pct_max >= 0)
      g_string_append_printf (label, ", level max %.0f%%", qs->level_pct_max);
    g_string_append (tip, ": a queue, its time is waiting");
  } else if (es && es->buffers > 0) {
    fill = gp_export_dot_heat_color (d->max_share > 0 ?
        es->share_pct / d->max_share : 0.0);
    g_string_append_printf (label, "\\n%.1f%%, p50 %.2f ms",
        MAX (es->share_pct, 0.0), es->self_ms.p50);
    g_string_append_printf (tip, ": %.1f%% of the self time, p50 %.3f ms, "
        "p95 %.3f ms, busy %.1f%%, %" G_GUINT64_FORMAT " buffers",
        MAX (es->share_pct, 0.0), es->self_ms.p50, es->self_ms.p95,
        MAX (es->busy_pct, 0.0), es->buffers);
  } else {
    g_string_append (label, "\\nno self time");
    g_string_append (tip, ": no self time measured");
  }

  gp_export_dot_set (n, "label", label->str);
  gp_export_dot_set (n, "tooltip", tip->str);
  gp_export_dot_set (n, "id", e->name);
  if (fill)
    gp_export_dot_set (n, "fillcolor", fill);
  if (gp_export_dot_is_queue (e))
    gp_export_dot_set (n, "style", "filled,rounded,dashed");
  g_free (fill);
  g_string_free (label, TRUE);
  g_string_free (tip, TRUE);
}

/* The node of a link's end: its element's, or one made for a name the
 * graph does not list (a bin's pad in another tool's file), dashed. */
static Agnode_t *
gp_export_dot_end (GpExportDot * d, const gchar * pad)
{
  gchar *name = gp_pad_element (pad);
  GpElement *e = gp_session_find_element (d->s, name);
  Agnode_t *n = agnode (d->root, name, 0);

  if (n == NULL) {
    Agraph_t *g = e && e->is_bin ? gp_export_dot_graph_of (d, e->name, 0) :
        gp_export_dot_graph_of (d, e ? e->parent : NULL, 0);
    GString *label = g_string_new (NULL);

    n = agnode (g, name, 1);
    gp_export_dot_append_text (label, name);
    gp_export_dot_set (n, "label", label->str);
    gp_export_dot_set (n, "style", "dashed");
    g_string_free (label, TRUE);
  }
  g_free (name);
  return n;
}

/* The pad's name after its element's, NULL when it is plain @plain. */
static const gchar *
gp_export_dot_pad_name (const gchar * pad, const gchar * plain)
{
  const gchar *dot = pad ? strrchr (pad, '.') : NULL;

  if (dot == NULL || strcmp (dot + 1, plain) == 0)
    return NULL;
  return dot + 1;
}

/* @text broken into lines of about @width characters, at the first blank
 * past it (caps after the comma that ends a field, a launch string between
 * its elements) */
static void
gp_export_dot_append_wrapped (GString * label, const gchar * text, guint width)
{
  guint col = 0;

  for (; *text; text++) {
    if (*text == ' ' && col >= width) {
      g_string_append (label, "\\n");
      col = 0;
      continue;
    }
    gp_export_dot_append_char (label, *text);
    col++;
  }
}

static void
gp_export_dot_link (GpExportDot * d, GpLink * l)
{
  GpLinkSummary *ls = gp_session_find_link_summary (d->s, l->id);
  Agnode_t *t = gp_export_dot_end (d, l->src);
  Agnode_t *h = gp_export_dot_end (d, l->sink);
  Agedge_t *edge = agedge (d->root, t, h, NULL, 1);
  GString *label = g_string_new (NULL), *tip;
  const gchar *pad, *memory, *fold;
  gchar *words;

  fold = g_hash_table_lookup (d->fold_notes, l->id);
  if (fold) {
    /* "×8 branches alike, 7 folded": their names in the tooltip */
    gchar *head = g_strndup (fold, strcspn (fold, ":"));

    gp_export_dot_append_text (label, head);
    g_string_append (label, "\\n");
    g_free (head);
  }
  if (ls && ls->buffers > 0 && ls->fps >= 0) {
    gboolean video = gp_caps_media_kind (l->caps) == GP_MEDIA_VIDEO;

    g_string_append_printf (label, "%.1f %s", ls->fps,
        video ? "fps" : "buffers/s");
    if (ls->bytes_per_s > 0)
      g_string_append_printf (label, ", %.2f MB/s", ls->bytes_per_s / 1e6);
  } else {
    g_string_append (label, "no data");
  }
  /* the stream in a few words; the whole caps in the tooltip */
  words = l->caps && *l->caps ? gp_caps_stream_words (l->caps) : NULL;
  if (words && *words) {
    g_string_append (label, "\\n");
    gp_export_dot_append_wrapped (label, words, GP_EXPORT_DOT_CAPS_LINE);
  }
  /* memory other than system's, when the caps do not say it */
  memory = l->memory && g_str_has_prefix (l->memory, "memory:") ?
      l->memory + strlen ("memory:") : l->memory;
  if (memory && g_strcmp0 (memory, "system") != 0 &&
      (words == NULL || strstr (words, memory) == NULL)) {
    g_string_append (label, "\\nin ");
    gp_export_dot_append_text (label, memory);
  }
  tip = g_string_new (NULL);
  gp_export_dot_append_text (tip, l->id);
  if (l->caps && *l->caps) {
    gchar *brief = gp_caps_brief (l->caps);

    g_string_append (tip, "\\n");
    gp_export_dot_append_text (tip, brief);
    g_free (brief);
  }
  g_string_append (tip, "\\nmemory: ");
  gp_export_dot_append_text (tip, memory ? memory : "unknown");
  if (fold) {
    g_string_append (tip, "\\n");
    gp_export_dot_append_text (tip, fold);
  }

  gp_export_dot_set (edge, "label", label->str);
  gp_export_dot_set (edge, "id", l->id);
  gp_export_dot_set (edge, "tooltip", tip->str);
  gp_export_dot_set (edge, "labeltooltip", tip->str);
  if ((pad = gp_export_dot_pad_name (l->src, "src")) != NULL)
    gp_export_dot_set (edge, "taillabel", pad);
  if ((pad = gp_export_dot_pad_name (l->sink, "sink")) != NULL)
    gp_export_dot_set (edge, "headlabel", pad);
  g_string_free (label, TRUE);
  g_string_free (tip, TRUE);
  g_free (words);
}

/* What the colours say, and what ran. */
static void
gp_export_dot_title (GpExportDot * d)
{
  GString *label = g_string_new ("gstprof: ");

  if (d->s->launch)
    gp_export_dot_append_wrapped (label, d->s->launch,
        GP_EXPORT_DOT_TITLE_LINE);
  else
    g_string_append_printf (label, "%s session", d->s->mode ? d->s->mode : "a");
  if (d->hottest) {
    g_string_append (label, "\\nfill: share of the self time, deepest ");
    gp_export_dot_append_text (label, d->hottest);
    g_string_append_printf (label, " %.1f%%; queues grey (waiting)",
        d->max_share);
  } else {
    g_string_append (label, "\\nno self time measured");
  }
  gp_export_dot_set (d->root, "label", label->str);
  gp_export_dot_set (d->root, "labelloc", "t");
  g_string_free (label, TRUE);
}

/* ------------------------------------------------------------------ */
/* rendering                                                            */
/* ------------------------------------------------------------------ */

/* graphviz's renderer of each format */
static const gchar *const gp_export_dot_renderers[] = {
  [GP_EXPORT_GRAPH_DOT] = "dot",
  [GP_EXPORT_GRAPH_SVG] = "svg",
  [GP_EXPORT_GRAPH_PNG] = "png",
};

/* Rendered into memory (a stream over a growing buffer: gvRender's one
 * way that is the same in every graphviz release). */
static GBytes *
gp_export_dot_render (GVC_t * gvc, Agraph_t * g, GpExportGraphFormat format,
    const gchar * what, GError ** error)
{
  const gchar *renderer = gp_export_dot_renderers[format];
  gchar *data = NULL;
  gsize len = 0;
  FILE *fp = open_memstream (&data, &len);
  gint rc;

  if (fp == NULL) {
    g_set_error (error, GP_EXPORT_ERROR, GP_EXPORT_ERROR_IO,
        "%s: no memory to render the graph into", what);
    return NULL;
  }
  g_string_truncate (gp_export_dot_messages, 0);
  rc = gvRender (gvc, g, renderer, fp);
  fclose (fp);
  if (rc != 0) {
    g_strstrip (gp_export_dot_messages->str);
    g_set_error (error, GP_EXPORT_ERROR, GP_EXPORT_ERROR_GRAPHVIZ,
        "%s: graphviz could not render %s (%s)", what, renderer,
        gp_export_dot_messages->len ? gp_export_dot_messages->str :
        "no such renderer");
    free (data);
    return NULL;
  }
  return g_bytes_new_with_free_func (data, len, free, data);
}
