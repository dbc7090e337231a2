import assert from "node:assert/strict";
import { missingRuntimeEnv, parseRuntimeEnv } from "./runtime_env.ts";

Deno.test("parseRuntimeEnv() reads KEY=value lines and skips comments and blank lines", () => {
  assert.deepEqual(parseRuntimeEnv("# a comment\n\nA_B=--x=1,--y\nC=2\n  # indented\nlower=no\n"), {
    A_B: "--x=1,--y",
    C: "2",
  });
});

Deno.test("missingRuntimeEnv() gives scripts/runtime.env's settings the environment lacks", () => {
  const all = missingRuntimeEnv({});
  assert.match(all.DENO_V8_FLAGS ?? "", /--heap-growing-percent=\d+/);
  assert.equal(all.MALLOC_ARENA_MAX, "2");
  assert.deepEqual(Object.keys(missingRuntimeEnv({ MALLOC_ARENA_MAX: "4" })), ["DENO_V8_FLAGS"]);
});
