import type { ErrorStyle } from './error-body.js';

/** What the choice needs of a service: where it is mounted and how its errors look. */
export interface MountedStyle {
  readonly prefix: string;
  readonly errorStyle: ErrorStyle;
}

/**
 * Chooses the error style for a path when no route (hence no service scope) answers: an error raised
 * before routing (a malformed request, a missing `Host`, a timeout) is rendered in the style of the
 * service whose prefix the path falls under, and in the coded style otherwise (the server's own
 * routes, onboarding at `/`, a path that could not be read).
 *
 * @example
 * const styleFor = errorStyleForPath([{ prefix: '/document-validation', errorStyle: 'spring' }]);
 * styleFor('/document-validation/validate?x=1'); // 'spring'
 * styleFor(undefined); // 'coded'
 */
export function errorStyleForPath(services: readonly MountedStyle[]): (path: string | undefined) => ErrorStyle {
  const prefixed = services.filter((service) => service.prefix !== '');
  return (path) => {
    if (path === undefined) return 'coded';
    const bare = path.split('?')[0] ?? '';
    const service = prefixed.find((s) => bare === s.prefix || bare.startsWith(`${s.prefix}/`));
    return service?.errorStyle ?? 'coded';
  };
}
