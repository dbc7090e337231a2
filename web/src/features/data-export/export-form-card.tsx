/**
 * The export form: name, period, feeders, parameters, interval, format and directory structure,
 * with the server's rules applied as the user types, the estimated size before starting (the
 * start is refused above 1e9 bytes, with the advice of the server's message), and the start.
 */
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  EXPORT_FORMATS,
  EXPORT_INTERVALS,
  EXPORT_PARAMETER_KEYS,
  type ExportFeederDto,
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
import { type EstimateDto, exportApi } from "./export-api.ts";
import {
  canEstimate,
  createBody,
  type ExportField,
  type ExportForm,
  fieldOf,
  type FormIssue,
  formIssues,
  initialForm,
  selectionBody,
  sizeParts,
} from "./export-form.ts";
import { FeederPicker } from "./feeder-picker.tsx";

const ESTIMATE_DELAY_MS = 500;

export function ExportFormCard(
  { feeders, onCreated }: { feeders: readonly ExportFeederDto[]; onCreated: () => void },
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
  const [started, setStarted] = useState(false);
  const issues = useMemo(() => formIssues(form), [form]);
  const set = (next: Partial<ExportForm>) => {
    setForm((f) => ({ ...f, ...next }));
    setServer({ fields: {}, form: null });
    setStarted(false);
  };

  const selectionKey = canEstimate(form) ? JSON.stringify(selectionBody(form)) : null;
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
      await exportApi.create(createBody(form));
      setStarted(true);
      setSubmitted(false);
      onCreated();
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
      aria-label={t("form.title")}
    >
      <h2 className="text-base font-semibold">{t("form.title")}</h2>
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
          <div
            className="flex flex-wrap gap-x-4 gap-y-1"
            role="group"
            aria-label={t("form.parameters")}
          >
            {EXPORT_PARAMETER_KEYS.map((key) => (
              <label key={key} className="flex items-center gap-1.5 text-sm">
                <input
                  type="checkbox"
                  className="size-4 accent-primary"
                  checked={form.parameters.includes(key)}
                  onChange={() =>
                    set({
                      parameters: form.parameters.includes(key)
                        ? form.parameters.filter((p) =>
                          p !== key
                        )
                        : EXPORT_PARAMETER_KEYS.filter((p) =>
                          p === key || form.parameters.includes(p)
                        ),
                    })}
                />
                {t(`parameter.${key}`)}
              </label>
            ))}
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
              : t("estimate", {
                size: size(estimate.estimated_bytes),
                rows: format.number(estimate.rows, 0),
              })
          )
          : <span className="text-muted-foreground">{t("estimatePending")}</span>}
      </div>
      {server.form && (
        <Notice tone="critical">{t(`errors:${server.form.key}`, server.form.params ?? {})}</Notice>
      )}
      {started && <Notice tone="ok">{t("started")}</Notice>}
      <div className="flex justify-end">
        <Button type="submit" disabled={busy || Boolean(estimate?.too_large)}>
          {t("form.start")}
        </Button>
      </div>
    </form>
  );
}
