/**
 * The schedule dialog of auto-analyses (administrators): name, nodes or a whole LV or MV group,
 * language, weekday and hour on the customer's clock, first day and standard, checked with the
 * server's rules as the user types; a refusal (513, 520, 505, 506, a taken name) lands on its field.
 */
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  AUTO_SCOPES,
  type AutoScope,
  WEEKDAYS,
} from "../../../../modules/power_quality/auto/contract.ts";
import {
  REPORT_LANGUAGES,
  type ReportLanguage,
} from "../../../../modules/power_quality/contract.ts";
import { ApiError } from "../../lib/api.ts";
import { type FieldMessage, serverErrors } from "../../lib/field-errors.ts";
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
import { autoApi } from "./pq-auto-api.ts";
import { pqApi, type PqElectricalWorksDto } from "./pq-reports-api.ts";

type Field = "name" | "nodes" | "group" | "start" | "weekday";
type ErrorState = ReturnType<typeof serverErrors<Field>>;

export function ScheduleDialog(
  { open, onOpenChange, works, timezone, onCreated }: {
    open: boolean;
    onOpenChange: (open: boolean) => void;
    works: PqElectricalWorksDto;
    timezone: string;
    onCreated: () => void;
  },
) {
  const { t, i18n } = useTranslation(["pq-auto", "pq-reports", "errors"]);
  const today = new Date().toISOString().slice(0, 10);
  const [name, setName] = useState("");
  const [language, setLanguage] = useState<ReportLanguage>(
    (REPORT_LANGUAGES as readonly string[]).includes(i18n.language)
      ? i18n.language as ReportLanguage
      : "en",
  );
  const [scope, setScope] = useState<AutoScope>("NODES");
  const [nodes, setNodes] = useState<string[]>([]);
  const [weekday, setWeekday] = useState(1);
  const [hour, setHour] = useState("6");
  const [start, setStart] = useState(today);
  const [limitSet, setLimitSet] = useState("EN50160");
  const [errors, setErrors] = useState<ErrorState | null>(null);
  const sets = useLiveLoad((signal) => pqApi.limitSets(signal), open ? "sets" : null, null);
  const structure = useLiveLoad(
    (signal) => autoApi.groups(signal),
    open && scope !== "NODES" ? "groups" : null,
    null,
  );
  const [group, setGroup] = useState("");
  const candidates = works.electrical_works.flatMap((w) =>
    w.nodes.filter((n) => n.has_cell).map((n) => ({
      id: n.id,
      label: w.name === n.name ? n.name : `${w.name} / ${n.name}`,
    }))
  );
  const groups = (structure.data ?? []).flatMap((s) =>
    s.mv_feeder_groups.flatMap((mv) =>
      scope === "MV_GROUP"
        ? [{ id: mv.id, name: mv.name }]
        : mv.lv_groups.map((l) => ({ id: l.id, name: l.name }))
    )
  );
  // The form mirrors the server's rules; the server's word wins (its codes land on the fields).
  const local: Partial<Record<Field, FieldMessage>> = {};
  const trimmed = name.trim();
  if (!trimmed) local.name = { key: "validation.pleaseInputName" };
  else if (trimmed.length < 3) local.name = { key: "validation.nameMin", params: { count: 3 } };
  else if (trimmed.length > 60) local.name = { key: "validation.nameMax", params: { count: 60 } };
  else if (/[:<>"/\\|?*!]/.test(trimmed)) local.name = { key: "validation.forbiddenChars" };
  if (scope === "NODES" && !nodes.length) local.nodes = { key: "validation.required" };
  if (scope !== "NODES" && !group) local.group = { key: "validation.required" };
  if (!/^\d{4}-\d{2}-\d{2}$/.test(start)) local.start = { key: "validation.dateInvalid" };
  const [touched, setTouched] = useState(false);
  const submit = useAction(async () => {
    try {
      await autoApi.create({
        name: trimmed,
        language,
        scope,
        nodes: scope === "NODES" ? nodes : [],
        ...(scope === "NODES" ? {} : { group }),
        standard: limitSet === "EN50160" ? "EN50160" : "CUSTOM",
        ...(limitSet === "EN50160" ? {} : { limit_set: limitSet }),
        weekday,
        hour: Number(hour),
        start,
      });
      onCreated();
      onOpenChange(false);
      setName("");
      setTouched(false);
    } catch (error) {
      setErrors(serverErrors<Field>(error instanceof ApiError ? error.body : null, {
        field: (path) =>
          (["name", "nodes", "group", "start", "weekday"] as string[]).includes(path)
            ? path as Field
            : null,
        keyField: (key) =>
          key === "pq.autoAnalysisExists"
            ? "name"
            : key === "pq.autoAnalysisBeyondDataLifetime" || key === "pq.tooFarInFuture"
            ? "start"
            : key === "pq.noNodeLinked" || key === "pq.nodeDeleted"
            ? "nodes"
            : key === "grid.elementNotFound"
            ? "group"
            : null,
      }));
    }
  });
  const message = (field: Field) => {
    const m: FieldMessage | undefined = errors?.fields[field] ??
      (touched ? local[field] : undefined);
    return m ? <CodedText text={t(`errors:${m.key}`, m.params ?? {})} code={m.code} /> : undefined;
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    setErrors(null);
    if (Object.keys(local).length === 0) void submit.run();
  };
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="w-[min(40rem,calc(100vw-2rem))]">
        <DialogHeader>
          <DialogTitle>{t("createTitle")}</DialogTitle>
          <DialogDescription>{t("createHint")}</DialogDescription>
        </DialogHeader>
        <form
          className="grid gap-3 sm:grid-cols-2"
          onSubmit={onSubmit}
          noValidate
          data-testid="pq-auto-form"
        >
          <FormField label={t("fields.name")} error={message("name")} className="sm:col-span-2">
            {(control) => (
              <Input
                {...control}
                name="name"
                value={name}
                maxLength={80}
                onChange={(e) => setName(e.target.value)}
              />
            )}
          </FormField>
          <FormField label={t("fields.scope")}>
            {(control) => (
              <Select
                {...control}
                value={scope}
                options={AUTO_SCOPES.map((s) => ({ value: s, label: t(`scopes.${s}`) }))}
                onValueChange={(s) => {
                  setScope(s as AutoScope);
                  setGroup("");
                }}
              />
            )}
          </FormField>
          <FormField label={t("fields.language")}>
            {(control) => (
              <Select
                {...control}
                value={language}
                options={REPORT_LANGUAGES.map((l) => ({
                  value: l,
                  label: t(`pq-reports:languages.${l}`),
                }))}
                onValueChange={(l) => setLanguage(l as ReportLanguage)}
              />
            )}
          </FormField>
          {scope === "NODES"
            ? (
              <fieldset className="flex flex-col gap-1 sm:col-span-2" data-testid="pq-auto-nodes">
                <legend className="text-xs font-medium text-muted-foreground">
                  {t("fields.nodes")}
                </legend>
                <div className="flex max-h-40 flex-wrap gap-3 overflow-y-auto">
                  {candidates.map((n) => (
                    <label key={n.id} className="flex items-center gap-1.5 text-sm">
                      <input
                        type="checkbox"
                        checked={nodes.includes(n.id)}
                        onChange={(e) =>
                          setNodes(
                            e.target.checked ? [...nodes, n.id] : nodes.filter((id) =>
                              id !== n.id
                            ),
                          )}
                      />
                      {n.label}
                    </label>
                  ))}
                </div>
                {message("nodes")
                  ? <p role="alert" className="text-xs text-state-critical">{message("nodes")}</p>
                  : null}
              </fieldset>
            )
            : (
              <FormField
                label={t("fields.group")}
                error={message("group")}
                className="sm:col-span-2"
              >
                {(control) => (
                  <Select
                    {...control}
                    value={group || undefined}
                    placeholder={t("fields.groupPlaceholder")}
                    options={groups.map((g) => ({ value: g.id, label: g.name }))}
                    onValueChange={setGroup}
                  />
                )}
              </FormField>
            )}
          <FormField label={t("fields.weekday")}>
            {(control) => (
              <Select
                {...control}
                value={String(weekday)}
                options={WEEKDAYS.map((d) => ({ value: String(d), label: t(`weekdays.${d}`) }))}
                onValueChange={(d) => setWeekday(Number(d))}
              />
            )}
          </FormField>
          <FormField label={t("fields.hour")} hint={t("fields.hourHint", { zone: timezone })}>
            {(control) => (
              <Select
                {...control}
                value={hour}
                options={Array.from(
                  { length: 24 },
                  (_, h) => ({ value: String(h), label: `${String(h).padStart(2, "0")}:00` }),
                )}
                onValueChange={setHour}
              />
            )}
          </FormField>
          <FormField
            label={t("fields.start")}
            hint={t("fields.startHint")}
            error={message("start")}
          >
            {(control) => (
              <Input
                {...control}
                name="start"
                type="date"
                value={start}
                onChange={(e) => setStart(e.target.value)}
              />
            )}
          </FormField>
          <FormField label={t("fields.standard")}>
            {(control) => (
              <Select
                {...control}
                value={limitSet}
                options={(sets.data?.limit_sets ?? [{ key: "EN50160", name: "EN 50160" }]).map((
                  s,
                ) => ({
                  value: s.key,
                  label: s.key === "EN50160" ? s.name : t("pq-reports:customSet", { name: s.name }),
                }))}
                onValueChange={setLimitSet}
              />
            )}
          </FormField>
          {errors?.form
            ? (
              <Notice tone="critical" code={errors.form.code} className="sm:col-span-2">
                {t(`errors:${errors.form.key}`, errors.form.params ?? {})}
              </Notice>
            )
            : null}
          <DialogFooter className="sm:col-span-2">
            <Button type="button" variant="secondary" onClick={() => onOpenChange(false)}>
              {t("cancel")}
            </Button>
            <Button type="submit" disabled={submit.busy} data-testid="pq-auto-submit">
              {t("submit")}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
