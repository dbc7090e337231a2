/**
 * Map layers (spec 5): .kml, .json or .geojson files of at most 10 MB, parsed safely and stored
 * per customer as a GeoJSON FeatureCollection. KML is parsed without entity processing, DOCTYPE
 * declarations are refused (no external or recursive entities), and nesting depth is bounded for
 * both formats.
 */
import { XMLParser } from "fast-xml-parser";
import { and, desc, eq } from "drizzle-orm";
import { AppError, type Db } from "../../../kernel/mod.ts";
import { mapLayers } from "../schema.ts";
import { MAP_LAYER_MAX_BYTES, type MapLayerDto } from "./contract.ts";

export { MAP_LAYER_MAX_BYTES, type MapLayerDto };
/** Deeper nesting is refused before anything recursive touches the content. */
export const MAX_DEPTH = 64;
const MAX_FEATURES = 100_000;

type Position = number[];
interface Geometry {
  type: string;
  coordinates?: unknown;
  geometries?: Geometry[];
}
interface Feature {
  type: "Feature";
  geometry: Geometry | null;
  properties: Record<string, unknown>;
}
/** The stored form of every layer. */
export interface FeatureCollection {
  type: "FeatureCollection";
  features: Feature[];
}

const invalid = (reason: string): never => {
  throw new AppError("messages.unableToLoadMapLayer", { reason });
};

/** The format of a file name, or 415 for other extensions. */
export function formatOf(fileName: string): "KML" | "GEOJSON" {
  const lower = fileName.toLowerCase();
  if (lower.endsWith(".kml")) return "KML";
  if (lower.endsWith(".json") || lower.endsWith(".geojson")) return "GEOJSON";
  throw new AppError("validation.mapLayerFileType");
}

/** Parses an uploaded file into a FeatureCollection or throws "Unable to load map layer.". */
export function parseMapLayer(format: "KML" | "GEOJSON", text: string): FeatureCollection {
  return format === "KML" ? kmlToGeoJson(text) : parseGeoJson(text);
}

// --- GeoJSON

/** Nesting depth of JSON text, counted without parsing (strings skipped). */
export function jsonDepth(text: string): number {
  let depth = 0, max = 0, inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash escapes the next character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) max = Math.max(max, ++depth);
    else if (c === 125 || c === 93) depth--;
  }
  return max;
}

const GEOMETRY_DEPTH: Record<string, number> = {
  Point: 0,
  MultiPoint: 1,
  LineString: 1,
  MultiLineString: 2,
  Polygon: 2,
  MultiPolygon: 3,
};

function isPosition(value: unknown): value is Position {
  return Array.isArray(value) && value.length >= 2 && value.length <= 4 &&
    value.every((n) => typeof n === "number" && Number.isFinite(n)) &&
    Math.abs(value[0] as number) <= 180 && Math.abs(value[1] as number) <= 90;
}

function checkCoordinates(value: unknown, depth: number): boolean {
  if (depth === 0) return isPosition(value);
  return Array.isArray(value) && value.every((v) => checkCoordinates(v, depth - 1));
}

function checkGeometry(value: unknown, nesting = 0): Geometry {
  if (typeof value !== "object" || value === null) return invalid("geometry");
  const g = value as Geometry;
  if (g.type === "GeometryCollection") {
    if (nesting > 2 || !Array.isArray(g.geometries)) return invalid("geometry collection");
    return { type: g.type, geometries: g.geometries.map((x) => checkGeometry(x, nesting + 1)) };
  }
  const depth = GEOMETRY_DEPTH[g.type];
  if (depth === undefined || !checkCoordinates(g.coordinates, depth)) {
    return invalid(`geometry ${g.type}`);
  }
  return { type: g.type, coordinates: g.coordinates };
}

function checkFeature(value: unknown): Feature {
  const f = value as Record<string, unknown> | null;
  if (typeof f !== "object" || f === null || f.type !== "Feature") return invalid("feature");
  const properties =
    typeof f.properties === "object" && f.properties !== null && !Array.isArray(f.properties)
      ? f.properties as Record<string, unknown>
      : {};
  return {
    type: "Feature",
    geometry: f.geometry === null ? null : checkGeometry(f.geometry),
    properties,
  };
}

/** Structural GeoJSON validation (bounded depth) into a FeatureCollection. */
export function parseGeoJson(text: string): FeatureCollection {
  if (jsonDepth(text) > MAX_DEPTH) invalid("depth");
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return invalid("json");
  }
  const root = json as Record<string, unknown> | null;
  if (typeof root !== "object" || root === null || Array.isArray(root)) return invalid("root");
  let features: Feature[];
  if (root.type === "FeatureCollection") {
    if (!Array.isArray(root.features)) return invalid("features");
    if (root.features.length > MAX_FEATURES) return invalid("too many features");
    features = root.features.map(checkFeature);
  } else if (root.type === "Feature") features = [checkFeature(root)];
  else features = [{ type: "Feature", geometry: checkGeometry(root), properties: {} }];
  return { type: "FeatureCollection", features };
}

// --- KML

/** Nesting depth of XML elements, counted without parsing. */
export function xmlDepth(text: string): number {
  let depth = 0, max = 0;
  const tag = /<(\/?)([A-Za-z_][\w:.-]*)[^>]*?(\/?)>|<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>/g;
  for (const m of text.matchAll(tag)) {
    if (m[2] === undefined) continue;
    if (m[1]) depth--;
    else if (!m[3]) max = Math.max(max, ++depth);
  }
  return max;
}

type XmlNode = Record<string, unknown>;

const list = (value: unknown): unknown[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

function textOf(value: unknown): string {
  if (typeof value === "string" || typeof value === "number") return String(value);
  if (value && typeof value === "object" && "#text" in value) {
    return String((value as XmlNode)["#text"]);
  }
  return "";
}

function kmlPositions(value: unknown): Position[] {
  return textOf(value).trim().split(/\s+/).filter(Boolean).map((tuple) => {
    const p = tuple.split(",").map(Number);
    return isPosition(p) ? p : invalid("coordinates");
  });
}

function kmlGeometries(node: XmlNode): Geometry[] {
  const out: Geometry[] = [];
  for (const p of list(node.Point)) {
    const [position] = kmlPositions((p as XmlNode).coordinates);
    if (position) out.push({ type: "Point", coordinates: position });
  }
  for (const l of list(node.LineString)) {
    out.push({ type: "LineString", coordinates: kmlPositions((l as XmlNode).coordinates) });
  }
  for (const poly of list(node.Polygon)) {
    const ring = (b: unknown) => kmlPositions(((b as XmlNode)?.LinearRing as XmlNode)?.coordinates);
    const outer = list((poly as XmlNode).outerBoundaryIs).map(ring);
    const inner = list((poly as XmlNode).innerBoundaryIs).map(ring);
    if (outer.length) out.push({ type: "Polygon", coordinates: [...outer, ...inner] });
  }
  for (const multi of list(node.MultiGeometry)) out.push(...kmlGeometries(multi as XmlNode));
  return out;
}

function collectPlacemarks(node: XmlNode, out: Feature[], depth: number): void {
  if (depth > MAX_DEPTH) invalid("depth");
  for (const pm of list(node.Placemark)) {
    const p = pm as XmlNode;
    const geometries = kmlGeometries(p);
    if (!geometries.length) continue;
    const properties: Record<string, unknown> = {};
    if (p.name !== undefined) properties.name = textOf(p.name);
    if (p.description !== undefined) properties.description = textOf(p.description);
    out.push({
      type: "Feature",
      properties,
      geometry: geometries.length === 1
        ? geometries[0]!
        : { type: "GeometryCollection", geometries },
    });
    if (out.length > MAX_FEATURES) invalid("too many features");
  }
  for (const key of ["Document", "Folder"]) {
    for (const child of list(node[key])) collectPlacemarks(child as XmlNode, out, depth + 1);
  }
}

/** KML to GeoJSON: Placemarks with Point, LineString, Polygon and MultiGeometry. */
export function kmlToGeoJson(text: string): FeatureCollection {
  // No DTD at all: entity declarations (internal, external, recursive) never reach a parser.
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) invalid("doctype");
  if (xmlDepth(text) > MAX_DEPTH) invalid("depth");
  const parser = new XMLParser({
    ignoreAttributes: true,
    processEntities: false,
    htmlEntities: false,
    ignoreDeclaration: true,
    ignorePiTags: true,
    removeNSPrefix: true,
    maxNestedTags: MAX_DEPTH,
    parseTagValue: false,
    trimValues: true,
  });
  let doc: XmlNode;
  try {
    doc = parser.parse(text, true) as XmlNode;
  } catch {
    return invalid("xml");
  }
  const kml = doc.kml as XmlNode | undefined;
  if (!kml || typeof kml !== "object") return invalid("not kml");
  const features: Feature[] = [];
  collectPlacemarks(kml, features, 0);
  return { type: "FeatureCollection", features };
}

// --- storage

/** Stored map layers of one customer. */
export class MapLayerService {
  constructor(private readonly db: Db) {}

  async list(customerKey: string): Promise<MapLayerDto[]> {
    const rows = await this.db.select({
      id: mapLayers.id,
      name: mapLayers.name,
      fileName: mapLayers.fileName,
      format: mapLayers.format,
      sizeBytes: mapLayers.sizeBytes,
      featureCount: mapLayers.featureCount,
      createdAt: mapLayers.createdAt,
    }).from(mapLayers).where(eq(mapLayers.customerKey, customerKey))
      .orderBy(desc(mapLayers.createdAt));
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      file_name: r.fileName,
      format: r.format,
      size_bytes: r.sizeBytes,
      feature_count: r.featureCount,
      created_at: r.createdAt.toISOString(),
    }));
  }

  async geojson(customerKey: string, id: string): Promise<Record<string, unknown>> {
    const [row] = await this.db.select({ geojson: mapLayers.geojson }).from(mapLayers)
      .where(and(eq(mapLayers.id, id), eq(mapLayers.customerKey, customerKey)));
    if (!row) throw new AppError("grid.elementNotFound");
    return row.geojson;
  }

  /** Parses and stores a file; the name defaults to the file name without extension. */
  async upload(
    customerKey: string,
    file: { name: string; bytes: Uint8Array },
    name?: string,
  ): Promise<MapLayerDto> {
    const format = formatOf(file.name);
    if (file.bytes.byteLength > MAP_LAYER_MAX_BYTES) {
      throw new AppError("validation.fileTooLarge", { size: 10 });
    }
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(file.bytes);
    } catch {
      return invalid("encoding");
    }
    const collection = parseMapLayer(format, text);
    const layerName = (name?.trim() || file.name.replace(/\.[^.]+$/, "")).slice(0, 60);
    const row = {
      id: crypto.randomUUID(),
      customerKey,
      name: layerName,
      fileName: file.name.slice(0, 255),
      format,
      sizeBytes: file.bytes.byteLength,
      featureCount: collection.features.length,
      geojson: collection as unknown as Record<string, unknown>,
      createdAt: new Date(),
    };
    await this.db.insert(mapLayers).values(row);
    return {
      id: row.id,
      name: row.name,
      file_name: row.fileName,
      format,
      size_bytes: row.sizeBytes,
      feature_count: row.featureCount,
      created_at: row.createdAt.toISOString(),
    };
  }

  async delete(customerKey: string, id: string): Promise<void> {
    const rows = await this.db.delete(mapLayers)
      .where(and(eq(mapLayers.id, id), eq(mapLayers.customerKey, customerKey)))
      .returning({ id: mapLayers.id });
    if (!rows.length) throw new AppError("grid.elementNotFound");
  }
}
