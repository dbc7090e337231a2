import { useTranslation } from "react-i18next";
import { useAsync } from "../../lib/use-async.ts";
import { useFormatters } from "../../lib/use-formatters.ts";
import { Button } from "../../ui/button.tsx";
import { AsyncState } from "../../ui/loader.tsx";
import { Cell, HeadCell, Row, Table, TableBody, TableHead } from "../../ui/table.tsx";
import { apiClientsApi } from "./api-clients-api.ts";

/** The newest 50 calls of the customer's API clients (client, route, status, time). */
export function AuditLog() {
  const { t } = useTranslation("api-clients");
  const format = useFormatters();
  const audit = useAsync((signal) => apiClientsApi.audit(signal), []);
  return (
    <section className="grid gap-2" aria-labelledby="api-audit-title">
      <div className="flex items-center justify-between">
        <h2 id="api-audit-title" className="text-sm font-semibold">{t("audit.title")}</h2>
        <Button variant="ghost" size="sm" onClick={audit.reload}>{t("audit.refresh")}</Button>
      </div>
      <AsyncState state={audit} onRetry={audit.reload}>
        {(page) =>
          page.entries.length === 0
            ? <p className="text-sm text-muted-foreground">{t("audit.empty")}</p>
            : (
              <div className="max-h-96 overflow-auto rounded-lg border bg-surface px-3">
                <Table>
                  <TableHead>
                    <tr>
                      <HeadCell>{t("audit.time")}</HeadCell>
                      <HeadCell>{t("audit.client")}</HeadCell>
                      <HeadCell>{t("audit.route")}</HeadCell>
                      <HeadCell numeric>{t("audit.status")}</HeadCell>
                      <HeadCell numeric>{t("audit.duration")}</HeadCell>
                    </tr>
                  </TableHead>
                  <TableBody>
                    {page.entries.map((entry) => (
                      <Row key={entry.id} data-testid="api-audit-row">
                        <Cell className="tabular">{format.dateTime(entry.at)}</Cell>
                        <Cell>{entry.client_name ?? entry.client_id}</Cell>
                        <Cell className="font-mono text-xs">
                          {`${entry.method} ${entry.route}`}
                        </Cell>
                        <Cell numeric>{entry.status}</Cell>
                        <Cell numeric>{t("audit.ms", { ms: entry.duration_ms })}</Cell>
                      </Row>
                    ))}
                  </TableBody>
                </Table>
              </div>
            )}
      </AsyncState>
    </section>
  );
}
