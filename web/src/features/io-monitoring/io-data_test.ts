import assert from "node:assert/strict";
import {
  type IoElectricalWork,
  isStale,
  isUnused,
  parsePeriod,
  periodRange,
  searchWorks,
  stepData,
  summary,
} from "./io-data.ts";

const T0 = Date.UTC(2026, 10, 22, 8);

const work = (name: string, node: string, door: number | null, at: string | null) =>
  ({
    key: name,
    name,
    type: "LV_CABINET",
    latitude: 47,
    longitude: 8,
    cells: [{
      cell_id: `c-${name}`,
      node_id: node,
      node_name: node,
      last_data_at: at,
      modules: [
        {
          slot: 1,
          module_id: "m1",
          name: "Door",
          module_type: "DIGITAL_INPUT",
          system_type: "DRY_CONTACT",
          size: 2,
          resolution: 1,
          scale: null,
          unit: "",
          channels: [{ channel: 1, value: door, scaled: null, at, since: at }, {
            channel: 2,
            value: 1,
            scaled: null,
            at,
            since: at,
          }],
        },
        {
          slot: 2,
          module_id: "m2",
          name: "Relay",
          module_type: "DIGITAL_OUTPUT",
          system_type: "RELAY",
          size: 2,
          resolution: 1,
          scale: null,
          unit: "",
          channels: [{ channel: 1, value: 1, scaled: null, at, since: at }],
        },
      ],
    }],
  }) satisfies IoElectricalWork;

Deno.test("parsePeriod() and periodRange(): 24 h by default, ending on the next minute", () => {
  assert.deepEqual([parsePeriod("7d"), parsePeriod("1y"), parsePeriod(undefined)], [
    "7d",
    "24h",
    "24h",
  ]);
  assert.deepEqual(periodRange("24h", T0 + 30_000), {
    from: new Date(T0 + 60_000 - 86_400_000).toISOString(),
    to: new Date(T0 + 60_000).toISOString(),
  });
});

Deno.test("searchWorks() matches electrical work and node names; summary() counts inputs on", () => {
  const works = [
    work("TS Dorf", "Node A", 1, "2026-11-22T08:00:00Z"),
    work("CAB Rain", "Mill", 0, null),
  ];
  assert.deepEqual(searchWorks(works, " dorf ").map((w) => w.name), ["TS Dorf"]);
  assert.deepEqual(searchWorks(works, "mill").map((w) => w.name), ["CAB Rain"]);
  assert.equal(searchWorks(works, "").length, 2);
  // Two digital inputs on; the relay (an output) is not counted.
  assert.deepEqual(summary(works[0]!), { inputsOn: 2, lastData: "2026-11-22T08:00:00Z" });
  assert.deepEqual(summary(works[1]!), { inputsOn: 1, lastData: null });
});

Deno.test("isStale() after 10 minutes without a value", () => {
  const at = new Date(T0).toISOString();
  assert.equal(isStale(at, T0 + 10 * 60_000), false);
  assert.equal(isStale(at, T0 + 10 * 60_000 + 1), true);
  assert.equal(isStale(null, T0), false);
});

Deno.test("stepData() spans the whole period with gaps at the edges without a state", () => {
  const to = T0 + 3_600_000;
  assert.deepEqual(
    stepData([{ t: T0 + 60_000, value: 1 }, { t: T0 + 120_000, value: 0 }], T0, to),
    {
      times: [T0, T0 + 60_000, T0 + 120_000, to],
      values: [null, 1, 0, null],
    },
  );
  assert.deepEqual(stepData([{ t: T0, value: 0 }, { t: to, value: 0 }], T0, to), {
    times: [T0, to],
    values: [0, 0],
  });
  assert.deepEqual(stepData([], T0, to), { times: [T0, to], values: [null, null] });
  // A state holds up to the start of the gap after it.
  const gap = [{ t: T0, value: 1 as const }, { t: T0 + 600_000, value: null }, {
    t: T0 + 900_000,
    value: 0 as const,
  }];
  assert.deepEqual(stepData(gap, T0, to), {
    times: [T0, T0 + 600_000, T0 + 600_001, T0 + 900_000, to],
    values: [1, 1, null, 0, null],
  });
});

Deno.test("isUnused(): a channel without any value in the 2 days looked at", () => {
  assert.equal(isUnused({ value: null, at: null }), true);
  assert.equal(isUnused({ value: 0, at: new Date(T0).toISOString() }), false);
});
