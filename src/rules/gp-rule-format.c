/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-rule-format.c: FORMAT, a raw format that negotiation picked by
 * default, heavier than anything upstream needs.
 *
 * Two kinds of element pay for it: an encoder, and a heavy raw-video
 * element (an overlay, a mixer, deinterlace, an effect, a converter or a
 * scaler) that works on every pixel. Into a sink that takes any caps
 * (fakesink, an appsink without caps) or through a converter,
 * videotestsrc ! textoverlay gets ABGR64_LE, 16 bits a channel: the
 * overlay writes 8 bytes a pixel where I420 has 1.5.
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

/* Raw-video elements that read and write every pixel on the CPU, in the
 * format negotiation gives them. */
static const gchar *const gp_format_heavy[] = {
  "textoverlay", "clockoverlay", "timeoverlay", "cairooverlay",
  "gdkpixbufoverlay", "rsvgoverlay", "overlaycomposition", "compositor",
  "videomixer", "deinterlace", "videobalance", "videoflip", "gamma",
  "videobox", "alpha", "alphacolor", "videomedian", "smooth",
  "coloreffects", "chromahold", "videoconvert", "videoscale",
  "videoconvertscale", NULL
};

typedef enum
{
  GP_FORMAT_420,
  GP_FORMAT_422,
  GP_FORMAT_444,
} GpFormatChroma;

typedef enum
{
  GP_FORMAT_H264,
  GP_FORMAT_HEVC,
  GP_FORMAT_VP9,
  GP_FORMAT_AV1,
} GpFormatCodec;

/* The codec each encoder writes, whose profiles a decoder must have. */
static const struct
{
  const gchar *encoder;
  GpFormatCodec codec;
} gp_format_codecs[] = {
  {"x264enc", GP_FORMAT_H264},
  {"openh264enc", GP_FORMAT_H264},
  {"x265enc", GP_FORMAT_HEVC},
  {"vp9enc", GP_FORMAT_VP9},
  {"av1enc", GP_FORMAT_AV1},
  {"svtav1enc", GP_FORMAT_AV1},
  {"rav1enc", GP_FORMAT_AV1},
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

/* Prefixes of 4:2:2 formats (half the chroma across, all of it down). */
static const gchar *const gp_format_422[] = {
  "I422", "Y42B", "NV16", "NV61", "v210", "Y210", "Y212", "Y216", "P210",
  "P212", "P216", "UYVY", "YUY2", "YVYU", "VYUY", NULL
};

/* 16 bits a channel, four channels: RGBA, or AYUV64. */
static const gchar *const gp_format_64[] = {
  "ARGB64", "ABGR64", "RGBA64", "BGRA64", "AYUV64", NULL
};

/* 0 for a plain format; else its bit depth (8 for 8-bit 4:4:4), and its
 * chroma in *@chroma. */
static gint
gp_format_depth (const gchar * format, GpFormatChroma * chroma)
{
  guint i;
  gint depth = 8;

  *chroma = GP_FORMAT_420;
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
  for (i = 0; gp_format_422[i]; i++)
    if (g_str_has_prefix (format, gp_format_422[i]))
      *chroma = GP_FORMAT_422;
  for (i = 0; gp_format_444[i]; i++)
    if (g_str_has_prefix (format, gp_format_444[i]))
      *chroma = GP_FORMAT_444;
  for (i = 0; gp_format_64[i]; i++)
    if (g_str_has_prefix (format, gp_format_64[i])) {
      depth = 16;
      *chroma = GP_FORMAT_444;
    }
  return depth > 8 || *chroma == GP_FORMAT_444 ? depth : 0;
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

/* TRUE when caps the user wrote below @name, down the links that still
 * carry @format, ask for a format: what the pipeline delivers was
 * chosen. */
static gboolean
gp_format_wanted_below (GpSession * s, const gchar * name,
    const gchar * format)
{
  gchar *cur = g_strdup (name);
  gboolean wanted = FALSE;
  guint hops;

  for (hops = 0; cur && hops < GP_FORMAT_MAX_HOPS && !wanted; hops++) {
    GpLink *out = gp_session_link_out_of (s, cur);
    gchar *f = out ? gp_caps_format (out->caps) : NULL;
    GpElement *ne;

    g_free (cur);
    cur = NULL;
    if (g_strcmp0 (f, format) == 0) {
      cur = gp_pad_element (out->sink);
      ne = gp_session_find_element (s, cur);
      if (ne && g_strcmp0 (ne->factory, "capsfilter") == 0) {
        const gchar *caps = gp_element_get_prop_string (ne, "caps");

        wanted = caps && strstr (caps, "format=") != NULL;
      }
    }
    g_free (f);
  }
  g_free (cur);
  return wanted;
}

/* Bytes a pixel of a format gp_format_depth () found heavy, roughly: two a
 * sample above 8 bits, and three samples a pixel with full chroma (four
 * with alpha) where 4:2:0 has one and a half. */
static gdouble
gp_format_bytes_per_pixel (const gchar * format, gint depth,
    GpFormatChroma chroma)
{
  gdouble samples = chroma == GP_FORMAT_422 ? 2 : 1.5;
  guint i;

  if (chroma == GP_FORMAT_444) {
    samples = g_str_has_prefix (format, "AYUV") || g_str_has_prefix (format,
        "VUYA") ? 4 : 3;
    for (i = 0; gp_format_64[i]; i++)
      if (g_str_has_prefix (format, gp_format_64[i]))
        samples = 4;
  }
  return samples * (depth > 8 ? 2 : 1);
}

/* The share of the working time spent on frames of the format: the chain
 * from where they start to @name, @name, and the one-input elements below
 * it that still get @format. */
static gdouble
gp_format_work_share (GpSession * s, GPtrArray * chain, const gchar * name,
    const gchar * format)
{
  gdouble work = 0, total = gp_session_total_work_ms (s);
  GPtrArray *all = g_ptr_array_new_with_free_func (g_free);
  gchar *cur = g_strdup (name);
  guint i, hops;

  for (i = 0; i < chain->len; i++)
    g_ptr_array_add (all, g_strdup (g_ptr_array_index (chain, i)));
  for (hops = 0; cur && hops < GP_FORMAT_MAX_HOPS; hops++) {
    GpLink *out = gp_session_link_out_of (s, cur);
    gchar *f = out ? gp_caps_format (out->caps) : NULL;

    g_ptr_array_add (all, cur);
    cur = format && g_strcmp0 (f, format) == 0 ? gp_pad_element (out->sink) :
        NULL;
    g_free (f);
  }
  g_free (cur);
  for (i = 0; i < all->len; i++) {
    GpElementSummary *es = gp_session_find_elem_summary (s,
        g_ptr_array_index (all, i));
    gdouble w = es ? gp_session_work_ms (s, es) : -1;

    if (w > 0)
      work += w;
  }
  g_ptr_array_unref (all);
  return total > 0 ? work / total * 100.0 : -1;
}

/* The profile a decoder of @factory's stream of @depth bits and @chroma
 * needs, in its codec's own words (ITU-T H.264 A.2, H.265 A.3, the VP9
 * and AV1 specifications' profiles); NULL for a codec without such
 * profiles, or beyond them.  *@common: most decoders, hardware ones too,
 * take it (HEVC Main 10, VP9 profile 2, AV1 Main), so the cost is the work
 * alone. */
static const gchar *
gp_format_profile (const gchar * factory, gint depth, GpFormatChroma chroma,
    gboolean * common)
{
  guint i;

  *common = FALSE;
  for (i = 0; i < G_N_ELEMENTS (gp_format_codecs); i++)
    if (g_strcmp0 (gp_format_codecs[i].encoder, factory) == 0)
      break;
  if (i == G_N_ELEMENTS (gp_format_codecs))
    return NULL;
  switch (gp_format_codecs[i].codec) {
    case GP_FORMAT_H264:
      /* High 10 and High 4:2:2 stop at 10 bits, High 4:4:4 Predictive
       * takes any chroma up to 14 */
      if (depth > 14)
        return NULL;
      if (chroma == GP_FORMAT_420 && depth <= 10)
        return "H.264 High 10";
      if (chroma == GP_FORMAT_422 && depth <= 10)
        return "H.264 High 4:2:2";
      return "H.264 High 4:4:4 Predictive";
    case GP_FORMAT_HEVC:
      /* the range extensions' profiles are named by chroma and depth;
       * only Main 10 is in every HEVC decoder */
      if (depth > 12)
        return "HEVC Main 4:4:4 16 Intra";
      if (chroma == GP_FORMAT_420) {
        *common = depth <= 10;
        return depth <= 10 ? "HEVC Main 10" : "HEVC Main 12";
      }
      if (chroma == GP_FORMAT_422)
        return depth <= 10 ? "HEVC Main 4:2:2 10" : "HEVC Main 4:2:2 12";
      return depth <= 8 ? "HEVC Main 4:4:4" : depth <= 10 ?
          "HEVC Main 4:4:4 10" : "HEVC Main 4:4:4 12";
    case GP_FORMAT_VP9:
      /* 0: 8-bit 4:2:0, 1: 8-bit 4:2:2 or 4:4:4, 2: 10 or 12-bit 4:2:0,
       * 3: 10 or 12-bit 4:2:2 or 4:4:4 */
      if (depth > 12)
        return NULL;
      if (chroma == GP_FORMAT_420) {
        *common = TRUE;
        return "VP9 profile 2";
      }
      return depth <= 8 ? "VP9 profile 1" : "VP9 profile 3";
    case GP_FORMAT_AV1:
      /* Main: 8 or 10-bit 4:2:0, High: 8 or 10-bit 4:4:4, Professional:
       * 4:2:2 and 12 bits */
      if (depth > 12)
        return NULL;
      if (depth <= 10 && chroma == GP_FORMAT_420) {
        *common = TRUE;
        return "AV1 Main";
      }
      if (depth <= 10 && chroma == GP_FORMAT_444)
        return "AV1 High";
      return "AV1 Professional";
  }
  return NULL;
}

/* "10-bit 4:2:2", "8-bit 4:4:4", "12-bit": the format's weight in words. */
static gchar *
gp_format_words (gint depth, GpFormatChroma chroma)
{
  static const gchar *const names[] = { "", "4:2:2", "4:4:4" };

  if (chroma == GP_FORMAT_420)
    return g_strdup_printf ("%d-bit", depth);
  return g_strdup_printf ("%d-bit %s", depth, names[chroma]);
}

/* TRUE when another heavy element on @t's chain got @format too: the
 * finding is that one's, whose pin serves both. */
static gboolean
gp_format_heavy_above (GpSession * s, GpFormatTrace * t, const gchar * format)
{
  guint i;

  for (i = 1; i < t->chain->len; i++) {
    const gchar *n = g_ptr_array_index (t->chain, i);
    GpElement *e = gp_session_find_element (s, n);
    GpLink *in = gp_session_link_into (s, n);
    gchar *f = in ? gp_caps_format (in->caps) : NULL;
    gboolean same = g_strcmp0 (f, format) == 0;

    g_free (f);
    if (same && e && e->factory && g_strv_contains (gp_format_heavy,
            e->factory))
      return TRUE;
  }
  return FALSE;
}

/* Reports @c, an encoder (@encoder) or a heavy raw-video element, when it
 * works on a deep or 4:4:4 format nothing asked for. @covered: elements of
 * the chains of findings made (an encoder's pin serves what is above it);
 * this one's chain is added. */
static void
gp_format_check (GpSession * s, const GpRule * rule, GpElement * c,
    gboolean encoder, GHashTable * covered)
{
  static const gchar *const chroma_names[] = { "4:2:0", "4:2:2", "4:4:4" };
  GpLink *in = gp_session_link_into (s, c->name);
  gchar *format = in ? gp_caps_format (in->caps) : NULL;
  GpFormatChroma chroma;
  gint depth = gp_format_depth (format, &chroma);
  gboolean drawn, common;
  const gchar *maker, *profile = gp_format_profile (c->factory, depth,
      chroma, &common);
  GpFormatTrace t;
  GpElement *oe;
  GpFinding *f;
  gchar *title, *ln, *what, *decoder;
  gdouble share;
  guint i;

  if (depth == 0 || g_hash_table_contains (covered, c->name)) {
    g_free (format);
    return;
  }
  gp_format_trace (s, c->name, &t);
  oe = t.origin ? gp_session_find_element (s, t.origin) : NULL;
  drawn = oe && oe->factory && g_strv_contains (gp_format_drawing_sources,
      oe->factory);
  /* the user asked for it, or the content has it; or, for an element that
   * is not an encoder, its own output was asked for, or the finding is
   * an element's above it */
  if (t.pinned_by || (!t.made_by && !drawn) || (!encoder &&
          (gp_format_wanted_below (s, c->name, format) ||
              gp_format_heavy_above (s, &t, format)))) {
    gp_format_trace_clear (&t);
    g_free (format);
    return;
  }
  for (i = 0; i < t.chain->len; i++)
    g_hash_table_add (covered, g_strdup (g_ptr_array_index (t.chain, i)));
  maker = t.made_by ? t.made_by : t.origin;

  what = gp_format_words (depth, chroma);
  title = g_strdup_printf ("%s %s %s (%s) that nothing asked for: pin %s "
      "before it", c->name, encoder ? "encodes" : "works on", format,
      what, GP_FORMAT_PIN);
  f = gp_rule_add_finding (s, rule, GP_SEVERITY_MEDIUM, title);
  g_free (title);
  /* bench/pairs/format.pair verified the encoders' case,
   * bench/pairs/format-overlay.pair the overlays'; the other heavy
   * elements (mixers, deinterlace, effects, converters, scalers) have no
   * pair of their own yet */
  if (!encoder && !g_str_has_suffix (c->factory, "overlay") &&
      g_strcmp0 (c->factory, "overlaycomposition") != 0)
    gp_finding_mark_unverified (f);
  gp_finding_add_target (f, c->name);
  gp_finding_set_string (f, encoder ? "encoder" : "element", c->name);
  gp_finding_set_string (f, "format", format);
  gp_finding_set_int (f, "bit_depth", depth);
  gp_finding_set_string (f, "chroma", chroma_names[chroma]);
  if (encoder && profile)
    gp_finding_set_string (f, "profile", profile);
  gp_finding_set_string (f, "made_by", maker);
  if (t.origin_format && !t.made_by)
    gp_finding_set_string (f, "origin_format", t.origin_format);
  gp_finding_set_string (f, "pinned_by", "none");
  share = gp_format_work_share (s, t.chain, c->name, encoder ? NULL : format);
  if (share >= 0) {
    gp_finding_set_double (f, "work_share_pct", share);
    f->rank_value = MIN (100.0, share);
  }

  g_free (f->why);
  if (profile == NULL)
    decoder = g_strdup ("the stream needs a decoder for its depth and "
        "chroma, which most players and hardware decoders lack");
  else if (common)
    decoder = g_strdup_printf ("the stream needs a decoder for the %s "
        "profile, which most decoders have: the cost is the work",
        profile);
  else
    decoder = g_strdup_printf ("the stream needs a decoder for the %s "
        "profile, which most players and hardware decoders lack", profile);
  if (encoder)
    f->why = g_strdup_printf ("Nothing in the launch string asks for a "
        "format, so negotiation gave %s the first one of its own list that "
        "%s can make: %s. That is %s: frames of about %.1f bytes a pixel "
        "where %s has 1.5, so %s and everything before it on the way do "
        "more work per frame, and %s.", c->name, maker, format, what,
        gp_format_bytes_per_pixel (format, depth, chroma), GP_FORMAT_PIN,
        c->name, decoder);
  else
    f->why = g_strdup_printf ("Nothing in the launch string asks for a "
        "format, so negotiation gave %s the first format of %s's list that "
        "everything after it takes: %s, %s, about %.1f bytes a pixel where "
        "%s has 1.5. %s and every element after it in that format read and "
        "write every pixel, so each does that much more work per frame for "
        "nothing the pipeline asked for.", c->name, maker, format, what,
        gp_format_bytes_per_pixel (format, depth, chroma), GP_FORMAT_PIN,
        c->name);
  g_free (decoder);
  g_free (f->fix);
  f->fix = g_strdup_printf ("Pin the format right before %s: `... ! "
      "video/x-raw,format=%s ! %s` (keep %s only if %s must carry that "
      "depth or chroma%s).", c->name, GP_FORMAT_PIN, c->name, format,
      encoder ? "the output" : "what the pipeline delivers",
      encoder ? "" : "; the sinks then receive I420, or what a converter "
      "after it makes for them");
  ln = gp_session_launch_name (s, c->name);
  if (ln) {
    GPtrArray *patch = gp_launch_patch_new ();
    gchar *caps_name = NULL;
    gchar *mine = gp_session_launch_caps_beside (s, c->name, TRUE,
        &caps_name);
    gchar *caps;

    /* the user's caps right before the element get the format added;
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
  g_free (what);
  gp_format_trace_clear (&t);
  g_free (format);
}

/* Encoders first: a heavy element on the way to a reported encoder is
 * served by its pin. */
void
gp_rule_format (GpSession * s, const GpRule * rule)
{
  GHashTable *covered = g_hash_table_new_full (g_str_hash, g_str_equal,
      g_free, NULL);
  guint i, pass;

  for (pass = 0; pass < 2; pass++)
    for (i = 0; s->elements && i < s->elements->len; i++) {
      GpElement *e = g_ptr_array_index (s->elements, i);
      const gchar *const *kind = pass == 0 ? gp_format_encoders :
          gp_format_heavy;

      if (!e->is_bin && e->factory && g_strv_contains (kind, e->factory))
        gp_format_check (s, rule, e, pass == 0, covered);
    }
  g_hash_table_unref (covered);
}
