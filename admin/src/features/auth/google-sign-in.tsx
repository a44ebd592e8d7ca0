import { useState } from "react";
import { Button } from "@mantine/core";
import { useLogin } from "@refinedev/core";
import { IconBrandGoogle } from "@tabler/icons-react";
import type { SignInVariables } from "../../providers/auth-provider";
import { AuthMessage } from "./auth-message";
import { t } from "../../i18n";

interface PromptMoment {
  isNotDisplayed?: () => boolean;
  isSkippedMoment?: () => boolean;
}

interface GoogleIdentity {
  accounts: {
    id: {
      initialize(options: { client_id: string; callback: (response: { credential?: string }) => void }): void;
      prompt(onMoment?: (moment: PromptMoment) => void): void;
    };
  };
}

declare global {
  interface Window {
    google?: GoogleIdentity;
  }
}

const GSI_SCRIPT = "https://accounts.google.com/gsi/client";
let gsiLoading: Promise<GoogleIdentity> | null = null;

// Loaded on first click only, so installs without Google never contact Google at all.
function loadGoogleIdentity(): Promise<GoogleIdentity> {
  gsiLoading ??= new Promise<GoogleIdentity>((resolve, reject) => {
    const script = document.createElement("script");
    script.src = GSI_SCRIPT;
    script.async = true;
    script.onload = () => (window.google ? resolve(window.google) : reject(new Error("Google sign-in did not load")));
    script.onerror = () => {
      gsiLoading = null;
      reject(new Error("Google sign-in could not be loaded"));
    };
    document.head.appendChild(script);
  });
  return gsiLoading;
}

export function GoogleSignIn({ clientId }: { clientId: string }) {
  const { mutate: login, isPending } = useLogin<SignInVariables>();
  const [error, setError] = useState<string | null>(null);

  const handleClick = async () => {
    setError(null);
    try {
      const google = await loadGoogleIdentity();
      google.accounts.id.initialize({
        client_id: clientId,
        callback: ({ credential }) => {
          if (!credential) return;
          login(
            { providerName: "google", credential },
            { onSuccess: (result) => setError(result.success ? null : (result.error?.message ?? null)) },
          );
        },
      });
      google.accounts.id.prompt((moment) => {
        // One Tap stays silent when the browser blocks it or the user closed it; say so instead.
        if (moment.isNotDisplayed?.() || moment.isSkippedMoment?.()) {
          setError(t("auth.googleClosed"));
        }
      });
    } catch (failure) {
      setError((failure as Error).message);
    }
  };

  return (
    <>
      <Button
        variant="default"
        fullWidth
        leftIcon={<IconBrandGoogle size={18} />}
        loading={isPending}
        onClick={handleClick}
      >
        {t("auth.continueWithGoogle")}
      </Button>
      <AuthMessage error={error} />
    </>
  );
}
