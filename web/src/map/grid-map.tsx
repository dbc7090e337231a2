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
import { apiHeaders } from "../lib/api.ts";
import { cn } from "../ui/cn.ts";
import {
  addBasemap,
  cssColor,
  offlineStyle,
  type OnlineBasemap,
  pointsData,
  popupContent,
  syncOverlays,
} from "./map-style.ts";
import {
  CLUSTER_MAX_ZOOM,
  KIND_TOKENS,
  type LegendItem,
  MAP_DEFAULTS,
  type MapFocus,
  type MapItemKind,
  type MapOverlay,
  type MapPoint,
  ZOOM_BY_KIND,
} from "./map-types.ts";
import { clusterProperties } from "./clusters.ts";
import type { MapNetwork } from "./network.ts";
import { MapLegend } from "./map-legend.tsx";
import { SYMBOL_KINDS, type SymbolKind } from "./symbols.ts";
import {
  addNetworkLayers,
  addNetworkTopLayers,
  addStateLayers,
  LAYERS,
  NETWORK_BOTTOM,
  paintMissingImages,
  setNetwork,
  stateColour,
} from "./network-layers.ts";

export * from "./map-types.ts";

setWorkerUrl(workerUrl);

const POINTS = LAYERS.points;
const CLUSTERS = LAYERS.clusters;

const KINDS = Object.keys(KIND_TOKENS) as MapItemKind[];

/** The shapes on a map: the stations of the network, then the points' types (in SYMBOLS order). */
function legendKinds(points: readonly MapPoint[], network?: MapNetwork | null): SymbolKind[] {
  const present = new Set<SymbolKind>(points.map((p) => p.workType ?? "node"));
  if (network?.places.features.some((f) => f.properties?.kind === "station")) {
    present.add("station");
  }
  return SYMBOL_KINDS.filter((k) => present.has(k));
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
  network,
  basemap,
}: {
  /** The network drawn under the points (station, feeders, groups), from the structure. */
  network?: MapNetwork | null;
  /** An online basemap under everything; without one the bundled outline basemap shows. */
  basemap?: OnlineBasemap | null;
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
  const networkRef = useRef(network);
  networkRef.current = network;
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
        style: offlineStyle(basemap),
        center: [center?.lng ?? MAP_DEFAULTS.center.lng, center?.lat ?? MAP_DEFAULTS.center.lat],
        zoom: MAP_DEFAULTS.zoom,
        minZoom: MAP_DEFAULTS.minZoom,
        maxZoom: MAP_DEFAULTS.maxZoom,
        maxBounds: new LngLatBounds(MAP_DEFAULTS.bounds[0], MAP_DEFAULTS.bounds[1]),
        // The online basemap's attribution; the offline map has nothing to attribute.
        attributionControl: basemap ? { compact: true } : false,
        // The online basemap's tiles come through the product's own API, with the session.
        transformRequest: (url) =>
          basemap && url.startsWith(basemap.url.slice(0, basemap.url.indexOf("{")))
            ? { url, headers: apiHeaders() }
            : { url },
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
      const colour = stateColour;
      // Points coloured by state: symbols by type, clustered into rings of state shares.
      const clustered = colorBy === "state";
      map.addSource(POINTS, {
        type: "geojson",
        data: pointsData(pointsRef.current),
        ...(clustered
          ? {
            cluster: true,
            clusterMaxZoom: CLUSTER_MAX_ZOOM,
            clusterRadius: 36,
            clusterProperties: clusterProperties(),
          }
          : {}),
      });
      addNetworkLayers(map);
      setNetwork(map, networkRef.current ?? null);
      if (clustered) {
        paintMissingImages(map);
        addStateLayers(map, POINTS);
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
      } else {
        map.addLayer({
          id: POINTS,
          type: "circle",
          source: POINTS,
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
            "circle-color": [
              "match",
              ["get", "kind"],
              ...KINDS.flatMap((k) => [k, cssColor(KIND_TOKENS[k] ?? "--primary", "#1c5fb8")]),
              colour("unknown"),
            ] as unknown as ExpressionSpecification,
            "circle-stroke-width": 2,
            "circle-stroke-color": cssColor("--surface", "#ffffff"),
          },
        });
      }
      addNetworkTopLayers(map);
      map.on("click", POINTS, (event: MapLayerMouseEvent) => {
        const id = event.features?.[0]?.properties?.id as string | undefined;
        const point = pointsRef.current.find((p) => p.id === id);
        if (!point) return;
        openPopup(map, point);
        onSelectRef.current?.(point.id);
      });
      // A test hook: the e2e suite reads what is drawn (queryRenderedFeatures) from the element.
      (container as HTMLDivElement & { gridMap?: MapLibre }).gridMap = map;
      map.on("idle", () => container.setAttribute("data-zoom", map.getZoom().toFixed(2)));
      if (!basemap) addBasemap(map);
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

  // The network, as its data changes (states refresh every 30 s).
  useEffect(() => {
    const map = mapRef.current;
    if (map && ready) setNetwork(map, network ?? null);
  }, [network, ready]);

  // Uploaded layers: one source with fill, line and circle layers each, under the network.
  useEffect(() => {
    const map = mapRef.current;
    if (map && ready) syncOverlays(map, overlays, NETWORK_BOTTOM);
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
      {legend?.length && !failed && colorBy === "state"
        ? (
          <MapLegend
            states={network?.lines.features.some((f) => f.properties?.state === "unknown") &&
                !legend.some((item) => "state" in item && item.state === "unknown")
              ? [...legend, { state: "unknown", label: t("map.legend.unmeasured") }]
              : legend}
            kinds={legendKinds(points, network)}
            network={{
              mv: network?.lines.features.some((f) => f.properties?.kind === "mvFeederGroup") ??
                false,
              lv: network?.lines.features.some((f) => f.properties?.kind === "lvGroup") ?? false,
            }}
            overlays={overlays.length > 0}
          />
        )
        : legend?.length && !failed
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
            {network?.lines.features.length
              ? (
                <li className="flex items-center gap-2">
                  <span aria-hidden className="inline-block h-0.5 w-2.5 bg-muted-foreground" />
                  {t("map.legend.structureLines")}
                </li>
              )
              : null}
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
