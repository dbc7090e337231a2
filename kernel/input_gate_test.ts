import assert from "node:assert/strict";
import { z } from "zod";
import { createHttpApp, validate } from "./http.ts";
import { DEFAULT_BODY_BYTES, inputGate, MAX_HEADER_BYTES, parseJson } from "./input_gate.ts";
import { createLogger } from "./logger.ts";

function app() {
  const a = createHttpApp(createLogger("error"));
  a.use(inputGate([
    { path: /^\/upload$/, bytes: 1024 * 1024 },
    { path: /^\/raw$/, bytes: 64, raw: true },
  ]));
  a.post("/json", validate("json", z.object({ name: z.string() })), (c) => {
    return c.json({ got: c.req.valid("json").name });
  });
  a.post("/text", async (c) => c.json({ length: (await c.req.text()).length }));
  a.post("/form", async (c) => c.json({ email: (await c.req.parseBody()).email }));
  a.post("/upload", (c) => c.json({ read: false, type: c.req.header("content-type") }));
  a.post("/raw", async (c) => c.json({ bytes: (await c.req.arrayBuffer()).byteLength }));
  a.get("/items/:id", (c) => c.json({ id: c.req.param("id"), q: c.req.query("q") ?? null }));
  return a;
}

const json = (body: string | Uint8Array, headers: Record<string, string> = {}) => ({
  method: "POST",
  body: body as BodyInit,
  headers: { "content-type": "application/json", ...headers },
});

async function answer(res: Response) {
  return { status: res.status, body: await res.json() as Record<string, unknown> };
}

function issueKeys(body: Record<string, unknown>): string[] {
  const params = body.params as { issues?: { key: string }[] };
  return (params.issues ?? []).map((issue) => issue.key);
}

Deno.test("a valid JSON body reaches the validator and the handler once parsed", async () => {
  const res = await app().request("/json", json(`{"name":"Grid \u00e9 \u{1F600}"}`));
  assert.deepEqual(await answer(res), { status: 200, body: { got: "Grid \u00e9 \u{1F600}" } });
  const text = await app().request("/text", json(`{"a":1}`));
  assert.deepEqual(await text.json(), { length: 7 });
});

Deno.test("a NUL, a lone surrogate or broken UTF-8 in JSON answers 400 with the key", async () => {
  for (
    const body of [
      `{"name":"a\\u0000b"}`,
      `{"name":"\\ud800"}`,
      `{"na\\u0000me":"x"}`,
      `{"list":["ok",{"deep":"\\udfff x"}]}`,
      new Uint8Array([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
    ]
  ) {
    const { status, body: error } = await answer(await app().request("/json", json(body)));
    assert.equal(status, 400, String(body));
    assert.equal(error.key, "common.validation");
    assert.deepEqual(issueKeys(error), ["validation.invalidCharacters"]);
  }
});

Deno.test("malformed and deeply nested JSON answer 400, never 500", async () => {
  const malformed = await answer(await app().request("/json", json(`{"name":`)));
  assert.equal(malformed.status, 400);
  assert.deepEqual(issueKeys(malformed.body), ["validation.malformedJson"]);
  const deep = await answer(
    await app().request("/json", json("[".repeat(5000) + "]".repeat(5000))),
  );
  assert.equal(deep.status, 400);
  assert.deepEqual(issueKeys(deep.body), ["validation.tooDeep"]);
});

Deno.test("a declared body beyond the limit answers 413 before it is read", async () => {
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled++;
      controller.enqueue(new Uint8Array(1024));
    },
  });
  const res = await app().request("/json", {
    method: "POST",
    body: stream,
    headers: { "content-type": "application/json", "content-length": String(40_000_000) },
  });
  assert.equal(res.status, 413);
  assert.equal((await res.json()).key, "common.payloadTooLarge");
  assert.ok(pulled <= 1, `read ${pulled} chunks`);
});

Deno.test("a chunked body is counted while it streams and cut at the limit", async () => {
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      sent += 64 * 1024;
      controller.enqueue(new Uint8Array(64 * 1024).fill(0x20));
      if (sent > 10 * DEFAULT_BODY_BYTES) controller.close();
    },
  });
  const res = await app().request("/text", {
    method: "POST",
    body: stream,
    headers: { "content-type": "text/plain" },
  });
  assert.equal(res.status, 413);
  assert.ok(sent <= DEFAULT_BODY_BYTES + 2 * 64 * 1024, `read ${sent} bytes`);
});

Deno.test("uploads keep their module's limit and are left for the module to read", async () => {
  const res = await app().request("/upload", {
    method: "POST",
    body: new Uint8Array(512 * 1024),
    headers: { "content-type": "multipart/form-data; boundary=x", "content-length": "524288" },
  });
  assert.deepEqual(await res.json(), { read: false, type: "multipart/form-data; boundary=x" });
  const big = await app().request("/upload", {
    method: "POST",
    body: new Uint8Array(16),
    headers: { "content-type": "multipart/form-data; boundary=x", "content-length": "2000000" },
  });
  assert.equal(big.status, 413);
});

Deno.test("a raw route gets its bytes untouched, within its own limit", async () => {
  const ok = await app().request("/raw", json(`{"a":"\\u0000"}`));
  assert.deepEqual(await ok.json(), { bytes: 14 });
  const over = await app().request("/raw", json("x".repeat(100), { "content-length": "100" }));
  assert.equal(over.status, 413);
});

Deno.test("a form with a NUL is refused; line breaks in a form value pass", async () => {
  const post = (body: string) =>
    app().request("/form", {
      method: "POST",
      body,
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
  const nul = await answer(await post("email=a%00b%40x.org&password=p"));
  assert.equal(nul.status, 400);
  assert.deepEqual(issueKeys(nul.body), ["validation.invalidCharacters"]);
  assert.equal((await post("email=a%ZZ")).status, 400);
  assert.deepEqual(await (await post("email=line%0Abreak")).json(), { email: "line\nbreak" });
});

Deno.test("control characters in a path are 404, in a query 400", async () => {
  assert.equal((await app().request("/items/a%00b")).status, 404);
  assert.equal((await app().request("/items/%E0%A4%A")).status, 404);
  assert.equal((await app().request("/items/%ED%A0%80")).status, 404);
  const query = await answer(await app().request("/items/a?q=x%00y"));
  assert.equal(query.status, 400);
  assert.deepEqual(query.body.params, {
    issues: [{ path: "q", key: "validation.invalidCharacters", params: {} }],
  });
  assert.deepEqual(await (await app().request("/items/a%20b?q=%C3%A9t%C3%A9")).json(), {
    id: "a b",
    q: "été",
  });
});

Deno.test("a header block beyond the limit answers 431 with the security headers", async () => {
  const res = await app().request("/items/a", {
    headers: { "x-filler": "a".repeat(MAX_HEADER_BYTES) },
  });
  assert.equal(res.status, 431);
  assert.equal((await res.json()).key, "common.headersTooLarge");
  assert.ok(res.headers.get("content-security-policy"));
  assert.equal(res.headers.get("x-content-type-options"), "nosniff");
});

Deno.test("parseJson hands back the value of valid JSON", () => {
  assert.deepEqual(parseJson(new TextEncoder().encode(`{"a":[1,"\u00e9"]}`)), { a: [1, "\u00e9"] });
});
