/**
 * How many live-guidance frames (face liveness's `/analyze`, session-confinement.ts) one QR session may have
 * analysed. `/analyze` answers the full liveness detail; without a cap a session holder could query it for the
 * session's whole life and tune a spoof against it. The capture app sends a preview frame every 0.5 s until one
 * is fit to capture, so the default (120) is a minute of guidance, ample for a user and a few retries.
 */
export interface GuidanceQuota {
  /** Frames a session may have analysed. */
  readonly max: number;
  /**
   * Counts one frame of the session: `granted` while it has had fewer than `max`; then `exhausted` for the first
   * frame refused and `refused` for the later ones. `until` is when the session's access ends: the count is
   * forgotten after it.
   */
  take(sessionTokenHash: string, until: Date): 'granted' | 'exhausted' | 'refused';
}

/** Sessions counted before expired counts are swept (a sweep is linear in the sessions held). */
const SWEEP_ABOVE = 256;

/**
 * An in-process quota: each replica counts the frames it analysed, so with N replicas a session may have up to
 * N × `max` (docs/onboarding.md). Counts are dropped once their session's access has ended.
 *
 * @example
 * const quota = guidanceQuota(120);
 * quota.take(session.tokenHash, session.accessExpiresAt ?? session.expiresAt); // 'granted' for the first 120
 */
export function guidanceQuota(max: number, now: () => number = Date.now): GuidanceQuota {
  const counts = new Map<string, { used: number; until: number }>();
  return {
    max,
    take(sessionTokenHash, until) {
      const time = now();
      if (counts.size > SWEEP_ABOVE) for (const [key, entry] of counts) if (entry.until <= time) counts.delete(key);
      const entry = counts.get(sessionTokenHash) ?? { used: 0, until: until.getTime() };
      // Counted past max too (once), so that only the first refusal is told apart.
      counts.set(sessionTokenHash, {
        used: Math.min(entry.used + 1, max + 1),
        until: Math.max(entry.until, until.getTime()),
      });
      return entry.used < max ? 'granted' : entry.used === max ? 'exhausted' : 'refused';
    },
  };
}
