import { createStyles } from "@mantine/core";
import { t } from "../../i18n";

export const MAIN_ID = "main-content";

const useStyles = createStyles((theme) => ({
  link: {
    position: "absolute",
    left: theme.spacing.sm,
    top: -100,
    zIndex: 1000,
    padding: `${theme.spacing.xs}px ${theme.spacing.md}px`,
    borderRadius: theme.radius.sm,
    background: theme.white,
    color: theme.colors.primary[9],
    fontWeight: 600,
    boxShadow: theme.shadows.md,
    // Out of sight until a keyboard reaches it: the first stop of every page.
    "&:focus": { top: theme.spacing.sm, outline: `2px solid ${theme.colors.primary[9]}` },
  },
}));

/** 'Skip to main content': past the header and the navigation, to the page's own content. */
export function SkipLink() {
  const { classes } = useStyles();
  return (
    <a
      className={classes.link}
      href={`#${MAIN_ID}`}
      onClick={(event) => {
        // The router owns the address: move the focus without a fragment navigation.
        event.preventDefault();
        document.getElementById(MAIN_ID)?.focus();
      }}
    >
      {t("layout.skipToMainContent")}
    </a>
  );
}
