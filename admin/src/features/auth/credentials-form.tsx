import { useState } from "react";
import { Anchor, Button, Group, PasswordInput, Stack, Text, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useLogin, useRegister, type AuthActionResponse } from "@refinedev/core";
import type { SignInVariables, SignUpVariables } from "../../providers/auth-provider";
import { AuthMessage } from "./auth-message";
import { isEmailAddress } from "../../../../api/validation";
import { oneLineProblem } from "../../lib/one-line";
import { describePasswordPolicy, type PasswordPolicy } from "../../lib/password-policy";
import { t } from "../../i18n";

interface CredentialsFormProps {
  signUp: boolean;
  passwordPolicy: PasswordPolicy;
  onToggleSignUp: () => void;
  onForgotPassword: () => void;
  /** The password was right and the account asks for its second step. */
  onTwoFactor: (challenge: string) => void;
}

/** E-mail and password, for signing in or (toggled) creating an account. */
export function CredentialsForm({
  signUp,
  passwordPolicy,
  onToggleSignUp,
  onForgotPassword,
  onTwoFactor,
}: CredentialsFormProps) {
  const { mutate: login, isPending: signingIn } = useLogin<SignInVariables>();
  const { mutate: register, isPending: signingUp } = useRegister<SignUpVariables>();
  const [error, setError] = useState<string | null>(null);
  const form = useForm({
    initialValues: { email: "", password: "", displayName: "" },
    validate: {
      // A new account's address must be one mail can reach (the server's rule); signing in takes any.
      email: (value) =>
        !value.trim()
          ? t("auth.emailRequired")
          : signUp && !isEmailAddress(value.trim())
            ? t("app.invalidEmail")
            : null,
      password: (value) => (value ? null : t("auth.passwordRequired")),
      // The admins' access-request mail names the account on one line (the server's rule too).
      displayName: (value) => (signUp ? oneLineProblem("auth.name", value.trim()) : null),
    },
  });

  const showResult = (result: AuthActionResponse) => {
    if (typeof result.twoFactorChallenge === "string") return onTwoFactor(result.twoFactorChallenge);
    setError(result.success ? null : (result.error?.message ?? null));
  };
  const showFailure = (failure: { message: string }) => setError(failure.message);

  const handleSubmit = form.onSubmit(({ email, password, displayName }) => {
    setError(null);
    const callbacks = { onSuccess: showResult, onError: showFailure };
    if (signUp) {
      register({ email: email.trim(), password, displayName: displayName.trim() || undefined }, callbacks);
    } else {
      login({ email: email.trim(), password }, callbacks);
    }
  });

  const toggle = () => {
    setError(null);
    form.clearErrors();
    onToggleSignUp();
  };

  return (
    <form onSubmit={handleSubmit} noValidate>
      <Stack spacing="sm">
        {signUp && <TextInput label={t("auth.name")} autoComplete="name" {...form.getInputProps("displayName")} />}
        <TextInput
          label={t("auth.email")}
          type="email"
          autoComplete="email"
          required
          {...form.getInputProps("email")}
        />
        <PasswordInput
          label={t("auth.password")}
          autoComplete={signUp ? "new-password" : "current-password"}
          required
          description={signUp ? describePasswordPolicy(passwordPolicy) : undefined}
          inputWrapperOrder={["label", "input", "description", "error"]}
          {...form.getInputProps("password")}
        />
        {!signUp && (
          <Group position="right">
            <Anchor component="button" type="button" size="sm" onClick={onForgotPassword}>
              {t("auth.forgotYourPassword")}
            </Anchor>
          </Group>
        )}
        <AuthMessage error={error} />
        <Button type="submit" fullWidth loading={signingIn || signingUp}>
          {signUp ? t("auth.signUp") : t("auth.signIn")}
        </Button>
        <Text size="sm" align="center">
          {signUp ? t("auth.alreadyHaveAnAccount") : t("auth.donTHaveAnAccount")}{" "}
          <Anchor component="button" type="button" size="sm" onClick={toggle}>
            {signUp ? t("auth.signIn") : t("auth.signUp")}
          </Anchor>
        </Text>
      </Stack>
    </form>
  );
}
