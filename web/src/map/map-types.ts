/** Shapes and constants of the grid maps (spec 9), free of maplibre so tests can import them. */
import type { FeatureCollection } from "geojson";
import type { ElectricalWorkType } from "../../../modules/grid/contract.ts";

/** Spec 9: map defaults and limits. */
export const MAP_DEFAULTS = {
  center: { lat: 46.812355, lng: 8.263672 },
  zoom: 6,
  minZoom: 5,
  maxZoom: 24,
  /** [west, south], [east, north] of the spec's bounds [5.90682, 47.84652] to [10.88363, 45.80984]. */
  bounds: [[5.90682, 45.80984], [10.88363, 47.84652]] as [[number, number], [number, number]],
} as const;

/** Kinds of grid items, with the zoom level of spec 9 when the map goes to one. */
export type MapItemKind = "station" | "mvFeederGroup" | "lvGroup" | "electricalWork" | "node";
export const ZOOM_BY_KIND: Readonly<Record<MapItemKind, number>> = {
  station: 10,
  mvFeederGroup: 13,
  lvGroup: 16,
  electricalWork: 18,
  node: 20,
};

/**
 * Spec 9's zoom levels per element type, read as "an element is named from its own level and
 * drawn from its parent's": the station is always drawn and named from 10; MV feeder lines are
 * drawn from 10 and named from 13; LV group lines from 13, named from 16; electrical works stand
 * alone (no longer clustered) from 16 and are named from 18; a node's own name (when it differs
 * from its work's) shows from 20.
 */
export const ZOOM_RULES = {
  station: { drawn: MAP_DEFAULTS.minZoom, named: ZOOM_BY_KIND.station },
  mvFeederGroup: { drawn: ZOOM_BY_KIND.station, named: ZOOM_BY_KIND.mvFeederGroup },
  lvGroup: { drawn: ZOOM_BY_KIND.mvFeederGroup, named: ZOOM_BY_KIND.lvGroup },
  electricalWork: { drawn: ZOOM_BY_KIND.lvGroup, named: ZOOM_BY_KIND.electricalWork },
  node: { drawn: ZOOM_BY_KIND.lvGroup, named: ZOOM_BY_KIND.node },
} as const satisfies Record<MapItemKind, { drawn: number; named: number }>;

/** The highest zoom at which items are still clustered (they stand alone from their level). */
export const CLUSTER_MAX_ZOOM = ZOOM_RULES.electricalWork.drawn - 1;

/** Which element kinds are drawn and named at a zoom (for the legend and tests). */
export function visibleAt(zoom: number): { drawn: MapItemKind[]; named: MapItemKind[] } {
  const kinds = Object.keys(ZOOM_RULES) as MapItemKind[];
  return {
    drawn: kinds.filter((k) => zoom >= ZOOM_RULES[k].drawn),
    named: kinds.filter((k) => zoom >= ZOOM_RULES[k].named),
  };
}

/** Colour names of the design system's state tokens. */
export type MapState = "ok" | "warning" | "critical" | "offline" | "unknown";

/** One grid item on the map. */
export interface MapPoint {
  id: string;
  kind: MapItemKind;
  name: string;
  latitude: number;
  longitude: number;
  state: MapState;
  /** A second line in the popup, e.g. the type or the metering state (already translated). */
  detail?: string;
  /** The electrical work's type (its symbol on the map) and name (its label). */
  workType?: ElectricalWorkType;
  workName?: string;
}

/** An uploaded layer to draw (a GeoJSON FeatureCollection). */
export interface MapOverlay {
  id: string;
  data: FeatureCollection;
}

/** The item the map should go to and open. */
export interface MapFocus {
  id: string;
  /** Changes on every request so that the same item can be focused again. */
  seq: number;
}

/** Colour token of each kind when points are coloured by kind (the setup map). */
export const KIND_TOKENS: Readonly<Record<MapItemKind, string>> = {
  station: "--foreground",
  mvFeederGroup: "--accent-foreground",
  lvGroup: "--muted-foreground",
  electricalWork: "--primary",
  node: "--primary",
};

/** One legend entry: a kind or a state with its translated label. */
export type LegendItem = { label: string } & ({ kind: MapItemKind } | { state: MapState });
