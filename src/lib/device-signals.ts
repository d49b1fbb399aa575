/**
 * The device-signal wire format, version 1 (issue 18, Doc 1 endpoints 6 and 13): what the capture app's
 * collector (web/shared/device-signals.ts) posts to `POST /onboarding/deviceProfile/signals` and what the device
 * engine reads once the service's schema (src/services/onboarding/device-schemas.ts) has checked it. Types only,
 * shared by the browser bundle and the server. Every value is the client's word.
 */

/** User-agent client hints (`navigator.userAgentData`), where the browser has them (Chromium). */
export interface ClientHints {
  readonly brands: ReadonlyArray<{ readonly brand: string; readonly version: string }>;
  readonly mobile: boolean;
  readonly platform: string;
  readonly platformVersion: string | null;
  readonly architecture: string | null;
  readonly bitness: string | null;
  readonly model: string | null;
  readonly fullVersionList: ReadonlyArray<{ readonly brand: string; readonly version: string }> | null;
}

/** Counts of the user's input since {@link startInteractionTracking}; no positions, no keys. */
export interface InteractionSummary {
  readonly pointerMoves: number;
  /** Mouse presses, and of them those with fewer than 3 pointer moves since the previous press or page load. */
  readonly mouseDowns: number;
  readonly mouseDownsWithoutPath: number;
  readonly touchDowns: number;
  readonly keyDowns: number;
  /** Input events the page saw that the browser marks as not made by the user (`isTrusted` false). */
  readonly untrustedEvents: number;
}

/** Everything the collector posts (wire format version 1). */
export interface DeviceSignals {
  readonly version: 1;
  /** Milliseconds since 1970, the device's clock. */
  readonly collectedAt: number;
  readonly userAgent: string;
  readonly clientHints: ClientHints | null;
  /** `navigator.platform`, e.g. `Linux armv8l`, `iPhone`, `Win32`. */
  readonly platform: string;
  readonly vendor: string;
  readonly languages: readonly string[];
  /** IANA time zone of the browser, e.g. `Europe/Paris`; null when it does not say. */
  readonly timeZone: string | null;
  /** `Date#getTimezoneOffset()`: minutes UTC is ahead of local time. */
  readonly timeZoneOffset: number;
  readonly screen: {
    readonly width: number;
    readonly height: number;
    readonly availWidth: number;
    readonly availHeight: number;
    readonly colorDepth: number;
    readonly pixelRatio: number;
  };
  readonly viewport: {
    readonly innerWidth: number;
    readonly innerHeight: number;
    readonly outerWidth: number;
    readonly outerHeight: number;
  };
  readonly hardwareConcurrency: number | null;
  readonly deviceMemory: number | null;
  readonly maxTouchPoints: number;
  readonly pluginsLength: number;
  /** The unmasked WebGL vendor and renderer (`WEBGL_debug_renderer_info`); null without WebGL. */
  readonly webgl: { readonly vendor: string; readonly renderer: string } | null;
  readonly webdriver: boolean | null;
  /** BotD's verdict; null when it could not run. */
  readonly botd: { readonly bot: boolean; readonly botKind: string | null } | null;
  /** Automation traces found by our own checks (names only): see {@link automationTraces}. */
  readonly automationTraces: readonly string[];
  readonly interaction: InteractionSummary;
  /** FingerprintJS 5's visitor identifier; null when it could not run. */
  readonly fingerprint: { readonly visitorId: string; readonly confidence: number; readonly version: string } | null;
  /** Only when the user granted it (and the app asked). */
  readonly geolocation: { readonly latitude: number; readonly longitude: number; readonly accuracy: number } | null;
}
