import { Alert } from "@mantine/core";
import { IconAlertCircle } from "@tabler/icons-react";

/** A failed action's message (the server's words), in the dialog or card where it was tried. */
export function FailureAlert({ message, mt = "md" }: { message: string; mt?: "xs" | "md" | 0 }) {
  return (
    <Alert color="red" mt={mt} icon={<IconAlertCircle size={18} />}>
      {message}
    </Alert>
  );
}
