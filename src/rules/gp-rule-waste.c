/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-rule-waste.c: WASTE, frames worked on and then dropped: an element
 * that drops frames (videorate lowering the rate) sits after elements that
 * worked on every frame, so most of that work is thrown away. Moving the
 * dropping element before the work gives the same output for a fraction
 * of the work. Leaky queues drop too; what they drop is QLEAK's.
 *
 * UNUSED, decoded for nobody: a decodebin (uridecodebin, playbin) decodes
 * every stream of the file, and a stream whose pad nothing links (the
 * audio of a video-only pipeline) is decoded and thrown away.
 * Thresholds and reasons: docs/rules.md.
 */
#include "gp-rules-private.h"
#include "core/gp-launch.h"

#include <string.h>

/* Elements that drop frames by design. */
static const gchar *const gp_waste_droppers[] = {
  "videorate", NULL
};

/* The dropping element keeps at most this share of what it gets: below
 * it "most frames" are dropped. */
#define GP_WASTE_MAX_KEPT_PCT 50.0
/* The work on the frames it drops must take at least this share of the
 * run (busy %): less is not worth moving an element for. */
#define GP_WASTE_MIN_BUSY_PCT 10.0
/* Longest chain followed upstream. */
#define GP_WASTE_MAX_HOPS 16

/* Buffers that went through the link into (@into) or out of @element. */
static guint64
gp_waste_buffers (GpSession * s, const gchar * element, gboolean into)
{
  GpLink *l = into ? gp_session_link_into (s, element) :
      gp_session_link_out_of (s, element);
  GpLinkSummary *ls = l ? gp_session_find_link_summary (s, l->id) : NULL;

  return ls ? ls->buffers : 0;
}

/* The elements above @dropper that worked on every frame it got, nearest
 * first: up one-input links, through caps and queues, to the source
 * (left out: it makes the frames, whatever follows). */
static GPtrArray *
gp_waste_workers (GpSession * s, const gchar * dropper, gdouble * busy)
{
  GPtrArray *chain = g_ptr_array_new_with_free_func (g_free);
  gchar *cur = g_strdup (dropper);
  guint hops;

  *busy = 0;
  for (hops = 0; hops < GP_WASTE_MAX_HOPS; hops++) {
    GpLink *in = gp_session_link_into (s, cur);
    gchar *prev = in ? gp_pad_element (in->src) : NULL;
    GpElement *pe = prev ? gp_session_find_element (s, prev) : NULL;
    GpElementSummary *es;
    gdouble b;

    if (pe == NULL || gp_session_link_into (s, prev) == NULL ||
        g_strcmp0 (pe->kind, "source") == 0) {
      g_free (prev);
      break;
    }
    g_free (cur);
    cur = prev;
    if (g_strcmp0 (pe->factory, "capsfilter") == 0 ||
        gp_session_is_queue (s, prev))
      continue;
    /* inside a bin the user did not write: the frames came from there */
    if (!gp_session_is_users (s, prev))
      break;
    es = gp_session_find_elem_summary (s, prev);
    b = es ? gp_session_work_busy_pct (s, es) : -1;
    if (b > 0)
      *busy += b;
    g_ptr_array_add (chain, g_strdup (prev));
  }
  g_free (cur);
  return chain;
}

/* The launch string's own properties of @element, as insert props. */
static void
gp_waste_copy_props (GpSession * s, const gchar * element, GpLaunchOp * to)
{
  const GpLaunch *l = gp_session_parsed_launch (s);
  gchar *ln = gp_session_launch_name (s, element);
  JsonObject *props;
  GList *keys, *k;

  if (l && ln) {
    props = gp_launch_element_props (l, gp_launch_find_element (l, ln));
    keys = json_object_get_members (props);
    for (k = keys; k; k = k->next)
      gp_launch_op_add_prop_string (to, k->data,
          json_object_get_string_member (props, k->data));
    g_list_free (keys);
    json_object_unref (props);
  }
  g_free (ln);
}

/* The caps that set the dropper's rate, as they must read before the
 * first worker @first: in the media there (a snapshot's
 * "image/jpeg,framerate=1/1" after an encoder is "video/x-raw,
 * framerate=1/1" before it), the rate alone. */
static gchar *
gp_waste_caps_before (GpSession * s, const gchar * caps, const gchar * first)
{
  GpLink *in = gp_session_link_into (s, first);
  gchar *there = in ? gp_caps_media_type (in->caps) : NULL;
  gchar *here = gp_caps_media_type (caps);
  gchar *rate = gp_caps_field (caps, "framerate"), *out;

  if (there == NULL || here == NULL || g_str_equal (there, here) ||
      rate == NULL)
    out = g_strdup (caps);
  else
    out = g_strdup_printf ("%s,framerate=%s", there, rate);
  g_free (there);
  g_free (here);
  g_free (rate);
  return out;
}

/* The move: the dropper and the caps after it go before the first worker
 * (@last, the worker next to the dropper, keeps caps in another media
 * where they were); NULL when the launch string does not name them. */
static GPtrArray *
gp_waste_patch (GpSession * s, GpElement * d, const gchar * first,
    const gchar * last)
{
  gchar *dn = gp_session_launch_name (s, d->name);
  gchar *fn = gp_session_launch_name (s, first);
  gchar *ln = gp_session_launch_name (s, last);
  gchar *caps = gp_session_launch_caps_beside (s, d->name, FALSE, NULL);
  GPtrArray *patch = NULL;

  if (dn && fn) {
    patch = gp_launch_patch_new ();
    /* the caps that set the dropper's rate move with it; caps that say
     * more (a size, a format) belong where they are: no edit then */
    if (caps && (strstr (caps, "width") || strstr (caps, "height") ||
            strstr (caps, "format"))) {
      g_clear_pointer (&patch, g_ptr_array_unref);
    } else {
      GpLaunchOp *insert = gp_launch_op_insert (GP_LAUNCH_AT_BEFORE, fn,
          d->factory);

      g_ptr_array_add (patch, gp_launch_op_remove (dn));
      gp_waste_copy_props (s, d->name, insert);
      g_ptr_array_add (patch, insert);
      if (caps) {
        gchar *before = gp_waste_caps_before (s, caps, first);

        g_ptr_array_add (patch, gp_launch_op_caps (GP_LAUNCH_AT_BEFORE, fn,
                before));
        /* a snapshot's JPEG caps stay after the encoder: the stream out is
         * the same */
        if (strcmp (before, caps) != 0 && ln)
          g_ptr_array_add (patch, gp_launch_op_caps (GP_LAUNCH_AT_AFTER, ln,
                  caps));
        g_free (before);
      }
    }
  }
  g_free (caps);
  g_free (dn);
  g_free (fn);
  g_free (ln);
  return patch;
}

static void
gp_waste_check (GpSession * s, const GpRule * rule, GpElement * d)
{
  guint64 in = gp_waste_buffers (s, d->name, TRUE);
  guint64 out = gp_waste_buffers (s, d->name, FALSE);
  gdouble kept_pct, busy, wasted;
  GPtrArray *workers;
  GString *names;
  const gchar *first;
  GpFinding *f;
  gchar *title;
  guint i;

  if (in == 0 || out > in)
    return;
  kept_pct = out * 100.0 / in;
  if (kept_pct > GP_WASTE_MAX_KEPT_PCT)
    return;
  workers = gp_waste_workers (s, d->name, &busy);
  wasted = busy * (1.0 - kept_pct / 100.0);
  if (workers->len == 0 || wasted < GP_WASTE_MIN_BUSY_PCT) {
    g_ptr_array_unref (workers);
    return;
  }
  names = g_string_new (NULL);
  for (i = workers->len; i > 0; i--)
    g_string_append_printf (names, "%s%s", names->len ? ", " : "",
        (const gchar *) g_ptr_array_index (workers, i - 1));
  first = g_ptr_array_index (workers, workers->len - 1);

  title = g_strdup_printf ("%s drops %.0f%% of the frames %s worked on",
      d->name, 100.0 - kept_pct, names->str);
  f = gp_rule_add_finding (s, rule, GP_SEVERITY_MEDIUM, title);
  g_free (title);
  gp_finding_add_target (f, d->name);
  for (i = 0; i < workers->len; i++)
    gp_finding_add_target (f, g_ptr_array_index (workers, i));
  gp_finding_set_string (f, "dropper", d->name);
  gp_finding_set_int (f, "buffers_in", (gint64) in);
  gp_finding_set_int (f, "buffers_out", (gint64) out);
  gp_finding_set_double (f, "kept_pct", kept_pct);
  gp_finding_set_string (f, "workers", names->str);
  gp_finding_set_double (f, "workers_busy_pct", busy);
  gp_finding_set_double (f, "wasted_busy_pct", wasted);
  f->rank_value = MIN (100.0, wasted);

  g_free (f->why);
  f->why = g_strdup_printf ("%s gets %" G_GUINT64_FORMAT " frames and "
      "passes on %" G_GUINT64_FORMAT ": the work %s did on the other %"
      G_GUINT64_FORMAT " (about %.0f%% of the run) bought nothing.",
      d->name, in, out, names->str, in - out, wasted);
  g_free (f->fix);
  f->fix = g_strdup_printf ("Move %s (with the caps that set its rate) "
      "before %s: the same frames come out, and only those are worked on.",
      d->name, first);
  gp_rules_attach_patch (s, f, gp_waste_patch (s, d, first,
          g_ptr_array_index (workers, 0)));
  g_string_free (names, TRUE);
  g_ptr_array_unref (workers);
}

void
gp_rule_waste (GpSession * s, const GpRule * rule)
{
  guint i;

  for (i = 0; s->elements && i < s->elements->len; i++) {
    GpElement *e = g_ptr_array_index (s->elements, i);

    if (!e->is_bin && e->factory &&
        g_strv_contains (gp_waste_droppers, e->factory))
      gp_waste_check (s, rule, e);
  }
}

/* The bin the user wrote that @name sits in (the outermost autoplugging
 * one), or NULL. */
static GpElement *
gp_unused_users_bin (GpSession * s, const gchar * name)
{
  GpElement *e = gp_session_find_element (s, name), *bin = NULL;
  guint depth;

  for (depth = 0; e && depth < 64; depth++) {
    if (e->is_bin && gp_session_in_autoplug_bin (s, e->name) &&
        gp_session_is_users (s, e->name))
      bin = e;
    e = e->parent && *e->parent ? gp_session_find_element (s, e->parent) :
        NULL;
  }
  return bin;
}

void
gp_rule_unused (GpSession * s, const GpRule * rule)
{
  gdouble total = gp_session_total_work_ms (s);
  guint i;

  for (i = 0; s->elements && i < s->elements->len; i++) {
    GpElement *e = g_ptr_array_index (s->elements, i);
    GpElementSummary *es = gp_session_find_elem_summary (s, e->name);
    GpElement *bin;
    gdouble w;
    GpFinding *f;
    gchar *title;

    /* a decoder a bin made, that decoded, whose output goes nowhere */
    if (e->is_bin || e->factory == NULL || strstr (e->factory, "dec") ==
        NULL || es == NULL || es->buffers == 0 ||
        !gp_session_in_autoplug_bin (s, e->name) ||
        gp_session_link_out_of (s, e->name) != NULL ||
        (bin = gp_unused_users_bin (s, e->name)) == NULL)
      continue;
    w = gp_session_work_ms (s, es);
    title = g_strdup_printf ("%s decodes a stream nobody takes: %s, %"
        G_GUINT64_FORMAT " buffers", bin->name, e->name, es->buffers);
    f = gp_rule_add_finding (s, rule, GP_SEVERITY_MEDIUM, title);
    g_free (title);
    gp_finding_add_target (f, bin->name);
    gp_finding_add_target (f, e->name);
    gp_finding_set_string (f, "bin", bin->name);
    gp_finding_set_string (f, "decoder", e->name);
    gp_finding_set_string (f, "factory", e->factory);
    gp_finding_set_int (f, "buffers", (gint64) es->buffers);
    if (w >= 0 && total > 0) {
      gp_finding_set_double (f, "work_share_pct", w / total * 100.0);
      f->rank_value = MIN (100.0, w / total * 100.0);
    }
    g_free (f->why);
    f->why = g_strdup_printf ("%s decodes every stream it finds and "
        "offers each on a pad; nothing is linked to the one %s decodes, so "
        "its work is thrown away (and its buffers wait in %s's queues).",
        bin->name, e->name, bin->name);
    g_free (f->fix);
    f->fix = g_strdup_printf ("Decode only what is used: demux and decode "
        "the stream you link (`filesrc ! qtdemux name=d d.video_0 ! queue ! "
        "decodebin ! ...`, with the demuxer of your container). Neither "
        "caps=video/x-raw on %s nor playbin's flags=video stops it: both "
        "still decode the other streams (measured on GStreamer 1.22).",
        bin->name);
  }
}
