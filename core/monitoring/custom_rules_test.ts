import assert from "node:assert/strict";
import { AppError } from "../../kernel/mod.ts";
import {
  checkStart,
  checkTriggerEnable,
  DEFAULT_CUSTOM_LIMITS,
  endOf,
  isRunning,
  monthStart,
  type RunningRequest,
  type StartCheck,
  triggerOutcome,
} from "./custom_rules.ts";

const run = (nodeId: string, extra: Partial<RunningRequest> = {}): RunningRequest => ({
  nodeId,
  kind: "MANUAL",
  infinite: false,
  triggerId: null,
  ...extra,
});

const check = (extra: Partial<StartCheck> = {}): StartCheck => ({
  nodeId: "n1",
  running: [],
  monthlyForCell: 0,
  limits: DEFAULT_CUSTOM_LIMITS,
  ...extra,
});

function codeOf(fn: () => void): { code: number | undefined; params: Record<string, unknown> } {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof AppError);
    return { code: error.entry.code, params: error.params };
  }
  assert.fail("Expected an AppError");
}

Deno.test("checkStart() lets a request start on a free node below every limit", () => {
  checkStart(check({ running: [run("n2"), run("n3")], monthlyForCell: 99 }));
});

Deno.test("checkStart() raises 331 when a request already runs on the node", () => {
  assert.equal(codeOf(() => checkStart(check({ running: [run("n1")] }))).code, 331);
  const automatic = run("n1", { kind: "AUTOMATIC", triggerId: "t1" });
  assert.equal(codeOf(() => checkStart(check({ running: [automatic] }))).code, 331);
});

Deno.test("checkStart() raises 333 when a request without end runs on the node, before 331", () => {
  assert.equal(
    codeOf(() => checkStart(check({ running: [run("n1", { infinite: true })] }))).code,
    333,
  );
});

Deno.test("checkStart() raises 322 with the limit when the customer already runs the maximum", () => {
  const running = ["a", "b", "c", "d", "e"].map((n) => run(n));
  assert.deepEqual(codeOf(() => checkStart(check({ running }))), {
    code: 322,
    params: { limit: 5 },
  });
  checkStart(check({ running: running.slice(1) }));
  const limits = { maxRunning: 2, maxMonthlyPerCell: 100 };
  assert.deepEqual(codeOf(() => checkStart(check({ running: running.slice(3), limits }))), {
    code: 322,
    params: { limit: 2 },
  });
});

Deno.test("checkStart() raises 323 with the limit at the monthly maximum of the cell", () => {
  assert.deepEqual(codeOf(() => checkStart(check({ monthlyForCell: 100 }))), {
    code: 323,
    params: { limit: 100 },
  });
  checkStart(check({ monthlyForCell: 99 }));
});

Deno.test("checkTriggerEnable() raises 330 when an enabled trigger already covers the node", () => {
  checkTriggerEnable(0);
  assert.equal(codeOf(() => checkTriggerEnable(1)).code, 330);
});

Deno.test("triggerOutcome() starts on a free node and gives one FAILURE when another request runs", () => {
  assert.deepEqual(triggerOutcome("t1", check()), { status: "STARTED" });
  assert.deepEqual(triggerOutcome("t1", check({ running: [run("n1")] })), {
    status: "FAILURE",
    code: 331,
  });
  assert.deepEqual(triggerOutcome("t1", check({ running: [run("n1", { infinite: true })] })), {
    status: "FAILURE",
    code: 333,
  });
  const full = ["a", "b", "c", "d", "e"].map((n) => run(n));
  assert.deepEqual(triggerOutcome("t1", check({ running: full })), {
    status: "FAILURE",
    code: 322,
  });
});

Deno.test("triggerOutcome() ignores a fire while the trigger's own request still runs on the node", () => {
  const own = run("n1", { kind: "AUTOMATIC", triggerId: "t1" });
  assert.deepEqual(triggerOutcome("t1", check({ running: [own] })), { status: "IGNORED" });
  assert.deepEqual(triggerOutcome("t2", check({ running: [own] })), {
    status: "FAILURE",
    code: 331,
  });
});

Deno.test("monthStart() gives the first instant of the UTC month", () => {
  assert.equal(monthStart(Date.parse("2026-11-22T10:14:31Z")), Date.parse("2026-11-01T00:00:00Z"));
  assert.equal(monthStart(Date.parse("2026-12-01T00:00:00Z")), Date.parse("2026-12-01T00:00:00Z"));
  assert.equal(
    monthStart(Date.parse("2026-11-30T23:59:59.999Z")),
    Date.parse("2026-11-01T00:00:00Z"),
  );
});

Deno.test("endOf() and isRunning() end a request after its duration, or never without one", () => {
  const t0 = Date.parse("2026-11-22T10:00:00Z");
  assert.equal(endOf(t0, 5), t0 + 300_000);
  assert.equal(endOf(t0, null), null);
  assert.ok(isRunning({ endsAt: t0 + 300_000, stoppedAt: null }, t0 + 299_999));
  assert.ok(!isRunning({ endsAt: t0 + 300_000, stoppedAt: null }, t0 + 300_000));
  assert.ok(isRunning({ endsAt: null, stoppedAt: null }, t0 + 1e12));
  assert.ok(!isRunning({ endsAt: null, stoppedAt: t0 }, t0 + 1));
});
