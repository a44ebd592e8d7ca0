import { Fragment, useState, type ReactNode } from "react";
import { Badge, Card, Center, Group, Loader, Stack, Text, Title, UnstyledButton } from "@mantine/core";
import type { FavouriteVisitor } from "../../../../api/favourites";
import type { Project } from "../../../../api/types";
import { formatDateTime } from "../../lib/format";
import { SelectionPanel } from "./selection-panel";
import { useFavouriteVisitors } from "./use-favourites";
import { t } from "../../i18n";

function SentBadge({ visitor }: { visitor: FavouriteVisitor }) {
  if (visitor.sent)
    return (
      <Badge color="green" variant="light">
        {t("favourites.sent", { submittedAt: formatDateTime(visitor.submittedAt) })}
      </Badge>
    );
  if (visitor.submittedAt)
    return (
      <Badge color="orange" variant="light">
        {t("favourites.changedSinceSent")}
      </Badge>
    );
  return (
    <Badge color="gray" variant="light">
      {t("favourites.notSentYet")}
    </Badge>
  );
}

function VisitorRow({
  visitor,
  chosen,
  onChoose,
}: {
  visitor: FavouriteVisitor;
  chosen: boolean;
  onChoose: () => void;
}) {
  return (
    <UnstyledButton
      onClick={onChoose}
      aria-pressed={chosen}
      sx={(theme) => ({
        display: "block",
        width: "100%",
        padding: theme.spacing.xs,
        borderRadius: theme.radius.sm,
        border: `1px solid ${chosen ? theme.colors.blue[6] : theme.colors.gray[3]}`,
        backgroundColor: chosen ? theme.colors.blue[0] : undefined,
      })}
    >
      <Group position="apart" spacing="xs">
        <div style={{ minWidth: 0 }}>
          <Text weight={600} sx={{ overflowWrap: "anywhere" }}>
            {visitor.name}
          </Text>
          <Text size="sm" color="dimmed" sx={{ overflowWrap: "anywhere" }}>
            {visitor.email}
          </Text>
        </div>
        <Group spacing={6}>
          <Badge variant="outline">{t("favourites.photoCount", { count: visitor.count })}</Badge>
          <SentBadge visitor={visitor} />
        </Group>
      </Group>
      <Text size="xs" color="dimmed" mt={4}>
        {t("favourites.lastChange", { changedAt: formatDateTime(visitor.changedAt) })}
      </Text>
    </UnstyledButton>
  );
}

type Favourites = ReturnType<typeof useFavouriteVisitors>;

/**
 * The project's 'Favourites': each visitor of the delivery page, and the chosen one's picks; live.
 * `first`: the card heads its column (the project has favourites), else it follows the photos.
 */
function FavouritesCard({ project, favourites, first }: { project: Project; favourites: Favourites; first: boolean }) {
  const [chosenId, setChosenId] = useState<number | undefined>(undefined);
  const { visitors, loading, failed } = favourites;
  const limit = project.delivery.favouritesLimit;
  // Until staff choose, the latest visitor's picks are shown.
  const shownId = visitors.some((v) => v.id === chosenId) ? chosenId : visitors[0]?.id;

  return (
    <Card
      withBorder
      shadow="xs"
      radius="md"
      p="lg"
      mt={first ? 0 : "md"}
      mb={first ? "md" : 0}
      aria-label={t("favourites.favourites")}
    >
      <Title order={4}>{t("favourites.favourites")}</Title>
      <Text size="sm" color="dimmed" mb="md">
        {limit
          ? t("favourites.eachVisitorOfTheDeliveryPage", { limit })
          : t("favourites.visitorsOfTheDeliveryPageChoose")}
      </Text>
      {loading ? (
        <Center h={60}>
          <Loader size="sm" />
        </Center>
      ) : failed ? (
        <Text size="sm" color="red">
          {t("favourites.couldNotLoadTheFavourites")}
        </Text>
      ) : visitors.length === 0 ? (
        <Text size="sm" color="dimmed">
          {t("favourites.noFavouritesYetWhenYourClient")}
        </Text>
      ) : (
        <Stack spacing="md">
          <Stack spacing="xs" aria-label={t("favourites.visitors")}>
            {visitors.map((v) => (
              <VisitorRow key={v.id} visitor={v} chosen={v.id === shownId} onChoose={() => setChosenId(v.id)} />
            ))}
          </Stack>
          {shownId !== undefined && <SelectionPanel key={shownId} projectId={project.id} visitorId={shownId} />}
        </Stack>
      )}
    </Card>
  );
}

/**
 * The photos (`children`) with the Favourites card after them, or before them once a client has
 * chosen some. Keyed, so moving the card keeps both cards' state.
 */
export function FavouritesWithPhotos({ project, children }: { project: Project; children: ReactNode }) {
  const favourites = useFavouriteVisitors(project.id);
  const first = favourites.visitors.some((v) => v.count > 0 || v.submittedAt !== null);
  const card = <FavouritesCard key="favourites" project={project} favourites={favourites} first={first} />;
  const photos = <Fragment key="photos">{children}</Fragment>;
  return <>{first ? [card, photos] : [photos, card]}</>;
}
