/**
 * The customers as the kernel's tenant middleware looks them up on every call: all of them held
 * in memory (an installation serves a handful to a few hundred), read again after a write of
 * this process or after 30 s, so no request waits for the database to learn its customer.
 */
import type { Db, Tenant, TenantDirectory } from "../../kernel/mod.ts";
import { customers } from "./schema.ts";

const MAX_AGE_MS = 30_000;

interface Snapshot {
  at: number;
  byKey: Map<string, Tenant>;
  byConnection: Map<string, Tenant>;
}

/** A cached directory of every customer; `invalidate()` after a write. */
export class TenantCache implements TenantDirectory {
  #snapshot: Snapshot | null = null;
  #loading: { generation: number; promise: Promise<Snapshot> } | null = null;
  /** Bumped by every invalidation: a load that started before it is not kept. */
  #generation = 0;

  constructor(private readonly db: Db, private readonly now: () => number = Date.now) {}

  async byConnection(connection: string): Promise<Tenant | null> {
    return (await this.#current()).byConnection.get(connection) ?? null;
  }

  async byKey(key: string): Promise<Tenant | null> {
    return (await this.#current()).byKey.get(key) ?? null;
  }

  /** Forgets the snapshot: the next lookup reads the customers again. */
  invalidate(): void {
    this.#generation++;
    this.#snapshot = null;
  }

  #current(): Promise<Snapshot> {
    const held = this.#snapshot;
    if (held && this.now() - held.at < MAX_AGE_MS) return Promise.resolve(held);
    const generation = this.#generation;
    if (this.#loading?.generation !== generation) {
      const promise = this.#load().then((snapshot) => {
        if (this.#generation === generation) this.#snapshot = snapshot;
        return snapshot;
      }).finally(() => {
        if (this.#loading?.promise === promise) this.#loading = null;
      });
      this.#loading = { generation, promise };
    }
    return this.#loading!.promise;
  }

  async #load(): Promise<Snapshot> {
    const at = this.now();
    const rows = await this.db.select({
      key: customers.key,
      connection: customers.authConnectionName,
      applications: customers.applications,
    }).from(customers);
    const byKey = new Map<string, Tenant>();
    const byConnection = new Map<string, Tenant>();
    for (const row of rows) {
      const tenant: Tenant = {
        key: row.key,
        connection: row.connection,
        applications: Object.freeze([...row.applications]),
      };
      byKey.set(tenant.key, tenant);
      byConnection.set(tenant.connection, tenant);
    }
    return { at, byKey, byConnection };
  }
}
