import { useCustom } from "@refinedev/core";
import { DEFAULT_MIN_PASSWORD_LENGTH, type PasswordPolicy } from "../../lib/password-policy";

export interface AuthConfig {
  google: { clientId: string } | null;
  passwordPolicy: PasswordPolicy;
  /** The server's per-file upload limit (MAX_UPLOAD_BYTES). */
  maxUploadBytes: number;
  /** PUBLIC_URL, the address clients' links are under; null when the server has none. */
  publicUrl: string | null;
  /** Whether this page may offer passkeys (a secure context at the studio's address), and if not, why. */
  passkeys: { offered: boolean; reason: string | null };
}

/** The contract's default, until the server has said. */
const DEFAULT_MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

/** What the server offers and allows: Google sign-in, the password rules, the upload limit, its public address. */
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
    maxUploadBytes: config?.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES,
    publicUrl: config?.publicUrl ?? null,
    passkeys: config?.passkeys ?? { offered: false, reason: null },
  };
}
