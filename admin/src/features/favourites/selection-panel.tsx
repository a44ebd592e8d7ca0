import { useEffect, useState } from "react";
import { Box, Button, Center, Group, Image, Loader, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { IconCheck, IconCopy } from "@tabler/icons-react";
import { fileNameLines, lightroomFilter } from "../../../../api/favourites";
import { copyText } from "../../lib/copy-text";
import { useFavouriteSelection } from "./use-favourites";
import { t } from "../../i18n";

/** A button that copies `text` and says 'Copied!' for 2 seconds. */
function CopyTextButton({ label, text }: { label: string; text: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <Button
      variant="default"
      size="xs"
      leftIcon={copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
      onClick={() => void copyText(text).then(() => setCopied(true))}
    >
      {copied ? t("favourites.copied") : label}
    </Button>
  );
}

/** One visitor's picks: the project's photos they chose, with their comments, and the names to copy. */
export function SelectionPanel({ projectId, visitorId }: { projectId: number; visitorId: number }) {
  const { selection, loading, failed } = useFavouriteSelection(projectId, visitorId);
  if (loading)
    return (
      <Center h={80}>
        <Loader size="sm" />
      </Center>
    );
  if (failed || !selection)
    return (
      <Text size="sm" color="red">
        {t("favourites.couldNotLoadThisSelection")}
      </Text>
    );
  const names = selection.picks.map((p) => p.originalName);
  return (
    <Stack spacing="sm" aria-label={t("favourites.picksOf", { name: selection.name })}>
      <Group position="apart" spacing="xs">
        <Title order={5}>{t("favourites.picksTitle", { name: selection.name, count: selection.picks.length })}</Title>
        {names.length > 0 && (
          <Group spacing="xs">
            <CopyTextButton label={t("favourites.copyFileNames")} text={fileNameLines(names)} />
            <CopyTextButton label={t("favourites.copyLightroomFilter")} text={lightroomFilter(names)} />
          </Group>
        )}
      </Group>
      {names.length === 0 ? (
        <Text size="sm" color="dimmed">
          {t("favourites.noPhotosOnThisListRight")}
        </Text>
      ) : (
        <SimpleGrid
          cols={5}
          spacing="sm"
          breakpoints={[{ maxWidth: "sm", cols: 3 }]}
          aria-label={t("favourites.pickedPhotos")}
        >
          {selection.picks.map((pick) => (
            <Box key={pick.attachmentId} component="figure" m={0}>
              <Image src={pick.thumbnailUrl} alt={pick.originalName} radius="sm" height={110} fit="cover" />
              <Box component="figcaption" mt={4} sx={{ overflowWrap: "anywhere" }}>
                <Text size="xs">{pick.originalName}</Text>
                {pick.comment && (
                  <Text size="sm" italic>
                    “{pick.comment}”
                  </Text>
                )}
              </Box>
            </Box>
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}
