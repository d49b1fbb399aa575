// @ts-check
/**
 * ESLint rule that keeps the layers of docs/architecture.md: it resolves every relative import
 * against the importing file and refuses the arrows the architecture forbids.
 *
 * @example
 * // eslint.config.js
 * import { layerBoundaries } from './lint/layer-boundaries.js';
 * export default [{ plugins: { veriport: { rules: { 'layer-boundaries': layerBoundaries } } },
 *   rules: { 'veriport/layer-boundaries': 'error' } }];
 */
import path from 'node:path';

/** Layers (first folder under src/) that must stay free of HTTP, services and the CLI. */
const LOWER_LAYERS = new Set(['engines', 'store', 'crypto', 'lib', 'client']);
const UPPER_LAYERS = new Set(['server', 'services', 'cli', 'biometric-matching']);
/** What each self-contained layer may import besides itself. */
const ONLY_FROM = new Map([
  ['lib', new Set(['lib'])],
  ['client', new Set(['client', 'lib'])],
]);

/**
 * Where a file sits under src/: its layer and, for services, the service folder.
 * @param {string} file absolute path
 * @param {string} srcRoot absolute path of src/
 * @returns {{ layer: string, service?: string } | undefined}
 */
function placeOf(file, srcRoot) {
  const relative = path.relative(srcRoot, file);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
  const parts = relative.split(path.sep);
  const layer = parts[0];
  if (layer === undefined || parts.length < 2) return undefined;
  // src/services/index.ts is the registry of services, not a service.
  const service = layer === 'services' && parts.length > 2 ? parts[1] : undefined;
  return service === undefined ? { layer } : { layer, service };
}

/**
 * Why an import from `from` to `to` breaks the architecture, or undefined when it is allowed.
 * @param {{ layer: string, service?: string }} from
 * @param {{ layer: string, service?: string }} to
 * @returns {string | undefined}
 */
export function boundaryViolation(from, to) {
  if (from.service !== undefined && to.service !== undefined && from.service !== to.service) {
    return `service '${from.service}' imports service '${to.service}': services never import each other; move the shared code down into engines/, store/, crypto/, lib/ or biometric-matching/`;
  }
  // The domain code face and voice matching share sits under the services, never beside them.
  if (from.layer === 'biometric-matching' && (to.layer === 'services' || to.layer === 'cli')) {
    return `biometric-matching/ imports ${to.layer}/: the shared matching domain serves the services and never imports them`;
  }
  const allowed = ONLY_FROM.get(from.layer);
  if (allowed !== undefined && !allowed.has(to.layer)) {
    return `${from.layer}/ imports ${to.layer}/: ${from.layer}/ may import only ${[...allowed].join(', ')}/`;
  }
  if (LOWER_LAYERS.has(from.layer) && UPPER_LAYERS.has(to.layer)) {
    return `${from.layer}/ imports ${to.layer}/: the lower layers never import server/, services/, cli/ or biometric-matching/`;
  }
  if (from.layer === 'engines' && to.layer === 'store') {
    return 'engines/ imports store/: engines compute and never touch the store';
  }
  return undefined;
}

/** @type {import('eslint').Rule.RuleModule} */
export const layerBoundaries = {
  meta: {
    type: 'problem',
    docs: { description: 'Keep the import arrows of docs/architecture.md' },
    schema: [{ type: 'object', properties: { srcRoot: { type: 'string' } }, additionalProperties: false }],
    messages: { violation: '{{why}}' },
  },
  create(context) {
    const options = /** @type {{ srcRoot?: string } | undefined} */ (context.options[0]);
    const srcRoot = path.resolve(context.cwd, options?.srcRoot ?? 'src');
    const from = placeOf(context.filename, srcRoot);
    if (from === undefined) return {};
    /** @param {import('estree').Node | null | undefined} source */
    const check = (source) => {
      if (source?.type !== 'Literal' || typeof source.value !== 'string' || !source.value.startsWith('.')) return;
      const to = placeOf(path.resolve(path.dirname(context.filename), source.value), srcRoot);
      const why = to === undefined ? undefined : boundaryViolation(from, to);
      if (why !== undefined) context.report({ node: source, messageId: 'violation', data: { why } });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
  },
};
