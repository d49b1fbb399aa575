/**
 * The visual-zone reading (part of `npm run eval -- documents <dir>`; issue 17's "OCR of the visual zone where
 * read"): each image of `<dir>/truth.json` with an MRZ is read as the validation service reads it —
 * `readDocument` for the MRZ and the page, then `readVisualZone` (engines/document/read-visual-zone.ts) — and the
 * printed surname, given names, dates of birth and expiry are compared with the same person's data in the MRZ
 * truth: names as the MRZ writes them (visual-zone-security.ts `sameName`, no truncation allowance), dates on day,
 * month and the year's last two digits. Also counted: the `VIZ_MRZ_MISMATCH` reasons the service would give
 * against the MRZ read (each a false alarm when the specimen prints what its MRZ holds), and the CPU ms of the
 * visual-zone step. With `--rendered N`, N pages generated from the library MRZ strings with their values
 * printed (test/helpers/document-render.ts `printedFields`; turned 3°, blur 0.5 px, JPEG 85) are read the same
 * way. Writes reports/document-visual-zone-eval.{md,json}.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MrzInputError } from '../src/engines/document/mrz/mrz-input-error.js';
import type { MrzDate, MrzParseResult } from '../src/engines/document/mrz/mrz-types.js';
import { parseMrz } from '../src/engines/document/mrz/parse-mrz.js';
import { repairMrz } from '../src/engines/document/mrz/repair-mrz.js';
import { readDocument, type DocumentModels } from '../src/engines/document/read-document.js';
import { readVisualZone } from '../src/engines/document/read-visual-zone.js';
import type { PrintedDate, VisualZoneFields } from '../src/engines/document/visual-zone-fields.js';
import { VisualZoneText } from '../src/engines/document/visual-zone-text.js';
import { sameName, visualZoneConflicts } from '../src/services/document-validation/visual-zone-security.js';
import { median } from '../src/lib/median.js';
import { photographPage, printedFields, type RenderedLayout } from '../test/helpers/document-render.js';

/** One image of the evaluation with its MRZ truth lines. */
export interface VisualZoneCase {
  readonly name: string;
  readonly bytes: Uint8Array;
  readonly truth: readonly string[];
}

type Field = 'surname' | 'givenNames' | 'dateOfBirth' | 'dateOfExpiry';
const FIELDS: readonly Field[] = ['surname', 'givenNames', 'dateOfBirth', 'dateOfExpiry'];

/** Per field: `exact`, `wrong` (read but differs), `-` (not read), `n/a` (the truth has none: not counted). */
type Outcome = 'exact' | 'wrong' | '-' | 'n/a';

interface CaseResult {
  readonly name: string;
  readonly source: string;
  readonly fields: Readonly<Record<Field, Outcome>>;
  readonly read: Readonly<Record<Field, string>>;
  readonly conflicts: readonly string[];
  readonly cpuMs: number;
}

async function evaluateCase(
  models: DocumentModels,
  reader: VisualZoneText,
  item: VisualZoneCase,
  referenceDate: Date,
): Promise<CaseResult> {
  const truth = parseMrz(item.truth, { referenceDate });
  const reading = await readDocument(models, item.bytes);
  let mrz: MrzParseResult | null = null;
  if (reading.mrz) {
    try {
      mrz = repairMrz(reading.mrz.lines, { referenceDate, evidence: reading.mrz.evidence });
    } catch (error) {
      if (!(error instanceof MrzInputError)) throw error;
    }
  }
  const viz = await readVisualZone(reader, {
    frame: item.bytes,
    page: reading.page,
    referenceDate: referenceDate.getTime(),
    monthFirst: mrz?.fields.issuingState.value === 'USA',
  });
  const { fields } = viz;
  const outcomes: Record<Field, Outcome> = {
    surname: nameOutcome(fields.surname?.value, truth.fields.surname.value),
    givenNames: nameOutcome(fields.givenNames?.value, truth.fields.givenNames.value),
    dateOfBirth: dateOutcome(fields.dateOfBirth?.value, truth.fields.dateOfBirth.date),
    dateOfExpiry: dateOutcome(fields.dateOfExpiry?.value, truth.fields.dateOfExpiry?.date ?? null),
  };
  return {
    name: item.name,
    source: viz.source,
    fields: outcomes,
    read: readTexts(fields),
    conflicts: mrz === null ? [] : visualZoneConflicts(fields, mrz).filter((r) => r !== 'VIZ_MRZ_MISMATCH'),
    cpuMs: viz.cpuMs,
  };
}

function nameOutcome(read: string | undefined, truth: string): Outcome {
  if (truth === '') return 'n/a';
  if (read === undefined) return '-';
  return sameName(read, truth, false) ? 'exact' : 'wrong';
}

function dateOutcome(read: PrintedDate | undefined, truth: MrzDate | null): Outcome {
  if (read === undefined) return '-';
  if (truth === null) return 'wrong';
  return read.year % 100 === truth.year % 100 && read.month === truth.month && read.day === truth.day
    ? 'exact'
    : 'wrong';
}

function readTexts(fields: VisualZoneFields): Record<Field, string> {
  return {
    surname: fields.surname?.value ?? '',
    givenNames: fields.givenNames?.value ?? '',
    dateOfBirth: fields.dateOfBirth?.value.text ?? '',
    dateOfExpiry: fields.dateOfExpiry?.value.text ?? '',
  };
}

function summary(results: readonly CaseResult[]) {
  const share = (n: number, of = results.length) => (of > 0 ? Math.round((1000 * n) / of) / 10 : 0);
  const perField = Object.fromEntries(
    FIELDS.map((f) => [
      f,
      {
        exactPercent: share(
          results.filter((r) => r.fields[f] === 'exact').length,
          results.filter((r) => r.fields[f] !== 'n/a').length,
        ),
        wrong: results.filter((r) => r.fields[f] === 'wrong').length,
        notRead: results.filter((r) => r.fields[f] === '-').length,
      },
    ]),
  ) as Record<Field, { exactPercent: number; wrong: number; notRead: number }>;
  const cpu = results.map((r) => r.cpuMs);
  return {
    images: results.length,
    perField,
    nameAndDatesAllExactPercent: share(
      results.filter((r) => FIELDS.every((f) => r.fields[f] === 'exact' || r.fields[f] === 'n/a')).length,
    ),
    imagesWithConflicts: results.filter((r) => r.conflicts.length > 0).length,
    cpuMsMedian: Math.round(median(cpu, 'mean')),
    cpuMsMax: Math.round(Math.max(0, ...cpu)),
  };
}

function markdown(title: string, results: readonly CaseResult[]): string[] {
  const s = summary(results);
  return [
    `## ${title}`,
    '',
    `- images ${s.images}; every one of surname, given names, birth and expiry exact: ${s.nameAndDatesAllExactPercent} %`,
    ...FIELDS.map(
      (f) =>
        `- ${f}: exact ${s.perField[f].exactPercent} % (of images whose MRZ has one), read wrong ` +
        `${s.perField[f].wrong}, not read ${s.perField[f].notRead}`,
    ),
    `- images with a VIZ_MRZ_MISMATCH reason against the MRZ read: ${s.imagesWithConflicts}`,
    `- visual-zone CPU ms per image: median ${s.cpuMsMedian}, max ${s.cpuMsMax} (one thread, shared machine)`,
    '',
    '| image | read from | surname | given names | birth | expiry | reasons | CPU ms |',
    '|---|---|---|---|---|---|---|---|',
    ...results.map(
      (r) =>
        `| ${r.name} | ${r.source} | ${cell(r, 'surname')} | ${cell(r, 'givenNames')} | ${cell(r, 'dateOfBirth')} | ` +
        `${cell(r, 'dateOfExpiry')} | ${r.conflicts.join(' ') || '-'} | ${Math.round(r.cpuMs)} |`,
    ),
    '',
  ];
}

function cell(r: CaseResult, f: Field): string {
  const outcome = r.fields[f];
  return outcome === '-' || outcome === 'n/a' ? outcome : `${outcome} (\`${r.read[f].replace(/\|/g, '/')}\`)`;
}

/** Layout a library MRZ string is rendered on. */
const RENDER_LAYOUT: Readonly<Record<string, RenderedLayout>> = { TD1: 'TD1', TD2: 'TD2', TD3: 'TD3' };

/**
 * Runs the visual-zone evaluation on the photos of `dir` and, with `rendered` > 0, that many generated pages;
 * writes the report and returns its markdown.
 *
 * @example
 * const md = await writeVisualZoneReport(models, '../shared/data/documents/dev', photos, 20, 'npm run eval ...');
 */
export async function writeVisualZoneReport(
  models: DocumentModels,
  dir: string,
  photos: readonly VisualZoneCase[],
  rendered: number,
  generatedBy: string,
): Promise<string> {
  const reader = await VisualZoneText.load();
  const referenceDate = new Date();
  const photoResults: CaseResult[] = [];
  for (const item of photos) photoResults.push(await evaluateCase(models, reader, item, referenceDate));
  const renderedResults: CaseResult[] = [];
  if (rendered > 0) {
    const strings: unknown = JSON.parse(readFileSync(join(dir, 'mrz_test_strings.json'), 'utf8'));
    if (!Array.isArray(strings)) throw new Error('mrz_test_strings.json: unexpected shape');
    for (const [i, entry] of strings.entries()) {
      if (renderedResults.length >= rendered) break;
      const s = renderedString(entry);
      const layout = s === null ? undefined : RENDER_LAYOUT[s.format];
      if (s === null || layout === undefined || !s.checkDigitsValid) continue;
      const truth = parseMrz(s.lines, { referenceDate });
      const f = truth.fields;
      const printed = printedFields(
        {
          surname: f.surname.value,
          givenNames: f.givenNames.value,
          dateOfBirth: f.dateOfBirth.raw,
          dateOfExpiry: f.dateOfExpiry?.raw ?? f.dateOfBirth.raw,
          documentNumber: f.documentNumber.value,
          nationality: f.nationality?.value ?? '',
          sex: f.sex.raw,
        },
        { numericDates: i % 2 === 1 },
      );
      if (!/^\d{6}$/.test(f.dateOfBirth.raw) || !/^\d{6}$/.test(f.dateOfExpiry?.raw ?? '')) continue;
      const jpeg = await photographPage(layout, s.lines, { printed, rotate: 3, blur: 0.5, quality: 85 });
      renderedResults.push(
        await evaluateCase(models, reader, { name: `string ${i + 1}`, bytes: jpeg, truth: s.lines }, referenceDate),
      );
    }
  }
  const report = {
    generatedBy,
    photos: { summary: summary(photoResults), images: photoResults },
    rendered: renderedResults.length > 0 ? { summary: summary(renderedResults), images: renderedResults } : null,
  };
  mkdirSync('reports', { recursive: true });
  writeFileSync('reports/document-visual-zone-eval.json', `${JSON.stringify(report, null, 2)}\n`);
  const md = [
    '# Visual inspection zone',
    '',
    `\`${generatedBy}\``,
    '',
    ...markdown('Photos (names and dates against the MRZ truth)', photoResults),
    ...(renderedResults.length > 0
      ? markdown('Generated pages (library MRZ strings, values printed; turned 3°, blur 0.5, JPEG 85)', renderedResults)
      : []),
  ].join('\n');
  writeFileSync('reports/document-visual-zone-eval.md', md);
  return md;
}

function renderedString(value: unknown): { format: string; lines: string[]; checkDigitsValid: boolean } | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  const { format, lines, checkDigitsValid } = v;
  if (typeof format !== 'string' || typeof checkDigitsValid !== 'boolean' || !Array.isArray(lines)) return null;
  const text = lines.filter((l): l is string => typeof l === 'string');
  return text.length === lines.length ? { format, lines: text, checkDigitsValid } : null;
}
