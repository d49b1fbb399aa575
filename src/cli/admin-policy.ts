import { readFileSync } from 'node:fs';
import { DevicePolicyError, parseDevicePolicy } from '../engines/device/device-policy.js';
import { parseWorkflow } from '../engines/liveness/workflows.js';
import { LivenessInputError } from '../engines/liveness/liveness-input-error.js';
import { CustomerError, type CustomersRepository } from '../store/customers.js';
import type { DevicePoliciesRepository } from '../store/device-policies.js';
import { FINAL_CHECKS } from '../store/onboarding-authentications.js';
import type { OnboardingPoliciesRepository, OnboardingPolicy } from '../store/onboarding-policies.js';

export const POLICY_USAGE = `  veriport admin policy show <customer>
  veriport admin policy set <customer> [workflow=hotel2|4|6|foxtrot2|4|6|charlie2|4|6] [match-fmr-score=N] [max-attempts=N]
                                       [final-check=verifyFace|deviceSecurity]
      The customer's onboarding policy: the liveness workflow of addFace and verifyFace, the least
      -log10(FMR) of a face match (3 = 1 false match in 1000), the tries per enrollment or authentication,
      and the check after verifyDevice (authenticate's requiredChecks).
  veriport admin policy device <customer> [<policy.json>]
      The customer's device-security policy as JSON (docs/onboarding.md, "Device security"); with a file,
      sets it: members left out keep the default, rules change only the assertions they name.`;

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
  devicePolicies?: DevicePoliciesRepository,
): Promise<string> {
  const [verb, customer, ...settings] = args;
  if ((verb !== 'show' && verb !== 'set' && verb !== 'device') || customer === undefined)
    throw new PolicyUsageError(`usage:\n${POLICY_USAGE}`);
  if ((await customers.find(customer)) === undefined) throw new CustomerError(`no customer '${customer}'`);
  if (verb === 'device') {
    if (devicePolicies === undefined || settings.length > 1) throw new PolicyUsageError(`usage:\n${POLICY_USAGE}`);
    const [file] = settings;
    if (file !== undefined) await devicePolicies.set(customer, readDevicePolicy(file));
    return `${JSON.stringify(await devicePolicies.get(customer), null, 2)}\n`;
  }
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
      case 'final-check': {
        const check = FINAL_CHECKS.find((c) => c === value);
        if (check === undefined) throw new PolicyUsageError(`final-check must be ${FINAL_CHECKS.join(' or ')}`);
        changes.finalCheck = check;
        break;
      }
      default:
        throw new PolicyUsageError(`unknown policy setting '${setting}'\n\n${POLICY_USAGE}`);
    }
  }
  return changes;
}

/** A device policy from a JSON file, checked member by member. */
function readDevicePolicy(file: string) {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new PolicyUsageError(`${file}: not a readable JSON file (${error instanceof Error ? error.message : ''})`);
  }
  try {
    return parseDevicePolicy(json);
  } catch (error) {
    if (error instanceof DevicePolicyError) throw new PolicyUsageError(`${file}: ${error.message}`);
    throw error;
  }
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
