/**
 * The API clients of each customer: creation under the client limit (a per-customer advisory
 * lock makes the count and the insert one step, exact under concurrent creations), rotation,
 * deletion by typed name, credential checks, the monthly token quota (one atomic UPSERT) and
 * the audit log of external calls.
 */
import { and, count, desc, eq, lt, sql } from "drizzle-orm";
import { AppError, type Db } from "../../kernel/mod.ts";
import {
  type ApiClientDto,
  type ApiClientListDto,
  type ApiClientSecretDto,
  type AuditPageDto,
  confirmsName,
  type CreateClientInput,
  monthOf,
  type Permission,
  PERMISSION_SCOPES,
} from "./contract.ts";
import { auditLog, clients, clientTokenCounts, tokenCounts } from "./schema.ts";
import { hashSecret, newClientId, newSecret, secretMatches } from "./secrets.ts";

/** The configured limits (spec 9: 5 clients, 1,000 tokens a month by default). */
export interface ApiLimits {
  clients: number;
  tokensPerMonth: number;
}

/** A stored client as the token endpoint and the external API see it. */
export interface ClientRecord {
  id: string;
  customerKey: string;
  name: string;
  permission: Permission;
  clientId: string;
  secretVersion: number;
}

/** One call of an API client, for the audit log. */
export interface AuditRecord {
  customerKey: string;
  clientId: string;
  method: string;
  route: string;
  status: number;
  durationMs: number;
}

type Row = typeof clients.$inferSelect;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function record(row: Row): ClientRecord {
  return {
    id: row.id,
    customerKey: row.customerKey,
    name: row.name,
    permission: row.permission,
    clientId: row.clientId,
    secretVersion: row.secretVersion,
  };
}

/** The API clients service (the /acm calls and the token endpoint use it). */
export class ApiClientsService {
  constructor(
    private readonly db: Db,
    readonly limits: ApiLimits,
    private readonly tokenUrl: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The customer's clients, oldest first, with this month's token counts. */
  async list(customerKey: string): Promise<ApiClientListDto> {
    const month = monthOf(this.now());
    const rows = await this.db
      .select({ client: clients, issued: clientTokenCounts.issued })
      .from(clients)
      .leftJoin(
        clientTokenCounts,
        and(eq(clientTokenCounts.clientId, clients.clientId), eq(clientTokenCounts.month, month)),
      )
      .where(eq(clients.customerKey, customerKey))
      .orderBy(clients.createdAt, clients.name);
    const [total] = await this.db.select({ issued: tokenCounts.issued }).from(tokenCounts)
      .where(and(eq(tokenCounts.customerKey, customerKey), eq(tokenCounts.month, month)));
    return {
      clients: rows.map(({ client, issued }): ApiClientDto => ({
        id: client.id,
        name: client.name,
        permission: client.permission,
        client_id: client.clientId,
        scopes: [...PERMISSION_SCOPES[client.permission]],
        created_at: client.createdAt.toISOString(),
        rotated_at: iso(client.rotatedAt),
        last_used_at: iso(client.lastUsedAt),
        tokens_this_month: issued ?? 0,
      })),
      limits: { clients: this.limits.clients, tokens_per_month: this.limits.tokensPerMonth },
      tokens_this_month: total?.issued ?? 0,
      token_url: this.tokenUrl,
    };
  }

  /** Creates a client; 422 past the limit, 409 when the name is taken. */
  async create(customerKey: string, input: CreateClientInput): Promise<ApiClientSecretDto> {
    const secret = newSecret();
    const secretHash = await hashSecret(secret);
    const id = crypto.randomUUID();
    const clientId = newClientId();
    await this.db.transaction(async (tx) => {
      // Two creations of one customer wait here for each other: count and insert are one step.
      await tx.execute(
        sql`SELECT pg_advisory_xact_lock(hashtext(${`api-clients:${customerKey}`}))`,
      );
      const [held] = await tx.select({ n: count() }).from(clients)
        .where(eq(clients.customerKey, customerKey));
      if ((held?.n ?? 0) >= this.limits.clients) {
        throw new AppError("apiClients.tooManyClients", { limit: this.limits.clients });
      }
      const [same] = await tx.select({ id: clients.id }).from(clients)
        .where(and(eq(clients.customerKey, customerKey), eq(clients.name, input.name)));
      if (same) throw new AppError("apiClients.nameTaken", { name: input.name });
      await tx.insert(clients).values({
        id,
        customerKey,
        name: input.name,
        permission: input.permission,
        clientId,
        secretHash,
        createdAt: this.now(),
      });
    });
    return { id, client_id: clientId, client_secret: secret };
  }

  /** A new secret; the old one and every token issued with it stop working at once. */
  async rotate(customerKey: string, id: string): Promise<ApiClientSecretDto> {
    const secret = newSecret();
    const [row] = await this.db.update(clients)
      .set({
        secretHash: await hashSecret(secret),
        secretVersion: sql`${clients.secretVersion} + 1`,
        rotatedAt: this.now(),
      })
      .where(and(eq(clients.id, id), eq(clients.customerKey, customerKey)))
      .returning({ clientId: clients.clientId });
    if (!row) throw new AppError("common.notFound");
    return { id, client_id: row.clientId, client_secret: secret };
  }

  /** Deletes a client when `typedName` is its name (422 otherwise). */
  async remove(customerKey: string, id: string, typedName: string): Promise<void> {
    const [row] = await this.db.select().from(clients)
      .where(and(eq(clients.id, id), eq(clients.customerKey, customerKey)));
    if (!row) throw new AppError("common.notFound");
    if (!confirmsName(typedName, row.name)) throw new AppError("apiClients.nameMismatch");
    await this.db.delete(clients).where(eq(clients.id, id));
    await this.db.delete(clientTokenCounts).where(eq(clientTokenCounts.clientId, row.clientId));
  }

  /** The client with these credentials, or null (unknown id or wrong secret alike). */
  async authenticate(clientId: string, secret: string): Promise<ClientRecord | null> {
    if (clientId.length > 64) return null;
    const [row] = await this.db.select().from(clients).where(eq(clients.clientId, clientId));
    if (!row) {
      // Same work for an unknown id as for a wrong secret: no timing oracle on client ids.
      await secretMatches(secret, "0".repeat(64));
      return null;
    }
    return await secretMatches(secret, row.secretHash) ? record(row) : null;
  }

  /** The client a token names, or null when it was deleted. */
  async byClientId(clientId: string): Promise<ClientRecord | null> {
    const [row] = await this.db.select().from(clients).where(eq(clients.clientId, clientId));
    return row ? record(row) : null;
  }

  /**
   * Counts one token against the customer's month; false when the month's quota is spent. The
   * UPSERT increments only below the limit, so concurrent requests can never pass it.
   */
  async reserveToken(client: ClientRecord): Promise<boolean> {
    const month = monthOf(this.now());
    const counted = await this.db.insert(tokenCounts)
      .values({ customerKey: client.customerKey, month, issued: 1 })
      .onConflictDoUpdate({
        target: [tokenCounts.customerKey, tokenCounts.month],
        set: { issued: sql`${tokenCounts.issued} + 1` },
        setWhere: lt(tokenCounts.issued, this.limits.tokensPerMonth),
      })
      .returning({ issued: tokenCounts.issued });
    if (!counted.length) return false;
    await this.db.insert(clientTokenCounts)
      .values({ clientId: client.clientId, month, issued: 1 })
      .onConflictDoUpdate({
        target: [clientTokenCounts.clientId, clientTokenCounts.month],
        set: { issued: sql`${clientTokenCounts.issued} + 1` },
      });
    return true;
  }

  /** Seconds until the next calendar month (UTC) starts: the quota's Retry-After. */
  secondsToNextMonth(): number {
    const now = this.now();
    const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
    return Math.max(1, Math.ceil((next - now.getTime()) / 1000));
  }

  /** Writes one external call to the audit log and marks the client used. */
  async audit(entry: AuditRecord): Promise<void> {
    const at = this.now();
    await this.db.insert(auditLog).values({ ...entry, at });
    await this.db.update(clients).set({ lastUsedAt: at })
      .where(eq(clients.clientId, entry.clientId));
  }

  /** The customer's audit log, newest first, `limit` entries before the id `before`. */
  async auditPage(customerKey: string, before?: number, limit = 50): Promise<AuditPageDto> {
    const where = before === undefined
      ? eq(auditLog.customerKey, customerKey)
      : and(eq(auditLog.customerKey, customerKey), lt(auditLog.id, before));
    const rows = await this.db
      .select({ entry: auditLog, name: clients.name })
      .from(auditLog)
      .leftJoin(clients, eq(clients.clientId, auditLog.clientId))
      .where(where)
      .orderBy(desc(auditLog.id))
      .limit(limit + 1);
    const page = rows.slice(0, limit);
    return {
      entries: page.map(({ entry, name }) => ({
        id: entry.id,
        client_id: entry.clientId,
        client_name: name,
        method: entry.method,
        route: entry.route,
        status: entry.status,
        duration_ms: entry.durationMs,
        at: entry.at.toISOString(),
      })),
      next: rows.length > limit ? page[page.length - 1]!.entry.id : null,
    };
  }
}
