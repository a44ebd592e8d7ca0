import { Center, Group, Loader, Stack, Text } from "@mantine/core";
import { LoadError } from "../../ui/load-error";
import { useRef } from "react";
import { useShow, useSubscription } from "@refinedev/core";
import { useParams } from "react-router";
import { ClientFormModal } from "./client-form-modal";
import type { ClientWithRelations } from "../../../../api/types";
import { useClientModalForm } from "./use-client-modal-form";
import { ContactsPanel } from "../contacts";
import { ProjectsPanel } from "../projects";
import { parseRouteId } from "../../lib/route-id";
import { usePhone } from "../../lib/use-phone";
import { ClientDetailsCard, ClientFactsCard } from "./client-details-card";
import { t } from "../../i18n";

export function ClientShow() {
  const clientId = parseRouteId(useParams().id);
  if (clientId === null) return <ClientLoadError />;
  // Keyed by id so that moving between clients starts from a clean page (tabs, dialogs).
  return <ClientPage key={clientId} clientId={clientId} />;
}

function ClientLoadError() {
  return (
    <LoadError
      title={t("clients.errorLoadingClient")}
      message={t("clients.clientNotFoundOrFailedTo")}
      back={{ to: "/clients/all", label: t("clients.backToAll") }}
    />
  );
}

function ClientPage({ clientId }: { clientId: number }) {
  const { query, result: client } = useShow<ClientWithRelations>({
    resource: "clients",
    id: clientId,
    errorNotification: false,
  });
  // The client embeds its contacts and projects: their own changes refresh it too.
  const refetch = useRef(query.refetch);
  refetch.current = query.refetch;
  const onLiveEvent = () => void refetch.current();
  useSubscription({ channel: "resources/contacts", onLiveEvent });
  useSubscription({ channel: "resources/projects", onLiveEvent });

  if (query.isLoading) {
    return (
      <Center py="xl">
        <Group spacing="sm">
          <Loader size="sm" />
          <Text>{t("clients.loadingClient")}</Text>
        </Group>
      </Center>
    );
  }
  if (query.isError || !client) return <ClientLoadError />;
  return <ClientContent client={client} />;
}

function ClientContent({ client }: { client: ClientWithRelations }) {
  // Mounted only once the client has loaded: the edit form observes the same record, and would
  // otherwise report a failed load as a toast beside the page's own alert.
  const editForm = useClientModalForm("edit");
  const phone = usePhone();
  return (
    <Stack spacing="md">
      <ClientDetailsCard client={client} onEdit={() => editForm.showFor(client)} withFacts={!phone} />
      <ContactsPanel clientId={client.id} contacts={client.contacts} />
      <ProjectsPanel
        clientId={client.id}
        projects={newestFirst(client.projects)}
        total={client.projects.length}
        showClient={false}
        showAttachmentCount
      />
      {phone && <ClientFactsCard client={client} />}
      <ClientFormModal form={editForm} title={t("clients.editClient")} />
    </Stack>
  );
}

const newestFirst = (projects: ClientWithRelations["projects"]) =>
  [...projects].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id - a.id);
