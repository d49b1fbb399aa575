import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { FastifyRequest } from 'fastify';
import { openSessionData } from '../../../../src/client/session-data.js';
import { AccessDeniedError } from '../../../../src/server/access/access-denied.js';
import { ApiError } from '../../../../src/server/errors/api-error.js';
import { sessionAccessVerifier } from '../../../../src/services/onboarding/session-access.js';
import type { SessionContext } from '../../../../src/services/onboarding/session-context.js';
import type { SessionNotice, SessionNotifier } from '../../../../src/services/onboarding/session-notifier.js';
import { sessionStatus } from '../../../../src/services/onboarding/session-status.js';
import { triggerSession } from '../../../../src/services/onboarding/session-trigger.js';
import { validateSession } from '../../../../src/services/onboarding/session-validation.js';
import { customersRepository, type Customer } from '../../../../src/store/customers.js';
import { openStore, type Store } from '../../../../src/store/database.js';
import { onboardingEventsRepository } from '../../../../src/store/onboarding-events.js';
import { onboardingSessionsRepository } from '../../../../src/store/onboarding-sessions.js';
import { onboardingUsersRepository } from '../../../../src/store/onboarding-users.js';

const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
const phone = { address: '203.0.113.7', userAgent: 'phone' };

/** A notifier that keeps what it was asked to send and answers as told. */
function recordingNotifier(channel: 'email' | 'push', sent: boolean): SessionNotifier & { notices: SessionNotice[] } {
  const notices: SessionNotice[] = [];
  return {
    channel,
    notices,
    send(notice) {
      notices.push(notice);
      return Promise.resolve(sent ? { sent: true } : { sent: false, reason: 'the test says no' });
    },
  };
}

describe('QR session lifetimes and notices on a clock the test moves', () => {
  let store: Store;
  let customer: Customer;
  let clock = new Date('2030-01-01T10:00:00Z');
  let ctx: SessionContext;
  const email = recordingNotifier('email', true);
  const push = recordingNotifier('push', false);

  before(async () => {
    store = await openStore({ kind: 'pglite', dataDir: 'memory://' });
    customer = await customersRepository(store.db).create({ name: 'acme', displayName: 'ACME Bank' });
    ctx = {
      sessions: onboardingSessionsRepository(store.db),
      users: onboardingUsersRepository(store.db),
      customers: customersRepository(store.db),
      events: onboardingEventsRepository(store.db),
      dataKey: keys.privateKey,
      sessionTtlMs: 300_000,
      callbackUrl: 'acmebank://onboarding?source=qr',
      publicUrl: 'https://id.acme.example',
      notifiers: { email, push },
      now: () => clock,
    };
  });
  after(() => store.close());

  const trigger = (username: string, notify = false) =>
    triggerSession(ctx, customer, {
      method: 'enroll',
      username,
      email: `${username}@example.com`,
      notify,
      requestOrigin: 'http://ignored.example',
    });
  const request = (apikey: string, accessToken: string) =>
    ({ headers: { apikey, authorization: `Bearer ${accessToken}` } }) as unknown as FastifyRequest;

  it("names VERIPORT_PUBLIC_URL as the host and keeps the callback URL's own query", async () => {
    const answer = await trigger('anna', true);
    const url = new URL(answer.sessionCallbackURL);
    assert.equal(url.protocol, 'acmebank:');
    assert.equal(url.searchParams.get('source'), 'qr');
    assert.equal(openSessionData(answer.sessionCallbackURL, keys.publicKey).host, 'https://id.acme.example');
    assert.equal(answer.errorSummary, null);
    assert.equal(email.notices.length, 1);
    assert.equal(email.notices[0]?.url, answer.sessionCallbackURL);
    assert.equal(email.notices[0]?.customerName, 'ACME Bank');
    assert.equal(email.notices[0]?.expiresAt.getTime(), clock.getTime() + 300_000);
  });

  it('validates until the last millisecond of the token, not after', async () => {
    const early = await trigger('bert');
    const late = await trigger('carl');
    clock = new Date(clock.getTime() + 299_999);
    const first = openSessionData(early.sessionCallbackURL, keys.publicKey);
    assert.equal((await validateSession(ctx, first.apiKey, first.sessionToken, phone)).answer.userName, 'bert');
    clock = new Date(clock.getTime() + 1);
    const second = openSessionData(late.sessionCallbackURL, keys.publicKey);
    await assert.rejects(
      validateSession(ctx, second.apiKey, second.sessionToken, phone),
      (error: unknown) => error instanceof ApiError && error.statusCode === 410,
    );
    assert.equal((await sessionStatus(ctx, customer, late.sessionToken)).state, 'expired');
  });

  it('ends the access token VERIPORT_SESSION_TTL_SECONDS after validation', async () => {
    const answer = await trigger('dora');
    const data = openSessionData(answer.sessionCallbackURL, keys.publicKey);
    const { answer: validated } = await validateSession(ctx, data.apiKey, data.sessionToken, phone);
    const verify = sessionAccessVerifier(ctx);
    clock = new Date(clock.getTime() + 299_000);
    assert.equal((await verify(request(data.apiKey, validated.accessToken)))?.session.username, 'dora');
    assert.equal(await verify(request('a1b2c3d4.customer-key', validated.accessToken)), undefined, 'not a session key');
    clock = new Date(clock.getTime() + 1_000);
    await assert.rejects(verify(request(data.apiKey, validated.accessToken)), AccessDeniedError);
    const status = await sessionStatus(ctx, customer, answer.sessionToken);
    assert.equal(status.state, 'expired');
    assert.equal(status.matchCode, validated.matchCode);
  });

  it('keeps the session when a notice could not be sent, and says why in errorSummary', async () => {
    const refusing = recordingNotifier('email', false);
    const answer = await triggerSession({ ...ctx, notifiers: { email: refusing, push } }, customer, {
      method: 'enroll',
      username: 'erin',
      email: 'erin@example.com',
      notify: true,
      requestOrigin: 'http://ignored.example',
    });
    assert.equal(answer.status, 'SUCCESS');
    assert.equal(
      answer.errorSummary,
      'notification not sent: the test says no; the session stands: show the QR code instead',
    );
    assert.equal(refusing.notices.length, 1);
    assert.equal((await sessionStatus(ctx, customer, answer.sessionToken)).state, 'created');
    const events = await onboardingEventsRepository(store.db).list('acme', 'erin');
    assert.deepEqual(
      events.map((e) => [e.event, e.outcome]),
      [
        ['triggerEnroll', 'success'],
        ['notify-email', 'failure'],
      ],
    );
  });
});
