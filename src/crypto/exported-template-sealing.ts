import { createCipheriv, createDecipheriv, randomBytes, type KeyObject } from 'node:crypto';
import { deriveTemplateKey } from './template-sealing.js';

/**
 * Sealed exported template, version 1 (what `/export` answers and `import` takes, base64):
 *
 * | offset | size | field |
 * |---|---|---|
 * | 0 | 4 | magic `VPTS` |
 * | 4 | 1 | format version (1) |
 * | 5 | 12 | AES-GCM IV, fresh for every export |
 * | 17 | n | the template (`VPTM`, template-codec.ts), AES-256-GCM encrypted |
 * | 17+n | 16 | GCM tag; magic and version are authenticated as associated data |
 *
 * The key is derived from the deployment's template secret with its own HKDF info string, so an export
 * opens only on a deployment sharing that secret, and a template sealed at rest (another info string)
 * cannot be passed off as an export, nor the reverse.
 */
export interface ExportedTemplateSealer {
  seal(template: Uint8Array): Buffer;
  /** @throws {ExportedTemplateError} for anything but an unaltered export sealed under this key */
  open(sealed: Uint8Array): Buffer;
}

/** Raised for an import that is not an intact sealed export of this deployment; the message is safe to return. */
export class ExportedTemplateError extends Error {
  override name = 'ExportedTemplateError';
}

const MAGIC = Buffer.from('VPTS', 'ascii');
const RAW_MAGIC = Buffer.from('VPTM', 'ascii');
const VERSION = 1;
const HEADER = Buffer.concat([MAGIC, Buffer.from([VERSION])]);
const IV_BYTES = 12;
const TAG_BYTES = 16;
const PURPOSE = 'veriport template export v1';

/**
 * The sealer of exported templates, keyed from `secret` (`config.templateKey`, or the server private key).
 *
 * @example
 * const exports = exportedTemplateSealer(config.templateKey ?? envelopeKeys.key('onboarding').privateKey);
 * const base64 = exports.seal(encodeTemplate(template)).toString('base64'); // 'VlBUUwE...'
 * decodeTemplate(exports.open(Buffer.from(base64, 'base64'))); // template
 */
export function exportedTemplateSealer(secret: KeyObject | Uint8Array): ExportedTemplateSealer {
  const key = deriveTemplateKey(secret, PURPOSE);
  return {
    seal(template) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(HEADER);
      const body = Buffer.concat([cipher.update(template), cipher.final()]);
      return Buffer.concat([HEADER, iv, body, cipher.getAuthTag()]);
    },
    open(sealed) {
      const bytes = Buffer.from(sealed.buffer, sealed.byteOffset, sealed.byteLength);
      const magic = bytes.subarray(0, MAGIC.length);
      // An unsealed template (the format exported before sealing) is refused: accepting it would let
      // anyone forge or edit a template without the key.
      if (magic.equals(RAW_MAGIC))
        throw new ExportedTemplateError('an unsealed template is not accepted: export it again from this deployment');
      if (!magic.equals(MAGIC)) throw new ExportedTemplateError('not a sealed Veriport template (bad magic)');
      if (bytes.length < HEADER.length + IV_BYTES + TAG_BYTES)
        throw new ExportedTemplateError('sealed template is too short');
      const version = bytes.readUInt8(MAGIC.length);
      if (version !== VERSION) throw new ExportedTemplateError(`unsupported sealed template version ${version}`);
      const iv = bytes.subarray(HEADER.length, HEADER.length + IV_BYTES);
      const decipher = createDecipheriv('aes-256-gcm', key, iv);
      decipher.setAAD(HEADER);
      decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
      try {
        return Buffer.concat([
          decipher.update(bytes.subarray(HEADER.length + IV_BYTES, bytes.length - TAG_BYTES)),
          decipher.final(),
        ]);
      } catch {
        throw new ExportedTemplateError(
          'sealed template did not open: altered, or exported by a deployment with another template key',
        );
      }
    },
  };
}
