import { AsnConvert } from '@peculiar/asn1-schema';
import { ChipDataError, type ChipDataProblem } from './chip-data-error.js';

/**
 * Parses DER/BER into an `@peculiar/asn1-schema` class, turning the library's errors (which come as plain
 * `Error`s of every kind) into one {@link ChipDataError} that names the structure.
 *
 * @example
 * const certificate = parseAsn(der, Certificate, 'CERTIFICATE', 'the DS certificate');
 * @throws {ChipDataError} with `problem` when the bytes are not that structure
 */
export function parseAsn<T>(
  bytes: Uint8Array | ArrayBuffer,
  type: new () => T,
  problem: ChipDataProblem,
  what: string,
): T {
  try {
    // A copy backed by a plain ArrayBuffer: asn1-schema takes no SharedArrayBuffer-typed views.
    return AsnConvert.parse(bytes instanceof ArrayBuffer ? bytes : new Uint8Array(bytes), type);
  } catch (error) {
    if (error instanceof ChipDataError) throw error;
    throw new ChipDataError(problem, `${what} is not valid ASN.1 of its kind`);
  }
}
