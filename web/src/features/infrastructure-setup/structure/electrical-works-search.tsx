/**
 * Electrical-works search (spec 9): results after a 500 ms pause in typing, from 3 characters,
 * at most 10 results; choosing one selects its node.
 */
import { Search } from "lucide-react";
import { useEffect, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Input } from "../../../ui/input.tsx";
import { type ElectricalWorkHit, gridApi } from "./grid-api.ts";

/** Spec 9: search input delay. */
export const SEARCH_DELAY_MS = 500;
const MIN_CHARS = 3;

export function ElectricalWorksSearch({ onPick }: { onPick: (hit: ElectricalWorkHit) => void }) {
  const { t } = useTranslation("infrastructure");
  const [query, setQuery] = useState("");
  const [hits, setHits] = useState<ElectricalWorkHit[] | null>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const listId = useId();

  useEffect(() => {
    const term = query.trim();
    if (term.length < MIN_CHARS) {
      setHits(null);
      return;
    }
    const controller = new AbortController();
    const timer = window.setTimeout(() => {
      gridApi.search(term, controller.signal).then(
        (result) => {
          setHits(result.slice(0, 10));
          setActive(0);
          setOpen(true);
        },
        () => {
          if (!controller.signal.aborted) setHits([]);
        },
      );
    }, SEARCH_DELAY_MS);
    return () => {
      window.clearTimeout(timer);
      controller.abort();
    };
  }, [query]);

  const pick = (hit: ElectricalWorkHit) => {
    onPick(hit);
    setOpen(false);
    setQuery("");
  };
  const term = query.trim();

  return (
    <div className="relative w-full max-w-sm">
      <Search
        aria-hidden
        className="pointer-events-none absolute left-2.5 top-2 size-4 text-muted-foreground"
      />
      <Input
        type="search"
        role="combobox"
        aria-expanded={open && hits !== null}
        aria-controls={listId}
        aria-label={t("search.label")}
        placeholder={t("search.placeholder")}
        className="pl-8"
        value={query}
        onChange={(e) => {
          setQuery(e.target.value);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => window.setTimeout(() => setOpen(false), 150)}
        onKeyDown={(e) => {
          if (!hits?.length) return;
          if (e.key === "ArrowDown") setActive((a) => Math.min(a + 1, hits.length - 1));
          else if (e.key === "ArrowUp") setActive((a) => Math.max(a - 1, 0));
          else if (e.key === "Enter") {
            e.preventDefault();
            const hit = hits[active];
            if (hit) pick(hit);
          } else return;
          e.preventDefault();
        }}
      />
      {open && term.length > 0
        ? (
          <div
            id={listId}
            role="listbox"
            aria-label={t("search.results")}
            className="absolute z-30 mt-1 w-full overflow-hidden rounded-md border bg-surface shadow-lg"
          >
            {term.length < MIN_CHARS
              ? <p className="px-3 py-2 text-xs text-muted-foreground">{t("search.minChars")}</p>
              : hits === null
              ? <p className="px-3 py-2 text-xs text-muted-foreground">{t("search.searching")}</p>
              : hits.length === 0
              ? <p className="px-3 py-2 text-xs text-muted-foreground">{t("search.none")}</p>
              : hits.map((hit, i) => (
                <div
                  key={hit.node_id}
                  role="option"
                  aria-selected={i === active}
                  tabIndex={-1}
                  className={`cursor-pointer px-3 py-1.5 text-sm ${
                    i === active ? "bg-surface-muted" : ""
                  }`}
                  onMouseDown={(e) => {
                    e.preventDefault();
                    pick(hit);
                  }}
                >
                  <div className="font-medium">{hit.name}</div>
                  <div className="truncate text-xs text-muted-foreground">
                    {[hit.station_group.name, hit.mv_feeder_group.name, hit.lv_group.name].join(
                      " › ",
                    )}
                  </div>
                </div>
              ))}
          </div>
        )
        : null}
    </div>
  );
}
