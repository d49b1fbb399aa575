import { ImageDecodeError } from '../../engines/face/image-decoding.js';
import { MrzInputError } from '../../engines/document/mrz/mrz-input-error.js';
import type { MrzRepairResult } from '../../engines/document/mrz/mrz-types.js';
import { repairMrz } from '../../engines/document/mrz/repair-mrz.js';
import type { MrzRead } from '../../engines/document/mrz-read.js';
import { ApiError, ErrorCode, invalidValue } from '../../server/errors/api-error.js';
import type { DocumentAutocaptureContext } from './autocapture-context.js';
import { documentKind, type DocumentKind } from './document-kinds.js';
import { frameFeedback } from './frame-feedback.js';
import { checkFrameImage, DocumentImageCode } from './frame-image.js';
import type { AutocaptureDocumentRequest, AutocaptureDocumentResponse, DocumentFeedback } from './schemas.js';

/** Images per call: each costs the engine about a second on one core; live capture sends one. */
export const MAX_IMAGES = 10;
/** A multi-frame capture needs two frames among this many consecutive ones to read the same MRZ. */
export const AGREEMENT_WINDOW = 5;

interface FrameOutcome {
  readonly feedback: DocumentFeedback;
  readonly mrz: MrzRepairResult | null;
}

/**
 * Autocapture over the frames of one call: feedback per frame (frame-feedback.ts) and the capture. A
 * frame is captured when it is DOCUMENT_FOUND and its MRZ is trustworthy: with one frame, every check
 * digit valid (after repair; in strict mode valid as read, nothing repaired); with several, the same
 * repaired MRZ read in another DOCUMENT_FOUND frame among the last AGREEMENT_WINDOW (strict: both valid
 * as read). The first such frame is `capturedImageIndex`.
 *
 * @example
 * const body = { workflow: { documentType: 'PASSPORT' }, images: [{ data }] };
 * const { results } = await autocaptureDocument(context, body);
 * results.imageResults[0].feedback; // 'DOCUMENT_FOUND'
 * @throws {ApiError} 400 -3 without images, -6 for a bad workflow or too many images, -7/-8 for bad images
 */
export async function autocaptureDocument(
  context: DocumentAutocaptureContext,
  request: AutocaptureDocumentRequest,
): Promise<AutocaptureDocumentResponse> {
  const kind = documentKind(request.workflow);
  if (request.images.length === 0)
    throw new ApiError(400, ErrorCode.missingField, "mandatory field missing: 'images[0]'");
  if (request.images.length > MAX_IMAGES) throw invalidValue(`images holds at most ${MAX_IMAGES} images`);
  const frames = request.images.map((image) => Buffer.from(image.data, 'base64'));
  // Every header first, so a bad last frame is refused before any engine time is spent.
  for (const [index, bytes] of frames.entries()) await checkFrameImage(bytes, index);
  const outcomes: FrameOutcome[] = [];
  for (const [index, bytes] of frames.entries()) outcomes.push(await analyzeFrame(context, kind, bytes, index));
  const capturedImageIndex = outcomes.findIndex((_, index) => capturable(kind, outcomes, index));
  return {
    results: {
      captured: capturedImageIndex >= 0,
      capturedImageIndex,
      imageResults: outcomes.map((outcome, imageIndex) => ({ imageIndex, feedback: outcome.feedback })),
    },
  };
}

async function analyzeFrame(
  context: DocumentAutocaptureContext,
  kind: DocumentKind,
  bytes: Uint8Array,
  index: number,
): Promise<FrameOutcome> {
  let reading;
  try {
    reading = await context.documentEngine().read(bytes);
  } catch (error) {
    if (error instanceof ImageDecodeError) {
      throw new ApiError(400, DocumentImageCode.imageDataInvalid, `images[${index}].data: ${error.message}`);
    }
    throw error;
  }
  const mrz = parseRead(reading.mrz);
  return { feedback: frameFeedback(kind, reading, mrz), mrz };
}

/** The read repaired on its OCR evidence: only characters the OCR was unsure of are repaired. */
function parseRead(read: MrzRead | null): MrzRepairResult | null {
  if (read === null) return null;
  try {
    return repairMrz(read.lines, { evidence: read.evidence });
  } catch (error) {
    if (error instanceof MrzInputError) return null;
    throw error;
  }
}

function trusted(kind: DocumentKind, mrz: MrzRepairResult): boolean {
  return mrz.valid && (!kind.strict || mrz.changes.length === 0);
}

function capturable(kind: DocumentKind, outcomes: readonly FrameOutcome[], index: number): boolean {
  const outcome = outcomes[index];
  if (outcome?.feedback !== 'DOCUMENT_FOUND' || outcome.mrz === null) return false;
  const { mrz } = outcome;
  if (outcomes.length === 1) return trusted(kind, mrz);
  if (kind.strict && !trusted(kind, mrz)) return false;
  const key = mrz.lines.join('\n');
  return outcomes
    .slice(Math.max(0, index - AGREEMENT_WINDOW + 1), index)
    .some(
      (earlier) =>
        earlier.feedback === 'DOCUMENT_FOUND' &&
        earlier.mrz !== null &&
        earlier.mrz.lines.join('\n') === key &&
        (!kind.strict || trusted(kind, earlier.mrz)),
    );
}
