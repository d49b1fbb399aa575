import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { networkOf, serializeRequestForLog } from '../../../src/server/request-log-serializer.js';

describe('the access log of a request', () => {
  it('writes the path with the query parameter names only, and the network instead of the address', () => {
    assert.deepEqual(
      serializeRequestForLog({
        method: 'GET',
        url: '/capture?data=c2VjcmV0&x=1&',
        host: 'id.example',
        ip: '81.2.69.142',
      }),
      { method: 'GET', url: '/capture?data=&x=', host: 'id.example', remoteNetwork: '81.2.69.0/24' },
    );
    assert.equal(
      serializeRequestForLog({ method: 'POST', url: '/face-liveness/analyze' }).url,
      '/face-liveness/analyze',
    );
    assert.equal(serializeRequestForLog({ method: 'POST', url: '/x' }).remoteNetwork, undefined);
  });

  it('keeps an IPv4 /24 (mapped addresses too) and an IPv6 /48', () => {
    assert.equal(networkOf('::ffff:81.2.69.142'), '81.2.69.0/24');
    assert.equal(networkOf('127.0.0.1'), '127.0.0.0/24');
    assert.equal(networkOf('2001:db8:1:2::5'), '2001:db8:1::/48');
    assert.equal(networkOf('::1'), '0:0:0::/48');
    assert.equal(networkOf('fe80::1%eth0'), 'fe80:0:0::/48');
    assert.equal(networkOf('not an address'), undefined);
  });
});
