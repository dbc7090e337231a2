/**
 * Evaluates the automatic triggers on every stored batch: the store calls back after each
 * commit, the watcher reads the new 20-s currents of the watched feeder phases and starts a
 * request on each node where two consecutive values differ by more than the trigger's delta.
 *
 * Evaluations run one at a time and coalesce: batches stored during an evaluation are all read
 * by the next one. Each series remembers the newest value already evaluated, so a value pair is
 * compared once; values older than {@link FRESH_MS} (history being filled in) never fire.
 *
 * Incremental: each series also remembers the current of that newest value (typed arrays by
 * series id), so when exactly one new 20-s value arrived — every live tick — the pair is compared
 * in memory. Only series with a gap or several new values (a batch of history, a first contact)
 * read their window from the store. The watched series are listed once per change of the
 * triggers or of the nodes, not per evaluation.
 */
import {
  type CurrentStep,
  currentSteps,
  type LatestValues,
  type RawSeries,
  VALUE_INTERVAL_MS,
} from "../../../core/mod.ts";
import type { EventBus, Logger } from "../../../kernel/mod.ts";
import type { MonitoredFeeder, MonitoredNode, NodeLookup } from "./nodes.ts";
import type { FireResult, RequestService } from "./requests.ts";
import type { TriggerRow } from "./schema.ts";
import type { TriggerService } from "./triggers.ts";
import "../events.ts";

/** A step is live only when its later value is at most this old. */
export const FRESH_MS = 10 * 60_000;
const PHASES = ["L1", "L2", "L3"] as const;

/** The parts of the measurement store the watcher uses. */
export interface WatchedStore {
  readonly latest: LatestValues;
  seriesId(cellId: string, feeder: number, phase: number): number | undefined;
  onSlotsTouched(listener: () => void): void;
}

export interface WatcherDeps {
  requests: RequestService;
  triggers: TriggerService;
  nodes: NodeLookup;
  store: WatchedStore;
  read: (seriesIds: readonly number[], from: number, to: number) => Promise<Map<number, RawSeries>>;
  bus: EventBus;
  logger: Logger;
  now?: () => number;
}

interface Watch {
  seriesId: number;
  trigger: TriggerRow;
  node: MonitoredNode;
  feeder: MonitoredFeeder;
  phase: number;
}

/** Runs the automatic triggers against the stored batches. */
export class TriggerWatcher {
  readonly #deps: WatcherDeps;
  readonly #now: () => number;
  /** Per series id: time and current of the newest evaluated value (-Infinity: none). */
  #seenTs = new Float64Array(0);
  #seenI = new Float64Array(0);
  #list: WatchList | null = null;
  #pendingK = new Int32Array(0);
  #pendingTs = new Float64Array(0);
  #pendingI = new Float64Array(0);
  #chain: Promise<void> = Promise.resolve();
  #queued = false;
  #closed = false;

  constructor(deps: WatcherDeps) {
    this.#deps = deps;
    this.#now = deps.now ?? Date.now;
  }

  /** Starts listening to the store; what is stored from now on is evaluated. */
  async start(): Promise<void> {
    this.#deps.store.onSlotsTouched(() => this.poke());
    this.#deps.triggers.onChanged(() => this.#enqueue(() => this.#reset()));
    await this.#enqueue(() => this.#reset());
  }

  /** Asks for an evaluation (coalesced with one already waiting). */
  poke(): void {
    if (this.#queued || this.#closed) return;
    this.#queued = true;
    void this.#enqueue(() => {
      this.#queued = false;
      return this.#evaluate();
    });
  }

  /** Resolves when every evaluation asked for so far has run. */
  idle(): Promise<void> {
    return this.#chain;
  }

  /** Stops evaluating and waits for the running evaluation. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#chain;
  }

  #enqueue(task: () => Promise<void>): Promise<void> {
    this.#chain = this.#chain.then(() => (this.#closed ? undefined : task())).catch((error) =>
      this.#deps.logger.error("Custom monitoring trigger evaluation failed", { error })
    );
    return this.#chain;
  }

  /** After a trigger change, only values stored from now on are compared. */
  async #reset(): Promise<void> {
    const { ids } = await this.#watched();
    const latest = this.#deps.store.latest;
    this.#seenTs.fill(-Infinity);
    for (const id of ids) this.#see(id, latest.ts(id), latest.i(id));
  }

  #see(seriesId: number, ts: number, i: number): void {
    if (seriesId >= this.#seenTs.length) {
      let size = Math.max(1024, this.#seenTs.length);
      while (size <= seriesId) size *= 2;
      const seenTs = new Float64Array(size).fill(-Infinity);
      const seenI = new Float64Array(size).fill(NaN);
      seenTs.set(this.#seenTs);
      seenI.set(this.#seenI);
      this.#seenTs = seenTs;
      this.#seenI = seenI;
    }
    this.#seenTs[seriesId] = ts;
    this.#seenI[seriesId] = i;
  }

  async #evaluate(): Promise<void> {
    const now = this.#now();
    const latest = this.#deps.store.latest;
    const { watches, ids, deltas } = await this.#watched();
    /** Steps found in memory and series whose window must be read, by position in `watches`. */
    const candidates: { k: number; step: CurrentStep }[] = [];
    /** `j`: the position of the series' new value among the pending ones. */
    const reads: { k: number; newest: number; seen: number; j: number }[] = [];
    // The new values, remembered as evaluated once the evaluation went through.
    if (this.#pendingK.length < watches.length) {
      this.#pendingK = new Int32Array(watches.length);
      this.#pendingTs = new Float64Array(watches.length);
      this.#pendingI = new Float64Array(watches.length);
    }
    const pendingK = this.#pendingK, pendingTs = this.#pendingTs, pendingI = this.#pendingI;
    let pending = 0;
    const seenTsOf = this.#seenTs, seenIOf = this.#seenI;
    const fresh = now - FRESH_MS;
    for (let k = 0; k < watches.length; k++) {
      const id = ids[k]!;
      const newest = latest.ts(id);
      const seenTs = id < seenTsOf.length ? seenTsOf[id]! : -Infinity;
      const seen = seenTs > fresh ? seenTs : fresh;
      if (!(newest > seen)) continue;
      const i = latest.i(id);
      pendingK[pending] = k;
      pendingTs[pending] = newest;
      pendingI[pending] = i;
      if (newest - seenTs !== VALUE_INTERVAL_MS) {
        reads.push({ k, newest, seen, j: pending++ });
        continue;
      }
      pending++;
      // Values are aligned to 20 s: none lies between the two, as the store would answer.
      const before = seenIOf[id]!;
      const changeA = Math.abs(i - before);
      if (changeA > deltas[k]!) {
        candidates.push({
          k,
          step: { before: { ts: seenTs, i: before }, after: { ts: newest, i }, changeA },
        });
      }
    }
    if (!pending) return;
    if (reads.length) {
      let from = Infinity, to = -Infinity;
      for (const c of reads) {
        from = Math.min(from, c.seen - VALUE_INTERVAL_MS);
        to = Math.max(to, c.newest + 1);
      }
      const values = await this.#deps.read([...new Set(reads.map((c) => ids[c.k]!))], from, to);
      for (const { k, newest, seen, j } of reads) {
        const series = values.get(ids[k]!);
        const points = series?.ts.flatMap((ts, n) =>
          ts <= newest ? [{ ts, i: series.i[n] ?? NaN }] : []
        ) ?? [];
        // The latest values run ahead of the file while journaled groups wait for their DuckDB
        // write: only what was read counts as evaluated, the rest is read after its write.
        const last = points.at(-1);
        pendingTs[j] = last && last.ts > seen ? last.ts : NaN;
        pendingI[j] = last?.i ?? NaN;
        const step = currentSteps(points, deltas[k]!, seen)[0];
        if (step) candidates.push({ k, step });
      }
      candidates.sort((a, b) => a.k - b.k);
    }
    for (let j = 0; j < pending; j++) {
      if (!Number.isNaN(pendingTs[j])) this.#see(ids[pendingK[j]!]!, pendingTs[j]!, pendingI[j]!);
    }
    // The earliest step of each node; on a tie, the first of its feeders and phases.
    const firstStep = new Map<string, { w: Watch; step: CurrentStep }>();
    for (const { k, step } of candidates) {
      const w = watches[k]!;
      const held = firstStep.get(w.node.id);
      if (!held || step.before.ts < held.step.before.ts) firstStep.set(w.node.id, { w, step });
    }
    if (!firstStep.size) return;
    const fires = [...firstStep.values()];
    const results = await this.#deps.requests.fireAll(
      fires.map(({ w, step }) => ({ trigger: w.trigger, node: w.node, startedAt: step.before.ts })),
    );
    for (let k = 0; k < fires.length; k++) await this.#publish(fires[k]!, results[k]!);
  }

  async #publish({ w, step }: { w: Watch; step: CurrentStep }, result: FireResult) {
    if (result.status === "IGNORED") return;
    await this.#deps.bus.publish("monitoring.customTriggerFired", {
      customerKey: w.node.customerKey,
      triggerId: w.trigger.id,
      nodeId: w.node.id,
      nodeName: w.node.name,
      electricalWorkName: w.node.electricalWorkName,
      feederId: w.feeder.id,
      phase: PHASES[w.phase]!,
      level: w.feeder.level,
      changeA: Math.round(step.changeA * 100) / 100,
      deltaA: delta(w),
      status: result.status,
      code: result.code,
      requestId: result.request?.id ?? null,
      at: new Date(step.after.ts).toISOString(),
    });
  }

  /**
   * Every feeder phase of every node that has an enabled trigger (its own or customer-wide),
   * listed again when the enabled triggers or a customer's nodes changed, or when a phase that
   * had no series yet got one (a cell's first values).
   */
  async #watched(): Promise<WatchList> {
    const rows = await this.#deps.triggers.enabledTriggers();
    type Scopes = { wide?: TriggerRow; nodes: Map<string, TriggerRow> };
    const byCustomer = new Map<string, Scopes>();
    for (const t of rows) {
      const entry: Scopes = byCustomer.get(t.customerKey) ?? { nodes: new Map() };
      if (t.nodeId === null) entry.wide = t;
      else entry.nodes.set(t.nodeId, t);
      byCustomer.set(t.customerKey, entry);
    }
    const nodeLists = new Map<string, readonly MonitoredNode[]>();
    for (const customerKey of byCustomer.keys()) {
      nodeLists.set(customerKey, await this.#deps.nodes.nodesOf(customerKey));
    }
    const store = this.#deps.store;
    const list = this.#list;
    if (
      list && !list.missing.some((m) => store.seriesId(m.cellId, m.slot, m.phase) !== undefined)
    ) {
      const same = list.rows === rows && list.nodeLists.size === nodeLists.size &&
        [...nodeLists].every(([key, nodes]) => list.nodeLists.get(key) === nodes);
      if (same) return list;
      // The caches re-read triggers and nodes every minute or so: mostly the same content.
      const signature = signatureOf(rows, nodeLists);
      if (signature === list.signature) return this.#list = { ...list, rows, nodeLists };
    }
    const watches: Watch[] = [];
    const missing: WatchList["missing"] = [];
    for (const [customerKey, triggers] of byCustomer) {
      for (const node of nodeLists.get(customerKey)!) {
        const trigger = triggers.nodes.get(node.id) ?? triggers.wide;
        if (!trigger || node.cellId === null) continue;
        for (const feeder of node.feeders) {
          for (let phase = 0; phase < PHASES.length; phase++) {
            const seriesId = store.seriesId(node.cellId, feeder.slot, phase);
            if (seriesId !== undefined) watches.push({ seriesId, trigger, node, feeder, phase });
            else missing.push({ cellId: node.cellId, slot: feeder.slot, phase });
          }
        }
      }
    }
    return this.#list = {
      rows,
      nodeLists,
      signature: signatureOf(rows, nodeLists),
      watches,
      ids: Int32Array.from(watches, (w) => w.seriesId),
      deltas: Float64Array.from(watches, delta),
      missing,
    };
  }
}

/** The watched series and what they were listed from. */
interface WatchList {
  rows: readonly TriggerRow[];
  nodeLists: Map<string, readonly MonitoredNode[]>;
  /** Everything of `rows` and `nodeLists` that the watches and their events carry. */
  signature: string;
  watches: Watch[];
  /** Per watch: its series id and the delta of its trigger at its level (A). */
  ids: Int32Array;
  deltas: Float64Array;
  /** Phases without a series yet. */
  missing: { cellId: string; slot: number; phase: number }[];
}

function signatureOf(
  rows: readonly TriggerRow[],
  nodeLists: Map<string, readonly MonitoredNode[]>,
): string {
  const parts = rows.map((t) =>
    [t.id, t.customerKey, t.nodeId, t.deltaLvA, t.deltaMvA, t.durationMin, t.enabled].join("|")
  );
  for (const [key, nodes] of nodeLists) {
    parts.push(key);
    for (const n of nodes) {
      parts.push(
        `${n.id}|${n.name}|${n.electricalWorkName}|${n.customerKey}|${n.cellId}|` +
          n.feeders.map((f) => `${f.id},${f.slot},${f.name},${f.level}`).join(";"),
      );
    }
  }
  return parts.join("\n");
}

/** The trigger's delta for the level of the watched feeder, in A. */
function delta(w: Watch): number {
  return w.feeder.level === "MV" ? w.trigger.deltaMvA : w.trigger.deltaLvA;
}
