/**
 * The offline basemap: Natural Earth 1:10m country borders (the world-atlas package) around the
 * map's bounds (spec 9), built into a lazy chunk at build time (`import("virtual:basemap")`).
 * Only the polygons near the bounds are kept (no overseas territories) and coordinates are
 * rounded to 4 decimals (about 10 m), so the chunk stays near 180 kB gzipped.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Feature, FeatureCollection, MultiPolygon, Polygon, Position } from "geojson";
import { feature } from "topojson-client";
import type { GeometryCollection, Topology } from "topojson-specification";
import type { Plugin } from "vite";
import { MAP_DEFAULTS } from "./src/map/map-types.ts";

const ID = "virtual:basemap";
const RESOLVED = `\0${ID}`;
/** Degrees kept around the bounds, so the map's edges show their neighbours. */
const MARGIN = 1;

type Box = [number, number, number, number];

/** A ring is near when one of its points lies in the area (a box test would take in rings that
 * cross the antimeridian, whose boxes span the globe). */
const near = (ring: Position[], area: Box) =>
  ring.some(([x = 0, y = 0]) => x >= area[0] && x <= area[2] && y >= area[1] && y <= area[3]);
const round = (ring: Position[]) =>
  ring.map(([x = 0, y = 0]) => [Math.round(x * 1e4) / 1e4, Math.round(y * 1e4) / 1e4]);

/** The countries near the map bounds as GeoJSON (exported for its test). */
export function basemapNear(topology: Topology, bounds = MAP_DEFAULTS.bounds): FeatureCollection {
  const [[west, south], [east, north]] = bounds;
  const area: Box = [west - MARGIN, south - MARGIN, east + MARGIN, north + MARGIN];
  const countries = feature(topology, topology.objects.countries as GeometryCollection);
  const features: Feature<MultiPolygon>[] = [];
  for (const country of countries.features) {
    const geometry = country.geometry as Polygon | MultiPolygon | null;
    if (!geometry) continue;
    const polygons = geometry.type === "Polygon" ? [geometry.coordinates] : geometry.coordinates;
    const kept = polygons.filter((rings) => rings[0] && near(rings[0], area));
    if (!kept.length) continue;
    features.push({
      type: "Feature",
      properties: { name: (country.properties as { name?: string } | null)?.name ?? "" },
      geometry: { type: "MultiPolygon", coordinates: kept.map((rings) => rings.map(round)) },
    });
  }
  return { type: "FeatureCollection", features };
}

/** The Vite plugin serving `virtual:basemap`. */
export function basemap(): Plugin {
  return {
    name: "gridwatch-basemap",
    resolveId: (id) => (id === ID ? RESOLVED : null),
    load(id) {
      if (id !== RESOLVED) return null;
      const path = createRequire(import.meta.url).resolve("world-atlas/countries-10m.json");
      const topology = JSON.parse(readFileSync(path, "utf8")) as Topology;
      return `export default JSON.parse(${JSON.stringify(JSON.stringify(basemapNear(topology)))});`;
    },
  };
}
