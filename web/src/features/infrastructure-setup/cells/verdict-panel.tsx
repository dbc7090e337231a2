/** The result of a mapping validation: the spec's message, the certainty and the fix per feeder. */
import { useTranslation } from "react-i18next";
import { Button } from "../../../ui/button.tsx";
import { cn } from "../../../ui/cn.ts";
import type { FeederMapping, Validation } from "./cells-api.ts";

const VERDICT_TONES: Record<string, string> = {
  CORRECT: "border-state-ok bg-state-ok-soft",
  TIMEOUT: "border-state-warning bg-state-warning-soft",
  NOT_ENOUGH_MEASUREMENTS: "border-state-warning bg-state-warning-soft",
};

/** The validation result: the spec's message, the certainty and the fix per feeder. */
export function VerdictPanel({ validation, feeders, canWrite, onDecide }: {
  validation: Validation;
  feeders: FeederMapping[];
  canWrite: boolean;
  onDecide: (action: "confirm" | "ignore") => void;
}) {
  const { t } = useTranslation(["cells", "errors"]);
  const conclusive = validation.verdict === "CORRECT" ||
    !["TIMEOUT", "NOT_ENOUGH_MEASUREMENTS", "ALL_ZERO", "TWO_PHASES_ZERO"].includes(
      validation.verdict,
    );
  return (
    <div
      role="status"
      aria-label={t("mapping.verdictTitle")}
      className={cn(
        "flex flex-col gap-2 rounded-md border-l-4 p-3",
        VERDICT_TONES[validation.verdict] ?? "border-state-critical bg-state-critical-soft",
      )}
    >
      <p className="text-sm font-medium">{t(`errors:${validation.message_key}`)}</p>
      <p className="text-xs text-muted-foreground">
        {t(`mapping.certainty.${validation.certainty}`)}
      </p>
      {validation.feeders.length === 1
        ? <FeederAdvice result={validation.feeders[0]!} />
        : (
          <ul className="flex flex-col gap-1 text-xs">
            {validation.feeders.map((f) => (
              <li key={f.feeder_id}>
                <span className="font-medium">
                  {t("mapping.feeder", {
                    slot: f.slot,
                    name: feeders.find((x) => x.id === f.feeder_id)?.name ?? "",
                  })}
                </span>
                {": "}
                {t(`errors:${f.message_key}`)} <FeederAdvice result={f} inline />
              </li>
            ))}
          </ul>
        )}
      {canWrite && conclusive
        ? (
          <div className="flex gap-2">
            {validation.verdict === "CORRECT"
              ? (
                <Button size="sm" onClick={() => onDecide("confirm")}>
                  {t("mapping.confirm")}
                </Button>
              )
              : (
                <Button size="sm" variant="secondary" onClick={() => onDecide("ignore")}>
                  {t("mapping.ignore")}
                </Button>
              )}
          </div>
        )
        : null}
    </div>
  );
}

/** What to change for one feeder's verdict, and what the first measurements suggest. */
function FeederAdvice(
  { result, inline = false }: { result: Validation["feeders"][number]; inline?: boolean },
) {
  const { t } = useTranslation("cells");
  const hint = t(`mapping.hint.${result.verdict}`, { defaultValue: "" });
  const likely = result.likely
    ? t("mapping.likely", { verdict: t(`mapping.verdicts.${result.likely}`) })
    : "";
  const text = [hint, likely].filter(Boolean).join(" ");
  if (!text) return null;
  return inline ? <span>{text}</span> : <p className="text-sm">{text}</p>;
}
