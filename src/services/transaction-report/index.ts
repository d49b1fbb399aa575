import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { customerScopeOf } from '../../server/access/customer-scope.js';
import { adminConfirmation } from '../../server/admin-confirmation.js';
import type { ServiceDefinition, ServiceDependencies } from '../../server/service-definition.js';
import { addVersionRoute } from '../../server/version-route.js';
import { ConfirmBody, CsvResponse, NoContentResponse, PeriodParams, ReportQuery, ServerParams } from './schemas.js';
import { resetUsage, usageReport, type ReportCaller, type UsageReport } from './usage-reports.js';

// Year and month may be left out of the path (or sent as 0): each call has a route per form.
const SERVER_PATHS = ['/:server', '/:server/:year', '/:server/:year/:month'];
const PERIOD_PATHS = ['', '/:year', '/:year/:month'];

/** The routes: schemas and one call each into usage-reports.ts; the HTTP side of CSV and shutdown stays here. */
function transactionReportRoutes(app: FastifyInstance, deps: ServiceDependencies): void {
  const scope = app.withTypeProvider<TypeBoxTypeProvider>();
  const confirmation = adminConfirmation({ code: deps.config.adminConfirmCode, store: deps.throttleStore });

  addVersionRoute(app, 'transaction-report');

  for (const path of SERVER_PATHS) {
    scope.get(
      `/serverReport${path}`,
      {
        schema: {
          summary: "One server's monthly usage counters as CSV",
          params: ServerParams,
          querystring: ReportQuery,
          response: CsvResponse,
        },
      },
      async (request, reply) =>
        sendCsv(reply, await usageReport(deps.usage, request.params, callerOf(request), request.query.customer)),
    );
    scope.post(
      `/reset${path}`,
      {
        // The operator's admin key when authentication is on (server/access/authentication.ts).
        config: { access: 'admin' },
        schema: {
          summary: "Resets one server's counters for the period (204)",
          params: ServerParams,
          body: ConfirmBody,
          response: NoContentResponse,
        },
      },
      async (request, reply) => {
        const { filter, removed } = await resetUsage(deps.usage, confirmation, request.params, request.body.confirm);
        request.log.warn({ filter, removed }, 'usage counters reset');
        return reply.code(204).send();
      },
    );
  }

  for (const path of PERIOD_PATHS) {
    scope.get(
      `/fullReport${path}`,
      {
        schema: {
          summary: 'Monthly usage counters of all servers as CSV',
          params: PeriodParams,
          querystring: ReportQuery,
          response: CsvResponse,
        },
      },
      async (request, reply) =>
        sendCsv(reply, await usageReport(deps.usage, request.params, callerOf(request), request.query.customer)),
    );
  }

  scope.post(
    '/shutdown',
    {
      config: { access: 'admin' },
      schema: { summary: 'Stops the server gracefully (204)', body: ConfirmBody, response: NoContentResponse },
    },
    async (request, reply) => {
      await confirmation.check(request.body.confirm, 'shutdown');
      request.log.warn('shutdown requested through the transaction-report service');
      reply.raw.once('finish', () => deps.requestShutdown());
      return reply.code(204).send();
    },
  );
}

/** Whose report a call may read: its customer scope and admin access. */
function callerOf(request: FastifyRequest): ReportCaller {
  return { customer: customerScopeOf(request), adminAccess: request.adminAccess };
}

/** Sends a report as a CSV download. */
function sendCsv(reply: FastifyReply, report: UsageReport): FastifyReply {
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${report.fileName}"`)
    .send(report.csv);
}

/** Transaction report (spec Doc 3 D): monthly usage counters as CSV, reset and shutdown. */
export const transactionReportService: ServiceDefinition = {
  name: 'transaction-report',
  prefix: '/transaction-report',
  description: 'Monthly usage counters per server and endpoint (Doc 3 D)',
  errorStyle: 'coded',
  jsonAsTextPlain: true,
  plugin: transactionReportRoutes,
};
