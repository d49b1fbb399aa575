import { Type } from '@sinclair/typebox';

/**
 * The error body of the coded services (Doc 2, Doc 3 A/B/D), for route schemas and the OpenAPI document.
 *
 * @example
 * const schema = { response: { 200: Ok, ...errorResponses } }; // errorResponses: CodedError for 4xx and 5xx
 */
export const CodedError = Type.Object(
  { error: Type.Object({ code: Type.Integer(), description: Type.String() }) },
  {
    description:
      'error: code (spec 400 codes -1..-9 and service codes; other statuses see docs/errors.md) and description',
  },
);

/**
 * The error responses of a coded service's route, spread into its response schema beside the 200.
 *
 * @example
 * app.post('/x', { schema: { response: { 200: Ok, ...errorResponses } } }, handler);
 */
export const errorResponses = { '4xx': CodedError, '5xx': CodedError } as const;
