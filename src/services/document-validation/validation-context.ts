import type { EnvelopeOpeningKey } from '../../crypto/envelope.js';
import type { TrustStore } from '../../engines/document/chip/trust-store.js';
import type { DocumentEngine } from '../../engines/document/document-engine.js';
import type { FaceEngine } from '../../engines/face/face-engine.js';
import type { ServiceDependencies } from '../../server/service-definition.js';
import { cachedTrustStore } from './chip-trust-store.js';

/** The service name: the version route's. */
export const DOCUMENT_VALIDATION = 'document-validation';

/** What the document-validation domain functions work with: the shared engines, both started on first use. */
export interface DocumentValidationContext {
  readonly documentEngine: () => DocumentEngine;
  /** Cuts the printed portrait; the process's one face pool, shared with the face services. */
  readonly faceEngine: () => FaceEngine;
  /** The day the MRZ dates' century rules count from, and the day certificate validity is checked at. */
  readonly now: () => Date;
  /** The CSCA certificates chip passive authentication trusts (VERIPORT_TRUST_STORE_DIR, re-read on change). */
  readonly trustStore: () => TrustStore;
  /** Opens `encryptedDocument` sealed as `{key, iv, p}` ('document-validation' purpose). */
  readonly envelopeKey: EnvelopeOpeningKey;
  /** The public half, served by `GET /getPublicKey`. */
  readonly envelopePublicKeyPem: string;
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
  warn: (message: string) => void = () => undefined,
): DocumentValidationContext {
  const keys = deps.envelopeKeys.key('document-validation');
  return {
    documentEngine: deps.documentEngine,
    faceEngine: deps.faceEngine,
    now,
    trustStore: cachedTrustStore(deps.config.trustStoreDir, warn),
    envelopeKey: keys,
    envelopePublicKeyPem: keys.publicKeyPem,
  };
}
