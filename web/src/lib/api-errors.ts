/** Pure parts of the API client: error bodies and the error pages of spec 7. */
import type { ErrorBody as ApiErrorBody } from "../../../kernel/contract.ts";

/** The error page a failed call leads to, or `null` when the screen shows the error itself. */
export function errorPageFor(status: number | null): "/500" | "/403" | "/404" | null {
  if (status === null || status === 0 || status === 500) return "/500";
  if (status === 403) return "/403";
  if (status === 404) return "/404";
  return null;
}

/** Reads `{ code, key, params }` from a response body; anything else yields `null`. */
export function parseErrorBody(json: unknown): ApiErrorBody | null {
  if (typeof json !== "object" || json === null) return null;
  const { code, key, params } = json as Record<string, unknown>;
  const hasCode = typeof code === "number" && Number.isInteger(code);
  if (typeof key !== "string" && !hasCode) return null;
  const body: ApiErrorBody = {
    key: typeof key === "string" ? key : "",
    params: typeof params === "object" && params !== null && !Array.isArray(params)
      ? params as Record<string, unknown>
      : {},
  };
  if (hasCode) body.code = code as number;
  return body;
}

/** A translate function in the shape of i18next's `t` with `exists`. */
export interface Translator {
  exists(key: string): boolean;
  t(key: string, params?: Record<string, unknown>): string;
}

/**
 * The user-facing text of an error body: the catalogue text for its key (namespace `errors`),
 * else `Unknown message (code N)`, else the generic failure text.
 */
export function errorText(
  body: ApiErrorBody | null,
  tr: Translator,
): { text: string; code?: number } {
  const withCode = (text: string) =>
    body?.code === undefined ? { text } : { text, code: body.code };
  if (body?.key && tr.exists(`errors:${body.key}`)) {
    return withCode(tr.t(`errors:${body.key}`, body.params));
  }
  if (body?.code !== undefined) {
    return withCode(tr.t("common:errors.unknownMessage", { code: body.code }));
  }
  return { text: tr.t("common:errors.unexpected") };
}
