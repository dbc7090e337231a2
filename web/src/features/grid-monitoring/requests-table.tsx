/** A node's custom monitoring requests, newest first, with their feeder and status. */
import { useTranslation } from "react-i18next";
import { useFormatters } from "../../lib/use-formatters.ts";
import { Badge, type BadgeTone } from "../../ui/badge.tsx";
import { Cell, HeadCell, Row, Table, TableBody, TableHead } from "../../ui/table.tsx";
import { useDurationText } from "./custom-shared.ts";
import type { CustomRequest, RequestStatus } from "./grid-types.ts";

const STATUS_TONE: Record<RequestStatus, BadgeTone> = {
  RUNNING: "ok",
  STOPPED: "neutral",
  FINISHED: "neutral",
};

export function RequestsTable({
  requests,
  feeders,
}: {
  requests: readonly CustomRequest[];
  /** The node's feeders, to name a request's feeder. */
  feeders: readonly { id: string; name: string }[];
}) {
  const { t } = useTranslation("grid-monitoring");
  const format = useFormatters();
  const durationText = useDurationText();
  return (
    <Table data-testid="custom-requests">
      <TableHead>
        <Row>
          <HeadCell>{t("custom.started")}</HeadCell>
          <HeadCell>{t("custom.kind")}</HeadCell>
          <HeadCell>{t("detail.feeder")}</HeadCell>
          <HeadCell numeric>{t("custom.duration")}</HeadCell>
          <HeadCell numeric>{t("custom.status")}</HeadCell>
        </Row>
      </TableHead>
      <TableBody>
        {requests.map((r) => (
          <Row key={r.id}>
            <Cell className="tabular">{format.dateTime(r.started_at)}</Cell>
            <Cell>{t(`custom.kinds.${r.kind}`)}</Cell>
            <Cell data-testid="request-feeder">
              {r.feeder_id === null
                ? t("custom.allFeeders")
                : feeders.find((f) => f.id === r.feeder_id)?.name ?? r.feeder_id}
            </Cell>
            <Cell numeric>{durationText(r.duration_min)}</Cell>
            <Cell numeric>
              <Badge tone={STATUS_TONE[r.status]} data-testid="request-status">
                {t(`custom.statuses.${r.status}`)}
              </Badge>
            </Cell>
          </Row>
        ))}
      </TableBody>
    </Table>
  );
}
