/**
 * The MV topology of an MV feeder group: the ordered MV feeders (MV lines and transformers with
 * MV estimation) of its nodes that the MV view evaluates as sections. Code 351 means there is
 * none yet; its feeders cannot be deleted (356) nor their nodes (358) while it exists.
 */
import { and, asc, eq, inArray } from "drizzle-orm";
import { AppError, type Db, validationError } from "../../../kernel/mod.ts";
import type { FieldIssue } from "../../../kernel/mod.ts";
import { feeders, lvGroups, mvTopologySections, nodes } from "../schema.ts";
import { findMvFeederGroup } from "./access.ts";
import { isMvFeeder, type MvTopologyDto, type MvTopologyInput } from "./contract.ts";
import { feederDto } from "./feeder_rules.ts";

/** Read, replace and clear the MV topology of a customer's MV feeder groups. */
export class MvTopologyOperations {
  constructor(private readonly db: Db) {}

  /** The ordered MV feeders of the group's topology; 351 when it has fewer than two sections. */
  async get(customerKey: string, mvFeederGroupId: string): Promise<MvTopologyDto> {
    await findMvFeederGroup(this.db, customerKey, mvFeederGroupId);
    const rows = await this.db.select({ section: mvTopologySections, feeder: feeders, node: nodes })
      .from(mvTopologySections)
      .innerJoin(feeders, eq(feeders.id, mvTopologySections.feederId))
      .innerJoin(nodes, eq(nodes.id, feeders.nodeId))
      .where(eq(mvTopologySections.mvFeederGroupId, mvFeederGroupId))
      .orderBy(asc(mvTopologySections.position));
    if (rows.length < 2) throw new AppError(351);
    return {
      mv_feeder_group_id: mvFeederGroupId,
      sections: rows.map((r) => ({
        position: r.section.position,
        feeder: feederDto(r.feeder),
        node: { id: r.node.id, name: r.node.name },
      })),
    };
  }

  /** Replaces the topology: at least two distinct MV feeders of nodes below the group. */
  async set(
    customerKey: string,
    mvFeederGroupId: string,
    input: MvTopologyInput,
  ): Promise<MvTopologyDto> {
    const ids = input.feeder_ids;
    await this.db.transaction(async (tx) => {
      await findMvFeederGroup(tx, customerKey, mvFeederGroupId, true);
      const rows = await tx.select({ feeder: feeders }).from(feeders)
        .innerJoin(nodes, eq(nodes.id, feeders.nodeId))
        .innerJoin(lvGroups, eq(lvGroups.id, nodes.lvGroupId))
        .where(and(eq(lvGroups.mvFeederGroupId, mvFeederGroupId), inArray(feeders.id, ids)));
      const found = new Map(rows.map((r) => [r.feeder.id, r.feeder]));
      const issues = ids.flatMap((feederId, i): FieldIssue[] => {
        const feeder = found.get(feederId);
        const path = `feeder_ids.${i}`;
        if (!feeder) return [{ path, key: "grid.elementNotFound", params: {} }];
        return isMvFeeder(feeder) ? [] : [{ path, key: "setup.mvTransformerRequired", params: {} }];
      });
      if (issues.length) throw validationError(issues);
      await tx.delete(mvTopologySections).where(
        eq(mvTopologySections.mvFeederGroupId, mvFeederGroupId),
      );
      await tx.insert(mvTopologySections).values(
        ids.map((feederId, i) => ({ mvFeederGroupId, position: i + 1, feederId })),
      );
    });
    return await this.get(customerKey, mvFeederGroupId);
  }

  /** Removes the topology of the group. */
  async clear(customerKey: string, mvFeederGroupId: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      await findMvFeederGroup(tx, customerKey, mvFeederGroupId, true);
      await tx.delete(mvTopologySections).where(
        eq(mvTopologySections.mvFeederGroupId, mvFeederGroupId),
      );
    });
  }
}
