import { useState } from "react";
import { Center, Divider, Paper, Stack, Text, Title } from "@mantine/core";
import { useSearchParams } from "react-router";
import { CredentialsForm } from "./credentials-form";
import { ForgotPasswordForm } from "./forgot-password-form";
import { GoogleSignIn } from "./google-sign-in";
import { PasskeySignIn } from "./passkey-sign-in";
import { TwoFactorStep } from "./two-factor-step";
import { ResetPasswordForm } from "./reset-password-form";
import { useAuthConfig } from "./use-auth-config";
import { t } from "../../i18n";

type View = "signIn" | "signUp" | "forgotPassword";

const HEADINGS: Record<View | "resetPassword" | "twoFactor", string> = {
  signIn: "auth.headingSignIn",
  signUp: "auth.headingSignUp",
  forgotPassword: "auth.headingForgotPassword",
  resetPassword: "auth.headingResetPassword",
  twoFactor: "auth.headingTwoFactor",
};

export function LoginPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const [view, setView] = useState<View>("signIn");
  const { google, passwordPolicy, passkeys } = useAuthConfig();
  /** The password step's challenge while the code step is shown. */
  const [challenge, setChallenge] = useState<string | null>(null);

  const resetToken = searchParams.get("mode") === "reset" ? searchParams.get("token") : null;
  const backToSignIn = () => {
    setView("signIn");
    if (resetToken) setSearchParams({}, { replace: true });
  };
  const heading = t(HEADINGS[resetToken ? "resetPassword" : challenge ? "twoFactor" : view]);

  return (
    <Center mih="100vh" p="md" sx={(theme) => ({ backgroundColor: theme.colors.gray[0] })}>
      <Paper withBorder shadow="md" radius="md" p="xl" w={420} maw="100%">
        <Stack spacing="lg">
          <Stack spacing={4} align="center">
            <Title order={1} size="h2">
              {t("auth.photodrop")}
            </Title>
            <Text color="dimmed" size="sm">
              {heading}
            </Text>
          </Stack>
          {resetToken ? (
            <ResetPasswordForm token={resetToken} passwordPolicy={passwordPolicy} onBack={backToSignIn} />
          ) : challenge ? (
            <TwoFactorStep challenge={challenge} onStartOver={() => setChallenge(null)} />
          ) : view === "forgotPassword" ? (
            <ForgotPasswordForm onBack={backToSignIn} />
          ) : (
            <>
              {google && (
                <>
                  <GoogleSignIn clientId={google.clientId} />
                  <Text size="xs" color="dimmed" align="center">
                    {t("auth.googleSecondFactor")}
                  </Text>
                </>
              )}
              {passkeys.offered && view === "signIn" && <PasskeySignIn />}
              {(google || (passkeys.offered && view === "signIn")) && (
                <Divider label={t("auth.or")} labelPosition="center" />
              )}
              <CredentialsForm
                signUp={view === "signUp"}
                passwordPolicy={passwordPolicy}
                onToggleSignUp={() => setView(view === "signUp" ? "signIn" : "signUp")}
                onForgotPassword={() => setView("forgotPassword")}
                onTwoFactor={setChallenge}
              />
            </>
          )}
        </Stack>
      </Paper>
    </Center>
  );
}
