/**
 * The JSON body of GET /evm/grid-monitoring/grid-status written straight from an evaluation
 * into bytes: the static parts of every station group, node and feeder (ids, names, positions)
 * are encoded once per topology and level, and each answer only copies them and writes the
 * states and values (ASCII) in between. `JSON.parse` of it gives {@link GridStatusDto}.
 */
import {
  countAlarms,
  type GridState,
  type NodeStatus,
  type NodeTopology,
  STATES,
  worst,
} from "../../core/mod.ts";
import { isMvFeeder, type StationGroupDto } from "../grid/mod.ts";
import type { Level } from "./contract.ts";

export type { GridStatusDto, Level, NodeStatusDto, PhaseStatusDto } from "./contract.ts";

const encoder = new TextEncoder();
const ascii = (s: string) => encoder.encode(s);

/** A group's opening up to its state (a fragment), and its children. */
interface Group<T> {
  head: number;
  children: T[];
}

/**
 * The static JSON of one level's tree, as fragments of one byte buffer: fragment f spans
 * `bytes[start[f]..start[f + 1]]`. Node indexes point into the evaluated statuses.
 */
export interface StatusTemplate {
  bytes: Uint8Array;
  start: Uint32Array;
  groups: Group<Group<Group<number>>>[];
  /** Per node index: the fragment `{"id":..,...,"state":`; its feeders' follow it in order. */
  nodeHead: Uint32Array;
  /** Node id -> the fragment of its id as a JSON string (for `suppressed_by`). */
  quotedIds: Map<string, number>;
}

/** Fragments written one after the other into one growing buffer. */
class Fragments {
  bytes = new Uint8Array(1 << 16);
  start: number[] = [0];

  add(text: string): number {
    for (;;) {
      const at = this.start[this.start.length - 1]!;
      const { read, written } = encoder.encodeInto(text, this.bytes.subarray(at));
      if (read === text.length) {
        this.start.push(at + written);
        return this.start.length - 2;
      }
      const bytes = new Uint8Array(this.bytes.length * 2);
      bytes.set(this.bytes);
      this.bytes = bytes;
    }
  }
}

/**
 * The template of `nodes` (one level's evaluation input, in the order the evaluation answers)
 * within `structure`; groups without a node of that level are left out.
 */
export function statusTemplate(
  structure: readonly StationGroupDto[],
  nodes: readonly NodeTopology[],
): StatusTemplate {
  const q = JSON.stringify;
  const index = new Map(nodes.map((n, k) => [n.id, k]));
  const fragments = new Fragments();
  const head = (x: { id: string; name: string }) =>
    fragments.add(`{"id":${q(x.id)},"name":${q(x.name)},"state":`);
  const nodeHead = new Uint32Array(nodes.length);
  const quotedIds = new Map<string, number>();
  const groups = structure.map((g) => ({
    head: head(g),
    children: g.mv_feeder_groups.map((m) => ({
      head: head(m),
      children: m.lv_groups.map((l) => ({
        head: head(l),
        children: l.nodes.flatMap((node) => {
          quotedIds.set(node.id, fragments.add(q(node.id)));
          const k = index.get(node.id);
          if (k === undefined) return [];
          const ew = node.electrical_work;
          nodeHead[k] = fragments.add(
            `{"id":${q(node.id)},"name":${q(node.name)},"latitude":${q(node.latitude)},` +
              `"longitude":${q(node.longitude)},"upstream_node_id":${q(node.upstream_node_id)},` +
              `"electrical_work":{"name":${q(ew.name)},"type":${q(ew.type)}},` +
              `"has_mv_values":${node.feeders.some(isMvFeeder)},"state":`,
          );
          for (const t of nodes[k]!.feeders) {
            const f = node.feeders.find((f) => f.id === t.id)!;
            fragments.add(
              `{"id":${q(f.id)},"slot":${f.slot},"name":${q(f.name)},"type":${q(f.type)},"state":`,
            );
          }
          return [k];
        }),
      })).filter((l) => l.children.length),
    })).filter((m) => m.children.length),
  })).filter((g) => g.children.length);
  return {
    bytes: fragments.bytes,
    start: Uint32Array.from(fragments.start),
    groups,
    nodeHead,
    quotedIds,
  };
}

/** A growing byte buffer written in ASCII and copied fragments. */
export class JsonWriter {
  #buf: Uint8Array;
  #pos = 0;

  constructor(size = 1 << 16) {
    this.#buf = new Uint8Array(size);
  }

  /** Copies `src[from..to]`. */
  copy(src: Uint8Array, from = 0, to = src.length): void {
    const n = to - from;
    this.#room(n);
    const buf = this.#buf;
    const pos = this.#pos;
    if (n > 64) buf.set(src.subarray(from, to), pos);
    else for (let k = 0; k < n; k++) buf[pos + k] = src[from + k]!;
    this.#pos = pos + n;
  }

  /** Writes an ASCII string. */
  ascii(s: string): void {
    this.#room(s.length);
    const buf = this.#buf;
    let pos = this.#pos;
    for (let k = 0; k < s.length; k++) buf[pos++] = s.charCodeAt(k);
    this.#pos = pos;
  }

  /** Writes `v` rounded to 2 decimals (spec 9: formatted number digits 2), or null. */
  round2(v: number | null): void {
    if (v === null) return this.copy(NULL);
    const r = Math.round(v * 100);
    if (!(Math.abs(r) < 1e15)) return this.ascii(JSON.stringify(r / 100));
    this.#room(20);
    const buf = this.#buf;
    let pos = this.#pos;
    let n = r;
    if (n < 0) {
      buf[pos++] = 45; // -
      n = -n;
    }
    const whole = Math.floor(n / 100);
    const cents = n - whole * 100;
    let digits = 1;
    for (let x = whole; x >= 10; x = Math.floor(x / 10)) digits++;
    for (let k = digits - 1, x = whole; k >= 0; k--, x = Math.floor(x / 10)) {
      buf[pos + k] = 48 + (x % 10);
    }
    pos += digits;
    if (cents) {
      buf[pos++] = 46; // .
      buf[pos++] = 48 + Math.floor(cents / 10);
      if (cents % 10) buf[pos++] = 48 + (cents % 10);
    }
    this.#pos = pos;
  }

  /** The bytes written: a view of the buffer when it is about full, else a copy. */
  result(): Uint8Array {
    const used = this.#buf.subarray(0, this.#pos);
    return this.#pos * 1.25 >= this.#buf.length ? used : used.slice();
  }

  #room(n: number): void {
    if (this.#pos + n <= this.#buf.length) return;
    let size = this.#buf.length * 2;
    while (size < this.#pos + n) size *= 2;
    const buf = new Uint8Array(size);
    buf.set(this.#buf.subarray(0, this.#pos));
    this.#buf = buf;
  }
}

// Every dynamic piece but numbers and times, encoded once.
const NULL = ascii("null");
const COMMA = ascii(",");
const CLOSE = ascii("]}");
const PHASE_HEADS = [
  ascii(`{"phase":"L1","u":`),
  ascii(`{"phase":"L2","u":`),
  ascii(`{"phase":"L3","u":`),
];
const I_KEY = ascii(`,"i":`);
const NO_VALUE_AT = ascii(`,"last_value_at":null`);
const FEEDERS_OPEN = ascii(`,"feeders":[`);
const NODE_CLOSE = ascii("}");
const byState = (f: (s: GridState) => string) =>
  Object.fromEntries(STATES.map((s) => [s, ascii(f(s))])) as Record<GridState, Uint8Array>;
const PHASE_TAIL = byState((s) => `,"state":"${s}"}`);
const FEEDER_STATE = byState((s) => `"${s}","phases":[`);
const NODE_STATE = byState((s) => `"${s}","suppressed_by":`);

/**
 * The body of one evaluation: `statuses` answer `template`'s nodes in order. Without `feeders`
 * (the summary view) nodes carry no feeders. `sizeHint` (the previous body's length) saves
 * growing the buffer.
 */
export function statusBody(
  template: StatusTemplate,
  statuses: readonly NodeStatus[],
  meta: { level: Level; evaluatedAt: number; hasMvValues: boolean; feeders?: boolean },
  sizeHint = 1 << 16,
): Uint8Array {
  const withFeeders = meta.feeders ?? true;
  const { bytes, start } = template;
  const fragment = (f: number) => w.copy(bytes, start[f]!, start[f + 1]!);
  const counts = Object.fromEntries(STATES.map((s) => [s, 0])) as Record<GridState, number>;
  for (const s of statuses) counts[s.state]++;
  // A group's state (the worst below it) comes before its children: roll up first.
  const roll = <T>(g: Group<T>, state: (item: T) => GridState): GridState =>
    g.children.reduce((acc: GridState, item) => worst(acc, state(item)), "OK");
  const nodeState = (k: number) => statuses[k]!.state;
  const lvState = (l: Group<number>) => roll(l, nodeState);
  const mvState = (m: Group<Group<number>>) => roll(m, lvState);
  const w = new JsonWriter(sizeHint);
  w.ascii(
    `{"level":"${meta.level}","evaluated_at":"${new Date(meta.evaluatedAt).toISOString()}",` +
      `"has_mv_values":${meta.hasMvValues},"alarms":${countAlarms(statuses)},"counts":${
        JSON.stringify(counts)
      },"station_groups":[`,
  );
  const open = (g: Group<unknown>, state: GridState, key: string, first: boolean) => {
    if (!first) w.copy(COMMA);
    fragment(g.head);
    w.ascii(`"${state}","${key}":[`);
  };
  // Most nodes share the time of their latest value (the same 20-s window).
  const times = new Map<number, Uint8Array>();
  const valueAt = (ms: number) => {
    let bytes = times.get(ms);
    if (!bytes) {
      times.set(ms, bytes = ascii(`,"last_value_at":"${new Date(ms).toISOString()}"`));
    }
    return bytes;
  };
  const writeNode = (k: number) => {
    const s = statuses[k]!;
    let f = template.nodeHead[k]!;
    fragment(f);
    w.copy(NODE_STATE[s.state]);
    if (s.suppressedBy === null) w.copy(NULL);
    else {
      const id = template.quotedIds.get(s.suppressedBy);
      if (id === undefined) w.copy(ascii(JSON.stringify(s.suppressedBy)));
      else fragment(id);
    }
    w.copy(s.lastValueAt === null ? NO_VALUE_AT : valueAt(s.lastValueAt));
    if (!withFeeders) return w.copy(NODE_CLOSE);
    w.copy(FEEDERS_OPEN);
    for (let n = 0; n < s.feeders.length; n++) {
      const feeder = s.feeders[n]!;
      if (n) w.copy(COMMA);
      fragment(++f);
      w.copy(FEEDER_STATE[feeder.state]);
      for (let p = 0; p < feeder.phases.length; p++) {
        const phase = feeder.phases[p]!;
        if (p) w.copy(COMMA);
        w.copy(PHASE_HEADS[p]!);
        w.round2(phase.u);
        w.copy(I_KEY);
        w.round2(phase.i);
        w.copy(PHASE_TAIL[phase.state]);
      }
      w.copy(CLOSE);
    }
    w.copy(CLOSE);
  };
  template.groups.forEach((g, gk) => {
    open(g, roll(g, mvState), "mv_feeder_groups", gk === 0);
    g.children.forEach((m, mk) => {
      open(m, mvState(m), "lv_groups", mk === 0);
      m.children.forEach((l, lk) => {
        open(l, lvState(l), "nodes", lk === 0);
        l.children.forEach((k, nk) => {
          if (nk) w.copy(COMMA);
          writeNode(k);
        });
        w.copy(CLOSE);
      });
      w.copy(CLOSE);
    });
    w.copy(CLOSE);
  });
  w.copy(CLOSE);
  return w.result();
}
