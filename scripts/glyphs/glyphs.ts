/**
 * Map label glyphs for maplibre, made offline from a font bundled as an npm package: signed
 * distance fields (SDF) of each character in the protobuf format maplibre loads from a style's
 * `glyphs` URL (`{fontstack}/{range}.pbf`, 256 code points a file). The same layout as
 * fontnik's: 24 px em, a 3 px border, radius 8, cutoff 0.25, `top` relative to maplibre's
 * baseline (27.5 px below the origin, the value maplibre aligns its own local glyphs with).
 */
// @ts-types="./opentype.d.ts"
import opentype from "opentype.js";
import type { Font, Glyph as FontGlyph } from "./opentype.d.ts";

/** maplibre's glyph constants (fontnik's): em size, border, SDF radius and cutoff. */
export const EM = 24;
export const BORDER = 3;
const RADIUS = 8;
const CUTOFF = 0.25;
/** maplibre's baseline offset for glyph tops (its `topAdjustment`, rounded as fontnik's). */
const TOP_ADJUSTMENT = 27;

export interface Glyph {
  id: number;
  /** (width + 2 border) x (height + 2 border) bytes, empty for a blank glyph. */
  bitmap: Uint8Array;
  width: number;
  height: number;
  left: number;
  top: number;
  advance: number;
}

type Point = [number, number];

/** The outline of a glyph as closed polygons in pixels (y up from the baseline). */
function outline(glyph: FontGlyph): Point[][] {
  // getPath(x, y, size) answers y down; flip to y up.
  const path = glyph.getPath(0, 0, EM);
  const rings: Point[][] = [];
  let ring: Point[] = [];
  let last: Point = [0, 0];
  const steps = 8;
  for (const c of path.commands) {
    if (c.type === "M") {
      if (ring.length > 1) rings.push(ring);
      last = [c.x, -c.y];
      ring = [last];
    } else if (c.type === "L") {
      last = [c.x, -c.y];
      ring.push(last);
    } else if (c.type === "Q") {
      const [x0, y0] = last;
      for (let k = 1; k <= steps; k++) {
        const t = k / steps, u = 1 - t;
        ring.push([
          u * u * x0 + 2 * u * t * c.x1 + t * t * c.x,
          u * u * y0 + 2 * u * t * -c.y1 + t * t * -c.y,
        ]);
      }
      last = [c.x, -c.y];
    } else if (c.type === "C") {
      const [x0, y0] = last;
      for (let k = 1; k <= steps; k++) {
        const t = k / steps, u = 1 - t;
        ring.push([
          u * u * u * x0 + 3 * u * u * t * c.x1 + 3 * u * t * t * c.x2 + t * t * t * c.x,
          u * u * u * y0 + 3 * u * u * t * -c.y1 + 3 * u * t * t * -c.y2 + t * t * t * -c.y,
        ]);
      }
      last = [c.x, -c.y];
    } else if (c.type === "Z") {
      if (ring.length > 1) rings.push(ring);
      ring = [];
    }
  }
  if (ring.length > 1) rings.push(ring);
  return rings;
}

/** Distance from p to the segment a-b. */
function segmentDistance(p: Point, a: Point, b: Point): number {
  const dx = b[0] - a[0], dy = b[1] - a[1];
  const len = dx * dx + dy * dy;
  let t = len ? ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len : 0;
  t = Math.max(0, Math.min(1, t));
  const x = a[0] + t * dx - p[0], y = a[1] + t * dy - p[1];
  return Math.sqrt(x * x + y * y);
}

/** Non-zero winding number of the rings around p. */
function winding(p: Point, rings: readonly Point[][]): number {
  let w = 0;
  for (const ring of rings) {
    for (let i = 0; i < ring.length; i++) {
      const a = ring[i]!, b = ring[(i + 1) % ring.length]!;
      if (a[1] <= p[1]) {
        if (b[1] > p[1] && (b[0] - a[0]) * (p[1] - a[1]) - (p[0] - a[0]) * (b[1] - a[1]) > 0) w++;
      } else if (
        b[1] <= p[1] && (b[0] - a[0]) * (p[1] - a[1]) - (p[0] - a[0]) * (b[1] - a[1]) < 0
      ) {
        w--;
      }
    }
  }
  return w;
}

/** The SDF glyph of one code point, or null when the font has no glyph for it. */
export function sdfGlyph(font: Font, codePoint: number): Glyph | null {
  const char = String.fromCodePoint(codePoint);
  if (font.charToGlyphIndex(char) <= 0) return null;
  const glyph = font.charToGlyph(char);
  const scale = EM / font.unitsPerEm;
  const advance = Math.round((glyph.advanceWidth ?? 0) * scale);
  const rings = outline(glyph);
  const points = rings.flat();
  if (!points.length) {
    return {
      id: codePoint,
      bitmap: new Uint8Array(),
      width: 0,
      height: 0,
      left: 0,
      top: 0,
      advance,
    };
  }
  const xMin = Math.floor(Math.min(...points.map((p) => p[0])));
  const xMax = Math.ceil(Math.max(...points.map((p) => p[0])));
  const yMin = Math.floor(Math.min(...points.map((p) => p[1])));
  const yMax = Math.ceil(Math.max(...points.map((p) => p[1])));
  const width = xMax - xMin, height = yMax - yMin;
  const w = width + 2 * BORDER, h = height + 2 * BORDER;
  const bitmap = new Uint8Array(w * h);
  for (let j = 0; j < h; j++) {
    for (let i = 0; i < w; i++) {
      const p: Point = [xMin - BORDER + i + 0.5, yMax + BORDER - j - 0.5];
      let d = Infinity;
      for (const ring of rings) {
        for (let k = 0; k < ring.length; k++) {
          d = Math.min(d, segmentDistance(p, ring[k]!, ring[(k + 1) % ring.length]!));
        }
      }
      if (winding(p, rings) !== 0) d = -d;
      bitmap[j * w + i] = Math.max(0, Math.min(255, Math.round(255 - 255 * (d / RADIUS + CUTOFF))));
    }
  }
  return {
    id: codePoint,
    bitmap,
    width,
    height,
    left: xMin,
    top: yMax - TOP_ADJUSTMENT,
    advance,
  };
}

// ---- Protobuf (glyphs.proto: glyphs { fontstack stacks = 1 }) ------------------------------

class Writer {
  bytes: number[] = [];
  varint(n: number) {
    let v = n >>> 0;
    while (v > 127) {
      this.bytes.push((v & 127) | 128);
      v >>>= 7;
    }
    this.bytes.push(v);
  }
  tag(field: number, wire: number) {
    this.varint((field << 3) | wire);
  }
  uint(field: number, n: number) {
    this.tag(field, 0);
    this.varint(n);
  }
  sint(field: number, n: number) {
    this.tag(field, 0);
    this.varint(n >= 0 ? n * 2 : -n * 2 - 1);
  }
  raw(field: number, data: ArrayLike<number>) {
    this.tag(field, 2);
    this.varint(data.length);
    for (let i = 0; i < data.length; i++) this.bytes.push(data[i]!);
  }
  string(field: number, s: string) {
    this.raw(field, new TextEncoder().encode(s));
  }
}

/** One range file: the glyphs of `start`..`start + 255` of the font stack `name`. */
export function encodeRange(name: string, start: number, glyphs: readonly Glyph[]): Uint8Array {
  const stack = new Writer();
  stack.string(1, name);
  stack.string(2, `${start}-${start + 255}`);
  for (const g of glyphs) {
    const m = new Writer();
    m.uint(1, g.id);
    if (g.bitmap.length) m.raw(2, g.bitmap);
    m.uint(3, g.width);
    m.uint(4, g.height);
    m.sint(5, g.left);
    m.sint(6, g.top);
    m.uint(7, g.advance);
    stack.raw(3, m.bytes);
  }
  const out = new Writer();
  out.raw(1, stack.bytes);
  return new Uint8Array(out.bytes);
}

/** The glyphs of a range, taken from the first font that has each code point. */
export function rangeGlyphs(fonts: readonly Font[], start: number): Glyph[] {
  const glyphs: Glyph[] = [];
  for (let cp = start; cp < start + 256; cp++) {
    for (const font of fonts) {
      const g = sdfGlyph(font, cp);
      if (g) {
        glyphs.push(g);
        break;
      }
    }
  }
  return glyphs;
}

export function parseFont(data: ArrayBuffer): Font {
  return opentype.parse(data);
}
