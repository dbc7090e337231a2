/**
 * The 10-minute power-quality record a simulated protocol v2 cell computes on the device from
 * its slot's 20-s values, as the platform folds protocol v1 values (core/ingest/pq_fold.ts):
 * the RMS of each harmonic, the mean unbalance, the highest Pst and Plt, at device resolution
 * (0.01). A simulated cell sends the same values in either protocol.
 */
import type { MeasurementColumns } from "./columns.ts";
import { PHASE_NAMES } from "./columns.ts";
import { isoSeconds, type PqRecord } from "./protocol.ts";

const HARMONICS = 24;
const fround = Math.fround;
const round = (value: number) => Math.floor(value * 100 + 0.5) / 100 + 0;

/** Sums of one feeder and phase. */
interface Sums {
  feeder: number;
  phase: number;
  windows: number;
  nUnbalance: number;
  unbalance: number;
  pst: number;
  plt: number;
  squares: Float64Array;
}

/** Folds the PQ values of one cell's 20-s rows into its 10-minute records. */
export class DevicePqFold {
  readonly #series = new Map<number, Sums>();

  /** Adds row `r` of `cols` (the neutral, which has no voltage quality, is skipped). */
  add(cols: MeasurementColumns, r: number): void {
    const phase = cols.phase[r]!;
    if (phase === 3) return;
    const feeder = cols.feeder[r]!;
    const key = feeder * 4 + phase;
    let sums = this.#series.get(key);
    if (!sums) {
      sums = {
        feeder,
        phase,
        windows: 0,
        nUnbalance: 0,
        unbalance: 0,
        pst: -Infinity,
        plt: -Infinity,
        squares: new Float64Array(HARMONICS),
      };
      this.#series.set(key, sums);
    }
    sums.windows++;
    // As the platform folds the values it stores (FLOAT), so both protocols give one record.
    const unbalance = fround(cols.unbalance[r]!);
    if (unbalance === unbalance) {
      sums.unbalance += unbalance;
      sums.nUnbalance++;
    }
    sums.pst = Math.max(sums.pst, fround(cols.pst[r]!));
    sums.plt = Math.max(sums.plt, fround(cols.plt[r]!));
    for (let n = 0; n < HARMONICS; n++) {
      const h = fround(cols.hU[r * HARMONICS + n]!);
      sums.squares[n]! += fround(h * h);
    }
  }

  /** The records of the slot starting at `slotMs`, feeders and phases in order. */
  records(slotMs: number): PqRecord[] {
    const slot = isoSeconds(slotMs);
    return [...this.#series.entries()].sort(([a], [b]) => a - b).map(([, s]) => ({
      slot,
      feeder: s.feeder,
      phase: PHASE_NAMES[s.phase]! as PqRecord["phase"],
      h_u: Array.from(s.squares, (sum) => round(Math.sqrt(sum / s.windows))),
      pst: round(s.pst),
      plt: round(s.plt),
      unbalance: round(s.unbalance / s.nUnbalance),
    }));
  }
}
