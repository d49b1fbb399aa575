import { REALM_SUFFIX } from '../../server/access/token-claims.js';
import { CUSTOMER_NAME } from '../../store/customers.js';

/**
 * The customer name of a realm path segment, or undefined when the segment is not a consumer realm
 * (or names no possible customer: such a name never reaches the store).
 *
 * @example
 * customerOfRealm('acme-consumers'); // 'acme'
 * customerOfRealm('acme'); // undefined
 * customerOfRealm('a\u0000-consumers'); // undefined
 */
export function customerOfRealm(realm: string): string | undefined {
  const name = realm.endsWith(REALM_SUFFIX) ? realm.slice(0, -REALM_SUFFIX.length) : '';
  return CUSTOMER_NAME.test(name) ? name : undefined;
}
