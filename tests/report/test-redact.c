/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof tests
 *
 * test-redact.c: src/report/gp-redact on texts and on a session made by
 * hand: an rtspsrc URI with credentials, a credential property, a
 * filesink location under a home folder, each masked in the launch
 * string, the properties, an error's text and a finding's, while element
 * names, numbers and what is not private stay as they were.
 */
#include <string.h>

#include "report/gp-redact.h"
#include "../common/gp-test-redact-corpus.h"

#define GP_REDACT_LAUNCH "rtspsrc location=rtsp://user:secret@10.0.0.1/stream " \
  "user-pw=hunter22 ! rtph264depay ! h264parse ! mpegtsmux ! " \
  "filesink name=out location=/home/someone/private/out.ts"

static void
gp_assert_lacks (const gchar * text, const gchar * needle)
{
  if (strstr (text, needle) != NULL)
    g_error ("'%s' holds '%s'", text, needle);
}

static void
gp_assert_has (const gchar * text, const gchar * needle)
{
  if (strstr (text, needle) == NULL)
    g_error ("'%s' lacks '%s'", text, needle);
}

/* tests/fixtures/redact/secrets.tsv */
static GPtrArray *
gp_redact_corpus (void)
{
  gchar *path = g_build_filename (g_getenv ("GP_FIXTURES"), "redact",
      "secrets.tsv", NULL);
  gchar *err = NULL;
  GPtrArray *cases = gp_test_redact_corpus (path, &err);

  if (cases == NULL)
    g_error ("%s", err);
  g_free (path);
  return cases;
}

/* Each of @c's secrets gone from @out, each of its keeps still there. */
static void
gp_redact_assert_case (gchar ** c, const gchar * out)
{
  gchar **keeps = g_strsplit (c[1], "|", -1);
  const gchar *survivor = gp_test_redact_survivor (c, out);
  guint i;

  if (survivor != NULL)
    g_error ("a secret (%s) survives in '%s' (from '%s')", c[0], out, c[2]);
  for (i = 0; strcmp (c[1], "-") != 0 && keeps[i]; i++)
    if (strstr (out, keeps[i]) == NULL)
      g_error ("'%s' masked needlessly in '%s' (from '%s')", keeps[i], out,
          c[2]);
  g_strfreev (keeps);
}

/* At least 50 secret forms of real streaming URLs, properties, headers
 * and error texts: none survives, in running text or in a session's
 * launch string, and the host, the file or stream name stay.  Before,
 * 15 of 25 such secrets reached the report. */
static void
test_corpus (void)
{
  GPtrArray *cases = gp_redact_corpus ();
  guint i;

  g_assert_cmpuint (cases->len, >=, 50);
  for (i = 0; i < cases->len; i++) {
    gchar **c = g_ptr_array_index (cases, i);
    gchar *out = gp_redact_text (NULL, c[2]);
    GpSession *s = gp_session_new ();

    gp_redact_assert_case (c, out);
    g_free (out);
    /* as a launch string: by its properties too */
    s->launch = g_strdup (c[2]);
    gp_redact_session (s);
    gp_redact_assert_case (c, s->launch);
    gp_session_free (s);
  }
  g_test_message ("%u cases", cases->len);
  g_ptr_array_unref (cases);
}

static void
test_names (void)
{
  g_assert_true (gp_redact_is_secret_name ("user-pw"));
  g_assert_true (gp_redact_is_secret_name ("proxy-pw"));
  g_assert_true (gp_redact_is_secret_name ("passphrase"));
  g_assert_true (gp_redact_is_secret_name ("stream-key"));
  g_assert_true (gp_redact_is_secret_name ("api_token"));
  g_assert_true (gp_redact_is_secret_name ("Password"));
  g_assert_true (gp_redact_is_secret_name ("client-secret"));
  g_assert_true (gp_redact_is_secret_name ("key"));
  /* an encoder's keyframe interval and srt's key length are no secret */
  g_assert_false (gp_redact_is_secret_name ("key-int-max"));
  g_assert_false (gp_redact_is_secret_name ("pbkeylen"));
  g_assert_false (gp_redact_is_secret_name ("user-id"));
  g_assert_false (gp_redact_is_secret_name ("location"));
  g_assert_true (gp_redact_is_location_name ("location"));
  g_assert_true (gp_redact_is_location_name ("uri"));
  g_assert_true (gp_redact_is_location_name ("playlist-location"));
  g_assert_false (gp_redact_is_location_name ("sync"));
}

static void
test_text (void)
{
  struct
  {
    const gchar *in, *out;
  } cases[] = {
    {"rtsp://user:secret@10.0.0.1/stream", "rtsp://***@10.0.0.1/stream"},
    {"a http://me@host:80/x?y=1 b", "a http://***@host:80/x?y=1 b"},
    {"rtsp://10.0.0.1/stream", "rtsp://10.0.0.1/stream"},
    {"Could not open file \"/home/someone/private/out.ts\" for writing.",
        "Could not open file \"***/out.ts\" for writing."},
    {"file:///home/someone/v.mp4", "file://***/v.mp4"},
    {"/root/.config/x.conf", "***/x.conf"},
    {"/data/home/shared/a.ts", "/data/home/shared/a.ts"},
    /* the earliest home of any kind first: a /root/ path after a
     * /Users/ one once left the first as it was (found by fuzz-redact) */
    {"file:///Users/bob/a.mov, then /root/private/b.mkv",
        "file://***/a.mov, then ***/b.mkv"},
    /* a header's value runs to the line's end: the "NAME: " in it hid
     * the authorization behind from its mask (found by fuzz-redact) */
    {"Cookie: Proxy-Authorization: Custom-Scheme abc123def",
        "Cookie: ***"},
    /* ... quotes and all: a mask that stopped at the quote left the
     * cookie's value, its name hidden (found by fuzz-redact) */
    {"had header Authorization: x cookies=\"<SESSIONID=abc123def456>\"",
        "had header Authorization: x ***"},
    /* "(type)" is a structure's, after '=' and a type's name only: a
     * parenthesis after a header's ':' once passed for one, and a second
     * redaction masked again (found by fuzz-redact) */
    {"header 'Authorization:(Bearer 4) tok'", "header 'Authorization:***"},
    {"videotestsrc ! fakesink", "videotestsrc ! fakesink"},
    /* no secret: nothing masked */
    {"x264enc key-int-max=60 tune=zerolatency ! fakesink",
        "x264enc key-int-max=60 tune=zerolatency ! fakesink"},
    {"video/x-h264, codec_data=(buffer)01640028ffe1001867640028acd940780227e5"
          "c04400000fa40003a983c60c6580, stream-format=(string)avc",
        "video/x-h264, codec_data=(buffer)01640028ffe1001867640028acd940780227e5"
          "c04400000fa40003a983c60c6580, stream-format=(string)avc"},
    {"http://example.com:8080/users/@alice", "http://example.com:8080/users/@alice"},
    {"udpsrc uri=udp://239.1.1.1:5004", "udpsrc uri=udp://239.1.1.1:5004"},
    {"https://example.com/a.mp4?width=1920&height=1080#t=10",
        "https://example.com/a.mp4?width=1920&height=1080#t=10"},
    {"Authorization required: 401", "Authorization required: 401"},
    {"a token bucket of 20 ms; Host: example.com; time: 12.5 ms",
        "a token bucket of 20 ms; Host: example.com; time: 12.5 ms"},
    {"POST https://oauth.example.com/token client_id=app",
        "POST https://oauth.example.com/token client_id=app"},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    gchar *out = gp_redact_text (NULL, cases[i].in);

    g_assert_cmpstr (out, ==, cases[i].out);
    g_free (out);
  }
  g_assert_null (gp_redact_text (NULL, NULL));
}

static void
test_location (void)
{
  struct
  {
    const gchar *in, *out;
  } cases[] = {
    {"/mnt/customer/acme/out.ts", "***/out.ts"},
    {"out.ts", "out.ts"},
    {"file:///srv/media/in.mp4", "file://***/in.mp4"},
    {"rtsp://u:p@cam/1", "rtsp://***@cam/1"},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    gchar *out = gp_redact_location (cases[i].in);

    g_assert_cmpstr (out, ==, cases[i].out);
    g_free (out);
  }
}

/* A launch string's properties by their names, quoted where they must be */
static void
test_launch (void)
{
  GpSession *s = gp_session_new ();
  GpRedact *r;
  gchar *out;

  s->launch = g_strdup ("filesrc location=\"/mnt/a b/in x.ts\" ! fakesink "
      "srtsink passphrase=xy filesink location=/mnt/c/out.ts");
  r = gp_redact_new (s);
  out = gp_redact_launch (r, s->launch);
  /* quoted where the value needs it, bare where it does not */
  g_assert_cmpstr (out, ==, "filesrc location=\"***/in x.ts\" ! fakesink "
      "srtsink passphrase=*** filesink location=***/out.ts");
  g_free (out);
  /* the folder, learnt from the launch string, is masked in any text */
  out = gp_redact_text (r, "no space left in /mnt/a b");
  g_assert_cmpstr (out, ==, "no space left in ***");
  g_free (out);
  gp_redact_free (r);
  gp_session_free (s);

  /* a location's folder that is part of a URI ("http:") masked before
   * the URI hid its user-info from the URI's mask (found by fuzz-redact) */
  s = gp_session_new ();
  s->launch = g_strdup ("filesrc location=http:/a.mp4 ! fakesink "
      "souphttpsrc location=http://user:Secr3tPw@host/b ! fakesink");
  gp_redact_session (s);
  g_assert_null (strstr (s->launch, "Secr3tPw"));
  gp_session_free (s);

  /* the same inside a property the parse made of a URI's tail: the
   * launch string's URIs are masked before it is parsed (an input of
   * fuzz-redact, as it came) */
  s = gp_session_new ();
  s->launch = g_strdup (
      "whipsink whip-endpoint=https://whip.exa00000000ample.cvm:ux "
      "! rtmp/s3cr3tkey\"000000000000000000 00000000000000000000000"
      "00000000ion}\"rtmp://ingest.exsink loc locat0000000000000tmp"
      "/s3cr3tkey\"000000000000000000 0e.com:uxmpdpoint auth-token="
      "w\003 rtmps://live-api-s.facebook.com:443/rtmp/FB-1234567890"
      "123456-0-AbCdEfGhIjKlMnOp ");
  gp_redact_session (s);
  g_assert_null (strstr (s->launch, "FB-1234567890123456-0-AbCdEfGhIjKlMnOp"));
  gp_session_free (s);
}

/* A session as `gstprof run` keeps it: everything private masked where
 * it stands, the rest as it was. */
static void
test_session (void)
{
  GpSession *s = gp_session_new ();
  GpElement *src, *sink;
  GpFinding *f;
  GpEvent *ev;
  gchar *data;

  s->launch = g_strdup (GP_REDACT_LAUNCH);
  src = gp_session_add_element (s, "rtspsrc0", "rtspsrc", "pipeline0",
      "source");
  src->props = json_object_new ();
  json_object_set_string_member (src->props, "location",
      "rtsp://user:secret@10.0.0.1/stream");
  json_object_set_string_member (src->props, "user-pw", "hunter22");
  json_object_set_int_member (src->props, "latency", 2000);
  sink = gp_session_add_element (s, "out", "filesink", "pipeline0", "sink");
  sink->props = json_object_new ();
  json_object_set_string_member (sink->props, "location",
      "/home/someone/private/out.ts");
  ev = gp_session_add_event (s, 1.5, "error", "out", "Could not open "
      "file /home/someone/private/out.ts for writing; password hunter22");
  ev->data = json_object_new ();
  json_object_set_string_member (ev->data, "debug",
      "gstfilesink.c(1): /home/someone/private/out.ts");
  f = gp_session_add_finding (s, "HOT", "info", "out writes to "
      "/home/someone/private/out.ts");
  g_free (f->why);
  f->why = g_strdup ("rtsp://user:secret@10.0.0.1/stream is slow");
  g_free (f->fix);
  f->fix = g_strdup ("nothing");
  f->fix_patch = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gp_launch_op_free);
  g_ptr_array_add (f->fix_patch, gp_launch_op_set_string ("rtspsrc0",
          "user-pw", "hunter22"));

  gp_redact_session (s);
  data = gp_session_to_data (s, TRUE, NULL);
  gp_assert_lacks (data, "secret");
  gp_assert_lacks (data, "hunter22");
  gp_assert_lacks (data, "/home/someone");
  gp_assert_lacks (data, "private");
  gp_assert_has (data, "rtsp://***@10.0.0.1/stream");
  gp_assert_has (data, "***/out.ts");
  gp_assert_has (data, "\"latency\" : 2000");
  g_assert_cmpstr (s->launch, ==, "rtspsrc location=rtsp://***@10.0.0.1/"
      "stream user-pw=*** ! rtph264depay ! h264parse ! mpegtsmux ! "
      "filesink name=out location=***/out.ts");
  g_assert_cmpstr (gp_element_get_prop_string (src, "user-pw"), ==, "***");
  g_assert_cmpstr (f->title, ==, "out writes to ***/out.ts");
  g_free (data);
  gp_session_free (s);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/redact/names", test_names);
  g_test_add_func ("/redact/text", test_text);
  g_test_add_func ("/redact/location", test_location);
  g_test_add_func ("/redact/launch", test_launch);
  g_test_add_func ("/redact/session", test_session);
  g_test_add_func ("/redact/corpus", test_corpus);
  return g_test_run ();
}
