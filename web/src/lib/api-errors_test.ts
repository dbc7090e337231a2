import assert from "node:assert/strict";
import { errorPageFor, errorText, parseErrorBody, type Translator } from "./api-errors.ts";

Deno.test("errorPageFor() sends no response and 500 to /500, 403 to /403, 404 to /404", () => {
  assert.equal(errorPageFor(null), "/500");
  assert.equal(errorPageFor(0), "/500");
  assert.equal(errorPageFor(500), "/500");
  assert.equal(errorPageFor(403), "/403");
  assert.equal(errorPageFor(404), "/404");
});

Deno.test("errorPageFor() leaves other statuses to the screen", () => {
  assert.equal(errorPageFor(400), null);
  assert.equal(errorPageFor(409), null);
  assert.equal(errorPageFor(502), null);
});

Deno.test("parseErrorBody() reads code, key and params and rejects other shapes", () => {
  assert.deepEqual(parseErrorBody({ code: 401, key: "data.periodIncorrect", params: { a: 1 } }), {
    code: 401,
    key: "data.periodIncorrect",
    params: { a: 1 },
  });
  assert.deepEqual(parseErrorBody({ key: "common.notFound" }), {
    key: "common.notFound",
    params: {},
  });
  assert.equal(parseErrorBody({ message: "boom" }), null);
  assert.equal(parseErrorBody("text"), null);
});

const tr = (known: Record<string, string>): Translator => ({
  exists: (key) => key in known,
  t: (key, params) =>
    (known[key] ?? key).replace(/\{\{(\w+)\}\}/g, (_, p: string) => String(params?.[p] ?? "")),
});

Deno.test("errorText() translates a known key and keeps the code for the small print", () => {
  const text = errorText(
    { code: 510, key: "pq.reportLimit", params: { limit: 5 } },
    tr({ "errors:pq.reportLimit": "Limit {{limit}} reached" }),
  );
  assert.deepEqual(text, { text: "Limit 5 reached", code: 510 });
});

Deno.test("errorText() shows Unknown message (code N) for an unknown code", () => {
  const text = errorText(
    { code: 999, key: "x.y", params: {} },
    tr({ "common:errors.unknownMessage": "Unknown message (code {{code}})" }),
  );
  assert.deepEqual(text, { text: "Unknown message (code 999)", code: 999 });
});
