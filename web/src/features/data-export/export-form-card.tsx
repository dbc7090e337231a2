/**
 * The export form: name, period, feeders, parameters, interval, format and directory structure,
 * with the server's rules applied as the user types, the estimated size before starting (the
 * start is refused above 1e9 bytes, with the advice of the server's message), and the start.
 */
import { useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  EXPORT_FORMATS,
  EXPORT_INTERVALS,
  EXPORT_LAYOUTS,
  EXPORT_PARAMETER_KEYS,
  type ExportFeederDto,
  type ExportParameterKey,
  PQ_PARAMETER_KEYS,
  SCHEDULE_FREQUENCIES,
  STRUCTURES,
} from "../../../../modules/export/contract.ts";
import { ApiError } from "../../lib/api.ts";
import { serverErrors } from "../../lib/field-errors.ts";
import { useFormatters } from "../../lib/use-formatters.ts";
import { Button } from "../../ui/button.tsx";
import { FormField } from "../../ui/form-field.tsx";
import { Input, Select } from "../../ui/input.tsx";
import { Notice } from "../../ui/notice.tsx";
import { SegmentedControl } from "../../ui/segmented-control.tsx";
import { type EstimateDto, exportApi, type ScheduleDto } from "./export-api.ts";
import {
  canEstimate,
  createBody,
  editedScheduleBody,
  estimateBody,
  type ExportField,
  type ExportForm,
  fieldOf,
  type FormIssue,
  formIssues,
  formOfSchedule,
  initialForm,
  scheduleBody,
  sizeParts,
} from "./export-form.ts";
import { FeederPicker } from "./feeder-picker.tsx";

const ESTIMATE_DELAY_MS = 500;
const MEASURED = EXPORT_PARAMETER_KEYS.filter((k) => !PQ_PARAMETER_KEYS.includes(k));
const REPEATS = ["ONCE", ...SCHEDULE_FREQUENCIES] as const;

/** A group of parameter checkboxes (kept in the contract's order). */
function ParameterGroup(
  { label, keys, selected, onChange, text }: {
    label: string;
    keys: readonly ExportParameterKey[];
    selected: readonly ExportParameterKey[];
    onChange(next: ExportParameterKey[]): void;
    text(key: ExportParameterKey): string;
  },
) {
  return (
    <div className="flex flex-wrap gap-x-4 gap-y-1" role="group" aria-label={label}>
      {keys.map((key) => (
        <label key={key} className="flex items-center gap-1.5 text-sm">
          <input
            type="checkbox"
            className="size-4 accent-primary"
            checked={selected.includes(key)}
            onChange={() =>
              onChange(
                selected.includes(key)
                  ? selected.filter((p) => p !== key)
                  : EXPORT_PARAMETER_KEYS.filter((p) => p === key || selected.includes(p)),
              )}
          />
          {text(key)}
        </label>
      ))}
    </div>
  );
}

export function ExportFormCard(
  { feeders, onCreated, editing = null, onEditEnd }: {
    feeders: readonly ExportFeederDto[];
    onCreated: () => void;
    /** A schedule to edit in the form (its selection loaded, saved with PUT). */
    editing?: ScheduleDto | null;
    onEditEnd?: () => void;
  },
) {
  const { t } = useTranslation(["data-export", "errors"]);
  const format = useFormatters();
  const [form, setForm] = useState<ExportForm>(() => initialForm());
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [server, setServer] = useState<
    { fields: Partial<Record<ExportField, FormIssue>>; form: FormIssue | null }
  >({ fields: {}, form: null });
  const [estimate, setEstimate] = useState<EstimateDto | null>(null);
  const [started, setStarted] = useState<"started" | "scheduled" | "saved" | null>(null);
  // The notice a saved edit leaves for the new form its end brings (set before the edit ends).
  const noticeAfterReset = useRef<"saved" | null>(null);
  const editKey = editing?.key ?? null;
  useEffect(() => {
    // A schedule chosen for editing replaces the form; leaving the edit starts a new form.
    setForm((f) => editing ? formOfSchedule(editing, f) : initialForm());
    setSubmitted(false);
    setServer({ fields: {}, form: null });
    setStarted(noticeAfterReset.current);
    noticeAfterReset.current = null;
    // Only a change of the schedule edited (not its live refresh) reloads the form.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [editKey]);
  const issues = useMemo(() => formIssues(form), [form]);
  const set = (next: Partial<ExportForm>) => {
    setForm((f) => ({ ...f, ...next }));
    setServer({ fields: {}, form: null });
    setStarted(null);
  };

  const selectionKey = canEstimate(form) ? JSON.stringify(estimateBody(form)) : null;
  const scheduling = form.repeat !== "ONCE";
  useEffect(() => {
    setEstimate(null);
    if (!selectionKey) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      exportApi.estimate(JSON.parse(selectionKey), controller.signal).then(
        (answer) => setEstimate(answer),
        () => setEstimate(null),
      );
    }, ESTIMATE_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [selectionKey]);

  const message = (field: ExportField) => {
    const issue = server.fields[field] ?? (submitted ? issues[field] : undefined);
    return issue ? t(`errors:${issue.key}`, issue.params ?? {}) : undefined;
  };
  const size = (bytes: number) => {
    const { value, unit } = sizeParts(bytes);
    return t("size", { value: format.number(value, unit === "B" ? 0 : 1), unit });
  };

  const start = async () => {
    setSubmitted(true);
    if (Object.keys(issues).length || estimate?.too_large) return;
    setBusy(true);
    try {
      if (editing) await exportApi.updateSchedule(editing.key, editedScheduleBody(form, editing));
      else if (scheduling) await exportApi.schedule(scheduleBody(form));
      else await exportApi.create(createBody(form));
      setSubmitted(false);
      onCreated();
      if (editing && onEditEnd) {
        // The edit's end resets the form (the effect above), which then shows the notice.
        noticeAfterReset.current = "saved";
        onEditEnd();
      } else setStarted(editing ? "saved" : scheduling ? "scheduled" : "started");
    } catch (error) {
      const body = error instanceof ApiError ? error.body : null;
      const placed = serverErrors<ExportField>(body, { field: fieldOf });
      setServer({ fields: placed.fields, form: placed.form });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="flex flex-col gap-4 rounded-lg border bg-surface p-4"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void start();
      }}
      aria-label={editing ? t("form.editTitle") : t("form.title")}
      data-testid="export-form"
    >
      <h2 className="text-base font-semibold">
        {editing ? t("form.editTitle") : t("form.title")}
      </h2>
      {editing && <p className="text-xs text-muted-foreground">{t("form.editHint")}</p>}
      <FormField label={t("form.name")} error={message("name")} hint={t("form.nameHint")}>
        {(control) => (
          <Input
            {...control}
            value={form.name}
            maxLength={80}
            onChange={(e) => set({ name: e.target.value })}
          />
        )}
      </FormField>
      <FormField
        label={t("form.repeat")}
        hint={scheduling ? t(`repeatHint.${form.repeat}`) : undefined}
      >
        {() => (
          <SegmentedControl
            label={t("form.repeat")}
            value={form.repeat}
            options={(editing ? SCHEDULE_FREQUENCIES : REPEATS).map((v) => ({
              value: v,
              label: t(`repeat.${v}`),
            }))}
            onChange={(repeat) => set({ repeat })}
          />
        )}
      </FormField>
      {!scheduling && (
        <div className="grid gap-3 sm:grid-cols-2">
          <FormField label={t("form.from")} error={message("period")}>
            {(control) => (
              <Input
                {...control}
                type="datetime-local"
                value={form.from}
                onChange={(e) => set({ from: e.target.value })}
              />
            )}
          </FormField>
          <FormField label={t("form.to")} hint={t("form.periodHint")}>
            {(control) => (
              <Input
                {...control}
                type="datetime-local"
                value={form.to}
                onChange={(e) => set({ to: e.target.value })}
              />
            )}
          </FormField>
        </div>
      )}
      <FormField label={t("form.feeders")} error={message("feeders")}>
        {() => (
          <FeederPicker
            feeders={feeders}
            selected={form.feeders}
            onChange={(ids) => set({ feeders: ids })}
            invalid={Boolean(message("feeders"))}
          />
        )}
      </FormField>
      <FormField label={t("form.parameters")} error={message("parameters")}>
        {() => (
          <div className="flex flex-col gap-2">
            <ParameterGroup
              label={t("form.parameters")}
              keys={MEASURED}
              selected={form.parameters}
              onChange={(parameters) => set({ parameters })}
              text={(key) => t(`parameter.${key}`)}
            />
            <div className="text-xs text-muted-foreground">{t("form.pqHint")}</div>
            <ParameterGroup
              label={t("form.pqParameters")}
              keys={PQ_PARAMETER_KEYS}
              selected={form.parameters}
              onChange={(parameters) => set({ parameters })}
              text={(key) =>
                key.startsWith("h")
                  ? t("parameter.harmonic", { order: key.slice(1) })
                  : t(`parameter.${key}`)}
            />
          </div>
        )}
      </FormField>
      <div className="flex flex-wrap gap-4">
        <FormField label={t("form.interval")}>
          {() => (
            <SegmentedControl
              label={t("form.interval")}
              value={form.interval}
              options={EXPORT_INTERVALS.map((v) => ({ value: v, label: t(`interval.${v}`) }))}
              onChange={(interval) => set({ interval })}
            />
          )}
        </FormField>
        <FormField label={t("form.format")}>
          {() => (
            <SegmentedControl
              label={t("form.format")}
              value={form.format}
              options={EXPORT_FORMATS.map((v) => ({ value: v, label: t(`format.${v}`) }))}
              onChange={(value) =>
                set({
                  format: value,
                  ...(value === "duckdb" ? { structure: "flat" as const } : {}),
                })}
            />
          )}
        </FormField>
      </div>
      <FormField
        label={t("form.layout")}
        error={message("layout")}
        hint={t(`layoutHint.${form.layout}`)}
      >
        {() => (
          <SegmentedControl
            label={t("form.layout")}
            value={form.format === "duckdb" ? "long" : form.layout}
            options={EXPORT_LAYOUTS.map((v) => ({
              value: v,
              label: t(`layout.${v}`),
              disabled: form.format === "duckdb" && v !== "long",
            }))}
            onChange={(layout) => set({ layout })}
          />
        )}
      </FormField>
      <FormField label={t("form.structure")} error={message("structure")}>
        {(control) => (
          <Select
            {...control}
            value={form.structure}
            disabled={form.format === "duckdb"}
            onChange={(e) => set({ structure: e.target.value as ExportForm["structure"] })}
          >
            {STRUCTURES.map((s) => <option key={s} value={s}>{t(`structure.${s}`)}</option>)}
          </Select>
        )}
      </FormField>
      <div aria-live="polite" data-testid="export-estimate" className="text-sm">
        {estimate
          ? (
            estimate.too_large
              ? (
                <Notice tone="warning">
                  {t("errors:export.tooLarge", {
                    bytes: format.number(estimate.estimated_bytes, 0),
                    max: format.number(estimate.max_bytes, 0),
                  })}
                </Notice>
              )
              : t(scheduling ? "estimateRun" : "estimate", {
                size: size(estimate.estimated_bytes),
                rows: format.number(estimate.rows, 0),
              })
          )
          : <span className="text-muted-foreground">{t("estimatePending")}</span>}
      </div>
      {server.form && (
        <Notice tone="critical">{t(`errors:${server.form.key}`, server.form.params ?? {})}</Notice>
      )}
      {started && <Notice tone="ok">{t(started)}</Notice>}
      <div className="flex justify-end gap-2">
        {editing && (
          <Button type="button" variant="secondary" onClick={() => onEditEnd?.()}>
            {t("form.cancelEdit")}
          </Button>
        )}
        <Button type="submit" disabled={busy || Boolean(estimate?.too_large)}>
          {t(editing ? "form.save" : scheduling ? "form.schedule" : "form.start")}
        </Button>
      </div>
    </form>
  );
}
