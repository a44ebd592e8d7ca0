import { useState } from "react";
import { Button, PasswordInput, Stack } from "@mantine/core";
import { useUpdatePassword } from "@refinedev/core";
import type { UpdatePasswordVariables } from "../../providers/auth-provider";
import { AuthMessage } from "./auth-message";
import { describePasswordPolicy, type PasswordPolicy } from "../../lib/password-policy";
import { t } from "../../i18n";

interface ResetPasswordFormProps {
  token: string;
  passwordPolicy: PasswordPolicy;
  onBack: () => void;
}

/** The page a reset e-mail links to: choose a new password with the one-time token. */
export function ResetPasswordForm({ token, passwordPolicy, onBack }: ResetPasswordFormProps) {
  const { mutate: updatePassword, isPending } = useUpdatePassword<UpdatePasswordVariables>();
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);

  const handleSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!password) {
      setError(t("auth.enterNewPassword"));
      return;
    }
    setError(null);
    updatePassword(
      { token, password },
      {
        onSuccess: (result) => setError(result.success ? null : (result.error?.message ?? null)),
        onError: (failure) => setError(failure.message),
      },
    );
  };

  return (
    <form onSubmit={handleSubmit} noValidate>
      <Stack spacing="sm">
        <PasswordInput
          label={t("auth.newPassword")}
          autoComplete="new-password"
          description={describePasswordPolicy(passwordPolicy)}
          inputWrapperOrder={["label", "input", "description", "error"]}
          value={password}
          onChange={(event) => setPassword(event.currentTarget.value)}
        />
        <AuthMessage error={error} />
        <Button type="submit" fullWidth loading={isPending}>
          {t("auth.setNewPassword")}
        </Button>
        <Button variant="subtle" fullWidth onClick={onBack}>
          {t("auth.backToSignIn")}
        </Button>
      </Stack>
    </form>
  );
}
