import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/**
 * Directory of an installed package, found from its main entry (some packages do not export `package.json`).
 *
 * @example
 * join(packageDir('@vladmandic/face-api'), 'model'); // .../node_modules/@vladmandic/face-api/model
 */
export function packageDir(name: string, distFolder = 'dist'): string {
  const main = require.resolve(name);
  const index = main.lastIndexOf(`/${distFolder}/`);
  return index > 0 ? main.slice(0, index) : dirname(main);
}

/**
 * Loads a CommonJS file of an installed package by path (for builds a package's `exports` map hides).
 *
 * @example
 * const { Human } = requirePackageFile<HumanModule>('@vladmandic/human', 'dist/human.node-wasm.js');
 */
export function requirePackageFile<T>(name: string, relativePath: string): T {
  return require(join(packageDir(name), relativePath)) as T;
}
