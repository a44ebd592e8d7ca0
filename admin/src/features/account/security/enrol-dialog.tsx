import { useEffect, useRef, useState } from "react";
import { Code, Group, Loader, Modal, Text, TextInput } from "@mantine/core";
import { useCustomMutation, type HttpError } from "@refinedev/core";
import { FailureAlert } from "../../../ui/failure-alert";
import { DialogForm } from "../../../ui/form-dialog";
import { t } from "../../../i18n";
import { QrCode } from "./qr-code";
import { RecoveryCodes } from "./recovery-codes";
import { TWO_FACTOR_URL } from "./use-two-factor";

interface Enrolment {
  secret: string;
  otpauthUrl: string;
}

/** The secret in groups of four, easier to type into an app. */
const grouped = (secret: string) => secret.replace(/(.{4})/g, "$1 ").trim();

/**
 * Turning two-factor sign-in on: a new secret as a QR code and as text, then the app's code; on a
 * right code, the recovery codes this once. Mounted only while open: each opening starts a new secret.
 */
export function EnrolDialog({ onClose }: { onClose: () => void }) {
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [code, setCode] = useState("");
  const [error, setError] = useState<HttpError | null>(null);
  const { mutateAsync: start } = useCustomMutation<Enrolment>();
  const { mutateAsync: confirm, mutation: confirming } = useCustomMutation<{ recoveryCodes: string[] }>();

  // Once per opening: a second start (React's development double effect) would replace the secret shown.
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    start({ url: TWO_FACTOR_URL, method: "post", values: {}, successNotification: false, errorNotification: false })
      .then(({ data }) => setEnrolment(data))
      .catch(setError);
  }, [start]);

  const submit = () => {
    setError(null);
    confirm({
      url: `${TWO_FACTOR_URL}/confirm`,
      method: "post",
      values: { code: code.replace(/\s+/g, "") },
      successNotification: false,
      errorNotification: false,
    }).then(({ data }) => setCodes(data.recoveryCodes), setError);
  };

  return (
    <Modal
      opened
      onClose={onClose}
      title={codes ? t("security.yourRecoveryCodes") : t("security.turnOnTitle")}
      centered
      size="lg"
      closeOnClickOutside={false}
    >
      {codes ? (
        <RecoveryCodes codes={codes} onDone={onClose} />
      ) : !enrolment ? (
        error ? (
          <FailureAlert message={error.message} mt={0} />
        ) : (
          <Loader size="sm" aria-label={t("security.loading")} />
        )
      ) : (
        <DialogForm
          onCancel={onClose}
          onSubmit={submit}
          loading={confirming.isPending}
          saveDisabled={code.trim() === ""}
          submitLabel={t("security.turnOn")}
          error={error && !error.errors?.code ? error.message : null}
        >
          <Text size="sm">{t("security.scanStep")}</Text>
          <Group position="center">
            <QrCode text={enrolment.otpauthUrl} label={t("security.qrLabel")} />
          </Group>
          <Text size="sm">{t("security.orTypeSecret")}</Text>
          <Code
            block
            aria-label={t("security.secret")}
            sx={{ fontSize: 15, whiteSpace: "pre-wrap", wordBreak: "break-word" }}
          >
            {grouped(enrolment.secret)}
          </Code>
          <TextInput
            label={t("security.codeFromApp")}
            description={t("security.codeStep")}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={10}
            required
            value={code}
            onChange={(event) => setCode(event.currentTarget.value)}
            error={error?.errors?.code ? t("security.wrongCode") : undefined}
          />
        </DialogForm>
      )}
    </Modal>
  );
}
