import { readFileSync } from 'node:fs';
import { Value } from '@sinclair/typebox/value';
import type { DeviceSignals } from '../../src/lib/device-signals.js';
import { DeviceSignalsBody } from '../../src/services/onboarding/device-schemas.js';

/**
 * Signal sets the collector (web/shared/device-signals.ts, bundled with esbuild) recorded in Debian's
 * Chromium 156 driven by playwright-core 1.65, headless, 2026-11 (scratch script, not kept): Playwright's
 * defaults; `--disable-blink-features=AutomationControlled` without `--enable-automation` and no viewport;
 * the same with a desktop Chrome user agent in place of HeadlessChrome (what a headed run presents); and
 * Playwright's Pixel 7 and iPhone 13 emulation. Each clicked or tapped a button before collecting.
 */
export const RECORDED_SETS = [
  'playwright-headless-default',
  'playwright-no-automation-controlled',
  'playwright-headed-like',
  'playwright-pixel7',
  'playwright-iphone13',
] as const;

/**
 * A recorded signal set (test/unit/engines/device/signal-sets/).
 *
 * @example
 * scoreBrowserSignals(recordedSignals('playwright-pixel7')).score; // 0.95
 */
export function recordedSignals(name: (typeof RECORDED_SETS)[number]): DeviceSignals {
  const url = new URL(`../unit/engines/device/signal-sets/${name}.json`, import.meta.url);
  const json: unknown = JSON.parse(readFileSync(url, 'utf8'));
  // The recorded set must be what the route accepts.
  if (!Value.Check(DeviceSignalsBody, json)) throw new Error(`${name}.json is not a device-signal set`);
  return json;
}

const t0 = Date.UTC(2026, 0, 15, 10, 0, 0);

/**
 * Signal sets of ordinary browsers, written from the values those browsers report (not recorded here: no
 * phone is attached to this machine): Chrome on a Pixel 8, Safari on an iPhone, Chrome on Windows, Safari on
 * a Mac, Firefox on Linux. A user who moved the mouse or tapped before the collection.
 */
export const ORDINARY: Readonly<
  Record<'androidChrome' | 'iphoneSafari' | 'windowsChrome' | 'macSafari' | 'linuxFirefox', DeviceSignals>
> = {
  androidChrome: {
    version: 1,
    collectedAt: t0,
    userAgent:
      'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Mobile Safari/537.36',
    clientHints: {
      brands: [
        { brand: 'Chromium', version: '142' },
        { brand: 'Google Chrome', version: '142' },
        { brand: 'Not_A Brand', version: '99' },
      ],
      mobile: true,
      platform: 'Android',
      platformVersion: '15.0.0',
      architecture: '',
      bitness: '',
      model: 'Pixel 8',
      fullVersionList: [
        { brand: 'Chromium', version: '142.0.7444.102' },
        { brand: 'Google Chrome', version: '142.0.7444.102' },
      ],
    },
    platform: 'Linux armv81',
    vendor: 'Google Inc.',
    languages: ['en-GB', 'en'],
    timeZone: 'Europe/London',
    timeZoneOffset: 0,
    screen: { width: 412, height: 915, availWidth: 412, availHeight: 915, colorDepth: 24, pixelRatio: 2.625 },
    viewport: { innerWidth: 412, innerHeight: 789, outerWidth: 412, outerHeight: 789 },
    hardwareConcurrency: 9,
    deviceMemory: 8,
    maxTouchPoints: 5,
    pluginsLength: 0,
    webgl: { vendor: 'Qualcomm', renderer: 'Adreno (TM) 740' },
    webdriver: false,
    botd: { bot: false, botKind: null },
    automationTraces: [],
    interaction: {
      pointerMoves: 0,
      mouseDowns: 0,
      mouseDownsWithoutPath: 0,
      touchDowns: 3,
      keyDowns: 0,
      untrustedEvents: 0,
    },
    fingerprint: { visitorId: 'a1b2c3d4e5f60718293a4b5c6d7e8f90', confidence: 0.6, version: '5.2.0' },
    geolocation: null,
  },
  iphoneSafari: {
    version: 1,
    collectedAt: t0,
    userAgent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.6 Mobile/15E148 Safari/604.1',
    clientHints: null,
    platform: 'iPhone',
    vendor: 'Apple Computer, Inc.',
    languages: ['fr-FR'],
    timeZone: 'Europe/Paris',
    timeZoneOffset: -60,
    screen: { width: 393, height: 852, availWidth: 393, availHeight: 852, colorDepth: 24, pixelRatio: 3 },
    viewport: { innerWidth: 393, innerHeight: 659, outerWidth: 393, outerHeight: 852 },
    hardwareConcurrency: 4,
    deviceMemory: null,
    maxTouchPoints: 5,
    pluginsLength: 5,
    webgl: { vendor: 'Apple Inc.', renderer: 'Apple GPU' },
    webdriver: false,
    botd: { bot: false, botKind: null },
    automationTraces: [],
    interaction: {
      pointerMoves: 0,
      mouseDowns: 0,
      mouseDownsWithoutPath: 0,
      touchDowns: 2,
      keyDowns: 0,
      untrustedEvents: 0,
    },
    fingerprint: { visitorId: 'b2c3d4e5f60718293a4b5c6d7e8f90a1', confidence: 0.4, version: '5.2.0' },
    geolocation: { latitude: 48.8566, longitude: 2.3522, accuracy: 35 },
  },
  windowsChrome: {
    version: 1,
    collectedAt: t0,
    userAgent:
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36',
    clientHints: {
      brands: [
        { brand: 'Chromium', version: '142' },
        { brand: 'Google Chrome', version: '142' },
        { brand: 'Not_A Brand', version: '99' },
      ],
      mobile: false,
      platform: 'Windows',
      platformVersion: '19.0.0',
      architecture: 'x86',
      bitness: '64',
      model: '',
      fullVersionList: null,
    },
    platform: 'Win32',
    vendor: 'Google Inc.',
    languages: ['de-DE', 'de', 'en-US', 'en'],
    timeZone: 'Europe/Berlin',
    timeZoneOffset: -60,
    screen: { width: 1920, height: 1080, availWidth: 1920, availHeight: 1032, colorDepth: 24, pixelRatio: 1 },
    viewport: { innerWidth: 1920, innerHeight: 945, outerWidth: 1920, outerHeight: 1032 },
    hardwareConcurrency: 16,
    deviceMemory: 8,
    maxTouchPoints: 0,
    pluginsLength: 5,
    webgl: {
      vendor: 'Google Inc. (NVIDIA)',
      renderer: 'ANGLE (NVIDIA, NVIDIA GeForce RTX 3060 (0x00002503) Direct3D11 vs_5_0 ps_5_0, D3D11)',
    },
    webdriver: false,
    botd: { bot: false, botKind: null },
    automationTraces: [],
    interaction: {
      pointerMoves: 214,
      mouseDowns: 2,
      mouseDownsWithoutPath: 0,
      touchDowns: 0,
      keyDowns: 6,
      untrustedEvents: 0,
    },
    fingerprint: { visitorId: 'c3d4e5f60718293a4b5c6d7e8f90a1b2', confidence: 0.5, version: '5.2.0' },
    geolocation: null,
  },
  macSafari: {
    version: 1,
    collectedAt: t0,
    userAgent:
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.6 Safari/605.1.15',
    clientHints: null,
    platform: 'MacIntel',
    vendor: 'Apple Computer, Inc.',
    languages: ['en-US'],
    timeZone: 'America/New_York',
    timeZoneOffset: 300,
    screen: { width: 1512, height: 982, availWidth: 1512, availHeight: 944, colorDepth: 30, pixelRatio: 2 },
    viewport: { innerWidth: 1512, innerHeight: 862, outerWidth: 1512, outerHeight: 944 },
    hardwareConcurrency: 8,
    deviceMemory: null,
    maxTouchPoints: 0,
    pluginsLength: 5,
    webgl: { vendor: 'Apple Inc.', renderer: 'Apple GPU' },
    webdriver: false,
    botd: { bot: false, botKind: null },
    automationTraces: [],
    interaction: {
      pointerMoves: 96,
      mouseDowns: 1,
      mouseDownsWithoutPath: 0,
      touchDowns: 0,
      keyDowns: 0,
      untrustedEvents: 0,
    },
    fingerprint: { visitorId: 'd4e5f60718293a4b5c6d7e8f90a1b2c3', confidence: 0.5, version: '5.2.0' },
    geolocation: null,
  },
  linuxFirefox: {
    version: 1,
    collectedAt: t0,
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0',
    clientHints: null,
    platform: 'Linux x86_64',
    vendor: '',
    languages: ['es-ES', 'es'],
    timeZone: 'Europe/Madrid',
    timeZoneOffset: -60,
    screen: { width: 2560, height: 1440, availWidth: 2560, availHeight: 1400, colorDepth: 24, pixelRatio: 1 },
    viewport: { innerWidth: 2543, innerHeight: 1289, outerWidth: 2560, outerHeight: 1400 },
    hardwareConcurrency: 12,
    deviceMemory: null,
    maxTouchPoints: 0,
    pluginsLength: 5,
    webgl: { vendor: 'AMD', renderer: 'AMD Radeon RX 6600 (radeonsi, navi23, LLVM 19.1.7, DRM 3.61, 6.12.0)' },
    webdriver: false,
    botd: { bot: false, botKind: null },
    automationTraces: [],
    interaction: {
      pointerMoves: 57,
      mouseDowns: 1,
      mouseDownsWithoutPath: 0,
      touchDowns: 0,
      keyDowns: 0,
      untrustedEvents: 0,
    },
    fingerprint: { visitorId: 'e5f60718293a4b5c6d7e8f90a1b2c3d4', confidence: 0.5, version: '5.2.0' },
    geolocation: null,
  },
};
