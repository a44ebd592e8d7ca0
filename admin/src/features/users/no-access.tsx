import { Alert, Center, Title } from "@mantine/core";
import { IconLock } from "@tabler/icons-react";
import { t } from "../../i18n";

/** What a signed-in user sees on a page their role does not open. */
export function NoAccess() {
  return (
    <Center py="xl">
      <Alert
        icon={<IconLock size={18} />}
        title={
          <Title order={1} size="h4">
            {t("users.noAccess")}
          </Title>
        }
        color="gray"
        maw={480}
      >
        {t("users.youDoNotHaveAccessTo")}
      </Alert>
    </Center>
  );
}
