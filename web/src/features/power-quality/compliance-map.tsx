/**
 * The grid compliance on the map (beyond the spec): every node of the week at its place,
 * coloured by its EN 50160 verdict (passed, not passed, not evaluable), its failing parameters in
 * the popup; a click on a node opens (or makes) its report of that week.
 */
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { useAsync } from "../../lib/use-async.ts";
import { LazyGridMap } from "../../map/lazy-grid-map.tsx";
import type { MapPoint } from "../../map/map-types.ts";
import { AsyncState } from "../../ui/loader.tsx";
import type { ComplianceVerdict } from "../../../../modules/power_quality/auto/contract.ts";
import { autoApi, type ComplianceMapNodeDto } from "./pq-auto-api.ts";
import { hasVerdict, verdictState } from "./map-states.ts";

export function ComplianceMap({ week, verdict, onOpen }: {
  week: string | undefined;
  verdict: ComplianceVerdict;
  /** A node was clicked: open its report of the week. */
  onOpen: (node: ComplianceMapNodeDto, from: string, label: string) => void;
}) {
  const { t } = useTranslation(["pq-auto", "infrastructure"]);
  const load = useAsync((signal) => autoApi.complianceMap(week, signal), [week]);
  const answer = load.status === "success" ? load.data : null;
  const points = useMemo<MapPoint[]>(
    () =>
      (answer?.nodes ?? []).filter((n) => hasVerdict(n.passed, verdict)).map((n) => ({
        id: n.node_id,
        kind: "node",
        name: n.node_name,
        latitude: n.latitude,
        longitude: n.longitude,
        state: verdictState(n.passed),
        detail: n.passed === false
          ? `${t("verdicts.NOT_PASSED")}: ${
            n.failed.map((p) => t(`parameters.${p}`, { defaultValue: p })).join(", ")
          }`
          : t(n.passed ? "verdicts.PASSED" : "verdicts.NONE"),
        workName: n.ew_name,
      })),
    [answer, verdict, t],
  );
  return (
    <AsyncState state={load} onRetry={load.reload}>
      {(data) => (
        <LazyGridMap
          className="min-h-[28rem]"
          label={t("mapLabel")}
          unavailableText={t("infrastructure:view.mapUnavailable")}
          points={points}
          legend={[
            { state: "ok", label: t("verdicts.PASSED") },
            { state: "critical", label: t("verdicts.NOT_PASSED") },
            { state: "unknown", label: t("verdicts.NONE") },
          ]}
          onSelect={(id) => {
            const node = data.nodes.find((n) => n.node_id === id);
            if (node && data.week) onOpen(node, data.week.from, data.week.label);
          }}
        />
      )}
    </AsyncState>
  );
}
