import assert from "node:assert/strict";
import { sql } from "drizzle-orm";
import { type Database, openMigratedDatabase } from "../../../kernel/mod.ts";
import { changeCounter, createStructure, structureVersion } from "../structure/read.ts";
import { CellOnboardingService } from "./cell_onboarding.ts";
import { CellsService } from "./cells.ts";

const CUSTOMER = "cust-a";

interface World {
  db: Database;
  cells: CellsService;
  onboarding: CellOnboardingService;
  nodeId: string;
}

async function withWorld(fn: (w: World) => Promise<void>) {
  const { database: db } = await openMigratedDatabase({ dataDir: ":memory:" });
  const cells = new CellsService(db.db);
  try {
    const nodeIds = await createStructure(db.db, CUSTOMER, [{
      name: "Station",
      mvFeederGroups: [{
        name: "MV 1",
        lvGroups: [{
          name: "LV 1",
          nodes: [{
            name: "TS 1",
            electricalWork: { name: "TS 1", type: "MV_LV_STATION" },
            latitude: 46.5,
            longitude: 6.6,
            feeders: [
              { slot: 1, name: "T1", type: "TRANSFORMER", direction: "IN", nominalCurrentA: 400 },
            ],
          }],
        }],
      }],
    }]);
    await fn({
      db,
      cells,
      onboarding: new CellOnboardingService(db.db, cells, { publicUrl: "https://gw.example/" }),
      nodeId: nodeIds.get("TS 1")!,
    });
  } finally {
    cells.close();
    await db.close();
  }
}

/** Both counters, as a reader compares them. */
const counters = async (w: World) => ({
  structure: await structureVersion(w.db.db),
  cells: await changeCounter(w.db.db, "cells"),
});

Deno.test("the change counters move with the structure and the cells' placement or credential, not with device status", async () => {
  await withWorld(async (w) => {
    const start = await counters(w);
    const issued = await w.onboarding.register(CUSTOMER, { serial_number: "GW-1" });
    const registered = await counters(w);
    assert.notEqual(registered.structure, start.structure, "a new cell");
    assert.notEqual(registered.cells, start.cells);

    await w.cells.install(issued.cell_id, w.nodeId);
    const installed = await counters(w);
    assert.notEqual(installed.structure, registered.structure, "placement");
    assert.notEqual(installed.cells, registered.cells);

    // The ingest path's status writes (every 2 s at 5,000 cells) must not look like changes.
    await w.cells.recordStatuses([
      { cellId: issued.cell_id, status: { firmware: "2.4.1", gsm_signal: "GOOD" }, at: new Date() },
    ]);
    await w.cells.recordStatus(issued.cell_id, { gps_fix: "GPS_FIX" });
    assert.deepEqual(await counters(w), installed);
    const [row] = (await w.cells.listFor(CUSTOMER)).filter((c) => c.id === issued.cell_id);
    assert.deepEqual([row!.firmware, row!.gsm_signal, row!.gps_fix], ["2.4.1", "GOOD", "GPS_FIX"]);
    assert.ok(row!.last_seen);

    await w.cells.rotateCredential(issued.cell_id);
    const rotated = await counters(w);
    assert.notEqual(rotated.cells, installed.cells, "a new credential");

    // A feeder added to the node changes the cell's feeder slots and the structure.
    await w.db.db.execute(sql`INSERT INTO grid.feeders
      (id, node_id, slot, name, type, direction, nominal_current_a, parameters)
      VALUES ('f-2', ${w.nodeId}, 2, 'L2', 'LV_LINE', 'OUT', 250, '{}'::jsonb)`);
    const fed = await counters(w);
    assert.notEqual(fed.structure, rotated.structure);
    assert.notEqual(fed.cells, rotated.cells);
  });
});

Deno.test("authenticate() keeps a checked identity while the cells did not change, and notices a change made elsewhere", async () => {
  await withWorld(async (w) => {
    const issued = await w.onboarding.register(CUSTOMER, { serial_number: "GW-2" });
    await w.cells.install(issued.cell_id, w.nodeId);
    const first = await w.cells.authenticate(issued.credential);
    assert.deepEqual(first?.feederSlots, [1]);

    // Past the cache time, with only status writes meanwhile: still valid, same identity.
    await w.cells.recordStatuses([{ cellId: issued.cell_id, status: {}, at: new Date() }]);
    const later = Date.now() + 61_000;
    assert.equal(await w.cells.authenticate(issued.credential, later), first);
    await new Promise((resolve) => setTimeout(resolve, 700)); // the background check
    assert.equal(await w.cells.authenticate(issued.credential), first, "kept, not read again");

    // Another instance adds a feeder and revokes nothing: the slots are read again.
    await w.db.db.execute(sql`INSERT INTO grid.feeders
      (id, node_id, slot, name, type, direction, nominal_current_a, parameters)
      VALUES ('f-3', ${w.nodeId}, 3, 'L3', 'LV_LINE', 'OUT', 250, '{}'::jsonb)`);
    await w.cells.authenticate(issued.credential, Date.now() + 61_000);
    await new Promise((resolve) => setTimeout(resolve, 700));
    assert.deepEqual((await w.cells.authenticate(issued.credential))?.feederSlots, [1, 3]);

    // Another instance revokes the cell (not through this service): refused after the check.
    await w.db.db.execute(sql`UPDATE grid.cells SET revoked = true WHERE id = ${issued.cell_id}`);
    assert.ok(await w.cells.authenticate(issued.credential, Date.now() + 61_000));
    await new Promise((resolve) => setTimeout(resolve, 700));
    assert.equal(await w.cells.authenticate(issued.credential), null);
  });
});
