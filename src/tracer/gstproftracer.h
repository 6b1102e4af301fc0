/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof tracer
 *
 * gstproftracer.h: the "gstprof" tracer type.  Applications do not include
 * this header: they find the instance as src/core/gp-record.h says and talk
 * to it through its signals (see gstproftracer.c).
 *
 * The room, src/tracer: the plugin libgstprof.so (gstprofplugin.c; its
 * records, parameters and transport: docs/records.md, what it measures:
 * docs/measurement.md).  The hooks, the per-thread push stacks and the
 * lock-free accumulators (gstproftracer.c, the state in gstprofstate.c and
 * gstprofprivate.h), the window emitter on its own thread (gstprofwindow.c),
 * the graph record (gstprofgraph.c), its parameters as GObject properties,
 * element names unique by path and same-named top-level pipelines numbered
 * name#2 (gp_names_refresh in gstprofstate.c).  The records it writes by
 * itself (gstprofout.c: the file of `out`, the stream of `socket` to
 * `gstprof wrap`, non-blocking and bounded).  With trace=SECONDS a ring per
 * streaming thread of every push's enter, exit and element, read back by
 * the collect-trace action (gstproftrace.c: written by the thread alone as
 * each push returns, so no lock and no allocation; sized GP_TRACE_RATE_MAX
 * (10 000) pushes a second x SECONDS, rounded up to a power of two: 131 072
 * entries, 3 MiB, for 10 s; off, the hot path pays one branch on a NULL
 * pointer).  With nvtx=true an NVTX range per element per buffer in the
 * domain gstprof, named by the element, over the push (or pull) it already
 * brackets, and each streaming thread named once by the pad that drives it
 * (gstprofnvtx.c: libnvToolsExt.so.1, or CUDA 12.8's libnvtx3interop.so.1,
 * or GSTPROF_NVTX_LIB, opened with dlopen, never linked; absent, the
 * parameter is refused with one warning and the tracer measures on; off,
 * one branch on a NULL pointer in each push and pull hook).
 *
 * May depend on: GStreamer core only, and the header-only contracts of
 * src/core: gp-histogram.h (bucket layout), gp-record.h (every field of its
 * records) and gp-hw-factories.h (which factories are hardware).
 */
#ifndef __GST_PROF_TRACER_H__
#define __GST_PROF_TRACER_H__

#include <gst/gst.h>
#include <gst/gsttracer.h>

G_BEGIN_DECLS

#define GST_TYPE_PROF_TRACER \
  (gst_prof_tracer_get_type())
#define GST_PROF_TRACER(obj) \
  (G_TYPE_CHECK_INSTANCE_CAST((obj),GST_TYPE_PROF_TRACER,GstProfTracer))
#define GST_PROF_TRACER_CLASS(klass) \
  (G_TYPE_CHECK_CLASS_CAST((klass),GST_TYPE_PROF_TRACER,GstProfTracerClass))
#define GST_IS_PROF_TRACER(obj) \
  (G_TYPE_CHECK_INSTANCE_TYPE((obj),GST_TYPE_PROF_TRACER))
#define GST_IS_PROF_TRACER_CLASS(klass) \
  (G_TYPE_CHECK_CLASS_TYPE((klass),GST_TYPE_PROF_TRACER))
#define GST_PROF_TRACER_CAST(obj) ((GstProfTracer *)(obj))

typedef struct _GstProfTracer GstProfTracer;
typedef struct _GstProfTracerClass GstProfTracerClass;

struct _GstProfTracerClass
{
  GstTracerClass parent_class;
};

G_GNUC_INTERNAL GType gst_prof_tracer_get_type (void);

G_END_DECLS

#endif /* __GST_PROF_TRACER_H__ */
