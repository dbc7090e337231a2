import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import {
  AppError,
  createLogger,
  type Database,
  EventBus,
  fieldIssues,
  openMigratedDatabase,
} from "../../../kernel/mod.ts";
import { CellMappingService, feederMappingProblem, VERDICT_MESSAGES } from "./cell_mapping.ts";
import { CellOnboardingService } from "./cell_onboarding.ts";
import { CellsService } from "./cells.ts";
import {
  CELL_PAGE_SIZE,
  CellsSetupService,
  CONNECTION_TIMEOUT_MS,
  isConnected,
  statusLabel,
} from "./cells_setup.ts";
import type { CellsToConfigure, MappingValidated } from "../events.ts";
import { cellMessageInput, ioModuleInput } from "./contract.ts";
import { cells } from "../schema.ts";
import { createStructure } from "../structure/read.ts";

const CUSTOMER = "cust-a";
const NOW = Date.parse("2026-11-22T10:00:00Z");

Deno.test("status codes map to the display labels of spec 4", () => {
  for (const s of ["FIELD_INSTALLATION", "FIRST_CONNECTION", "READY_FOR_CONFIGURATION"]) {
    assert.equal(statusLabel(s), "waitingForInstallation");
  }
  assert.equal(statusLabel("VALIDATED"), "mappingNotValid");
  assert.equal(statusLabel("SKIPPED"), "failedOrSkipped");
  assert.equal(statusLabel("CONFIRMED"), "configured");
  assert.equal(statusLabel("NODE_DELETED"), "issue");
  assert.equal(statusLabel("SOMETHING_NEW"), "unknown");
  assert.equal(statusLabel(null), "unknown");
});

Deno.test("a cell is disconnected after 10 minutes without contact", () => {
  assert.equal(isConnected(null, NOW), false);
  assert.equal(isConnected(new Date(NOW - CONNECTION_TIMEOUT_MS), NOW), true);
  assert.equal(isConnected(new Date(NOW - CONNECTION_TIMEOUT_MS - 1), NOW), false);
});

/** The message keys of the field errors a body gets from a schema. */
function keysOf(schema: typeof cellMessageInput | typeof ioModuleInput, body: unknown): string[] {
  const result = schema.safeParse(body);
  return result.success ? [] : fieldIssues(result.error.issues, body).map((i) => i.key);
}

Deno.test('custom messages: at most 120 characters, none of : < > " / \\ | ? * !', () => {
  const messageProblems = (message: string) => keysOf(cellMessageInput, { message });
  assert.deepEqual(messageProblems("Key at the depot, box 4"), []);
  assert.deepEqual(messageProblems("x".repeat(121)), ["validation.maxChars"]);
  for (const c of [":", "<", ">", '"', "/", "\\", "|", "?", "*", "!"]) {
    assert.deepEqual(messageProblems(`a${c}b`), ["validation.forbiddenChars"]);
  }
  assert.deepEqual(cellMessageInput.parse({ message: "  " }), { message: null });
  assert.deepEqual(cellMessageInput.parse({ message: " Box 4 " }), { message: "Box 4" });
});

Deno.test("a feeder mapping is L1, L1-L2, L1-L3 or L1-N; the neutral alone is 105", () => {
  assert.equal(feederMappingProblem({ L1: 1 }), null);
  assert.equal(feederMappingProblem({ L1: 1, L2: 2, L3: 3, N: 4 }), null);
  assert.equal(feederMappingProblem({ N: 4 }), 105);
  assert.equal(feederMappingProblem({ L1: 1, L3: 3 }), "order");
  assert.equal(feederMappingProblem({ L2: 1 }), "order");
});

Deno.test("I/O module form rules and the spec's messages", () => {
  const ok = { name: "Door", module_type: "DIGITAL_INPUT", system_type: "DRY_CONTACT" } as const;
  const messages = (m: Record<string, unknown>) => keysOf(ioModuleInput, m);
  assert.deepEqual(messages({ ...ok, size: 2, resolution: 1 }), []);
  assert.deepEqual(messages({ ...ok, resolution: 0 }), ["validation.selectModuleSize"]);
  assert.deepEqual(messages({ ...ok, size: 2 }), ["validation.setModuleResolution"]);
  assert.deepEqual(messages({ ...ok, size: 2, resolution: -1.01 }), ["validation.resolutionRange"]);
  assert.deepEqual(messages({ ...ok, size: 3, resolution: 0 }), ["validation.selectModuleSize"]);
  assert.deepEqual(messages({ ...ok, name: "ab", size: 2, resolution: 0 }), ["validation.nameMin"]);
  assert.deepEqual(messages({ ...ok, name: "a".repeat(21), size: 2, resolution: 0 }), [
    "validation.nameMax",
  ]);
  assert.deepEqual(messages({ ...ok, name: "Door*", size: 2, resolution: 0 }), [
    "validation.forbiddenChars",
  ]);
  assert.deepEqual(messages({ ...ok, system_type: "4_20MA", size: 2, resolution: 0 }), [
    "validation.required",
  ]);
});

Deno.test("every verdict has a message; the timeout says 'Mapping validation timeout'", () => {
  assert.equal(VERDICT_MESSAGES.TIMEOUT, "messages.mappingValidationTimeout");
  assert.equal(VERDICT_MESSAGES.NOT_ENOUGH_MEASUREMENTS, "mapping.verdict.notEnoughMeasurements");
});

interface World {
  db: Database;
  setup: CellsSetupService;
  registry: CellsService;
  onboarding: CellOnboardingService;
  bus: EventBus;
  nodeId: string;
}

async function withWorld(fn: (w: World) => Promise<void>) {
  const { database: db } = await openMigratedDatabase({ dataDir: ":memory:" });
  try {
    const bus = new EventBus(createLogger("error"));
    const nodes = await createStructure(db.db, CUSTOMER, [{
      name: "Station",
      mvFeederGroups: [{
        name: "MV",
        lvGroups: [{
          name: "LV",
          nodes: [{
            name: "Cabinet",
            electricalWork: { name: "Cabinet", type: "LV_CABINET" },
            latitude: 47,
            longitude: 8,
            electricalDistance: 0,
            feeders: [{
              slot: 1,
              name: "Line",
              type: "LV_LINE",
              direction: "OUT",
              nominalCurrentA: 250,
            }],
          }],
        }],
      }],
    }]);
    const nodeId = nodes.get("Cabinet")!;
    const registry = new CellsService(db.db);
    const onboarding = new CellOnboardingService(db.db, registry, { publicUrl: "http://gw.test" });
    const setup = new CellsSetupService(db.db, bus, () => NOW);
    await fn({ db, setup, registry, onboarding, bus, nodeId });
  } finally {
    await db.close();
  }
}

async function waitingCell(w: World, serial: string, seenAt: number | null) {
  const { cell_id: cellId } = await w.onboarding.register(CUSTOMER, { serial_number: serial });
  await w.registry.toWaiting(cellId);
  if (seenAt !== null) {
    await w.db.db.update(cells).set({ lastSeen: new Date(seenAt) }).where(eq(cells.id, cellId));
  }
  return cellId;
}

const code = (e: unknown) => (e instanceof AppError ? e.entry.code ?? e.entry.key : e);

Deno.test("lists page by 10 with the total", async () => {
  await withWorld(async (w) => {
    for (let k = 0; k < 12; k++) await w.onboarding.register(CUSTOMER, { serial_number: `S-${k}` });
    const first = await w.setup.list(CUSTOMER, "IN_STOCK", 1);
    const second = await w.setup.list(CUSTOMER, "IN_STOCK", 2);
    assert.deepEqual([first.total, first.items.length, second.items.length], [
      12,
      CELL_PAGE_SIZE,
      2,
    ]);
    assert.equal((await w.setup.list("other", "IN_STOCK", 1)).total, 0);
  });
});

Deno.test("link: 301 disconnected, 310 unknown node; unlink publishes UNLINKED", async () => {
  await withWorld(async (w) => {
    const silent = await waitingCell(w, "S-1", NOW - CONNECTION_TIMEOUT_MS - 1);
    const live = await waitingCell(w, "S-2", NOW - 60_000);
    await assert.rejects(w.setup.link(CUSTOMER, silent, w.nodeId), (e) => code(e) === 301);
    await assert.rejects(w.setup.link(CUSTOMER, live, "missing"), (e) => code(e) === 310);
    await assert.rejects(
      w.setup.link("other", live, w.nodeId),
      (e) => code(e) === "common.notFound",
    );
    const linked = await w.setup.link(CUSTOMER, live, w.nodeId);
    assert.deepEqual([linked.type, linked.status, linked.node?.name], [
      "INSTALLED",
      "NOT_COMPLETED",
      "Cabinet",
    ]);
    const events: CellsToConfigure[] = [];
    w.bus.subscribe("grid.cellsToConfigure", (e) => void events.push(e));
    const back = await w.setup.unlink(CUSTOMER, live);
    assert.deepEqual([back.type, back.status], ["WAITING_FOR_INSTALLATION", "FIRST_CONNECTION"]);
    assert.deepEqual(events, [{
      customerKey: CUSTOMER,
      cellIds: [live],
      count: 1,
      reason: "UNLINKED",
    }]);
  });
});

Deno.test("validation: 115 when the data request fails, TIMEOUT when it hangs, event published", async () => {
  await withWorld(async (w) => {
    const cellId = await waitingCell(w, "S-3", NOW - 60_000);
    await w.setup.link(CUSTOMER, cellId, w.nodeId);
    const mapping = (analytics: { runAndReadAll: () => Promise<never> }) =>
      new CellMappingService({
        db: w.db.db,
        bus: w.bus,
        setup: w.setup,
        store: { seriesId: () => 1 },
        analytics: analytics as never,
        clock: () => NOW,
        validationTimeoutMs: 50,
      });
    const feeder = (await mapping({ runAndReadAll: () => Promise.reject(new Error("x")) })
      .get(CUSTOMER, cellId)).feeders[0]!;
    const failing = mapping({ runAndReadAll: () => Promise.reject(new Error("disk")) });
    await failing.save(
      CUSTOMER,
      cellId,
      [1, 2, 3].map((probe, k) => ({
        node_id: w.nodeId,
        feeder_id: feeder.id,
        probe,
        phase: (["L1", "L2", "L3"] as const)[k]!,
      })),
      true,
    );
    await assert.rejects(failing.validate(CUSTOMER, cellId), (e) => code(e) === 115);
    const events: MappingValidated[] = [];
    w.bus.subscribe("grid.mappingValidated", (e) => void events.push(e));
    const hanging = mapping({ runAndReadAll: () => new Promise<never>(() => {}) });
    const result = await hanging.validate(CUSTOMER, cellId);
    assert.deepEqual([result.verdict, result.message_key], [
      "TIMEOUT",
      "messages.mappingValidationTimeout",
    ]);
    assert.deepEqual(events, [{
      customerKey: CUSTOMER,
      cellId,
      nodeName: "Cabinet",
      ewName: "Cabinet",
      verdict: "TIMEOUT",
      certainty: "NO_CONCLUSION",
    }]);
    await assert.rejects(hanging.confirm(CUSTOMER, cellId), (e) => code(e) === 108);
  });
});
