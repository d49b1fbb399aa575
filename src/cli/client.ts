import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { generateDeviceKey, loadDeviceKey, type DeviceKey } from '../client/device-key.js';
import { OnboardingClient, type FaceFrame } from '../client/onboarding-client.js';

/** A client command that cannot run as given (missing flag or credential). */
export class ClientUsageError extends Error {
  override name = 'ClientUsageError';
}

export const CLIENT_USAGE = `  veriport client enroll --username U --email E --phone P --device-id D [--device-key FILE] FACE.jpg...
  veriport client authenticate --registration-code C --device-id D [--device-key FILE] FACE.jpg...
      The onboarding flows (Doc 1) as a phone app runs them, with the client SDK: the frames are
      sealed with the server's public key, the device key (P-256, kept in --device-key, default
      device-key.pem; made at enroll) signs the authToken. Server and credentials from VERIPORT_URL
      (default http://127.0.0.1:8080), VERIPORT_CUSTOMER (default demo), VERIPORT_CLIENT_ID (default
      demo-client), VERIPORT_CLIENT_SECRET and VERIPORT_API_KEY.`;

export interface ClientOptions {
  readonly username?: string | undefined;
  readonly email?: string | undefined;
  readonly phone?: string | undefined;
  readonly deviceId?: string | undefined;
  readonly deviceKey?: string | undefined;
  readonly registrationCode?: string | undefined;
}

/**
 * Runs `veriport client enroll|authenticate` and returns what to print (JSON of each step).
 *
 * @example
 * process.stdout.write(await clientCommand(['enroll', 'selfie.jpg'], { username: 'alice', ... }, process.env));
 */
export async function clientCommand(
  args: readonly string[],
  options: ClientOptions,
  env: NodeJS.ProcessEnv,
): Promise<string> {
  const [command, ...images] = args;
  const need = (value: string | undefined, name: string): string => {
    if (value === undefined || value === '') throw new ClientUsageError(`${name} is required\n\n${CLIENT_USAGE}`);
    return value;
  };
  if (command !== 'enroll' && command !== 'authenticate')
    throw new ClientUsageError(`unknown client command '${command ?? ''}'\n\n${CLIENT_USAGE}`);
  if (images.length === 0) throw new ClientUsageError(`give at least one face image (JPEG or PNG)\n\n${CLIENT_USAGE}`);
  const client = new OnboardingClient({
    baseUrl: (env.VERIPORT_URL ?? 'http://127.0.0.1:8080').replace(/\/$/, ''),
    customer: env.VERIPORT_CUSTOMER ?? 'demo',
    clientId: env.VERIPORT_CLIENT_ID ?? 'demo-client',
    clientSecret: need(env.VERIPORT_CLIENT_SECRET, 'VERIPORT_CLIENT_SECRET'),
    apiKey: need(env.VERIPORT_API_KEY, 'VERIPORT_API_KEY'),
  });
  const t0 = Date.now();
  const frames: FaceFrame[] = await Promise.all(
    images.map(async (file, i) => ({ image: await readFile(file), timestamp: t0 + i * 100 })),
  );
  const deviceId = need(options.deviceId, '--device-id');
  const keyFile = options.deviceKey ?? 'device-key.pem';
  const steps: Record<string, unknown> = {};

  if (command === 'enroll') {
    const username = need(options.username, '--username');
    const device: DeviceKey = existsSync(keyFile)
      ? loadDeviceKey(await readFile(keyFile, 'utf8'))
      : generateDeviceKey('p256');
    if (!existsSync(keyFile)) await writeFile(keyFile, device.exportPrivateKey(), { mode: 0o600 });
    steps.enroll = await client.enroll({
      username,
      email: need(options.email, '--email'),
      phoneNumber: need(options.phone, '--phone'),
      registrationCode: options.registrationCode,
    });
    const { enrollmentToken } = steps.enroll as { enrollmentToken: string };
    steps.adddevice = await client.addDevice(enrollmentToken, deviceId, device);
    steps.addFace = await client.addFace(enrollmentToken, frames, username);
  } else {
    const device = loadDeviceKey(await readFile(keyFile, 'utf8'));
    steps.authenticate = await client.authenticate(need(options.registrationCode, '--registration-code'), deviceId);
    const { authToken } = steps.authenticate as { authToken: string };
    steps.verifyDevice = await client.verifyDevice(authToken, deviceId, device);
    steps.verifyFace = await client.verifyFace(authToken, frames, options.username ?? '');
  }
  return `${JSON.stringify(steps, null, 2)}\n`;
}
