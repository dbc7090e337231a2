/**
 * Auto-analyses (spec 2.1 #auto-analyses): the customer's weekly analyses with status, next run
 * and the actions the status allows (the server answers 503 otherwise), the schedule dialog
 * (administrators), and an analysis' history of runs 12 per page with the reports each made.
 */
import { CalendarClock, Plus } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { AUTO_ACTION_STATUSES } from "../../../../modules/power_quality/auto/contract.ts";
import { ApiError } from "../../lib/api.ts";
import { serverErrors } from "../../lib/field-errors.ts";
import { useAction } from "../../lib/use-action.ts";
import { useFormatters } from "../../lib/use-formatters.ts";
import { liveState, REFRESH_MS, useLiveLoad } from "../../lib/use-live-load.ts";
import { Button } from "../../ui/button.tsx";
import { CodedText } from "../../ui/coded-text.tsx";
import { EmptyState } from "../../ui/empty-state.tsx";
import { AsyncState } from "../../ui/loader.tsx";
import { Notice } from "../../ui/notice.tsx";
import { Cell, HeadCell, Row, Table, TableBody, TableHead } from "../../ui/table.tsx";
import { ScheduleDialog } from "./auto-schedule-dialog.tsx";
import { type AutoAnalysisDto, autoApi } from "./pq-auto-api.ts";
import type { PqElectricalWorksDto } from "./pq-reports-api.ts";
import { ResultBadge } from "./report-badges.tsx";

type Field = "name" | "nodes" | "group" | "start" | "weekday";
type ErrorState = ReturnType<typeof serverErrors<Field>>;

/** The auto-analyses section; `onOpenReport` shows a report in the page's detail panel. */
export function AutoAnalyses(
  { works, admin, onOpenReport }: {
    works: PqElectricalWorksDto | null;
    admin: boolean;
    onOpenReport: (key: string) => void;
  },
) {
  const { t } = useTranslation(["pq-auto", "errors"]);
  const format = useFormatters();
  const [creating, setCreating] = useState(false);
  const [selected, setSelected] = useState<string | null>(null);
  const [problem, setProblem] = useState<ErrorState["form"] | null>(null);
  const list = useLiveLoad((signal) => autoApi.list(signal), "auto", REFRESH_MS);
  const act = useAction(
    async (a: AutoAnalysisDto, action: "pause" | "resume" | "run" | "delete") => {
      setProblem(null);
      try {
        if (action === "delete") await autoApi.remove(a.key);
        else await autoApi.action(a.key, action);
        if (action === "run") setSelected(a.key);
        list.refresh();
      } catch (error) {
        setProblem(
          serverErrors<Field>(error instanceof ApiError ? error.body : null, {
            field: () => null,
          }).form ?? null,
        );
      }
    },
  );

  return (
    <section id="auto-analyses" className="flex flex-col gap-3" data-testid="pq-auto">
      <div className="flex items-center justify-between gap-2">
        <p className="text-sm text-muted-foreground">{t("intro")}</p>
        {admin
          ? (
            <Button
              onClick={() => setCreating(true)}
              disabled={!works}
              data-testid="pq-auto-create"
            >
              <Plus aria-hidden />
              {t("create")}
            </Button>
          )
          : null}
      </div>
      {problem
        ? (
          <Notice tone="critical" code={problem.code}>
            {t(`errors:${problem.key}`, problem.params ?? {})}
          </Notice>
        )
        : null}
      <AsyncState state={liveState(list)} onRetry={list.refresh}>
        {(answer) =>
          answer.auto_analyses.length === 0
            ? (
              <EmptyState
                icon={<CalendarClock />}
                title={t("empty")}
                description={t("emptyHint")}
              />
            )
            : (
              <div className="overflow-x-auto rounded-lg border bg-surface p-3">
                <Table data-testid="pq-auto-list">
                  <TableHead>
                    <Row>
                      <HeadCell>{t("columns.name")}</HeadCell>
                      <HeadCell>{t("columns.target")}</HeadCell>
                      <HeadCell>{t("columns.when")}</HeadCell>
                      <HeadCell>{t("columns.status")}</HeadCell>
                      <HeadCell>{t("columns.next")}</HeadCell>
                      <HeadCell />
                    </Row>
                  </TableHead>
                  <TableBody>
                    {answer.auto_analyses.map((a) => (
                      <Row key={a.key} className={a.key === selected ? "bg-surface-muted" : ""}>
                        <Cell>
                          <button
                            type="button"
                            className="text-left font-medium text-primary hover:underline"
                            onClick={() =>
                              setSelected(a.key === selected ? null : a.key)}
                          >
                            {a.name}
                          </button>
                          <div className="text-xs text-muted-foreground">{a.limit_set}</div>
                        </Cell>
                        <Cell className="text-xs">
                          {a.group
                            ? `${t(`scopes.${a.scope}`)}: ${a.group.name}`
                            : a.nodes.map((n) =>
                              n.name
                            ).join(", ")}
                        </Cell>
                        <Cell className="text-xs">
                          {t("when", {
                            day: t(`weekdays.${a.weekday}`),
                            hour: String(a.hour).padStart(2, "0"),
                            zone: a.timezone,
                          })}
                        </Cell>
                        <Cell>{t(`status.${a.status}`)}</Cell>
                        <Cell className="text-xs">
                          {a.next_run ? format.dateTime(a.next_run) : "–"}
                        </Cell>
                        <Cell>
                          {admin
                            ? (
                              <div className="flex flex-wrap gap-1">
                                {(["pause", "resume", "run", "delete"] as const)
                                  .filter((x) => AUTO_ACTION_STATUSES[x].includes(a.status))
                                  .map((x) => (
                                    <Button
                                      key={x}
                                      size="sm"
                                      variant={x === "delete" ? "danger" : "secondary"}
                                      disabled={act.busy}
                                      onClick={() => void act.run(a, x)}
                                    >
                                      {t(`actions.${x}`)}
                                    </Button>
                                  ))}
                              </div>
                            )
                            : null}
                        </Cell>
                      </Row>
                    ))}
                  </TableBody>
                </Table>
              </div>
            )}
      </AsyncState>
      {selected ? <RunHistory analysisKey={selected} onOpenReport={onOpenReport} /> : null}
      {works && list.data
        ? (
          <ScheduleDialog
            open={creating}
            onOpenChange={setCreating}
            works={works}
            timezone={list.data.timezone}
            onCreated={() => list.refresh()}
          />
        )
        : null}
    </section>
  );
}

function RunHistory(
  { analysisKey, onOpenReport }: { analysisKey: string; onOpenReport: (key: string) => void },
) {
  const { t } = useTranslation(["pq-auto", "errors"]);
  const format = useFormatters();
  const [page, setPage] = useState(0);
  const runs = useLiveLoad(
    (signal) => autoApi.runs(analysisKey, page, signal),
    `${analysisKey}|${page}`,
    5_000,
  );
  return (
    <section className="rounded-lg border bg-surface p-3" data-testid="pq-auto-runs">
      <h3 className="mb-2 text-sm font-semibold">{t("history")}</h3>
      <AsyncState state={liveState(runs)} onRetry={runs.refresh}>
        {(answer) =>
          answer.total === 0 ? <p className="text-sm text-muted-foreground">{t("noRuns")}</p> : (
            <>
              <Table>
                <TableHead>
                  <Row>
                    <HeadCell>{t("runs.week")}</HeadCell>
                    <HeadCell>{t("runs.at")}</HeadCell>
                    <HeadCell>{t("runs.status")}</HeadCell>
                    <HeadCell>{t("runs.reports")}</HeadCell>
                  </Row>
                </TableHead>
                <TableBody>
                  {answer.runs.map((run) => (
                    <Row key={run.key}>
                      <Cell>{run.week.label}</Cell>
                      <Cell className="text-xs">
                        {format.dateTime(run.scheduled_for)} {run.manual ? `(${t("manual")})` : ""}
                      </Cell>
                      <Cell>
                        {t(`runStatus.${run.status}`)}
                        {run.failure
                          ? (
                            <div className="text-xs text-state-critical">
                              <CodedText
                                text={t(`errors:${run.failure.key}`, run.failure.params)}
                                code={run.failure.code ?? undefined}
                              />
                            </div>
                          )
                          : null}
                      </Cell>
                      <Cell>
                        <ul className="flex flex-col gap-1 text-xs">
                          {run.items.map((item) => (
                            <li key={item.node_id} className="flex flex-wrap items-center gap-2">
                              {item.report
                                ? (
                                  <button
                                    type="button"
                                    className="text-primary hover:underline"
                                    onClick={() => onOpenReport(item.report!.key)}
                                  >
                                    {item.node_name}
                                  </button>
                                )
                                : <span>{item.node_name}</span>}
                              {item.report?.result
                                ? <ResultBadge passed={item.report.result} />
                                : null}
                              {item.report && !item.report.result
                                ? t(`reportStatus.${item.report.status}`)
                                : null}
                              {item.failure
                                ? (
                                  <CodedText
                                    text={t(`errors:${item.failure.key}`, item.failure.params)}
                                    code={item.failure.code ?? undefined}
                                  />
                                )
                                : null}
                            </li>
                          ))}
                        </ul>
                      </Cell>
                    </Row>
                  ))}
                </TableBody>
              </Table>
              {answer.total > answer.size
                ? (
                  <div className="mt-2 flex items-center justify-end gap-2 text-xs">
                    <Button
                      size="sm"
                      variant="secondary"
                      disabled={page === 0}
                      onClick={() => setPage(page - 1)}
                    >
                      {t("previous")}
                    </Button>
                    <span>
                      {t("pageOf", {
                        page: page + 1,
                        pages: Math.ceil(answer.total / answer.size),
                      })}
                    </span>
                    <Button
                      size="sm"
                      variant="secondary"
                      disabled={(page + 1) * answer.size >= answer.total}
                      onClick={() => setPage(page + 1)}
                    >
                      {t("next")}
                    </Button>
                  </div>
                )
                : null}
            </>
          )}
      </AsyncState>
    </section>
  );
}
