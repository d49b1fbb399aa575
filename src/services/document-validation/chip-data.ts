import { decodeBase64 } from '../../crypto/base64.js';
import { decryptJsonEnvelope, type EnvelopeOpeningKey } from '../../crypto/envelope.js';
import type { ChipFiles } from '../../engines/document/chip/passive-authentication.js';
import { invalidValue } from '../../server/errors/api-error.js';

/** `dg1` … `dg16`: the chip's data groups as read. */
const DATA_GROUP_MEMBER = /^dg([1-9]|1[0-6])$/;

/**
 * The chip files in `encryptedDocument` (docs/documents.md, Chip data): `dg1` … `dg16`, `sod` and
 * `dsCertificate`, each base64 of the file as read from the chip; the same object sealed as `{key, iv, p}` for
 * the 'document-validation' purpose is opened first. Null when the object holds none of these members (the
 * capture SDK's free-form JSON without chip data): the chip checks are then NOT_PERFORMED.
 *
 * @example
 * chipFilesOf({ dg1: 'YV...', dg2: 'dW...', sod: 'd4...' }, key); // { dataGroups: Map {1 => ..., 2 => ...}, sod }
 * @throws {ApiError} 400 when chip data is there but `sod` or `dg1` is missing or a member is not a string
 * @throws {InvalidBase64Error} for a member that is not base64; {EnvelopeError} for a package that does not open
 */
export function chipFilesOf(
  encryptedDocument: Readonly<Record<string, unknown>> | undefined,
  key: EnvelopeOpeningKey,
): ChipFiles | null {
  if (encryptedDocument === undefined) return null;
  const { key: wrapped, iv, p } = encryptedDocument;
  if (typeof wrapped === 'string' && typeof iv === 'string' && typeof p === 'string') {
    const opened = decryptJsonEnvelope({ key: wrapped, iv, p }, key);
    if (typeof opened !== 'object' || opened === null || Array.isArray(opened)) {
      throw invalidValue('encryptedDocument: the sealed chip data must be a JSON object');
    }
    return filesOf(opened as Record<string, unknown>) ?? emptySealed();
  }
  return filesOf(encryptedDocument);
}

function filesOf(document: Readonly<Record<string, unknown>>): ChipFiles | null {
  const names = Object.keys(document).filter(
    (name) => name === 'sod' || name === 'dsCertificate' || DATA_GROUP_MEMBER.test(name),
  );
  if (names.length === 0) return null;
  const bytes = (name: string): Buffer | undefined => {
    const value = document[name];
    if (value === undefined) return undefined;
    if (typeof value !== 'string') throw invalidValue(`encryptedDocument.${name} must be a base64 string`);
    return decodeBase64(value, `encryptedDocument.${name}`);
  };
  const sod = bytes('sod');
  if (sod === undefined) throw invalidValue('encryptedDocument: chip data needs `sod` (EF.SOD, base64)');
  const dataGroups = new Map<number, Uint8Array>();
  for (const name of names) {
    const match = DATA_GROUP_MEMBER.exec(name);
    const file = bytes(name);
    if (match?.[1] !== undefined && file !== undefined) dataGroups.set(Number(match[1]), file);
  }
  if (!dataGroups.has(1)) throw invalidValue('encryptedDocument: chip data needs `dg1` (EF.DG1, base64)');
  return { dataGroups, sod, dsCertificate: bytes('dsCertificate') };
}

function emptySealed(): never {
  throw invalidValue('encryptedDocument: the sealed package holds no chip data (dg1, sod)');
}
