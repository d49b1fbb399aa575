import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scoreBrowserSignals, zoneOffsetMinutes } from '../../../../src/engines/device/browser-anomaly.js';
import type { DeviceSignals } from '../../../../src/lib/device-signals.js';
import { ORDINARY, RECORDED_SETS, recordedSignals } from '../../../helpers/device-signals.js';

const codes = (signals: DeviceSignals) => scoreBrowserSignals(signals).findings.map((f) => f.code);

describe('scoreBrowserSignals: Playwright-driven Chromium, recorded by the collector', () => {
  it('scores every recorded automation run at or above the default threshold 0.5', () => {
    for (const name of RECORDED_SETS) {
      const { score } = scoreBrowserSignals(recordedSignals(name));
      assert.ok(score >= 0.5, `${name}: ${score}`);
    }
  });

  it('catches the run BotD misses (AutomationControlled off, a Chrome user agent) by our own checks', () => {
    const signals = recordedSignals('playwright-headed-like');
    assert.equal(signals.webdriver, false);
    assert.equal(signals.botd?.bot, false, 'BotD says human');
    assert.deepEqual(codes(signals), ['software-renderer', 'viewport-fills-screen', 'mouse-without-path']);
    assert.equal(scoreBrowserSignals(signals).score, 0.79);
  });

  it("finds the phone emulations' contradictions: hints vs user agent, platform, vendor, renderer, plugins", () => {
    assert.deepEqual(codes(recordedSignals('playwright-pixel7')), [
      'hints-version-mismatch',
      'platform-mismatch',
      'software-renderer',
      'mobile-plugins',
    ]);
    assert.deepEqual(codes(recordedSignals('playwright-iphone13')), [
      'client-hints-on-non-chromium',
      'platform-mismatch',
      'vendor-mismatch',
      'software-renderer',
    ]);
  });

  it('reports webdriver, BotD and the headless user agent of the default run', () => {
    const found = codes(recordedSignals('playwright-headless-default'));
    for (const code of ['webdriver', 'botd-headless_chrome', 'headless-user-agent', 'utc-time-zone'])
      assert.ok(found.includes(code), `${code} in ${found.join(',')}`);
  });
});

describe('scoreBrowserSignals: ordinary browsers and single defects', () => {
  it('finds nothing in the ordinary browsers', () => {
    for (const [name, signals] of Object.entries(ORDINARY)) {
      const { score, findings } = scoreBrowserSignals(signals);
      assert.equal(score, 0, `${name}: ${findings.map((f) => f.code).join(',')}`);
    }
  });

  it('flags client hints that contradict the user agent (platform, mobile, version)', () => {
    const phone = ORDINARY.androidChrome;
    const hints = phone.clientHints;
    assert.ok(hints !== null);
    const found = codes({ ...phone, clientHints: { ...hints, platform: 'Windows', mobile: false } });
    assert.ok(found.includes('hints-platform-mismatch'));
    assert.ok(found.includes('hints-mobile-mismatch'));
    const older = codes({ ...phone, clientHints: { ...hints, brands: [{ brand: 'Chromium', version: '120' }] } });
    assert.deepEqual(older, ['hints-version-mismatch']);
    const report = scoreBrowserSignals({ ...phone, clientHints: { ...hints, platform: 'Windows' } });
    assert.ok(
      report.findings.some((f) => f.osRelated),
      'an operating-system anomaly',
    );
  });

  it('flags automation traces, synthetic events, a mouse without a path and a software renderer', () => {
    const desktop = ORDINARY.windowsChrome;
    assert.deepEqual(codes({ ...desktop, automationTraces: ['global:__pwInitScripts'] }), ['automation-trace']);
    assert.deepEqual(codes({ ...desktop, interaction: { ...desktop.interaction, untrustedEvents: 1 } }), [
      'synthetic-events',
    ]);
    assert.deepEqual(
      codes({ ...desktop, interaction: { ...desktop.interaction, mouseDowns: 2, mouseDownsWithoutPath: 2 } }),
      ['mouse-without-path'],
    );
    assert.deepEqual(
      codes({ ...desktop, webgl: { vendor: 'Google Inc. (Google)', renderer: 'ANGLE (Google, SwiftShader driver)' } }),
      ['software-renderer'],
    );
  });

  it("flags a time zone whose offset is not the browser's own, and a name no runtime knows", () => {
    const phone = ORDINARY.iphoneSafari; // Europe/Paris in January: UTC+1
    assert.deepEqual(codes({ ...phone, timeZoneOffset: 300 }), ['time-zone-offset-mismatch']);
    assert.deepEqual(codes({ ...phone, timeZone: 'Mars/Olympus_Mons' }), ['unknown-time-zone']);
  });

  it('combines findings as a noisy-or, rounded to 2 decimals', () => {
    const desktop = ORDINARY.windowsChrome;
    const { score } = scoreBrowserSignals({ ...desktop, languages: [], timeZone: 'Etc/UTC', timeZoneOffset: 0 });
    // no-languages 0.3 and utc-time-zone 0.25: 1 - 0.7 * 0.75
    assert.equal(score, 0.48);
  });
});

describe('zoneOffsetMinutes', () => {
  it('gives the offset at the instant, daylight saving included', () => {
    assert.equal(zoneOffsetMinutes('Asia/Kolkata', Date.UTC(2025, 0, 1)), 330);
    assert.equal(zoneOffsetMinutes('Europe/Paris', Date.UTC(2025, 0, 1)), 60);
    assert.equal(zoneOffsetMinutes('Europe/Paris', Date.UTC(2025, 6, 1)), 120);
    assert.equal(zoneOffsetMinutes('America/St_Johns', Date.UTC(2025, 0, 1)), -210);
    assert.equal(zoneOffsetMinutes('UTC', 0), 0);
    assert.equal(zoneOffsetMinutes('No/Where', 0), undefined);
  });
});
