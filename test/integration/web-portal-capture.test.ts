/**
 * The portal and the capture app end to end in headless Debian Chromium (issue 18): the operator signs in to
 * `/portal` and starts a QR enrollment; the QR code on screen is decoded and opened as the phone's
 * `/capture` link; the phone (Chromium's fake camera playing a simulated capture of a face: per-frame sensor
 * noise and hand-held motion, camera-simulation.ts) validates the session, takes live guidance, captures the
 * challenge's frames, seals them with WebCrypto and enrolls with a non-extractable device key in IndexedDB.
 * Then an authentication of the same face on the same device passes, the used link is refused, and another
 * face on the same device is not confirmed. Screenshots of each step go to a temporary directory, or to
 * VERIPORT_SCREENSHOTS_DIR (the README's come from `VERIPORT_SCREENSHOTS_DIR=reports/web`): a run leaves no diff.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import jsQR from 'jsqr';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import sharp from 'sharp';
import { buildWebApps } from '../../scripts/build-web.js';
import { faceLivenessService } from '../../src/services/face-liveness/index.js';
import { onboardingService } from '../../src/services/onboarding/index.js';
import { customersRepository } from '../../src/store/customers.js';
import { openStore, type Store } from '../../src/store/database.js';
import { onboardingEventsRepository } from '../../src/store/onboarding-events.js';
import { onboardingPoliciesRepository } from '../../src/store/onboarding-policies.js';
import { testApp } from '../helpers/app.js';
import { simulatedRawCapture } from '../helpers/camera-simulation.js';
import { closeTestFaceEngine, photoFrame, testFaceEngine, type Person } from '../helpers/faces.js';
import { writeY4m } from '../helpers/y4m-video.js';

const CHROMIUM = '/usr/bin/chromium';
const SCREENSHOTS = process.env.VERIPORT_SCREENSHOTS_DIR ?? join(tmpdir(), 'veriport-web-screenshots');
/** Frames of the fake camera's loop, and its rate: the capture app takes 5 distinct consecutive frames. */
const VIDEO_FRAMES = 10;
const VIDEO_FPS = 5;
/** The longest a step on the phone may take (capture, sealing, liveness and matching on a busy machine). */
const STEP_MS = 60_000;

/** Run in the page: the stored device private key's properties (web/capture/device-store.ts). */
const DEVICE_KEY_IN_INDEXEDDB = `new Promise((resolve, reject) => {
  const open = indexedDB.open('veriport-capture');
  open.onerror = () => reject(open.error);
  open.onsuccess = () => {
    const get = open.result.transaction('device').objectStore('device').get('this-device');
    get.onerror = () => reject(get.error);
    get.onsuccess = () => {
      const key = get.result.keyPair.privateKey;
      resolve({ extractable: key.extractable, name: key.algorithm.name, namedCurve: key.algorithm.namedCurve,
        usages: key.usages });
    };
  };
})`;

describe('web portal and capture app in headless Chromium', { timeout: 240_000 }, () => {
  let store: Store;
  let app: FastifyInstance;
  let baseUrl: string;
  let workDir: string;
  let context: BrowserContext | undefined;
  let portal: Page;
  let operator: { customer: string; clientId: string; clientSecret: string; apiKey: string };
  let enrollmentLink: string;

  /** Chromium with the fake camera playing `video`, its profile (IndexedDB: the device key) in workDir. */
  const launch = async (video: string): Promise<BrowserContext> =>
    chromium.launchPersistentContext(join(workDir, 'profile'), {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        '--use-fake-ui-for-media-stream',
        '--use-fake-device-for-media-stream',
        `--use-file-for-fake-video-capture=${video}`,
      ],
      viewport: { width: 1000, height: 760 },
    });

  const fakeCamera = async (person: Person, seed: number): Promise<string> => {
    const path = join(workDir, `${person}.y4m`);
    const capture = await simulatedRawCapture(testFaceEngine(), await photoFrame(person), {
      count: VIDEO_FRAMES,
      seed,
    });
    await writeY4m(path, capture, VIDEO_FPS);
    return path;
  };

  const screenshot = (page: Page, name: string) =>
    page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });

  /** Waits for the page's `data-step` to be one of `steps`; the step reached. */
  const step = async (page: Page, steps: readonly string[], timeout = STEP_MS): Promise<string> => {
    const selector = steps.map((s) => `body[data-step="${s}"]`).join(', ');
    try {
      await page.waitForSelector(selector, { state: 'attached', timeout });
    } catch (error) {
      const at = await page.locator('body').getAttribute('data-step');
      const text = await page.locator('main').innerText();
      throw new Error(`expected step ${steps.join('|')}, the page is at ${at}: ${text}`, { cause: error });
    }
    return (await page.locator('body').getAttribute('data-step')) ?? '';
  };

  /** The link the portal's QR code holds, read from the image as a phone's camera would. */
  const scanQrCode = async (): Promise<string> => {
    const src = (await portal.locator('#qr').getAttribute('src')) ?? '';
    assert.match(src, /^data:image\/png;base64,/);
    const png = Buffer.from(src.slice(src.indexOf(',') + 1), 'base64');
    const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    const link = jsQR.default(new Uint8ClampedArray(data), info.width, info.height)?.data;
    assert.ok(link !== undefined, 'the QR code decodes');
    return link;
  };

  /** The operator starts a check on the portal; the QR code's link. */
  const startCheck = async (method: 'enroll' | 'authenticate', username: string, shot?: string): Promise<string> => {
    if ((await step(portal, ['trigger', 'complete', 'failed', 'face-captured'])) !== 'trigger')
      await portal.getByRole('button', { name: 'New check' }).click();
    await step(portal, ['trigger']);
    await portal
      .getByLabel(method === 'enroll' ? 'Enrollment of a new user' : 'Authentication of an enrolled user')
      .check();
    await portal.getByLabel('Username', { exact: true }).fill(username);
    if (method === 'enroll') await portal.getByLabel('E-mail', { exact: true }).fill(`${username}@example.com`);
    await portal.getByRole('button', { name: 'Show the QR code' }).click();
    await step(portal, ['created']);
    await portal.locator('#session-state').filter({ hasText: 'Waiting' }).waitFor();
    if (shot !== undefined) await screenshot(portal, shot);
    return scanQrCode();
  };

  /** The phone opens the link and starts; the match code must be the portal's. */
  const openOnPhone = async (phone: Page, link: string, shot?: string) => {
    await phone.goto(link);
    assert.equal(await step(phone, ['session', 'failed']), 'session', await phone.locator('main').innerText());
    assert.ok(!phone.url().includes('data='), 'the link data is out of the address bar');
    const code = (await phone.locator('#match-code').innerText()).trim();
    assert.match(code, /^\d{6}$/);
    await step(portal, ['scanned']);
    assert.equal((await portal.locator('#match-code').innerText()).trim(), code, 'portal and phone show one code');
    if (shot !== undefined) await screenshot(phone, shot);
  };

  const signIn = async () => {
    portal = watch(await context!.newPage());
    await portal.goto(`${baseUrl}/portal`);
    await portal.getByLabel('Customer').fill(operator.customer);
    await portal.getByLabel('Client ID').fill(operator.clientId);
    await portal.getByLabel('Client secret').fill(operator.clientSecret);
    await portal.getByLabel('API key').fill(operator.apiKey);
  };

  /** Errors the pages logged (a Content-Security-Policy violation, an uncaught exception): none expected. */
  const pageErrors: string[] = [];
  const watch = (page: Page) => {
    page.on('console', (message) => {
      if (message.type() === 'error') pageErrors.push(`${page.url()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`));
    return page;
  };

  /** No page logged an error since the last check, but the refusals a step expects (`allowed`). */
  const assertNoPageErrors = (allowed?: RegExp) => {
    const unexpected = pageErrors.filter((error) => allowed === undefined || !allowed.test(error));
    pageErrors.length = 0;
    assert.deepEqual(unexpected, []);
  };

  const phonePage = async () => {
    const phone = watch(await context!.newPage());
    await phone.setViewportSize({ width: 390, height: 780 });
    return phone;
  };

  before(async () => {
    assert.ok(
      existsSync(CHROMIUM),
      `Chromium is missing at ${CHROMIUM}: run bash scripts/setup-system.sh (installs the Debian chromium package)`,
    );
    await buildWebApps();
    await mkdir(SCREENSHOTS, { recursive: true });
    workDir = await mkdtemp(join(tmpdir(), 'veriport-web-'));
    store = await openStore({ kind: 'pglite', dataDir: 'memory://' });
    const customers = customersRepository(store.db);
    await customers.create({ name: 'acme', displayName: 'ACME Bank', logo: '' });
    const client = await customers.createClient('acme');
    const key = await customers.createApiKey('acme');
    operator = { customer: 'acme', clientId: client.clientId, clientSecret: client.clientSecret, apiKey: key.apiKey };
    app = await testApp(
      { VERIPORT_AUTH: 'required', VERIPORT_PAD_MODEL: 'onnx' },
      { store, services: [onboardingService, faceLivenessService], faceEngine: testFaceEngine() },
    );
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    assert.ok(address !== null && typeof address === 'object');
    baseUrl = `http://127.0.0.1:${address.port}`;
    context = await launch(await fakeCamera('anna', 11));
  });

  after(async () => {
    await context?.close();
    await app?.close();
    await store?.close();
    await closeTestFaceEngine();
    if (workDir !== undefined) await rm(workDir, { recursive: true, force: true });
  });

  it('portal: the operator signs in and starts a QR enrollment; the QR code holds the capture link', async () => {
    await signIn();
    await screenshot(portal, '01-portal-sign-in');
    await portal.getByRole('button', { name: 'Sign in' }).click();
    await step(portal, ['trigger']);
    enrollmentLink = await startCheck('enroll', 'web-alice', '02-portal-qr-code');
    assert.equal(new URL(enrollmentLink).origin + new URL(enrollmentLink).pathname, `${baseUrl}/capture`);
    assertNoPageErrors();
  });

  it('capture app: validates the session, shows the match code, guides, captures and enrolls', async () => {
    const phone = await phonePage();
    await openOnPhone(phone, enrollmentLink, '03-capture-match-code');
    await phone.getByLabel('Your phone number').fill('+15550100');
    await phone.getByRole('button', { name: 'Start' }).click();
    // Live guidance (/face-liveness/analyze with the session's credentials) must pass the frame before the
    // capture starts: without it the app waits for a button nobody presses here.
    await step(phone, ['capturing', 'checking', 'done', 'retry', 'failed']);
    await screenshot(phone, '04-capture-camera');
    const reached = await step(phone, ['done', 'retry', 'failed']);
    await screenshot(phone, '05-capture-enrolled');
    assert.equal(reached, 'done', await phone.locator('main').innerText());
    assert.equal(await phone.locator('#result-title').innerText(), 'You are enrolled');
    // The device key: ECDSA P-256 in IndexedDB, its private half not extractable.
    const key = await phone.evaluate(DEVICE_KEY_IN_INDEXEDDB);
    assert.deepEqual(key, { extractable: false, name: 'ECDSA', namedCurve: 'P-256', usages: ['sign'] });
    await step(portal, ['complete'], 10_000);
    assert.equal(await portal.locator('#outcome').innerText(), 'web-alice is enrolled.');
    await screenshot(portal, '06-portal-enrolled');
    await phone.close();
    assertNoPageErrors();
  });

  it('authentication of the same face on the same device passes, device-security check included', async () => {
    // The customer's policy ends authentications with the device-security check (Doc 1 endpoint 13): the
    // capture app posts its device signals; a driven browser is at best "review", so the face check follows.
    await onboardingPoliciesRepository(store.db).set('acme', { finalCheck: 'deviceSecurity' });
    const link = await startCheck('authenticate', 'web-alice');
    const phone = await phonePage();
    await openOnPhone(phone, link);
    await phone.getByRole('button', { name: 'Start' }).click();
    const reached = await step(phone, ['done', 'retry', 'failed']);
    await screenshot(phone, '07-capture-authenticated');
    assert.equal(reached, 'done', await phone.locator('main').innerText());
    assert.equal(await phone.locator('#result-title').innerText(), 'Identity confirmed');
    await step(portal, ['complete'], 10_000);
    assert.equal(await portal.locator('#outcome').innerText(), 'web-alice is authenticated.');
    await screenshot(portal, '08-portal-authenticated');
    await phone.close();
    assertNoPageErrors();
    // The device check ran on the posted signals and saw the automation: review, then the face passed.
    const events = await onboardingEventsRepository(store.db).list('acme', 'web-alice');
    const deviceCheck = events.find((e) => e.event === 'checkDevice');
    assert.match(deviceCheck?.detail ?? '', /^review/, JSON.stringify(deviceCheck));
    await onboardingPoliciesRepository(store.db).set('acme', { finalCheck: 'verifyFace' });
  });

  it('a replayed session link is refused', async () => {
    const phone = await phonePage();
    await phone.goto(enrollmentLink);
    assert.equal(await step(phone, ['failed', 'session']), 'failed');
    assert.match(await phone.locator('#failure-text').innerText(), /already used/);
    await screenshot(phone, '09-capture-replayed-link');
    await phone.close();
    // The browser logs the refused validateSession itself.
    assertNoPageErrors(/status of 409/);
  });

  it('portal: renews the QR code before it expires while nobody opened it', async () => {
    // The same store on a server whose sessions live 8 s: renewed with under a quarter (2 s) left.
    const shortLived = await testApp(
      { VERIPORT_AUTH: 'required', VERIPORT_SESSION_TTL_SECONDS: '8' },
      { store, services: [onboardingService], faceEngine: testFaceEngine() },
    );
    try {
      await shortLived.listen({ port: 0, host: '127.0.0.1' });
      const address = shortLived.server.address();
      assert.ok(address !== null && typeof address === 'object');
      const page = watch(await context!.newPage());
      await page.goto(`http://127.0.0.1:${address.port}/portal`);
      await page.getByLabel('Customer').fill(operator.customer);
      await page.getByLabel('Client ID').fill(operator.clientId);
      await page.getByLabel('Client secret').fill(operator.clientSecret);
      await page.getByLabel('API key').fill(operator.apiKey);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await step(page, ['trigger']);
      await page.getByLabel('Username', { exact: true }).fill('web-renewed');
      await page.getByLabel('E-mail', { exact: true }).fill('web-renewed@example.com');
      await page.getByRole('button', { name: 'Show the QR code' }).click();
      await step(page, ['created']);
      const first = await page.locator('#qr').getAttribute('src');
      // Polled from here: the page's CSP refuses the string evaluation waitForFunction would use.
      const deadline = Date.now() + 15_000;
      while ((await page.locator('#qr').getAttribute('src')) === first) {
        assert.ok(Date.now() < deadline, 'the QR code was not renewed');
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      // Renewed, not expired: the portal still waits for the phone, now with the new session.
      assert.equal(await page.locator('body').getAttribute('data-step'), 'created');
      await page.close();
      assertNoPageErrors();
    } finally {
      await shortLived.close();
    }
  });

  it('another face on the enrolled device is not confirmed', async () => {
    await context?.close();
    // The same browser profile (its device key and registration code), the camera now showing someone else.
    context = await launch(await fakeCamera('carla', 12));
    await signIn();
    await portal.getByRole('button', { name: 'Sign in' }).click();
    await step(portal, ['trigger']);
    const link = await startCheck('authenticate', 'web-alice');
    const phone = await phonePage();
    await openOnPhone(phone, link);
    await phone.getByRole('button', { name: 'Start' }).click();
    const reached = await step(phone, ['done', 'retry', 'failed']);
    await screenshot(phone, '10-capture-other-face');
    assert.equal(reached, 'retry', await phone.locator('main').innerText());
    assert.match(await phone.locator('#result-text').innerText(), /does not match the enrolled one/);
    await step(portal, ['face-captured'], 10_000);
    await phone.close();
    assertNoPageErrors();
  });
});
