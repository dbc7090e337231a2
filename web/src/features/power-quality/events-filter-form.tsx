/**
 * The events' filter form: node (or the whole grid), type, phase, period, depth, duration and a
 * tolerance curve with its side; the fields' problems come from `formProblems` (events-data.ts)
 * and are shown translated under each field.
 */
import { ListFilter } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Button } from "../../ui/button.tsx";
import { FormField } from "../../ui/form-field.tsx";
import { Input, Select } from "../../ui/input.tsx";
import { CURVES, EVENT_PHASES, EVENT_TYPES, type FilterForm } from "./events-data.ts";

export function EventsFilterForm({ draft, onChange, problems, nodes, onApply, onReset }: {
  draft: FilterForm;
  onChange: (patch: Partial<FilterForm>) => void;
  /** Field -> error key, as `formProblems` gives them. */
  problems: Record<string, string>;
  nodes: readonly { value: string; label: string }[];
  onApply: () => void;
  onReset: () => void;
}) {
  const { t } = useTranslation(["pq-events", "errors"]);
  const errorOf = (field: string) =>
    problems[field] ? t(`errors:${problems[field]}`, { min: 0, max: 200 }) : undefined;
  return (
    <form
      className="grid grid-cols-2 gap-2 rounded-md border bg-surface p-3 md:grid-cols-4 xl:grid-cols-6"
      aria-label={t("filters.label")}
      onSubmit={(e) => {
        e.preventDefault();
        onApply();
      }}
    >
      <FormField label={t("filters.node")} className="col-span-2">
        {(control) => (
          <Select
            {...control}
            value={draft.node}
            onChange={(e) => onChange({ node: e.target.value })}
          >
            <option value="">{t("filters.wholeGrid")}</option>
            {nodes.map((n) => <option key={n.value} value={n.value}>{n.label}</option>)}
          </Select>
        )}
      </FormField>
      <FormField label={t("filters.type")}>
        {(control) => (
          <Select
            {...control}
            value={draft.type}
            onChange={(e) => onChange({ type: e.target.value as FilterForm["type"] })}
          >
            <option value="">{t("filters.all")}</option>
            {EVENT_TYPES.map((v) => <option key={v} value={v}>{t(`types.${v}`)}</option>)}
          </Select>
        )}
      </FormField>
      <FormField label={t("filters.phase")}>
        {(control) => (
          <Select
            {...control}
            value={draft.phase}
            onChange={(e) => onChange({ phase: e.target.value as FilterForm["phase"] })}
          >
            <option value="">{t("filters.all")}</option>
            {EVENT_PHASES.map((v) => <option key={v} value={v}>{v}</option>)}
          </Select>
        )}
      </FormField>
      <FormField label={t("filters.from")}>
        {(control) => (
          <Input
            {...control}
            type="datetime-local"
            value={draft.from}
            onChange={(e) => onChange({ from: e.target.value })}
          />
        )}
      </FormField>
      <FormField label={t("filters.to")} error={errorOf("to")}>
        {(control) => (
          <Input
            {...control}
            type="datetime-local"
            value={draft.to}
            onChange={(e) => onChange({ to: e.target.value })}
          />
        )}
      </FormField>
      <FormField label={t("filters.depthMin")} error={errorOf("depth_min")}>
        {(control) => (
          <Input
            {...control}
            inputMode="decimal"
            value={draft.depthMin}
            onChange={(e) => onChange({ depthMin: e.target.value })}
          />
        )}
      </FormField>
      <FormField label={t("filters.depthMax")} error={errorOf("depth_max")}>
        {(control) => (
          <Input
            {...control}
            inputMode="decimal"
            value={draft.depthMax}
            onChange={(e) => onChange({ depthMax: e.target.value })}
          />
        )}
      </FormField>
      <FormField label={t("filters.durationMin")} error={errorOf("duration_min_ms")}>
        {(control) => (
          <Input
            {...control}
            inputMode="numeric"
            value={draft.durationMin}
            onChange={(e) => onChange({ durationMin: e.target.value })}
          />
        )}
      </FormField>
      <FormField label={t("filters.durationMax")} error={errorOf("duration_max_ms")}>
        {(control) => (
          <Input
            {...control}
            inputMode="numeric"
            value={draft.durationMax}
            onChange={(e) => onChange({ durationMax: e.target.value })}
          />
        )}
      </FormField>
      <FormField label={t("filters.curve")}>
        {(control) => (
          <Select
            {...control}
            value={draft.curve}
            onChange={(e) => onChange({ curve: e.target.value as FilterForm["curve"] })}
          >
            <option value="">{t("filters.noCurve")}</option>
            {CURVES.map((v) => <option key={v} value={v}>{t(`curves.${v}`)}</option>)}
          </Select>
        )}
      </FormField>
      <FormField label={t("filters.side")}>
        {(control) => (
          <Select
            {...control}
            value={draft.side}
            disabled={!draft.curve}
            onChange={(e) => onChange({ side: e.target.value as FilterForm["side"] })}
          >
            <option value="OUTSIDE">{t("filters.outside")}</option>
            <option value="INSIDE">{t("filters.inside")}</option>
          </Select>
        )}
      </FormField>
      <div className="col-span-2 flex items-end gap-2">
        <Button type="submit" size="md" disabled={Object.keys(problems).length > 0}>
          <ListFilter aria-hidden />
          {t("filters.apply")}
        </Button>
        <Button
          type="button"
          variant="ghost"
          size="md"
          onClick={onReset}
        >
          {t("filters.reset")}
        </Button>
      </div>
    </form>
  );
}
