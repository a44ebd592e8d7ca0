import type { MantineThemeOverride } from "@mantine/core";
import { t } from "../i18n";

// Refine's blue Mantine theme, declared here so the first load does not pull in @refinedev/mantine.
const fontFamily = [
  "Montserrat",
  "-apple-system",
  "BlinkMacSystemFont",
  '"Segoe UI"',
  "Roboto",
  '"Helvetica Neue"',
  "Arial",
  "sans-serif",
  '"Apple Color Emoji"',
  '"Segoe UI Emoji"',
  '"Segoe UI Symbol"',
].join(",");

const theme: MantineThemeOverride = {
  colorScheme: "light",
  fontFamily,
  headings: { fontFamily },
  colors: {
    // Mantine's grays, with the dimmed text's shade (6) darkened from #868e96 (3.3:1 on white) to 5.6:1.
    gray: [
      "#f8f9fa",
      "#f1f3f5",
      "#e9ecef",
      "#dee2e6",
      "#ced4da",
      "#adb5bd",
      "#5f676e",
      "#495057",
      "#343a40",
      "#212529",
    ],
    // Mantine's greens and oranges with shade 9 darkened: white on green 9 read 4.4:1 (Approve)
    // and orange 9 on orange 0 3.96:1 (the Pending badge); now 5.4:1 and 4.9:1.
    green: [
      "#ebfbee",
      "#d3f9d8",
      "#b2f2bb",
      "#8ce99a",
      "#69db7c",
      "#51cf66",
      "#40c057",
      "#37b24d",
      "#2f9e44",
      "#237a36",
    ],
    orange: [
      "#fff4e6",
      "#ffe8cc",
      "#ffd8a8",
      "#ffc078",
      "#ffa94d",
      "#ff922b",
      "#fd7e14",
      "#f76707",
      "#e8590c",
      "#bf3f0d",
    ],
    primary: [
      "#E7F5FF",
      "#D0EBFF",
      "#A5D8FF",
      "#74C0FC",
      "#4DABF7",
      "#339AF0",
      "#228BE6",
      "#1C7ED6",
      "#1971C2",
      "#1864AB",
    ],
  },
  black: "#626262",
  primaryColor: "primary",
  // Filled buttons, red and green text and badges at Mantine's shade 6 read below 4.5:1 on white
  // (axe-core's colour-contrast rule); shade 9 reads above it.
  primaryShade: { light: 9, dark: 8 },
  defaultRadius: 6,
  components: {
    // Links read at the primary shade 9 like the buttons: Mantine's shade 7 is 4.0:1 on white.
    Anchor: { styles: (theme) => ({ root: { color: theme.colors.primary[9] } }) },
    // No exit transition: a menu still fading out while a dialog opens from it leaves Mantine 5's
    // focus traps out of step, and the page stays aria-hidden after the dialog closes.
    Menu: { defaultProps: { transitionDuration: 0 } },
    // Dialogs never grow wider than a phone's screen.
    Modal: { styles: { modal: { maxWidth: "100%" } } },
  },
};

/** The theme with the words Mantine's own controls say (a dialog's close button) in the current language. */
export const themeInLanguage = (): MantineThemeOverride => ({
  ...theme,
  components: {
    ...theme.components,
    Modal: { ...theme.components?.Modal, defaultProps: { closeButtonLabel: t("ui.close") } },
  },
});
