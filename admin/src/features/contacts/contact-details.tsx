import { Anchor, Button, Group, SimpleGrid, Stack, Text } from "@mantine/core";
import { IconEdit, IconTrash } from "@tabler/icons-react";
import { formatDateTime } from "../../lib/format";
import type { Contact } from "./types";
import { Field } from "../../ui/field";
import { t } from "../../i18n";

const notGiven = (
  <Text span color="dimmed">
    {t("contacts.notProvided")}
  </Text>
);

interface ContactDetailsProps {
  contact: Contact;
  onEdit: (contact: Contact) => void;
  onDelete: (contact: Contact) => void;
}

/** One contact's tab: its fields, dates and the Edit / Delete buttons. */
export function ContactDetails({ contact, onEdit, onDelete }: ContactDetailsProps) {
  return (
    <Stack spacing="md">
      <SimpleGrid cols={2} breakpoints={[{ maxWidth: "sm", cols: 1 }]} spacing="md">
        <Field label={t("contacts.name")}>{contact.name}</Field>
        <Field label={t("contacts.email")}>
          {contact.email ? <Anchor href={`mailto:${contact.email}`}>{contact.email}</Anchor> : notGiven}
        </Field>
        <Field label={t("contacts.phone")}>
          {contact.phoneNumber ? <Anchor href={`tel:${contact.phoneNumber}`}>{contact.phoneNumber}</Anchor> : notGiven}
        </Field>
        <Field label={t("contacts.created")}>{formatDateTime(contact.createdAt)}</Field>
        <Field label={t("contacts.updated")}>{formatDateTime(contact.updatedAt)}</Field>
      </SimpleGrid>
      <Group spacing="sm">
        <Button variant="light" leftIcon={<IconEdit size={16} />} onClick={() => onEdit(contact)}>
          {t("contacts.edit")}
        </Button>
        <Button variant="light" color="red" leftIcon={<IconTrash size={16} />} onClick={() => onDelete(contact)}>
          {t("contacts.delete")}
        </Button>
      </Group>
    </Stack>
  );
}
