import assert from "node:assert/strict";
import { openMigratedDatabase } from "../../kernel/mod.ts";
import { CustomersService } from "./service.ts";

async function world() {
  const { database } = await openMigratedDatabase({ dataDir: ":memory:" });
  const customers = new CustomersService(database.db);
  const create = (connection: string) =>
    customers.create({
      key: `${connection}-key`,
      authConnectionName: connection,
      name: connection,
      availableLanguages: ["en"],
      defaultFrequency: 50,
      defaultTimezone: "Europe/Zurich",
      defaultDateFormat: "DD.MM.YYYY",
      defaultTimeFormat: "HH:mm",
      defaultNumberFormat: "1'234.56",
      country: "CH",
      mapCenterLat: 47,
      mapCenterLng: 8,
      applications: [],
      authorizedEmailDomains: [],
    });
  return { database, customers, create };
}

Deno.test("TenantCache finds a customer created by this process at once, by key and connection", async () => {
  const { database, customers, create } = await world();
  try {
    assert.equal(await customers.tenants.byConnection("north"), null);
    await create("north");
    const tenant = await customers.tenants.byConnection("north");
    assert.deepEqual(tenant, { key: "north-key", connection: "north", applications: [] });
    assert.deepEqual(await customers.tenants.byKey("north-key"), tenant);
  } finally {
    await database.close();
  }
});

Deno.test("TenantCache shares one read between concurrent lookups", async () => {
  const { database, customers, create } = await world();
  try {
    await create("a");
    await create("b");
    const [a, b, missing] = await Promise.all([
      customers.tenants.byConnection("a"),
      customers.tenants.byKey("b-key"),
      customers.tenants.byKey("c-key"),
    ]);
    assert.equal(a?.key, "a-key");
    assert.equal(b?.connection, "b");
    assert.equal(missing, null);
  } finally {
    await database.close();
  }
});
