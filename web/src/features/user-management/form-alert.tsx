import { TriangleAlert } from "lucide-react";
import { useTranslation } from "react-i18next";
import type { FieldMessage } from "./user-form-rules.ts";

/** A refusal that belongs to no single field, in the catalogue's words with its code. */
export function FormAlert({ message }: { message: FieldMessage | undefined }) {
  const { t } = useTranslation(["errors", "common"]);
  if (!message) return null;
  const text = t(`errors:${message.key}`, {
    ...message.params,
    defaultValue: t("common:errors.unexpected"),
  });
  return (
    <p
      role="alert"
      className="flex items-center gap-2 rounded-md border border-state-critical bg-state-critical-soft px-3 py-2 text-sm"
    >
      <TriangleAlert aria-hidden className="size-4 shrink-0 text-state-critical" />
      <span>{text}</span>
      {message.code !== undefined
        ? <small className="text-xs text-muted-foreground">{message.code}</small>
        : null}
    </p>
  );
}
