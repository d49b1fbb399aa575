import { Type } from '@sinclair/typebox';

/**
 * The error body of the coded services (Doc 2, Doc 3 A/B/D), for route schemas and the OpenAPI document.
 *
 * @example
 * app.post('/x', { schema: { response: { 200: Ok, '4xx': CodedError, '5xx': CodedError } } }, handler);
 */
export const CodedError = Type.Object(
  { error: Type.Object({ code: Type.Integer(), description: Type.String() }) },
  {
    description:
      'error: code (spec 400 codes -1..-9 and service codes; other statuses see docs/errors.md) and description',
  },
);
