import type { FastifyInstance } from 'fastify';
import { DocumentEngine } from '../../src/engines/document/document-engine.js';
import { openStore, type Store } from '../../src/store/database.js';
import { testApp } from './app.js';
import { closeTestFaceEngine, testFaceEngine } from './faces.js';

/** What a document-validation test runs on: a document engine of its own and an in-memory store. */
export interface DocumentTestParts {
  readonly engine: DocumentEngine;
  readonly store: Store;
  /** A test app on these parts and the shared test face engine (the printed portrait); the caller closes it. */
  app(): Promise<FastifyInstance>;
  /** Closes the engine, the shared test face engine and the store (after the apps). */
  close(): Promise<void>;
}

/**
 * Starts a document engine and opens an in-memory store for a document-validation test file.
 *
 * @example
 * const parts = await documentTestParts();
 * const app = await parts.app();
 * // ... requests ...
 * await app.close();
 * await parts.close();
 */
export async function documentTestParts(): Promise<DocumentTestParts> {
  const engine = DocumentEngine.start();
  const store = await openStore({ kind: 'pglite', dataDir: 'memory://' });
  return {
    engine,
    store,
    app: () => testApp({}, { store, documentEngine: engine, faceEngine: testFaceEngine() }),
    close: async () => {
      await engine.close();
      await closeTestFaceEngine();
      await store.close();
    },
  };
}
