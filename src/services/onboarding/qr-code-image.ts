import QRCode from 'qrcode';

/** Width of the PNG in pixels: a 600-character URL (QR version ~20, 97 modules + quiet zone) at about 4 px a module. */
export const QR_CODE_WIDTH = 480;

/**
 * The `qrcodeImage` of a trigger answer (Doc 1): a PNG of the QR code of `url`, base64 (standard alphabet,
 * as `data:image/png;base64,` takes it). Error correction M (15% of the code may be unreadable), the
 * standard 4-module quiet zone, black on white.
 *
 * @example
 * const qrcodeImage = await qrCodeImage('https://id.example.com/capture?data=...');
 * // <img src={`data:image/png;base64,${qrcodeImage}`}>
 */
export async function qrCodeImage(url: string): Promise<string> {
  const png = await QRCode.toBuffer(url, { type: 'png', errorCorrectionLevel: 'M', margin: 4, width: QR_CODE_WIDTH });
  return png.toString('base64');
}
