/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-fix.c: the loop from a finding to a verified fix. A plan gathers the
 * launch-string edits the findings carry (fix_patch), in rank order,
 * leaves out the ones that conflict with a better-ranked edit, and applies
 * the rest to session.launch (src/core/gp-launch); gp_fix_apply () runs the
 * patched pipeline the way the original was measured, so that the two
 * sessions compare (src/report/gp-compare).
 */
#include "gp-fix.h"

#include <math.h>
#include <string.h>

#include "core/gp-json.h"
#include "core/gp-launch.h"
#include "rules/gp-rules.h"

/* One edit of the plan: a single patch op and the findings it serves. */
typedef struct
{
  JsonNode *op;
  gchar *key;                   /* what it changes, see gp_fix_op_identity () */
  gchar *value;                 /* what it changes it to */
  gchar *target;                /* the element it is anchored on */
  gboolean whole;               /* replaces or removes that element */
  GArray *findings;             /* guint: indexes in s->findings */
} GpFixEdit;

typedef struct
{
  guint finding;
  gchar *reason;
} GpFixSkip;

struct _GpFixPlan
{
  GpSession *s;                 /* borrowed */
  gchar *before;
  GpLaunch *parsed;             /* before, parsed once for every try */
  gchar *after;                 /* == before when no edit applies */
  GPtrArray *edits;             /* GpFixEdit* */
  GArray *skips;                /* GpFixSkip */
  GArray *unfixable;            /* guint: findings without a fix_patch */
};

static void
gp_fix_fix_edit_free (gpointer p)
{
  GpFixEdit *e = p;

  json_node_unref (e->op);
  g_free (e->key);
  g_free (e->value);
  g_free (e->target);
  g_array_unref (e->findings);
  g_free (e);
}

static void
gp_fix_fix_skip_clear (gpointer p)
{
  g_free (((GpFixSkip *) p)->reason);
}

void
gp_fix_plan_free (GpFixPlan * p)
{
  if (p == NULL)
    return;
  g_free (p->before);
  gp_launch_free (p->parsed);
  g_free (p->after);
  g_ptr_array_unref (p->edits);
  g_array_unref (p->skips);
  g_array_unref (p->unfixable);
  g_free (p);
}

/* A value as a person reads it: scalars as property text, anything else
 * as JSON. */
static gchar *
gp_fix_value_text (JsonNode * n)
{
  gchar *text;

  if (n == NULL)
    return g_strdup ("");
  text = gp_launch_value_text (n);
  return text != NULL ? text : json_to_string (n, FALSE);
}

static gchar *
gp_fix_props_text (JsonObject * o)
{
  JsonNode *n = json_object_has_member (o, "props") ?
      json_object_get_member (o, "props") : NULL;
  GString *t = g_string_new (NULL);

  if (n != NULL && JSON_NODE_HOLDS_OBJECT (n)) {
    JsonObject *props = json_node_get_object (n);
    GList *names = json_object_get_members (props), *l;

    for (l = names; l; l = l->next) {
      gchar *v = gp_fix_value_text (json_object_get_member (props, l->data));

      g_string_append_printf (t, " %s=%s", (const gchar *) l->data, v);
      g_free (v);
    }
    g_list_free (names);
  }
  return g_string_free (t, FALSE);
}

/* What an op changes (@key: two ops with the same key edit the same
 * place), to what (@value), on which element (@target), and whether it
 * replaces or removes that element (@whole). FALSE for an op gstprof
 * cannot read; gp_launch_apply_patch () then says what is wrong. */
static gboolean
gp_fix_op_identity (JsonNode * op, gchar ** key, gchar ** value,
    gchar ** target,
    gboolean * whole)
{
  JsonObject *o;
  const gchar *kind, *where = NULL, *t = NULL;
  gchar *props;

  *key = *value = *target = NULL;
  *whole = FALSE;
  if (op == NULL || !JSON_NODE_HOLDS_OBJECT (op))
    return FALSE;
  o = json_node_get_object (op);
  kind = gp_json_get_string (o, "op");
  if (kind == NULL)
    return FALSE;
  if ((t = gp_json_get_string (o, "target")) != NULL)
    where = "target";
  else if ((t = gp_json_get_string (o, "after")) != NULL)
    where = "after";
  else if ((t = gp_json_get_string (o, "before")) != NULL)
    where = "before";
  if (t == NULL)
    return FALSE;
  *target = g_strdup (t);

  if (strcmp (kind, "set") == 0) {
    *key = g_strdup_printf ("set\t%s\t%s", t, gp_json_get_string (o, "prop") ?
        gp_json_get_string (o, "prop") : "");
    *value = gp_fix_value_text (json_object_has_member (o, "value") ?
        json_object_get_member (o, "value") : NULL);
  } else if (strcmp (kind, "insert") == 0) {
    props = gp_fix_props_text (o);
    *key = g_strdup_printf ("insert\t%s\t%s", where, t);
    *value = g_strdup_printf ("%s%s", gp_json_get_string (o, "element") ?
        gp_json_get_string (o, "element") : "", props);
    g_free (props);
  } else if (strcmp (kind, "caps") == 0) {
    *key = g_strdup_printf ("caps\t%s\t%s", where, t);
    *value = g_strdup (gp_json_get_string (o, "caps") ?
        gp_json_get_string (o, "caps") : "");
  } else if (strcmp (kind, "replace") == 0 || strcmp (kind, "remove") == 0) {
    props = gp_fix_props_text (o);
    *key = g_strdup_printf ("element\t%s", t);
    *value = g_strdup_printf ("%s %s%s", kind,
        gp_json_get_string (o, "element") ?
        gp_json_get_string (o, "element") : "", props);
    *whole = TRUE;
    g_free (props);
  } else {
    g_clear_pointer (target, g_free);
    return FALSE;
  }
  return TRUE;
}

/* One line for an edit, as the user would say it. */
static gchar *
gp_fix_op_describe (JsonNode * op)
{
  JsonObject *o = json_node_get_object (op);
  const gchar *kind = gp_json_get_string (o, "op");
  const gchar *target = gp_json_get_string (o, "target");
  const gchar *after = gp_json_get_string (o, "after");
  const gchar *before = gp_json_get_string (o, "before");
  const gchar *where = after ? "after" : "before";
  const gchar *anchor = after ? after : before;
  gchar *props = gp_fix_props_text (o), *v, *d;

  if (g_strcmp0 (kind, "set") == 0) {
    v = gp_fix_value_text (json_object_has_member (o, "value") ?
        json_object_get_member (o, "value") : NULL);
    d = g_strdup_printf ("set %s %s=%s", target, gp_json_get_string (o,
        "prop"), v);
    g_free (v);
  } else if (g_strcmp0 (kind, "insert") == 0) {
    d = g_strdup_printf ("insert %s%s %s %s", gp_json_get_string (o,
        "element"),
        props, where, anchor);
  } else if (g_strcmp0 (kind, "replace") == 0) {
    d = g_strdup_printf ("replace %s with %s%s", target,
        gp_json_get_string (o, "element"), props);
  } else if (g_strcmp0 (kind, "remove") == 0) {
    d = g_strdup_printf ("remove %s", target);
  } else if (g_strcmp0 (kind, "caps") == 0) {
    d = target ? g_strdup_printf ("caps %s on %s", gp_json_get_string (o,
        "caps"),
        target) : g_strdup_printf ("caps %s %s %s", gp_json_get_string (o,
            "caps"),
        where, anchor);
  } else {
    d = json_to_string (op, FALSE);
  }
  g_free (props);
  return d;
}

static gboolean
gp_fix_has_patch (GpFinding * f)
{
  return f->fix_patch != NULL && !JSON_NODE_HOLDS_NULL (f->fix_patch);
}

/* The ops of a finding's patch, one object or an array of them. */
static GPtrArray *
gp_fix_patch_ops (JsonNode * patch)
{
  GPtrArray *ops = g_ptr_array_new ();

  if (JSON_NODE_HOLDS_ARRAY (patch)) {
    JsonArray *a = json_node_get_array (patch);
    guint i;

    for (i = 0; i < json_array_get_length (a); i++)
      g_ptr_array_add (ops, json_array_get_element (a, i));
  } else {
    g_ptr_array_add (ops, patch);
  }
  return ops;
}

static void
gp_fix_add_skip (GpFixPlan * p, guint finding, gchar * reason)
{
  GpFixSkip sk = { finding, reason };

  g_array_append_val (p->skips, sk);
}

/* Every accepted op plus @extra, applied in one call on the original
 * launch string, so that element names are all those of the session. */
static gchar *
gp_fix_try_apply (GpFixPlan * p, GPtrArray * extra, GError ** error)
{
  GpLaunch *l = gp_launch_copy (p->parsed);
  JsonArray *all = json_array_new ();
  JsonNode *node;
  gchar *out = NULL;
  guint i;

  for (i = 0; i < p->edits->len; i++)
    json_array_add_element (all,
        json_node_copy (((GpFixEdit *) g_ptr_array_index (p->edits, i))->op));
  for (i = 0; extra != NULL && i < extra->len; i++)
    json_array_add_element (all, json_node_copy (g_ptr_array_index (extra,
                i)));
  node = json_node_init_array (json_node_alloc (), all);
  if (gp_launch_apply_patch (l, node, error))
    out = gp_launch_to_string (l);
  json_node_unref (node);
  json_array_unref (all);
  gp_launch_free (l);
  return out;
}

/* Adds finding @fi's ops to the plan, or records why not. */
static void
gp_fix_plan_finding (GpFixPlan * p, guint fi)
{
  GpFinding *f = g_ptr_array_index (p->s->findings, fi);
  GPtrArray *ops = gp_fix_patch_ops (f->fix_patch);
  GPtrArray *fresh = g_ptr_array_new ();
  GArray *dups = g_array_new (FALSE, FALSE, sizeof (guint));
  GError *err = NULL;
  gchar *reason = NULL, *result;
  guint i, j;

  if (!JSON_NODE_HOLDS_OBJECT (f->fix_patch) &&
      !JSON_NODE_HOLDS_ARRAY (f->fix_patch)) {
    gp_fix_add_skip (p, fi,
        g_strdup ("its fix_patch is not an edit (an object or "
            "an array of them)"));
    goto out;
  }
  for (i = 0; i < ops->len && reason == NULL; i++) {
    JsonNode *op = g_ptr_array_index (ops, i);
    gchar *key, *value, *target;
    gboolean whole, dup = FALSE;

    if (!gp_fix_op_identity (op, &key, &value, &target, &whole)) {
      /* unreadable here: gp_launch names what is wrong with it below */
      g_ptr_array_add (fresh, op);
      continue;
    }
    /* A better-ranked finding's edit wins: the same change again is
     * shared, another change of the same place (or an edit next to an
     * element another edit replaces or removes) is a conflict. */
    for (j = 0; j < p->edits->len && reason == NULL; j++) {
      GpFixEdit *e = g_ptr_array_index (p->edits, j);
      gchar *desc;

      if (strcmp (e->key, key) == 0) {
        if (strcmp (e->value, value) == 0) {
          g_array_append_val (dups, j);
          dup = TRUE;
          break;
        }
      } else if (!((e->whole && g_strcmp0 (e->target, target) == 0) ||
              (whole && g_strcmp0 (e->target, target) == 0))) {
        continue;
      }
      desc = gp_fix_op_describe (e->op);
      reason = g_strdup_printf ("conflicts with edit %u (%s) of a "
          "better-ranked finding", j + 1, desc);
      g_free (desc);
    }
    if (!dup && reason == NULL)
      g_ptr_array_add (fresh, op);
    g_free (key);
    g_free (value);
    g_free (target);
  }
  if (reason != NULL) {
    gp_fix_add_skip (p, fi, reason);
    goto out;
  }
  if (fresh->len > 0) {
    result = gp_fix_try_apply (p, fresh, &err);
    if (result == NULL) {
      gp_fix_add_skip (p, fi, g_strdup_printf ("does not apply: %s", err ?
              err->message : "unknown error"));
      g_clear_error (&err);
      goto out;
    }
    g_free (p->after);
    p->after = result;
    for (i = 0; i < fresh->len; i++) {
      GpFixEdit *e = g_new0 (GpFixEdit, 1);

      e->op = json_node_copy (g_ptr_array_index (fresh, i));
      if (!gp_fix_op_identity (e->op, &e->key, &e->value, &e->target,
          &e->whole)) {
        /* it applied, so it is readable after all; keep it unique */
        e->key = g_strdup_printf ("op\t%u", p->edits->len);
        e->value = g_strdup ("");
      }
      e->findings = g_array_new (FALSE, FALSE, sizeof (guint));
      g_array_append_val (e->findings, fi);
      g_ptr_array_add (p->edits, e);
    }
  }
  for (i = 0; i < dups->len; i++) {
    GpFixEdit *e = g_ptr_array_index (p->edits, g_array_index (dups, guint, i));

    g_array_append_val (e->findings, fi);
  }

out:
  g_ptr_array_unref (ops);
  g_ptr_array_unref (fresh);
  g_array_unref (dups);
}

GpFixPlan *
gp_fix_plan_new (GpSession * s, GError ** error)
{
  GpFixPlan *p;
  GpLaunch *l;
  guint i;

  if (s->launch == NULL || *s->launch == '\0') {
    g_set_error (error, GP_LAUNCH_ERROR, GP_LAUNCH_ERROR_SYNTAX,
        "the session has no launch string (%s), so there is nothing to "
        "patch", s->import_schema ? "an import from another tool" :
        "a wrapped application");
    return NULL;
  }
  l = gp_launch_parse (s->launch, error);
  if (l == NULL)
    return NULL;

  p = g_new0 (GpFixPlan, 1);
  p->s = s;
  p->before = g_strdup (s->launch);
  p->parsed = l;
  p->after = g_strdup (s->launch);
  p->edits = g_ptr_array_new_with_free_func (gp_fix_fix_edit_free);
  p->skips = g_array_new (FALSE, FALSE, sizeof (GpFixSkip));
  g_array_set_clear_func (p->skips, gp_fix_fix_skip_clear);
  p->unfixable = g_array_new (FALSE, FALSE, sizeof (guint));
  /* s->findings is ranked: the best-ranked finding claims its edits
   * first */
  for (i = 0; i < s->findings->len; i++) {
    if (gp_fix_has_patch (g_ptr_array_index (s->findings, i)))
      gp_fix_plan_finding (p, i);
    else
      g_array_append_val (p->unfixable, i);
  }
  return p;
}

const gchar *
gp_fix_plan_get_launch (GpFixPlan * p)
{
  return p->after;
}

guint
gp_fix_plan_get_n_edits (GpFixPlan * p)
{
  return p->edits->len;
}

static void
gp_fix_append_finding (GString * out, GpSession * s, guint fi,
    const gchar * indent)
{
  GpFinding *f = g_ptr_array_index (s->findings, fi);

  g_string_append_printf (out, "%s%s %s: %s\n", indent, f->rule, f->severity,
      f->title);
}

gchar *
gp_fix_plan_format (GpFixPlan * p)
{
  GString *out = g_string_new (NULL);
  guint i, j;

  if (p->edits->len == 0) {
    g_string_append (out, p->skips->len > 0 ?
        "No launch-string edit could be applied; the launch string stays as "
        "it is.\n" :
        "No finding carries a launch-string edit; nothing to change.\n");
  } else {
    gchar *diff = gp_launch_diff (p->before, p->after);

    g_string_append_printf (out, "Patched launch (%u edit%s):\n  %s\n\n",
        p->edits->len, p->edits->len == 1 ? "" : "s", p->after);
    g_string_append_printf (out, "Diff:\n%s\n", diff);
    g_free (diff);
    g_string_append (out, "Edits, and the findings each addresses:\n");
    for (i = 0; i < p->edits->len; i++) {
      GpFixEdit *e = g_ptr_array_index (p->edits, i);
      gchar *d = gp_fix_op_describe (e->op);

      g_string_append_printf (out, "  %u. %s\n", i + 1, d);
      g_free (d);
      for (j = 0; j < e->findings->len; j++)
        gp_fix_append_finding (out, p->s, g_array_index (e->findings, guint, j),
            "       for ");
    }
  }
  if (p->skips->len > 0) {
    g_string_append (out, "\nSkipped:\n");
    for (i = 0; i < p->skips->len; i++) {
      GpFixSkip *sk = &g_array_index (p->skips, GpFixSkip, i);

      gp_fix_append_finding (out, p->s, sk->finding, "  ");
      g_string_append_printf (out, "    %s\n", sk->reason);
    }
  }
  if (p->unfixable->len > 0) {
    g_string_append (out, "\nNo launch-string edit (see the verdict's fix "
        "text):\n");
    for (i = 0; i < p->unfixable->len; i++)
      gp_fix_append_finding (out, p->s, g_array_index (p->unfixable, guint, i),
          "  ");
  }
  return g_string_free (out, FALSE);
}

void
gp_fix_capture_options (GpSession * before, GpCaptureOptions * opts)
{
  guint i;

  /* The duration asked for, not the one measured (that has the EOS drain
   * on top): when gstprof stopped it, the time it asked it to stop; when it
   * ended on its own, until it ends again. */
  if ((g_strcmp0 (before->end, "duration") == 0 ||
          g_strcmp0 (before->end, "interrupt") == 0) && before->stop_s > 0)
    opts->duration_s = round (before->stop_s * 1000.0) / 1000.0;
  else if (g_strcmp0 (before->end, "eos") == 0)
    opts->duration_s = 0;
  else
    opts->duration_s = before->duration_s;
  if (before->window_s > 0)
    opts->window_ms = (guint) (before->window_s * 1000.0 + 0.5);
  for (i = 0; i < before->elem_summaries->len; i++)
    if (((GpElementSummary *) g_ptr_array_index (before->elem_summaries,
                i))->cpu_ms >= 0)
      opts->cpu = TRUE;
}

GpSession *
gp_fix_apply (GpSession * before, const gchar * launch, gboolean progress,
    gboolean * pipeline_failed, GError ** error)
{
  GpCaptureOptions opts;
  GpCaptureEnd end = GP_CAPTURE_END_EOS;
  GpSession *after;

  gp_capture_options_init (&opts);
  gp_fix_capture_options (before, &opts);
  opts.launch = launch;
  opts.progress = progress;
  after = gp_capture_run (&opts, &end, error);
  if (pipeline_failed != NULL)
    *pipeline_failed = after != NULL && end == GP_CAPTURE_END_ERROR;
  return after;
}

