/**
 * The nodes custom monitoring works on: each node of a customer with its feeders (LV or MV) and
 * the cell installed there, read from the grid module and cached per customer for 30 s.
 */
import { type CellsService, feederLevel, readStructure } from "../../grid/mod.ts";
import type { Db } from "../../../kernel/mod.ts";

/** A feeder and the voltage level its currents are compared at. */
export interface MonitoredFeeder {
  id: string;
  slot: number;
  name: string;
  level: "LV" | "MV";
}

/** A node with what custom monitoring needs of it. */
export interface MonitoredNode {
  id: string;
  name: string;
  electricalWorkName: string;
  customerKey: string;
  /** The installed, not revoked cell measuring the node, or null. */
  cellId: string | null;
  feeders: MonitoredFeeder[];
}

/** Node lookups; a node outside `customerKeys` is not found, like a missing one. */
export interface NodeLookup {
  nodesOf(customerKey: string): Promise<MonitoredNode[]>;
  find(nodeId: string, customerKeys: readonly string[]): Promise<MonitoredNode | null>;
}

const TTL_MS = 30_000;
// A miss re-reads the structure (a node created seconds ago), but not more often than this.
const MISS_REFRESH_MS = 2_000;

/** {@link NodeLookup} on the grid module's structure and cells. */
export class NodeDirectory implements NodeLookup {
  readonly #cache = new Map<
    string,
    { at: number; nodes: Map<string, MonitoredNode>; list: MonitoredNode[] }
  >();

  constructor(
    private readonly db: Db,
    private readonly cells: CellsService,
    private readonly now: () => number = Date.now,
  ) {}

  /** The customer's nodes; the same array until the directory re-reads them. */
  async nodesOf(customerKey: string): Promise<MonitoredNode[]> {
    await this.#get(customerKey, TTL_MS);
    return this.#cache.get(customerKey)!.list;
  }

  async find(nodeId: string, customerKeys: readonly string[]): Promise<MonitoredNode | null> {
    for (const maxAge of [TTL_MS, MISS_REFRESH_MS]) {
      for (const key of customerKeys) {
        const node = (await this.#get(key, maxAge)).get(nodeId);
        if (node) return node;
      }
    }
    return null;
  }

  async #get(customerKey: string, maxAgeMs: number): Promise<Map<string, MonitoredNode>> {
    const cached = this.#cache.get(customerKey);
    const now = this.now();
    if (cached && now - cached.at < maxAgeMs) return cached.nodes;
    const structure = await readStructure(this.db, customerKey);
    const cellOf = new Map<string, string>();
    for (const cell of await this.cells.listFor(customerKey, "INSTALLED")) {
      if (cell.node_id && !cell.revoked && !cellOf.has(cell.node_id)) {
        cellOf.set(cell.node_id, cell.id);
      }
    }
    const nodes = new Map<string, MonitoredNode>();
    for (const group of structure) {
      for (const mv of group.mv_feeder_groups) {
        for (const lv of mv.lv_groups) {
          for (const n of lv.nodes) {
            nodes.set(n.id, {
              id: n.id,
              name: n.name,
              electricalWorkName: n.electrical_work.name,
              customerKey,
              cellId: cellOf.get(n.id) ?? null,
              feeders: n.feeders.map((f) => ({
                id: f.id,
                slot: f.slot,
                name: f.name,
                level: feederLevel(f),
              })),
            });
          }
        }
      }
    }
    this.#cache.set(customerKey, { at: now, nodes, list: [...nodes.values()] });
    return nodes;
  }
}
