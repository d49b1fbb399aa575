import type { MetricName } from '../../engines/face-quality/metric-catalog.js';
import type { FaceProfile, MetricRule } from './profile.js';

/** The spec's per-metric `complianceStatus`. */
export type ComplianceStatus = 'OK' | 'FAIL_HIGH' | 'FAIL_LOW' | 'FAIL_VALUE';

export interface ComplianceResult {
  /** True when every status is OK. */
  readonly isCompliant: boolean;
  /**
   * One status per rule of the profile, except optional metrics that were not measured (those have
   * no score to report and do not count).
   */
  readonly statuses: Partial<Record<MetricName, ComplianceStatus>>;
}

/** Exact-value rules compare with this relative tolerance, so 1 and 0.1 + 0.9 match. */
const VALUE_TOLERANCE = 1e-9;

/**
 * A score against one rule: FAIL_LOW below `min`, FAIL_HIGH above `max` (both bounds inclusive), and
 * FAIL_VALUE when a values rule is not met or a required metric has no score (not measured, or NaN);
 * undefined for an optional metric without a score.
 *
 * @example
 * ruleStatus({ metric: 'HEAD_POSE_YAW', kind: 'range', min: -8, max: 8, required: true }, 12); // 'FAIL_HIGH'
 */
export function ruleStatus(rule: MetricRule, score: number | undefined): ComplianceStatus | undefined {
  if (score === undefined || Number.isNaN(score)) return rule.required ? 'FAIL_VALUE' : undefined;
  if (rule.kind === 'values') {
    return rule.values.some((value) => Math.abs(score - value) <= VALUE_TOLERANCE * Math.max(1, Math.abs(value)))
      ? 'OK'
      : 'FAIL_VALUE';
  }
  if (rule.min !== undefined && score < rule.min) return 'FAIL_LOW';
  if (rule.max !== undefined && score > rule.max) return 'FAIL_HIGH';
  return 'OK';
}

/**
 * Every rule of the profile against the measured scores (docs/face-analysis.md#profiles).
 *
 * @example
 * const { isCompliant, statuses } = evaluateCompliance(profile, { HEAD_POSE_YAW: 3.2, SHARPNESS: 71 });
 */
export function evaluateCompliance(
  profile: FaceProfile,
  scores: Partial<Record<MetricName, number>>,
): ComplianceResult {
  const statuses: Partial<Record<MetricName, ComplianceStatus>> = {};
  for (const rule of profile.rules) {
    const status = ruleStatus(rule, scores[rule.metric]);
    if (status !== undefined) statuses[rule.metric] = status;
  }
  return { isCompliant: Object.values(statuses).every((status) => status === 'OK'), statuses };
}
