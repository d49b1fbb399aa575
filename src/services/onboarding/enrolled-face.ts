import { calibrated, cosine } from '../../engines/face/calibrated-score.js';
import { decodeTemplate, encodeTemplate } from '../../engines/templates/template-codec.js';
import type { OnboardingUser } from '../../store/onboarding-users.js';
import { faceTemplateContext, type OnboardingContext } from './onboarding-context.js';

/**
 * The sealed F500 template of a user's enrolled face, bound to the user's row (a copy moved to another
 * user will not open).
 *
 * @example
 * const sealed = sealFaceTemplate(ctx, 'acme', 'alice', check.template);
 */
export function sealFaceTemplate(
  ctx: OnboardingContext,
  customer: string,
  username: string,
  vector: Float32Array,
): Buffer {
  return ctx.sealer.seal(
    encodeTemplate({ modality: 'face', algorithm: 'F500', vector }),
    faceTemplateContext(customer, username),
  );
}

/**
 * A face against a user's enrolled face: cosine of the F500 templates and its calibrated forms
 * (`scoreFmr` = -log10 FMR, `scorePercent` 0-100; docs/scores.md).
 *
 * @example
 * matchEnrolledFace(ctx, user, check.template).scoreFmr >= policy.matchFmrScore;
 */
export function matchEnrolledFace(
  ctx: OnboardingContext,
  user: OnboardingUser,
  vector: Float32Array,
): ReturnType<typeof calibrated> {
  const enrolled = decodeTemplate(
    ctx.sealer.open(user.sealedFaceTemplate, faceTemplateContext(user.customer, user.username)),
  );
  return calibrated('F500', cosine(enrolled.vector, vector));
}
