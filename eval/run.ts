/**
 * `npm run eval -- <suite> <dir> [options]`: accuracy and speed evaluations on labelled data, each
 * printing a table and writing its report under reports/.
 *
 * Suites: `faces` (face recognition: eval/faces.ts).
 */
import { evalFaces } from './faces.js';

const SUITES: Readonly<Record<string, (argv: string[]) => Promise<void>>> = { faces: evalFaces };

const [suite, ...rest] = process.argv.slice(2);
const run = suite ? SUITES[suite] : undefined;
if (!run) {
  console.error(`usage: npm run eval -- <${Object.keys(SUITES).join('|')}> <dir> [options]`);
  process.exit(2);
}
await run(rest);
