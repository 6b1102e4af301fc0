/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-rule-sw.c: SW, a software element doing a job a hardware element
 * registered on the capture's machine does, with caps it can take. The
 * knowledge (which hardware does which software element's job, and the
 * caps it takes) is the table in gp-rules-hw.c. Thresholds and their
 * reasons: docs/rules.md.
 */
#include "gp-rules-private.h"

#include <gst/gst.h>

/* An element busy less than this share of the run costs too little for a
 * swap to be worth the trouble (and an element in passthrough costs
 * nothing: that is rule CAPS's case). */
#define GP_SW_MIN_BUSY_PCT 2.0

static gboolean
gp_sw_registered (GpSession * s, const gchar * factory)
{
  guint i;

  for (i = 0; s->hw_elements && i < s->hw_elements->len; i++)
    if (g_strcmp0 (g_ptr_array_index (s->hw_elements, i), factory) == 0)
      return TRUE;
  return FALSE;
}

/* Whether @sw can become @hw on this graph, and how. *remove: the
 * hardware element is already next to it and can do its job too.
 * *why_not: the caps clash when it cannot. */
static gboolean
gp_sw_compatible (GpSession * s, GpElement * e, const GpHwSwap * w,
    gboolean * remove, gchar ** why_not)
{
  GpLink *in = gp_session_link_into (s, e->name);
  GpLink *out = gp_session_link_out_of (s, e->name);
  gchar *fin = in ? gp_caps_format (in->caps) : NULL;
  gchar *fout = out ? gp_caps_format (out->caps) : NULL;
  GpElement *nb_down = gp_session_neighbour (s, e->name, TRUE);
  GpElement *nb_up = gp_session_neighbour (s, e->name, FALSE);
  gboolean ok = TRUE;

  *remove = FALSE;
  /* The raw sides must be formats the hardware element takes or gives;
   * an encoder's output and a decoder's input are bitstreams, not
   * checked. */
  if (fin && in && g_str_has_prefix (in->caps, "video/x-raw") &&
      !gp_rules_hw_format_ok (w->formats, fin)) {
    *why_not = g_strdup_printf ("%s does not take %s", w->hw, fin);
    ok = FALSE;
  } else if (fout && out && g_str_has_prefix (out->caps, "video/x-raw") &&
      !gp_rules_hw_format_ok (w->formats, fout)) {
    *why_not = g_strdup_printf ("%s does not give %s", w->hw, fout);
    ok = FALSE;
  }
  /* A converter right before or after the same hardware converter: that
   * one can do both conversions, this one just goes. */
  if (ok && ((nb_down && g_strcmp0 (nb_down->factory, w->hw) == 0) ||
          (nb_up && g_strcmp0 (nb_up->factory, w->hw) == 0)) &&
      gp_rules_is_device_converter (w->hw))
    *remove = TRUE;
  g_free (fin);
  g_free (fout);
  return ok;
}

static void
gp_sw_report (GpSession * s, const GpRule * rule, GpElement * e,
    GpElementSummary * es, const GpHwSwap * w, gboolean remove)
{
  GpLink *in = gp_session_link_into (s, e->name);
  GpLink *out = gp_session_link_out_of (s, e->name);
  GpFinding *f;
  gchar *title, *name, *fin, *fout;
  gdouble busy = gp_session_work_busy_pct (s, es);
  gdouble total = gp_session_total_work_ms (s);
  gdouble work = gp_session_work_ms (s, es);
  GPtrArray *patch = NULL;
  GString *fix;
  gboolean needs_up = w->sink_memory && (in == NULL ||
      g_strcmp0 (in->memory, w->sink_memory) != 0);
  gboolean needs_down = w->src_memory && (out == NULL ||
      g_strcmp0 (out->memory, w->src_memory) != 0);

  title = g_strdup_printf ("%s (%s) runs in software; %s, registered on the "
      "capture's machine, does this job", e->name, e->factory, w->hw);
  f = gp_rule_add_finding (s, rule, GP_SEVERITY_MEDIUM, title);
  g_free (title);
  gp_finding_add_target (f, e->name);

  gp_finding_set_string (f, "factory", e->factory);
  gp_finding_set_string (f, "hardware", w->hw);
  gp_finding_set_string (f, "platform", w->platform);
  gp_finding_set_formats (f, in, out, &fin, &fout);
  if (es->self_ms.p50 >= 0)
    gp_finding_set_double (f, "self_p50_ms", es->self_ms.p50);
  gp_finding_set_double (f, "busy_pct", busy);
  if (total > 0 && work > 0) {
    gp_finding_set_double (f, "share_pct", work / total * 100.0);
    f->rank_value = work / total * 100.0;
  }
  if (es->cpu_ms >= 0)
    gp_finding_set_double (f, "cpu_ms", es->cpu_ms);

  g_free (f->why);
  f->why = g_strdup_printf ("%s keeps a CPU core busy %.0f%% of the run "
      "for work %s does on dedicated hardware, leaving the CPU free and "
      "usually taking less time per frame.", e->name, busy, w->hw);

  fix = g_string_new (NULL);
  name = gp_session_launch_name (s, e->name);
  if (remove) {
    g_string_append_printf (fix, "Drop %s: the %s next to it takes %s%s%s "
        "and converts it itself.", e->name, w->hw, fin ? fin : "its input",
        fout ? " and gives " : "", fout ? fout : "");
    if (name) {
      patch = gp_launch_patch_new ();
      g_ptr_array_add (patch, gp_launch_op_remove (name));
    }
  } else {
    g_string_append_printf (fix, "Replace %s with %s (its caps: %s%s).",
        e->name, w->hw, w->formats ? w->formats : "the same bitstream",
        w->sink_memory ? ", input in " : "");
    if (w->sink_memory)
      g_string_append (fix, w->sink_memory);
    if (needs_up)
      g_string_append_printf (fix, " %s takes only %s: put the platform's "
          "converter before it (video/x-raw(%s)).", w->hw, w->sink_memory,
          w->sink_memory);
    if (needs_down)
      g_string_append_printf (fix, " %s gives %s: put the platform's "
          "converter after it unless the next element takes %s.", w->hw,
          w->src_memory, w->src_memory);
    /* Only a drop-in swap gets an automatic edit: one that needs a memory
     * converter too depends on what is around it. */
    if (name && !needs_up && !needs_down) {
      patch = gp_launch_patch_new ();
      g_ptr_array_add (patch, gp_launch_op_replace (name, w->hw, FALSE));
    }
  }
  g_free (f->fix);
  f->fix = g_string_free (fix, FALSE);
  if (patch)
    gp_rules_attach_patch (s, f, patch);
  g_free (name);
  g_free (fin);
  g_free (fout);
}

void
gp_rule_sw (GpSession * s, const GpRule * rule)
{
  const GpHwSwap *w;
  guint n, i, j, pass;

  if (s->elements == NULL || s->hw_elements == NULL ||
      s->hw_elements->len == 0)
    return;
  w = gp_rules_hw_swaps (&n);
  for (i = 0; i < s->elements->len; i++) {
    GpElement *e = g_ptr_array_index (s->elements, i);
    GpElementSummary *es;
    gboolean done = FALSE;

    if (e->is_bin || e->factory == NULL ||
        gp_rules_is_hardware_factory (e->factory, NULL))
      continue;
    es = gp_session_find_elem_summary (s, e->name);
    if (es == NULL || gp_session_work_busy_pct (s, es) < GP_SW_MIN_BUSY_PCT)
      continue;
    /* The capture's own platform first, then any other whose hardware
     * element is registered (a dGPU machine with a VA-capable iGPU). */
    for (pass = 0; pass < 2 && !done; pass++) {
      for (j = 0; j < n && !done; j++) {
        gboolean own = g_strcmp0 (w[j].platform, s->platform) == 0;
        gboolean remove;
        gchar *why_not = NULL;

        if ((pass == 0) != own || g_strcmp0 (w[j].sw, e->factory) != 0 ||
            !gp_sw_registered (s, w[j].hw))
          continue;
        if (gp_sw_compatible (s, e, &w[j], &remove, &why_not)) {
          gp_sw_report (s, rule, e, es, &w[j], remove);
          done = TRUE;
        }
        g_free (why_not);
      }
    }
  }
}
