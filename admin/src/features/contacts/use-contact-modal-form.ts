import type { HttpError } from "@refinedev/core";
import { useModalForm } from "@refinedev/mantine";
import { emailError, nameError, toContactPayload } from "./contact-rules";
import type { Contact, ContactFormValues, ContactPayload } from "./types";

interface ContactModalFormOptions {
  clientId: number;
  action: "create" | "edit";
  onSaved?: (contact: Contact) => void;
}

/** The add or edit contact dialog's form, with the spec's rules and messages. */
export function useContactModalForm({ clientId, action, onSaved }: ContactModalFormOptions) {
  const form = useModalForm<Contact, HttpError, ContactFormValues, ContactPayload>({
    initialValues: { name: "", email: "", phoneNumber: "" },
    validate: { name: nameError, email: emailError },
    transformValues: (values) => toContactPayload(values, action === "create" ? clientId : undefined),
    refineCoreProps: {
      resource: "contacts",
      action,
      redirect: false,
      // The dialog is filled from the record already on screen; no second read of it.
      queryOptions: { enabled: false },
      successNotification: false,
      errorNotification: false,
      // The client's page and its contact count follow through the live provider (the server
      // announces the contact and its client).
      onMutationSuccess: ({ data }) => onSaved?.(data),
      onMutationError: (error) =>
        console.error(`Failed to ${action === "create" ? "add" : "update"} the contact:`, error.message),
    },
  });

  /** Opens the edit dialog filled with the contact on screen. */
  const showFor = (contact: Contact) => {
    const values = { name: contact.name, email: contact.email ?? "", phoneNumber: contact.phoneNumber ?? "" };
    form.modal.show(contact.id);
    form.setValues(values);
    form.resetDirty(values);
  };

  return { ...form, showFor };
}

export type ContactModalForm = ReturnType<typeof useContactModalForm>;
