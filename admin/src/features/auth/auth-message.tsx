import { Text } from "@mantine/core";

/** A result line under an auth form: the identity provider's error in red, or a success in green. */
export function AuthMessage({ error, success }: { error?: string | null; success?: string | null }) {
  if (error) {
    return (
      <Text color="red" size="sm" role="alert">
        {error}
      </Text>
    );
  }
  if (success) {
    return (
      <Text color="green" size="sm" role="status">
        {success}
      </Text>
    );
  }
  return null;
}
