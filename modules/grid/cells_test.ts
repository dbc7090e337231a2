import assert from "node:assert/strict";
import { migrate, openDatabase } from "../../kernel/mod.ts";
import { CellsService } from "./cells.ts";

Deno.test("CellsService.authenticate() refuses the old credential at once after rotation and revocation", async () => {
  const db = await openDatabase({ dataDir: ":memory:" });
  try {
    await migrate(db);
    const cells = new CellsService(db.db);
    const { credential } = await cells.register("cust-a", "SN-0001");
    assert.equal((await cells.authenticate(credential))?.customerKey, "cust-a");
    const next = await cells.rotateCredential(credential.split(".")[0]!);
    assert.equal(await cells.authenticate(credential), null);
    assert.equal((await cells.authenticate(next))?.customerKey, "cust-a");
    await cells.revoke(credential.split(".")[0]!);
    assert.equal(await cells.authenticate(next), null);
    cells.close();
  } finally {
    await db.close();
  }
});
