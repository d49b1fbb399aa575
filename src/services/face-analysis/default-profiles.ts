import type { FaceProfile } from './profile.js';
import { parseProfile } from './profile-parser.js';
import { ICAO_PROFILE_XML } from './profiles/icao.js';
import { SELFIE_PROFILE_XML } from './profiles/selfie.js';

/** The profiles Veriport ships, as XML a client can send or adapt (docs/face-analysis.md#profiles). */
export const DEFAULT_PROFILE_XML = { icao: ICAO_PROFILE_XML, selfie: SELFIE_PROFILE_XML } as const;

export type DefaultProfileName = keyof typeof DEFAULT_PROFILE_XML;

const parsed = new Map<DefaultProfileName, FaceProfile>();

/**
 * A shipped profile, parsed once.
 *
 * @example
 * calculateRoi(defaultProfile('icao'), { width: 480, height: 640 });
 */
export function defaultProfile(name: DefaultProfileName): FaceProfile {
  const known = parsed.get(name);
  if (known !== undefined) return known;
  const result = parseProfile(DEFAULT_PROFILE_XML[name]);
  if ('errors' in result) throw new Error(`the shipped profile ${name} is invalid: ${result.errors.join('; ')}`);
  parsed.set(name, result.profile);
  return result.profile;
}
