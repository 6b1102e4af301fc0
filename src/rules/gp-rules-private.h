/* gstprof
 *
 * gp-rules-private.h: the rule families' entry points, listed in the table
 * in gp-rules.c. The session queries they share are public, in gp-rules.h,
 * because the verdict asks the same questions.
 */
#ifndef __GP_RULES_PRIVATE_H__
#define __GP_RULES_PRIVATE_H__

#include "gp-rules.h"

G_BEGIN_DECLS

/* gp-rule-hot.c */
void gp_rule_hot (GpSession * s, const GpRule * rule);
/* gp-rule-budget.c: throughput and latency against the frame budget */
void gp_rule_budget (GpSession * s, const GpRule * rule);

G_END_DECLS

#endif /* __GP_RULES_PRIVATE_H__ */
