/** #events-downloaded: the recordings requested from the cells, newest first, 12 per page. */
import { useTranslation } from "react-i18next";
import { api } from "../../lib/api.ts";
import { useAsync } from "../../lib/use-async.ts";
import { useFormatters } from "../../lib/use-formatters.ts";
import { Cell, HeadCell, Row, Table, TableBody, TableHead } from "../../ui/table.tsx";
import { AsyncState } from "../../ui/loader.tsx";
import { RecordingBadge } from "./event-detail.tsx";
import { EVENTS_PAGE_SIZE, type RecordingPage } from "./events-data.ts";
import { Pager } from "../../ui/pager.tsx";

export function RecordingsList({ page, onPage, onOpen, version }: {
  page: number;
  onPage: (page: number) => void;
  onOpen: (key: string) => void;
  /** Changes when a recording changed elsewhere on the screen. */
  version: number;
}) {
  const { t } = useTranslation("pq-events");
  const format = useFormatters();
  const load = useAsync(
    (signal) => api.get<RecordingPage>(`/pqe/recordings?page=${page}`, { signal }),
    [page, version],
  );
  return (
    <AsyncState state={load} onRetry={load.reload}>
      {(data) => (
        <div className="rounded-md border bg-surface" data-testid="recordings-list">
          <Table>
            <TableHead>
              <tr>
                <HeadCell>{t("columns.start")}</HeadCell>
                <HeadCell>{t("columns.node")}</HeadCell>
                <HeadCell>{t("columns.type")}</HeadCell>
                <HeadCell>{t("recording.requestedBy")}</HeadCell>
                <HeadCell>{t("recording.updated")}</HeadCell>
                <HeadCell>{t("columns.recording")}</HeadCell>
              </tr>
            </TableHead>
            <TableBody>
              {data.recordings.map((r) => (
                <Row
                  key={r.event.key}
                  className="cursor-pointer hover:bg-surface-muted"
                  onClick={() => onOpen(r.event.key)}
                >
                  <Cell className="tabular">{format.dateTime(r.event.start)}</Cell>
                  <Cell>{r.event.node_name}</Cell>
                  <Cell>{t(`kinds.${r.event.kind}`)}</Cell>
                  <Cell>{r.requested_by}</Cell>
                  <Cell className="tabular">
                    {r.event.recording ? format.dateTime(r.event.recording.updated_at) : "—"}
                  </Cell>
                  <Cell>
                    <RecordingBadge recording={r.event.recording} />
                  </Cell>
                </Row>
              ))}
            </TableBody>
          </Table>
          {data.recordings.length === 0
            ? <p className="p-6 text-center text-sm text-muted-foreground">{t("recording.none")}</p>
            : null}
          <Pager total={data.total} page={page} pageSize={EVENTS_PAGE_SIZE} onPage={onPage} />
        </div>
      )}
    </AsyncState>
  );
}
