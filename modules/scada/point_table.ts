/**
 * The activated points of a running profile in typed arrays (the connector scans them on every
 * commit of the measurement store), resolved to time-series ids lazily: a series exists only
 * once its cell sent it. Computes what the connector sends: new 20-s values (spontaneous), the
 * interrogation's snapshot, node state and cell connection changes. Pure: values come from a
 * `SeriesSource`, time from the caller.
 */
import type { Quantity } from "./contract.ts";
import { type PointValue, QUALITY } from "./iec104_codec.ts";
import type { Snapshot } from "./iec104_station.ts";
import type { StoredPoint } from "./points.ts";

/** A value older than this is not live: the cell counts as disconnected (grid status' rule). */
export const STALE_MS = 80_000;

/** What the connector needs to know about a customer's grid. */
export interface GridIndex {
  /** The installed cell of each node. */
  cellOf: Map<string, string>;
  /** The slot (protocol feeder number) of each feeder. */
  slotOf: Map<string, number>;
  /** The slots of each node's LV feeders (whose values show the cell is connected). */
  lvSlotsOf: Map<string, number[]>;
}

/** The newest values per series (core's LatestValues). */
export interface LatestSource {
  ts(id: number): number;
  u(id: number): number;
  i(id: number): number;
  p(id: number): number;
  q(id: number): number;
  f(id: number): number;
}

/** Where the table finds series ids and their newest values. */
export interface SeriesSource {
  latest: LatestSource;
  seriesId(cellId: string, slot: number, phase: number): number | undefined;
}

/** Point kinds: the floats first (up to FLOAT_MAX), then the single points. */
export const KIND: Record<Quantity, number> = {
  U: 0,
  I: 1,
  P: 2,
  Q: 3,
  FREQUENCY: 4,
  NODE_STATE: 5,
  CELL_CONNECTED: 6,
};
const FLOAT_MAX = KIND.FREQUENCY;
const BAD = QUALITY.IV | QUALITY.NT;

/** Per quantity, the change (in its unit) below which a new value is not sent spontaneously. */
export type Deadbands = Partial<Record<Quantity, number>>;

/** The float value of kind `kind` of series `id`. */
function valueOf(kind: number, id: number, latest: LatestSource): number {
  switch (kind) {
    case KIND.U:
      return latest.u(id);
    case KIND.I:
      return latest.i(id);
    case KIND.P:
      return latest.p(id);
    case KIND.Q:
      return latest.q(id);
    default:
      return latest.f(id);
  }
}

/** The activated points of a profile. */
export class PointTable {
  readonly size: number;
  readonly ioa: Int32Array;
  readonly kind: Uint8Array;
  readonly node: Int32Array;
  readonly series: Int32Array;
  readonly slot: Int32Array;
  readonly phase: Int8Array;
  /** Time of the newest value sent per point (spontaneous or interrogation). */
  readonly lastSent: Float64Array;
  /** The value and quality last sent spontaneously per float point (the deadband's reference). */
  readonly lastValue: Float32Array;
  readonly lastQuality: Int16Array;
  /** Per point, the deadband of its quantity (0: every new value is sent). */
  readonly deadband: Float32Array;
  readonly nodes: string[] = [];
  readonly nodeIndex = new Map<string, number>();
  readonly nodeCell: (string | null)[] = [];
  readonly nodeSlots: number[][] = [];
  /** Per node: 1/0 as last sent, -1 unknown. */
  readonly nodeConnected: Int8Array;
  readonly nodeAlarm: Int8Array;

  constructor(points: readonly StoredPoint[], grid: GridIndex, deadbands: Deadbands = {}) {
    const list = points.filter((p) => p.activated);
    this.size = list.length;
    this.ioa = new Int32Array(list.map((p) => p.ioa));
    this.kind = new Uint8Array(list.map((p) => KIND[p.quantity]));
    this.node = new Int32Array(this.size);
    this.series = new Int32Array(this.size).fill(-1);
    this.slot = new Int32Array(this.size).fill(-1);
    this.phase = new Int8Array(this.size);
    this.lastSent = new Float64Array(this.size).fill(-Infinity);
    this.lastValue = new Float32Array(this.size).fill(NaN);
    this.lastQuality = new Int16Array(this.size).fill(-1);
    this.deadband = new Float32Array(list.map((p) => deadbands[p.quantity] ?? 0));
    list.forEach((p, k) => {
      let n = this.nodeIndex.get(p.node_id);
      if (n === undefined) {
        n = this.nodes.length;
        this.nodeIndex.set(p.node_id, n);
        this.nodes.push(p.node_id);
        this.nodeCell.push(grid.cellOf.get(p.node_id) ?? null);
        this.nodeSlots.push(grid.lvSlotsOf.get(p.node_id) ?? []);
      }
      this.node[k] = n;
      if (p.feeder_id) this.slot[k] = grid.slotOf.get(p.feeder_id) ?? -1;
      // The node's frequency: its first LV feeder's L1 (the busbar, as the generated U).
      else if (p.quantity === "FREQUENCY") {
        const slots = grid.lvSlotsOf.get(p.node_id) ?? [];
        this.slot[k] = slots.length ? Math.min(...slots) : -1;
      }
      this.phase[k] = (p.phase ?? 1) - 1;
    });
    this.nodeConnected = new Int8Array(this.nodes.length).fill(-1);
    this.nodeAlarm = new Int8Array(this.nodes.length).fill(-1);
  }

  /** The series id of point `k` (-1 while its cell never sent it). */
  seriesOf(k: number, source: SeriesSource): number {
    let id = this.series[k]!;
    if (id >= 0) return id;
    const cell = this.nodeCell[this.node[k]!];
    const slot = this.slot[k]!;
    if (!cell || slot < 0) return -1;
    id = source.seriesId(cell, slot, this.phase[k]!) ?? -1;
    this.series[k] = id;
    return id;
  }

  /** Whether node `n`'s cell sent a value in the last STALE_MS. */
  connected(n: number, source: SeriesSource, now: number): boolean {
    const cell = this.nodeCell[n];
    if (!cell) return false;
    for (const slot of this.nodeSlots[n]!) {
      for (let phase = 0; phase < 3; phase++) {
        const id = source.seriesId(cell, slot, phase);
        if (id !== undefined && now - source.latest.ts(id) < STALE_MS) return true;
      }
    }
    return false;
  }

  /** Marks what exists now as sent: the interrogation answers it, spontaneous data follows. */
  prime(source: SeriesSource, now: number, states?: ReadonlyMap<string, string>): void {
    for (let k = 0; k < this.size; k++) {
      const id = this.kind[k]! <= FLOAT_MAX ? this.seriesOf(k, source) : -1;
      if (id < 0) continue;
      this.lastSent[k] = source.latest.ts(id);
      this.lastValue[k] = valueOf(this.kind[k]!, id, source.latest);
      this.lastQuality[k] = now - this.lastSent[k]! < STALE_MS ? 0 : BAD;
    }
    for (let n = 0; n < this.nodes.length; n++) {
      this.nodeConnected[n] = this.connected(n, source, now) ? 1 : 0;
      const state = states?.get(this.nodes[n]!);
      this.nodeAlarm[n] = state === undefined ? -1 : state === "OK" ? 0 : 1;
    }
  }

  /** Takes over what a previous table of the same profile sent. */
  inherit(old: PointTable): void {
    const sent = new Map<number, number>();
    for (let k = 0; k < old.size; k++) sent.set(old.ioa[k]!, k);
    for (let k = 0; k < this.size; k++) {
      const j = sent.get(this.ioa[k]!);
      if (j === undefined || old.kind[j] !== this.kind[k]) continue;
      this.lastSent[k] = old.lastSent[j]!;
      this.lastValue[k] = old.lastValue[j]!;
      this.lastQuality[k] = old.lastQuality[j]!;
    }
    old.nodes.forEach((id, n) => {
      const m = this.nodeIndex.get(id);
      if (m === undefined) return;
      this.nodeConnected[m] = old.nodeConnected[n]!;
      this.nodeAlarm[m] = old.nodeAlarm[n]!;
    });
  }

  /**
   * Float points (U, I, P, Q, f) with a value newer than the one sent (with its time tag); a
   * point with a deadband only when its value moved by at least the deadband from the value last
   * sent, or its quality changed.
   */
  newValues(source: SeriesSource, now: number): PointValue[] {
    const values: PointValue[] = [];
    for (let k = 0; k < this.size; k++) {
      const kind = this.kind[k]!;
      if (kind > FLOAT_MAX) continue;
      const id = this.seriesOf(k, source);
      if (id < 0) continue;
      const ts = source.latest.ts(id);
      if (!(ts > this.lastSent[k]!)) continue;
      this.lastSent[k] = ts;
      const value = valueOf(kind, id, source.latest);
      if (Number.isNaN(value)) continue;
      const quality = now - ts < STALE_MS ? 0 : BAD;
      const band = this.deadband[k]!;
      if (
        band > 0 && quality === this.lastQuality[k] &&
        Math.abs(value - this.lastValue[k]!) < band
      ) continue;
      this.lastValue[k] = value;
      this.lastQuality[k] = quality;
      values.push({ ioa: this.ioa[k]!, value, quality, at: ts });
    }
    return values;
  }

  /** The node state points of `nodeId` when its alarm (not OK) changed. */
  nodeStateValues(nodeId: string, state: string, at: number): PointValue[] {
    const n = this.nodeIndex.get(nodeId);
    if (n === undefined) return [];
    const alarm = state === "OK" ? 0 : 1;
    if (this.nodeAlarm[n] === alarm) return [];
    this.nodeAlarm[n] = alarm;
    const values: PointValue[] = [];
    for (let k = 0; k < this.size; k++) {
      if (this.node[k] === n && this.kind[k] === KIND.NODE_STATE) {
        values.push({ ioa: this.ioa[k]!, value: alarm, quality: 0, at });
      }
    }
    return values;
  }

  /** The cell-connected points whose cell connected or went silent since the last call. */
  connectivityChanges(source: SeriesSource, now: number): PointValue[] {
    const changed = new Map<number, number>();
    for (let n = 0; n < this.nodes.length; n++) {
      const value = this.connected(n, source, now) ? 1 : 0;
      if (this.nodeConnected[n] === value) continue;
      if (this.nodeConnected[n] !== -1) changed.set(n, value);
      this.nodeConnected[n] = value;
    }
    const values: PointValue[] = [];
    if (!changed.size) return values;
    for (let k = 0; k < this.size; k++) {
      const value = changed.get(this.node[k]!);
      if (value !== undefined && this.kind[k] === KIND.CELL_CONNECTED) {
        values.push({ ioa: this.ioa[k]!, value, quality: 0, at: now });
      }
    }
    return values;
  }

  /**
   * The values a general interrogation answers (untimed): IV + NT on the values of a node whose
   * cell is not connected, and on a node state not known yet.
   */
  snapshot(source: SeriesSource, now: number, states?: ReadonlyMap<string, string>): Snapshot {
    const floats: PointValue[] = [];
    const singles: PointValue[] = [];
    const connected = this.nodes.map((_, n) => this.connected(n, source, now));
    for (let k = 0; k < this.size; k++) {
      const kind = this.kind[k]!;
      const n = this.node[k]!;
      const ioa = this.ioa[k]!;
      if (kind <= FLOAT_MAX) {
        const id = this.seriesOf(k, source);
        const value = id < 0 ? NaN : valueOf(kind, id, source.latest);
        if (id >= 0) this.lastSent[k] = Math.max(this.lastSent[k]!, source.latest.ts(id));
        const quality = Number.isNaN(value) || !connected[n] ? BAD : 0;
        if (!Number.isNaN(value)) [this.lastValue[k], this.lastQuality[k]] = [value, quality];
        floats.push({ ioa, value: Number.isNaN(value) ? 0 : value, quality });
      } else if (kind === KIND.NODE_STATE) {
        const state = states?.get(this.nodes[n]!);
        singles.push({ ioa, value: state && state !== "OK" ? 1 : 0, quality: state ? 0 : BAD });
      } else {
        singles.push({ ioa, value: connected[n] ? 1 : 0, quality: 0 });
      }
    }
    return { floats, singles };
  }
}
