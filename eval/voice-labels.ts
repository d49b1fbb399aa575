/**
 * The rows of a voice evaluation folder's `labels.csv` (`path, task, label, speaker, dataset, attack, text,
 * duration_s, speech_s, notes`, more columns ignored), with RFC 4180 quoting.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface VoiceLabel {
  /** Relative to the folder. */
  readonly path: string;
  readonly task: string;
  readonly label: string;
  readonly speaker: string;
  readonly dataset: string;
  readonly attack: string;
  readonly text: string;
  readonly durationSeconds: number | undefined;
  /** Seconds of speech when labelled. */
  readonly speechSeconds: number | undefined;
  readonly notes: Readonly<Record<string, string>>;
}

/** Splits CSV text into rows of fields: commas, double quotes around fields, "" for a quote inside one. */
function csvRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      if (row.some((value) => value !== '')) rows.push(row);
      row = [];
      field = '';
    } else field += char;
  }
  row.push(field);
  if (row.some((value) => value !== '')) rows.push(row);
  return rows;
}

function optionalNumber(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const number = Number(value);
  return Number.isFinite(number) ? number : undefined;
}

/**
 * Reads `<dir>/labels.csv`.
 *
 * @example
 * const rows = readVoiceLabels('../shared/data/voice').filter((row) => row.task === 'background');
 */
export function readVoiceLabels(dir: string): VoiceLabel[] {
  const [header, ...rows] = csvRows(readFileSync(join(dir, 'labels.csv'), 'utf8'));
  if (header === undefined) return [];
  const column = (name: string): number => {
    const index = header.indexOf(name);
    if (index < 0) throw new Error(`labels.csv has no ${name} column`);
    return index;
  };
  const at = Object.fromEntries(
    ['path', 'task', 'label', 'speaker', 'dataset', 'attack', 'text', 'duration_s', 'speech_s', 'notes'].map((name) => [
      name,
      column(name),
    ]),
  );
  const get = (row: readonly string[], name: string): string => row[at[name] ?? -1] ?? '';
  return rows.map((row) => ({
    path: get(row, 'path'),
    task: get(row, 'task'),
    label: get(row, 'label'),
    speaker: get(row, 'speaker'),
    dataset: get(row, 'dataset'),
    attack: get(row, 'attack'),
    text: get(row, 'text'),
    durationSeconds: optionalNumber(get(row, 'duration_s')),
    speechSeconds: optionalNumber(get(row, 'speech_s')),
    notes: Object.fromEntries(
      get(row, 'notes')
        .split(';')
        .filter((pair) => pair.includes('='))
        .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
    ),
  }));
}
