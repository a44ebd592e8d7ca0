import { useState } from "react";
import { Center, Divider, Paper, Stack, Text, Title } from "@mantine/core";
import { useSearchParams } from "react-router";
import { CredentialsForm } from "./credentials-form";
import { ForgotPasswordForm } from "./forgot-password-form";
import { GoogleSignIn } from "./google-sign-in";
import { ResetPasswordForm } from "./reset-password-form";
import { useAuthConfig } from "./use-auth-config";
import { t } from "../../i18n";

type View = "signIn" | "signUp" | "forgotPassword";

const HEADINGS: Record<View | "resetPassword", string> = {
  signIn: "auth.headingSignIn",
  signUp: "auth.headingSignUp",
  forgotPassword: "auth.headingForgotPassword",
  resetPassword: "auth.headingResetPassword",
};

export function LoginPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const [view, setView] = useState<View>("signIn");
  const { google, passwordPolicy } = useAuthConfig();

  const resetToken = searchParams.get("mode") === "reset" ? searchParams.get("token") : null;
  const backToSignIn = () => {
    setView("signIn");
    if (resetToken) setSearchParams({}, { replace: true });
  };
  const heading = t(HEADINGS[resetToken ? "resetPassword" : view]);

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
          ) : view === "forgotPassword" ? (
            <ForgotPasswordForm onBack={backToSignIn} />
          ) : (
            <>
              {google && (
                <>
                  <GoogleSignIn clientId={google.clientId} />
                  <Divider label={t("auth.or")} labelPosition="center" />
                </>
              )}
              <CredentialsForm
                signUp={view === "signUp"}
                passwordPolicy={passwordPolicy}
                onToggleSignUp={() => setView(view === "signUp" ? "signIn" : "signUp")}
                onForgotPassword={() => setView("forgotPassword")}
              />
            </>
          )}
        </Stack>
      </Paper>
    </Center>
  );
}
