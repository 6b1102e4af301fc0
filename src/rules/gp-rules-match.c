/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-rules-match.c: which finding of one run is which of another (see
 * gp_rules_finding_key () in gp-rules.h), from the evidence keys the rules
 * set: CPU's "thread", the "kind" of CAPS and STALL, QFULL's "state",
 * BUDGET's "achieved_fps".
 */
#include "gp-rules.h"

/* What @f is about: its first target; for CPU, which targets every element
 * a thread ran (a list that may differ between runs), the thread. NULL
 * when it names nothing. */
static const gchar *
gp_rules_match_about (const GpFinding * f)
{
  if (g_strcmp0 (f->rule, "CPU") == 0 && f->evidence &&
      json_object_has_member (f->evidence, "thread"))
    return json_object_get_string_member (f->evidence, "thread");
  return f->targets && f->targets->len > 0 ?
      g_ptr_array_index (f->targets, 0) : NULL;
}

/* Which of the things a rule can say of one target @f says (BUDGET: a
 * rate below its target, a latency above the frame period; QFULL: full or
 * empty; CAPS and STALL: their kind), "" when the rule says only one. */
static const gchar *
gp_rules_match_what (const GpFinding * f)
{
  if (f->evidence == NULL)
    return "";
  if (json_object_has_member (f->evidence, "kind"))
    return json_object_get_string_member (f->evidence, "kind");
  if (json_object_has_member (f->evidence, "state"))
    return json_object_get_string_member (f->evidence, "state");
  return json_object_has_member (f->evidence, "achieved_fps") ? "rate" : "";
}

gchar *
gp_rules_finding_key (GpSession * s, const GpFinding * f)
{
  const gchar *about = gp_rules_match_about (f);
  gchar *id = about ? gp_session_target_identity (s, about) : g_strdup ("");
  gchar *k = g_strdup_printf ("%s\t%s\t%s", f->rule, id,
      gp_rules_match_what (f));

  g_free (id);
  return k;
}
