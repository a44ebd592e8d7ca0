import { useState } from "react";
import { Button } from "@mantine/core";
import { useLogin } from "@refinedev/core";
import { IconKey } from "@tabler/icons-react";
import type { SignInVariables } from "../../providers/auth-provider";
import { AuthMessage } from "./auth-message";
import { t } from "../../i18n";

/** 'Sign in with a passkey': no e-mail, no password; the passkey is both factors. */
export function PasskeySignIn() {
  const { mutate: login, isPending } = useLogin<SignInVariables>();
  const [error, setError] = useState<string | null>(null);

  const signIn = () => {
    setError(null);
    login(
      { providerName: "passkey" },
      {
        onSuccess: (result) => setError(result.success ? null : (result.error?.message ?? null)),
        onError: (failure) => setError(failure.message),
      },
    );
  };

  return (
    <>
      <Button variant="default" fullWidth leftIcon={<IconKey size={18} />} loading={isPending} onClick={signIn}>
        {t("auth.signInWithPasskey")}
      </Button>
      <AuthMessage error={error} />
    </>
  );
}
