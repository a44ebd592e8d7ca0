import { Alert, List, Stack, Text } from "@mantine/core";
import { IconAlertCircle, IconCheck } from "@tabler/icons-react";
import type { SendResult } from "../../../../api/types";

const mails = (n: number) => `${n} ${n === 1 ? "recipient" : "recipients"}`;

/** What became of each recipient: sent, refused by the mail server (with its answer), or skipped. */
export function SendResultView({ result }: { result: SendResult }) {
  return (
    <Stack spacing="sm" aria-label="Send result">
      {result.sent.length > 0 && (
        <Alert color="green" icon={<IconCheck size={18} />} title={`Sent to ${mails(result.sent.length)}`}>
          <List size="sm">
            {result.sent.map((email) => (
              <List.Item key={email}>{email}</List.Item>
            ))}
          </List>
        </Alert>
      )}
      {result.failed.length > 0 && (
        <Alert color="red" icon={<IconAlertCircle size={18} />} title={`Not sent to ${mails(result.failed.length)}`}>
          <List size="sm">
            {result.failed.map(({ email, message }) => (
              <List.Item key={email}>
                {email}: {message}
              </List.Item>
            ))}
          </List>
        </Alert>
      )}
      {result.skipped.length > 0 && (
        <Alert color="gray" title={`Skipped ${mails(result.skipped.length)}`}>
          <List size="sm">
            {result.skipped.map(({ email, reason }) => (
              <List.Item key={email}>
                {email}: {reason}
              </List.Item>
            ))}
          </List>
        </Alert>
      )}
      {result.sent.length + result.failed.length + result.skipped.length === 0 && (
        <Text size="sm">Nothing was sent.</Text>
      )}
    </Stack>
  );
}
