/** Links a waiting cell to a free node whose electrical work takes a cell. */
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useAsync } from "../../../lib/use-async.ts";
import { useErrorText } from "../../../lib/use-error-text.ts";
import { Button } from "../../../ui/button.tsx";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "../../../ui/dialog.tsx";
import { FormField } from "../../../ui/form-field.tsx";
import { Loader, LoadError } from "../../../ui/loader.tsx";
import { Select } from "../../../ui/select.tsx";
import { cellsApi, type SetupCell } from "./cells-api.ts";

export function LinkDialog({ cell, onClose, onLinked }: {
  cell: SetupCell;
  onClose: () => void;
  onLinked: (cell: SetupCell) => void;
}) {
  const { t } = useTranslation("cells");
  const errorText = useErrorText();
  const nodes = useAsync(() => cellsApi.linkableNodes(), []);
  const [nodeId, setNodeId] = useState<string | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const options = nodes.status === "success"
    ? nodes.data.filter((n) => n.compatible && !n.cell_id).map((n) => ({
      value: n.id,
      label: `${n.name} · ${n.lv_group_name}`,
    }))
    : [];
  const unavailable = nodes.status === "success"
    ? nodes.data.filter((n) => !n.compatible || n.cell_id)
    : [];
  const link = async () => {
    if (!nodeId) return;
    setBusy(true);
    setError(null);
    try {
      onLinked(await cellsApi.link(cell.id, nodeId));
    } catch (e) {
      setError(errorText(e).text);
      setBusy(false);
    }
  };
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{t("link.title", { serial: cell.serial_number })}</DialogTitle>
          <DialogDescription>{t("link.description")}</DialogDescription>
        </DialogHeader>
        {cell.connection === "DISCONNECTED"
          ? <p className="text-sm text-state-warning">{t("link.disconnected")}</p>
          : null}
        {nodes.status === "loading"
          ? <Loader />
          : nodes.status === "error"
          ? <LoadError onRetry={nodes.reload} />
          : (
            <div className="flex flex-col gap-3">
              <FormField label={t("link.node")} error={error}>
                {(props) => (
                  <Select
                    {...props}
                    value={nodeId}
                    onValueChange={setNodeId}
                    options={options}
                    placeholder={options.length ? t("link.choose") : t("link.noneFree")}
                    disabled={!options.length}
                  />
                )}
              </FormField>
              {unavailable.length
                ? (
                  <details className="text-xs text-muted-foreground">
                    <summary className="cursor-pointer">
                      {t("link.unavailable", { count: unavailable.length })}
                    </summary>
                    <ul className="mt-1 flex max-h-40 flex-col gap-0.5 overflow-auto">
                      {unavailable.map((n) => (
                        <li key={n.id}>
                          {n.name} – {n.compatible ? t("link.taken") : t("link.incompatible")}
                        </li>
                      ))}
                    </ul>
                  </details>
                )
                : null}
            </div>
          )}
        <DialogFooter>
          <Button variant="secondary" onClick={onClose}>{t("actions.cancel")}</Button>
          <Button disabled={!nodeId || busy} onClick={() => void link()}>
            {t("link.confirm")}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
