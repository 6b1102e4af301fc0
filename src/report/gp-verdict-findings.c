/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-verdict-findings.c: the verdict's findings part, from
 * GP_VERDICT_FINDINGS_HEADING on: each finding ranked, with its
 * severity, evidence (units from the members' names), why, fix and
 * where it was verified; or the rules that ran when none found anything.
 */
#include "gp-verdict-private.h"
#include "rules/gp-rules.h"

#include <math.h>
#include <string.h>

static gboolean
gp_verdict_findings_strip_suffix (const gchar * key, const gchar * suffix,
    gchar ** label)
{
  if (!g_str_has_suffix (key, suffix))
    return FALSE;
  *label = g_strndup (key, strlen (key) - strlen (suffix));
  return TRUE;
}

/* One evidence member as "label value unit": the unit comes from the name's
 * suffix (see gp-rules.h), so new rules need nothing here. */
gchar *
gp_verdict_evidence_item (const gchar * key, JsonNode * node)
{
  gchar *label = NULL, *value, *item;
  gchar b[32];
  const gchar *unit = "";
  GType vtype;

  if (gp_verdict_findings_strip_suffix (key, "_ms", &label))
    unit = " ms";
  else if (gp_verdict_findings_strip_suffix (key, "_pct", &label))
    unit = "%";
  else if (gp_verdict_findings_strip_suffix (key, "_fps", &label))
    unit = " fps";
  else if (gp_verdict_findings_strip_suffix (key, "_s", &label))
    unit = " s";
  else if (gp_verdict_findings_strip_suffix (key, "_x", &label))
    unit = "x";
  else if (gp_verdict_findings_strip_suffix (key, "_mhz", &label))
    unit = " MHz";
  else if (gp_verdict_findings_strip_suffix (key, "_mbps", &label))
    unit = " Mbit/s";
  else if (gp_verdict_findings_strip_suffix (key, "_c", &label))
    unit = " C";
  else if (gp_verdict_findings_strip_suffix (key, "_w", &label))
    unit = " W";
  else
    label = g_strdup (key);
  g_strdelimit (label, "_", ' ');

  if (JSON_NODE_HOLDS_NULL (node)) {
    value = g_strdup ("not measured");
    unit = "";
  } else if (JSON_NODE_HOLDS_VALUE (node)) {
    vtype = json_node_get_value_type (node);
    if (vtype == G_TYPE_STRING)
      value = g_strdup (json_node_get_string (node));
    else if (vtype == G_TYPE_BOOLEAN)
      value = g_strdup (json_node_get_boolean (node) ? "yes" : "no");
    else {
      gdouble v = json_node_get_double (node);

      if (v < 0 && *unit) {
        value = g_strdup ("not measured");
        unit = "";
      } else if (g_str_equal (unit, " ms"))
        value = g_strdup (gp_verdict_ms (b, v));
      else if (g_str_equal (unit, "%")) {
        value = g_strdup (gp_verdict_pct (b, v));
        unit = "";
      } else if (g_str_equal (unit, " MHz"))
        value = g_strdup_printf ("%.0f", v);
      else if (g_str_equal (unit, " Mbit/s"))
        value = g_strdup_printf ("%.2f", v);
      else if (*unit)
        value = g_strdup_printf ("%.1f", v);
      else if (v == floor (v) && fabs (v) < 1e15)
        value = g_strdup_printf ("%.0f", v);
      else
        value = g_strdup_printf ("%.3g", v);
    }
  } else {
    value = json_to_string (node, FALSE);
  }
  item = g_strdup_printf ("%s %s%s", label, value, unit);
  g_free (label);
  g_free (value);
  return item;
}

static void
gp_verdict_findings_one (GpVerdictText * vt, guint rank, GpFinding * f)
{
  const gchar *style;
  gchar *head, *sev;

  switch (gp_severity_weight (f->severity)) {
    case 3:
      style = GP_VERDICT_STYLE_RED GP_VERDICT_STYLE_BOLD;
      break;
    case 2:
      style = GP_VERDICT_STYLE_YELLOW GP_VERDICT_STYLE_BOLD;
      break;
    default:
      style = GP_VERDICT_STYLE_CYAN;
      break;
  }
  head = g_strdup_printf ("%2u. ", rank);
  g_string_append (vt->out, head);
  sev = g_strdup_printf ("[%s]", f->severity ? f->severity : "?");
  gp_verdict_styled (vt, style, sev);
  /* The title wraps under itself; the prefix is measured without colour
   * codes so the layout is the same with and without them. */
  {
    GString *tmp = g_string_new (NULL);
    gchar *title = g_strdup_printf ("%s: %s", f->rule ? f->rule : "?",
        f->title ? f->title : "");
    gchar *plain_prefix = g_strdup_printf ("%s%s ", head, sev);
    gchar *indent = g_strnfill (strlen (head) + 1, ' ');

    gp_verdict_wrap (tmp, plain_prefix, indent, title);
    g_string_append (vt->out, tmp->str + strlen (plain_prefix) - 1);
    g_string_free (tmp, TRUE);
    g_free (title);
    g_free (plain_prefix);
    g_free (indent);
  }
  g_free (head);
  g_free (sev);

  if (f->evidence && json_object_get_size (f->evidence) > 0) {
    GList *members = json_object_get_members (f->evidence), *l;
    GString *ev = g_string_new (NULL);

    for (l = members; l; l = l->next) {
      gchar *item = gp_verdict_evidence_item (l->data,
          json_object_get_member (f->evidence, l->data));

      g_string_append_printf (ev, "%s%s", ev->len ? ", " : "", item);
      g_free (item);
    }
    gp_verdict_wrap (vt->out, "    evidence: ", "      ", ev->str);
    g_string_free (ev, TRUE);
    g_list_free (members);
  }
  if (f->why && *f->why)
    gp_verdict_wrap (vt->out, "    why: ", "      ", f->why);
  if (f->fix && *f->fix)
    gp_verdict_wrap (vt->out, "    fix: ", "      ", f->fix);
  if (f->verified_on && *f->verified_on) {
    gchar *v = g_strdup_printf ("verified on %s", f->verified_on);

    gp_verdict_wrap (vt->out, "    ", "      ", v);
    g_free (v);
  } else if (f->heuristic)
    g_string_append (vt->out, "    heuristic: not yet verified on a bench "
        "pair\n");
}

static void
gp_verdict_findings_section (GpVerdictText * vt, GpSession * s)
{
  guint i, n = s->findings ? s->findings->len : 0;
  gchar *head;

  if (n == 0) {
    const GpRule *rules;
    guint n_rules, j;
    GString *ids = g_string_new (NULL);

    rules = gp_rules_get (&n_rules);
    for (j = 0; j < n_rules; j++)
      g_string_append_printf (ids, "%s%s", j ? ", " : "", rules[j].id);
    gp_verdict_styled (vt, GP_VERDICT_STYLE_BOLD, GP_VERDICT_FINDINGS_HEADING);
    g_string_append (vt->out, ": none\n");
    gp_verdict_wrap (vt->out, "  rules run: ", "    ", ids->str);
    g_string_free (ids, TRUE);
    return;
  }
  head = g_strdup_printf ("%s (%u), strongest first",
      GP_VERDICT_FINDINGS_HEADING, n);
  gp_verdict_styled (vt, GP_VERDICT_STYLE_BOLD, head);
  g_string_append_c (vt->out, '\n');
  g_free (head);
  for (i = 0; i < n; i++)
    gp_verdict_findings_one (vt, i + 1, g_ptr_array_index (s->findings, i));
}

gchar *
gp_verdict_format_findings (GpSession * s, GpVerdictFlags flags)
{
  GpVerdictText vt = { g_string_new (NULL), (flags & GP_VERDICT_COLOR) != 0,
      FALSE };

  g_return_val_if_fail (s != NULL, NULL);
  gp_verdict_findings_section (&vt, s);
  return g_string_free (vt.out, FALSE);
}
