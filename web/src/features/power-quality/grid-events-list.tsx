/**
 * Time-correlated grid events (beyond the spec): events of different cells within one second,
 * labelled as likely coming from the MV side when every measured node of one MV feeder group saw
 * them, else local; each node with its depth, a click opens its event. The chosen grid event
 * (first the newest) is shown on the map with each node's depth (grid-event-map.tsx).
 */
import { MapPin } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../../lib/api.ts";
import { useAsync } from "../../lib/use-async.ts";
import { useFormatters } from "../../lib/use-formatters.ts";
import { Badge } from "../../ui/badge.tsx";
import { AsyncState } from "../../ui/loader.tsx";
import { Cell, HeadCell, Row, Table, TableBody, TableHead } from "../../ui/table.tsx";
import { EVENTS_PAGE_SIZE, type GridEventPage } from "./events-data.ts";
import { Pager } from "../../ui/pager.tsx";
import { Button } from "../../ui/button.tsx";
import { GridEventMap } from "./grid-event-map.tsx";

const idOf = (g: GridEventPage["grid_events"][number]) => `${g.start}|${g.nodes[0]?.key}`;

export function GridEventsList({ query, page, onPage, onOpen }: {
  /** `?from=…&to=…` of the applied filter (other filters do not apply). */
  query: string;
  page: number;
  onPage: (page: number) => void;
  onOpen: (key: string) => void;
}) {
  const { t } = useTranslation("pq-events");
  const format = useFormatters();
  const [shown, setShown] = useState<string | null>(null);
  const load = useAsync(
    (signal) =>
      api.get<GridEventPage>(`/pqe/grid-events${query}${query ? "&" : "?"}page=${page}`, {
        signal,
      }),
    [query, page],
  );
  return (
    <AsyncState state={load} onRetry={load.reload}>
      {(data) => {
        const onMap = data.grid_events.find((g) => idOf(g) === shown) ?? data.grid_events[0];
        return (
          <div className="rounded-md border bg-surface px-3" data-testid="grid-events">
            <p className="py-2 text-xs text-muted-foreground">{t("grid.hint")}</p>
            {onMap ? <GridEventMap event={onMap} onOpen={onOpen} /> : null}
            <Table>
              <TableHead>
                <tr>
                  <HeadCell>{t("columns.start")}</HeadCell>
                  <HeadCell>{t("grid.origin")}</HeadCell>
                  <HeadCell>{t("grid.nodes")}</HeadCell>
                  <HeadCell />
                </tr>
              </TableHead>
              <TableBody>
                {data.grid_events.map((g) => (
                  <Row key={idOf(g)}>
                    <Cell className="tabular align-top">{format.dateTime(g.start)}</Cell>
                    <Cell className="align-top">
                      <Badge tone={g.origin === "MV" ? "warning" : "neutral"}>
                        {g.origin === "MV"
                          ? t("grid.mv", { group: g.mv_feeder_group ?? "" })
                          : t("grid.local")}
                      </Badge>
                    </Cell>
                    <Cell>
                      <div className="flex flex-wrap gap-1">
                        {g.nodes.map((n) => (
                          <button
                            key={n.key}
                            type="button"
                            className="rounded border px-1.5 py-0.5 text-xs hover:bg-surface-muted"
                            onClick={() => onOpen(n.key)}
                          >
                            {n.depth_pct === null ? n.node_name : t("grid.nodeDepth", {
                              node: n.node_name,
                              depth: format.number(n.depth_pct, 1),
                            })}
                          </button>
                        ))}
                      </div>
                    </Cell>
                    <Cell className="align-top">
                      <Button
                        size="sm"
                        variant={g === onMap ? "primary" : "secondary"}
                        aria-pressed={g === onMap}
                        data-testid="grid-event-show"
                        onClick={() => setShown(idOf(g))}
                      >
                        <MapPin aria-hidden />
                        {t("grid.showOnMap")}
                      </Button>
                    </Cell>
                  </Row>
                ))}
              </TableBody>
            </Table>
            {data.grid_events.length === 0
              ? <p className="p-6 text-center text-sm text-muted-foreground">{t("grid.none")}</p>
              : null}
            <Pager total={data.total} page={page} pageSize={EVENTS_PAGE_SIZE} onPage={onPage} />
          </div>
        );
      }}
    </AsyncState>
  );
}
