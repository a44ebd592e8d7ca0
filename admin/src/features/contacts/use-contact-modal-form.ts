import type { HttpError } from "@refinedev/core";
import { useModalForm } from "@refinedev/mantine";
import { emailError, nameError, phoneError, toContactPayload } from "./contact-rules";
import { useFailure } from "../../lib/failure";
import type { Contact, ContactFormValues, ContactPayload } from "./types";

interface ContactModalFormOptions {
  clientId: number;
  action: "create" | "edit";
  onSaved?: (contact: Contact) => void;
}

/** The add or edit contact dialog's form, with the spec's rules and messages. */
export function useContactModalForm({ clientId, action, onSaved }: ContactModalFormOptions) {
  const failure = useFailure(["name", "email", "phoneNumber"]);
  const form = useModalForm<Contact, HttpError, ContactFormValues, ContactPayload>({
    initialValues: { name: "", email: "", phoneNumber: "" },
    validate: { name: nameError, email: emailError, phoneNumber: phoneError },
    transformValues: (values) => toContactPayload(values, action === "create" ? clientId : undefined),
    refineCoreProps: {
      resource: "contacts",
      action,
      redirect: false,
      // The dialog is filled from the record already on screen; no second read of it.
      queryOptions: { enabled: false },
      successNotification: { type: "success", message: action === "create" ? "Contact added" : "Contact saved" },
      errorNotification: false,
      // The client's page and its contact count follow through the live provider (the server
      // announces the contact and its client).
      onMutationSuccess: ({ data }) => onSaved?.(data),
      onMutationError: failure.show,
    },
  });

  /** Opens the edit dialog filled with the contact on screen. */
  const showFor = (contact: Contact) => {
    const values = { name: contact.name, email: contact.email ?? "", phoneNumber: contact.phoneNumber ?? "" };
    failure.clear();
    form.modal.show(contact.id);
    form.setValues(values);
    form.resetDirty(values);
  };

  const showNew = () => {
    failure.clear();
    form.modal.show();
  };

  return { ...form, showFor, showNew, failure };
}

export type ContactModalForm = ReturnType<typeof useContactModalForm>;
