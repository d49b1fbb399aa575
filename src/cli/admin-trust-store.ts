import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { ChipCertificate } from '../engines/document/chip/chip-certificate.js';
import { ChipDataError } from '../engines/document/chip/chip-data-error.js';
import {
  importIntoTrustStore,
  readTrustFile,
  readTrustStoreFolder,
  type TrustFile,
} from '../engines/document/chip/trust-store-folder.js';

export const TRUST_STORE_USAGE = `  veriport admin trust-store import <file or folder>... | trust-store list
      The CSCA certificates chip passive authentication trusts (document validation): certificates (DER or PEM)
      and ICAO master lists (.ml, their signature checked) are copied into VERIPORT_TRUST_STORE_DIR
      (default <data dir>/trust-store); a running server reads the folder again when it changes. Nothing is
      fetched from the network: download master lists from the ICAO PKD or the issuing states yourself.`;

/** A malformed `trust-store` command, no folder configured, or a file that is no certificate or master list. */
export class TrustStoreCommandError extends Error {
  override name = 'TrustStoreCommandError';
}

/**
 * Runs `veriport admin trust-store import|list` against the trust-store folder and returns what to print.
 * An import reads every file first and writes nothing if one of them does not read.
 *
 * @example
 * process.stdout.write(trustStoreCommand('./data/trust-store', ['import', 'ICAO_ml_2026.ml']));
 * // 'added UT-3f2a...der  C=UT, CN=CSCA Utopia  valid to 2040-01-01\n...'
 * @throws {TrustStoreCommandError} for a malformed command, no folder, or an unreadable file
 */
export function trustStoreCommand(folder: string | undefined, args: readonly string[]): string {
  const [verb, ...paths] = args;
  if (folder === undefined) {
    throw new TrustStoreCommandError(
      'no trust-store folder: set VERIPORT_TRUST_STORE_DIR (the default lives beside a PGlite data directory)',
    );
  }
  switch (verb) {
    case 'import': {
      if (paths.length === 0)
        throw new TrustStoreCommandError(`trust-store import needs a file\n\n${TRUST_STORE_USAGE}`);
      const files = paths.flatMap((path) => filesOf(path)).map((file) => [file, readOne(file)] as const);
      const result = importIntoTrustStore(
        folder,
        files.flatMap(([, read]) => read.certificates),
      );
      const lines = result.added.map((c) => `added ${line(c)}\n`);
      const skipped = files.flatMap(([file, read]) =>
        read.skipped === 0 ? [] : [`# ${file}: ${read.skipped} certificates unreadable, left out\n`],
      );
      const summary = `# ${result.added.length} added, ${result.present} already present, folder ${folder}\n`;
      return lines.join('') + skipped.join('') + summary;
    }
    case 'list': {
      if (paths.length > 0)
        throw new TrustStoreCommandError(`trust-store list takes no arguments\n\n${TRUST_STORE_USAGE}`);
      const { store, problems } = readTrustStoreFolder(folder);
      const listed = store.certificates.map((c) => `${line(c)}\n`).join('');
      return listed + problems.map((p) => `# unreadable: ${p}\n`).join('');
    }
    default:
      throw new TrustStoreCommandError(`unknown trust-store command '${args.join(' ')}'\n\n${TRUST_STORE_USAGE}`);
  }
}

function filesOf(path: string): string[] {
  let isDirectory: boolean;
  try {
    isDirectory = statSync(path).isDirectory();
  } catch {
    throw new TrustStoreCommandError(`${path}: no such file`);
  }
  if (!isDirectory) return [path];
  return readdirSync(path)
    .sort()
    .map((name) => join(path, name))
    .filter((file) => statSync(file).isFile());
}

function readOne(path: string): TrustFile {
  try {
    return readTrustFile(readFileSync(path), basename(path));
  } catch (error) {
    if (error instanceof ChipDataError) throw new TrustStoreCommandError(`${path}: ${error.message}; nothing imported`);
    throw error;
  }
}

function line(certificate: ChipCertificate): string {
  const until = certificate.notAfter.toISOString().slice(0, 10);
  return `${certificate.country ?? '??'}-${certificate.fingerprint.slice(0, 16)}.der\t${certificate.subjectText}\tvalid to ${until}`;
}
