import type { Knex } from "knex";

type Queryable = Knex | Knex.Transaction;

export const isPostgres = (db: { client: { dialect: string } }): boolean => db.client.dialect === "postgresql";

/**
 * `SELECT … FOR UPDATE` on PostgreSQL: the rows stay locked until the transaction ends, so a
 * concurrent change of the same rows waits and then sees this transaction's outcome. sqlite needs
 * none: its transactions begin IMMEDIATE and hold the database's one write lock throughout.
 * Outside a transaction there is nothing to hold the lock for, so none is taken.
 */
export function lockedForUpdate<Q extends Knex.QueryBuilder>(db: Queryable, query: Q): Q {
  return isPostgres(db) && db.isTransaction ? (query.forUpdate() as Q) : query;
}

const SERIALIZATION_FAILURE = "40001";
const DEADLOCK_DETECTED = "40P01";
const MAX_ATTEMPTS = 20;

/**
 * Runs `work` in a SERIALIZABLE transaction on PostgreSQL, retrying it from the start when the
 * database aborts it for a conflict with a concurrent one; on sqlite a plain (IMMEDIATE)
 * transaction is already serial. For checks that read other rows than they write, like "no other
 * admin is left" or "the users table is empty", which row locks cannot cover.
 */
export async function serializable<T>(db: Knex, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  if (!isPostgres(db) || db.isTransaction) return db.transaction(work);
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(work, { isolationLevel: "serializable" });
    } catch (err) {
      const code = (err as { code?: string }).code;
      const retriable = code === SERIALIZATION_FAILURE || code === DEADLOCK_DETECTED;
      if (!retriable || attempt >= MAX_ATTEMPTS) throw err;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
    }
  }
}
