import type { Knex } from "knex";

/**
 * The studio's branding: one row (id 1), written the first time an admin saves. Absent values
 * mean the defaults: STUDIO_NAME for the name, the page's own accent, no logo, no contact.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("studio_settings", (t) => {
    t.integer("id").primary();
    t.string("name", 100).nullable();
    // `<random>.webp` under UPLOADS_DIR/studio/, re-encoded from the upload.
    t.string("logo_key", 255).nullable();
    t.string("accent_color", 7).nullable();
    t.string("contact_email", 320).nullable();
    t.string("contact_phone", 200).nullable();
    t.string("contact_website", 200).nullable();
    t.timestamp("updated_at", { useTz: true }).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("studio_settings");
}
