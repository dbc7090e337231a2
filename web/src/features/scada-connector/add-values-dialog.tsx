import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  type AddedPointsDto,
  planAddedPoints,
  type PointDto,
  QUANTITIES,
  type Quantity,
  type ScadaNodeDto,
} from "../../../../modules/scada/contract.ts";
import { api, ApiError } from "../../lib/api.ts";
import { type FieldMessage, serverErrors } from "../../lib/field-errors.ts";
import { useAction } from "../../lib/use-action.ts";
import { useAsync } from "../../lib/use-async.ts";
import { useErrorText } from "../../lib/use-error-text.ts";
import { Button } from "../../ui/button.tsx";
import {
  Dialog,
  DialogContent,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "../../ui/dialog.tsx";
import { Input } from "../../ui/input.tsx";
import { AsyncState } from "../../ui/loader.tsx";

/** Nodes listed at once; the filter narrows longer lists. */
const SHOWN_MAX = 200;

type Field = "quantities" | "nodes" | "feeders";

/**
 * "Add values…": value kinds for chosen nodes (and feeders) added to the saved point list on the
 * next free addresses, its points untouched. The preview and the checks are the server's
 * (planAddedPoints, the same maximum of points); the server's refusal lands on its field.
 */
export function AddValuesDialog({ profileId, points, open, onOpenChange, onAdded }: {
  profileId: string;
  /** The saved list (what the server adds to). */
  points: readonly PointDto[];
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onAdded: (added: number) => void;
}) {
  const { t } = useTranslation(["scada", "errors"]);
  const state = useAsync(
    (signal) => open ? api.get<ScadaNodeDto[]>("/scm/nodes", { signal }) : Promise.resolve([]),
    [open],
  );
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="w-[min(44rem,calc(100vw-2rem))]">
        <DialogHeader>
          <DialogTitle>{t("addValues.title")}</DialogTitle>
        </DialogHeader>
        <AsyncState state={state} onRetry={state.reload}>
          {(nodes) => (
            <AddValuesForm
              profileId={profileId}
              points={points}
              nodes={nodes}
              onCancel={() => onOpenChange(false)}
              onAdded={onAdded}
            />
          )}
        </AsyncState>
      </DialogContent>
    </Dialog>
  );
}

function AddValuesForm({ profileId, points, nodes, onCancel, onAdded }: {
  profileId: string;
  points: readonly PointDto[];
  nodes: ScadaNodeDto[];
  onCancel: () => void;
  onAdded: (added: number) => void;
}) {
  const { t } = useTranslation(["scada", "errors"]);
  const errorText = useErrorText();
  const [kinds, setKinds] = useState<Quantity[]>([]);
  const [allNodes, setAllNodes] = useState(true);
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [allFeeders, setAllFeeders] = useState(true);
  const [feeders, setFeeders] = useState<Set<string>>(new Set());
  const [filter, setFilter] = useState("");
  const [errors, setErrors] = useState<Partial<Record<Field, FieldMessage>>>({});
  const [formError, setFormError] = useState<string | null>(null);

  const selected = useMemo(
    () => allNodes ? nodes : nodes.filter((n) => chosen.has(n.id)),
    [allNodes, nodes, chosen],
  );
  const feederIds = useMemo(
    () =>
      allFeeders
        ? null
        : selected.flatMap((n) => n.feeders.filter((f) => feeders.has(f.id)).map((f) => f.id)),
    [allFeeders, selected, feeders],
  );
  const plan = useMemo(
    () => planAddedPoints(points, selected, kinds, feederIds),
    [points, selected, kinds, feederIds],
  );
  const shown = useMemo(() => {
    const words = filter.trim().toLowerCase();
    return (words ? nodes.filter((n) => n.name.toLowerCase().includes(words)) : nodes)
      .slice(0, SHOWN_MAX);
  }, [nodes, filter]);

  const check = (): Partial<Record<Field, FieldMessage>> => {
    const found: Partial<Record<Field, FieldMessage>> = {};
    if (!kinds.length) found.quantities = { key: "validation.required" };
    if (!selected.length) found.nodes = { key: "validation.required" };
    if (feederIds && !feederIds.length) found.feeders = { key: "validation.required" };
    if (plan.problem) found.quantities = plan.problem;
    return found;
  };
  const adding = useAction(async () => {
    try {
      const answer = await api.post<AddedPointsDto>(`/scm/profiles/${profileId}/points/add`, {
        quantities: kinds,
        node_ids: selected.map((n) => n.id),
        feeder_ids: feederIds,
      }, { handleErrors: true });
      onAdded(answer.added);
    } catch (error) {
      const body = error instanceof ApiError ? error.body : null;
      const placed = serverErrors<Field>(body, {
        field: (path) =>
          path.startsWith("quantities")
            ? "quantities"
            : path.startsWith("node_ids")
            ? "nodes"
            : path.startsWith("feeder_ids")
            ? "feeders"
            : null,
      });
      setErrors(placed.fields);
      setFormError(placed.form ? errorText(error).text : null);
    }
  });
  const submit = () => {
    const found = check();
    setErrors(found);
    setFormError(null);
    if (!Object.keys(found).length) void adding.run();
  };
  const message = (field: Field) => {
    const e = errors[field];
    return e
      ? (
        <p role="alert" className="text-sm text-state-critical">
          {t(`errors:${e.key}`, e.params ?? {})}
        </p>
      )
      : null;
  };
  const toggle = <T,>(set: Set<T>, value: T, on: boolean) => {
    const next = new Set(set);
    if (on) next.add(value);
    else next.delete(value);
    return next;
  };
  const clear = (field: Field) => setErrors(({ [field]: _, ...rest }) => rest);
  const newIoas = plan.points.filter((p) => !points.includes(p as PointDto)).map((p) => p.ioa);

  return (
    <form
      noValidate
      className="flex min-h-0 flex-col gap-4"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <p className="text-sm text-muted-foreground">{t("addValues.intro")}</p>
      <fieldset className="flex flex-col gap-1">
        <legend className="mb-1 text-sm font-medium">{t("addValues.kinds")}</legend>
        <div className="grid gap-1 sm:grid-cols-2">
          {QUANTITIES.map((q) => (
            <label key={q} className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                checked={kinds.includes(q)}
                onChange={(e) => {
                  setKinds((list) =>
                    QUANTITIES.filter((x) => x === q ? e.target.checked : list.includes(x))
                  );
                  clear("quantities");
                }}
              />
              {t(`addValues.kind.${q}`)}
            </label>
          ))}
        </div>
        {message("quantities")}
      </fieldset>
      <fieldset className="flex min-h-0 flex-col gap-2">
        <legend className="mb-1 text-sm font-medium">{t("addValues.nodes")}</legend>
        <div className="flex flex-wrap gap-4 text-sm">
          <label className="flex items-center gap-2">
            <input
              type="radio"
              name="nodes"
              checked={allNodes}
              onChange={() => {
                setAllNodes(true);
                clear("nodes");
              }}
            />
            {t("addValues.allNodes", { count: nodes.length })}
          </label>
          <label className="flex items-center gap-2">
            <input
              type="radio"
              name="nodes"
              checked={!allNodes}
              onChange={() => setAllNodes(false)}
            />
            {t("addValues.chosenNodes", { count: chosen.size })}
          </label>
        </div>
        <div className="flex flex-wrap gap-4 text-sm">
          <label className="flex items-center gap-2">
            <input
              type="radio"
              name="feeders"
              checked={allFeeders}
              onChange={() => {
                setAllFeeders(true);
                clear("feeders");
              }}
            />
            {t("addValues.allFeeders")}
          </label>
          <label className="flex items-center gap-2">
            <input
              type="radio"
              name="feeders"
              checked={!allFeeders}
              onChange={() => setAllFeeders(false)}
            />
            {t("addValues.chosenFeeders")}
          </label>
        </div>
        {!allNodes || !allFeeders
          ? (
            <>
              <Input
                aria-label={t("addValues.filter")}
                placeholder={t("addValues.filter")}
                value={filter}
                onChange={(e) => setFilter(e.target.value)}
              />
              <ul className="max-h-56 overflow-auto rounded border p-2 text-sm">
                {shown.map((n) => (
                  <li key={n.id} className="py-0.5">
                    <label className="flex items-center gap-2">
                      <input
                        type="checkbox"
                        disabled={allNodes}
                        checked={allNodes || chosen.has(n.id)}
                        onChange={(e) => {
                          setChosen((s) => toggle(s, n.id, e.target.checked));
                          clear("nodes");
                        }}
                      />
                      {n.name}
                    </label>
                    {!allFeeders && (allNodes || chosen.has(n.id))
                      ? (
                        <div className="ml-6 flex flex-wrap gap-3">
                          {n.feeders.map((f) => (
                            <label key={f.id} className="flex items-center gap-1 text-xs">
                              <input
                                type="checkbox"
                                checked={feeders.has(f.id)}
                                aria-label={`${n.name} / ${f.name}`}
                                onChange={(e) => {
                                  setFeeders((s) =>
                                    toggle(s, f.id, e.target.checked)
                                  );
                                  clear("feeders");
                                }}
                              />
                              {f.name}
                            </label>
                          ))}
                        </div>
                      )
                      : null}
                  </li>
                ))}
              </ul>
              {shown.length === SHOWN_MAX
                ? <p className="text-xs text-muted-foreground">{t("addValues.narrow")}</p>
                : null}
            </>
          )
          : null}
        {message("nodes")}
        {message("feeders")}
      </fieldset>
      <p role="status" className="text-sm">
        {kinds.length && selected.length && !plan.problem
          ? plan.added
            ? t("addValues.preview", {
              count: plan.added,
              first: Math.min(...newIoas),
              last: Math.max(...newIoas),
            })
            : t("addValues.nothingNew")
          : null}
      </p>
      {formError ? <p role="alert" className="text-sm text-state-critical">{formError}</p> : null}
      <DialogFooter className="flex justify-end gap-2">
        <Button type="button" variant="ghost" onClick={onCancel}>{t("form.cancel")}</Button>
        <Button type="submit" disabled={adding.busy}>{t("addValues.add")}</Button>
      </DialogFooter>
    </form>
  );
}
