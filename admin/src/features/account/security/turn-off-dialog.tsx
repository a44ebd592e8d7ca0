import { useState } from "react";
import { Button, Group, Modal, Stack, Text } from "@mantine/core";
import { useCustomMutation, type HttpError } from "@refinedev/core";
import { FailureAlert } from "../../../ui/failure-alert";
import { t } from "../../../i18n";
import { emptyProof, ProofFields, proofBody, proofError, type Proof } from "./proof-fields";
import { TWO_FACTOR_URL } from "./use-two-factor";

/** Turning two-factor sign-in off: asks for a current code or the password first. */
export function TurnOffDialog({ onClose, onDone }: { onClose: () => void; onDone: () => void }) {
  const [proof, setProof] = useState<Proof>(emptyProof(true));
  const [error, setError] = useState<HttpError | null>(null);
  const { mutateAsync: remove, mutation } = useCustomMutation();
  const fieldError = proofError(error, proof);

  const submit = () => {
    setError(null);
    remove({
      url: TWO_FACTOR_URL,
      method: "delete",
      values: proofBody(proof),
      successNotification: false,
      errorNotification: false,
    }).then(onDone, setError);
  };

  return (
    <Modal opened onClose={onClose} title={t("security.turnOffTitle")} centered>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Stack spacing="sm">
          <Text size="sm">{t("security.turnOffExplain")}</Text>
          <ProofFields proof={proof} onChange={setProof} twoFactorOn error={fieldError} />
        </Stack>
        {error && !fieldError && <FailureAlert message={error.message} />}
        <Group position="right" mt="lg">
          <Button variant="default" onClick={onClose}>
            {t("security.cancel")}
          </Button>
          <Button type="submit" color="red" loading={mutation.isPending} disabled={proof.value.trim() === ""}>
            {t("security.turnOff")}
          </Button>
        </Group>
      </form>
    </Modal>
  );
}
