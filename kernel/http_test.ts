import assert from "node:assert/strict";
import { z } from "zod";
import { AppError } from "./errors.ts";
import { CONTENT_SECURITY_POLICY, createHttpApp, validate } from "./http.ts";
import { createLogger } from "./logger.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The shared shell with a few routes, logging into `lines`. */
function shell() {
  const lines: string[] = [];
  const app = createHttpApp(createLogger("info", {}, (_level, line) => lines.push(line)));
  app.get("/ok", (c) => c.json({ ok: true }));
  app.get("/boom", () => {
    throw new Error("db password=hunter2 refused");
  });
  app.get("/gone", () => {
    throw new AppError(322, { limit: 5 });
  });
  app.post(
    "/nodes",
    validate("json", z.object({ name: z.string().min(1), feeders: z.number().int() })),
    (c) => c.json(c.req.valid("json"), 201),
  );
  return { app, lines };
}

function assertSecurityHeaders(res: Response): void {
  const csp = res.headers.get("Content-Security-Policy") ?? "";
  assert.equal(csp, CONTENT_SECURITY_POLICY);
  assert.match(csp, /(^|; )script-src 'self'(;|$)/);
  assert.doesNotMatch(csp, /unsafe-eval/);
  assert.match(csp, /frame-ancestors 'none'/);
  assert.equal(res.headers.get("X-Content-Type-Options"), "nosniff");
  assert.equal(res.headers.get("X-Frame-Options"), "DENY");
}

Deno.test("createHttpApp() echoes a well-formed incoming X-Request-Id", async () => {
  const res = await shell().app.request("/ok", { headers: { "x-request-id": "req-2024_abc" } });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("X-Request-Id"), "req-2024_abc");
});

Deno.test("createHttpApp() replaces a malicious or overlong X-Request-Id with a fresh UUID", async () => {
  const { app } = shell();
  for (const incoming of ['<script>alert("x")</script>', "../../etc/passwd", "a".repeat(65)]) {
    const res = await app.request("/ok", { headers: { "x-request-id": incoming } });
    const id = res.headers.get("X-Request-Id") ?? "";
    assert.match(id, UUID, incoming);
  }
});

Deno.test("createHttpApp() gives each request without an id its own X-Request-Id", async () => {
  const { app } = shell();
  const first = (await app.request("/ok")).headers.get("X-Request-Id") ?? "";
  const second = (await app.request("/ok")).headers.get("X-Request-Id") ?? "";
  assert.match(first, UUID);
  assert.match(second, UUID);
  assert.notEqual(first, second);
});

Deno.test("createHttpApp() sets the security headers on success, error and 404 responses", async () => {
  const { app } = shell();
  for (const path of ["/ok", "/boom", "/gone", "/nowhere"]) {
    const res = await app.request(path);
    assertSecurityHeaders(res);
    assert.ok(res.headers.get("X-Request-Id"), path);
  }
});

Deno.test("createHttpApp() answers a thrown Error with 500 common.internal and no internals", async () => {
  const { app, lines } = shell();
  const res = await app.request("/boom", { headers: { "x-request-id": "trace-1" } });
  assert.equal(res.status, 500);
  const text = await res.text();
  assert.deepEqual(JSON.parse(text), { key: "common.internal", params: {} });
  assert.doesNotMatch(text, /hunter2|stack|http_test|at /);
  // The operator still finds the cause in the log, under the request id.
  const logged = lines.map((l) => JSON.parse(l)).find((r) => r.msg === "Unhandled error");
  assert.equal(logged?.requestId, "trace-1");
  assert.equal(logged?.error?.message, "db password=hunter2 refused");
});

Deno.test("createHttpApp() answers an AppError with its catalogue status and body", async () => {
  const res = await shell().app.request("/gone");
  assert.equal(res.status, 429);
  assert.deepEqual(await res.json(), {
    code: 322,
    key: "monitoring.requestLimit",
    params: { limit: 5 },
  });
});

Deno.test("createHttpApp() answers an unknown route with 404 common.notFound", async () => {
  const res = await shell().app.request("/api/nothing-here");
  assert.equal(res.status, 404);
  assert.deepEqual(await res.json(), { key: "common.notFound", params: {} });
});

Deno.test("createHttpApp() writes one access log line per request", async () => {
  const { app, lines } = shell();
  await app.request("/ok", { headers: { "x-request-id": "trace-2" } });
  const access = lines.map((l) => JSON.parse(l)).filter((r) => r.msg === "request");
  assert.equal(access.length, 1);
  assert.equal(access[0].requestId, "trace-2");
  assert.equal(access[0].status, 200);
  assert.equal(access[0].path, "/ok");
});

Deno.test("validate() answers 400 common.validation listing each invalid field", async () => {
  const res = await shell().app.request("/nodes", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "", feeders: "three" }),
  });
  assert.equal(res.status, 400);
  const body = await res.json();
  assert.equal(body.key, "common.validation");
  assert.equal("code" in body, false);
  const issues = [...body.params.issues].sort((a, b) => a.path.localeCompare(b.path));
  assert.deepEqual(issues, [
    { path: "feeders", key: "validation.invalidValue", params: {} },
    { path: "name", key: "validation.required", params: {} },
  ]);
});

Deno.test("validate() passes a valid body to the handler", async () => {
  const res = await shell().app.request("/nodes", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "Feeder 12", feeders: 3 }),
  });
  assert.equal(res.status, 201);
  assert.deepEqual(await res.json(), { name: "Feeder 12", feeders: 3 });
});

Deno.test("validate() answers malformed JSON with 400 common.badRequest, never 500", async () => {
  const res = await shell().app.request("/nodes", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: '{"name": "Feeder',
  });
  assert.equal(res.status, 400);
  assert.deepEqual(await res.json(), { key: "common.badRequest", params: {} });
});

Deno.test("createHttpApp() logs cell batches at debug level only, other requests at info", async () => {
  const { app, lines } = shell();
  app.post("/ingest/v1/batches", (c) => c.json({ accepted: 1 }));
  await (await app.request("/ingest/v1/batches", { method: "POST" })).text();
  await (await app.request("/ok")).text();
  const requests = lines.map((l) => JSON.parse(l)).filter((r) => r.msg === "request");
  assert.deepEqual(requests.map((r) => r.path), ["/ok"]);
});
