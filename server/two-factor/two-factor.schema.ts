import { z } from "zod";

const code = z
  .string()
  .trim()
  .min(1, "Enter the code")
  .max(20, "A code is six digits")
  .describe("The six digits the authenticator app shows now");

export const confirmTwoFactorSchema = z.object({ code });

export const disableTwoFactorSchema = z
  .strictObject({
    code: code.optional(),
    password: z.string().min(1, "Enter your password").max(1024).optional(),
  })
  .refine((body) => (body.code === undefined) !== (body.password === undefined), {
    message: "Send either the code or the password",
  });

export const twoFactorSignInSchema = z
  .strictObject({
    challenge: z.string().min(1).max(200).describe("What POST /api/auth/login answered"),
    code: code.optional(),
    recoveryCode: z.string().trim().min(1).max(40).optional().describe("One of the ten recovery codes"),
  })
  .refine((body) => (body.code === undefined) !== (body.recoveryCode === undefined), {
    message: "Send either the code or a recovery code",
  });

export type TwoFactorSignIn = z.infer<typeof twoFactorSignInSchema>;
