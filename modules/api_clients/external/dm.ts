/**
 * dm reads: a customer's measured feeders, their 20-s values or 10-minute, hourly and daily
 * aggregates per phase for a period (paged, JSON or CSV), and their newest values. Feeders are
 * found in the grid structure (modules/grid's mod.ts), the cell installed at their node gives
 * the series (cell, feeder slot, phase) of the streaming core.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { checkPeriod, ingestBatch, type MeasurementStore } from "../../../core/mod.ts";
import { AppError, type Db } from "../../../kernel/mod.ts";
import { allNodes, type CellsService, readStructure } from "../../grid/mod.ts";
import {
  DM_PAGE_SIZE,
  DM_PHASES,
  type DmLatestDto,
  type DmResolution,
  type DmRowDto,
  type DmValuesPageDto,
  type DmValuesQuery,
  type DmWriteInput,
  type DmWriteResultDto,
} from "./contract.ts";

/**
 * The series key of a third-party meter on a feeder without a cell: a pseudo cell per feeder
 * (never a real cell id, which are UUIDs), with the feeder's slot and the phases.
 */
export function meterCellId(feederId: string): string {
  return `meter:${feederId}`;
}

/** A feeder of the customer with the cell that measures it. */
export interface MeasuredFeeder {
  id: string;
  name: string;
  node_id: string;
  node_name: string;
  slot: number;
  cell_id: string | null;
}

/** Table, time column and value columns of each level (never text from a request). */
const LEVELS: Record<DmResolution, { table: string; time: string; columns: string[] }> = {
  "20s": {
    table: "raw_measurements",
    time: "ts",
    columns: ["u", "i", "p", "q", "pf", "thd_u", "thd_i", "f"],
  },
  ...Object.fromEntries((["10min", "1h", "1d"] as const).map((r) => [r, {
    table: r === "10min" ? "agg_10min" : r === "1h" ? "agg_1h" : "agg_1d",
    time: "slot",
    columns: [
      "u_rms",
      "i_rms",
      "p_mean",
      "q_mean",
      "pf_mean",
      "thd_u",
      "thd_i",
      "f_mean",
      "u_min",
      "u_max",
      "i_min",
      "i_max",
      "n",
    ],
  }])),
} as Record<DmResolution, { table: string; time: string; columns: string[] }>;

const num = (v: unknown): number | null => {
  if (v === null || v === undefined) return null;
  const n = Number(v);
  return Number.isFinite(n) ? Math.round(n * 1000) / 1000 : null;
};

/** The dm reads of one installation. */
export class DmReader {
  constructor(
    private readonly deps: {
      db: Db;
      cells: Pick<CellsService, "listFor">;
      store: MeasurementStore;
      analytics: Pick<DuckDBConnection, "runAndReadAll">;
      /** Days of 20-s values kept: older measurements are refused as a cell's are. */
      rawLifetimeDays: number;
    },
  ) {}

  /** The customer's feeders with the installed cell of their node (null: not measured). */
  async feeders(customerKey: string): Promise<MeasuredFeeder[]> {
    const structure = await readStructure(this.deps.db, customerKey);
    const cellOf = new Map<string, string>();
    for (const cell of await this.deps.cells.listFor(customerKey, "INSTALLED")) {
      if (cell.node_id && !cell.revoked) cellOf.set(cell.node_id, cell.id);
    }
    return allNodes(structure).flatMap((node) =>
      node.feeders.map((f) => ({
        id: f.id,
        name: f.name,
        node_id: node.id,
        node_name: node.name,
        slot: f.slot,
        cell_id: cellOf.get(node.id) ?? null,
      }))
    );
  }

  async #feeder(customerKey: string, id: string): Promise<MeasuredFeeder> {
    const feeder = (await this.feeders(customerKey)).find((f) => f.id === id);
    if (!feeder) throw new AppError("grid.elementNotFound");
    return feeder;
  }

  /**
   * The series of a feeder per phase (absent when the phase never reported): the installed
   * cell's, or the third-party meter's when no cell measures the feeder.
   */
  #series(feeder: MeasuredFeeder, phases: readonly string[]): Map<number, string> {
    const out = new Map<number, string>();
    const source = feeder.cell_id ?? meterCellId(feeder.id);
    for (const phase of phases) {
      const id = this.deps.store.seriesId(
        source,
        feeder.slot,
        DM_PHASES.indexOf(phase as "L1"),
      );
      if (id !== undefined) out.set(id, phase);
    }
    return out;
  }

  /** One page of a feeder's values of a period, oldest first, phase by phase within a time. */
  async values(customerKey: string, id: string, q: DmValuesQuery): Promise<DmValuesPageDto> {
    const period = checkPeriod(q.from, q.to);
    if ("error" in period) throw new AppError(period.error);
    const feeder = await this.#feeder(customerKey, id);
    const series = this.#series(feeder, q.phase ? [q.phase] : DM_PHASES);
    const page = q.page ?? 1;
    const size = q.page_size ?? DM_PAGE_SIZE.default;
    const answer: DmValuesPageDto = {
      feeder_id: id,
      resolution: q.resolution,
      from: new Date(period.from).toISOString(),
      to: new Date(period.to).toISOString(),
      items: [],
      page,
      page_size: size,
      total: 0,
    };
    if (!series.size) return answer;
    const level = LEVELS[q.resolution];
    const where = `series_id IN (${[...series.keys()].join(",")})
      AND ${level.time} >= make_timestamp(${period.from * 1000})
      AND ${level.time} < make_timestamp(${period.to * 1000})`;
    const [countRows, rows] = await Promise.all([
      this.deps.analytics.runAndReadAll(`SELECT count(*) FROM ${level.table} WHERE ${where}`),
      this.deps.analytics.runAndReadAll(
        `SELECT series_id, epoch_ms(${level.time})::DOUBLE, ${level.columns.join(", ")}
         FROM ${level.table} WHERE ${where}
         ORDER BY ${level.time}, series_id LIMIT ${size} OFFSET ${(page - 1) * size}`,
      ),
    ]);
    answer.total = Number(countRows.getRows()[0]?.[0] ?? 0);
    answer.items = rows.getRows().map((r) => this.#row(q.resolution, series, r));
    return answer;
  }

  #row(resolution: DmResolution, series: Map<number, string>, r: unknown[]): DmRowDto {
    const [sid, ts, u, i, p, qv, pf, thdU, thdI, f, ...rest] = r;
    const row: DmRowDto = {
      ts: new Date(Number(ts)).toISOString(),
      phase: series.get(Number(sid)) as DmRowDto["phase"],
      u: num(u),
      i: num(i),
      p: num(p),
      q: num(qv),
      pf: num(pf),
      thd_u: num(thdU),
      thd_i: num(thdI),
      f: num(f),
    };
    if (resolution !== "20s") {
      const [uMin, uMax, iMin, iMax, n] = rest;
      Object.assign(row, {
        u_min: num(uMin),
        u_max: num(uMax),
        i_min: num(iMin),
        i_max: num(iMax),
        n: Number(n ?? 0),
      });
    }
    return row;
  }

  /** The newest 20-s voltage and current of each phase of a feeder. */
  async latest(customerKey: string, id: string): Promise<DmLatestDto> {
    const feeder = await this.#feeder(customerKey, id);
    const series = this.#series(feeder, DM_PHASES);
    const byPhase = new Map([...series].map(([sid, phase]) => [phase, sid]));
    const latest = this.deps.store.latest;
    return {
      feeder_id: id,
      phases: DM_PHASES.map((phase) => {
        const sid = byPhase.get(phase);
        const ts = sid === undefined ? -Infinity : latest.ts(sid);
        return {
          phase,
          ts: Number.isFinite(ts) ? new Date(ts).toISOString() : null,
          u: sid === undefined ? null : num(latest.u(sid)),
          i: sid === undefined ? null : num(latest.i(sid)),
        };
      }),
    };
  }
}

/**
 * Stores a third-party meter's measurements of a feeder through the cell protocol's own
 * validation and deduplication (core ingestBatch): the same checks, the same per-record
 * refusals, a repeated batch stored once. Only feeders no cell measures take them (409).
 */
export async function writeMeasurements(
  reader: DmReader,
  store: MeasurementStore,
  rawLifetimeDays: number,
  customerKey: string,
  feederId: string,
  input: DmWriteInput,
): Promise<{ status: 200 | 207 | 422; body: DmWriteResultDto }> {
  const feeder = (await reader.feeders(customerKey)).find((f) => f.id === feederId);
  if (!feeder) throw new AppError("grid.elementNotFound");
  if (feeder.cell_id) throw new AppError("common.conflict", { reason: "measuredByCell" });
  const batch = {
    batch_id: input.batch_id,
    measurements: input.measurements.map((m) => ({ ...m, feeder: feeder.slot })),
  };
  let outcome;
  try {
    outcome = await ingestBatch(
      store,
      { cellId: meterCellId(feeder.id), feederSlots: [feeder.slot] },
      batch,
      { now: Date.now(), rawLifetimeDays },
    );
  } catch {
    throw new AppError("common.serviceUnavailable");
  }
  if (outcome.status === 400) {
    throw new AppError("common.badRequest", { rejected: outcome.rejected });
  }
  const { accepted, duplicates, rejected } = outcome;
  return { status: outcome.status, body: { accepted, duplicates, rejected } };
}

/** The rows of a page as CSV (header line, one row per line, empty cells for null). */
export function valuesCsv(page: DmValuesPageDto): string {
  const columns = ["ts", "phase", "u", "i", "p", "q", "pf", "thd_u", "thd_i", "f"];
  if (page.resolution !== "20s") columns.push("u_min", "u_max", "i_min", "i_max", "n");
  const lines = [columns.join(",")];
  for (const row of page.items) {
    lines.push(
      columns.map((c) => {
        const v = (row as Record<string, unknown>)[c];
        return v === null || v === undefined ? "" : String(v);
      }).join(","),
    );
  }
  return `${lines.join("\n")}\n`;
}
