import { EXTERNAL_VERSION } from "../../../../modules/api_clients/contract.ts";
import { KeyRound, Play } from "lucide-react";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useAsync } from "../../lib/use-async.ts";
import { useFormatters } from "../../lib/use-formatters.ts";
import { Button } from "../../ui/button.tsx";
import { FormField } from "../../ui/form-field.tsx";
import { Input } from "../../ui/input.tsx";
import { AsyncState } from "../../ui/loader.tsx";
import { Notice } from "../../ui/notice.tsx";
import { Page } from "../../ui/page.tsx";
import {
  DOC_APIS,
  type DocOperation,
  operationsByApi,
  serverPath,
  tryOutUrl,
} from "./openapi-model.ts";

const DOC_URL = "/external/v1/openapi.json";
const TOKEN_URL = "/oidc/token";

interface Token {
  value: string;
  scope: string;
  until: number;
}

async function loadDocument(signal: AbortSignal): Promise<unknown> {
  const res = await fetch(DOC_URL, { signal, headers: { Accept: "application/json" } });
  if (!res.ok) throw new Error(`Cannot load ${DOC_URL}: HTTP ${res.status}`);
  return await res.json();
}

/**
 * /api-doc (spec 7): external_v1 with its APIs gsm, dm, pq and fm, rendered from the server's
 * OpenAPI document by the product itself (no script, font or style from elsewhere), with the
 * client credentials flow wired into try-out: paste a client's ID and secret, get a token, call.
 */
export function ApiDocPage() {
  const { t } = useTranslation(["modules", "api-clients"]);
  const doc = useAsync(loadDocument, []);
  const [token, setToken] = useState<Token | null>(null);
  return (
    <Page title={t("api-doc.title")} subtitle={t("api-doc.purpose")}>
      <AsyncState state={doc} onRetry={doc.reload}>
        {(document) => <DocBody document={document} token={token} onToken={setToken} />}
      </AsyncState>
    </Page>
  );
}

function DocBody(
  { document, token, onToken }: {
    document: unknown;
    token: Token | null;
    onToken: (t: Token) => void;
  },
) {
  const { t } = useTranslation("api-clients");
  const apis = useMemo(() => operationsByApi(document), [document]);
  const server = serverPath(document, window.location.origin);
  const info = (document as { info?: { title?: string; version?: string; description?: string } })
    .info ?? {};
  return (
    <div className="grid gap-6">
      <section className="grid gap-1">
        <h2 className="text-base font-semibold">{info.title}</h2>
        <p className="text-xs text-muted-foreground">
          {t("doc.version")}:{" "}
          <span className="font-mono" data-testid="api-version">{EXTERNAL_VERSION}</span>
          {" · "}
          <a className="text-primary hover:underline" href={DOC_URL}>{t("doc.document")}</a>
        </p>
        <p className="max-w-3xl text-sm text-muted-foreground">{info.description}</p>
      </section>
      <Authorize token={token} onToken={onToken} />
      {DOC_APIS.map((api) => (
        <section key={api} className="grid gap-2" aria-labelledby={`api-${api}`}>
          <h2 id={`api-${api}`} className="text-sm font-semibold uppercase tracking-wide">
            {api}
            <span className="ml-2 font-normal normal-case text-muted-foreground">
              {t(`doc.api.${api}`)}
            </span>
          </h2>
          {(apis[api] ?? []).length === 0
            ? <p className="text-sm text-muted-foreground">{t("doc.noRoutes")}</p>
            : (apis[api] ?? []).map((op) => (
              <OperationCard key={op.id} op={op} server={server} token={token} />
            ))}
        </section>
      ))}
    </div>
  );
}

function Authorize({ token, onToken }: { token: Token | null; onToken: (t: Token) => void }) {
  const { t } = useTranslation("api-clients");
  const format = useFormatters();
  const [id, setId] = useState("");
  const [secret, setSecret] = useState("");
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const request = async () => {
    setBusy(true);
    setFailure(null);
    try {
      const res = await fetch(TOKEN_URL, {
        method: "POST",
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          Authorization: `Basic ${
            btoa(`${encodeURIComponent(id.trim())}:${encodeURIComponent(secret.trim())}`)
          }`,
        },
        body: new URLSearchParams({ grant_type: "client_credentials" }).toString(),
      });
      const body = await res.json().catch(() => ({})) as Record<string, unknown>;
      if (!res.ok || typeof body.access_token !== "string") {
        setFailure(String(body.error ?? res.status));
        return;
      }
      onToken({
        value: body.access_token,
        scope: String(body.scope ?? ""),
        until: Date.now() + Number(body.expires_in ?? 0) * 1000,
      });
    } catch (error) {
      setFailure(String(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="grid gap-3 rounded-lg border bg-surface p-4" aria-labelledby="api-auth">
      <h2 id="api-auth" className="flex items-center gap-2 text-sm font-semibold">
        <KeyRound aria-hidden className="size-4" />
        {t("doc.auth")}
      </h2>
      <p className="text-xs text-muted-foreground">{t("doc.authHint")}</p>
      <form
        className="grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-end"
        onSubmit={(e) => {
          e.preventDefault();
          void request();
        }}
      >
        <FormField label={t("doc.clientId")}>
          {(control) => (
            <Input
              {...control}
              name="client_id"
              autoComplete="off"
              value={id}
              onChange={(e) => setId(e.target.value)}
            />
          )}
        </FormField>
        <FormField label={t("doc.clientSecret")}>
          {(control) => (
            <Input
              {...control}
              name="client_secret"
              type="password"
              autoComplete="off"
              value={secret}
              onChange={(e) => setSecret(e.target.value)}
            />
          )}
        </FormField>
        <Button type="submit" disabled={busy || !id.trim() || !secret.trim()}>
          {t("doc.getToken")}
        </Button>
      </form>
      {failure ? <Notice tone="critical">{t("doc.tokenFailed", { error: failure })}</Notice> : null}
      {token
        ? (
          <Notice tone="ok" data-testid="api-token-ready">
            {t("doc.tokenReady", { time: format.time(token.until), scope: token.scope })}
          </Notice>
        )
        : null}
    </section>
  );
}

function OperationCard(
  { op, server, token }: { op: DocOperation; server: string; token: Token | null },
) {
  const { t } = useTranslation("api-clients");
  const [open, setOpen] = useState(false);
  const [values, setValues] = useState<Record<string, string>>({});
  const [body, setBody] = useState(op.bodyExample);
  const [answer, setAnswer] = useState<
    { status: number; text: string; file?: { url: string; name: string } } | null
  >(null);
  const [busy, setBusy] = useState(false);
  const send = async () => {
    if (!token) return;
    setBusy(true);
    try {
      const res = await fetch(tryOutUrl(server, op, values), {
        method: op.method,
        headers: {
          Authorization: `Bearer ${token.value}`,
          Accept: "application/json",
          ...(op.hasBody ? { "Content-Type": "application/json" } : {}),
        },
        ...(op.hasBody ? { body } : {}),
      });
      const type = res.headers.get("content-type") ?? "";
      if (res.ok && !/json|^text\//.test(type)) {
        // A PDF or a zip: its size and a download of the bytes received (a local blob URL).
        const blob = await res.blob();
        const name = /filename="([^"]+)"/.exec(res.headers.get("content-disposition") ?? "")?.[1];
        if (answer?.file) URL.revokeObjectURL(answer.file.url);
        setAnswer({
          status: res.status,
          text: t("doc.binary", { type: type.split(";")[0], size: blob.size }),
          file: { url: URL.createObjectURL(blob), name: name ?? "download" },
        });
        return;
      }
      const text = await res.text();
      let pretty = text;
      try {
        pretty = JSON.stringify(JSON.parse(text), null, 2);
      } catch {
        // Not JSON (CSV): shown as it came.
      }
      setAnswer({
        status: res.status,
        text: pretty.length > 20_000 ? `${pretty.slice(0, 20_000)}\n…` : pretty,
      });
    } catch (error) {
      setAnswer({ status: 0, text: String(error) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <article
      className="rounded-lg border bg-surface"
      data-testid="api-operation"
      data-operation={op.id}
    >
      <button
        type="button"
        className="flex w-full items-center gap-3 px-3 py-2 text-left hover:bg-surface-muted"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
      >
        <span className="w-14 rounded bg-primary/10 px-1.5 py-0.5 text-center font-mono text-xs font-semibold text-primary">
          {op.method}
        </span>
        <span className="font-mono text-sm">{op.path}</span>
        <span className="truncate text-sm text-muted-foreground">{op.summary}</span>
      </button>
      {open
        ? (
          <div className="grid gap-3 border-t px-3 py-3">
            <p className="text-xs text-muted-foreground">
              {t("doc.scope")}: <span className="font-mono">{op.scopes.join(", ")}</span>
              {" · "}
              {t("doc.status", { status: op.successStatus })}
            </p>
            {op.parameters.length
              ? (
                <div className="grid gap-2 sm:grid-cols-3">
                  {op.parameters.map((p) => (
                    <FormField
                      key={p.name}
                      label={`${p.name} (${p.in}${p.required ? `, ${t("doc.required")}` : ""})`}
                    >
                      {(control) => (
                        <Input
                          {...control}
                          value={values[p.name] ?? ""}
                          onChange={(e) => setValues({ ...values, [p.name]: e.target.value })}
                        />
                      )}
                    </FormField>
                  ))}
                </div>
              )
              : null}
            {op.hasBody
              ? (
                <FormField label={t("doc.body")}>
                  {(control) => (
                    <textarea
                      {...control}
                      rows={6}
                      spellCheck={false}
                      className="rounded-md border border-input bg-surface p-2 font-mono text-xs"
                      value={body}
                      onChange={(e) => setBody(e.target.value)}
                    />
                  )}
                </FormField>
              )
              : null}
            {token ? null : <p className="text-xs text-muted-foreground">{t("doc.noToken")}</p>}
            <div>
              <Button size="sm" disabled={!token || busy} onClick={() => void send()}>
                <Play aria-hidden />
                {t("doc.tryOut")}
              </Button>
            </div>
            {answer
              ? (
                <div className="grid gap-1">
                  <p className="text-xs font-medium" data-testid="api-answer-status">
                    {t("doc.status", { status: answer.status })}
                  </p>
                  <pre className="max-h-80 overflow-auto rounded bg-surface-muted p-2 text-xs">{answer.text}</pre>
                  {answer.file
                    ? (
                      <a
                        className="text-sm text-primary underline"
                        href={answer.file.url}
                        download={answer.file.name}
                      >
                        {t("doc.download", { name: answer.file.name })}
                      </a>
                    )
                    : null}
                </div>
              )
              : null}
          </div>
        )
        : null}
    </article>
  );
}
