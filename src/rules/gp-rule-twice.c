/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-rule-twice.c: TWICE, the same work done more than once in one
 * process: sources of the same kind with the same settings, each feeding
 * the same chain of elements with the same settings (three RTSP media that
 * are not shared, each capturing and encoding the same camera; a preview
 * and a recording that each decode the same file).  One chain and a tee
 * do it once.  The saving is the work of the copies, measured here.
 * Thresholds and reasons: docs/rules.md.
 */
#include "gp-rules-private.h"

#include <string.h>

/* A chain is worth a finding from this many elements after its source
 * (a source and its sink alone repeat no work). */
#define GP_TWICE_MIN_CHAIN 1
/* ... and when the copies' work is at least this share (%) of all the
 * work measured. */
#define GP_TWICE_MIN_SHARE_PCT 10.0

/* Sources whose data an application or another pipeline gives them. */
static const gchar *const gp_twice_fed_sources[] = {
  "appsrc", "intervideosrc", "interaudiosrc", "shmsrc", "fdsrc",
  "proxysrc", "unixfdsrc", NULL
};

/* Whether @a and @b have the same settings: every property but their
 * names the same value. */
static gboolean
gp_twice_same_props (GpElement * a, GpElement * b)
{
  GList *members, *m;
  gboolean same;

  if (g_strcmp0 (a->factory, b->factory) != 0)
    return FALSE;
  /* settings not recorded say nothing */
  if (a->props == NULL || b->props == NULL)
    return FALSE;
  if (json_object_get_size (a->props) != json_object_get_size (b->props))
    return FALSE;
  members = json_object_get_members (a->props);
  same = TRUE;
  for (m = members; m && same; m = m->next) {
    const gchar *key = m->data;

    if (g_str_equal (key, "name") || g_str_equal (key, "parent"))
      continue;
    same = json_object_has_member (b->props, key) &&
        json_node_equal (json_object_get_member (a->props, key),
        json_object_get_member (b->props, key));
  }
  g_list_free (members);
  return same;
}

/* The chain after @src: each element its only output leads to, up to and
 * not counting a sink, an element with several outputs or inputs (a tee, a
 * muxer: where chains part or meet). GpElement*, the session's. */
static GPtrArray *
gp_twice_chain (GpSession * s, GpElement * src)
{
  GPtrArray *chain = g_ptr_array_new ();
  GpElement *cur = src;
  guint steps;

  for (steps = 0; steps < 64; steps++) {
    GpLink *out = gp_session_link_out_of (s, cur->name);
    gchar *next_name = out ? gp_pad_element (out->sink) : NULL;
    GpElement *next = next_name ? gp_session_find_element (s, next_name) :
        NULL;

    g_free (next_name);
    if (next == NULL || gp_session_is_sink (s, next->name) ||
        g_strcmp0 (next->kind, "tee") == 0 || g_strcmp0 (next->kind,
            "mux") == 0)
      break;
    g_ptr_array_add (chain, next);
    cur = next;
  }
  return chain;
}

static gboolean
gp_twice_same_chain (GPtrArray * a, GPtrArray * b)
{
  guint i;

  if (a->len != b->len)
    return FALSE;
  for (i = 0; i < a->len; i++)
    if (!gp_twice_same_props (g_ptr_array_index (a, i),
            g_ptr_array_index (b, i)))
      return FALSE;
  return TRUE;
}

/* The working time of @src and its @chain, in ms. */
static gdouble
gp_twice_work_ms (GpSession * s, GpElement * src, GPtrArray * chain)
{
  gdouble sum = 0;
  guint i;

  for (i = 0; i <= chain->len; i++) {
    GpElement *e = i < chain->len ? g_ptr_array_index (chain, i) : src;
    GpElementSummary *es = gp_session_find_elem_summary (s, e->name);
    gdouble w = es ? gp_session_work_ms (s, es) : -1;

    if (w > 0)
      sum += w;
  }
  return sum;
}

void
gp_rule_twice (GpSession * s, const GpRule * rule)
{
  GPtrArray *sources = g_ptr_array_new (), *chains;
  gboolean *done;
  gdouble total = gp_session_total_work_ms (s);
  guint i, j;

  for (i = 0; s->elements && i < s->elements->len; i++) {
    GpElement *e = g_ptr_array_index (s->elements, i);

    /* an application's sources carry what it gives each: their settings
     * do not say it is the same */
    if (g_strcmp0 (e->kind, "source") == 0 && !e->is_bin &&
        !g_strv_contains (gp_twice_fed_sources, e->factory ? e->factory : ""))
      g_ptr_array_add (sources, e);
  }
  chains = g_ptr_array_new_with_free_func ((GDestroyNotify)
      g_ptr_array_unref);
  for (i = 0; i < sources->len; i++)
    g_ptr_array_add (chains, gp_twice_chain (s, g_ptr_array_index (sources,
                i)));
  done = g_new0 (gboolean, sources->len);
  for (i = 0; i < sources->len; i++) {
    GpElement *a = g_ptr_array_index (sources, i);
    GPtrArray *ca = g_ptr_array_index (chains, i);
    GString *names;
    gdouble work, copies_work;
    guint n = 1;
    gchar *title;
    GpFinding *f;

    if (done[i] || ca->len < GP_TWICE_MIN_CHAIN)
      continue;
    names = g_string_new (a->name);
    work = gp_twice_work_ms (s, a, ca);
    copies_work = 0;
    for (j = i + 1; j < sources->len; j++) {
      GpElement *b = g_ptr_array_index (sources, j);
      GPtrArray *cb = g_ptr_array_index (chains, j);

      if (done[j] || !gp_twice_same_props (a, b) ||
          !gp_twice_same_chain (ca, cb))
        continue;
      done[j] = TRUE;
      n++;
      g_string_append_printf (names, ", %s", b->name);
      work += gp_twice_work_ms (s, b, cb);
    }
    if (n < 2 || total <= 0) {
      g_string_free (names, TRUE);
      continue;
    }
    /* one chain does what all do: the others' share of the work goes */
    copies_work = work * (n - 1) / n;
    if (100.0 * copies_work / total < GP_TWICE_MIN_SHARE_PCT) {
      g_string_free (names, TRUE);
      continue;
    }
    title = g_strdup_printf ("the same work done %u times: %s, each with "
        "the same settings, feed the same chain of %u elements", n,
        names->str, ca->len);
    f = gp_rule_add_finding (s, rule, GP_SEVERITY_MEDIUM, title);
    g_free (title);
    for (j = 0; j < sources->len; j++)
      if (j == i || (done[j] && strstr (names->str,
                  ((GpElement *) g_ptr_array_index (sources, j))->name)))
        gp_finding_add_target (f, ((GpElement *) g_ptr_array_index
                (sources, j))->name);
    f->rank_value = MIN (100.0, 100.0 * copies_work / total);
    gp_finding_set_string (f, "sources", names->str);
    gp_finding_set_int (f, "copies", n);
    gp_finding_set_string (f, "chain", ((GpElement *) g_ptr_array_index (ca,
                0))->factory);
    gp_finding_set_int (f, "chain_elements", ca->len);
    gp_finding_set_double (f, "work_ms", work);
    gp_finding_set_double (f, "saving_pct", 100.0 * copies_work / total);
    g_free (f->why);
    f->why = g_strdup_printf ("%s produce the same stream and work it the "
        "same way, %u times over: %.0f%% of all the work measured here is "
        "the copies'.", names->str, n, 100.0 * copies_work / total);
    g_free (f->fix);
    f->fix = g_strdup_printf ("Make it once and share it: one %s and its "
        "chain, then a tee with a queue for each consumer (an RTSP server: "
        "gst_rtsp_media_factory_set_shared (factory, TRUE), so clients share "
        "one media). That saves about %.0f%% of the work.", a->factory,
        100.0 * copies_work / total);
    g_string_free (names, TRUE);
  }
  g_free (done);
  g_ptr_array_unref (chains);
  g_ptr_array_unref (sources);
}
