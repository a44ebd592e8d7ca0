import { useState, type ReactNode } from "react";
import { Button, Group, Modal, type ButtonProps } from "@mantine/core";
import { useDelete, type BaseKey } from "@refinedev/core";
import { useFailureFor } from "../lib/failure";
import { FailureAlert } from "./failure-alert";
import { t } from "../i18n";

type ConfirmButtonProps = {
  label: string;
  title: string;
  confirmLabel: string;
  pending: boolean;
  onConfirm: () => unknown;
  children: ReactNode;
} & Pick<ButtonProps, "variant" | "color" | "leftIcon">;

/**
 * A button whose action runs only once a dialog saying what it does is confirmed. An action that
 * answers a promise keeps the dialog open until it is done, and shows its refusal there.
 */
export function ConfirmButton({
  label,
  title,
  confirmLabel,
  pending,
  onConfirm,
  children,
  ...button
}: ConfirmButtonProps) {
  const [open, setOpen] = useState(false);
  const failure = useFailureFor(open);
  return (
    <>
      <Button {...button} loading={pending} onClick={() => setOpen(true)}>
        {label}
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={title} centered>
        {children}
        {failure.message && <FailureAlert message={failure.message} mt={0} />}
        <Group position="right" spacing="xs">
          <Button variant="default" onClick={() => setOpen(false)}>
            {t("ui.cancel")}
          </Button>
          <Button
            color={button.color}
            loading={pending}
            onClick={() => {
              failure.clear();
              Promise.resolve(onConfirm()).then(() => setOpen(false), failure.show);
            }}
          >
            {confirmLabel}
          </Button>
        </Group>
      </Modal>
    </>
  );
}

/** A red subtle button that deletes one record of `resource` once confirmed; no notification (the list shows it). */
export function ConfirmDeleteButton({
  resource,
  id,
  ...confirm
}: { resource: string; id: BaseKey } & Pick<ConfirmButtonProps, "label" | "title" | "confirmLabel" | "children">) {
  const { mutateAsync: remove, mutation } = useDelete();
  return (
    <ConfirmButton
      {...confirm}
      color="red"
      variant="subtle"
      pending={mutation.isPending}
      onConfirm={() => remove({ resource, id, successNotification: false, errorNotification: false })}
    />
  );
}
