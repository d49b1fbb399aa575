import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FastifyRequest } from 'fastify';
import { authenticationHook, type RouteAccess } from '../../../../src/server/access/authentication.js';
import type { Caller } from '../../../../src/server/access/credentials.js';
import { ApiError } from '../../../../src/server/errors/api-error.js';

/** A request to a route of the given access, as the hook sees it. */
const request = (access: RouteAccess | undefined) =>
  ({
    method: 'POST',
    url: '/x',
    headers: {},
    routeOptions: { config: access === undefined ? {} : { access } },
    customerScope: '',
    adminAccess: false,
  }) as unknown as FastifyRequest;

/** A check that answers `caller` and counts its calls. */
function checkAnswering(caller: Caller) {
  const counted = { calls: 0, check: () => ((counted.calls += 1), Promise.resolve(caller)) };
  return counted;
}

describe('authentication hook', () => {
  const acme = checkAnswering({ kind: 'customer', customer: 'acme' });

  it("sets a customer's scope, and refuses it an admin route (403)", async () => {
    const hook = authenticationHook('required', acme.check);
    const plain = request(undefined);
    await hook(plain);
    assert.equal(plain.customerScope, 'acme');
    assert.equal(plain.adminAccess, false);
    await assert.rejects(
      hook(request('admin')),
      (error: unknown) => error instanceof ApiError && error.statusCode === 403,
    );
  });

  it('gives the admin key admin access in the unscoped namespace, on every route', async () => {
    const hook = authenticationHook('required', checkAnswering({ kind: 'admin', keyId: 'id' }).check);
    for (const access of ['customer', 'admin'] as const) {
      const call = request(access);
      await hook(call);
      assert.equal(call.adminAccess, true);
      assert.equal(call.customerScope, '');
    }
  });

  it('checks nothing on a public route, nor anywhere with authentication off (every caller is the operator)', async () => {
    const counted = checkAnswering({ kind: 'customer', customer: 'acme' });
    const publicCall = request('public');
    await authenticationHook('required', counted.check)(publicCall);
    assert.equal(publicCall.adminAccess, false);
    for (const access of ['customer', 'admin'] as const) {
      const call = request(access);
      await authenticationHook('off', counted.check)(call);
      assert.equal(call.adminAccess, true);
      assert.equal(call.customerScope, '');
    }
    assert.equal(counted.calls, 0);
  });
});
