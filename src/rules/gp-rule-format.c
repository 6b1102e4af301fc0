/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-rule-format.c: FORMAT, a raw format that negotiation picked by
 * default, heavier than anything upstream needs.
 *
 * Negotiation gives an encoder the first format of its own list that
 * upstream can make. A converter, or a source that draws any format
 * (videotestsrc), can make all of them, so x264enc gets its first
 * choice: Y444_10LE, 10-bit 4:4:4 (the High 4:4:4 profile most decoders
 * reject), and the source, the scaler and the encoder all work on frames
 * three times the size of I420's. Reported when an encoder works on a
 * high-bit-depth or 4:4:4 format that no caps of the user's asked for and
 * that the content does not carry (a converter or a drawing source made
 * it); silent when the user pinned the format, and when a decoder or a
 * camera delivered it (converting down would lose what the content has).
 * Thresholds and reasons: docs/rules.md.
 */
#include "gp-rules-private.h"

#include <stdlib.h>
#include <string.h>

/* Longest chain followed upstream from the encoder. */
#define GP_FORMAT_MAX_HOPS 32
/* What to pin: the 8-bit 4:2:0 format every such encoder takes and every
 * decoder plays. */
#define GP_FORMAT_PIN "I420"

/* Software video encoders whose sink caps offer high-bit-depth or 4:4:4
 * formats ahead of 8-bit 4:2:0. */
static const gchar *const gp_format_encoders[] = {
  "x264enc", "x265enc", "vp9enc", "av1enc", "svtav1enc", "rav1enc",
  "openh264enc", "avenc_ffv1", NULL
};

/* Sources that draw whatever format downstream asks for. */
static const gchar *const gp_format_drawing_sources[] = {
  "videotestsrc", "gltestsrc", NULL
};

/* Suffixes and prefixes of raw formats above 8 bits or with full chroma. */
static const gchar *const gp_format_deep[] = {
  "_10LE", "_10BE", "_12LE", "_12BE", "_16LE", "_16BE", NULL
};

static const gchar *const gp_format_444[] = {
  "Y444", "GBR", "AYUV", "VUYA", "v308", "IYU2", "Y410", "Y412", NULL
};

/* 0 for a plain format; else its bit depth (8 for 8-bit 4:4:4). */
static gint
gp_format_depth (const gchar * format, gboolean * full_chroma)
{
  guint i;
  gint depth = 8;

  *full_chroma = FALSE;
  if (format == NULL)
    return 0;
  for (i = 0; gp_format_deep[i]; i++)
    if (g_str_has_suffix (format, gp_format_deep[i]))
      depth = atoi (gp_format_deep[i] + 1);
  if (g_str_has_prefix (format, "P010") || g_str_has_prefix (format, "v210")
      || g_str_has_prefix (format, "Y210") || g_str_has_prefix (format,
          "Y410"))
    depth = 10;
  if (g_str_has_prefix (format, "P012") || g_str_has_prefix (format, "Y212")
      || g_str_has_prefix (format, "Y412"))
    depth = 12;
  for (i = 0; gp_format_444[i]; i++)
    if (g_str_has_prefix (format, gp_format_444[i]))
      *full_chroma = TRUE;
  return depth > 8 || *full_chroma ? depth : 0;
}

typedef struct
{
  gchar *origin;                /* where the frames start */
  gchar *origin_format;         /* what it gave */
  gchar *pinned_by;             /* a capsfilter of the user's with format */
  gchar *made_by;               /* the converter that made the format */
  GPtrArray *chain;             /* elements from the origin to the encoder */
} GpFormatTrace;

static void
gp_format_trace_clear (GpFormatTrace * t)
{
  g_free (t->origin);
  g_free (t->origin_format);
  g_free (t->pinned_by);
  g_free (t->made_by);
  g_ptr_array_unref (t->chain);
}

/* Follows the frames up from @enc through one-input elements to where
 * they start. */
static void
gp_format_trace (GpSession * s, const gchar * enc, GpFormatTrace * t)
{
  gchar *cur = g_strdup (enc);
  guint hops;

  memset (t, 0, sizeof (*t));
  t->chain = g_ptr_array_new_with_free_func (g_free);
  for (hops = 0; hops < GP_FORMAT_MAX_HOPS; hops++) {
    GpLink *in = gp_session_link_into (s, cur);
    gchar *prev;
    GpElement *pe;

    if (in == NULL)
      break;
    prev = gp_pad_element (in->src);
    pe = gp_session_find_element (s, prev);
    g_ptr_array_insert (t->chain, 0, g_strdup (prev));
    g_free (t->origin);
    g_free (t->origin_format);
    t->origin = g_strdup (prev);
    t->origin_format = gp_caps_format (in->caps);
    if (pe && g_strcmp0 (pe->factory, "capsfilter") == 0 && !t->pinned_by) {
      const gchar *caps = gp_element_get_prop_string (pe, "caps");

      if (caps && strstr (caps, "format="))
        t->pinned_by = g_strdup (prev);
    }
    /* a converter that changed the format made it; one in passthrough
     * handed on what came to it */
    if (pe && (gp_factory_is_sw_converter (pe->factory) ||
            gp_rules_is_device_converter (pe->factory)) && !t->made_by) {
      GpLink *pin = gp_session_link_into (s, prev);
      gchar *fin = pin ? gp_caps_format (pin->caps) : NULL;

      if (fin == NULL || g_strcmp0 (fin, t->origin_format) != 0)
        t->made_by = g_strdup (prev);
      g_free (fin);
    }
    g_free (cur);
    cur = prev;
    /* a converter makes any format: whatever is above it did not choose */
    if (t->made_by)
      break;
  }
  g_free (cur);
}

static void
gp_format_check (GpSession * s, const GpRule * rule, GpElement * enc)
{
  GpLink *in = gp_session_link_into (s, enc->name);
  gchar *format = in ? gp_caps_format (in->caps) : NULL;
  gboolean full, drawn;
  gint depth = gp_format_depth (format, &full);
  GpFormatTrace t;
  GpElement *oe;
  GpFinding *f;
  GString *what;
  gchar *title, *ln;
  gdouble work = 0, total;
  guint i;

  if (depth == 0) {
    g_free (format);
    return;
  }
  gp_format_trace (s, enc->name, &t);
  oe = t.origin ? gp_session_find_element (s, t.origin) : NULL;
  drawn = oe && oe->factory && g_strv_contains (gp_format_drawing_sources,
      oe->factory);
  /* the user asked for it, or the content has it */
  if (t.pinned_by || (!t.made_by && !drawn)) {
    gp_format_trace_clear (&t);
    g_free (format);
    return;
  }

  what = g_string_new (NULL);
  if (depth > 8)
    g_string_append_printf (what, "%d-bit", depth);
  if (full)
    g_string_append_printf (what, "%s4:4:4", depth > 8 ? " " : "8-bit ");
  title = g_strdup_printf ("%s encodes %s (%s) that nothing asked for: "
      "pin %s before it", enc->name, format, what->str, GP_FORMAT_PIN);
  f = gp_rule_add_finding (s, rule, GP_SEVERITY_MEDIUM, title);
  g_free (title);
  gp_finding_add_target (f, enc->name);
  gp_finding_set_string (f, "encoder", enc->name);
  gp_finding_set_string (f, "format", format);
  gp_finding_set_int (f, "bit_depth", depth);
  gp_finding_set_string (f, "chroma", full ? "4:4:4" : "subsampled");
  gp_finding_set_string (f, "made_by", t.made_by ? t.made_by : t.origin);
  if (t.origin_format && !t.made_by)
    gp_finding_set_string (f, "origin_format", t.origin_format);
  gp_finding_set_string (f, "pinned_by", "none");
  /* the work done on frames of that format: the encoder and what made
   * them on the way */
  total = gp_session_total_work_ms (s);
  for (i = 0; i <= t.chain->len; i++) {
    const gchar *n = i < t.chain->len ? g_ptr_array_index (t.chain, i) :
        enc->name;
    GpElementSummary *es = gp_session_find_elem_summary (s, n);
    gdouble w = es ? gp_session_work_ms (s, es) : -1;

    if (w > 0)
      work += w;
  }
  if (total > 0) {
    gp_finding_set_double (f, "work_share_pct", work / total * 100.0);
    f->rank_value = MIN (100.0, work / total * 100.0);
  }

  g_free (f->why);
  f->why = g_strdup_printf ("Nothing in the launch string asks for a "
      "format, so negotiation gave %s the first one of its own list that "
      "%s can make: %s. That is %s: frames larger than %s's (twice the "
      "bytes per sample%s), so %s and everything before it on the way do "
      "more work per frame, and the stream needs a decoder with the %s "
      "profile, which most players and hardware decoders lack.", enc->name,
      t.made_by ? t.made_by : t.origin, format, what->str, GP_FORMAT_PIN,
      full ? ", twice the chroma samples" : "", enc->name,
      full || depth > 8 ? "High 4:4:4 / 10-bit" : "high");
  g_free (f->fix);
  f->fix = g_strdup_printf ("Pin the format right before %s: `... ! "
      "video/x-raw,format=%s ! %s` (keep %s only if the output must carry "
      "that depth or chroma).", enc->name, GP_FORMAT_PIN, enc->name,
      format);
  ln = gp_session_launch_name (s, enc->name);
  if (ln) {
    GPtrArray *patch = gp_launch_patch_new ();
    gchar *caps_name = NULL;
    gchar *mine = gp_session_launch_caps_beside (s, enc->name, TRUE,
        &caps_name);
    gchar *caps;

    /* the user's caps right before the encoder get the format added;
     * otherwise caps of its own go there */
    if (mine && caps_name) {
      caps = g_strdup_printf ("%s,format=%s", mine, GP_FORMAT_PIN);
      g_ptr_array_add (patch, gp_launch_op_caps (GP_LAUNCH_AT_TARGET,
          caps_name, caps));
    } else {
      caps = g_strdup_printf ("video/x-raw,format=%s", GP_FORMAT_PIN);
      g_ptr_array_add (patch, gp_launch_op_caps (GP_LAUNCH_AT_BEFORE, ln,
          caps));
    }
    gp_rules_attach_patch (s, f, patch);
    g_free (caps);
    g_free (mine);
    g_free (caps_name);
  }
  g_free (ln);
  g_string_free (what, TRUE);
  gp_format_trace_clear (&t);
  g_free (format);
}

void
gp_rule_format (GpSession * s, const GpRule * rule)
{
  guint i;

  for (i = 0; s->elements && i < s->elements->len; i++) {
    GpElement *e = g_ptr_array_index (s->elements, i);

    if (!e->is_bin && e->factory &&
        g_strv_contains (gp_format_encoders, e->factory))
      gp_format_check (s, rule, e);
  }
}
