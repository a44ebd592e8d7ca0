import type { HttpError } from "@refinedev/core";
import { useModalForm } from "@refinedev/mantine";
import { nameError, toClientPayload } from "./client-rules";
import { useFailure } from "../../lib/failure";
import type { Client, ClientFormValues, ClientPayload } from "./types";

/**
 * The add or edit client dialog's form. A client's name shows up in projects, the navigation
 * and the dashboard's totals, so a change refreshes every cached query, not just the clients.
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
      invalidates: ["all"],
      successNotification: { type: "success", message: action === "create" ? "Client added" : "Client saved" },
      errorNotification: false,
      onMutationError: failure.show,
    },
  });

  /** Opens the edit dialog filled with the record on screen. */
  const showFor = (client: Pick<Client, "id" | "name">) => {
    const values = { name: client.name };
    failure.clear();
    form.modal.show(client.id);
    form.setValues(values);
    form.resetDirty(values);
  };

  const showNew = () => {
    failure.clear();
    form.modal.show();
  };

  return { ...form, showFor, showNew, failure };
}

export type ClientModalForm = ReturnType<typeof useClientModalForm>;
