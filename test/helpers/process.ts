import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CLI = path.join(ROOT, 'src/cli/main.ts');

/** A `veriport` process started from the sources, as a user would run it. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `veriport <args>` to completion. */
export async function runCli(args: string[], env: Record<string, string>): Promise<CliRun> {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: 'pipe' });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}

/** A running `veriport serve` process. */
export interface ServerProcess {
  readonly url: string;
  readonly child: ChildProcess;
  /** Sends SIGTERM and resolves with the exit code once the process has stopped. */
  stop(): Promise<number | null>;
}

/** Starts `veriport serve` on a free port and resolves once it listens (it must log at info level or finer). */
export async function startServer(env: Record<string, string>, args: string[] = []): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, 'serve', '--port', '0', ...args], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start:\n${output}`));
    }, 60_000);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  const exited = once(child, 'exit') as Promise<[number | null]>;
  return {
    url,
    child,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      const [code] = await exited;
      return code;
    },
  };
}
