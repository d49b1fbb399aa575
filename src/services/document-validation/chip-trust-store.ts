import { statSync } from 'node:fs';
import { readTrustStoreFolder } from '../../engines/document/chip/trust-store-folder.js';
import { trustStore, type TrustStore } from '../../engines/document/chip/trust-store.js';

/**
 * The trust store of the folder (VERIPORT_TRUST_STORE_DIR), read on first use and again whenever the folder's
 * modification time changes (a file added or removed by `veriport admin trust-store import`), so a running
 * server picks an import up without a restart. Files that do not read are reported through `warn` once per
 * reading. No folder configured: an empty store.
 *
 * @example
 * const trust = cachedTrustStore(config.trustStoreDir, (m) => app.log.warn(m));
 * passiveAuthentication(files, trust(), new Date());
 */
export function cachedTrustStore(folder: string | undefined, warn: (message: string) => void): () => TrustStore {
  const empty = trustStore([]);
  let cached: { readonly mtimeMs: number; readonly store: TrustStore } | null = null;
  return () => {
    if (folder === undefined) return empty;
    let mtimeMs: number;
    try {
      mtimeMs = statSync(folder).mtimeMs;
    } catch {
      return empty;
    }
    if (cached?.mtimeMs !== mtimeMs) {
      const read = readTrustStoreFolder(folder);
      for (const problem of read.problems) warn(`trust store ${folder}: ${problem} (file skipped)`);
      cached = { mtimeMs, store: read.store };
    }
    return cached.store;
  };
}
