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
  // Null until the identity is known.
  const language = !isSuccess ? null : user && isLanguage(user.language) ? user.language : browserLanguage();
  useEffect(() => {
    if (language) void setLanguage(language);
  }, [language]);
  return null;
}
