import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import type { Topology } from "topojson-specification";
import { basemapNear } from "../../basemap-plugin.ts";

const topology = JSON.parse(
  readFileSync(
    new URL("../../../node_modules/world-atlas/countries-10m.json", import.meta.url),
    "utf8",
  ),
) as Topology;

Deno.test("basemapNear() keeps the countries around the map bounds and nothing overseas", () => {
  const countries = basemapNear(topology);
  const names = countries.features.map((f) => f.properties?.name).sort();
  assert.deepEqual(names, [
    "Austria",
    "France",
    "Germany",
    "Italy",
    "Liechtenstein",
    "Switzerland",
  ]);
  // France without French Guiana and the other overseas territories: all within Europe.
  const france = countries.features.find((f) => f.properties?.name === "France")!;
  const coordinates = JSON.stringify(france.geometry).match(/-?\d+\.?\d*/g)!.map(Number);
  assert.ok(coordinates.every((c) => c > -10 && c < 60));
});
