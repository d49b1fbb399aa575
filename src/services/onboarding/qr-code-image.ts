import QRCode from 'qrcode';
import sharp from 'sharp';

/** Width and height of the PNG in pixels: a 560-character link (QR version ~16, 81 modules) at 5 px a module. */
export const QR_CODE_WIDTH = 480;
/** The quiet zone ISO/IEC 18004 asks for around the code, in modules (at least; the centring may add pixels). */
const QUIET_ZONE = 4;

/**
 * The `qrcodeImage` of a trigger answer (Doc 1): a PNG of the QR code of `url`, base64 (standard alphabet,
 * as `data:image/png;base64,` takes it). npm `qrcode` (MIT) computes the code (error correction M: 15% of it
 * may be unreadable); sharp draws it, black on white, 8-bit grey, an integer number of pixels per module
 * (crisp edges for a camera), centred in {@link QR_CODE_WIDTH} square pixels. sharp encodes off the event
 * loop: about 15 ms a code here, where `qrcode`'s own PNG writer took about 100 ms on the event loop.
 *
 * @example
 * const qrcodeImage = await qrCodeImage('https://id.example.com/capture?data=...');
 * // <img src={`data:image/png;base64,${qrcodeImage}`}>
 */
export async function qrCodeImage(url: string): Promise<string> {
  const { modules } = QRCode.create(url, { errorCorrectionLevel: 'M' });
  const total = modules.size + 2 * QUIET_ZONE;
  const scale = Math.floor(QR_CODE_WIDTH / total);
  if (scale < 1) throw new Error(`a QR code of ${modules.size} modules does not fit ${QR_CODE_WIDTH} pixels`);
  const offset = Math.floor((QR_CODE_WIDTH - modules.size * scale) / 2);
  const pixels = Buffer.alloc(QR_CODE_WIDTH * QR_CODE_WIDTH, 255);
  for (let row = 0; row < modules.size; row++) {
    for (let column = 0; column < modules.size; column++) {
      if (!modules.get(row, column)) continue;
      const left = offset + column * scale;
      for (let y = offset + row * scale; y < offset + (row + 1) * scale; y++)
        pixels.fill(0, y * QR_CODE_WIDTH + left, y * QR_CODE_WIDTH + left + scale);
    }
  }
  const png = await sharp(pixels, { raw: { width: QR_CODE_WIDTH, height: QR_CODE_WIDTH, channels: 1 } })
    .png({ compressionLevel: 9 })
    .toBuffer();
  return png.toString('base64');
}
