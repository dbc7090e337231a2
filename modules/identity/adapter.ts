/**
 * oidc-provider storage adapter on the relational database, so sessions, codes and refresh
 * tokens survive a restart and work the same on PGlite and PostgreSQL.
 */
import { and, eq, gt, isNull, lt, or, sql } from "drizzle-orm";
import type { Db } from "../../kernel/mod.ts";
import { oidcPayloads } from "./schema.ts";

type Payload = Record<string, unknown> & { grantId?: string; userCode?: string; uid?: string };

/** Builds the adapter class oidc-provider instantiates once per model name. */
export function createAdapterClass(db: Db) {
  return class DbAdapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: Payload, expiresIn?: number): Promise<void> {
      const expiresAt = expiresIn ? new Date(Date.now() + expiresIn * 1000) : null;
      const values = {
        model: this.model,
        id,
        payload,
        grantId: payload.grantId ?? null,
        userCode: payload.userCode ?? null,
        uid: payload.uid ?? null,
        expiresAt,
      };
      await db.insert(oidcPayloads).values(values).onConflictDoUpdate({
        target: [oidcPayloads.model, oidcPayloads.id],
        set: { ...values, consumedAt: null },
      });
    }

    find(id: string) {
      return this.findWhere(eq(oidcPayloads.id, id));
    }

    findByUid(uid: string) {
      return this.findWhere(eq(oidcPayloads.uid, uid));
    }

    findByUserCode(userCode: string) {
      return this.findWhere(eq(oidcPayloads.userCode, userCode));
    }

    async destroy(id: string): Promise<void> {
      await db.delete(oidcPayloads).where(
        and(eq(oidcPayloads.model, this.model), eq(oidcPayloads.id, id)),
      );
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await db.delete(oidcPayloads).where(eq(oidcPayloads.grantId, grantId));
      await db.delete(oidcPayloads).where(lt(oidcPayloads.expiresAt, new Date()));
    }

    async consume(id: string): Promise<void> {
      await db.update(oidcPayloads).set({ consumedAt: new Date() })
        .where(and(eq(oidcPayloads.model, this.model), eq(oidcPayloads.id, id)));
    }

    private async findWhere(condition: ReturnType<typeof eq>): Promise<Payload | undefined> {
      const [row] = await db.select().from(oidcPayloads).where(and(
        eq(oidcPayloads.model, this.model),
        condition,
        or(isNull(oidcPayloads.expiresAt), gt(oidcPayloads.expiresAt, new Date())),
      ));
      if (!row) return undefined;
      const consumed = row.consumedAt
        ? { consumed: Math.floor(row.consumedAt.getTime() / 1000) }
        : {};
      return { ...row.payload, ...consumed };
    }
  };
}

/**
 * Deletes everything the provider holds for an account: sessions, grants, refresh tokens and
 * authorization codes (a revoked user gets no new token through any of them). Returns how many.
 */
export async function deleteAccountPayloads(db: Db, accountId: string): Promise<number> {
  const deleted = await db.delete(oidcPayloads)
    .where(sql`${oidcPayloads.payload}->>'accountId' = ${accountId}`)
    .returning({ id: oidcPayloads.id });
  return deleted.length;
}
