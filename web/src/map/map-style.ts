/**
 * What the grid map draws besides its points: the offline style, the bundled country borders,
 * the points' GeoJSON and popups, and the customer's uploaded layers. maplibre calls only; the
 * component (grid-map.tsx) owns the map.
 */
import type { Map as MapLibre, StyleSpecification } from "maplibre-gl";
import type { FeatureCollection } from "geojson";
import type { MapOverlay, MapPoint } from "./map-types.ts";

export function cssColor(name: string, fallback: string): string {
  const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return value || fallback;
}

/** An online basemap: a raster tile URL template with {z}/{x}/{y} and its attribution. */
export interface OnlineBasemap {
  url: string;
  attribution: string;
}

/**
 * The style: a plain background, with the online basemap's tiles when one is configured;
 * everything else is drawn from data. Label glyphs come from the product itself
 * (web/public/fonts, made by scripts/glyphs/build.ts), so names show offline.
 */
export function offlineStyle(online?: OnlineBasemap | null): StyleSpecification {
  return {
    version: 8,
    glyphs: `${globalThis.location?.origin ?? ""}/fonts/{fontstack}/{range}.pbf`,
    sources: online
      ? {
        "basemap-online": {
          type: "raster",
          tiles: [online.url],
          tileSize: 256,
          attribution: online.attribution,
        },
      }
      : {},
    layers: [
      {
        id: "background",
        type: "background",
        paint: { "background-color": cssColor("--surface-muted", "#eef1f4") },
      },
      ...(online
        ? [{ id: "basemap-online", type: "raster" as const, source: "basemap-online" }]
        : []),
    ],
  };
}

/**
 * Country borders below everything drawn from data (web/basemap-plugin.ts), loaded lazily; the
 * map works without them.
 */
const BASEMAP_HOME = "Switzerland";

export function addBasemap(map: MapLibre): void {
  void import("virtual:basemap").then(({ default: countries }) => {
    if (map.getSource("basemap") || !map.getStyle()) return;
    const below = map.getStyle().layers.find((layer) => layer.id !== "background")?.id;
    map.addSource("basemap", { type: "geojson", data: countries });
    map.addLayer({
      id: "basemap-land",
      type: "fill",
      source: "basemap",
      // The country of the map bounds (spec 9: CH) stands out from its neighbours.
      paint: {
        "fill-color": [
          "match",
          ["get", "name"],
          BASEMAP_HOME,
          cssColor("--surface", "#ffffff"),
          cssColor("--surface-muted", "#eef1f4"),
        ],
      },
    }, below);
    map.addLayer({
      id: "basemap-borders",
      type: "line",
      source: "basemap",
      paint: {
        "line-color": cssColor("--muted-foreground", "#5f6b78"),
        "line-opacity": 0.5,
        "line-width": ["interpolate", ["linear"], ["zoom"], 5, 0.8, 12, 2],
      },
    }, below);
  }).catch(() => {});
}

export function pointsData(points: readonly MapPoint[]): FeatureCollection {
  return {
    type: "FeatureCollection",
    features: points.map((p) => ({
      type: "Feature",
      id: undefined,
      properties: {
        id: p.id,
        kind: p.kind,
        state: p.state,
        name: p.name,
        ...(p.workType ? { workType: p.workType } : {}),
        ...(p.workName ? { workName: p.workName } : {}),
      },
      geometry: { type: "Point", coordinates: [p.longitude, p.latitude] },
    })),
  };
}

export function popupContent(point: MapPoint): HTMLElement {
  const box = document.createElement("div");
  box.className = "grid-map-popup";
  const title = document.createElement("strong");
  title.textContent = point.name;
  box.append(title);
  if (point.detail) {
    const detail = document.createElement("div");
    detail.textContent = point.detail;
    box.append(detail);
  }
  return box;
}

/** Adds the layers of new overlays below the points and removes those of gone ones. */
export function syncOverlays(map: MapLibre, overlays: readonly MapOverlay[], below: string): void {
  const colour = cssColor("--muted-foreground", "#56626f");
  const ids = new Set(overlays.map((o) => `overlay-${o.id}`));
  for (const layer of map.getStyle().layers ?? []) {
    const source = "source" in layer ? layer.source : undefined;
    if (typeof source === "string" && source.startsWith("overlay-") && !ids.has(source)) {
      map.removeLayer(layer.id);
    }
  }
  for (const source of Object.keys(map.getStyle().sources ?? {})) {
    if (source.startsWith("overlay-") && !ids.has(source)) map.removeSource(source);
  }
  for (const overlay of overlays) {
    const id = `overlay-${overlay.id}`;
    if (map.getSource(id)) continue;
    map.addSource(id, { type: "geojson", data: overlay.data });
    const before = map.getLayer(below) ? below : undefined;
    map.addLayer({
      id: `${id}-fill`,
      type: "fill",
      source: id,
      filter: ["==", ["geometry-type"], "Polygon"],
      paint: { "fill-color": colour, "fill-opacity": 0.12 },
    }, before);
    map.addLayer({
      id: `${id}-line`,
      type: "line",
      source: id,
      filter: ["in", ["geometry-type"], ["literal", ["LineString", "Polygon"]]],
      paint: {
        "line-color": colour,
        "line-width": 2,
        "line-opacity": 0.8,
        "line-dasharray": [2, 1],
      },
    }, before);
    map.addLayer({
      id: `${id}-point`,
      type: "circle",
      source: id,
      filter: ["==", ["geometry-type"], "Point"],
      paint: { "circle-color": colour, "circle-radius": 4, "circle-opacity": 0.8 },
    }, before);
  }
}
