/**
 * One report: what was asked, its status and progress (refreshed every 2 s while it runs), the
 * failure with its code, and once completed the result per feeder: data availability, the weeks
 * and the summary per parameter and phase, with the PDF and CSV downloads; cancel and delete.
 */
import { Download, X } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useAction } from "../../lib/use-action.ts";
import { useErrorText } from "../../lib/use-error-text.ts";
import { useFormatters } from "../../lib/use-formatters.ts";
import { liveState, REFRESH_MS, useLiveLoad } from "../../lib/use-live-load.ts";
import { ConfirmDialog } from "../../ui/alert-dialog.tsx";
import { Button } from "../../ui/button.tsx";
import { AsyncState } from "../../ui/loader.tsx";
import { Notice } from "../../ui/notice.tsx";
import { Cell, HeadCell, Row, Table, TableBody, TableHead } from "../../ui/table.tsx";
import {
  type FeederSummaryDto,
  type ParameterSummaryDto,
  pqApi,
  type ReportDetailDto,
  saveBlob,
} from "./pq-reports-api.ts";
import { ResultBadge, StatusBadge } from "./report-badges.tsx";

const RUNNING_REFRESH_MS = 2_000;

export function ReportDetail(
  { reportKey, onClose, onChanged }: {
    reportKey: string;
    onClose: () => void;
    onChanged: (deleted: boolean) => void;
  },
) {
  const { t } = useTranslation("pq-reports");
  const [running, setRunning] = useState(true);
  const load = useLiveLoad(
    async (signal) => {
      const report = await pqApi.get(reportKey, signal);
      setRunning(report.status === "IN_PROGRESS" || report.status === "SCHEDULED");
      return report;
    },
    reportKey,
    running ? RUNNING_REFRESH_MS : REFRESH_MS,
  );
  return (
    <section
      className="flex min-w-0 flex-col gap-3 rounded-lg border bg-surface p-4"
      data-testid="pq-detail"
      aria-label={t("columns.name")}
    >
      <AsyncState state={liveState(load)} onRetry={load.refresh}>
        {(report) => (
          <Detail
            report={report}
            onClose={onClose}
            onChanged={(deleted) => {
              load.refresh();
              onChanged(deleted);
            }}
          />
        )}
      </AsyncState>
    </section>
  );
}

function Detail(
  { report, onClose, onChanged }: {
    report: ReportDetailDto;
    onClose: () => void;
    onChanged: (deleted: boolean) => void;
  },
) {
  const { t } = useTranslation(["pq-reports", "errors"]);
  const format = useFormatters();
  const errorText = useErrorText();
  const [confirm, setConfirm] = useState<"cancel" | "delete" | null>(null);
  const [downloadFailed, setDownloadFailed] = useState(false);
  const action = useAction(async (kind: "cancel" | "delete") => {
    if (kind === "cancel") await pqApi.cancel(report.key);
    else await pqApi.remove(report.key);
    setConfirm(null);
    onChanged(kind === "delete");
  });
  const download = async (kind: "pdf" | "csv") => {
    const blob = await pqApi.file(report.key, kind);
    setDownloadFailed(!blob);
    if (blob) saveBlob(blob, `${report.name}.${kind}`);
  };
  const actionError = action.error ? errorText(action.error) : null;
  const running = report.status === "SCHEDULED" || report.status === "IN_PROGRESS";
  return (
    <>
      <header className="flex items-start justify-between gap-2">
        <div className="min-w-0">
          <h2 className="truncate text-base font-semibold">{report.name}</h2>
          <p className="text-xs text-muted-foreground">
            {report.ew_name} / {report.node_name} · {report.feeders.map((f) => f.name).join(", ")}
          </p>
          <p className="text-xs text-muted-foreground">
            {format.dateTime(report.start)} – {format.dateTime(report.end)} · {report.limit_set} ·
            {" "}
            {t(`languages.${report.language}`)}
          </p>
        </div>
        <Button variant="ghost" size="icon" aria-label={t("detail.close")} onClick={onClose}>
          <X aria-hidden />
        </Button>
      </header>
      <div className="flex flex-wrap items-center gap-2">
        <StatusBadge report={report} />
        {report.result ? <ResultBadge passed={report.result} /> : null}
        <span className="flex-1" />
        {report.status === "COMPLETED"
          ? (
            <>
              <Button size="sm" variant="secondary" onClick={() => void download("pdf")}>
                <Download aria-hidden />
                {t("detail.downloadPdf")}
              </Button>
              <Button size="sm" variant="secondary" onClick={() => void download("csv")}>
                <Download aria-hidden />
                {t("detail.downloadCsv")}
              </Button>
            </>
          )
          : null}
        {running
          ? (
            <Button size="sm" variant="secondary" onClick={() => setConfirm("cancel")}>
              {t("detail.cancelReport")}
            </Button>
          )
          : (
            <Button size="sm" variant="danger" onClick={() => setConfirm("delete")}>
              {t("detail.delete")}
            </Button>
          )}
      </div>
      {report.failure
        ? (
          <Notice tone="critical" code={report.failure.code ?? undefined}>
            {t("detail.failure")}: {t(`errors:${report.failure.key}`, report.failure.params)}
          </Notice>
        )
        : null}
      {actionError
        ? <Notice tone="critical" code={actionError.code}>{actionError.text}</Notice>
        : null}
      {downloadFailed ? <Notice tone="critical">{t("detail.downloadFailed")}</Notice> : null}
      {report.summary?.map((feeder) => <FeederSummary key={feeder.feeder_id} feeder={feeder} />)}
      <ConfirmDialog
        open={confirm !== null}
        onOpenChange={(open) => !open && setConfirm(null)}
        title={confirm === "cancel" ? t("detail.cancelTitle") : t("detail.deleteTitle")}
        description={t(confirm === "cancel" ? "detail.cancelText" : "detail.deleteText", {
          name: report.name,
        })}
        confirmLabel={confirm === "cancel" ? t("detail.cancelReport") : t("detail.delete")}
        cancelLabel={t("cancel")}
        onConfirm={() => confirm && void action.run(confirm)}
      />
    </>
  );
}

/** `h5` reads "Harmonic 5"; the others by their key. */
function parameterKey(id: string): [string, Record<string, unknown>] {
  return /^h\d+$/.test(id)
    ? ["parameters.harmonic", { order: id.slice(1) }]
    : [`parameters.${id}`, {}];
}

function FeederSummary({ feeder }: { feeder: FeederSummaryDto }) {
  const { t } = useTranslation("pq-reports");
  const format = useFormatters();
  const voltage = feeder.parameters[0]!;
  const num = (v: number | null) => (v === null ? "–" : format.number(v));
  const limit = (p: ParameterSummaryDto) =>
    `${p.limit100 ? "±" : "≤ "}${format.number(p.limit)}${p.unit ? ` ${p.unit}` : ""}`;
  return (
    <div className="flex flex-col gap-2 border-t pt-3" data-testid="pq-summary">
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="text-sm font-semibold">{feeder.feeder_name}</h3>
        <ResultBadge passed={feeder.passed} />
        <span className="text-xs text-muted-foreground">
          {t("detail.availability")}: {format.number(feeder.availability_pct)} % · {t(
            "detail.intervals",
            {
              valid: voltage.n,
              slots: feeder.slots,
              flagged: feeder.flagged,
              missing: feeder.missing,
            },
          )}
        </span>
      </div>
      <ul className="flex flex-wrap gap-2 text-xs">
        {feeder.weeks.map((w) => (
          <li key={w.from} className="flex items-center gap-1">
            {w.full ? t("detail.week") : t("detail.part")} {format.date(w.from)}
            <ResultBadge passed={w.passed} />
          </li>
        ))}
      </ul>
      <div className="max-h-96 overflow-auto">
        <Table className="text-xs">
          <TableHead sticky>
            <Row>
              <HeadCell>{t("detail.parameter")}</HeadCell>
              <HeadCell>{t("detail.phase")}</HeadCell>
              <HeadCell>{t("detail.limit")}</HeadCell>
              <HeadCell numeric>{t("detail.value")}</HeadCell>
              <HeadCell numeric>{t("detail.max")}</HeadCell>
              <HeadCell numeric>{t("detail.n")}</HeadCell>
              <HeadCell numeric>{t("detail.n1")}</HeadCell>
              <HeadCell numeric>{t("detail.n2")}</HeadCell>
              <HeadCell numeric>{t("detail.flagged")}</HeadCell>
              <HeadCell numeric>{t("detail.missing")}</HeadCell>
              <HeadCell>{t("detail.verdict")}</HeadCell>
            </Row>
          </TableHead>
          <TableBody>
            {feeder.parameters.flatMap((p) =>
              p.phases.map((phase) => (
                <Row key={`${p.parameter}-${phase.phase ?? "-"}`}>
                  <Cell>{t(...parameterKey(p.parameter))}</Cell>
                  <Cell>{phase.phase ?? "–"}</Cell>
                  <Cell>{limit(p)}</Cell>
                  <Cell numeric>{num(phase.value)}</Cell>
                  <Cell numeric>{num(phase.max)}</Cell>
                  <Cell numeric>{phase.n}</Cell>
                  <Cell numeric>{phase.n1}</Cell>
                  <Cell numeric>{phase.n2 ?? "–"}</Cell>
                  <Cell numeric>{phase.flagged}</Cell>
                  <Cell numeric>{phase.missing}</Cell>
                  <Cell>
                    <ResultBadge passed={phase.passed} />
                  </Cell>
                </Row>
              ))
            )}
          </TableBody>
        </Table>
      </div>
    </div>
  );
}
