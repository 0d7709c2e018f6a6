/**
 * What an uploaded file is, read from its bytes alone (decision 060): PNG, JPEG, WebP or GIF, with
 * the picture's width and height from its header. Anything else (an SVG, an HTML page named
 * `.png`, a truncated header) is null: the name and the Content-Type the browser sent are never
 * trusted. Only headers are read; nothing is decoded.
 */
export type ImageType = "image/png" | "image/jpeg" | "image/webp" | "image/gif";
export type SniffedImage = { contentType: ImageType; width: number; height: number };

const ascii = (b: Uint8Array, at: number, text: string) => {
  if (b.length < at + text.length) return false;
  for (let i = 0; i < text.length; i++) if (b[at + i] !== text.charCodeAt(i)) return false;
  return true;
};
const u16be = (b: Uint8Array, at: number) => (b[at] << 8) | b[at + 1];
const u16le = (b: Uint8Array, at: number) => b[at] | (b[at + 1] << 8);
const u24le = (b: Uint8Array, at: number) => b[at] | (b[at + 1] << 8) | (b[at + 2] << 16);
const u32be = (b: Uint8Array, at: number) => ((b[at] << 24) >>> 0) + ((b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]);

function png(b: Uint8Array): SniffedImage | null {
  // signature, then the IHDR chunk first (length 13): width and height, big-endian
  if (b.length < 33 || !(b[0] === 0x89 && ascii(b, 1, "PNG\r\n\x1a\n"))) return null;
  if (u32be(b, 8) !== 13 || !ascii(b, 12, "IHDR")) return null;
  return { contentType: "image/png", width: u32be(b, 16), height: u32be(b, 20) };
}

function gif(b: Uint8Array): SniffedImage | null {
  if (b.length < 10 || !(ascii(b, 0, "GIF87a") || ascii(b, 0, "GIF89a"))) return null;
  return { contentType: "image/gif", width: u16le(b, 6), height: u16le(b, 8) };
}

function webp(b: Uint8Array): SniffedImage | null {
  if (b.length < 30 || !ascii(b, 0, "RIFF") || !ascii(b, 8, "WEBP")) return null;
  if (ascii(b, 12, "VP8 ")) {
    // lossy: a key frame's start code, then 14-bit width and height
    if (!(b[23] === 0x9d && b[24] === 0x01 && b[25] === 0x2a)) return null;
    return { contentType: "image/webp", width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff };
  }
  if (ascii(b, 12, "VP8L")) {
    // lossless: signature 0x2f, then width-1 and height-1 in 14 bits each
    if (b[20] !== 0x2f) return null;
    const bits = b[21] | (b[22] << 8) | (b[23] << 16) | (b[24] << 24);
    return { contentType: "image/webp", width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (ascii(b, 12, "VP8X")) {
    // extended: canvas width-1 and height-1 in 24 bits each
    return { contentType: "image/webp", width: u24le(b, 24) + 1, height: u24le(b, 27) + 1 };
  }
  return null;
}

/** Start-of-frame markers carry the size (SOF0-SOF15 but DHT C4, JPG C8 and DAC CC). */
const isStartOfFrame = (m: number) => m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc;

function jpeg(b: Uint8Array): SniffedImage | null {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8 || b[2] !== 0xff) return null;
  let at = 2;
  while (at + 4 <= b.length) {
    if (b[at] !== 0xff) return null;
    let marker = b[at + 1];
    while (marker === 0xff && at + 2 < b.length) marker = b[++at + 1]; // fill bytes
    at += 2;
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) continue; // no length
    if (marker === 0xd9 || marker === 0xda) return null; // end of image, or scan data before any frame
    if (at + 2 > b.length) return null;
    const length = u16be(b, at);
    if (length < 2) return null;
    if (isStartOfFrame(marker)) {
      if (at + 7 > b.length) return null;
      return { contentType: "image/jpeg", height: u16be(b, at + 3), width: u16be(b, at + 5) };
    }
    at += length;
  }
  return null;
}

/** The picture the bytes hold, or null when they are not a PNG, JPEG, WebP or GIF with a readable, non-empty size. */
export function sniffImage(bytes: Uint8Array): SniffedImage | null {
  const found = png(bytes) ?? gif(bytes) ?? webp(bytes) ?? jpeg(bytes);
  if (!found || found.width < 1 || found.height < 1) return null;
  return found;
}
