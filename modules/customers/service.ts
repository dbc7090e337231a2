/** Customer reads with tenant isolation: a foreign customer looks exactly like a missing one. */
import { asc, eq } from "drizzle-orm";
import { AppError, type Db, isSuperRole, type Principal } from "../../kernel/mod.ts";
import { type CustomerDto, toDto } from "./dto.ts";
import { type CustomerRow, customers, logos, type NewCustomerRow } from "./schema.ts";
import { CustomerSettingsService } from "./settings_service.ts";
import { TenantCache } from "./tenants.ts";

export { type CustomerDto, toDto } from "./dto.ts";

/** Reads and creates customers. */
export class CustomersService {
  /** Global settings, grid monitoring thresholds and the logo. */
  readonly settings: CustomerSettingsService;
  /** Every customer in memory, for the tenant middleware; forgotten after each write. */
  readonly tenants: TenantCache;

  constructor(private readonly db: Db) {
    this.tenants = new TenantCache(db);
    this.settings = new CustomerSettingsService(db, () => this.tenants.invalidate());
  }

  /** Customers the principal may see: its own, or all of them for super roles. */
  async listFor(principal: Principal): Promise<CustomerDto[]> {
    const query = this.db.select().from(customers).orderBy(asc(customers.name));
    const rows = isSuperRole(principal.role)
      ? await query
      : await query.where(eq(customers.authConnectionName, principal.customer));
    return rows.map(toDto);
  }

  /** One customer the principal may see; 404 for a foreign, unknown or malformed id. */
  async getFor(principal: Principal, key: string): Promise<CustomerDto> {
    const row = await this.byKey(key);
    if (!row || (!isSuperRole(principal.role) && row.authConnectionName !== principal.customer)) {
      throw new AppError("common.notFound");
    }
    return toDto(row);
  }

  /** The customer of an auth connection (the identity provider's login check). */
  async getByConnection(authConnectionName: string): Promise<CustomerDto | null> {
    const [row] = await this.db.select().from(customers)
      .where(eq(customers.authConnectionName, authConnectionName));
    return row ? toDto(row) : null;
  }

  /** The customer of a key, without an access check (for other modules' internal use). */
  async getByKey(key: string): Promise<CustomerDto | null> {
    const row = await this.byKey(key);
    return row ? toDto(row) : null;
  }

  /** The logo of a customer, without an access check (the PQ report's cover); null when none. */
  async logoByKey(key: string): Promise<{ contentType: string; data: Uint8Array } | null> {
    if (!/^[\w-]{1,64}$/.test(key)) return null;
    const [logo] = await this.db.select().from(logos).where(eq(logos.customerKey, key));
    return logo ? { contentType: logo.contentType, data: logo.data } : null;
  }

  /** Creates a customer; used by the demo seed and by tests. */
  async create(values: NewCustomerRow): Promise<CustomerDto> {
    const [row] = await this.db.insert(customers).values(values).returning();
    this.tenants.invalidate();
    return toDto(row!);
  }

  /** Keys of every customer (background evaluations run per customer). */
  async allKeys(): Promise<string[]> {
    return (await this.db.select({ key: customers.key }).from(customers)).map((r) => r.key);
  }

  async count(): Promise<number> {
    return (await this.db.select({ key: customers.key }).from(customers)).length;
  }

  private async byKey(key: string): Promise<CustomerRow | undefined> {
    if (!/^[\w-]{1,64}$/.test(key)) return undefined;
    const [row] = await this.db.select().from(customers).where(eq(customers.key, key));
    return row;
  }
}
