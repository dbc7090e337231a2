/**
 * The contract documents are generated from the routes: docs/openapi/internal.json and the
 * generated block of docs/contracts.md must be what scripts/contracts_doc.ts writes now, and
 * every call says what it does.
 */
import assert from "node:assert/strict";
import { internalRoutes, staleFiles } from "../../scripts/contracts_doc.ts";
import { releaseNativeHandles } from "../../core/mod.ts";

Deno.test("docs/contracts.md and docs/openapi/internal.json match the routes (else run scripts/contracts_doc.ts)", async () => {
  try {
    assert.deepEqual(await staleFiles(), []);
  } finally {
    await releaseNativeHandles();
  }
});

// The grid module's routes get their summaries with its contract (issue 13, grid part).
const NOT_YET_DOCUMENTED = ["/gsm/", "/ingest/v1/configuration"];

Deno.test("every call of the internal API says what it does and who may call it", async () => {
  try {
    const routes = (await internalRoutes())
      .filter((r) => !NOT_YET_DOCUMENTED.some((p) => r.path.startsWith(p)));
    assert.ok(routes.length > 40, "the platform's routes were read");
    assert.deepEqual(routes.filter((r) => !r.summary).map((r) => `${r.method} ${r.path}`), []);
    // A call behind a token names the module key it needs, except the person's own data.
    const own = /^\/(usm\/users\/current|nsm\/notifications|csm\/customers)/;
    const unguarded = routes.filter((r) => r.auth && !r.access && !own.test(r.path.slice(0)));
    assert.deepEqual(unguarded.map((r) => `${r.method} ${r.path}`), []);
  } finally {
    await releaseNativeHandles();
  }
});
