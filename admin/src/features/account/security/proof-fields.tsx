import { PasswordInput, SegmentedControl, Stack, TextInput } from "@mantine/core";
import type { HttpError } from "@refinedev/core";
import { t } from "../../../i18n";

/** The password or a current two-factor code: what a step that weakens or extends one's sign-in asks for. */
export interface Proof {
  kind: "password" | "code";
  value: string;
}

export const emptyProof = (twoFactorOn: boolean): Proof => ({ kind: twoFactorOn ? "code" : "password", value: "" });

/** The request body the server takes: `{ password }` or `{ code }`. */
export const proofBody = (proof: Proof) =>
  proof.kind === "code" ? { code: proof.value.replace(/\s+/g, "") } : { password: proof.value };

/** The field's own message for a refused proof; the server's message for anything else. */
export function proofError(error: HttpError | null, proof: Proof): string | undefined {
  if (!error?.errors) return undefined;
  if (proof.kind === "code" && error.errors.code) return t("security.wrongCode");
  if (proof.kind === "password" && error.errors.password) return t("security.wrongPassword");
  return undefined;
}

/** Password, or (with two-factor on) a choice between it and the authenticator's code. */
export function ProofFields({
  proof,
  onChange,
  twoFactorOn,
  error,
}: {
  proof: Proof;
  onChange: (proof: Proof) => void;
  twoFactorOn: boolean;
  error?: string;
}) {
  return (
    <Stack spacing="xs">
      {twoFactorOn && (
        <SegmentedControl
          aria-label={t("security.proveWith")}
          value={proof.kind}
          onChange={(kind) => onChange({ kind: kind as Proof["kind"], value: "" })}
          data={[
            { value: "code", label: t("security.withCode") },
            { value: "password", label: t("security.withPassword") },
          ]}
        />
      )}
      {proof.kind === "code" ? (
        <TextInput
          label={t("security.codeFromApp")}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={10}
          required
          value={proof.value}
          onChange={(event) => onChange({ kind: "code", value: event.currentTarget.value })}
          error={error}
          data-autofocus
        />
      ) : (
        <PasswordInput
          label={t("security.yourPassword")}
          autoComplete="current-password"
          required
          value={proof.value}
          onChange={(event) => onChange({ kind: "password", value: event.currentTarget.value })}
          error={error}
          data-autofocus
        />
      )}
    </Stack>
  );
}
