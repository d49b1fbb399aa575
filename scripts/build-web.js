// @ts-check
/**
 * Builds the web apps (web/: the operator's portal and the phone's capture app) into dist/web with esbuild:
 * one bundle per app, for the browsers of the last few years, plus their pages and style sheet. The server
 * serves them (src/server/web-apps.ts); nothing is loaded from elsewhere at run time.
 * Run by `npm run build` (so by `npm ci`'s prepare); `node scripts/build-web.js [outdir]`.
 */
import { copyFile, mkdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Bundles the apps into `outdir` (default dist/web).
 *
 * @example
 * await buildWebApps(); // dist/web/{portal,capture}.{html,js}, styles.css
 * @param {string} [outdir]
 * @returns {Promise<string>} the directory written
 */
export async function buildWebApps(outdir = join(ROOT, 'dist', 'web')) {
  await mkdir(outdir, { recursive: true });
  await build({
    absWorkingDir: ROOT,
    entryPoints: { portal: 'web/portal/main.ts', capture: 'web/capture/main.ts' },
    outdir,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['chrome109', 'safari16', 'firefox115', 'edge109'],
    minify: true,
    legalComments: 'eof',
    logLevel: 'warning',
  });
  await Promise.all(
    ['portal/portal.html', 'capture/capture.html', 'styles.css'].map((file) =>
      copyFile(join(ROOT, 'web', file), join(outdir, file.split('/').pop() ?? file)),
    ),
  );
  return outdir;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildWebApps(process.argv[2] === undefined ? undefined : resolve(process.argv[2]));
}
