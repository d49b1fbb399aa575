import { ipToBigInt, normalizeIp } from '../engines/device/ip-address.js';

/**
 * What the access log writes of a request (a type, not an interface: Fastify's serializer type wants an
 * index signature, which only object types get implicitly).
 */
export type LoggedRequest = {
  readonly method: string;
  /** The path, and the names of the query parameters with their values left out. */
  readonly url: string;
  readonly host: string | undefined;
  /** The client's network, not its address: IPv4 to /24, IPv6 to /48. */
  readonly remoteNetwork: string | undefined;
};

/**
 * The request as the access log writes it (Fastify's `req` serializer), without two things Fastify's default
 * writes: the client's full address and port (personal data: the network is kept, enough to tell a flood's
 * origin) and query values. A query can carry a credential: the QR hand-over's link is
 * `/capture?data=<host&session key&session token>`, which the phone's browser requests from this server.
 *
 * @example
 * serializeRequestForLog({ method: 'GET', url: '/capture?data=abc', host: 'id.example', ip: '81.2.69.142' });
 * // { method: 'GET', url: '/capture?data=', host: 'id.example', remoteNetwork: '81.2.69.0/24' }
 */
export function serializeRequestForLog(request: {
  readonly method: string;
  readonly url: string;
  readonly host?: string | undefined;
  readonly ip?: string | undefined;
}): LoggedRequest {
  return {
    method: request.method,
    url: withoutQueryValues(request.url),
    host: request.host,
    remoteNetwork: request.ip === undefined ? undefined : networkOf(request.ip),
  };
}

/** `/path?a=1&b=2` → `/path?a=&b=`: which parameters came, not what they said. */
function withoutQueryValues(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const names = url
    .slice(at + 1)
    .split('&')
    .filter((pair) => pair !== '')
    .map((pair) => `${pair.split('=', 1)[0] ?? ''}=`);
  return `${url.slice(0, at)}?${names.join('&')}`;
}

/**
 * The /24 of an IPv4 address or the /48 of an IPv6 one (a site's prefix), as CIDR text; undefined for what is
 * not an address.
 *
 * @example
 * networkOf('::ffff:81.2.69.142'); // '81.2.69.0/24'
 * networkOf('2001:db8:1:2::5'); // '2001:db8:1::/48'
 */
export function networkOf(address: string): string | undefined {
  const ip = normalizeIp(address);
  if (ip === undefined) return undefined;
  if (!ip.includes(':')) return `${ip.split('.').slice(0, 3).join('.')}.0/24`;
  const top = ipToBigInt(ip) >> 80n;
  const groups = [32n, 16n, 0n].map((shift) => ((top >> shift) & 0xffffn).toString(16));
  return `${groups.join(':')}::/48`;
}
