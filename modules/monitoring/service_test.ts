/**
 * The grid status cache: one evaluation answers until new values (after the reuse window), a
 * live phase going stale, other thresholds or a rebuilt topology make it out of date; the body
 * written from templates is the JSON of the status tree.
 */
import assert from "node:assert/strict";
import { gunzipSync } from "node:zlib";
import { LatestValues, type NodeTopology } from "../../core/mod.ts";
import type { CustomerDto } from "../customers/mod.ts";
import type { NodeDto, StationGroupDto } from "../grid/mod.ts";
import { createLogger, EventBus } from "../../kernel/mod.ts";
import type { NodeStateChanged } from "./events.ts";
import { GridStatusService, REUSE_MS } from "./service.ts";
import type { GridStatusDto } from "./status_body.ts";
import type { Topology } from "./topology.ts";

const T0 = Date.parse("2026-11-22T10:00:20Z");
const STALE_MS = 80_000;

const feeder = (id: string, slot: number, type = "LV_LINE") => ({
  id,
  slot,
  name: `Feeder ${slot}`,
  type,
  direction: "OUT",
  nominal_current_a: 100,
  parameters: {},
});
const nodeDto = (id: string, upstream: string | null, feeders: ReturnType<typeof feeder>[]) =>
  ({
    id,
    name: `Node ${id}`,
    latitude: 47.1,
    longitude: 8.2,
    electrical_distance: 0.5,
    upstream_node_id: upstream,
    electrical_work: {
      key: `ew-${id}`,
      name: `EW ${id}`,
      type: "LV_CABINET",
      latitude: 1,
      longitude: 2,
    },
    feeders,
  }) as unknown as NodeDto;

/** Station group g1 > MV feeder m1 > LV groups l1 (a, b) and l2 (c, LV only, no MV feeder). */
function topologyOf(nodes: NodeDto[], builtAt = T0): Topology {
  const structure = [{
    id: "g1",
    name: "Station group",
    latitude: null,
    longitude: null,
    mv_feeder_groups: [{
      id: "m1",
      name: "MV feeder",
      lv_groups: [
        { id: "l1", name: "LV grid 1", nodes: nodes.filter((n) => n.id !== "c") },
        { id: "l2", name: "LV grid 2", nodes: nodes.filter((n) => n.id === "c") },
      ],
    }],
  }] as StationGroupDto[];
  let series = 0;
  const lv: NodeTopology[] = [];
  const mv: NodeTopology[] = [];
  for (const n of nodes) {
    const of = (level: "LV" | "MV") =>
      n.feeders.filter((f) => (f.type === "MV_LINE") === (level === "MV")).map((f) => ({
        id: f.id,
        slot: f.slot,
        nominalCurrentA: f.nominal_current_a,
        series: [0, 1, 2].map(() => ++series),
      }));
    lv.push({ id: n.id, upstreamNodeId: n.upstream_node_id, feeders: of("LV") });
    if (of("MV").length) {
      mv.push({ id: n.id, upstreamNodeId: n.upstream_node_id, feeders: of("MV") });
    }
  }
  return { structure, lv, mv, builtAt, version: `v${builtAt}` };
}

const NODES = [
  nodeDto("a", null, [feeder("a1", 1), feeder("a2", 2, "MV_LINE")]),
  nodeDto("b", "a", [feeder("b1", 1), feeder("b2", 2)]),
  nodeDto("c", null, [feeder("c1", 1)]),
];

function setup() {
  const customer = {
    key: "cust",
    default_lv_nominal_voltage: "230/400",
    default_mv_nominal_voltage: 16000,
    warning_thresholds: { overvoltage_pct: 10, undervoltage_pct: 10, overcurrent_pct: 100 },
  } as CustomerDto;
  const deps = { topology: topologyOf(NODES), latest: new LatestValues() };
  const service = new GridStatusService(
    { get: () => Promise.resolve(deps.topology) },
    { latest: deps.latest },
    { getByKey: () => Promise.resolve(customer) },
  );
  /** Every LV series of the topology reports `u` at `ts`. */
  const report = (ts: number, u: (node: string) => number) => {
    for (const n of deps.topology.lv) {
      for (const f of n.feeders) {
        for (const id of f.series) deps.latest.update(id!, ts, u(n.id), 40.123);
      }
    }
  };
  return { customer, deps, service, report };
}

const nodesOf = (s: GridStatusDto) =>
  s.station_groups.flatMap((g) =>
    g.mv_feeder_groups.flatMap((m) => m.lv_groups.flatMap((l) => l.nodes))
  );
const stateOf = (s: GridStatusDto, id: string) => nodesOf(s).find((n) => n.id === id)?.state;

Deno.test("GridStatusService answers from one evaluation until new values are REUSE_MS old", async () => {
  const { service, report } = setup();
  report(T0, () => 230);
  const first = await service.answer("cust", "LV", T0 + 1_000);
  assert.equal(stateOf(await service.status("cust", "LV", T0 + 2_000), "b"), "OK");
  assert.equal((await service.answer("cust", "LV", T0 + 2_000)).etag, first.etag, "no new values");
  report(T0 + 20_000, (n) => (n === "b" ? 200 : 230));
  const reused = await service.answer("cust", "LV", T0 + 1_000 + REUSE_MS - 1);
  assert.equal(reused.etag, first.etag, "new values within the reuse window");
  const fresh = await service.answer("cust", "LV", T0 + 1_000 + REUSE_MS);
  assert.notEqual(fresh.etag, first.etag);
  const status = JSON.parse(new TextDecoder().decode(fresh.body)) as GridStatusDto;
  assert.equal(stateOf(status, "b"), "UNDERVOLTAGE");
  assert.equal(status.evaluated_at, new Date(T0 + 1_000 + REUSE_MS).toISOString());
  assert.deepEqual(gunzipSync(await fresh.gzip()), Buffer.from(fresh.body));
});

Deno.test("GridStatusService answers concurrent requests from one evaluation and one gzip", async () => {
  const { service, report } = setup();
  report(T0, () => 230);
  // The later request may finish its lookups first: its newer evaluation answers both.
  const answers = await Promise.all([
    service.answer("cust", "LV", T0 + 1_001),
    service.answer("cust", "LV", T0 + 1_000),
    service.answer("cust", "LV", T0 + 1_002),
  ]);
  assert.equal(new Set(answers.map((a) => a.etag)).size, 1);
  assert.equal(answers[0]!.body, answers[1]!.body);
  const zipped = answers[0]!.gzip();
  assert.equal(answers[2]!.gzip(), zipped, "one compression");
  await zipped;
});

Deno.test("GridStatusService publishes state changes from new values at once (no reuse window)", async () => {
  const { service, report } = setup();
  const bus = new EventBus(createLogger("error"));
  const changes: NodeStateChanged[] = [];
  bus.subscribe("monitoring.nodeStateChanged", (e) => void changes.push(e));
  report(T0, () => 230);
  await service.answer("cust", "LV", T0 + 19_000);
  assert.equal(await service.publishChanges(bus, ["cust"], T0 + 19_500), 0, "the baseline");
  report(T0 + 20_000, (n) => (n === "c" ? 260 : 230));
  assert.equal(await service.publishChanges(bus, ["cust"], T0 + 20_500), 1);
  assert.deepEqual(changes.map((c) => [c.nodeId, c.from, c.to, c.level, c.at]), [
    ["c", "OK", "OVERVOLTAGE", "LV", new Date(T0 + 20_500).toISOString()],
  ]);
  assert.equal(await service.publishChanges(bus, ["cust"], T0 + 21_000), 0, "nothing new");
});

Deno.test("GridStatusService: the 20-s watch prepares the answer the next requests get", async () => {
  const { service, report } = setup();
  const bus = new EventBus(createLogger("error"));
  report(T0, () => 230);
  await service.publishChanges(bus, ["cust"], T0 + 500);
  report(T0 + 20_000, (n) => (n === "b" ? 200 : 230)); // newer values, within one interval
  const answer = await service.answer("cust", "LV", T0 + 10_000);
  const status = JSON.parse(new TextDecoder().decode(answer.body)) as GridStatusDto;
  assert.equal(status.evaluated_at, new Date(T0 + 500).toISOString(), "the watch's evaluation");
  assert.equal(stateOf(status, "b"), "OK");
  await service.publishChanges(bus, ["cust"], T0 + 20_500);
  const next = await service.answer("cust", "LV", T0 + 21_000);
  assert.notEqual(next.etag, answer.etag);
  assert.equal(stateOf(JSON.parse(new TextDecoder().decode(next.body)), "b"), "UNDERVOLTAGE");
});

Deno.test("GridStatusService re-evaluates when a live phase goes stale without new values", async () => {
  const { service, report } = setup();
  report(T0, () => 230);
  const live = await service.answer("cust", "LV", T0 + 1_000);
  assert.equal((await service.answer("cust", "LV", T0 + STALE_MS)).etag, live.etag);
  const stale = await service.status("cust", "LV", T0 + STALE_MS + 1);
  assert.equal(stateOf(stale, "a"), "NO_DATA");
  assert.equal(stateOf(stale, "b"), "NO_DATA");
  assert.equal(nodesOf(stale).find((n) => n.id === "b")!.suppressed_by, "a");
});

Deno.test("GridStatusService applies changed thresholds and nominal voltage to the next request", async () => {
  const { service, report, customer } = setup();
  report(T0, () => 245);
  assert.equal(stateOf(await service.status("cust", "LV", T0 + 1_000), "a"), "OK");
  customer.warning_thresholds = { ...customer.warning_thresholds, overvoltage_pct: 5 };
  assert.equal(stateOf(await service.status("cust", "LV", T0 + 1_100), "a"), "OVERVOLTAGE");
  customer.default_lv_nominal_voltage = "240/415";
  assert.equal(stateOf(await service.status("cust", "LV", T0 + 1_200), "a"), "OK");
});

Deno.test("GridStatusService re-evaluates on a rebuilt topology", async () => {
  const { service, report, deps } = setup();
  report(T0, () => 230);
  const before = await service.status("cust", "LV", T0 + 1_000);
  assert.deepEqual(nodesOf(before).map((n) => n.id), ["a", "b", "c"]);
  deps.topology = topologyOf(NODES.filter((n) => n.id !== "b"), T0 + 500);
  const after = await service.status("cust", "LV", T0 + 1_100);
  assert.deepEqual(nodesOf(after).map((n) => n.id), ["a", "c"]);
});

Deno.test("GridStatusService writes the status tree: rolled-up states, trimmed nodes, MV level", async () => {
  const { service, report } = setup();
  report(T0, (n) => (n === "c" ? 0 : 230));
  const lv = await service.status("cust", "LV", T0 + 1_000);
  assert.deepEqual(lv.counts, {
    OK: 2,
    UNDERVOLTAGE: 0,
    OVERVOLTAGE: 0,
    OVERCURRENT: 0,
    NO_DATA: 0,
    INTERRUPTION: 1,
  });
  assert.equal(lv.alarms, 1);
  assert.equal(lv.has_mv_values, true);
  const group = lv.station_groups[0]!;
  assert.deepEqual(
    [
      group.state,
      group.mv_feeder_groups[0]!.state,
      ...group.mv_feeder_groups[0]!.lv_groups.map((l) => l.state),
    ],
    ["INTERRUPTION", "INTERRUPTION", "OK", "INTERRUPTION"],
  );
  assert.deepEqual(nodesOf(lv)[0], {
    id: "a",
    name: "Node a",
    latitude: 47.1,
    longitude: 8.2,
    upstream_node_id: null,
    electrical_work: { name: "EW a", type: "LV_CABINET" },
    has_mv_values: true,
    state: "OK",
    suppressed_by: null,
    last_value_at: new Date(T0).toISOString(),
    feeders: [{
      id: "a1",
      slot: 1,
      name: "Feeder 1",
      type: "LV_LINE",
      state: "OK",
      phases: (["L1", "L2", "L3"] as const).map((phase) => ({
        phase,
        u: 230,
        i: 40.12,
        state: "OK",
      })),
    }],
  });
  // The toggle follows the node: only node a has medium voltage values.
  assert.deepEqual(nodesOf(lv).map((n) => [n.id, n.has_mv_values]), [
    ["a", true],
    ["b", false],
    ["c", false],
  ]);
  // MV: only node a has an MV feeder (no value yet); the LV grid without MV nodes is left out.
  const mv = await service.status("cust", "MV", T0 + 1_000);
  assert.deepEqual(mv.station_groups[0]!.mv_feeder_groups[0]!.lv_groups.map((l) => l.id), ["l1"]);
  assert.deepEqual(nodesOf(mv).map((n) => [n.id, n.state, n.feeders!.map((f) => f.id)]), [
    ["a", "NO_DATA", ["a2"]],
  ]);
  assert.deepEqual(nodesOf(mv)[0]!.feeders![0]!.phases[0], {
    phase: "L1",
    u: null,
    i: null,
    state: "NO_DATA",
  });
});

Deno.test("GridStatusService's summary view has the same tree and states without feeders", async () => {
  const { service, report } = setup();
  report(T0, (n) => (n === "b" ? 260 : 230));
  const full = await service.answer("cust", "LV", T0 + 1_000, "full");
  const summary = await service.answer("cust", "LV", T0 + 1_000, "summary");
  assert.notEqual(summary.etag, full.etag, "a cached summary never answers a full request");
  const decoded = JSON.parse(new TextDecoder().decode(summary.body)) as GridStatusDto;
  const fullDto = JSON.parse(new TextDecoder().decode(full.body)) as GridStatusDto;
  const withoutFeeders = structuredClone(fullDto);
  for (const node of nodesOf(withoutFeeders)) delete (node as Partial<typeof node>).feeders;
  assert.deepEqual(decoded, withoutFeeders);
  assert.equal(stateOf(decoded, "b"), "OVERVOLTAGE");
  assert.ok(summary.body.length < full.body.length);
});
