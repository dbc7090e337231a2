/**
 * Writes the map label glyphs to web/public/fonts/{fontstack}/{range}.pbf from Noto Sans
 * (@fontsource/noto-sans, its Latin and Cyrillic subsets): Latin, Latin Extended, Greek/Cyrillic
 * and general punctuation, regular and bold. Run after changing the font or the ranges:
 *   npx deno run -A scripts/glyphs/build.ts
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { encodeRange, parseFont, rangeGlyphs } from "./glyphs.ts";

/** The font stacks of the map style (web/src/map/map-style.ts) and their weights. */
export const STACKS = { "Noto Sans Regular": 400, "Noto Sans Bold": 700 } as const;
/** Code point ranges written: Latin-1, Latin Extended-A/B, Cyrillic, general punctuation. */
export const RANGES = [0, 256, 512, 768, 1024, 1280, 7680, 8192, 8448] as const;
const SUBSETS = ["latin", "latin-ext", "cyrillic", "cyrillic-ext"];

if (import.meta.main) {
  const require = createRequire(import.meta.url);
  const out = new URL("../../web/public/fonts/", import.meta.url);
  for (const [stack, weight] of Object.entries(STACKS)) {
    const fonts = SUBSETS.map((subset) => {
      const path = require.resolve(
        `@fontsource/noto-sans/files/noto-sans-${subset}-${weight}-normal.woff`,
      );
      const data = readFileSync(path);
      return parseFont(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength));
    });
    const dir = new URL(`${encodeURIComponent(stack)}/`, out);
    mkdirSync(dir, { recursive: true });
    for (const start of RANGES) {
      const glyphs = rangeGlyphs(fonts, start);
      const file = new URL(`${start}-${start + 255}.pbf`, dir);
      writeFileSync(file, encodeRange(stack, start, glyphs));
      console.log(`${stack} ${start}-${start + 255}: ${glyphs.length} glyphs`);
    }
  }
}
