import { useState } from "react";
import { Alert, Button, Checkbox, Group, PasswordInput, Stack, Text, TextInput, Textarea } from "@mantine/core";
import type { HttpError } from "@refinedev/core";
import { IconSend } from "@tabler/icons-react";
import type { SendRequest, SendingDraft } from "../../../../api/types";
import { RecipientPicker } from "./recipient-picker";
import { recipientCount, subjectError } from "./recipient-rules";
import { t } from "../../i18n";

interface Props {
  draft: SendingDraft;
  sending: boolean;
  error: HttpError | null;
  onSend: (request: SendRequest) => void;
  onCancel: () => void;
}

const mailable = (draft: SendingDraft) => draft.contacts.filter((c) => c.valid && !c.unsubscribed).map((c) => c.id);

/** The dialog's form: recipients, subject, message and, when the link has one, the passcode typed again. */
export function SendForm({ draft, sending, error, onSend, onCancel }: Props) {
  const [contactIds, setContactIds] = useState(() => mailable(draft));
  const [emails, setEmails] = useState<string[]>([]);
  const [subject, setSubject] = useState(draft.subject);
  const [message, setMessage] = useState(draft.message);
  const [withPasscode, setWithPasscode] = useState(false);
  const [passcode, setPasscode] = useState("");
  const count = recipientCount(contactIds, emails);
  const fieldError = (field: string) => error?.errors?.[field] as string | undefined;
  // The server names a typed address by its place in the list (`emails.0`).
  const recipientsError =
    fieldError("contactIds") ??
    Object.keys(error?.errors ?? {})
      .filter((field) => field.startsWith("emails"))
      .map(fieldError)[0];
  const subjectProblem = subjectError(subject);
  const ready =
    !draft.problem && count > 0 && subject.trim() !== "" && !subjectProblem && (!withPasscode || passcode !== "");

  return (
    <form
      aria-label={t("sending.sendToClient")}
      onSubmit={(event) => {
        event.preventDefault();
        if (!ready) return;
        onSend({ contactIds, emails, subject, message, ...(withPasscode ? { passcode } : {}) });
      }}
    >
      <Stack spacing="sm">
        {draft.problem && (
          <Alert color="red" title={t("sending.thisProjectCannotBeSentNow")}>
            {draft.problem}
          </Alert>
        )}
        <RecipientPicker
          contacts={draft.contacts}
          contactIds={contactIds}
          emails={emails}
          onContacts={setContactIds}
          onEmails={setEmails}
          error={recipientsError}
        />
        <TextInput
          label={t("sending.subject")}
          value={subject}
          maxLength={200}
          error={subjectProblem ?? fieldError("subject")}
          onChange={(event) => setSubject(event.currentTarget.value)}
        />
        <Textarea
          label={t("sending.message")}
          autosize
          minRows={5}
          maxRows={12}
          maxLength={5000}
          value={message}
          error={fieldError("message")}
          onChange={(event) => setMessage(event.currentTarget.value)}
        />
        {draft.hasPasscode && (
          <>
            <Checkbox
              label={t("sending.includeThePasscode")}
              checked={withPasscode}
              onChange={(event) => setWithPasscode(event.currentTarget.checked)}
            />
            {withPasscode && (
              <PasswordInput
                label={t("sending.passcode")}
                description={t("sending.typeTheLinkSPasscodeAgain")}
                autoComplete="off"
                value={passcode}
                error={fieldError("passcode")}
                onChange={(event) => setPasscode(event.currentTarget.value)}
              />
            )}
          </>
        )}
        <Text size="xs" color="dimmed">
          {t("sending.eachRecipientGetsAMailOf")}
        </Text>
        {error && !error.errors && (
          <Text size="sm" color="red" role="alert">
            {error.message}
          </Text>
        )}
        <Group position="right" spacing="xs">
          <Button variant="default" onClick={onCancel}>
            {t("sending.cancel")}
          </Button>
          <Button type="submit" leftIcon={<IconSend size={16} />} loading={sending} disabled={!ready}>
            {t("sending.sendTo", { count })}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
