import { useEffect } from "react";
import { useGetIdentity } from "@refinedev/core";
import type { User } from "../providers/session";
import { browserLanguage, isLanguage, setLanguage } from "./index";

/**
 * Signed in, the web app speaks the language the user chose (their record's `language`); signed
 * out (the sign-in page), the browser's when it is German, else English.
 */
export function FollowUserLanguage() {
  const { data: user, isSuccess } = useGetIdentity<User | null>();
  const chosen = user && isLanguage(user.language) ? user.language : null;
  const known = isSuccess;
  const signedIn = Boolean(user);
  useEffect(() => {
    if (!known) return;
    void setLanguage(signedIn && chosen ? chosen : browserLanguage());
  }, [known, signedIn, chosen]);
  return null;
}
