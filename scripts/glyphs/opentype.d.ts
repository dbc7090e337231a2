/** The part of opentype.js (which ships no types) that the glyph builder uses. */
export interface PathCommand {
  type: "M" | "L" | "Q" | "C" | "Z";
  x: number;
  y: number;
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}
export interface Glyph {
  advanceWidth?: number;
  getPath(x: number, y: number, fontSize: number): { commands: PathCommand[] };
}
export interface Font {
  unitsPerEm: number;
  charToGlyphIndex(char: string): number;
  charToGlyph(char: string): Glyph;
}
declare const opentype: { parse(data: ArrayBuffer): Font };
export default opentype;
