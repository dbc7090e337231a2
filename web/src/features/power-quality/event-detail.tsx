/**
 * One event: start and stop time and phase, duration, extreme value, delta voltage, its EN 50160
 * table cell, its RMS trace as a chart, and its recording: request it from the cell, follow the
 * download status (requested, downloading, downloaded or failed with its code) and download it
 * as a COMTRADE zip (ASCII or binary) or CSV.
 */
import { Download, FileArchive, RefreshCw, X } from "lucide-react";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { saveBlob } from "../../charts/export.ts";
import { api, apiBlob } from "../../lib/api.ts";
import { useAction } from "../../lib/use-action.ts";
import { useAsync } from "../../lib/use-async.ts";
import { useErrorText } from "../../lib/use-error-text.ts";
import { useFormatters } from "../../lib/use-formatters.ts";
import { Badge, type BadgeTone } from "../../ui/badge.tsx";
import { Button } from "../../ui/button.tsx";
import { CodedText } from "../../ui/coded-text.tsx";
import { AsyncState } from "../../ui/loader.tsx";
import { type EventDetail, idKey, RECORDING_FAILURES, type RecordingState } from "./events-data.ts";
import { TraceChart } from "./trace-chart.tsx";

/** How often an open event asks again while its recording is on its way. */
const POLL_MS = 2_000;

const STATUS_TONE: Record<RecordingState["status"], BadgeTone> = {
  REQUESTED: "neutral",
  DOWNLOADING: "warning",
  DOWNLOADED: "ok",
  FAILED: "critical",
};

export function RecordingBadge({ recording }: { recording: RecordingState | null }) {
  const { t } = useTranslation("pq-events");
  if (!recording) return <span className="text-muted-foreground">—</span>;
  return (
    <Badge tone={STATUS_TONE[recording.status]} data-testid="recording-status">
      {t(`recording.status.${recording.status}`)}
      {recording.code ? ` (${recording.code})` : null}
    </Badge>
  );
}

export function EventDetailPanel({ eventKey, onClose, onChanged }: {
  eventKey: string;
  onClose: () => void;
  onChanged: () => void;
}) {
  const { t } = useTranslation("pq-events");
  const format = useFormatters();
  const errorText = useErrorText();
  const load = useAsync(
    (signal) => api.get<EventDetail>(`/pqe/events/${eventKey}`, { signal }),
    [eventKey],
  );
  const recording = load.status === "success" ? load.data.event.recording : null;
  const pending = recording?.status === "REQUESTED" || recording?.status === "DOWNLOADING";
  const { reload } = load;
  useEffect(() => {
    if (!pending) return;
    const timer = setTimeout(() => {
      reload();
      onChanged();
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [pending, reload, onChanged, recording?.updated_at]);

  const request = useAction(async () => {
    await api.post(`/pqe/events/${eventKey}/recording`);
    reload();
    onChanged();
  });
  const download = useAction(async (format: string, extension: string) => {
    const blob = await apiBlob(`/pqe/events/${eventKey}/recording?format=${format}`);
    if (!blob) throw new Error("download failed");
    saveBlob(blob, `event-${eventKey.slice(0, 16)}.${extension}`);
  });

  return (
    <section
      className="flex flex-col gap-3 rounded-md border bg-surface p-4"
      aria-label={t("detail.title")}
      data-testid="event-detail"
    >
      <div className="flex items-center justify-between gap-2">
        <h2 className="text-base font-semibold">{t("detail.title")}</h2>
        <Button variant="ghost" size="icon" aria-label={t("detail.close")} onClick={onClose}>
          <X aria-hidden />
        </Button>
      </div>
      <AsyncState state={load} onRetry={load.reload}>
        {({ event: e, trace, nominal_voltage }) => {
          const rows: [string, string][] = [
            [t("columns.node"), `${e.node_name} · ${e.ew_name}`],
            [t("columns.type"), t(`kinds.${e.kind}`)],
            [t("detail.start"), format.dateTime(e.start) + ` (${e.start.slice(11, 23)} UTC)`],
            [t("detail.stop"), format.dateTime(e.end) + ` (${e.end.slice(11, 23)} UTC)`],
            [t("detail.startPhase"), e.start_phase ?? "—"],
            [t("detail.stopPhase"), e.end_phase ?? "—"],
            [t("columns.duration"), `${format.number(e.duration_ms, 0)} ms`],
            [
              t("columns.extreme"),
              e.extreme_pct === null
                ? "—"
                : `${format.number(e.extreme_pct, 1)} % (${
                  format.number((e.extreme_pct / 100) * nominal_voltage, 1)
                } V)`,
            ],
            [
              t("detail.deltaU"),
              e.delta_u_pct === null ? "—" : `${format.number(e.delta_u_pct, 2)} %`,
            ],
            [
              t("detail.cell"),
              e.table_cell
                ? t("detail.cellText", {
                  table: t(`tables.${e.table_cell.table === "DIP" ? "dips" : "swells"}`),
                  row: t(
                    `tables.${e.table_cell.table === "DIP" ? "dipRows" : "swellRows"}.${
                      idKey(e.table_cell.row)
                    }`,
                  ),
                  column: t(
                    `tables.${e.table_cell.table === "DIP" ? "dipColumns" : "swellColumns"}.${
                      idKey(e.table_cell.column)
                    }`,
                  ),
                })
                : t("detail.noCell"),
            ],
          ];
          const code = e.recording?.status === "FAILED" ? e.recording.code : null;
          const failureKey = code === null
            ? undefined
            : RECORDING_FAILURES[code as keyof typeof RECORDING_FAILURES];
          const failure = code === null
            ? null
            : { text: failureKey ? t(`errors:${failureKey}`) : t("recording.failed"), code };
          return (
            <>
              <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
                {rows.map(([label, value]) => (
                  <div key={label} className="contents">
                    <dt className="text-muted-foreground">{label}</dt>
                    <dd className="tabular">{value}</dd>
                  </div>
                ))}
              </dl>
              {trace
                ? (
                  <TraceChart
                    title={t("detail.traceTitle", { node: e.node_name })}
                    startOffsetMs={Date.parse(trace.start) - Date.parse(e.start)}
                    intervalMs={trace.interval_ms}
                    valuesPct={trace.values_pct}
                    nominalV={nominal_voltage}
                    phase={e.start_phase ?? "L1"}
                  />
                )
                : <p className="text-sm text-muted-foreground">{t("detail.noTrace")}</p>}
              <div className="flex flex-col gap-2 border-t pt-3">
                <div className="flex flex-wrap items-center gap-2">
                  <span className="text-sm font-medium">{t("recording.title")}</span>
                  <RecordingBadge recording={e.recording} />
                  {pending ? <RefreshCw aria-hidden className="size-4 animate-spin" /> : null}
                </div>
                {failure
                  ? (
                    <p className="text-sm text-state-critical" role="alert">
                      <CodedText text={failure.text} code={failure.code} />
                    </p>
                  )
                  : null}
                <div className="flex flex-wrap gap-2">
                  {e.recording?.status !== "DOWNLOADED"
                    ? (
                      <Button
                        size="sm"
                        disabled={pending || request.busy}
                        onClick={() => void request.run()}
                      >
                        <Download aria-hidden />
                        {e.recording?.status === "FAILED"
                          ? t("recording.retry")
                          : t("recording.request")}
                      </Button>
                    )
                    : (
                      <>
                        <Button
                          size="sm"
                          onClick={() => void download.run("comtrade-ascii", "zip")}
                        >
                          <FileArchive aria-hidden />
                          {t("recording.comtradeAscii")}
                        </Button>
                        <Button
                          size="sm"
                          variant="secondary"
                          onClick={() => void download.run("comtrade-binary", "zip")}
                        >
                          <FileArchive aria-hidden />
                          {t("recording.comtradeBinary")}
                        </Button>
                        <Button
                          size="sm"
                          variant="secondary"
                          onClick={() => void download.run("csv", "csv")}
                        >
                          <Download aria-hidden />
                          {t("recording.csv")}
                        </Button>
                      </>
                    )}
                </div>
                {request.error
                  ? (
                    <p className="text-sm text-state-critical" role="alert">
                      <CodedText {...errorText(request.error)} />
                    </p>
                  )
                  : null}
                {download.error
                  ? (
                    <p className="text-sm text-state-critical" role="alert">
                      {t("recording.downloadFailed")}
                    </p>
                  )
                  : null}
              </div>
            </>
          );
        }}
      </AsyncState>
    </section>
  );
}
