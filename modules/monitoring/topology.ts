/**
 * The monitored topology of a customer: the grid structure joined with the cells installed at
 * its nodes and the time-series ids their phases write to, checked every 30 s and rebuilt when
 * it changed.
 */
import type { MeasurementStore, NodeTopology } from "../../core/mod.ts";
import {
  allNodes,
  type CellsService,
  isMvFeeder,
  readStructure,
  type StationGroupDto,
  structureVersion,
} from "../grid/mod.ts";
import type { Db } from "../../kernel/mod.ts";

/** A structure plus the evaluation input per voltage level. */
export interface Topology {
  structure: StationGroupDto[];
  lv: NodeTopology[];
  mv: NodeTopology[];
  /** When it was built or last found unchanged. */
  builtAt: number;
  /** What it was built from (structure version and known series): equal means unchanged. */
  version: string;
}

const TTL_MS = 30_000;
/** Older than this, a topology is not served while the new one is built. */
const MAX_AGE_MS = 120_000;

/**
 * Builds and caches topologies per customer. A topology older than 30 s is checked in the
 * background while the held one still answers (the grid-status watch asks every 20 s, so it
 * stays current): a one-row-per-table version query, and a rebuild only when the structure, the
 * cells' placement or the set of known series changed. Reading the structure of thousands of
 * nodes takes the embedded database about a second of the event loop, so it must not happen
 * every 30 s, nor while a request waits; concurrent callers share one check.
 */
export class TopologyCache {
  readonly #cache = new Map<string, { topology?: Topology; building?: Promise<Topology> }>();
  readonly #listeners: ((topology: Topology) => void)[] = [];

  constructor(
    private readonly db: Db,
    private readonly cells: CellsService,
    private readonly store: MeasurementStore,
  ) {}

  async get(customerKey: string, now = Date.now()): Promise<Topology> {
    const entry = this.#cache.get(customerKey);
    const held = entry?.topology;
    if (held && now - held.builtAt < TTL_MS) return held;
    const building = entry?.building ?? this.#refresh(customerKey, now);
    if (held && now - held.builtAt < MAX_AGE_MS) {
      building.catch(() => undefined); // a failed build is tried again by the next call
      return held;
    }
    return await building;
  }

  /** Calls `listener` with every topology built (to prepare what depends on it). */
  onBuilt(listener: (topology: Topology) => void): void {
    this.#listeners.push(listener);
  }

  #refresh(customerKey: string, now: number): Promise<Topology> {
    const entry = this.#cache.get(customerKey) ?? {};
    this.#cache.set(customerKey, entry);
    const building = this.#check(customerKey, entry.topology, now).then((topology) => {
      // An unchanged topology keeps its identity, so evaluations and answers made from it
      // stay valid.
      if (topology === entry.topology) return topology;
      entry.topology = topology;
      for (const listener of this.#listeners) {
        try {
          listener(topology);
        } catch {
          // Preparation only: whatever it prepares is made on demand as well.
        }
      }
      return topology;
    }).finally(() => {
      if (entry.building === building) delete entry.building;
    });
    entry.building = building;
    return building;
  }

  /** `held` when nothing it was built from changed (then marked current), else a new build. */
  async #check(customerKey: string, held: Topology | undefined, now: number): Promise<Topology> {
    const version = `${await structureVersion(this.db)}|${this.store.seriesCount}`;
    if (held?.version === version) {
      held.builtAt = now;
      return held;
    }
    return await this.#build(customerKey, now, version);
  }

  async #build(customerKey: string, now: number, version: string): Promise<Topology> {
    const structure = await readStructure(this.db, customerKey);
    const cellOf = new Map<string, string>();
    for (const cell of await this.cells.listFor(customerKey, "INSTALLED")) {
      if (cell.node_id && !cell.revoked) cellOf.set(cell.node_id, cell.id);
    }
    const lv: NodeTopology[] = [];
    const mv: NodeTopology[] = [];
    for (const node of allNodes(structure)) {
      const cellId = cellOf.get(node.id);
      const feeders = (mvOnly: boolean) =>
        node.feeders.filter((f) => isMvFeeder(f) === mvOnly).map((f) => ({
          id: f.id,
          slot: f.slot,
          nominalCurrentA: f.nominal_current_a,
          series: [0, 1, 2].map((
            phase,
          ) => (cellId ? this.store.seriesId(cellId, f.slot, phase) : undefined)),
        }));
      lv.push({ id: node.id, upstreamNodeId: node.upstream_node_id, feeders: feeders(false) });
      const mvFeeders = feeders(true);
      if (mvFeeders.length) {
        mv.push({ id: node.id, upstreamNodeId: node.upstream_node_id, feeders: mvFeeders });
      }
    }
    return { structure, lv, mv, builtAt: now, version };
  }
}
