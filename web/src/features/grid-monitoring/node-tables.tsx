/** The tables of the node panel: its warnings since when, and each feeder's latest values. */
import { useTranslation } from "react-i18next";
import { useFormatters } from "../../lib/use-formatters.ts";
import { Cell, HeadCell, Row, Table, TableBody, TableHead } from "../../ui/table.tsx";
import type { Level, NodeDetail, NodeWarning } from "./grid-types.ts";
import { VOLTS } from "./node-history.tsx";
import { PhaseLabel, StateBadge } from "./state-look.tsx";

/** The node's phases not OK, with the start of each warning. */
export function WarningsTable({ warnings }: { warnings: readonly NodeWarning[] }) {
  const { t } = useTranslation("grid-monitoring");
  const format = useFormatters();
  return (
    <Table data-testid="node-warnings">
      <TableHead>
        <Row>
          <HeadCell>{t("detail.feeder")}</HeadCell>
          <HeadCell>{t("detail.phase")}</HeadCell>
          <HeadCell>{t("list.state")}</HeadCell>
          <HeadCell numeric>{t("detail.since")}</HeadCell>
        </Row>
      </TableHead>
      <TableBody>
        {warnings.map((w) => (
          <Row key={`${w.feeder_id}-${w.phase}`}>
            <Cell>{w.feeder_name}</Cell>
            <Cell>
              <PhaseLabel phase={w.phase} />
            </Cell>
            <Cell>
              <StateBadge state={w.state} />
            </Cell>
            <Cell numeric>
              {w.since
                ? `${w.since_earlier ? t("detail.before") : ""}${format.dateTime(w.since)}`
                : t("detail.never")}
            </Cell>
          </Row>
        ))}
      </TableBody>
    </Table>
  );
}

/** One feeder's latest U and I per phase, with its nominal and overcurrent currents. */
export function FeederTable(
  { feeder: f, level }: { feeder: NodeDetail["feeders"][number]; level: Level },
) {
  const { t } = useTranslation("grid-monitoring");
  const format = useFormatters();
  const volts = VOLTS[level];
  return (
    <div className="rounded-md border" data-testid="feeder-table">
      <div className="flex items-center justify-between gap-2 border-b bg-surface-muted px-3 py-1.5">
        <span className="truncate text-sm font-medium">{f.name}</span>
        <StateBadge state={f.state} />
      </div>
      <Table>
        <caption className="sr-only">{f.name}</caption>
        <TableHead>
          <tr>
            <HeadCell className="px-3 first:pl-3">{t("detail.phase")}</HeadCell>
            <HeadCell numeric className="px-3 last:pr-3">
              {t("detail.u", { unit: t(`detail.voltageUnit.${volts.unit}`) })}
            </HeadCell>
            <HeadCell numeric className="px-3 last:pr-3">{t("detail.i")}</HeadCell>
          </tr>
        </TableHead>
        <TableBody>
          {f.phases.map((p) => (
            <tr key={p.phase} className="border-t">
              <th scope="row" className="px-3 py-1 text-left font-normal">
                <PhaseLabel phase={p.phase} />
              </th>
              <Cell numeric className="px-3 py-1 last:pr-3">
                {p.u === null ? "–" : format.number(volts.of(p.u))}
              </Cell>
              <Cell
                numeric
                className={`px-3 py-1 last:pr-3 ${
                  p.state === "OVERCURRENT" ? "font-semibold text-state-warning" : ""
                }`}
              >
                {p.i === null ? "–" : format.number(p.i)}
              </Cell>
            </tr>
          ))}
        </TableBody>
      </Table>
      <p className="border-t px-3 py-1 text-[0.7rem] text-muted-foreground">
        {t("detail.nominalCurrent", {
          nominal: format.number(f.nominal_current_a),
          limit: format.number(f.overcurrent_a),
        })}
      </p>
    </div>
  );
}
