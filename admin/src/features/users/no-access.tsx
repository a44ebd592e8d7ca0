import { Alert, Center, Title } from "@mantine/core";
import { IconLock } from "@tabler/icons-react";

/** What a signed-in user sees on a page their role does not open. */
export function NoAccess() {
  return (
    <Center py="xl">
      <Alert
        icon={<IconLock size={18} />}
        title={
          <Title order={1} size="h4">
            No access
          </Title>
        }
        color="gray"
        maw={480}
      >
        You do not have access to this page
      </Alert>
    </Center>
  );
}
