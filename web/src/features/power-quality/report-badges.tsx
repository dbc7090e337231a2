/** Status, result and progress of a report as badges (colour never alone: always words). */
import { useTranslation } from "react-i18next";
import { Badge, type BadgeTone } from "../../ui/badge.tsx";
import type { ReportDto } from "./pq-reports-api.ts";

const STATUS_TONE: Record<ReportDto["status"], BadgeTone> = {
  SCHEDULED: "neutral",
  IN_PROGRESS: "warning",
  COMPLETED: "ok",
  FAILED: "critical",
  CANCELLED: "neutral",
};

export function StatusBadge({ report }: { report: ReportDto }) {
  const { t } = useTranslation("pq-reports");
  return (
    <span className="inline-flex flex-col gap-1">
      <Badge tone={STATUS_TONE[report.status]} data-testid="pq-status">
        {t(`status.${report.status}`)}
      </Badge>
      {report.status === "IN_PROGRESS"
        ? (
          <span className="flex items-center gap-1.5 text-xs text-muted-foreground">
            <progress className="h-1.5 w-20" max={100} value={report.percent} />
            {t("progress", {
              stage: t(`stage.${report.stage ?? "LOADING"}`),
              percent: report.percent,
            })}
          </span>
        )
        : null}
    </span>
  );
}

export function ResultBadge({ passed }: { passed: boolean | null | "PASSED" | "NOT_PASSED" }) {
  const { t } = useTranslation("pq-reports");
  const value = passed === "PASSED" ? true : passed === "NOT_PASSED" ? false : passed;
  if (value === true) return <Badge tone="ok" data-testid="pq-result">{t("result.PASSED")}</Badge>;
  if (value === false) {
    return <Badge tone="critical" data-testid="pq-result">{t("result.NOT_PASSED")}</Badge>;
  }
  return <Badge tone="neutral">{t("result.NOT_EVALUABLE")}</Badge>;
}
