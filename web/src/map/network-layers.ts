/**
 * The maplibre layers of the network and of the grid items coloured by state: MV feeder and LV
 * group lines (with a casing, under the symbols), station symbols, element symbols by type,
 * clusters as rings of state shares, and the names from the zoom levels of spec 9
 * (ZOOM_RULES). Images (symbols, rings) are painted on demand when a layer asks for them.
 */
import type {
  DataDrivenPropertyValueSpecification,
  ExpressionSpecification,
  FilterSpecification,
  Map as MapLibre,
} from "maplibre-gl";
import type { FeatureCollection } from "geojson";
import { clusterImageExpression, clusterSize, countsOfImageId, RING_STATES } from "./clusters.ts";
import { cssColor } from "./map-style.ts";
import { type MapState, ZOOM_RULES } from "./map-types.ts";
import { paintRing, paintSymbol, parseSymbolImageId } from "./symbols.ts";

export const NETWORK_LINES = "network-lines";
export const NETWORK_PLACES = "network-places";
/** The lowest network layer: uploaded layers go below it. */
export const NETWORK_BOTTOM = "network-mv-casing";
export const LABEL_FONT = ["Noto Sans Regular"];
export const BOLD_FONT = ["Noto Sans Bold"];

/** The layer ids the tests and the legend refer to. */
export const LAYERS = {
  mvLines: "network-mv",
  lvLines: "network-lv",
  stations: "network-stations",
  stationLabels: "network-station-labels",
  mvLabels: "network-mv-labels",
  lvLabels: "network-lv-labels",
  clusters: "grid-clusters",
  points: "grid-points",
  workLabels: "grid-work-labels",
  nodeLabels: "grid-node-labels",
} as const;

const EMPTY: FeatureCollection = { type: "FeatureCollection", features: [] };

export const stateColour = (state: MapState) => cssColor(`--state-${state}`, "#5f6b78");

function byState(): ExpressionSpecification {
  return [
    "match",
    ["get", "state"],
    ...RING_STATES.flatMap((s) => [s, stateColour(s)]),
    // A structure drawn without states (Infrastructure Setup).
    "neutral",
    cssColor("--muted-foreground", "#5f6b78"),
    stateColour("unknown"),
  ] as unknown as ExpressionSpecification;
}

/** Text in the foreground colour with a halo of the surface, readable on any basemap. */
function textPaint() {
  return {
    "text-color": cssColor("--foreground", "#1b2430"),
    "text-halo-color": cssColor("--surface", "#ffffff"),
    "text-halo-width": 1.6,
  };
}

/** Adds the network's sources and layers (empty until {@link setNetwork}). */
export function addNetworkLayers(map: MapLibre): void {
  map.addSource(NETWORK_LINES, { type: "geojson", data: EMPTY });
  map.addSource(NETWORK_PLACES, { type: "geojson", data: EMPTY });
  const casing = cssColor("--surface", "#ffffff");
  const line = (
    id: string,
    kind: "mvFeederGroup" | "lvGroup",
    width: DataDrivenPropertyValueSpecification<number>,
    casingWidth: DataDrivenPropertyValueSpecification<number>,
  ) => {
    const filter: FilterSpecification = ["==", ["get", "kind"], kind];
    const minzoom = ZOOM_RULES[kind].drawn;
    const layout = { "line-cap": "round", "line-join": "round" } as const;
    map.addLayer({
      id: `${id}-casing`,
      type: "line",
      source: NETWORK_LINES,
      filter,
      minzoom,
      layout,
      paint: { "line-color": casing, "line-width": casingWidth, "line-opacity": 0.9 },
    });
    map.addLayer({
      id,
      type: "line",
      source: NETWORK_LINES,
      filter,
      minzoom,
      layout,
      paint: { "line-color": byState(), "line-width": width },
    });
  };
  line(
    LAYERS.mvLines,
    "mvFeederGroup",
    ["interpolate", ["linear"], ["zoom"], 10, 2.5, 16, 5],
    ["interpolate", ["linear"], ["zoom"], 10, 5, 16, 8.5],
  );
  line(
    LAYERS.lvLines,
    "lvGroup",
    ["interpolate", ["linear"], ["zoom"], 13, 1.5, 18, 3],
    ["interpolate", ["linear"], ["zoom"], 13, 3.5, 18, 6],
  );
}

/** Group names and the station symbols, above the points (added after them). */
export function addNetworkTopLayers(map: MapLibre): void {
  map.addLayer({
    id: LAYERS.stations,
    type: "symbol",
    source: NETWORK_PLACES,
    filter: ["==", ["get", "kind"], "station"],
    layout: {
      // A substation is not measured itself: a neutral symbol; its lines carry the states.
      "icon-image": "sym:station:neutral",
      "icon-allow-overlap": true,
      "icon-ignore-placement": true,
    },
  });
  map.addLayer({
    id: LAYERS.stationLabels,
    type: "symbol",
    source: NETWORK_PLACES,
    filter: ["==", ["get", "kind"], "station"],
    minzoom: ZOOM_RULES.station.named,
    layout: {
      "text-field": ["get", "name"],
      "text-font": BOLD_FONT,
      "text-size": 13,
      "text-anchor": "top",
      "text-offset": [0, 1.1],
    },
    paint: textPaint(),
  });
  const groupLabel = (id: string, kind: "mvFeederGroup" | "lvGroup", size: number) =>
    map.addLayer({
      id,
      type: "symbol",
      source: NETWORK_PLACES,
      filter: ["==", ["get", "kind"], kind],
      minzoom: ZOOM_RULES[kind].named,
      layout: {
        "text-field": ["get", "name"],
        "text-font": kind === "mvFeederGroup" ? BOLD_FONT : LABEL_FONT,
        "text-size": size,
        "text-max-width": 9,
        "text-padding": 4,
      },
      paint: { ...textPaint(), "text-color": cssColor("--muted-foreground", "#4b5563") },
    });
  groupLabel(LAYERS.mvLabels, "mvFeederGroup", 12);
  groupLabel(LAYERS.lvLabels, "lvGroup", 11.5);
}

/** The network's data (null: no network). */
export function setNetwork(
  map: MapLibre,
  network: { lines: FeatureCollection; places: FeatureCollection } | null,
): void {
  const lines = map.getSource(NETWORK_LINES) as { setData(d: FeatureCollection): void } | undefined;
  const places = map.getSource(NETWORK_PLACES) as
    | { setData(d: FeatureCollection): void }
    | undefined;
  lines?.setData(network?.lines ?? EMPTY);
  places?.setData(network?.places ?? EMPTY);
}

/**
 * The grid items as symbols by type in their state's colour, clustered below their zoom level
 * into rings of state shares with the member count, and their names from the spec's levels.
 */
export function addStateLayers(map: MapLibre, source: string): void {
  map.addLayer({
    id: LAYERS.clusters,
    type: "symbol",
    source,
    filter: ["has", "point_count"],
    layout: {
      "icon-image": clusterImageExpression() as unknown as ExpressionSpecification,
      "icon-allow-overlap": true,
      "icon-ignore-placement": true,
      "text-field": ["get", "point_count_abbreviated"],
      "text-font": BOLD_FONT,
      "text-size": 12,
      "text-allow-overlap": true,
      "text-ignore-placement": true,
    },
    paint: { "text-color": cssColor("--foreground", "#1b2430") },
  });
  const unclustered: FilterSpecification = ["!", ["has", "point_count"]];
  map.addLayer({
    id: LAYERS.points,
    type: "symbol",
    source,
    filter: unclustered,
    layout: {
      "icon-image": [
        "concat",
        "sym:",
        ["coalesce", ["get", "workType"], "node"],
        ":",
        ["get", "state"],
      ],
      "icon-allow-overlap": true,
      "icon-ignore-placement": true,
    },
  });
  map.addLayer({
    id: LAYERS.workLabels,
    type: "symbol",
    source,
    filter: unclustered,
    minzoom: ZOOM_RULES.electricalWork.named,
    layout: {
      "text-field": ["coalesce", ["get", "workName"], ["get", "name"]],
      "text-font": LABEL_FONT,
      "text-size": 12,
      "text-anchor": "top",
      "text-offset": [0, 0.9],
      "text-max-width": 10,
    },
    paint: textPaint(),
  });
  map.addLayer({
    id: LAYERS.nodeLabels,
    type: "symbol",
    source,
    filter: ["all", unclustered, ["!=", ["get", "name"], [
      "coalesce",
      ["get", "workName"],
      ["get", "name"],
    ]]],
    minzoom: ZOOM_RULES.node.named,
    layout: {
      "text-field": ["get", "name"],
      "text-font": LABEL_FONT,
      "text-size": 11,
      "text-anchor": "bottom",
      "text-offset": [0, -0.9],
    },
    paint: { ...textPaint(), "text-color": cssColor("--muted-foreground", "#4b5563") },
  });
}

/** Paints the symbol and ring images the layers ask for (maplibre's missing-image resolver). */
export function paintMissingImages(map: MapLibre): void {
  const ratio = Math.max(2, Math.ceil(window.devicePixelRatio || 1));
  const stroke = cssColor("--surface", "#ffffff");
  map.setMissingStyleImageResolver((id: string) => {
    if (map.hasImage(id)) return;
    const symbol = parseSymbolImageId(id);
    if (symbol) {
      const fill = symbol.state === "neutral"
        ? cssColor("--foreground", "#1b2430")
        : stateColour(symbol.state);
      map.addImage(id, paintSymbol(symbol.kind, fill, stroke, ratio), {
        pixelRatio: ratio,
      });
      return;
    }
    const counts = countsOfImageId(id);
    if (counts) {
      const total = RING_STATES.reduce((sum, s) => sum + counts[s], 0);
      map.addImage(
        id,
        paintRing(counts, clusterSize(total), stateColour, stroke, ratio),
        { pixelRatio: ratio },
      );
    }
  });
}
