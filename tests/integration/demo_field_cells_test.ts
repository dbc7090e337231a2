/**
 * The demo's powered field cells poll their configuration over HTTP like real cells, so they
 * stay connected and can be linked in a running demo; they acknowledge a new mapping version.
 */
import assert from "node:assert/strict";
import { startFieldCellPolling } from "../../modules/demo/mod.ts";
import { createLogger } from "../../kernel/mod.ts";
import { startTestPlatform } from "../helpers/platform.ts";

Deno.test("demo field cells poll their configuration and stay connected", async () => {
  const platform = await startTestPlatform("pglite");
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen: () => {} },
    platform.app.fetch,
  );
  try {
    const { cells, customers, onboarding } = platform.services;
    const customerKey = (await customers.getByConnection("demo-ew"))!.key;
    const waiting = await cells.listFor(customerKey, "WAITING_FOR_INSTALLATION");
    const powered = waiting.filter((c) => c.gps_fix !== null);
    assert.ok(powered.length >= 1 && powered.length < waiting.length);
    const before = new Map(waiting.map((c) => [c.id, c.last_seen]));

    const stop = await startFieldCellPolling({
      cells,
      onboarding,
      customerKeyOf: async (name) => (await customers.getByConnection(name))?.key ?? null,
      logger: createLogger("error"),
      baseUrl: `http://127.0.0.1:${server.addr.port}`,
      intervalMs: 50,
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await stop();

    const after = await cells.listFor(customerKey, "WAITING_FOR_INSTALLATION");
    for (const cell of after) {
      const polled = Date.parse(cell.last_seen ?? "0") > Date.parse(before.get(cell.id) ?? "0");
      // Only the powered cells (GPS and GSM known) talk to the platform.
      assert.equal(polled, cell.gps_fix !== null, cell.serial_number);
    }
  } finally {
    await server.shutdown();
    await platform.close();
  }
});
