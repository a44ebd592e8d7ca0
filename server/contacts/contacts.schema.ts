import { z } from "zod";
import { optionalEmail, optionalPhone, requiredName } from "../http/validate";
import { clientReference } from "../clients/clients.schema";

const email = optionalEmail();
const phoneNumber = optionalPhone();

export const createContactSchema = z.object({
  name: requiredName(),
  email: email.optional(),
  phoneNumber: phoneNumber.optional(),
  clientId: clientReference,
});

export const updateContactSchema = z.object({
  name: requiredName().optional(),
  email: email.optional(),
  phoneNumber: phoneNumber.optional(),
  clientId: clientReference.optional(),
});

export type CreateContactInput = z.infer<typeof createContactSchema>;
export type UpdateContactInput = z.infer<typeof updateContactSchema>;
