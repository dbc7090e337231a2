import { useTranslation } from "react-i18next";
import { Notice } from "../../ui/notice.tsx";
import type { FieldMessage } from "./user-form-rules.ts";

/** A refusal that belongs to no single field, in the catalogue's words with its code. */
export function FormAlert({ message }: { message: FieldMessage | undefined }) {
  const { t } = useTranslation(["errors", "common"]);
  if (!message) return null;
  return (
    <Notice tone="critical" code={message.code}>
      {t(`errors:${message.key}`, {
        ...message.params,
        defaultValue: t("common:errors.unexpected"),
      })}
    </Notice>
  );
}
