/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstprof
 *
 * gp-page.h: the report file, one thing to send around (`gstprof report`):
 * a session, or a tegrastats or nvidia-smi log alone, as one HTML page
 * that opens with no network, or as Markdown with its pictures beside it.
 *
 * A page is gathered once (gp_page_new (), gp-page.c) and then written
 * (gp-page-html.c, gp-page-md.c), so that both say the same:
 * - what ran (the launch string, mode, start, duration, GStreamer, the
 *   platform) and the verdict's text as `gstprof analyze` prints it;
 * - the findings, ranked, each with its evidence, why, fix, its
 *   launch-string diff, and whether a bench pair verified it or it is a
 *   heuristic;
 * - the pictures: the graph (the export room's, graphviz), the curves of
 *   `gstprof plot` and the roofline chart (the plot room's, cairo), drawn
 *   in memory: inline SVG in the page (their ids prefixed, so that two
 *   pictures' glyphs never clash; no namespace URL, no comment), PNG files
 *   beside the Markdown;
 * - the tables (gp-page-tables.c): elements, links, queues, paths,
 *   threads, and the machine: its series, its samplers, the diagnosis (the
 *   machine rules' findings: compute-, memory-, thermal- or CPU/IO-bound)
 *   and the roofline's points.
 * Every name and value is escaped where it is written (HTML: as text;
 * Markdown: as text, never as markup). The session handed in is shown as
 * it is: `gstprof report` redacts it first (src/report/gp-redact.h).
 *
 * The room, src/page: its own static library (libgppage), linked only by
 * the binary and its tests, as it links the export and plot rooms; the
 * page's look (CSS and its skeleton) is a GResource compiled from the
 * files beside the code (gp-page.css, gp-page.html).
 *
 * May depend on: core, telemetry (the rooflines), report (the verdict),
 * export (the graph), plot (the pictures).
 */
#ifndef __GP_PAGE_H__
#define __GP_PAGE_H__

#include <glib.h>
#include "core/gp-session.h"
#include "telemetry/gp-roofline-build.h"

G_BEGIN_DECLS

#define GP_PAGE_ERROR (gp_page_error_quark ())
GQuark gp_page_error_quark (void);
typedef enum
{
  GP_PAGE_ERROR_ROOFLINE,       /* the roofline asked for cannot be made */
  GP_PAGE_ERROR_FORMAT,         /* neither .html nor .md */
} GpPageError;

/* What the page is asked to hold beyond the session. */
typedef struct
{
  /* the accelerator's roofline as `gstprof roofline --from` takes it;
   * NULL: the one the session's machine shows, if any */
  const GpRooflineAsk *ask;
  /* @ask names a workload or a part: a roofline that cannot be made is
   * an error, not a note */
  gboolean asked;
  /* a session's elements on this machine's CPU roofline when no
   * accelerator's is there (a bandwidth probe, kept per boot) */
  gboolean cpu_roofline;
  /* the pictures also as PNG (for Markdown) */
  gboolean png;
  /* the session was redacted (the page says so) */
  gboolean redacted;
} GpPageOptions;

/* A table of the page: its columns and rows of text. */
typedef struct
{
  gchar *id;                    /* "elements": the page's anchor */
  gchar *title;
  gchar **columns;              /* NULL-terminated */
  GPtrArray *rows;              /* gchar**, as many as columns */
  gchar *note;                  /* a line under it, NULL */
} GpPageTable;

/* A picture of the page. */
typedef struct
{
  gchar *id;                    /* "graph", "curves", "roofline" */
  gchar *title;
  GBytes *svg;                  /* NULL when absent */
  GBytes *png;                  /* with GpPageOptions.png */
  gchar *absent;                /* why there is none; NULL when there */
  gchar *caption;               /* lines under it, NULL */
} GpPagePicture;

/* A finding as the page shows it. */
typedef struct
{
  GpFinding *f;                 /* borrowed from the session */
  gchar *evidence;              /* "key: value" lines */
  gchar *diff;                  /* its launch-string edit, NULL none */
  gchar *basis;                 /* "verified on ...", "heuristic", ... */
} GpPageFinding;

typedef struct
{
  GpSession *s;                 /* borrowed: outlives the page */
  gchar *title;
  GPtrArray *facts;             /* gchar* pairs: what, value */
  gchar *verdict;               /* plain text */
  GPtrArray *findings;          /* GpPageFinding* */
  GPtrArray *pictures;          /* GpPagePicture* */
  GPtrArray *tables;            /* GpPageTable* */
  gboolean redacted;
} GpPage;

/* The page of @s (rules already run; redacted by the caller when it
 * must be), @note the import's note for the verdict (may be NULL). NULL
 * with a one-line @error only when @o asked for what cannot be made; a
 * picture that cannot be drawn is a note on the page. */
GpPage *gp_page_new (GpSession * s, const gchar * note,
    const GpPageOptions * o, GError ** error);
void gp_page_free (GpPage * p);

/* The page's table @id, or NULL. */
GpPageTable *gp_page_find_table (const GpPage * p, const gchar * id);

/* The page as one HTML file at @path, written whole or not at all. */
gboolean gp_page_write_html (const GpPage * p, const gchar * path,
    GError ** error);
/* The page as Markdown at @path, and its pictures as PNG files beside it,
 * named after it ("report.md": "report-graph.png", ...) and linked by
 * those names. Each file is written whole or not at all. */
gboolean gp_page_write_markdown (const GpPage * p, const gchar * path,
    GError ** error);
/* The file of picture @pic beside Markdown @path ("DIR/report-graph.png");
 * a new string. */
gchar *gp_page_picture_path (const gchar * path, const GpPagePicture * pic);

G_END_DECLS

#endif /* __GP_PAGE_H__ */
