/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-launch.h: the gst-launch-1.0 syntax as the user wrote it.
 *
 * gp_launch_parse () cuts a launch string into segments that tile it byte
 * for byte (whitespace included), following the lexer and grammar of
 * gst_parse_launch () as in GStreamer 1.22 (assignments, @preset, links
 * "!" and ":" with inline caps, references "t." / "t.pad", pad lists,
 * bins "( ... )" and "factory.( ... )", URIs; tests/launch compares it with
 * the real parser), and predicts the name every element will get in a
 * fresh process, so that a finding about "videoconvert0" can be turned
 * into an edit of the text the user typed.
 *
 * gp_launch_apply_patch () applies typed edits (gp-launch-op.h) that
 * change only the bytes they must: everything else, spacing and quoting
 * included, stays as written. gp_launch_diff () shows what changed.
 */
#ifndef __GP_LAUNCH_H__
#define __GP_LAUNCH_H__

#include <glib.h>
#include <json-glib/json-glib.h>

#include "gp-launch-op.h"

G_BEGIN_DECLS

#define GP_LAUNCH_ERROR (gp_launch_error_quark ())
GQuark gp_launch_error_quark (void);

typedef enum
{
  GP_LAUNCH_ERROR_SYNTAX,       /* the string is not a launch string */
  GP_LAUNCH_ERROR_PATCH,        /* the patch is malformed or names nothing */
} GpLaunchError;

typedef enum
{
  GP_LAUNCH_SEG_SPACE,          /* a run of whitespace */
  GP_LAUNCH_SEG_FACTORY,        /* an element's factory name */
  GP_LAUNCH_SEG_PROPERTY,       /* key=value (spaces around '=' kept) */
  GP_LAUNCH_SEG_PRESET,         /* @preset=value */
  GP_LAUNCH_SEG_LINK,           /* '!' or ':' (a link with caps has two) */
  GP_LAUNCH_SEG_CAPS,           /* caps in a link, with any ; alternatives */
  GP_LAUNCH_SEG_REF,            /* name. or name.pad */
  GP_LAUNCH_SEG_PADREF,         /* .pad */
  GP_LAUNCH_SEG_PAD_COMMA,      /* ',' in a pad list */
  GP_LAUNCH_SEG_PAD,            /* a pad name after ',' */
  GP_LAUNCH_SEG_BIN_OPEN,       /* '(' or factory.( */
  GP_LAUNCH_SEG_BIN_CLOSE,      /* ')' */
  GP_LAUNCH_SEG_URL,            /* a URI standing for a source or sink */
} GpLaunchSegKind;

typedef struct
{
  GpLaunchSegKind kind;
  gchar *text;                  /* exactly the bytes of the input */
  guint offset;                 /* byte offset in the launch string */
  gint element;                 /* index of the element it belongs to, -1 */
} GpLaunchSegment;

typedef enum
{
  GP_LAUNCH_ELEMENT,            /* factory [props] */
  GP_LAUNCH_CAPS,               /* caps in a link: made into a capsfilter */
  GP_LAUNCH_BIN,                /* ( ... ) or factory.( ... ) */
  GP_LAUNCH_URL,                /* a URI: element chosen by its protocol */
} GpLaunchElementKind;

typedef struct
{
  GpLaunchElementKind kind;
  gchar *factory;               /* "capsfilter" for caps, the bin factory for
                                 * bins, the URI handler (or NULL) for URLs */
  gchar *name;                  /* predicted GST_OBJECT_NAME, NULL if unknown */
  gboolean name_certain;        /* FALSE: made at run time (delayed links) or
                                 * the counter could not be followed */
  gboolean named;               /* the string gives it name= */
  guint offset;                 /* span: factory .. last property, the caps
                                 * text, or opener .. ')' */
  guint length;
  gint parent;                  /* enclosing bin (element index), -1 */
} GpLaunchElement;

typedef struct _GpLaunch GpLaunch;

/* NULL and a one-line error naming the column on a string that
 * gst_parse_launch () would reject as a syntax error (or an empty one, an
 * empty bin, an unterminated quote, a link with nothing on one side).
 * Names come from the GStreamer registry when gst_init () was called (type
 * names, pad templates, URI handlers); without it, from the factory names. */
GpLaunch *gp_launch_parse (const gchar * launch, GError ** error);
void gp_launch_free (GpLaunch * l);
/* An independent copy, made without parsing again: edits of one leave the
 * other as it was. */
GpLaunch *gp_launch_copy (const GpLaunch * l);

/* The segments' texts, concatenated. */
gchar *gp_launch_to_string (const GpLaunch * l);

guint gp_launch_get_n_segments (const GpLaunch * l);
const GpLaunchSegment *gp_launch_get_segment (const GpLaunch * l, guint i);
/* Elements in order of appearance (a bin before its children). */
guint gp_launch_get_n_elements (const GpLaunch * l);
const GpLaunchElement *gp_launch_get_element (const GpLaunch * l, guint i);
/* Index of the element with that predicted name, or with the alias
 * <factory><n> (n-th element of that factory in order of appearance,
 * from 0), else -1. */
gint gp_launch_find_element (const GpLaunch * l, const gchar * name);
/* The pipeline GStreamer wraps several top-level elements in
 * ("pipeline0"), or NULL when the string has one top-level element. */
const gchar *gp_launch_get_toplevel_name (const GpLaunch * l);

/* The caps written on the link into (@before) or out of element @el
 * ("a ! video/x-raw,width=640 ! b": for b before, for a after), as an
 * element index, or -1. */
gint gp_launch_caps_beside (const GpLaunch * l, gint el, gboolean before);
/* The element caps element @caps feed, or -1 (a reference: "caps ! d."). */
gint gp_launch_caps_feeds (const GpLaunch * l, gint caps);
/* The properties the string gives element @el, as GStreamer receives them
 * (quotes and escapes taken off), last one of a key wins; "NULL" for a
 * NULL. A new object, empty when it has none. */
JsonObject *gp_launch_element_props (const GpLaunch * l, gint el);
/* A JSON scalar as the text of a property value ("true", "30", "0.5"), or
 * NULL for anything else. */
gchar *gp_launch_value_text (JsonNode * node);

/* Applies the ops of @patch (GpLaunchOp*, gp-launch-op.h, where each op is
 * described) in order, all or nothing. Element names in one call are
 * those of the string as it was when the call began. On error the launch
 * is unchanged and @error says "patch N: ..." on one line, N the index of
 * the op that failed. */
gboolean gp_launch_apply_patch (GpLaunch * l, GPtrArray * patch,
    GError ** error);

/* A short human diff: for each changed place, "- " and "+ " lines with the
 * changed segments and one unchanged element of context on each side.
 * "" when the strings are equal. */
gchar *gp_launch_diff (const gchar * before, const gchar * after);

/* The pipeline of a gst-launch-1.0 command line, @argv[0] its program:
 * its own options left out (-o and -X with the value they take), the rest
 * joined as gst_parse_launchv () joins them (a space inside one argument
 * escaped). NULL when @argv[0] is not gst-launch. @dropped (may be NULL)
 * receives the program and options left out, joined by spaces. */
gchar *gp_launch_from_gst_launch (const gchar * const *argv,
    gchar ** dropped);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GpLaunch, gp_launch_free)

G_END_DECLS

#endif /* __GP_LAUNCH_H__ */
