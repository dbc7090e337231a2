/**
 * The credential of a cell in its detail: active since when, or revoked; administrators rotate it
 * (a new credential, shown once) or revoke it. Both cut the cell off at once, so both ask first
 * with the spec's confirmation ('This action is irrecoverable, are you sure ...?'); revoking also
 * asks for the serial number, as deleting an API client asks for its name (spec 5).
 */
import { KeyRound, ShieldOff } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useErrorText } from "../../../lib/use-error-text.ts";
import { useFormatters } from "../../../lib/use-formatters.ts";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogTitle,
} from "../../../ui/alert-dialog.tsx";
import { Button } from "../../../ui/button.tsx";
import { FormField } from "../../../ui/form-field.tsx";
import { Input } from "../../../ui/input.tsx";
import { Notice } from "../../../ui/notice.tsx";
import { CredentialDialog } from "./cell-credential-dialog.tsx";
import { type CellCredentialDto, cellsApi, type SetupCell } from "./cells-api.ts";

function Confirm({ open, onOpenChange, title, description, confirmLabel, onConfirm, serial }: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  confirmLabel: string;
  onConfirm: () => void;
  /** When given, the serial number must be typed before confirming. */
  serial?: string;
}) {
  const { t } = useTranslation("cells");
  const [typed, setTyped] = useState("");
  const matches = !serial || typed.trim().toUpperCase() === serial.toUpperCase();
  return (
    <AlertDialog
      open={open}
      onOpenChange={(next) => {
        setTyped("");
        onOpenChange(next);
      }}
    >
      <AlertDialogContent>
        <AlertDialogTitle>{title}</AlertDialogTitle>
        <AlertDialogDescription>{description}</AlertDialogDescription>
        {serial
          ? (
            <FormField label={t("credential.typeSerial", { serial })}>
              {(props) => (
                <Input
                  {...props}
                  value={typed}
                  autoComplete="off"
                  spellCheck={false}
                  onChange={(e) => setTyped(e.target.value)}
                />
              )}
            </FormField>
          )
          : null}
        <div className="flex justify-end gap-2">
          <AlertDialogCancel>{t("actions.cancel")}</AlertDialogCancel>
          <AlertDialogAction
            disabled={!matches}
            onClick={(event) => {
              event.preventDefault();
              setTyped("");
              onConfirm();
            }}
          >
            {confirmLabel}
          </AlertDialogAction>
        </div>
      </AlertDialogContent>
    </AlertDialog>
  );
}

/** The credential facts and actions of a cell. */
export function CellCredential({ cell, canWrite, onChanged }: {
  cell: SetupCell;
  canWrite: boolean;
  onChanged: (cell: SetupCell) => void;
}) {
  const { t } = useTranslation("cells");
  const format = useFormatters();
  const errorText = useErrorText();
  const [asking, setAsking] = useState<"rotate" | "revoke" | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [issued, setIssued] = useState<CellCredentialDto | null>(null);
  const serial = cell.serial_number;
  const state = cell.credential_state;

  const run = async (action: () => Promise<void>) => {
    setAsking(null);
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (e) {
      setError(errorText(e).text);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="flex flex-col gap-2" data-testid="cell-credential">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="flex items-center gap-1.5 text-sm">
          <KeyRound aria-hidden className="size-4 text-muted-foreground" />
          <span className="text-muted-foreground">{t("credential.state")}:</span>
          <span className={state === "ACTIVE" ? "" : "font-medium text-state-critical"}>
            {state === "ACTIVE" && cell.credential_issued_at
              ? t("credential.activeSince", {
                date: format.dateTime(cell.credential_issued_at),
              })
              : t(`credential.states.${state}`)}
          </span>
        </p>
        {canWrite
          ? (
            <div className="flex gap-2">
              <Button
                size="sm"
                variant="secondary"
                disabled={busy}
                onClick={() => setAsking("rotate")}
              >
                <KeyRound />
                {state === "ACTIVE" ? t("credential.rotate") : t("credential.issue")}
              </Button>
              {state === "ACTIVE"
                ? (
                  <Button
                    size="sm"
                    variant="danger"
                    disabled={busy}
                    onClick={() => setAsking("revoke")}
                  >
                    <ShieldOff />
                    {t("credential.revoke")}
                  </Button>
                )
                : null}
            </div>
          )
          : null}
      </div>
      {state === "REVOKED" ? <Notice tone="warning">{t("credential.revokedNotice")}</Notice> : null}
      {error ? <p role="alert" className="text-sm text-state-critical">{error}</p> : null}
      <Confirm
        open={asking === "rotate"}
        onOpenChange={(open) => !open && setAsking(null)}
        title={state === "ACTIVE"
          ? t("credential.rotateTitle", { serial })
          : t("credential.issueTitle", { serial })}
        description={state === "ACTIVE"
          ? t("credential.rotateDescription")
          : t("credential.issueDescription")}
        confirmLabel={state === "ACTIVE"
          ? t("credential.rotateConfirm")
          : t("credential.issueConfirm")}
        onConfirm={() => void run(async () => setIssued(await cellsApi.rotateCredential(cell.id)))}
      />
      <Confirm
        open={asking === "revoke"}
        onOpenChange={(open) => !open && setAsking(null)}
        title={t("credential.revokeTitle", { serial })}
        description={t("credential.revokeDescription")}
        confirmLabel={t("credential.revokeConfirm")}
        serial={serial}
        onConfirm={() => void run(async () => onChanged(await cellsApi.revokeCredential(cell.id)))}
      />
      {issued
        ? (
          <CredentialDialog
            issued={[issued]}
            onClose={() => {
              setIssued(null);
              void run(async () => onChanged(await cellsApi.get(cell.id)));
            }}
          />
        )
        : null}
    </div>
  );
}
