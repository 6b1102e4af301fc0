/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-caps.c: see gp-caps.h.
 */
#include "gp-caps.h"

#include <string.h>

gchar *
gp_caps_media_type (const gchar * caps)
{
  gsize n;

  if (caps == NULL)
    return NULL;
  while (*caps == ' ')
    caps++;
  n = strcspn (caps, ",(; ");
  return n > 0 ? g_strndup (caps, n) : NULL;
}

/* Containers, by media type: what a muxer produces and a demuxer reads. */
static const gchar *const gp_muxed_types[] = {
  "video/quicktime", "video/x-matroska", "video/webm", "video/mpegts",
  "video/x-flv", "video/x-msvideo", "video/mpeg-ps", "application/ogg",
  "application/x-ogg", "application/mxf", "application/x-id3",
  "multipart/x-mixed-replace", "video/x-ms-asf", "application/x-3gp",
  NULL
};

GpMediaKind
gp_caps_media_kind (const gchar * caps)
{
  gchar *type = gp_caps_media_type (caps);
  GpMediaKind kind;

  if (type == NULL)
    return GP_MEDIA_UNKNOWN;
  if (g_strv_contains (gp_muxed_types, type))
    kind = GP_MEDIA_MUXED;
  else if (g_str_has_prefix (type, "application/x-rtp")
      || g_str_has_prefix (type, "application/x-srtp"))
    kind = GP_MEDIA_RTP;
  else if (g_str_has_prefix (type, "video/")
      || g_str_has_prefix (type, "image/"))
    kind = GP_MEDIA_VIDEO;
  else if (g_str_has_prefix (type, "audio/"))
    kind = GP_MEDIA_AUDIO;
  else
    kind = GP_MEDIA_OTHER;
  g_free (type);
  return kind;
}

static const gchar *const gp_media_kind_names[] = {
  "unknown", "video", "audio", "rtp", "muxed", "other"
};

const gchar *
gp_media_kind_name (GpMediaKind kind)
{
  return (guint) kind < G_N_ELEMENTS (gp_media_kind_names) ?
      gp_media_kind_names[kind] : "unknown";
}

GpMediaKind
gp_media_kind_from_name (const gchar * name)
{
  guint i;

  for (i = 0; name && i < G_N_ELEMENTS (gp_media_kind_names); i++)
    if (strcmp (name, gp_media_kind_names[i]) == 0)
      return (GpMediaKind) i;
  return GP_MEDIA_UNKNOWN;
}

gdouble
gp_caps_framerate (const gchar * caps)
{
  const gchar *p;
  gchar *end;
  gint64 num, den;

  if (caps == NULL)
    return -1;
  /* the field itself, not max-framerate= or the like */
  for (p = strstr (caps, "framerate="); p != NULL;
      p = strstr (p + 1, "framerate="))
    if (p == caps || p[-1] == ' ' || p[-1] == ',')
      break;
  if (p == NULL)
    return -1;
  p += strlen ("framerate=");
  if (g_str_has_prefix (p, "(fraction)"))
    p += strlen ("(fraction)");
  num = g_ascii_strtoll (p, &end, 10);
  if (end == p || *end != '/')
    return -1;
  p = end + 1;
  den = g_ascii_strtoll (p, &end, 10);
  if (end == p || den <= 0 || num <= 0)
    return -1;
  return (gdouble) num / (gdouble) den;
}

gchar *
gp_caps_brief (const gchar * caps)
{
  GString *out = g_string_new (NULL);
  const gchar *p = caps;

  if (caps == NULL)
    return g_strdup ("");
  while (*p) {
    const gchar *field = p, *eq, *end;
    gint depth = 0;
    gboolean quoted = FALSE;

    /* one field: up to the next top-level comma */
    for (end = p; *end; end++) {
      if (*end == '"' && (end == p || end[-1] != '\\'))
        quoted = !quoted;
      else if (!quoted && (*end == '<' || *end == '{' || *end == '['))
        depth++;
      else if (!quoted && (*end == '>' || *end == '}' || *end == ']'))
        depth--;
      else if (!quoted && depth <= 0 && (*end == ',' || *end == ';'))
        break;
    }
    eq = memchr (field, '=', end - field);
    if (!(eq && g_str_has_prefix (eq + 1, "(buffer)"))) {
      GString *f = g_string_new_len (field, end - field);
      const gchar *types[] = { "(string)", "(int)", "(fraction)",
        "(boolean)", "(uint)", "(double)", "(GstVideoMultiviewFlagsSet)"
      };
      guint i;

      for (i = 0; i < G_N_ELEMENTS (types); i++) {
        gchar *at;

        while ((at = strstr (f->str, types[i])) != NULL)
          g_string_erase (f, at - f->str, strlen (types[i]));
      }
      g_string_append (out, f->str);
      g_string_free (f, TRUE);
      if (*end)
        g_string_append_c (out, *end);
    }
    p = *end ? end + 1 : end;
  }
  /* a dropped last field leaves its separator behind */
  while (out->len && (out->str[out->len - 1] == ',' ||
          out->str[out->len - 1] == ' '))
    g_string_truncate (out, out->len - 1);
  return g_string_free (out, FALSE);
}

/* A caps field value as caps-string text: bare when it is a plain token,
 * quoted otherwise so that commas and spaces cannot split it. */
void
gp_caps_append_value (GString * out, const gchar * v)
{
  const gchar *p;
  gboolean plain = *v != '\0';

  for (p = v; *p && plain; p++)
    plain = g_ascii_isalnum (*p) || strchr ("_-./:+", *p) != NULL;
  if (plain) {
    g_string_append (out, v);
  } else {
    gchar *esc = g_strescape (v, NULL);

    g_string_append_printf (out, "\"%s\"", esc);
    g_free (esc);
  }
}

static gboolean
gp_caps_value_truncated (const gchar * v)
{
  /* GStreamer cuts long values in dot dumps with "..." or U+2026, and
   * gst-profile sometimes stores the latter as the six characters
   * "\u2026" */
  return g_str_has_suffix (v, "...") || g_str_has_suffix (v, "\xe2\x80\xa6")
      || g_str_has_suffix (v, "\\u2026");
}

static gboolean
gp_caps_open_parens (const gchar * str)
{
  gint depth = 0;

  for (; *str; str++) {
    if (*str == '(')
      depth++;
    else if (*str == ')')
      depth--;
  }
  return depth > 0;
}

/* Dot's pretty caps ("video/x-raw   format: NV12   width: 1920 ...", one
 * field per line in the dot file, lines joined by spaces in gst-profile)
 * to a caps string. Text that already is a caps string (has '='), or that
 * is not in that form, is returned as it is. */
gchar *
gp_caps_from_dot (const gchar * text)
{
  gchar **tok;
  GString *out, *value;
  gchar *key = NULL;
  guint i;

  if (strchr (text, '=') != NULL)
    return g_strdup (text);
  tok = g_strsplit_set (text, " \t\r\n", -1);
  out = g_string_new (NULL);
  value = g_string_new (NULL);
  for (i = 0; tok[i] != NULL; i++) {
    const gchar *w = tok[i];
    gsize len = strlen (w);

    if (len == 0)
      continue;
    if (out->len == 0 || gp_caps_open_parens (out->str)) {
      /* the media type, with its features; "(memory:NVMM, meta:X)" spans
       * words */
      if (out->len > 0)
        g_string_append_c (out, ' ');
      g_string_append (out, w);
      continue;
    }
    if (len > 1 && w[len - 1] == ':') {
      /* a new field: the previous one is complete */
      if (key && value->len > 0 && !gp_caps_value_truncated (value->str)
          && strcmp (value->str, "NULL") != 0) {
        g_string_append_printf (out, ", %s=", key);
        gp_caps_append_value (out, value->str);
      }
      g_free (key);
      key = g_strndup (w, len - 1);
      g_string_truncate (value, 0);
      continue;
    }
    if (key == NULL) {
      /* words before any "field:" are not dot's form; keep the text */
      g_free (key);
      g_strfreev (tok);
      g_string_free (value, TRUE);
      g_string_free (out, TRUE);
      return g_strdup (text);
    }
    if (value->len > 0)
      g_string_append_c (value, ' ');
    g_string_append (value, w);
  }
  if (key && value->len > 0 && !gp_caps_value_truncated (value->str)
      && strcmp (value->str, "NULL") != 0) {
    g_string_append_printf (out, ", %s=", key);
    gp_caps_append_value (out, value->str);
  }
  g_free (key);
  g_strfreev (tok);
  g_string_free (value, TRUE);
  if (out->len == 0) {
    g_string_free (out, TRUE);
    return NULL;
  }
  return g_string_free (out, FALSE);
}

/* The caps feature in a caps string's first structure ("memory:NVMM" in
 * "video/x-raw(memory:NVMM), ..."), or NULL. System memory is no feature. */
gchar *
gp_caps_memory_feature (const gchar * caps)
{
  const gchar *open, *close;
  gchar *feature;

  if (caps == NULL || (open = strchr (caps, '(')) == NULL)
    return NULL;
  close = strchr (open, ')');
  if (close == NULL || (strchr (caps, ',') && strchr (caps, ',') < open))
    return NULL;
  feature = g_strstrip (g_strndup (open + 1, close - open - 1));
  /* several features: the first memory one */
  if (strchr (feature, ',')) {
    gchar **parts = g_strsplit (feature, ",", -1);
    gchar *mem = NULL;
    guint i;

    for (i = 0; parts[i] && mem == NULL; i++) {
      gchar *p = g_strstrip (parts[i]);

      if (g_str_has_prefix (p, "memory:"))
        mem = g_strdup (p);
    }
    g_strfreev (parts);
    g_free (feature);
    feature = mem;
  }
  if (feature == NULL || !g_str_has_prefix (feature, "memory:") ||
      strcmp (feature, "memory:SystemMemory") == 0) {
    g_free (feature);
    return NULL;
  }
  return feature;
}

gchar *
gp_caps_field (const gchar * caps, const gchar * key)
{
  gchar **fields;
  gchar *val = NULL;
  guint i;

  if (caps == NULL)
    return NULL;
  /* Link caps are fixed: no lists or ranges whose commas would confuse a
   * plain split. */
  fields = g_strsplit_set (caps, ",;", -1);
  for (i = 1; fields[i] && val == NULL; i++) {
    gchar *f = g_strstrip (fields[i]);
    gchar *eq = strchr (f, '=');
    gchar *v;

    if (eq == NULL)
      continue;
    *eq = '\0';
    if (strcmp (g_strstrip (f), key) != 0)
      continue;
    v = g_strstrip (eq + 1);
    if (*v == '(' && strchr (v, ')'))
      v = strchr (v, ')') + 1;
    val = g_strdup (v);
    g_strstrip (val);
    if (val[0] == '"' && strlen (val) >= 2 && g_str_has_suffix (val, "\"")) {
      memmove (val, val + 1, strlen (val));
      val[strlen (val) - 1] = '\0';
    }
  }
  g_strfreev (fields);
  return val;
}

gchar *
gp_caps_format (const gchar * caps)
{
  return gp_caps_field (caps, "format");
}

/* Media types people name otherwise: the codec's or the container's name. */
static const struct
{
  const gchar *type;
  const gchar *name;
} gp_caps_type_names[] = {
  {"video/x-raw", "raw video"}, {"audio/x-raw", "raw audio"},
  {"video/x-h264", "H.264"}, {"video/x-h265", "HEVC"},
  {"video/x-vp8", "VP8"}, {"video/x-vp9", "VP9"}, {"video/x-av1", "AV1"},
  {"image/jpeg", "JPEG"}, {"image/png", "PNG"}, {"audio/x-opus", "Opus"},
  {"audio/x-vorbis", "Vorbis"}, {"audio/x-flac", "FLAC"},
  {"video/x-matroska", "Matroska"}, {"video/webm", "WebM"},
  {"video/quicktime", "QuickTime/MP4"}, {"video/mpegts", "MPEG-TS"},
  {"application/x-rtp", "RTP"}, {"application/ogg", "Ogg"},
  {"audio/mpeg", "MPEG audio"},
};

/* A field's value after ", " in @out, unless it is @usual (NULL: any);
 * @fmt places it ("PAR %s"). */
static void
gp_caps_append_unusual (GString * out, const gchar * caps, const gchar * key,
    const gchar * usual, const gchar * fmt)
{
  gchar *v = gp_caps_field (caps, key);

  if (v != NULL && (usual == NULL || strcmp (v, usual) != 0)) {
    g_string_append (out, ", ");
    g_string_append_printf (out, fmt, v);
  }
  g_free (v);
}

/* "high-4:4:4" -> "High 4:4:4", "constrained-baseline" -> "Constrained
 * Baseline": a profile as its standard writes it. */
static void
gp_caps_append_profile (GString * out, const gchar * profile)
{
  gboolean start = TRUE;
  const gchar *p;

  for (p = profile; *p; p++) {
    if (*p == '-') {
      g_string_append_c (out, ' ');
      start = TRUE;
    } else {
      g_string_append_c (out, start ? g_ascii_toupper (*p) : *p);
      start = FALSE;
    }
  }
}

gchar *
gp_caps_stream_words (const gchar * caps)
{
  gchar *brief, *type, *v, *mem;
  GString *out = g_string_new (NULL);
  const gchar *name;
  gdouble fps;
  guint i;

  if (caps == NULL || *caps == '\0')
    return g_string_free (out, FALSE);
  brief = gp_caps_brief (caps);
  type = gp_caps_media_type (brief);
  name = type;
  for (i = 0; type && i < G_N_ELEMENTS (gp_caps_type_names); i++)
    if (strcmp (type, gp_caps_type_names[i].type) == 0)
      name = gp_caps_type_names[i].name;
  g_string_append (out, name ? name : "");
  /* MPEG-1 audio by its layer (MP1, MP2, MP3); MPEG-2 and -4 are AAC */
  if (g_strcmp0 (type, "audio/mpeg") == 0 &&
      (v = gp_caps_field (brief, "mpegversion")) != NULL) {
    gchar *layer = gp_caps_field (brief, "layer");

    if (g_str_equal (v, "1"))
      g_string_append_printf (out, " (MP%s)", layer ? layer : "?");
    else
      g_string_append (out, " (AAC)");
    g_free (layer);
    g_free (v);
  }
  if ((v = gp_caps_field (brief, "encoding-name")) != NULL) {
    g_string_append_printf (out, " %s", v);
    g_free (v);
  }
  if ((v = gp_caps_field (brief, "profile")) != NULL) {
    g_string_append_c (out, ' ');
    gp_caps_append_profile (out, v);
    g_free (v);
  }
  if ((v = gp_caps_field (brief, "format")) != NULL) {
    g_string_append_printf (out, " %s", v);
    g_free (v);
  }
  /* the chroma, where the profile's name does not say it already */
  if ((v = gp_caps_field (brief, "chroma-format")) != NULL) {
    if (strstr (out->str, v) == NULL)
      g_string_append_printf (out, " %s", v);
    g_free (v);
  }
  if ((v = gp_caps_field (brief, "bit-depth-luma")) != NULL) {
    g_string_append_printf (out, " %s-bit", v);
    g_free (v);
  }
  if ((v = gp_caps_field (brief, "width")) != NULL) {
    gchar *h = gp_caps_field (brief, "height");

    g_string_append_printf (out, " %sx%s", v, h ? h : "?");
    g_free (h);
    g_free (v);
  }
  if ((fps = gp_caps_framerate (brief)) > 0)
    g_string_append_printf (out, " %.4g fps", fps);
  if ((v = gp_caps_field (brief, "rate")) != NULL) {
    g_string_append_printf (out, " %s Hz", v);
    g_free (v);
  }
  if ((v = gp_caps_field (brief, "channels")) != NULL) {
    g_string_append_printf (out, " %s ch", v);
    g_free (v);
  }
  if ((mem = gp_caps_memory_feature (caps)) != NULL) {
    g_string_append_printf (out, " in %s", mem);
    g_free (mem);
  }
  /* what else a sink can tell apart: a byte stream from AVC, fields from
   * frames, the pixels' shape, the colours, planar audio */
  if ((v = gp_caps_field (brief, "stream-format")) != NULL) {
    gchar *align = gp_caps_field (brief, "alignment");

    g_string_append_printf (out, ", %s%s%s", v, align ? "/" : "",
        align ? align : "");
    g_free (align);
    g_free (v);
  }
  gp_caps_append_unusual (out, brief, "interlace-mode", "progressive", "%s");
  gp_caps_append_unusual (out, brief, "pixel-aspect-ratio", "1/1",
      "pixel aspect %s");
  gp_caps_append_unusual (out, brief, "colorimetry", NULL, "%s");
  gp_caps_append_unusual (out, brief, "layout", "interleaved", "%s");
  g_free (type);
  g_free (brief);
  return g_string_free (out, FALSE);
}
