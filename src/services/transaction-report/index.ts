import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { SERVICE_NAMES, type ServiceDefinition, type ServiceDependencies } from '../../server/service-definition.js';
import { addVersionRoute } from '../../server/version-route.js';
import type { UsageFilter } from '../../store/usage-counters.js';
import { adminConfirmation } from '../../server/admin-confirmation.js';
import { reportCsv, reportFileName } from './report-csv.js';
import { reportFilter, type ReportPathParams } from './report-filter.js';
import { ConfirmBody, CsvResponse, NoContentResponse, PeriodParams, ServerParams } from './schemas.js';

// Year and month may be left out of the path (or sent as 0): each call has a route per form.
const SERVER_PATHS = ['/:server', '/:server/:year', '/:server/:year/:month'];
const PERIOD_PATHS = ['', '/:year', '/:year/:month'];

async function transactionReportRoutes(app: FastifyInstance, deps: ServiceDependencies): Promise<void> {
  const scope = app.withTypeProvider<TypeBoxTypeProvider>();
  const { repository } = deps.usage;
  const confirmation = adminConfirmation({ code: deps.adminConfirmCode });
  const filterOf = (params: ReportPathParams) => reportFilter(params, SERVICE_NAMES);

  const sendCsv = async (reply: FastifyReply, filter: UsageFilter) => {
    await deps.usage.flush();
    const csv = reportCsv(await repository.list(filter));
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${reportFileName(filter)}"`)
      .send(csv);
  };

  addVersionRoute(app, 'transaction-report');

  for (const path of SERVER_PATHS) {
    scope.get(
      `/serverReport${path}`,
      {
        schema: { summary: "One server's monthly usage counters as CSV", params: ServerParams, response: CsvResponse },
      },
      async (request, reply) => sendCsv(reply, filterOf(request.params)),
    );
    scope.post(
      `/reset${path}`,
      {
        schema: {
          summary: "Resets one server's counters for the period (204)",
          params: ServerParams,
          body: ConfirmBody,
          response: NoContentResponse,
        },
      },
      async (request, reply) => {
        const filter = filterOf(request.params);
        confirmation.check(request.body.confirm, 'reset');
        // Write this process's pending counts first, so none of them reappear after the reset.
        await deps.usage.flush();
        const removed = await repository.reset(filter);
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
          response: CsvResponse,
        },
      },
      async (request, reply) => sendCsv(reply, filterOf(request.params)),
    );
  }

  scope.post(
    '/shutdown',
    { schema: { summary: 'Stops the server gracefully (204)', body: ConfirmBody, response: NoContentResponse } },
    async (request, reply) => {
      confirmation.check(request.body.confirm, 'shutdown');
      request.log.warn('shutdown requested through the transaction-report service');
      reply.raw.once('finish', () => deps.requestShutdown());
      return reply.code(204).send();
    },
  );
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
