import assert from "node:assert/strict";
import { AppError } from "../../../kernel/mod.ts";
import { formatOf, jsonDepth, kmlToGeoJson, parseGeoJson, xmlDepth } from "./map_layers.ts";

const KML = `<?xml version="1.0" encoding="UTF-8"?>
<kml xmlns="http://www.opengis.net/kml/2.2"><Document><name>Lines</name>
<Folder><Placemark><name>Cable 1</name><LineString><coordinates>8.28,47.03 8.29,47.04</coordinates></LineString></Placemark></Folder>
<Placemark><name>TS</name><Point><coordinates>8.28,47.03,0</coordinates></Point></Placemark>
<Placemark><Polygon><outerBoundaryIs><LinearRing><coordinates>8,47 8.1,47 8.1,47.1 8,47</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark>
</Document></kml>`;

function refusedWith(fn: () => unknown, key: string) {
  assert.throws(fn, (e: unknown) => e instanceof AppError && e.entry.key === key);
}

Deno.test("formatOf() accepts .kml, .json and .geojson only", () => {
  assert.equal(formatOf("grid.KML"), "KML");
  assert.equal(formatOf("a.geojson"), "GEOJSON");
  assert.equal(formatOf("a.json"), "GEOJSON");
  refusedWith(() => formatOf("a.shp"), "validation.mapLayerFileType");
});

Deno.test("kmlToGeoJson() converts placemarks in documents and folders", () => {
  const fc = kmlToGeoJson(KML);
  assert.deepEqual(fc.features.map((f) => f.geometry?.type), ["Point", "Polygon", "LineString"]);
  assert.deepEqual(fc.features[0]?.geometry?.coordinates, [8.28, 47.03, 0]);
  assert.equal(fc.features[2]?.properties.name, "Cable 1");
});

Deno.test("kmlToGeoJson() refuses entity declarations (XXE, billion laughs) and deep nesting", () => {
  const xxe = `<?xml version="1.0"?><!DOCTYPE kml [<!ENTITY x SYSTEM "file:///etc/passwd">]>
<kml><Document><Placemark><name>&x;</name><Point><coordinates>8,47</coordinates></Point></Placemark></Document></kml>`;
  refusedWith(() => kmlToGeoJson(xxe), "messages.unableToLoadMapLayer");
  const deep = `<kml>${"<Folder>".repeat(200)}${"</Folder>".repeat(200)}</kml>`;
  assert.equal(xmlDepth(deep), 201);
  refusedWith(() => kmlToGeoJson(deep), "messages.unableToLoadMapLayer");
  refusedWith(() => kmlToGeoJson("<html></html>"), "messages.unableToLoadMapLayer");
});

Deno.test("kmlToGeoJson() keeps undeclared entity references as text", () => {
  const fc = kmlToGeoJson(
    `<kml><Placemark><name>A &amp; B</name><Point><coordinates>8,47</coordinates></Point></Placemark></kml>`,
  );
  assert.equal(fc.features[0]?.properties.name, "A &amp; B");
});

Deno.test("parseGeoJson() validates structure and wraps features and geometries", () => {
  const fc = parseGeoJson(JSON.stringify({
    type: "FeatureCollection",
    features: [{
      type: "Feature",
      properties: { n: 1 },
      geometry: { type: "Point", coordinates: [8, 47] },
    }],
  }));
  assert.equal(fc.features.length, 1);
  assert.equal(
    parseGeoJson('{"type":"LineString","coordinates":[[8,47],[9,46]]}').features.length,
    1,
  );
  for (
    const bad of [
      "not json",
      "[]",
      '{"type":"FeatureCollection"}',
      '{"type":"Point","coordinates":[800,47]}',
      '{"type":"Polygon","coordinates":[8,47]}',
      '{"type":"Feature","geometry":{"type":"Circle"}}',
    ]
  ) refusedWith(() => parseGeoJson(bad), "messages.unableToLoadMapLayer");
});

Deno.test("parseGeoJson() refuses nesting deeper than the bound before parsing", () => {
  const deep = "[".repeat(5000) + "]".repeat(5000);
  assert.equal(jsonDepth(deep), 5000);
  assert.equal(jsonDepth('{"a":"[[[["}'), 1);
  refusedWith(() => parseGeoJson(deep), "messages.unableToLoadMapLayer");
});
