import type { Knex } from "knex";

/** As many places as server/sessions/sign-in-places.repository.ts keeps (a migration does not import app code). */
const PLACES_KEPT = 50;

/**
 * The places the sessions kept so far came from, so an upgraded install does not take every
 * account's next sign-in for its first (or mail about one from where it always signs in).
 */
export async function up(knex: Knex): Promise<void> {
  const rows = (await knex("user_sessions")
    .whereNotNull("address")
    .groupBy("user_uid", "address")
    .select("user_uid", "address")
    .min({ first_seen_at: "created_at" })
    .max({ last_seen_at: "last_active_at" })) as Array<{
    user_uid: string;
    address: string;
    first_seen_at: unknown;
    last_seen_at: unknown;
  }>;
  const byUser = new Map<string, typeof rows>();
  for (const row of rows) byUser.set(row.user_uid, [...(byUser.get(row.user_uid) ?? []), row]);
  const places = [...byUser.values()].flatMap((own) =>
    own
      .map((row) => ({
        user_uid: row.user_uid,
        address: row.address,
        first_seen_at: new Date(row.first_seen_at as string).toISOString(),
        last_seen_at: new Date(row.last_seen_at as string).toISOString(),
      }))
      .sort((a, b) => b.last_seen_at.localeCompare(a.last_seen_at))
      .slice(0, PLACES_KEPT),
  );
  // In chunks: sqlite allows a limited number of values in one statement.
  for (let i = 0; i < places.length; i += 100) await knex("sign_in_places").insert(places.slice(i, i + 100));
}

export async function down(): Promise<void> {}
