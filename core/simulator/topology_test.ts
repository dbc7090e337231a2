import assert from "node:assert/strict";
import { parseSimCells } from "./topology.ts";

const valid = {
  cellId: "cell-1",
  credential: "cell-1.s3cret",
  nodeKind: "LV_CABINET",
  nominalVoltage: 230,
  frequency: 50,
  electricalDistance: 0.4,
  feeders: [{
    slot: 1,
    kind: "LV_LINE",
    nominalCurrentA: 250,
    profile: "residential",
    pvPeakA: 30,
  }],
};

Deno.test("parseSimCells() accepts a cells.json array, offline windows as ISO or epoch ms", () => {
  const [cell] = parseSimCells([{
    ...valid,
    swappedMapping: true,
    offline: [{ from: "2026-06-01T00:00:00Z", to: 1780358400000 }],
  }]);
  assert.deepEqual(cell, {
    ...valid,
    nodeKind: "LV_CABINET",
    frequency: 50,
    swappedMapping: true,
    offline: [{ from: Date.UTC(2026, 5, 1), to: 1780358400000 }],
  });
});

Deno.test("parseSimCells() takes a weak supply and a disturbing load", () => {
  const [cell] = parseSimCells([{ ...valid, weakSupplyDrop: 0.12, disturbingLoadPst: 1.1 }]);
  assert.deepEqual([cell!.weakSupplyDrop, cell!.disturbingLoadPst], [0.12, 1.1]);
});

Deno.test("parseSimCells() names the cell and field of the first problem", () => {
  const cases: [unknown, RegExp][] = [
    [{}, /expected a JSON array/],
    [[{ ...valid, cellId: "" }], /Cannot read cell 0: cellId is missing/],
    [[{ ...valid, frequency: 55 }], /cell cell-1: frequency must be 50 or 60/],
    [[{ ...valid, nominalVoltage: 2000 }], /nominalVoltage 2000 is outside 50\.\.400/],
    [[{ ...valid, electricalDistance: 1.5 }], /electricalDistance 1\.5 is outside 0\.\.1/],
    [[{ ...valid, weakSupplyDrop: 0.5 }], /weakSupplyDrop 0\.5 is outside 0\.\.0\.2/],
    [[{ ...valid, disturbingLoadPst: -1 }], /disturbingLoadPst -1 is outside 0\.\.3/],
    [
      [{ ...valid, feeders: [{ ...valid.feeders[0], slot: 7 }] }],
      /feeder 0: slot 7 is outside 1\.\.6/,
    ],
    [[{ ...valid, feeders: [{ ...valid.feeders[0], kind: "WIND" }] }], /kind must be one of/],
    [[{ ...valid, feeders: [valid.feeders[0], valid.feeders[0]] }], /feeder slots repeat/],
    [[{ ...valid, feeders: [] }], /0 feeders, expected 1\.\.6/],
    [[valid, valid], /cell ids repeat/],
    [
      [{ ...valid, offline: [{ from: "soon", to: 1 }] }],
      /offline\[0\]\.from is not a finite number/,
    ],
  ];
  for (const [json, message] of cases) assert.throws(() => parseSimCells(json), message);
});
