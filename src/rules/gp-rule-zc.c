/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-rule-zc.c: ZC, zero copy broken: a stretch of links in system memory
 * between two links in device memory (NVMM, GLMemory, VAMemory,
 * CUDAMemory, DMABuf, ...). Every frame is copied off the device and back
 * on.
 * Thresholds and their reasons: docs/rules.md.
 */
#include "gp-rules-private.h"
#include "core/gp-launch.h"

#include <string.h>

/* A round trip longer than this many links is not followed: real ones are
 * two to six links (capsfilters included). */
#define GP_ZC_MAX_LINKS 32

/* ZC */

static gboolean
gp_zc_is_raw_system (GpLink * l)
{
  return l->caps && g_str_has_prefix (l->caps, "video/x-raw") &&
      !gp_rules_is_device_memory (l->memory);
}

/* The memory entry to keep @memory's path on the device: the first whose
 * converter the capture's machine has (a hardware converter in
 * graph.hw_elements, any other when the graph already uses that memory's
 * elements). */
static const GpHwMemory *
gp_zc_memory_entry (GpSession * s, const gchar * memory)
{
  const GpHwMemory *m;
  guint n, i, j;

  m = gp_rules_hw_memories (&n);
  for (i = 0; i < n; i++) {
    if (g_strcmp0 (m[i].memory, memory) != 0)
      continue;
    if (gp_rules_is_hardware_factory (m[i].converter, NULL)) {
      for (j = 0; s->hw_elements && j < s->hw_elements->len; j++)
        if (g_strcmp0 (g_ptr_array_index (s->hw_elements, j),
                m[i].converter) == 0)
          return &m[i];
      continue;
    }
    for (j = 0; s->elements && j < s->elements->len; j++) {
      GpElement *e = g_ptr_array_index (s->elements, j);

      if (e->factory && (g_strcmp0 (e->factory, m[i].converter) == 0 ||
              g_strcmp0 (e->factory, m[i].download) == 0 ||
              g_strcmp0 (e->factory, m[i].upload) == 0))
        return &m[i];
    }
  }
  return NULL;
}

/* "video/x-raw(MEMORY),format=F,width=W,height=H" with the fields of
 * @caps that are fixed: what the element after the round trip received,
 * now asked for in device memory. */
static gchar *
gp_zc_device_caps (const gchar * memory, const gchar * caps)
{
  GString *out = g_string_new ("video/x-raw(");
  const gchar *keys[] = { "format", "width", "height" };
  guint i;

  g_string_append_printf (out, "%s)", memory);
  for (i = 0; i < G_N_ELEMENTS (keys); i++) {
    gchar *v = gp_caps_field (caps, keys[i]);

    if (v)
      g_string_append_printf (out, ",%s=%s", keys[i], v);
    g_free (v);
  }
  return g_string_free (out, FALSE);
}

/* Adds a remove op for session element @name, FALSE when the launch
 * string does not name it. */
static gboolean
gp_zc_remove (GpSession * s, GPtrArray * ops, const gchar * name)
{
  gchar *ln = gp_session_launch_name (s, name);

  if (ln == NULL)
    return FALSE;
  g_ptr_array_add (ops, gp_launch_op_remove (ln));
  g_free (ln);
  return TRUE;
}

/* Replaces @name by @factory and asks for @caps after it. */
static gboolean
gp_zc_replace_with_caps (GpSession * s, GPtrArray * ops, const gchar * name,
    const gchar * factory, const gchar * caps)
{
  gchar *ln = gp_session_launch_name (s, name);

  if (ln == NULL)
    return FALSE;
  if (caps)
    g_ptr_array_add (ops, gp_launch_op_caps (GP_LAUNCH_AT_AFTER, ln, caps));
  if (factory)
    g_ptr_array_add (ops, gp_launch_op_replace (ln, factory, FALSE));
  g_free (ln);
  return TRUE;
}

/* The launch-string edit that keeps the stretch on the device:
 * - the element leaving the device is the device's converter (nvvidconv,
 *   vapostproc): it converts straight to what the element after the stretch
 *   takes, in device memory; the software elements in between go;
 * - it is a pure mover (gldownload): it goes, the first software converter
 *   in between becomes the device's converter, the mover back (glupload)
 *   goes;
 * - it is a software converter taking device memory: it becomes the
 *   device's converter.
 * An element in between that does work of its own (videoflip, videobalance,
 * compositor) becomes its device twin with the same properties; when the
 * platform has none, there is no edit and @text says which element keeps
 * the frames in system memory. NULL when no edit is known or the launch
 * string does not name the elements. */
static GPtrArray *
gp_zc_patch (GpSession * s, const GpHwMemory * m, const gchar * down,
    GPtrArray * inner, const gchar * up, const gchar * dev_caps,
    GString * text, gboolean * no_twin)
{
  GpElement *d = gp_session_find_element (s, down);
  GpElement *u = gp_session_find_element (s, up);
  GPtrArray *ops;
  gboolean ok = TRUE, placed = FALSE;
  guint i;

  if (d == NULL || u == NULL || m == NULL)
    return NULL;
  ops = gp_launch_patch_new ();
  if (g_strcmp0 (d->factory, m->converter) == 0 ||
      (gp_rules_is_hardware_factory (d->factory, NULL) &&
          g_strcmp0 (d->factory, m->download) != 0)) {
    ok = gp_zc_replace_with_caps (s, ops, down, NULL, dev_caps);
    g_string_append_printf (text, "let %s output %s", down, dev_caps);
    placed = TRUE;
  } else if (m->download && g_strcmp0 (d->factory, m->download) == 0) {
    ok = gp_zc_remove (s, ops, down);
    g_string_append_printf (text, "drop %s", down);
  } else if (gp_factory_is_sw_converter (d->factory)) {
    ok = gp_zc_replace_with_caps (s, ops, down, m->converter, dev_caps);
    g_string_append_printf (text, "replace %s with %s ! %s", down,
        m->converter, dev_caps);
    placed = TRUE;
  } else {
    ok = FALSE;
  }
  for (i = 0; ok && i < inner->len; i++) {
    const gchar *x = g_ptr_array_index (inner, i);
    GpElement *xe = gp_session_find_element (s, x);
    const gchar *twin = xe ? gp_rules_hw_device_twin (m->memory,
        xe->factory) : NULL;
    gchar *ln;

    if (!placed && xe && gp_factory_is_sw_converter (xe->factory)) {
      ok = gp_zc_replace_with_caps (s, ops, x, m->converter, dev_caps);
      g_string_append_printf (text, ", replace %s with %s ! %s", x,
          m->converter, dev_caps);
      placed = TRUE;
    } else if (xe && gp_factory_is_sw_converter (xe->factory)) {
      ok = gp_zc_remove (s, ops, x);
      g_string_append_printf (text, ", drop %s", x);
    } else if (twin && (ln = gp_session_launch_name (s, x))) {
      g_ptr_array_add (ops, gp_launch_op_replace (ln, twin, TRUE));
      g_string_append_printf (text, ", replace %s with %s (same "
          "properties)", x, twin);
      g_free (ln);
    } else {
      g_string_truncate (text, 0);
      g_string_append_printf (text, "%s (%s) has no counterpart that works "
          "in %s, so the frames must leave it for %s", x, xe && xe->factory ?
          xe->factory : "?", m->memory, x);
      g_ptr_array_unref (ops);
      *no_twin = TRUE;
      return NULL;
    }
  }
  if (ok && m->upload && g_strcmp0 (u->factory, m->upload) == 0) {
    ok = gp_zc_remove (s, ops, up);
    g_string_append_printf (text, ", drop %s", up);
  }
  if (!ok || ops->len == 0) {
    g_ptr_array_unref (ops);
    return NULL;
  }
  return ops;
}

/* TRUE when session element @name is written in the launch string as
 * inline caps ("a ! video/x-raw,... ! b"): removing the element before it
 * removes them too, so they get no op of their own. */
static gboolean
gp_zc_is_inline_caps (GpSession * s, const gchar * name)
{
  const GpLaunch *l = gp_session_parsed_launch (s);
  gchar *ln;
  gint i;
  gboolean is = FALSE;

  if ((ln = gp_session_launch_name (s, name)) == NULL)
    return FALSE;
  if (l) {
    i = gp_launch_find_element (l, ln);
    is = i >= 0 && gp_launch_get_element (l, i)->kind == GP_LAUNCH_CAPS;
  }
  g_free (ln);
  return is;
}

/* The first fix to try: stay on the device. When the stretch only moves
 * and converts (the device's download mover, software converters and caps,
 * the upload mover, nothing that scales or does other work), and the
 * element after it takes the format that left the device, the whole
 * stretch goes, and with it a device converter right after it that only
 * converted back to that format. Replacing the software converter by the
 * device's converter instead (gp_zc_patch) keeps a conversion the path
 * does not need: on Mesa's software GL that costs more CPU than the round
 * trip (bench/pairs/RESULTS.md). NULL when the format change is needed
 * downstream. */
static GPtrArray *
gp_zc_stay_patch (GpSession * s, const GpHwMemory * m, GpLink * dev_in,
    GPtrArray * sys, GpLink * dev_out, GString * text)
{
  GpLink *first = g_ptr_array_index (sys, 0);
  GpLink *last = g_ptr_array_index (sys, sys->len - 1);
  gchar *down = gp_pad_element (first->src);
  gchar *up = gp_pad_element (last->sink);
  gchar *next = gp_pad_element (dev_out->sink);
  GpElement *d = gp_session_find_element (s, down);
  GpElement *u = gp_session_find_element (s, up);
  GpElement *n = gp_session_find_element (s, next);
  gchar *fmt_in = gp_caps_format (dev_in->caps);
  gchar *fmt_out = gp_caps_format (dev_out->caps);
  gchar *fmt_after = NULL;
  GpLink *after = NULL;
  GPtrArray *node = NULL;
  gboolean ok = TRUE, drop_next = FALSE;
  const gchar *keys[] = { "width", "height" };
  guint i;

  if (m == NULL || d == NULL || u == NULL || n == NULL || fmt_in == NULL ||
      m->download == NULL || m->upload == NULL ||
      g_strcmp0 (d->factory, m->download) != 0 ||
      g_strcmp0 (u->factory, m->upload) != 0)
    goto out;
  /* only format conversions in between: converters and caps, and the
   * picture size unchanged through the stretch */
  for (i = 0; ok && i + 1 < sys->len; i++) {
    gchar *x = gp_pad_element (((GpLink *)
            g_ptr_array_index (sys, i))->sink);
    GpElement *xe = gp_session_find_element (s, x);

    ok = xe && (gp_factory_is_sw_converter (xe->factory) ||
        g_strcmp0 (xe->factory, "capsfilter") == 0);
    g_free (x);
  }
  for (i = 0; ok && i < G_N_ELEMENTS (keys); i++) {
    gchar *a = gp_caps_field (dev_in->caps, keys[i]);
    gchar *b = gp_caps_field (dev_out->caps, keys[i]);

    ok = g_strcmp0 (a, b) == 0;
    g_free (a);
    g_free (b);
  }
  if (!ok)
    goto out;
  /* Does the path after the stretch take fmt_in? The device's converter
   * takes any format; an element that received fmt_in already takes it;
   * GL elements take RGBA in GLMemory. */
  if (g_strcmp0 (n->factory, m->converter) == 0) {
    after = gp_session_link_out_of (s, next);
    fmt_after = after ? gp_caps_format (after->caps) : NULL;
    drop_next = after && g_strcmp0 (after->memory, dev_in->memory) == 0 &&
        g_strcmp0 (fmt_after, fmt_in) == 0;
  } else if (g_strcmp0 (fmt_out, fmt_in) != 0 &&
      !(g_strcmp0 (dev_in->memory, "memory:GLMemory") == 0 &&
          g_strcmp0 (fmt_in, "RGBA") == 0 && n->factory &&
          g_str_has_prefix (n->factory, "gl"))) {
    goto out;
  }

  node = gp_launch_patch_new ();
  ok = gp_zc_remove (s, node, down);
  g_string_append_printf (text, "drop %s", down);
  for (i = 0; ok && i + 1 < sys->len; i++) {
    gchar *x = gp_pad_element (((GpLink *)
            g_ptr_array_index (sys, i))->sink);

    /* inline caps go with the element before them */
    if (!gp_zc_is_inline_caps (s, x)) {
      ok = gp_zc_remove (s, node, x);
      g_string_append_printf (text, ", %s", x);
    }
    g_free (x);
  }
  if (ok) {
    ok = gp_zc_remove (s, node, up);
    g_string_append_printf (text, " and %s", up);
  }
  if (ok && drop_next) {
    ok = gp_zc_remove (s, node, next);
    g_string_append_printf (text, ", and %s, which only converted back to "
        "%s", next, fmt_in);
  }
  g_string_append_printf (text, ": frames stay %s in %s", fmt_in,
      dev_in->memory);
  if (!ok) {
    g_clear_pointer (&node, g_ptr_array_unref);
    g_string_truncate (text, 0);
  }

out:
  g_free (fmt_after);
  g_free (fmt_in);
  g_free (fmt_out);
  g_free (next);
  g_free (down);
  g_free (up);
  return node;
}

static gdouble
gp_zc_work (GpSession * s, const gchar * name)
{
  GpElementSummary *es = gp_session_find_elem_summary (s, name);
  gdouble w;

  return es && (w = gp_session_work_ms (s, es)) > 0 ? w : 0;
}

static void
gp_zc_report (GpSession * s, const GpRule * rule, GpLink * dev_in,
    GPtrArray * sys, GpLink * dev_out)
{
  GpLink *first = g_ptr_array_index (sys, 0);
  GpLink *last = g_ptr_array_index (sys, sys->len - 1);
  gchar *down = gp_pad_element (first->src);
  gchar *up = gp_pad_element (last->sink);
  GPtrArray *inner = g_ptr_array_new_with_free_func (g_free);
  const GpHwMemory *m = gp_zc_memory_entry (s, dev_in->memory);
  GpLinkSummary *ls;
  GpFinding *f;
  GString *fix, *what;
  gchar *title, *dev_caps, *fmt;
  gdouble work, total, p50 = 0;
  gboolean p50_known = FALSE, stay, no_twin = FALSE;
  GPtrArray *patch;
  guint i;

  /* The elements strictly inside the stretch, capsfilters left out: the
   * launch string writes those as caps on a link. */
  for (i = 0; i + 1 < sys->len; i++) {
    gchar *x = gp_pad_element (((GpLink *)
            g_ptr_array_index (sys, i))->sink);

    if (gp_session_is_capsfilter (s, x))
      g_free (x);
    else
      g_ptr_array_add (inner, x);
  }

  title = g_strdup_printf ("Zero copy broken between %s and %s: frames "
      "leave %s and come back", down, up, dev_in->memory);
  /* medium once verified (gp-rules.c); only the case the bench pair
   * covers keeps it, see below */
  f = gp_rule_add_finding (s, rule, GP_SEVERITY_MEDIUM, title);
  g_free (title);
  gp_finding_add_target (f, first->id);
  gp_finding_add_target (f, down);
  for (i = 0; i < inner->len; i++)
    gp_finding_add_target (f, g_ptr_array_index (inner, i));
  gp_finding_add_target (f, up);

  gp_finding_set_string (f, "memory_in", dev_in->memory);
  gp_finding_set_string (f, "memory_out", dev_out->memory);
  gp_finding_set_string (f, "leaves_at", down);
  gp_finding_set_string (f, "returns_at", up);
  gp_finding_set_int (f, "system_links", sys->len);
  fmt = gp_caps_format (last->caps);
  if (fmt)
    gp_finding_set_string (f, "system_format", fmt);
  g_free (fmt);
  if ((ls = gp_session_find_link_summary (s, first->id)) &&
      ls->bytes_per_s >= 1e4)
    gp_finding_set_double (f, "copied_out_mbytes_per_sec",
        ls->bytes_per_s / 1e6);
  if ((ls = gp_session_find_link_summary (s, last->id)) &&
      ls->bytes_per_s >= 1e4)
    gp_finding_set_double (f, "copied_in_mbytes_per_sec",
        ls->bytes_per_s / 1e6);

  /* What the round trip costs: the work of the elements that do it. */
  work = gp_zc_work (s, down) + gp_zc_work (s, up);
  for (i = 0; i < inner->len; i++)
    work += gp_zc_work (s, g_ptr_array_index (inner, i));
  for (i = 0; i < sys->len; i++) {
    gchar *x = i == 0 ? g_strdup (down) :
        gp_pad_element (((GpLink *) g_ptr_array_index (sys, i))->src);
    GpElementSummary *es = gp_session_find_elem_summary (s, x);

    if (es && es->self_ms.p50 >= 0) {
      p50 += es->self_ms.p50;
      p50_known = TRUE;
    }
    g_free (x);
  }
  {
    GpElementSummary *es = gp_session_find_elem_summary (s, up);

    if (es && es->self_ms.p50 >= 0) {
      p50 += es->self_ms.p50;
      p50_known = TRUE;
    }
  }
  if (p50_known)
    gp_finding_set_double (f, "round_trip_self_p50_ms", p50);
  total = gp_session_total_work_ms (s);
  if (total > 0) {
    gp_finding_set_double (f, "round_trip_share_pct", work / total * 100.0);
    f->rank_value = work / total * 100.0;
  }

  g_free (f->why);
  f->why = g_strdup_printf ("Every frame is copied out of %s at %s and "
      "back in at %s: two copies across the memory bus per frame, and the "
      "work in between runs on the CPU, where the device would do it "
      "without copying.", dev_in->memory, down, up);

  dev_caps = gp_zc_device_caps (dev_in->memory, last->caps);
  what = g_string_new (NULL);
  patch = gp_zc_stay_patch (s, m, dev_in, sys, dev_out, what);
  stay = patch && gp_rules_attach_patch (s, f, patch);
  if (!stay)
    g_string_truncate (what, 0);
  gp_finding_set_string (f, "fix_strategy", stay ? "stay" : "convert");
  /* bench/pairs/zc.pair verified the GL round trip that the stay fix
   * removes; the convert fix and the other memories have no pair */
  if (!stay || g_strcmp0 (dev_in->memory, "memory:GLMemory") != 0)
    gp_finding_mark_unverified (f);
  if (!stay && (patch = gp_zc_patch (s, m, down, inner, up, dev_caps, what,
              &no_twin)))
    gp_rules_attach_patch (s, f, patch);
  fix = g_string_new (NULL);
  if (stay)
    g_string_append_printf (fix, "Keep the path in %s: %s.", dev_in->memory,
        what->str);
  else if (no_twin)
    g_string_append_printf (fix, "No edit keeps the path in %s: %s. Do that "
        "element's work before %s or after %s, or accept the copies.",
        dev_in->memory, what->str, down, up);
  else if (m && what->len > 0)
    g_string_append_printf (fix, "Keep the path in %s with %s: %s.",
        dev_in->memory, m->converter, what->str);
  else if (m)
    g_string_append_printf (fix, "Keep the path in %s: do the conversion "
        "between %s and %s with %s, asking for %s.", dev_in->memory, down,
        up, m->converter, dev_caps);
  else
    g_string_append_printf (fix, "Keep the path in %s between %s and %s: "
        "negotiate %s caps, or convert with the device's own converter.",
        dev_in->memory, down, up, dev_in->memory);
  g_free (f->fix);
  f->fix = g_string_free (fix, FALSE);

  g_string_free (what, TRUE);
  g_free (dev_caps);
  g_ptr_array_unref (inner);
  g_free (down);
  g_free (up);
}

void
gp_rule_zc (GpSession * s, const GpRule * rule)
{
  GHashTable *seen;
  guint i;

  if (s->links == NULL)
    return;
  seen = g_hash_table_new (NULL, NULL);
  for (i = 0; i < s->links->len; i++) {
    GpLink *l = g_ptr_array_index (s->links, i);
    GpLink *cur, *next, *dev_in = NULL, *dev_out = NULL;
    GPtrArray *sys;
    gchar *e;
    guint n;

    if (g_hash_table_contains (seen, l) || !gp_zc_is_raw_system (l))
      continue;
    sys = g_ptr_array_new ();
    g_ptr_array_add (sys, l);
    g_hash_table_add (seen, l);
    /* upstream, through raw system-memory links, to a device link */
    for (cur = l, n = 0; n < GP_ZC_MAX_LINKS; n++, cur = next) {
      e = gp_pad_element (cur->src);
      next = gp_session_link_into (s, e);
      g_free (e);
      if (next == NULL || g_hash_table_contains (seen, next))
        break;
      if (gp_rules_is_device_memory (next->memory)) {
        dev_in = next;
        break;
      }
      if (!gp_zc_is_raw_system (next))
        break;
      g_ptr_array_insert (sys, 0, next);
      g_hash_table_add (seen, next);
    }
    /* downstream, likewise */
    for (cur = l, n = 0; n < GP_ZC_MAX_LINKS; n++, cur = next) {
      e = gp_pad_element (cur->sink);
      next = gp_session_link_out_of (s, e);
      g_free (e);
      if (next == NULL || g_hash_table_contains (seen, next))
        break;
      if (gp_rules_is_device_memory (next->memory)) {
        dev_out = next;
        break;
      }
      if (!gp_zc_is_raw_system (next))
        break;
      g_ptr_array_add (sys, next);
      g_hash_table_add (seen, next);
    }
    if (dev_in && dev_out)
      gp_zc_report (s, rule, dev_in, sys, dev_out);
    g_ptr_array_unref (sys);
  }
  g_hash_table_unref (seen);
}
