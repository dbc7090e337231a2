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
} from "maplibre-gl";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { cn } from "../ui/cn.ts";
import {
  addBasemap,
  cssColor,
  offlineStyle,
  pointsData,
  popupContent,
  syncOverlays,
} from "./map-style.ts";
import {
  KIND_TOKENS,
  type LegendItem,
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

const KINDS = Object.keys(KIND_TOKENS) as MapItemKind[];
const STATES: readonly MapState[] = ["ok", "warning", "critical", "offline", "unknown"];

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
  const { t } = useTranslation("common");
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
        // maplibre's own control texts, in the user's language.
        locale: {
          "NavigationControl.ZoomIn": t("map.zoomIn"),
          "NavigationControl.ZoomOut": t("map.zoomOut"),
          "NavigationControl.ResetBearing": t("map.resetBearing"),
          "Popup.Close": t("map.closePopup"),
        },
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
    if (map && ready) syncOverlays(map, overlays, POINTS);
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
