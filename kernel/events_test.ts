import assert from "node:assert/strict";
import { EventBus } from "./events.ts";
import { createLogger } from "./logger.ts";

// Test-only events, added the way modules add theirs.
declare module "./events.ts" {
  interface EventMap {
    "eventsTest.feederRenamed": { feederId: string; name: string };
    "eventsTest.other": { n: number };
  }
}

function busWithLog() {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger("debug", {}, (_level, line) => lines.push(JSON.parse(line)));
  return { bus: new EventBus(logger), lines };
}

Deno.test("EventBus.publish() delivers the payload to every handler in subscription order", async () => {
  const { bus } = busWithLog();
  const seen: string[] = [];
  bus.subscribe("eventsTest.feederRenamed", (p) => void seen.push(`a:${p.feederId}:${p.name}`));
  bus.subscribe("eventsTest.feederRenamed", (p) => void seen.push(`b:${p.feederId}:${p.name}`));
  bus.subscribe("eventsTest.other", (p) => void seen.push(`other:${p.n}`));
  await bus.publish("eventsTest.feederRenamed", { feederId: "f12", name: "Feeder 12" });
  assert.deepEqual(seen, ["a:f12:Feeder 12", "b:f12:Feeder 12"]);
});

Deno.test("EventBus.publish() waits for async handlers before it resolves", async () => {
  const { bus } = busWithLog();
  let done = false;
  bus.subscribe("eventsTest.other", async () => {
    await new Promise((resolve) => setTimeout(resolve, 10));
    done = true;
  });
  await bus.publish("eventsTest.other", { n: 1 });
  assert.equal(done, true);
});

Deno.test("EventBus.subscribe() returns an unsubscribe that stops only that handler", async () => {
  const { bus } = busWithLog();
  const seen: string[] = [];
  const stop = bus.subscribe("eventsTest.other", (p) => void seen.push(`a${p.n}`));
  bus.subscribe("eventsTest.other", (p) => void seen.push(`b${p.n}`));
  await bus.publish("eventsTest.other", { n: 1 });
  stop();
  stop();
  await bus.publish("eventsTest.other", { n: 2 });
  assert.deepEqual(seen, ["a1", "b1", "b2"]);
});

Deno.test("EventBus.publish() logs a failing handler and still runs the others", async () => {
  const { bus, lines } = busWithLog();
  const seen: number[] = [];
  bus.subscribe("eventsTest.other", () => {
    throw new Error("mailer down");
  });
  bus.subscribe("eventsTest.other", () => Promise.reject(new Error("queue full")));
  bus.subscribe("eventsTest.other", (p) => void seen.push(p.n));
  await bus.publish("eventsTest.other", { n: 7 });
  assert.deepEqual(seen, [7]);
  const failures = lines.filter((l) => l.msg === "Event handler failed");
  assert.equal(failures.length, 2);
  assert.deepEqual(
    failures.map((l) => [l.level, l.event, (l.error as { message: string }).message]),
    [["error", "eventsTest.other", "mailer down"], ["error", "eventsTest.other", "queue full"]],
  );
});

Deno.test("EventBus.publish() of an event without subscribers resolves quietly", async () => {
  const { bus, lines } = busWithLog();
  await bus.publish("eventsTest.other", { n: 1 });
  assert.deepEqual(lines, []);
});
