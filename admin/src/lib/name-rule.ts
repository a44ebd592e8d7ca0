import { oneLineProblem } from "./one-line";
import { t } from "../i18n";

/** The one rule for client, contact and project names: required once trimmed, and on one line (the server's rule). */
export function nameError(value: string | null | undefined): string | null {
  const name = (value ?? "").trim();
  return name ? oneLineProblem("app.name", name) : t("app.nameRequired");
}
