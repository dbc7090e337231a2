/**
 * The grid-wide compliance (beyond the spec): every node's EN 50160 verdict of an evaluated week
 * (by default the last complete one, evaluated every week for the whole grid) with its failing
 * parameters, as a list paged on the server (50 nodes, verdict filter) or on the map
 * (compliance-map.tsx); a click opens the node's report of that week, or creates it when there is
 * none.
 */
import { ShieldCheck } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../lib/api.ts";
import { useAction } from "../../lib/use-action.ts";
import { useFormatters } from "../../lib/use-formatters.ts";
import { liveState, REFRESH_MS, useLiveLoad } from "../../lib/use-live-load.ts";
import { Button } from "../../ui/button.tsx";
import { EmptyState } from "../../ui/empty-state.tsx";
import { AsyncState } from "../../ui/loader.tsx";
import { Notice } from "../../ui/notice.tsx";
import { Select } from "../../ui/select.tsx";
import { Cell, HeadCell, Row, Table, TableBody, TableHead } from "../../ui/table.tsx";
import { Pager } from "../../ui/pager.tsx";
import { ListMapSwitch, type ListOrMap } from "../../map/list-map-switch.tsx";
import {
  COMPLIANCE_VERDICTS,
  type ComplianceVerdict as Verdict,
} from "../../../../modules/power_quality/auto/contract.ts";
import { autoApi, type ComplianceMapNodeDto } from "./pq-auto-api.ts";
import { pqApi } from "./pq-reports-api.ts";
import { ResultBadge } from "./report-badges.tsx";
import { ComplianceMap } from "./compliance-map.tsx";

/** A node of the list (with its feeders) or of the map (the report then covers every feeder). */
type OpenNode = ComplianceMapNodeDto & { feeders?: readonly { id: string }[] };

/** The compliance section; `onOpenReport` shows a report in the page's detail panel. */
export function ComplianceView(
  { admin, onOpenReport }: { admin: boolean; onOpenReport: (key: string) => void },
) {
  const { t, i18n } = useTranslation(["pq-auto", "errors"]);
  const format = useFormatters();
  const [week, setWeek] = useState<string | undefined>(undefined);
  const [verdict, setVerdict] = useState<Verdict>("ALL");
  const [page, setPage] = useState(0);
  const [show, setShow] = useState<ListOrMap>("list");
  const [problem, setProblem] = useState<
    { key: string; code?: number; params?: Record<string, unknown> } | null
  >(null);
  const view = useLiveLoad(
    (signal) => autoApi.compliance({ week, verdict, page }, signal),
    `c|${week}|${verdict}|${page}`,
    REFRESH_MS,
  );
  const evaluate = useAction(async () => {
    await autoApi.evaluate();
    view.refresh();
  });
  const open = useAction(async (node: OpenNode, from: string, label: string) => {
    setProblem(null);
    if (node.report_key) return onOpenReport(node.report_key);
    try {
      const language = (["en", "fr", "de", "uk"] as const).find((l) => l === i18n.language) ?? "en";
      const made = await pqApi.create({
        name: `${t("reportName", { week: label })} ${node.node_name}`.slice(0, 60),
        language,
        node: node.node_id,
        ...(node.feeders ? { feeders: node.feeders.map((f) => f.id) } : {}),
        start: from,
        period: "P7D",
        standard: "EN50160",
      });
      onOpenReport(made.key);
    } catch (error) {
      const body = error instanceof ApiError ? error.body : null;
      setProblem(
        body ? { key: body.key, code: body.code, params: body.params } : { key: "common.internal" },
      );
    }
  });
  return (
    <section id="compliance" className="flex flex-col gap-3" data-testid="pq-compliance">
      <p className="text-sm text-muted-foreground">{t("complianceIntro")}</p>
      {problem
        ? (
          <Notice tone="critical" code={problem.code}>
            {t(`errors:${problem.key}`, problem.params ?? {})}
          </Notice>
        )
        : null}
      <AsyncState state={liveState(view)} onRetry={view.refresh}>
        {(answer) => {
          return (
            <>
              <div className="flex flex-wrap items-end gap-2">
                <Select
                  className="w-44"
                  aria-label={t("week")}
                  value={answer.week ? answer.week.from.slice(0, 10) : undefined}
                  placeholder={t("week")}
                  options={answer.weeks.map((w) => ({ value: w, label: w }))}
                  onValueChange={(w) => {
                    setWeek(w);
                    setPage(0);
                  }}
                />
                <Select
                  className="w-44"
                  aria-label={t("verdict")}
                  value={verdict}
                  options={COMPLIANCE_VERDICTS.map((v) => ({
                    value: v,
                    label: t(`verdicts.${v}`),
                  }))}
                  onValueChange={(v) => {
                    setVerdict(v as Verdict);
                    setPage(0);
                  }}
                />
                <ListMapSwitch
                  value={show}
                  onChange={setShow}
                  labels={{ group: t("show"), list: t("showList"), map: t("showMap") }}
                />
                {answer.week
                  ? (
                    <p
                      className="text-xs text-muted-foreground"
                      data-testid="pq-compliance-summary"
                    >
                      {t("summary", {
                        week: answer.week.label,
                        passed: answer.passed,
                        notPassed: answer.not_passed,
                        none: answer.not_evaluable,
                      })}
                      {answer.week.evaluated_at
                        ? ` · ${
                          t("evaluatedAt", { at: format.dateTime(answer.week.evaluated_at) })
                        }`
                        : ""}
                      {answer.week.status !== "DONE"
                        ? ` · ${t(`weekStatus.${answer.week.status}`)}`
                        : ""}
                    </p>
                  )
                  : null}
                {admin
                  ? (
                    <Button
                      size="sm"
                      variant="secondary"
                      className="ml-auto"
                      disabled={evaluate.busy}
                      onClick={() => void evaluate.run()}
                    >
                      {t("evaluate")}
                    </Button>
                  )
                  : null}
              </div>
              {!answer.week
                ? (
                  <EmptyState
                    icon={<ShieldCheck />}
                    title={t("complianceEmpty")}
                    description={t("complianceEmptyHint")}
                  />
                )
                : show === "map"
                ? (
                  <ComplianceMap
                    week={week}
                    verdict={verdict}
                    onOpen={(node, from, label) => void open.run(node, from, label)}
                  />
                )
                : (
                  <div className="overflow-x-auto rounded-lg border bg-surface p-3">
                    <Table data-testid="pq-compliance-list">
                      <TableHead>
                        <Row>
                          <HeadCell>{t("columns.node")}</HeadCell>
                          <HeadCell>{t("columns.group")}</HeadCell>
                          <HeadCell>{t("columns.verdict")}</HeadCell>
                          <HeadCell>{t("columns.failed")}</HeadCell>
                          <HeadCell>{t("columns.availability")}</HeadCell>
                          <HeadCell />
                        </Row>
                      </TableHead>
                      <TableBody>
                        {answer.nodes.map((n) => (
                          <Row key={n.node_id}>
                            <Cell>
                              <div className="font-medium">{n.node_name}</div>
                              <div className="text-xs text-muted-foreground">{n.ew_name}</div>
                            </Cell>
                            <Cell className="text-xs">{n.lv_group}</Cell>
                            <Cell>
                              {n.passed === null
                                ? (
                                  <span className="text-xs text-muted-foreground">
                                    {t("verdicts.NONE")}
                                  </span>
                                )
                                : <ResultBadge passed={n.passed ? "PASSED" : "NOT_PASSED"} />}
                            </Cell>
                            <Cell className="text-xs">
                              {n.failed.map((p) => t(`parameters.${p}`, { defaultValue: p })).join(
                                ", ",
                              )}
                            </Cell>
                            <Cell className="text-xs">
                              {format.number(n.availability_pct, 1)} %
                            </Cell>
                            <Cell>
                              <Button
                                size="sm"
                                variant="secondary"
                                disabled={open.busy}
                                onClick={() =>
                                  void open.run(n, answer.week!.from, answer.week!.label)}
                              >
                                {n.report_key ? t("openReport") : t("makeReport")}
                              </Button>
                            </Cell>
                          </Row>
                        ))}
                      </TableBody>
                    </Table>
                    <Pager
                      total={answer.total}
                      page={answer.page + 1}
                      pageSize={answer.size}
                      onPage={(p) => setPage(p - 1)}
                    />
                  </div>
                )}
            </>
          );
        }}
      </AsyncState>
    </section>
  );
}
