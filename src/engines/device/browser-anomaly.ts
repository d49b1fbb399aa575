import type { DeviceSignals } from '../../lib/device-signals.js';
import { parseUserAgent, type UserAgentClaims } from './user-agent.js';

/** One inconsistency or automation trace found in a device's signals. */
export interface AnomalyFinding {
  /** Stable code, e.g. `hints-version-mismatch` (docs/onboarding.md lists them). */
  readonly code: string;
  /** How strongly it alone suggests an automated or spoofed browser, 0-1. */
  readonly weight: number;
  /** Whether it concerns the operating system the browser claims (Doc 1's `OperatingSystemAnomaly`). */
  readonly osRelated: boolean;
}

/** The verdict over one signal set. */
export interface AnomalyScore {
  /** 1 - Π(1 - weight) over the findings, rounded to 2 decimals: 0 clean, towards 1 the more that is wrong. */
  readonly score: number;
  readonly findings: readonly AnomalyFinding[];
  readonly userAgent: UserAgentClaims;
}

const SOFTWARE_RENDERER = /SwiftShader|llvmpipe|softpipe|Microsoft Basic Render|Mesa OffScreen|VirtualBox|VMware SVGA/i;
const UTC_ZONES = new Set(['UTC', 'Etc/UTC', 'Etc/GMT', 'GMT', 'Etc/Universal', 'Etc/Zulu', 'Universal', 'Zulu']);

/** The client-hints platform each user-agent operating system goes with. */
const HINT_PLATFORM: Readonly<Record<string, string>> = {
  Android: 'Android',
  Windows: 'Windows',
  macOS: 'macOS',
  Linux: 'Linux',
  'Chrome OS': 'Chrome OS',
};

/** What `navigator.platform` says on each operating system. */
const NAVIGATOR_PLATFORM: Readonly<Record<string, RegExp>> = {
  Android: /^(Linux (armv?\d*l?|aarch64)|Linux|)$/i,
  iOS: /^(iPhone|iPad|iPod)/,
  Windows: /^Win/,
  macOS: /^Mac/,
  Linux: /Linux|X11/,
  'Chrome OS': /Linux|CrOS/,
};

/**
 * Scores one device-signal set for a spoofed or automated browser: automation traces (webdriver, BotD, our
 * own global and property checks), claims that contradict each other (user agent vs client hints vs
 * `navigator.platform` vs vendor vs WebGL renderer vs touch support), a software WebGL renderer, a viewport
 * that fills the screen with no browser around it (an emulated viewport), mouse presses that arrive without a
 * pointer path (a driver's click), synthetic events, and a time zone that does not fit its own offset or is
 * UTC. Pure: the same signals always give the same score, so recorded signal sets test it.
 *
 * @example
 * const { score, findings } = scoreBrowserSignals(signals);
 * score >= 0.5; // detect.browserAnomaly fails at the policy's threshold (default 0.5)
 */
export function scoreBrowserSignals(signals: DeviceSignals): AnomalyScore {
  const ua = parseUserAgent(signals.userAgent);
  const findings: AnomalyFinding[] = [];
  const add = (code: string, weight: number, osRelated = false) => findings.push({ code, weight, osRelated });
  const mobile = ua.platformType === 'mobile' || ua.platformType === 'tablet';
  const hints = signals.clientHints;

  // Automation reported by the browser itself, BotD, or our own trace checks.
  if (signals.webdriver === true) add('webdriver', 0.9);
  if (signals.botd?.bot === true) add(`botd-${signals.botd.botKind ?? 'unknown'}`, 0.9);
  if (signals.automationTraces.length > 0) add('automation-trace', 0.8);
  if (ua.headless) add('headless-user-agent', 0.9);
  if (signals.interaction.untrustedEvents > 0) add('synthetic-events', 0.5);

  // Claims that contradict each other.
  if (hints !== null) {
    if (ua.engine !== '' && ua.engine !== 'Blink') add('client-hints-on-non-chromium', 0.6, true);
    const expected = HINT_PLATFORM[ua.osName];
    if (expected !== undefined && hints.platform !== '' && hints.platform !== expected)
      add('hints-platform-mismatch', 0.6, true);
    if (ua.platformType !== '' && hints.mobile !== (ua.platformType === 'mobile')) add('hints-mobile-mismatch', 0.5);
    const chromium =
      hints.brands.find((b) => b.brand === 'Chromium') ?? hints.brands.find((b) => /Chrome/.test(b.brand));
    if (
      chromium !== undefined &&
      ua.chromiumMajor !== undefined &&
      Number.parseInt(chromium.version) !== ua.chromiumMajor
    )
      add('hints-version-mismatch', 0.6);
    if (/Headless/i.test(hints.brands.map((b) => b.brand).join(' '))) add('headless-brand', 0.9);
  } else if (
    ua.engine === 'Blink' &&
    (ua.chromiumMajor ?? 0) >= 90 &&
    /Chrome|Edge|Opera|Samsung/.test(ua.browserName)
  ) {
    // Chromium has had navigator.userAgentData since 90 (secure contexts, which the capture app is).
    add('client-hints-missing', 0.25);
  }
  const platformRule = NAVIGATOR_PLATFORM[ua.osName];
  if (platformRule !== undefined && !platformRule.test(signals.platform)) add('platform-mismatch', 0.5, true);
  if (ua.engine === 'WebKit' && /Google/.test(signals.vendor)) add('vendor-mismatch', 0.5);
  if (ua.engine === 'Blink' && /Apple/.test(signals.vendor)) add('vendor-mismatch', 0.5);

  // Hardware a real device of that kind would have.
  const renderer = signals.webgl?.renderer ?? '';
  if (SOFTWARE_RENDERER.test(renderer)) add('software-renderer', mobile ? 0.6 : 0.4);
  if (mobile && signals.webgl === null) add('webgl-missing', 0.3);
  if (mobile && signals.maxTouchPoints === 0) add('mobile-without-touch', 0.5);
  if (ua.osName === 'Android' && signals.pluginsLength > 0) add('mobile-plugins', 0.4);
  const { screen, viewport } = signals;
  if (screen.width <= 0 || screen.height <= 0) add('no-screen', 0.5);
  if (viewport.outerWidth === 0 || viewport.outerHeight === 0) add('outer-size-zero', 0.5);
  else if (
    !mobile &&
    viewport.innerWidth === screen.width &&
    viewport.innerHeight === screen.height &&
    viewport.outerWidth === viewport.innerWidth &&
    viewport.outerHeight === viewport.innerHeight
  )
    add('viewport-fills-screen', 0.35);

  // How the user got here: a mouse that never moved to what it pressed.
  const { mouseDowns, mouseDownsWithoutPath } = signals.interaction;
  if (mouseDowns > 0 && mouseDownsWithoutPath === mouseDowns) add('mouse-without-path', 0.45);

  // Locale.
  if (signals.languages.length === 0) add('no-languages', 0.3);
  if (signals.timeZone !== null) {
    if (UTC_ZONES.has(signals.timeZone)) add('utc-time-zone', 0.25);
    const offset = zoneOffsetMinutes(signals.timeZone, signals.collectedAt);
    if (offset === undefined) add('unknown-time-zone', 0.3);
    else if (offset !== -signals.timeZoneOffset) add('time-zone-offset-mismatch', 0.5);
  }

  const clean = findings.reduce((product, f) => product * (1 - f.weight), 1);
  return { score: Math.round((1 - clean) * 100) / 100, findings, userAgent: ua };
}

/**
 * Minutes a time zone is ahead of UTC at an instant (Paris in winter: 60), or undefined for a name the
 * runtime does not know.
 *
 * @example
 * zoneOffsetMinutes('Asia/Kolkata', Date.UTC(2025, 0, 1)); // 330
 */
export function zoneOffsetMinutes(timeZone: string, at: number): number | undefined {
  let text: string | undefined;
  try {
    const instant = Number.isFinite(at) ? new Date(at) : new Date(0);
    text = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
      .formatToParts(instant)
      .find((part) => part.type === 'timeZoneName')?.value;
  } catch {
    return undefined;
  }
  if (text === undefined) return undefined;
  const match = /^GMT(?:([+-])(\d{1,2}):?(\d{2})?)?$/.exec(text);
  if (match === null) return undefined;
  const [, sign, hours, minutes] = match;
  if (sign === undefined) return 0;
  return (sign === '-' ? -1 : 1) * (Number(hours) * 60 + Number(minutes ?? 0));
}
