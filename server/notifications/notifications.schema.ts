import { z } from "zod";

export const notificationSettingsSchema = z.object({
  deliveryMail: z.boolean({ error: "deliveryMail must be true or false" }),
});
