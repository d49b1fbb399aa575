import type { DocumentEngine } from '../../engines/document/document-engine.js';
import type { FaceEngine } from '../../engines/face/face-engine.js';
import type { ServiceDependencies } from '../../server/service-definition.js';

/** The service name: the version route's. */
export const DOCUMENT_VALIDATION = 'document-validation';

/** What the document-validation domain functions work with: the shared engines, both started on first use. */
export interface DocumentValidationContext {
  readonly documentEngine: () => DocumentEngine;
  /** Cuts the printed portrait; the process's one face pool, shared with the face services. */
  readonly faceEngine: () => FaceEngine;
  /** The day the MRZ dates' century rules count from. */
  readonly now: () => Date;
}

/**
 * Builds the document-validation context from the server's dependencies.
 *
 * @example
 * const validation = documentValidationContext(deps);
 * await validateDocument(validation, body);
 */
export function documentValidationContext(
  deps: ServiceDependencies,
  now: () => Date = () => new Date(),
): DocumentValidationContext {
  return { documentEngine: deps.documentEngine, faceEngine: deps.faceEngine, now };
}
