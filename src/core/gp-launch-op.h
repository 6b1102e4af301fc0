/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-launch-op.h: one edit of a launch string, typed. A patch is a
 * GPtrArray of GpLaunchOp*, applied in order, all or nothing, by
 * gp_launch_apply_patch () (gp-launch.h). The rules attach one to a
 * finding (GpFinding.fix_patch), `gstprof fix` plans with them, ds preset
 * builds its presets with them. JSON is only their form in session.json:
 * gp-session-write.c writes them, gp-session-read.c reads them back and
 * refuses a malformed one (gp_session_patch_to_json () and
 * gp_session_patch_from_json () in gp-session.h).
 *
 * The ops, as session.json writes them (NAME: an element's name in the
 * launch string as it was before the patch, its predicted name or the
 * alias <factory><n>; V: a string, number or boolean):
 *   set      {"op":"set","target":NAME,"prop":K,"value":V}
 *   insert   {"op":"insert","after"|"before":NAME,"element":FACTORY,
 *             "props":{K:V}}
 *   caps     {"op":"caps","after"|"before":NAME,"caps":CAPS}  replaces the
 *            caps on that link or adds them; or "target":CAPS_ELEMENT
 *   replace  {"op":"replace","target":NAME,"element":FACTORY,
 *             "keep_props":true,"props":{K:V}}  name= is always kept,
 *            the other properties only with keep_props
 *   remove   {"op":"remove","target":NAME}  an element with its outgoing
 *            link (its incoming one when it is last), or caps
 * Values are what GStreamer should receive; the rewriter quotes them as
 * needed.
 */
#ifndef __GP_LAUNCH_OP_H__
#define __GP_LAUNCH_OP_H__

#include <glib-object.h>

G_BEGIN_DECLS

typedef enum
{
  GP_LAUNCH_OP_SET,             /* a property of an element or bin */
  GP_LAUNCH_OP_INSERT,          /* a new element on a link */
  GP_LAUNCH_OP_CAPS,            /* caps on a link, added or replaced */
  GP_LAUNCH_OP_REPLACE,         /* an element by one of another factory */
  GP_LAUNCH_OP_REMOVE,          /* an element, or caps, taken out */
} GpLaunchOpKind;

/* Where an op acts, relative to the element it names. */
typedef enum
{
  GP_LAUNCH_AT_TARGET,          /* on it (set, replace, remove, caps) */
  GP_LAUNCH_AT_AFTER,           /* on the link out of it (insert, caps) */
  GP_LAUNCH_AT_BEFORE,          /* on the link into it (insert, caps) */
} GpLaunchAt;

/* One property of an inserted or replacing element. */
typedef struct
{
  gchar *key;
  GValue value;                 /* a string, gint64, gboolean or gdouble */
} GpLaunchProp;

/* Every field is written by the builders (or the session reader) and
 * read by the rewriter, the rules' check, fix and ds preset. */
typedef struct
{
  GpLaunchOpKind kind;
  GpLaunchAt at;
  gchar *name;                  /* the element (or caps) it names */
  gchar *prop;                  /* set: the property */
  GValue value;                 /* set: its value, as GpLaunchProp's */
  gchar *factory;               /* insert, replace: the new element's */
  GArray *props;                /* insert, replace: GpLaunchProp in order;
                                 * NULL when none were given */
  gboolean keep_props;          /* replace: the old properties stay */
  gchar *caps;                  /* caps: the caps text */
} GpLaunchOp;

/* Builders, one per kind (set with a value of each type). Insert and
 * replace start with no properties (written "props": {}); add them with
 * gp_launch_op_add_prop* (). */
GpLaunchOp *gp_launch_op_set (const gchar * target, const gchar * prop,
    const GValue * value);
GpLaunchOp *gp_launch_op_set_int (const gchar * target, const gchar * prop,
    gint64 value);
GpLaunchOp *gp_launch_op_set_bool (const gchar * target, const gchar * prop,
    gboolean value);
GpLaunchOp *gp_launch_op_set_string (const gchar * target,
    const gchar * prop, const gchar * value);
/* @at: GP_LAUNCH_AT_AFTER or GP_LAUNCH_AT_BEFORE */
GpLaunchOp *gp_launch_op_insert (GpLaunchAt at, const gchar * name,
    const gchar * factory);
/* @at: after or before element @name, or on caps element @name (target) */
GpLaunchOp *gp_launch_op_caps (GpLaunchAt at, const gchar * name,
    const gchar * caps);
GpLaunchOp *gp_launch_op_replace (const gchar * target,
    const gchar * factory, gboolean keep_props);
GpLaunchOp *gp_launch_op_remove (const gchar * target);

/* A property of the new element of an insert or replace. */
void gp_launch_op_add_prop (GpLaunchOp * op, const gchar * key,
    const GValue * value);
void gp_launch_op_add_prop_int (GpLaunchOp * op, const gchar * key,
    gint64 value);
void gp_launch_op_add_prop_string (GpLaunchOp * op, const gchar * key,
    const gchar * value);
void gp_launch_op_add_prop_bool (GpLaunchOp * op, const gchar * key,
    gboolean value);

GpLaunchOp *gp_launch_op_copy (const GpLaunchOp * op);
void gp_launch_op_free (GpLaunchOp * op);

/* An empty patch (GpLaunchOp*, freed with it), and a deep copy. */
GPtrArray *gp_launch_patch_new (void);
GPtrArray *gp_launch_patch_copy (GPtrArray * patch);

/* The names session.json uses: "set", ... and "target", "after",
 * "before"; FALSE for a name that is none. */
const gchar *gp_launch_op_kind_name (GpLaunchOpKind kind);
gboolean gp_launch_op_kind_from_name (const gchar * name,
    GpLaunchOpKind * kind);
const gchar *gp_launch_at_name (GpLaunchAt at);

/* A value as the text of a property ("true", "30", "0.5"). */
gchar *gp_launch_scalar_text (const GValue * value);

/* One line for the op, as a person says it: "set q leaky=downstream",
 * "insert queue leaky=2 before x", "replace a with b k=v", "remove a",
 * "caps C on capsfilter0", "caps C after a". */
gchar *gp_launch_op_describe (const GpLaunchOp * op);

/* The place an op changes: two ops with the same key change the same
 * property, the same side of a link, or the same element (replace and
 * remove both have "element\tNAME"). */
gchar *gp_launch_op_conflict_key (const GpLaunchOp * op);

typedef enum
{
  GP_LAUNCH_OP_APART,           /* they change different places */
  GP_LAUNCH_OP_SAME,            /* the same change of the same place */
  GP_LAUNCH_OP_CONFLICT,        /* another change of the same place, or an
                                 * edit at an element the other replaces or
                                 * removes */
} GpLaunchOpClash;

/* How @op stands to @earlier, an op already kept: fix shares the same
 * change and leaves a conflicting one out. */
GpLaunchOpClash gp_launch_op_clash (const GpLaunchOp * earlier,
    const GpLaunchOp * op);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GpLaunchOp, gp_launch_op_free)

G_END_DECLS

#endif /* __GP_LAUNCH_OP_H__ */
