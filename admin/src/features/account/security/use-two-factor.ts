import { useCustom } from "@refinedev/core";

/** GET /api/users/me/two-factor, as the server answers it. */
export interface TwoFactorStatus {
  enabled: boolean;
  required: boolean;
  pending: boolean;
  recoveryCodesLeft: number;
}

export const TWO_FACTOR_URL = "/users/me/two-factor";

/** One's two-factor status; `refetch` after turning it on or off or making new codes. */
export function useTwoFactorStatus() {
  const { result, query } = useCustom<TwoFactorStatus>({
    url: TWO_FACTOR_URL,
    method: "get",
    errorNotification: false,
  });
  return { status: result.data as TwoFactorStatus | undefined, query };
}
