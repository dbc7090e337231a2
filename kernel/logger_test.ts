import assert from "node:assert/strict";
import { createLogger, type LogLevel } from "./logger.ts";

function capture(level: LogLevel, bound: Record<string, unknown> = {}) {
  const written: { level: LogLevel; line: string }[] = [];
  const logger = createLogger(level, bound, (l, line) => written.push({ level: l, line }));
  return { logger, written };
}

Deno.test("createLogger() writes one JSON line with time, level, msg, bound and given fields", () => {
  const { logger, written } = capture("info", { module: "grid" });
  logger.info("Feeder renamed", { feederId: "f12" });
  assert.equal(written.length, 1);
  const { level, line } = written[0]!;
  assert.equal(level, "info");
  assert.doesNotMatch(line, /\n/);
  const record = JSON.parse(line);
  assert.equal(record.level, "info");
  assert.equal(record.msg, "Feeder renamed");
  assert.equal(record.module, "grid");
  assert.equal(record.feederId, "f12");
  assert.ok(!Number.isNaN(Date.parse(record.time)), record.time);
});

Deno.test("createLogger() drops records below its level", () => {
  const { logger, written } = capture("warn");
  logger.debug("d");
  logger.info("i");
  logger.warn("w");
  logger.error("e");
  assert.deepEqual(written.map((w) => JSON.parse(w.line).msg), ["w", "e"]);
  assert.deepEqual(written.map((w) => w.level), ["warn", "error"]);
});

Deno.test("Logger.child() adds bound fields and keeps the parent's level and fields", () => {
  const { logger, written } = capture("info", { module: "grid" });
  const child = logger.child({ requestId: "req-1" });
  child.debug("hidden");
  child.info("shown");
  logger.info("parent");
  const [fromChild, fromParent] = written.map((w) => JSON.parse(w.line));
  assert.equal(written.length, 2);
  assert.equal(fromChild.module, "grid");
  assert.equal(fromChild.requestId, "req-1");
  assert.equal(fromParent.requestId, undefined);
});

Deno.test("createLogger() serialises Error objects with name and message, also nested", () => {
  const { logger, written } = capture("debug");
  logger.error("Import failed", {
    error: new TypeError("bad phase"),
    detail: { cause: new Error("disk full") },
  });
  const record = JSON.parse(written[0]!.line);
  assert.equal(record.error.name, "TypeError");
  assert.equal(record.error.message, "bad phase");
  assert.equal(typeof record.error.stack, "string");
  assert.equal(record.detail.cause.message, "disk full");
});
