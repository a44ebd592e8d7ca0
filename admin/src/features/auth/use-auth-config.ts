import { useCustom } from "@refinedev/core";
import { DEFAULT_MIN_PASSWORD_LENGTH, type PasswordPolicy } from "../../lib/password-policy";

export interface AuthConfig {
  google: { clientId: string } | null;
  passwordPolicy: PasswordPolicy;
}

/** What the identity provider offers: Google sign-in and the password rules. */
export function useAuthConfig(): AuthConfig {
  const { result } = useCustom<AuthConfig>({
    url: "/auth/config",
    method: "get",
    queryOptions: { staleTime: Infinity, retry: 1 },
    errorNotification: false,
  });
  const config = result.data as Partial<AuthConfig> | undefined;
  return {
    google: config?.google?.clientId ? config.google : null,
    passwordPolicy: config?.passwordPolicy ?? { minLength: DEFAULT_MIN_PASSWORD_LENGTH },
  };
}
