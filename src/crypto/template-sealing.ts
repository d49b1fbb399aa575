import { createCipheriv, createDecipheriv, hkdfSync, randomBytes, type KeyObject } from 'node:crypto';

/** Raised when a sealed template cannot be opened (other key, altered bytes, or moved to another row). */
export class TemplateSealError extends Error {
  override name = 'TemplateSealError';
}

const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Seals and opens biometric templates at rest with AES-256-GCM. */
export interface TemplateSealer {
  /**
   * `context` (e.g. service/cache/id/algorithm) is bound as associated data: a sealed template copied
   * to another row will not open.
   */
  seal(template: Uint8Array, context: string): Buffer;
  open(sealed: Uint8Array, context: string): Buffer;
}

/**
 * A sealer whose AES key is derived (HKDF-SHA256) from `secret`: the configured template key
 * (`VERIPORT_TEMPLATE_KEY`, DESIGN.md §5) or, when none is configured, the server's private key. Either
 * way a copy of the database alone does not open the templates, as long as the secret is kept outside
 * it (configured key, PEM files, or a passphrase-protected stored key; docs/decisions.md).
 *
 * @example
 * const sealer = templateSealer(config.templateKey ?? envelopeKeys.key('onboarding').privateKey);
 * const sealed = sealer.seal(templateBytes, 'face-matching/staff/alice/F500');
 * sealer.open(sealed, 'face-matching/staff/alice/F500'); // templateBytes
 */
export function templateSealer(secret: KeyObject | Uint8Array): TemplateSealer {
  const key = deriveTemplateKey(secret, 'veriport template sealing v1');
  return {
    seal(template, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const body = Buffer.concat([cipher.update(template), cipher.final()]);
      return Buffer.concat([Buffer.from([VERSION]), iv, body, cipher.getAuthTag()]);
    },
    open(sealed, context) {
      if (sealed.length < 1 + IV_BYTES + TAG_BYTES || sealed[0] !== VERSION)
        throw new TemplateSealError('sealed template has an unknown format');
      const iv = sealed.subarray(1, 1 + IV_BYTES);
      const tag = sealed.subarray(sealed.length - TAG_BYTES);
      const decipher = createDecipheriv('aes-256-gcm', key, iv);
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(tag);
      try {
        return Buffer.concat([
          decipher.update(sealed.subarray(1 + IV_BYTES, sealed.length - TAG_BYTES)),
          decipher.final(),
        ]);
      } catch {
        throw new TemplateSealError('sealed template did not open: another server key, or altered bytes');
      }
    },
  };
}

/**
 * A 32-byte AES key for one purpose, derived (HKDF-SHA256, `purpose` as the info string) from the
 * deployment's template secret (`VERIPORT_TEMPLATE_KEY`, or the onboarding private key). Each purpose gets
 * its own key, so what one seals cannot be opened as another's.
 *
 * @example
 * const secret = config.templateKey ?? envelopeKeys.key('onboarding').privateKey;
 * const key = deriveTemplateKey(secret, 'veriport template export v1');
 */
export function deriveTemplateKey(secret: KeyObject | Uint8Array, purpose: string): Buffer {
  const material = secret instanceof Uint8Array ? secret : secret.export({ type: 'pkcs8', format: 'der' });
  return Buffer.from(hkdfSync('sha256', material, Buffer.alloc(0), purpose, 32));
}
