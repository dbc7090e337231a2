/**
 * The user's exports: status, a progress bar (rows and percent) while running, size, expiry,
 * and the actions each status allows (download, cancel, delete with the spec's confirmation).
 */
import { Copy, Download, Trash2, X } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ACTIVE, DOWNLOADABLE, type ExportStatus } from "../../../../modules/export/contract.ts";
import { useErrorText } from "../../lib/use-error-text.ts";
import { useFormatters } from "../../lib/use-formatters.ts";
import { Badge, type BadgeTone } from "../../ui/badge.tsx";
import { Button } from "../../ui/button.tsx";
import { ConfirmDialog } from "../../ui/alert-dialog.tsx";
import { EmptyState } from "../../ui/empty-state.tsx";
import { Notice } from "../../ui/notice.tsx";
import { Cell, HeadCell, Row, Table, TableBody, TableHead } from "../../ui/table.tsx";
import { exportApi, type ExportDto } from "./export-api.ts";
import { duckdbQuery, sizeParts } from "./export-form.ts";

const TONE: Record<ExportStatus, BadgeTone> = {
  QUEUED: "neutral",
  IN_PROGRESS: "neutral",
  FINISHED: "ok",
  DOWNLOADED: "ok",
  FAILED: "critical",
  CANCELLED: "warning",
  DELETED: "neutral",
};

export function ExportList(
  { exports, onChanged }: { exports: readonly ExportDto[]; onChanged: () => void },
) {
  const { t } = useTranslation(["data-export", "errors"]);
  const format = useFormatters();
  const errorText = useErrorText();
  const [failure, setFailure] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<ExportDto | null>(null);
  const [copied, setCopied] = useState<string | null>(null);
  const act = (action: () => Promise<unknown>) => {
    setFailure(null);
    action().then(onChanged, (error) => setFailure(errorText(error).text));
  };
  const size = (bytes: number) => {
    const { value, unit } = sizeParts(bytes);
    return t("size", { value: format.number(value, unit === "B" ? 0 : 1), unit });
  };
  if (!exports.length) {
    return <EmptyState title={t("list.empty")} description={t("list.emptyHint")} />;
  }
  return (
    <div className="flex min-w-0 flex-col gap-2">
      {failure && <Notice tone="critical">{failure}</Notice>}
      {copied && <Notice tone="ok">{t("list.copied")}</Notice>}
      <div className="overflow-auto rounded-lg border bg-surface">
        <Table>
          <TableHead>
            <tr>
              <HeadCell>{t("list.file")}</HeadCell>
              <HeadCell>{t("list.status")}</HeadCell>
              <HeadCell numeric>{t("list.size")}</HeadCell>
              <HeadCell>{t("list.expires")}</HeadCell>
              <HeadCell>
                <span className="sr-only">{t("list.actions")}</span>
              </HeadCell>
            </tr>
          </TableHead>
          <TableBody>
            {exports.map((e) => (
              <Row key={e.key} data-testid={`export-${e.key}`}>
                <Cell className="max-w-80">
                  <div className="truncate font-medium" title={e.file_name}>{e.file_name}</div>
                  {e.schedule_key && (
                    <div className="text-xs text-muted-foreground">{t("list.scheduledRun")}</div>
                  )}
                  <div className="text-xs text-muted-foreground">
                    {t("list.summary", {
                      from: format.dateTime(e.period.from),
                      to: format.dateTime(e.period.to),
                      feeders: e.feeders.length,
                      interval: t(`interval.${e.interval}`),
                      format: t(`format.${e.format}`),
                    })}
                  </div>
                </Cell>
                <Cell>
                  <Badge tone={TONE[e.status]} data-testid="export-status">
                    {t(`status.${e.status}`)}
                  </Badge>
                  {e.status === "IN_PROGRESS" && (
                    <div className="mt-1 w-40">
                      <div
                        className="h-1.5 overflow-hidden rounded bg-surface-muted"
                        role="progressbar"
                        aria-valuemin={0}
                        aria-valuemax={100}
                        aria-valuenow={Math.round(e.progress.percent)}
                        aria-label={t("list.progress")}
                      >
                        <div
                          className="h-full bg-primary"
                          style={{ width: `${e.progress.percent}%` }}
                        />
                      </div>
                      <div className="text-xs text-muted-foreground">
                        {t("list.progressText", {
                          percent: format.number(e.progress.percent, 0),
                          done: format.number(e.progress.rows_done, 0),
                          total: format.number(e.progress.rows_total, 0),
                        })}
                      </div>
                    </div>
                  )}
                  {e.error && (
                    <div className="mt-1 max-w-72 text-xs text-state-critical">
                      {t(`errors:${e.error.key}`, e.error.params)}
                    </div>
                  )}
                </Cell>
                <Cell numeric>
                  {e.size_bytes !== null
                    ? size(e.size_bytes)
                    : t("list.estimated", { size: size(e.estimated_bytes) })}
                </Cell>
                <Cell className="text-xs">
                  {e.expires_at && DOWNLOADABLE.includes(e.status)
                    ? format.dateTime(e.expires_at)
                    : ""}
                </Cell>
                <Cell>
                  <div className="flex justify-end gap-1">
                    {DOWNLOADABLE.includes(e.status) && (
                      <Button
                        size="sm"
                        variant="secondary"
                        onClick={() => act(() => exportApi.download(e.key))}
                      >
                        <Download aria-hidden />
                        {t("list.download")}
                      </Button>
                    )}
                    {DOWNLOADABLE.includes(e.status) && (
                      <Button
                        size="icon"
                        variant="ghost"
                        aria-label={t("list.copyQuery")}
                        title={t("list.copyQuery")}
                        onClick={() =>
                          act(async () => {
                            await navigator.clipboard.writeText(duckdbQuery(e));
                            setCopied(e.key);
                          })}
                      >
                        <Copy aria-hidden />
                      </Button>
                    )}
                    {ACTIVE.includes(e.status) && (
                      <Button
                        size="sm"
                        variant="secondary"
                        onClick={() => act(() => exportApi.cancel(e.key))}
                      >
                        <X aria-hidden />
                        {t("list.cancel")}
                      </Button>
                    )}
                    {e.status !== "DELETED" && (
                      <Button
                        size="icon"
                        variant="ghost"
                        aria-label={t("list.delete")}
                        title={t("list.delete")}
                        onClick={() => setDeleting(e)}
                      >
                        <Trash2 aria-hidden />
                      </Button>
                    )}
                  </div>
                </Cell>
              </Row>
            ))}
          </TableBody>
        </Table>
      </div>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={t("list.deleteTitle", { name: deleting?.file_name ?? "" })}
        description={t("list.deleteDescription")}
        confirmLabel={t("list.deleteConfirm")}
        cancelLabel={t("list.deleteCancel")}
        onConfirm={() => {
          const target = deleting;
          setDeleting(null);
          if (target) act(() => exportApi.remove(target.key));
        }}
      />
    </div>
  );
}
