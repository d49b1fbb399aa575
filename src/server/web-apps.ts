import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ApiError } from './errors/api-error.js';

/** Where `npm run build` (scripts/build-web.js) writes the bundled web apps: `<package>/dist/web`. */
export const WEB_APPS_DIRECTORY = fileURLToPath(new URL('../../dist/web/', import.meta.url));

/** The files served, by URL name: nothing else under the directory is reachable. */
const ASSETS = {
  'portal.js': 'text/javascript; charset=utf-8',
  'capture.js': 'text/javascript; charset=utf-8',
  'styles.css': 'text/css; charset=utf-8',
} as const;

/** Where the capture page carries the onboarding public key: the app "ships with" it (Doc 1, decoded QR data). */
const KEY_PLACEHOLDER = '%ONBOARDING_PUBLIC_KEY%';

/**
 * Scripts and styles from this origin only, no inline code, no framing; calls to this origin only (the QR
 * data's host must be this server); images from here or `data:` (the QR code PNG). The capture app alone
 * may use the camera (and geolocation, which the device signals may ask for).
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "media-src 'self' mediastream: blob:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const COMMON_HEADERS = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  // The capture link's `data` must not leak to anyone through a Referer.
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'x-frame-options': 'DENY',
} as const;

interface WebFiles {
  readonly portal: string;
  readonly capture: string;
  readonly assets: ReadonlyMap<string, Buffer>;
}

/**
 * Serves the operator's portal (`GET /portal`) and the phone's capture app (`GET /capture`, the default
 * `sessionCallbackURL` of the QR hand-over) from the built bundle (docs/onboarding.md, "Portal and capture
 * app"), with a strict Content-Security-Policy. The capture page carries the onboarding public key (SPKI,
 * base64 DER) that opens the QR data. Files are read once here; when the bundle is missing, the pages answer
 * 503 naming the build command. Public routes (no credentials: the apps sign in themselves), outside the
 * OpenAPI document.
 *
 * @example
 * registerWebApps(app, { directory: WEB_APPS_DIRECTORY, onboardingPublicKeyPem: keys.key('onboarding').publicKeyPem });
 */
export function registerWebApps(
  app: FastifyInstance,
  options: { readonly directory: string; readonly onboardingPublicKeyPem: string },
): void {
  const files = readWebFiles(options.directory, options.onboardingPublicKeyPem);
  const built = (): WebFiles => {
    if (files === undefined)
      throw new ApiError(503, 503, 'the web apps are not built: run npm run build (scripts/build-web.js)');
    return files;
  };
  const page = (reply: FastifyReply, html: string, permissions: string) =>
    reply
      .headers({ ...COMMON_HEADERS, 'permissions-policy': permissions, 'cache-control': 'no-store' })
      .type('text/html; charset=utf-8')
      .send(html);
  const schema = { hide: true };
  app.get('/portal', { schema }, (_request, reply) =>
    page(reply, built().portal, 'camera=(), microphone=(), geolocation=()'),
  );
  app.get('/capture', { schema }, (_request, reply) =>
    page(reply, built().capture, 'camera=(self), microphone=(), geolocation=(self)'),
  );
  app.get<{ Params: { file: string } }>('/web/:file', { schema }, (request, reply) => {
    const { file } = request.params;
    const body = built().assets.get(file);
    const type = Object.entries(ASSETS).find(([name]) => name === file)?.[1];
    if (body === undefined || type === undefined) throw new ApiError(404, 404, 'no such file of the web apps');
    return reply
      .headers({ ...COMMON_HEADERS, 'cache-control': 'no-cache' })
      .type(type)
      .send(body);
  });
}

function readWebFiles(directory: string, publicKeyPem: string): WebFiles | undefined {
  try {
    const keyBase64 = publicKeyPem.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, '');
    const capture = readFileSync(join(directory, 'capture.html'), 'utf8');
    if (!capture.includes(KEY_PLACEHOLDER)) throw new Error('capture.html has no key placeholder');
    return {
      portal: readFileSync(join(directory, 'portal.html'), 'utf8'),
      capture: capture.replace(KEY_PLACEHOLDER, keyBase64),
      assets: new Map(Object.keys(ASSETS).map((name) => [name, readFileSync(join(directory, name))])),
    };
  } catch {
    return undefined;
  }
}
