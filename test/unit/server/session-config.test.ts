import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../../src/server/config.js';

describe('configuration of the QR hand-over (VERIPORT_SESSION_*, SMTP, push webhook, throttles)', () => {
  it('defaults: 5-minute sessions, <host>/capture links, no notification channel, trigger and validation limits', () => {
    const config = loadConfig({});
    assert.equal(config.sessionTtlSeconds, 300);
    assert.equal(config.sessionCallbackUrl, undefined);
    assert.deepEqual(config.notifications, {
      smtpUrl: undefined,
      smtpFrom: undefined,
      pushWebhookUrl: undefined,
      pushWebhookSecret: undefined,
    });
    assert.equal(config.throttle.triggerPerCustomer, 120);
    assert.equal(config.throttle.triggerPerUser, 10);
    assert.equal(config.throttle.validatePerAddress, 30);
  });

  it('reads every variable', () => {
    const config = loadConfig({
      VERIPORT_SESSION_TTL_SECONDS: '120',
      VERIPORT_SESSION_CALLBACK_URL: 'acmebank://onboarding/session',
      VERIPORT_SMTP_URL: 'smtps://user:pass@mail.example.com',
      VERIPORT_SMTP_FROM: 'ACME <id@acme.example>',
      VERIPORT_PUSH_WEBHOOK_URL: 'https://push.acme.example/veriport',
      VERIPORT_PUSH_WEBHOOK_SECRET: '0123456789abcdef',
      VERIPORT_THROTTLE_TRIGGER_PER_CUSTOMER: '5',
      VERIPORT_THROTTLE_TRIGGER_PER_USER: '2',
      VERIPORT_THROTTLE_VALIDATE_PER_ADDRESS: '7',
    });
    assert.equal(config.sessionTtlSeconds, 120);
    assert.equal(config.sessionCallbackUrl, 'acmebank://onboarding/session');
    assert.equal(config.notifications.smtpUrl, 'smtps://user:pass@mail.example.com');
    assert.equal(config.notifications.pushWebhookSecret, '0123456789abcdef');
    assert.deepEqual(
      [config.throttle.triggerPerCustomer, config.throttle.triggerPerUser, config.throttle.validatePerAddress],
      [5, 2, 7],
    );
  });

  it('refuses bad values with a message naming the variable, never repeating a password', () => {
    const refuses = (env: Record<string, string>, message: RegExp) =>
      assert.throws(
        () => loadConfig(env),
        (error: unknown) => error instanceof ConfigError && message.test(error.message),
      );
    refuses({ VERIPORT_SESSION_TTL_SECONDS: '0' }, /VERIPORT_SESSION_TTL_SECONDS must be an integer from 1 to 3600/);
    refuses({ VERIPORT_SESSION_TTL_SECONDS: '3601' }, /VERIPORT_SESSION_TTL_SECONDS/);
    refuses({ VERIPORT_SESSION_CALLBACK_URL: '/capture' }, /VERIPORT_SESSION_CALLBACK_URL must be an absolute URL/);
    refuses({ VERIPORT_SESSION_CALLBACK_URL: 'https://x.example/c#frag' }, /fragment/);
    refuses(
      { VERIPORT_SMTP_URL: 'http://user:s3cret@mail', VERIPORT_SMTP_FROM: 'a@b' },
      /^(?!.*s3cret).*VERIPORT_SMTP_URL/,
    );
    refuses({ VERIPORT_SMTP_URL: 'smtp://mail.example.com' }, /VERIPORT_SMTP_FROM must be set/);
    refuses({ VERIPORT_PUSH_WEBHOOK_URL: 'ftp://push' }, /VERIPORT_PUSH_WEBHOOK_URL/);
    refuses({ VERIPORT_PUSH_WEBHOOK_SECRET: 'short' }, /at least 16/);
    refuses({ VERIPORT_THROTTLE_VALIDATE_PER_ADDRESS: '0' }, /VERIPORT_THROTTLE_VALIDATE_PER_ADDRESS/);
  });
});
