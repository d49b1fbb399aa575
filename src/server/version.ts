import { createRequire } from 'node:module';

// package.json sits two levels up from both src/server and dist/server.
const packageJson = createRequire(import.meta.url)('../../package.json') as { version: string };

/** The Veriport release, from package.json. */
export const VERIPORT_VERSION: string = packageJson.version;

/**
 * The text every service answers on `GET /version`: the library, the service and the release.
 *
 * @example
 * versionText('face-matching'); // 'Veriport face-matching 0.1.0'
 */
export function versionText(serviceName: string): string {
  return `Veriport ${serviceName} ${VERIPORT_VERSION}`;
}
