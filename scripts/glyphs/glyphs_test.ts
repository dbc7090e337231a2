import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { RANGES, STACKS } from "./build.ts";
import { BORDER, encodeRange, parseFont, sdfGlyph } from "./glyphs.ts";

const require = createRequire(import.meta.url);
const font = (() => {
  const data = readFileSync(
    require.resolve("@fontsource/noto-sans/files/noto-sans-latin-400-normal.woff"),
  );
  return parseFont(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength));
})();

Deno.test("sdfGlyph() makes a signed distance field: inside bright, outside dark, maplibre's metrics", () => {
  const h = sdfGlyph(font, "H".codePointAt(0)!)!;
  assert.ok(h.width > 8 && h.width < 20, `width ${h.width}`);
  assert.ok(h.height >= 16 && h.height <= 19, `height ${h.height}`);
  assert.equal(h.bitmap.length, (h.width + 2 * BORDER) * (h.height + 2 * BORDER));
  // The top of a capital sits about 17 px above the baseline, which maplibre puts 27 px down.
  assert.ok(h.top >= -11 && h.top <= -8, `top ${h.top}`);
  assert.ok(h.advance >= 14 && h.advance <= 20, `advance ${h.advance}`);
  const w = h.width + 2 * BORDER;
  // A corner of the border is far outside the glyph; the middle of the left stem inside it.
  assert.ok(h.bitmap[0]! < 100, `corner ${h.bitmap[0]}`);
  const stemX = BORDER + 2, midY = BORDER + Math.round(h.height / 2);
  assert.ok(h.bitmap[midY * w + stemX]! > 191, `stem ${h.bitmap[midY * w + stemX]}`);
  const space = sdfGlyph(font, 32)!;
  assert.equal(space.width, 0);
  assert.ok(space.advance > 0);
  assert.equal(sdfGlyph(font, 0x4e00), null); // no CJK in the Latin subset
});

Deno.test("encodeRange() writes the glyphs protobuf maplibre reads", () => {
  const bytes = encodeRange("Test Font", 0, [sdfGlyph(font, 65)!]);
  // field 1 (stacks), length-delimited; inside, field 1 (name) "Test Font" and field 2 "0-255".
  assert.equal(bytes[0], 0x0a);
  const text = new TextDecoder().decode(bytes);
  assert.ok(text.includes("Test Font"));
  assert.ok(text.includes("0-255"));
});

Deno.test("the glyph ranges of every font stack are in web/public/fonts", () => {
  for (const stack of Object.keys(STACKS)) {
    for (const start of RANGES) {
      const file = new URL(
        `../../web/public/fonts/${encodeURIComponent(stack)}/${start}-${start + 255}.pbf`,
        import.meta.url,
      );
      assert.ok(existsSync(file), `${stack} ${start}`);
    }
  }
});
