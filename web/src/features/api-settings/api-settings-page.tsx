import { Link } from "@tanstack/react-router";
import { BookOpen, KeyRound, Plus, RotateCw, Trash2 } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useAction } from "../../lib/use-action.ts";
import { useAsync } from "../../lib/use-async.ts";
import { useErrorText } from "../../lib/use-error-text.ts";
import { useFormatters } from "../../lib/use-formatters.ts";
import { Button } from "../../ui/button.tsx";
import { EmptyState } from "../../ui/empty-state.tsx";
import { AsyncState } from "../../ui/loader.tsx";
import { Notice } from "../../ui/notice.tsx";
import { Page } from "../../ui/page.tsx";
import { Cell, HeadCell, Row, Table, TableBody, TableHead } from "../../ui/table.tsx";
import { Toast } from "../../ui/toast.tsx";
import { type ApiClient, apiClientsApi, type ApiClientSecret } from "./api-clients-api.ts";
import { AuditLog } from "./audit-log.tsx";
import { DeleteClientDialog, NewClientDialog, SecretDialog } from "./client-dialogs.tsx";

/**
 * /api-settings (spec 2.1, 3, 5, 9): the customer's API clients with permission, creation, last
 * use and tokens this month; create (the secret shown once), rotate, delete by typing the name;
 * the audit log of the clients' calls.
 */
export function ApiSettingsPage() {
  const { t } = useTranslation(["api-clients", "modules"]);
  const format = useFormatters();
  const errorText = useErrorText();
  const list = useAsync((signal) => apiClientsApi.list(signal), []);
  const [creating, setCreating] = useState(false);
  const [shown, setShown] = useState<{ secret: ApiClientSecret; name: string } | null>(null);
  const [deleting, setDeleting] = useState<ApiClient | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const rotation = useAction(async (client: ApiClient) => {
    setShown({ secret: await apiClientsApi.rotate(client.id), name: client.name });
    list.reload();
  });
  const when = (iso: string | null) => (iso ? format.dateTime(iso) : t("list.never"));
  const data = list.status === "success" ? list.data : null;
  const full = data !== null && data.clients.length >= data.limits.clients;

  return (
    <Page
      title={t("modules:api-settings.title")}
      subtitle={t("modules:api-settings.purpose")}
      actions={
        <>
          <Button asChild variant="secondary">
            <Link to="/api-doc">
              <BookOpen aria-hidden />
              {t("list.openDocs")}
            </Link>
          </Button>
          <Button onClick={() => setCreating(true)} disabled={full} aria-disabled={full}>
            <Plus aria-hidden />
            {t("list.newClient")}
          </Button>
        </>
      }
    >
      <AsyncState state={list} onRetry={list.reload}>
        {(data) => (
          <div className="grid gap-4">
            <p className="text-sm text-muted-foreground" data-testid="api-usage">
              {t("list.usage", {
                clients: data.clients.length,
                maxClients: data.limits.clients,
                tokens: data.tokens_this_month,
                maxTokens: data.limits.tokens_per_month,
              })}
            </p>
            {full
              ? <Notice tone="neutral">{t("list.full", { limit: data.limits.clients })}</Notice>
              : null}
            {rotation.error
              ? (
                <Notice tone="critical" code={errorText(rotation.error).code}>
                  {errorText(rotation.error).text}
                </Notice>
              )
              : null}
            {data.clients.length === 0
              ? (
                <EmptyState
                  icon={<KeyRound />}
                  title={t("list.emptyTitle")}
                  description={t("list.emptyDescription")}
                />
              )
              : (
                <div className="overflow-auto rounded-lg border bg-surface px-3">
                  <Table>
                    <TableHead>
                      <tr>
                        <HeadCell>{t("fields.name")}</HeadCell>
                        <HeadCell>{t("fields.clientId")}</HeadCell>
                        <HeadCell>{t("fields.permission")}</HeadCell>
                        <HeadCell>{t("fields.created")}</HeadCell>
                        <HeadCell>{t("fields.lastUse")}</HeadCell>
                        <HeadCell numeric>{t("fields.tokensThisMonth")}</HeadCell>
                        <HeadCell className="text-right">{t("fields.actions")}</HeadCell>
                      </tr>
                    </TableHead>
                    <TableBody>
                      {data.clients.map((client) => (
                        <Row key={client.id} data-testid="api-client-row">
                          <Cell className="font-medium">{client.name}</Cell>
                          <Cell className="font-mono text-xs">{client.client_id}</Cell>
                          <Cell>{t(`permission.${client.permission}`)}</Cell>
                          <Cell className="tabular">{when(client.created_at)}</Cell>
                          <Cell className="tabular">{when(client.last_used_at)}</Cell>
                          <Cell numeric>{format.number(client.tokens_this_month, 0)}</Cell>
                          <Cell className="text-right whitespace-nowrap">
                            <Button
                              variant="ghost"
                              size="sm"
                              disabled={rotation.busy}
                              onClick={() =>
                                void rotation.run(client)}
                            >
                              <RotateCw aria-hidden />
                              {t("list.rotate")}
                            </Button>
                            <Button
                              variant="ghost"
                              size="sm"
                              onClick={() =>
                                setDeleting(client)}
                            >
                              <Trash2 aria-hidden />
                              {t("list.delete")}
                            </Button>
                          </Cell>
                        </Row>
                      ))}
                    </TableBody>
                  </Table>
                </div>
              )}
            <AuditLog />
            <SecretDialog
              secret={shown?.secret ?? null}
              name={shown?.name ?? ""}
              tokenUrl={data.token_url}
              onClose={() => setShown(null)}
            />
          </div>
        )}
      </AsyncState>
      <NewClientDialog
        open={creating}
        onOpenChange={setCreating}
        onCreated={(secret, name) => {
          setCreating(false);
          setShown({ secret, name });
          list.reload();
        }}
      />
      <DeleteClientDialog
        client={deleting}
        onClose={() => setDeleting(null)}
        onDeleted={() => {
          setDone(deleting?.name ?? "");
          setDeleting(null);
          list.reload();
        }}
      />
      <Toast open={done !== null} onOpenChange={(open) => !open && setDone(null)}>
        {t("list.deleted", { name: done ?? "" })}
      </Toast>
    </Page>
  );
}
