/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof tracer
 *
 * gstprofnvtx.c: nvtx=true, an NVTX range per element per buffer for
 * Nsight Systems, through libnvToolsExt loaded at run time.
 *
 * The library is opened with dlopen when the parameter asks for it, never
 * linked: the tracer keeps depending on GStreamer core only.  Tried in
 * order: the file GSTPROF_NVTX_LIB names (tests, or a library in an odd
 * place), libnvToolsExt.so.1 (CUDA up to 12.x, DeepStream's images), and
 * libnvtx3interop.so.1 (CUDA 12.8 and later, which ship NVTX 3's shim in
 * its place).  Both forward every call to the tool that injects itself
 * (nsys sets NVTX_INJECTION64_PATH); without a tool the calls return at
 * once.
 *
 * Ranges go to a domain of their own, "gstprof", pushed with
 * nvtxDomainRangePushEx and an ASCII message: nsys draws a domain as its own
 * row under each thread ("NVTX (gstprof)") and its nvtx_sum labels them
 * "gstprof:NAME", so the tracer's ranges never add up with DeepStream's own
 * (default domain, or nvinfer's "GstNvInfer: UID=N"), and
 * --nvtx-domain-include/exclude keep or drop them as a whole.  The plain
 * nvtxRangePushA would mix both in one row and one table.
 *
 * A range's name is the element's own name (GST_OBJECT_NAME, unique in its
 * bin), copied when the tracer first sees it; its span is the push (or the
 * pull) the tracer already brackets for self time: it opens in pad-push-pre
 * (pad-push-list-pre, pad-pull-range-pre) for the element receiving the
 * buffer (producing it, for a pull) and closes in the matching post, so a
 * downstream element's range nests inside its upstream's.  Ghost and proxy
 * pads get none.  A thread is named once, at its first range: by the pad
 * that drives it ("queue0:src", as GStreamer names its tasks, without the
 * kernel's 15-byte cut), or by its OS name when the first range is not at
 * the bottom of its stack.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstprofprivate.h"

#include <dlfcn.h>
#include <stdint.h>
#include <string.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

GST_DEBUG_CATEGORY_EXTERN (gst_prof_debug);
#define GST_CAT_DEFAULT gst_prof_debug

/* The library names tried after GSTPROF_NVTX_LIB (see above). */
static const gchar *const gp_nvtx_libs[] = {
  "libnvToolsExt.so.1",
  "libnvtx3interop.so.1",
};

/* nvtxEventAttributes_t (version 2 layout, NVTX 2 and 3 alike: the ABI is
 * fixed by its size field), the fields a range uses */
typedef struct
{
  guint16 version;
  guint16 size;
  guint32 category;
  gint32 color_type;
  guint32 color;
  gint32 payload_type;
  gint32 reserved0;
  guint64 payload;
  gint32 message_type;
  const char *message;
} GpNvtxAttrs;

#define GP_NVTX_ATTRS_VERSION 2 /* NVTX_VERSION of the layout above */
#define GP_NVTX_MESSAGE_ASCII 1 /* NVTX_MESSAGE_TYPE_ASCII */

typedef gpointer (*GpNvtxDomainCreate) (const char *name);
typedef int (*GpNvtxPushEx) (gpointer domain, const GpNvtxAttrs * attrs);
typedef int (*GpNvtxPop) (gpointer domain);
typedef void (*GpNvtxNameThread) (guint32 tid, const char *name);

struct _GpNvtx
{
  gpointer lib;
  gpointer domain;
  GpNvtxPushEx push;
  GpNvtxPop pop;
  GpNvtxNameThread name_thread;
};

/* Opens the library and resolves what the ranges need; on failure, *why
 * says what was missing (a new string). */
static GpNvtx *
gp_nvtx_open_lib (gchar ** why)
{
  const gchar *env = g_getenv ("GSTPROF_NVTX_LIB");
  GString *tried = g_string_new (NULL);
  GpNvtxDomainCreate create;
  gpointer lib = NULL;
  GpNvtx *n;
  guint i;

  if (env && *env) {
    lib = dlopen (env, RTLD_NOW | RTLD_LOCAL);
    if (!lib)
      g_string_append (tried, dlerror ());
  } else {
    for (i = 0; i < G_N_ELEMENTS (gp_nvtx_libs) && !lib; i++) {
      lib = dlopen (gp_nvtx_libs[i], RTLD_NOW | RTLD_LOCAL);
      if (!lib)
        g_string_append_printf (tried, "%s%s", i ? ", " : "",
            gp_nvtx_libs[i]);
    }
    if (!lib)
      g_string_prepend (tried, "none of ");
  }
  if (!lib) {
    *why = g_string_free (tried, FALSE);
    return NULL;
  }
  g_string_free (tried, TRUE);

  n = g_new0 (GpNvtx, 1);
  n->lib = lib;
  create = (GpNvtxDomainCreate) dlsym (lib, "nvtxDomainCreateA");
  n->push = (GpNvtxPushEx) dlsym (lib, "nvtxDomainRangePushEx");
  n->pop = (GpNvtxPop) dlsym (lib, "nvtxDomainRangePop");
  n->name_thread = (GpNvtxNameThread) dlsym (lib, "nvtxNameOsThreadA");
  if (!create || !n->push || !n->pop) {
    *why = g_strdup_printf ("%s lacks nvtxDomainCreateA, "
        "nvtxDomainRangePushEx or nvtxDomainRangePop",
        env && *env ? env : "the library");
    dlclose (lib);
    g_free (n);
    return NULL;
  }
  n->domain = create ("gstprof");
  return n;
}

/* nvtx=true: loads the library, or refuses with one warning naming what
 * was looked for; the tracer measures on either way. */
gboolean
gp_nvtx_setup (GstProfTracer * self)
{
  gchar *why = NULL;

  self->nvtx = gp_nvtx_open_lib (&why);
  if (!self->nvtx) {
    g_warning ("gstprof: GST_TRACERS: nvtx=true refused: cannot load "
        "libnvToolsExt (%s); measuring without NVTX ranges", why);
    g_free (why);
    return FALSE;
  }
  GST_INFO_OBJECT (self, "NVTX ranges on, domain \"gstprof\"%s",
      self->nvtx->name_thread ? "" : " (no nvtxNameOsThreadA: threads "
      "keep their OS names)");
  return TRUE;
}

void
gp_nvtx_free (GstProfTracer * self)
{
  /* the library stays loaded: a tool injected into it may still hold the
   * domain's strings */
  g_free (self->nvtx);
  self->nvtx = NULL;
}

/* Once per thread: by its driving pad at the bottom of its stack, else by
 * its OS name. */
static void
gp_nvtx_name_thread (GpNvtx * n, GpThread * t, GstPad * pad)
{
  gchar *name = NULL;

  t->nvtx_named = TRUE;
  if (!n->name_thread || t->tid <= 0)
    return;
  if (t->depth == 1 && pad) {
    GstObject *parent = gst_pad_get_parent (pad);

    if (parent) {
      name = g_strdup_printf ("%s:%s", GST_OBJECT_NAME (parent),
          GST_OBJECT_NAME (pad));
      gst_object_unref (parent);
    }
  }
#ifdef __linux__
  if (!name) {
    gchar os[17] = { 0 };

    if (prctl (PR_GET_NAME, (unsigned long) os, 0, 0, 0) == 0 && os[0])
      name = g_strdup (os);
  }
#endif
  if (name)
    n->name_thread ((guint32) t->tid, name);
  g_free (name);
}

/* The frame just opened for @pad: a range for its element (none for a
 * pass-through frame). */
void
gp_nvtx_range_open (GstProfTracer * self, GpThread * t, GpFrame * f,
    GstPad * pad)
{
  GpNvtx *n = self->nvtx;
  GpNvtxAttrs a;

  if (G_UNLIKELY (!t->nvtx_named))
    gp_nvtx_name_thread (n, t, pad);
  f->nvtx = f->elem != NULL && f->elem->nvtx_name != NULL;
  if (!f->nvtx)
    return;
  memset (&a, 0, sizeof (a));
  a.version = GP_NVTX_ATTRS_VERSION;
  a.size = sizeof (a);
  a.message_type = GP_NVTX_MESSAGE_ASCII;
  a.message = f->elem->nvtx_name;
  n->push (n->domain, &a);
}

/* Before the frame on top closes: its range ends. */
void
gp_nvtx_range_close (GstProfTracer * self, GpThread * t)
{
  GpFrame *f;

  if (t->depth == 0 || t->depth > GP_STACK_DEPTH)
    return;
  f = &t->stack[t->depth - 1];
  if (f->nvtx) {
    f->nvtx = FALSE;
    self->nvtx->pop (self->nvtx->domain);
  }
}
