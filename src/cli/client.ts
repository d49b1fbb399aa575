import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { generateDeviceKey, loadDeviceKey, type DeviceKey } from '../client/device-key.js';
import { OnboardingClient, type FaceFrame } from '../client/onboarding-client.js';
import { takeOverSession } from '../client/qr-session.js';

/** A client command that cannot run as given (missing flag or credential). */
export class ClientUsageError extends Error {
  override name = 'ClientUsageError';
}

export const CLIENT_USAGE = `  veriport client enroll --username U --email E --phone P --device-id D [--device-key FILE] FACE.jpg...
  veriport client authenticate --registration-code C --device-id D [--device-key FILE] FACE.jpg...
  veriport client qr SESSION_URL [--public-key FILE] --device-id D [--device-key FILE]
                     [--phone P | --registration-code C] FACE.jpg...
      The onboarding flows (Doc 1) as a phone app runs them, with the client SDK: the frames are
      sealed with the server's public key, the device key (P-256, kept in --device-key, default
      device-key.pem; made at enroll) signs the authToken. Server and credentials from VERIPORT_URL
      (default http://127.0.0.1:8080), VERIPORT_CUSTOMER (default demo), VERIPORT_CLIENT_ID (default
      demo-client), VERIPORT_CLIENT_SECRET and VERIPORT_API_KEY.
      qr: the phone's side of a QR hand-over: decrypts the link's data with the onboarding public key
      (--public-key, the PEM the app ships with; else GET /getPublicKey with the credentials above),
      validates the session (its matchCode is the one the portal shows), then enrolls the session's user
      (--phone) or authenticates them (--registration-code) on the QR-flow paths, with the session's
      credentials only.`;

export interface ClientOptions {
  readonly username?: string | undefined;
  readonly email?: string | undefined;
  readonly phone?: string | undefined;
  readonly deviceId?: string | undefined;
  readonly deviceKey?: string | undefined;
  readonly registrationCode?: string | undefined;
  /** qr: the onboarding public key (PEM file) the link's data decrypts with. */
  readonly publicKey?: string | undefined;
}

/** A client flow that cannot go on from the command line (the steps so far are in the message). */
export class ClientFlowError extends Error {
  override name = 'ClientFlowError';
}

/**
 * Runs `veriport client enroll|authenticate|qr` and returns what to print (JSON of each step).
 *
 * @example
 * process.stdout.write(await clientCommand(['enroll', 'selfie.jpg'], { username: 'alice', ... }, process.env));
 * const options = { phone: '+15550100', deviceId: 'phone-1', publicKey: 'onboarding-key.pem' };
 * process.stdout.write(await clientCommand(['qr', link, 'selfie.jpg'], options, process.env));
 */
export async function clientCommand(
  args: readonly string[],
  options: ClientOptions,
  env: NodeJS.ProcessEnv,
): Promise<string> {
  const [command, ...rest] = args;
  if (command === 'qr') return qrCommand(rest, options, env);
  const images = rest;
  if (command !== 'enroll' && command !== 'authenticate')
    throw new ClientUsageError(`unknown client command '${command ?? ''}'\n\n${CLIENT_USAGE}`);
  if (images.length === 0) throw new ClientUsageError(`give at least one face image (JPEG or PNG)\n\n${CLIENT_USAGE}`);
  const client = customerClient(env);
  const frames = await readFrames(images);
  const deviceId = need(options.deviceId, '--device-id');
  const keyFile = options.deviceKey ?? 'device-key.pem';
  const steps: Record<string, unknown> = {};

  if (command === 'enroll') {
    const username = need(options.username, '--username');
    const device = await enrollmentDeviceKey(keyFile);
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
    const device = await enrolledDeviceKey(keyFile);
    steps.authenticate = await client.authenticate(need(options.registrationCode, '--registration-code'), deviceId);
    const { authToken } = steps.authenticate as { authToken: string };
    steps.verifyDevice = await client.verifyDevice(authToken, deviceId, device);
    steps.verifyFace = await client.verifyFace(authToken, frames, options.username ?? '');
  }
  return `${JSON.stringify(steps, null, 2)}\n`;
}

/**
 * `veriport client qr <link> FACE...`: the phone's side of a QR hand-over (Doc 1 flows "QR enrollment" and
 * "QR authentication"). The link's data is decrypted with the public key the app ships with (a file), never
 * with a key fetched from the host the link names; the session is validated (single use), then the session's
 * user is enrolled or authenticated with the session's credentials only. The accessToken is not printed.
 */
async function qrCommand(args: readonly string[], options: ClientOptions, env: NodeJS.ProcessEnv): Promise<string> {
  const [link, ...images] = args;
  if (link === undefined || !/^[a-z][a-z0-9+.-]*:\/\//i.test(link))
    throw new ClientUsageError(`give the session link (the URL of the QR code) first\n\n${CLIENT_USAGE}`);
  if (images.length === 0) throw new ClientUsageError(`give at least one face image (JPEG or PNG)\n\n${CLIENT_USAGE}`);
  const deviceId = need(options.deviceId, '--device-id');
  // Which flow the link hands over is known only once validated (single use): ask for its input first.
  const enrolling = options.phone !== undefined && options.phone !== '';
  const authenticating = options.registrationCode !== undefined && options.registrationCode !== '';
  if (enrolling === authenticating)
    throw new ClientUsageError(
      `give --phone for an enrollment link or --registration-code for an authentication link\n\n${CLIENT_USAGE}`,
    );
  const keyFile = options.deviceKey ?? 'device-key.pem';
  // Read before the session is taken over: a missing file must not spend the link.
  const device = enrolling ? await enrollmentDeviceKey(keyFile) : await enrolledDeviceKey(keyFile);
  const frames = await readFrames(images);
  const publicKeyPem =
    options.publicKey === undefined
      ? await customerClient(env).getPublicKey()
      : await readFile(options.publicKey, 'utf8');

  const { client, session } = await takeOverSession(link, publicKeyPem);
  const { accessToken: _secret, ...shown } = session;
  const steps: Record<string, unknown> = { validateSession: shown };
  const expected = enrolling ? 'enroll' : 'authenticate';
  if (session.methodType !== expected)
    throw new ClientFlowError(
      `the link hands over '${session.methodType}', not '${expected}' (give ${
        session.methodType === 'enroll' ? '--phone' : '--registration-code'
      })\n${JSON.stringify(steps, null, 2)}`,
    );
  if (enrolling) {
    steps.enroll = await client.enroll({
      username: session.userName,
      email: session.email,
      phoneNumber: need(options.phone, '--phone'),
    });
    const { enrollmentToken } = steps.enroll as { enrollmentToken: string };
    steps.adddevice = await client.addDevice(enrollmentToken, deviceId, device);
    steps.addFace = await client.addFace(enrollmentToken, frames, session.userName);
  } else {
    const started = await client.authenticate(need(options.registrationCode, '--registration-code'), deviceId);
    steps.authenticate = started;
    steps.verifyDevice = await client.verifyDevice(started.authToken, deviceId, device);
    if (!started.requiredChecks.includes('verifyFace'))
      throw new ClientFlowError(
        `the final check is ${started.requiredChecks.join(' + ')}: the device-security profile needs the signals ` +
          `of a browser (the capture app, /capture), which this command cannot give\n${JSON.stringify(steps, null, 2)}`,
      );
    steps.verifyFace = await client.verifyFace(started.authToken, frames, session.userName);
  }
  return `${JSON.stringify(steps, null, 2)}\n`;
}

function need(value: string | undefined, name: string): string {
  if (value === undefined || value === '') throw new ClientUsageError(`${name} is required\n\n${CLIENT_USAGE}`);
  return value;
}

/** The client of the customer whose credentials the environment holds. */
function customerClient(env: NodeJS.ProcessEnv): OnboardingClient {
  return new OnboardingClient({
    baseUrl: (env.VERIPORT_URL ?? 'http://127.0.0.1:8080').replace(/\/$/, ''),
    customer: env.VERIPORT_CUSTOMER ?? 'demo',
    clientId: env.VERIPORT_CLIENT_ID ?? 'demo-client',
    clientSecret: need(env.VERIPORT_CLIENT_SECRET, 'VERIPORT_CLIENT_SECRET'),
    apiKey: need(env.VERIPORT_API_KEY, 'VERIPORT_API_KEY'),
  });
}

/** The face images as frames 100 ms apart. */
async function readFrames(images: readonly string[]): Promise<FaceFrame[]> {
  const t0 = Date.now();
  return Promise.all(images.map(async (file, i) => ({ image: await readFile(file), timestamp: t0 + i * 100 })));
}

/** The device key in `keyFile`, made (P-256) and written there (mode 600) when the file does not exist. */
async function enrollmentDeviceKey(keyFile: string): Promise<DeviceKey> {
  if (existsSync(keyFile)) return loadDeviceKey(await readFile(keyFile, 'utf8'));
  const device = generateDeviceKey('p256');
  await writeFile(keyFile, device.exportPrivateKey(), { mode: 0o600 });
  return device;
}

/** The device key an enrollment on this device left in `keyFile`. */
async function enrolledDeviceKey(keyFile: string): Promise<DeviceKey> {
  if (!existsSync(keyFile))
    throw new ClientUsageError(`no device key in ${keyFile}: enroll on this device first, or give --device-key`);
  return loadDeviceKey(await readFile(keyFile, 'utf8'));
}
