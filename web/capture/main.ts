/**
 * The phone's capture app (`GET /capture?data=...`, the QR hand-over's default sessionCallbackURL): opens the
 * QR link as the SDK's `takeOverSession` does, shows the match code, then runs the session's enrollment or
 * authentication with this browser's device key, live guidance and a challenge-bound face capture whose frames
 * are sealed with WebCrypto (docs/onboarding.md, "Portal and capture app").
 */
import { challengeColourSchedule, type LivenessChallenge } from '../../src/client/liveness-challenge.js';
import { ApiCallError } from '../shared/api.js';
import { collectDeviceSignals, startInteractionTracking, submitDeviceSignals } from '../shared/device-signals.js';
import { toBase64 } from '../shared/bytes.js';
import { element, fieldValue, showOnly } from '../shared/dom.js';
import { Camera, type CapturedFrame } from './camera.js';
import {
  deviceIdentity,
  findEnrolment,
  publicKeyPem,
  saveEnrolment,
  signAuthToken,
  type DeviceIdentity,
} from './device-store.js';
import { sealEnvelope } from './envelope.js';
import { guidanceMessages } from './guidance.js';
import { SessionApi, validateSession, type FaceLivenessData, type ValidatedSession } from './session-api.js';
import { importOnboardingKey, openSessionData, SessionDataError } from './session-data.js';

const sections = {
  loading: element('loading', HTMLElement),
  failure: element('failure', HTMLElement),
  session: element('session', HTMLElement),
  camera: element('camera', HTMLElement),
  result: element('result', HTMLElement),
};
const CLIENT_VERSION = 'veriport-web/1';
/** Frames of a sample without screen colours; with them, two per colour (5 colours: the 10-frame limit). */
const PLAIN_FRAMES = 5;
const FRAMES_PER_COLOUR = 2;
/** Between two frames of a sample: the sequence must show motion; between colours, the screen must settle. */
const FRAME_GAP_MS = 150;
const COLOUR_GAP_MS = 250;
const GUIDANCE_INTERVAL_MS = 500;

/** The page's state for the test harness and styles: loading, failed, session, camera, done, retry. */
function setStep(step: string): void {
  document.body.dataset.step = step;
  document.body.classList.toggle('result-done', step === 'done');
}

function fail(message: string): void {
  element('failure-text', HTMLElement).textContent = message;
  setStep('failed');
  showOnly(sections, 'failure');
}

/** What to tell the user when validateSession refuses the link. */
function validationFailure(error: unknown): string {
  if (!(error instanceof ApiCallError)) return 'The link could not be opened. Ask for a new QR code.';
  switch (error.status) {
    case 409:
      return 'This link was already used, or replaced by a newer QR code. Ask for a new QR code.';
    case 410:
      return 'This link has expired. Ask for a new QR code.';
    case 429:
      return 'Too many attempts. Wait a minute and ask for a new QR code.';
    case 0:
      return error.description;
    default:
      return 'This link is not valid. Ask for a new QR code.';
  }
}

async function start(): Promise<void> {
  setStep('loading');
  const keyText = document.querySelector<HTMLMetaElement>('meta[name="veriport-onboarding-key"]')?.content ?? '';
  const link = location.href;
  // The link's data is single-use but still a credential: out of the address bar, the history and any Referer.
  history.replaceState(null, '', location.pathname);
  let onboardingKey: CryptoKey;
  let data: Awaited<ReturnType<typeof openSessionData>>;
  try {
    onboardingKey = await importOnboardingKey(keyText);
    data = await openSessionData(link, onboardingKey);
  } catch (error) {
    fail(
      error instanceof SessionDataError
        ? `This is not a valid QR code link (${error.message}).`
        : 'This page cannot read QR code links.',
    );
    return;
  }
  // The page may call its own server only (Content-Security-Policy), and must not send the session elsewhere.
  if (new URL(data.host).origin !== location.origin) {
    fail(`This link is for another server (${data.host}): open it there.`);
    return;
  }
  let session: ValidatedSession;
  try {
    session = await validateSession(data.host, data.apiKey, data.sessionToken);
  } catch (error) {
    fail(validationFailure(error));
    return;
  }
  const api = new SessionApi(data.host, data.apiKey, session.accessToken);
  const enrolling = session.methodType === 'enroll';
  element('session-title', HTMLElement).textContent = enrolling
    ? `${session.customerName}: enroll your face`
    : `${session.customerName}: confirm it is you`;
  element('session-user', HTMLElement).textContent = session.userName;
  element('match-code', HTMLElement).textContent = session.matchCode;
  element('phone-field', HTMLElement).hidden = !enrolling;
  element('phone', HTMLInputElement).required = enrolling;
  setStep('session');
  showOnly(sections, 'session');
  const form = element('start-form', HTMLFormElement);
  form.addEventListener(
    'submit',
    (event) => {
      event.preventDefault();
      element('start', HTMLButtonElement).disabled = true;
      const flow = enrolling
        ? enroll(api, session, fieldValue(form, 'phoneNumber'), onboardingKey)
        : authenticate(api, session, onboardingKey);
      flow.catch((error: unknown) =>
        fail(error instanceof ApiCallError ? `The server refused: ${error.description}` : String(error)),
      );
    },
    { once: true },
  );
}

async function enroll(api: SessionApi, session: ValidatedSession, phoneNumber: string, key: CryptoKey) {
  const device = await deviceIdentity();
  const { enrollmentToken: token, requiredChecks } = await api.enroll({
    username: session.userName,
    email: session.email,
    phoneNumber,
  });
  await api.addDevice(token, device.deviceId, await publicKeyPem(device));
  if (requiredChecks.some((check) => DEVICE_CHECKS.has(check))) {
    const { enrollmentStatus } = await api.checkEnrollmentDevice(token, await deviceSession(api));
    if (enrollmentStatus === 0)
      return done('Enrollment refused', 'This device did not pass the security check.', 'failed');
  }
  for (;;) {
    const sample = await captureSample(api, () => api.enrollmentChallenge(token), session.userName, key);
    const answer = await api.addFace(token, sample);
    if (answer.enrollmentStatus === 2) {
      await saveEnrolment(session.customerName, session.userName, {
        registrationCode: answer.registrationCode,
        deviceId: device.deviceId,
      });
      return done('You are enrolled', `${session.customerName} can now confirm it is you with this phone.`);
    }
    const why = answer.message ?? 'The face check did not pass.';
    if (answer.enrollmentStatus === 0) return done('Enrollment failed', why, 'failed');
    await retry('The photo was not accepted', why);
  }
}

async function authenticate(api: SessionApi, session: ValidatedSession, key: CryptoKey) {
  const enrolment = await findEnrolment(session.customerName, session.userName);
  const device: DeviceIdentity = await deviceIdentity();
  if (enrolment === undefined || enrolment.deviceId !== device.deviceId)
    return done(
      'This phone is not enrolled',
      `${session.userName} has not enrolled with this phone: use the phone you enrolled with.`,
      'failed',
    );
  const { authToken, requiredChecks } = await api.authenticate(enrolment.registrationCode, device.deviceId);
  await api.verifyDevice(authToken, device.deviceId, await signAuthToken(device, authToken));
  // The customer's policy may end with the device-security check: approved ends it, review asks for the face.
  if (requiredChecks.some((check) => DEVICE_CHECKS.has(check))) {
    const { authStatus } = await api.checkAuthenticationDevice(authToken, await deviceSession(api));
    if (authStatus === 2) return done('Identity confirmed', `${session.customerName} knows it is you.`);
    if (authStatus === 0) return done('Not confirmed', 'This device did not pass the security check.', 'failed');
  }
  for (;;) {
    const sample = await captureSample(api, () => api.authenticationChallenge(authToken), session.userName, key);
    const answer = await api.verifyFace(authToken, sample);
    if (answer.authStatus === 2) return done('Identity confirmed', `${session.customerName} knows it is you.`);
    const why = !answer.livenessResult
      ? 'The camera did not see a live face.'
      : !answer.matchResult
        ? 'The face does not match the enrolled one.'
        : 'The face check did not pass.';
    if (answer.authStatus === 0) return done('Not confirmed', why, 'failed');
    await retry('Not confirmed yet', why);
  }
}

/** The names `requiredChecks` gives the device-security check (Doc 1 endpoints 6 and 13). */
const DEVICE_CHECKS = new Set(['deviceSecurity', 'checkDevice']);

/** Collects this browser's device signals and posts them (endpoint 6's collector): their `apSessionId`. */
async function deviceSession(api: SessionApi): Promise<string> {
  const signals = await collectDeviceSignals({ geolocation: false });
  return (await submitDeviceSignals(location.origin, api.credentials, signals)).apSessionId;
}

function done(title: string, text: string, step = 'done'): void {
  element('result-title', HTMLElement).textContent = title;
  element('result-text', HTMLElement).textContent = text;
  element('retry', HTMLButtonElement).hidden = true;
  camera?.close();
  camera = undefined;
  setStep(step);
  showOnly(sections, 'result');
}

/** Shows why a sample was refused and waits for the user to try again. */
function retry(title: string, text: string): Promise<void> {
  element('result-title', HTMLElement).textContent = title;
  element('result-text', HTMLElement).textContent = `${text} Try again.`;
  const button = element('retry', HTMLButtonElement);
  button.hidden = false;
  setStep('retry');
  showOnly(sections, 'result');
  return new Promise((resolve) => button.addEventListener('click', () => resolve(), { once: true }));
}

let camera: Camera | undefined;

/**
 * The face step: the camera with live guidance until the frame is fit (or the user asks), then a challenge
 * and the frames it asks for (the screen showing its colours, one tag per frame), sealed.
 */
async function captureSample(
  api: SessionApi,
  challengeOf: () => Promise<LivenessChallenge>,
  username: string,
  key: CryptoKey,
): Promise<FaceLivenessData> {
  setStep('camera');
  showOnly(sections, 'camera');
  const guidance = element('guidance', HTMLElement);
  guidance.textContent = 'Starting the camera…';
  camera ??= await Camera.open(element('preview', HTMLVideoElement));
  const button = element('capture-now', HTMLButtonElement);
  button.hidden = false;
  await guide(api, camera, guidance, button);
  button.hidden = true;
  guidance.textContent = 'Hold still…';
  setStep('capturing');
  const challenge = await challengeOf();
  const frames = await captureFrames(camera, challenge);
  guidance.textContent = 'Checking…';
  setStep('checking');
  return {
    video: {
      workflow_data: {
        workflow: challenge.workflow,
        rotation: 0,
        frames: await Promise.all(
          frames.map(async ({ frame, tags }) => ({
            data: JSON.stringify(await sealEnvelope(frame.image, key, 'onboarding')),
            tags,
            timestamp: frame.timestamp,
          })),
        ),
        timestamp: Date.now(),
        challenge: challenge.challenge,
      },
      meta_data: { client_device_brand: 'veriport-web', username, client_version: CLIENT_VERSION },
      client_version: CLIENT_VERSION,
    },
  };
}

/**
 * Live guidance: preview frames to `/face-liveness/analyze` until one is fit to capture, its advice shown
 * meanwhile; or until the user presses the button (also the way on when guidance is unavailable).
 */
async function guide(api: SessionApi, cam: Camera, status: HTMLElement, button: HTMLButtonElement): Promise<void> {
  let pressed = false;
  const onPress = () => (pressed = true);
  button.addEventListener('click', onPress);
  try {
    while (!pressed) {
      const started = performance.now();
      const frame = await cam.takeFrame();
      let feedback: string[];
      try {
        feedback = await api.analyze(toBase64(frame.image), frame.timestamp);
      } catch {
        status.textContent = 'Live guidance is not available: look straight at the camera and press the button.';
        await new Promise<void>((resolve) => button.addEventListener('click', () => resolve(), { once: true }));
        return;
      }
      if (feedback.length === 0) return;
      status.textContent = guidanceMessages(feedback).join(' ');
      await sleep(Math.max(0, GUIDANCE_INTERVAL_MS - (performance.now() - started)));
    }
  } finally {
    button.removeEventListener('click', onPress);
  }
}

/** The frames a challenge asks for: for a colour challenge, the screen shows each colour while it is taken. */
async function captureFrames(
  cam: Camera,
  challenge: LivenessChallenge,
): Promise<Array<{ frame: CapturedFrame; tags: string[] }>> {
  const count = challenge.screenColours.length > 0 ? FRAMES_PER_COLOUR * challenge.screenColours.length : PLAIN_FRAMES;
  const schedule = challengeColourSchedule(challenge, count);
  const screen = element('screen-colour', HTMLElement);
  const frames: Array<{ frame: CapturedFrame; tags: string[] }> = [];
  let shown = '';
  try {
    for (const tags of schedule) {
      const colour = tags[0] ?? '';
      const changed = colour !== shown;
      if (changed && colour !== '') {
        screen.style.backgroundColor = `#${colour.replace('SCREEN_COLOR_', '')}`;
        screen.hidden = false;
        shown = colour;
      }
      frames.push({ frame: await cam.takeFrame(changed && colour !== '' ? COLOUR_GAP_MS : FRAME_GAP_MS), tags });
    }
  } finally {
    screen.hidden = true;
  }
  return frames;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

// From the first moment: the device signals tell a pointer that moved to a button from one that appeared on it.
startInteractionTracking();
void start();
