/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-page-private.h: what the page's files share: the parts' free
 * functions, the tables (gp-page-tables.c), the skeleton and look
 * (gp-page.html, gp-page.css, a GResource), the pictures' files.
 */
#ifndef __GP_PAGE_PRIVATE_H__
#define __GP_PAGE_PRIVATE_H__

#include "gp-page.h"
#include "telemetry/gp-roofline.h"

G_BEGIN_DECLS

void gp_page_finding_free (gpointer data);
void gp_page_picture_free (gpointer data);
void gp_page_table_free (gpointer data);

/* The session's tables and the machine's, appended to @p->tables. */
void gp_page_tables (GpPage * p);
/* The roofline's points as a table of @p. */
void gp_page_roofline_table (GpPage * p, const GpRoofline * r);

/* The embedded file @name of the page's GResource ("gp-page.css"), as
 * text; aborts when the build left it out. */
gchar *gp_page_resource_text (const gchar * name);

G_END_DECLS

#endif /* __GP_PAGE_PRIVATE_H__ */
