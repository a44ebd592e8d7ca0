import { useState } from "react";
import { Select, Textarea, TextInput } from "@mantine/core";
import { ModalFormDialog } from "../../ui/form-dialog";
import { useFailure } from "../../lib/failure";
import { useVersionedModalEdit } from "../../lib/versioned-update";
import type { CrudFilter, HttpError } from "@refinedev/core";
import { useModalForm, useSelect } from "@refinedev/mantine";
import type { PhotoOrder, Project } from "./types";
import { nameError } from "./project-rules";
import { t } from "../../i18n";

interface ProjectFormValues {
  name: string;
  description: string;
  /** Select values are strings in Mantine 5; null is "No client". */
  clientId: string | null;
  photoOrder: PhotoOrder;
}

interface ProjectPayload {
  name: string;
  description?: string | null;
  clientId: number | null;
  photoOrder: PhotoOrder;
}

const toPayload = (values: ProjectFormValues, action: "create" | "edit"): ProjectPayload => {
  const description = values.description?.trim();
  const payload: ProjectPayload = {
    name: values.name.trim(),
    clientId: values.clientId ? Number(values.clientId) : null,
    photoOrder: values.photoOrder,
  };
  // A blank description is left out of a new project, and clears the one an edited project had.
  if (description) payload.description = description;
  else if (action === "edit") payload.description = null;
  return payload;
};

/** The API answers numbers and null; the form keeps what the inputs show. */
const toValues = (project: Project): ProjectFormValues => ({
  name: project.name,
  description: project.description ?? "",
  clientId: project.clientId == null ? null : String(project.clientId),
  photoOrder: project.photoOrder ?? "captured",
});

const labels = () => ({
  name: t("projects.name"),
  description: t("projects.description"),
  clientId: t("projects.client"),
  photoOrder: t("projects.photoOrder"),
});

/** Capture time falls back to the file name for photos without one (the API's default order). */
const photoOrders = (): Array<{ value: PhotoOrder; label: string }> => [
  { value: "captured", label: t("projects.captureTime") },
  { value: "name", label: t("projects.fileName") },
  { value: "uploaded", label: t("projects.uploadOrder") },
];

export interface ProjectFormModal {
  showCreate: () => void;
  showEdit: (project: Project) => void;
  modals: JSX.Element;
}

function useProjectForm(action: "create" | "edit", defaultClientId?: number) {
  const failure = useFailure(["name", "description", "clientId", "photoOrder"]);
  const form = useModalForm<Project, HttpError, ProjectFormValues, ProjectPayload>({
    refineCoreProps: {
      resource: "projects",
      action,
      redirect: false,
      // The edit dialog is filled from the project on screen: no second read of it (the record
      // would also carry attachments the dialog never shows).
      queryOptions: { enabled: false },
      // A query of its own: sharing the page's (same resource and id) would refill the form, over
      // what the user typed, each time the page refetches (useVersionedEdit follows it instead).
      queryMeta: { editDialog: true },
      invalidates: ["list", "many", "detail"],
      successNotification: {
        type: "success",
        message: action === "create" ? t("projects.created2") : t("projects.saved"),
      },
      errorNotification: false,
      onMutationError: failure.show,
    },
    initialValues: {
      name: "",
      description: "",
      clientId: defaultClientId ? String(defaultClientId) : null,
      photoOrder: "captured",
    },
    validate: { name: nameError },
    transformValues: (values) => toPayload(values, action),
  });
  // An edit sends only what changed, from the version it was filled with, and follows live changes.
  const versioned = useVersionedModalEdit(form, action, {
    resource: "projects",
    toValues,
    toPayload: (values: ProjectFormValues) => toPayload(values, "edit"),
    labels: labels(),
    successMessage: t("projects.saved"),
    invalidates: ["list", "many", "detail"],
  });
  return { ...form, failure, ...(action === "edit" ? { versioned } : {}), start: versioned.start };
}

const CLIENTS_OFFERED = 20;

/** Searched on the server ('q', by name) as the user types, so any of thousands of clients can be found. */
const searchByName = (value: string): CrudFilter[] =>
  value.trim() ? [{ field: "q", operator: "eq", value: value.trim() }] : [];

function ProjectFormFields({ form, title }: { form: ReturnType<typeof useProjectForm>; title: string }) {
  // The client the project already has is fetched by id, so it shows even when not among those offered.
  const [initialClientId] = useState(() => form.values.clientId || undefined);
  const { selectProps } = useSelect<{ id: number; name: string }>({
    resource: "clients",
    optionLabel: "name",
    optionValue: (client) => String(client.id),
    sorters: [{ field: "name", order: "asc" }],
    pagination: { currentPage: 1, pageSize: CLIENTS_OFFERED, mode: "server" },
    onSearch: searchByName,
    defaultValue: initialClientId,
  });
  const { getInputProps } = form;
  return (
    <ModalFormDialog form={form} title={title}>
      <TextInput label={t("projects.name")} withAsterisk data-autofocus {...getInputProps("name")} />
      <Textarea label={t("projects.description")} autosize minRows={2} {...getInputProps("description")} />
      <Select
        label={t("projects.client")}
        placeholder={t("projects.noClient")}
        nothingFound={t("projects.noClients")}
        {...selectProps}
        // Choosable as well as the placeholder: '' is sent as no client.
        data={[{ value: "", label: t("projects.noClient") }, ...selectProps.data]}
        searchable
        clearable
        {...getInputProps("clientId")}
      />
      <Select
        label={t("projects.photoOrder")}
        description={t("projects.theOrderOfThePhotosHere")}
        data={photoOrders()}
        {...getInputProps("photoOrder")}
      />
    </ModalFormDialog>
  );
}

/** Create and edit dialogs for a project; a given client is preselected for new projects. */
export function useProjectFormModal(defaultClientId?: number): ProjectFormModal {
  const create = useProjectForm("create", defaultClientId);
  const edit = useProjectForm("edit");
  return {
    showCreate: () => {
      create.failure.clear();
      create.modal.show();
    },
    showEdit: (project) => {
      edit.failure.clear();
      edit.modal.show(project.id);
      edit.start(project);
    },
    modals: (
      <>
        {create.modal.visible && <ProjectFormFields form={create} title={t("projects.createProject")} />}
        {edit.modal.visible && <ProjectFormFields form={edit} title={t("projects.editProject")} />}
      </>
    ),
  };
}
