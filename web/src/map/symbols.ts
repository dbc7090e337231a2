/**
 * The map's symbols: one shape per element type (the same path on the map and in the legend),
 * filled with the state colour. Pure data plus a canvas painter used by grid-map.tsx.
 */
import type { ElectricalWorkType } from "../../../modules/grid/contract.ts";
import type { MapState } from "./map-types.ts";
import { clusterShares, type StateCounts } from "./clusters.ts";

export type SymbolKind = "station" | ElectricalWorkType | "node";

/** SVG path in a 24 x 24 box, and the drawn size in CSS pixels. */
export const SYMBOLS: Readonly<Record<SymbolKind, { path: string; size: number }>> = {
  // HV/MV substation: a hexagon, the largest symbol.
  station: { path: "M12 1.5L21.5 7V17L12 22.5L2.5 17V7Z", size: 24 },
  // Transformer station (MV/LV): a square.
  MV_LV_STATION: { path: "M3 3H21V21H3Z", size: 18 },
  // MV cabinet: a diamond.
  MV_CABINET: { path: "M12 1.5L22.5 12L12 22.5L1.5 12Z", size: 18 },
  // LV cabinet: a circle.
  LV_CABINET: { path: "M12 3A9 9 0 1 1 11.99 3Z", size: 14 },
  // LV actuator: a triangle.
  LV_ACTUATOR: { path: "M12 2.5L22 20.5H2Z", size: 16 },
  // A node of unknown type.
  node: { path: "M12 3A9 9 0 1 1 11.99 3Z", size: 14 },
};

export const SYMBOL_KINDS = Object.keys(SYMBOLS) as SymbolKind[];

/** The image name of a symbol in a state ("sym:LV_CABINET:ok"). */
export const symbolImageId = (kind: SymbolKind, state: MapState) => `sym:${kind}:${state}`;

export function parseSymbolImageId(
  id: string,
): { kind: SymbolKind; state: MapState | "neutral" } | null {
  const [prefix, kind, state] = id.split(":");
  if (prefix !== "sym" || !kind || !state || !(kind in SYMBOLS)) return null;
  return { kind: kind as SymbolKind, state: state as MapState | "neutral" };
}

/** Paints a symbol filled with `fill` and outlined with `stroke` (image data at `ratio`). */
export function paintSymbol(
  kind: SymbolKind,
  fill: string,
  stroke: string,
  ratio: number,
): ImageData {
  const { path, size } = SYMBOLS[kind];
  const px = Math.ceil(size * ratio);
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = px;
  const ctx = canvas.getContext("2d")!;
  ctx.scale(px / 24, px / 24);
  const shape = new Path2D(path);
  ctx.lineJoin = "round";
  ctx.lineWidth = 3.5;
  ctx.strokeStyle = stroke;
  ctx.stroke(shape);
  ctx.fillStyle = fill;
  ctx.fill(shape);
  return ctx.getImageData(0, 0, px, px);
}

/** Paints a cluster ring: the state shares around a disc (the count is a text layer on top). */
export function paintRing(
  counts: StateCounts,
  size: number,
  colour: (state: MapState) => string,
  disc: string,
  ratio: number,
): ImageData {
  const px = Math.ceil(size * ratio);
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = px;
  const ctx = canvas.getContext("2d")!;
  const c = px / 2;
  const outer = c - 1 * ratio;
  const width = Math.max(4, size * 0.2) * ratio;
  ctx.beginPath();
  ctx.arc(c, c, outer, 0, Math.PI * 2);
  ctx.fillStyle = disc;
  ctx.fill();
  for (const seg of clusterShares(counts)) {
    ctx.beginPath();
    const start = -Math.PI / 2 + seg.from * Math.PI * 2;
    const end = -Math.PI / 2 + seg.to * Math.PI * 2;
    ctx.arc(c, c, outer - width / 2, start, end);
    ctx.strokeStyle = colour(seg.state);
    ctx.lineWidth = width;
    ctx.stroke();
  }
  return ctx.getImageData(0, 0, px, px);
}
