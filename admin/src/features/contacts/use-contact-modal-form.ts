import type { HttpError } from "@refinedev/core";
import { useModalForm } from "@refinedev/mantine";
import { emailError, nameError, phoneError, toContactPayload } from "./contact-rules";
import { useFailure } from "../../lib/failure";
import { useVersionedModalEdit } from "../../lib/versioned-update";
import type { Contact, ContactFormValues, ContactPayload } from "./types";
import { t } from "../../i18n";

interface ContactModalFormOptions {
  clientId: number;
  action: "create" | "edit";
  onSaved?: (contact: Contact) => void;
}

const toValues = (contact: Contact): ContactFormValues => ({
  name: contact.name,
  email: contact.email ?? "",
  phoneNumber: contact.phoneNumber ?? "",
});

const labels = () => ({ name: t("contacts.name"), email: t("contacts.email"), phoneNumber: t("contacts.phone") });

/**
 * The add or edit contact dialog's form, with the spec's rules and messages. An edit sends only
 * what changed, from the version it was filled with (`useVersionedModalEdit`).
 */
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
      // A query of its own: sharing the page's (same resource and id) would refill the form, over
      // what the user typed, each time the page refetches (useVersionedEdit follows it instead).
      queryMeta: { editDialog: true },
      successNotification: {
        type: "success",
        message: action === "create" ? t("contacts.added") : t("contacts.saved"),
      },
      errorNotification: false,
      // The client's page and its contact count follow through the live provider (the server
      // announces the contact and its client).
      onMutationSuccess: ({ data }) => onSaved?.(data),
      onMutationError: failure.show,
    },
  });
  const versioned = useVersionedModalEdit(form, action, {
    resource: "contacts",
    toValues,
    toPayload: (values: ContactFormValues) => toContactPayload(values),
    labels: labels(),
    successMessage: t("contacts.saved"),
    onSaved,
  });

  /** Opens the edit dialog filled with the contact on screen. */
  const showFor = (contact: Contact) => {
    failure.clear();
    form.modal.show(contact.id);
    versioned.start(contact);
  };

  const showNew = () => {
    failure.clear();
    form.modal.show();
  };

  return { ...form, showFor, showNew, failure, ...(action === "edit" ? { versioned } : {}) };
}

export type ContactModalForm = ReturnType<typeof useContactModalForm>;
