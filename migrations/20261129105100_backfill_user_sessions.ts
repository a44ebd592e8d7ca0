import type { Knex } from "knex";

/** A session row for each sign-in still alive before sessions were recorded (browser and address unknown). */
export async function up(knex: Knex): Promise<void> {
  const families = await knex("refresh_tokens")
    .whereNull("revoked_at")
    .groupBy("family", "user_uid")
    .select("family", "user_uid")
    .min({ created_at: "created_at" })
    .max({ expires_at: "expires_at" });
  for (const f of families as Array<{ family: string; user_uid: string; created_at: unknown; expires_at: unknown }>) {
    const createdAt = new Date(f.created_at as string).toISOString();
    await knex("user_sessions").insert({
      id: f.family,
      user_uid: f.user_uid,
      created_at: createdAt,
      last_active_at: createdAt,
      expires_at: new Date(f.expires_at as string).toISOString(),
    });
  }
}

export async function down(): Promise<void> {}
