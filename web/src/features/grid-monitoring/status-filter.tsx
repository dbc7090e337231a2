/**
 * The bar above the grid-monitoring list: how many nodes are in each state (a click filters to
 * it), the alarms no upstream outage explains (a click filters to them), and the search by node
 * or electrical work.
 */
import { BellRing, Search } from "lucide-react";
import { useTranslation } from "react-i18next";
import { cn } from "../../ui/cn.ts";
import { SOFT_TONE } from "../../ui/tones.ts";
import { Input } from "../../ui/input.tsx";
import { GRID_STATES, type GridStatus } from "./grid-types.ts";
import type { ListFilter } from "./logic.ts";
import { StateBadge } from "./state-look.tsx";

export function StatusFilter({
  status,
  nodeCount,
  filter,
  query,
  onFilter,
  onQuery,
}: {
  status: GridStatus;
  nodeCount: number;
  filter: ListFilter | null;
  query: string;
  onFilter: (filter: ListFilter | undefined) => void;
  onQuery: (query: string) => void;
}) {
  const { t } = useTranslation("grid-monitoring");
  return (
    <div className="flex flex-wrap items-center gap-2">
      <div
        role="group"
        aria-label={t("filter.label")}
        className="flex flex-wrap items-center gap-1.5"
      >
        <button
          type="button"
          aria-pressed={filter === null}
          onClick={() => onFilter(undefined)}
          className={cn(
            "inline-flex h-8 items-center gap-2 rounded-md border px-3 text-sm transition-colors",
            filter === null
              ? "border-primary bg-accent text-accent-foreground"
              : "bg-surface hover:bg-surface-muted",
          )}
        >
          {t("filter.all")}
          <span className="tabular font-semibold">{nodeCount}</span>
        </button>
        {GRID_STATES.map((s) => (
          <button
            key={s}
            type="button"
            aria-pressed={filter === s}
            data-testid={`count-${s}`}
            onClick={() => onFilter(filter === s ? undefined : s)}
            className={cn(
              "inline-flex h-8 items-center gap-2 rounded-md border px-2 text-sm transition-colors",
              filter === s
                ? "border-primary bg-accent text-accent-foreground"
                : "bg-surface hover:bg-surface-muted",
              status.counts[s] === 0 && filter !== s && "opacity-60",
            )}
          >
            <StateBadge state={s} />
            <span className="tabular min-w-5 text-right font-semibold">{status.counts[s]}</span>
          </button>
        ))}
      </div>
      <button
        type="button"
        aria-pressed={filter === "ALARMS"}
        onClick={() => onFilter(filter === "ALARMS" ? undefined : "ALARMS")}
        title={t("alarmsHint")}
        data-testid="alarms"
        className={cn(
          "tabular inline-flex h-8 items-center gap-1.5 rounded-md border px-2.5 text-sm font-medium transition-colors [&_svg]:size-3.5",
          SOFT_TONE[status.alarms ? "critical" : "ok"],
          filter === "ALARMS"
            ? "border-primary ring-1 ring-primary"
            : "border-transparent hover:border-border",
        )}
      >
        <BellRing aria-hidden />
        {t("alarms", { count: status.alarms })}
      </button>
      <label className="relative ml-auto w-64">
        <span className="sr-only">{t("searchLabel")}</span>
        <Search
          aria-hidden
          className="pointer-events-none absolute left-2 top-1/2 size-4 -translate-y-1/2 text-muted-foreground"
        />
        <Input
          type="search"
          value={query}
          placeholder={t("searchPlaceholder")}
          className="pl-8"
          onChange={(e) => onQuery(e.target.value)}
        />
      </label>
    </div>
  );
}
