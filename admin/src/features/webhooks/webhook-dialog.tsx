import { useState } from "react";
import { Alert, Button, Divider, Group, Modal, Switch, Text } from "@mantine/core";
import { useCreate, useUpdate, type HttpError } from "@refinedev/core";
import type { Webhook, WebhookWithSecret } from "../../../../api/types";
import { FailureAlert } from "../../ui/failure-alert";
import { ShownOnceSecret } from "../../ui/shown-once-secret";
import { namesAField, WebhookFields, type WebhookFieldValues } from "./webhook-fields";
import { t } from "../../i18n";

const EMPTY: WebhookFieldValues = { url: "", events: [], description: "" };

const valuesOf = (webhook: Webhook | undefined): WebhookFieldValues =>
  webhook ? { url: webhook.url, events: webhook.events, description: webhook.description ?? "" } : EMPTY;

/**
 * 'New webhook' (no `webhook`) or its edit dialog; a new or rotated signing secret is shown once.
 * Mounted only while open, so each opening starts from the webhook as listed.
 */
export function WebhookDialog({ webhook, onClose }: { webhook?: Webhook; onClose: () => void }) {
  const [values, setValues] = useState(() => valuesOf(webhook));
  const [active, setActive] = useState(webhook?.active ?? true);
  const [secret, setSecret] = useState<string | null>(null);
  const [error, setError] = useState<HttpError | null>(null);
  const { mutate: create, mutation: creating } = useCreate<WebhookWithSecret, HttpError>();
  const { mutate: update, mutation: updating } = useUpdate<Webhook | WebhookWithSecret, HttpError>();
  const { mutateAsync: rotate, mutation: rotating } = useUpdate<WebhookWithSecret, HttpError>();

  const fields = { url: values.url.trim(), events: values.events, description: values.description.trim() };
  const quiet = { successNotification: false, errorNotification: false } as const;
  const submit = () => {
    setError(null);
    if (!webhook)
      create(
        { resource: "webhooks", values: fields, ...quiet },
        { onSuccess: (answer) => setSecret(answer.data.secret), onError: setError },
      );
    else
      update(
        { resource: "webhooks", id: webhook.id, values: { ...fields, active }, ...quiet },
        { onSuccess: onClose, onError: setError },
      );
  };
  const rotateSecret = async () => {
    if (!webhook) return;
    setError(null);
    const answer = await rotate({ resource: "webhooks", id: webhook.id, values: { rotateSecret: true }, ...quiet });
    setSecret(answer.data.secret);
  };

  const title = secret ? t("webhooks.signingSecret") : webhook ? t("webhooks.editWebhook") : t("webhooks.newWebhook");
  return (
    <Modal opened onClose={onClose} title={title} centered size="lg">
      {secret ? (
        <ShownOnceSecret
          secret={secret}
          label={t("webhooks.signingSecret")}
          copyLabel={t("webhooks.copySecret")}
          onDone={onClose}
        />
      ) : (
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <WebhookFields values={values} onChange={setValues} error={error} />
          {webhook && (
            <>
              <Switch
                mt="md"
                label={t("webhooks.active")}
                description={webhook.active ? undefined : t("webhooks.offTurnedOffByHandOr")}
                checked={active}
                onChange={(event) => setActive(event.currentTarget.checked)}
              />
              <Divider my="md" />
              <RotateSecret pending={rotating.isPending} onConfirm={rotateSecret} />
            </>
          )}
          {error && !namesAField(error) && <FailureAlert message={error.message} />}
          <Group position="right" mt="lg">
            <Button variant="default" onClick={onClose}>
              {t("webhooks.cancel")}
            </Button>
            <Button
              type="submit"
              loading={creating.isPending || updating.isPending}
              disabled={fields.url === "" || fields.events.length === 0}
            >
              {webhook ? t("webhooks.save") : t("webhooks.createWebhook")}
            </Button>
          </Group>
        </form>
      )}
    </Modal>
  );
}

/** 'Rotate secret', confirmed in place (a dialog over this dialog would trap the focus twice). */
function RotateSecret({ pending, onConfirm }: { pending: boolean; onConfirm: () => Promise<void> }) {
  const [asking, setAsking] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  if (!asking)
    return (
      <Group position="apart" noWrap>
        <Text size="sm" color="dimmed">
          {t("webhooks.aNewSecretStopsTheOld")}
        </Text>
        <Button variant="default" onClick={() => setAsking(true)}>
          {t("webhooks.rotateSecret")}
        </Button>
      </Group>
    );
  return (
    <Alert color="yellow" title={t("webhooks.rotateTheSigningSecret")}>
      <Text size="sm">{t("webhooks.receiversMustUseTheNewSecret")}</Text>
      {failure && <FailureAlert message={failure} mt="xs" />}
      <Group position="right" spacing="xs" mt="sm">
        <Button variant="default" onClick={() => setAsking(false)}>
          {t("webhooks.cancel")}
        </Button>
        <Button
          color="red"
          loading={pending}
          onClick={() => {
            setFailure(null);
            onConfirm().catch((error: { message?: string }) => setFailure(error.message ?? t("webhooks.rotateFailed")));
          }}
        >
          {t("webhooks.rotateNow")}
        </Button>
      </Group>
    </Alert>
  );
}
