/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-redact.c: credentials and private locations masked in a session
 * before it is shown to others (gp-redact.h says what). The values known
 * to be private (a credential property's, a location's) are gathered once
 * per session; every text is then passed through the same three masks:
 * those values, URI credentials, home-folder paths.
 */
#include "gp-redact.h"
#include "core/gp-launch.h"

#include <string.h>

struct _GpRedact
{
  /* gchar* pairs: a private value, what stands for it; longest first */
  GPtrArray *literals;
};

static void gp_redact_learn (GpRedact * r, const gchar * name,
    const gchar * value);
static gchar *gp_redact_value (const GpRedact * r, const gchar * name,
    const gchar * value);
static void gp_redact_object (const GpRedact * r, JsonObject * o);
static void gp_redact_ops (const GpRedact * r, GPtrArray * patch);

/* ------------------------------------------------------------------ */
/* names                                                                */
/* ------------------------------------------------------------------ */

/* a property name's last word that makes it a credential */
static const gchar *const gp_redact_secret_words[] = {
  "key", "pw", "pass", "token", NULL
};

/* a part of a property name that makes it a credential wherever it
 * stands */
static const gchar *const gp_redact_secret_parts[] = {
  "password", "passwd", "passphrase", "secret", "token", NULL
};

gboolean
gp_redact_is_secret_name (const gchar * name)
{
  gchar *lower, *last;
  gboolean secret = FALSE;
  guint i;

  if (name == NULL)
    return FALSE;
  lower = g_ascii_strdown (name, -1);
  for (i = 0; !secret && gp_redact_secret_parts[i]; i++)
    secret = strstr (lower, gp_redact_secret_parts[i]) != NULL;
  last = strrchr (lower, '-');
  if (last == NULL || strrchr (lower, '_') > last)
    last = strrchr (lower, '_');
  last = last ? last + 1 : lower;
  for (i = 0; !secret && gp_redact_secret_words[i]; i++)
    secret = strcmp (last, gp_redact_secret_words[i]) == 0;
  g_free (lower);
  return secret;
}

gboolean
gp_redact_is_location_name (const gchar * name)
{
  if (name == NULL)
    return FALSE;
  return g_ascii_strcasecmp (name, "location") == 0
      || g_ascii_strcasecmp (name, "uri") == 0
      || g_str_has_suffix (name, "-location")
      || g_str_has_suffix (name, "-uri") || g_str_has_suffix (name, "_uri");
}

/* ------------------------------------------------------------------ */
/* the masks                                                            */
/* ------------------------------------------------------------------ */

/* characters that end a URI's authority or a path in running text */
#define GP_REDACT_STOPS " \t\r\n\"'<>,;()[]{}|"

/* Every "scheme://userinfo@" in @text made "scheme://" the mask "@". */
static gchar *
gp_redact_uri_credentials (const gchar * text)
{
  GString *out = g_string_new (NULL);
  const gchar *p = text, *sep;

  while ((sep = strstr (p, "://")) != NULL) {
    const gchar *auth = sep + 3;
    gsize n = strcspn (auth, GP_REDACT_STOPS "/?#");
    const gchar *at = g_strrstr_len (auth, n, "@");

    g_string_append_len (out, p, auth - p);
    if (at != NULL && at > auth && sep > text
        && g_ascii_isalnum (sep[-1])) {
      g_string_append (out, GP_REDACT_MASK);
      p = at;
    } else
      p = auth;
  }
  g_string_append (out, p);
  return g_string_free (out, FALSE);
}

/* the folders under which a path is somebody's own */
static const gchar *const gp_redact_homes[] = {
  "/home/", "/root/", "/Users/", NULL
};

/* Every path under a home folder in @text keeps its last part only. */
static gchar *
gp_redact_home_paths (const gchar * text)
{
  GString *out = g_string_new (NULL);
  const gchar *p = text;

  while (*p) {
    const gchar *home = NULL;
    guint i;

    for (i = 0; gp_redact_homes[i] && home == NULL; i++) {
      const gchar *h = strstr (p, gp_redact_homes[i]);

      /* at the start of a path: not /data/home/ */
      while (h && h > text && (g_ascii_isalnum (h[-1]) || h[-1] == '.'
              || h[-1] == '_' || h[-1] == '-'))
        h = strstr (h + 1, gp_redact_homes[i]);
      if (h && (home == NULL || h < home))
        home = h;
    }
    if (home == NULL)
      break;
    {
      gsize n = strcspn (home, GP_REDACT_STOPS);
      const gchar *last = g_strrstr_len (home, n, "/");

      g_string_append_len (out, p, home - p);
      if (last > home)
        g_string_append (out, GP_REDACT_MASK);
      g_string_append_len (out, last, home + n - last);
      p = home + n;
    }
  }
  g_string_append (out, p);
  return g_string_free (out, FALSE);
}

/* @path's folders masked: "***" "/" its last part; unchanged without a
 * folder. */
static gchar *
gp_redact_path (const gchar * path)
{
  gchar *base;
  gchar *out;

  if (strchr (path, '/') == NULL)
    return g_strdup (path);
  base = g_path_get_basename (path);
  out = g_strconcat (GP_REDACT_MASK, "/", base, NULL);
  g_free (base);
  return out;
}

gchar *
gp_redact_location (const gchar * value)
{
  const gchar *sep = strstr (value, "://");

  if (sep == NULL)
    return gp_redact_path (value);
  if (g_ascii_strncasecmp (value, "file://", 7) == 0) {
    gchar *path = gp_redact_path (value + 7);
    gchar *out = g_strconcat ("file://", path, NULL);

    g_free (path);
    return out;
  }
  return gp_redact_uri_credentials (value);
}

static gint
gp_redact_longest_first (gconstpointer a, gconstpointer b)
{
  const gchar *const *pa = a, *const *pb = b;
  gsize la = strlen (pa[0]), lb = strlen (pb[0]);

  return la < lb ? 1 : la > lb ? -1 : 0;
}

/* @text with every known private value replaced */
static gchar *
gp_redact_literals (const GpRedact * r, const gchar * text)
{
  gchar *out = g_strdup (text);
  guint i;

  for (i = 0; r && i + 1 < r->literals->len; i += 2) {
    const gchar *from = g_ptr_array_index (r->literals, i);
    const gchar *to = g_ptr_array_index (r->literals, i + 1);
    gchar **parts;

    if (strstr (out, from) == NULL)
      continue;
    parts = g_strsplit (out, from, -1);
    g_free (out);
    out = g_strjoinv (to, parts);
    g_strfreev (parts);
  }
  return out;
}

gchar *
gp_redact_text (const GpRedact * r, const gchar * text)
{
  gchar *a, *b, *c;

  if (text == NULL)
    return NULL;
  a = gp_redact_literals (r, text);
  b = gp_redact_uri_credentials (a);
  c = gp_redact_home_paths (b);
  g_free (a);
  g_free (b);
  return c;
}

/* ------------------------------------------------------------------ */
/* what a session holds private                                         */
/* ------------------------------------------------------------------ */

static void
gp_redact_add_literal (GpRedact * r, const gchar * from, const gchar * to)
{
  guint i;

  if (strlen (from) < GP_REDACT_MIN_LITERAL || strcmp (from, to) == 0)
    return;
  for (i = 0; i + 1 < r->literals->len; i += 2)
    if (strcmp (g_ptr_array_index (r->literals, i), from) == 0)
      return;
  g_ptr_array_add (r->literals, g_strdup (from));
  g_ptr_array_add (r->literals, g_strdup (to));
}

/* A credential's value is masked wherever it stands; a location's is
 * replaced by its masked form, and its folder by the mask. */
static void
gp_redact_learn (GpRedact * r, const gchar * name, const gchar * value)
{
  const gchar *path = value;
  gchar *masked, *dir;

  if (gp_redact_is_secret_name (name)) {
    gp_redact_add_literal (r, value, GP_REDACT_MASK);
    return;
  }
  if (!gp_redact_is_location_name (name))
    return;
  masked = gp_redact_location (value);
  gp_redact_add_literal (r, value, masked);
  g_free (masked);
  if (g_ascii_strncasecmp (value, "file://", 7) == 0)
    path += 7;
  else if (strstr (value, "://") != NULL)
    return;
  dir = g_path_get_dirname (path);
  if (strcmp (dir, "/") != 0 && strcmp (dir, ".") != 0)
    gp_redact_add_literal (r, dir, GP_REDACT_MASK);
  g_free (dir);
}

static void
gp_redact_learn_object (GpRedact * r, JsonObject * o)
{
  GList *members, *l;

  if (o == NULL)
    return;
  members = json_object_get_members (o);
  for (l = members; l; l = l->next) {
    JsonNode *n = json_object_get_member (o, l->data);

    if (JSON_NODE_HOLDS_VALUE (n)
        && json_node_get_value_type (n) == G_TYPE_STRING)
      gp_redact_learn (r, l->data, json_node_get_string (n));
  }
  g_list_free (members);
}

GpRedact *
gp_redact_new (GpSession * s)
{
  GpRedact *r = g_new0 (GpRedact, 1);
  GpLaunch *l;
  guint i, n;

  r->literals = g_ptr_array_new_with_free_func (g_free);
  for (i = 0; i < s->elements->len; i++)
    gp_redact_learn_object (r, ((GpElement *)
            g_ptr_array_index (s->elements, i))->props);
  l = s->launch ? gp_launch_parse (s->launch, NULL) : NULL;
  n = l ? gp_launch_get_n_elements (l) : 0;
  for (i = 0; i < n; i++) {
    JsonObject *props = gp_launch_element_props (l, i);

    gp_redact_learn_object (r, props);
    json_object_unref (props);
  }
  if (l)
    gp_launch_free (l);
  /* pairs sorted as pairs: a longer value is replaced before a part of
   * it (a path before its folder) */
  if (r->literals->len > 0) {
    GArray *pairs = g_array_new (FALSE, FALSE, 2 * sizeof (gchar *));

    for (i = 0; i + 1 < r->literals->len; i += 2)
      g_array_append_vals (pairs, &r->literals->pdata[i], 1);
    g_array_sort (pairs, gp_redact_longest_first);
    memcpy (r->literals->pdata, pairs->data, r->literals->len *
        sizeof (gchar *));
    g_array_free (pairs, TRUE);
  }
  return r;
}

void
gp_redact_free (GpRedact * r)
{
  if (r == NULL)
    return;
  g_ptr_array_unref (r->literals);
  g_free (r);
}

/* ------------------------------------------------------------------ */
/* masking                                                              */
/* ------------------------------------------------------------------ */

/* Property @name's @value as shown. */
static gchar *
gp_redact_value (const GpRedact * r, const gchar * name, const gchar * value)
{
  gchar *loc, *out;

  if (gp_redact_is_secret_name (name))
    return g_strdup (GP_REDACT_MASK);
  if (!gp_redact_is_location_name (name))
    return gp_redact_text (r, value);
  loc = gp_redact_location (value);
  out = gp_redact_text (r, loc);
  g_free (loc);
  return out;
}

/* A property segment of a launch string ("key=value", spaces kept around
 * '='), its value masked and quoted when it must be. */
static gchar *
gp_redact_property_segment (const GpRedact * r, const gchar * seg)
{
  const gchar *eq = strchr (seg, '=');
  gchar *key, *raw, *value, *masked, *out;

  if (eq == NULL)
    return g_strdup (seg);
  key = g_strstrip (g_strndup (seg, eq - seg));
  if (!gp_redact_is_secret_name (key) && !gp_redact_is_location_name (key)) {
    g_free (key);
    return g_strdup (seg);
  }
  raw = g_strstrip (g_strdup (eq + 1));
  if (raw[0] == '"' && strlen (raw) >= 2 && g_str_has_suffix (raw, "\"")) {
    raw[strlen (raw) - 1] = '\0';
    memmove (raw, raw + 1, strlen (raw));
  }
  value = g_strcompress (raw);
  masked = gp_redact_value (r, key, value);
  if (masked[strcspn (masked, " \t\"'!\\")] != '\0') {
    gchar *esc = g_strescape (masked, NULL);

    out = g_strdup_printf ("%.*s\"%s\"", (gint) (eq + 1 - seg), seg, esc);
    g_free (esc);
  } else
    out = g_strdup_printf ("%.*s%s", (gint) (eq + 1 - seg), seg, masked);
  g_free (masked);
  g_free (value);
  g_free (raw);
  g_free (key);
  return out;
}

gchar *
gp_redact_launch (const GpRedact * r, const gchar * launch)
{
  GpLaunch *l;
  GString *out;
  gchar *text;
  guint i;

  if (launch == NULL)
    return NULL;
  l = gp_launch_parse (launch, NULL);
  if (l == NULL)
    return gp_redact_text (r, launch);
  out = g_string_new (NULL);
  for (i = 0; i < gp_launch_get_n_segments (l); i++) {
    const GpLaunchSegment *seg = gp_launch_get_segment (l, i);
    gchar *part = NULL;

    if (seg->kind == GP_LAUNCH_SEG_PROPERTY)
      part = gp_redact_property_segment (r, seg->text);
    else if (seg->kind == GP_LAUNCH_SEG_URL)
      part = gp_redact_location (seg->text);
    g_string_append (out, part ? part : seg->text);
    g_free (part);
  }
  gp_launch_free (l);
  text = gp_redact_text (r, out->str);
  g_string_free (out, TRUE);
  return text;
}

/* @o's members masked in place, as properties (a credential by its name,
 * a location, any text); nested objects too. */
static void
gp_redact_object (const GpRedact * r, JsonObject * o)
{
  GList *members, *l;

  if (o == NULL)
    return;
  members = json_object_get_members (o);
  for (l = members; l; l = l->next) {
    const gchar *name = l->data;
    JsonNode *n = json_object_get_member (o, name);

    if (gp_redact_is_secret_name (name) && !JSON_NODE_HOLDS_NULL (n))
      json_object_set_string_member (o, name, GP_REDACT_MASK);
    else if (JSON_NODE_HOLDS_OBJECT (n))
      gp_redact_object (r, json_node_get_object (n));
    else if (JSON_NODE_HOLDS_VALUE (n)
        && json_node_get_value_type (n) == G_TYPE_STRING) {
      gchar *v = gp_redact_value (r, name, json_node_get_string (n));

      json_object_set_string_member (o, name, v);
      g_free (v);
    }
  }
  g_list_free (members);
}

static void
gp_redact_gvalue (const GpRedact * r, const gchar * name, GValue * v)
{
  gchar *masked;

  if (G_VALUE_HOLDS_STRING (v) && g_value_get_string (v)) {
    masked = gp_redact_value (r, name, g_value_get_string (v));
    g_value_take_string (v, masked);
  } else if (gp_redact_is_secret_name (name) && G_IS_VALUE (v)) {
    g_value_unset (v);
    g_value_init (v, G_TYPE_STRING);
    g_value_set_string (v, GP_REDACT_MASK);
  }
}

static void
gp_redact_ops (const GpRedact * r, GPtrArray * patch)
{
  guint i, j;

  for (i = 0; patch && i < patch->len; i++) {
    GpLaunchOp *op = g_ptr_array_index (patch, i);

    if (op->prop)
      gp_redact_gvalue (r, op->prop, &op->value);
    for (j = 0; op->props && j < op->props->len; j++) {
      GpLaunchProp *p = &g_array_index (op->props, GpLaunchProp, j);

      gp_redact_gvalue (r, p->key, &p->value);
    }
  }
}

static void
gp_redact_string (const GpRedact * r, gchar ** text)
{
  gchar *masked = gp_redact_text (r, *text);

  g_free (*text);
  *text = masked;
}

void
gp_redact_session (GpSession * s)
{
  GpRedact *r = gp_redact_new (s);
  gchar *launch = gp_redact_launch (r, s->launch);
  guint i;

  g_free (s->launch);
  s->launch = launch;
  for (i = 0; i < s->elements->len; i++)
    gp_redact_object (r, ((GpElement *)
            g_ptr_array_index (s->elements, i))->props);
  for (i = 0; i < s->events->len; i++) {
    GpEvent *ev = g_ptr_array_index (s->events, i);

    gp_redact_string (r, &ev->text);
    gp_redact_object (r, ev->data);
  }
  for (i = 0; i < s->findings->len; i++) {
    GpFinding *f = g_ptr_array_index (s->findings, i);

    gp_redact_string (r, &f->title);
    gp_redact_string (r, &f->why);
    gp_redact_string (r, &f->fix);
    gp_redact_object (r, f->evidence);
    gp_redact_ops (r, f->fix_patch);
  }
  gp_redact_string (r, &s->import_detail);
  gp_redact_free (r);
}
