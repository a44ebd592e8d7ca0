/**
 * The scale bench's data set, made by SQL in the database itself (no API, no files): a decade of
 * a busy studio. Names mix accents, case and punctuation, as the search must handle them.
 */
import type { Knex } from "knex";
import { isPostgres } from "../server/db/transactions";

export const SCALE = {
  clients: 2_000,
  contactsPerClient: 2,
  projects: 100_000,
  /** Spread over every project but the big one, about ten each. */
  photos: 1_000_000,
  bigProjectPhotos: 10_000,
};
/** The newest project: a marathon's 10,000 photos. */
export const BIG_PROJECT = SCALE.projects;

export const FAMILIES = [
  "Martin",
  "Lefèvre",
  "Müller",
  "O'Brien",
  "Nguyễn",
  "García-López",
  "Dubois",
  "Ångström",
  "Çelik",
  "Moreau",
  "Rousseau",
  "Fontaine",
  "Chevalier",
  "Gauthier",
  "Perrin",
  "Lemaître",
  "Bérénger",
  "Öztürk",
  "Kowalski",
  "Novák",
  "Dvořák",
  "Sørensen",
  "Åberg",
  "Ibáñez",
  "Muñoz",
  "Schäfer",
  "Weiß",
  "Håkansson",
  "Zieliński",
  "Łukasik",
  "Petit-Jean",
  "D'Arcy",
  "MacLeod",
  "Van der Berg",
  "De Smet",
  "Leclercq",
  "Lambert",
  "Faure",
  "Roux",
  "Blanchard",
  "Gérard",
  "Mercier",
  "Bonnet",
  "François",
  "Henry",
  "Rivière",
  "Garnier",
  "Boyer",
  "Girard",
  "André",
  "Mathieu",
  "Clément",
  "Barbier",
  "Arnaud",
  "Noël",
  "Brun",
  "Marchand",
  "Duval",
  "Denis",
  "Colin",
  "Vidal",
  "Caron",
  "Picard",
  "Roger",
  "Renaud",
  "Dumont",
  "Lucas",
  "Aubert",
  "Meunier",
  "Fabre",
  "Hüber",
  "Jäger",
  "Köhler",
  "Schröder",
  "Vogel",
  "Krüger",
  "Wolff",
  "Brandt",
  "Haas",
  "Kühn",
  "Rossi",
  "Esposito",
  "Bianchi",
  "Romano",
  "Colombo",
  "Ricci",
  "Marino",
  "Greco",
  "Bruno",
  "Gallo",
  "Conti",
  "De Luca",
  "Mancini",
  "Costa",
  "Giordano",
  "Rizzo",
  "Lombardi",
  "Moretti",
  "Barbieri",
  "Fontana",
  "Santos",
  "Oliveira",
  "Pereira",
  "Ferreira",
  "Rodrigues",
  "Gonçalves",
  "Sánchez",
  "Pérez",
  "Gómez",
  "Martínez",
  "Hernández",
  "Jiménez",
  "Ruíz",
  "Díaz",
  "Álvarez",
  "Romero",
  "Navarro",
  "Torres",
  "Domínguez",
  "Vázquez",
  "Smith",
  "Johnson",
  "Williams",
  "Brown",
  "Jones",
  "Miller",
  "Davis",
  "Wilson",
  "Anderson",
  "Taylor",
  "Thomas",
  "Moore",
  "Jackson",
  "White",
  "Harris",
  "Thompson",
  "Young",
  "Walker",
  "Allen",
  "King",
  "Wright",
  "Scott",
  "Green",
  "Baker",
  "Adams",
  "Nelson",
  "Hill",
  "Campbell",
  "Mitchell",
  "Roberts",
  "Carter",
  "Phillips",
  "Evans",
  "Turner",
  "Parker",
  "Collins",
  "Edwards",
  "Stewart",
  "Morris",
  "Murphy",
  "Cook",
  "Rogers",
  "Morgan",
  "Cooper",
  "Peterson",
  "Bailey",
  "Reed",
  "Kelly",
  "Howard",
  "Cox",
  "Ward",
  "Richardson",
  "Watson",
  "Brooks",
  "Wood",
  "James",
  "Bennett",
  "Gray",
  "Hughes",
  "Price",
  "Sanders",
  "Myers",
  "Long",
  "Ross",
  "Foster",
  "Powell",
  "Jenkins",
  "Perry",
  "Russell",
  "Sullivan",
  "Bell",
  "Coleman",
  "Butler",
  "Simmons",
  "Patterson",
  "Jordan",
  "Reynolds",
  "Hamilton",
  "Graham",
  "Kim",
];
const EVENTS = [
  "Mariage",
  "Wedding",
  "Baptême",
  "Portraits de classe —",
  "School portraits:",
  "Marathon de",
  "Corporate event,",
  "Fiançailles",
  "Anniversaire (50 ans)",
  "Headshots",
  "Gala & remise de prix",
  "Communion",
  "Séance bébé",
  "Family session",
  "Concert",
  "Remise des diplômes",
  "Team photos",
  "Book mode",
  "Vernissage",
  "Salon pro",
];
const CLIENT_KINDS = [
  "Famille",
  "École",
  "Lycée",
  "Club",
  "Studio",
  "Mairie de",
  "Association",
  "Maison",
  "SARL",
  "Collège",
];
const PHOTO_STEMS = ["IMG_", "DSC_", "_MG_", "Mariée ", "Cérémonie-", "P10", "DSCF", "Photo (", "portrait_", "GOPR"];

/** A statement's row source of `count` rows numbered `i` from 1. */
function numbers(db: Knex, count: number): string {
  return isPostgres(db)
    ? `generate_series(1::bigint, ${count}) AS n(i)`
    : `(WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ${count}) SELECT i FROM s) AS n`;
}

/** An ISO timestamp `minutes` (an SQL expression) after 2016-01-01, as the app stores dates on each database. */
function minutesAfterBase(db: Knex, minutes: string): string {
  return isPostgres(db)
    ? `(timestamptz '2016-01-01T00:00:00Z' + (${minutes}) * interval '1 minute')`
    : `strftime('%Y-%m-%dT%H:%M:%fZ', '2016-01-01 00:00:00', '+' || (${minutes}) || ' minutes')`;
}

const pad4 = (db: Knex, expr: string) =>
  isPostgres(db) ? `lpad(((${expr}) % 10000)::text, 4, '0')` : `printf('%04d', (${expr}) % 10000)`;

/** A word from a list: `words` rows (list, k, word), picked by `index` (an SQL expression) modulo the list's length. */
const word = (list: string, length: number, index: string) =>
  `(SELECT word FROM bench_words WHERE list = '${list}' AND k = (${index}) % ${length})`;

async function loadWords(db: Knex) {
  await db.schema.createTable("bench_words", (t) => {
    t.string("list", 16);
    t.integer("k");
    t.string("word", 64);
    t.primary(["list", "k"]);
  });
  const lists = { family: FAMILIES, event: EVENTS, kind: CLIENT_KINDS, stem: PHOTO_STEMS };
  for (const [list, words] of Object.entries(lists)) {
    await db("bench_words").insert(words.map((w, k) => ({ list, k, word: w })));
  }
}

/** Fills an empty, migrated database; answers what it made and how long each table took. */
export async function fillScaleDatabase(db: Knex): Promise<string[]> {
  const timings: string[] = [];
  const step = async (label: string, sql: string) => {
    const began = performance.now();
    await db.raw(sql);
    timings.push(`${label} ${((performance.now() - began) / 1000).toFixed(1)} s`);
  };
  const F = FAMILIES.length;
  await loadWords(db);
  const concat = (...parts: string[]) => parts.join(" || ");
  await step(
    `${SCALE.clients} clients`,
    `INSERT INTO clients (name, created_at, updated_at)
     SELECT ${concat(word("kind", CLIENT_KINDS.length, "i"), "' '", word("family", F, "i * 7"), "' '", "i")},
       ${minutesAfterBase(db, "i * 2")}, ${minutesAfterBase(db, "i * 2")}
     FROM ${numbers(db, SCALE.clients)}`,
  );
  await step(
    `${SCALE.clients * SCALE.contactsPerClient} contacts`,
    `INSERT INTO contacts (client_id, name, email, created_at, updated_at)
     SELECT (i - 1) % ${SCALE.clients} + 1, ${concat(word("family", F, "i * 11"), "' Contact '", "i")},
       ${concat("'contact'", "i", "'@example.test'")}, ${minutesAfterBase(db, "i * 3")}, ${minutesAfterBase(db, "i * 3")}
     FROM ${numbers(db, SCALE.clients * SCALE.contactsPerClient)}`,
  );
  // Every twentieth project has no client; every tenth is published. Created in id order, five
  // minutes apart (a decade); updated in another order, so sorting by updatedAt is its own case.
  await step(
    `${SCALE.projects} projects`,
    `INSERT INTO projects (name, description, client_id, publish_status, published_at, published_zip_path, published_zip_size, created_at, updated_at)
     SELECT ${concat(word("event", EVENTS.length, "i"), "' '", word("family", F, "i * 13 + i / 400"), "' '", `(2016 + i * 10 / ${SCALE.projects})`)},
       CASE WHEN i % 3 = 0 THEN NULL ELSE ${concat("'Description of project '", "i")} END,
       CASE WHEN i % 20 = 0 THEN NULL ELSE (i * 7919) % ${SCALE.clients} + 1 END,
       CASE WHEN i % 10 = 0 THEN 'published' ELSE 'draft' END,
       CASE WHEN i % 10 = 0 THEN ${minutesAfterBase(db, "i * 5 + 60")} ELSE NULL END,
       CASE WHEN i % 10 = 0 THEN ${concat("'published/bench'", "i", "'.zip'")} ELSE NULL END,
       CASE WHEN i % 10 = 0 THEN 50000000 + (i * 7919) % 50000000 ELSE NULL END,
       ${minutesAfterBase(db, "i * 5")}, ${minutesAfterBase(db, `((i * 7919) % ${SCALE.projects}) * 5`)}
     FROM ${numbers(db, SCALE.projects)}`,
  );
  const regular = SCALE.projects - 1;
  await step(
    `${SCALE.photos} photos`,
    `INSERT INTO attachments (project_id, original_name, storage_key, thumbnail_key, preview_key, mime_type, size, width, height, checksum, created_at, updated_at)
     SELECT p, name, ${concat("p", "'/'", "i", "'.jpg'")}, ${concat("p", "'/'", "i", "'.thumb.webp'")},
       ${concat("p", "'/'", "i", "'.preview.jpg'")}, 'image/jpeg',
       1000000 + (i * 104729) % 9000000, 6000, 4000, '${"0".repeat(64)}',
       ${minutesAfterBase(db, "p * 5 + 1")}, ${minutesAfterBase(db, "p * 5 + 1")}
     FROM (SELECT i, (i - 1) * ${regular} / ${SCALE.photos} + 1 AS p,
       ${concat(word("stem", PHOTO_STEMS.length, "i / 7"), pad4(db, "i * 37"), "'.JPG'")} AS name
       FROM ${numbers(db, SCALE.photos)}) AS a`,
  );
  await step(
    `${SCALE.bigProjectPhotos} photos of project ${BIG_PROJECT}`,
    `INSERT INTO attachments (project_id, original_name, storage_key, thumbnail_key, preview_key, mime_type, size, width, height, checksum, created_at, updated_at)
     SELECT ${BIG_PROJECT}, ${concat("'Marathon 2026 — dossard '", pad4(db, "i * 13"), "' (' ", "i", "').jpg'")},
       ${concat(`'${BIG_PROJECT}/big'`, "i", "'.jpg'")}, ${concat(`'${BIG_PROJECT}/big'`, "i", "'.thumb.webp'")},
       ${concat(`'${BIG_PROJECT}/big'`, "i", "'.preview.jpg'")}, 'image/jpeg',
       2000000 + (i * 7919) % 6000000, 6000, 4000, '${"0".repeat(64)}',
       ${minutesAfterBase(db, `${BIG_PROJECT * 5} + i / 60`)}, ${minutesAfterBase(db, `${BIG_PROJECT * 5} + i / 60`)}
     FROM ${numbers(db, SCALE.bigProjectPhotos)}`,
  );
  await db.schema.dropTable("bench_words");
  // What autovacuum soon does to a live PostgreSQL database after a bulk load; sqlite's ANALYZE likewise.
  const began = performance.now();
  await db.raw(isPostgres(db) ? "VACUUM ANALYZE" : "ANALYZE");
  timings.push(`${isPostgres(db) ? "VACUUM ANALYZE" : "ANALYZE"} ${((performance.now() - began) / 1000).toFixed(1)} s`);
  return timings;
}
