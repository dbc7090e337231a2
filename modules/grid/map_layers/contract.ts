/**
 * The map layers' contract (spec 5): the stored layers a customer uploads (.kml, .json or
 * .geojson, at most 10 MB) and draws on every map. Pure: imports only zod.
 */
import { z } from "zod";

/** Spec 5: at most 10 MB per file. */
export const MAP_LAYER_MAX_BYTES = 10 * 1024 * 1024;
export const MAP_LAYER_EXTENSIONS = [".kml", ".json", ".geojson"] as const;
export const MAP_LAYER_FORMATS = ["KML", "GEOJSON"] as const;
export type MapLayerFormat = (typeof MAP_LAYER_FORMATS)[number];

/** A stored layer without its content. */
export const mapLayerDto = z.object({
  id: z.string(),
  name: z.string(),
  file_name: z.string(),
  format: z.enum(MAP_LAYER_FORMATS),
  size_bytes: z.number(),
  feature_count: z.number(),
  created_at: z.string(),
}).meta({ id: "MapLayerDto" });
export type MapLayerDto = z.output<typeof mapLayerDto>;

/** `GET /gsm/map-layers/{id}`: the layer as a GeoJSON FeatureCollection. */
export const featureCollectionDto = z.object({
  type: z.literal("FeatureCollection"),
  features: z.array(z.object({
    type: z.literal("Feature"),
    geometry: z.record(z.string(), z.unknown()).nullable(),
    properties: z.record(z.string(), z.unknown()),
  })),
}).meta({ id: "FeatureCollection" });
