/**
 * Power quality reports (spec 2.1 /power-quality/reports, #reports): the customer's reports 12
 * per page with status, progress and result (refreshed every 2 s while one runs, else every
 * 30 s), filters by status and name, the create dialog, and a selected report's detail.
 */
import { FileBarChart, Plus } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { REPORT_STATUSES } from "../../../../modules/power_quality/contract.ts";
import { useFormatters } from "../../lib/use-formatters.ts";
import { liveState, REFRESH_MS, useLiveLoad } from "../../lib/use-live-load.ts";
import { Button } from "../../ui/button.tsx";
import { EmptyState } from "../../ui/empty-state.tsx";
import { Input } from "../../ui/input.tsx";
import { AsyncState } from "../../ui/loader.tsx";
import { Page } from "../../ui/page.tsx";
import { Select } from "../../ui/select.tsx";
import { Cell, HeadCell, Row, Table, TableBody, TableHead } from "../../ui/table.tsx";
import { isAdminOf } from "../../lib/access.ts";
import { useSession } from "../../lib/session-atoms.ts";
import { Tabs, TabsList, TabsTrigger } from "../../ui/tabs.tsx";
import { AutoAnalyses } from "./auto-analyses.tsx";
import { ComplianceView } from "./compliance-view.tsx";
import { CreateReportDialog } from "./create-report-dialog.tsx";
import { pqApi, type ReportPageDto, type ReportStatus } from "./pq-reports-api.ts";
import { ResultBadge, StatusBadge } from "./report-badges.tsx";
import { ReportDetail } from "./report-detail.tsx";

const RUNNING_REFRESH_MS = 2_000;

/** The reports screen. */
export function ReportsPage() {
  const { t } = useTranslation(["pq-reports", "modules", "pq-auto"]);
  const format = useFormatters();
  const { claims } = useSession();
  const admin = isAdminOf(claims.appsRoles, "app:power-quality") || claims.role === "super-admin";
  // Spec anchors #reports and #auto-analyses (and #compliance) pick the section.
  const [section, setSection] = useState(() => {
    const hash = globalThis.location?.hash.slice(1);
    return hash === "auto-analyses" || hash === "compliance" ? hash : "reports";
  });
  const pick = (next: string) => {
    setSection(next);
    history.replaceState(null, "", `#${next}`);
  };
  const [page, setPage] = useState(0);
  const [status, setStatus] = useState<ReportStatus | "ALL">("ALL");
  const [query, setQuery] = useState("");
  const [selected, setSelected] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [running, setRunning] = useState(false);

  const works = useLiveLoad((signal) => pqApi.works(signal), "works", REFRESH_MS);
  const listKey = `${page}|${status}|${query}`;
  const list = useLiveLoad(
    async (signal) => {
      const answer = await pqApi.list({
        page,
        status: status === "ALL" ? undefined : status,
        q: query.trim() || undefined,
      }, signal);
      setRunning(
        answer.reports.some((r) => r.status === "IN_PROGRESS" || r.status === "SCHEDULED"),
      );
      return answer;
    },
    listKey,
    running ? RUNNING_REFRESH_MS : REFRESH_MS,
  );

  return (
    <Page
      title={t("modules:power-quality.title")}
      subtitle={t("modules:power-quality.sections.reports")}
      actions={section === "reports"
        ? (
          <Button onClick={() => setCreating(true)} disabled={!works.data} data-testid="pq-create">
            <Plus aria-hidden />
            {t("create")}
          </Button>
        )
        : undefined}
    >
      <Tabs value={section} onValueChange={pick}>
        <TabsList>
          <TabsTrigger value="reports">{t("pq-auto:tabs.reports")}</TabsTrigger>
          <TabsTrigger value="auto-analyses" data-testid="pq-tab-auto">
            {t("pq-auto:tabs.auto")}
          </TabsTrigger>
          <TabsTrigger value="compliance" data-testid="pq-tab-compliance">
            {t("pq-auto:tabs.compliance")}
          </TabsTrigger>
        </TabsList>
      </Tabs>
      {section === "auto-analyses"
        ? (
          <AutoAnalyses
            works={works.data ?? null}
            admin={admin}
            onOpenReport={(key) => setSelected(key)}
          />
        )
        : null}
      {section === "compliance"
        ? <ComplianceView admin={admin} onOpenReport={(key) => setSelected(key)} />
        : null}
      <div
        id="reports"
        className={section === "reports" ? "flex flex-wrap items-end gap-2" : "hidden"}
      >
        <Input
          className="w-56"
          placeholder={t("search")}
          aria-label={t("search")}
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setPage(0);
          }}
        />
        <Select
          className="w-48"
          aria-label={t("filterStatus")}
          value={status}
          options={[
            { value: "ALL", label: t("filterAll") },
            ...REPORT_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) })),
          ]}
          onValueChange={(s) => {
            setStatus(s as ReportStatus | "ALL");
            setPage(0);
          }}
        />
      </div>
      <div className="grid min-h-0 flex-1 gap-4 xl:grid-cols-[minmax(0,1fr)_minmax(0,1.2fr)]">
        {section !== "reports" ? <div className="hidden xl:block" /> : null}
        {section === "reports"
          ? (
            <AsyncState state={liveState(list)} onRetry={list.refresh}>
              {(answer) =>
                answer.total === 0 && !query && status === "ALL"
                  ? (
                    <EmptyState
                      icon={<FileBarChart />}
                      title={t("empty")}
                      description={t("emptyHint")}
                    />
                  )
                  : (
                    <ReportList
                      answer={answer}
                      selected={selected}
                      onSelect={setSelected}
                      onPage={setPage}
                      format={format}
                    />
                  )}
            </AsyncState>
          )
          : null}
        {selected
          ? (
            <ReportDetail
              reportKey={selected}
              onClose={() => setSelected(null)}
              onChanged={(deleted) => {
                if (deleted) setSelected(null);
                list.refresh();
              }}
            />
          )
          : null}
      </div>
      {works.data
        ? (
          <CreateReportDialog
            open={creating}
            onOpenChange={setCreating}
            works={works.data}
            onCreated={(key) => {
              setPage(0);
              setSelected(key);
              setRunning(true);
              list.refresh();
            }}
          />
        )
        : null}
    </Page>
  );
}

function ReportList(
  { answer, selected, onSelect, onPage, format }: {
    answer: ReportPageDto;
    selected: string | null;
    onSelect: (key: string) => void;
    onPage: (page: number) => void;
    format: ReturnType<typeof useFormatters>;
  },
) {
  const { t } = useTranslation("pq-reports");
  const pages = Math.max(1, Math.ceil(answer.total / answer.size));
  return (
    <section className="flex min-w-0 flex-col gap-2 rounded-lg border bg-surface p-3">
      <p className="text-xs text-muted-foreground">
        {t("count", { count: answer.total, limit: answer.limit })}
      </p>
      <div className="overflow-x-auto">
        <Table data-testid="pq-reports">
          <TableHead>
            <Row>
              <HeadCell>{t("columns.name")}</HeadCell>
              <HeadCell>{t("columns.node")}</HeadCell>
              <HeadCell>{t("columns.period")}</HeadCell>
              <HeadCell>{t("columns.status")}</HeadCell>
              <HeadCell>{t("columns.result")}</HeadCell>
            </Row>
          </TableHead>
          <TableBody>
            {answer.reports.map((r) => (
              <Row
                key={r.key}
                className={r.key === selected ? "bg-surface-muted" : "cursor-pointer"}
                onClick={() => onSelect(r.key)}
              >
                <Cell>
                  <button
                    type="button"
                    className="text-left font-medium text-primary hover:underline"
                    onClick={() => onSelect(r.key)}
                  >
                    {r.name}
                  </button>
                </Cell>
                <Cell>{r.node_name}</Cell>
                <Cell className="text-xs">
                  {format.dateTime(r.start)} – {format.dateTime(r.end)}
                </Cell>
                <Cell>
                  <StatusBadge report={r} />
                </Cell>
                <Cell>{r.result ? <ResultBadge passed={r.result} /> : null}</Cell>
              </Row>
            ))}
          </TableBody>
        </Table>
      </div>
      {pages > 1
        ? (
          <div className="flex items-center justify-end gap-2 text-xs">
            <Button
              size="sm"
              variant="secondary"
              disabled={answer.page === 0}
              onClick={() => onPage(answer.page - 1)}
            >
              {t("previous")}
            </Button>
            <span>{t("pageOf", { page: answer.page + 1, pages })}</span>
            <Button
              size="sm"
              variant="secondary"
              disabled={answer.page + 1 >= pages}
              onClick={() => onPage(answer.page + 1)}
            >
              {t("next")}
            </Button>
          </div>
        )
        : null}
    </section>
  );
}
