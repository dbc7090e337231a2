/**
 * From what a cell measures to what a mapping claims. The cell reports every feeder per probe
 * (the protocol's phase index 1..4 is the probe; voltage input k is wired to phase Lk and the
 * device pairs it with current probe k for P and Q). A mapping says which probe carries the
 * current of each phase; for phase Lk on probe m the pair the mapping claims is U_k with I_m, whose
 * angle is the device's angle of probe m turned by angle(U_k) - angle(U_m) = 120 deg * (m - k).
 * So any mapping can be checked on the data as measured, before the cell has applied it.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import type { MappingSample, PhaseSample } from "./validator.ts";

/** One stored 20-s value of a probe (1..4). */
export interface ProbeRow {
  ts: number;
  probe: number;
  i: number | null;
  p: number | null;
  q: number | null;
  pf: number | null;
}

/**
 * Samples per mapped phase L1..L3 from probe rows. `probeOfPhase[k]` is the probe (1..4) mapped
 * to phase L(k+1), or null when the phase is unmapped; the neutral is not validated.
 */
export function samplesForMapping(
  rows: readonly ProbeRow[],
  probeOfPhase: readonly (number | null)[],
): MappingSample[] {
  const byTs = new Map<number, Map<number, ProbeRow>>();
  for (const row of rows) {
    let at = byTs.get(row.ts);
    if (!at) byTs.set(row.ts, at = new Map());
    at.set(row.probe, row);
  }
  return [...byTs.entries()].sort((a, b) => a[0] - b[0]).map(([ts, at]) => ({
    ts,
    phases: [0, 1, 2].map((k): PhaseSample | null => {
      const probe = probeOfPhase[k];
      if (!probe) return null;
      const row = at.get(probe);
      if (!row) return null;
      return turned(row, (120 * (probe - (k + 1)) * Math.PI) / 180);
    }),
  }));
}

function turned(row: ProbeRow, delta: number): PhaseSample {
  const i = row.i ?? 0;
  if (row.p !== null && row.q !== null) {
    const c = Math.cos(delta), s = Math.sin(delta);
    return { i, p: row.p * c - row.q * s, q: row.p * s + row.q * c };
  }
  // pf alone knows no sign of the angle: it cannot be turned, only used as it is.
  return delta === 0 && row.pf !== null ? { i, pf: row.pf } : { i };
}

/** The values of the given series (probe -> series id) with `from <= ts < to` (epoch ms). */
export async function readProbeRows(
  connection: Pick<DuckDBConnection, "runAndReadAll">,
  seriesOfProbe: ReadonlyMap<number, number>,
  from: number,
  to: number,
): Promise<ProbeRow[]> {
  const probeOf = new Map([...seriesOfProbe].map(([probe, id]) => [id, probe]));
  const ids = [...probeOf.keys()].filter((id) => Number.isInteger(id));
  if (!ids.length || !(to > from)) return [];
  const result = await connection.runAndReadAll(
    `SELECT series_id, epoch_ms(ts), i, p, q, pf FROM raw_measurements
     WHERE series_id IN (${ids.join(",")})
       AND ts >= make_timestamp(${Math.floor(from) * 1000})
       AND ts < make_timestamp(${Math.ceil(to) * 1000})`,
  );
  const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : null);
  return (result.getRows() as [number, bigint | number, unknown, unknown, unknown, unknown][])
    .map(([id, ts, i, p, q, pf]) => ({
      ts: Number(ts),
      probe: probeOf.get(id)!,
      i: num(i),
      p: num(p),
      q: num(q),
      pf: num(pf),
    }));
}
