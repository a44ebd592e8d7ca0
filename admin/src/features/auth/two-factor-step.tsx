import { useState } from "react";
import { Anchor, Button, Group, Stack, Text, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useLogin, type AuthActionResponse } from "@refinedev/core";
import type { SignInVariables } from "../../providers/auth-provider";
import { AuthMessage } from "./auth-message";
import { t } from "../../i18n";

type Mode = "code" | "recoveryCode";

interface TwoFactorStepProps {
  /** What the password step answered: single use, good for 5 minutes. */
  challenge: string;
  /** Back to the e-mail and password (a challenge run out needs the password again). */
  onStartOver: () => void;
}

const SIX_DIGITS = /^\d{6}$/;

/** The second step of signing in: the authenticator app's six digits, or one of the recovery codes. */
export function TwoFactorStep({ challenge, onStartOver }: TwoFactorStepProps) {
  const { mutate: login, isPending } = useLogin<SignInVariables>();
  const [mode, setMode] = useState<Mode>("code");
  const [error, setError] = useState<string | null>(null);
  const form = useForm({
    initialValues: { code: "", recoveryCode: "" },
    validate: {
      code: (value) => (mode === "code" && !SIX_DIGITS.test(value.replace(/\s/g, "")) ? t("auth.codeSixDigits") : null),
      recoveryCode: (value) => (mode === "recoveryCode" && !value.trim() ? t("auth.recoveryCodeRequired") : null),
    },
  });

  const showResult = (result: AuthActionResponse) => {
    if (result.success) return;
    setError(result.error?.message ?? null);
    form.setFieldValue(mode, "");
  };

  const handleSubmit = form.onSubmit(({ code, recoveryCode }) => {
    setError(null);
    const second = mode === "code" ? { code: code.replace(/\s/g, "") } : { recoveryCode: recoveryCode.trim() };
    login({ challenge, ...second }, { onSuccess: showResult, onError: (failure) => setError(failure.message) });
  });

  const switchMode = () => {
    setError(null);
    form.clearErrors();
    setMode(mode === "code" ? "recoveryCode" : "code");
  };

  return (
    <form onSubmit={handleSubmit} noValidate>
      <Stack spacing="sm">
        {mode === "code" ? (
          <TextInput
            key="code"
            label={t("auth.twoFactorCode")}
            description={t("auth.twoFactorIntro")}
            inputWrapperOrder={["label", "description", "input", "error"]}
            autoComplete="one-time-code"
            inputMode="numeric"
            maxLength={6}
            required
            data-autofocus
            autoFocus
            {...form.getInputProps("code")}
          />
        ) : (
          <TextInput
            key="recoveryCode"
            label={t("auth.recoveryCode")}
            description={t("auth.recoveryCodeIntro")}
            inputWrapperOrder={["label", "description", "input", "error"]}
            autoComplete="off"
            spellCheck={false}
            required
            autoFocus
            {...form.getInputProps("recoveryCode")}
          />
        )}
        <Group position="right">
          <Anchor component="button" type="button" size="sm" onClick={switchMode}>
            {mode === "code" ? t("auth.useRecoveryCode") : t("auth.useAuthenticatorCode")}
          </Anchor>
        </Group>
        <AuthMessage error={error} />
        <Button type="submit" fullWidth loading={isPending}>
          {t("auth.verify")}
        </Button>
        <Text size="sm" align="center">
          <Anchor component="button" type="button" size="sm" onClick={onStartOver}>
            {t("auth.backToSignIn")}
          </Anchor>
        </Text>
      </Stack>
    </form>
  );
}
