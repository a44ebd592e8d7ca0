import { useCustom } from "@refinedev/core";
import { absoluteUrl } from "../../lib/copy-text";

/** A path of this server as the client gets it: under PUBLIC_URL when the server has one, as its mails are. */
export function clientLink(path: string, publicUrl: string | null | undefined): string {
  return publicUrl ? `${publicUrl}${path}` : absoluteUrl(path);
}

/** Turns a path into the link the client gets; the browser's own address until the server has said. */
export function useClientLink(): (path: string) => string {
  const { result } = useCustom<{ publicUrl?: string | null }>({
    url: "/auth/config",
    method: "get",
    queryOptions: { staleTime: Infinity, retry: 1 },
    errorNotification: false,
  });
  const publicUrl = (result.data as { publicUrl?: string | null } | undefined)?.publicUrl;
  return (path) => clientLink(path, publicUrl);
}
