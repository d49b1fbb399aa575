/** One captured frame: JPEG bytes and the wall-clock time it was taken. */
export interface CapturedFrame {
  readonly image: Uint8Array<ArrayBuffer>;
  readonly timestamp: number;
}

/** JPEG quality of the frames sent: a camera app's usual. */
const JPEG_QUALITY = 0.92;

/**
 * The front camera through `getUserMedia`, shown in a `<video>` (mirrored by the style sheet, as a selfie
 * preview is), and frames taken from it as JPEG: each a new camera frame (never the same frame twice, which
 * the liveness engine would take for a replayed still), unmirrored, at the camera's resolution.
 */
export class Camera {
  private readonly canvas = document.createElement('canvas');
  private lastTaken = { time: -Infinity, frame: -1 };

  private constructor(
    private readonly video: HTMLVideoElement,
    private readonly stream: MediaStream,
  ) {}

  /**
   * Opens the front camera into `video`.
   *
   * @example
   * const camera = await Camera.open(element('preview', HTMLVideoElement));
   * @throws {Error} when the browser has no camera access here (needs HTTPS) or the user refused it
   */
  static async open(video: HTMLVideoElement): Promise<Camera> {
    if (!('mediaDevices' in navigator))
      throw new Error('this browser gives no camera access on this page (it needs HTTPS)');
    const stream = await navigator.mediaDevices.getUserMedia({
      audio: false,
      video: { facingMode: 'user', width: { ideal: 480 }, height: { ideal: 640 } },
    });
    video.muted = true;
    video.playsInline = true;
    video.srcObject = stream;
    await video.play();
    return new Camera(video, stream);
  }

  /**
   * Takes the next camera frame that comes at least `minGapMs` after the last one taken, as JPEG.
   *
   * @example
   * const frame = await camera.takeFrame(150); // { image, timestamp: Date.now() at the frame }
   */
  async takeFrame(minGapMs = 0): Promise<CapturedFrame> {
    const { video } = this;
    await new Promise<void>((resolve) => {
      const poll = (now: number, frame: number) => {
        if (frame > this.lastTaken.frame && now >= this.lastTaken.time + minGapMs) {
          // Drawn in the frame's own callback: the canvas holds exactly this frame.
          this.canvas.width = video.videoWidth;
          this.canvas.height = video.videoHeight;
          this.canvas.getContext('2d')?.drawImage(video, 0, 0);
          this.lastTaken = { time: now, frame };
          resolve();
        } else wait();
      };
      const wait = () => {
        if ('requestVideoFrameCallback' in video)
          video.requestVideoFrameCallback((now, metadata) => poll(now, metadata.presentedFrames));
        else setTimeout(() => poll(performance.now(), this.lastTaken.frame + 1), 1000 / 30);
      };
      wait();
    });
    const timestamp = Date.now();
    const blob = await new Promise<Blob | null>((resolve) => this.canvas.toBlob(resolve, 'image/jpeg', JPEG_QUALITY));
    if (blob === null) throw new Error('the camera frame could not be encoded');
    return { image: new Uint8Array(await blob.arrayBuffer()), timestamp };
  }

  /** Stops the camera (its light goes off). */
  close(): void {
    for (const track of this.stream.getTracks()) track.stop();
    this.video.srcObject = null;
  }
}
