/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-launch-private.h: the parsed form of a launch string, and what the
 * files behind gp-launch.h share of it. Which file does what:
 *   gp-launch-parse.c  character classes, the lexer (flex's rules) and the
 *                      recursive-descent parser (grammar.y's language)
 *                      that make the form below; gp_launch_parse () and
 *                      the readers of the form (segments, elements, the
 *                      caps beside an element, its properties)
 *   gp-launch-names.c  the name GStreamer will give each element (type
 *                      names from the registry, one counter per type, in
 *                      the order bison makes them) and the lookup by name
 *   gp-launch-patch.c  the rewriter: gp_launch_apply_patch ()'s ops as
 *                      byte edits of the text as written
 *   gp-launch-diff.c   gp_launch_diff ()
 *   gp-launch-op.c     the typed op itself (gp-launch-op.h): builders,
 *                      description, conflict key
 */
#ifndef __GP_LAUNCH_PRIVATE_H__
#define __GP_LAUNCH_PRIVATE_H__

#include <stdarg.h>

#include "gp-launch.h"

G_BEGIN_DECLS

/* ------------------------------------------------------------------------ */
/* model                                                                     */

/* A GpLaunch is the text; its segments, which tile it; its elements (the
 * public GpLaunchElement and what the parser, the namer and the rewriter
 * keep beside it); the chain items (an element, bin, URL or reference in a
 * chain, with its pad lists); and the links between items. */

typedef struct
{
  GpLaunchElement pub;
  gint item;                    /* the chain item it is, -1 for caps */
  gint link;                    /* caps: the link it sits in */
  guint first_seg, last_seg;    /* its segments (bins: opener .. ')') */
  guint props_last_seg;         /* last segment of factory+properties (bins:
                                 * of the opener and its assignments) */
  gsize create_at;              /* where bison makes it (order of creation) */
  gchar *explicit_name;         /* value of its last name=, processed */
  gboolean name_assigned;       /* it has a name= (even name=NULL) */
  guint alias_n;                /* n-th element of its factory */
  gchar *ref_name;              /* a patch batch's names for it */
  gchar *ref_alias;
} GpLaunchElementPriv;

typedef struct
{
  gint element;                 /* -1 for a reference */
  gint ref_seg;                 /* the REF segment of a reference */
  gsize start, end;             /* sink pads .. src pads included */
  gsize el_end;                 /* end of the elementary itself */
  guint n_pads_in, n_pads_out;
  gint link_in, link_out;
} GpLaunchItem;

typedef struct
{
  gint src, sink;               /* items */
  gsize start, end;             /* opening [!:] .. closing [!:] */
  gint caps;                    /* element of its caps, -1 */
  gboolean all;                 /* ':' */
} GpLaunchLink;

/* gp_launch_copy () copies each of these and the strings they own: a new
 * field that owns memory is copied there too. */
struct _GpLaunch
{
  gchar *text;                  /* the launch string, as given */
  GPtrArray *segs;              /* GpLaunchSegment, in order */
  GArray *elements;             /* GpLaunchElementPriv, as they appear */
  GArray *items;                /* GpLaunchItem */
  GArray *links;                /* GpLaunchLink */
  gchar *toplevel;              /* the pipeline's name, NULL: none */
};

/* element, chain item, link and segment @i of @l */
#define ELEM(l, i) (&g_array_index ((l)->elements, GpLaunchElementPriv, (i)))
#define ITEM(l, i) (&g_array_index ((l)->items, GpLaunchItem, (i)))
#define LINK(l, i) (&g_array_index ((l)->links, GpLaunchLink, (i)))
#define SEG(l, i) ((GpLaunchSegment *) g_ptr_array_index ((l)->segs, (i)))

/* ------------------------------------------------------------------------ */
/* shared by the files                                                       */

/* gp-launch-parse.c */

/* [[:space:]] as flex sees it in the C locale: the lexer's whitespace, and
 * what may stand around a property's '=' */
static inline gboolean
gp_launch_is_space (guchar c)
{
  return c == ' ' || (c >= '\t' && c <= '\r');
}

/* The offset just past segment @i in the launch string. */
gsize gp_launch_seg_end (GpLaunch * l, guint i);
/* TRUE when @s is one identifier as the lexer reads it (a factory or a
 * property name). */
gboolean gp_launch_is_identifier (const gchar * s);
/* The key of a property segment's key=value: up to the first space or '='.
 * A new string. */
gchar *gp_launch_prop_key (const gchar * text);
/* g_strdup_vprintf () on one line: control characters become spaces, so
 * that an error is one line whatever the launch string's names and values
 * hold (a quoted name may span lines). */
gchar *gp_launch_one_line_vprintf (const gchar * fmt, va_list args)
    G_GNUC_PRINTF (1, 0);

/* gp-launch-names.c */

/* Predicts every element's name (pub.name, pub.name_certain), numbers the
 * elements of each factory (alias_n), picks URL elements' factories and
 * names the top-level pipeline (toplevel); gp_launch_parse () calls it
 * once the string has parsed. */
void gp_launch_predict_names (GpLaunch * l);
/* The name reference item @item refers to ("t" of "t.src_0"), a new
 * string, also stored in *@tmp for the caller to free. */
const gchar *gp_launch_ref_name_of (GpLaunch * l, gint item, gchar ** tmp);

G_END_DECLS

#endif /* __GP_LAUNCH_PRIVATE_H__ */
