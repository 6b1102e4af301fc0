/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gp-ds-rules: the numbers the tuning flow's rules share, so that stage 0
 * (gp-ds-preset) and R1-R7 (gp-ds-derive) never disagree. Where the skill
 * contradicts itself the choice and its reason are in docs/tuning.md.
 * Header-only. */
#ifndef __GP_DS_RULES_H__
#define __GP_DS_RULES_H__

/* stage 0: the muxer batches min(N, 16) until the sweep measures the
 * plateau */
#define GP_DS_BATCH_MAX 16
/* R3: extra decoder surfaces, min (batch, 5): more only hold memory once
 * the muxer has its batch */
#define GP_DS_SURFACES_MAX 5
/* R5: a queue into the primary inference holds 2 batches: double
 * buffering, one batch filling while the last is inferred (the skill
 * says 4 in two places and 2 in a third: docs/tuning.md) */
#define GP_DS_QUEUE_BATCHES 2
/* R4: the tracker's max-perf working size for 16:9 (NvDCF's preset);
 * NvDCF and DeepSORT need multiples of 32 */
#define GP_DS_TRACKER_WIDTH 480
#define GP_DS_TRACKER_HEIGHT 288
#define GP_DS_TRACKER_ALIGN 32
#define GP_DS_TRACKER_CONFIG "/opt/nvidia/deepstream/deepstream/samples/" \
  "configs/deepstream-app/config_tracker_NvDCF_max_perf.yml"
#define GP_DS_TRACKER_LIB "/opt/nvidia/deepstream/deepstream/lib/" \
  "libnvds_nvmultiobjecttracker.so"

#endif /* __GP_DS_RULES_H__ */
