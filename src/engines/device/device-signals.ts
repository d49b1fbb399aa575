/**
 * What the browser collector (web/shared/device-signals.ts) reports about a device, wire format version 1,
 * as the engine reads it once the service's schema has checked it. Every value is the client's word.
 */
export interface DeviceSignals {
  readonly version: 1;
  readonly collectedAt: number;
  readonly userAgent: string;
  readonly clientHints: ClientHints | null;
  readonly platform: string;
  readonly vendor: string;
  readonly languages: readonly string[];
  readonly timeZone: string | null;
  /** `Date#getTimezoneOffset()`: minutes UTC is ahead of local time (-60 in Paris in winter). */
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
  readonly webgl: { readonly vendor: string; readonly renderer: string } | null;
  readonly webdriver: boolean | null;
  readonly botd: { readonly bot: boolean; readonly botKind: string | null } | null;
  readonly automationTraces: readonly string[];
  readonly interaction: {
    readonly pointerMoves: number;
    readonly mouseDowns: number;
    readonly mouseDownsWithoutPath: number;
    readonly touchDowns: number;
    readonly keyDowns: number;
    readonly untrustedEvents: number;
  };
  readonly fingerprint: { readonly visitorId: string; readonly confidence: number; readonly version: string } | null;
  readonly geolocation: { readonly latitude: number; readonly longitude: number; readonly accuracy: number } | null;
}

/** `navigator.userAgentData` with its high-entropy values. */
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
