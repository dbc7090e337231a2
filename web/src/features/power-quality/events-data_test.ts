import assert from "node:assert/strict";
import {
  EMPTY_FILTER,
  filterParams,
  formProblems,
  logPosition,
  magnitudePosition,
  queryOf,
} from "./events-data.ts";

Deno.test("filterParams() sends only the filled fields, the side only with a curve", () => {
  assert.deepEqual(filterParams(EMPTY_FILTER), {});
  assert.deepEqual(
    filterParams({ ...EMPTY_FILTER, type: "DIP", depthMin: "30", durationMax: "500" }),
    { type: "DIP", depth_min: "30", duration_max_ms: "500" },
  );
  assert.deepEqual(filterParams({ ...EMPTY_FILTER, curve: "ITIC" }), {
    curve: "ITIC",
    side: "OUTSIDE",
  });
  assert.equal(queryOf({ type: "DIP" }, 2), "?type=DIP&page=2");
  assert.equal(queryOf({}), "");
});

Deno.test("formProblems() mirrors the server's range rules", () => {
  assert.deepEqual(formProblems(EMPTY_FILTER), {});
  assert.deepEqual(formProblems({ ...EMPTY_FILTER, depthMin: "40", depthMax: "10" }), {
    depth_max: "validation.maxBelowMin",
  });
  assert.deepEqual(
    formProblems({ ...EMPTY_FILTER, from: "2026-11-20T10:00", to: "2026-11-20T09:00" }),
    { to: "validation.endBeforeStart" },
  );
  assert.deepEqual(formProblems({ ...EMPTY_FILTER, durationMin: "1.5" }), {
    duration_min_ms: "validation.integerOnly",
  });
  assert.deepEqual(formProblems({ ...EMPTY_FILTER, depthMax: "300" }), {
    depth_max: "validation.invalidValue",
  });
});

Deno.test("logPosition() and magnitudePosition() clamp to the plot", () => {
  assert.equal(logPosition(0.001), 0);
  assert.equal(logPosition(1000), 1);
  assert.equal(logPosition(1), 0.5);
  assert.equal(logPosition(1e-6), 0);
  assert.equal(magnitudePosition(0), 1);
  assert.equal(magnitudePosition(2), 0);
  assert.equal(magnitudePosition(1), 0.5);
});
