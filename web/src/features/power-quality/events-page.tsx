/**
 * Power-quality events (spec 2.1 /power-quality/events, data from /pqe/electrical-works): the
 * events of one node or of the whole grid, 12 per page, filtered by type, phase, period, depth,
 * duration and a tolerance curve; an event's detail with its RMS trace and its recording; the
 * EN 50160 dip and swell tables with counts per cell; the magnitude-duration plot with the ITIC
 * and SEMI F47 curves; and (#events-downloaded) the recordings requested from the cells.
 */
import { useLocation, useNavigate } from "@tanstack/react-router";
import { Activity, Download, Network, Table2 } from "lucide-react";
import { useCallback, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../../lib/api.ts";
import { bareHash } from "../../lib/access.ts";
import { useAsync } from "../../lib/use-async.ts";
import { AsyncState } from "../../ui/loader.tsx";
import { Page } from "../../ui/page.tsx";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../../ui/tabs.tsx";
import { DipTables } from "./dip-table.tsx";
import { EventDetailPanel } from "./event-detail.tsx";
import {
  EMPTY_FILTER,
  type EventPage,
  type EventPoints,
  type EventTables,
  type EventWorks,
  type FilterForm,
  filterParams,
  formProblems,
  queryOf,
} from "./events-data.ts";
import { EventsFilterForm } from "./events-filter-form.tsx";
import { EventsTable } from "./events-table.tsx";
import { GridEventsList } from "./grid-events-list.tsx";
import { MagnitudePlot } from "./magnitude-plot.tsx";
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
            <EventsFilterForm
              draft={draft}
              onChange={set}
              problems={problems}
              nodes={nodes}
              onApply={apply}
              onReset={() => {
                setDraft(EMPTY_FILTER);
                setApplied(EMPTY_FILTER);
                setPage(1);
              }}
            />
          )
          : null}
        <div className={open ? "grid gap-4 xl:grid-cols-[minmax(0,1fr)_minmax(0,36rem)]" : ""}>
          <div className="flex min-w-0 flex-col gap-4">
            <TabsContent value="events" className="flex flex-col gap-4">
              <AsyncState state={list} onRetry={list.reload}>
                {(data) => (
                  <EventsTable
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
