/**
 * Clusters of grid items coloured by the share of their states: each cluster counts its members
 * per state (maplibre cluster properties) and is drawn as a ring of those shares around the
 * member count, its size growing with the count. Pure, so tests import it.
 */
import type { MapState } from "./map-types.ts";

/** The order of the ring's segments, clockwise from the top (worst first). */
export const RING_STATES: readonly MapState[] = ["critical", "warning", "offline", "unknown", "ok"];

export type StateCounts = Readonly<Record<MapState, number>>;

/** maplibre `clusterProperties`: a count per state. */
export function clusterProperties(): Record<string, unknown> {
  return Object.fromEntries(
    RING_STATES.map((s) => [s, ["+", ["case", ["==", ["get", "state"], s], 1, 0]]]),
  );
}

/** The name of the ring image of some counts ("cluster:critical:warning:offline:unknown:ok"). */
export function clusterImageId(counts: Partial<StateCounts>): string {
  return `cluster:${RING_STATES.map((s) => counts[s] ?? 0).join(":")}`;
}

/** The counts a ring image's name stands for; null for another image. */
export function countsOfImageId(id: string): StateCounts | null {
  const parts = id.split(":");
  if (parts[0] !== "cluster" || parts.length !== RING_STATES.length + 1) return null;
  const numbers = parts.slice(1).map(Number);
  if (numbers.some((n) => !Number.isInteger(n) || n < 0)) return null;
  return Object.fromEntries(RING_STATES.map((s, i) => [s, numbers[i]!])) as StateCounts;
}

/** maplibre expression of a cluster feature's ring image name. */
export function clusterImageExpression(): unknown[] {
  return [
    "concat",
    "cluster",
    ...RING_STATES.flatMap((s) => [":", ["to-string", ["get", s]]]),
  ];
}

/** One segment of a ring: a state's share as a fraction of the turn. */
export interface RingSegment {
  state: MapState;
  count: number;
  /** Where the segment starts and ends, 0..1 clockwise from the top. */
  from: number;
  to: number;
}

/** The ring of some counts: states without members are left out; shares add up to 1. */
export function clusterShares(counts: Partial<StateCounts>): RingSegment[] {
  const total = RING_STATES.reduce((sum, s) => sum + (counts[s] ?? 0), 0);
  if (!total) return [];
  const out: RingSegment[] = [];
  let from = 0;
  for (const state of RING_STATES) {
    const count = counts[state] ?? 0;
    if (!count) continue;
    const to = from + count / total;
    out.push({ state, count, from, to });
    from = to;
  }
  out[out.length - 1]!.to = 1;
  return out;
}

/** The diameter of a cluster in CSS pixels by its member count (the legend explains it). */
export const CLUSTER_SIZES: readonly { from: number; size: number }[] = [
  { from: 2, size: 30 },
  { from: 10, size: 38 },
  { from: 100, size: 46 },
  { from: 1000, size: 54 },
];

export function clusterSize(total: number): number {
  let size = CLUSTER_SIZES[0]!.size;
  for (const step of CLUSTER_SIZES) if (total >= step.from) size = step.size;
  return size;
}
