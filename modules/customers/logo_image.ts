/**
 * Logo uploads (spec 5: JPEG or PNG, at most 3 MB, 512x512 recommended): the type is read from
 * the content (magic bytes, the PNG IHDR chunk, a JPEG SOF segment), never from a file name.
 */

/** Largest accepted logo: 3 MB. */
export const MAX_LOGO_BYTES = 3 * 1024 * 1024;
/** Largest accepted side: guards against decompression bombs in small files. */
export const MAX_LOGO_SIDE = 4096;

/** What an upload turned out to be. */
export interface ImageInfo {
  contentType: "image/png" | "image/jpeg";
  width: number;
  height: number;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function readPng(b: Uint8Array): ImageInfo | null {
  // Signature, then the first chunk must be IHDR (length 13): width and height big-endian.
  if (b.length < 33 || !PNG_SIGNATURE.every((v, i) => b[i] === v)) return null;
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const type = String.fromCharCode(b[12]!, b[13]!, b[14]!, b[15]!);
  if (view.getUint32(8) !== 13 || type !== "IHDR") return null;
  const width = view.getUint32(16);
  const height = view.getUint32(20);
  return { contentType: "image/png", width, height };
}

/** SOF markers carry the frame size; C4 (DHT), C8 (JPG) and CC (DAC) share the range but not. */
const isSof = (m: number) => m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc;

function readJpeg(b: Uint8Array): ImageInfo | null {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8 || b[2] !== 0xff) return null;
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  let at = 2;
  while (at + 4 <= b.length) {
    if (b[at] !== 0xff) return null;
    const marker = b[at + 1]!;
    if (marker === 0xff) { // fill byte
      at++;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null; // end of image or scan before a frame
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) { // no length
      at += 2;
      continue;
    }
    const length = view.getUint16(at + 2);
    if (length < 2) return null;
    if (isSof(marker)) {
      if (at + 9 > b.length) return null;
      return {
        contentType: "image/jpeg",
        height: view.getUint16(at + 5),
        width: view.getUint16(at + 7),
      };
    }
    at += 2 + length;
  }
  return null;
}

/** The image type and size of `bytes`, or `null` when it is no readable PNG or JPEG. */
export function inspectImage(bytes: Uint8Array): ImageInfo | null {
  const info = readPng(bytes) ?? readJpeg(bytes);
  return info && info.width > 0 && info.height > 0 ? info : null;
}
