/**
 * Grid monitoring (evm): the grid status of spec 7 for LV or MV, shaped as the structure tree
 * with a state on every level, and a background evaluation that publishes state changes.
 *
 * One evaluation per customer and level serves every request until it could be out of date:
 * a newer latest value (once it is {@link REUSE_MS} old), a live phase going stale, other
 * thresholds or nominal voltages in the customer's settings, or a rebuilt topology. Its JSON
 * body and gzip are made once per evaluation and shared by every request that it answers.
 */
import { gzip } from "node:zlib";
import {
  evaluateGridStatus,
  type GridState,
  type LatestValues,
  liveUntil,
  type NodeStatus,
  type NodeTopology,
  type Thresholds,
} from "../../core/mod.ts";
import type { CustomerDto, CustomersService } from "../customers/mod.ts";
import type { EventBus } from "../../kernel/mod.ts";
import { allNodes, type NodeDto } from "../grid/mod.ts";
import { statusBody, type StatusTemplate, statusTemplate } from "./status_body.ts";
import type { Topology, TopologyCache } from "./topology.ts";
import "./events.ts";
import type { FullGridStatusDto, Level, StatusView } from "./contract.ts";

export type { FullGridStatusDto, GridStatusDto, Level, StatusView } from "./contract.ts";

/**
 * How long an evaluation answers requests although newer values arrived: one 20-s value
 * interval. Cells send every 20 s at different moments, so without it every request would
 * evaluate again; the 20-s watch (`publishChanges`) evaluates and encodes the answer in the
 * background, so requests find it ready, at most one value interval old, well within the
 * screen's 30-s refresh (spec 9).
 */
export const REUSE_MS = 20_000;

/** Nominal phase-to-neutral voltage of a level from the customer's settings. */
export function nominalVoltage(customer: CustomerDto, level: Level): number {
  if (level === "MV") return (customer.default_mv_nominal_voltage ?? 16000) / Math.sqrt(3);
  const phase = Number.parseFloat(
    (customer.default_lv_nominal_voltage ?? "230/400").split("/")[0] ?? "230",
  );
  return Number.isFinite(phase) && phase > 0 ? phase : 230;
}

/** One node as the current evaluation sees it (GridStatusService.nodeEvaluation). */
export interface NodeEvaluation {
  evaluatedAt: number;
  status: NodeStatus;
  topology: NodeTopology;
  path: {
    stationGroup: { id: string; name: string };
    mvFeederGroup: { id: string; name: string };
    lvGroup: { id: string; name: string };
    node: NodeDto;
  };
  /** The name of a node of the customer (for `suppressed_by`). */
  nameOf(id: string): string | null;
  /** Nominal phase voltage of the level (V). */
  nominalVoltage: number;
  thresholds: Thresholds;
}

/** One encoded answer: the JSON body, its gzip on demand and a weak ETag. */
export interface StatusAnswer {
  body: Uint8Array;
  etag: string;
  gzip(): Promise<Uint8Array>;
}

/** One evaluation of a customer's level and what it was computed from. */
interface Evaluation {
  settings: string;
  topology: Topology;
  version: number;
  evaluatedAt: number;
  /** The evaluation is wrong after this time (a live phase goes stale). */
  validUntil: number;
  statuses: NodeStatus[];
  answers: Partial<Record<StatusView, StatusAnswer>>;
}

/** What the service reads: topologies, the latest values and the customers' settings. */
export interface GridStatusDeps {
  topology: Pick<TopologyCache, "get"> & Partial<Pick<TopologyCache, "onBuilt">>;
  store: { readonly latest: LatestValues };
  customers: Pick<CustomersService, "getByKey">;
}

// Weak ETags carry this process's id: another process (or a restart) never matches.
const INSTANCE = crypto.randomUUID().slice(0, 8);

/** Computes grid status and watches it for changes. */
export class GridStatusService {
  readonly #previous = new Map<string, GridState>();
  readonly #evaluations = new Map<string, Evaluation>();
  readonly #templates = new WeakMap<readonly NodeTopology[], StatusTemplate>();
  #sequence = 0;
  /** Length of the last body per customer and level, to size the next one's buffer. */
  readonly #sizes = new Map<string, number>();
  /** {@link REUSE_MS}; the benchmark sets 0 to time every answer after new values. */
  reuseMs = REUSE_MS;

  constructor(
    private readonly topology: GridStatusDeps["topology"],
    private readonly store: GridStatusDeps["store"],
    private readonly customers: GridStatusDeps["customers"],
  ) {
    // Templates are made when a topology is built, not by the first request that needs them.
    topology.onBuilt?.((t) => {
      this.#template(t, "LV");
      this.#template(t, "MV");
    });
  }

  #template(topology: Topology, level: Level): StatusTemplate {
    const nodes = level === "LV" ? topology.lv : topology.mv;
    let template = this.#templates.get(nodes);
    if (!template) this.#templates.set(nodes, template = statusTemplate(topology.structure, nodes));
    return template;
  }

  /**
   * The evaluation of one customer's level at `now`: the held one while still right (and, with
   * `reuse`, up to {@link reuseMs} old although newer values arrived), else a new one.
   */
  async #current(
    customerKey: string,
    level: Level,
    now: number,
    reuse: boolean,
  ): Promise<Evaluation> {
    const customer = await this.customers.getByKey(customerKey);
    if (!customer) throw new Error(`Unknown customer ${customerKey}`);
    const topology = await this.topology.get(customerKey, now);
    // From here on nothing awaits: concurrent requests find the evaluation this one makes.
    const t = customer.warning_thresholds;
    const un = nominalVoltage(customer, level);
    const settings = [un, t.overvoltage_pct, t.undervoltage_pct, t.overcurrent_pct].join("|");
    const key = `${customerKey}|${level}`;
    const held = this.#evaluations.get(key);
    const latest = this.store.latest;
    if (
      // A newer evaluation (made by a request that started later) answers as well.
      held && held.settings === settings && held.topology === topology &&
      now <= held.validUntil &&
      (held.version === latest.version || (reuse && now - held.evaluatedAt < this.reuseMs))
    ) return held;
    const nodes = level === "LV" ? topology.lv : topology.mv;
    const evaluation: Evaluation = {
      settings,
      topology,
      version: latest.version,
      evaluatedAt: now,
      validUntil: liveUntil(nodes, latest, now),
      statuses: evaluateGridStatus(nodes, latest, un, {
        overvoltagePct: t.overvoltage_pct,
        undervoltagePct: t.undervoltage_pct,
        overcurrentPct: t.overcurrent_pct,
      }, now),
      answers: {},
    };
    this.#evaluations.set(key, evaluation);
    return evaluation;
  }

  /** The encoded status of one customer's grid at one voltage level. */
  async answer(
    customerKey: string,
    level: Level,
    now = Date.now(),
    view: StatusView = "full",
  ): Promise<StatusAnswer> {
    const evaluation = await this.#current(customerKey, level, now, true);
    return evaluation.answers[view] ??= this.#encode(customerKey, evaluation, level, view);
  }

  /** The status of one customer's grid at one voltage level (the full view). */
  async status(customerKey: string, level: Level, now = Date.now()): Promise<FullGridStatusDto> {
    const { body } = await this.answer(customerKey, level, now);
    return JSON.parse(new TextDecoder().decode(body)) as FullGridStatusDto;
  }

  #encode(
    customerKey: string,
    evaluation: Evaluation,
    level: Level,
    view: StatusView,
  ): StatusAnswer {
    const { topology, statuses } = evaluation;
    const key = `${customerKey}|${level}|${view}`;
    const body = statusBody(this.#template(topology, level), statuses, {
      level,
      evaluatedAt: evaluation.evaluatedAt,
      hasMvValues: topology.mv.length > 0,
      feeders: view === "full",
    }, this.#sizes.get(key));
    this.#sizes.set(key, body.length + 4096);
    let zipped: Promise<Uint8Array> | undefined;
    return {
      body,
      etag: `W/"${INSTANCE}-${++this.#sequence}"`,
      // Level 1: a quarter of the JSON's size, several times faster than the default level 6.
      gzip: () =>
        zipped ??= new Promise<Uint8Array>((resolve, reject) =>
          gzip(body, { level: 1 }, (error, out) => error ? reject(error) : resolve(out))
        ).catch((error) => {
          zipped = undefined; // the next request tries again
          throw error;
        }),
    };
  }

  /**
   * One node of the evaluation that answers the grid status of `level` now (the same states the
   * screen's list shows), with the structure around it and the rules it was evaluated with;
   * null when the customer has no such node at that level.
   */
  async nodeEvaluation(
    customerKey: string,
    level: Level,
    nodeId: string,
    now = Date.now(),
  ): Promise<NodeEvaluation | null> {
    const evaluation = await this.#current(customerKey, level, now, true);
    const { topology, statuses } = evaluation;
    const nodes = level === "LV" ? topology.lv : topology.mv;
    const k = nodes.findIndex((n) => n.id === nodeId);
    if (k < 0) return null;
    let path: NodeEvaluation["path"] | null = null;
    const names = new Map<string, string>();
    for (const g of topology.structure) {
      for (const m of g.mv_feeder_groups) {
        for (const l of m.lv_groups) {
          for (const node of l.nodes) {
            names.set(node.id, node.name);
            if (node.id === nodeId) path = { stationGroup: g, mvFeederGroup: m, lvGroup: l, node };
          }
        }
      }
    }
    const customer = await this.customers.getByKey(customerKey);
    if (!path || !customer) return null;
    const t = customer.warning_thresholds;
    return {
      evaluatedAt: evaluation.evaluatedAt,
      status: statuses[k]!,
      topology: nodes[k]!,
      path,
      nameOf: (id) => names.get(id) ?? null,
      nominalVoltage: nominalVoltage(customer, level),
      thresholds: {
        overvoltagePct: t.overvoltage_pct,
        undervoltagePct: t.undervoltage_pct,
        overcurrentPct: t.overcurrent_pct,
      },
    };
  }

  /** Evaluates every customer's LV and MV grid and publishes the nodes whose state changed. */
  async publishChanges(
    bus: EventBus,
    customerKeys: readonly string[],
    now = Date.now(),
  ): Promise<number> {
    let changes = 0;
    for (const customerKey of customerKeys) {
      for (const level of ["LV", "MV"] as const) {
        const evaluation = await this.#current(customerKey, level, now, false);
        const { topology, statuses, evaluatedAt } = evaluation;
        // The screens' next requests find the answers encoded (gzip made off the event loop).
        for (const view of ["summary", "full"] as const) {
          const answer = evaluation.answers[view] ??= this.#encode(
            customerKey,
            evaluation,
            level,
            view,
          );
          answer.gzip().catch(() => undefined);
        }
        const nodes = new Map(allNodes(topology.structure).map((n) => [n.id, n]));
        for (const status of statuses) {
          const key = `${level}|${status.id}`;
          const before = this.#previous.get(key);
          this.#previous.set(key, status.state);
          const node = nodes.get(status.id);
          if (before === undefined || before === status.state || !node) continue;
          changes++;
          await bus.publish("monitoring.nodeStateChanged", {
            customerKey,
            nodeId: status.id,
            nodeName: node.name,
            electricalWorkName: node.electrical_work.name,
            level,
            from: before,
            to: status.state,
            suppressedBy: status.suppressedBy,
            at: new Date(evaluatedAt).toISOString(),
          });
        }
      }
    }
    return changes;
  }
}
