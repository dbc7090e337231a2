/**
 * IO Monitoring (spec 2.1, 7): the electrical works whose cells have active I/O modules, from
 * GET /iom/electrical-works, refreshed every 30 s in place. Selecting one (URL ?ew=) shows its
 * modules with every channel's state or value, and their history over the chosen period
 * (URL ?period=24h|7d|30d); the search text lives in the URL too (?q=).
 */
import { getRouteApi } from "@tanstack/react-router";
import { Clock, Search, ToggleRight } from "lucide-react";
import { useTranslation } from "react-i18next";
import { api } from "../../lib/api.ts";
import { useFormatters } from "../../lib/use-formatters.ts";
import { liveState, REFRESH_MS, useLiveLoad } from "../../lib/use-live-load.ts";
import { cn } from "../../ui/cn.ts";
import { Badge } from "../../ui/badge.tsx";
import { EmptyState } from "../../ui/empty-state.tsx";
import { Input } from "../../ui/input.tsx";
import { AsyncState } from "../../ui/loader.tsx";
import { Page } from "../../ui/page.tsx";
import {
  type IoElectricalWork,
  type IoElectricalWorks,
  isStale,
  parsePeriod,
  type Period,
  searchWorks,
  summary,
} from "./io-data.ts";
import { IoWorkDetail } from "./io-work-detail.tsx";

const route = getRouteApi("/io-monitoring");

export function IoMonitoringPage() {
  const { t } = useTranslation(["io-monitoring", "modules"]);
  const format = useFormatters();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const selected = search.ew ?? null;
  const period = parsePeriod(search.period);
  const query = search.q ?? "";
  const setSearch = (next: Partial<typeof search>) =>
    void navigate({ search: (prev) => ({ ...prev, ...next }), replace: true });

  // Refreshed in place: the last answer stays on screen while the next one loads.
  const load = useLiveLoad(
    (signal) => api.get<IoElectricalWorks>("/iom/electrical-works", { signal }),
    "works",
    REFRESH_MS,
  );
  const data = load.data;

  return (
    <Page
      title={t("modules:io-monitoring.title")}
      subtitle={t("modules:io-monitoring.purpose")}
      actions={data
        ? (
          <span className="text-xs text-muted-foreground">
            {t("updatedAt", { time: format.dateTime(data.generated_at) })}
          </span>
        )
        : null}
    >
      <AsyncState state={liveState(load)} onRetry={load.refresh}>
        {(answer) =>
          answer.electrical_works.length === 0
            ? (
              <EmptyState
                icon={<ToggleRight />}
                title={t("empty")}
                description={t("emptyHint")}
              />
            )
            : (
              <div className="grid min-h-0 flex-1 gap-4 lg:grid-cols-[20rem_minmax(0,1fr)]">
                <WorkList
                  works={answer.electrical_works}
                  query={query}
                  selected={selected}
                  onQuery={(q) => setSearch({ q: q || undefined })}
                  onSelect={(key) => setSearch({ ew: key })}
                />
                <div className="min-w-0">
                  {selected
                    ? (
                      <Selected
                        work={answer.electrical_works.find((w) => w.key === selected) ?? null}
                        period={period}
                        onPeriod={(p) => setSearch({ period: p })}
                      />
                    )
                    : <EmptyState title={t("select")} description={t("selectHint")} />}
                </div>
              </div>
            )}
      </AsyncState>
    </Page>
  );
}

function Selected(
  { work, period, onPeriod }: {
    work: IoElectricalWork | null;
    period: Period;
    onPeriod: (p: Period) => void;
  },
) {
  const { t } = useTranslation("io-monitoring");
  if (!work) return <EmptyState title={t("notFound")} />;
  return <IoWorkDetail work={work} period={period} onPeriod={onPeriod} />;
}

function WorkList(
  { works, query, selected, onQuery, onSelect }: {
    works: readonly IoElectricalWork[];
    query: string;
    selected: string | null;
    onQuery: (q: string) => void;
    onSelect: (key: string) => void;
  },
) {
  const { t } = useTranslation(["io-monitoring", "infrastructure"]);
  const format = useFormatters();
  const shown = searchWorks(works, query);
  const now = Date.now();
  return (
    <nav
      aria-label={t("listLabel")}
      className="flex min-h-0 flex-col gap-2 rounded-lg border bg-surface p-2 lg:max-h-[calc(100vh-11rem)]"
    >
      <label className="relative block">
        <span className="sr-only">{t("search")}</span>
        <Search
          aria-hidden
          className="pointer-events-none absolute top-2 left-2 size-4 text-muted-foreground"
        />
        <Input
          type="search"
          value={query}
          placeholder={t("searchPlaceholder")}
          onChange={(e) => onQuery(e.target.value)}
          className="pl-8"
        />
      </label>
      {shown.length === 0
        ? <p className="px-2 py-4 text-sm text-muted-foreground">{t("noMatch", { q: query })}</p>
        : (
          <ul className="-mx-1 min-h-0 overflow-auto">
            {shown.map((w) => {
              const s = summary(w);
              const active = w.key === selected;
              return (
                <li key={w.key}>
                  <button
                    type="button"
                    aria-current={active ? "true" : undefined}
                    onClick={() => onSelect(w.key)}
                    className={cn(
                      "flex w-full flex-col gap-0.5 rounded-md px-3 py-2 text-left text-sm transition-colors",
                      active ? "bg-accent text-accent-foreground" : "hover:bg-surface-muted",
                    )}
                  >
                    <span className="flex items-center justify-between gap-2">
                      <span className="truncate font-medium">{w.name}</span>
                      {s.inputsOn > 0
                        ? (
                          <Badge tone="warning" icon={<ToggleRight aria-hidden />}>
                            {t("inputsOn", { count: s.inputsOn })}
                          </Badge>
                        )
                        : null}
                    </span>
                    <span className="truncate text-xs text-muted-foreground">
                      {t(`infrastructure:electricalWorkTypes.${w.type}`)}
                    </span>
                    <span
                      className={cn(
                        "inline-flex items-center gap-1 text-xs whitespace-nowrap tabular",
                        isStale(s.lastData, now) ? "text-state-warning" : "text-muted-foreground",
                      )}
                    >
                      {isStale(s.lastData, now)
                        ? <Clock aria-label={t("cellStale")} className="size-3.5 shrink-0" />
                        : null}
                      {s.lastData
                        ? t("lastData", { time: format.dateTime(s.lastData) })
                        : t("noDataYet")}
                    </span>
                  </button>
                </li>
              );
            })}
          </ul>
        )}
    </nav>
  );
}
