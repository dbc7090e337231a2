/**
 * Custom limit sets: a customer's administrators derive named sets from EN 50160 (any value may
 * change; EN 50160 itself stays locked). A report of standard CUSTOM keeps a copy of its set's
 * overrides, so later edits never change a report, and is labelled "Custom: <name>".
 */
import { and, asc, eq, sql } from "drizzle-orm";
import {
  ComplianceError,
  deriveLimitSet,
  EN50160_LV,
  type LimitOverrides,
  type LimitSet,
} from "../../core/mod.ts";
import { AppError, type Db, validationError } from "../../kernel/mod.ts";
import {
  EN50160_KEY,
  type LimitOverridesInput,
  type LimitSetDto,
  type LimitSetInput,
  type LimitSetsDto,
} from "./contract.ts";
import { type LimitSetRow, limitSets } from "./schema.ts";

/** The label of a custom set on reports: never "EN 50160". */
export const customLabel = (name: string) => `Custom: ${name}`;

/** The engine's limit set of stored overrides (null: EN 50160). */
export function limitsOf(overrides: LimitOverridesInput | null, name = "Custom"): LimitSet {
  return overrides ? deriveLimitSet({ ...(overrides as LimitOverrides), name }) : EN50160_LV;
}

function dto(
  key: string,
  name: string,
  limits: LimitSet,
  overrides: LimitOverridesInput,
  row?: LimitSetRow,
): LimitSetDto {
  const { name: _name, ...values } = limits;
  return {
    key,
    name,
    locked: !row,
    limits: JSON.parse(JSON.stringify(values)),
    overrides,
    updated_at: row?.updatedAt.toISOString() ?? null,
  };
}

/** The customer's custom limit sets. */
export class LimitSetsService {
  constructor(private readonly db: Db, private readonly now: () => Date = () => new Date()) {}

  async list(customerKey: string): Promise<LimitSetsDto> {
    const rows = await this.db.select().from(limitSets)
      .where(eq(limitSets.customerKey, customerKey)).orderBy(asc(limitSets.name));
    return {
      limit_sets: [
        dto(EN50160_KEY, "EN 50160", EN50160_LV, {}),
        ...rows.map((r) => dto(r.key, r.name, limitsOf(r.overrides, r.name), r.overrides, r)),
      ],
    };
  }

  /** A custom set of the customer (404 for EN 50160, another customer's or a missing one). */
  async row(customerKey: string, key: string): Promise<LimitSetRow> {
    if (!/^[\w-]{1,64}$/.test(key)) throw new AppError("common.notFound");
    const [row] = await this.db.select().from(limitSets)
      .where(and(eq(limitSets.key, key), eq(limitSets.customerKey, customerKey)));
    if (!row) throw new AppError("common.notFound");
    return row;
  }

  async create(customerKey: string, userId: string, input: LimitSetInput): Promise<LimitSetDto> {
    const limits = checked(input);
    await this.#checkName(customerKey, input.name, null);
    const [row] = await this.db.insert(limitSets).values({
      key: crypto.randomUUID(),
      customerKey,
      name: input.name,
      overrides: input.overrides,
      updatedBy: userId,
      updatedAt: this.now(),
    }).returning();
    return dto(row!.key, row!.name, limits, row!.overrides, row);
  }

  async update(
    customerKey: string,
    userId: string,
    key: string,
    input: LimitSetInput,
  ): Promise<LimitSetDto> {
    if (key === EN50160_KEY) throw new AppError("common.forbidden", { key: EN50160_KEY });
    await this.row(customerKey, key);
    const limits = checked(input);
    await this.#checkName(customerKey, input.name, key);
    const [row] = await this.db.update(limitSets).set({
      name: input.name,
      overrides: input.overrides,
      updatedBy: userId,
      updatedAt: this.now(),
    }).where(eq(limitSets.key, key)).returning();
    return dto(row!.key, row!.name, limits, row!.overrides, row);
  }

  async delete(customerKey: string, key: string): Promise<void> {
    if (key === EN50160_KEY) throw new AppError("common.forbidden", { key: EN50160_KEY });
    await this.row(customerKey, key);
    await this.db.delete(limitSets).where(eq(limitSets.key, key));
  }

  async #checkName(customerKey: string, name: string, except: string | null): Promise<void> {
    const [same] = await this.db.select({ key: limitSets.key }).from(limitSets).where(and(
      eq(limitSets.customerKey, customerKey),
      sql`lower(${limitSets.name}) = lower(${name})`,
    ));
    if ((same && same.key !== except) || name.toLowerCase().replace(/\s/g, "") === "en50160") {
      throw validationError([{ path: "name", key: "pq.limitSetExists", params: { name } }]);
    }
  }
}

/** The derived set, or the field errors of every problem the engine finds (never a 500). */
function checked(input: LimitSetInput): LimitSet {
  try {
    return limitsOf(input.overrides, input.name);
  } catch (error) {
    if (!(error instanceof ComplianceError)) throw error;
    const problems = error.problems;
    throw validationError(
      (problems.length ? problems : [error.message]).map((problem) => ({
        path: `overrides.${problem.split(" ")[0]!.split(".").slice(0, 2).join(".")}`,
        key: "pq.limitSetInvalid",
        params: { problem },
      })),
    );
  }
}
