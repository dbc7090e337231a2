/** The grid setup calls (docs/contracts.md, "Grid setup calls") and their shapes. */
import { api } from "../../../lib/api.ts";
import type {
  DeletedNodeDto,
  ElectricalWorkHit,
  FeederBody,
  FeederChangeDto,
  LvGroupAnswer,
  MapLayerDto,
  MvFeederGroupAnswer,
  MvTopologyDto,
  NewNodeBody,
  NodeUpdateBody,
  SetupNodeDto,
  StationGroupAnswer,
  StationGroupBody,
  StationGroupDto,
} from "../../../../../modules/grid/contract.ts";

export {
  ELECTRICAL_WORK_TYPES,
  type ElectricalWorkType,
  FEEDER_DIRECTIONS,
  FEEDER_TYPES,
  type FeederType,
} from "../../../../../modules/grid/contract.ts";

/** The shapes of the grid structure, under the names the screens use (never copied). */
export type {
  ElectricalWorkHit,
  FeederChangeDto as FeederChange,
  FeederDto as Feeder,
  LvGroupDto as LvGroup,
  MapLayerDto as MapLayer,
  MvFeederGroupDto as MvFeederGroup,
  MvTopologyDto as MvTopology,
  NodeDto as GridNode,
  SetupNodeDto,
  StationGroupDto as StationGroup,
} from "../../../../../modules/grid/contract.ts";

const opts = { handleErrors: true } as const;

export const gridApi = {
  structure: (signal?: AbortSignal) =>
    api.get<StationGroupDto[]>("/gsm/grid-structure/hv-mv-station-groups", {
      ...(signal ? { signal } : {}),
    }),
  createStationGroup: (body: StationGroupBody) =>
    api.post<StationGroupAnswer>("/gsm/hv-mv-station-groups", body, opts),
  updateStationGroup: (id: string, body: StationGroupBody) =>
    api.put<StationGroupAnswer>(`/gsm/hv-mv-station-groups/${id}`, body, opts),
  deleteStationGroup: (id: string) => api.delete(`/gsm/hv-mv-station-groups/${id}`, opts),
  createMvFeederGroup: (body: { station_group_id: string; name: string }) =>
    api.post<MvFeederGroupAnswer>("/gsm/mv-feeder-groups", body, opts),
  updateMvFeederGroup: (id: string, body: { name: string }) =>
    api.put<MvFeederGroupAnswer>(`/gsm/mv-feeder-groups/${id}`, body, opts),
  deleteMvFeederGroup: (id: string) => api.delete(`/gsm/mv-feeder-groups/${id}`, opts),
  mvTopology: (id: string, signal?: AbortSignal) =>
    api.get<MvTopologyDto>(`/gsm/mv-feeder-groups/${id}/mv-topology`, {
      handleErrors: true,
      ...(signal ? { signal } : {}),
    }),
  setMvTopology: (id: string, feederIds: string[]) =>
    api.put<MvTopologyDto>(
      `/gsm/mv-feeder-groups/${id}/mv-topology`,
      { feeder_ids: feederIds },
      opts,
    ),
  clearMvTopology: (id: string) => api.delete(`/gsm/mv-feeder-groups/${id}/mv-topology`, opts),
  createLvGroup: (body: { mv_feeder_group_id: string; name: string }) =>
    api.post<LvGroupAnswer>("/gsm/lv-groups", body, opts),
  updateLvGroup: (id: string, body: { name: string }) =>
    api.put<LvGroupAnswer>(`/gsm/lv-groups/${id}`, body, opts),
  deleteLvGroup: (id: string) => api.delete(`/gsm/lv-groups/${id}`, opts),
  createNode: (body: NewNodeBody) => api.post<SetupNodeDto>("/gsm/nodes", body, opts),
  updateNode: (id: string, body: NodeUpdateBody) =>
    api.put<SetupNodeDto>(`/gsm/nodes/${id}`, body, opts),
  deleteNode: (id: string) => api.delete<DeletedNodeDto>(`/gsm/nodes/${id}`, opts),
  addFeeder: (nodeId: string, body: FeederBody) =>
    api.post<FeederChangeDto>(`/gsm/nodes/${nodeId}/feeders`, body, opts),
  updateFeeder: (nodeId: string, feederId: string, body: FeederBody) =>
    api.put<FeederChangeDto>(`/gsm/nodes/${nodeId}/feeders/${feederId}`, body, opts),
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
export function uploadMapLayer(file: File): Promise<MapLayerDto> {
  const form = new FormData();
  form.set("file", file);
  return api.post<MapLayerDto>("/gsm/map-layers", form, opts);
}
