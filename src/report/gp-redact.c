/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-redact.c: credentials and private locations masked in a session
 * before it is shown to others (gp-redact.h says what). The values known
 * to be private (a credential property's, a location's) are gathered once
 * per session; every text is then passed through the same four masks, in
 * this order: URIs (user-info, secret query values, stream keys),
 * NAME=VALUE pairs, home-folder paths, and those values.
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
  "key", "pw", "pwd", "pass", "token", "sig", "auth", "headers", "hdnts",
  "hdnea", NULL
};

/* a part of a property name that makes it a credential wherever it
 * stands: souphttpsrc's cookies and extra-headers carry sessions and
 * "Authorization: Bearer"; signed URLs' signature and credential
 * (X-Amz-Signature, X-Goog-Credential); SRT's streamid is its stream
 * key */
static const gchar *const gp_redact_secret_parts[] = {
  "password", "passwd", "passphrase", "secret", "token", "cookie",
  "authorization", "credential", "signature", "apikey", "streamid",
  "tokenhash", NULL
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
  last = lower + strlen (lower);
  while (last > lower && last[-1] != '-' && last[-1] != '_')
    last--;
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
#define GP_REDACT_STOPS_SRT " \t\r\n\"'<>;()[]{}|"

/* Whether the URI authority [@auth, @at) is a user-info: no path before
 * the '@' ("user@host"), or a ':' before the path that is no port
 * ("user:pa/ss@host", a password with a '/'; not "host:8080/a/@b"). */
static gboolean
gp_redact_is_userinfo (const gchar * auth, const gchar * at)
{
  const gchar *slash = memchr (auth, '/', at - auth);
  const gchar *colon = memchr (auth, ':', (slash ? slash : at) - auth);
  const gchar *c;

  if (slash == NULL)
    return TRUE;
  if (colon == NULL)
    return FALSE;
  for (c = colon + 1; c < slash; c++)
    if (!g_ascii_isdigit (*c))
      return TRUE;
  return FALSE;
}

/* A query or fragment value that looks like a secret whatever its name:
 * long, of the characters of tokens, letters and digits both (a JWT, a
 * signature, an HMAC); not a number, a word or a path. */
#define GP_REDACT_SHAPE_MIN 24
static gboolean
gp_redact_looks_secret (const gchar * v, gsize n)
{
  gboolean alpha = FALSE, digit = FALSE;
  gsize i;

  if (n < GP_REDACT_SHAPE_MIN)
    return FALSE;
  for (i = 0; i < n; i++) {
    if (g_ascii_isalpha (v[i]))
      alpha = TRUE;
    else if (g_ascii_isdigit (v[i]))
      digit = TRUE;
    else if (!strchr ("-_.~+/=%", v[i]))
      return FALSE;
  }
  return alpha && digit;
}

/* @n bytes of @q, a URI's query or fragment ("a=1&token=x"), into @out
 * with each secret value masked: by its name, or by its shape. */
static void
gp_redact_query (GString * out, const gchar * q, gsize n)
{
  const gchar *end = q + n;

  while (q < end) {
    const gchar *amp = memchr (q, '&', end - q);
    const gchar *stop = amp ? amp : end;
    const gchar *eq = memchr (q, '=', stop - q);

    if (eq != NULL) {
      gchar *name = g_strndup (q, eq - q);
      gboolean secret = gp_redact_is_secret_name (name) ||
          gp_redact_looks_secret (eq + 1, stop - eq - 1);

      g_string_append_len (out, q, eq + 1 - q);
      if (secret && stop > eq + 1)
        g_string_append (out, GP_REDACT_MASK);
      else
        g_string_append_len (out, eq + 1, stop - eq - 1);
      g_free (name);
    } else
      g_string_append_len (out, q, stop - q);
    if (amp)
      g_string_append_c (out, '&');
    q = amp ? amp + 1 : end;
  }
}

/* The schemes whose last path segment is a stream key: an RTMP server's
 * application, then the key (rtmp://a.rtmp.youtube.com/live2/KEY). */
static gboolean
gp_redact_keyed_scheme (const gchar * scheme, gsize n)
{
  return (n == 4 && g_ascii_strncasecmp (scheme, "rtmp", 4) == 0) ||
      (n == 5 && (g_ascii_strncasecmp (scheme, "rtmps", 5) == 0 ||
          g_ascii_strncasecmp (scheme, "rtmpt", 5) == 0));
}

/* One URI of running text, [@uri, @end) with its scheme's length
 * @scheme_n, into @out masked: its user-info up to the last '@' before
 * the query (a password may hold '/' or '#'), its query's and fragment's
 * secret values, an RTMP URL's stream key.  An SRT URL has no fragment:
 * its streamid's "#!::" is part of the query. */
static void
gp_redact_uri (GString * out, const gchar * uri, gsize scheme_n,
    const gchar * end)
{
  gboolean srt = scheme_n == 3 && g_ascii_strncasecmp (uri, "srt", 3) == 0;
  const gchar *auth = uri + scheme_n + 3;
  const gchar *query = memchr (auth, '?', end - auth);
  const gchar *at, *frag, *path_end, *path, *last;

  at = g_strrstr_len (auth, (query ? query : end) - auth, "@");
  g_string_append_len (out, uri, auth - uri);
  if (at != NULL && at > auth && gp_redact_is_userinfo (auth, at)) {
    g_string_append (out, GP_REDACT_MASK);
    auth = at;
  }
  frag = srt ? NULL : memchr (auth, '#', end - auth);
  if (frag && query && frag < query)
    query = NULL;               /* a '?' in the fragment */
  path_end = query ? query : frag ? frag : end;
  path = memchr (auth, '/', path_end - auth);
  last = path ? g_strrstr_len (path, path_end - path, "/") : NULL;
  if (gp_redact_keyed_scheme (uri, scheme_n) && last != NULL && last > path
      && last + 1 < path_end) {
    g_string_append_len (out, auth, last + 1 - auth);
    g_string_append (out, GP_REDACT_MASK);
  } else
    g_string_append_len (out, auth, path_end - auth);
  if (query) {
    const gchar *qend = frag && frag > query ? frag : end;

    g_string_append_c (out, '?');
    gp_redact_query (out, query + 1, qend - query - 1);
  }
  if (frag && (query == NULL || frag > query)) {
    g_string_append_c (out, '#');
    gp_redact_query (out, frag + 1, end - frag - 1);
  }
}

/* Every "scheme://..." in @text masked (gp_redact_uri). */
static gchar *
gp_redact_uris (const gchar * text)
{
  GString *out = g_string_new (NULL);
  const gchar *p = text, *sep;

  while ((sep = strstr (p, "://")) != NULL) {
    const gchar *scheme = sep;
    const gchar *end;

    while (scheme > p && (g_ascii_isalnum (scheme[-1]) || scheme[-1] == '+'
            || scheme[-1] == '-' || scheme[-1] == '.'))
      scheme--;
    /* an SRT streamid's fields are split by commas */
    end = sep + 3 + strcspn (sep + 3, sep - scheme == 3 &&
        g_ascii_strncasecmp (scheme, "srt", 3) == 0 ?
        GP_REDACT_STOPS_SRT : GP_REDACT_STOPS);
    if (scheme == sep) {
      g_string_append_len (out, p, sep + 3 - p);
      p = sep + 3;
      continue;
    }
    g_string_append_len (out, p, scheme - p);
    gp_redact_uri (out, scheme, sep - scheme, end);
    p = end;
  }
  g_string_append (out, p);
  return g_string_free (out, FALSE);
}

/* HTTP's authorization schemes: the scheme stays, its credentials go */
static const gchar *const gp_redact_auth_schemes[] = {
  "Bearer", "Basic", "Digest", "Token", "Negotiate", "NTLM",
  "AWS4-HMAC-SHA256", NULL
};

/* The length of the authorization scheme @v starts with and the space
 * after it, 0 when none: one of HTTP's, or with @any any word (an
 * Authorization header's value is always "scheme credentials"). */
static gsize
gp_redact_auth_scheme (const gchar * v, gboolean any)
{
  gsize n = 0;
  guint i;

  for (i = 0; gp_redact_auth_schemes[i]; i++) {
    n = strlen (gp_redact_auth_schemes[i]);
    if (g_ascii_strncasecmp (v, gp_redact_auth_schemes[i], n) == 0 &&
        v[n] == ' ')
      return n + 1;
  }
  if (!any)
    return 0;
  for (n = 0; g_ascii_isalnum (v[n]) || v[n] == '-'; n++);
  return n > 0 && v[n] == ' ' ? n + 1 : 0;
}

/* characters of a name in "name=value" or "name: value" */
#define GP_REDACT_IS_NAME_CHAR(c) (g_ascii_isalnum (c) || (c) == '_' || \
    (c) == '-')
/* what ends a value in running text */
#define GP_REDACT_VALUE_STOPS " \t\r\n\"'<>,;)\\"
/* what ends a structure's authorization value ("Bearer X\";") */
#define GP_REDACT_LINE_STOPS "\r\n\"'\\"

/* Every "NAME=VALUE", "NAME: VALUE" or "NAME=(type)VALUE" in @text
 * whose NAME says it is a credential (gp_redact_is_secret_name:
 * "password=", "AWS_SECRET_ACCESS_KEY=", "Authorization: Bearer ...",
 * a structure's "Authorization=(string)...") with its VALUE masked; an
 * authorization keeps its scheme; a bare "Bearer TOKEN" too. */
static gchar *
gp_redact_pairs (const gchar * text)
{
  GString *out = g_string_new (NULL);
  const gchar *p = text, *c;

  for (c = text; *c; c++) {
    const gchar *name, *v;
    gchar *key;
    gboolean secret, authorization = FALSE;
    gsize scheme;

    if (*c != '=' && *c != ':' && *c != ' ')
      continue;
    name = c;
    while (name > p && GP_REDACT_IS_NAME_CHAR (name[-1]))
      name--;
    if (name == c)
      continue;
    key = g_strndup (name, c - name);
    v = c + 1;
    if (*c == ' ') {
      /* a bare bearer token: "Bearer TOKEN", as written */
      secret = c - name == 6 && strncmp (name, "Bearer", 6) == 0;
    } else {
      secret = gp_redact_is_secret_name (key);
      /* "Authorization", "Proxy-Authorization": a header's value */
      authorization = strlen (key) >= 13 && g_ascii_strcasecmp (key +
          strlen (key) - 13, "authorization") == 0;
      if (*c == ':' && v[0] == '/' && v[1] == '/')
        secret = FALSE;         /* a URI's scheme */
      while (*v == ' ' || *v == '"' || *v == '\\')
        v++;
      if (*c == '=' && *v == '(') {
        /* a structure's "(string)": a type's name, nothing else */
        const gchar *t = v + 1;

        while (g_ascii_isalnum (*t) || *t == '_')
          t++;
        if (*t == ')' && t > v + 1)
          v = t + 1;
      }
      /* quotes, and a string array's "<" ("cookies=<a=b>") */
      while (*v == '"' || *v == '\\' || *v == '<' || *v == '{')
        v++;
    }
    g_free (key);
    /* masked already (a URI's query value): the next pair is its own */
    if (!secret || g_str_has_prefix (v, GP_REDACT_MASK))
      continue;
    if ((scheme = gp_redact_auth_scheme (v, authorization)) > 0) {
      /* the scheme stays; what follows it to the line's end goes */
      g_string_append_len (out, p, v + scheme - p);
      g_string_append (out, GP_REDACT_MASK);
      p = v + scheme + strcspn (v + scheme, *c == ':' ? "\r\n" :
          GP_REDACT_LINE_STOPS ";");
    } else {
      /* a header's value ("Cookie: ...") runs to the line's end, quotes
       * and all: a "NAME: " or "NAME=" inside it is no pair of its own,
       * and a mask that stopped at a quote would leave a value whose
       * name it hid */
      gsize n = strcspn (v, *c == ':' ? "\r\n" : GP_REDACT_VALUE_STOPS);

      if (n == 0)
        continue;
      g_string_append_len (out, p, v - p);
      g_string_append (out, GP_REDACT_MASK);
      p = v + n;
    }
    c = p - 1;
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

    for (i = 0; gp_redact_homes[i]; i++) {
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
  return gp_redact_uris (value);
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
  gchar *a, *b, *c, *d;

  if (text == NULL)
    return NULL;
  /* the known values last: one that is part of a URI ("http:", a
   * location's folder) masked first would hide the URI from its mask */
  a = gp_redact_uris (text);
  b = gp_redact_pairs (a);
  c = gp_redact_home_paths (b);
  d = gp_redact_literals (r, c);
  g_free (a);
  g_free (b);
  g_free (c);
  return d;
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
  gchar *text, *uris;
  guint i;

  if (launch == NULL)
    return NULL;
  /* its URIs first, wherever the parse puts them: a known value masked
   * inside one (a location's folder "/rtmp" in a property the parse made
   * of a URI's tail) would hide it from the URI's mask */
  uris = gp_redact_uris (launch);
  l = gp_launch_parse (uris, NULL);
  if (l == NULL) {
    text = gp_redact_text (r, uris);
    g_free (uris);
    return text;
  }
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
  g_free (uris);
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
