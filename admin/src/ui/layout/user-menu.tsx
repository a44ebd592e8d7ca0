import { ActionIcon, Box, Menu } from "@mantine/core";
import { useCustomMutation, useNotification, type HttpError } from "@refinedev/core";
import { IconApi, IconCheck, IconKey, IconShieldLock, IconUserCircle } from "@tabler/icons-react";
import { useNavigate } from "react-router";
import { currentLanguage, LANGUAGE_NAMES, LANGUAGES, setLanguage, t, type Language } from "../../i18n";
import { updateSessionUser, type User } from "../../providers/session";

/** The signed-in person's own things: their sign-in's security, their API tokens, the API's reference and the web app's language. */
export function UserMenu({ email }: { email: string | undefined }) {
  const navigate = useNavigate();
  return (
    <Menu position="bottom-end" withArrow shadow="md">
      <Menu.Target>
        <ActionIcon size="lg" variant="light" aria-label={t("layout.accountMenu")}>
          <IconUserCircle size={20} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {email && <Menu.Label>{email}</Menu.Label>}
        <Menu.Item icon={<IconShieldLock size={16} />} onClick={() => navigate("/account/security")}>
          {t("security.menuItem")}
        </Menu.Item>
        <Menu.Item icon={<IconKey size={16} />} onClick={() => navigate("/account/tokens")}>
          {t("layout.apiTokens")}
        </Menu.Item>
        {/* Served by the server itself (swagger-ui), outside the web app's routes. */}
        <Menu.Item
          component="a"
          href="/api/docs"
          target="_blank"
          rel="noopener noreferrer"
          icon={<IconApi size={16} />}
        >
          {t("layout.apiReference")}
        </Menu.Item>
        <Menu.Divider />
        <LanguageChoices />
      </Menu.Dropdown>
    </Menu>
  );
}

/**
 * The web app's languages, each by its own name. A choice shows at once and is kept on the user's
 * record (PATCH /api/users/me), so every browser they sign in on follows it; a refused save goes back.
 */
function LanguageChoices() {
  const { mutateAsync: save } = useCustomMutation<User>();
  const { open: notify } = useNotification();
  const current = currentLanguage();

  const choose = (language: Language) => {
    if (language === current) return;
    void setLanguage(language);
    save({
      url: "/users/me",
      method: "patch",
      values: { language },
      successNotification: false,
      errorNotification: false,
    }).then(
      ({ data }) => updateSessionUser(data),
      (error: HttpError) => {
        void setLanguage(current);
        notify?.({ type: "error", message: t("layout.languageNotSaved"), description: error.message });
      },
    );
  };

  return (
    <>
      <Menu.Label>{t("layout.language")}</Menu.Label>
      {LANGUAGES.map((language) => (
        <Menu.Item
          key={language}
          lang={language}
          aria-current={language === current ? "true" : undefined}
          icon={language === current ? <IconCheck size={16} /> : <Box w={16} />}
          onClick={() => choose(language)}
        >
          {LANGUAGE_NAMES[language]}
        </Menu.Item>
      ))}
    </>
  );
}
