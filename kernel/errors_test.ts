import assert from "node:assert/strict";
import { findByKey } from "./error_catalogue.ts";
import { AppError, bodyForStatus } from "./errors.ts";

Deno.test("AppError() by spec code answers { code, key, params } with the catalogue status", () => {
  const error = new AppError(322, { limit: 5 });
  assert.equal(error.status, 429);
  assert.deepEqual(error.toBody(), {
    code: 322,
    key: "monitoring.requestLimit",
    params: { limit: 5 },
  });
});

Deno.test("AppError() by key of a numbered entry still sends the spec code", () => {
  const error = new AppError("monitoring.requestLimit", { limit: 5 });
  assert.equal(error.toBody().code, 322);
  assert.equal(error.status, 429);
});

Deno.test("AppError() for an unnumbered entry sends no code and empty params", () => {
  const error = new AppError("common.notFound");
  const body = error.toBody();
  assert.equal(error.status, 404);
  assert.deepEqual(body, { key: "common.notFound", params: {} });
  assert.equal("code" in JSON.parse(JSON.stringify(body)), false);
});

Deno.test("AppError() refuses a key or code missing from the catalogue", () => {
  assert.throws(() => new AppError("common.nope"), /Unknown error catalogue entry: common\.nope/);
  assert.throws(() => new AppError(999), /Unknown error catalogue entry: 999/);
});

Deno.test("AppError() keeps the cause for the logs and names the entry in its message", () => {
  const cause = new Error("connection reset");
  const error = new AppError(322, {}, cause);
  assert.equal(error.cause, cause);
  assert.equal(error.message, "monitoring.requestLimit (322)");
  assert.equal(error.name, "AppError");
  assert.ok(error instanceof Error);
});

Deno.test("bodyForStatus() maps each generic status to its catalogue key", () => {
  for (const status of [400, 401, 403, 404, 405, 409, 413, 415, 429, 500, 503]) {
    const body = bodyForStatus(status);
    assert.equal(findByKey(body.key)?.status, status, `${status} -> ${body.key}`);
    assert.deepEqual(body.params, {});
    assert.equal("code" in body, false);
  }
});

Deno.test("bodyForStatus() falls back to internal for 5xx and badRequest for other 4xx", () => {
  assert.deepEqual(bodyForStatus(502), { key: "common.internal", params: {} });
  assert.deepEqual(bodyForStatus(504), { key: "common.internal", params: {} });
  assert.deepEqual(bodyForStatus(418), { key: "common.badRequest", params: {} });
});
