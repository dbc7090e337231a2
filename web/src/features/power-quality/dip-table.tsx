/** The EN 50160 dip (table 8) and swell (table 9) tables with the count of events per cell. */
import { useTranslation } from "react-i18next";
import { cn } from "../../ui/cn.ts";
import {
  DIP_COLUMN_IDS,
  DIP_ROW_IDS,
  type EventTables,
  idKey,
  SWELL_COLUMN_IDS,
  SWELL_ROW_IDS,
} from "./events-data.ts";

function CountTable({ caption, rows, columns, counts, rowLabel, columnLabel, testId }: {
  caption: string;
  rows: readonly string[];
  columns: readonly string[];
  counts: Record<string, Record<string, number>>;
  rowLabel: (row: string) => string;
  columnLabel: (column: string) => string;
  testId: string;
}) {
  const { t } = useTranslation("pq-events");
  return (
    <table className="w-full border-collapse text-xs" data-testid={testId}>
      <caption className="pb-1 text-left text-sm font-medium">{caption}</caption>
      <thead>
        <tr>
          <th scope="col" className="border px-2 py-1 text-left font-medium">
            {t("tables.residualDuration")}
          </th>
          {columns.map((c) => (
            <th key={c} scope="col" className="border px-2 py-1 font-medium tabular">
              {columnLabel(c)}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r}>
            <th scope="row" className="border px-2 py-1 text-left font-medium tabular">
              {rowLabel(r)}
            </th>
            {columns.map((c) => {
              const n = counts[r]?.[c] ?? 0;
              return (
                <td
                  key={c}
                  className={cn(
                    "border px-2 py-1 text-center tabular",
                    n > 0 && "bg-state-warning-soft font-semibold",
                  )}
                >
                  {n}
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function DipTables({ tables }: { tables: EventTables }) {
  const { t } = useTranslation("pq-events");
  return (
    <section className="flex flex-col gap-4" aria-label={t("tables.title")}>
      <CountTable
        caption={t("tables.dips")}
        rows={DIP_ROW_IDS}
        columns={DIP_COLUMN_IDS}
        counts={tables.dip}
        rowLabel={(r) => t(`tables.dipRows.${idKey(r)}`)}
        columnLabel={(c) => t(`tables.dipColumns.${idKey(c)}`)}
        testId="dip-table"
      />
      <CountTable
        caption={t("tables.swells")}
        rows={SWELL_ROW_IDS}
        columns={SWELL_COLUMN_IDS}
        counts={tables.swell}
        rowLabel={(r) => t(`tables.swellRows.${idKey(r)}`)}
        columnLabel={(c) => t(`tables.swellColumns.${idKey(c)}`)}
        testId="swell-table"
      />
      <p className="text-xs text-muted-foreground">
        {t("tables.others", {
          short: tables.interruptions_short,
          long: tables.interruptions_long,
          outside: tables.outside_tables,
          rvc: tables.rvc,
          msv: tables.msv,
        })}
      </p>
    </section>
  );
}
