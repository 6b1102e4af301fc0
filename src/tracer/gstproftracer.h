/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof tracer
 *
 * gstproftracer.h: the "gstprof" tracer type.  Applications do not include
 * this header: they find the instance as src/core/gp-record.h says and talk
 * to it through its signals (see gstproftracer.c).
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
