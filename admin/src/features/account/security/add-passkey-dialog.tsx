import { useState } from "react";
import { Text } from "@mantine/core";
import { useCreate, useCustomMutation, type HttpError } from "@refinedev/core";
import { startRegistration, type PublicKeyCredentialCreationOptionsJSON } from "@simplewebauthn/browser";
import { FormDialog } from "../../../ui/form-dialog";
import { t } from "../../../i18n";
import { emptyProof, ProofFields, proofBody, proofError, type Proof } from "./proof-fields";
import { PASSKEYS, PasskeyNameInput } from "./passkey-rows";

/** What the browser says when the person closed its dialog or it timed out. */
const cancelledInBrowser = (error: unknown) =>
  error instanceof Error && (error.name === "NotAllowedError" || error.name === "AbortError");

/**
 * Adding a passkey: its name and the password or a current code (a passkey signs in alone, so the
 * server asks again who is there), then the browser's own dialog. Mounted only while open.
 */
export function AddPasskeyDialog({ twoFactorOn, onClose }: { twoFactorOn: boolean; onClose: () => void }) {
  const [name, setName] = useState("");
  const [proof, setProof] = useState<Proof>(emptyProof(twoFactorOn));
  const [error, setError] = useState<HttpError | null>(null);
  const [browserRefused, setBrowserRefused] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const { mutateAsync: askOptions } = useCustomMutation<PublicKeyCredentialCreationOptionsJSON>();
  const { mutateAsync: create } = useCreate();
  const fieldError = proofError(error, proof);

  const submit = async () => {
    setError(null);
    setBrowserRefused(null);
    setBusy(true);
    try {
      const { data: optionsJSON } = await askOptions({
        url: `/${PASSKEYS}/registration-options`,
        method: "post",
        values: proofBody(proof),
        successNotification: false,
        errorNotification: false,
      });
      let response;
      try {
        response = await startRegistration({ optionsJSON });
      } catch (refused) {
        setBrowserRefused(cancelledInBrowser(refused) ? t("security.passkeyCancelled") : (refused as Error).message);
        return;
      }
      await create({
        resource: PASSKEYS,
        values: { name: name.trim(), response },
        successNotification: false,
        errorNotification: false,
      });
      onClose();
    } catch (failed) {
      setError(failed as HttpError);
    } finally {
      setBusy(false);
    }
  };

  return (
    <FormDialog
      opened
      title={t("security.addPasskeyTitle")}
      onClose={onClose}
      onSubmit={() => void submit()}
      loading={busy}
      saveDisabled={name.trim() === "" || proof.value.trim() === ""}
      submitLabel={t("security.continue")}
      // Each attempt clears both, and fails in at most one way.
      error={browserRefused ?? (error && !fieldError && !error.errors?.name ? error.message : null)}
    >
      <PasskeyNameInput value={name} onChange={setName} error={error} description={t("security.passkeyNameHint")} />
      <Text size="sm">{t("security.addPasskeyProof")}</Text>
      <ProofFields proof={proof} onChange={setProof} twoFactorOn={twoFactorOn} error={fieldError} />
    </FormDialog>
  );
}
