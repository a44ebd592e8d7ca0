import type { HttpError } from "@refinedev/core";
import { useModalForm } from "@refinedev/mantine";
import { nameError, toClientPayload } from "./client-rules";
import { useFailure } from "../../lib/failure";
import type { RecordVersion } from "../../lib/edit-changes";
import { useVersionedModalEdit } from "../../lib/versioned-update";
import type { Client, ClientFormValues, ClientPayload } from "./types";
import { t } from "../../i18n";

type EditedClient = Pick<Client, "id" | "name"> & RecordVersion;

const toValues = (client: EditedClient): ClientFormValues => ({ name: client.name });

/**
 * The add or edit client dialog's form. A client's name shows up in projects, the navigation
 * and the dashboard's totals, so a change refreshes every cached query, not just the clients.
 * An edit sends only what changed, from the version it was filled with (`useVersionedModalEdit`).
 */
export function useClientModalForm(action: "create" | "edit") {
  const failure = useFailure(["name"]);
  const form = useModalForm<Client, HttpError, ClientFormValues, ClientPayload>({
    initialValues: { name: "" },
    validate: { name: nameError },
    transformValues: toClientPayload,
    refineCoreProps: {
      resource: "clients",
      action,
      redirect: false,
      // The dialog is filled from the record already on screen; no second read of it.
      queryOptions: { enabled: false },
      // A query of its own: sharing the page's (same resource and id) would refill the form, over
      // what the user typed, each time the page refetches (useVersionedEdit follows it instead).
      queryMeta: { editDialog: true },
      invalidates: ["all"],
      successNotification: { type: "success", message: action === "create" ? t("clients.added") : t("clients.saved") },
      errorNotification: false,
      onMutationError: failure.show,
    },
  });
  const versioned = useVersionedModalEdit(form, action, {
    resource: "clients",
    toValues,
    toPayload: toClientPayload,
    labels: { name: t("clients.name") },
    successMessage: t("clients.saved"),
    invalidates: ["all"],
  });

  /** Opens the edit dialog filled with the record on screen. */
  const showFor = (client: EditedClient) => {
    failure.clear();
    form.modal.show(client.id);
    versioned.start(client);
  };

  const showNew = () => {
    failure.clear();
    form.modal.show();
  };

  return { ...form, showFor, showNew, failure, ...(action === "edit" ? { versioned } : {}) };
}

export type ClientModalForm = ReturnType<typeof useClientModalForm>;
