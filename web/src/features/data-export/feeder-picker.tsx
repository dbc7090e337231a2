/**
 * The feeder picker: station group > LV group > node > feeder with a checkbox at every level
 * (a group's box selects or clears every feeder below it) and a search over every name.
 */
import { Search } from "lucide-react";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import type { ExportFeederDto } from "../../../../modules/export/contract.ts";
import { Input } from "../../ui/input.tsx";
import { feedersBelow, pickerTree, toggleFeeders } from "./export-form.ts";

export function FeederPicker({
  feeders,
  selected,
  onChange,
  invalid,
}: {
  feeders: readonly ExportFeederDto[];
  selected: readonly string[];
  onChange: (ids: string[]) => void;
  invalid?: boolean;
}) {
  const { t } = useTranslation("data-export");
  const [query, setQuery] = useState("");
  const tree = useMemo(() => pickerTree(feeders, query), [feeders, query]);
  const box = (ids: string[], label: string, depth: number, testId?: string) => {
    const count = ids.filter((id) => selected.includes(id)).length;
    return (
      <label
        className="flex cursor-pointer items-center gap-2 py-0.5 text-sm"
        style={{ paddingLeft: `${depth * 1.1}rem` }}
      >
        <input
          type="checkbox"
          className="size-4 accent-primary"
          checked={count > 0 && count === ids.length}
          ref={(el) => {
            if (el) el.indeterminate = count > 0 && count < ids.length;
          }}
          onChange={() => onChange(toggleFeeders(selected, ids))}
          data-testid={testId}
        />
        <span className={depth < 3 ? "font-medium" : undefined}>{label}</span>
      </label>
    );
  };
  return (
    <div className="flex flex-col gap-2">
      <div className="relative">
        <Search className="pointer-events-none absolute left-2 top-2 size-4 text-muted-foreground" />
        <Input
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          placeholder={t("form.searchFeeders")}
          aria-label={t("form.searchFeeders")}
          className="pl-8"
        />
      </div>
      <div
        className={`max-h-72 overflow-auto rounded-md border p-2 ${
          invalid ? "border-state-critical" : ""
        }`}
        role="group"
        aria-label={t("form.feeders")}
      >
        {tree.length === 0 && <p className="text-sm text-muted-foreground">{t("form.noFeeders")}
        </p>}
        {tree.map((g) => (
          <div key={g.id}>
            {box(feedersBelow(g), g.name, 0)}
            {g.lvGroups.map((l) => (
              <div key={l.id}>
                {box(feedersBelow(l), l.name, 1)}
                {l.nodes.map((n) => (
                  <div key={n.id}>
                    {box(
                      feedersBelow(n),
                      t("form.nodeLabel", { node: n.name, station: n.station }),
                      2,
                    )}
                    {n.feeders.map((f) => (
                      <div key={f.feeder_id}>
                        {box([f.feeder_id], f.feeder_name, 3, `feeder-${f.feeder_id}`)}
                      </div>
                    ))}
                  </div>
                ))}
              </div>
            ))}
          </div>
        ))}
      </div>
      <p className="text-xs text-muted-foreground">
        {t("form.selectedFeeders", { count: selected.length })}
      </p>
    </div>
  );
}
