import { parseWorkflow } from '../engines/liveness/workflows.js';
import { LivenessInputError } from '../engines/liveness/liveness-input-error.js';
import { CustomerError, type CustomersRepository } from '../store/customers.js';
import type { OnboardingPoliciesRepository, OnboardingPolicy } from '../store/onboarding-policies.js';

export const POLICY_USAGE = `  veriport admin policy show <customer>
  veriport admin policy set <customer> [workflow=hotel2|4|6|foxtrot2|4|6|charlie2|4|6] [match-fmr-score=N] [max-attempts=N]
      The customer's onboarding policy: the liveness workflow of addFace and verifyFace, the least
      -log10(FMR) of a face match (3 = 1 false match in 1000), and the tries per enrollment or authentication.`;

/** A `policy` command line that cannot be applied. */
export class PolicyUsageError extends Error {
  override name = 'PolicyUsageError';
}

/**
 * Runs `veriport admin policy show|set` and returns what to print.
 *
 * @example
 * await policyCommand(customers, policies, ['set', 'acme', 'workflow=foxtrot4']);
 * @throws {PolicyUsageError} for a malformed setting, {CustomerError} for an unknown customer
 */
export async function policyCommand(
  customers: CustomersRepository,
  policies: OnboardingPoliciesRepository,
  args: readonly string[],
): Promise<string> {
  const [verb, customer, ...settings] = args;
  if ((verb !== 'show' && verb !== 'set') || customer === undefined)
    throw new PolicyUsageError(`usage:\n${POLICY_USAGE}`);
  if ((await customers.find(customer)) === undefined) throw new CustomerError(`no customer '${customer}'`);
  const policy = verb === 'show' ? await policies.get(customer) : await policies.set(customer, parseSettings(settings));
  return `${Object.entries(policy)
    .map(([key, value]) => `${key}=${String(value)}`)
    .join('\n')}\n`;
}

function parseSettings(settings: readonly string[]): Partial<OnboardingPolicy> {
  const changes: { -readonly [K in keyof OnboardingPolicy]?: OnboardingPolicy[K] } = {};
  for (const setting of settings) {
    const [key, value = ''] = setting.split('=', 2);
    switch (key) {
      case 'workflow': {
        let workflow;
        try {
          workflow = parseWorkflow(value);
        } catch (error) {
          if (error instanceof LivenessInputError) throw new PolicyUsageError(error.message);
          throw error;
        }
        // Active workflows need the three-request exchange of checkActiveLiveness, which Doc 1's
        // package does not carry.
        if (workflow.method === 'active')
          throw new PolicyUsageError('workflow must be a passive one (hotel, foxtrot, charlie)');
        changes.livenessWorkflow = value;
        break;
      }
      case 'match-fmr-score':
        changes.matchFmrScore = bounded(value, key, 1, 8, false);
        break;
      case 'max-attempts':
        changes.maxAttempts = bounded(value, key, 1, 20, true);
        break;
      default:
        throw new PolicyUsageError(`unknown policy setting '${setting}'\n\n${POLICY_USAGE}`);
    }
  }
  return changes;
}

function bounded(value: string, key: string, min: number, max: number, integer: boolean): number {
  const n = Number(value);
  if (value === '' || !Number.isFinite(n) || n < min || n > max || (integer && !Number.isInteger(n))) {
    throw new PolicyUsageError(
      `${key} must be ${integer ? 'a whole number' : 'a number'} from ${min} to ${max} (got '${value}')`,
    );
  }
  return n;
}
