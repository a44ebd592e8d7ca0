import { useState } from "react";
import { Button, Card, Center, Group, Stack, Tabs, Text, Title } from "@mantine/core";
import { IconPlus, IconUser } from "@tabler/icons-react";
import { ContactDetails } from "./contact-details";
import { ContactFormModal } from "./contact-form-modal";
import { DeleteContactModal } from "./delete-contact-modal";
import type { Contact } from "./types";
import { useContactModalForm } from "./use-contact-modal-form";
import { t } from "../../i18n";

/**
 * The client page's contacts (GET /api/clients/{id} embeds them): one tab per contact, the first
 * selected until another is chosen.
 */
export function ContactsPanel({ clientId, contacts }: { clientId: number; contacts: Contact[] }) {
  const [selectedTab, setSelectedTab] = useState<string | null>(null);
  const [contactToDelete, setContactToDelete] = useState<Contact | null>(null);

  const createForm = useContactModalForm({
    clientId,
    action: "create",
    onSaved: (contact) => setSelectedTab(String(contact.id)),
  });
  const editForm = useContactModalForm({ clientId, action: "edit" });

  // The chosen tab while it exists; otherwise (first load, after a delete) the first contact.
  const activeTab = contacts.some((c) => String(c.id) === selectedTab)
    ? selectedTab
    : contacts[0]
      ? String(contacts[0].id)
      : null;

  return (
    <Card withBorder shadow="xs" p="lg" radius="md">
      <Group position="apart" mb="md">
        <Title order={2} size="h3">
          {t("contacts.contacts", { length: contacts.length })}
        </Title>
        <Button leftIcon={<IconPlus size={16} />} onClick={createForm.showNew}>
          {t("contacts.addContact")}
        </Button>
      </Group>
      {contacts.length === 0 ? (
        <Center py="lg">
          <Stack align="center" spacing="sm">
            <Text color="dimmed" align="center">
              {t("contacts.noContactsFoundForThisClient")}
            </Text>
            <Button variant="light" leftIcon={<IconPlus size={16} />} onClick={createForm.showNew}>
              {t("contacts.addFirstContact")}
            </Button>
          </Stack>
        </Center>
      ) : (
        <Tabs value={activeTab} onTabChange={setSelectedTab}>
          <Tabs.List>
            {contacts.map((contact) => (
              <Tabs.Tab key={contact.id} value={String(contact.id)} icon={<IconUser size={14} />}>
                {contact.name}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {contacts.map((contact) => (
            <Tabs.Panel key={contact.id} value={String(contact.id)} pt="md">
              <ContactDetails contact={contact} onEdit={editForm.showFor} onDelete={setContactToDelete} />
            </Tabs.Panel>
          ))}
        </Tabs>
      )}
      <ContactFormModal form={createForm} title={t("contacts.addContact")} />
      <ContactFormModal form={editForm} title={t("contacts.editContact")} />
      <DeleteContactModal contact={contactToDelete} onClose={() => setContactToDelete(null)} />
    </Card>
  );
}
