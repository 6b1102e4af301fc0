/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof tests: the launch-string tokenizer, element naming and rewriter
 * (src/core/gp-launch-*.c).
 *
 * Truth comes from GStreamer itself: every predicted element name is
 * compared with the pipeline gst_parse_launch () builds in a fresh process
 * (a subprocess per string, since GStreamer's name counters are
 * process-wide), every rewrite is parsed by gst_parse_launch () and the
 * property, caps or link it was meant to change is read back from the real
 * elements, and strings this parser rejects must be rejected by GStreamer
 * too.
 */
#include <string.h>

#include <gst/gst.h>
#include <json-glib/json-glib.h>

#include "core/gp-launch.h"
#include "core/gp-session.h"

/* Real launch strings, varied on purpose. All of them build with this
 * machine's GStreamer, so their element names are checked too. */
static const gchar *corpus[] = {
  "videotestsrc ! videoconvert ! fakesink",
  "videotestsrc is-live=true pattern=ball ! "
      "video/x-raw,width=1280,height=720,framerate=30/1 ! videoconvert ! "
      "x264enc speed-preset=medium tune=zerolatency ! h264parse ! "
      "fakesink sync=false",
  "videotestsrc ! tee name=t t. ! queue ! fakesink t. ! queue ! "
      "videoconvert ! fakesink",
  "videotestsrc ! tee name=t ! queue ! fakesink  t.src_1 ! "
      "queue leaky=downstream ! fakesink",
  "audiotestsrc ! audioconvert ! audioresample ! vorbisenc ! oggmux ! "
      "fakesink",
  "filesrc location=/dev/null ! decodebin ! videoconvert ! fakesink",
  "filesrc location=\"/tmp/some file.mp4\" ! qtdemux name=demux "
      "demux.video_0 ! queue ! h264parse ! avdec_h264 ! fakesink "
      "demux.audio_0 ! queue ! fakesink",
  "uridecodebin uri=file:///tmp/x.mp4 name=dec dec. ! queue ! videoconvert "
      "! fakesink dec. ! queue ! audioconvert ! fakesink",
  "videotestsrc ! video/x-raw,format=I420,width=320,height=240 ! "
      "videoscale ! video/x-raw,width=160,height=120 ! fakesink",
  "videotestsrc ! video/x-raw, format=(string)NV12, width=(int)640 ! "
      "fakesink",
  "videotestsrc ! video/x-raw,format={ I420, NV12 },width=[ 16, 4096 ] ! "
      "videoconvert ! fakesink",
  "videotestsrc ! video/x-raw(memory:SystemMemory),format=NV12 ! fakesink",
  "videotestsrc num-buffers=10 ! jpegenc ! avimux ! "
      "filesink location=/tmp/gstprof-launch-test.avi",
  "( videotestsrc ! videoconvert ) ! fakesink",
  "bin.( name=inner videotestsrc ! queue ) ! fakesink",
  "videotestsrc ! queue2 ! identity sleep-time=1000 ! fakesink",
  "fakesrc num-buffers=5 sizetype=fixed sizemax=1024 ! identity "
      "silent=false ! fakesink dump=false",
  "videotestsrc ! x264enc ! mpegtsmux name=mux ! fakesink audiotestsrc ! "
      "lamemp3enc ! mux.",
  "matroskamux name=mux ! fakesink videotestsrc ! x264enc ! mux.video_0 "
      "audiotestsrc ! vorbisenc ! mux.audio_0",
  "compositor name=comp ! videoconvert ! fakesink videotestsrc ! "
      "comp.sink_0 videotestsrc pattern=ball ! comp.sink_1",
  "videotestsrc ! textoverlay text=\"Hello, world! ( x ) \\\"q\\\"\" "
      "valignment=top ! fakesink",
  "videotestsrc ! textoverlay text='single quoted' ! fakesink",
  "videotestsrc ! identity name=\"id 1\" ! fakesink",
  "videotestsrc ! capsfilter caps=video/x-raw,width=320 ! videoconvert ! "
      "video/x-raw,format=NV12 ! fakesink",
  "videotestsrc ! videoconvert ! videoconvert ! videoconvert ! fakesink",
  "videotestsrc ! queue max-size-buffers=3 max-size-time=0 "
      "max-size-bytes=0 leaky=downstream ! fakesink",
  "videotestsrc\n  ! videoconvert\t!\tfakesink",
  "videotestsrc!videoconvert!fakesink",
  "videotestsrc ! video/x-raw ; video/x-bayer ! fakesink",
  "videotestsrc ! x264enc ! rtph264pay config-interval=1 pt=96 ! "
      "udpsink host=127.0.0.1 port=5000 sync=false",
  "udpsrc port=5000 caps=\"application/x-rtp, media=(string)video, "
      "encoding-name=(string)H264\" ! rtph264depay ! h264parse ! "
      "avdec_h264 ! fakesink",
  "videotestsrc ! video/x-raw,framerate=30/1 ! videorate ! "
      "video/x-raw,framerate=10/1 ! fakesink",
  "videotestsrc ! glupload ! glcolorconvert ! gldownload ! fakesink",
  "videotestsrc ! decodebin ! video/x-raw ! queue ! fakesink "
      "videotestsrc ! video/x-raw ! fakesink",
  "fakesrc ! fakesink fakesrc ! fakesink",
  "videotestsrc ! identity name=NULL ! identity ! fakesink",
  "tee name=t ! fakesink videotestsrc ! t.",
  "videotestsrc ! video/x-raw,width=320 ! ( queue ! "
      "video/x-raw,format=I420 ! fakesink )",
  "videotestsrc ! queue ! .sink_1 compositor name=c ! fakesink "
      "videotestsrc ! c.sink_0",
  "file:///tmp/gstprof-nonexistent.mp4 ! decodebin ! fakesink",
  "videotestsrc name=a ! fakesink videotestsrc ! fakesink",
  "( name=b fakesrc ) ( fakesink )",
  "audiotestsrc wave=sine freq=440 ! audio/x-raw,rate=48000,channels=2 ! "
      "audioconvert ! level interval=100000000 ! fakesink",
  "videotestsrc ! videoconvert ! autovideosink",
};

/* Valid syntax whose elements are not all here (Jetson, DeepStream,
 * presets, link-all): round trip and structure only. */
static const gchar *syntax_only[] = {
  "nvarguscamerasrc sensor-id=0 ! video/x-raw(memory:NVMM),width=1920,"
      "height=1080,framerate=30/1,format=NV12 ! nvvidconv flip-method=2 ! "
      "nvv4l2h264enc bitrate=8000000 insert-sps-pps=true ! h264parse ! "
      "mp4mux ! filesink location=out.mp4",
  "nvstreammux name=m batch-size=2 width=1920 height=1080 ! nvinfer "
      "config-file-path=/opt/cfg.txt ! nvvideoconvert ! nvdsosd ! "
      "fakesink uridecodebin uri=rtsp://cam/1 ! m.sink_0 "
      "uridecodebin uri=rtsp://cam/2 ! m.sink_1",
  "videotestsrc ! x264enc @preset=\"Profile 1\" ! fakesink",
  "videotestsrc ! video/x-raw,format=I420 : fakesink",
  "a.( b ) c . ( d )",
  "src ! compositor sink_0::xpos=10 sink_0::ypos=20 ! out",
  "x name = y",
  "rtspsrc location=rtsp://user:pa%40ss@10.0.0.2:554/stream?x=1&y=2 "
      "latency=0 ! rtph264depay ! fakesink",
  "filesrc location=C:\\\\videos\\\\a\\ b.mp4 ! fakesink",
};

static gchar *
fixture_dir (void)
{
  const gchar *root = g_getenv ("GP_FIXTURES");

  g_assert_nonnull (root);
  return g_build_filename (root, "gst-profile-sessions", NULL);
}

/* every segment starts where the previous one ended, and to_string () is
 * the input byte for byte */
static GpLaunch *
check_round_trip (const gchar * s)
{
  GError *err = NULL;
  GpLaunch *l = gp_launch_parse (s, &err);
  gchar *back;
  guint i, at = 0;

  if (l == NULL)
    g_error ("parse of \"%s\" failed: %s", s, err->message);
  for (i = 0; i < gp_launch_get_n_segments (l); i++) {
    const GpLaunchSegment *seg = gp_launch_get_segment (l, i);

    g_assert_cmpuint (seg->offset, ==, at);
    g_assert_cmpuint (strlen (seg->text), >, 0);
    g_assert_true (strncmp (s + at, seg->text, strlen (seg->text)) == 0);
    at += strlen (seg->text);
  }
  g_assert_cmpuint (at, ==, strlen (s));
  back = gp_launch_to_string (l);
  g_assert_cmpstr (back, ==, s);
  g_free (back);
  return l;
}

static void
test_round_trip_fixtures (void)
{
  gchar *dir = fixture_dir ();
  GDir *d = g_dir_open (dir, 0, NULL);
  const gchar *f;
  guint n = 0;

  g_assert_nonnull (d);
  while ((f = g_dir_read_name (d)) != NULL) {
    gchar *path;
    JsonParser *p;
    JsonObject *root, *session;
    const gchar *launch;
    GpLaunch *l;

    if (!g_str_has_suffix (f, ".json"))
      continue;
    path = g_build_filename (dir, f, NULL);
    p = json_parser_new ();
    g_assert_true (json_parser_load_from_file (p, path, NULL));
    root = json_node_get_object (json_parser_get_root (p));
    session = json_object_get_object_member (root, "session");
    if (session != NULL && json_object_has_member (session, "launch") &&
        !json_object_get_null_member (session, "launch")) {
      launch = json_object_get_string_member (session, "launch");
      l = check_round_trip (launch);
      /* every capture here has caps segments and named elements */
      g_assert_cmpint (gp_launch_find_element (l, "capsfilter0"), >=, 0);
      g_assert_cmpint (gp_launch_find_element (l, "fakesink0"), >=, 0);
      gp_launch_free (l);
      n++;
    }
    g_object_unref (p);
    g_free (path);
  }
  g_dir_close (d);
  g_free (dir);
  /* five of the eight captures carry their launch string */
  g_assert_cmpuint (n, >=, 5);
}

static void
test_round_trip_corpus (void)
{
  guint i;

  g_assert_cmpuint (G_N_ELEMENTS (corpus), >=, 30);
  for (i = 0; i < G_N_ELEMENTS (corpus); i++)
    gp_launch_free (check_round_trip (corpus[i]));
  for (i = 0; i < G_N_ELEMENTS (syntax_only); i++)
    gp_launch_free (check_round_trip (syntax_only[i]));
}

/* The same form as a fresh parse of the text, segments and elements. */
static void
assert_same_form (const GpLaunch * a, const GpLaunch * b)
{
  guint i;

  g_assert_cmpuint (gp_launch_get_n_segments (a), ==,
      gp_launch_get_n_segments (b));
  for (i = 0; i < gp_launch_get_n_segments (a); i++) {
    const GpLaunchSegment *x = gp_launch_get_segment (a, i);
    const GpLaunchSegment *y = gp_launch_get_segment (b, i);

    g_assert_cmpint (x->kind, ==, y->kind);
    g_assert_cmpstr (x->text, ==, y->text);
    g_assert_cmpuint (x->offset, ==, y->offset);
    g_assert_cmpint (x->element, ==, y->element);
  }
  g_assert_cmpuint (gp_launch_get_n_elements (a), ==,
      gp_launch_get_n_elements (b));
  for (i = 0; i < gp_launch_get_n_elements (a); i++) {
    const GpLaunchElement *x = gp_launch_get_element (a, i);
    const GpLaunchElement *y = gp_launch_get_element (b, i);

    g_assert_cmpint (x->kind, ==, y->kind);
    g_assert_cmpstr (x->factory, ==, y->factory);
    g_assert_cmpstr (x->name, ==, y->name);
    g_assert_cmpint (x->name_certain, ==, y->name_certain);
    g_assert_cmpuint (x->offset, ==, y->offset);
    g_assert_cmpuint (x->length, ==, y->length);
    g_assert_cmpint (x->parent, ==, y->parent);
  }
  g_assert_cmpstr (gp_launch_get_toplevel_name (a), ==,
      gp_launch_get_toplevel_name (b));
}

/* A copy is the parsed form again without parsing: a patch applies to it
 * as to a fresh parse, and leaves the original as it was. */
static void
test_copy (void)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (corpus); i++) {
    GpLaunch *l = gp_launch_parse (corpus[i], NULL);
    GpLaunch *c = gp_launch_copy (l), *fresh = gp_launch_parse (corpus[i],
        NULL);
    const gchar *first = gp_launch_get_element (l, 0)->name;
    GPtrArray *patch = gp_launch_patch_new ();
    gboolean ok_c, ok_fresh;
    gchar *text;

    g_ptr_array_add (patch, gp_launch_op_insert (GP_LAUNCH_AT_AFTER, first,
            "identity"));
    assert_same_form (c, l);
    ok_c = gp_launch_apply_patch (c, patch, NULL);
    ok_fresh = gp_launch_apply_patch (fresh, patch, NULL);
    g_assert_cmpint (ok_c, ==, ok_fresh);
    if (ok_c)
      assert_same_form (c, fresh);
    text = gp_launch_to_string (l);
    g_assert_cmpstr (text, ==, corpus[i]);
    g_free (text);
    g_ptr_array_unref (patch);
    gp_launch_free (fresh);
    gp_launch_free (c);
    gp_launch_free (l);
  }
}

/* ------------------------------------------------------------------------ */
/* launch strings written in the project's own tests                         */

/* C string literals of a source file, adjacent ones joined, escapes
 * decoded; comments and character literals skipped. */
static GPtrArray *
string_literals (const gchar * src)
{
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);
  GString *cur = NULL;
  const gchar *c = src;

  while (*c != '\0') {
    if (c[0] == '/' && c[1] == '*') {
      const gchar *e = strstr (c + 2, "*/");

      c = e != NULL ? e + 2 : c + strlen (c);
      continue;
    }
    if (c[0] == '/' && c[1] == '/') {
      while (*c != '\0' && *c != '\n')
        c++;
      continue;
    }
    if (*c == '\'') {
      for (c++; *c != '\0' && *c != '\''; c++)
        if (*c == '\\' && c[1] != '\0')
          c++;
      if (*c != '\0')
        c++;
      continue;
    }
    if (*c == '"') {
      if (cur == NULL)
        cur = g_string_new (NULL);
      for (c++; *c != '\0' && *c != '"'; c++) {
        if (*c == '\\' && c[1] != '\0') {
          c++;
          switch (*c) {
            case 'n':
              g_string_append_c (cur, '\n');
              break;
            case 't':
              g_string_append_c (cur, '\t');
              break;
            case 'r':
              g_string_append_c (cur, '\r');
              break;
            case '\n':
              break;
            default:
              g_string_append_c (cur, *c);
              break;
          }
        } else {
          g_string_append_c (cur, *c);
        }
      }
      if (*c != '\0')
        c++;
      continue;
    }
    if (cur != NULL && !g_ascii_isspace (*c) && *c != '\\') {
      g_ptr_array_add (out, g_string_free (cur, FALSE));
      cur = NULL;
    }
    c++;
  }
  if (cur != NULL)
    g_ptr_array_add (out, g_string_free (cur, FALSE));
  return out;
}

static void
collect_project_strings (const gchar * dir, GPtrArray * found)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  const gchar *f;

  if (d == NULL)
    return;
  while ((f = g_dir_read_name (d)) != NULL) {
    gchar *path = g_build_filename (dir, f, NULL);

    if (g_file_test (path, G_FILE_TEST_IS_DIR)) {
      /* this folder's strings include deliberately odd ones */
      if (strcmp (f, "launch") != 0)
        collect_project_strings (path, found);
    } else if (g_str_has_suffix (f, ".c")) {
      gchar *src = NULL;
      GPtrArray *lits;
      guint i;

      g_assert_true (g_file_get_contents (path, &src, NULL, NULL));
      lits = string_literals (src);
      for (i = 0; i < lits->len; i++) {
        const gchar *s = g_ptr_array_index (lits, i);

        /* a launch string, not a format or a message, nor a density
         * template (its {each} ... {/each} is written n times first) */
        if (strstr (s, " ! ") != NULL && strchr (s, '%') == NULL &&
            strstr (s, "{each}") == NULL)
          g_ptr_array_add (found, g_strdup (s));
      }
      g_ptr_array_unref (lits);
      g_free (src);
    }
    g_free (path);
  }
  g_dir_close (d);
}

static void
test_round_trip_project (void)
{
  const gchar *root = g_getenv ("GP_SOURCE_ROOT");
  GPtrArray *found = g_ptr_array_new_with_free_func (g_free);
  gchar *dir;
  guint i, parsed = 0;

  g_assert_nonnull (root);
  dir = g_build_filename (root, "tests", NULL);
  collect_project_strings (dir, found);
  g_free (dir);
  dir = g_build_filename (root, "bench", NULL);
  collect_project_strings (dir, found);
  g_free (dir);
  g_test_message ("%u launch strings in the project's tests", found->len);
  g_assert_cmpuint (found->len, >=, 5);
  for (i = 0; i < found->len; i++) {
    const gchar *s = g_ptr_array_index (found, i);
    GError *err = NULL;
    GpLaunch *l = gp_launch_parse (s, &err);

    if (l != NULL) {
      gp_launch_free (l);
      gp_launch_free (check_round_trip (s));
      parsed++;
    } else if (strstr (err->message, "unterminated") == NULL) {
      /* refused here: GStreamer must refuse it too. Fragments of launch
       * strings (a test's expected substring) make GStreamer warn while it
       * refuses them; a warning is not the question here, the refusal is. */
      GError *gerr = NULL;
      GLogLevelFlags fatal = g_log_set_always_fatal (G_LOG_FATAL_MASK |
          G_LOG_LEVEL_CRITICAL);
      GstElement *e = gst_parse_launch_full (s, NULL,
          GST_PARSE_FLAG_FATAL_ERRORS, &gerr);

      g_log_set_always_fatal (fatal);

      if (e != NULL)
        g_error ("\"%s\" is refused (%s) but GStreamer builds it", s,
            err->message);
      g_clear_error (&gerr);
    }
    g_clear_error (&err);
  }
  g_assert_cmpuint (parsed, >=, 5);
  g_ptr_array_unref (found);
}

/* ------------------------------------------------------------------------ */
/* names, against gst_parse_launch () in a fresh process                     */

/* real elements that are ours: children of the top, and of the bins the
 * string made, recursively (not the insides of decodebin and the like) */
static void
real_children (GstBin * bin, GHashTable * bins, GPtrArray * out)
{
  GList *walk;

  for (walk = bin->children; walk != NULL; walk = walk->next) {
    GstElement *e = walk->data;

    g_ptr_array_add (out, e);
    if (GST_IS_BIN (e) && g_hash_table_contains (bins, GST_OBJECT_NAME (e)))
      real_children (GST_BIN (e), bins, out);
  }
}

static void
check_names (const gchar * s)
{
  GError *err = NULL;
  GpLaunch *l = gp_launch_parse (s, &err);
  GstElement *top;
  GHashTable *predicted, *bins;
  GPtrArray *real;
  guint i, certain = 0;

  g_assert_no_error (err);
  top = gst_parse_launch_full (s, NULL, GST_PARSE_FLAG_FATAL_ERRORS, &err);
  if (top == NULL)
    g_error ("gst_parse_launch (\"%s\"): %s", s, err->message);
  gst_object_ref_sink (top);

  predicted = g_hash_table_new (g_str_hash, g_str_equal);
  bins = g_hash_table_new (g_str_hash, g_str_equal);
  for (i = 0; i < gp_launch_get_n_elements (l); i++) {
    const GpLaunchElement *pe = gp_launch_get_element (l, i);
    GstElement *re;
    GstElementFactory *f;

    g_assert_nonnull (pe->name);
    g_hash_table_add (predicted, pe->name);
    if (pe->kind == GP_LAUNCH_BIN)
      g_hash_table_add (bins, pe->name);
    if (!pe->name_certain)
      continue;
    certain++;
    if (GST_IS_BIN (top))
      re = gst_bin_get_by_name (GST_BIN (top), pe->name);
    else
      re = strcmp (GST_OBJECT_NAME (top), pe->name) == 0 ?
          gst_object_ref (top) : NULL;
    if (re == NULL)
      g_error ("\"%s\": predicted %s (%s) is not in the pipeline", s,
          pe->name, pe->factory);
    f = gst_element_get_factory (re);
    g_assert_nonnull (f);
    g_assert_cmpstr (GST_OBJECT_NAME (f), ==, pe->factory);
    if (pe->kind == GP_LAUNCH_CAPS) {
      /* the capsfilter carries exactly the caps of this segment */
      GstCaps *want, *have = NULL;
      gchar *text = g_strndup (s + pe->offset, pe->length);

      want = gst_caps_from_string (text);
      g_object_get (re, "caps", &have, NULL);
      g_assert_true (gst_caps_is_strictly_equal (want, have));
      gst_caps_unref (want);
      gst_caps_unref (have);
      g_free (text);
    }
    gst_object_unref (re);
  }
  g_assert_cmpuint (certain, >, 0);
  if (gp_launch_get_toplevel_name (l) != NULL)
    g_assert_cmpstr (gp_launch_get_toplevel_name (l), ==,
        GST_OBJECT_NAME (top));
  else
    g_assert_true (g_hash_table_contains (predicted, GST_OBJECT_NAME (top)));

  /* and nothing the string made was left out of the model */
  real = g_ptr_array_new ();
  if (GST_IS_BIN (top))
    real_children (GST_BIN (top), bins, real);
  for (i = 0; i < real->len; i++) {
    GstObject *o = g_ptr_array_index (real, i);

    if (!g_hash_table_contains (predicted, GST_OBJECT_NAME (o)))
      g_error ("\"%s\": element %s is not predicted", s, GST_OBJECT_NAME (o));
  }
  g_ptr_array_unref (real);
  g_hash_table_unref (predicted);
  g_hash_table_unref (bins);
  gst_object_unref (top);
  gp_launch_free (l);
}

static void
test_names (gconstpointer data)
{
  if (g_test_subprocess ()) {
    check_names (data);
    return;
  }
  g_test_trap_subprocess (NULL, 20 * G_USEC_PER_SEC,
      G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

/* A link from decodebin waits for its pad: the capsfilter made at parse
 * time is thrown away (capsfilter0) and the real one comes at run time. */
static void
test_names_delayed (void)
{
  const gchar *s = "videotestsrc num-buffers=3 ! decodebin ! video/x-raw ! "
      "fakesink videotestsrc num-buffers=3 ! video/x-raw ! fakesink";
  GpLaunch *l;
  GstElement *top, *cf;
  gint i;

  if (!g_test_subprocess ()) {
    g_test_trap_subprocess (NULL, 30 * G_USEC_PER_SEC,
        G_TEST_SUBPROCESS_INHERIT_STDERR);
    g_test_trap_assert_passed ();
    return;
  }
  l = gp_launch_parse (s, NULL);
  g_assert_nonnull (l);
  i = gp_launch_find_element (l, "capsfilter2");
  g_assert_cmpint (i, >=, 0);
  g_assert_false (gp_launch_get_element (l, i)->name_certain);
  g_assert_cmpuint (gp_launch_get_element (l, i)->offset, ==,
      strstr (s, "video/x-raw") - s);
  i = gp_launch_find_element (l, "capsfilter1");
  g_assert_true (gp_launch_get_element (l, i)->name_certain);

  top = gst_parse_launch (s, NULL);
  g_assert_nonnull (top);
  cf = gst_bin_get_by_name (GST_BIN (top), "capsfilter0");
  g_assert_null (cf);
  g_assert_cmpint (gst_element_set_state (top, GST_STATE_PAUSED), !=,
      GST_STATE_CHANGE_FAILURE);
  g_assert_cmpint (gst_element_get_state (top, NULL, NULL, 10 * GST_SECOND),
      ==, GST_STATE_CHANGE_SUCCESS);
  cf = gst_bin_get_by_name (GST_BIN (top), "capsfilter2");
  g_assert_nonnull (cf);
  gst_object_unref (cf);
  gst_element_set_state (top, GST_STATE_NULL);
  gst_object_unref (top);
  gp_launch_free (l);
}

static void
test_names_jetson (void)
{
  /* real Orin NX capture: nvvidconv's elements are nvvconv<N> */
  GpLaunch *l = gp_launch_parse ("videotestsrc is-live=true ! "
      "video/x-raw,format=NV12 ! nvvidconv ! video/x-raw(memory:NVMM) ! "
      "nvvidconv ! video/x-raw,format=I420 ! nvv4l2h264enc ! fakesink",
      NULL);
  const gchar *want[] = { "videotestsrc0", "capsfilter0", "nvvconv0",
    "capsfilter1", "nvvconv1", "capsfilter2", "nvv4l2h264enc0", "fakesink0"
  };
  guint i;

  g_assert_nonnull (l);
  g_assert_cmpuint (gp_launch_get_n_elements (l), ==, G_N_ELEMENTS (want));
  for (i = 0; i < G_N_ELEMENTS (want); i++)
    g_assert_cmpstr (gp_launch_get_element (l, i)->name, ==, want[i]);
  /* the factory alias finds them too */
  g_assert_cmpint (gp_launch_find_element (l, "nvvidconv1"), ==, 4);
  gp_launch_free (l);
}

/* ------------------------------------------------------------------------ */
/* rewrites                                                                  */

static gchar *
patched (const gchar * s, const gchar * json, GError ** error)
{
  GpLaunch *l = gp_launch_parse (s, NULL);
  JsonNode *node = json_from_string (json, NULL);
  GPtrArray *patch;
  GError *err = NULL;
  gchar *out = NULL;

  g_assert_nonnull (l);
  g_assert_nonnull (node);
  /* the form session.json keeps them in, read as fix's plan reads them */
  patch = gp_session_patch_from_json (node, "test", &err);
  g_assert_no_error (err);
  if (gp_launch_apply_patch (l, patch, error)) {
    out = gp_launch_to_string (l);
  } else {
    /* unchanged */
    gchar *same = gp_launch_to_string (l);

    g_assert_cmpstr (same, ==, s);
    g_free (same);
  }
  g_ptr_array_unref (patch);
  json_node_unref (node);
  gp_launch_free (l);
  return out;
}

static gchar *
patched_ok (const gchar * s, const gchar * json)
{
  GError *err = NULL;
  gchar *out = patched (s, json, &err);

  g_assert_no_error (err);
  return out;
}

static GstElement *
build (const gchar * s)
{
  GError *err = NULL;
  GstElement *p = gst_parse_launch_full (s, NULL, GST_PARSE_FLAG_FATAL_ERRORS,
      &err);

  if (p == NULL)
    g_error ("gst_parse_launch (\"%s\"): %s", s, err->message);
  return gst_object_ref_sink (p);
}

static GstElement *
child (GstElement * p, const gchar * name)
{
  GstElement *e = gst_bin_get_by_name (GST_BIN (p), name);

  if (e == NULL)
    g_error ("no %s in the pipeline", name);
  gst_object_unref (e);
  return e;
}

/* the element the named element's src pad feeds */
static const gchar *
downstream_of (GstElement * p, const gchar * name)
{
  GstPad *src = gst_element_get_static_pad (child (p, name), "src");
  GstPad *peer = gst_pad_get_peer (src);
  GstElement *e = gst_pad_get_parent_element (peer);
  const gchar *n = GST_OBJECT_NAME (e);

  gst_object_unref (e);
  gst_object_unref (peer);
  gst_object_unref (src);
  return n;
}

/* Each of these builds one pipeline, in a fresh process (see add_fresh),
 * so the default names of the real elements are the predicted ones. */

static const gchar *set_src = "videotestsrc num-buffers=1 ! "
    "textoverlay text=old  valignment=top ! fakesink sync=true";

static void
test_patch_set_existing (void)
{
  gchar *out;
  GstElement *p;
  gboolean sync;

  out = patched_ok (set_src, "{\"op\":\"set\",\"target\":\"fakesink0\","
      "\"prop\":\"sync\",\"value\":\"false\"}");
  g_assert_cmpstr (out, ==, "videotestsrc num-buffers=1 ! "
      "textoverlay text=old  valignment=top ! fakesink sync=false");
  p = build (out);
  g_object_get (child (p, "fakesink0"), "sync", &sync, NULL);
  g_assert_false (sync);
  gst_object_unref (p);
  g_free (out);
}

static void
test_patch_set_quoted (void)
{
  gchar *out, *text;
  GstElement *p;

  /* a value that needs quoting reaches the element exactly */
  out = patched_ok (set_src, "{\"op\":\"set\",\"target\":\"textoverlay0\","
      "\"prop\":\"text\",\"value\":\"say \\\"hi\\\" ! \\\\ (ok)\"}");
  g_assert_cmpstr (out, ==, "videotestsrc num-buffers=1 ! "
      "textoverlay text=\"say \\\"hi\\\" ! \\\\ (ok)\"  valignment=top ! "
      "fakesink sync=true");
  p = build (out);
  g_object_get (child (p, "textoverlay0"), "text", &text, NULL);
  g_assert_cmpstr (text, ==, "say \"hi\" ! \\ (ok)");
  g_free (text);
  gst_object_unref (p);
  g_free (out);
}

static void
test_patch_set_new (void)
{
  gchar *out;
  GstElement *p;
  gint pattern;
  gboolean qos;

  /* a property not in the string is added; JSON numbers and booleans */
  out = patched_ok (set_src, "[{\"op\":\"set\",\"target\":\"videotestsrc0\","
      "\"prop\":\"pattern\",\"value\":18},{\"op\":\"set\",\"target\":"
      "\"fakesink0\",\"prop\":\"qos\",\"value\":false}]");
  g_assert_cmpstr (out, ==, "videotestsrc num-buffers=1 pattern=18 ! "
      "textoverlay text=old  valignment=top ! fakesink sync=true qos=false");
  p = build (out);
  g_object_get (child (p, "videotestsrc0"), "pattern", &pattern, NULL);
  g_object_get (child (p, "fakesink0"), "qos", &qos, NULL);
  g_assert_cmpint (pattern, ==, 18);
  g_assert_false (qos);
  gst_object_unref (p);
  g_free (out);
}

static const gchar *insert_src = "videotestsrc ! "
    "video/x-raw,width=64,height=48 ! videoconvert name=vc !  fakesink";

static void
test_patch_insert_after (void)
{
  gchar *out;
  GstElement *p;
  guint n;

  out = patched_ok (insert_src, "{\"op\":\"insert\",\"after\":\"vc\","
      "\"element\":\"queue\",\"props\":{\"max-size-buffers\":\"3\","
      "\"leaky\":2}}");
  g_assert_cmpstr (out, ==, "videotestsrc ! video/x-raw,width=64,height=48 ! "
      "videoconvert name=vc ! queue max-size-buffers=3 leaky=2 !  fakesink");
  p = build (out);
  g_assert_cmpstr (downstream_of (p, "vc"), ==, "queue0");
  g_assert_cmpstr (downstream_of (p, "queue0"), ==, "fakesink0");
  g_object_get (child (p, "queue0"), "max-size-buffers", &n, NULL);
  g_assert_cmpuint (n, ==, 3);
  gst_object_unref (p);
  g_free (out);
}

static void
test_patch_insert_before (void)
{
  gchar *out;
  GstElement *p;

  /* before an element fed through caps: after the caps */
  out = patched_ok (insert_src, "{\"op\":\"insert\",\"before\":\"vc\","
      "\"element\":\"identity\"}");
  g_assert_cmpstr (out, ==, "videotestsrc ! video/x-raw,width=64,height=48 ! "
      "identity ! videoconvert name=vc !  fakesink");
  p = build (out);
  g_assert_cmpstr (downstream_of (p, "capsfilter0"), ==, "identity0");
  g_assert_cmpstr (downstream_of (p, "identity0"), ==, "vc");
  gst_object_unref (p);
  g_free (out);
}

static void
test_patch_insert_before_caps (void)
{
  gchar *out;
  GstElement *p;

  /* before the caps: between the source and its capsfilter */
  out = patched_ok (insert_src, "{\"op\":\"insert\",\"before\":"
      "\"capsfilter0\",\"element\":\"queue\"}");
  g_assert_cmpstr (out, ==, "videotestsrc ! queue ! video/x-raw,width=64,"
      "height=48 ! videoconvert name=vc !  fakesink");
  p = build (out);
  g_assert_cmpstr (downstream_of (p, "videotestsrc0"), ==, "queue0");
  g_assert_cmpstr (downstream_of (p, "queue0"), ==, "capsfilter0");
  gst_object_unref (p);
  g_free (out);
}

static void
test_patch_insert_tee_branch (void)
{
  gchar *out;
  GstElement *p;

  /* into a tee branch given by reference */
  out = patched_ok ("videotestsrc ! tee name=t t. ! queue ! fakesink t. ! "
      "fakesink", "{\"op\":\"insert\",\"before\":\"fakesink1\",\"element\":"
      "\"queue\"}");
  g_assert_cmpstr (out, ==, "videotestsrc ! tee name=t t. ! queue ! fakesink "
      "t. ! queue ! fakesink");
  p = build (out);
  g_assert_cmpstr (downstream_of (p, "queue1"), ==, "fakesink1");
  gst_object_unref (p);
  g_free (out);
}

static const gchar *replace_src = "videotestsrc ! queue "
    "max-size-buffers=3 name=q  leaky=2 ! fakesink";

static void
test_patch_replace_drop (void)
{
  gchar *out;
  GstElement *p;

  /* properties dropped, name= kept */
  out = patched_ok (replace_src, "{\"op\":\"replace\",\"target\":\"q\","
      "\"element\":\"identity\"}");
  g_assert_cmpstr (out, ==, "videotestsrc ! identity name=q ! fakesink");
  p = build (out);
  g_assert_cmpstr (GST_OBJECT_NAME (gst_element_get_factory (child (p,
                  "q"))), ==, "identity");
  g_assert_cmpstr (downstream_of (p, "videotestsrc0"), ==, "q");
  gst_object_unref (p);
  g_free (out);
}

static void
test_patch_replace_keep (void)
{
  GError *err = NULL;
  gchar *out;

  /* kept: identity has no max-size-buffers, so GStreamer refuses it */
  out = patched_ok (replace_src, "{\"op\":\"replace\",\"target\":"
      "\"queue0\",\"element\":\"identity\",\"keep_props\":true}");
  g_assert_cmpstr (out, ==, "videotestsrc ! identity max-size-buffers=3 "
      "name=q  leaky=2 ! fakesink");
  g_assert_null (gst_parse_launch_full (out, NULL,
          GST_PARSE_FLAG_FATAL_ERRORS, &err));
  g_assert_error (err, GST_PARSE_ERROR, GST_PARSE_ERROR_NO_SUCH_PROPERTY);
  g_clear_error (&err);
  g_free (out);
}

static void
test_patch_replace_props (void)
{
  gchar *out;
  GstElement *p;
  gint method;

  out = patched_ok ("videotestsrc ! videoconvert ! fakesink", "{\"op\":"
      "\"replace\",\"target\":\"videoconvert0\",\"element\":\"videoscale\","
      "\"props\":{\"method\":\"nearest-neighbour\"}}");
  g_assert_cmpstr (out, ==, "videotestsrc ! videoscale "
      "method=nearest-neighbour ! fakesink");
  p = build (out);
  g_object_get (child (p, "videoscale0"), "method", &method, NULL);
  g_assert_cmpint (method, ==, 0);
  gst_object_unref (p);
  g_free (out);
}

static const gchar *caps_src = "videotestsrc ! videoconvert ! "
    "video/x-raw,format=I420 ! fakesink";

static void
test_patch_caps_add (void)
{
  gchar *out;
  GstElement *p;
  GstCaps *caps, *want;

  /* added on a link that has none */
  out = patched_ok (caps_src, "{\"op\":\"caps\",\"after\":\"videotestsrc0\","
      "\"caps\":\"video/x-raw,width=64,height=48\"}");
  g_assert_cmpstr (out, ==, "videotestsrc ! video/x-raw,width=64,height=48 ! "
      "videoconvert ! video/x-raw,format=I420 ! fakesink");
  p = build (out);
  g_object_get (child (p, "capsfilter0"), "caps", &caps, NULL);
  want = gst_caps_from_string ("video/x-raw,width=64,height=48");
  g_assert_true (gst_caps_is_strictly_equal (caps, want));
  gst_caps_unref (caps);
  gst_caps_unref (want);
  g_assert_cmpstr (downstream_of (p, "capsfilter0"), ==, "videoconvert0");
  gst_object_unref (p);
  g_free (out);
}

static void
test_patch_caps_replace (void)
{
  gchar *out;
  GstElement *p;
  GstCaps *caps, *want;

  /* replaced where the link has caps, by the element after or by name */
  out = patched_ok (caps_src, "{\"op\":\"caps\",\"before\":\"fakesink0\","
      "\"caps\":\"video/x-raw,format=GRAY8\"}");
  g_assert_cmpstr (out, ==, "videotestsrc ! videoconvert ! "
      "video/x-raw,format=GRAY8 ! fakesink");
  p = build (out);
  g_object_get (child (p, "capsfilter0"), "caps", &caps, NULL);
  want = gst_caps_from_string ("video/x-raw,format=GRAY8");
  g_assert_true (gst_caps_is_strictly_equal (caps, want));
  gst_caps_unref (caps);
  gst_caps_unref (want);
  gst_object_unref (p);
  g_free (out);
  out = patched_ok (caps_src, "{\"op\":\"caps\",\"target\":\"capsfilter0\","
      "\"caps\":\" video/x-raw(memory:NVMM) \"}");
  g_assert_cmpstr (out, ==, "videotestsrc ! videoconvert ! "
      "video/x-raw(memory:NVMM) ! fakesink");
  g_free (out);
}

static const gchar *remove_src = "videotestsrc ! video/x-raw,format=I420 ! "
    "videoconvert ! video/x-raw,format=NV12 ! videoconvert ! fakesink";

static void
test_patch_remove_element (void)
{
  gchar *out;
  GstElement *p;

  /* the incoming caps stay, the outgoing ones go with the element */
  out = patched_ok (remove_src, "{\"op\":\"remove\",\"target\":"
      "\"videoconvert0\"}");
  g_assert_cmpstr (out, ==, "videotestsrc ! video/x-raw,format=I420 ! "
      "videoconvert ! fakesink");
  p = build (out);
  g_assert_cmpstr (downstream_of (p, "capsfilter0"), ==, "videoconvert0");
  g_assert_cmpstr (downstream_of (p, "videoconvert0"), ==, "fakesink0");
  gst_object_unref (p);
  g_free (out);

  /* the last element of a chain takes its incoming link */
  out = patched_ok (remove_src, "{\"op\":\"remove\",\"target\":"
      "\"fakesink0\"}");
  g_assert_cmpstr (out, ==, "videotestsrc ! video/x-raw,format=I420 ! "
      "videoconvert ! video/x-raw,format=NV12 ! videoconvert");
  g_free (out);
}

static void
test_patch_remove_caps (void)
{
  gchar *out;
  GstElement *p;

  out = patched_ok (remove_src, "{\"op\":\"remove\",\"target\":"
      "\"capsfilter1\"}");
  g_assert_cmpstr (out, ==, "videotestsrc ! video/x-raw,format=I420 ! "
      "videoconvert ! videoconvert ! fakesink");
  p = build (out);
  g_assert_cmpstr (downstream_of (p, "videoconvert0"), ==, "videoconvert1");
  gst_object_unref (p);
  g_free (out);
}

static void
test_patch_batch_names (void)
{
  gchar *out;
  GstElement *p;

  /* names in one batch are those before it: videoconvert1 is the second
   * one even after the first was replaced */
  out = patched_ok (remove_src, "[{\"op\":\"replace\",\"target\":"
      "\"videoconvert0\",\"element\":\"videoscale\"},{\"op\":\"remove\","
      "\"target\":\"videoconvert1\"},{\"op\":\"remove\",\"target\":"
      "\"capsfilter1\"}]");
  g_assert_cmpstr (out, ==, "videotestsrc ! video/x-raw,format=I420 ! "
      "videoscale ! fakesink");
  p = build (out);
  g_assert_cmpstr (downstream_of (p, "videoscale0"), ==, "fakesink0");
  gst_object_unref (p);
  g_free (out);
}

static void
test_patch_jetson_fixture (void)
{
  /* the orin-nx-jp6-sw capture: the software converter replaced by the
   * hardware one, the NV12 caps in front of it dropped */
  const gchar *s = "videotestsrc is-live=true ! video/x-raw,format=I420,"
      "width=1280,height=720,framerate=30/1 ! videoconvert ! "
      "video/x-raw,format=NV12 ! nvvidconv ! video/x-raw(memory:NVMM) ! "
      "nvv4l2h264enc ! h264parse ! fakesink sync=false";
  gchar *out, *diff;
  GpLaunch *l;

  out = patched_ok (s, "[{\"op\":\"remove\",\"target\":\"videoconvert0\"},"
      "{\"op\":\"set\",\"target\":\"nvvconv0\",\"prop\":\"flip-method\","
      "\"value\":\"0\"},{\"op\":\"insert\",\"after\":\"capsfilter2\","
      "\"element\":\"queue\"}]");
  g_assert_cmpstr (out, ==, "videotestsrc is-live=true ! video/x-raw,"
      "format=I420,width=1280,height=720,framerate=30/1 ! nvvidconv "
      "flip-method=0 ! video/x-raw(memory:NVMM) ! queue ! nvv4l2h264enc ! "
      "h264parse ! fakesink sync=false");
  l = check_round_trip (out);
  g_assert_cmpstr (gp_launch_get_element (l, gp_launch_find_element (l,
              "queue0"))->factory, ==, "queue");
  gp_launch_free (l);

  diff = gp_launch_diff (s, out);
  g_assert_cmpstr (diff, ==,
      "- video/x-raw,format=I420,width=1280,height=720,framerate=30/1 ! "
      "videoconvert ! video/x-raw,format=NV12 ! nvvidconv ! "
      "video/x-raw(memory:NVMM) ! nvv4l2h264enc\n"
      "+ video/x-raw,format=I420,width=1280,height=720,framerate=30/1 ! "
      "nvvidconv flip-method=0 ! video/x-raw(memory:NVMM) ! queue ! "
      "nvv4l2h264enc\n");
  g_free (diff);
  g_free (out);
}

/* rewrites checked on the text alone (also where the elements are not on
 * this machine) */
static void
test_patch_text (void)
{
  const struct
  {
    const gchar *in, *patch, *out;
  } cases[] = {
    /* replace: a property given again takes the new value in place */
    {"a ! queue max-size-buffers=3 leaky=2 name=q ! b",
          "{\"op\":\"replace\",\"target\":\"q\",\"element\":\"identity\","
          "\"props\":{\"leaky\":\"1\",\"sleep-time\":5}}",
        "a ! identity leaky=1 name=q sleep-time=5 ! b"},
    {"a ! queue max-size-buffers=3 leaky=2 name=q ! b",
          "{\"op\":\"replace\",\"target\":\"q\",\"element\":\"identity\","
          "\"keep_props\":true,\"props\":{\"name\":\"z\"}}",
        "a ! identity max-size-buffers=3 leaky=2 name=z ! b"},
    /* set: the last of two values is the one GStreamer keeps */
    {"a ! q x=1 x=2 ! b",
          "{\"op\":\"set\",\"target\":\"q0\",\"prop\":\"x\",\"value\":3}",
        "a ! q x=1 x=3 ! b"},
    /* set: '_' and '-' are the same property, spaces around '=' kept */
    {"a ! q max_size = 1 ! b",
          "{\"op\":\"set\",\"target\":\"q0\",\"prop\":\"max-size\","
          "\"value\":\"\"}",
        "a ! q max_size = \"\" ! b"},
    /* set on a bin: after its opener's properties */
    {"a ! bin.( name=b c ! d ) ! e",
          "{\"op\":\"set\",\"target\":\"b\",\"prop\":\"async-handling\","
          "\"value\":true}",
        "a ! bin.( name=b async-handling=true c ! d ) ! e"},
    /* insert inside a bin, and after a bin */
    {"a ! ( c ! d ) ! e",
          "{\"op\":\"insert\",\"after\":\"c0\",\"element\":\"q\"}",
        "a ! ( c ! q ! d ) ! e"},
    {"a ! ( c ! d ) ! e",
          "{\"op\":\"insert\",\"after\":\"bin0\",\"element\":\"q\"}",
        "a ! ( c ! d ) ! q ! e"},
    /* pads stay with their element */
    {"a .src_1 ! .sink_2 b ! c",
          "{\"op\":\"insert\",\"after\":\"a0\",\"element\":\"q\"}",
        "a .src_1 ! q ! .sink_2 b ! c"},
    {"a .src_1 ! .sink_2 b ! c",
          "{\"op\":\"insert\",\"before\":\"b0\",\"element\":\"q\"}",
        "a .src_1 ! q ! .sink_2 b ! c"},
    /* remove before a reference sink, and keep the kind of link */
    {"t. ! x ! mux.", "{\"op\":\"remove\",\"target\":\"x0\"}",
        "t. ! mux."},
    {"a ! video/x-raw : b", "{\"op\":\"remove\",\"target\":"
          "\"capsfilter0\"}", "a : b"},
    /* caps on a link that has a pad list */
    {"d. ! .sink q", "{\"op\":\"caps\",\"before\":\"q0\",\"caps\":"
          "\"audio/x-raw\"}", "d. ! audio/x-raw ! .sink q"},
    /* formatting outside the edit is left alone */
    {"a\n\t!  b  name=x\n!c", "{\"op\":\"set\",\"target\":\"x\","
          "\"prop\":\"p\",\"value\":\"v w\"}",
        "a\n\t!  b  name=x p=\"v w\"\n!c"},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    gchar *out = patched_ok (cases[i].in, cases[i].patch);

    g_assert_cmpstr (out, ==, cases[i].out);
    g_free (out);
  }
}

static void
test_patch_errors (void)
{
  const gchar *s = "videotestsrc ! tee name=t ! queue ! fakesink t. ! "
      "fakesink";
  const struct
  {
    const gchar *json, *message;
  } bad[] = {
    {"{\"op\":\"remove\",\"target\":\"nosuch0\"}",
        "patch 0: no element \"nosuch0\" in the launch string"},
    {"{\"op\":\"remove\",\"target\":\"t\"}",
        "patch 0: \"t\" is referenced by name at column 46"},
    {"{\"op\":\"insert\",\"after\":\"fakesink0\",\"element\":\"queue\"}",
        "patch 0: \"fakesink0\" has no link after it in its chain"},
    {"{\"op\":\"insert\",\"after\":\"queue0\",\"element\":\"a b\"}",
        "patch 0: insert needs \"element\": a factory name"},
    {"{\"op\":\"set\",\"target\":\"queue0\",\"prop\":\"x y\",\"value\":1}",
        "patch 0: set needs \"prop\""},
    {"{\"op\":\"caps\",\"after\":\"queue0\",\"caps\":\"video/x-raw ! x\"}",
        "patch 0: \"video/x-raw ! x\" is not a caps string"},
    {"{\"op\":\"remove\",\"target\":\"videotestsrc0\"}", NULL},
    /* all or nothing: the first op is not kept */
    {"[{\"op\":\"set\",\"target\":\"queue0\",\"prop\":\"leaky\","
          "\"value\":2},{\"op\":\"remove\",\"target\":\"nosuch\"}]",
        "patch 1: no element \"nosuch\""},
    {"[]", NULL},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (bad); i++) {
    GError *err = NULL;
    gchar *out = patched (s, bad[i].json, &err);

    if (bad[i].message == NULL) {
      /* these two are fine */
      g_assert_no_error (err);
      g_assert_nonnull (out);
      g_free (out);
      continue;
    }
    g_assert_null (out);
    g_assert_error (err, GP_LAUNCH_ERROR, GP_LAUNCH_ERROR_PATCH);
    if (!g_str_has_prefix (err->message, bad[i].message))
      g_error ("%s: got \"%s\"", bad[i].json, err->message);
    g_assert_null (strchr (err->message, '\n'));
    g_clear_error (&err);
  }
}

/* A quoted name may hold a line break; the error naming it is one line. */
static void
test_patch_error_one_line (void)
{
  GError *err = NULL;
  gchar *out = patched ("videotestsrc ! fakesink name=\"a\nb\"",
      "{\"op\":\"insert\",\"after\":\"a\\nb\",\"element\":\"queue\"}",
      &err);

  g_assert_null (out);
  g_assert_error (err, GP_LAUNCH_ERROR, GP_LAUNCH_ERROR_PATCH);
  g_assert_cmpstr (err->message, ==, "patch 0: \"a b\" has no link after "
      "it in its chain");
  g_clear_error (&err);
}

/* ------------------------------------------------------------------------ */
/* errors                                                                    */

static void
test_syntax_errors (void)
{
  const struct
  {
    const gchar *s, *message;
  } bad[] = {
    {"", "launch string, column 1: empty launch string"},
    {"   \n ", "launch string, column 1: empty launch string"},
    {"videotestsrc !", "launch string, column 14: '!' links to nothing"},
    {"videotestsrc ! ", "launch string, column 14: '!' links to nothing"},
    {"! fakesink", "launch string, column 1: '!' has no element before it"},
    {"fakesrc ! ! fakesink", "launch string, column 11: two links in a row"},
    {"filesrc location=\"/tmp/a b.mp4 ! fakesink",
        "launch string, column 18: unterminated double quote in the value "
          "of 'location='"},
    {"textoverlay text='abc ! fakesink",
        "launch string, column 18: unterminated single quote"},
    {"fakesrc ! ( queue ! fakesink",
        "launch string, column 11: bin opened here is never closed"},
    {"fakesrc ) fakesink", "launch string, column 9: ')' closes no bin"},
    {"fakesrc ! ( ) ! fakesink", "launch string, column 11: empty bin"},
    {"fakesrc ! t. ! fakesink",
        "launch string, column 14: '!' has no element before it"},
    {"tee name=t t.", "launch string, column 12: reference 't.' is not "
          "linked to anything"},
    {". ! fakesink", "launch string, column 1: unexpected '.'"},
    {"fakesrc .src", "launch string, column 8: pad reference after the last "
          "element"},
    {"name=x fakesink", "launch string, column 1: property 'name=x' does not "
          "follow an element"},
    {"fakesrc ! \"fakesink\"", "launch string, column 11: stray quote"},
    {"fakesrc ! fakesink # comment", "launch string, column 20: unexpected "
          "'#'"},
    /* valid syntax: "video" and then the URI "/x-raw" (GStreamer then
     * finds no element "video") */
    {"fakesrc ! video/x-raw", NULL},
    {"( fakesrc @preset=a ! fakesink )", NULL},
    {"( @preset=a fakesrc ! fakesink )", "launch string, column 3: property "
          "'@preset=a' does not follow an element"},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (bad); i++) {
    GError *err = NULL;
    GpLaunch *l = gp_launch_parse (bad[i].s, &err);

    if (bad[i].message == NULL) {
      g_assert_no_error (err);
      gp_launch_free (l);
      continue;
    }
    g_assert_null (l);
    g_assert_error (err, GP_LAUNCH_ERROR, GP_LAUNCH_ERROR_SYNTAX);
    if (!g_str_has_prefix (err->message, bad[i].message))
      g_error ("\"%s\": got \"%s\", want \"%s...\"", bad[i].s, err->message,
          bad[i].message);
    g_assert_null (strchr (err->message, '\n'));
    g_clear_error (&err);
  }
}

/* Strings at the edges of the lexer: this parser and gst_parse_launch ()
 * must agree on accept / refuse. */
static void
test_agrees_with_gstreamer (void)
{
  const gchar *cases[] = {
    "fakesrc ! fakesink",
    "fakesrc!fakesink",
    "fakesrc ! t. ! fakesink",
    ". ! fakesink",
    "fakesrc name=t t. ! fakesink",
    "fakesrc ! fakesink name = x",
    "fakesrc ! fakesink name=a!b",
    "fakesrc ! fakesink\vname=x",
    "fakesrc ! e/foo",
    "fakesrc ! queue ! .sink fakesink",
    "fakesrc ! queue .src ! fakesink",
    "fakesrc ! identity .src,src ! fakesink",
    "fakesrc ! video/x-raw ; video/x-bayer ! fakesink",
    "fakesrc ! video/x-raw ;video/x-bayer ! fakesink",
    "fakesrc ! video/x-raw, a=\\!b ! fakesink",
    "fakesrc ! video/x-raw,a=(string)\"x;y\" ! fakesink",
    "fakesrc ! video/x-raw : fakesink",
    "fakesrc : fakesink",
    "fakesrc ! ( identity ) ! fakesink",
    "fakesrc ! bin . ( identity ) ! fakesink",
    "fakesrc ! ( identity ) name=x ! fakesink",
    "fakesrc ! ( name=b ) ! fakesink",
    "fakesrc num-buffers=1 ! fakesink ( )",
    "fakesrc ! fakesink,",
    "fakesrc ! {fakesink}",
    "fakesrc ! fakesink;",
    "fakesrc ! fakesink =",
    "fakesrc ! .src",
    "fakesrc ! fakesink silent=\"a",
    "fakesrc ! fakesink silent=true\"",
    "( fakesrc ! fakesink",
    "fakesrc ! identity ! )",
    "fakesrc ! file:///dev/null",
    "file:///dev/zero ! fakesink",
  };
  guint i, disagree = 0;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    GError *err = NULL, *gerr = NULL;
    GpLaunch *l = gp_launch_parse (cases[i], &err);
    /* GStreamer before 1.20 asserts on some of these ("e/foo" goes to
     * gst_element_make_from_uri): its own critical is not the question,
     * whether it refuses the string is */
    GLogLevelFlags fatal = g_log_set_always_fatal (G_LOG_FATAL_MASK);
    GstElement *e = gst_parse_launch_full (cases[i], NULL,
        GST_PARSE_FLAG_FATAL_ERRORS, &gerr);
    gboolean gst_syntax = e == NULL && gerr != NULL &&
        (gerr->code == GST_PARSE_ERROR_SYNTAX ||
        gerr->code == GST_PARSE_ERROR_EMPTY_BIN ||
        gerr->code == GST_PARSE_ERROR_EMPTY);

    g_log_set_always_fatal (fatal);
    if (l != NULL) {
      gchar *back = gp_launch_to_string (l);

      g_assert_cmpstr (back, ==, cases[i]);
      g_free (back);
    }
    /* an unterminated quote is refused here on purpose (GStreamer keeps
     * the quote as part of the value) */
    if (l == NULL && strstr (err->message, "unterminated") != NULL) {
      g_assert_false (gst_syntax);
    } else if ((l == NULL) != gst_syntax) {
      g_test_message ("\"%s\": here %s, GStreamer %s", cases[i],
          l != NULL ? "parses" : err->message,
          gerr != NULL ? gerr->message : "builds it");
      disagree++;
    }
    g_clear_error (&err);
    g_clear_error (&gerr);
    gp_launch_free (l);
    if (e != NULL)
      gst_object_unref (e);
  }
  g_assert_cmpuint (disagree, ==, 0);
}

static void
test_deep_nesting (void)
{
  GString *s = g_string_new (NULL);
  GError *err = NULL;
  guint i;

  for (i = 0; i < 100000; i++)
    g_string_append_c (s, '(');
  g_assert_null (gp_launch_parse (s->str, &err));
  g_assert_error (err, GP_LAUNCH_ERROR, GP_LAUNCH_ERROR_SYNTAX);
  g_assert_nonnull (strstr (err->message, "nested deeper"));
  g_clear_error (&err);
  g_string_free (s, TRUE);
}

static void
test_diff (void)
{
  gchar *d;

  d = gp_launch_diff ("a ! b", "a ! b");
  g_assert_cmpstr (d, ==, "");
  g_free (d);
  d = gp_launch_diff ("videotestsrc ! videoconvert ! x264enc ! fakesink "
      "sync=true", "videotestsrc ! nvvidconv ! x264enc ! fakesink sync=false");
  /* two changes that share their context are one hunk */
  g_assert_cmpstr (d, ==,
      "- videotestsrc ! videoconvert ! x264enc ! fakesink sync=true\n"
      "+ videotestsrc ! nvvidconv ! x264enc ! fakesink sync=false\n");
  g_free (d);
  /* apart, two */
  d = gp_launch_diff ("videotestsrc ! videoconvert ! queue ! x264enc ! "
      "fakesink sync=true", "videotestsrc ! nvvidconv ! queue ! x264enc ! "
      "fakesink sync=false");
  g_assert_cmpstr (d, ==,
      "- videotestsrc ! videoconvert ! queue\n"
      "+ videotestsrc ! nvvidconv ! queue\n"
      "- x264enc ! fakesink sync=true\n"
      "+ x264enc ! fakesink sync=false\n");
  g_free (d);
  /* an insertion shows its neighbours */
  d = gp_launch_diff ("a ! b ! c", "a ! b ! q ! c");
  g_assert_cmpstr (d, ==, "- b ! c\n+ b ! q ! c\n");
  g_free (d);
  /* not launch strings: the whole lines */
  d = gp_launch_diff ("a !", "a ! b");
  g_assert_cmpstr (d, ==, "- a !\n+ a ! b\n");
  g_free (d);
}

/* GStreamer's name counters are process-wide: tests that read real
 * element names run in a fresh process */
static void
run_fresh (gconstpointer data)
{
  if (g_test_subprocess ()) {
    ((void (*) (void)) data) ();
    return;
  }
  g_test_trap_subprocess (NULL, 30 * G_USEC_PER_SEC,
      G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

static void
add_fresh (const gchar * path, void (*func) (void))
{
  g_test_add_data_func (path, (gconstpointer) func, run_fresh);
}

/* gst-launch-1.0's command line back to its pipeline: its options and
 * their values out, an argument's space escaped as gst_parse_launchv ()
 * does, any other program NULL. */
static void
test_from_gst_launch (void)
{
  const gchar *full[] = { "/usr/bin/gst-launch-1.0", "-q", "-o", "out.txt",
    "-e", "filesrc", "location=a b.mp4", "!", "fakesink", NULL
  };
  const gchar *bare[] = { "gst-launch-1.0", NULL };
  const gchar *other[] = { "python3", "app.py", NULL };
  gchar *dropped, *launch;

  launch = gp_launch_from_gst_launch (full, &dropped);
  g_assert_cmpstr (launch, ==, "filesrc location=a\\ b.mp4 ! fakesink");
  g_assert_cmpstr (dropped, ==, "/usr/bin/gst-launch-1.0 -q -o out.txt -e");
  g_free (launch);
  g_free (dropped);
  launch = gp_launch_from_gst_launch (bare, NULL);
  g_assert_cmpstr (launch, ==, "");
  g_free (launch);
  g_assert_null (gp_launch_from_gst_launch (other, &dropped));
  g_assert_null (dropped);
}

int
main (int argc, char **argv)
{
  guint i;

  gst_init (&argc, &argv);
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/launch/round-trip/fixtures", test_round_trip_fixtures);
  g_test_add_func ("/launch/round-trip/corpus", test_round_trip_corpus);
  g_test_add_func ("/launch/round-trip/project", test_round_trip_project);
  g_test_add_func ("/launch/copy", test_copy);
  for (i = 0; i < G_N_ELEMENTS (corpus); i++) {
    gchar *path = g_strdup_printf ("/launch/names/%02u", i);

    g_test_add_data_func (path, corpus[i], test_names);
    g_free (path);
  }
  g_test_add_func ("/launch/names/delayed", test_names_delayed);
  g_test_add_func ("/launch/names/jetson", test_names_jetson);
  add_fresh ("/launch/patch/set-existing", test_patch_set_existing);
  add_fresh ("/launch/patch/set-quoted", test_patch_set_quoted);
  add_fresh ("/launch/patch/set-new", test_patch_set_new);
  add_fresh ("/launch/patch/insert-after", test_patch_insert_after);
  add_fresh ("/launch/patch/insert-before", test_patch_insert_before);
  add_fresh ("/launch/patch/insert-before-caps", test_patch_insert_before_caps);
  add_fresh ("/launch/patch/insert-tee-branch", test_patch_insert_tee_branch);
  add_fresh ("/launch/patch/replace-drop", test_patch_replace_drop);
  add_fresh ("/launch/patch/replace-keep", test_patch_replace_keep);
  add_fresh ("/launch/patch/replace-props", test_patch_replace_props);
  add_fresh ("/launch/patch/caps-add", test_patch_caps_add);
  add_fresh ("/launch/patch/caps-replace", test_patch_caps_replace);
  add_fresh ("/launch/patch/remove-element", test_patch_remove_element);
  add_fresh ("/launch/patch/remove-caps", test_patch_remove_caps);
  add_fresh ("/launch/patch/batch-names", test_patch_batch_names);
  g_test_add_func ("/launch/patch/jetson-fixture", test_patch_jetson_fixture);
  g_test_add_func ("/launch/patch/text", test_patch_text);
  g_test_add_func ("/launch/patch/errors", test_patch_errors);
  g_test_add_func ("/launch/patch/error-one-line", test_patch_error_one_line);
  g_test_add_func ("/launch/errors/syntax", test_syntax_errors);
  g_test_add_func ("/launch/errors/agrees-with-gstreamer",
      test_agrees_with_gstreamer);
  g_test_add_func ("/launch/errors/deep-nesting", test_deep_nesting);
  g_test_add_func ("/launch/diff", test_diff);
  g_test_add_func ("/launch/from-gst-launch", test_from_gst_launch);
  return g_test_run ();
}
