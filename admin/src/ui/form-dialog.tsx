import { useEffect, useRef, useState, type FormEvent, type ReactNode } from "react";
import { Button, Group, Modal, Stack } from "@mantine/core";
import { useWarnAboutChange, type HttpError } from "@refinedev/core";
import { FailureAlert } from "./failure-alert";
import { ConflictAlert } from "./conflict-alert";
import { t } from "../i18n";

interface FormDialogProps {
  title: string;
  opened: boolean;
  onClose: () => void;
  /** Called with the form's submit event, its default (a page load) already prevented. */
  onSubmit: (event?: FormEvent<HTMLFormElement>) => void;
  loading: boolean;
  saveDisabled?: boolean;
  /** The submit button's words, when not Save (e.g. 'Add passkey'). */
  submitLabel?: string;
  /** Red for a submit that takes something away (e.g. 'Turn off'). */
  submitColor?: "red";
  /** Why the last save failed (the server's message); the dialog stays open to try again. */
  error?: string | null;
  /** Shown under the fields: someone else saved the record meanwhile (`ConflictAlert`). */
  notice?: ReactNode;
  children: ReactNode;
}

/** The shell every add / edit dialog shares: its fields, then Cancel and Save. */
export function FormDialog({ title, opened, onClose, ...form }: FormDialogProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      <DialogForm onCancel={onClose} {...form} />
    </Modal>
  );
}

/**
 * `FormDialog`'s form without its Modal: for a dialog that shows something else once the form is done
 * (a secret shown once), or a Modal of its own size.
 */
export function DialogForm({
  onCancel,
  onSubmit,
  loading,
  saveDisabled,
  submitLabel,
  submitColor,
  error,
  notice,
  children,
}: Omit<FormDialogProps, "title" | "opened" | "onClose"> & { onCancel: () => void }) {
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit(event);
      }}
      noValidate
    >
      <Stack spacing="sm">{children}</Stack>
      {notice}
      {error && <FailureAlert message={error} />}
      <Group position="right" mt="lg">
        <Button variant="default" onClick={onCancel}>
          {t("ui.cancel")}
        </Button>
        <Button type="submit" color={submitColor} loading={loading} disabled={saveDisabled}>
          {submitLabel ?? t("ui.save")}
        </Button>
      </Group>
    </form>
  );
}

/** What `ModalFormDialog` needs of a Refine modal form whose hook keeps its failure (`useFailure`). */
export interface FailingModalForm<V> {
  onSubmit: (handle: (values: V) => Promise<void>) => (event?: FormEvent<HTMLFormElement>) => void;
  modal: { visible: boolean; close: () => void; submit: (values: V) => unknown };
  refineCore: { formLoading: boolean };
  saveButtonProps?: { disabled?: boolean };
  failure: { message: string | null; clear: () => void; show: (error: Partial<HttpError>) => void };
  setFieldError?: (field: string, message: string) => void;
  /** An edit form's own saving (`useVersionedEdit`): changed fields only, with conflicts shown in the dialog. */
  versioned?: {
    save: () => Promise<{ status: "saved" | "unchanged" | "conflict" }>;
    conflict: { message: string } | null;
    discardMine: () => void;
    saving: boolean;
  };
}

/**
 * A modal form's dialog: Save clears the last failure and submits; a failure is shown by the form's
 * hook (in the dialog, or on its fields) and the dialog stays open to try again.
 */
export function ModalFormDialog<V>({
  form,
  title,
  children,
}: {
  form: FailingModalForm<V>;
  title: string;
  children: ReactNode;
}) {
  const { modal, failure, versioned } = form;
  const { setWarnWhen } = useWarnAboutChange();
  // Closed once the changes just sent no longer count as unsaved (else closing asks to confirm).
  const [saved, setSaved] = useState(0);
  const closeRef = useRef(modal.close);
  closeRef.current = modal.close;
  useEffect(() => {
    if (saved) closeRef.current();
  }, [saved]);
  const saveChanges = async (save: NonNullable<typeof versioned>["save"]) => {
    try {
      if ((await save()).status === "conflict") return;
      setWarnWhen(false);
      setSaved((count) => count + 1);
    } catch (error) {
      const failed = error as Partial<HttpError>;
      for (const [field, message] of Object.entries(failed.errors ?? {}))
        if (typeof message === "string") form.setFieldError?.(field, message);
      failure.show(failed);
    }
  };
  const handleSubmit = form.onSubmit(async (values) => {
    failure.clear();
    if (versioned) return saveChanges(versioned.save);
    try {
      await modal.submit(values);
    } catch {
      // Already shown by the form's hook.
    }
  });
  return (
    <FormDialog
      title={title}
      opened={modal.visible}
      onClose={modal.close}
      onSubmit={handleSubmit}
      loading={form.refineCore.formLoading || Boolean(versioned?.saving)}
      saveDisabled={form.saveButtonProps?.disabled}
      error={failure.message}
      notice={
        versioned && (
          <ConflictAlert
            conflict={versioned.conflict}
            busy={versioned.saving}
            onApply={() => {
              failure.clear();
              void saveChanges(versioned.save);
            }}
            onDiscard={versioned.discardMine}
          />
        )
      }
    >
      {children}
    </FormDialog>
  );
}
