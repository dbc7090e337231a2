/**
 * The create-report dialog: name, language, node and feeders, start and period (a length or an
 * end), checked with the server's rules as the user types (report-form.ts); a refusal of the
 * server lands on its field or on the form with its code.
 */
import { useAtomValue } from "jotai";
import { type FormEvent, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  REPORT_LANGUAGES,
  type ReportLanguage,
} from "../../../../modules/power_quality/contract.ts";
import { ApiError } from "../../lib/api.ts";
import { type FieldMessage, serverErrors } from "../../lib/field-errors.ts";
import { customerAtom } from "../../lib/session-atoms.ts";
import { useAction } from "../../lib/use-action.ts";
import { useLiveLoad } from "../../lib/use-live-load.ts";
import { Button } from "../../ui/button.tsx";
import { CodedText } from "../../ui/coded-text.tsx";
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
import { Select } from "../../ui/select.tsx";
import { pqApi, type PqElectricalWorksDto } from "./pq-reports-api.ts";
import {
  DURATION_UNITS,
  type DurationUnit,
  instantToWall,
  type PeriodMode,
  type ReportField,
  type ReportFormValues,
  toInput,
  validateReportForm,
} from "./report-form.ts";

const SLOT = 600_000;
const WEEK = 7 * 86_400_000;

/** Monday 00:00 UTC of the last complete ISO week. */
function lastWeekStart(now: number): number {
  const midnight = Math.floor(now / 86_400_000) * 86_400_000;
  const monday = midnight - ((new Date(midnight).getUTCDay() + 6) % 7) * 86_400_000;
  return monday - WEEK;
}

export function CreateReportDialog(
  { open, onOpenChange, works, onCreated }: {
    open: boolean;
    onOpenChange: (open: boolean) => void;
    works: PqElectricalWorksDto;
    onCreated: (key: string) => void;
  },
) {
  const { t, i18n } = useTranslation(["pq-reports", "errors"]);
  const customer = useAtomValue(customerAtom);
  const timeZone = customer?.default_timezone ?? "UTC";
  const nodes = useMemo(
    () =>
      works.electrical_works.flatMap((w) =>
        w.nodes.map((n) => ({ ...n, label: w.name === n.name ? n.name : `${w.name} / ${n.name}` }))
      ),
    [works],
  );
  const initial = (): ReportFormValues => ({
    name: "",
    language: (REPORT_LANGUAGES as readonly string[]).includes(i18n.language)
      ? i18n.language as ReportLanguage
      : "en",
    node: "",
    feeders: [],
    start: instantToWall(lastWeekStart(Date.now()), timeZone),
    mode: "duration",
    amount: "1",
    unit: "weeks",
    end: instantToWall(lastWeekStart(Date.now()) + WEEK, timeZone),
    limitSet: "EN50160",
  });
  const [values, setValues] = useState<ReportFormValues>(initial);
  const [touched, setTouched] = useState(false);
  const [server, setServer] = useState<ReturnType<typeof serverErrors<ReportField>> | null>(null);
  const sets = useLiveLoad((signal) => pqApi.limitSets(signal), open ? "sets" : null, null);
  const node = nodes.find((n) => n.id === values.node) ?? null;
  const local = validateReportForm(values, {
    limits: works.limits,
    timeZone,
    now: Date.now(),
    nodeHasCell: node ? node.has_cell : null,
  });
  const set = (next: Partial<ReportFormValues>) => {
    setValues((v) => ({ ...v, ...next }));
    setServer(null);
  };
  const submit = useAction(async () => {
    const input = toInput(values, timeZone);
    if (!input) return;
    try {
      const accepted = await pqApi.create(input);
      onCreated(accepted.key);
      setValues(initial());
      setTouched(false);
      onOpenChange(false);
    } catch (error) {
      setServer(serverErrors<ReportField>(error instanceof ApiError ? error.body : null, {
        field: (path) =>
          path === "name" || path === "node" || path === "start" || path === "period" ? path : null,
        keyField: (key) =>
          key === "pq.reportExists"
            ? "name"
            : key.startsWith("data.period")
            ? "period"
            : key === "pq.noNodeLinked" || key === "pq.nodeDeleted"
            ? "node"
            : key === "pq.tooFarInFuture" || key === "pq.startBeyondDataLifetime" ||
                key === "pq.startBeforeCellConfiguration"
            ? "start"
            : null,
      }));
    }
  });
  const message = (field: ReportField) => {
    const m: FieldMessage | undefined = server?.fields[field] ??
      (touched ? local[field] : undefined);
    return m ? <CodedText text={t(`errors:${m.key}`, m.params ?? {})} code={m.code} /> : undefined;
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (Object.keys(local).length === 0) void submit.run();
  };
  const slotStep = String(SLOT / 1000);

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="w-[min(40rem,calc(100vw-2rem))]">
        <DialogHeader>
          <DialogTitle>{t("createTitle")}</DialogTitle>
          <DialogDescription>{t("createHint")}</DialogDescription>
        </DialogHeader>
        <form className="grid gap-3 sm:grid-cols-2" onSubmit={onSubmit} noValidate>
          <FormField label={t("fields.name")} error={message("name")} className="sm:col-span-2">
            {(control) => (
              <Input
                {...control}
                name="name"
                value={values.name}
                maxLength={80}
                onChange={(e) => set({ name: e.target.value })}
              />
            )}
          </FormField>
          <FormField label={t("fields.node")} error={message("node")}>
            {(control) => (
              <Select
                {...control}
                data-testid="pq-node"
                value={values.node || undefined}
                placeholder={t("fields.nodePlaceholder")}
                options={nodes.map((n) => ({
                  value: n.id,
                  label: n.has_cell ? n.label : `${n.label} (${t("noCell")})`,
                }))}
                onValueChange={(id) => set({ node: id, feeders: [] })}
              />
            )}
          </FormField>
          <FormField label={t("fields.language")}>
            {(control) => (
              <Select
                {...control}
                value={values.language}
                options={REPORT_LANGUAGES.map((l) => ({ value: l, label: t(`languages.${l}`) }))}
                onValueChange={(l) => set({ language: l as ReportLanguage })}
              />
            )}
          </FormField>
          <FormField label={t("fields.standard")} className="sm:col-span-2">
            {(control) => (
              <Select
                {...control}
                value={values.limitSet}
                options={(sets.data?.limit_sets ?? [{ key: "EN50160", name: "EN 50160" }]).map((
                  s,
                ) => ({
                  value: s.key,
                  label: s.key === "EN50160" ? s.name : t("customSet", { name: s.name }),
                }))}
                onValueChange={(key) => set({ limitSet: key })}
              />
            )}
          </FormField>
          {node && node.feeders.length > 1
            ? (
              <fieldset className="flex flex-col gap-1 sm:col-span-2">
                <legend className="text-xs font-medium text-muted-foreground">
                  {t("fields.feeders")}
                </legend>
                <div className="flex flex-wrap gap-3">
                  {node.feeders.map((f) => (
                    <label key={f.id} className="flex items-center gap-1.5 text-sm">
                      <input
                        type="checkbox"
                        checked={values.feeders.includes(f.id)}
                        onChange={(e) =>
                          set({
                            feeders: e.target.checked
                              ? [...values.feeders, f.id]
                              : values.feeders.filter((id) =>
                                id !== f.id
                              ),
                          })}
                      />
                      {f.name}
                    </label>
                  ))}
                </div>
                <p className="text-xs text-muted-foreground">{t("fields.feedersHint")}</p>
              </fieldset>
            )
            : null}
          <FormField
            label={t("fields.start")}
            hint={t("fields.startHint", { zone: timeZone })}
            error={message("start")}
          >
            {(control) => (
              <Input
                {...control}
                name="start"
                type="datetime-local"
                step={slotStep}
                value={values.start}
                onChange={(e) => set({ start: e.target.value })}
              />
            )}
          </FormField>
          <FormField label={t("fields.mode")}>
            {(control) => (
              <Select
                {...control}
                value={values.mode}
                options={[
                  { value: "duration", label: t("fields.modeDuration") },
                  { value: "end", label: t("fields.modeEnd") },
                ]}
                onValueChange={(m) => set({ mode: m as PeriodMode })}
              />
            )}
          </FormField>
          {values.mode === "duration"
            ? (
              <div className="grid grid-cols-2 gap-2 sm:col-span-2">
                <FormField label={t("fields.amount")} error={message("period")}>
                  {(control) => (
                    <Input
                      {...control}
                      name="amount"
                      inputMode="numeric"
                      value={values.amount}
                      onChange={(e) => set({ amount: e.target.value })}
                    />
                  )}
                </FormField>
                <FormField label={t("fields.unit")}>
                  {(control) => (
                    <Select
                      {...control}
                      value={values.unit}
                      options={DURATION_UNITS.map((u) => ({ value: u, label: t(`units.${u}`) }))}
                      onValueChange={(u) => set({ unit: u as DurationUnit })}
                    />
                  )}
                </FormField>
              </div>
            )
            : (
              <FormField
                label={t("fields.end")}
                error={message("period")}
                className="sm:col-span-2"
              >
                {(control) => (
                  <Input
                    {...control}
                    name="end"
                    type="datetime-local"
                    step={slotStep}
                    value={values.end}
                    onChange={(e) => set({ end: e.target.value })}
                  />
                )}
              </FormField>
            )}
          {server?.form
            ? (
              <Notice tone="critical" code={server.form.code} className="sm:col-span-2">
                {t(`errors:${server.form.key}`, server.form.params ?? {})}
              </Notice>
            )
            : null}
          <DialogFooter className="sm:col-span-2">
            <Button type="button" variant="secondary" onClick={() => onOpenChange(false)}>
              {t("cancel")}
            </Button>
            <Button type="submit" disabled={submit.busy}>{t("submit")}</Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
