/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-rule-enc.c: ENC, encoder settings that work against a live path or a
 * stream someone joins, read from the real property values.
 *
 * One finding per encoder, listing every hostile setting it has, with one
 * patch that sets them all:
 *  - on a live path (a live source upstream): B-frames (the encoder holds
 *    frames back to reorder them), frame-type lookahead, and x264enc
 *    without tune=zerolatency;
 *  - with a streaming sink downstream (network sinks a receiver joins
 *    mid-stream): a keyframe interval longer than GP_ENC_MAX_KEYINT_S, and
 *    SPS/PPS sent only at the start (insert-sps-pps=false) with no parser
 *    or payloader repeating them.
 *
 * x264enc is special: a speed preset or tune, when set (speed-preset is
 * "medium" by default), defines the encoder's settings and the property
 * defaults are ignored; only properties the user set override them. So
 * bframes=0 read back from a default x264enc does not mean no B-frames:
 * preset medium uses 3 and a 40-frame lookahead. The launch string tells
 * which properties the user set. Thresholds and reasons: docs/rules.md.
 */
#include "gp-rules-private.h"
#include "core/gp-caps.h"
#include "core/gp-launch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A receiver that joins, or loses a packet, waits for the next keyframe:
 * longer than this and it shows nothing (or garbage) for seconds. */
#define GP_ENC_MAX_KEYINT_S 2.0
/* Frame rate assumed when the session does not know it. */
#define GP_ENC_DEFAULT_FPS 30.0

/* Sinks that send the stream to a receiver that may join at any time. */
static const gchar *const gp_enc_streaming_sinks[] = {
  "udpsink", "multiudpsink", "dynudpsink", "tcpserversink", "tcpclientsink",
  "rtspclientsink", "srtsink", "srtserversink", "srtclientsink", "ristsink",
  "rtmpsink", "rtmp2sink", "webrtcsink", "whipsink", "whipclientsink",
  "hlssink", "hlssink2", "hlssink3", "kvssink", "shout2send", "webrtcbin",
  NULL
};

/* Properties that set a number of B-frames, by encoder family. */
static const gchar *const gp_enc_bframe_props[] = {
  "bframes", "b-frames", "num-B-Frames", "max-bframes", "max-b-frames", NULL
};

/* Frame-type lookahead, in frames. */
static const gchar *const gp_enc_lookahead_props[] = {
  "rc-lookahead", "lookahead", "lookahead-depth", NULL
};

/* Keyframe interval properties; @zero_frames is what 0 means (x264's
 * automatic keyint is 250), 0 when 0 means "unknown / automatic" and the
 * rule does not judge it; a negative value means "never" (nvcodec -1). */
static const struct
{
  const gchar *factory;
  const gchar *prop;
  gint64 zero_frames;
} gp_enc_keyint[] = {
  {"x264enc", "key-int-max", 250},
  {"x265enc", "key-int-max", 250},
  {"nvv4l2h264enc", "idrinterval", 0},
  {"nvv4l2h265enc", "idrinterval", 0},
  {"nvh264enc", "gop-size", 0},
  {"nvh265enc", "gop-size", 0},
  {"openh264enc", "gop-size", 0},
  {"vp8enc", "keyframe-max-dist", 0},
  {"vp9enc", "keyframe-max-dist", 0},
  {"vah264enc", "key-int-max", 0},
  {"vah265enc", "key-int-max", 0},
  {"qsvh264enc", "gop-size", 0},
  {"qsvh265enc", "gop-size", 0},
};

/* x264's presets: B-frames and rc-lookahead each one sets (x264's
 * common/base.c, param_apply_preset); "medium" is x264's defaults. */
static const struct
{
  const gchar *preset;
  gint bframes;
  gint lookahead;
} gp_enc_x264_presets[] = {
  {"ultrafast", 0, 0}, {"superfast", 3, 0}, {"veryfast", 3, 10},
  {"faster", 3, 20}, {"fast", 3, 30}, {"medium", 3, 40}, {"slow", 3, 50},
  {"slower", 3, 60}, {"veryslow", 8, 60}, {"placebo", 16, 60},
};

/* An integer property: a number, or a number written as a string (imported
 * sessions keep values as the strings a dot dump shows). */
static gboolean
gp_enc_prop_int (GpElement * e, const gchar * prop, gint64 * out)
{
  const gchar *str;
  gchar *end;
  gint64 v;

  if (gp_element_get_prop_int (e, prop, out))
    return TRUE;
  str = gp_element_get_prop_string (e, prop);
  if (str == NULL || *str == '\0')
    return FALSE;
  v = g_ascii_strtoll (str, &end, 10);
  if (end == str || *end != '\0')
    return FALSE;
  *out = v;
  return TRUE;
}

/* TRUE when the launch string sets @prop on @element itself (so x264enc's
 * preset does not override it); the launch syntax takes '_' for '-' in
 * property names, as GObject does. FALSE without a launch string. */
static gboolean
gp_enc_launch_sets (const GpLaunch * l, const gchar * element,
    const gchar * prop)
{
  JsonObject *props;
  GList *names, *n;
  gboolean set = FALSE;
  gint idx;

  if (l == NULL || (idx = gp_launch_find_element (l, element)) < 0)
    return FALSE;
  props = gp_launch_element_props (l, idx);
  names = json_object_get_members (props);
  for (n = names; n != NULL && !set; n = n->next) {
    gchar *canon = g_strdelimit (g_strdup (n->data), "_", '-');

    set = g_ascii_strcasecmp (canon, prop) == 0;
    g_free (canon);
  }
  g_list_free (names);
  json_object_unref (props);
  return set;
}

static gboolean
gp_enc_is_streaming_sink (GpElement * e)
{
  return e && e->factory && g_strv_contains (gp_enc_streaming_sinks,
      e->factory);
}

/* The first streaming sink (in graph order) downstream of @enc, or NULL. */
static GpElement *
gp_enc_streaming_sink_after (GpSession * s, const gchar * enc)
{
  guint i;

  for (i = 0; s->elements && i < s->elements->len; i++) {
    GpElement *e = g_ptr_array_index (s->elements, i);
    GHashTable *up;
    gboolean below;

    if (!gp_enc_is_streaming_sink (e))
      continue;
    up = gp_session_upstream_of (s, e->name);
    below = g_hash_table_contains (up, enc);
    g_hash_table_unref (up);
    if (below)
      return e;
  }
  return NULL;
}

/* Whether @enc is upstream of an element inside the bin @bin (a bin has
 * no links of its own: its children do). */
static gboolean
gp_enc_feeds_bin (GpSession * s, const gchar * enc, const gchar * bin)
{
  gboolean below = FALSE;
  guint i;

  for (i = 0; s->elements && i < s->elements->len && !below; i++) {
    GpElement *c = g_ptr_array_index (s->elements, i);

    below = g_strcmp0 (c->parent, bin) == 0 && gp_session_feeds (s, enc,
        c->name);
  }
  return below;
}

/* A sink downstream of @enc that cuts the stream into files of a set
 * length (splitmuxsink max-size-time): it can cut only at a keyframe.
 * Its segment length in s in @segment_s; NULL when none. */
static GpElement *
gp_enc_segmenter_after (GpSession * s, const gchar * enc, gdouble * segment_s)
{
  guint i;

  for (i = 0; s->elements && i < s->elements->len; i++) {
    GpElement *e = g_ptr_array_index (s->elements, i);
    gint64 ns = 0;
    gboolean asks = FALSE;

    /* one that asks the encoder for a keyframe at each cut gets it */
    if (g_strcmp0 (e->factory, "splitmuxsink") != 0 ||
        !gp_element_get_prop_int (e, "max-size-time", &ns) || ns <= 0 ||
        (gp_element_get_prop_bool (e, "send-keyframe-requests", &asks) &&
            asks))
      continue;
    if (gp_enc_feeds_bin (s, enc, e->name)) {
      *segment_s = ns / 1e9;
      return e;
    }
  }
  return NULL;
}

/* TRUE when an element between @enc and @sink repeats the parameter sets
 * (h264parse / h265parse / rtph264pay / rtph265pay config-interval != 0).
 * *unknown is set when such an element exists but did not record it. */
static gboolean
gp_enc_headers_repeated (GpSession * s, const gchar * enc,
    const gchar * sink, gboolean * unknown)
{
  GHashTable *up = gp_session_upstream_of (s, sink);
  gboolean repeated = FALSE;
  guint i;

  *unknown = FALSE;
  for (i = 0; s->elements && i < s->elements->len; i++) {
    GpElement *e = g_ptr_array_index (s->elements, i);
    GHashTable *up_e;
    gint64 ci;

    if (!g_hash_table_contains (up, e->name) || e->factory == NULL ||
        !(g_str_has_suffix (e->factory, "parse") ||
            g_str_has_suffix (e->factory, "pay")))
      continue;
    up_e = gp_session_upstream_of (s, e->name);
    if (g_hash_table_contains (up_e, enc) && g_strcmp0 (e->name, enc) != 0) {
      if (gp_enc_prop_int (e, "config-interval", &ci))
        repeated |= ci != 0;
      else if (e->props == NULL || json_object_get_size (e->props) == 0 ||
          (s->import_missing != 0))
        *unknown = TRUE;
    }
    g_hash_table_unref (up_e);
  }
  g_hash_table_unref (up);
  return repeated;
}

/* Frame rate at the encoder's input: the framerate of the caps on its
 * incoming link, else the session's target rate; < 0 unknown. */
static gdouble
gp_enc_input_fps (GpSession * s, const gchar * enc)
{
  guint i;

  for (i = 0; s->links && i < s->links->len; i++) {
    GpLink *l = g_ptr_array_index (s->links, i);
    gchar *sink = gp_pad_element (l->sink);
    gboolean mine = g_strcmp0 (sink, enc) == 0;
    gdouble fps = mine ? gp_caps_framerate (l->caps) : -1;

    g_free (sink);
    if (fps > 0)
      return fps;
  }
  return s->target_fps > 0 ? s->target_fps : -1;
}

static gboolean
gp_enc_any_live_upstream (GpSession * s, const gchar * enc, gchar ** which)
{
  GHashTable *up = gp_session_upstream_of (s, enc);
  GHashTableIter it;
  gpointer key;

  *which = NULL;
  g_hash_table_iter_init (&it, up);
  while (g_hash_table_iter_next (&it, &key, NULL))
    if (g_strcmp0 (key, enc) != 0 && gp_session_is_live_source (s, key) &&
        (*which == NULL || g_strcmp0 (key, *which) < 0)) {
      g_free (*which);
      *which = g_strdup (key);
    }
  g_hash_table_unref (up);
  return *which != NULL;
}

static void
gp_enc_check (GpSession * s, const GpRule * rule, const GpLaunch * launch,
    GpElement * e)
{
  GString *issues = g_string_new (NULL), *fix = g_string_new (NULL);
  GPtrArray *patch = gp_launch_patch_new ();
  JsonObject *ev = json_object_new ();
  gboolean is_x264 = g_strcmp0 (e->factory, "x264enc") == 0;
  gchar *live = NULL;
  GpElement *stream_sink, *segmenter;
  gdouble fps, segment_s = 0;
  gint64 v;
  guint i, n_issues = 0;
  gdouble rank = 0;

  fps = gp_enc_input_fps (s, e->name);
  /* a live source, and someone downstream who sees the stream as it is
   * made: not a recording */
  if (gp_enc_any_live_upstream (s, e->name, &live) &&
      gp_session_recording_only (s, e->name))
    g_clear_pointer (&live, g_free);
  stream_sink = gp_enc_streaming_sink_after (s, e->name);
  segmenter = gp_enc_segmenter_after (s, e->name, &segment_s);
  if (live == NULL && stream_sink == NULL && segmenter == NULL)
    goto out;

#define ISSUE(...) G_STMT_START {                                       \
    g_string_append_printf (issues, "%s", n_issues ? ", " : "");        \
    g_string_append_printf (issues, __VA_ARGS__);                       \
    n_issues++;                                                         \
  } G_STMT_END

  if (live && is_x264) {
    const gchar *tune = gp_element_get_prop_string (e, "tune");
    const gchar *preset = gp_element_get_prop_string (e, "speed-preset");
    gboolean zerolatency = tune && strstr (tune, "zerolatency") != NULL;
    gint pb = -1, pl = -1;

    for (i = 0; preset && i < G_N_ELEMENTS (gp_enc_x264_presets); i++)
      if (g_ascii_strcasecmp (preset, gp_enc_x264_presets[i].preset) == 0) {
        pb = gp_enc_x264_presets[i].bframes;
        pl = gp_enc_x264_presets[i].lookahead;
      }
    /* A tune string present means the property was recorded; without it
     * (an import that kept only non-default values) the default, no
     * tuning, is the only reading, and the preset is "medium". */
    if (!zerolatency) {
      gboolean set_b = gp_enc_launch_sets (launch, e->name, "bframes");
      gboolean set_l = gp_enc_launch_sets (launch, e->name, "rc-lookahead");
      gboolean no_preset = preset && g_ascii_strcasecmp (preset, "None") == 0
          && (tune == NULL || *tune == '\0' || strstr (tune, "none"));
      gboolean other_tune = tune && *tune && strstr (tune, "none") == NULL;
      gint64 b = 0, la = 0;
      gchar *new_tune;

      if (preset == NULL && tune == NULL && s->import_missing == 0)
        goto skip_x264;         /* props not recorded at all: no guess */
      if (pb < 0) {
        /* An unknown preset name: x264's defaults are "medium". */
        pb = 3;
        pl = 40;
      }
      /* Without preset and tune the property values are what x264 gets;
       * otherwise the preset's, except where the user set a property. */
      if (set_b || no_preset)
        gp_enc_prop_int (e, "bframes", &b);
      else
        b = pb;
      if (set_l || no_preset)
        gp_enc_prop_int (e, "rc-lookahead", &la);
      else
        la = pl;
      ISSUE ("no tune=zerolatency (%s preset: %" G_GINT64_FORMAT
          " B-frames, %" G_GINT64_FORMAT "-frame lookahead)",
          preset ? preset : "medium", b, la);
      json_object_set_string_member (ev, "tune", other_tune ? tune : "none");
      json_object_set_string_member (ev, "speed_preset",
          preset ? preset : "medium");
      json_object_set_int_member (ev, "bframes", b);
      json_object_set_int_member (ev, "lookahead_frames", la);
      /* keep the user's other tunings: flags combine with '+' */
      new_tune = other_tune ? g_strdup_printf ("%s+zerolatency", tune) :
          g_strdup ("zerolatency");
      g_ptr_array_add (patch, gp_launch_op_set_string (e->name, "tune",
          new_tune));
      g_free (new_tune);
      /* Properties the user set are applied after the tune: undo them. */
      if ((set_b || no_preset) && b > 0)
        g_ptr_array_add (patch, gp_launch_op_set_int (e->name, "bframes", 0));
      if ((set_l || no_preset) && la > 0)
        g_ptr_array_add (patch, gp_launch_op_set_int (e->name, "rc-lookahead",
            0));
      /* Every frame held is a whole frame period of latency. */
      rank = MAX (rank, MIN (100.0, 50.0 + (b + la) * 100.0));
    } else {
      /* zerolatency clears B-frames and lookahead, but properties the user
       * set are applied after it. */
      if (gp_enc_launch_sets (launch, e->name, "bframes") &&
          gp_enc_prop_int (e, "bframes", &v) && v > 0) {
        ISSUE ("bframes=%" G_GINT64_FORMAT, v);
        json_object_set_int_member (ev, "bframes", v);
        g_ptr_array_add (patch, gp_launch_op_set_int (e->name, "bframes", 0));
        rank = MAX (rank, MIN (100.0, v * 100.0));
      }
      if (gp_enc_launch_sets (launch, e->name, "rc-lookahead") &&
          gp_enc_prop_int (e, "rc-lookahead", &v) && v > 0) {
        ISSUE ("rc-lookahead=%" G_GINT64_FORMAT, v);
        json_object_set_int_member (ev, "lookahead_frames", v);
        g_ptr_array_add (patch, gp_launch_op_set_int (e->name, "rc-lookahead",
            0));
        rank = MAX (rank, MIN (100.0, v * 100.0));
      }
    }
  skip_x264:;
  } else if (live) {
    for (i = 0; gp_enc_bframe_props[i]; i++)
      if (gp_enc_prop_int (e, gp_enc_bframe_props[i], &v) && v > 0) {
        ISSUE ("%s=%" G_GINT64_FORMAT, gp_enc_bframe_props[i], v);
        json_object_set_int_member (ev, "bframes", v);
        g_ptr_array_add (patch, gp_launch_op_set_int (e->name,
            gp_enc_bframe_props[i], 0));
        rank = MAX (rank, MIN (100.0, v * 100.0));
      }
    for (i = 0; gp_enc_lookahead_props[i]; i++)
      if (gp_enc_prop_int (e, gp_enc_lookahead_props[i], &v) && v > 0) {
        ISSUE ("%s=%" G_GINT64_FORMAT, gp_enc_lookahead_props[i], v);
        json_object_set_int_member (ev, "lookahead_frames", v);
        g_ptr_array_add (patch, gp_launch_op_set_int (e->name,
            gp_enc_lookahead_props[i], 0));
        rank = MAX (rank, MIN (100.0, v * 100.0));
      }
  }

  if (stream_sink) {
    gdouble rate = fps > 0 ? fps : GP_ENC_DEFAULT_FPS;
    gboolean unknown, insert;

    for (i = 0; i < G_N_ELEMENTS (gp_enc_keyint); i++) {
      gint64 frames;

      if (g_strcmp0 (gp_enc_keyint[i].factory, e->factory) != 0 ||
          !gp_enc_prop_int (e, gp_enc_keyint[i].prop, &v))
        continue;
      frames = v == 0 ? gp_enc_keyint[i].zero_frames : v;
      if (frames == 0)
        continue;
      if (frames > 0 && frames / rate <= GP_ENC_MAX_KEYINT_S)
        continue;
      if (frames > 0)
        ISSUE ("a keyframe every %" G_GINT64_FORMAT " frames (%.1f s%s)",
            frames, frames / rate, v == 0 ? ", the automatic interval" : "");
      else
        ISSUE ("%s=%" G_GINT64_FORMAT " (no periodic keyframes)",
            gp_enc_keyint[i].prop, v);
      json_object_set_int_member (ev, "keyint_frames", frames);
      if (frames > 0)
        json_object_set_double_member (ev, "keyint_s",
            ((gint64) (frames / rate * 1000.0 + 0.5)) / 1000.0);
      g_ptr_array_add (patch, gp_launch_op_set_int (e->name,
          gp_enc_keyint[i].prop,
          (gint64) (rate + 0.5)));
      rank = MAX (rank, 20.0);
    }
    if (gp_element_get_prop_bool (e, "insert-sps-pps", &insert) && !insert &&
        !gp_enc_headers_repeated (s, e->name, stream_sink->name, &unknown) &&
        !unknown) {
      ISSUE ("insert-sps-pps=false");
      json_object_set_string_member (ev, "insert_sps_pps", "false");
      g_ptr_array_add (patch, gp_launch_op_set_bool (e->name, "insert-sps-pps",
          TRUE));
      rank = MAX (rank, 20.0);
    }
  }
  if (segmenter) {
    gdouble rate = fps > 0 ? fps : GP_ENC_DEFAULT_FPS;

    for (i = 0; i < G_N_ELEMENTS (gp_enc_keyint); i++) {
      gint64 frames;

      if (g_strcmp0 (gp_enc_keyint[i].factory, e->factory) != 0 ||
          !gp_enc_prop_int (e, gp_enc_keyint[i].prop, &v))
        continue;
      frames = v == 0 ? gp_enc_keyint[i].zero_frames : v;
      /* a frame's slack: 30 frames at 30/1 fit a 1 s segment */
      if (frames == 0 || (frames > 0 && frames / rate <= segment_s + 0.5 /
              rate))
        continue;
      if (frames > 0)
        ISSUE ("a keyframe every %" G_GINT64_FORMAT " frames (%.1f s), "
            "longer than %s's %.1f s segments: it cuts only at keyframes",
            frames, frames / rate, segmenter->name, segment_s);
      else
        ISSUE ("%s=%" G_GINT64_FORMAT " (no periodic keyframes), and %s "
            "cuts only at keyframes", gp_enc_keyint[i].prop, v,
            segmenter->name);
      json_object_set_int_member (ev, "keyint_frames", frames);
      json_object_set_string_member (ev, "segmenter", segmenter->name);
      json_object_set_double_member (ev, "segment_s", segment_s);
      /* the streaming check's interval (a second) already fits a segment
       * of a second or more: one edit of the property */
      if (!json_object_has_member (ev, "keyint_s") || segment_s < 1.0)
        g_ptr_array_add (patch, gp_launch_op_set_int (e->name,
                gp_enc_keyint[i].prop, (gint64) (rate * MIN (segment_s,
                        1.0) + 0.5)));
      rank = MAX (rank, 50.0);
    }
  }
#undef ISSUE

  if (n_issues > 0) {
    GpFinding *f;
    gchar *title;
    GList *members, *l;

    title = g_strdup_printf ("%s: %s", e->name, issues->str);
    f = gp_rule_add_finding (s, rule, GP_SEVERITY_MEDIUM, title);
    g_free (title);
    gp_finding_add_target (f, e->name);
    f->rank_value = rank;
    gp_finding_set_string (f, "factory", e->factory);
    members = json_object_get_members (ev);
    for (l = members; l; l = l->next) {
      JsonNode *m = json_object_get_member (ev, l->data);

      if (json_node_get_value_type (m) == G_TYPE_STRING)
        gp_finding_set_string (f, l->data, json_node_get_string (m));
      else if (json_node_get_value_type (m) == G_TYPE_DOUBLE)
        gp_finding_set_double (f, l->data, json_node_get_double (m));
      else
        gp_finding_set_int (f, l->data, json_node_get_int (m));
    }
    g_list_free (members);
    if (live)
      gp_finding_set_string (f, "live_source", live);
    if (stream_sink)
      gp_finding_set_string (f, "streaming_sink", stream_sink->name);
    if (fps > 0)
      gp_finding_set_double (f, "input_fps", fps);

    g_string_append_printf (fix, "Set on %s:", e->name);
    for (i = 0; i < patch->len; i++) {
      GpLaunchOp *op = g_ptr_array_index (patch, i);
      gchar *txt = gp_launch_scalar_text (&op->value);

      g_string_append_printf (fix, " %s=%s", op->prop, txt);
      g_free (txt);
    }
    g_string_append (fix, ". On a live path every frame an encoder holds "
        "back (B-frames, lookahead, frame threads) is latency; for a stream "
        "a receiver joins, keyframes and parameter sets must come often. "
        "Keep the settings for recording to a file, where compression "
        "matters more.");
    g_free (f->fix);
    f->fix = g_string_free (fix, FALSE);
    fix = NULL;
    g_free (f->why);
    f->why = g_strdup_printf ("%s%s%s",
        live ? "An encoder fed by a live source that reorders (B-frames) or "
        "looks ahead holds that many frames before it outputs the first "
        "one, on top of its encoding time: latency the rest of the "
        "pipeline cannot remove. " : "",
        stream_sink ? "A receiver joining the stream (or recovering from a "
        "lost packet) can only start decoding at a keyframe that comes with "
        "the SPS/PPS parameter sets: until then it shows nothing." : "",
        "");
    gp_rules_attach_patch (s, f, patch);
    patch = NULL;
  }

out:
  if (patch)
    g_ptr_array_unref (patch);
  json_object_unref (ev);
  g_string_free (issues, TRUE);
  if (fix)
    g_string_free (fix, TRUE);
  g_free (live);
}

void
gp_rule_enc (GpSession * s, const GpRule * rule)
{
  /* Which properties the user wrote matters for x264enc; a launch string
   * that does not parse only loses that knowledge. */
  const GpLaunch *launch = gp_session_parsed_launch (s);
  guint i;

  for (i = 0; s->elements && i < s->elements->len; i++) {
    GpElement *e = g_ptr_array_index (s->elements, i);

    if (e->is_bin || e->factory == NULL || strstr (e->factory, "enc") == NULL)
      continue;
    gp_enc_check (s, rule, launch, e);
  }
}
