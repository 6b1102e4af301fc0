/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-redact.h: what a report sent around must not carry. Credentials and
 * private locations in a session's property values and launch string are
 * masked before anything is shown: `gstprof report` (and whatever saves a
 * session for others next: the panel's Save) calls gp_redact_session () on
 * the session it loaded; the session on disk stays exact.
 *
 * What is masked (tests/fixtures/redact/secrets.tsv holds the forms, from
 * cameras, ingest services, signed URLs, headers and error texts):
 * - in every URI, wherever it stands: its user-info up to the last '@'
 *   before the query ("rtsp://user:pa/ss@host/x" becomes "rtsp://" then
 *   the mask then "@host/x"; not "http://host:8080/users/@alice"); each
 *   query or fragment value whose name says it is a credential (below:
 *   token=, X-Amz-Signature=, sig=, passphrase=, streamid=, hdnts=) or
 *   that looks like one (GP_REDACT_SHAPE_MIN characters or more of a
 *   token's alphabet, letters and digits both: a JWT, an HMAC); an RTMP
 *   URL's stream key, its last path segment (rtmp://host/app/KEY);
 * - the value of every property whose name says it is a credential: its
 *   last word (words split at '-' and '_') is key, pw, pwd, pass, token,
 *   sig, auth, headers, hdnts or hdnea, or the name holds password,
 *   passwd, passphrase, secret, token, cookie, authorization, credential,
 *   signature, apikey, streamid or tokenhash ("user-pw", "stream-key",
 *   "extra-headers", "cookies"; not "key-int-max");
 * - in any text, the value of "NAME=VALUE", "NAME: VALUE" and a
 *   structure's "NAME=(string)VALUE" whose NAME is such a name
 *   ("password=", "AWS_SECRET_ACCESS_KEY=", "Authorization: Bearer ..."
 *   keeps its scheme), and a bare "Bearer TOKEN";
 * - the folders of every file location: a location or uri property (also
 *   "*-location", "*-uri"), a file:// URI, and any path under a home
 *   folder (/home/NAME, /root, /Users/NAME) in any text keep their last
 *   part only ("/home/someone/private/out.ts" becomes "***" "/out.ts");
 * - and, wherever else the same characters stand (an error's text, a
 *   finding's), the values masked above, when they are at least
 *   GP_REDACT_MIN_LITERAL long.
 * Element names, factories, caps and numbers are kept: they are what the
 * report is about.
 */
#ifndef __GP_REDACT_H__
#define __GP_REDACT_H__

#include <glib.h>
#include "core/gp-session.h"

G_BEGIN_DECLS

/* What stands for what was hidden. */
#define GP_REDACT_MASK "***"

/* A hidden value is also hidden wherever else it stands only when it is
 * at least this long: a password "1" or "abc" would otherwise mask every
 * such digit or word of the report. */
#define GP_REDACT_MIN_LITERAL 4

/* Whether property @name holds a credential (above). */
gboolean gp_redact_is_secret_name (const gchar * name);

/* Whether property @name holds a file location or a URI (above). */
gboolean gp_redact_is_location_name (const gchar * name);

/* @value of a location property, masked: a URI's credentials, a path's
 * folders (a network URI keeps its host and path). A new string. */
gchar *gp_redact_location (const gchar * value);

/* What one session's values say is private, to mask in any text. */
typedef struct _GpRedact GpRedact;

/* The private values of @s: its elements' properties as recorded, and
 * those its launch string gives. */
GpRedact *gp_redact_new (GpSession * s);
void gp_redact_free (GpRedact * r);

/* @text with every URI's credentials, every home-folder path's folders
 * and every private value @r knows (@r may be NULL: none) masked. A new
 * string; NULL for NULL. */
gchar *gp_redact_text (const GpRedact * r, const gchar * text);

/* A launch string masked: each credential property's value, each
 * location property's folders, then gp_redact_text (). A new string. */
gchar *gp_redact_launch (const GpRedact * r, const gchar * launch);

/* Masks @s in place: its launch string, its elements' properties, its
 * events' texts and data, its findings' titles, why, fix, evidence and
 * edits, and an import's detail. */
void gp_redact_session (GpSession * s);

G_END_DECLS

#endif /* __GP_REDACT_H__ */
