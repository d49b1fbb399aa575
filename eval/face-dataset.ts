import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export interface LabelledImage {
  readonly file: string;
  readonly identity: string;
}

/**
 * Live identity images of an evaluation folder: from `labels.csv` (columns `file,identity,liveness`;
 * rows under `folder` with liveness `live`) when present, else one sub-folder per identity.
 *
 * @example
 * loadIdentityImages('../shared/data/faces/dev');         // the LFW identity set
 * loadIdentityImages('../shared/data/faces/dev', 'pad/'); // the live images of the PAD set
 */
export function loadIdentityImages(dir: string, folder = 'identity/'): LabelledImage[] {
  const labels = join(dir, 'labels.csv');
  if (existsSync(labels)) {
    const [header, ...rows] = readFileSync(labels, 'utf8').trim().split('\n');
    const columns = header!.split(',');
    const fileAt = columns.indexOf('file');
    const identityAt = columns.indexOf('identity');
    const livenessAt = columns.indexOf('liveness');
    return rows
      .map((row) => row.split(','))
      .filter((cells) => cells[fileAt]!.startsWith(folder) && (livenessAt < 0 || cells[livenessAt] === 'live'))
      .map((cells) => ({ file: join(dir, cells[fileAt]!), identity: cells[identityAt]! }));
  }
  const images: LabelledImage[] = [];
  for (const identity of readdirSync(dir).sort()) {
    const folder = join(dir, identity);
    if (!statSync(folder).isDirectory()) continue;
    for (const name of readdirSync(folder).sort()) {
      if (/\.(jpe?g|png|webp)$/i.test(name)) images.push({ file: join(folder, name), identity: relative(dir, folder) });
    }
  }
  return images;
}

export interface PadImage {
  readonly file: string;
  /** The person (labels.csv identity): splits and groupings are by person. */
  readonly person: string;
  readonly live: boolean;
}

/** The presentation-attack images of an evaluation folder (`labels.csv` rows under `pad/`). */
export function loadPadImages(dir: string): PadImage[] {
  const [header, ...rows] = readFileSync(join(dir, 'labels.csv'), 'utf8').trim().split('\n');
  const columns = header!.split(',');
  const [fileAt, identityAt, livenessAt] = ['file', 'identity', 'liveness'].map((name) => columns.indexOf(name));
  return rows
    .map((row) => row.split(','))
    .filter((cells) => cells[fileAt!]!.startsWith('pad/'))
    .map((cells) => ({
      file: join(dir, cells[fileAt!]!),
      person: cells[identityAt!]!,
      live: cells[livenessAt!] === 'live',
    }));
}
