/**
 * The operator's portal (`GET /portal`, Doc 1's "secondary application"): signs in with the customer's client
 * credentials (the token and API key kept in this tab's sessionStorage, the secret nowhere), triggers a QR
 * enrollment or authentication, shows the QR code, follows the session's state and match code by polling
 * `POST /b2c/proxy/sessionStatus`, renews the QR code before it expires, and shows the outcome.
 */
import { ApiCallError, postJson } from '../shared/api.js';
import { element, fieldValue, showOnly } from '../shared/dom.js';

interface Credentials {
  readonly customer: string;
  readonly apiKey: string;
  readonly token: string;
  /** Milliseconds since 1970. */
  readonly expiresAt: number;
}

interface Check {
  readonly method: 'enroll' | 'authenticate';
  readonly username: string;
  readonly email: string;
}

const STORAGE_KEY = 'veriport.portal';
const POLL_MS = 1000;
/** The QR code is renewed this long before it expires (or at three quarters of a shorter lifetime). */
const RENEW_BEFORE_MS = 30_000;
const ENDED = new Set(['complete', 'failed', 'expired', 'superseded']);

const STATES: Readonly<Record<string, string>> = {
  created: 'Waiting for the phone to open the QR code.',
  scanned: 'Opened on the phone: ask the user to read their code.',
  started: 'Started on the phone.',
  'device-added': 'Phone registered; taking the face photos.',
  'device-verified': 'Phone verified; taking the face photos.',
  'face-captured': 'Face photos sent but not accepted; the user may try again.',
  complete: 'Complete.',
  failed: 'Failed.',
  expired: 'Expired.',
  superseded: 'Replaced by a newer QR code.',
};

const sections = {
  signIn: element('sign-in-section', HTMLElement),
  trigger: element('trigger-section', HTMLElement),
  session: element('session-section', HTMLElement),
};

let credentials: Credentials | undefined = loadCredentials();
let polling: number | undefined;

function loadCredentials(): Credentials | undefined {
  try {
    const stored: unknown = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? 'null');
    if (typeof stored !== 'object' || stored === null) return undefined;
    const customer: unknown = Reflect.get(stored, 'customer');
    const apiKey: unknown = Reflect.get(stored, 'apiKey');
    const token: unknown = Reflect.get(stored, 'token');
    const expiresAt: unknown = Reflect.get(stored, 'expiresAt');
    if (typeof customer !== 'string' || typeof apiKey !== 'string' || typeof token !== 'string') return undefined;
    if (typeof expiresAt !== 'number' || expiresAt <= Date.now()) return undefined;
    return { customer, apiKey, token, expiresAt };
  } catch {
    return undefined;
  }
}

function setStep(step: string): void {
  document.body.dataset.step = step;
}

function headers(): Record<string, string> {
  if (credentials === undefined) throw new ApiCallError(401, 'not signed in');
  return { authorization: `Bearer ${credentials.token}`, apikey: credentials.apiKey };
}

function showSignIn(message = ''): void {
  stopPolling();
  credentials = undefined;
  sessionStorage.removeItem(STORAGE_KEY);
  element('sign-in-error', HTMLElement).textContent = message;
  element('sign-out', HTMLButtonElement).hidden = true;
  element('signed-in-as', HTMLElement).textContent = '';
  setStep('sign-in');
  showOnly(sections, 'signIn');
}

function showTrigger(): void {
  stopPolling();
  element('sign-out', HTMLButtonElement).hidden = false;
  element('signed-in-as', HTMLElement).textContent = credentials ? `Signed in: ${credentials.customer}` : '';
  setStep('trigger');
  showOnly(sections, 'trigger');
}

/** A refused call: an expired or revoked sign-in goes back to the sign-in form. */
function refused(error: unknown, where: HTMLElement): void {
  if (error instanceof ApiCallError && error.status === 401) {
    showSignIn('Your sign-in has expired: sign in again.');
    return;
  }
  where.textContent = error instanceof ApiCallError ? error.description : String(error);
}

async function signIn(form: HTMLFormElement): Promise<void> {
  const customer = fieldValue(form, 'customer');
  const apiKey = fieldValue(form, 'apiKey');
  const answer = await postJson(
    `/auth/realms/${encodeURIComponent(customer)}-consumers/protocol/openid-connect/token`,
    {},
    undefined,
    { access_token: 'string', expires_in: 'number' },
    {
      client_id: fieldValue(form, 'clientId'),
      client_secret: fieldValue(form, 'clientSecret'),
      grant_type: 'client_credentials',
      scope: 'openid',
    },
  );
  credentials = { customer, apiKey, token: answer.access_token, expiresAt: Date.now() + answer.expires_in * 1000 };
  sessionStorage.setItem(STORAGE_KEY, JSON.stringify(credentials));
  form.reset();
  showTrigger();
}

/** Triggers the session (endpoint 7 or 8); the answer's QR code and session token. */
function trigger(check: Check, notify: boolean) {
  const [path, body] =
    check.method === 'enroll'
      ? [
          '/b2c/proxy/triggerEnroll',
          { username: check.username, email: check.email, notifyOptions: { notifyByEmail: notify } },
        ]
      : ['/b2c/proxy/triggerAuthenticate', { username: check.username, notifyOptions: { notifyByPush: notify } }];
  return postJson(path, headers(), body, {
    status: 'string',
    qrcodeImage: 'string',
    sessionToken: 'string',
    errorSummary: 'nullable-string',
  });
}

function stopPolling(): void {
  if (polling !== undefined) clearTimeout(polling);
  polling = undefined;
}

/** Shows a session's QR code and follows it until it ends, renewing the QR code while nobody opened it. */
async function follow(check: Check, notify: boolean): Promise<void> {
  let session = await trigger(check, notify);
  const qr = element('qr', HTMLImageElement);
  const show = (answer: typeof session) => {
    qr.src = `data:image/png;base64,${answer.qrcodeImage}`;
    element('notice', HTMLElement).textContent = answer.errorSummary ?? '';
  };
  show(session);
  qr.alt = `QR code that opens the ${check.method === 'enroll' ? 'enrollment' : 'authentication'} of ${check.username}`;
  element('session-title', HTMLElement).textContent =
    check.method === 'enroll' ? `Enrollment of ${check.username}` : `Authentication of ${check.username}`;
  const outcome = element('outcome', HTMLElement);
  outcome.textContent = '';
  outcome.classList.remove('success');
  element('match-code', HTMLElement).textContent = '—';
  setStep('created');
  showOnly(sections, 'session');
  let lifetimeMs: number | undefined;
  const poll = async () => {
    polling = undefined;
    try {
      const status = await postJson(
        '/b2c/proxy/sessionStatus',
        headers(),
        { sessionToken: session.sessionToken },
        {
          state: 'string',
          matchCode: 'nullable-string',
          expiresAt: 'string',
        },
      );
      const expiresAt = Date.parse(status.expiresAt);
      lifetimeMs ??= expiresAt - Date.now();
      element('session-state', HTMLElement).textContent = STATES[status.state] ?? status.state;
      element('match-code', HTMLElement).textContent = status.matchCode ?? '—';
      element('expires', HTMLElement).textContent = new Date(expiresAt).toLocaleTimeString();
      setStep(status.state);
      // Once a phone has it, the code is of no more use to anyone.
      qr.hidden = element('qr-hint', HTMLElement).hidden = status.state !== 'created';
      if (ENDED.has(status.state)) return ended(check, status.state, outcome);
      // Nobody opened it yet: a new QR code before this one expires (the trigger supersedes the old one).
      if (status.state === 'created' && expiresAt - Date.now() < Math.min(RENEW_BEFORE_MS, lifetimeMs / 4)) {
        session = await trigger(check, false);
        show(session);
      }
      polling = window.setTimeout(() => void poll(), POLL_MS);
    } catch (error) {
      refused(error, outcome);
    }
  };
  await poll();
}

function ended(check: Check, state: string, outcome: HTMLElement): void {
  const done = check.method === 'enroll' ? 'enrolled' : 'authenticated';
  outcome.textContent =
    state === 'complete'
      ? `${check.username} is ${done}.`
      : state === 'failed'
        ? `${check.username} could not be ${done}: too many failed attempts.`
        : 'The QR code is no longer valid: start a new check.';
  outcome.classList.toggle('success', state === 'complete');
}

function checkOf(form: HTMLFormElement): Check {
  return {
    method: fieldValue(form, 'method') === 'authenticate' ? 'authenticate' : 'enroll',
    username: fieldValue(form, 'username'),
    email: fieldValue(form, 'email'),
  };
}

function setUp(): void {
  const signInForm = element('sign-in', HTMLFormElement);
  signInForm.addEventListener('submit', (event) => {
    event.preventDefault();
    element('sign-in-error', HTMLElement).textContent = '';
    if (!signInForm.reportValidity()) return;
    signIn(signInForm).catch((error: unknown) => refused(error, element('sign-in-error', HTMLElement)));
  });
  const triggerForm = element('trigger', HTMLFormElement);
  const emailField = element('email-field', HTMLElement);
  const email = element('email', HTMLInputElement);
  const methodChanged = () => {
    const enrolling = checkOf(triggerForm).method === 'enroll';
    emailField.hidden = !enrolling;
    email.required = enrolling;
  };
  for (const radio of triggerForm.querySelectorAll('input[name="method"]'))
    radio.addEventListener('change', methodChanged);
  triggerForm.addEventListener('submit', (event) => {
    event.preventDefault();
    const error = element('trigger-error', HTMLElement);
    error.textContent = '';
    if (!triggerForm.reportValidity()) return;
    const notify = new FormData(triggerForm).get('notify') !== null;
    follow(checkOf(triggerForm), notify).catch((failure: unknown) => refused(failure, error));
  });
  element('new-session', HTMLButtonElement).addEventListener('click', showTrigger);
  element('sign-out', HTMLButtonElement).addEventListener('click', () => showSignIn());
  methodChanged();
  if (credentials === undefined) showSignIn();
  else showTrigger();
}

setUp();
