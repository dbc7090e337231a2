/**
 * Workload LVGRID-N of quality.md: N cells x 6 feeders x 4 probes at a 20-s cadence, values from
 * the deterministic simulator at device resolution. Pure apart from the simulator's caches.
 */
import type { MeasurementRow } from "../../../core/ingest/validate.ts";
import { columnRow } from "../../../core/mod.ts";
import type { NewStationGroup } from "../../../modules/grid/mod.ts";
import type {
  Batch,
  LoadProfile,
  MeasurementColumns,
  SimCell,
} from "../../../core/simulator/mod.ts";

/** The simulator seed of every benchmark. */
export const SEED = 42;
/** Start of the fixed week the offline benchmarks write (Monday 2026-01-05, UTC). */
export const FIXED_START = Date.UTC(2026, 0, 5);

const PROFILES: readonly LoadProfile[] = ["residential", "commercial", "industrial", "mixed"];
type NodeSpec = NewStationGroup["mvFeederGroups"][number]["lvGroups"][number]["nodes"][number];

/** Cell `k` of LVGRID: every tenth a transformer station, the others street cabinets. */
export function lvgridCell(k: number, cellId = `cell-${k}`, credential = `${cellId}.x`): SimCell {
  const station = k % 10 === 0;
  const profile = PROFILES[k % PROFILES.length]!;
  return {
    cellId,
    credential,
    nodeKind: station ? "MV_LV_STATION" : "LV_CABINET",
    nominalVoltage: 230,
    frequency: 50,
    electricalDistance: (k % 10) / 9,
    feeders: [
      station
        ? { slot: 1, kind: "TRANSFORMER", nominalCurrentA: 909, profile: "mixed" }
        : { slot: 1, kind: "LV_LINE", nominalCurrentA: 250, profile },
      ...[2, 3, 4, 5, 6].map((slot) => ({
        slot,
        kind: "LV_LINE" as const,
        nominalCurrentA: 160,
        profile: PROFILES[(k + slot) % PROFILES.length]!,
        ...(slot === 2 && k % 3 === 0 ? { pvPeakA: 40 } : {}),
        ...(slot === 3 && k % 4 === 0 ? { evPeakA: 32 } : {}),
      })),
    ],
  };
}

/** The grid-structure node matching `lvgridCell(k)` (same feeder slots and ratings). */
export function lvgridNode(k: number): NodeSpec {
  const cell = lvgridCell(k);
  const name = `${cell.nodeKind === "MV_LV_STATION" ? "TS" : "CAB"} bench ${k}`;
  return {
    name,
    electricalWork: { name, type: cell.nodeKind },
    latitude: 47 + (k % 100) / 1000,
    longitude: 8 + Math.floor(k / 100) / 1000,
    electricalDistance: cell.electricalDistance,
    feeders: cell.feeders.map((f) => ({
      slot: f.slot,
      name: `Feeder ${f.slot}`,
      type: f.kind,
      direction: f.slot === 1 ? "IN" as const : "OUT" as const,
      nominalCurrentA: f.nominalCurrentA,
    })),
  };
}

/** `nodes` nodes in station groups of 500 (5 MV feeder groups x 10 LV groups x 10 nodes). */
export function lvgridStructure(nodes: number): NewStationGroup[] {
  const groups: NewStationGroup[] = [];
  for (let g = 0; g * 500 < nodes; g++) {
    const mvFeederGroups: NewStationGroup["mvFeederGroups"] = [];
    for (let m = 0; m < 5; m++) {
      const lvGroups = [];
      for (let l = 0; l < 10; l++) {
        const first = g * 500 + m * 100 + l * 10;
        const count = Math.max(0, Math.min(10, nodes - first));
        if (count) {
          lvGroups.push({
            name: `LV ${g}.${m}.${l}`,
            nodes: Array.from({ length: count }, (_, n) => lvgridNode(first + n)),
          });
        }
      }
      if (lvGroups.length) mvFeederGroups.push({ name: `MV ${g}.${m}`, lvGroups });
    }
    groups.push({ name: `Substation ${g}`, mvFeederGroups });
  }
  return groups;
}

/**
 * Rows `[0, count)` of simulator columns as the validated rows the store appends, grouped by
 * the column's cell index (what one batch per cell would carry).
 */
export function rowsByCell(cols: MeasurementColumns, count: number): Map<number, MeasurementRow[]> {
  const byCell = new Map<number, MeasurementRow[]>();
  for (let r = 0; r < count; r++) {
    const row = columnRow(cols, r);
    const list = byCell.get(cols.cell[r]!);
    if (list) list.push(row);
    else byCell.set(cols.cell[r]!, [row]);
  }
  return byCell;
}

/** Several windows of one cell as one protocol batch (the protocol allows it). */
export function mergeBatches(batches: readonly Batch[]): Batch | null {
  const first = batches[0];
  const last = batches[batches.length - 1];
  if (!first || !last) return null;
  const pq = batches.flatMap((b) => b.pq ?? []);
  return {
    ...(first.protocol ? { protocol: first.protocol } : {}),
    batch_id: first.batch_id,
    sent_at: last.sent_at,
    device: last.device,
    measurements: batches.flatMap((b) => b.measurements),
    ...(pq.length ? { pq } : {}),
    io: batches.flatMap((b) => b.io),
    events: batches.flatMap((b) => b.events),
  };
}
