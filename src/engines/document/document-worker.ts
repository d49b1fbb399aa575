/**
 * Piscina worker of the document engine: loads OpenCV and the text recognisers once (at the warm-up, else at
 * the first task) and reads one document image at a time on this thread, so the server's event loop never waits on the
 * WebAssembly image processing, which is synchronous.
 */
import { workerData } from 'node:worker_threads';
import { ImageDecodeError } from '../face/image-decoding.js';
import { OcrbRecognizer } from './ocrb-recognizer.js';
import { loadOpenCv } from './opencv-runtime.js';
import { PaddleTextRecognizer } from './paddle-text-recognizer.js';
import { readDocument, type DocumentModels, type DocumentReading } from './read-document.js';
import { readVisualZone, type VisualZoneInput, type VisualZoneReading } from './read-visual-zone.js';
import { DEFAULT_VISUAL_ZONE_TEXT, VisualZoneText, type VisualZoneModelFiles } from './visual-zone-text.js';

/** One image to read: what `DocumentEngine.read` sends to a worker. */
export interface ReadTask {
  /** Encoded image bytes (JPEG, PNG, ...); empty for the warm-up task. */
  readonly image: Uint8Array;
}

/** Worker data the pool passes at start. */
export interface DocumentWorkerData {
  /** The PP-OCRv4 files of the MRZ recogniser and the visual zone; unset: the installed ones. */
  readonly ocrModels?: VisualZoneModelFiles | undefined;
}

export type ReadOutcome =
  | ({ readonly ok: true } & DocumentReading)
  | { readonly ok: false; readonly error: 'undecodable'; readonly message: string };

let models: Promise<DocumentModels> | undefined;

/** The PP-OCRv4 files DocumentEngine.start was given, if any (its workerData, typed there; null outside a pool). */
const ocrModels = (workerData as DocumentWorkerData | null)?.ocrModels;

async function loadModels(): Promise<DocumentModels> {
  const [cv, recognizer] = await Promise.all([loadOpenCv(), PaddleTextRecognizer.load(ocrModels)]);
  // Our OCR-B recogniser reads first; PaddleOCR only the bands it cannot read valid (read-document.ts).
  return { cv, recognizer, ocrb: OcrbRecognizer.load() };
}

let visualZoneText: Promise<VisualZoneText> | undefined;

function loadVisualZoneText(): Promise<VisualZoneText> {
  return ocrModels === undefined ? VisualZoneText.load() : VisualZoneText.load(DEFAULT_VISUAL_ZONE_TEXT, ocrModels);
}

/**
 * Loads the models of both tasks, the visual zone's checked (VisualZoneText.load); the engine's warm-up. A model
 * that fails rejects it with the error naming the file: the visual zone's first, since the MRZ recogniser reads the
 * same recognition model and dictionary unchecked (its error would not name the file).
 */
export async function warm(): Promise<void> {
  const [mrz, visualZone] = await Promise.allSettled([
    (models ??= loadModels()),
    (visualZoneText ??= loadVisualZoneText()),
  ]);
  if (visualZone.status === 'rejected') throw visualZone.reason;
  if (mrz.status === 'rejected') throw mrz.reason;
}

/** Reads one document image; decoding failures come back as a value, anything else throws. */
export default async function readDocumentTask(task: ReadTask): Promise<ReadOutcome> {
  const ready = await (models ??= loadModels());
  try {
    return { ok: true, ...(await readDocument(ready, task.image)) };
  } catch (error) {
    if (error instanceof ImageDecodeError) return { ok: false, error: 'undecodable', message: error.message };
    throw error;
  }
}

export type VisualZoneOutcome =
  | ({ readonly ok: true } & VisualZoneReading)
  | { readonly ok: false; readonly error: 'undecodable'; readonly message: string };

/** Reads the visual zone of one image (read-visual-zone.ts); its models load at the warm-up or at this task. */
export async function readVisualZoneTask(task: VisualZoneInput): Promise<VisualZoneOutcome> {
  const reader = await (visualZoneText ??= loadVisualZoneText());
  try {
    return { ok: true, ...(await readVisualZone(reader, task)) };
  } catch (error) {
    if (error instanceof ImageDecodeError) return { ok: false, error: 'undecodable', message: error.message };
    throw error;
  }
}
