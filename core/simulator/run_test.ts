import assert from "node:assert/strict";
import { lineCell } from "./_test_cells.ts";
import { generateBatch } from "./generate.ts";
import { type Batch, WINDOW_MS } from "./protocol.ts";
import { runBackfill, runLive, type SendError, type SendReport } from "./run.ts";
import type { SimCell } from "./topology.ts";

const START = Date.UTC(2026, 5, 15, 12);
const SEED = 9;
const FAST = { speed: 1000, retry: { initialDelayMs: 5, maxDelayMs: 20 } };

interface Recorded {
  auth: string | null;
  contentType: string | null;
  body: string;
  batch: Batch;
  attempt: number;
}

/** An ingestion endpoint on a free loopback port that records requests and answers `status`. */
function fakePlatform(status: (batch: Batch, attempt: number) => number, delayMs = 0) {
  const requests: Recorded[] = [];
  const attempts = new Map<string, number>();
  const paths = new Set<string>();
  let inFlight = 0;
  let maxInFlight = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      paths.add(`${req.method} ${new URL(req.url).pathname}`);
      const body = await req.text();
      const batch = JSON.parse(body) as Batch;
      const attempt = (attempts.get(batch.batch_id) ?? 0) + 1;
      attempts.set(batch.batch_id, attempt);
      requests.push({
        auth: req.headers.get("authorization"),
        contentType: req.headers.get("content-type"),
        body,
        batch,
        attempt,
      });
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      const code = status(batch, attempt);
      return Response.json(
        code < 300 ? { accepted: 1, duplicates: 0, rejected: [] } : { key: "x" },
        {
          status: code,
        },
      );
    } finally {
      inFlight--;
    }
  });
  return {
    baseUrl: `http://127.0.0.1:${server.addr.port}`,
    requests,
    paths,
    maxInFlight: () => maxInFlight,
    of: (cell: SimCell) => requests.filter((r) => r.auth === `Bearer ${cell.credential}`),
    stop: () => server.shutdown(),
  };
}

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error("Timed out waiting for the simulator");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function windowOf(batch: Batch): number {
  return Date.parse(batch.measurements[0]!.ts);
}

Deno.test("runLive() posts each online cell's batch with its credential, window after window", async () => {
  const platform = fakePlatform(() => 200);
  const a = lineCell("live-a", "residential");
  const b = lineCell("live-b", "commercial");
  const off = { ...lineCell("live-off", "mixed"), offline: [{ from: 0, to: 8.64e15 }] };
  const controller = new AbortController();
  const run = runLive({
    baseUrl: `${platform.baseUrl}/`,
    cells: [a, b, off],
    seed: SEED,
    startMs: START,
    signal: controller.signal,
    ...FAST,
  });
  await until(() => platform.of(a).length >= 3 && platform.of(b).length >= 3);
  controller.abort();
  const stats = await run;
  await platform.stop();
  assert.deepEqual([...platform.paths], ["POST /ingest/v1/batches"]);
  assert.equal(platform.of(off).length, 0);
  for (const cell of [a, b]) {
    const sent = platform.of(cell);
    sent.forEach((r, k) => {
      assert.equal(r.contentType, "application/json");
      assert.equal(windowOf(r.batch), START + k * WINDOW_MS);
      assert.equal(r.body, JSON.stringify(generateBatch(cell, START + k * WINDOW_MS, SEED)));
      assert.deepEqual(Object.keys(r.batch), [
        "protocol",
        "batch_id",
        "sent_at",
        "device",
        "measurements",
        "io",
        "events",
      ]);
    });
  }
  // A request the server saw just before the abort may have lost its answer.
  assert.ok(stats.sent <= platform.requests.length && stats.sent >= platform.requests.length - 2);
  assert.deepEqual([stats.retried, stats.rejected, stats.dropped], [0, 0, 0]);
});

Deno.test("runLive() retries a 503 with the same body until it is accepted", async () => {
  const a = lineCell("retry-a", "residential");
  const platform = fakePlatform((batch, attempt) =>
    windowOf(batch) === START && attempt <= 2 ? 503 : 200
  );
  const errors: SendError[] = [];
  const sent: SendReport[] = [];
  const controller = new AbortController();
  const run = runLive({
    baseUrl: platform.baseUrl,
    cells: [a],
    seed: SEED,
    startMs: START,
    signal: controller.signal,
    onError: (e) => errors.push(e),
    onSent: (r) => sent.push(r),
    ...FAST,
  });
  await until(() => platform.requests.length >= 5);
  controller.abort();
  const stats = await run;
  await platform.stop();
  const first = platform.requests.filter((r) => windowOf(r.batch) === START);
  assert.equal(first.length, 3);
  assert.equal(new Set(first.map((r) => r.body)).size, 1, "same body on every attempt");
  assert.deepEqual(
    errors.map((e) => [e.status, e.retrying, e.attempt, e.batchId]),
    [[503, true, 1, first[0]!.batch.batch_id], [503, true, 2, first[0]!.batch.batch_id]],
  );
  assert.deepEqual(sent[0], {
    cellId: a.cellId,
    windowStartMs: START,
    batchId: first[0]!.batch.batch_id,
    status: 200,
    attempts: 3,
  });
  assert.equal(
    windowOf(platform.requests[3]!.batch),
    START + WINDOW_MS,
    "next window after success",
  );
  assert.equal(stats.retried, 2);
});

Deno.test("runLive() never retries a 4xx answer and reports it through onError", async () => {
  const a = lineCell("reject-a", "residential");
  const platform = fakePlatform((batch) => windowOf(batch) === START ? 422 : 200);
  const errors: SendError[] = [];
  const controller = new AbortController();
  const run = runLive({
    baseUrl: platform.baseUrl,
    cells: [a],
    seed: SEED,
    startMs: START,
    signal: controller.signal,
    onError: (e) => errors.push(e),
    ...FAST,
  });
  await until(() => platform.requests.length >= 3);
  controller.abort();
  const stats = await run;
  await platform.stop();
  assert.equal(platform.requests.filter((r) => windowOf(r.batch) === START).length, 1);
  assert.equal(errors.length, 1);
  assert.deepEqual([errors[0]!.status, errors[0]!.retrying, errors[0]!.windowStartMs], [
    422,
    false,
    START,
  ]);
  assert.match(errors[0]!.message, /"key":"x"/);
  assert.equal(stats.rejected, 1);
  assert.equal(stats.retried, 0);
});

Deno.test("runLive() keeps at most 8 requests in flight over all cells", async () => {
  const cells = Array.from({ length: 20 }, (_, k) => lineCell(`many-${k}`, "mixed"));
  const platform = fakePlatform(() => 200, 30);
  const controller = new AbortController();
  const run = runLive({
    baseUrl: platform.baseUrl,
    cells,
    seed: SEED,
    startMs: START,
    signal: controller.signal,
    ...FAST,
  });
  await until(() => platform.requests.length >= 60);
  controller.abort();
  await run;
  await platform.stop();
  assert.equal(platform.maxInFlight(), 8);
  for (const cell of cells) {
    const windows = platform.of(cell).map((r) => windowOf(r.batch));
    assert.deepEqual(windows, [...windows].sort((x, y) => x - y), "each cell in order");
  }
});

Deno.test("runLive() retries network errors and resolves promptly when aborted", async () => {
  const a = lineCell("net-a", "residential");
  let calls = 0;
  const errors: SendError[] = [];
  const fetch: typeof globalThis.fetch = (_input, init) => {
    calls++;
    if (calls === 1) return Promise.reject(new TypeError("connection refused"));
    return new Promise((_resolve, reject) => {
      // Hang like a dead server until the run is aborted.
      init?.signal?.addEventListener(
        "abort",
        () => reject(new DOMException("aborted", "AbortError")),
      );
    });
  };
  const controller = new AbortController();
  const run = runLive({
    baseUrl: "http://127.0.0.1:9",
    cells: [a],
    seed: SEED,
    startMs: START,
    signal: controller.signal,
    fetch,
    onError: (e) => errors.push(e),
    ...FAST,
  });
  await until(() => calls >= 2);
  const abortedAt = performance.now();
  controller.abort();
  const stats = await run;
  assert.ok(performance.now() - abortedAt < 500);
  assert.deepEqual(
    errors.map((e) => [e.status, e.retrying, e.message]),
    [[undefined, true, "connection refused"]],
  );
  assert.equal(stats.sent, 0);
});

Deno.test("runLive() starts with the first whole window after startMs", async () => {
  const a = lineCell("first-a", "residential");
  const bodies: string[] = [];
  const fetch: typeof globalThis.fetch = (_input, init) => {
    bodies.push(String(init?.body));
    return Promise.resolve(new Response("{}", { status: 200 }));
  };
  const controller = new AbortController();
  const run = runLive({
    baseUrl: "http://x",
    cells: [a],
    seed: SEED,
    startMs: START + 5_000,
    signal: controller.signal,
    fetch,
    speed: 2000,
  });
  await until(() => bodies.length >= 2);
  controller.abort();
  await run;
  assert.equal(windowOf(JSON.parse(bodies[0]!)), START + WINDOW_MS);
  assert.equal(windowOf(JSON.parse(bodies[1]!)), START + 2 * WINDOW_MS);
});

Deno.test("runBackfill() sends every online window of the range once per cell, in order", async () => {
  const a = lineCell("back-a", "residential");
  const b = {
    ...lineCell("back-b", "industrial"),
    offline: [{ from: START + 2 * WINDOW_MS, to: START + 5 * WINDOW_MS }],
  };
  const seen: { auth: string; window: number }[] = [];
  const fetch: typeof globalThis.fetch = (_input, init) => {
    const headers = new Headers(init?.headers);
    seen.push({
      auth: headers.get("authorization")!,
      window: windowOf(JSON.parse(String(init?.body))),
    });
    return Promise.resolve(new Response("{}", { status: 200 }));
  };
  const stats = await runBackfill({
    baseUrl: "http://x",
    cells: [a, b],
    seed: SEED,
    fromMs: START - 1,
    toMs: START + 10 * WINDOW_MS,
    signal: new AbortController().signal,
    fetch,
  });
  const windows = (cell: SimCell) =>
    seen.filter((s) => s.auth === `Bearer ${cell.credential}`).map((s) =>
      (s.window - START) / WINDOW_MS
    );
  assert.deepEqual(windows(a), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  assert.deepEqual(windows(b), [0, 1, 5, 6, 7, 8, 9]);
  assert.equal(stats.sent, 17);
});
