/**
 * The period of a view: quick ranges ending now, or a custom from/to typed in the customer's
 * date and time format on the customer's clock. The form refuses what the server would (codes
 * 401-403) with the catalogue's texts.
 */
import { useAtomValue } from "jotai";
import { RefreshCw } from "lucide-react";
import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { customerAtom } from "../../lib/session-atoms.ts";
import { gmtOffsetLabel } from "../../lib/time-zone.ts";
import { useFormatters } from "../../lib/use-formatters.ts";
import { Button } from "../../ui/button.tsx";
import { FormField } from "../../ui/form-field.tsx";
import { Input } from "../../ui/input.tsx";
import { SegmentedControl } from "../../ui/segmented-control.tsx";
import { formatInput, inputPattern, parseInput } from "./date-input.ts";
import {
  type Period,
  type PeriodChoice,
  QUICK_RANGES,
  type QuickRange,
  validatePeriod,
} from "./period.ts";

export function PeriodPicker({
  value,
  period,
  onChange,
  onRefresh,
}: {
  value: PeriodChoice;
  /** The period the choice stands for now. */
  period: Period;
  onChange: (choice: PeriodChoice) => void;
  /** Moves a quick range to end at the current minute. */
  onRefresh: () => void;
}) {
  const { t } = useTranslation(["statistics", "errors"]);
  const format = useFormatters();
  const customer = useAtomValue(customerAtom);
  const timeZone = customer?.default_timezone ?? "UTC";
  const pattern = inputPattern({
    default_date_format: customer?.default_date_format ?? "YYYY-MM-DD",
    default_time_format: customer?.default_time_format ?? "HH:mm",
  });
  const [editing, setEditing] = useState(value.kind === "custom");
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const [error, setError] = useState<{ text: string; field?: "from" | "to" } | null>(null);
  const valid = Number.isFinite(period.from) && Number.isFinite(period.to);

  // The custom fields follow the shown period (a zoom or a shared link changes it).
  useEffect(() => {
    if (!valid) return;
    setFrom(formatInput(period.from, pattern, timeZone));
    setTo(formatInput(period.to, pattern, timeZone));
    setError(null);
  }, [period.from, period.to, pattern, timeZone, valid]);
  useEffect(() => {
    if (value.kind === "custom") setEditing(true);
  }, [value.kind]);

  const apply = (event: FormEvent) => {
    event.preventDefault();
    const next = {
      from: parseInput(from, pattern, timeZone),
      to: parseInput(to, pattern, timeZone),
    };
    const unreadable = Number.isNaN(next.from) ? "from" : Number.isNaN(next.to) ? "to" : null;
    if (unreadable) {
      setError({ text: t("period.invalidDate", { pattern }), field: unreadable });
      return;
    }
    const problem = validatePeriod(next);
    setError(problem ? { text: t(`errors:${problem}`) } : null);
    if (!problem) onChange({ kind: "custom", ...next });
  };

  const selected: QuickRange | "custom" = editing || value.kind === "custom"
    ? "custom"
    : value.range;
  const invalid = (field: "from" | "to") =>
    error && (error.field === undefined || error.field === field) ? true : undefined;

  return (
    <div className="flex min-w-0 flex-col gap-2">
      <div className="flex flex-wrap items-center gap-2">
        <SegmentedControl<QuickRange | "custom">
          label={t("controls.period")}
          value={selected}
          onChange={(next) => {
            if (next === "custom") {
              setEditing(true);
              return;
            }
            setEditing(false);
            setError(null);
            onChange({ kind: "quick", range: next });
          }}
          options={[
            ...QUICK_RANGES.map((range) => ({
              value: range,
              label: (
                <span title={t(`period.rangeNames.${range}`)}>{t(`period.ranges.${range}`)}</span>
              ),
            })),
            { value: "custom" as const, label: t("period.custom") },
          ]}
        />
        {value.kind === "quick" && !editing
          ? (
            <Button
              variant="ghost"
              size="icon"
              onClick={onRefresh}
              aria-label={t("period.refresh")}
              title={t("period.refresh")}
            >
              <RefreshCw aria-hidden />
            </Button>
          )
          : null}
        <span className="text-sm text-foreground tabular" data-testid="period-shown">
          {valid
            ? t("period.shown", {
              from: format.dateTime(period.from),
              to: format.dateTime(period.to),
            })
            : null}
        </span>
      </div>
      {editing
        ? (
          <form onSubmit={apply} className="flex flex-wrap items-end gap-2" noValidate>
            <FormField label={t("period.from")} className="w-48">
              {(control) => (
                <Input
                  {...control}
                  value={from}
                  placeholder={pattern}
                  onChange={(e) => setFrom(e.target.value)}
                  aria-invalid={invalid("from")}
                  className="tabular"
                />
              )}
            </FormField>
            <FormField label={t("period.to")} className="w-48">
              {(control) => (
                <Input
                  {...control}
                  value={to}
                  placeholder={pattern}
                  onChange={(e) => setTo(e.target.value)}
                  aria-invalid={invalid("to")}
                  className="tabular"
                />
              )}
            </FormField>
            <Button type="submit" variant="secondary">{t("period.apply")}</Button>
            <p className="pb-1.5 text-xs text-muted-foreground">
              {t("period.timeZone", {
                pattern,
                zone: timeZone,
                offset: gmtOffsetLabel(timeZone) ?? "",
              })}
            </p>
          </form>
        )
        : null}
      {error ? <p role="alert" className="text-sm text-state-critical">{error.text}</p> : null}
    </div>
  );
}
