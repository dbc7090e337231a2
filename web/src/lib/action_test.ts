import assert from "node:assert/strict";
import { type ActionState, createActionRunner } from "./action.ts";

function recorder() {
  const states: ActionState[] = [];
  return { states, onChange: (s: ActionState) => void states.push(s) };
}

Deno.test("createActionRunner() is busy while the action runs and idle with its result", async () => {
  const { states, onChange } = recorder();
  const runner = createActionRunner((n: number) => Promise.resolve(n * 2), onChange);
  assert.equal(await runner.run(21), 42);
  assert.deepEqual(states, [{ busy: true, error: null }, { busy: false, error: null }]);
});

Deno.test("createActionRunner() keeps a failure's error and resolves undefined", async () => {
  const { states, onChange } = recorder();
  const failure = new Error("Saving failed");
  const runner = createActionRunner(() => Promise.reject(failure), onChange);
  assert.equal(await runner.run(), undefined);
  assert.deepEqual(states.at(-1), { busy: false, error: failure });
  runner.reset();
  assert.deepEqual(states.at(-1), { busy: false, error: null });
});

Deno.test("createActionRunner() refuses a second run while one is running (a double click saves once)", async () => {
  const { onChange } = recorder();
  let calls = 0;
  let release = () => {};
  const runner = createActionRunner(() => {
    calls++;
    return new Promise<string>((resolve) => (release = () => resolve("saved")));
  }, onChange);
  const first = runner.run();
  assert.equal(await runner.run(), undefined);
  release();
  assert.equal(await first, "saved");
  assert.equal(calls, 1);
  const again = runner.run();
  release();
  assert.equal(await again, "saved");
  assert.equal(calls, 2);
});
