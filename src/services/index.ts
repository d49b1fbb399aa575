import type { ServiceDefinition, ServiceName } from '../server/service-definition.js';
import { documentAutocaptureService } from './document-autocapture/index.js';
import { documentValidationService } from './document-validation/index.js';
import { faceAnalysisService } from './face-analysis/index.js';
import { faceLivenessService } from './face-liveness/index.js';
import { faceMatchingService } from './face-matching/index.js';
import { onboardingService } from './onboarding/index.js';
import { transactionReportService } from './transaction-report/index.js';
import { voiceLivenessService } from './voice-liveness/index.js';
import { voiceMatchingService } from './voice-matching/index.js';

/** Every service, in the order of DESIGN.md §1. */
export const ALL_SERVICES: readonly ServiceDefinition[] = [
  onboardingService,
  faceLivenessService,
  documentAutocaptureService,
  faceAnalysisService,
  voiceLivenessService,
  faceMatchingService,
  voiceMatchingService,
  documentValidationService,
  transactionReportService,
];

/**
 * The definition of one service by name.
 *
 * @example
 * serviceByName('face-matching').prefix; // '/face-matching'
 */
export function serviceByName(name: ServiceName): ServiceDefinition {
  const service = ALL_SERVICES.find((s) => s.name === name);
  if (service === undefined) throw new Error(`no service named '${name}'`);
  return service;
}
