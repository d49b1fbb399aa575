import sharp from 'sharp';
import { angleOf, polygonArea, type Quad } from './document-geometry.js';
import { decodeDocumentImage } from './document-image.js';
import type { RgbImage } from './gray-image.js';
import { visualZoneFields, type VisualZoneFields } from './visual-zone-fields.js';
import type { VisualTextLine, VisualZoneText } from './visual-zone-text.js';

/** What the visual zone of one image is read from. */
export interface VisualZoneInput {
  /** The image as sent (JPEG, PNG...). */
  readonly frame: Uint8Array;
  /** The page `readDocument` cropped around the MRZ (JPEG, upright), its corners in the decoded frame; null without. */
  readonly page: { readonly jpeg: Uint8Array; readonly quad: Quad } | null;
  /** The day two-digit years count from (ms since the epoch). */
  readonly referenceDate: number;
  /** Numeric dates are month first (`10/04/49`): the issuer is the United States, as its MRZ says. */
  readonly monthFirst?: boolean;
}

/** The visual zone as read. */
export interface VisualZoneReading {
  /** `page`: the cropped page; `frame`: the whole image (no page, or the page gave neither name nor date). */
  readonly source: 'page' | 'frame';
  readonly lines: readonly VisualTextLine[];
  readonly fields: VisualZoneFields;
  /** Wall and process CPU milliseconds of the read. */
  readonly ms: number;
  readonly cpuMs: number;
}

/**
 * Below this share of the frame, a page that gave neither a name nor a date leaves room for another side of the
 * document in the frame (an ID card's front photographed beside its back, whose MRZ located the page).
 */
const OTHER_SIDE_ROOM = 0.6;

/**
 * Reads the visual inspection zone of a document image: the text lines of the page crop (visual-zone-text.ts)
 * turned into fields (visual-zone-fields.ts). The whole frame, turned upright as the page is, is read instead
 * when there is no page, or when the page gave neither a name nor a date and covers less than 60 % of the frame
 * (the front of a card beside its MRZ side).
 *
 * @example
 * const viz = await readVisualZone(reader, { frame: jpeg, page: reading.page, referenceDate: Date.now() });
 * viz.fields.surname?.value; // 'ERIKSSON'
 * @throws {ImageDecodeError} when the page, or the frame where it is read, is not a supported image
 */
export async function readVisualZone(reader: VisualZoneText, input: VisualZoneInput): Promise<VisualZoneReading> {
  const started = { wall: performance.now(), cpu: cpuNowMs() };
  const reading = { referenceDate: new Date(input.referenceDate), monthFirst: input.monthFirst ?? false };
  const finish = (source: VisualZoneReading['source'], lines: VisualTextLine[], fields: VisualZoneFields) => ({
    source,
    lines,
    fields,
    ms: performance.now() - started.wall,
    cpuMs: cpuNowMs() - started.cpu,
  });
  let onPage: { lines: VisualTextLine[]; fields: VisualZoneFields } | null = null;
  if (input.page) {
    const lines = await reader.read(await decodeDocumentImage(input.page.jpeg));
    onPage = { lines, fields: visualZoneFields(lines, reading.referenceDate, reading) };
    // Most pages give a name or a date: the frame is decoded only when they do not.
    if (onPage.fields.surname || onPage.fields.dateOfBirth) return finish('page', onPage.lines, onPage.fields);
  }
  const frame = await decodeDocumentImage(input.frame);
  if (input.page && onPage && polygonArea(input.page.quad) / (frame.width * frame.height) >= OTHER_SIDE_ROOM) {
    return finish('page', onPage.lines, onPage.fields);
  }
  const upright = input.page ? await turnUpright(frame, input.page.quad) : frame;
  const lines = await reader.read(upright);
  return finish('frame', lines, visualZoneFields(lines, reading.referenceDate, reading));
}

/** The frame turned by the quarter turns that make the page's top edge run left to right. */
async function turnUpright(frame: RgbImage, quad: Quad): Promise<RgbImage> {
  const quarter = ((Math.round(angleOf(quad[0], quad[1]) / 90) % 4) + 4) % 4;
  if (quarter === 0) return frame;
  const { data, info } = await sharp(frame.data, { raw: { width: frame.width, height: frame.height, channels: 3 } })
    .rotate(360 - 90 * quarter)
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height };
}

function cpuNowMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}
