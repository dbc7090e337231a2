import assert from "node:assert/strict";
import type { CellDto, FeederDto, NodeDto, StationGroupDto } from "../grid/mod.ts";
import { AppError } from "../../kernel/mod.ts";
import { topologyDirectory } from "./feeders.ts";

const feeder = (id: string, slot: number, type: string, mv = false): FeederDto => ({
  id,
  slot,
  name: `Feeder ${id}`,
  type: type as FeederDto["type"],
  in_out: "OUT",
  nominal_current_a: 250,
  parameters: { mvVoltageEstimation: mv },
});
const node = (id: string, feeders: FeederDto[]) => ({ id, name: `Node ${id}`, feeders }) as NodeDto;
const structure: StationGroupDto[] = [{
  id: "g",
  name: "G",
  latitude: null,
  longitude: null,
  mv_feeder_groups: [{
    id: "m",
    name: "M",
    lv_groups: [{
      id: "l",
      name: "L",
      nodes: [
        node("n1", [
          feeder("tr", 1, "TRANSFORMER", true),
          feeder("lv", 2, "LV_LINE"),
          feeder("mv", 3, "MV_LINE"),
        ]),
        node("n2", [feeder("bare", 1, "LV_LINE")]),
      ],
    }],
  }],
}];

function directory() {
  let listings = 0;
  const topology = { structure };
  const dir = topologyDirectory({
    topology: { get: () => Promise.resolve(topology) },
    cells: {
      listFor: () => {
        listings++;
        return Promise.resolve([
          { id: "c1", node_id: "n1", revoked: false } as CellDto,
          { id: "c2", node_id: "n2", revoked: true } as CellDto,
        ]);
      },
    },
    // Series exist for c1's slot 2 on every probe, and for L1 of slot 1.
    store: {
      seriesId: (cell, slot, phase) =>
        cell === "c1" && (slot === 2 || (slot === 1 && phase === 0))
          ? slot * 10 + phase
          : undefined,
    },
  });
  return { dir, listings: () => listings };
}

Deno.test("the directory resolves feeders of a level in request order with their probes' series", async () => {
  const { dir, listings } = directory();
  const lv = await dir.feeders("k", "LV", ["lv", "bare"]);
  assert.deepEqual(lv.map((f) => [f.feeder_id, f.node_name, f.series]), [
    ["lv", "Node n1", [20, 21, 22, 23]],
    ["bare", "Node n2", [undefined, undefined, undefined, undefined]],
  ]);
  const mv = await dir.feeders("k", "MV", ["mv", "tr"]);
  assert.deepEqual(mv.map((f) => [f.feeder_id, f.feeder_name]), [
    ["mv", "Feeder mv"],
    ["tr", "Feeder tr"],
  ]);
  assert.deepEqual(mv[1]!.series, [10, undefined, undefined, undefined]);
  assert.equal(listings(), 1, "one cell listing per topology");
});

Deno.test("the directory answers 'not found' for unknown feeders and feeders of the other level", async () => {
  const { dir } = directory();
  for (const [level, id] of [["LV", "mv"], ["LV", "tr"], ["MV", "lv"], ["LV", "nope"]] as const) {
    await assert.rejects(
      () => dir.feeders("k", level, [id]),
      (e) => e instanceof AppError && e.entry.key === "grid.elementNotFound",
      `${level} ${id}`,
    );
  }
});
