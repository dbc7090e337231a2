/** The cell lists (10 per page, spec 9) and the search results, as rows with status badges. */
import { ChevronLeft, ChevronRight } from "lucide-react";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { useAsync } from "../../../lib/use-async.ts";
import { Button } from "../../../ui/button.tsx";
import { cn } from "../../../ui/cn.ts";
import { Loader, LoadError } from "../../../ui/loader.tsx";
import { Indicators, StatusBadge } from "./cell-badges.tsx";
import { type CellCategory, cellsApi, type SetupCell } from "./cells-api.ts";

function Section(
  { title, count, children, footer, actions }: {
    title: string;
    count?: number;
    children: ReactNode;
    footer?: ReactNode;
    actions?: ReactNode;
  },
) {
  return (
    <section className="rounded-lg border bg-surface" aria-label={title}>
      <header className="flex items-center justify-between gap-2 border-b px-3 py-2">
        <h2 className="text-sm font-semibold">{title}</h2>
        <div className="flex items-center gap-2">
          {actions}
          {count !== undefined
            ? <span className="text-xs text-muted-foreground">{count}</span>
            : null}
        </div>
      </header>
      {children}
      {footer}
    </section>
  );
}

export function CellList({ category, version, selectedId, onSelect, actions }: {
  category: CellCategory;
  version: number;
  selectedId: string | null;
  onSelect: (cell: SetupCell) => void;
  actions?: ReactNode;
}) {
  const { t } = useTranslation("cells");
  const [page, setPage] = useState(1);
  const state = useAsync((signal) => cellsApi.list(category, page, signal), [
    category,
    page,
    version,
  ]);
  const data = state.status === "success" ? state.data : null;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.page_size)) : 1;
  return (
    <Section
      title={t(`lists.${category}`)}
      actions={actions}
      {...(data ? { count: data.total } : {})}
      footer={data && data.total > data.page_size
        ? (
          <div className="flex items-center justify-end gap-2 border-t px-3 py-1.5 text-xs text-muted-foreground">
            <span>
              {t("pager.range", {
                from: (page - 1) * data.page_size + 1,
                to: Math.min(page * data.page_size, data.total),
                total: data.total,
              })}
            </span>
            <Button
              variant="ghost"
              size="icon"
              aria-label={t("pager.previous")}
              disabled={page <= 1}
              onClick={() => setPage((p) => p - 1)}
            >
              <ChevronLeft />
            </Button>
            <Button
              variant="ghost"
              size="icon"
              aria-label={t("pager.next")}
              disabled={page >= pages}
              onClick={() => setPage((p) => p + 1)}
            >
              <ChevronRight />
            </Button>
          </div>
        )
        : null}
    >
      {state.status === "loading"
        ? <Loader />
        : state.status === "error"
        ? <LoadError onRetry={state.reload} />
        : (
          <CellRows
            cells={state.data.items}
            empty={t(`empty.${category}`)}
            selectedId={selectedId}
            onSelect={onSelect}
          />
        )}
    </Section>
  );
}

export function SearchResults({ query, version, selectedId, onSelect }: {
  query: string;
  version: number;
  selectedId: string | null;
  onSelect: (cell: SetupCell) => void;
}) {
  const { t } = useTranslation("cells");
  const state = useAsync((signal) => cellsApi.search(query, signal), [query, version]);
  return (
    <Section title={t("search.results")}>
      {state.status === "loading"
        ? <Loader />
        : state.status === "error"
        ? <LoadError onRetry={state.reload} />
        : (
          <CellRows
            cells={state.data}
            empty={t("search.none")}
            selectedId={selectedId}
            onSelect={onSelect}
          />
        )}
    </Section>
  );
}

function CellRows({ cells, empty, selectedId, onSelect }: {
  cells: SetupCell[];
  empty: string;
  selectedId: string | null;
  onSelect: (cell: SetupCell) => void;
}) {
  if (!cells.length) return <p className="px-3 py-4 text-sm text-muted-foreground">{empty}</p>;
  return (
    <ul className="divide-y">
      {cells.map((cell) => (
        <li key={cell.id}>
          <button
            type="button"
            onClick={() => onSelect(cell)}
            aria-current={cell.id === selectedId ? "true" : undefined}
            className={cn(
              "flex w-full items-center gap-3 px-3 py-2 text-left hover:bg-surface-muted focus-visible:outline-2 focus-visible:outline-ring",
              cell.id === selectedId && "bg-accent",
            )}
          >
            <div className="flex min-w-0 flex-1 flex-col">
              <span className="truncate text-sm font-medium">{cell.serial_number}</span>
              <span className="truncate text-xs text-muted-foreground">
                {cell.node?.name ?? cell.id}
                {cell.custom_message ? ` · ${cell.custom_message}` : ""}
              </span>
            </div>
            <Indicators cell={cell} />
            {/* A cell in stock has never been installed: its place says more than its status. */}
            <StatusBadge label={cell.type === "IN_STOCK" ? "inStock" : cell.status_label} />
          </button>
        </li>
      ))}
    </ul>
  );
}
