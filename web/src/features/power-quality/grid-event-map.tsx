/**
 * A time-correlated grid event on the map (beyond the spec): each node that saw it at its place,
 * coloured by the depth of its event (warning below 40 %, critical from 40 %, grey without a
 * depth) and named with that depth; a click on a node opens its event.
 */
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { useFormatters } from "../../lib/use-formatters.ts";
import { LazyGridMap } from "../../map/lazy-grid-map.tsx";
import type { MapPoint } from "../../map/map-types.ts";
import { DEEP_PCT, depthState } from "./map-states.ts";
import type { GridEventDto } from "../../../../modules/voltage_events/contract.ts";

export function GridEventMap({ event, onOpen }: {
  event: GridEventDto;
  /** A node was clicked: open its event (by key). */
  onOpen: (key: string) => void;
}) {
  const { t } = useTranslation(["pq-events", "infrastructure"]);
  const format = useFormatters();
  const points = useMemo<MapPoint[]>(
    () =>
      event.nodes.map((n) => ({
        id: n.key,
        kind: "node",
        name: n.depth_pct === null
          ? n.node_name
          : t("grid.nodeDepth", { node: n.node_name, depth: format.number(n.depth_pct, 1) }),
        latitude: n.latitude,
        longitude: n.longitude,
        state: depthState(n.depth_pct),
        detail: `${t(`kinds.${n.kind}`, { defaultValue: n.kind })} · ${format.dateTime(n.start)}`,
      })),
    [event, t, format],
  );
  return (
    <div data-testid="grid-event-map" data-event={event.start}>
      <LazyGridMap
        className="min-h-80"
        label={t("grid.mapLabel", { time: format.dateTime(event.start) })}
        unavailableText={t("infrastructure:view.mapUnavailable")}
        points={points}
        legend={[
          { state: "warning", label: t("grid.shallow", { depth: DEEP_PCT }) },
          { state: "critical", label: t("grid.deep", { depth: DEEP_PCT }) },
          { state: "unknown", label: t("grid.noDepth") },
        ]}
        onSelect={onOpen}
      />
    </div>
  );
}
