/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-check.c: the machine report of `gstprof check`. Every probe is allowed
 * to fail; its failure is the answer ("not found", "no").
 */
#include "gp-config.h"
#include "gp-check.h"
#include "core/gp-version.h"
#include "core/gp-platform.h"
#include "core/gp-hw-factories.h"

#include <gio/gio.h>
#include <gst/gst.h>
#include <string.h>
#include <time.h>
#include <sys/utsname.h>

#define GP_CHECK_LABEL_WIDTH 13

static void
gp_check_line (GString * out, const gchar * label, const gchar * value)
{
  gchar *prefix = g_strdup_printf ("%-*s", GP_CHECK_LABEL_WIDTH, label);
  gchar **words = g_strsplit (value, " ", -1);
  guint col = strlen (prefix), i;

  /* Wrapped at 80 columns under the value column. */
  g_string_append (out, prefix);
  for (i = 0; words[i]; i++) {
    guint wl = strlen (words[i]);

    if (i > 0 && col + 1 + wl > 80) {
      g_string_append_printf (out, "\n%*s", GP_CHECK_LABEL_WIDTH, "");
      col = GP_CHECK_LABEL_WIDTH;
    } else if (i > 0) {
      g_string_append_c (out, ' ');
      col++;
    }
    g_string_append (out, words[i]);
    col += wl;
  }
  g_string_append_c (out, '\n');
  g_strfreev (words);
  g_free (prefix);
}

static gchar *
gp_check_tracer (const gchar * tracer_problem)
{
  GstPluginFeature *f;
  GstPlugin *plugin;
  gchar *text;

  f = gst_registry_find_feature (gst_registry_get (), "gstprof",
      GST_TYPE_TRACER_FACTORY);
  if (f == NULL)
    return g_strdup_printf ("not found (%s)", tracer_problem ? tracer_problem
        : "no tracer named gstprof in the registry; build it, or set "
        "GST_PLUGIN_PATH to the folder of libgstprof.so");
  plugin = gst_plugin_feature_get_plugin (f);
  text = g_strdup_printf ("found: %s", plugin &&
      gst_plugin_get_filename (plugin) ? gst_plugin_get_filename (plugin) :
      "(built in)");
  if (plugin)
    gst_object_unref (plugin);
  gst_object_unref (f);
  return text;
}

/* The tracer's file in @dir, or NULL. */
static gchar *
gp_check_plugin_in (const gchar * dir)
{
  gchar *file = g_build_filename (dir, "libgstprof.so", NULL);

  if (*dir != '\0' && g_file_test (file, G_FILE_TEST_IS_REGULAR))
    return file;
  g_free (file);
  return NULL;
}

/* Where a program given GST_TRACERS=gstprof and nothing else finds the
 * tracer: GStreamer's own search, the user's GST_PLUGIN_PATH first, then
 * GST_PLUGIN_SYSTEM_PATH or, when that is unset, the per-user folder and
 * the system folder; not the folder gstprof adds for run and wrap. Only a
 * folder's top level is looked at (GStreamer also descends into it). */
static gchar *
gp_check_standalone (const gchar * user_plugin_path)
{
  const gchar *system = g_getenv ("GST_PLUGIN_SYSTEM_PATH_1_0") ?
      g_getenv ("GST_PLUGIN_SYSTEM_PATH_1_0") :
      g_getenv ("GST_PLUGIN_SYSTEM_PATH");
  gchar *user_dir = g_build_filename (g_get_user_data_dir (), "gstreamer-1.0",
      "plugins", NULL);
  gchar *path = g_strjoin (G_SEARCHPATH_SEPARATOR_S,
      user_plugin_path ? user_plugin_path : "",
      system ? system : user_dir, system ? "" : GP_GST_SYSTEM_PLUGIN_DIR,
      NULL);
  gchar **dirs = g_strsplit (path, G_SEARCHPATH_SEPARATOR_S, -1);
  GString *searched = g_string_new (NULL);
  gchar *found = NULL, *text;
  guint i;

  for (i = 0; dirs[i] && found == NULL; i++) {
    found = gp_check_plugin_in (dirs[i]);
    if (*dirs[i] != '\0')
      g_string_append_printf (searched, "%s%s", searched->len ? ", " : "",
          dirs[i]);
  }
  if (found)
    text = g_strdup_printf ("GST_TRACERS=gstprof alone loads %s", found);
  else
    text = g_strdup_printf ("GST_TRACERS=gstprof alone finds no tracer in "
        "%s: make install, or set GST_PLUGIN_PATH to the folder of "
        "libgstprof.so", searched->str);
  g_string_free (searched, TRUE);
  g_free (found);
  g_strfreev (dirs);
  g_free (path);
  g_free (user_dir);
  return text;
}

static gint
gp_check_compare_names (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(const gchar * const *) a, *(const gchar * const *) b);
}

/* Whether an element of @factory opens here: READY is where a capture card,
 * a codec's device node or a GPU context is acquired, so a factory that
 * registers whatever the machine has (decklink's, with no card) fails it.
 * A device that another program holds fails it too. */
static gboolean
gp_check_hw_opens (GstElementFactory * factory)
{
  GstElement *e = gst_element_factory_create (factory, NULL);
  gboolean opens;

  if (e == NULL)
    return FALSE;
  opens = gst_element_set_state (e, GST_STATE_READY) !=
      GST_STATE_CHANGE_FAILURE;
  gst_element_set_state (e, GST_STATE_NULL);
  gst_object_unref (e);
  return opens;
}

static gchar *
gp_check_join_sorted (GPtrArray * names)
{
  g_ptr_array_sort (names, gp_check_compare_names);
  g_ptr_array_add (names, NULL);
  return g_strjoinv (" ", (gchar **) names->pdata);
}

/* The hardware factories registered, split by whether an element of each
 * opens a device here (gp_check_hw_opens). */
static gchar *
gp_check_hw_elements (void)
{
  GList *features, *l;
  GPtrArray *opens = g_ptr_array_new (), *closed = g_ptr_array_new ();
  GString *text = g_string_new (NULL);

  features = gst_registry_get_feature_list (gst_registry_get (),
      GST_TYPE_ELEMENT_FACTORY);
  for (l = features; l; l = l->next) {
    GstPluginFeature *f = l->data;

    /* asked as the tracer asks (klass too): this is the list a capture
     * here records as graph.hw_elements */
    if (gp_hw_factory_is_hardware (gst_plugin_feature_get_name (f),
            gst_plugin_feature_get_plugin_name (f),
            gst_element_factory_get_metadata (GST_ELEMENT_FACTORY (f),
                GST_ELEMENT_METADATA_KLASS)))
      g_ptr_array_add (gp_check_hw_opens (GST_ELEMENT_FACTORY (f)) ? opens :
          closed, (gpointer) gst_plugin_feature_get_name (f));
  }
  if (opens->len == 0 && closed->len == 0)
    g_string_append (text, "none registered (software elements only)");
  if (opens->len > 0) {
    gchar *names = gp_check_join_sorted (opens);

    g_string_append_printf (text, "with a device: %s", names);
    g_free (names);
  }
  if (closed->len > 0) {
    gchar *names = gp_check_join_sorted (closed);

    g_string_append_printf (text, "%sregistered, no device opens (none "
        "here, or busy): %s", opens->len > 0 ? "; " : "", names);
    g_free (names);
  }
  g_ptr_array_unref (opens);
  g_ptr_array_unref (closed);
  gst_plugin_feature_list_free (features);
  return g_string_free (text, FALSE);
}

static gchar *
gp_check_cpu_clock (void)
{
  struct timespec ts, res;

  if (clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
    return g_strdup ("no: CLOCK_THREAD_CPUTIME_ID is not available; --cpu "
        "would report nothing");
  if (clock_getres (CLOCK_THREAD_CPUTIME_ID, &res) != 0)
    return g_strdup ("yes (CLOCK_THREAD_CPUTIME_ID)");
  return g_strdup_printf ("yes (CLOCK_THREAD_CPUTIME_ID, resolution %ld ns)",
      (long) (res.tv_sec * 1000000000L + res.tv_nsec));
}

/* What this GStreamer cannot show, checked on the running library rather
 * than guessed from its version: an element or property a measurement
 * relies on, made and asked here. */
static gchar *
gp_check_limits (void)
{
  GString *out = g_string_new (NULL);
  GstElement *mq = gst_element_factory_make ("multiqueue", NULL);

  if (mq) {
    GstPad *pad = gst_element_request_pad (mq,
        gst_element_class_get_pad_template (GST_ELEMENT_GET_CLASS (mq),
            "sink_%u"), NULL, NULL);

    if (pad && !g_object_class_find_property (G_OBJECT_GET_CLASS (pad),
            "current-level-time"))
      g_string_append (out, "a multiqueue's single queues report no level "
          "of their own here: gstprof counts their buffers and bytes itself, "
          "without their time level; ");
    if (pad) {
      gst_element_release_request_pad (mq, pad);
      gst_object_unref (pad);
    }
    gst_object_unref (mq);
  }
  if (out->len == 0) {
    guint major, minor, micro, nano;

    gst_version (&major, &minor, &micro, &nano);
    g_string_append_printf (out, "none known on GStreamer %u.%u", major,
        minor);
  }
  else
    g_string_truncate (out, out->len - 2);
  return g_string_free (out, FALSE);
}

gchar *
gp_check_report (const gchar * tracer_problem,
    const gchar * user_plugin_path)
{
  GString *out = g_string_new (NULL);
  const gchar *tools[] = { "tegrastats", "nvidia-smi", "nsys" };
  GString *tl = g_string_new (NULL);
  struct utsname un;
  gchar *s, *detail, *platform, *running;
  guint i;

  gp_check_line (out, "gstprof:", gp_version ());

  /* gst_version_string () is a new string each time */
  running = gst_version_string ();
  s = g_strdup_printf ("%s (gstprof built against %d.%d.%d)", running,
      GST_VERSION_MAJOR, GST_VERSION_MINOR, GST_VERSION_MICRO);
  gp_check_line (out, "GStreamer:", s);
  g_free (s);
  g_free (running);

  s = gp_check_tracer (tracer_problem);
  gp_check_line (out, "tracer:", s);
  g_free (s);
  s = gp_check_standalone (user_plugin_path);
  gp_check_line (out, "standalone:", s);
  g_free (s);

  platform = gp_platform_detect (&detail);
  if (uname (&un) == 0)
    s = g_strdup_printf ("%s%s%s (%s, %s %s)", platform,
        detail ? ": " : "", detail ? detail : "", un.machine,
        un.sysname, un.release);
  else
    s = g_strdup_printf ("%s%s%s", platform, detail ? ": " : "",
        detail ? detail : "");
  gp_check_line (out, "platform:", s);
  g_free (s);
  g_free (detail);
  g_free (platform);

  for (i = 0; i < G_N_ELEMENTS (tools); i++) {
    gchar *path = g_find_program_in_path (tools[i]);

    g_string_append_printf (tl, "%s%s %s", i ? ", " : "", tools[i],
        path ? path : "not found");
    g_free (path);
  }
  gp_check_line (out, "tools:", tl->str);
  g_string_free (tl, TRUE);

  s = gp_check_hw_elements ();
  gp_check_line (out, "hardware:", s);
  g_free (s);

  s = gp_check_cpu_clock ();
  gp_check_line (out, "cpu=true:", s);
  g_free (s);

  s = gp_check_limits ();
  gp_check_line (out, "limits:", s);
  g_free (s);

  return g_string_free (out, FALSE);
}
