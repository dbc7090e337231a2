/**
 * Custom monitoring of one node (spec 1, 4, 9): start now for a duration of the manual list
 * (until stopped for admins), stop now, the node's requests with their status, the running
 * request's 20-s values, and the automatic trigger that covers the node (read-only here).
 */
import { Link } from "@tanstack/react-router";
import { Play, Settings2, Square } from "lucide-react";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../../lib/api.ts";
import { useErrorText } from "../../lib/use-error-text.ts";
import { useFormatters } from "../../lib/use-formatters.ts";
import { type ChartSeries, PHASE_COLORS, TimeChart } from "../../charts/mod.ts";
import { Button } from "../../ui/button.tsx";
import { cn } from "../../ui/cn.ts";
import { Label } from "../../ui/label.tsx";
import { Loader, LoadError } from "../../ui/loader.tsx";
import { Select } from "../../ui/select.tsx";
import {
  type CustomRequest,
  MANUAL_DURATIONS,
  type NodeDetail,
  type RequestStatus,
  type RequestValues,
  type Trigger,
} from "./grid-types.ts";
import { alignPhases } from "./logic.ts";
import { useLiveLoad } from "../../lib/use-live-load.ts";

const BASE = "/evm/custom-monitoring";
const UNTIL_STOPPED = "until-stopped";
/** Requests and the running request's values follow the cell's 20-s values. */
const LIVE_MS = 20_000;

const STATUS_LOOK: Record<RequestStatus, string> = {
  RUNNING: "bg-state-ok-soft text-state-ok",
  STOPPED: "bg-state-offline-soft text-state-offline",
  FINISHED: "bg-surface-muted text-muted-foreground",
};

/** A duration in minutes as "45 min" or "3 h". */
export function useDurationText(): (minutes: number | null) => string {
  const { t } = useTranslation("grid-monitoring");
  return (m) =>
    m === null
      ? t("custom.untilStopped")
      : m >= 60 && m % 60 === 0
      ? t("custom.hours", { count: m / 60 })
      : t("custom.minutes", { count: m });
}

export function CustomMonitoringSection(
  { node, admin, live }: {
    node: NodeDetail;
    admin: boolean;
    /** Auto run mode: the requests refresh on their own (always while one is running). */
    live: boolean;
  },
) {
  const { t } = useTranslation("grid-monitoring");
  const format = useFormatters();
  const errorText = useErrorText();
  const durationText = useDurationText();
  const [duration, setDuration] = useState("10");
  const [feeder, setFeeder] = useState("all");
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<{ text: string; code?: number } | null>(null);

  const [polling, setPolling] = useState(live);
  const requests = useLiveLoad<CustomRequest[]>(
    (signal) =>
      api.get(`${BASE}/requests`, {
        query: { node_id: node.id, limit: 8 },
        signal,
        handleErrors: true,
      }),
    node.id,
    polling ? LIVE_MS : null,
  );
  const triggers = useLiveLoad<Trigger[]>(
    (signal) => api.get(`${BASE}/triggers`, { signal, handleErrors: true }),
    "triggers",
    null,
  );
  const running = requests.data?.find((r) => r.status === "RUNNING") ?? null;
  const shouldPoll = live || running !== null;
  if (shouldPoll !== polling) setPolling(shouldPoll);
  const own = triggers.data?.find((tr) => tr.node_id === node.id && tr.enabled) ??
    triggers.data?.find((tr) => tr.node_id === node.id);
  const customerWide = triggers.data?.find((tr) => tr.node_id === null && tr.enabled);
  const trigger = own?.enabled ? own : customerWide ?? own;

  const durations = [
    ...MANUAL_DURATIONS.map((m) => ({ value: String(m), label: durationText(m) })),
    ...(admin ? [{ value: UNTIL_STOPPED, label: durationText(null) }] : []),
  ];

  async function act(action: () => Promise<unknown>) {
    setBusy(true);
    setFailure(null);
    try {
      await action();
    } catch (error) {
      setFailure(errorText(error));
    } finally {
      setBusy(false);
      requests.refresh();
    }
  }

  return (
    <section className="flex flex-col gap-3 rounded-md border p-3" data-testid="custom-monitoring">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 className="text-sm font-semibold">{t("custom.title")}</h3>
        <p className="text-xs text-muted-foreground">{t("custom.description")}</p>
      </div>

      {running
        ? (
          <div className="flex flex-wrap items-center gap-3 rounded-md bg-state-ok-soft px-3 py-2 text-sm">
            <span className="font-medium text-state-ok">
              {t("custom.runningSince", {
                time: format.dateTime(running.started_at),
              })}
            </span>
            <span className="text-xs text-muted-foreground">
              {running.ends_at
                ? t("custom.endsAt", { time: format.dateTime(running.ends_at) })
                : t("custom.untilStopped")}
            </span>
            <Button
              className="ml-auto"
              variant="danger"
              size="sm"
              disabled={busy || (running.duration_min === null && !admin)}
              onClick={() =>
                void act(() =>
                  api.post(`${BASE}/requests/${running.id}/stop`, undefined, { handleErrors: true })
                )}
            >
              <Square aria-hidden />
              {t("custom.stop")}
            </Button>
          </div>
        )
        : (
          <form
            className="flex flex-wrap items-end gap-2"
            onSubmit={(e) => {
              e.preventDefault();
              void act(() =>
                api.post(`${BASE}/requests`, {
                  node_id: node.id,
                  feeder_id: feeder === "all" ? null : feeder,
                  duration_min: duration === UNTIL_STOPPED ? null : Number(duration),
                }, { handleErrors: true })
              );
            }}
          >
            <div className="flex flex-col gap-1">
              <Label htmlFor={`cm-duration-${node.id}`} className="text-xs">
                {t("custom.duration")}
              </Label>
              <Select
                id={`cm-duration-${node.id}`}
                className="w-40"
                value={duration}
                onValueChange={setDuration}
                options={durations}
              />
            </div>
            {node.feeders.length > 1
              ? (
                <div className="flex flex-col gap-1">
                  <Label htmlFor={`cm-feeder-${node.id}`} className="text-xs">
                    {t("detail.feeder")}
                  </Label>
                  <Select
                    id={`cm-feeder-${node.id}`}
                    className="w-44"
                    value={feeder}
                    onValueChange={setFeeder}
                    options={[
                      { value: "all", label: t("custom.allFeeders") },
                      ...node.feeders.map((f) => ({ value: f.id, label: f.name })),
                    ]}
                  />
                </div>
              )
              : null}
            <Button type="submit" disabled={busy}>
              <Play aria-hidden />
              {t("custom.start")}
            </Button>
          </form>
        )}

      {failure
        ? (
          <p
            role="alert"
            className="rounded-md bg-state-critical-soft px-3 py-2 text-sm text-state-critical"
          >
            {failure.text}
            {failure.code !== undefined
              ? <small className="ml-2 text-xs opacity-80">({failure.code})</small>
              : null}
          </p>
        )
        : null}

      {running ? <RunningValues request={running} node={node} /> : null}

      <div className="flex flex-col gap-1">
        <h4 className="text-xs font-semibold text-muted-foreground">{t("custom.requests")}</h4>
        {!requests.data
          ? requests.error
            ? <LoadError onRetry={requests.refresh} />
            : <Loader className="min-h-12" />
          : requests.data.length === 0
          ? <p className="text-sm text-muted-foreground">{t("custom.noRequests")}</p>
          : (
            <table className="w-full text-sm" data-testid="custom-requests">
              <thead className="text-xs text-muted-foreground">
                <tr className="border-b">
                  <th scope="col" className="py-1 pr-2 text-left">{t("custom.started")}</th>
                  <th scope="col" className="py-1 pr-2 text-left">{t("custom.kind")}</th>
                  <th scope="col" className="py-1 pr-2 text-right">{t("custom.duration")}</th>
                  <th scope="col" className="py-1 text-right">{t("custom.status")}</th>
                </tr>
              </thead>
              <tbody>
                {requests.data.map((r) => (
                  <tr key={r.id} className="border-b last:border-0">
                    <td className="tabular py-1 pr-2">{format.dateTime(r.started_at)}</td>
                    <td className="py-1 pr-2">{t(`custom.kinds.${r.kind}`)}</td>
                    <td className="tabular py-1 pr-2 text-right">{durationText(r.duration_min)}</td>
                    <td className="py-1 text-right">
                      <span
                        className={cn(
                          "inline-flex rounded-full px-2 py-0.5 text-xs font-medium",
                          STATUS_LOOK[r.status],
                        )}
                        data-testid="request-status"
                      >
                        {t(`custom.statuses.${r.status}`)}
                      </span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
      </div>

      <div className="flex flex-wrap items-center gap-2 border-t pt-2 text-xs text-muted-foreground">
        <span data-testid="node-trigger">
          {trigger
            ? t(trigger.node_id === null ? "custom.triggerCustomer" : "custom.triggerNode", {
              state: t(trigger.enabled ? "custom.enabled" : "custom.disabled"),
              lv: format.number(trigger.delta_lv_a),
              mv: format.number(trigger.delta_mv_a),
              duration: durationText(trigger.duration_min),
            })
            : t("custom.triggerNone")}
        </span>
        {trigger?.last_fire
          ? (
            <span>
              {t(
                trigger.last_fire.status === "FAILURE"
                  ? "custom.lastFireFailure"
                  : "custom.lastFireStarted",
                { time: format.dateTime(trigger.last_fire.at) },
              )}
            </span>
          )
          : null}
        {admin
          ? (
            <Button asChild variant="link" size="sm" className="ml-auto h-auto p-0">
              <Link to="/grid-monitoring-settings">
                <Settings2 aria-hidden />
                {t("custom.triggerSettings")}
              </Link>
            </Button>
          )
          : null}
      </div>
    </section>
  );
}

/** The 20-s values of the running request, refreshed every 20 s. */
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
