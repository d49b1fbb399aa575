import type { ServerKeyPair } from '../../crypto/server-key-pair.js';
import type { DocumentEngine } from '../../engines/document/document-engine.js';
import type { ServiceDependencies } from '../../server/service-definition.js';

/** The service name: the version route's and the envelope purpose's. */
export const DOCUMENT_AUTOCAPTURE = 'document-autocapture';

/** What the document-autocapture domain functions work with. */
export interface DocumentAutocaptureContext {
  /** The shared document engine (one pool per process, started by the app on first use). */
  readonly documentEngine: () => DocumentEngine;
  /** Opens `/autocaptureDocumentEncrypted` packages (sealed for 'document-autocapture' only). */
  readonly envelopeKey: ServerKeyPair;
}

/**
 * Builds the document-autocapture context from the server's dependencies.
 *
 * @example
 * const autocapture = documentAutocaptureContext(deps);
 * await autocaptureDocument(autocapture, body);
 */
export function documentAutocaptureContext(deps: ServiceDependencies): DocumentAutocaptureContext {
  return { documentEngine: deps.documentEngine, envelopeKey: deps.envelopeKeys.key('document-autocapture') };
}
