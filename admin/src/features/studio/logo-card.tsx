import { useState } from "react";
import { Button, Card, FileButton, Group, Image, Stack, Text, Title } from "@mantine/core";
import { useCustomMutation, useInvalidate, type HttpError } from "@refinedev/core";
import { IconPhotoUp, IconTrash } from "@tabler/icons-react";
import type { StudioSettings } from "../../../../api/types";
import { t } from "../../i18n";

/** What the server re-encodes: the photo types (SVG is refused, as it could carry a script). */
const LOGO_TYPES = "image/png,image/jpeg,image/webp,image/gif";
const MAX_LOGO_BYTES = 2 * 1024 * 1024;

const messageOf = (error: unknown) => (error as Partial<HttpError>)?.message || t("studio.logoNotSaved");

/** The logo: uploaded as the image's own bytes to PUT /studio/logo, removed with DELETE. */
export function LogoCard({ logoUrl }: { logoUrl: string | null }) {
  const invalidate = useInvalidate();
  const { mutate, mutation } = useCustomMutation<StudioSettings>();
  const [error, setError] = useState<string | null>(null);
  const refetch = () => invalidate({ resource: "studio", invalidates: ["detail"], id: "settings" });
  const handlers = (message: string) => ({
    onSuccess: () => {
      setError(null);
      void refetch();
    },
    onError: (err: unknown) => setError(messageOf(err)),
    successNotification: { type: "success" as const, message },
  });

  const upload = (file: File | null) => {
    if (!file) return;
    if (file.size > MAX_LOGO_BYTES) return setError(t("studio.logoTooLarge"));
    const { onSuccess, onError, successNotification } = handlers(t("studio.logoSaved"));
    mutate(
      {
        url: "/studio/logo",
        method: "put",
        values: file,
        config: { headers: { "Content-Type": file.type || "application/octet-stream" } },
        successNotification,
        errorNotification: false,
      },
      { onSuccess, onError },
    );
  };

  const remove = () => {
    const { onSuccess, onError, successNotification } = handlers(t("studio.logoRemoved"));
    mutate(
      { url: "/studio/logo", method: "delete", values: {}, successNotification, errorNotification: false },
      {
        onSuccess,
        onError,
      },
    );
  };

  return (
    <Card withBorder p="lg">
      <Stack spacing="sm">
        <Title order={2} size="h4">
          {t("studio.logo")}
        </Title>
        {logoUrl ? (
          <Image src={logoUrl} alt={t("studio.studioLogo")} height={64} fit="contain" width={240} />
        ) : (
          <Text color="dimmed">{t("studio.noLogoTheDeliveryPagesShow")}</Text>
        )}
        <Text size="sm" color="dimmed">
          {t("studio.pngJpegWebpOrGifUp")}
        </Text>
        {error && (
          <Text size="sm" color="red" role="alert">
            {error}
          </Text>
        )}
        <Group spacing="xs">
          <FileButton onChange={upload} accept={LOGO_TYPES}>
            {(props) => (
              <Button {...props} leftIcon={<IconPhotoUp size={16} />} loading={mutation.isPending}>
                {logoUrl ? t("studio.replaceLogo") : t("studio.uploadLogo")}
              </Button>
            )}
          </FileButton>
          {logoUrl && (
            <Button variant="default" color="red" leftIcon={<IconTrash size={16} />} onClick={remove}>
              {t("studio.removeLogo")}
            </Button>
          )}
        </Group>
      </Stack>
    </Card>
  );
}
