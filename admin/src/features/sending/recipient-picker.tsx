import { useState } from "react";
import { Button, Checkbox, Group, Stack, Text, TextInput } from "@mantine/core";
import type { SendingDraft } from "../../../../api/types";
import { addressError } from "./recipient-rules";
import { t } from "../../i18n";

interface Props {
  contacts: SendingDraft["contacts"];
  contactIds: number[];
  emails: string[];
  onContacts: (ids: number[]) => void;
  onEmails: (emails: string[]) => void;
  error?: string;
}

const noteOf = (contact: SendingDraft["contacts"][number]) =>
  contact.unsubscribed ? t("sending.unsubscribedNote") : !contact.valid ? t("sending.invalidAddressNote") : undefined;

/** The client's contacts with an address (ticked unless they cannot be mailed), and addresses typed here. */
export function RecipientPicker({ contacts, contactIds, emails, onContacts, onEmails, error }: Props) {
  const [typed, setTyped] = useState("");
  const [typedError, setTypedError] = useState<string | null>(null);
  const listed = [...contacts.filter((c) => contactIds.includes(c.id)).map((c) => c.email), ...emails];

  const add = () => {
    const problem = addressError(typed, listed);
    setTypedError(problem);
    if (problem) return;
    onEmails([...emails, typed.trim()]);
    setTyped("");
  };

  return (
    <Stack spacing={6} role="group" aria-label={t("sending.recipients")}>
      <Text size="sm" weight={500}>
        {t("sending.recipients")}
      </Text>
      {contacts.length === 0 && (
        <Text size="sm" color="dimmed">
          {t("sending.noContactWithAddress")}
        </Text>
      )}
      {contacts.map((contact) => {
        const note = noteOf(contact);
        return (
          <Checkbox
            key={contact.id}
            label={`${contact.name} <${contact.email}>`}
            description={note}
            disabled={Boolean(note)}
            checked={!note && contactIds.includes(contact.id)}
            onChange={(event) =>
              onContacts(
                event.currentTarget.checked
                  ? [...contactIds, contact.id]
                  : contactIds.filter((id) => id !== contact.id),
              )
            }
          />
        );
      })}
      {emails.map((email) => (
        <Checkbox
          key={email}
          label={email}
          checked
          onChange={() => onEmails(emails.filter((other) => other !== email))}
        />
      ))}
      <Group spacing="xs" align="flex-start" noWrap>
        <TextInput
          label={t("sending.addAnAddress")}
          placeholder={t("sending.nameExampleCom")}
          type="email"
          sx={{ flex: 1 }}
          value={typed}
          error={typedError}
          onChange={(event) => setTyped(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key !== "Enter") return;
            event.preventDefault();
            add();
          }}
        />
        <Button variant="default" mt={25} onClick={add}>
          {t("sending.add")}
        </Button>
      </Group>
      {error && (
        <Text size="sm" color="red">
          {error}
        </Text>
      )}
    </Stack>
  );
}
