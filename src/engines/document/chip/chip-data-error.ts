/** What is wrong with chip data that cannot be read at all (as opposed to data that reads but fails a check). */
export type ChipDataProblem =
  'DATA_GROUP' | 'SECURITY_OBJECT' | 'CERTIFICATE' | 'UNSUPPORTED_ALGORITHM' | 'PORTRAIT' | 'MASTER_LIST';

/**
 * Chip files that do not parse: a data group whose TLV structure is broken, an EF.SOD that is no CMS
 * SignedData over an LDS security object, a certificate that is no X.509 DER, an algorithm no ICAO profile
 * names. The message says which file and why, never echoing personal data.
 *
 * @example
 * try { readDataGroup1Mrz(Buffer.from('6101', 'hex')); } catch (error) {
 *   (error as ChipDataError).problem; // 'DATA_GROUP'
 * }
 */
export class ChipDataError extends Error {
  override name = 'ChipDataError';

  constructor(
    readonly problem: ChipDataProblem,
    message: string,
  ) {
    super(message);
  }
}
