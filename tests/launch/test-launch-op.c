/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof tests: the typed launch-string edit (src/core/gp-launch-op.c)
 * and its form in session.json (gp-session-write.c, gp-session-read.c).
 *
 * The builders fill the fields the rewriter reads, the description and the
 * conflict key say what fix prints and leaves out, session.json keeps the
 * members in the order it always had (byte for byte), and a malformed
 * patch in a session file is refused with one line that names it.
 */
#include <string.h>

#include <gst/gst.h>
#include <json-glib/json-glib.h>

#include "core/gp-launch.h"
#include "core/gp-session.h"

/* One op of each kind, as the rules build them. */
static GPtrArray *
every_kind (void)
{
  GPtrArray *patch = gp_launch_patch_new ();
  GpLaunchOp *op;

  g_ptr_array_add (patch, gp_launch_op_set_int ("q", "max-size-time", 0));
  g_ptr_array_add (patch, gp_launch_op_set_bool ("sink", "sync", FALSE));
  g_ptr_array_add (patch, gp_launch_op_set_string ("q", "leaky",
          "downstream"));
  op = gp_launch_op_insert (GP_LAUNCH_AT_BEFORE, "vc", "queue");
  gp_launch_op_add_prop_string (op, "leaky", "downstream");
  gp_launch_op_add_prop_int (op, "max-size-buffers", 2);
  g_ptr_array_add (patch, op);
  g_ptr_array_add (patch, gp_launch_op_caps (GP_LAUNCH_AT_AFTER, "vc",
          "video/x-raw,format=NV12"));
  g_ptr_array_add (patch, gp_launch_op_caps (GP_LAUNCH_AT_TARGET,
          "capsfilter0", "video/x-raw"));
  op = gp_launch_op_replace ("vc", "nvvidconv", TRUE);
  gp_launch_op_add_prop_bool (op, "flip", TRUE);
  g_ptr_array_add (patch, op);
  g_ptr_array_add (patch, gp_launch_op_replace ("sink", "fakesink", FALSE));
  g_ptr_array_add (patch, gp_launch_op_remove ("vc"));
  return patch;
}

/* What session.json holds for every_kind (), member order included. */
static const gchar *every_kind_json =
    "[{\"op\":\"set\",\"target\":\"q\",\"prop\":\"max-size-time\","
    "\"value\":0},"
    "{\"op\":\"set\",\"target\":\"sink\",\"prop\":\"sync\",\"value\":false},"
    "{\"op\":\"set\",\"target\":\"q\",\"prop\":\"leaky\","
    "\"value\":\"downstream\"},"
    "{\"op\":\"insert\",\"before\":\"vc\",\"element\":\"queue\","
    "\"props\":{\"leaky\":\"downstream\",\"max-size-buffers\":2}},"
    "{\"op\":\"caps\",\"after\":\"vc\",\"caps\":\"video/x-raw,format=NV12\"},"
    "{\"op\":\"caps\",\"target\":\"capsfilter0\",\"caps\":\"video/x-raw\"},"
    "{\"op\":\"replace\",\"target\":\"vc\",\"element\":\"nvvidconv\","
    "\"keep_props\":true,\"props\":{\"flip\":true}},"
    "{\"op\":\"replace\",\"target\":\"sink\",\"element\":\"fakesink\","
    "\"props\":{}},"
    "{\"op\":\"remove\",\"target\":\"vc\"}]";

static gchar *
patch_text (GPtrArray * patch)
{
  JsonNode *node = gp_session_patch_to_json (patch);
  gchar *text = json_to_string (node, FALSE);

  json_node_unref (node);
  return text;
}

static void
test_builders (void)
{
  g_autoptr (GPtrArray) patch = every_kind ();
  GpLaunchOp *op;
  GpLaunchProp *p;

  g_assert_cmpuint (patch->len, ==, 9);
  op = g_ptr_array_index (patch, 0);
  g_assert_cmpint (op->kind, ==, GP_LAUNCH_OP_SET);
  g_assert_cmpint (op->at, ==, GP_LAUNCH_AT_TARGET);
  g_assert_cmpstr (op->name, ==, "q");
  g_assert_cmpstr (op->prop, ==, "max-size-time");
  g_assert_true (G_VALUE_HOLDS_INT64 (&op->value));
  op = g_ptr_array_index (patch, 3);
  g_assert_cmpint (op->kind, ==, GP_LAUNCH_OP_INSERT);
  g_assert_cmpint (op->at, ==, GP_LAUNCH_AT_BEFORE);
  g_assert_cmpstr (op->factory, ==, "queue");
  g_assert_cmpuint (op->props->len, ==, 2);
  p = &g_array_index (op->props, GpLaunchProp, 1);
  g_assert_cmpstr (p->key, ==, "max-size-buffers");
  g_assert_cmpint (g_value_get_int64 (&p->value), ==, 2);
  op = g_ptr_array_index (patch, 5);
  g_assert_cmpint (op->kind, ==, GP_LAUNCH_OP_CAPS);
  g_assert_cmpint (op->at, ==, GP_LAUNCH_AT_TARGET);
  g_assert_cmpstr (op->caps, ==, "video/x-raw");
  op = g_ptr_array_index (patch, 6);
  g_assert_cmpint (op->kind, ==, GP_LAUNCH_OP_REPLACE);
  g_assert_true (op->keep_props);
  op = g_ptr_array_index (patch, 8);
  g_assert_cmpint (op->kind, ==, GP_LAUNCH_OP_REMOVE);
  g_assert_null (op->factory);
  g_assert_null (op->props);
}

/* The builders' ops do what they say on a real launch string, and the
 * result builds in GStreamer. */
static void
test_builders_apply (void)
{
  g_autoptr (GpLaunch) l = gp_launch_parse ("videotestsrc ! videoconvert ! "
      "fakesink", NULL);
  g_autoptr (GPtrArray) patch = gp_launch_patch_new ();
  GpLaunchOp *op = gp_launch_op_insert (GP_LAUNCH_AT_AFTER, "videotestsrc0",
      "queue");
  GError *err = NULL;
  gchar *out;
  GstElement *pipe;

  gp_launch_op_add_prop_string (op, "leaky", "downstream");
  g_ptr_array_add (patch, op);
  g_ptr_array_add (patch, gp_launch_op_set_bool ("fakesink0", "sync",
          FALSE));
  g_ptr_array_add (patch, gp_launch_op_caps (GP_LAUNCH_AT_BEFORE,
          "fakesink0", "video/x-raw,format=I420"));
  g_assert_true (gp_launch_apply_patch (l, patch, &err));
  g_assert_no_error (err);
  out = gp_launch_to_string (l);
  g_assert_cmpstr (out, ==, "videotestsrc ! queue leaky=downstream ! "
      "videoconvert ! video/x-raw,format=I420 ! fakesink sync=false");
  pipe = gst_parse_launch (out, &err);
  g_assert_no_error (err);
  gst_object_unref (pipe);
  g_free (out);
}

static void
test_describe (void)
{
  g_autoptr (GPtrArray) patch = every_kind ();
  const gchar *want[] = {
    "set q max-size-time=0",
    "set sink sync=false",
    "set q leaky=downstream",
    "insert queue leaky=downstream max-size-buffers=2 before vc",
    "caps video/x-raw,format=NV12 after vc",
    "caps video/x-raw on capsfilter0",
    "replace vc with nvvidconv flip=true",
    "replace sink with fakesink",
    "remove vc",
  };
  guint i;

  for (i = 0; i < patch->len; i++) {
    gchar *d = gp_launch_op_describe (g_ptr_array_index (patch, i));

    g_assert_cmpstr (d, ==, want[i]);
    g_free (d);
  }
}

static void
assert_clash (GpLaunchOp * a, GpLaunchOp * b, GpLaunchOpClash want)
{
  g_assert_cmpint (gp_launch_op_clash (a, b), ==, want);
  g_assert_cmpint (gp_launch_op_clash (b, a), ==, want);
  gp_launch_op_free (a);
  gp_launch_op_free (b);
}

static void
test_conflict_key (void)
{
  g_autoptr (GPtrArray) patch = every_kind ();
  const gchar *want[] = {
    "set\tq\tmax-size-time", "set\tsink\tsync", "set\tq\tleaky",
    "insert\tbefore\tvc", "caps\tafter\tvc", "caps\ttarget\tcapsfilter0",
    "element\tvc", "element\tsink", "element\tvc",
  };
  guint i;

  for (i = 0; i < patch->len; i++) {
    gchar *k = gp_launch_op_conflict_key (g_ptr_array_index (patch, i));

    g_assert_cmpstr (k, ==, want[i]);
    g_free (k);
  }
  /* the same change, whatever type carries it */
  assert_clash (gp_launch_op_set_int ("q", "leaky", 2),
      gp_launch_op_set_string ("q", "leaky", "2"), GP_LAUNCH_OP_SAME);
  assert_clash (gp_launch_op_set_int ("q", "leaky", 2),
      gp_launch_op_set_int ("q", "leaky", 1), GP_LAUNCH_OP_CONFLICT);
  assert_clash (gp_launch_op_set_int ("q", "leaky", 2),
      gp_launch_op_set_int ("q", "max-size-buffers", 1), GP_LAUNCH_OP_APART);
  /* an edit at an element another replaces or removes */
  assert_clash (gp_launch_op_remove ("vc"),
      gp_launch_op_set_int ("vc", "qos", 0), GP_LAUNCH_OP_CONFLICT);
  assert_clash (gp_launch_op_replace ("vc", "nvvidconv", FALSE),
      gp_launch_op_insert (GP_LAUNCH_AT_AFTER, "vc", "queue"),
      GP_LAUNCH_OP_CONFLICT);
  assert_clash (gp_launch_op_remove ("vc"), gp_launch_op_remove ("vc"),
      GP_LAUNCH_OP_SAME);
  assert_clash (gp_launch_op_remove ("vc"),
      gp_launch_op_replace ("vc", "nvvidconv", FALSE),
      GP_LAUNCH_OP_CONFLICT);
  assert_clash (gp_launch_op_insert (GP_LAUNCH_AT_AFTER, "vc", "queue"),
      gp_launch_op_insert (GP_LAUNCH_AT_BEFORE, "vc", "queue"),
      GP_LAUNCH_OP_APART);
}

/* session.json's form, byte for byte, and back. */
static void
test_json_round_trip (void)
{
  g_autoptr (GPtrArray) patch = every_kind ();
  g_autoptr (GPtrArray) back = NULL, copy = gp_launch_patch_copy (patch);
  gchar *text = patch_text (patch), *again;
  JsonNode *node = json_from_string (every_kind_json, NULL);
  GError *err = NULL;

  g_assert_cmpstr (text, ==, every_kind_json);
  back = gp_session_patch_from_json (node, "test", &err);
  g_assert_no_error (err);
  again = patch_text (back);
  g_assert_cmpstr (again, ==, every_kind_json);
  g_free (again);
  again = patch_text (copy);
  g_assert_cmpstr (again, ==, every_kind_json);
  g_free (again);
  g_free (text);
  json_node_unref (node);
}

/* Through a whole session file: a finding's patch comes back the same. */
static void
test_session_round_trip (void)
{
  GpSession *s = gp_session_new (), *back;
  GpFinding *f = gp_session_add_finding (s, "ZC", "medium", "t");
  GError *err = NULL;
  gchar *data, *again;
  gsize len;

  f->fix_patch = every_kind ();
  data = gp_session_to_data (s, TRUE, &len);
  back = gp_session_load_data (data, len, "session.json", &err);
  g_assert_no_error (err);
  again = gp_session_to_data (back, TRUE, NULL);
  g_assert_cmpstr (again, ==, data);
  g_free (again);
  f = g_ptr_array_index (back->findings, 0);
  again = patch_text (f->fix_patch);
  g_assert_cmpstr (again, ==, every_kind_json);
  g_free (again);
  g_free (data);
  gp_session_free (back);
  gp_session_free (s);
}

/* A malformed patch in a session file: the file is refused with one line
 * naming the finding, the op and what is wrong. */
static void
test_malformed (void)
{
  const struct
  {
    const gchar *patch, *message;
  } bad[] = {
    {"[{\"op\":\"explode\",\"target\":\"t\"}]",
        "findings[0].fix_patch[0].op: expected set, insert, caps, replace or "
          "remove"},
    {"{\"target\":\"t\"}", "findings[0].fix_patch.op: expected set"},
    {"[{\"op\":\"remove\",\"target\":\"a\"},{\"op\":\"set\",\"target\":"
          "\"q\",\"prop\":\"leaky\",\"value\":[2]}]",
        "findings[0].fix_patch[1].value: expected a string, number or "
          "boolean"},
    {"[{\"op\":\"set\",\"element\":\"q\",\"prop\":\"x\",\"value\":1}]",
        "findings[0].fix_patch[0].target: expected an element name"},
    {"[{\"op\":\"insert\",\"after\":\"a\",\"before\":\"b\",\"element\":"
          "\"queue\"}]",
        "findings[0].fix_patch[0]: insert needs one of \"after\" or "
          "\"before\""},
    {"[{\"op\":\"caps\",\"after\":\"a\"}]",
        "findings[0].fix_patch[0].caps: expected a caps string"},
    {"[{\"op\":\"replace\",\"target\":\"a\",\"element\":\"b\","
          "\"keep_props\":1}]",
        "findings[0].fix_patch[0].keep_props: expected"},
    {"[{\"op\":\"insert\",\"before\":\"a\",\"element\":\"queue\","
          "\"props\":{\"leaky\":{}}}]",
        "findings[0].fix_patch[0].props.leaky: expected a string"},
    {"[1, \"two\"]", "findings[0].fix_patch[0]: expected an object"},
    {"\"remove a\"", "findings[0].fix_patch: expected an edit"},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (bad); i++) {
    gchar *data = g_strdup_printf ("{\"schema\": \"gstprof/1\", "
        "\"findings\": [{\"rule\": \"HOT\", \"fix_patch\": %s}]}",
        bad[i].patch);
    gchar *want = g_strdup_printf ("bad.json: %s", bad[i].message);
    GError *err = NULL;
    GpSession *s = gp_session_load_data (data, -1, "bad.json", &err);

    g_assert_null (s);
    g_assert_error (err, GP_SESSION_ERROR, GP_SESSION_ERROR_SCHEMA);
    g_test_message ("%s", err->message);
    if (!g_str_has_prefix (err->message, want))
      g_error ("%s: got \"%s\"", bad[i].patch, err->message);
    g_assert_null (strchr (err->message, '\n'));
    g_clear_error (&err);
    g_free (want);
    g_free (data);
  }
}

int
main (int argc, char **argv)
{
  gst_init (&argc, &argv);
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/launch-op/builders", test_builders);
  g_test_add_func ("/launch-op/builders-apply", test_builders_apply);
  g_test_add_func ("/launch-op/describe", test_describe);
  g_test_add_func ("/launch-op/conflict-key", test_conflict_key);
  g_test_add_func ("/launch-op/json-round-trip", test_json_round_trip);
  g_test_add_func ("/launch-op/session-round-trip", test_session_round_trip);
  g_test_add_func ("/launch-op/malformed", test_malformed);
  return g_test_run ();
}
