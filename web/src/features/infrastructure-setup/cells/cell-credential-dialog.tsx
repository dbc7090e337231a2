/**
 * The one-time credential dialog: the only moment a cell's credential is visible (the server
 * keeps a hash). It says so plainly, offers a copy button and the provisioning file, and closes
 * only once the administrator confirms the credential is stored (no Escape, no outside click).
 */
import { Check, Copy, Download, KeyRound } from "lucide-react";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../../ui/button.tsx";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "../../../ui/dialog.tsx";
import { Input } from "../../../ui/input.tsx";
import { Notice } from "../../../ui/notice.tsx";
import type { CellCredentialDto } from "./cells-api.ts";
import { downloadProvisioningFile } from "./provisioning.ts";

/** Copies `text`; the Clipboard API needs a secure context, else the selected field is copied. */
async function copyText(text: string, field: HTMLInputElement | null): Promise<boolean> {
  try {
    if (navigator.clipboard && globalThis.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Refused (permissions): fall back to the selection below.
  }
  if (!field) return false;
  field.focus();
  field.select();
  return document.execCommand("copy");
}

function CopyField({ label, value }: { label: string; value: string }) {
  const { t } = useTranslation("cells");
  const field = useRef<HTMLInputElement | null>(null);
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  const copy = async () => {
    const ok = await copyText(value, field.current);
    setState(ok ? "copied" : "failed");
    if (ok) window.setTimeout(() => setState("idle"), 2_000);
  };
  return (
    <div className="flex flex-col gap-1">
      <span className="text-xs font-medium text-muted-foreground">{label}</span>
      <div className="flex gap-2">
        <Input
          ref={field}
          readOnly
          value={value}
          aria-label={label}
          className="font-mono text-xs"
          onFocus={(e) => e.currentTarget.select()}
        />
        <Button type="button" variant="secondary" onClick={() => void copy()}>
          {state === "copied" ? <Check /> : <Copy />}
          {state === "copied" ? t("credential.copied") : t("credential.copy")}
        </Button>
      </div>
      {state === "failed"
        ? <p role="alert" className="text-xs text-state-critical">{t("credential.copyFailed")}</p>
        : null}
    </div>
  );
}

/** Shows newly issued credentials (one cell, or every cell of an import) once. */
export function CredentialDialog({ issued, onClose }: {
  issued: readonly CellCredentialDto[];
  onClose: () => void;
}) {
  const { t } = useTranslation("cells");
  const [stored, setStored] = useState(false);
  const single = issued.length === 1 ? issued[0]! : null;
  const keep = (e: Event) => e.preventDefault();
  return (
    <Dialog open onOpenChange={(open) => !open && stored && onClose()}>
      <DialogContent
        className="w-[min(40rem,calc(100vw-2rem))]"
        onEscapeKeyDown={keep}
        onPointerDownOutside={keep}
        onInteractOutside={keep}
      >
        <DialogHeader>
          <DialogTitle className="flex items-center gap-2">
            <KeyRound aria-hidden className="size-4" />
            {single
              ? t("credential.title", { serial: single.serial_number })
              : t("credential.titleMany", { count: issued.length })}
          </DialogTitle>
          <DialogDescription>{t("credential.description")}</DialogDescription>
        </DialogHeader>
        <Notice tone="warning" data-testid="credential-once">{t("credential.onceWarning")}</Notice>
        {single
          ? (
            <div className="flex flex-col gap-3">
              <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm">
                <div>
                  <dt className="text-xs text-muted-foreground">{t("detail.cellId")}</dt>
                  <dd>{single.cell_id}</dd>
                </div>
                <div>
                  <dt className="text-xs text-muted-foreground">{t("credential.ingestUrl")}</dt>
                  <dd className="truncate">{single.ingest_url}</dd>
                </div>
              </dl>
              <CopyField label={t("credential.credential")} value={single.credential} />
            </div>
          )
          : (
            <div className="max-h-56 overflow-auto rounded-md border">
              <table className="w-full text-sm">
                <thead className="sticky top-0 bg-surface-muted text-left text-xs text-muted-foreground">
                  <tr>
                    <th className="px-2 py-1 font-medium">{t("onboarding.serial")}</th>
                    <th className="px-2 py-1 font-medium">{t("detail.cellId")}</th>
                    <th className="px-2 py-1 font-medium">{t("onboarding.model")}</th>
                  </tr>
                </thead>
                <tbody className="divide-y">
                  {issued.map((cell) => (
                    <tr key={cell.cell_id}>
                      <td className="px-2 py-1">{cell.serial_number}</td>
                      <td className="px-2 py-1">{cell.cell_id}</td>
                      <td className="px-2 py-1">{cell.device_model}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        <div>
          <Button type="button" onClick={() => downloadProvisioningFile(issued)}>
            <Download />
            {t("credential.download")}
          </Button>
        </div>
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            className="size-4 accent-primary"
            checked={stored}
            onChange={(e) => setStored(e.target.checked)}
          />
          {t("credential.stored")}
        </label>
        <DialogFooter>
          <Button type="button" disabled={!stored} onClick={onClose}>
            {t("credential.done")}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
