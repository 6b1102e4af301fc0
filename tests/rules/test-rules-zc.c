/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * test-rules-zc.c: rules ZC, SW and CAPS. ZC and SW on real Jetson
 * captures (the hardware is not here) and ZC on a real GL pipeline under
 * Xvfb; CAPS and SW's silence on real software pipelines run here. Every
 * "fixed twin" is the bad launch string with the finding's own fix_patch
 * applied, so the tests also prove that the patches make a pipeline that
 * runs and clears the finding.
 */
#include <gst/gst.h>
#include <signal.h>
#include <sys/types.h>
#include <unistd.h>

#include "capture/gp-capture.h"
#include "ingest/gp-ingest.h"
#include "rules/gp-rules.h"
#include "gp-config.h"
#include "gp-test-util.h"

/* Pipelines that a fix_patch edits name their converters: GStreamer's
 * automatic names count up across the pipelines of this one process,
 * while the patch names elements as a fresh `gstprof run` would. */
static GpCaptureOptions base_opts;

static GpSession *
load_fixture (const gchar * name)
{
  GpSession *s = gp_test_load_fixture (name);

  gp_rules_run (s);
  return s;
}

/* The pipelines end on their own (num-buffers) well within this bound;
 * under AddressSanitizer (gp_test_sanitized ()) they run 2-5 times slower
 * and some passed it (end: the duration), so the bound is longer there.
 * Under emulation (gp_test_emulated (): an arm64 root run by qemu-user)
 * the GL ones are slowest: Mesa's llvmpipe compiles its shaders with LLVM,
 * itself emulated, then qemu translates the code it made.  Measured with
 * gst-launch-1.0 under Xvfb: GL_BAD 6.7 and 10.8 s there against 0.31 s
 * natively on the same machine (20-35x), GL_STAY 2.2 s against 0.14 s;
 * the 3 s bound ended GL_BAD by its duration, so there the bound is
 * about four times the slowest seen. */
#define ZC_CAPTURE_BOUND_S 3
#define ZC_CAPTURE_BOUND_SANITIZED_S 15
#define ZC_CAPTURE_BOUND_EMULATED_S 45

static GpSession *
capture (const gchar * launch)
{
  GpCaptureEnd end;
  GpSession *s = gp_test_capture (&base_opts, launch, gp_test_emulated ()?
      ZC_CAPTURE_BOUND_EMULATED_S : gp_test_sanitized ()?
      ZC_CAPTURE_BOUND_SANITIZED_S : ZC_CAPTURE_BOUND_S, &end);

  g_assert_cmpint (end, ==, GP_CAPTURE_END_EOS);
  gp_rules_run (s);
  return s;
}

static void
print_finding (GpFinding * f)
{
  gchar *ev = json_to_string (json_node_init_object (json_node_alloc (),
          f->evidence), FALSE);

  g_test_message ("%s: %s | %s", f->rule, f->title, ev);
  g_free (ev);
}


/* ZC */

static void
test_zc_orin_fixture (void)
{
  GpSession *s = load_fixture ("orin-nx-jp6-zc-break.json");
  GpFinding *f = gp_session_find_finding (s, "ZC", NULL);
  gchar *fixed;

  g_assert_nonnull (f);
  print_finding (f);
  g_assert_cmpuint (gp_session_count_findings (s, "ZC"), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (f->evidence, "leaves_at"),
      ==, "nvvconv1");
  g_assert_cmpstr (json_object_get_string_member (f->evidence,
          "returns_at"), ==, "nvvconv2");
  g_assert_cmpstr (json_object_get_string_member (f->evidence,
          "memory_in"), ==, "memory:NVMM");
  g_assert_cmpstr (f->severity, ==, "info");
  g_assert_true (f->heuristic);
  fixed = gp_test_patched (s, f);
  g_assert_nonnull (strstr (fixed, "nvvidconv ! video/x-raw(memory:NVMM),"
          "format=NV12,width=1280,height=720 ! nvvidconv"));
  g_assert_null (strstr (fixed, "videoconvert"));
  g_free (fixed);
  gp_session_free (s);
}

static void
test_zc_jetson_fixture (void)
{
  GpSession *s = load_fixture ("jetson-zc-break.json");
  GpFinding *f = gp_session_find_finding (s, "ZC", NULL);

  g_assert_nonnull (f);
  print_finding (f);
  g_assert_cmpstr (json_object_get_string_member (f->evidence, "leaves_at"),
      ==, "videoconvert0");
  g_assert_cmpstr (json_object_get_string_member (f->evidence,
          "returns_at"), ==, "nvvidconv0");
  /* no launch string in that capture: the text fix alone */
  g_assert_null (f->fix_patch);
  g_assert_nonnull (strstr (f->fix, "nvvidconv"));
  gp_session_free (s);
}

static void
test_healthy_fixture_silent (void)
{
  GpSession *s = load_fixture ("orin-nx-jp6-healthy.json");

  g_assert_cmpuint (gp_session_count_findings (s, "ZC"), ==, 0);
  g_assert_cmpuint (gp_session_count_findings (s, "SW"), ==, 0);
  g_assert_cmpuint (gp_session_count_findings (s, "CAPS"), ==, 0);
  gp_session_free (s);
}

/* Without the caps, videoconvert (which takes any memory when it has
 * nothing to convert) and gldownload keep GLMemory all along: the caps in
 * system memory force the round trip. */

static gboolean
have_gl (void)
{
  GstElementFactory *f = gst_element_factory_find ("glupload");

  if (f == NULL) {
    g_test_skip ("the GL plugin is not installed");
    return FALSE;
  }
  gst_object_unref (f);
  return gp_test_have_display ();
}

/* The GL path of bench/pairs/zc.pair, small: the stretch only converts
 * (RGBA -> I420) and glcolorconvert converts straight back to RGBA for
 * glcolorscale, so ZC's fix removes the whole round trip. */
#define GL_BAD "videotestsrc num-buffers=45 ! video/x-raw,width=320," \
  "height=240 ! glupload ! gleffects effect=mirror ! gldownload ! " \
  "videoconvert ! video/x-raw,format=I420 ! glupload ! glcolorconvert ! " \
  "glcolorscale ! video/x-raw(memory:GLMemory),width=160,height=120 ! " \
  "fakesink"
#define GL_STAY "videotestsrc num-buffers=45 ! video/x-raw,width=320," \
  "height=240 ! glupload ! gleffects effect=mirror ! " \
  "glcolorscale ! video/x-raw(memory:GLMemory),width=160,height=120 ! " \
  "fakesink"

static void
test_zc_gl (void)
{
  GpSession *s, *t;
  GpFinding *f;
  gchar *fixed;

  if (!gp_test_have_tracer () || !have_gl ())
    return;
  s = capture (GL_BAD);
  f = gp_session_find_finding (s, "ZC", NULL);
  g_assert_nonnull (f);
  print_finding (f);
  g_assert_cmpuint (gp_session_count_findings (s, "ZC"), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (f->evidence, "leaves_at"),
      ==, "gldownloadelement0");
  g_assert_cmpstr (json_object_get_string_member (f->evidence,
          "returns_at"), ==, "gluploadelement1");
  g_assert_cmpstr (json_object_get_string_member (f->evidence,
          "memory_in"), ==, "memory:GLMemory");
  g_assert_cmpstr (json_object_get_string_member (f->evidence,
          "fix_strategy"), ==, "stay");
  /* the case bench/pairs/zc.pair verified */
  g_assert_cmpstr (f->severity, ==, "medium");
  g_assert_false (f->heuristic);
  g_assert_nonnull (f->verified_on);

  /* the fixed twin: the whole round trip gone, run again, ZC silent */
  fixed = gp_test_patched (s, f);
  g_assert_cmpstr (fixed, ==, GL_STAY);
  t = capture (fixed);
  g_assert_cmpuint (gp_session_count_findings (t, "ZC"), ==, 0);
  g_assert_cmpuint (t->links->len, >, 0);
  g_free (fixed);
  gp_session_free (t);
  gp_session_free (s);
}

/* Here the format change is needed after the stretch: I420 leaves GL
 * memory and glcolorbalance takes only RGBA, so the fix keeps a conversion
 * and does it in GL (glcolorconvert with RGBA caps in GLMemory). */
/* The elements are named: /zc/gl ran GL elements in this process before,
 * so GStreamer's counters no longer give the names a fresh process would,
 * which the patch must use. */
#define GL_CONVERT "videotestsrc num-buffers=45 ! video/x-raw,width=320," \
  "height=240 ! glupload name=up0 ! glcolorconvert name=cc0 ! " \
  "gldownload name=down0 ! video/x-raw,format=I420 ! " \
  "videoconvert name=vc0 ! video/x-raw,format=RGBA ! glupload name=up1 ! " \
  "glcolorbalance name=bal0 ! gldownload name=down1 ! fakesink"

static void
test_zc_gl_convert (void)
{
  GpSession *s, *t;
  GpFinding *f;
  gchar *fixed;

  if (!gp_test_have_tracer () || !have_gl ())
    return;
  s = capture (GL_CONVERT);
  f = gp_session_find_finding (s, "ZC", NULL);
  g_assert_nonnull (f);
  print_finding (f);
  g_assert_cmpuint (gp_session_count_findings (s, "ZC"), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (f->evidence, "leaves_at"),
      ==, "down0");
  g_assert_cmpstr (json_object_get_string_member (f->evidence,
          "fix_strategy"), ==, "convert");
  /* no bench pair for this case */
  g_assert_cmpstr (f->severity, ==, "info");
  g_assert_true (f->heuristic);

  fixed = gp_test_patched (s, f);
  g_assert_null (strstr (fixed, "videoconvert"));
  g_assert_nonnull (strstr (fixed, "glcolorconvert name=vc0 ! "
          "video/x-raw(memory:GLMemory),format=RGBA"));
  t = capture (fixed);
  g_assert_cmpuint (gp_session_count_findings (t, "ZC"), ==, 0);
  g_assert_cmpuint (t->links->len, >, 0);
  g_free (fixed);
  gp_session_free (t);
  gp_session_free (s);
}

/* SW */

static void
test_sw_fixture (void)
{
  GpSession *s = load_fixture ("orin-nx-jp6-sw.json");
  GpFinding *f = gp_session_find_finding (s, "SW", NULL);
  gchar *fixed;

  g_assert_nonnull (f);
  print_finding (f);
  g_assert_cmpuint (gp_session_count_findings (s, "SW"), ==, 1);
  g_assert_cmpstr (g_ptr_array_index (f->targets, 0), ==, "videoconvert0");
  g_assert_cmpstr (json_object_get_string_member (f->evidence, "hardware"),
      ==, "nvvidconv");
  /* nvvidconv follows it and takes I420 itself: videoconvert just goes */
  fixed = gp_test_patched (s, f);
  g_assert_null (strstr (fixed, "videoconvert"));
  g_assert_nonnull (strstr (fixed, "format=I420,width=1280,height=720,"
          "framerate=30/1 ! nvvidconv ! video/x-raw(memory:NVMM)"));
  g_free (fixed);
  gp_session_free (s);
}

static void
test_sw_local_silent (void)
{
  GpSession *s;

  if (!gp_test_have_tracer ())
    return;
  /* a busy software converter, but nothing registered here does its job */
  s = capture ("videotestsrc num-buffers=60 ! video/x-raw,format=I420,"
      "width=1280,height=720 ! videoconvert ! video/x-raw,format=RGBA ! "
      "fakesink");
  g_assert_cmpuint (gp_session_count_findings (s, "SW"), ==, 0);
  gp_session_free (s);
}

/* CAPS */

#define CAPS_PAIR "videotestsrc num-buffers=60 ! video/x-raw,format=I420," \
  "width=640,height=480 ! videoconvert name=c1 ! " \
  "video/x-raw,format=NV12 ! videoconvert name=c2 ! " \
  "video/x-raw,format=RGBA ! fakesink"

static void
test_caps_pair (void)
{
  GpSession *s, *t;
  GpFinding *f;
  gchar *fixed;

  if (!gp_test_have_tracer ())
    return;
  s = capture (CAPS_PAIR);
  f = gp_session_find_finding (s, "CAPS", NULL);
  g_assert_nonnull (f);
  print_finding (f);
  g_assert_cmpuint (gp_session_count_findings (s, "CAPS"), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (f->evidence, "kind"), ==,
      "back-to-back");
  g_assert_cmpstr (json_object_get_string_member (f->evidence,
          "format_in"), ==, "I420");
  g_assert_cmpstr (json_object_get_string_member (f->evidence,
          "format_out"), ==, "RGBA");
  /* software converters back to back: what bench/pairs/caps.pair verified */
  g_assert_cmpstr (f->severity, ==, "medium");
  g_assert_false (f->heuristic);
  fixed = gp_test_patched (s, f);
  g_assert_cmpstr (fixed, ==, "videotestsrc num-buffers=60 ! "
      "video/x-raw,format=I420,width=640,height=480 ! videoconvert name=c2 ! "
      "video/x-raw,format=RGBA ! fakesink");
  t = capture (fixed);
  g_assert_cmpuint (gp_session_count_findings (t, "CAPS"), ==, 0);
  g_free (fixed);
  gp_session_free (t);
  gp_session_free (s);
}

static void
test_caps_passthrough (void)
{
  GpSession *s, *t;
  GpFinding *f;
  guint i;

  if (!gp_test_have_tracer ())
    return;
  s = capture ("videotestsrc num-buffers=60 ! video/x-raw,format=I420,"
      "width=640,height=480 ! videoconvert name=p1 ! videoconvert name=p2 ! "
      "fakesink");
  g_assert_cmpuint (gp_session_count_findings (s, "CAPS"), ==, 2);
  for (i = 0; i < s->findings->len; i++) {
    f = g_ptr_array_index (s->findings, i);
    if (!g_str_equal (f->rule, "CAPS"))
      continue;
    print_finding (f);
    g_assert_cmpstr (json_object_get_string_member (f->evidence, "kind"),
        ==, "passthrough");
    g_assert_nonnull (f->fix_patch);
    /* no bench pair covers passthrough removal yet */
    g_assert_cmpstr (f->severity, ==, "info");
    g_assert_true (f->heuristic);
  }
  /* the twin: both removed */
  t = capture ("videotestsrc num-buffers=60 ! video/x-raw,format=I420,"
      "width=640,height=480 ! fakesink");
  g_assert_cmpuint (gp_session_count_findings (t, "CAPS"), ==, 0);
  gp_session_free (t);
  /* and a converter that converts is not in passthrough */
  t = capture ("videotestsrc num-buffers=60 ! video/x-raw,format=I420,"
      "width=640,height=480 ! videoconvert ! video/x-raw,format=RGBA ! "
      "fakesink");
  g_assert_cmpuint (gp_session_count_findings (t, "CAPS"), ==, 0);
  gp_session_free (t);
  gp_session_free (s);
}

/* Fixes keep what the pipeline does (gp-rules-patch.c). */

/* A converter in passthrough before the user's caps: removing it would
 * take the caps with it, and what follows could get another format. */
static void
test_patch_keeps_user_caps (void)
{
  GpSession *s;
  GpFinding *f;

  if (!gp_test_have_tracer ())
    return;
  s = capture ("videotestsrc num-buffers=30 ! video/x-raw,width=320,"
      "height=240 ! videoconvert name=kc ! video/x-raw,format=I420 ! "
      "videobalance saturation=0.5 ! fakesink");
  f = gp_session_find_finding (s, "CAPS", NULL);
  g_assert_nonnull (f);
  print_finding (f);
  g_assert_cmpstr (json_object_get_string_member (f->evidence, "kind"), ==,
      "passthrough");
  g_assert_null (f->fix_patch);
  gp_session_free (s);

  /* ... also when a converter follows, if it cannot make what the caps
   * pin: videoscale makes a size, not the format=BGRx the sink gets */
  s = capture ("videotestsrc num-buffers=30 ! video/x-raw,width=320,"
      "height=240 ! videoconvert name=kc ! video/x-raw,format=BGRx ! "
      "videoscale ! video/x-raw,width=160,height=120 ! fakesink");
  f = gp_session_find_finding (s, "CAPS", NULL);
  g_assert_nonnull (f);
  print_finding (f);
  g_assert_cmpstr (json_object_get_string_member (f->evidence, "kind"), ==,
      "passthrough");
  g_assert_null (f->fix_patch);
  gp_session_free (s);
}

/* videoflip inside a GL round trip: the fix swaps in glvideoflip with the
 * same direction instead of deleting the flip; the fixed pipeline, run
 * again, has no round trip and still flips. (video-direction, not the
 * older method=: GStreamer 1.22's parser leaves both elements' method at
 * "none", as gstprof's recorded properties show.) */
#define GL_FLIP "videotestsrc num-buffers=30 ! video/x-raw,width=320," \
  "height=240 ! glupload name=fu0 ! glcolorconvert name=fc0 ! " \
  "gldownload name=fd0 ! videoflip name=flip video-direction=horiz ! " \
  "glupload name=fu1 ! glcolorconvert name=fc1 ! gldownload name=fd1 ! " \
  "fakesink"

static void
test_patch_device_twin (void)
{
  GpSession *s, *t;
  GpFinding *f;
  gchar *fixed;
  GpElement *e;

  if (!gp_test_have_tracer () || !have_gl ())
    return;
  s = capture (GL_FLIP);
  f = gp_session_find_finding (s, "ZC", NULL);
  g_assert_nonnull (f);
  print_finding (f);
  fixed = gp_test_patched (s, f);
  g_assert_nonnull (strstr (fixed, "glvideoflip name=flip "
          "video-direction=horiz"));
  g_assert_null (strstr (fixed, " videoflip"));
  t = capture (fixed);
  g_assert_cmpuint (gp_session_count_findings (t, "ZC"), ==, 0);
  e = gp_session_find_element (t, "flip");
  g_assert_nonnull (e);
  g_assert_cmpstr (e->factory, ==, "glvideoflip");
  g_assert_cmpstr (gp_element_get_prop_string (e, "video-direction"), ==,
      "horiz");
  g_free (fixed);
  gp_session_free (t);
  gp_session_free (s);
}

/* The same with an element no device has a twin for: no edit, and the fix
 * says why instead of deleting the work. */
static void
test_patch_no_twin (void)
{
  GpSession *s;
  GpFinding *f;

  if (!gp_test_have_tracer () || !have_gl ())
    return;
  s = capture ("videotestsrc num-buffers=30 ! video/x-raw,width=320,"
      "height=240 ! glupload name=nu0 ! glcolorconvert name=nc0 ! "
      "gldownload name=nd0 ! videoconvert name=nv ! "
      "video/x-raw,format=I420 ! timeoverlay name=to ! glupload name=nu1 ! "
      "glcolorconvert name=nc1 ! gldownload name=nd1 ! fakesink");
  f = gp_session_find_finding (s, "ZC", NULL);
  g_assert_nonnull (f);
  print_finding (f);
  g_assert_null (f->fix_patch);
  g_assert_nonnull (strstr (f->fix, "to (timeoverlay) has no counterpart"));
  gp_session_free (s);
}

int
main (int argc, char **argv)
{
  GError *error = NULL;
  gint ret;

  gp_capture_options_init (&base_opts);
  if (!gp_capture_prepare_env (&base_opts, &error))
    g_error ("%s", error->message);
  gst_init (&argc, &argv);
  g_test_init (&argc, &argv, NULL);
  gp_test_keep_gl_driver ();

  g_test_add_func ("/zc/orin-fixture", test_zc_orin_fixture);
  g_test_add_func ("/zc/jetson-fixture", test_zc_jetson_fixture);
  g_test_add_func ("/zc/healthy-fixture-silent", test_healthy_fixture_silent);
  g_test_add_func ("/zc/gl", test_zc_gl);
  g_test_add_func ("/zc/gl-convert", test_zc_gl_convert);
  g_test_add_func ("/sw/fixture", test_sw_fixture);
  g_test_add_func ("/sw/local-silent", test_sw_local_silent);
  g_test_add_func ("/caps/back-to-back", test_caps_pair);
  g_test_add_func ("/caps/passthrough", test_caps_passthrough);
  g_test_add_func ("/patch/keeps-user-caps", test_patch_keeps_user_caps);
  g_test_add_func ("/patch/device-twin", test_patch_device_twin);
  g_test_add_func ("/patch/no-twin", test_patch_no_twin);
  ret = g_test_run ();
  gp_test_stop_display ();
  return ret;
}
