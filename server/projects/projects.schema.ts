import { z } from "zod";
import { optionalText, requiredName } from "../http/validate";
import { clientReference } from "../clients/clients.schema";

const description = optionalText("Description", 10_000);
// "No client" arrives as null, or as an empty string from a cleared select.
const optionalClient = z.preprocess((v) => (v === "" ? null : v), clientReference.nullable());

export const createProjectSchema = z.object({
  name: requiredName(),
  description: description.optional(),
  clientId: optionalClient.optional(),
});

export const updateProjectSchema = z.object({
  name: requiredName().optional(),
  description: description.optional(),
  clientId: optionalClient.optional(),
});

export type CreateProjectInput = z.infer<typeof createProjectSchema>;
export type UpdateProjectInput = z.infer<typeof updateProjectSchema>;
