/**
 * Evaluates the automatic triggers on every stored batch: the store calls back after each
 * commit, the watcher reads the new 20-s currents of the watched feeder phases and starts a
 * request on each node where two consecutive values differ by more than the trigger's delta.
 *
 * Evaluations run one at a time and coalesce: batches stored during an evaluation are all read
 * by the next one. Each series remembers the newest value already evaluated, so a value pair is
 * compared once; values older than {@link FRESH_MS} (history being filled in) never fire.
 */
import {
  type CurrentStep,
  currentSteps,
  type LatestValues,
  type RawSeries,
  VALUE_INTERVAL_MS,
} from "../../core/mod.ts";
import type { EventBus, Logger } from "../kernel/mod.ts";
import type { MonitoredFeeder, MonitoredNode, NodeLookup } from "./custom_nodes.ts";
import type { RequestService } from "./custom_requests.ts";
import type { TriggerRow } from "./custom_schema.ts";
import type { TriggerService } from "./custom_triggers.ts";
import "./events.ts";

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
  /** Newest evaluated value per watched series. */
  readonly #seen = new Map<number, number>();
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
    const watched = await this.#watched();
    this.#seen.clear();
    for (const w of watched) this.#seen.set(w.seriesId, this.#deps.store.latest.ts(w.seriesId));
  }

  async #evaluate(): Promise<void> {
    const now = this.#now();
    const latest = this.#deps.store.latest;
    const changed = (await this.#watched()).flatMap((w) => {
      const newest = latest.ts(w.seriesId);
      const seen = Math.max(this.#seen.get(w.seriesId) ?? -Infinity, now - FRESH_MS);
      return newest > seen ? [{ w, newest, seen }] : [];
    });
    if (!changed.length) return;
    const from = Math.min(...changed.map((c) => c.seen)) - VALUE_INTERVAL_MS;
    const to = Math.max(...changed.map((c) => c.newest)) + 1;
    const values = await this.#deps.read([...new Set(changed.map((c) => c.w.seriesId))], from, to);
    const firstStep = new Map<string, { w: Watch; step: CurrentStep }>();
    for (const { w, newest, seen } of changed) {
      this.#seen.set(w.seriesId, newest);
      const series = values.get(w.seriesId);
      if (!series) continue;
      const points = series.ts.flatMap((ts, k) =>
        ts <= newest ? [{ ts, i: series.i[k] ?? NaN }] : []
      );
      const delta = w.feeder.level === "MV" ? w.trigger.deltaMvA : w.trigger.deltaLvA;
      const step = currentSteps(points, delta, seen)[0];
      const held = firstStep.get(w.node.id);
      if (step && (!held || step.before.ts < held.step.before.ts)) {
        firstStep.set(w.node.id, { w, step });
      }
    }
    for (const { w, step } of firstStep.values()) await this.#fire(w, step);
  }

  async #fire(w: Watch, step: CurrentStep): Promise<void> {
    const result = await this.#deps.requests.fire(w.trigger, w.node, step.before.ts);
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
      deltaA: w.feeder.level === "MV" ? w.trigger.deltaMvA : w.trigger.deltaLvA,
      status: result.status,
      code: result.code,
      requestId: result.request?.id ?? null,
      at: new Date(step.after.ts).toISOString(),
    });
  }

  /** Every feeder phase of every node that has an enabled trigger (its own or customer-wide). */
  async #watched(): Promise<Watch[]> {
    type Scopes = { wide?: TriggerRow; nodes: Map<string, TriggerRow> };
    const byCustomer = new Map<string, Scopes>();
    for (const t of await this.#deps.triggers.enabledTriggers()) {
      const entry: Scopes = byCustomer.get(t.customerKey) ?? { nodes: new Map() };
      if (t.nodeId === null) entry.wide = t;
      else entry.nodes.set(t.nodeId, t);
      byCustomer.set(t.customerKey, entry);
    }
    const watched: Watch[] = [];
    for (const [customerKey, triggers] of byCustomer) {
      for (const node of await this.#deps.nodes.nodesOf(customerKey)) {
        const trigger = triggers.nodes.get(node.id) ?? triggers.wide;
        if (!trigger || node.cellId === null) continue;
        for (const feeder of node.feeders) {
          for (let phase = 0; phase < PHASES.length; phase++) {
            const seriesId = this.#deps.store.seriesId(node.cellId, feeder.slot, phase);
            if (seriesId !== undefined) watched.push({ seriesId, trigger, node, feeder, phase });
          }
        }
      }
    }
    return watched;
  }
}
