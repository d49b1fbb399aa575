import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runVeriport } from '../../src/cli/run.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CLI = path.join(ROOT, 'src/cli/main.ts');

/** A `veriport` process started from the sources, as a user would run it. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `veriport <args>` to completion in a process of its own, as a user would. Each start costs a node and
 * tsx start-up (seconds on a loaded machine): a test file runs one or two commands this way, to check the
 * binary itself (exit codes, streams), and the rest with runCliInProcess.
 */
export async function runCli(args: string[], env: Record<string, string>): Promise<CliRun> {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: 'pipe',
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}

/**
 * Runs `veriport <args>` to completion inside the test process: the binary's own entry (src/cli/run.ts: the
 * same argument parsing, commands, store code and exit codes), with the environment a spawned command would
 * have and its output captured. Not for `serve`, which would start a server here.
 *
 * @example
 * const { code, stdout } = await runCliInProcess(['admin', 'customers', 'list'], { VERIPORT_DATA_DIR: dir });
 */
export async function runCliInProcess(args: string[], env: Record<string, string>): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await runVeriport(args, {
    env: { ...process.env, ...env },
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
  });
  if (code < 0) throw new Error(`veriport ${args.join(' ')} started a server in the test process`);
  return { code, stdout, stderr };
}

/** A running `veriport serve` process. */
export interface ServerProcess {
  readonly url: string;
  readonly child: ChildProcess;
  /** Sends SIGTERM and resolves with the exit code once the process has stopped. */
  stop(): Promise<number | null>;
  /** Resolves with the exit code once the process stops by itself. */
  exited(): Promise<number | null>;
}

/**
 * Starts `veriport serve` on a free port and resolves once `/health` answers. The engines start cold (their models
 * load at the first request that needs them) unless `env` sets `VERIPORT_WARM_ENGINES`: warming them all would add
 * seconds to every start.
 */
export async function startServer(env: Record<string, string>, args: string[] = []): Promise<ServerProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', CLI, 'serve', '--port', String(port), '--host', '127.0.0.1', ...args],
    {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'warn', VERIPORT_WARM_ENGINES: 'false', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const exited = once(child, 'exit') as Promise<[number | null]>;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${errors}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start within 60 s:\n${errors}`);
    }
    const healthy = await fetch(`${url}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (healthy) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    child,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      const [code] = await exited;
      return code;
    },
    async exited() {
      const [code] = await exited;
      return code;
    },
  };
}

/** A port that was free a moment ago (the OS picks it; the server binds it right after). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
