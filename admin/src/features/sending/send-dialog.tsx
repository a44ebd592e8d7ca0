import { useState } from "react";
import { Button, Center, Group, Loader, Modal, Text } from "@mantine/core";
import { useCustom, useCustomMutation, type HttpError } from "@refinedev/core";
import { IconSend } from "@tabler/icons-react";
import type { Project, SendRequest, SendResult, SendingDraft } from "../../../../api/types";
import { SendForm } from "./send-form";
import { SendResultView } from "./send-result";
import { t } from "../../i18n";

const quiet = { successNotification: false as const, errorNotification: false as const };

function SendDialog({ projectId, onClose }: { projectId: number; onClose: () => void }) {
  const url = `/projects/${projectId}/sending`;
  const { result: draft, query } = useCustom<SendingDraft>({
    url,
    method: "get",
    queryOptions: { staleTime: 0, gcTime: 0 },
    errorNotification: false,
  });
  const { mutateAsync: send, mutation } = useCustomMutation<SendResult>();
  const [result, setResult] = useState<SendResult | null>(null);
  const [error, setError] = useState<HttpError | null>(null);

  const onSend = (values: SendRequest) => {
    setError(null);
    send({ url, method: "post", values, ...quiet }).then(
      (answer) => setResult(answer.data),
      (err: HttpError) => setError(err),
    );
  };

  if (result)
    return (
      <>
        <SendResultView result={result} />
        <Group position="right" mt="md">
          <Button onClick={onClose}>{t("sending.done")}</Button>
        </Group>
      </>
    );
  if (query.isError) return <Text color="red">{query.error?.message ?? t("sending.couldNotOpenTheDialog")}</Text>;
  if (query.isLoading || !draft.data)
    return (
      <Center h={120}>
        <Loader />
      </Center>
    );
  return (
    <SendForm
      draft={draft.data as SendingDraft}
      sending={mutation.isPending}
      error={error}
      onSend={onSend}
      onCancel={onClose}
    />
  );
}

/** 'Send to client' on a published project's page: one mail per recipient, from this dialog. */
/** `fullWidth`: on a phone, a row of its own under the project's header. */
export function SendToClientButton({ project, fullWidth }: { project: Project; fullWidth?: boolean }) {
  const [opened, setOpened] = useState(false);
  if (project.publishStatus !== "published") return null;
  return (
    <>
      <Button leftIcon={<IconSend size={16} />} onClick={() => setOpened(true)} fullWidth={fullWidth}>
        {t("sending.sendToClient")}
      </Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title={t("sending.sendToClient")} size="lg" centered>
        {opened && <SendDialog projectId={project.id} onClose={() => setOpened(false)} />}
      </Modal>
    </>
  );
}
