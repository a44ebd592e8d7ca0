import { useCustomMutation, useInvalidate } from "@refinedev/core";
import type { Project } from "../../../../api/types";
import type { ClientLanguage } from "../../../../api/client-languages";
import { t } from "../../i18n";

export interface DeliverySettingsChange {
  expiresAt?: string | null;
  passcode?: string | null;
  allowDownloads?: boolean;
  offerWebSize?: boolean;
  favouritesLimit?: number | null;
  /** The gallery's and its mails' language; null: the studio's. */
  language?: ClientLanguage | null;
}

/** PUT /projects/:id/delivery (If-Match from `meta.ifMatch`) and POST /projects/:id/delivery/regenerate; the project is refetched after each. */
export function useDeliveryActions(projectId: number) {
  const invalidate = useInvalidate();
  const { mutateAsync: save, mutation: saving } = useCustomMutation<Project>();
  const { mutateAsync: regenerate, mutation: regenerating } = useCustomMutation<Project>();
  // The project page reads its project from the list endpoint (by id), other views from the detail.
  const refetch = () => invalidate({ resource: "projects", invalidates: ["list", "detail"], id: projectId });
  // The form and the dialog show a failure themselves.
  const saved = (message: string) => ({
    successNotification: { type: "success" as const, message },
    errorNotification: false as const,
  });

  return {
    /** Only the given settings change; with `version`, only if nobody saved the project since (else 412). */
    saveSettings: (values: DeliverySettingsChange, version?: number) =>
      save({
        url: `/projects/${projectId}/delivery`,
        method: "put",
        values,
        meta: { ifMatch: version },
        ...saved(t("delivery.settingsSaved")),
      })
        .then(({ data }) => data)
        .finally(refetch),
    regenerateLink: () =>
      regenerate({
        url: `/projects/${projectId}/delivery/regenerate`,
        method: "post",
        values: {},
        ...saved(t("delivery.newLinkLive")),
      }).finally(refetch),
    saving: saving.isPending,
    regenerating: regenerating.isPending,
  };
}
