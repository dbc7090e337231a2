/** The translated text of a failed call, for screens that handle their errors themselves. */
import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "./api.ts";
import { errorText } from "./api-errors.ts";

/**
 * Returns a function giving the user-facing text of an error (catalogue text of its key,
 * `Unknown message (code N)`, or the generic text) and its code for the small print.
 */
export function useErrorText(): (error: unknown) => { text: string; code?: number } {
  const { t, i18n } = useTranslation();
  return useCallback(
    (error: unknown) =>
      errorText(error instanceof ApiError ? error.body : null, {
        exists: (key) => i18n.exists(key),
        t: (key, params) => t(key, params ?? {}),
      }),
    [t, i18n],
  );
}
