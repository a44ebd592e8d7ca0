import { z } from "zod";
import { MAX_ID, requiredName } from "../http/validate";

export const createClientSchema = z.object({ name: requiredName() });
export const updateClientSchema = z.object({ name: requiredName().optional() });

export type CreateClientInput = z.infer<typeof createClientSchema>;
export type UpdateClientInput = z.infer<typeof updateClientSchema>;

/**
 * A client reference in a contact or project body. Web forms often hold select values as
 * strings, so a canonical digit string is accepted as well as a number; anything else is a 400.
 */
export const clientReference = z.preprocess(
  (v) => (typeof v === "string" && /^[1-9]\d{0,15}$/.test(v) ? Number(v) : v),
  z
    .number({
      error: (i) =>
        i.input === undefined || i.input === null ? "Client is required" : "Client must be a positive integer id",
    })
    .int("Client must be a positive integer id")
    .positive("Client must be a positive integer id")
    .max(MAX_ID, "Client must be a positive integer id"),
);
