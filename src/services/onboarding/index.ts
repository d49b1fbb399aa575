import { failedCredentials } from '../../server/access/failed-credentials.js';
import type { ServiceDefinition } from '../../server/service-definition.js';
import { addVersionRoute } from '../../server/version-route.js';
import { customersRepository } from '../../store/customers.js';
import { onboardingEventsRepository } from '../../store/onboarding-events.js';
import { onboardingSessionsRepository } from '../../store/onboarding-sessions.js';
import { signingKeysRepository } from '../../store/signing-keys.js';
import { accessVerifier } from './access.js';
import { requireAccess } from './authenticated-scope.js';
import { authenticationFlow } from './authentication.js';
import { authenticationRoutes } from './authentication-routes.js';
import { challengeRoutes } from './challenge-routes.js';
import { deviceContext } from './device-context.js';
import { deviceRoutes } from './device-routes.js';
import { enrollmentFlow } from './enrollment.js';
import { enrollmentRoutes } from './enrollment-routes.js';
import { guidanceQuota } from './guidance-quota.js';
import { registrationCodeThrottle } from './registration-code-throttle.js';
import { onboardingContext } from './onboarding-context.js';
import { sessionAccessVerifier } from './session-access.js';
import { confineToSession, sessionCallerOnOtherServices } from './session-confinement.js';
import { sessionContext } from './session-context.js';
import { sessionRoutes } from './session-routes.js';
import { tokenSigner } from './token-signer.js';
import { tokenRoutes } from './token-routes.js';

/**
 * Device-bound face enrollment and authentication (Doc 1): the token endpoint, enrollment,
 * authentication, the QR hand-over of either to the user's phone, and the device-security profile.
 */
export const onboardingService: ServiceDefinition = {
  name: 'onboarding',
  prefix: '',
  description: 'Device-bound face enrollment and authentication (Doc 1)',
  errorStyle: 'coded',
  jsonAsTextPlain: false,
  envelopePurpose: 'onboarding',
  // Its own check (authenticated-scope.ts): the token endpoint is open, the rest needs token and key.
  authentication: 'onboarding',
  // A QR session's credentials also open the capture app's live guidance (face liveness's /analyze).
  issuedCredentials: (deps) =>
    sessionCallerOnOtherServices(
      {
        sessions: onboardingSessionsRepository(deps.store.db),
        customers: customersRepository(deps.store.db),
        events: onboardingEventsRepository(deps.store.db),
        now: () => new Date(),
      },
      guidanceQuota(deps.config.sessionGuidanceMax),
    ),
  plugin: async (app, deps) => {
    addVersionRoute(app, 'onboarding');
    const customers = customersRepository(deps.store.db);
    const signer = tokenSigner(signingKeysRepository(deps.store.db), deps.config.tokenTtlSeconds);
    await tokenRoutes(app, deps, customers, signer);
    const context = onboardingContext(deps);
    const devices = deviceContext(deps);
    const verifyAccess = accessVerifier({
      customers,
      signer,
      publicUrl: deps.config.publicUrl,
      failures: failedCredentials(deps.throttleStore, deps.config.throttle),
    });
    const sessions = sessionContext(deps, app.log);
    await sessionRoutes(app, deps, sessions, verifyAccess);
    // Every call below carries the bearer token and the API key of one customer, or a QR session's
    // (its key and validateSession's accessToken), confined to that session.
    const codeThrottle = await registrationCodeThrottle(app, deps.throttleStore, deps.config.throttle);
    await app.register((scope, _options, done) => {
      requireAccess(scope, verifyAccess, sessionAccessVerifier(sessions));
      confineToSession(scope, sessions);
      enrollmentRoutes(scope, enrollmentFlow(context), deps.envelopeKeys.key('onboarding').publicKeyPem, codeThrottle);
      authenticationRoutes(scope, authenticationFlow(context), codeThrottle);
      challengeRoutes(scope, enrollmentFlow(context), authenticationFlow(context));
      deviceRoutes(scope, devices);
      done();
    });
  },
};
