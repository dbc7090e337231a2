/**
 * The bar above the grid-monitoring list: how many nodes are in each state (a click filters to
 * it), the alarms no upstream outage explains, and the search by node or electrical work.
 */
import { BellRing, Search } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Badge } from "../../ui/badge.tsx";
import { cn } from "../../ui/cn.ts";
import { Input } from "../../ui/input.tsx";
import { GRID_STATES, type GridState, type GridStatus } from "./grid-types.ts";
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
  filter: GridState | null;
  query: string;
  onFilter: (state: GridState | undefined) => void;
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
      <Badge
        tone={status.alarms ? "critical" : "ok"}
        icon={<BellRing aria-hidden />}
        className="h-8 rounded-md px-2.5 text-sm"
        title={t("alarmsHint")}
        data-testid="alarms"
      >
        {t("alarms", { count: status.alarms })}
      </Badge>
      <label className="relative ml-auto w-56">
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
