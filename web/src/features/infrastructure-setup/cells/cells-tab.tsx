/**
 * The cells of the infrastructure setup (spec 2.8, 4, 5, 9): cells waiting for configuration, in
 * stock and in the field (10 per page), search with a 500 ms input delay, status badges with the
 * server's label keys, GPS and GSM indicators, the cell message, linking to a node, and the line
 * mapping with its validation. Registering cells and their credentials: cell-onboarding-dialogs.tsx
 * and cell-credential-actions.tsx.
 */
import { Search } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Input } from "../../../ui/input.tsx";
import { useCanWrite, useDebounced } from "./cell-access.ts";
import { CellDetail } from "./cell-detail.tsx";
import { CellList, SearchResults } from "./cell-lists.tsx";
import { StockActions } from "./cell-onboarding-dialogs.tsx";
import { type CellCategory, cellsApi, type SetupCell } from "./cells-api.ts";
import { SEARCH_DELAY_MS } from "./cells-rules.ts";

const LISTS: readonly CellCategory[] = ["WAITING_FOR_INSTALLATION", "IN_STOCK", "INSTALLED"];

/** The cells tab. */
export function CellsTab() {
  const { t } = useTranslation("cells");
  const canWrite = useCanWrite();
  const [query, setQuery] = useState("");
  const search = useDebounced(query.trim(), SEARCH_DELAY_MS);
  const [selected, setSelected] = useState<SetupCell | null>(null);
  const [version, setVersion] = useState(0);
  const changed = (cell: SetupCell | null) => {
    setSelected(cell);
    setVersion((v) => v + 1);
  };
  /** New cells: the lists reload; a single new cell opens in the detail. */
  const registered = async (cellIds: string[]) => {
    if (cellIds.length !== 1) return setVersion((v) => v + 1);
    changed(await cellsApi.get(cellIds[0]!).catch(() => selected));
  };

  return (
    <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_minmax(0,1.1fr)]">
      <div className="flex min-w-0 flex-col gap-4">
        <div className="relative">
          <Search
            aria-hidden
            className="pointer-events-none absolute top-2 left-2.5 size-4 text-muted-foreground"
          />
          <Input
            type="search"
            aria-label={t("search.label")}
            placeholder={t("search.placeholder")}
            value={query}
            maxLength={60}
            onChange={(e) => setQuery(e.target.value)}
            className="pl-8"
          />
        </div>
        {search
          ? (
            <SearchResults
              query={search}
              version={version}
              selectedId={selected?.id ?? null}
              onSelect={setSelected}
            />
          )
          : LISTS.map((category) => (
            <CellList
              key={category}
              category={category}
              version={version}
              selectedId={selected?.id ?? null}
              onSelect={setSelected}
              actions={category === "IN_STOCK" && canWrite
                ? <StockActions onRegistered={(ids) => void registered(ids)} />
                : null}
            />
          ))}
      </div>
      <div className="min-w-0">
        {selected
          ? (
            <CellDetail
              key={selected.id}
              cell={selected}
              onChanged={changed}
              onClose={() => setSelected(null)}
            />
          )
          : (
            <div className="rounded-lg border border-dashed p-6 text-center text-sm text-muted-foreground">
              {t("detail.choose")}
            </div>
          )}
      </div>
    </div>
  );
}
