/** The grid setup calls (docs/contracts.md, "Grid setup calls") and their shapes. */
import { api } from "../../../lib/api.ts";
import type { ElectricalWorkType, FeederType } from "../../../../../modules/grid/contract.ts";

export {
  ELECTRICAL_WORK_TYPES,
  type ElectricalWorkType,
  FEEDER_TYPES,
  type FeederType,
} from "../../../../../modules/grid/contract.ts";

export interface Feeder {
  id: string;
  slot: number;
  name: string;
  type: FeederType;
  in_out: "IN" | "OUT";
  nominal_current_a: number;
  parameters: Record<string, unknown>;
}

export interface GridNode {
  id: string;
  name: string;
  latitude: number;
  longitude: number;
  electrical_distance: number;
  upstream_node_id: string | null;
  electrical_work: {
    key: string;
    name: string;
    type: ElectricalWorkType;
    latitude: number;
    longitude: number;
  };
  feeders: Feeder[];
}

export interface LvGroup {
  id: string;
  name: string;
  nodes: GridNode[];
}

export interface MvFeederGroup {
  id: string;
  name: string;
  lv_groups: LvGroup[];
}

export interface StationGroup {
  id: string;
  name: string;
  latitude: number | null;
  longitude: number | null;
  mv_feeder_groups: MvFeederGroup[];
}

/** A feeder as the forms send it. */
export interface FeederInput {
  name: string;
  type: FeederType;
  in_out: "IN" | "OUT";
  nominal_current_a: number | null;
  parameters: Record<string, unknown>;
}

export interface NodeInput {
  name: string;
  electrical_work: { name: string; type: ElectricalWorkType };
  latitude: number | null;
  longitude: number | null;
  electrical_distance?: number | null;
  upstream_node_id?: string | null;
}

export interface ElectricalWorkHit {
  node_id: string;
  node_name: string;
  key: string;
  name: string;
  type: ElectricalWorkType;
  latitude: number;
  longitude: number;
  lv_group: { id: string; name: string };
  mv_feeder_group: { id: string; name: string };
  station_group: { id: string; name: string };
}

export type { MapLayerInfo as MapLayer } from "../../../map/map-layers.ts";
import type { MapLayerInfo as MapLayer } from "../../../map/map-layers.ts";

/** The ordered MV feeders (sections) of an MV feeder group. */
export interface MvTopology {
  mv_feeder_group_id: string;
  sections: { position: number; feeder: Feeder; node: { id: string; name: string } }[];
}

/** Answer of feeder changes: MV estimation changed, so the mapping must be validated again. */
export interface FeederChange {
  feeder: Feeder;
  mapping_revalidation_required: boolean;
}

const opts = { handleErrors: true } as const;

export const gridApi = {
  structure: (signal?: AbortSignal) =>
    api.get<StationGroup[]>("/gsm/grid-structure/hv-mv-station-groups", {
      ...(signal ? { signal } : {}),
    }),
  createStationGroup: (body: { name: string; latitude: number | null; longitude: number | null }) =>
    api.post<StationGroup>("/gsm/hv-mv-station-groups", body, opts),
  updateStationGroup: (
    id: string,
    body: { name: string; latitude: number | null; longitude: number | null },
  ) => api.put<StationGroup>(`/gsm/hv-mv-station-groups/${id}`, body, opts),
  deleteStationGroup: (id: string) => api.delete(`/gsm/hv-mv-station-groups/${id}`, opts),
  createMvFeederGroup: (body: { station_group_id: string; name: string }) =>
    api.post("/gsm/mv-feeder-groups", body, opts),
  updateMvFeederGroup: (id: string, body: { name: string }) =>
    api.put(`/gsm/mv-feeder-groups/${id}`, body, opts),
  deleteMvFeederGroup: (id: string) => api.delete(`/gsm/mv-feeder-groups/${id}`, opts),
  mvTopology: (id: string, signal?: AbortSignal) =>
    api.get<MvTopology>(`/gsm/mv-feeder-groups/${id}/mv-topology`, {
      handleErrors: true,
      ...(signal ? { signal } : {}),
    }),
  setMvTopology: (id: string, feederIds: string[]) =>
    api.put<MvTopology>(`/gsm/mv-feeder-groups/${id}/mv-topology`, { feeder_ids: feederIds }, opts),
  clearMvTopology: (id: string) => api.delete(`/gsm/mv-feeder-groups/${id}/mv-topology`, opts),
  createLvGroup: (body: { mv_feeder_group_id: string; name: string }) =>
    api.post("/gsm/lv-groups", body, opts),
  updateLvGroup: (id: string, body: { name: string }) =>
    api.put(`/gsm/lv-groups/${id}`, body, opts),
  deleteLvGroup: (id: string) => api.delete(`/gsm/lv-groups/${id}`, opts),
  createNode: (body: NodeInput & { lv_group_id: string; feeders: FeederInput[] }) =>
    api.post<GridNode>("/gsm/nodes", body, opts),
  updateNode: (id: string, body: NodeInput) => api.put<GridNode>(`/gsm/nodes/${id}`, body, opts),
  deleteNode: (id: string) => api.delete<{ cellIds: string[] }>(`/gsm/nodes/${id}`, opts),
  addFeeder: (nodeId: string, body: FeederInput) =>
    api.post<FeederChange>(`/gsm/nodes/${nodeId}/feeders`, body, opts),
  updateFeeder: (nodeId: string, feederId: string, body: FeederInput) =>
    api.put<FeederChange>(`/gsm/nodes/${nodeId}/feeders/${feederId}`, body, opts),
  deleteFeeder: (nodeId: string, feederId: string) =>
    api.delete(`/gsm/nodes/${nodeId}/feeders/${feederId}`, opts),
  search: (q: string, signal?: AbortSignal) =>
    api.get<ElectricalWorkHit[]>("/gsm/electrical-works/search", {
      query: { q },
      handleErrors: true,
      ...(signal ? { signal } : {}),
    }),
  deleteMapLayer: (id: string) => api.delete(`/gsm/map-layers/${id}`, opts),
};

/** Uploads a map layer file (.kml, .json, .geojson, at most 10 MB). */
export function uploadMapLayer(file: File): Promise<MapLayer> {
  const form = new FormData();
  form.set("file", file);
  return api.post<MapLayer>("/gsm/map-layers", form, opts);
}
