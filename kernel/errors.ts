/**
 * AppError: the one error type that crosses the HTTP boundary. It names a catalogue entry by
 * key or numeric code; the HTTP status and texts come from the catalogue.
 */
import type { ErrorBody, FieldIssue } from "./contract.ts";
import { type CatalogueEntry, findByCode, findByKey } from "./error_catalogue.ts";

export type { ErrorBody, FieldIssue };

/** A user-facing error from the catalogue. `params` fill the message's placeholders. */
export class AppError extends Error {
  override name = "AppError";
  readonly entry: CatalogueEntry;
  readonly params: Record<string, unknown>;

  constructor(keyOrCode: string | number, params: Record<string, unknown> = {}, cause?: unknown) {
    const entry = typeof keyOrCode === "number" ? findByCode(keyOrCode) : findByKey(keyOrCode);
    if (!entry) throw new Error(`Unknown error catalogue entry: ${keyOrCode}`);
    super(entry.code ? `${entry.key} (${entry.code})` : entry.key, { cause });
    this.entry = entry;
    this.params = params;
  }

  get status(): number {
    return this.entry.status;
  }

  toBody(): ErrorBody {
    const body: ErrorBody = { key: this.entry.key, params: this.params };
    if (this.entry.code !== undefined) body.code = this.entry.code;
    return body;
  }
}

/** Builds the error body for an HTTP status that has no more specific catalogue entry. */
export function bodyForStatus(status: number): ErrorBody {
  const key = STATUS_KEYS[status] ?? (status >= 500 ? "common.internal" : "common.badRequest");
  return { key, params: {} };
}

const STATUS_KEYS: Record<number, string> = {
  400: "common.badRequest",
  401: "common.unauthorized",
  403: "common.forbidden",
  404: "common.notFound",
  405: "common.methodNotAllowed",
  409: "common.conflict",
  413: "common.payloadTooLarge",
  415: "common.unsupportedMediaType",
  429: "common.rateLimited",
  431: "common.headersTooLarge",
  500: "common.internal",
  503: "common.serviceUnavailable",
};

/** A `common.validation` error (400) listing field errors. */
export function validationError(issues: FieldIssue[]): AppError {
  return new AppError("common.validation", { issues });
}
