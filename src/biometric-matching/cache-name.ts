import { invalidValue } from '../server/errors/api-error.js';
import type { CacheRef } from '../engines/matching/cache-galleries.js';

const CACHE_NAME = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * A cache name from the path, checked: 1-128 characters of A-Z a-z 0-9 . _ -.
 *
 * @example
 * checkedCacheName('staff'); // 'staff'
 * @throws {ApiError} 400 -6 for any other name
 */
export function checkedCacheName(name: string): string {
  if (!CACHE_NAME.test(name))
    throw invalidValue(`cacheName must be 1-128 characters of A-Z a-z 0-9 . _ - (got '${name}')`);
  return name;
}

/**
 * The cache a call names: the caller's customer scope and the checked name from the path.
 *
 * @example
 * checkedCache(customerScopeOf(request), 'staff'); // { customer: 'acme', name: 'staff' }
 * @throws {ApiError} 400 -6 for a malformed name ({@link checkedCacheName})
 */
export function checkedCache(customer: string, name: string): CacheRef {
  return { customer, name: checkedCacheName(name) };
}
