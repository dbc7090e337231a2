/**
 * The grid structure for drawing the network on a map (GET
 * /gsm/grid-structure/hv-mv-station-groups, loaded once per screen), and the network built
 * from it with the states the screen knows. Without the structure the map shows its points only.
 */
import { useEffect, useMemo, useState } from "react";
import type { MvTopologyDto, StationGroupDto } from "../../../modules/grid/contract.ts";
import { absoluteApiUrl, api } from "../lib/api.ts";
import type { OnlineBasemap } from "./map-style.ts";
import type { MapState } from "./map-types.ts";
import { buildNetwork, type MapNetwork } from "./network.ts";

export function useGridStructure(): StationGroupDto[] | null {
  const [structure, setStructure] = useState<StationGroupDto[] | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    api.get<StationGroupDto[]>("/gsm/grid-structure/hv-mv-station-groups", {
      signal: controller.signal,
      handleErrors: true,
    }).then(setStructure, () => {
      // The map shows its points without the network.
    });
    return () => controller.abort();
  }, []);
  return structure;
}

/**
 * The network of the structure coloured by `states` (node id -> state); `lv: false` for the MV
 * map (the MV feeders only).
 */
export function useNetwork(
  states: ReadonlyMap<string, MapState> | null,
  options: { lv: boolean },
): MapNetwork | null {
  const structure = useGridStructure();
  const mvOrder = useMvOrder(structure);
  return useMemo(
    () =>
      structure && states
        ? buildNetwork(structure, (id) => states.get(id), { lv: options.lv, mvOrder })
        : null,
    [structure, states, options.lv, mvOrder],
  );
}

/**
 * The saved MV topology of each MV feeder group (GET /gsm/mv-feeder-groups/{id}/mv-topology):
 * its nodes in section order. A group without one (351) is left out.
 */
function useMvOrder(structure: StationGroupDto[] | null): ReadonlyMap<string, string[]> {
  const [order, setOrder] = useState<ReadonlyMap<string, string[]>>(new Map());
  useEffect(() => {
    if (!structure) return;
    const controller = new AbortController();
    const ids = structure.flatMap((s) => s.mv_feeder_groups.map((g) => g.id));
    void Promise.all(
      ids.map((id) =>
        api.get<MvTopologyDto>(`/gsm/mv-feeder-groups/${encodeURIComponent(id)}/mv-topology`, {
          signal: controller.signal,
          handleErrors: true,
        }).then(
          (
            t,
          ) => [id, [...t.sections].sort((a, b) => a.position - b.position).map((s) => s.node.id)],
          () => null,
        )
      ),
    ).then((found) => {
      if (!controller.signal.aborted) {
        setOrder(new Map(found.filter((e): e is [string, string[]] => e !== null)));
      }
    });
    return () => controller.abort();
  }, [structure]);
  return order;
}

/**
 * The customer's online basemap as the map loads it: its tiles through the product's own API
 * (GET /csm/customers/{cid}/map-tiles/{z}/{x}/{y}), so the browser talks to its origin only.
 * Null without one (the bundled offline basemap).
 */
export function onlineBasemap(
  customer: { key: string; map_tiles?: { url: string; attribution: string } | null },
): OnlineBasemap | null {
  if (!customer.map_tiles?.url) return null;
  return {
    url: absoluteApiUrl(
      `/csm/customers/${encodeURIComponent(customer.key)}/map-tiles/{z}/{x}/{y}`,
    ),
    attribution: customer.map_tiles.attribution,
  };
}
