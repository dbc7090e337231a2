import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../../lib/api.ts";
import { useLiveLoad } from "../../lib/use-live-load.ts";
import { type ChartSeries, PHASE_COLORS, TimeChart } from "../../charts/mod.ts";
import { Loader, LoadError } from "../../ui/loader.tsx";
import { CUSTOM_BASE as BASE, LIVE_MS } from "./custom-shared.ts";
import type { CustomRequest, NodeDetail, RequestValues } from "./grid-types.ts";
import { alignPhases } from "./logic.ts";

export /** The 20-s values of the running request, refreshed every 20 s. */
function RunningValues({ request, node }: { request: CustomRequest; node: NodeDetail }) {
  const { t } = useTranslation("grid-monitoring");
  const values = useLiveLoad<RequestValues>(
    (signal) => api.get(`${BASE}/requests/${request.id}/values`, { signal, handleErrors: true }),
    request.id,
    LIVE_MS,
  );
  const feeder = values.data?.feeders[0];
  const chart = useMemo(() => {
    if (!feeder) return null;
    const { times, currents } = alignPhases(feeder.phases);
    return {
      times,
      series: feeder.phases.map((p, k): ChartSeries => ({
        label: `${p.phase} I`,
        unit: "A",
        color: PHASE_COLORS[p.phase],
        values: currents[k]!,
      })),
    };
  }, [feeder]);
  if (!values.data) return values.error ? <LoadError onRetry={values.refresh} /> : <Loader />;
  if (!chart || chart.times.length === 0) {
    return <p className="text-sm text-muted-foreground">{t("custom.waitingValues")}</p>;
  }
  return (
    <TimeChart
      title={`${node.name} ${feeder!.name} ${t("custom.title")}`}
      times={chart.times}
      series={chart.series}
      height={180}
    />
  );
}
