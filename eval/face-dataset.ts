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
    const [header = '', ...rows] = readFileSync(labels, 'utf8').trim().split('\n');
    const columns = header.split(',');
    const fileAt = columns.indexOf('file');
    const identityAt = columns.indexOf('identity');
    const livenessAt = columns.indexOf('liveness');
    return rows
      .map((row) => row.split(','))
      .flatMap((cells) => {
        const [file, identity] = [cells[fileAt], cells[identityAt]];
        // A row without a file or identity cell names no image.
        if (file === undefined || identity === undefined || !file.startsWith(folder)) return [];
        return livenessAt < 0 || cells[livenessAt] === 'live' ? [{ file: join(dir, file), identity }] : [];
      });
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
  const [header = '', ...rows] = readFileSync(join(dir, 'labels.csv'), 'utf8').trim().split('\n');
  const columns = header.split(',');
  const fileAt = columns.indexOf('file');
  const identityAt = columns.indexOf('identity');
  const livenessAt = columns.indexOf('liveness');
  return rows
    .map((row) => row.split(','))
    .flatMap((cells) => {
      const [file, person] = [cells[fileAt], cells[identityAt]];
      // A row without a file or identity cell names no image.
      if (file === undefined || person === undefined || !file.startsWith('pad/')) return [];
      return [{ file: join(dir, file), person, live: cells[livenessAt] === 'live' }];
    });
}
