import { test } from 'node:test';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { ESLint, RuleTester } from 'eslint';
import { layerBoundaries } from '../../../lint/layer-boundaries.js';

// RuleTester reports through these hooks; node:test supplies them.
const inline = (_name: string, run: () => void): void => run();
RuleTester.describe = inline;
RuleTester.it = inline;
RuleTester.itOnly = inline;

const srcRoot = path.resolve('/project/src');
const file = (relative: string) => path.join(srcRoot, relative);
const options = [{ srcRoot }];
const tester = new RuleTester({ languageOptions: { ecmaVersion: 2022, sourceType: 'module' } });

test('the layer-boundary rule allows the arrows of docs/architecture.md', () => {
  tester.run('layer-boundaries', layerBoundaries, {
    valid: [
      { code: "import { x } from './schemas.js';", filename: file('services/face-matching/index.ts'), options },
      {
        code: "import { x } from '../../engines/face/face-engine.js';",
        filename: file('services/onboarding/a.ts'),
        options,
      },
      {
        code: "import { x } from '../../server/errors/api-error.js';",
        filename: file('services/face-matching/a.ts'),
        options,
      },
      { code: "import { x } from './face-matching/index.js';", filename: file('services/index.ts'), options },
      { code: "import { x } from '../../lib/vectors.js';", filename: file('engines/face/a.ts'), options },
      { code: "import { x } from '../store/server-keys.js';", filename: file('crypto/a.ts'), options },
      { code: "import { x } from '../lib/seeded-random.js';", filename: file('client/a.ts'), options },
      { code: "import { x } from 'node:path';", filename: file('lib/a.ts'), options },
      {
        code: "import { x } from '../../biometric-matching/encounter-cache.js';",
        filename: file('services/voice-matching/a.ts'),
        options,
      },
      {
        code: "import { x } from '../server/errors/api-error.js';",
        filename: file('biometric-matching/a.ts'),
        options,
      },
      { code: "import { x } from '../engines/matching/a.js';", filename: file('biometric-matching/a.ts'), options },
    ],
    invalid: [
      {
        code: "import { x } from '../onboarding/enrollment.js';",
        filename: file('services/face-matching/a.ts'),
        options,
        errors: [{ message: /service 'face-matching' imports service 'onboarding'/ }],
      },
      {
        code: "export { x } from '../../services/face-matching/a.js';",
        filename: file('services/onboarding/a.ts'),
        options,
        errors: [{ message: /services never import each other/ }],
      },
      {
        code: "import { x } from '../../server/config.js';",
        filename: file('engines/face/a.ts'),
        options,
        errors: [{ message: /engines\/ imports server\// }],
      },
      {
        code: "const m = await import('../services/onboarding/index.js');",
        filename: file('store/a.ts'),
        options,
        errors: [{ message: /store\/ imports services\// }],
      },
      {
        code: "import { x } from '../store/database.js';",
        filename: file('engines/a.ts'),
        options,
        errors: [{ message: /engines compute and never touch the store/ }],
      },
      {
        code: "import { x } from '../crypto/envelope.js';",
        filename: file('client/a.ts'),
        options,
        errors: [{ message: /client\/ may import only client, lib\// }],
      },
      {
        code: "import { x } from '../engines/face/raster.js';",
        filename: file('lib/a.ts'),
        options,
        errors: [{ message: /lib\/ may import only lib\// }],
      },
      {
        code: "import { x } from '../services/face-matching/schemas.js';",
        filename: file('biometric-matching/a.ts'),
        options,
        errors: [{ message: /biometric-matching\/ imports services\// }],
      },
      {
        code: "import { x } from '../../biometric-matching/cache-name.js';",
        filename: file('engines/matching/a.ts'),
        options,
        errors: [{ message: /engines\/ imports biometric-matching\// }],
      },
    ],
  });
});

test("the project's own lint refuses a cross-service import and an engine importing the server", async () => {
  // The real eslint.config.js on snippets placed as files of the tree: what `npm run lint` would say.
  const root = fileURLToPath(new URL('../../../', import.meta.url));
  // Under CI=true typescript-eslint infers a single run and parses files from disk, not the text given here.
  const eslint = new ESLint({
    cwd: root,
    overrideConfig: { languageOptions: { parserOptions: { disallowAutomaticSingleRunInference: true } } },
  });
  const lint = async (code: string, file: string) => {
    const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
    return (result?.messages ?? []).filter((m) => m.ruleId === 'veriport/layer-boundaries').map((m) => m.message);
  };
  const crossService = await lint(
    "import { enrollmentFlow } from '../onboarding/enrollment.js';\nexport const flow = enrollmentFlow;\n",
    'src/services/face-matching/template-export.ts',
  );
  assert.deepEqual(crossService, [
    "service 'face-matching' imports service 'onboarding': services never import each other; " +
      'move the shared code down into engines/, store/, crypto/, lib/ or biometric-matching/',
  ]);
  const engineToServer = await lint(
    "import { loadConfig } from '../../server/config.js';\nexport const load = loadConfig;\n",
    'src/engines/face/rotation.ts',
  );
  assert.equal(engineToServer.length, 1);
  assert.match(engineToServer[0] ?? '', /engines\/ imports server\//);
});
