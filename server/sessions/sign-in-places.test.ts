import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate, openDatabase, type Db } from "../db/database";
import { createTestDatabase, type TestDatabase } from "../test/test-database";
import { PLACES_KEPT, knownPlaces, rememberPlace } from "./sign-in-places.repository";

/** The minute of the migrations that make the table and fill it from the sessions kept: as a name, it sorts before both. */
const BEFORE_PLACES = "20261129108000";
const at = (minute: number) => new Date(Date.UTC(2026, 10, 1, 0, minute)).toISOString();

let dir: string;
let database: TestDatabase;
let db: Db;

async function addUser(uid: string): Promise<void> {
  await db("users").insert({
    uid,
    email: `${uid}@studio.test`,
    role: "staff",
    has_access: true,
    email_verified: false,
    created_at: at(0),
    updated_at: at(0),
  });
}

async function addSession(uid: string, id: string, address: string | null, created: number, active: number) {
  await db("user_sessions").insert({
    id,
    user_uid: uid,
    user_agent: null,
    address,
    created_at: at(created),
    last_active_at: at(active),
    expires_at: at(active + 60),
    ended_at: null,
  });
}

const placesOf = async (uid: string) =>
  (await db("sign_in_places").where({ user_uid: uid }).orderBy("address")).map((row) => ({
    address: row.address,
    first: new Date(row.first_seen_at).toISOString(),
    last: new Date(row.last_seen_at).toISOString(),
  }));

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "photodrop-places-"));
  database = await createTestDatabase(dir);
  db = openDatabase(database.url);
  // An install from before places were kept: sessions with and without an address.
  await migrate(db, BEFORE_PLACES);
  expect(await db.schema.hasTable("sign_in_places")).toBe(false);
  await addUser("ann");
  await addUser("bob");
  await addUser("cem");
  await addSession("ann", "a1", "203.0.113.1", 1, 5);
  await addSession("ann", "a2", "203.0.113.1", 3, 9);
  await addSession("ann", "a3", "198.51.100.2", 4, 4);
  await addSession("bob", "b1", null, 2, 2);
  for (let i = 0; i < PLACES_KEPT + 2; i++) await addSession("cem", `c${i}`, `192.0.2.${i}`, i, i);
  await migrate(db);
}, 120_000);

afterAll(async () => {
  await db.destroy();
  await database.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("the places an account signed in from", () => {
  it("are filled at the upgrade from the sessions kept, each address once, the most recent ones", async () => {
    expect(await placesOf("ann")).toEqual([
      { address: "198.51.100.2", first: at(4), last: at(4) },
      { address: "203.0.113.1", first: at(1), last: at(9) },
    ]);
    // A session from before addresses were recorded tells nothing.
    expect(await placesOf("bob")).toEqual([]);
    const cem = await knownPlaces(db, "cem");
    expect(cem).toHaveLength(PLACES_KEPT);
    expect(cem).not.toContain("192.0.2.0");
    expect(cem).not.toContain("192.0.2.1");
  });

  it("note a place seen again, keep the most recently seen, and go with the user", async () => {
    const before = (await placesOf("ann")).find((p) => p.address === "198.51.100.2")!;
    await rememberPlace(db, "ann", "198.51.100.2");
    const after = (await placesOf("ann")).find((p) => p.address === "198.51.100.2")!;
    expect(after.first).toBe(before.first);
    expect(after.last > before.last).toBe(true);
    // Cem's oldest kept place goes for a new one.
    await rememberPlace(db, "cem", "2001:db8::1");
    const cem = await knownPlaces(db, "cem");
    expect(cem).toHaveLength(PLACES_KEPT);
    expect(cem).toContain("2001:db8::1");
    expect(cem).not.toContain("192.0.2.2");
    await db("users").where({ uid: "cem" }).delete();
    expect(await knownPlaces(db, "cem")).toEqual([]);
  });
});
