import assert from "node:assert/strict";
import fc from "fast-check";
import { JsonWriter } from "./status_body.ts";

const written = (write: (w: JsonWriter) => void) => {
  const w = new JsonWriter(4);
  write(w);
  return new TextDecoder().decode(w.result());
};

Deno.test("JsonWriter.round2() writes the value JSON.stringify gives for 2 decimals", () => {
  fc.assert(
    fc.property(
      fc.oneof(
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.double({ min: -2_000, max: 20_000, noNaN: true }),
        fc.integer({ min: -100_000, max: 100_000 }).map((c) => c / 100),
      ),
      (v) => {
        const text = written((w) => w.round2(v));
        assert.equal(JSON.parse(text), JSON.parse(JSON.stringify(Math.round(v * 100) / 100)));
      },
    ),
    { numRuns: 5_000 },
  );
  assert.equal(written((w) => w.round2(null)), "null");
  assert.equal(written((w) => w.round2(230.1)), "230.1");
  assert.equal(written((w) => w.round2(-0.004)), "0");
  assert.equal(written((w) => w.round2(-12.345)), "-12.34");
  assert.equal(written((w) => w.round2(7)), "7");
});

Deno.test("JsonWriter grows past its first size and copies fragments", () => {
  const fragment = new TextEncoder().encode(`"Mühlebach ${"x".repeat(100)}"`);
  const text = written((w) => {
    w.ascii("[");
    w.copy(fragment);
    w.ascii(",");
    w.copy(fragment, 0, 5);
    w.ascii(`"]`);
  });
  assert.deepEqual(JSON.parse(text), [`Mühlebach ${"x".repeat(100)}`, "Müh"]);
});
