/** One page of voltage events (12 per page): a row per event, a click opens its detail. */
import { useTranslation } from "react-i18next";
import { useFormatters } from "../../lib/use-formatters.ts";
import { Pager } from "../../ui/pager.tsx";
import { Cell, HeadCell, Row, Table, TableBody, TableHead } from "../../ui/table.tsx";
import { RecordingBadge } from "./event-detail.tsx";
import { type EventPage, EVENTS_PAGE_SIZE } from "./events-data.ts";

export function EventsTable({ data, page, onPage, open, onOpen }: {
  data: EventPage;
  page: number;
  onPage: (page: number) => void;
  open: string | null;
  onOpen: (key: string) => void;
}) {
  const { t } = useTranslation("pq-events");
  const format = useFormatters();
  return (
    <div className="rounded-md border bg-surface px-3" data-testid="events-list">
      <Table>
        <TableHead>
          <tr>
            <HeadCell>{t("columns.start")}</HeadCell>
            <HeadCell>{t("columns.node")}</HeadCell>
            <HeadCell>{t("columns.type")}</HeadCell>
            <HeadCell>{t("columns.phases")}</HeadCell>
            <HeadCell numeric>{t("columns.duration")}</HeadCell>
            <HeadCell numeric>{t("columns.extreme")}</HeadCell>
            <HeadCell numeric>{t("columns.depth")}</HeadCell>
            <HeadCell>{t("columns.recording")}</HeadCell>
          </tr>
        </TableHead>
        <TableBody>
          {data.events.map((e) => (
            <Row
              key={e.key}
              className={open === e.key
                ? "bg-surface-muted"
                : "cursor-pointer hover:bg-surface-muted"}
              onClick={() => onOpen(e.key)}
              data-testid="event-row"
            >
              <Cell className="tabular">
                <button type="button" className="text-left underline-offset-2 hover:underline">
                  {format.dateTime(e.start)}
                </button>
              </Cell>
              <Cell>{e.node_name}</Cell>
              <Cell>{t(`kinds.${e.kind}`)}</Cell>
              <Cell>
                {e.start_phase === e.end_phase
                  ? e.start_phase ?? "—"
                  : `${e.start_phase ?? "—"} → ${e.end_phase ?? "—"}`}
              </Cell>
              <Cell numeric>{`${format.number(e.duration_ms, 0)} ms`}</Cell>
              <Cell numeric>
                {e.extreme_pct === null ? "—" : `${format.number(e.extreme_pct, 1)} %`}
              </Cell>
              <Cell numeric>
                {e.depth_pct === null ? "—" : `${format.number(e.depth_pct, 1)} %`}
              </Cell>
              <Cell>
                <RecordingBadge recording={e.recording} />
              </Cell>
            </Row>
          ))}
        </TableBody>
      </Table>
      {data.events.length === 0
        ? <p className="p-6 text-center text-sm text-muted-foreground">{t("list.empty")}</p>
        : null}
      <Pager total={data.total} page={page} pageSize={EVENTS_PAGE_SIZE} onPage={onPage} />
    </div>
  );
}
