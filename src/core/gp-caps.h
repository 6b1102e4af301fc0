/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-caps.h: what the analysis reads from a caps string: its media type, the
 * kind of stream it is, its frame rate, any field by name.  Plain string
 * parsing, so that it works on any caps text a session holds (gstprof's
 * own, or another tool's) without GStreamer being initialised.
 */
#ifndef __GP_CAPS_H__
#define __GP_CAPS_H__

#include <glib.h>

G_BEGIN_DECLS

/* How a stream's rate is judged (gp_caps_media_kind). */
typedef enum
{
  GP_MEDIA_UNKNOWN,             /* no caps */
  GP_MEDIA_VIDEO,               /* video/ and image/: frames per second */
  GP_MEDIA_AUDIO,               /* audio/: media time per second of wall time */
  GP_MEDIA_RTP,                 /* application/x-rtp(cp): packets and bits */
  GP_MEDIA_MUXED,               /* a container: buffers and bits */
  GP_MEDIA_OTHER,               /* anything else: buffers and bits */
} GpMediaKind;

/* The media type ("video/x-raw"), without features or fields; a new string,
 * NULL when @caps is NULL or empty. */
gchar *gp_caps_media_type (const gchar * caps);

GpMediaKind gp_caps_media_kind (const gchar * caps);
/* "video", "audio", "rtp", "muxed", "other", "unknown" */
const gchar *gp_media_kind_name (GpMediaKind kind);
GpMediaKind gp_media_kind_from_name (const gchar * name);

/* The framerate field (not max-framerate) of the first structure, in frames
 * per second; < 0 when absent, variable (0/1) or unreadable. */
gdouble gp_caps_framerate (const gchar * caps);

/* The value of field @key in the first structure of a fixed caps string
 * (link caps: no lists or ranges), type annotation ("(string)") and quotes
 * dropped; a new string, NULL when absent. */
gchar *gp_caps_field (const gchar * caps, const gchar * key);
/* The caps' "format" field, newly allocated, or NULL. */
gchar *gp_caps_format (const gchar * caps);

/* @caps for people: without its (buffer) fields (stream headers, codec
 * data: long hex nobody reads) and the "(string)"-style type names. A new
 * string. */
gchar *gp_caps_brief (const gchar * caps);

/* What the stream is, in words, from the fields that say it (media type,
 * profile, format, chroma, bit depth, size, frame rate, sample rate,
 * channels, memory; then its stream format and alignment, and interlacing,
 * pixel aspect, colorimetry and audio layout where they are not the usual
 * progressive, 1/1 and interleaved), none of the rest (stream headers,
 * codec data, a muxer's random segment id, a payloader's ssrc): "H.264
 * High 4:4:4 10-bit 1920x1080 30 fps, avc/au", "raw video I420 320x240
 * 30 fps", "Matroska". Two runs of one pipeline give the same words; a
 * fix that changes what a sink receives changes them. A new string, ""
 * for no caps. */
gchar *gp_caps_stream_words (const gchar * caps);

/* The memory caps feature of the first structure ("memory:NVMM" in
 * "video/x-raw(memory:NVMM), ..."; the first memory one when there are
 * several), or NULL: system memory is no feature. A new string. */
gchar *gp_caps_memory_feature (const gchar * caps);

/* Appends a caps field's value to @out as caps-string text: bare when it is
 * a plain token, quoted otherwise so that commas and spaces cannot split
 * it. */
void gp_caps_append_value (GString * out, const gchar * value);

/* Caps as a dot dump shows them ("video/x-raw   format: NV12   width:
 * 1920 ...", one field per line, here joined by spaces) back to a caps
 * string, without the values the dump cut ("..."). Text that already is a
 * caps string, or not in that form, comes back as it is; NULL for blank
 * text. A new string. */
gchar *gp_caps_from_dot (const gchar * text);

G_END_DECLS

#endif /* __GP_CAPS_H__ */
