/**
 * Grid monitoring (evm): the grid status of spec 7 for LV or MV, shaped as the structure tree
 * with a state on every level, and a background evaluation that publishes state changes.
 */
import {
  countAlarms,
  evaluateGridStatus,
  type GridState,
  type MeasurementStore,
  type NodeStatus,
  STATES,
  worst,
} from "../../core/mod.ts";
import type { CustomerDto, CustomersService } from "../customers/mod.ts";
import type { EventBus } from "../kernel/mod.ts";
import { allNodes, type NodeDto } from "../grid/mod.ts";
import type { TopologyCache } from "./topology.ts";
import "./events.ts";

export type Level = "LV" | "MV";

/** One phase of a feeder in the status. */
export interface PhaseStatusDto {
  phase: "L1" | "L2" | "L3";
  u: number | null;
  i: number | null;
  state: GridState;
}

/** A node in the status tree. */
export interface NodeStatusDto extends Omit<NodeDto, "feeders"> {
  state: GridState;
  suppressed_by: string | null;
  last_value_at: string | null;
  feeders: {
    id: string;
    slot: number;
    name: string;
    type: string;
    state: GridState;
    phases: PhaseStatusDto[];
  }[];
}

type Tree<T> = { id: string; name: string; state: GridState } & T;

/** The answer of GET /evm/grid-monitoring/grid-status. */
export interface GridStatusDto {
  level: Level;
  evaluated_at: string;
  has_mv_values: boolean;
  alarms: number;
  counts: Record<GridState, number>;
  station_groups: Tree<
    { mv_feeder_groups: Tree<{ lv_groups: Tree<{ nodes: NodeStatusDto[] }>[] }>[] }
  >[];
}

const PHASES = ["L1", "L2", "L3"] as const;

/** Nominal phase-to-neutral voltage of a level from the customer's settings. */
export function nominalVoltage(customer: CustomerDto, level: Level): number {
  if (level === "MV") return (customer.default_mv_nominal_voltage ?? 16000) / Math.sqrt(3);
  const phase = Number.parseFloat(
    (customer.default_lv_nominal_voltage ?? "230/400").split("/")[0] ?? "230",
  );
  return Number.isFinite(phase) && phase > 0 ? phase : 230;
}

/** Computes grid status and watches it for changes. */
export class GridStatusService {
  readonly #previous = new Map<string, GridState>();

  constructor(
    private readonly topology: TopologyCache,
    private readonly store: MeasurementStore,
    private readonly customers: CustomersService,
  ) {}

  /** Node states of one customer's grid at one level, without building the response tree. */
  async #evaluate(customerKey: string, level: Level, now: number) {
    const customer = await this.customers.getByKey(customerKey);
    if (!customer) throw new Error(`Unknown customer ${customerKey}`);
    const topology = await this.topology.get(customerKey, now);
    const t = customer.warning_thresholds;
    const statuses = evaluateGridStatus(
      level === "LV" ? topology.lv : topology.mv,
      this.store.latest,
      nominalVoltage(customer, level),
      {
        overvoltagePct: t.overvoltage_pct,
        undervoltagePct: t.undervoltage_pct,
        overcurrentPct: t.overcurrent_pct,
      },
      now,
    );
    return { topology, statuses };
  }

  /** The status of one customer's grid at one voltage level. */
  async status(customerKey: string, level: Level, now = Date.now()): Promise<GridStatusDto> {
    const { topology: { structure, mv }, statuses } = await this.#evaluate(customerKey, level, now);
    const byId = new Map(statuses.map((s) => [s.id, s]));
    const counts = Object.fromEntries(STATES.map((s) => [s, 0])) as Record<GridState, number>;
    for (const s of statuses) counts[s.state]++;
    const roll = <T extends { state: GridState }>(items: T[]) =>
      items.reduce((acc, x) => worst(acc, x.state), "OK" as GridState);
    const groups = structure.map((g) => {
      const mvGroups = g.mv_feeder_groups.map((m) => {
        const lvGroups = m.lv_groups.map((l) => {
          const nodeDtos = l.nodes.flatMap((n) => {
            const s = byId.get(n.id);
            return s ? [toNodeDto(n, s)] : [];
          });
          return { id: l.id, name: l.name, state: roll(nodeDtos), nodes: nodeDtos };
        }).filter((l) => l.nodes.length);
        return { id: m.id, name: m.name, state: roll(lvGroups), lv_groups: lvGroups };
      }).filter((m) => m.lv_groups.length);
      return { id: g.id, name: g.name, state: roll(mvGroups), mv_feeder_groups: mvGroups };
    }).filter((g) => g.mv_feeder_groups.length);
    return {
      level,
      evaluated_at: new Date(now).toISOString(),
      has_mv_values: mv.length > 0,
      alarms: countAlarms(statuses),
      counts,
      station_groups: groups,
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
        const { topology, statuses } = await this.#evaluate(customerKey, level, now);
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
            at: new Date(now).toISOString(),
          });
        }
      }
    }
    return changes;
  }
}

function toNodeDto(node: NodeDto, status: NodeStatus): NodeStatusDto {
  const feederStatus = new Map(status.feeders.map((f) => [f.id, f]));
  return {
    id: node.id,
    name: node.name,
    latitude: node.latitude,
    longitude: node.longitude,
    electrical_distance: node.electrical_distance,
    upstream_node_id: node.upstream_node_id,
    electrical_work: node.electrical_work,
    state: status.state,
    suppressed_by: status.suppressedBy,
    last_value_at: status.lastValueAt === null ? null : new Date(status.lastValueAt).toISOString(),
    feeders: node.feeders.flatMap((f) => {
      const s = feederStatus.get(f.id);
      if (!s) return [];
      return [{
        id: f.id,
        slot: f.slot,
        name: f.name,
        type: f.type,
        state: s.state,
        phases: s.phases.map((p, k) => ({
          phase: PHASES[k]!,
          u: round2(p.u),
          i: round2(p.i),
          state: p.state,
        })),
      }];
    }),
  };
}

function round2(v: number | null): number | null {
  return v === null ? null : Math.round(v * 100) / 100;
}
