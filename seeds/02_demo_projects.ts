import type { Knex } from "knex";
import { daysAgo } from "./01_demo_clients";

/** Demo projects, most with a client and two without; looked up by name, so running twice adds nothing. */
export const DEMO_PROJECTS = [
  {
    name: "Halvorsen–Dahl Wedding",
    client: "Nordlys Wedding Co.",
    description: "Ceremony at Holmenkollen chapel and reception at the lodge. Two photographers, full day.",
    daysAgo: 40,
  },
  {
    name: "Engagement Session – Lake Sognsvann",
    client: "Nordlys Wedding Co.",
    description: "Golden-hour walk by the lake.",
    daysAgo: 30,
  },
  {
    name: "Pier 7 Office Interiors",
    client: "Harbour & Pine Architects",
    description: "Interior and detail shots of the finished office floor for the practice's portfolio.",
    daysAgo: 33,
  },
  {
    name: "Autumn Produce Catalogue",
    client: "Greenleaf Organic Market",
    description: "Packshots on white for the seasonal catalogue.",
    daysAgo: 25,
  },
  { name: "Farmers' Market Lifestyle Shoot", client: "Greenleaf Organic Market", description: null, daysAgo: 12 },
  {
    name: "City Half Marathon 2026",
    client: "Summit Running Club",
    description: "Start line, course and finish line coverage.",
    daysAgo: 15,
  },
  { name: "Studio Headshots – March", client: null, description: "Walk-in headshot day at the studio.", daysAgo: 9 },
  { name: "Portfolio Test Shots", client: null, description: null, daysAgo: 2 },
];

export async function seed(knex: Knex): Promise<void> {
  for (const project of DEMO_PROJECTS) {
    if (await knex("projects").where({ name: project.name }).first("id")) continue;
    const clientId = project.client
      ? ((await knex("clients").where({ name: project.client }).first("id"))?.id ?? null)
      : null;
    const at = daysAgo(project.daysAgo, 14);
    await knex("projects").insert({
      name: project.name,
      description: project.description,
      client_id: clientId,
      publish_status: "draft",
      created_at: at,
      updated_at: at,
    });
  }
}
