import { randomSecret, sha256Hex } from '../../crypto/secret-hash.js';
import type { DeviceSignals } from '../../lib/device-signals.js';
import { normalizeIp } from '../../engines/device/ip-address.js';
import type { DeviceContext } from './device-context.js';

/** Collected signals (and the address they came from) are kept this long at most, used or not. */
export const PROFILE_RETENTION_MS = 86_400_000;

/**
 * Stores the signals a collector posted, with the address the post came from (the device's own: the phone
 * or browser talks to this server directly), under a new `apSessionId` (256 random bits, stored as SHA-256),
 * usable for `profileTtlMs` by one checkDevice of the same customer. The customer's profiles older than a
 * day are removed on the way (a replayed id stays recognisable until then).
 *
 * @example
 * const { apSessionId } = await collectSignals(devices, 'acme', request.body, request.ip);
 */
export async function collectSignals(
  ctx: DeviceContext,
  customer: string,
  signals: DeviceSignals,
  sourceAddress: string,
): Promise<{ apSessionId: string; expiresIn: number }> {
  const now = ctx.now();
  const apSessionId = randomSecret();
  await ctx.profiles.purge(customer, new Date(now.getTime() - Math.max(PROFILE_RETENTION_MS, ctx.profileTtlMs)));
  await ctx.profiles.create({
    sessionHash: sha256Hex(apSessionId),
    customer,
    signals: JSON.stringify(signals),
    ip: normalizeIp(sourceAddress) ?? sourceAddress,
    createdAt: now,
    expiresAt: new Date(now.getTime() + ctx.profileTtlMs),
  });
  return { apSessionId, expiresIn: Math.round(ctx.profileTtlMs / 1000) };
}
