import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { AppError, type Database, openMigratedDatabase } from "../../../kernel/mod.ts";
import { baseCellId, CellOnboardingService, freeCellId } from "./cell_onboarding.ts";
import { CellsService } from "./cells.ts";
import { hashSecret, parseCredential } from "./credentials.ts";
import { cells as cellsTable } from "../schema.ts";

const CUSTOMER = "cust-a";

interface World {
  db: Database;
  cells: CellsService;
  onboarding: CellOnboardingService;
}

async function withWorld(fn: (w: World) => Promise<void>) {
  const { database: db } = await openMigratedDatabase({ dataDir: ":memory:" });
  const cells = new CellsService(db.db);
  try {
    await fn({
      db,
      cells,
      onboarding: new CellOnboardingService(db.db, cells, { publicUrl: "https://gw.example/" }),
    });
  } finally {
    cells.close();
    await db.close();
  }
}

/** The key (or spec code) and field errors of a refusal. */
async function refusal(promise: Promise<unknown>): Promise<{ key: string; issues: string[] }> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof AppError, String(error));
    const issues = (error.params.issues ?? []) as { path: string; key: string }[];
    return { key: error.entry.key, issues: issues.map((i) => `${i.path}:${i.key}`) };
  }
  throw new Error("The call was not refused");
}

const count = async (w: World) => (await w.db.db.select().from(cellsTable)).length;

Deno.test("baseCellId() and freeCellId() give C + 12 letters/digits, then -2, -3 when taken", () => {
  assert.equal(baseCellId("GW-2026-0001"), "CGW20260001");
  assert.equal(baseCellId("ABCDEFGHIJ-1234567"), "CFGHIJ1234567");
  const taken = new Set(["CGW1", "CGW1-2"]);
  assert.equal(freeCellId("CGW1", taken), "CGW1-3");
  assert.ok(taken.has("CGW1-3"));
});

Deno.test("register() stores the serial in capitals, only a hash, and answers the credential once", async () => {
  await withWorld(async (w) => {
    const issued = await w.onboarding.register(CUSTOMER, { serial_number: " gw-2026-0100 " });
    assert.deepEqual(
      [issued.cell_id, issued.serial_number, issued.device_model, issued.type],
      ["CGW20260100", "GW-2026-0100", "GW4", "IN_STOCK"],
    );
    assert.equal(issued.ingest_url, "https://gw.example/ingest/v1/batches");
    assert.equal(issued.configuration_url, "https://gw.example/ingest/v1/configuration");
    assert.equal(issued.protocol_version, 2);
    const { secret } = parseCredential(issued.credential)!;
    const [row] = await w.db.db.select().from(cellsTable)
      .where(eq(cellsTable.id, issued.cell_id));
    assert.equal(row?.credentialHash, await hashSecret(secret));
    assert.ok(!JSON.stringify(row).includes(secret), "the secret is not stored");
    assert.equal((await w.cells.authenticate(issued.credential))?.customerKey, CUSTOMER);
  });
});

Deno.test("register() refuses a registered serial number (any case, any customer) with setup.cellSerialExists", async () => {
  await withWorld(async (w) => {
    await w.onboarding.register(CUSTOMER, { serial_number: "GW-7" });
    for (const [customer, serial] of [[CUSTOMER, "gw-7"], ["cust-b", "GW-7"]] as const) {
      assert.deepEqual(await refusal(w.onboarding.register(customer, { serial_number: serial })), {
        key: "setup.cellSerialExists",
        issues: [],
      });
    }
    assert.equal(await count(w), 1);
  });
});

Deno.test("register() validates on its own: serial format, model, type (400 field errors)", async () => {
  await withWorld(async (w) => {
    const bad = await refusal(w.onboarding.register(CUSTOMER, {
      serial_number: "GW/1",
      device_model: "XYZ" as never,
      type: "INSTALLED" as never,
    }));
    assert.equal(bad.key, "common.validation");
    assert.deepEqual(bad.issues, [
      "serial_number:validation.serialNumberFormat",
      "device_model:validation.invalidChoice",
      "type:validation.invalidChoice",
    ]);
    assert.equal(await count(w), 0);
  });
});

Deno.test("register() gives serials with the same letters and digits distinct ids; a waiting cell waits for installation", async () => {
  await withWorld(async (w) => {
    const a = await w.onboarding.register(CUSTOMER, { serial_number: "GW-1-23" });
    const b = await w.onboarding.register(CUSTOMER, {
      serial_number: "GW-12-3",
      device_model: "DTVI",
      type: "WAITING_FOR_INSTALLATION",
    });
    assert.deepEqual([a.cell_id, b.cell_id], ["CGW123", "CGW123-2"]);
    const [row] = await w.db.db.select().from(cellsTable).where(eq(cellsTable.id, b.cell_id));
    assert.deepEqual([row?.type, row?.status, row?.deviceModel], [
      "WAITING_FOR_INSTALLATION",
      "FIELD_INSTALLATION",
      "DTVI",
    ]);
    assert.ok(await w.cells.authenticate(b.credential));
  });
});

Deno.test("importCsv() registers every cell or none, with the problems by line", async () => {
  await withWorld(async (w) => {
    await w.onboarding.register(CUSTOMER, { serial_number: "GW-3" });
    const refused = await refusal(w.onboarding.importCsv(CUSTOMER, {
      csv: "serial_number\nGW-1\nGW-2\nGW-3\nG/4\ngw-1",
    }));
    assert.equal(refused.key, "common.validation");
    assert.deepEqual(refused.issues, [
      "csv.5:validation.serialNumberFormat",
      "csv.6:validation.serialNumberRepeated",
    ]);
    // Only once the file itself is right does the database say which are registered.
    const taken = await refusal(w.onboarding.importCsv(CUSTOMER, { csv: "GW-1\nGW-2\ngw-3" }));
    assert.deepEqual(taken.issues, ["csv.3:setup.cellSerialExists"]);
    assert.equal(await count(w), 1);

    const imported = await w.onboarding.importCsv(CUSTOMER, {
      csv: "GW-1\nGW-2;DTVI\nGW-4",
      type: "WAITING_FOR_INSTALLATION",
    });
    assert.equal(imported.count, 3);
    assert.deepEqual(imported.cells.map((c) => [c.serial_number, c.device_model, c.type]), [
      ["GW-1", "GW4", "WAITING_FOR_INSTALLATION"],
      ["GW-2", "DTVI", "WAITING_FOR_INSTALLATION"],
      ["GW-4", "GW4", "WAITING_FOR_INSTALLATION"],
    ]);
    for (const cell of imported.cells) assert.ok(await w.cells.authenticate(cell.credential));
    assert.equal(await count(w), 4);
  });
});

Deno.test("importCsv() lists at most 100 problems, then how many more", async () => {
  await withWorld(async (w) => {
    const csv = Array.from({ length: 130 }, (_, k) => `G/${k}`).join("\n");
    const refused = await refusal(w.onboarding.importCsv(CUSTOMER, { csv }));
    assert.equal(refused.issues.length, 101);
    assert.equal(refused.issues[100], "csv:validation.csvMoreProblems");
  });
});

Deno.test("rotate() refuses the old credential at once; revoke() refuses any; rotate() reinstates", async () => {
  await withWorld(async (w) => {
    const first = await w.onboarding.register(CUSTOMER, { serial_number: "GW-5" });
    assert.ok(await w.cells.authenticate(first.credential));
    const second = await w.onboarding.rotate(CUSTOMER, first.cell_id);
    assert.notEqual(second.credential, first.credential);
    assert.equal(await w.cells.authenticate(first.credential), null);
    assert.ok(await w.cells.authenticate(second.credential));
    await w.onboarding.revoke(CUSTOMER, first.cell_id);
    assert.equal(await w.cells.authenticate(second.credential), null);
    const third = await w.onboarding.rotate(CUSTOMER, first.cell_id);
    assert.equal(await w.cells.authenticate(second.credential), null);
    assert.ok(await w.cells.authenticate(third.credential));
  });
});

Deno.test("rotate() and revoke() answer 404 for another customer's cell and change nothing", async () => {
  await withWorld(async (w) => {
    const issued = await w.onboarding.register(CUSTOMER, { serial_number: "GW-6" });
    const calls = [
      () => w.onboarding.rotate("cust-b", issued.cell_id),
      () => w.onboarding.revoke("cust-b", issued.cell_id),
    ];
    for (const call of calls) assert.equal((await refusal(call())).key, "common.notFound");
    assert.ok(await w.cells.authenticate(issued.credential));
  });
});
