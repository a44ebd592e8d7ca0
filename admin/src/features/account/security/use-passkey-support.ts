import { useCustom } from "@refinedev/core";

interface PasskeySupport {
  offered: boolean;
  /** Why not, in the server's words (plain HTTP, an IP address, not PUBLIC_URL's address). */
  reason: string | null;
}

/**
 * Whether this page may add passkeys: the browser must be in a secure context (HTTPS or localhost)
 * and the server must accept this address (GET /api/auth/config `passkeys`).
 */
export function usePasskeySupport(): { offered: boolean; reason: string | null; known: boolean } {
  const { result } = useCustom<{ passkeys?: PasskeySupport }>({
    url: "/auth/config",
    method: "get",
    queryOptions: { staleTime: Infinity, retry: 1 },
    errorNotification: false,
  });
  const server = (result.data as { passkeys?: PasskeySupport } | undefined)?.passkeys;
  const secure = typeof window !== "undefined" && window.isSecureContext;
  return {
    known: server !== undefined,
    offered: secure && server?.offered === true,
    reason: server?.reason ?? null,
  };
}
