/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof overhead benchmark: the no-op tracer.
 *
 * SECTION:tracer-gstprofnoop
 *
 * A tracer that registers hooks and does nothing in them.  GStreamer's hook
 * dispatch is not free: once any tracer is active, every hook site reads the
 * clock and looks the hook up in a hash table, and each registered callback
 * costs a call.  This tracer pays exactly that and nothing more, so its wall
 * time is the floor that no tracer registering the same hooks can beat; the
 * benchmark compares gstprof against it.
 *
 * By default it registers the hooks the gstprof tracer was designed with
 * (gp_noop_default_hooks below).  To stay in step with the real tracer, the
 * benchmark passes the list it observed the gstprof tracer register:
 *
 *   GST_TRACERS="gstprofnoop(hooks=pad-push-pre+pad-push-post+...)"
 *
 * Hook names are separated by '+'.  A name this GStreamer does not know is
 * skipped with a warning, never registered: gst_tracing_register_hook ()
 * turns an unknown name into quark 0, which means "every hook".
 *
 * GST_DEBUG=gstprofnoop:4 logs the hooks it registered.
 */

#include "gp-config.h"

#include <gst/gst.h>

#include <string.h>

#define GST_TYPE_PROF_NOOP_TRACER (gst_prof_noop_tracer_get_type ())

typedef struct
{
  GstTracer parent;
} GstProfNoopTracer;

typedef struct
{
  GstTracerClass parent_class;
} GstProfNoopTracerClass;

GType gst_prof_noop_tracer_get_type (void);

GST_DEBUG_CATEGORY_STATIC (gst_prof_noop_debug);
#define GST_CAT_DEFAULT gst_prof_noop_debug

#define _do_init \
    GST_DEBUG_CATEGORY_INIT (gst_prof_noop_debug, "gstprofnoop", 0, \
        "gstprof benchmark no-op tracer");
G_DEFINE_TYPE_WITH_CODE (GstProfNoopTracer, gst_prof_noop_tracer,
    GST_TYPE_TRACER, _do_init);

/* hooks */

/* One empty callback per argument shape.  Object arguments are declared as
 * gpointer and enum/boolean results as gint: the same machine types the hook
 * typedefs in gsttracerutils.h pass, so each call matches the callee's ABI
 * exactly while the table stays short. */
static void
gp_noop_p (GObject * self, GstClockTime ts, gpointer a)
{
}

static void
gp_noop_pp (GObject * self, GstClockTime ts, gpointer a, gpointer b)
{
}

static void
gp_noop_pi (GObject * self, GstClockTime ts, gpointer a, gint b)
{
}

static void
gp_noop_ppi (GObject * self, GstClockTime ts, gpointer a, gpointer b, gint c)
{
}

static void
gp_noop_pii (GObject * self, GstClockTime ts, gpointer a, gint b, gint c)
{
}

static void
gp_noop_pull_range_pre (GObject * self, GstClockTime ts, gpointer pad,
    guint64 offset, guint size)
{
}

typedef struct
{
  const gchar *name;
  GCallback func;
} GpNoopHook;

/* Every hook GStreamer had up to 1.28, with the callback of its shape.
 * Newer names are harmless on older GStreamer: they are checked at run time
 * before registering. */
static const GpNoopHook gp_noop_hooks[] = {
  {"pad-push-pre", G_CALLBACK (gp_noop_pp)},    /* pad, buffer */
  {"pad-push-post", G_CALLBACK (gp_noop_pi)},   /* pad, flow */
  {"pad-push-list-pre", G_CALLBACK (gp_noop_pp)},       /* pad, list */
  {"pad-push-list-post", G_CALLBACK (gp_noop_pi)},      /* pad, flow */
  {"pad-pull-range-pre", G_CALLBACK (gp_noop_pull_range_pre)},
  {"pad-pull-range-post", G_CALLBACK (gp_noop_ppi)},    /* pad, buffer, flow */
  {"pad-push-event-pre", G_CALLBACK (gp_noop_pp)},      /* pad, event */
  {"pad-push-event-post", G_CALLBACK (gp_noop_pi)},     /* pad, gboolean */
  {"pad-query-pre", G_CALLBACK (gp_noop_pp)},   /* pad, query */
  {"pad-query-post", G_CALLBACK (gp_noop_ppi)}, /* pad, query, gboolean */
  {"element-post-message-pre", G_CALLBACK (gp_noop_pp)},        /* elem, msg */
  {"element-post-message-post", G_CALLBACK (gp_noop_pi)},       /* elem, bool */
  {"element-query-pre", G_CALLBACK (gp_noop_pp)},       /* element, query */
  {"element-query-post", G_CALLBACK (gp_noop_ppi)},     /* elem, query, bool */
  {"element-new", G_CALLBACK (gp_noop_p)},      /* element */
  {"element-add-pad", G_CALLBACK (gp_noop_pp)}, /* element, pad */
  {"element-remove-pad", G_CALLBACK (gp_noop_pp)},      /* element, pad */
  {"element-change-state-pre", G_CALLBACK (gp_noop_pi)},        /* +trans */
  {"element-change-state-post", G_CALLBACK (gp_noop_pii)},      /* + result */
  {"bin-add-pre", G_CALLBACK (gp_noop_pp)},     /* bin, element */
  {"bin-add-post", G_CALLBACK (gp_noop_ppi)},   /* bin, element, gboolean */
  {"bin-remove-pre", G_CALLBACK (gp_noop_pp)},  /* bin, element */
  {"bin-remove-post", G_CALLBACK (gp_noop_pi)}, /* bin, gboolean */
  {"pad-link-pre", G_CALLBACK (gp_noop_pp)},    /* srcpad, sinkpad */
  {"pad-link-post", G_CALLBACK (gp_noop_ppi)},  /* srcpad, sinkpad, result */
  {"pad-unlink-pre", G_CALLBACK (gp_noop_pp)},  /* srcpad, sinkpad */
  {"pad-unlink-post", G_CALLBACK (gp_noop_ppi)},        /* + gboolean */
  {"mini-object-created", G_CALLBACK (gp_noop_p)},
  {"mini-object-destroyed", G_CALLBACK (gp_noop_p)},
  {"object-created", G_CALLBACK (gp_noop_p)},
  {"object-destroyed", G_CALLBACK (gp_noop_p)},
  {"mini-object-reffed", G_CALLBACK (gp_noop_pi)},      /* object, refcount */
  {"mini-object-unreffed", G_CALLBACK (gp_noop_pi)},
  {"object-reffed", G_CALLBACK (gp_noop_pi)},
  {"object-unreffed", G_CALLBACK (gp_noop_pi)},
  {"plugin-feature-loaded", G_CALLBACK (gp_noop_p)},    /* 1.20 */
  {"pad-chain-pre", G_CALLBACK (gp_noop_pp)},   /* 1.22: pad, buffer */
  {"pad-chain-post", G_CALLBACK (gp_noop_pi)},  /* 1.22: pad, flow */
  {"pad-chain-list-pre", G_CALLBACK (gp_noop_pp)},      /* 1.22 */
  {"pad-chain-list-post", G_CALLBACK (gp_noop_pi)},     /* 1.22 */
  {"pad-send-event-pre", G_CALLBACK (gp_noop_pp)},      /* 1.26: pad, event */
  {"pad-send-event-post", G_CALLBACK (gp_noop_pi)},     /* 1.26: pad, flow */
  {"memory-init", G_CALLBACK (gp_noop_p)},      /* 1.26 */
  {"memory-free-pre", G_CALLBACK (gp_noop_p)},  /* 1.26 */
  {"memory-free-post", G_CALLBACK (gp_noop_p)}, /* 1.26 */
  {"pool-buffer-queued", G_CALLBACK (gp_noop_pp)},      /* 1.28: pool, buf */
  {"pool-buffer-dequeued", G_CALLBACK (gp_noop_pp)},    /* 1.28: pool, buf */
};

/* The hooks the gstprof tracer was designed with; used when no hooks=
 * parameter is given.  The benchmark normally passes the real list. */
static const gchar gp_noop_default_hooks[] =
    "pad-push-pre+pad-push-post+pad-push-list-pre+pad-push-list-post+"
    "pad-pull-range-pre+pad-pull-range-post+pad-push-event-pre+"
    "pad-push-event-post+element-new+element-add-pad+element-remove-pad+"
    "pad-link-post+pad-unlink-post+bin-add-post+bin-remove-post+"
    "element-change-state-post+element-post-message-pre";

static const GpNoopHook *
gp_noop_find_hook (const gchar * name)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (gp_noop_hooks); i++) {
    if (strcmp (gp_noop_hooks[i].name, name) == 0)
      return &gp_noop_hooks[i];
  }
  return NULL;
}

/* Registers every '+'-separated hook of @list; returns how many. */
static guint
gp_noop_register_hooks (GstTracer * tracer, const gchar * list)
{
  gchar **names = g_strsplit (list, "+", -1);
  GString *done = g_string_new (NULL);
  guint i, n = 0;

  for (i = 0; names[i] != NULL; i++) {
    const gchar *name = g_strstrip (names[i]);
    const GpNoopHook *hook;

    if (*name == '\0')
      continue;
    hook = gp_noop_find_hook (name);
    if (hook == NULL) {
      g_warning ("gstprofnoop: hooks: unknown hook '%s', skipped", name);
      continue;
    }
    /* Quark 0 would register the callback for every hook (see above). */
    if (g_quark_try_string (name) == 0) {
      g_warning ("gstprofnoop: hooks: '%s' is not a hook of this GStreamer "
          "(%s), skipped", name, gst_version_string ());
      continue;
    }
    gst_tracing_register_hook (tracer, name, hook->func);
    g_string_append_printf (done, "%s%s", n ? "+" : "", name);
    n++;
  }
  GST_INFO_OBJECT (tracer, "registered %u hooks: %s", n, done->str);
  g_string_free (done, TRUE);
  g_strfreev (names);
  return n;
}

/* tracer class */

static void
gst_prof_noop_tracer_constructed (GObject * object)
{
  GstTracer *tracer = GST_TRACER (object);
  gchar *params = NULL;
  const gchar *hooks = gp_noop_default_hooks;
  gchar **pairs = NULL;
  guint i;

  G_OBJECT_CLASS (gst_prof_noop_tracer_parent_class)->constructed (object);

  /* params is the raw text between the parentheses of GST_TRACERS, e.g.
   * "hooks=a+b"; parsed by hand because GStreamer before 1.26 hands tracers
   * nothing more structured. */
  g_object_get (object, "params", &params, NULL);
  if (params != NULL) {
    pairs = g_strsplit (params, ",", -1);
    for (i = 0; pairs[i] != NULL; i++) {
      gchar *pair = g_strstrip (pairs[i]);

      if (*pair == '\0')
        continue;
      if (g_str_has_prefix (pair, "hooks="))
        hooks = pair + strlen ("hooks=");
      else
        g_warning ("gstprofnoop: params: unknown parameter '%s' "
            "(only hooks=NAME+NAME+... is known)", pair);
    }
  }

  gp_noop_register_hooks (tracer, hooks);

  g_strfreev (pairs);
  g_free (params);
}

static void
gst_prof_noop_tracer_class_init (GstProfNoopTracerClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);

  gobject_class->constructed = gst_prof_noop_tracer_constructed;
}

static void
gst_prof_noop_tracer_init (GstProfNoopTracer * self)
{
}

/* plugin */

static gboolean
plugin_init (GstPlugin * plugin)
{
  return gst_tracer_register (plugin, "gstprofnoop",
      GST_TYPE_PROF_NOOP_TRACER);
}

/* GST_PLUGIN_DEFINE reads PACKAGE for the plugin's source module. */
#define PACKAGE "gstprof"

/* The plugin is named "profnoop": GStreamer derives the entry point it looks
 * for from the file name minus "libgst", libgstprofnoop.so -> profnoop. */
GST_PLUGIN_DEFINE (GST_VERSION_MAJOR, GST_VERSION_MINOR, profnoop,
    "gstprof benchmark: a tracer that registers hooks and does nothing",
    plugin_init, GP_VERSION, "LGPL", "gstprof", "gstprof")
