/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-ds-config.h: a surgical editor of DeepStream's configuration files,
 * line by line: deepstream-app's and nvinfer's INI (read by DeepStream
 * with GLib's GKeyFile) and the YAML of the test apps, nvinfer and the
 * tracker. Not a general YAML library: the subset these files use.
 *
 * What the editor promises:
 * - loading then saving an unchanged file writes nothing; its text is the
 *   file's bytes (gp_ds_config_to_string () returns them as they were);
 * - a key set in place changes its value's bytes only: the key, the
 *   spacing around '=' or ':', a YAML line's trailing comment and every
 *   other line stay byte for byte;
 * - a missing key is added after the last key line of its group (the
 *   comments that follow it, often the next group's, stay below), with
 *   the indentation of its YAML siblings; a missing group is added at the
 *   end of the file;
 * - setting a value a key already has changes nothing, so running an edit
 *   twice leaves the file as the first run left it;
 * - gp_ds_config_save () writes only when the text changed: first a copy
 *   of the file as it is on disk to FILE.bak, unless FILE.bak exists (it
 *   then holds the file as it was before gstprof's first edit, which a
 *   later edit must not overwrite), then the new text through a temporary
 *   file renamed over the target (core/gp-file.h), with the file's mode;
 * - what it does not understand it refuses, with one line
 *   "FILE:LINE: reason", instead of guessing: text that is not UTF-8 or
 *   holds a NUL; INI lines GKeyFile rejects (a key before any group, a
 *   line that is neither a group, a comment nor key=value, an empty key);
 *   YAML anchors, aliases, tags, block scalars (| >), multi-line scalars,
 *   complex keys (?), flow collections across lines, tabs in indentation,
 *   indentation that does not line up with its siblings', directives,
 *   duplicate keys in one mapping.
 *
 * Names. INI: @group is the name between [ and ]; keys and groups are
 * compared byte for byte, as GKeyFile does (it is case-sensitive, and so
 * is DeepStream's lookup of the keys it reads); spaces around '=' are not
 * part of either. GKeyFile has no comment after a value (`key=1 # x` is
 * the value "1 # x"), so neither has this editor. A group written twice is
 * one group (GKeyFile merges them); a key written twice in it takes the
 * last value, as GKeyFile does: get returns it and set changes every one.
 * YAML: @group is the path of mapping keys from the top, joined by '/'
 * ("property", "tracker", "a/b"), "" the top level; a mapping in a list
 * is named by its index ("sources/0"). A value is the scalar as written,
 * quotes taken off; a comment after it (" # ...") is not part of it.
 */
#ifndef __GP_DS_CONFIG_H__
#define __GP_DS_CONFIG_H__

#include <glib.h>

G_BEGIN_DECLS

#define GP_DS_CONFIG_ERROR (gp_ds_config_error_quark ())
GQuark gp_ds_config_error_quark (void);

typedef enum
{
  GP_DS_CONFIG_ERROR_PARSE,     /* "FILE:LINE: reason" */
  GP_DS_CONFIG_ERROR_EDIT,      /* a value or name the format cannot hold */
  GP_DS_CONFIG_ERROR_IO,        /* "FILE: cannot read/write: reason" */
} GpDsConfigError;

typedef enum
{
  GP_DS_CONFIG_INI,
  GP_DS_CONFIG_YAML,
} GpDsConfigFormat;

typedef struct _GpDsConfig GpDsConfig;

/* The format a file's name says: .yml and .yaml are YAML, anything else
 * INI (deepstream-app's .txt, nvinfer's .txt and .cfg). */
GpDsConfigFormat gp_ds_config_format_for (const gchar * path);

/* @path read whole and parsed in the format its name says. NULL with a
 * one-line error naming the file (and the line) otherwise. */
GpDsConfig *gp_ds_config_load (const gchar * path, GError ** error);
/* @len bytes of @text in @format; @origin names it in errors and is the
 * path gp_ds_config_save () writes. */
GpDsConfig *gp_ds_config_parse (const gchar * origin, const gchar * text,
    gsize len, GpDsConfigFormat format, GError ** error);
void gp_ds_config_free (GpDsConfig * c);

const gchar *gp_ds_config_origin (const GpDsConfig * c);
GpDsConfigFormat gp_ds_config_get_format (const GpDsConfig * c);
/* The text as it is now (the file's bytes until an edit); @len may be
 * NULL. Owned by @c, valid until the next edit. */
const gchar *gp_ds_config_text (const GpDsConfig * c, gsize * len);
/* TRUE when an edit changed the text since it was loaded. */
gboolean gp_ds_config_changed (const GpDsConfig * c);

/* What a DeepStream configuration is, by its groups. */
typedef enum
{
  GP_DS_KIND_UNKNOWN,
  GP_DS_KIND_APP,               /* deepstream-app INI: streammux,
                                 * primary-gie or application */
  GP_DS_KIND_INFER,             /* nvinfer INI or YAML: property, no
                                 * primary-gie */
  GP_DS_KIND_TESTAPP,           /* a test app's YAML: streammux,
                                 * primary-gie, source or source-list */
  GP_DS_KIND_TRACKER,           /* a YAML with a tracker group alone */
} GpDsConfigKind;

GpDsConfigKind gp_ds_config_kind (const GpDsConfig * c);
/* A test app's sources: source-list's `list` split at ';', or source's
 * `location`; empty when neither. NULL-terminated, g_strfreev (). */
gchar **gp_ds_config_testapp_sources (const GpDsConfig * c);

/* TRUE when @group is there (an INI [group], a YAML mapping). */
gboolean gp_ds_config_has_group (const GpDsConfig * c, const gchar * group);
/* The groups in order of first appearance (YAML: the top-level ones),
 * NULL-terminated; free with g_strfreev (). */
gchar **gp_ds_config_groups (const GpDsConfig * c);
/* The keys of @group in order (INI: a key written twice once),
 * NULL-terminated; free with g_strfreev (). */
gchar **gp_ds_config_keys (const GpDsConfig * c, const gchar * group);
/* The text of 1-based line @number without its line break, a new string;
 * NULL past the end. */
gchar *gp_ds_config_line_text (const GpDsConfig * c, guint number);
/* The value of @key in @group, a new string; NULL when it is not there
 * (or, YAML, is a mapping or list rather than a scalar). */
gchar *gp_ds_config_get (const GpDsConfig * c, const gchar * group,
    const gchar * key);
/* The 1-based line of @key in @group (its last one in INI), 0 if absent. */
guint gp_ds_config_line (const GpDsConfig * c, const gchar * group,
    const gchar * key);

/* Sets @key in @group to @value: in place when the key is there, else
 * added at the end of the group, the group made at the end of the file
 * when missing. @changed (may be NULL) tells whether the text changed (not
 * when the value was already that). FALSE and GP_DS_CONFIG_ERROR_EDIT when
 * the format cannot hold it as written: a line break or a NUL anywhere;
 * INI: a group with '[', ']' or a key with '=' or a leading '#', a value
 * with a backslash (GKeyFile's escapes) or spaces at its ends; YAML: a key
 * that is a mapping or list, a value that a plain scalar cannot be (": ",
 * " #", a leading indicator, spaces at its ends), a key or group that
 * would need quotes. The text is unchanged on error. */
gboolean gp_ds_config_set (GpDsConfig * c, const gchar * group,
    const gchar * key, const gchar * value, gboolean * changed,
    GError ** error);

/* Writes the text to its origin when it changed since it was loaded or
 * last saved (FILE.bak first, as above); @wrote (may be NULL) tells
 * whether it wrote. Saving twice writes once. */
gboolean gp_ds_config_save (GpDsConfig * c, gboolean * wrote,
    GError ** error);
/* The same text written to @path (another file: no backup), atomically. */
gboolean gp_ds_config_save_as (GpDsConfig * c, const gchar * path,
    GError ** error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GpDsConfig, gp_ds_config_free)

G_END_DECLS

#endif /* __GP_DS_CONFIG_H__ */
