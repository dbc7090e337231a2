/**
 * One electrical work in IO monitoring: its cells' active modules with each channel's state
 * (digital: On/Off with icon and since-time) or value (analog, with unit), and the history of
 * the period as step charts (digital) and curves (analog) from
 * GET /iom/electrical-works/{key}/history.
 */
import { CircleHelp, CircleMinus, Clock, ToggleLeft, ToggleRight } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { compareColor, TimeChart } from "../../charts/mod.ts";
import { api } from "../../lib/api.ts";
import { useErrorText } from "../../lib/use-error-text.ts";
import { useFormatters } from "../../lib/use-formatters.ts";
import { REFRESH_MS, useLiveLoad } from "../../lib/use-live-load.ts";
import { cn } from "../../ui/cn.ts";
import { Badge, type BadgeTone } from "../../ui/badge.tsx";
import { HeadCell, Table, TableBody, TableHead } from "../../ui/table.tsx";
import { Loader, LoadError } from "../../ui/loader.tsx";
import { SegmentedControl } from "../../ui/segmented-control.tsx";
import {
  hasValues,
  type IoChannel,
  type IoElectricalWork,
  type IoHistory,
  type IoModule,
  isStale,
  isUnused,
  type Period,
  periodRange,
  PERIODS,
  stepData,
} from "./io-data.ts";

type DigitalState = "ON" | "OFF" | "NONE";
const LOOK: Record<DigitalState, { tone: BadgeTone; icon: ReactNode }> = {
  ON: { tone: "warning", icon: <ToggleRight aria-hidden /> },
  OFF: { tone: "neutral", icon: <ToggleLeft aria-hidden /> },
  NONE: { tone: "neutral", icon: <CircleHelp aria-hidden /> },
};

function StateBadge({ state }: { state: DigitalState }) {
  const { t } = useTranslation("io-monitoring");
  return (
    <Badge tone={LOOK[state].tone} icon={LOOK[state].icon} className="[&_svg]:size-4">
      {t(`states.${state}`)}
    </Badge>
  );
}

export function IoWorkDetail(
  { work, period, onPeriod }: {
    work: IoElectricalWork;
    period: Period;
    onPeriod: (p: Period) => void;
  },
) {
  const { t } = useTranslation(["io-monitoring", "infrastructure"]);
  const format = useFormatters();
  return (
    <article className="flex flex-col gap-4" aria-labelledby="io-work-title">
      <header className="flex flex-wrap items-baseline justify-between gap-2">
        <div>
          <h2 id="io-work-title" className="text-base font-semibold">{work.name}</h2>
          <p className="text-xs text-muted-foreground">
            {t(`infrastructure:electricalWorkTypes.${work.type}`)}
          </p>
        </div>
      </header>
      {work.cells.map((cell) => (
        <section
          key={cell.cell_id}
          aria-label={`${t("node")} ${cell.node_name}`}
          className="flex flex-col gap-2"
        >
          <p className="flex flex-wrap items-center gap-x-1 text-xs text-muted-foreground">
            {t("node")} <span className="font-medium text-foreground">{cell.node_name}</span>
            {" · "}
            {t("cell")} <span className="tabular font-medium text-foreground">{cell.cell_id}</span>
            {" · "}
            <span className="whitespace-nowrap">
              {cell.last_data_at
                ? t("lastData", { time: format.dateTime(cell.last_data_at) })
                : t("noDataYet")}
            </span>
            {isStale(cell.last_data_at, Date.now())
              ? (
                <Badge
                  tone="warning"
                  icon={<Clock aria-hidden />}
                  className="ml-1"
                  data-testid="cell-stale"
                >
                  {t("cellStale")}
                </Badge>
              )
              : null}
          </p>
          <div className="grid gap-3 md:grid-cols-2 2xl:grid-cols-3">
            {cell.modules.map((m) => <ModuleCard key={m.slot} module={m} />)}
          </div>
        </section>
      ))}
      <History work={work} period={period} onPeriod={onPeriod} />
    </article>
  );
}

function ModuleCard({ module: m }: { module: IoModule }) {
  const { t } = useTranslation(["io-monitoring", "cells"]);
  const format = useFormatters();
  const now = Date.now();
  const analog = m.module_type === "ANALOG_INPUT";
  return (
    <section
      aria-label={`${t("module", { slot: m.slot })} ${m.name}`}
      className="rounded-lg border bg-surface"
    >
      <header className="border-b px-3 py-2">
        <h3 className="text-sm font-semibold">
          <span className="text-muted-foreground">{t("module", { slot: m.slot })}</span>
          {" · "}
          {m.name}
        </h3>
        <p className="text-xs text-muted-foreground">
          {[
            t(`cells:io.types.${m.module_type}`),
            t(`cells:io.systemTypes.${m.system_type}`, { defaultValue: m.system_type }),
            t("cells:io.channels", { count: m.size }),
            t("resolution", { value: format.number(m.resolution) }),
            ...(m.scale
              ? [
                t("scale", {
                  min: format.number(m.scale.min),
                  max: format.number(m.scale.max),
                  unit: m.scale.unit,
                }),
              ]
              : []),
          ].join(" · ")}
        </p>
      </header>
      <Table>
        <TableHead>
          <tr>
            <HeadCell className="px-3 font-normal first:pl-3">{t("columns.channel")}</HeadCell>
            <HeadCell numeric={analog} className="px-3 font-normal">
              {analog ? t("columns.value") : t("columns.state")}
            </HeadCell>
            <HeadCell className="px-3 font-normal last:pr-3">{t("columns.time")}</HeadCell>
          </tr>
        </TableHead>
        <TableBody>
          {m.channels.map((c) => (
            <tr key={c.channel} className="border-t">
              <th scope="row" className="px-3 py-1.5 text-left font-normal tabular">
                {c.channel}
              </th>
              <td className={cn("px-3 py-1.5", analog && "text-right tabular")}>
                {isUnused(c)
                  ? <Unused />
                  : analog
                  ? <AnalogValue channel={c} module={m} />
                  : (
                    <StateBadge
                      state={c.value === null ? "NONE" : c.value === 1 ? "ON" : "OFF"}
                    />
                  )}
              </td>
              <td className="px-3 py-1.5 text-xs whitespace-nowrap text-muted-foreground tabular">
                <span className="inline-flex items-center gap-1">
                  {(analog ? c.at : c.since) ? format.dateTime((analog ? c.at : c.since)!) : null}
                  {isStale(c.at, now)
                    ? (
                      <span title={t("stale")} className="inline-flex text-state-warning">
                        <Clock aria-hidden className="size-3.5" />
                        <span className="sr-only">{t("stale")}</span>
                      </span>
                    )
                    : null}
                </span>
              </td>
            </tr>
          ))}
        </TableBody>
      </Table>
    </section>
  );
}

/** A channel that sent nothing in the last 2 days. */
function Unused() {
  const { t } = useTranslation("io-monitoring");
  return (
    <Badge
      tone="neutral"
      icon={<CircleMinus aria-hidden />}
      title={t("unusedHint")}
      className="opacity-80 [&_svg]:size-4"
      data-testid="channel-unused"
    >
      {t("unused")}
    </Badge>
  );
}

/**
 * An analog value: the measured quantity in the module's unit when it has a measuring range
 * (the signal in small print beside it), else the signal.
 */
function AnalogValue({ channel, module: m }: { channel: IoChannel; module: IoModule }) {
  const format = useFormatters();
  if (channel.value === null) return <StateBadge state="NONE" />;
  if (m.scale && channel.scaled !== null) {
    return (
      <span className="inline-flex items-baseline justify-end gap-1.5" data-testid="analog-value">
        <span className="font-medium">
          {format.number(channel.scaled)}{" "}
          <span className="text-muted-foreground">{m.scale.unit}</span>
        </span>
        <small className="text-xs text-muted-foreground">
          {format.number(channel.value)} {m.unit}
        </small>
      </span>
    );
  }
  return (
    <span className="font-medium" data-testid="analog-value">
      {format.number(channel.value)} <span className="text-muted-foreground">{m.unit}</span>
    </span>
  );
}

function History(
  { work, period, onPeriod }: {
    work: IoElectricalWork;
    period: Period;
    onPeriod: (p: Period) => void;
  },
) {
  const { t } = useTranslation("io-monitoring");
  const errorText = useErrorText();
  // Refreshed in place every 30 s: the charts stay while the next answer loads.
  const load = useLiveLoad(
    (signal) =>
      api.get<IoHistory>(`/iom/electrical-works/${encodeURIComponent(work.key)}/history`, {
        query: periodRange(period, Date.now()),
        signal,
        handleErrors: true,
      }),
    `${work.key}|${period}`,
    REFRESH_MS,
  );
  const data = load.data;
  return (
    <section aria-labelledby="io-history-title" className="flex flex-col gap-3">
      <header className="flex flex-wrap items-center justify-between gap-2 border-t pt-3">
        <h3 id="io-history-title" className="text-sm font-semibold">
          {t("historyOf", { name: work.name })}
        </h3>
        <SegmentedControl
          label={t("period.label")}
          value={period}
          options={PERIODS.map((p) => ({ value: p, label: t(`period.${p}`) }))}
          onChange={onPeriod}
        />
      </header>
      {data
        ? <HistoryBody data={data} />
        : load.error
        ? <HistoryError error={load.error} onRetry={load.refresh} errorText={errorText} />
        : <Loader />}
    </section>
  );
}

function HistoryError(
  { error, onRetry, errorText }: {
    error: unknown;
    onRetry: () => void;
    errorText: ReturnType<typeof useErrorText>;
  },
) {
  const e = errorText(error);
  return e.code === undefined
    ? <LoadError message={e.text} onRetry={onRetry} />
    : <LoadError message={e.text} code={e.code} onRetry={onRetry} />;
}

function HistoryBody({ data }: { data: IoHistory }) {
  const { t } = useTranslation("io-monitoring");
  const digital = data.digital.filter((d) => d.points.some((p) => p.value !== null));
  const analog = data.analog.filter((a) => hasValues(a.mean));
  const silent = [
    ...data.digital.filter((d) => !digital.includes(d)),
    ...data.analog.filter((a) => !analog.includes(a)),
  ];
  const aggregated = data.resolution !== "20s";
  return (
    <div className="flex flex-col gap-4">
      {digital.length
        ? (
          <div className="flex flex-col gap-2">
            <h4 className="text-xs font-semibold text-muted-foreground uppercase">
              {t("digital")}
            </h4>
            <div className="grid gap-3 xl:grid-cols-2">
              {digital.map((d, k) => {
                const title = t("chartTitle", { module: d.module_name, channel: d.channel });
                const step = stepData(d.points, Date.parse(data.from), Date.parse(data.to));
                return (
                  <figure
                    key={`${d.cell_id}-${d.slot}-${d.channel}`}
                    className="rounded-lg border bg-surface p-2"
                  >
                    <figcaption className="px-1 text-sm font-medium">{title}</figcaption>
                    <TimeChart
                      title={title}
                      times={step.times}
                      series={[{
                        label: title,
                        unit: "",
                        scale: "state",
                        color: compareColor(k),
                        values: step.values,
                        formatValue: (v) =>
                          v === 0 ? t("states.OFF") : v === 1 ? t("states.ON") : null,
                      }]}
                      step
                      yRange={[-0.1, 1.1]}
                      height={150}
                    />
                  </figure>
                );
              })}
            </div>
          </div>
        )
        : null}
      {analog.length
        ? (
          <div className="flex flex-col gap-2">
            <h4 className="text-xs font-semibold text-muted-foreground uppercase">
              {t("analog")}
            </h4>
            <p className="text-xs text-muted-foreground">
              {t(`resolutionNote.${data.resolution}`)}
            </p>
            {analog.map((a) => {
              const title = t("chartTitle", { module: a.module_name, channel: a.channel });
              return (
                <figure
                  key={`${a.cell_id}-${a.slot}-${a.channel}`}
                  className="rounded-lg border bg-surface p-2"
                >
                  <figcaption className="px-1 text-sm font-medium">{title}</figcaption>
                  <TimeChart
                    title={title}
                    times={data.times}
                    series={[
                      { label: t("mean"), unit: a.unit, color: compareColor(0), values: a.mean },
                      ...(aggregated
                        ? [
                          { label: t("min"), unit: a.unit, color: compareColor(12), values: a.min },
                          { label: t("max"), unit: a.unit, color: compareColor(1), values: a.max },
                        ]
                        : []),
                    ]}
                    height={240}
                  />
                </figure>
              );
            })}
          </div>
        )
        : null}
      {silent.length
        ? (
          <p className="text-sm text-muted-foreground">
            {t("noHistory")}{" "}
            {silent.map((s) => t("chartTitle", { module: s.module_name, channel: s.channel }))
              .join(", ")}
          </p>
        )
        : null}
    </div>
  );
}
