import assert from "node:assert/strict";
import { inspectImage } from "./logo_image.ts";

/** A minimal PNG header (signature + IHDR) of the given size. */
export function pngHeader(width: number, height: number): Uint8Array {
  const b = new Uint8Array(33);
  b.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const v = new DataView(b.buffer);
  v.setUint32(8, 13);
  b.set([0x49, 0x48, 0x44, 0x52], 12);
  v.setUint32(16, width);
  v.setUint32(20, height);
  return b;
}

/** A minimal JPEG: SOI, an APP0 segment, then SOF0 with the given size. */
function jpegHeader(width: number, height: number, sof = 0xc0): Uint8Array {
  return new Uint8Array([
    0xff,
    0xd8,
    0xff,
    0xe0,
    0x00,
    0x04,
    0x00,
    0x00,
    0xff,
    sof,
    0x00,
    0x0b,
    0x08,
    height >> 8,
    height & 0xff,
    width >> 8,
    width & 0xff,
    0x01,
  ]);
}

Deno.test("inspectImage() reads the size of a PNG from its IHDR chunk", () => {
  assert.deepEqual(inspectImage(pngHeader(512, 256)), {
    contentType: "image/png",
    width: 512,
    height: 256,
  });
});

Deno.test("inspectImage() reads the size of baseline and progressive JPEGs", () => {
  assert.deepEqual(inspectImage(jpegHeader(640, 480)), {
    contentType: "image/jpeg",
    width: 640,
    height: 480,
  });
  assert.equal(inspectImage(jpegHeader(64, 32, 0xc2))?.width, 64);
});

Deno.test("inspectImage() refuses other content whatever its name", () => {
  assert.equal(inspectImage(new TextEncoder().encode("<svg xmlns='...'></svg>")), null);
  assert.equal(inspectImage(new TextEncoder().encode("GIF89a......")), null);
  assert.equal(inspectImage(pngHeader(512, 512).slice(0, 20)), null);
  assert.equal(inspectImage(pngHeader(0, 512)), null);
  assert.equal(inspectImage(new Uint8Array([0xff, 0xd8, 0xff, 0xd9])), null);
});
