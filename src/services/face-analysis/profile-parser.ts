import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { isMetricName, METRICS, type MetricName } from '../../engines/face-quality/metric-catalog.js';
import type { ConstructionGeometry, FaceProfile, MetricRule, RangeRule, ValuesRule } from './profile.js';
import { invalidValue } from '../../server/errors/api-error.js';

/** A parsed profile, or every problem found in the XML (docs/face-analysis.md#profiles lists them). */
export type ParsedProfile = { readonly profile: FaceProfile } | { readonly errors: readonly string[] };

/** A rule before its metric is attached. */
type RuleBody = Omit<RangeRule, 'metric'> | Omit<ValuesRule, 'metric'>;

const ROOT = 'faceProfile';
const ROOT_ATTRIBUTES = ['name', 'description'] as const;
const CONSTRUCTION_ATTRIBUTES = ['width', 'height', 'eyeLineY', 'interEyeDistance', 'eyeCenterX'] as const;
const METRIC_ATTRIBUTES = ['name', 'min', 'max', 'values', 'required'] as const;
const MAX_SIDE = METRICS.IMAGE_WIDTH.max;
/** Errors reported at most; a longer list ends with a count of the rest. */
const MAX_ERRORS = 100;

/**
 * Reads a face profile (docs/face-analysis.md#profiles). Every problem is reported, each as one
 * string starting with its line and column: malformed XML, a wrong root, unknown elements and
 * attributes, unknown or repeated metrics, bounds that are not numbers, reversed or outside the
 * metric's range, and a missing or invalid construction.
 *
 * @example
 * const parsed = parseProfile(
 *   '<faceProfile name="p"><construction width="480" height="640" eyeLineY="0.45" interEyeDistance="0.25"/>' +
 *     '<metric name="HEAD_POSE_YAW" min="-8" max="8"/></faceProfile>',
 * );
 * if ('errors' in parsed) return { profileErrors: parsed.errors };
 */
export function parseProfile(xml: string): ParsedProfile {
  // A byte-order mark is not part of the document: leaving it out keeps columns as an editor shows them.
  const text = xml.startsWith('\uFEFF') ? xml.slice(1) : xml;
  const wellFormed = XMLValidator.validate(text);
  if (wellFormed !== true) {
    const { line, col, msg } = wellFormed.err;
    return { errors: [`${col === undefined ? `line ${line}` : `line ${line}, column ${col}`}: malformed XML: ${msg}`] };
  }
  const reader = new ProfileReader();
  const profile = reader.read(toElements(xmlNodes(parser.parse(text)), locator(text)));
  const { errors } = reader;
  if (errors.length > MAX_ERRORS)
    return { errors: [...errors.slice(0, MAX_ERRORS), `… and ${errors.length - MAX_ERRORS} more errors`] };
  return errors.length > 0 || profile === undefined ? { errors } : { profile };
}

/**
 * The `profileErrors` of validateProfile: empty when the profile is valid.
 *
 * @example
 * validateProfile('<faceProfile/>'); // ['line 1, column 1: <faceProfile> is missing the attribute name', ...]
 */
export function validateProfile(xml: string): readonly string[] {
  const parsed = parseProfile(xml);
  return 'errors' in parsed ? parsed.errors : [];
}

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseAttributeValue: false,
  parseTagValue: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  captureMetaData: true,
});
const META = metaDataKey();

/**
 * One node of fast-xml-parser's ordered output: `{ tag: children, ':@': attributes }` or
 * `{ '#text': text }`, with the node's metadata (`startIndex`) under {@link META}.
 */
type XmlNode = Readonly<Record<string | symbol, unknown>>;

/** The key of a node's metadata: a symbol (the library falls back to a property name without Symbol). */
function metaDataKey(): symbol {
  const key: unknown = XMLParser.getMetaDataSymbol();
  if (typeof key !== 'symbol') throw new Error('fast-xml-parser gives no metadata symbol');
  return key;
}

/** The parser's output (typed `any`) checked as a list of nodes. */
function xmlNodes(value: unknown): XmlNode[] {
  if (!Array.isArray(value) || !value.every((node) => isObject(node)))
    throw new Error('fast-xml-parser gave no list of nodes');
  return value;
}

function isObject(value: unknown): value is Readonly<Record<string | symbol, unknown>> {
  return typeof value === 'object' && value !== null;
}

/** A node's attributes: strings, as `parseAttributeValue: false` leaves them. */
function attributesOf(node: XmlNode): Record<string, string> {
  const attributes = node[':@'];
  if (attributes === undefined) return {};
  if (!isObject(attributes)) throw new Error('fast-xml-parser gave attributes that are not an object');
  const strings: Record<string, string> = {};
  for (const [name, value] of Object.entries(attributes)) {
    if (typeof value !== 'string') throw new Error(`fast-xml-parser gave attribute ${name} as ${typeof value}`);
    strings[name] = value;
  }
  return strings;
}

interface Element {
  readonly name: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly children: readonly Element[];
  readonly text: string;
  /** "line L, column C" of the element's `<`. */
  readonly at: string;
}

function toElements(
  nodes: readonly XmlNode[],
  locate: (index: number) => string,
  parentAt = 'line 1, column 1',
): Element[] {
  const elements: Element[] = [];
  for (const node of nodes) {
    const name = Object.keys(node).find((key) => key !== ':@');
    if (name === undefined || name === '#text' || name.startsWith('?')) continue;
    const meta = node[META];
    const start = isObject(meta) && typeof meta.startIndex === 'number' ? meta.startIndex : undefined;
    const at = start === undefined ? parentAt : locate(start);
    const content = xmlNodes(node[name]);
    const text = content
      .map((child) => child['#text'])
      .filter((value) => typeof value === 'string')
      .join(' ')
      .trim();
    elements.push({ name, attributes: attributesOf(node), children: toElements(content, locate, at), text, at });
  }
  return elements;
}

/** "line L, column C" of a character index, by binary search over the line starts (profiles may be long). */
function locator(xml: string): (index: number) => string {
  const lineStarts = [0];
  for (let i = xml.indexOf('\n'); i !== -1; i = xml.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  return (index) => {
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((lineStarts[middle] ?? 0) <= index) low = middle;
      else high = middle - 1;
    }
    return `line ${low + 1}, column ${index - (lineStarts[low] ?? 0) + 1}`;
  };
}

/** Checks one document and collects its errors; `read` gives the profile when it found none. */
class ProfileReader {
  readonly errors: string[] = [];

  read(roots: readonly Element[]): FaceProfile | undefined {
    const [root, ...extra] = roots;
    if (root === undefined) {
      this.errors.push(`line 1, column 1: the profile has no root element <${ROOT}>`);
      return undefined;
    }
    if (root.name !== ROOT) {
      this.errors.push(`${root.at}: the root element must be <${ROOT}>, found <${root.name}>`);
      return undefined;
    }
    this.checkAttributes(root, ROOT_ATTRIBUTES);
    this.checkNoText(root);
    const name = this.requiredText(root, 'name');
    let construction: ConstructionGeometry | undefined;
    let constructionAt: string | undefined;
    const rules: MetricRule[] = [];
    const seen = new Map<MetricName, string>();
    for (const child of root.children) {
      if (child.name === 'metric') {
        const rule = this.rule(child, seen);
        if (rule !== undefined) rules.push(rule);
      } else if (child.name !== 'construction') {
        this.errors.push(
          `${child.at}: unknown element <${child.name}> in <${ROOT}>; expected <construction> or <metric>`,
        );
      } else if (constructionAt !== undefined) {
        this.errors.push(`${child.at}: <construction> is given twice (first at ${constructionAt}); a profile has one`);
      } else {
        constructionAt = child.at;
        construction = this.construction(child);
      }
    }
    if (constructionAt === undefined) this.errors.push(`${root.at}: <${ROOT}> has no <construction> element`);
    for (const other of extra)
      this.errors.push(`${other.at}: a second root element <${other.name}>; a profile has one <${ROOT}>`);
    if (name === undefined || construction === undefined) return undefined;
    const description = root.attributes['description']?.trim();
    return { name, ...(description ? { description } : {}), construction, rules };
  }

  private construction(element: Element): ConstructionGeometry | undefined {
    this.checkAttributes(element, CONSTRUCTION_ATTRIBUTES);
    this.checkEmpty(element);
    const width = this.side(element, 'width');
    const height = this.side(element, 'height');
    const eyeLineY = this.share(element, 'eyeLineY');
    const interEyeDistance = this.share(element, 'interEyeDistance');
    const eyeCenterX = element.attributes['eyeCenterX'] === undefined ? 0.5 : this.share(element, 'eyeCenterX');
    if (
      width === undefined ||
      height === undefined ||
      eyeLineY === undefined ||
      interEyeDistance === undefined ||
      eyeCenterX === undefined
    )
      return undefined;
    if (eyeCenterX - interEyeDistance / 2 <= 0 || eyeCenterX + interEyeDistance / 2 >= 1) {
      this.errors.push(
        `${element.at}: <construction> puts an eye outside the image (eyeCenterX ${eyeCenterX} ± interEyeDistance ${interEyeDistance} / 2 must stay between 0 and 1)`,
      );
      return undefined;
    }
    return { width, height, eyeLineY, interEyeDistance, eyeCenterX };
  }

  /** A whole number of pixels from 1 to the catalog's largest image side. */
  private side(element: Element, attribute: string): number | undefined {
    const raw = this.requiredText(element, attribute);
    if (raw === undefined) return undefined;
    const value = toNumber(raw);
    if (value !== undefined && Number.isInteger(value) && value >= 1 && value <= MAX_SIDE) return value;
    this.errors.push(
      `${element.at}: <construction> ${attribute} must be a whole number of pixels from 1 to ${MAX_SIDE}, found "${raw}"`,
    );
    return undefined;
  }

  /** A share of the image side, strictly between 0 and 1. */
  private share(element: Element, attribute: string): number | undefined {
    const raw = this.requiredText(element, attribute);
    if (raw === undefined) return undefined;
    const value = toNumber(raw);
    if (value !== undefined && value > 0 && value < 1) return value;
    this.errors.push(
      `${element.at}: <construction> ${attribute} must be a number between 0 and 1 (exclusive), found "${raw}"`,
    );
    return undefined;
  }

  private rule(element: Element, seen: Map<MetricName, string>): MetricRule | undefined {
    this.checkAttributes(element, METRIC_ATTRIBUTES);
    this.checkEmpty(element);
    const name = this.requiredText(element, 'name');
    const metric = name === undefined ? undefined : this.metricName(element, name, seen);
    const body = this.ruleBody(element, name === undefined ? '<metric>' : `metric ${name}`, metric);
    return metric === undefined || body === undefined ? undefined : { metric, ...body };
  }

  private metricName(element: Element, name: string, seen: Map<MetricName, string>): MetricName | undefined {
    if (!isMetricName(name)) {
      this.errors.push(`${element.at}: unknown metric "${name}" (docs/face-analysis.md#metrics lists the names)`);
      return undefined;
    }
    const first = seen.get(name);
    if (first !== undefined) {
      this.errors.push(`${element.at}: metric ${name} is listed twice (first at ${first})`);
      return undefined;
    }
    seen.set(name, element.at);
    return name;
  }

  /** The rule's bounds or values, checked against the metric's range when the metric is known. */
  private ruleBody(element: Element, label: string, metric: MetricName | undefined): RuleBody | undefined {
    const { min: rawMin, max: rawMax, values: rawValues, required: rawRequired } = element.attributes;
    const required =
      rawRequired === undefined || rawRequired.trim() === 'true'
        ? true
        : rawRequired.trim() === 'false'
          ? false
          : undefined;
    if (required === undefined)
      this.errors.push(`${element.at}: ${label}: required must be true or false, found "${rawRequired}"`);
    if (rawValues !== undefined && (rawMin !== undefined || rawMax !== undefined)) {
      this.errors.push(`${element.at}: ${label}: values cannot be combined with min or max`);
      return undefined;
    }
    if (rawValues === undefined && rawMin === undefined && rawMax === undefined) {
      this.errors.push(`${element.at}: ${label} has no rule: give min and/or max, or values`);
      return undefined;
    }
    const inRange = (what: string, value: number | undefined): number | undefined =>
      this.inMetricRange(element, label, metric, what, value);
    if (rawValues !== undefined) {
      const values = this.valueList(element, label, rawValues)?.map((value) => inRange('value', value));
      return values === undefined || values.includes(undefined) || required === undefined
        ? undefined
        : { kind: 'values', required, values: values as number[] };
    }
    const min = rawMin === undefined ? undefined : inRange('min', this.bound(element, label, 'min', rawMin));
    const max = rawMax === undefined ? undefined : inRange('max', this.bound(element, label, 'max', rawMax));
    if (min !== undefined && max !== undefined && min > max) {
      this.errors.push(`${element.at}: ${label}: min ${min} is greater than max ${max}`);
      return undefined;
    }
    if (
      (rawMin !== undefined && min === undefined) ||
      (rawMax !== undefined && max === undefined) ||
      required === undefined
    )
      return undefined;
    return { kind: 'range', required, ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}) };
  }

  private bound(element: Element, label: string, attribute: string, raw: string): number | undefined {
    const value = toNumber(raw);
    if (value === undefined) this.errors.push(`${element.at}: ${label}: ${attribute} "${raw}" is not a number`);
    return value;
  }

  private valueList(element: Element, label: string, raw: string): number[] | undefined {
    const items = raw.split(/[\s,]+/).filter((item) => item !== '');
    if (items.length === 0) {
      this.errors.push(`${element.at}: ${label}: values is empty`);
      return undefined;
    }
    const values = items.map((item) => this.bound(element, label, 'value', item));
    return values.includes(undefined) ? undefined : (values as number[]);
  }

  private inMetricRange(
    element: Element,
    label: string,
    metric: MetricName | undefined,
    what: string,
    value: number | undefined,
  ): number | undefined {
    if (value === undefined || metric === undefined) return value;
    const { min, max } = METRICS[metric];
    if (value >= min && value <= max) return value;
    this.errors.push(`${element.at}: ${label}: ${what} ${value} is outside the metric's range ${min} to ${max}`);
    return undefined;
  }

  private requiredText(element: Element, attribute: string): string | undefined {
    const value = element.attributes[attribute]?.trim();
    if (value === undefined) this.errors.push(`${element.at}: <${element.name}> is missing the attribute ${attribute}`);
    else if (value === '') this.errors.push(`${element.at}: <${element.name}> has an empty ${attribute}`);
    return value || undefined;
  }

  private checkAttributes(element: Element, allowed: readonly string[]): void {
    for (const attribute of Object.keys(element.attributes)) {
      if (!allowed.includes(attribute))
        this.errors.push(
          `${element.at}: <${element.name}> has an unknown attribute ${attribute}; allowed: ${allowed.join(', ')}`,
        );
    }
  }

  private checkNoText(element: Element): void {
    if (element.text !== '')
      this.errors.push(`${element.at}: unexpected text "${abbreviate(element.text)}" in <${element.name}>`);
  }

  private checkEmpty(element: Element): void {
    this.checkNoText(element);
    for (const child of element.children)
      this.errors.push(
        `${child.at}: unexpected element <${child.name}> in <${element.name}>, which takes only attributes`,
      );
  }
}

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

function toNumber(raw: string): number | undefined {
  const text = raw.trim();
  const value = Number(text);
  return NUMBER.test(text) && Number.isFinite(value) ? value : undefined;
}

function abbreviate(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/**
 * The profile of a request, or a 400 -6 listing what is wrong with it (the same messages as
 * `validateProfile`, at most the first five).
 *
 * @example
 * const profile = requireProfile(body.profile.xml, 'profile.xml');
 * @throws {ApiError} 400 -6
 */
export function requireProfile(xml: string, field: string): FaceProfile {
  const parsed = parseProfile(xml);
  if ('profile' in parsed) return parsed.profile;
  const shown = parsed.errors.slice(0, 5).join('; ');
  throw invalidValue(
    `${field} is not a valid face profile: ${shown}${parsed.errors.length > 5 ? ` (and ${parsed.errors.length - 5} more; see /validateProfile)` : ''}`,
  );
}
