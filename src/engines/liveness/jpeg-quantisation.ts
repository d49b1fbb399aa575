/**
 * The luminance quantisation table of a JPEG file (its first DQT table, id 0), in zig-zag order:
 * how coarsely the encoder rounded each frequency, which sets how much a re-encoding alone changes the
 * pixels. Undefined for a PNG or a JPEG without one.
 *
 * @example
 * lumaQuantisation(await sharp(raw).jpeg({ quality: 90 }).toBuffer())?.[0]; // 3 (the DC step at quality 90)
 */
export function lumaQuantisation(bytes: Uint8Array): Uint16Array | undefined {
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) return undefined;
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1] ?? 0;
    // Fill bytes, and markers without a length (RSTn, TEM).
    if (marker === 0xff) {
      at++;
      continue;
    }
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2;
      continue;
    }
    // Start of scan or end of image: every table comes before.
    if (marker === 0xda || marker === 0xd9) return undefined;
    const length = ((bytes[at + 2] ?? 0) << 8) | (bytes[at + 3] ?? 0);
    if (length < 2) return undefined;
    if (marker === 0xdb) {
      let table = at + 4;
      const end = at + 2 + length;
      while (table < end) {
        const header = bytes[table] ?? 0;
        const wide = header >> 4 === 1;
        const id = header & 0x0f;
        const size = wide ? 128 : 64;
        if (table + 1 + size > bytes.length) return undefined;
        if (id === 0) {
          return Uint16Array.from({ length: 64 }, (_, k) =>
            wide
              ? ((bytes[table + 1 + 2 * k] ?? 0) << 8) | (bytes[table + 2 + 2 * k] ?? 0)
              : (bytes[table + 1 + k] ?? 0),
          );
        }
        table += 1 + size;
      }
    }
    at += 2 + length;
  }
  return undefined;
}
