/**
 * The two errors of the EN 50160 engine. Both are kernel `AppError`s, so the root error handler
 * answers them with the catalogue's `{ code, key, params }`; their `message` carries the detail
 * for the logs (the public text comes from the catalogue).
 */
import { AppError } from "../../kernel/mod.ts";

/** Catalogue codes of an unusable report period (spec 8.2): incorrect, over 366 days, under 10 min. */
export type PeriodErrorCode = 401 | 402 | 403;

/** A report period that cannot be evaluated: 401 incorrect, 402 over 366 days, 403 under 10 minutes. */
export class PeriodError extends AppError {
  override name = "PeriodError";
  readonly code: PeriodErrorCode;

  constructor(code: PeriodErrorCode, detail: string) {
    super(code);
    this.code = code;
    this.message = detail;
  }
}

/**
 * A limit set or an input series the engine cannot compute with (code 522, "error computing
 * compliance limits"). `problems` lists every problem found, not only the first.
 */
export class ComplianceError extends AppError {
  override name = "ComplianceError";
  readonly code = 522;
  readonly problems: readonly string[];

  constructor(subject: string, problems: readonly string[]) {
    super(522);
    this.problems = problems;
    this.message = `${subject}: ${problems.join("; ")}`;
  }
}
