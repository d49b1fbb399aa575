/**
 * The device-signal collector of the capture app (issue 18, Doc 1 endpoints 6 and 13): what the browser says
 * about itself, gathered once, posted to `POST /onboarding/deviceProfile/signals`, which answers the
 * `apSessionId` that `deviceProfile/checkDevice` then evaluates. Plain browser TypeScript (no Node APIs),
 * bundled with esbuild together with BotD and FingerprintJS 5 (both MIT; both told not to call home).
 *
 * The server trusts none of this: every value can be forged by a determined client. The checks that
 * matter (IP, Tor, deny lists, velocity, replay) are the server's own; these signals add consistency tests
 * that catch emulation and automation, which is what an unsophisticated attacker runs.
 *
 * Wire format: version 1, checked by the server's schema (src/services/onboarding/device-schemas.ts).
 */
import { load as loadBotd } from '@fingerprintjs/botd';
import { load as loadFingerprint } from '@fingerprintjs/fingerprintjs';
import type { ClientHints, DeviceSignals } from '../../src/lib/device-signals.js';

/** Where the signals are posted (with the flow's bearer token and apikey, as every onboarding call). */
export const DEVICE_SIGNALS_PATH = '/onboarding/deviceProfile/signals';

export interface CollectOptions {
  /** Asks for the position (the browser prompts the user); default false. */
  readonly geolocation?: boolean;
  /** How long each slow source (BotD, FingerprintJS, geolocation) may take before it is left out (ms, default 3000). */
  readonly timeoutMs?: number;
}

const interaction = {
  pointerMoves: 0,
  movesSinceDown: 0,
  mouseDowns: 0,
  mouseDownsWithoutPath: 0,
  touchDowns: 0,
  keyDowns: 0,
  untrustedEvents: 0,
};
let tracking = false;

/**
 * Starts counting pointer moves, presses and key presses (never where or which): call it as early as the
 * page loads, so a later {@link collectDeviceSignals} can tell a mouse that moved to the button from one
 * that appeared on it (what an automation driver's click does). Idempotent.
 *
 * @example
 * startInteractionTracking();
 */
export function startInteractionTracking(): void {
  if (tracking) return;
  tracking = true;
  const options = { capture: true, passive: true } as const;
  addEventListener(
    'pointermove',
    (event) => {
      interaction.pointerMoves += 1;
      interaction.movesSinceDown += 1;
      if (!event.isTrusted) interaction.untrustedEvents += 1;
    },
    options,
  );
  addEventListener(
    'pointerdown',
    (event) => {
      if (!event.isTrusted) interaction.untrustedEvents += 1;
      if (event.pointerType === 'mouse') {
        interaction.mouseDowns += 1;
        if (interaction.movesSinceDown < 3) interaction.mouseDownsWithoutPath += 1;
      } else if (event.pointerType === 'touch' || event.pointerType === 'pen') interaction.touchDowns += 1;
      interaction.movesSinceDown = 0;
    },
    options,
  );
  addEventListener(
    'keydown',
    (event) => {
      interaction.keyDowns += 1;
      if (!event.isTrusted) interaction.untrustedEvents += 1;
    },
    options,
  );
}

/**
 * Gathers the device signals (wire format version 1). Never throws: a source that fails or takes longer
 * than `timeoutMs` is left out (null).
 *
 * @example
 * startInteractionTracking(); // at page load
 * const signals = await collectDeviceSignals({ geolocation: false });
 * const { apSessionId } = await submitDeviceSignals(host, headers, signals);
 */
export async function collectDeviceSignals(options: CollectOptions = {}): Promise<DeviceSignals> {
  const timeoutMs = options.timeoutMs ?? 3000;
  const [botd, fingerprint, clientHints, geolocation] = await Promise.all([
    withTimeout(botdVerdict(), timeoutMs),
    withTimeout(visitorFingerprint(), timeoutMs),
    withTimeout(highEntropyHints(), timeoutMs),
    options.geolocation === true ? withTimeout(position(timeoutMs), timeoutMs + 500) : Promise.resolve(null),
  ]);
  const nav = navigator as Navigator & { deviceMemory?: unknown };
  return {
    version: 1,
    collectedAt: Date.now(),
    userAgent: navigator.userAgent,
    clientHints,
    platform: navigator.platform,
    vendor: navigator.vendor,
    languages: [...navigator.languages],
    timeZone: timeZone(),
    timeZoneOffset: new Date().getTimezoneOffset(),
    screen: {
      width: screen.width,
      height: screen.height,
      availWidth: screen.availWidth,
      availHeight: screen.availHeight,
      colorDepth: screen.colorDepth,
      pixelRatio: devicePixelRatio,
    },
    viewport: { innerWidth, innerHeight, outerWidth, outerHeight },
    hardwareConcurrency: typeof navigator.hardwareConcurrency === 'number' ? navigator.hardwareConcurrency : null,
    deviceMemory: typeof nav.deviceMemory === 'number' ? nav.deviceMemory : null,
    maxTouchPoints: navigator.maxTouchPoints,
    pluginsLength: navigator.plugins.length,
    webgl: webglRenderer(),
    webdriver: typeof navigator.webdriver === 'boolean' ? navigator.webdriver : null,
    botd,
    automationTraces: automationTraces(),
    interaction: {
      pointerMoves: interaction.pointerMoves,
      mouseDowns: interaction.mouseDowns,
      mouseDownsWithoutPath: interaction.mouseDownsWithoutPath,
      touchDowns: interaction.touchDowns,
      keyDowns: interaction.keyDowns,
      untrustedEvents: interaction.untrustedEvents,
    },
    fingerprint,
    geolocation,
  };
}

/**
 * Posts the signals to `host` with the flow's credentials and returns the `apSessionId` for checkDevice.
 *
 * @example
 * const { apSessionId } = await submitDeviceSignals('https://id.example.com', {
 *   authorization: `Bearer ${accessToken}`,
 *   apikey,
 * }, signals);
 * @throws {Error} when the server refuses them (the message carries its status and description)
 */
export async function submitDeviceSignals(
  host: string,
  headers: Readonly<Record<string, string>>,
  signals: DeviceSignals,
): Promise<{ apSessionId: string; expiresIn: number }> {
  const response = await fetch(`${host.replace(/\/+$/, '')}${DEVICE_SIGNALS_PATH}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json; charset=UTF-8' },
    body: JSON.stringify(signals),
  });
  const body: unknown = await response.json().catch(() => null);
  const apSessionId = member(body, 'apSessionId');
  const expiresIn = member(body, 'expiresIn');
  if (!response.ok || typeof apSessionId !== 'string' || typeof expiresIn !== 'number') {
    const error = member(body, 'error');
    const description = member(error, 'description');
    throw new Error(
      `device signals refused (HTTP ${response.status}): ${typeof description === 'string' ? description : 'no answer'}`,
    );
  }
  return { apSessionId, expiresIn };
}

/** Globals that automation frameworks leave in the page (Selenium, ChromeDriver, Playwright, Puppeteer, ...). */
const AUTOMATION_GLOBALS =
  /^(__playwright|__pw|__puppeteer|puppeteer|_phantom|callPhantom|__nightmare|domAutomation|_selenium|__selenium|__webdriver|__driver|__fxdriver|_Selenium_IDE|__lastWatir|cdc_|\$cdc_|\$wdc_|_WEBDRIVER_ELEM_CACHE|webdriver|__stealth)/;

/**
 * Our own automation checks beyond BotD (which misses a driven Chromium with `AutomationControlled` off):
 * properties an automation script defined on `navigator` itself (the real ones live on its prototype),
 * a `webdriver` getter that is not native code (a stealth patch), automation globals on `window` and
 * `document`, and attributes drivers set on the root element. The consistency checks (client hints vs user
 * agent vs platform vs WebGL, viewport vs screen, software renderers, pointer paths) are the server's, on the
 * raw values (src/engines/device/browser-anomaly.ts).
 *
 * @example
 * automationTraces(); // [] in an ordinary browser; e.g. ['navigator-own-properties', 'global:__pwInitScripts']
 */
export function automationTraces(): string[] {
  const traces: string[] = [];
  try {
    if (Object.getOwnPropertyNames(navigator).length > 0) traces.push('navigator-own-properties');
    const descriptor = Object.getOwnPropertyDescriptor(Navigator.prototype, 'webdriver');
    // Read as a value: the getter is only printed, never called.
    const getter: unknown = descriptor === undefined ? undefined : Reflect.get(descriptor, 'get');
    if (typeof getter === 'function' && !Function.prototype.toString.call(getter).includes('[native code]'))
      traces.push('webdriver-getter-patched');
  } catch {
    traces.push('navigator-unreadable');
  }
  const names = (target: object) => {
    try {
      return Object.getOwnPropertyNames(target);
    } catch {
      return [];
    }
  };
  for (const name of names(window)) if (AUTOMATION_GLOBALS.test(name)) traces.push(`global:${name.slice(0, 40)}`);
  for (const name of names(document)) if (AUTOMATION_GLOBALS.test(name)) traces.push(`document:${name.slice(0, 40)}`);
  for (const attribute of ['webdriver', 'selenium', 'driver'])
    if (document.documentElement.getAttribute(attribute) !== null) traces.push(`attribute:${attribute}`);
  return traces.slice(0, 32);
}

async function botdVerdict(): Promise<DeviceSignals['botd']> {
  // monitoring: false: no statistics request to the vendor's CDN.
  const detector = await loadBotd({ monitoring: false });
  const verdict = detector.detect();
  return verdict.bot ? { bot: true, botKind: verdict.botKind } : { bot: false, botKind: null };
}

async function visitorFingerprint(): Promise<DeviceSignals['fingerprint']> {
  const agent = await loadFingerprint({ monitoring: false });
  const result = await agent.get();
  return { visitorId: result.visitorId, confidence: result.confidence.score, version: result.version };
}

interface UserAgentDataLike {
  readonly brands?: ReadonlyArray<{ brand: string; version: string }>;
  readonly mobile?: boolean;
  readonly platform?: string;
  getHighEntropyValues?(hints: string[]): Promise<Record<string, unknown>>;
}

async function highEntropyHints(): Promise<ClientHints | null> {
  const data = (navigator as Navigator & { userAgentData?: UserAgentDataLike }).userAgentData;
  if (data === undefined) return null;
  const high =
    (await data.getHighEntropyValues?.(['platformVersion', 'architecture', 'bitness', 'model', 'fullVersionList'])) ??
    {};
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  const list = (value: unknown) =>
    Array.isArray(value)
      ? value.flatMap((item: unknown) => {
          const brand = member(item, 'brand');
          const version = member(item, 'version');
          return typeof brand === 'string' && typeof version === 'string' ? [{ brand, version }] : [];
        })
      : null;
  return {
    brands: list(data.brands) ?? [],
    mobile: data.mobile === true,
    platform: data.platform ?? '',
    platformVersion: text(high.platformVersion),
    architecture: text(high.architecture),
    bitness: text(high.bitness),
    model: text(high.model),
    fullVersionList: list(high.fullVersionList),
  };
}

function webglRenderer(): DeviceSignals['webgl'] {
  try {
    const gl = document.createElement('canvas').getContext('webgl');
    if (gl === null) return null;
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    const vendor: unknown = gl.getParameter(info === null ? gl.VENDOR : info.UNMASKED_VENDOR_WEBGL);
    const renderer: unknown = gl.getParameter(info === null ? gl.RENDERER : info.UNMASKED_RENDERER_WEBGL);
    return { vendor: typeof vendor === 'string' ? vendor : '', renderer: typeof renderer === 'string' ? renderer : '' };
  } catch {
    return null;
  }
}

function timeZone(): string | null {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || null;
  } catch {
    return null;
  }
}

function position(timeoutMs: number): Promise<DeviceSignals['geolocation']> {
  return new Promise((resolve) => {
    if (!('geolocation' in navigator)) {
      resolve(null);
      return;
    }
    navigator.geolocation.getCurrentPosition(
      ({ coords }) => resolve({ latitude: coords.latitude, longitude: coords.longitude, accuracy: coords.accuracy }),
      () => resolve(null),
      { timeout: timeoutMs, maximumAge: 60_000 },
    );
  });
}

/** The promise's value, or null when it fails or takes longer than `ms`. */
function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | null> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      () => {
        clearTimeout(timer);
        resolve(null);
      },
    );
  });
}

function member(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null ? (Reflect.get(value, name) as unknown) : undefined;
}
