import { Stack, Text, Title } from "@mantine/core";
import { t } from "../../../i18n";
import { PasskeysSection } from "./passkeys-section";
import { SessionsSection } from "./sessions-section";
import { TwoFactorSection } from "./two-factor-section";

/** /account/security: two-factor sign-in, passkeys and the devices signed in, for the signed-in user. */
export function SecurityPage() {
  return (
    <Stack spacing="md" maw={960}>
      <Title order={1} size="h2">
        {t("security.title")}
      </Title>
      <Text color="dimmed">{t("security.intro")}</Text>
      <TwoFactorSection />
      <PasskeysSection />
      <SessionsSection />
    </Stack>
  );
}
