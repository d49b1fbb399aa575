import type { ServiceDefinition } from '../../server/service-definition.js';
import { addVersionRoute } from '../../server/version-route.js';
import { customersRepository } from '../../store/customers.js';
import { signingKeysRepository } from '../../store/signing-keys.js';
import { tokenSigner } from './token-signer.js';
import { tokenRoutes } from './token-routes.js';

/** Device-bound face enrollment and authentication (Doc 1). So far `GET /version` and the token endpoint with its discovery document and JWKS. */
export const onboardingService: ServiceDefinition = {
  name: 'onboarding',
  prefix: '',
  description: 'Device-bound face enrollment and authentication (Doc 1)',
  errorStyle: 'coded',
  jsonAsTextPlain: false,
  plugin: async (app, deps) => {
    addVersionRoute(app, 'onboarding');
    const customers = customersRepository(deps.store.db);
    const signer = tokenSigner(signingKeysRepository(deps.store.db), deps.config.tokenTtlSeconds);
    await tokenRoutes(app, deps, customers, signer);
  },
};
