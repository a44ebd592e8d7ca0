import { absoluteUrl } from "../../lib/copy-text";
import { useAuthConfig } from "../auth";

/** A path of this server as the client gets it: under PUBLIC_URL when the server has one, as its mails are. */
export function clientLink(path: string, publicUrl: string | null | undefined): string {
  return publicUrl ? `${publicUrl}${path}` : absoluteUrl(path);
}

/** Turns a path into the link the client gets; the browser's own address until the server has said. */
export function useClientLink(): (path: string) => string {
  const { publicUrl } = useAuthConfig();
  return (path) => clientLink(path, publicUrl);
}
