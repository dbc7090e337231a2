/**
 * Custom monitoring of one node (spec 1, 4, 9): start now for a duration of the manual list
 * (until stopped for admins), stop now, the node's requests with their status, the running
 * request's 20-s values, and the automatic trigger that covers the node (read-only here).
 */
import { Link } from "@tanstack/react-router";
import { Play, Settings2, Square } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../../lib/api.ts";
import { useErrorText } from "../../lib/use-error-text.ts";
import { useFormatters } from "../../lib/use-formatters.ts";
import { useAction } from "../../lib/use-action.ts";
import { useLiveLoad } from "../../lib/use-live-load.ts";
import { Button } from "../../ui/button.tsx";
import { Label } from "../../ui/label.tsx";
import { Loader, LoadError } from "../../ui/loader.tsx";
import { Notice } from "../../ui/notice.tsx";
import { Select } from "../../ui/select.tsx";
import { CUSTOM_BASE as BASE, LIVE_MS, useDurationText } from "./custom-shared.ts";
import {
  type CustomRequest,
  MANUAL_DURATIONS,
  type NodeDetail,
  type Trigger,
} from "./grid-types.ts";
import { RequestsTable } from "./requests-table.tsx";
import { RunningValues } from "./running-values.tsx";

export { useDurationText };

const UNTIL_STOPPED = "until-stopped";

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

  // Start or stop; the list shows the outcome either way.
  const action = useAction(async (call: () => Promise<unknown>) => {
    try {
      await call();
    } finally {
      requests.refresh();
    }
  });
  const act = (call: () => Promise<unknown>) => action.run(call);
  const busy = action.busy;

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

      {action.error
        ? (
          <Notice tone="critical" code={errorText(action.error).code}>
            {errorText(action.error).text}
          </Notice>
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
          : <RequestsTable requests={requests.data} feeders={node.feeders} />}
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
