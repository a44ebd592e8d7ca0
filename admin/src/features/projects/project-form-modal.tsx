import { Select, Textarea, TextInput } from "@mantine/core";
import { FormDialog } from "../../ui/form-dialog";
import type { HttpError } from "@refinedev/core";
import { useModalForm, useSelect } from "@refinedev/mantine";
import type { Project } from "./types";

interface ProjectFormValues {
  name: string;
  description: string;
  /** Select values are strings in Mantine 5; null is "No client". */
  clientId: string | null;
}

interface ProjectPayload {
  name: string;
  description?: string | null;
  clientId: number | null;
}

const toPayload = (values: ProjectFormValues, action: "create" | "edit"): ProjectPayload => {
  const description = values.description?.trim();
  const payload: ProjectPayload = {
    name: values.name.trim(),
    clientId: values.clientId ? Number(values.clientId) : null,
  };
  // A blank description is left out of a new project, and clears the one an edited project had.
  if (description) payload.description = description;
  else if (action === "edit") payload.description = null;
  return payload;
};

const NO_CLIENT = { value: "", label: "No client" };

export interface ProjectFormModal {
  showCreate: () => void;
  showEdit: (project: Project) => void;
  modals: JSX.Element;
}

function useProjectForm(action: "create" | "edit", defaultClientId?: number) {
  return useModalForm<Project, HttpError, ProjectFormValues, ProjectPayload>({
    refineCoreProps: {
      resource: "projects",
      action,
      redirect: false,
      // The edit dialog is filled from the project on screen: no second read of it (the record
      // would also carry attachments the dialog never shows).
      queryOptions: { enabled: false },
      invalidates: ["list", "many", "detail"],
      successNotification: false,
      errorNotification: (error) => {
        console.error("Failed to save the project:", error?.message);
        return false;
      },
    },
    initialValues: { name: "", description: "", clientId: defaultClientId ? String(defaultClientId) : null },
    validate: { name: (value) => (value?.trim() ? null : "Name is required") },
    transformValues: (values) => toPayload(values, action),
  });
}

function ProjectFormFields({ form, title }: { form: ReturnType<typeof useProjectForm>; title: string }) {
  const { selectProps } = useSelect<{ id: number; name: string }>({
    resource: "clients",
    optionLabel: "name",
    optionValue: (client) => String(client.id),
    sorters: [{ field: "name", order: "asc" }],
    pagination: { mode: "off" },
  });
  const { modal, getInputProps, saveButtonProps, refineCore } = form;
  return (
    <FormDialog
      title={title}
      opened={modal.visible}
      onClose={modal.close}
      onSubmit={form.onSubmit(modal.submit)}
      loading={refineCore.formLoading}
      saveDisabled={saveButtonProps.disabled}
    >
      <TextInput label="Name" withAsterisk data-autofocus {...getInputProps("name")} />
      <Textarea label="Description" autosize minRows={2} {...getInputProps("description")} />
      <Select
        label="Client"
        placeholder="No client"
        nothingFound="No clients"
        {...selectProps}
        // Choosable as well as the placeholder: '' is sent as no client.
        data={[NO_CLIENT, ...selectProps.data]}
        searchable
        clearable
        {...getInputProps("clientId")}
      />
    </FormDialog>
  );
}

/** Create and edit dialogs for a project; a given client is preselected for new projects. */
export function useProjectFormModal(defaultClientId?: number): ProjectFormModal {
  const create = useProjectForm("create", defaultClientId);
  const edit = useProjectForm("edit");
  return {
    showCreate: () => create.modal.show(),
    showEdit: (project) => {
      // The API answers numbers and null; the form keeps what the inputs show.
      const values = {
        name: project.name,
        description: project.description ?? "",
        clientId: project.clientId == null ? null : String(project.clientId),
      };
      edit.modal.show(project.id);
      edit.setValues(values);
      edit.resetDirty(values);
    },
    modals: (
      <>
        {create.modal.visible && <ProjectFormFields form={create} title="Create Project" />}
        {edit.modal.visible && <ProjectFormFields form={edit} title="Edit Project" />}
      </>
    ),
  };
}
