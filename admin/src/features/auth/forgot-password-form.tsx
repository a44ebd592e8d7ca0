import { useState } from "react";
import { Button, Stack, Text, TextInput } from "@mantine/core";
import { useForgotPassword } from "@refinedev/core";
import { AuthMessage } from "./auth-message";

const PASSWORD_RESET_SENT = "Password reset email sent! Check your inbox.";

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
      setError("Please enter your email address");
      return;
    }
    setError(null);
    sendResetEmail(
      { email: trimmed },
      {
        onSuccess: (result) => {
          if (result.success) setSuccess(PASSWORD_RESET_SENT);
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
          Enter the e-mail address of your account and we will send you a link to choose a new password.
        </Text>
        <TextInput
          label="Email"
          type="email"
          autoComplete="email"
          value={email}
          onChange={(event) => setEmail(event.currentTarget.value)}
        />
        <AuthMessage error={error} success={success} />
        <Button type="submit" fullWidth loading={isPending}>
          Send Reset Email
        </Button>
        <Button variant="subtle" fullWidth onClick={onBack}>
          Back to Sign In
        </Button>
      </Stack>
    </form>
  );
}
