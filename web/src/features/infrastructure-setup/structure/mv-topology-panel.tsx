/**
 * The MV topology of an MV feeder group: the ordered MV feeders (MV lines and transformers with
 * MV estimation) of its nodes that the MV view evaluates as sections. Code 351 means there is
 * none yet; its feeders cannot be deleted (356) nor their nodes (358) while it exists.
 */
import { Route } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { isMvFeeder } from "../../../../../modules/grid/contract.ts";
import { ApiError } from "../../../lib/api.ts";
import { useAsync } from "../../../lib/use-async.ts";
import { useErrorText } from "../../../lib/use-error-text.ts";
import { ConfirmDialog } from "../../../ui/alert-dialog.tsx";
import { Button } from "../../../ui/button.tsx";
import { type Feeder, gridApi, type MvFeederGroup } from "./grid-api.ts";

/** MV feeders of the nodes below an MV feeder group, with their node's name. */
export function mvFeedersOf(group: MvFeederGroup): { feeder: Feeder; nodeName: string }[] {
  return group.lv_groups.flatMap((lv) =>
    lv.nodes.flatMap((node) =>
      node.feeders
        .filter(isMvFeeder)
        .map((feeder) => ({ feeder, nodeName: node.name }))
    )
  );
}

export function MvTopologyPanel({ group, canEdit }: { group: MvFeederGroup; canEdit: boolean }) {
  const { t } = useTranslation(["infrastructure", "errors"]);
  const errorText = useErrorText();
  const [version, setVersion] = useState(0);
  const topology = useAsync(
    (signal) =>
      gridApi.mvTopology(group.id, signal).catch((error: unknown) => {
        if (error instanceof ApiError && error.body?.code === 351) return null;
        throw error;
      }),
    [group.id, version],
  );
  const [editing, setEditing] = useState<string[] | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [confirmClear, setConfirmClear] = useState(false);
  const candidates = mvFeedersOf(group);
  const current = topology.status === "success" ? topology.data : null;

  const save = async () => {
    if (!editing) return;
    setMessage(null);
    try {
      await gridApi.setMvTopology(group.id, editing);
      setEditing(null);
      setVersion((v) => v + 1);
    } catch (error) {
      setMessage(errorText(error).text);
    }
  };

  return (
    <section aria-label={t("topology.title")} className="grid gap-2 rounded-md border p-3">
      <header className="flex items-center justify-between gap-2">
        <h3 className="flex items-center gap-1.5 text-sm font-semibold">
          <Route aria-hidden className="size-4 text-muted-foreground" />
          {t("topology.title")}
        </h3>
        {canEdit && !editing
          ? (
            <div className="flex gap-2">
              {current
                ? (
                  <Button variant="secondary" size="sm" onClick={() => setConfirmClear(true)}>
                    {t("topology.clear")}
                  </Button>
                )
                : null}
              <Button
                size="sm"
                disabled={candidates.length < 2}
                onClick={() => setEditing(current?.sections.map((s) => s.feeder.id) ?? [])}
              >
                {t("topology.edit")}
              </Button>
            </div>
          )
          : null}
      </header>
      {editing
        ? (
          <div className="grid gap-2">
            <p className="text-xs text-muted-foreground">{t("topology.editHint")}</p>
            <ul className="grid gap-1">
              {candidates.map(({ feeder, nodeName }) => {
                const position = editing.indexOf(feeder.id);
                return (
                  <li key={feeder.id}>
                    <label className="flex items-center gap-2 text-sm">
                      <input
                        type="checkbox"
                        checked={position >= 0}
                        onChange={() =>
                          setEditing(
                            position >= 0
                              ? editing.filter((id) => id !== feeder.id)
                              : [...editing, feeder.id],
                          )}
                      />
                      <span className="w-6 text-right tabular text-muted-foreground">
                        {position >= 0 ? position + 1 : ""}
                      </span>
                      <span className="font-medium">{nodeName}</span>
                      <span className="text-muted-foreground">{feeder.name}</span>
                    </label>
                  </li>
                );
              })}
            </ul>
            {message ? <p role="alert" className="text-sm text-state-critical">{message}</p> : null}
            <div className="flex justify-end gap-2">
              <Button variant="secondary" size="sm" onClick={() => setEditing(null)}>
                {t("actions.cancel")}
              </Button>
              <Button size="sm" disabled={editing.length < 2} onClick={() => void save()}>
                {t("actions.save")}
              </Button>
            </div>
          </div>
        )
        : current
        ? (
          <ol className="grid gap-1 text-sm">
            {current.sections.map((s) => (
              <li key={s.feeder.id} className="flex gap-2">
                <span className="w-6 text-right tabular text-muted-foreground">{s.position}</span>
                <span className="font-medium">{s.node.name}</span>
                <span className="text-muted-foreground">{s.feeder.name}</span>
              </li>
            ))}
          </ol>
        )
        : topology.status === "error"
        ? <p className="text-sm text-muted-foreground">{t("errors:messages.unableToLoadData")}</p>
        : (
          <p className="text-sm text-muted-foreground">
            {t("errors:setup.noSectionedMvTopology")}{" "}
            {candidates.length < 2 ? t("topology.needsFeeders") : null}
          </p>
        )}
      {message && !editing
        ? <p role="alert" className="text-sm text-state-critical">{message}</p>
        : null}
      <ConfirmDialog
        open={confirmClear}
        onOpenChange={setConfirmClear}
        title={t("topology.clearTitle")}
        description={t("errors:validation.deleteConfirm")}
        confirmLabel={t("errors:validation.deleteConfirmButton")}
        cancelLabel={t("actions.cancel")}
        onConfirm={() => {
          setConfirmClear(false);
          gridApi.clearMvTopology(group.id).then(
            () => setVersion((v) => v + 1),
            (error) => setMessage(errorText(error).text),
          );
        }}
      />
    </section>
  );
}
