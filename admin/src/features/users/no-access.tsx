import { Alert, Center } from "@mantine/core";
import { IconLock } from "@tabler/icons-react";

/** What a signed-in user sees on a page their role does not open. */
export function NoAccess() {
  return (
    <Center py="xl">
      <Alert icon={<IconLock size={18} />} title="No access" color="gray" maw={480}>
        You do not have access to this page
      </Alert>
    </Center>
  );
}
