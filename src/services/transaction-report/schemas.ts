import { Type, type Static } from '@sinclair/typebox';
import { errorResponses } from '../../server/schemas/coded-error.js';

const Year = Type.Integer({ minimum: 0, description: 'year, e.g. 2026; 0 or left out = all years' });
const Month = Type.Integer({ minimum: 0, description: 'month 1-12; 0 or left out = all months' });
const Server = Type.String({ description: 'service name, e.g. face-matching' });

export const ServerParams = Type.Object({ server: Server, year: Type.Optional(Year), month: Type.Optional(Month) });
export const PeriodParams = Type.Object({ year: Type.Optional(Year), month: Type.Optional(Month) });

/** The report calls' query: an operator's (admin) call may ask for one customer's counters. */
export const ReportQuery = Type.Object({
  customer: Type.Optional(
    Type.String({
      maxLength: 63,
      description:
        "admin calls: one customer's counters ('' for calls made without authentication); left out: every " +
        "customer's summed. A customer's own call always reports its own.",
    }),
  ),
});

export const ConfirmBody = Type.Object(
  { confirm: Type.Integer({ description: "must equal the operator's confirmation code (VERIPORT_ADMIN_CONFIRM)" }) },
  { description: 'JSON body; sent as application/json or, as in the spec examples, text/plain' },
);
export type ConfirmBody = Static<typeof ConfirmBody>;

export const CsvResponse = {
  200: {
    description: 'CSV: server_name,year,month,endpoint,counter',
    content: { 'text/csv': { schema: { type: 'string' } } },
  },
  ...errorResponses,
};

export const NoContentResponse = {
  204: { description: 'done; no body', type: 'null' },
  ...errorResponses,
};
