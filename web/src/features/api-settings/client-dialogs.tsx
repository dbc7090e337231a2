import { Check, Copy } from "lucide-react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  CLIENT_NAME,
  confirmsName,
  PERMISSIONS,
} from "../../../../modules/api_clients/contract.ts";
import { ApiError } from "../../lib/api.ts";
import { useAction } from "../../lib/use-action.ts";
import { useErrorText } from "../../lib/use-error-text.ts";
import { Button } from "../../ui/button.tsx";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "../../ui/dialog.tsx";
import { FormField } from "../../ui/form-field.tsx";
import { Input } from "../../ui/input.tsx";
import { Notice } from "../../ui/notice.tsx";
import { SegmentedControl } from "../../ui/segmented-control.tsx";
import {
  type ApiClient,
  apiClientsApi,
  type ApiClientSecret,
  type Permission,
} from "./api-clients-api.ts";

/** The form's rule for a name, the server's own (3 to 60 characters after trimming). */
export function nameProblem(name: string): { key: string; count: number } | null {
  const length = name.trim().length;
  if (length < CLIENT_NAME.min) return { key: "validation.nameMin", count: CLIENT_NAME.min };
  if (length > CLIENT_NAME.max) return { key: "validation.nameMax", count: CLIENT_NAME.max };
  return null;
}

function ServerNotice({ error }: { error: unknown }) {
  const errorText = useErrorText();
  if (!error) return null;
  const { text, code } = errorText(error);
  return <Notice tone="critical" code={code}>{text}</Notice>;
}

/** New API client: a name and Read or Write. */
export function NewClientDialog({
  open,
  onOpenChange,
  onCreated,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCreated: (secret: ApiClientSecret, name: string) => void;
}) {
  const { t } = useTranslation(["api-clients", "errors"]);
  const [name, setName] = useState("");
  const [permission, setPermission] = useState<Permission>("read");
  const [tried, setTried] = useState(false);
  useEffect(() => {
    if (!open) return;
    setName("");
    setPermission("read");
    setTried(false);
  }, [open]);
  const creation = useAction(async () => {
    onCreated(await apiClientsApi.create(name.trim(), permission), name.trim());
  });
  const problem = tried ? nameProblem(name) : null;
  const serverIssue = creation.error instanceof ApiError
    ? (creation.error.body?.params.issues as
      | { key: string; params: Record<string, unknown> }[]
      | undefined)?.[0]
    : undefined;
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{t("create.title")}</DialogTitle>
          <DialogDescription>{t("create.description")}</DialogDescription>
        </DialogHeader>
        <form
          noValidate
          className="grid gap-4"
          onSubmit={(e) => {
            e.preventDefault();
            setTried(true);
            if (!nameProblem(name)) void creation.run();
          }}
        >
          <FormField
            label={t("fields.name")}
            error={problem
              ? t(`errors:${problem.key}`, { count: problem.count })
              : serverIssue
              ? t(`errors:${serverIssue.key}`, serverIssue.params)
              : undefined}
          >
            {(control) => (
              <Input
                {...control}
                name="name"
                autoComplete="off"
                maxLength={CLIENT_NAME.max + 20}
                value={name}
                onChange={(e) => setName(e.target.value)}
              />
            )}
          </FormField>
          <div className="grid gap-1">
            <span className="text-xs font-medium text-muted-foreground">
              {t("fields.permission")}
            </span>
            <SegmentedControl
              label={t("fields.permission")}
              value={permission}
              onChange={setPermission}
              options={PERMISSIONS.map((p) => ({ value: p, label: t(`permission.${p}`) }))}
            />
            <p className="text-xs text-muted-foreground">{t(`permission.${permission}Hint`)}</p>
          </div>
          {serverIssue ? null : <ServerNotice error={creation.error} />}
          <DialogFooter>
            <Button variant="secondary" onClick={() => onOpenChange(false)}>
              {t("actions.cancel")}
            </Button>
            <Button type="submit" disabled={creation.busy} aria-busy={creation.busy}>
              {t("create.submit")}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** The secret of a new or rotated client, shown this once with a copy button. */
export function SecretDialog({
  secret,
  name,
  tokenUrl,
  onClose,
}: {
  secret: ApiClientSecret | null;
  name: string;
  tokenUrl: string;
  onClose: () => void;
}) {
  const { t } = useTranslation("api-clients");
  const [copied, setCopied] = useState(false);
  useEffect(() => setCopied(false), [secret]);
  const copy = async () => {
    if (!secret) return;
    try {
      await navigator.clipboard.writeText(secret.client_secret);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    <Dialog open={secret !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{t("secret.title", { name })}</DialogTitle>
          <DialogDescription>{t("secret.description")}</DialogDescription>
        </DialogHeader>
        <dl className="grid gap-3 text-sm">
          <div>
            <dt className="text-xs font-medium text-muted-foreground">{t("fields.clientId")}</dt>
            <dd className="font-mono break-all" data-testid="client-id">{secret?.client_id}</dd>
          </div>
          <div>
            <dt className="text-xs font-medium text-muted-foreground">{t("fields.secret")}</dt>
            <dd className="flex items-center gap-2">
              <code
                className="flex-1 break-all rounded bg-surface-muted px-2 py-1"
                data-testid="client-secret"
              >
                {secret?.client_secret}
              </code>
              <Button variant="secondary" size="sm" onClick={() => void copy()}>
                {copied ? <Check aria-hidden /> : <Copy aria-hidden />}
                {copied ? t("secret.copied") : t("secret.copy")}
              </Button>
            </dd>
          </div>
          <div>
            <dt className="text-xs font-medium text-muted-foreground">{t("fields.tokenUrl")}</dt>
            <dd className="font-mono break-all">{tokenUrl}</dd>
          </div>
        </dl>
        <Notice tone="warning">{t("secret.once")}</Notice>
        <DialogFooter>
          <Button onClick={onClose}>{t("secret.done")}</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/** Delete: the client's name typed again (spec 5), then the irrecoverable confirmation. */
export function DeleteClientDialog({
  client,
  onClose,
  onDeleted,
}: {
  client: ApiClient | null;
  onClose: () => void;
  onDeleted: () => void;
}) {
  const { t } = useTranslation("api-clients");
  const [typed, setTyped] = useState("");
  useEffect(() => setTyped(""), [client]);
  const removal = useAction(async () => {
    if (!client) return;
    await apiClientsApi.remove(client.id, typed);
    onDeleted();
  });
  const matches = client !== null && confirmsName(typed, client.name);
  return (
    <Dialog open={client !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{t("delete.title", { name: client?.name ?? "" })}</DialogTitle>
          <DialogDescription>{t("delete.description")}</DialogDescription>
        </DialogHeader>
        <form
          noValidate
          className="grid gap-4"
          onSubmit={(e) => {
            e.preventDefault();
            if (matches) void removal.run();
          }}
        >
          <FormField label={t("delete.typeName", { name: client?.name ?? "" })}>
            {(control) => (
              <Input
                {...control}
                name="confirm-name"
                autoComplete="off"
                value={typed}
                onChange={(e) => setTyped(e.target.value)}
              />
            )}
          </FormField>
          <ServerNotice error={removal.error} />
          <DialogFooter>
            <Button variant="secondary" onClick={onClose}>{t("actions.cancel")}</Button>
            <Button type="submit" variant="danger" disabled={!matches || removal.busy}>
              {t("delete.submit")}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
