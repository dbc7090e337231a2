/**
 * The grid map (maplibre): offline by default (a background style, no tiles, no fonts), the
 * spec's camera limits (spec 9), grid items as coloured points with a popup, and the customer's
 * uploaded map layers. One component owns the maplibre instance; features give it data.
 */
import "maplibre-gl/dist/maplibre-gl.css";
import workerUrl from "maplibre-gl/dist/maplibre-gl-worker.mjs?url";
import {
  type ExpressionSpecification,
  type GeoJSONSource,
  LngLatBounds,
  Map as MapLibre,
  type MapLayerMouseEvent,
  NavigationControl,
  Popup,
  setWorkerUrl,
  type StyleSpecification,
} from "maplibre-gl";
import type { FeatureCollection } from "geojson";
import { useEffect, useRef, useState } from "react";
import { cn } from "../ui/cn.ts";
import {
  MAP_DEFAULTS,
  type MapFocus,
  type MapItemKind,
  type MapOverlay,
  type MapPoint,
  type MapState,
  ZOOM_BY_KIND,
} from "./map-types.ts";

export * from "./map-types.ts";

setWorkerUrl(workerUrl);

const POINTS = "grid-points";
const CLUSTERS = "grid-clusters";
/** Rank of a state in a cluster: the cluster takes its worst member's colour. */
const STATE_RANK: Readonly<Record<MapState, number>> = {
  ok: 0,
  unknown: 1,
  offline: 2,
  warning: 3,
  critical: 4,
};

/** Colour token of each kind when points are coloured by kind (the setup map). */
export const KIND_TOKENS: Readonly<Record<MapItemKind, string>> = {
  station: "--foreground",
  mvFeederGroup: "--accent-foreground",
  lvGroup: "--muted-foreground",
  electricalWork: "--primary",
  node: "--primary",
};
const KINDS = Object.keys(KIND_TOKENS) as MapItemKind[];

/** One legend entry: a kind or a state with its translated label. */
export type LegendItem = { label: string } & ({ kind: MapItemKind } | { state: MapState });
const STATES: readonly MapState[] = ["ok", "warning", "critical", "offline", "unknown"];

function cssColor(name: string, fallback: string): string {
  const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return value || fallback;
}

/** The offline style: a plain background; everything else is drawn from data. */
function offlineStyle(): StyleSpecification {
  return {
    version: 8,
    sources: {},
    layers: [{
      id: "background",
      type: "background",
      paint: { "background-color": cssColor("--surface-muted", "#eef1f4") },
    }],
  };
}

/**
 * Country borders below everything drawn from data (web/basemap-plugin.ts), loaded lazily; the
 * map works without them.
 */
const BASEMAP_HOME = "Switzerland";

function addBasemap(map: MapLibre): void {
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

function pointsData(points: readonly MapPoint[]): FeatureCollection {
  return {
    type: "FeatureCollection",
    features: points.map((p) => ({
      type: "Feature",
      id: undefined,
      properties: { id: p.id, kind: p.kind, state: p.state },
      geometry: { type: "Point", coordinates: [p.longitude, p.latitude] },
    })),
  };
}

function popupContent(point: MapPoint): HTMLElement {
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

/** A maplibre map of grid items and uploaded layers. */
export function GridMap({
  points,
  overlays = [],
  focus,
  onSelect,
  center,
  label,
  unavailableText,
  className,
  colorBy = "state",
  legend,
}: {
  /** "state" colours points by their state (metering), "kind" by their kind (setup). */
  colorBy?: "state" | "kind";
  legend?: readonly LegendItem[];
  points: readonly MapPoint[];
  overlays?: readonly MapOverlay[];
  focus?: MapFocus | null;
  onSelect?: (id: string) => void;
  center?: { lat: number; lng: number } | undefined;
  /** Accessible name of the map region. */
  label: string;
  /** Shown when the browser cannot draw the map (no WebGL). */
  unavailableText: string;
  className?: string;
}) {
  const containerRef = useRef<HTMLDivElement | null>(null);
  const mapRef = useRef<MapLibre | null>(null);
  const popupRef = useRef<Popup | null>(null);
  const pointsRef = useRef(points);
  pointsRef.current = points;
  const onSelectRef = useRef(onSelect);
  onSelectRef.current = onSelect;
  const [ready, setReady] = useState(false);
  const [failed, setFailed] = useState(false);

  const openPopup = (map: MapLibre, point: MapPoint) => {
    popupRef.current?.remove();
    popupRef.current = new Popup({ closeButton: true, offset: 10, maxWidth: "260px" })
      .setLngLat([point.longitude, point.latitude])
      .setDOMContent(popupContent(point))
      .addTo(map);
  };

  // Create the map once.
  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    let map: MapLibre;
    try {
      map = new MapLibre({
        container,
        style: offlineStyle(),
        center: [center?.lng ?? MAP_DEFAULTS.center.lng, center?.lat ?? MAP_DEFAULTS.center.lat],
        zoom: MAP_DEFAULTS.zoom,
        minZoom: MAP_DEFAULTS.minZoom,
        maxZoom: MAP_DEFAULTS.maxZoom,
        maxBounds: new LngLatBounds(MAP_DEFAULTS.bounds[0], MAP_DEFAULTS.bounds[1]),
        attributionControl: false,
      });
    } catch {
      setFailed(true);
      return;
    }
    mapRef.current = map;
    map.addControl(new NavigationControl({ showCompass: false }), "top-right");
    map.on("load", () => {
      const colour = (state: MapState) => cssColor(`--state-${state}`, "#5f6b78");
      // Points coloured by state are clustered at low zoom, each cluster in its worst state.
      const clustered = colorBy === "state";
      const rankOf = [
        "match",
        ["get", "state"],
        ...STATES.flatMap((s) => [s, STATE_RANK[s]]),
        STATE_RANK.unknown,
      ] as unknown as ExpressionSpecification;
      map.addSource(POINTS, {
        type: "geojson",
        data: pointsData(pointsRef.current),
        ...(clustered
          ? {
            cluster: true,
            clusterMaxZoom: 15,
            clusterRadius: 36,
            clusterProperties: { worst: ["max", rankOf] },
          }
          : {}),
      });
      if (clustered) {
        map.addLayer({
          id: CLUSTERS,
          type: "circle",
          source: POINTS,
          filter: ["has", "point_count"],
          paint: {
            "circle-color": [
              "match",
              ["get", "worst"],
              ...STATES.flatMap((s) => [STATE_RANK[s], colour(s)]),
              colour("unknown"),
            ] as unknown as ExpressionSpecification,
            "circle-radius": ["step", ["get", "point_count"], 12, 10, 16, 100, 21, 1000, 27],
            "circle-opacity": 0.85,
            "circle-stroke-width": 3,
            "circle-stroke-color": cssColor("--surface", "#ffffff"),
          },
        });
        map.on("click", CLUSTERS, async (event: MapLayerMouseEvent) => {
          const feature = event.features?.[0];
          const id = feature?.properties?.cluster_id as number | undefined;
          if (!feature || id === undefined || feature.geometry.type !== "Point") return;
          const source = map.getSource(POINTS) as GeoJSONSource;
          const zoom = await source.getClusterExpansionZoom(id);
          const [lng, lat] = feature.geometry.coordinates as [number, number];
          map.easeTo({ center: [lng, lat], zoom });
        });
        map.on("mouseenter", CLUSTERS, () => (map.getCanvas().style.cursor = "pointer"));
        map.on("mouseleave", CLUSTERS, () => (map.getCanvas().style.cursor = ""));
      }
      map.addLayer({
        id: POINTS,
        type: "circle",
        source: POINTS,
        ...(clustered ? { filter: ["!", ["has", "point_count"]] } : {}),
        paint: {
          "circle-radius": [
            "match",
            ["get", "kind"],
            "station",
            10,
            "mvFeederGroup",
            8,
            "lvGroup",
            7,
            6,
          ],
          "circle-color": (colorBy === "kind"
            ? [
              "match",
              ["get", "kind"],
              ...KINDS.flatMap((k) => [k, cssColor(KIND_TOKENS[k] ?? "--primary", "#1c5fb8")]),
              colour("unknown"),
            ]
            : [
              "match",
              ["get", "state"],
              ...STATES.flatMap((s) => [s, colour(s)]),
              colour("unknown"),
            ]) as unknown as ExpressionSpecification,
          "circle-stroke-width": 2,
          "circle-stroke-color": cssColor("--surface", "#ffffff"),
        },
      });
      map.on("click", POINTS, (event: MapLayerMouseEvent) => {
        const id = event.features?.[0]?.properties?.id as string | undefined;
        const point = pointsRef.current.find((p) => p.id === id);
        if (!point) return;
        openPopup(map, point);
        onSelectRef.current?.(point.id);
      });
      addBasemap(map);
      map.on("mouseenter", POINTS, () => (map.getCanvas().style.cursor = "pointer"));
      map.on("mouseleave", POINTS, () => (map.getCanvas().style.cursor = ""));
      setReady(true);
    });
    const resize = new ResizeObserver(() => map.resize());
    resize.observe(container);
    return () => {
      resize.disconnect();
      popupRef.current?.remove();
      map.remove();
      mapRef.current = null;
      setReady(false);
    };
    // The map is created once; later prop changes are applied by the effects below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // Points: update the source, and fit the view to them the first time.
  const fitted = useRef(false);
  useEffect(() => {
    const map = mapRef.current;
    if (!map || !ready) return;
    (map.getSource(POINTS) as GeoJSONSource | undefined)?.setData(pointsData(points));
    if (!fitted.current && points.length && !focus) {
      fitted.current = true;
      const bounds = new LngLatBounds();
      for (const p of points) bounds.extend([p.longitude, p.latitude]);
      map.fitBounds(bounds, { padding: 48, maxZoom: 16, duration: 0 });
    }
  }, [points, ready, focus]);

  // Uploaded layers: one source with fill, line and circle layers each.
  useEffect(() => {
    const map = mapRef.current;
    if (!map || !ready) return;
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
      const before = map.getLayer(POINTS) ? POINTS : undefined;
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
  }, [overlays, ready]);

  // Focus: go to the item at the zoom level of its kind and open its popup.
  useEffect(() => {
    const map = mapRef.current;
    if (!map || !ready || !focus) return;
    const point = pointsRef.current.find((p) => p.id === focus.id);
    if (!point) return;
    fitted.current = true;
    map.jumpTo({ center: [point.longitude, point.latitude], zoom: ZOOM_BY_KIND[point.kind] });
    openPopup(map, point);
  }, [focus, ready]);

  return (
    <div
      className={cn(
        "relative min-h-80 overflow-hidden rounded-lg border bg-surface-muted",
        className,
      )}
      role="region"
      aria-label={label}
      data-testid="grid-map"
      data-ready={ready ? "true" : "false"}
      data-points={points.length}
    >
      {/* maplibre makes its container position: relative, so it fills a positioned wrapper. */}
      <div className="absolute inset-0">
        <div ref={containerRef} className="h-full w-full" />
      </div>
      {legend?.length && !failed
        ? (
          <ul className="absolute bottom-2 left-2 grid gap-1 rounded-md border bg-surface/90 px-2.5 py-2 text-xs shadow-sm">
            {legend.map((item) => (
              <li key={item.label} className="flex items-center gap-2">
                <span
                  aria-hidden
                  className="inline-block size-2.5 rounded-full"
                  style={{
                    background: `var(${
                      "kind" in item ? KIND_TOKENS[item.kind] : `--state-${item.state}`
                    })`,
                  }}
                />
                {item.label}
              </li>
            ))}
          </ul>
        )
        : null}
      {failed
        ? (
          <p className="absolute inset-0 flex items-center justify-center p-4 text-sm text-muted-foreground">
            {unavailableText}
          </p>
        )
        : null}
    </div>
  );
}
