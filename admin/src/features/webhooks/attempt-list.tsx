import { Badge, Button, Group, Paper, Stack, Table, Text } from "@mantine/core";
import type { WebhookAttempt } from "../../../../api/types";
import { formatDateTime } from "../../lib/format";
import { CardLine } from "../../ui/row-cards";
import { t } from "../../i18n";

export interface AttemptListProps {
  attempts: WebhookAttempt[];
  /** The attempt being sent again, if one is. */
  sending: number | null;
  sendAgain: (attempt: WebhookAttempt) => void;
}

function StatusBadge({ attempt }: { attempt: WebhookAttempt }) {
  if (attempt.status === null)
    return (
      <Badge color="gray" variant="light">
        {t("webhooks.noAnswer")}
      </Badge>
    );
  return (
    <Badge color={attempt.ok ? "green" : "red"} variant="light">
      {attempt.status}
    </Badge>
  );
}

function EventType({ attempt }: { attempt: WebhookAttempt }) {
  return (
    <Text ff="monospace" size="xs" sx={{ overflowWrap: "anywhere" }}>
      {attempt.eventType}
    </Text>
  );
}

function SendAgainButton({
  attempt,
  sending,
  sendAgain,
}: { attempt: WebhookAttempt } & Omit<AttemptListProps, "attempts">) {
  return (
    <Button
      size="xs"
      variant="light"
      loading={sending === attempt.id}
      onClick={() => sendAgain(attempt)}
      aria-label={t("webhooks.sendAgainAt", {
        eventType: attempt.eventType,
        attemptedAt: formatDateTime(attempt.attemptedAt),
      })}
    >
      {t("webhooks.sendAgain")}
    </Button>
  );
}

/** The attempts as a table (wider screens), newest first. */
export function AttemptTable({ attempts, ...actions }: AttemptListProps) {
  return (
    <Table miw={720} verticalSpacing="xs" fontSize="sm" aria-label={t("webhooks.attempts")}>
      <thead>
        <tr>
          <th>{t("webhooks.time")}</th>
          <th>{t("webhooks.event")}</th>
          <th>{t("webhooks.status")}</th>
          <th>{t("webhooks.took")}</th>
          <th>{t("webhooks.answer")}</th>
          <th aria-label={t("webhooks.actions")} />
        </tr>
      </thead>
      <tbody>
        {attempts.map((attempt) => (
          <tr key={attempt.id}>
            <td style={{ whiteSpace: "nowrap" }}>{formatDateTime(attempt.attemptedAt)}</td>
            <td>
              <EventType attempt={attempt} />
            </td>
            <td>
              <StatusBadge attempt={attempt} />
            </td>
            <td style={{ whiteSpace: "nowrap" }}>{t("webhooks.ms", { durationMs: attempt.durationMs })}</td>
            <td>
              <Text size="xs" lineClamp={2} sx={{ wordBreak: "break-all", maxWidth: 260 }}>
                {attempt.response ?? ""}
              </Text>
            </td>
            <td>
              <SendAgainButton attempt={attempt} {...actions} />
            </td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

/** A phone's cards: the table's values, each labelled, and 'Send again' at each card's foot. */
export function AttemptCards({ attempts, ...actions }: AttemptListProps) {
  return (
    <Stack role="list" aria-label={t("webhooks.attempts")} spacing="sm">
      {attempts.map((attempt) => (
        <Paper key={attempt.id} role="listitem" withBorder radius="md" p="sm">
          <Stack spacing={6}>
            <Text size="sm" weight={600}>
              {formatDateTime(attempt.attemptedAt)}
            </Text>
            <CardLine label={t("webhooks.event")}>
              <EventType attempt={attempt} />
            </CardLine>
            <CardLine label={t("webhooks.status")}>
              <StatusBadge attempt={attempt} />
            </CardLine>
            <CardLine label={t("webhooks.took")}>{t("webhooks.ms", { durationMs: attempt.durationMs })}</CardLine>
            {attempt.response && (
              <CardLine label={t("webhooks.answer")}>
                <Text size="xs" lineClamp={3} sx={{ wordBreak: "break-all" }}>
                  {attempt.response}
                </Text>
              </CardLine>
            )}
            <Group position="right">
              <SendAgainButton attempt={attempt} {...actions} />
            </Group>
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}
