import { z } from "zod";
import { noContent, ok, routesOf } from "../openapi/operation";
import { components, dateTime } from "../openapi/schemas";

/** The sessions routes as the OpenAPI document describes them (server/openapi/catalogue.ts lists them). */

const sessionSchema = z.object({
  id: z.string(),
  browser: z.string().nullable().describe("Read from the user agent, e.g. `Firefox 128`"),
  system: z.string().nullable().describe("Read from the user agent, e.g. `macOS Sonoma`"),
  userAgent: z.string().nullable(),
  address: z.string().nullable().describe("The client's address at its last recorded activity"),
  createdAt: dateTime(),
  lastActiveAt: dateTime().describe("Recorded at most once a minute"),
  current: z.boolean().describe("The session of this request"),
});
components.add(sessionSchema, { id: "SignInSession" });

export const sessionOperations = routesOf("Sessions", "signIn", [
  {
    method: "get",
    path: "/api/users/me/sessions",
    summary: "Where one is signed in: every live session, most recently active first",
    answers: [ok(z.array(sessionSchema), "Every session")],
  },
  {
    method: "delete",
    path: "/api/users/me/sessions",
    summary: "Sign out every session but this one",
    description: "Their refresh and access tokens stop at once in every process; their live sockets close.",
    answers: [noContent],
  },
  {
    method: "delete",
    path: "/api/users/me/sessions/:id",
    summary: "Sign out one session",
    description: "Its refresh and access tokens stop at once in every process; its live socket closes.",
    answers: [noContent],
  },
]);
