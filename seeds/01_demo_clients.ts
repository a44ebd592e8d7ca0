import type { Knex } from "knex";

/** A few studio clients with their contacts. Looked up by name first, so running twice adds nothing. */
export const DEMO_CLIENTS = [
  {
    name: "Nordlys Wedding Co.",
    daysAgo: 42,
    contacts: [
      { name: "Ingrid Halvorsen", email: "ingrid@nordlys-weddings.example", phoneNumber: "+47 912 34 567" },
      { name: "Erik Dahl", email: "erik@nordlys-weddings.example", phoneNumber: null },
    ],
  },
  {
    name: "Harbour & Pine Architects",
    daysAgo: 35,
    contacts: [{ name: "Sophie Turner", email: "sophie.turner@harbourpine.example", phoneNumber: "+44 20 7946 0123" }],
  },
  {
    name: "Greenleaf Organic Market",
    daysAgo: 27,
    contacts: [
      { name: "Marco Bellini", email: "marco@greenleaf-market.example", phoneNumber: "+39 02 1234 5678" },
      { name: "Aisha Khan", email: "aisha.khan@greenleaf-market.example", phoneNumber: null },
    ],
  },
  {
    name: "Summit Running Club",
    daysAgo: 18,
    contacts: [{ name: "Jonas Weber", email: null, phoneNumber: "+49 30 901820" }],
  },
  {
    name: "Atelier Rose Bridal",
    daysAgo: 6,
    contacts: [{ name: "Camille Laurent", email: "camille@atelier-rose.example", phoneNumber: "+33 1 42 68 53 00" }],
  },
];

export function daysAgo(days: number, hour = 10): string {
  const at = new Date();
  at.setUTCDate(at.getUTCDate() - days);
  at.setUTCHours(hour, 0, 0, 0);
  return at.toISOString();
}

export async function seed(knex: Knex): Promise<void> {
  for (const client of DEMO_CLIENTS) {
    const at = daysAgo(client.daysAgo);
    let clientId = (await knex("clients").where({ name: client.name }).first("id"))?.id as number | undefined;
    if (clientId === undefined) {
      const [row] = await knex("clients").insert({ name: client.name, created_at: at, updated_at: at }, ["id"]);
      clientId = typeof row === "object" ? row.id : row;
    }
    for (const contact of client.contacts) {
      if (await knex("contacts").where({ client_id: clientId, name: contact.name }).first("id")) continue;
      await knex("contacts").insert({
        client_id: clientId,
        name: contact.name,
        email: contact.email,
        phone_number: contact.phoneNumber,
        created_at: at,
        updated_at: at,
      });
    }
  }
}
