/**
 * One cell: its facts, credential, custom message, the actions of its list (take from stock,
 * link, unlink) and, when installed, its line mapping.
 */
import { Link2, PackageOpen, Unlink } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useErrorText } from "../../../lib/use-error-text.ts";
import { useFormatters } from "../../../lib/use-formatters.ts";
import { ConfirmDialog } from "../../../ui/alert-dialog.tsx";
import { Button } from "../../../ui/button.tsx";
import { FormField } from "../../../ui/form-field.tsx";
import { Input } from "../../../ui/input.tsx";
import { useCanWrite } from "./cell-access.ts";
import { Indicators, StatusBadge } from "./cell-badges.tsx";
import { CellCredential } from "./cell-credential-actions.tsx";
import { cellsApi, type SetupCell } from "./cells-api.ts";
import { customMessageRule } from "./cells-rules.ts";
import { LinkDialog } from "./link-dialog.tsx";
import { MappingEditor } from "./mapping-editor.tsx";

export function CellDetail({ cell, onChanged, onClose }: {
  cell: SetupCell;
  onChanged: (cell: SetupCell | null) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation(["cells", "errors"]);
  const format = useFormatters();
  const canWrite = useCanWrite();
  const errorText = useErrorText();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [linking, setLinking] = useState(false);
  const [unlinking, setUnlinking] = useState(false);
  const run = async (action: () => Promise<SetupCell>) => {
    setBusy(true);
    setError(null);
    try {
      onChanged(await action());
    } catch (e) {
      setError(errorText(e).text);
    } finally {
      setBusy(false);
    }
  };
  const date = (iso: string | null) => iso ? format.dateTime(iso) : t("detail.never");

  return (
    <section
      className="flex flex-col gap-4 rounded-lg border bg-surface p-4"
      aria-label={t("detail.title", { serial: cell.serial_number })}
    >
      <header className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <h2 className="text-base font-semibold">
            {t("detail.title", { serial: cell.serial_number })}
          </h2>
          <p className="text-xs text-muted-foreground">{t(`lists.${cell.type}`)}</p>
        </div>
        <div className="flex items-center gap-2">
          <Indicators cell={cell} />
          <StatusBadge label={cell.status_label} />
          <Button variant="ghost" size="sm" onClick={onClose}>{t("actions.close")}</Button>
        </div>
      </header>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-3">
        <Fact label={t("detail.cellId")} value={cell.id} />
        <Fact label={t("detail.model")} value={cell.device_model} />
        <Fact label={t("detail.firmware")} value={cell.firmware ?? "–"} />
        <Fact label={t("detail.provisioned")} value={date(cell.provisioning_date)} />
        <Fact label={t("detail.lastSeen")} value={date(cell.last_seen)} />
        <Fact label={t("detail.connection")} value={t(`status.${cell.connection.toLowerCase()}`)} />
        {cell.node ? <Fact label={t("detail.node")} value={cell.node.name} /> : null}
        <Fact label={t("detail.mapping")} value={t(`status.${cell.mapping_status_label}`)} />
      </dl>

      <CellCredential cell={cell} canWrite={canWrite} onChanged={onChanged} />

      <MessageEditor cell={cell} canWrite={canWrite} onChanged={onChanged} />

      {canWrite
        ? (
          <div className="flex flex-wrap gap-2">
            {cell.type === "IN_STOCK"
              ? (
                <Button disabled={busy} onClick={() => run(() => cellsApi.takeFromStock(cell.id))}>
                  <PackageOpen />
                  {t("actions.takeFromStock")}
                </Button>
              )
              : null}
            {cell.type === "WAITING_FOR_INSTALLATION"
              ? (
                <Button disabled={busy} onClick={() => setLinking(true)}>
                  <Link2 />
                  {t("actions.link")}
                </Button>
              )
              : null}
            {cell.type === "INSTALLED"
              ? (
                <Button variant="secondary" disabled={busy} onClick={() => setUnlinking(true)}>
                  <Unlink />
                  {t("actions.unlink")}
                </Button>
              )
              : null}
          </div>
        )
        : <p className="text-xs text-muted-foreground">{t("detail.readOnly")}</p>}
      {error ? <p role="alert" className="text-sm text-state-critical">{error}</p> : null}

      {cell.type === "INSTALLED"
        ? <MappingEditor cell={cell} canWrite={canWrite} onChanged={onChanged} />
        : null}

      {linking
        ? (
          <LinkDialog
            cell={cell}
            onClose={() => setLinking(false)}
            onLinked={(linked) => {
              setLinking(false);
              onChanged(linked);
            }}
          />
        )
        : null}
      <ConfirmDialog
        open={unlinking}
        onOpenChange={setUnlinking}
        title={t("unlink.title", { serial: cell.serial_number })}
        description={t("unlink.description")}
        confirmLabel={t("unlink.confirm")}
        cancelLabel={t("actions.cancel")}
        onConfirm={() => {
          setUnlinking(false);
          void run(() => cellsApi.unlink(cell.id));
        }}
      />
    </section>
  );
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="truncate">{value}</dd>
    </div>
  );
}

function MessageEditor({ cell, canWrite, onChanged }: {
  cell: SetupCell;
  canWrite: boolean;
  onChanged: (cell: SetupCell) => void;
}) {
  const { t } = useTranslation(["cells", "errors"]);
  const errorText = useErrorText();
  const [text, setText] = useState(cell.custom_message ?? "");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const rule = customMessageRule(text);
  const save = async (message: string | null) => {
    setBusy(true);
    setError(null);
    try {
      const saved = await cellsApi.setMessage(cell.id, message);
      setText(saved.custom_message ?? "");
      onChanged(saved);
    } catch (e) {
      setError(errorText(e).text);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      className="flex items-end gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        if (!rule) void save(text.trim() ? text : null);
      }}
    >
      <FormField
        label={t("message.label")}
        className="flex-1"
        error={rule ? t(`errors:${rule.key}`, rule.params ?? {}) : error}
      >
        {(props) => (
          <Input
            {...props}
            value={text}
            readOnly={!canWrite}
            placeholder={t("message.placeholder")}
            onChange={(e) => setText(e.target.value)}
          />
        )}
      </FormField>
      {canWrite
        ? (
          <>
            <Button
              type="submit"
              variant="secondary"
              disabled={busy || Boolean(rule) || text === (cell.custom_message ?? "")}
            >
              {t("actions.save")}
            </Button>
            <Button
              type="button"
              variant="ghost"
              disabled={busy || !cell.custom_message}
              onClick={() => void save(null)}
            >
              {t("actions.clear")}
            </Button>
          </>
        )
        : null}
    </form>
  );
}
