import Bowser from 'bowser';

/** What a user-agent string claims, read by bowser (MIT). Empty strings where it says nothing. */
export interface UserAgentClaims {
  readonly browserName: string;
  readonly browserVersion: string;
  /** `Android`, `iOS`, `Windows`, `macOS`, `Linux`, `Chrome OS`, ... */
  readonly osName: string;
  readonly osVersion: string;
  /** `mobile`, `tablet`, `desktop`, `tv`, or '' */
  readonly platformType: string;
  /** `Blink`, `WebKit`, `Gecko`, ... */
  readonly engine: string;
  /** The major version of `Chrome/NNN` in the string (Chromium-based browsers), or undefined. */
  readonly chromiumMajor: number | undefined;
  /** The string names a headless or scripted browser (HeadlessChrome, PhantomJS, ...). */
  readonly headless: boolean;
}

/**
 * Parses a user-agent string.
 *
 * @example
 * parseUserAgent('Mozilla/5.0 (Linux; Android 14; Pixel 7) ... Chrome/131.0.0.0 Mobile Safari/537.36').osName;
 * // 'Android'
 */
export function parseUserAgent(userAgent: string): UserAgentClaims {
  const parsed = Bowser.parse(userAgent);
  const chromium = /\bChrom(?:e|ium)\/(\d+)/.exec(userAgent)?.[1];
  return {
    browserName: parsed.browser.name ?? '',
    browserVersion: parsed.browser.version ?? '',
    osName: parsed.os.name ?? '',
    osVersion: parsed.os.version ?? '',
    platformType: parsed.platform.type ?? '',
    engine: parsed.engine.name ?? '',
    chromiumMajor: chromium === undefined ? undefined : Number(chromium),
    headless: /HeadlessChrome|PhantomJS|SlimerJS|Headless/i.test(userAgent),
  };
}
