import { useState } from "react";
import { Text } from "@mantine/core";
import { useCustomMutation, type HttpError } from "@refinedev/core";
import { FormDialog } from "../../../ui/form-dialog";
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
    <FormDialog
      opened
      title={t("security.turnOffTitle")}
      onClose={onClose}
      onSubmit={submit}
      loading={mutation.isPending}
      saveDisabled={proof.value.trim() === ""}
      submitLabel={t("security.turnOff")}
      submitColor="red"
      error={error && !fieldError ? error.message : null}
    >
      <Text size="sm">{t("security.turnOffExplain")}</Text>
      <ProofFields proof={proof} onChange={setProof} twoFactorOn error={fieldError} />
    </FormDialog>
  );
}
