/**
 * Power-quality events (spec 2.1 /power-quality/events, data from /pqe/electrical-works): the
 * events of one node or of the whole grid, 12 per page, filtered by type, phase, period, depth,
 * duration and a tolerance curve; an event's detail with its RMS trace and its recording; the
 * EN 50160 dip and swell tables with counts per cell; the magnitude-duration plot with the ITIC
 * and SEMI F47 curves; and (#events-downloaded) the recordings requested from the cells.
 */
import { useLocation, useNavigate } from "@tanstack/react-router";
import { Activity, Download, ListFilter, Network, Table2 } from "lucide-react";
import { useCallback, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../../lib/api.ts";
import { bareHash } from "../../lib/access.ts";
import { useAsync } from "../../lib/use-async.ts";
import { useFormatters } from "../../lib/use-formatters.ts";
import { Button } from "../../ui/button.tsx";
import { FormField } from "../../ui/form-field.tsx";
import { Input, Select } from "../../ui/input.tsx";
import { AsyncState } from "../../ui/loader.tsx";
import { Page } from "../../ui/page.tsx";
import { Cell, HeadCell, Row, Table, TableBody, TableHead } from "../../ui/table.tsx";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../../ui/tabs.tsx";
import { DipTables } from "./dip-table.tsx";
import { EventDetailPanel, RecordingBadge } from "./event-detail.tsx";
import {
  CURVES,
  EMPTY_FILTER,
  EVENT_PHASES,
  EVENT_TYPES,
  type EventPage,
  type EventPoints,
  EVENTS_PAGE_SIZE,
  type EventTables,
  type EventWorks,
  type FilterForm,
  filterParams,
  formProblems,
  queryOf,
} from "./events-data.ts";
import { GridEventsList } from "./grid-events-list.tsx";
import { MagnitudePlot } from "./magnitude-plot.tsx";
import { Pager } from "../../ui/pager.tsx";
import { RecordingsList } from "./recordings-list.tsx";

const TABS = ["events", "plot", "grid-events", "events-downloaded"] as const;
type Tab = (typeof TABS)[number];
const tabOfHash = (hash: string): Tab => {
  const name = bareHash(hash);
  return (TABS as readonly string[]).includes(name) ? name as Tab : "events";
};

export function EventsPage() {
  const { t } = useTranslation(["pq-events", "modules"]);
  const navigate = useNavigate();
  const tab = tabOfHash(useLocation().hash);
  const [draft, setDraft] = useState<FilterForm>(EMPTY_FILTER);
  const [applied, setApplied] = useState<FilterForm>(EMPTY_FILTER);
  const [page, setPage] = useState(1);
  const [recordingsPage, setRecordingsPage] = useState(1);
  const [gridPage, setGridPage] = useState(1);
  const [open, setOpen] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  /** Raised by Apply, so that applying the same filters loads again (new events came in). */
  const [round, setRound] = useState(0);
  const changed = useCallback(() => setVersion((v) => v + 1), []);
  const problems = formProblems(draft);
  const params = useMemo(() => filterParams(applied), [applied]);
  const query = queryOf(params);

  const works = useAsync((signal) => api.get<EventWorks>("/pqe/electrical-works", { signal }), []);
  const list = useAsync(
    (signal) => api.get<EventPage>(`/pqe/events${queryOf(params, page)}`, { signal }),
    [query, page, version, round],
  );
  const tables = useAsync(
    (signal) => api.get<EventTables>(`/pqe/events/tables${query}`, { signal }),
    [query, round, version],
  );
  const points = useAsync(
    (signal) =>
      tab === "plot"
        ? api.get<EventPoints>(`/pqe/events/points${query}`, { signal })
        : Promise.resolve({ points: [], truncated: false }),
    [query, tab, round],
  );

  const apply = () => {
    if (Object.keys(problems).length) return;
    setApplied(draft);
    setPage(1);
    setRound((r) => r + 1);
  };
  const set = (patch: Partial<FilterForm>) => setDraft((d) => ({ ...d, ...patch }));
  const errorOf = (field: string) =>
    problems[field] ? t(`errors:${problems[field]}`, { min: 0, max: 200 }) : undefined;
  const nodes = works.status === "success"
    ? works.data.electrical_works.flatMap((w) =>
      w.nodes.map((n) => ({ value: n.id, label: `${n.name} · ${w.name}` }))
    )
    : [];

  return (
    <Page
      title={t("modules:power-quality.title")}
      subtitle={t("modules:power-quality.sections.events")}
    >
      <Tabs
        value={tab}
        onValueChange={(value) =>
          void navigate({ to: "/power-quality/events", hash: value === "events" ? "" : value })}
        className="flex min-h-0 flex-1 flex-col gap-3"
      >
        <TabsList aria-label={t("tabs.label")}>
          <TabsTrigger value="events">
            <Table2 aria-hidden />
            {t("tabs.events")}
          </TabsTrigger>
          <TabsTrigger value="plot">
            <Activity aria-hidden />
            {t("tabs.plot")}
          </TabsTrigger>
          <TabsTrigger value="grid-events">
            <Network aria-hidden />
            {t("tabs.grid")}
          </TabsTrigger>
          <TabsTrigger value="events-downloaded">
            <Download aria-hidden />
            {t("tabs.downloaded")}
          </TabsTrigger>
        </TabsList>
        {tab !== "events-downloaded"
          ? (
            <form
              className="grid grid-cols-2 gap-2 rounded-md border bg-surface p-3 md:grid-cols-4 xl:grid-cols-6"
              aria-label={t("filters.label")}
              onSubmit={(e) => {
                e.preventDefault();
                apply();
              }}
            >
              <FormField label={t("filters.node")} className="col-span-2">
                {(control) => (
                  <Select
                    {...control}
                    value={draft.node}
                    onChange={(e) => set({ node: e.target.value })}
                  >
                    <option value="">{t("filters.wholeGrid")}</option>
                    {nodes.map((n) => <option key={n.value} value={n.value}>{n.label}</option>)}
                  </Select>
                )}
              </FormField>
              <FormField label={t("filters.type")}>
                {(control) => (
                  <Select
                    {...control}
                    value={draft.type}
                    onChange={(e) => set({ type: e.target.value as FilterForm["type"] })}
                  >
                    <option value="">{t("filters.all")}</option>
                    {EVENT_TYPES.map((v) => <option key={v} value={v}>{t(`types.${v}`)}</option>)}
                  </Select>
                )}
              </FormField>
              <FormField label={t("filters.phase")}>
                {(control) => (
                  <Select
                    {...control}
                    value={draft.phase}
                    onChange={(e) => set({ phase: e.target.value as FilterForm["phase"] })}
                  >
                    <option value="">{t("filters.all")}</option>
                    {EVENT_PHASES.map((v) => <option key={v} value={v}>{v}</option>)}
                  </Select>
                )}
              </FormField>
              <FormField label={t("filters.from")}>
                {(control) => (
                  <Input
                    {...control}
                    type="datetime-local"
                    value={draft.from}
                    onChange={(e) => set({ from: e.target.value })}
                  />
                )}
              </FormField>
              <FormField label={t("filters.to")} error={errorOf("to")}>
                {(control) => (
                  <Input
                    {...control}
                    type="datetime-local"
                    value={draft.to}
                    onChange={(e) => set({ to: e.target.value })}
                  />
                )}
              </FormField>
              <FormField label={t("filters.depthMin")} error={errorOf("depth_min")}>
                {(control) => (
                  <Input
                    {...control}
                    inputMode="decimal"
                    value={draft.depthMin}
                    onChange={(e) => set({ depthMin: e.target.value })}
                  />
                )}
              </FormField>
              <FormField label={t("filters.depthMax")} error={errorOf("depth_max")}>
                {(control) => (
                  <Input
                    {...control}
                    inputMode="decimal"
                    value={draft.depthMax}
                    onChange={(e) => set({ depthMax: e.target.value })}
                  />
                )}
              </FormField>
              <FormField label={t("filters.durationMin")} error={errorOf("duration_min_ms")}>
                {(control) => (
                  <Input
                    {...control}
                    inputMode="numeric"
                    value={draft.durationMin}
                    onChange={(e) => set({ durationMin: e.target.value })}
                  />
                )}
              </FormField>
              <FormField label={t("filters.durationMax")} error={errorOf("duration_max_ms")}>
                {(control) => (
                  <Input
                    {...control}
                    inputMode="numeric"
                    value={draft.durationMax}
                    onChange={(e) => set({ durationMax: e.target.value })}
                  />
                )}
              </FormField>
              <FormField label={t("filters.curve")}>
                {(control) => (
                  <Select
                    {...control}
                    value={draft.curve}
                    onChange={(e) => set({ curve: e.target.value as FilterForm["curve"] })}
                  >
                    <option value="">{t("filters.noCurve")}</option>
                    {CURVES.map((v) => <option key={v} value={v}>{t(`curves.${v}`)}</option>)}
                  </Select>
                )}
              </FormField>
              <FormField label={t("filters.side")}>
                {(control) => (
                  <Select
                    {...control}
                    value={draft.side}
                    disabled={!draft.curve}
                    onChange={(e) => set({ side: e.target.value as FilterForm["side"] })}
                  >
                    <option value="OUTSIDE">{t("filters.outside")}</option>
                    <option value="INSIDE">{t("filters.inside")}</option>
                  </Select>
                )}
              </FormField>
              <div className="col-span-2 flex items-end gap-2">
                <Button type="submit" size="md" disabled={Object.keys(problems).length > 0}>
                  <ListFilter aria-hidden />
                  {t("filters.apply")}
                </Button>
                <Button
                  type="button"
                  variant="ghost"
                  size="md"
                  onClick={() => {
                    setDraft(EMPTY_FILTER);
                    setApplied(EMPTY_FILTER);
                    setPage(1);
                  }}
                >
                  {t("filters.reset")}
                </Button>
              </div>
            </form>
          )
          : null}
        <div className={open ? "grid gap-4 xl:grid-cols-[minmax(0,1fr)_minmax(0,36rem)]" : ""}>
          <div className="flex min-w-0 flex-col gap-4">
            <TabsContent value="events" className="flex flex-col gap-4">
              <AsyncState state={list} onRetry={list.reload}>
                {(data) => (
                  <EventTable
                    data={data}
                    page={page}
                    onPage={setPage}
                    open={open}
                    onOpen={setOpen}
                  />
                )}
              </AsyncState>
              <AsyncState state={tables} onRetry={tables.reload}>
                {(data) => <DipTables tables={data} />}
              </AsyncState>
            </TabsContent>
            <TabsContent value="plot">
              <AsyncState state={points} onRetry={points.reload}>
                {(data) => <MagnitudePlot points={data} onOpen={setOpen} />}
              </AsyncState>
            </TabsContent>
            <TabsContent value="grid-events">
              <GridEventsList
                query={queryOf(
                  Object.fromEntries(
                    Object.entries(params).filter(([k]) => k === "from" || k === "to"),
                  ),
                )}
                page={gridPage}
                onPage={setGridPage}
                onOpen={setOpen}
              />
            </TabsContent>
            <TabsContent value="events-downloaded">
              <RecordingsList
                page={recordingsPage}
                onPage={setRecordingsPage}
                onOpen={setOpen}
                version={version}
              />
            </TabsContent>
          </div>
          {open
            ? (
              <EventDetailPanel
                key={open}
                eventKey={open}
                onClose={() => setOpen(null)}
                onChanged={changed}
              />
            )
            : null}
        </div>
      </Tabs>
    </Page>
  );
}

function EventTable({ data, page, onPage, open, onOpen }: {
  data: EventPage;
  page: number;
  onPage: (page: number) => void;
  open: string | null;
  onOpen: (key: string) => void;
}) {
  const { t } = useTranslation("pq-events");
  const format = useFormatters();
  return (
    <div className="rounded-md border bg-surface px-3" data-testid="events-list">
      <Table>
        <TableHead>
          <tr>
            <HeadCell>{t("columns.start")}</HeadCell>
            <HeadCell>{t("columns.node")}</HeadCell>
            <HeadCell>{t("columns.type")}</HeadCell>
            <HeadCell>{t("columns.phases")}</HeadCell>
            <HeadCell numeric>{t("columns.duration")}</HeadCell>
            <HeadCell numeric>{t("columns.extreme")}</HeadCell>
            <HeadCell numeric>{t("columns.depth")}</HeadCell>
            <HeadCell>{t("columns.recording")}</HeadCell>
          </tr>
        </TableHead>
        <TableBody>
          {data.events.map((e) => (
            <Row
              key={e.key}
              className={open === e.key
                ? "bg-surface-muted"
                : "cursor-pointer hover:bg-surface-muted"}
              onClick={() => onOpen(e.key)}
              data-testid="event-row"
            >
              <Cell className="tabular">
                <button type="button" className="text-left underline-offset-2 hover:underline">
                  {format.dateTime(e.start)}
                </button>
              </Cell>
              <Cell>{e.node_name}</Cell>
              <Cell>{t(`kinds.${e.kind}`)}</Cell>
              <Cell>
                {e.start_phase === e.end_phase
                  ? e.start_phase ?? "—"
                  : `${e.start_phase ?? "—"} → ${e.end_phase ?? "—"}`}
              </Cell>
              <Cell numeric>{`${format.number(e.duration_ms, 0)} ms`}</Cell>
              <Cell numeric>
                {e.extreme_pct === null ? "—" : `${format.number(e.extreme_pct, 1)} %`}
              </Cell>
              <Cell numeric>
                {e.depth_pct === null ? "—" : `${format.number(e.depth_pct, 1)} %`}
              </Cell>
              <Cell>
                <RecordingBadge recording={e.recording} />
              </Cell>
            </Row>
          ))}
        </TableBody>
      </Table>
      {data.events.length === 0
        ? <p className="p-6 text-center text-sm text-muted-foreground">{t("list.empty")}</p>
        : null}
      <Pager total={data.total} page={page} pageSize={EVENTS_PAGE_SIZE} onPage={onPage} />
    </div>
  );
}
