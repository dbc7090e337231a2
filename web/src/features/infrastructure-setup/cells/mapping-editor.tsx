/**
 * The line mapping of an installed cell (spec 4): which probe carries which phase of every
 * feeder, saved and sent to the cell, then validated on the cell's data.
 */
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useAsync } from "../../../lib/use-async.ts";
import { useErrorText } from "../../../lib/use-error-text.ts";
import { Button } from "../../../ui/button.tsx";
import { cn } from "../../../ui/cn.ts";
import { Loader, LoadError } from "../../../ui/loader.tsx";
import { Select } from "../../../ui/select.tsx";
import { Spinner } from "../../../ui/spinner.tsx";
import { useDelayed } from "./cell-access.ts";
import {
  type CellMapping,
  cellsApi,
  type FeederMapping,
  type SetupCell,
  type Validation,
} from "./cells-api.ts";
import { feederMappingRule, type Phase, phaseEnabled, PHASES, setPhase } from "./cells-rules.ts";
import { VerdictPanel } from "./verdict-panel.tsx";

export function MappingEditor({ cell, canWrite, onChanged }: {
  cell: SetupCell;
  canWrite: boolean;
  onChanged: (cell: SetupCell) => void;
}) {
  const { t } = useTranslation("cells");
  const state = useAsync(() => cellsApi.mapping(cell.id), [cell.id]);
  return (
    <section className="flex flex-col gap-3 border-t pt-4" aria-label={t("mapping.title")}>
      <div>
        <h3 className="text-sm font-semibold">{t("mapping.title")}</h3>
        <p className="text-xs text-muted-foreground">{t("mapping.description")}</p>
      </div>
      {state.status === "loading"
        ? <Loader />
        : state.status === "error"
        ? <LoadError onRetry={state.reload} />
        : (
          <MappingForm
            cellId={cell.id}
            initial={state.data}
            canWrite={canWrite}
            onChanged={onChanged}
          />
        )}
    </section>
  );
}

function MappingForm({ cellId, initial, canWrite, onChanged }: {
  cellId: string;
  initial: CellMapping;
  canWrite: boolean;
  onChanged: (cell: SetupCell) => void;
}) {
  const { t } = useTranslation(["cells", "errors"]);
  const errorText = useErrorText();
  const [mapping, setMapping] = useState(initial);
  const [feeders, setFeeders] = useState<FeederMapping[]>(initial.feeders);
  const [saving, setSaving] = useState(false);
  const [validating, setValidating] = useState(false);
  const [notice, setNotice] = useState<{ tone: "ok" | "warning" | "error"; text: string } | null>(
    null,
  );
  const [validation, setValidation] = useState<Validation | null>(initial.validation);
  const spinner = useDelayed(validating);
  const dirty = JSON.stringify(feeders) !== JSON.stringify(mapping.feeders);
  const rules = feeders.map((f) => feederMappingRule(f.phases, f.mv_estimation));
  const mappedAny = feeders.some((f) => f.phases.L1 !== null);

  const update = (feederId: string, phase: Phase, probe: number | null) =>
    setFeeders((list) =>
      list.map((f) => (f.id === feederId ? { ...f, phases: setPhase(f.phases, phase, probe) } : f))
    );

  const save = async () => {
    setSaving(true);
    setNotice(null);
    try {
      const saved = await cellsApi.saveMapping(
        cellId,
        feeders.flatMap((f) =>
          PHASES.flatMap((phase) => {
            const probe = f.phases[phase];
            return probe === null
              ? []
              : [{ node_id: mapping.node_id, feeder_id: f.id, probe, phase }];
          })
        ),
      );
      setMapping(saved.mapping);
      setFeeders(saved.mapping.feeders);
      onChanged(await cellsApi.get(cellId));
      setValidation(null);
      setNotice(
        saved.delivery.state === "FAILED"
          ? { tone: "warning", text: `${t("errors:mapping.sendFailed")} ${t("mapping.notSent")}` }
          : { tone: "ok", text: t("mapping.saved") },
      );
    } catch (e) {
      setNotice({ tone: "error", text: errorText(e).text });
    } finally {
      setSaving(false);
    }
  };

  const validate = async () => {
    setValidating(true);
    setNotice(null);
    try {
      setValidation(await cellsApi.validate(cellId));
      onChanged(await cellsApi.get(cellId));
    } catch (e) {
      setNotice({ tone: "error", text: errorText(e).text });
    } finally {
      setValidating(false);
    }
  };

  const decide = async (action: "confirm" | "ignore") => {
    setNotice(null);
    try {
      onChanged(await cellsApi[action](cellId));
    } catch (e) {
      setNotice({ tone: "error", text: errorText(e).text });
    }
  };

  if (!feeders.length) {
    return <p className="text-sm text-muted-foreground">{t("mapping.noFeeders")}</p>;
  }
  const probeOptions = [
    { value: "0", label: t("mapping.notMapped") },
    ...[1, 2, 3, 4].map((probe) => ({
      value: String(probe),
      label: t("mapping.probe", { probe }),
    })),
  ];
  return (
    <div className="flex flex-col gap-3">
      <p className="text-xs text-muted-foreground">
        {mapping.synchronized
          ? t("mapping.synchronized", { version: mapping.version })
          : mappedAny
          ? t("mapping.pending", { version: mapping.version })
          : t("status.toBeConfigured")}
      </p>
      <div className="overflow-x-auto">
        <table className="w-full text-sm">
          <thead>
            <tr className="text-left text-xs text-muted-foreground">
              <th className="py-1 pr-2 font-medium">{t("mapping.feederColumn")}</th>
              {PHASES.map((phase) => <th key={phase} className="px-1 py-1 font-medium">{phase}
              </th>)}
            </tr>
          </thead>
          <tbody>
            {feeders.map((f, k) => (
              <tr key={f.id} className="border-t align-top">
                <td className="py-1.5 pr-2">
                  <div className="font-medium">
                    {t("mapping.feeder", { slot: f.slot, name: f.name })}
                  </div>
                  {f.mv_estimation
                    ? (
                      <div className="text-xs text-muted-foreground">
                        {t("mapping.mvEstimation")}
                      </div>
                    )
                    : null}
                  {rules[k]
                    ? (
                      <div role="alert" className="text-xs text-state-critical">
                        {t(`errors:${rules[k].key}`)}
                      </div>
                    )
                    : null}
                </td>
                {PHASES.map((phase) => (
                  <td key={phase} className="min-w-30 px-1 py-1.5">
                    <Select
                      aria-label={t("mapping.phaseOf", { phase, feeder: f.name })}
                      className="whitespace-nowrap"
                      value={String(f.phases[phase] ?? 0)}
                      options={probeOptions}
                      disabled={!canWrite || !phaseEnabled(f.phases, phase)}
                      onValueChange={(v) => update(f.id, phase, v === "0" ? null : Number(v))}
                    />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {canWrite
        ? (
          <div className="flex flex-wrap items-center gap-2">
            <Button
              variant="secondary"
              disabled={!dirty || saving || rules.some(Boolean) ||
                !feeders.some((f) => f.phases.L1)}
              onClick={() => void save()}
            >
              {t("mapping.save")}
            </Button>
            <Button
              disabled={validating || dirty || !mappedAny}
              onClick={() => void validate()}
            >
              {spinner ? <Spinner className="size-4 text-primary-foreground" /> : null}
              {spinner ? t("mapping.validating") : t("mapping.validate")}
            </Button>
          </div>
        )
        : null}
      {notice
        ? (
          <p
            role={notice.tone === "ok" ? "status" : "alert"}
            className={cn(
              "text-sm",
              notice.tone === "ok" && "text-state-ok",
              notice.tone === "warning" && "text-state-warning",
              notice.tone === "error" && "text-state-critical",
            )}
          >
            {notice.text}
          </p>
        )
        : null}
      {validation
        ? (
          <VerdictPanel
            validation={validation}
            feeders={feeders}
            canWrite={canWrite}
            onDecide={(a) => void decide(a)}
          />
        )
        : null}
    </div>
  );
}
