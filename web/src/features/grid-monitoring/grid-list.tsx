/**
 * The grid as a list: station group > MV feeder group > LV group > nodes, each with its state.
 * Windowed: only the rows in view are rendered, so 5,000 nodes scroll as smoothly as 50. The
 * column header and the group path of the top row stay visible (sticky) while scrolling.
 */
import { ChevronRight } from "lucide-react";
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useFormatters } from "../../lib/use-formatters.ts";
import { cn } from "../../ui/cn.ts";
import { GRID_STATES, type GridState } from "./grid-types.ts";
import type { ListRow, StateCounts } from "./logic.ts";
import { STATE_LOOK, StateBadge } from "./state-look.tsx";

const HEIGHT: Record<ListRow["kind"], number> = { station: 34, mv: 30, lv: 30, node: 46 };
const OVERSCAN_PX = 400;
const INDENT: Record<Exclude<ListRow["kind"], "node">, string> = {
  station: "pl-3",
  mv: "pl-6",
  lv: "pl-9",
};

const COLUMNS = "grid grid-cols-[minmax(9rem,1fr)_9.5rem_9rem] items-center";

export function GridList({
  rows,
  selected,
  onSelect,
  label,
}: {
  rows: readonly ListRow[];
  selected: string | null;
  onSelect: (id: string) => void;
  label: string;
}) {
  const { t } = useTranslation(["grid-monitoring", "infrastructure"]);
  const format = useFormatters();
  const scroller = useRef<HTMLDivElement>(null);
  const [view, setView] = useState({ top: 0, height: 800 });
  const offsets = useMemo(() => {
    const out = new Float64Array(rows.length + 1);
    rows.forEach((r, k) => (out[k + 1] = out[k]! + HEIGHT[r.kind]));
    return out;
  }, [rows]);
  const total = offsets[rows.length] ?? 0;
  const nodeRows = useMemo(() => rows.filter((r) => r.kind === "node").length, [rows]);
  // First row whose bottom is below y (binary search over the offsets).
  const indexAt = (y: number) => {
    let lo = 0;
    let hi = rows.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (offsets[mid + 1]! <= y) lo = mid + 1;
      else hi = mid;
    }
    return Math.min(lo, Math.max(rows.length - 1, 0));
  };
  const first = indexAt(Math.max(0, view.top - OVERSCAN_PX));
  const last = indexAt(view.top + view.height + OVERSCAN_PX);
  const top = rows[indexAt(view.top)];

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const update = () => setView({ top: el.scrollTop, height: el.clientHeight });
    update();
    el.addEventListener("scroll", update, { passive: true });
    const resize = new ResizeObserver(update);
    resize.observe(el);
    return () => {
      el.removeEventListener("scroll", update);
      resize.disconnect();
    };
  }, []);

  // A node selected elsewhere (the map, the URL) is scrolled into view; one already in view
  // stays where it is, so a click in the list never moves it.
  useEffect(() => {
    const el = scroller.current;
    if (!el || !selected) return;
    const k = rows.findIndex((r) => r.kind === "node" && r.id === selected);
    if (k < 0) return;
    const y = offsets[k]!;
    const header = 56;
    if (y < el.scrollTop || y + HEIGHT.node > el.scrollTop + el.clientHeight - header) {
      el.scrollTop = Math.max(0, y - el.clientHeight / 3);
    }
    // Only a new selection scrolls, not a refresh of the rows.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [selected]);

  return (
    <div
      ref={scroller}
      role="region"
      aria-label={label}
      tabIndex={-1}
      className="relative min-h-0 flex-1 overflow-auto"
      data-testid="grid-list"
    >
      <div className="sticky top-0 z-10 border-b bg-surface-muted text-xs text-muted-foreground">
        <div className={cn(COLUMNS, "h-7 gap-2 px-3 font-medium")}>
          <span>{t("list.node")}</span>
          <span>{t("list.state")}</span>
          <span className="text-right">{t("list.lastValue")}</span>
        </div>
        <div className="flex h-6 items-center gap-1 truncate border-t bg-surface px-3 text-[0.7rem]">
          {top?.kind === "station"
            ? (
              <span className="text-muted-foreground">
                {t("list.shown", { count: nodeRows })}
              </span>
            )
            : top?.path.map((name, k) => (
              <span key={k} className="inline-flex items-center gap-1 truncate">
                {k ? <ChevronRight aria-hidden className="size-3 shrink-0" /> : null}
                {name}
              </span>
            ))}
        </div>
      </div>
      <div style={{ height: total }} className="relative">
        {rows.slice(first, last + 1).map((row, n) => {
          const k = first + n;
          const style = { top: offsets[k], height: HEIGHT[row.kind] };
          if (row.kind !== "node") {
            return (
              <div
                key={`${row.kind}-${row.id}`}
                style={style}
                className={cn(
                  COLUMNS,
                  "absolute inset-x-0 gap-2 border-b pr-3 text-xs",
                  INDENT[row.kind],
                  row.kind === "station"
                    ? "bg-surface-muted font-semibold text-foreground"
                    : "font-medium text-muted-foreground",
                )}
              >
                <span className="truncate">{row.name}</span>
                <StateDistribution counts={row.counts} />
              </div>
            );
          }
          const node = row.node;
          const isSelected = node.id === selected;
          return (
            <button
              key={node.id}
              type="button"
              style={style}
              aria-pressed={isSelected}
              data-node-id={node.id}
              onClick={() => onSelect(node.id)}
              className={cn(
                COLUMNS,
                "absolute inset-x-0 gap-2 border-b px-3 pl-12 text-left text-sm transition-colors hover:bg-surface-muted focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-ring",
                isSelected && "bg-accent text-accent-foreground hover:bg-accent",
              )}
            >
              <span className="min-w-0">
                <span className="block truncate font-medium">{node.name}</span>
                <span className="block truncate text-xs text-muted-foreground">
                  {node.electrical_work.name === node.name
                    ? t(`infrastructure:electricalWorkTypes.${node.electrical_work.type}`, {
                      defaultValue: node.electrical_work.type,
                    })
                    : node.electrical_work.name}
                </span>
              </span>
              <span title={node.suppressed_by ? t("list.suppressed") : undefined}>
                <StateBadge state={node.state} muted={node.suppressed_by !== null} />
                {node.suppressed_by
                  ? <span className="sr-only">{t("list.suppressed")}</span>
                  : null}
              </span>
              <span className="tabular truncate text-right text-xs text-muted-foreground">
                {node.last_value_at ? format.dateTime(node.last_value_at) : t("detail.never")}
              </span>
            </button>
          );
        })}
      </div>
    </div>
  );
}

/**
 * A group's nodes per state: a thin bar with a segment per state and the count of each state
 * with its icon, so one silent node shows as "1 no data" beside the others, not as a grey group.
 */
function StateDistribution({ counts }: { counts: StateCounts }) {
  const { t } = useTranslation("grid-monitoring");
  const present = GRID_STATES.filter((s) => (counts[s] ?? 0) > 0);
  const total = present.reduce((sum, s) => sum + counts[s]!, 0);
  const label = present.map((s: GridState) => `${counts[s]} ${t(`states.${s}`)}`).join(", ");
  return (
    <span
      className="col-span-2 flex min-w-0 items-center justify-end gap-2"
      title={label}
      data-testid="state-distribution"
    >
      <span className="sr-only">{label}</span>
      <span aria-hidden className="flex items-center gap-1.5 font-normal">
        {present.map((s) => (
          <span
            key={s}
            className={cn(
              "tabular inline-flex items-center gap-0.5 [&_svg]:size-3",
              STATE_LOOK[s].text,
            )}
          >
            {STATE_LOOK[s].icon}
            {counts[s]}
          </span>
        ))}
      </span>
      <span aria-hidden className="flex h-1.5 w-16 shrink-0 overflow-hidden rounded-full bg-border">
        {present.map((s) => (
          <span
            key={s}
            className={STATE_LOOK[s].dot}
            style={{ width: `${(100 * counts[s]!) / total}%` }}
          />
        ))}
      </span>
    </span>
  );
}
