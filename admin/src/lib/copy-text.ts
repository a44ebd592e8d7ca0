/** A path of this server as the address a person can paste anywhere. */
export const absoluteUrl = (path: string) => new URL(path, window.location.origin).toString();

/** The clipboard API needs a secure context and permission; a selected textarea works almost everywhere. */
export async function copyText(text: string): Promise<void> {
  try {
    if (!navigator.clipboard) throw new Error("no clipboard");
    await navigator.clipboard.writeText(text);
  } catch {
    const area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.appendChild(area);
    area.select();
    try {
      document.execCommand("copy");
    } finally {
      document.body.removeChild(area);
    }
  }
}
