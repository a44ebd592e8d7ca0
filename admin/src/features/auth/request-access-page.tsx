import { useState } from "react";
import { Alert, Button, Center, Paper, Stack, Text, Textarea, Title } from "@mantine/core";
import { useCustomMutation, useGetIdentity, useLogout } from "@refinedev/core";
import { IconCircleCheck } from "@tabler/icons-react";
import type { User } from "../../providers/session";

const SUBMIT_FAILED = "Failed to submit request. Please try again or contact support.";

export function RequestAccessPage() {
  const { data: user } = useGetIdentity<User>();
  const { mutate: logout } = useLogout();
  const { mutate: submit, mutation } = useCustomMutation();
  const [message, setMessage] = useState("");
  const [submitted, setSubmitted] = useState(false);
  const [failed, setFailed] = useState(false);

  const handleSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    setFailed(false);
    const trimmed = message.trim();
    submit(
      {
        url: "/users/me/request-access",
        method: "post",
        values: trimmed ? { message: trimmed } : {},
        successNotification: false,
        errorNotification: false,
      },
      {
        onSuccess: () => setSubmitted(true),
        onError: () => setFailed(true),
      },
    );
  };

  return (
    <Center mih="100vh" p="md">
      <Paper withBorder shadow="sm" p="xl" w={480} maw="100%">
        {submitted ? (
          <Stack spacing="md" align="center">
            <IconCircleCheck size={48} color="green" />
            <Title order={1} size="h2">
              Access Request Submitted
            </Title>
            <Text align="center">
              Your request for access has been submitted successfully. You will be notified when your access is
              approved.
            </Text>
            <Text align="center" size="sm" color="dimmed">
              If you need immediate assistance, please contact the administrator directly.
            </Text>
            <Button variant="subtle" onClick={() => logout()}>
              Sign out
            </Button>
          </Stack>
        ) : (
          <form onSubmit={handleSubmit}>
            <Stack spacing="md">
              <Title order={1} size="h2">
                Request Access
              </Title>
              <Text color="dimmed">You need approval to access this application</Text>
              <Stack spacing={4}>
                <Text size="sm">
                  <Text span weight={600}>
                    Email:{" "}
                  </Text>
                  {user?.email ?? ""}
                </Text>
                <Text size="sm">
                  <Text span weight={600}>
                    Name:{" "}
                  </Text>
                  {user?.displayName || "Not provided"}
                </Text>
              </Stack>
              <Textarea
                label="Message (optional)"
                placeholder="Tell the administrator who you are and why you need access"
                autosize
                minRows={3}
                value={message}
                onChange={(event) => setMessage(event.currentTarget.value)}
              />
              {failed && (
                <Alert color="red" role="alert">
                  {SUBMIT_FAILED}
                </Alert>
              )}
              <Button type="submit" loading={mutation.isPending}>
                Submit Request
              </Button>
              <Button variant="subtle" onClick={() => logout()}>
                Sign out
              </Button>
            </Stack>
          </form>
        )}
      </Paper>
    </Center>
  );
}
