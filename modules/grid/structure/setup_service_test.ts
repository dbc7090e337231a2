import assert from "node:assert/strict";
import { and, eq } from "drizzle-orm";
import type { z } from "zod";
import {
  AppError,
  createLogger,
  type Database,
  EventBus,
  fieldIssues,
  openMigratedDatabase,
  validationError,
} from "../../../kernel/mod.ts";
import { CellOnboardingService } from "../cells/cell_onboarding.ts";
import { CellsService } from "../cells/cells.ts";
import type { CellsToConfigure } from "../events.ts";
import { cellMappings, cells, feeders, type MappedPhase } from "../schema.ts";
import {
  electricalWorksSearchQuery,
  feederInput,
  mvTopologyInput,
  newLvGroupInput,
  newMvFeederGroupInput,
  newNodeInput,
  stationGroupInput,
} from "./contract.ts";
import { assertMvEstimationMapping } from "./feeder_rules.ts";
import { GridSetupService } from "./setup_service.ts";
import { readStructure } from "./read.ts";

const CUSTOMER = "cust-a";
const OTHER = "cust-b";

const transformer = (mv = false, extra: Record<string, unknown> = {}) => ({
  name: "Transformer 630 kVA",
  type: "TRANSFORMER",
  in_out: "IN",
  nominal_current_a: 909,
  parameters: {
    impedanceVoltage: 4,
    vectorGroup: "Dy5",
    lvOperatingTap: 400,
    mvOperatingTap: 16,
    nominalMvVoltage: 16,
    nominalPower: 630,
    mvVoltageEstimation: mv,
    ...extra,
  },
});
const line = (type = "LV_LINE", in_out = "OUT", meshed = false) => ({
  name: `${type} feeder`,
  type,
  in_out,
  nominal_current_a: 250,
  parameters: { meshed },
});

/** Parses a body as the route's `validate()` does: 400 common.validation with field errors. */
function parse<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const result = schema.safeParse(input);
  if (!result.success) throw validationError(fieldIssues(result.error.issues, input));
  return result.data;
}

/** The setup calls as the routes make them: the body parsed with the contract, then the service. */
function calls(setup: GridSetupService) {
  const { stations, mvFeederGroups, lvGroups, nodes, mvTopology, electricalWorks } = setup;
  return {
    createStationGroup: async (c: string, body: unknown) =>
      await stations.create(c, parse(stationGroupInput, body)),
    deleteStationGroup: (c: string, id: string) => stations.delete(c, id),
    createMvFeederGroup: async (c: string, body: unknown) =>
      await mvFeederGroups.create(c, parse(newMvFeederGroupInput, body)),
    deleteMvFeederGroup: (c: string, id: string) => mvFeederGroups.delete(c, id),
    createLvGroup: async (c: string, body: unknown) =>
      await lvGroups.create(c, parse(newLvGroupInput, body)),
    deleteLvGroup: (c: string, id: string) => lvGroups.delete(c, id),
    createNode: async (c: string, body: unknown) =>
      await nodes.create(c, parse(newNodeInput, body)),
    node: (c: string, id: string) => nodes.get(c, id),
    deleteNode: (c: string, id: string) => nodes.delete(c, id),
    addFeeder: async (c: string, node: string, body: unknown) =>
      await nodes.addFeeder(c, node, parse(feederInput, body)),
    updateFeeder: async (c: string, node: string, id: string, body: unknown) =>
      await nodes.updateFeeder(c, node, id, parse(feederInput, body)),
    deleteFeeder: (c: string, node: string, id: string) => nodes.deleteFeeder(c, node, id),
    mvTopology: (c: string, id: string) => mvTopology.get(c, id),
    setMvTopology: async (c: string, id: string, body: unknown) =>
      await mvTopology.set(c, id, parse(mvTopologyInput, body)),
    clearMvTopology: (c: string, id: string) => mvTopology.clear(c, id),
    electricalWorksStatus: (c: string, now?: number) => electricalWorks.status(c, now),
    searchElectricalWorks: async (c: string, q: string) =>
      await electricalWorks.search(c, parse(electricalWorksSearchQuery, { q }).q),
  };
}

interface World {
  db: Database;
  setup: ReturnType<typeof calls>;
  cells: CellsService;
  onboarding: CellOnboardingService;
  events: CellsToConfigure[];
  stationId: string;
  mvId: string;
  lvId: string;
}

async function withWorld(fn: (w: World) => Promise<void>) {
  const { database: db } = await openMigratedDatabase({ dataDir: ":memory:" });
  try {
    const bus = new EventBus(createLogger("error"));
    const events: CellsToConfigure[] = [];
    bus.subscribe("grid.cellsToConfigure", (e) => {
      events.push(e);
    });
    const setup = calls(new GridSetupService(db.db, bus));
    const registry = new CellsService(db.db);
    const station = await setup.createStationGroup(CUSTOMER, { name: "Substation South" });
    const mv = await setup.createMvFeederGroup(CUSTOMER, {
      station_group_id: station.id,
      name: "MV feeder A",
    });
    const lv = await setup.createLvGroup(CUSTOMER, {
      mv_feeder_group_id: mv.id,
      name: "LV grid A",
    });
    await fn({
      db,
      setup,
      cells: registry,
      onboarding: new CellOnboardingService(db.db, registry, { publicUrl: "http://gw.test" }),
      events,
      stationId: station.id,
      mvId: mv.id,
      lvId: lv.id,
    });
  } finally {
    await db.close();
  }
}

function newNode(w: World, feeders: unknown[], name = "TS Alpha") {
  return w.setup.createNode(CUSTOMER, {
    lv_group_id: w.lvId,
    name,
    electrical_work: { name: `${name} work`, type: "MV_LV_STATION" },
    latitude: 47.03,
    longitude: 8.28,
    feeders,
  } as never);
}

/** Asserts that `promise` fails with the catalogue key or code. */
async function refused(promise: Promise<unknown>, keyOrCode: string | number) {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof AppError, String(error));
    if (typeof keyOrCode === "number") assert.equal(error.entry.code, keyOrCode);
    else assert.equal(error.entry.key, keyOrCode);
    return true;
  });
}

async function issueKeys(promise: Promise<unknown>): Promise<string[]> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof AppError);
    assert.equal(error.entry.key, "common.validation");
    return (error.params.issues as { path: string; key: string }[]).map((i) =>
      `${i.path}:${i.key}`
    );
  }
  throw new Error("The call was not refused");
}

/** Installs a cell at the node; `phases` are mapped on the node's first feeder. */
async function mapCell(w: World, nodeId: string, phases: readonly MappedPhase[] = []) {
  const { cell_id: cellId } = await w.onboarding.register(CUSTOMER, {
    serial_number: `SN-${nodeId.slice(0, 8)}`,
  });
  await w.cells.install(cellId, nodeId);
  await setPhases(w, nodeId, phases);
  return cellId;
}

async function setPhases(w: World, nodeId: string, phases: readonly MappedPhase[]) {
  const [cell] = await w.db.db.select().from(cells).where(eq(cells.nodeId, nodeId));
  const [feeder] = await w.db.db.select().from(feeders).where(
    and(eq(feeders.nodeId, nodeId), eq(feeders.slot, 1)),
  );
  await w.db.db.delete(cellMappings).where(eq(cellMappings.cellId, cell!.id));
  if (phases.length) {
    await w.db.db.insert(cellMappings).values(
      phases.map((phase, i) => ({ cellId: cell!.id, feederId: feeder!.id, phase, probe: i + 1 })),
    );
  }
}

const THREE_PHASES: MappedPhase[] = ["L1", "L2", "L3"];

Deno.test("GridSetupService creates the hierarchy down to a node with feeders", async () => {
  await withWorld(async (w) => {
    const node = await newNode(w, [transformer(), line()]);
    assert.deepEqual(node.feeders.map((f) => [f.slot, f.type]), [[1, "TRANSFORMER"], [
      2,
      "LV_LINE",
    ]]);
    const [group] = await readStructure(w.db.db, CUSTOMER);
    assert.equal(group?.mv_feeder_groups[0]?.lv_groups[0]?.nodes[0]?.name, "TS Alpha");
    assert.equal(
      group?.mv_feeder_groups[0]?.lv_groups[0]?.nodes[0]?.feeders[0]?.parameters.vectorGroup,
      "Dy5",
    );
  });
});

Deno.test("GridSetupService refuses names outside the limits or with forbidden characters", async () => {
  await withWorld(async (w) => {
    await refused(w.setup.createStationGroup(CUSTOMER, { name: "ab" }), "common.validation");
    assert.deepEqual(
      await issueKeys(w.setup.createStationGroup(CUSTOMER, { name: "x".repeat(61) })),
      [
        "name:validation.nameMax",
      ],
    );
    assert.deepEqual(
      await issueKeys(w.setup.createLvGroup(CUSTOMER, { mv_feeder_group_id: w.mvId, name: "a|b" })),
      [
        "name:validation.forbiddenChars",
      ],
    );
    // New node names: 3 to 20 characters.
    assert.deepEqual(await issueKeys(newNode(w, [line("LV_LINE", "IN")], "N".repeat(21))), [
      "name:validation.nameMax",
    ]);
    assert.equal(
      (await readStructure(w.db.db, CUSTOMER))[0]?.mv_feeder_groups[0]?.lv_groups[0]?.nodes.length,
      0,
    );
  });
});

Deno.test("GridSetupService checks feeder fields, ranges and the meshed rule", async () => {
  await withWorld(async (w) => {
    const keys = await issueKeys(newNode(w, [
      transformer(false, { vectorGroup: "Dy7", impedanceVoltage: 25, nominalPower: undefined }),
      line("LV_LINE", "OUT", true),
      { ...line(), nominal_current_a: 4 },
    ]));
    assert.deepEqual(keys, [
      "feeders.0.parameters.impedanceVoltage:validation.range",
      "feeders.0.parameters.nominalPower:validation.required",
      "feeders.0.parameters.vectorGroup:validation.required",
      "feeders.1.in_out:validation.meshedFeederAsInput",
      "feeders.2.nominal_current_a:validation.range",
    ]);
  });
});

Deno.test("GridSetupService allows at most 6 feeders and keeps the last one", async () => {
  await withWorld(async (w) => {
    await refused(newNode(w, Array.from({ length: 7 }, () => line())), "setup.maxFeeders");
    const node = await newNode(w, Array.from({ length: 6 }, () => line()));
    await refused(w.setup.addFeeder(CUSTOMER, node.id, line()), "setup.maxFeeders");
    const single = await newNode(w, [line("LV_LINE", "IN")], "CAB Beta");
    await refused(
      w.setup.deleteFeeder(CUSTOMER, single.id, single.feeders[0]!.id),
      "validation.deleteLastFeeder",
    );
    const added = await w.setup.addFeeder(CUSTOMER, single.id, line());
    assert.equal(added.feeder.slot, 2);
    await w.setup.deleteFeeder(CUSTOMER, single.id, single.feeders[0]!.id);
    assert.equal((await w.setup.node(CUSTOMER, single.id)).feeders.length, 1);
  });
});

Deno.test("GridSetupService applies the MV estimation codes 307, 308, 309, 313 and 303", async () => {
  await withWorld(async (w) => {
    // 308: no cell with a three-phase mapping.
    await refused(newNode(w, [transformer(true)]), 308);
    const node = await newNode(w, [transformer(false), line()]);
    const [t1] = node.feeders;
    // 309: an MV line needs a transformer with MV estimation.
    await refused(w.setup.addFeeder(CUSTOMER, node.id, line("MV_LINE", "OUT")), 309);
    await mapCell(w, node.id, ["L1", "L2"]);
    await refused(w.setup.updateFeeder(CUSTOMER, node.id, t1!.id, transformer(true)), 308);
    await setPhases(w, node.id, THREE_PHASES);
    const enabled = await w.setup.updateFeeder(CUSTOMER, node.id, t1!.id, transformer(true));
    assert.equal(enabled.mapping_revalidation_required, true);
    const [revalidating] = await w.db.db.select().from(cells).where(eq(cells.nodeId, node.id));
    assert.equal(revalidating?.status, "UNDER_VALIDATION");
    // 307: only one transformer with MV estimation.
    await refused(w.setup.addFeeder(CUSTOMER, node.id, transformer(true)), 307);
    const mvLine = await w.setup.addFeeder(CUSTOMER, node.id, line("MV_LINE", "OUT"));
    assert.equal(mvLine.mapping_revalidation_required, false);
    // 313: estimation stays on while an MV line exists; 303: the transformer goes last.
    await refused(w.setup.updateFeeder(CUSTOMER, node.id, t1!.id, transformer(false)), 313);
    await refused(w.setup.deleteFeeder(CUSTOMER, node.id, t1!.id), 303);
    await w.setup.deleteFeeder(CUSTOMER, node.id, mvLine.feeder.id);
    const disabled = await w.setup.updateFeeder(CUSTOMER, node.id, t1!.id, transformer(false));
    assert.equal(disabled.mapping_revalidation_required, true);
  });
});

Deno.test("assertMvEstimationMapping() refuses a mapping without L1-L3 on an MV transformer (111)", async () => {
  await withWorld(async (w) => {
    const node = await newNode(w, [transformer(false), line()]);
    await mapCell(w, node.id, THREE_PHASES);
    await w.setup.updateFeeder(CUSTOMER, node.id, node.feeders[0]!.id, transformer(true));
    const t1 = node.feeders[0]!.id;
    const entries = THREE_PHASES.map((phase) => ({ feeder_id: t1, phase }));
    await assertMvEstimationMapping(w.db.db, node.id, entries);
    await refused(assertMvEstimationMapping(w.db.db, node.id, entries.slice(0, 2)), 111);
  });
});

Deno.test("GridSetupService blocks deleting parents with children", async () => {
  await withWorld(async (w) => {
    await refused(
      w.setup.deleteStationGroup(CUSTOMER, w.stationId),
      "validation.deleteStationHasMvFeeders",
    );
    await refused(
      w.setup.deleteMvFeederGroup(CUSTOMER, w.mvId),
      "validation.deleteMvFeederHasLvGrids",
    );
    const node = await newNode(w, [line("LV_LINE", "IN")]);
    await refused(w.setup.deleteLvGroup(CUSTOMER, w.lvId), "validation.deleteLvGridHasNodes");
    await w.setup.deleteNode(CUSTOMER, node.id);
    await w.setup.deleteLvGroup(CUSTOMER, w.lvId);
    await w.setup.deleteMvFeederGroup(CUSTOMER, w.mvId);
    await w.setup.deleteStationGroup(CUSTOMER, w.stationId);
    assert.deepEqual(await readStructure(w.db.db, CUSTOMER), []);
  });
});

Deno.test("GridSetupService.deleteNode() returns the cells to waiting and publishes after commit", async () => {
  await withWorld(async (w) => {
    const upstream = await newNode(w, [transformer(), line()]);
    const node = await w.setup.createNode(CUSTOMER, {
      lv_group_id: w.lvId,
      name: "CAB Gamma",
      electrical_work: { name: "CAB Gamma", type: "LV_CABINET" },
      latitude: 47,
      longitude: 8,
      upstream_node_id: upstream.id,
      feeders: [line("LV_LINE", "IN")],
    });
    const cellId = await mapCell(w, upstream.id, THREE_PHASES);
    await w.setup.deleteNode(CUSTOMER, upstream.id);
    const [cell] = await w.db.db.select().from(cells).where(eq(cells.id, cellId));
    assert.equal(cell?.type, "WAITING_FOR_INSTALLATION");
    assert.equal(cell?.status, "READY_FOR_CONFIGURATION");
    assert.equal(cell?.nodeId, null);
    assert.deepEqual(
      await w.db.db.select().from(cellMappings).where(eq(cellMappings.cellId, cellId)),
      [],
    );
    assert.deepEqual(w.events, [{
      customerKey: CUSTOMER,
      cellIds: [cellId],
      count: 1,
      reason: "DELETED_PARENT",
    }]);
    assert.equal((await w.setup.node(CUSTOMER, node.id)).upstream_node_id, null);
  });
});

Deno.test("GridSetupService MV topology: 351 without sections, 356 and 358 while in one", async () => {
  await withWorld(async (w) => {
    await refused(w.setup.mvTopology(CUSTOMER, w.mvId), 351);
    const a = await newNode(w, [transformer(false), line()], "TS One");
    await mapCell(w, a.id, THREE_PHASES);
    await w.setup.updateFeeder(CUSTOMER, a.id, a.feeders[0]!.id, transformer(true));
    const mvLine = await w.setup.addFeeder(CUSTOMER, a.id, line("MV_LINE", "OUT"));
    await refused(
      w.setup.setMvTopology(CUSTOMER, w.mvId, { feeder_ids: [a.feeders[1]!.id, mvLine.feeder.id] }),
      "common.validation",
    );
    const topology = await w.setup.setMvTopology(CUSTOMER, w.mvId, {
      feeder_ids: [a.feeders[0]!.id, mvLine.feeder.id],
    });
    assert.equal(topology.sections.length, 2);
    await refused(w.setup.deleteFeeder(CUSTOMER, a.id, mvLine.feeder.id), 356);
    await refused(w.setup.deleteNode(CUSTOMER, a.id), 358);
    await w.setup.clearMvTopology(CUSTOMER, w.mvId);
    await w.setup.deleteFeeder(CUSTOMER, a.id, mvLine.feeder.id);
  });
});

Deno.test("GridSetupService hides other customers' elements behind 'not found'", async () => {
  await withWorld(async (w) => {
    await refused(w.setup.deleteStationGroup(OTHER, w.stationId), "grid.elementNotFound");
    await refused(
      w.setup.createLvGroup(OTHER, { mv_feeder_group_id: w.mvId, name: "Foreign" }),
      "grid.elementNotFound",
    );
    const node = await newNode(w, [line("LV_LINE", "IN")]);
    await refused(w.setup.node(OTHER, node.id), "grid.elementNotFound");
  });
});

Deno.test("GridSetupService reports metering status and searches electrical works", async () => {
  await withWorld(async (w) => {
    const a = await newNode(w, [line("LV_LINE", "IN")], "CAB Seeblick");
    await newNode(w, [line("LV_LINE", "IN")], "CAB Dorf");
    for (let i = 0; i < 12; i++) await newNode(w, [line("LV_LINE", "IN")], `CAB See ${i}`);
    const cellId = await mapCell(w, a.id);
    const now = Date.parse("2026-11-22T12:00:00Z");
    await w.cells.recordStatus(cellId, { gps_fix: "GPS_FIX" }, new Date(now - 60_000));
    const status = await w.setup.electricalWorksStatus(CUSTOMER, now);
    assert.equal(status.electrical_works.length, 14);
    assert.equal(status.counts.CONNECTED, 1);
    assert.equal(status.counts.NO_CELL, 13);
    assert.deepEqual(
      [...new Set(status.electrical_works.map((e) => e.levels.join("+")))],
      ["LV"],
      "LV lines only: every work is listed at LV, none at MV",
    );
    const later = await w.setup.electricalWorksStatus(CUSTOMER, now + 10 * 60_000);
    assert.equal(later.counts.DISCONNECTED, 1);
    assert.equal((await w.setup.searchElectricalWorks(CUSTOMER, "see")).length, 10);
    assert.deepEqual(
      (await w.setup.searchElectricalWorks(CUSTOMER, "dorf")).map((h) => h.node_name),
      ["CAB Dorf"],
    );
    await refused(w.setup.searchElectricalWorks(CUSTOMER, "se"), "common.validation");
    assert.deepEqual(await w.setup.searchElectricalWorks(OTHER, "see"), []);
  });
});
