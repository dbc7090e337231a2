/**
 * The selection panel: LV groups > electrical works > nodes > feeders of the voltage level,
 * with a search box (spec 9: 500 ms input delay) and a checkbox per feeder.
 */
import { ChevronDown, ChevronRight, Search } from "lucide-react";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../ui/button.tsx";
import { cn } from "../../ui/cn.ts";
import { Input } from "../../ui/input.tsx";
import { feederLabel, type FeederPlace, filterTree, type PanelGroup } from "./structure.ts";

/** Spec 9: search input delay. */
const SEARCH_DELAY_MS = 500;

export function FeederPanel({
  tree,
  selected,
  onToggle,
  onClear,
  colorOf,
}: {
  tree: readonly PanelGroup[];
  selected: readonly string[];
  onToggle: (feeder: FeederPlace) => void;
  onClear: () => void;
  /** The curve colour of a selected feeder (compare), shown beside its name. */
  colorOf?: (id: string) => string | undefined;
}) {
  const { t } = useTranslation("statistics");
  const [text, setText] = useState("");
  const [query, setQuery] = useState("");
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  useEffect(() => {
    const timer = window.setTimeout(() => setQuery(text), SEARCH_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [text]);
  const shown = useMemo(() => filterTree(tree, query), [tree, query]);
  const chosen = new Set(selected);
  const toggleGroup = (id: string) =>
    setCollapsed((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <aside
      aria-label={t("panel.title")}
      className="flex min-h-0 w-72 shrink-0 flex-col rounded-lg border bg-surface xl:w-80"
    >
      <div className="flex flex-col gap-2 border-b p-3">
        <div className="relative">
          <Search
            aria-hidden
            className="pointer-events-none absolute left-2 top-1/2 size-4 -translate-y-1/2 text-muted-foreground"
          />
          <Input
            type="search"
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder={t("panel.search")}
            aria-label={t("panel.search")}
            className="pl-8"
          />
        </div>
        <div className="flex h-7 items-center justify-between text-xs text-muted-foreground">
          <span aria-live="polite">{t("panel.selected", { count: selected.length })}</span>
          {selected.length
            ? (
              <Button variant="ghost" size="sm" onClick={onClear}>
                {t("panel.clear")}
              </Button>
            )
            : null}
        </div>
      </div>
      <div className="min-h-0 flex-1 overflow-auto p-2 text-sm">
        {tree.length === 0
          ? <p className="p-2 text-muted-foreground">{t("panel.noFeeders")}</p>
          : shown.length === 0
          ? <p className="p-2 text-muted-foreground">{t("panel.noMatch", { query })}</p>
          : shown.map((group) => {
            const open = query.trim() !== "" || !collapsed.has(group.id);
            return (
              <section key={group.id} className="mb-1">
                <button
                  type="button"
                  aria-expanded={open}
                  onClick={() => toggleGroup(group.id)}
                  className="flex w-full items-center gap-1 rounded px-1 py-1 text-left text-xs font-semibold uppercase tracking-wide text-muted-foreground hover:bg-surface-muted"
                >
                  {open
                    ? <ChevronDown aria-hidden className="size-4" />
                    : <ChevronRight aria-hidden className="size-4" />}
                  {group.name}
                </button>
                {open
                  ? group.works.map((work) => (
                    <div key={work.key} className="ml-5 mt-1">
                      {work.nodes.map((node) => (
                        <div key={node.id} className="mb-1">
                          <p className="truncate font-medium text-foreground" title={node.name}>
                            {node.name === work.name ? work.name : `${work.name} › ${node.name}`}
                          </p>
                          <ul className="ml-1">
                            {node.feeders.map((feeder) => {
                              const color = colorOf?.(feeder.id);
                              return (
                                <li key={feeder.id}>
                                  <label
                                    className={cn(
                                      "flex cursor-pointer items-center gap-2 rounded px-1.5 py-1 hover:bg-surface-muted",
                                      chosen.has(feeder.id) && "bg-accent text-accent-foreground",
                                    )}
                                  >
                                    <input
                                      type="checkbox"
                                      className="size-4 accent-[var(--primary)]"
                                      checked={chosen.has(feeder.id)}
                                      onChange={() => onToggle(feeder)}
                                      aria-label={feederLabel(feeder)}
                                    />
                                    <span className="min-w-0 flex-1 truncate">{feeder.name}</span>
                                    {color
                                      ? (
                                        <span
                                          aria-hidden
                                          className="h-1 w-4 rounded-full"
                                          style={{ background: color }}
                                        />
                                      )
                                      : null}
                                  </label>
                                </li>
                              );
                            })}
                          </ul>
                        </div>
                      ))}
                    </div>
                  ))
                  : null}
              </section>
            );
          })}
      </div>
    </aside>
  );
}
