import { useState } from "react";
import { Button, Stack, Text, TextInput } from "@mantine/core";
import { useForgotPassword } from "@refinedev/core";
import { AuthMessage } from "./auth-message";
import { t } from "../../i18n";

export function ForgotPasswordForm({ onBack }: { onBack: () => void }) {
  const { mutate: sendResetEmail, isPending } = useForgotPassword<{ email: string }>();
  const [email, setEmail] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);

  const handleSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    setSuccess(null);
    const trimmed = email.trim();
    if (!trimmed) {
      setError(t("auth.enterYourEmail"));
      return;
    }
    setError(null);
    sendResetEmail(
      { email: trimmed },
      {
        onSuccess: (result) => {
          if (result.success) setSuccess(t("auth.resetMailSent"));
          else setError(result.error?.message ?? null);
        },
        onError: (failure) => setError(failure.message),
      },
    );
  };

  return (
    <form onSubmit={handleSubmit} noValidate>
      <Stack spacing="sm">
        <Text size="sm" color="dimmed">
          {t("auth.enterTheEMailAddressOf")}
        </Text>
        <TextInput
          label={t("auth.email")}
          type="email"
          autoComplete="email"
          value={email}
          onChange={(event) => setEmail(event.currentTarget.value)}
        />
        <AuthMessage error={error} success={success} />
        <Button type="submit" fullWidth loading={isPending}>
          {t("auth.sendResetEmail")}
        </Button>
        <Button variant="subtle" fullWidth onClick={onBack}>
          {t("auth.backToSignIn")}
        </Button>
      </Stack>
    </form>
  );
}
