/**
 * Line mapping of a cell (spec 3 "Feeder", 4 "Line mapping validation", 5, 8.1, 8.2 1xx): which
 * probe (1..4) carries which phase (L1, L2, L3, N) on every feeder of the cell's node, its
 * delivery to the cell (the cell fetches its configuration and acknowledges the version, see
 * docs/cell-configuration.md), and its validation from the cell's measured data.
 */
import { asc, eq, sql } from "drizzle-orm";
import {
  type MappingCertainty,
  type MappingSample,
  type MappingVerdict,
  type MeasurementStore,
  readProbeRows,
  samplesForMapping,
  validateMapping,
} from "../../../core/mod.ts";
import { AppError, type Db, type EventBus } from "../../../kernel/mod.ts";
import type {} from "../events.ts";
import type {
  FeederMappingDto,
  MappingCertainty as ContractCertainty,
  MappingDto,
  MappingEntry,
  MappingVerdict as ContractVerdict,
  SavedMappingDto,
  ValidationDto,
} from "../contract.ts";
import { type CellsSetupService, isConnected } from "./cells_setup.ts";
import { assertMvEstimationMapping } from "../structure/feeder_rules.ts";
import { cellMappings, cells, feeders, MAPPED_PHASES, type MappedPhase, nodes } from "../schema.ts";
import type { DuckDBConnection } from "@duckdb/node-api";

/** Validation reads the last 10 minutes (30 samples of 20 s) of the cell's probes. */
export const VALIDATION_WINDOW_MS = 10 * 60_000;
/** Longer than this, the data request is given up: 'Mapping validation timeout. Try again!'. */
export const VALIDATION_TIMEOUT_MS = 10_000;

export type { FeederMappingDto, MappingDto, MappingEntry, SavedMappingDto, ValidationDto };

/** The contract names the core's verdicts and certainties: both lists must stay the same. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const _sameVerdicts: Same<MappingVerdict, ContractVerdict> = true;
const _sameCertainties: Same<MappingCertainty, ContractCertainty> = true;

/** Verdict -> text key (spec 8.1; the coil text is spec 4's verdict). */
export const VERDICT_MESSAGES: Readonly<Record<MappingVerdict, string>> = {
  CORRECT: "mapping.verdict.correct",
  CANNOT_BE_VERIFIED: "mapping.verdict.unverifiable",
  SHIFT_RIGHT: "mapping.verdict.invalid",
  SHIFT_LEFT: "mapping.verdict.invalid",
  INVERT_L2_L3: "mapping.verdict.invalid",
  INVERT_L1_L3: "mapping.verdict.invalid",
  INVERT_L1_L2: "mapping.verdict.invalid",
  COIL_DIRECTION: "mapping.verdict.coilDirection",
  TWO_PHASES_ZERO: "mapping.verdict.twoPhasesZero",
  NOT_ENOUGH_MEASUREMENTS: "mapping.verdict.notEnoughMeasurements",
  ALL_ZERO: "mapping.verdict.allZero",
  TIMEOUT: "messages.mappingValidationTimeout",
};
/** Verdicts that say the mapping is wrong (status VALIDATED: 'Mapping not valid'). */
const WRONG = new Set<MappingVerdict>([
  "CANNOT_BE_VERIFIED",
  "SHIFT_RIGHT",
  "SHIFT_LEFT",
  "INVERT_L2_L3",
  "INVERT_L1_L3",
  "INVERT_L1_L2",
  "COIL_DIRECTION",
]);
const CERTAINTY_ORDER: MappingCertainty[] = ["NO_CONCLUSION", "NOT_CERTAIN", "CERTAIN"];
/** Feeders whose normal power flow is export: a PV inverter feeds the grid. */
const EXPORTING = new Set(["PV_INVERTER"]);
/** The sample as seen with the expected flow reversed (P and Q negated). */
const reversed = (s: MappingSample): MappingSample => ({
  ts: s.ts,
  phases: s.phases.map((p) =>
    p
      ? {
        i: p.i,
        p: p.p === undefined ? undefined : -p.p,
        q: p.q === undefined ? undefined : -p.q,
        pf: p.pf === undefined ? undefined : -p.pf,
      }
      : p
  ),
});

/**
 * Problems of one feeder's phases (probe per phase): 105 neutral only, and gaps (unmapping a
 * phase unmaps the following ones, so the mapped phases are always L1, L1-L2, L1-L3 or L1-N).
 */
export function feederMappingProblem(
  phases: Partial<Record<MappedPhase, number>>,
): 105 | "order" | null {
  const mapped = MAPPED_PHASES.filter((p) => phases[p] !== undefined);
  if (mapped.length === 1 && mapped[0] === "N") return 105;
  if (mapped.some((p, k) => p !== MAPPED_PHASES[k])) return "order";
  return null;
}

type Deps = {
  db: Db;
  bus: EventBus;
  setup: CellsSetupService;
  store: Pick<MeasurementStore, "seriesId">;
  analytics: Pick<DuckDBConnection, "runAndReadAll">;
  clock?: () => number;
  /** Defaults to VALIDATION_TIMEOUT_MS. */
  validationTimeoutMs?: number;
};

/** Mapping, delivery and validation of cells. */
export class CellMappingService {
  readonly #clock: () => number;
  constructor(private readonly deps: Deps) {
    this.#clock = deps.clock ?? Date.now;
  }

  /** The mapping of a linked cell (310 when it is linked to no node). */
  async get(customerKey: string, cellId: string): Promise<MappingDto> {
    const row = await this.deps.setup.row(customerKey, cellId);
    if (!row.nodeId) throw new AppError(310);
    const feederRows = await this.deps.db.select().from(feeders)
      .where(eq(feeders.nodeId, row.nodeId)).orderBy(asc(feeders.slot));
    const entries = await this.deps.db.select().from(cellMappings)
      .where(eq(cellMappings.cellId, cellId));
    return {
      cell_id: cellId,
      node_id: row.nodeId,
      version: row.mappingVersion,
      acked_version: row.mappingAckedVersion,
      synchronized: row.mappingAckedVersion === row.mappingVersion && entries.length > 0,
      feeders: feederRows.map((f) => ({
        id: f.id,
        slot: f.slot,
        name: f.name,
        type: f.type,
        mv_estimation: f.type === "TRANSFORMER" && f.parameters.mvVoltageEstimation === true,
        phases: Object.fromEntries(
          MAPPED_PHASES.map((p) => [
            p,
            entries.find((e) => e.feederId === f.id && e.phase === p)?.probe ?? null,
          ]),
        ) as Record<MappedPhase, number | null>,
      })),
      validation: (row.validation as ValidationDto | null) ?? null,
    };
  }

  /**
   * Saves a mapping list: `replace` (PUT) sets the whole mapping, otherwise (PATCH) the feeders
   * of the list are updated and 110 answers when the cell has no mapping yet.
   */
  async save(
    customerKey: string,
    cellId: string,
    entries: readonly MappingEntry[],
    replace: boolean,
  ): Promise<SavedMappingDto> {
    const db = this.deps.db;
    let connected = false;
    await db.transaction(async (tx) => {
      const row = await this.deps.setup.row(customerKey, cellId, tx);
      if (!row.nodeId) throw new AppError(310);
      if (!entries.length) throw new AppError(101);
      const nodeIds = new Set(entries.map((e) => e.node_id));
      if (nodeIds.size > 1 || !nodeIds.has(row.nodeId)) throw new AppError(102);
      const existing = await tx.select().from(cellMappings).where(eq(cellMappings.cellId, cellId));
      if (!replace && !existing.length) throw new AppError(110);
      const feederRows = await tx.select().from(feeders).where(eq(feeders.nodeId, row.nodeId));
      const byId = new Map(feederRows.map((f) => [f.id, f]));
      const seen = new Set<string>();
      for (const e of entries) {
        if (!byId.has(e.feeder_id)) throw new AppError("grid.elementNotFound");
        for (const key of [`${e.feeder_id}|${e.phase}`, `${e.feeder_id}|probe${e.probe}`]) {
          if (seen.has(key)) throw new AppError(103);
          seen.add(key);
        }
      }
      const touched = new Set(entries.map((e) => e.feeder_id));
      const kept = replace ? [] : existing.filter((e) => !touched.has(e.feederId));
      const merged = [
        ...kept.map((e) => ({ feederId: e.feederId, phase: e.phase, probe: e.probe })),
        ...entries.map((e) => ({ feederId: e.feeder_id, phase: e.phase, probe: e.probe })),
      ];
      for (const feederId of new Set(merged.map((m) => m.feederId))) {
        const f = byId.get(feederId)!;
        const phases = Object.fromEntries(
          merged.filter((m) => m.feederId === feederId).map((m) => [m.phase, m.probe]),
        );
        const problem = feederMappingProblem(phases);
        if (problem === "order") {
          throw new AppError("common.validation", {
            issues: [{ path: `feeders.${f.slot}`, key: "mapping.unmappedPredecessor", params: {} }],
          });
        }
        if (problem !== null) throw new AppError(problem, { feeder: f.name });
      }
      // 111: every transformer with MV estimation needs L1, L2 and L3 (the structure's rule).
      await assertMvEstimationMapping(
        tx,
        row.nodeId,
        merged.map((m) => ({ feeder_id: m.feederId, phase: m.phase })),
      );
      await tx.delete(cellMappings).where(eq(cellMappings.cellId, cellId));
      await tx.insert(cellMappings).values(merged.map((m) => ({ cellId, ...m })));
      await tx.update(cells).set({
        mappingVersion: sql`${cells.mappingVersion} + 1`,
        status: "NOT_SYNCHRONIZED",
        validation: null,
      }).where(eq(cells.id, cellId));
      connected = isConnected(row.lastSeen, this.#clock());
    });
    return {
      mapping: await this.get(customerKey, cellId),
      delivery: connected
        ? { state: "PENDING" }
        : { state: "FAILED", code: 114, key: "mapping.sendFailed" },
    };
  }

  /** Validates every mapped feeder on the cell's data of the last 10 minutes. */
  async validate(customerKey: string, cellId: string): Promise<ValidationDto> {
    const mapping = await this.get(customerKey, cellId);
    const mapped = mapping.feeders.filter((f) => f.phases.L1 !== null);
    if (!mapped.length) throw new AppError(110);
    const now = this.#clock();
    // One feeder after the other: the analytics connection runs one statement at a time.
    const read = (async () => {
      const perFeeder = [];
      for (const f of mapped) {
        const series = new Map<number, number>();
        for (let probe = 1; probe <= 4; probe++) {
          const id = this.deps.store.seriesId(cellId, f.slot, probe - 1);
          if (id !== undefined) series.set(probe, id);
        }
        perFeeder.push(
          await readProbeRows(this.deps.analytics, series, now - VALIDATION_WINDOW_MS, now + 1),
        );
      }
      return perFeeder;
    })();
    // A read that fails after the timeout won the race must not become an unhandled rejection.
    read.catch(() => undefined);
    let rows: Awaited<typeof read> | "timeout";
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      rows = await Promise.race([
        read,
        new Promise<"timeout">((resolve) => {
          timer = setTimeout(
            () => resolve("timeout"),
            this.deps.validationTimeoutMs ?? VALIDATION_TIMEOUT_MS,
          );
        }),
      ]);
    } catch (error) {
      throw new AppError(115, {}, error);
    } finally {
      clearTimeout(timer);
    }
    const perFeeder = mapped.map((f, k) => {
      const samples = rows === "timeout"
        ? []
        : samplesForMapping(rows[k]!, [f.phases.L1, f.phases.L2, f.phases.L3]);
      const result = validateMapping(EXPORTING.has(f.type) ? samples.map(reversed) : samples);
      return {
        feeder_id: f.id,
        slot: f.slot,
        verdict: result.verdict,
        certainty: result.certainty,
        message_key: VERDICT_MESSAGES[result.verdict],
        likely: result.likely,
        more_measurements: result.moreMeasurements,
        phases: result.phases,
      };
    });
    // A wrong feeder first, then an inconclusive one: the overall verdict is the one to act on.
    const worst = perFeeder.find((f) => WRONG.has(f.verdict)) ??
      perFeeder.find((f) => f.verdict !== "CORRECT");
    const verdict = worst?.verdict ?? "CORRECT";
    const certainty = worst?.certainty ??
      CERTAINTY_ORDER[Math.min(...perFeeder.map((f) => CERTAINTY_ORDER.indexOf(f.certainty)))]!;
    const validation: ValidationDto = {
      at: new Date(now).toISOString(),
      verdict,
      certainty,
      message_key: VERDICT_MESSAGES[verdict],
      more_measurements: Math.max(0, ...perFeeder.map((f) => f.more_measurements)),
      feeders: perFeeder,
    };
    const row = await this.deps.setup.row(customerKey, cellId);
    const status = WRONG.has(verdict)
      ? "VALIDATED"
      : row.status === "NOT_SYNCHRONIZED"
      ? "NOT_SYNCHRONIZED"
      : "UNDER_VALIDATION";
    await this.deps.db.update(cells).set({
      validation: validation as unknown as Record<string, unknown>,
      status,
    }).where(eq(cells.id, cellId));
    const [node] = await this.deps.db.select({ name: nodes.name, ew: nodes.electricalWorkName })
      .from(nodes).where(eq(nodes.id, mapping.node_id));
    await this.deps.bus.publish("grid.mappingValidated", {
      customerKey,
      cellId,
      nodeName: node?.name ?? "",
      ewName: node?.ew ?? "",
      verdict,
      certainty,
    });
    return validation;
  }

  /**
   * Confirms a validated mapping: 110 without mapping, 108 before a conclusive validation, 109
   * when the validation found it wrong (it must be ignored instead).
   */
  async confirm(customerKey: string, cellId: string): Promise<void> {
    const validation = await this.#finished(customerKey, cellId);
    if (validation.verdict !== "CORRECT") throw new AppError(109);
    await this.deps.db.update(cells).set({ status: "CONFIRMED" }).where(eq(cells.id, cellId));
  }

  /** Keeps a mapping whose validation found it wrong or inconclusive ('Failed or Skipped'). */
  async ignore(customerKey: string, cellId: string): Promise<void> {
    await this.#finished(customerKey, cellId);
    await this.deps.db.update(cells).set({ status: "SKIPPED" }).where(eq(cells.id, cellId));
  }

  async #finished(customerKey: string, cellId: string): Promise<ValidationDto> {
    const mapping = await this.get(customerKey, cellId);
    if (!mapping.feeders.some((f) => f.phases.L1 !== null)) throw new AppError(110);
    const v = mapping.validation;
    if (!v || !(WRONG.has(v.verdict) || v.verdict === "CORRECT")) throw new AppError(108);
    return v;
  }
}
