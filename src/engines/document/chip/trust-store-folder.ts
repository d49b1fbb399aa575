import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { certificateDers, readCertificate, type ChipCertificate } from './chip-certificate.js';
import { ChipDataError } from './chip-data-error.js';
import { readMasterList } from './master-list.js';
import { trustStore, type TrustStore } from './trust-store.js';

/** A trust-store folder read: the store, and the files that could not be read (the server logs them). */
export interface TrustStoreFolder {
  readonly store: TrustStore;
  readonly problems: readonly string[];
}

/**
 * Reads every file of a trust-store folder: certificates (DER or PEM, several PEM blocks allowed) and ICAO
 * master lists (`.ml`, signature checked). A file that does not read is listed in `problems`, the rest kept.
 * A missing folder is an empty store (every chain then fails with CHIP_CSCA_UNKNOWN).
 *
 * @example
 * const { store } = readTrustStoreFolder('./data/trust-store');
 * store.certificates.length; // 3
 */
export function readTrustStoreFolder(folder: string): TrustStoreFolder {
  let names: string[];
  try {
    names = readdirSync(folder).sort();
  } catch {
    return { store: trustStore([]), problems: [] };
  }
  const certificates: ChipCertificate[] = [];
  const problems: string[] = [];
  for (const name of names) {
    const path = join(folder, name);
    if (!statSync(path).isFile()) continue;
    try {
      const file = readTrustFile(readFileSync(path), name);
      certificates.push(...file.certificates);
      if (file.skipped > 0) problems.push(`${name}: ${file.skipped} certificates unreadable, left out`);
    } catch (error) {
      if (!(error instanceof ChipDataError)) throw error;
      problems.push(`${name}: ${error.message}`);
    }
  }
  return { store: trustStore(certificates), problems };
}

/** The certificates of one trust file, and how many of a master list's could not be read. */
export interface TrustFile {
  readonly certificates: readonly ChipCertificate[];
  readonly skipped: number;
}

/**
 * The CSCA certificates in one file: an ICAO master list's (its signature checked) or the certificates
 * of a DER or PEM file.
 *
 * @example
 * readTrustFile(readFileSync('ICAO_ml.ml'), 'ICAO_ml.ml').certificates.length; // 500+
 * @throws {ChipDataError} `MASTER_LIST` or `CERTIFICATE` when the file is neither
 */
export function readTrustFile(bytes: Uint8Array, name: string): TrustFile {
  if (name.toLowerCase().endsWith('.ml')) return readMasterList(bytes);
  return {
    certificates: certificateDers(bytes).map((der, i) => readCertificate(der, `${name} certificate ${i}`)),
    skipped: 0,
  };
}

/** What an import wrote. */
export interface TrustImport {
  readonly added: readonly ChipCertificate[];
  /** Already in the folder (same fingerprint). */
  readonly present: number;
}

/**
 * Writes certificates into a trust-store folder as `<country>-<first 16 hex of SHA-256>.der`, skipping those
 * already there; creates the folder. The server reads the folder again when it changes.
 *
 * @example
 * importIntoTrustStore('./data/trust-store', readTrustFile(bytes, 'ml.ml').certificates);
 * // { added: [...], present: 0 }
 */
export function importIntoTrustStore(folder: string, certificates: readonly ChipCertificate[]): TrustImport {
  mkdirSync(folder, { recursive: true });
  const existing = readTrustStoreFolder(folder).store.certificates.map((c) => c.fingerprint);
  const known = new Set(existing);
  const added: ChipCertificate[] = [];
  for (const certificate of certificates) {
    if (known.has(certificate.fingerprint)) continue;
    known.add(certificate.fingerprint);
    const country = (certificate.country ?? 'XX').replace(/[^A-Z]/g, '') || 'XX';
    writeFileSync(join(folder, `${country}-${certificate.fingerprint.slice(0, 16)}.der`), certificate.der);
    added.push(certificate);
  }
  return { added, present: certificates.length - added.length };
}
