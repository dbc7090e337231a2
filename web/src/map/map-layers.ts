/** The customer's uploaded map layers, loaded for drawing on every map (GET /gsm/map-layers). */
import type { FeatureCollection } from "geojson";
import { useEffect, useState } from "react";
import { api } from "../lib/api.ts";
import type { MapOverlay } from "./map-types.ts";

/** A stored layer without its content (the grid contract's `MapLayerDto`). */
export type { MapLayerDto as MapLayerInfo } from "../../../modules/grid/contract.ts";
import type { MapLayerDto as MapLayerInfo } from "../../../modules/grid/contract.ts";

/**
 * Loads the layer list and the GeoJSON of each layer (kept across reloads of the list).
 * `failed` is set when a layer could not be loaded ('Unable to load map layer.').
 */
export function useMapOverlays(reloadKey: number): {
  layers: MapLayerInfo[];
  overlays: MapOverlay[];
  failed: boolean;
} {
  const [layers, setLayers] = useState<MapLayerInfo[]>([]);
  const [overlays, setOverlays] = useState<MapOverlay[]>([]);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const controller = new AbortController();
    const signal = controller.signal;
    (async () => {
      try {
        const list = await api.get<MapLayerInfo[]>("/gsm/map-layers", {
          signal,
          handleErrors: true,
        });
        if (signal.aborted) return;
        setLayers(list);
        const loaded = await Promise.all(list.map(async (layer) => ({
          id: layer.id,
          data: await api.get<FeatureCollection>(`/gsm/map-layers/${layer.id}`, {
            signal,
            handleErrors: true,
          }),
        })));
        if (!signal.aborted) {
          setOverlays(loaded);
          setFailed(false);
        }
      } catch {
        if (!signal.aborted) setFailed(true);
      }
    })();
    return () => controller.abort();
  }, [reloadKey]);
  return { layers, overlays, failed };
}
